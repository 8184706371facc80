// Issue 20, on every kind of game of the registry (tests/support/kinds.cc):
// a player withdraws his own order before the turn's orders close — the
// withdrawal recorded, and the turn then run exactly as if the order had
// never been given (a twin game that never gave it ends in the same views);
// what may not be withdrawn is refused on the record and changes nothing.
// And `adjutant report orders`: what became of each player's orders, and for
// each role of his with none standing, what his book did in their place.
#include <catch2/catch.hpp>

#include <set>

#include "ledger/ledger.h"
#include "replay/correct.h"
#include "replay/driver.h"
#include "replay/orders.h"
#include "reports/reports.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"
#include "support/kinds.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

std::string Withdraw(const std::string& slot) {
  return R"({"orders": [{"body_type": "Withdrawal", "body": {"slot": ")" + slot + R"("}}]})";
}

Result<replay::SubmitReport> Send(ledger::Ledger& db, const std::string& person, const std::string& json) {
  auto file = schema::ParseJson("OrderFile", json, "orders");
  if (!file.ok()) return file.status();
  return replay::SubmitOrders(db, "g", "main", person, *file);
}

replay::GivenOrders Given(ledger::Ledger& db) {
  auto w = replay::Fold(db, "g", "main");
  REQUIRE(w.ok());
  auto at = replay::OrderPositionOf(*w);
  REQUIRE(at.ok());
  auto given = replay::OrdersGiven(db, "g", "main", *at);
  REQUIRE(given.ok());
  return *given;
}

const replay::GivenOrder* Find(const replay::GivenOrders& g, uint64_t seq) {
  for (const auto& o : g.orders) {
    if (o.seq == seq) return &o;
  }
  return nullptr;
}

// The order file `json` without the items whose submission reported `slot`.
std::string Without(const std::string& json, const replay::SubmitReport& sent, const std::string& slot) {
  auto file = schema::ParseJson("OrderFile", json, "orders");
  REQUIRE(file.ok());
  const auto* f = flatbuffers::GetRoot<fb::OrderFile>(file->data());
  std::string out;
  for (size_t i = 0; i < f->orders()->size(); ++i) {
    if (sent.orders.at(i).slot == slot) continue;
    flatbuffers::FlatBufferBuilder b;
    b.Finish(flatbuffers::Offset<fb::OrderItem>(schema::CopyTable(b, "OrderItem", f->orders()->Get(i))));
    auto j = schema::ToJson("OrderItem", b.GetBufferPointer());
    REQUIRE(j.ok());
    out += (out.empty() ? "" : ", ") + *j;
  }
  return out.empty() ? "" : R"({"orders": [)" + out + "]}";
}

void AdjudicateComing(ledger::Ledger& db, const GameKind& kind) {
  auto r = replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn);
  INFO(r.status().message());
  REQUIRE(r.ok());
  (void)kind;
}

std::string Views(ledger::Ledger& db, const GameKind& kind) {
  CliRun r = Cli(db, {"replay", "g", "--to", kind.coming.ToString()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  return r.out.substr(r.out.find('\n') + 1);  // the rows, not the heading's "as of seq N"
}

// A person of the game holding roles, other than `not_him`.
std::string Another(ledger::Ledger& db, const std::string& not_him) {
  auto w = replay::Fold(db, "g", "main");
  REQUIRE(w.ok());
  for (const auto& [person, p] : w->roster().persons()) {
    if (person != not_him && !p.roles.empty()) return person;
  }
  return "";
}

}  // namespace

TEST_CASE("issue 20: a player withdraws his order before the deadline, on every kind of game — recorded, and the turn runs as if it had never been given",
          "[withdraw]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame ga(kind), gb(kind);  // the game, and its twin that never gives the order withdrawn
      REQUIRE(ga.status.ok());
      REQUIRE(gb.status.ok());
      ledger::Ledger& a = *ga;
      ledger::Ledger& b = *gb;
      const auto& [person, json] = kind.turns.back().orders.front();
      auto sent = Send(a, person, json);
      INFO(sent.status().message());
      REQUIRE(sent.ok());
      // The first order that stands: its slot is withdrawn.
      std::string slot;
      std::set<uint64_t> in_slot;
      for (const auto& o : sent->orders) {
        if (slot.empty() && o.status == "stands") slot = o.slot;
      }
      REQUIRE_FALSE(slot.empty());
      for (const auto& o : sent->orders) {
        if (o.slot == slot && o.status == "stands") in_slot.insert(o.seq);
      }
      const uint64_t head_before = a.HeadOf("g", "main")->seq;
      auto w = Send(a, person, Withdraw(slot));
      INFO(w.status().message());
      REQUIRE(w.ok());
      REQUIRE(w->orders.size() == 1);
      CHECK(w->append.first_seq == head_before + 1);
      const replay::GivenOrders given = Given(a);
      const replay::GivenOrder* wd = Find(given, w->orders[0].seq);
      REQUIRE(wd != nullptr);
      CHECK(wd->withdrawal);
      CHECK(wd->person == person);
      if (kind.withdraws) {
        CHECK(w->orders[0].status == "withdrawal");
        CHECK_THAT(w->orders[0].reason, Catch::Contains("withdraws order"));
        CHECK(std::set<uint64_t>(wd->withdraws.begin(), wd->withdraws.end()) == in_slot);
        for (uint64_t seq : in_slot) {
          const replay::GivenOrder* o = Find(given, seq);
          REQUIRE(o != nullptr);
          CHECK(o->fate == replay::OrderFate::kWithdrawn);
          CHECK(o->by_seq == wd->seq);
        }
        // status counts it as withdrawn, not superseded nor standing.
        CliRun st = Cli(a, {"status", "g", "--json"});
        REQUIRE(st.code == 0);
        auto rep = schema::ParseJson("StatusReport", st.out, "status");
        REQUIRE(rep.ok());
        bool seen = false;
        for (const auto* row : *flatbuffers::GetRoot<fb::StatusReport>(rep->data())->persons()) {
          if (row->person()->str() != person) continue;
          seen = true;
          CHECK(row->withdrawn() == in_slot.size());
          CHECK(row->stand() == sent->orders.size() - in_slot.size() - row->refused() - row->superseded());
        }
        CHECK(seen);
        // The log says it in words.
        CliRun log = Cli(a, {"log", "g"});
        CHECK_THAT(log.out, Catch::Contains("withdraws his order standing for it"));
        // Withdrawing again: nothing of his stands there; refused on the record.
        auto again = Send(a, person, Withdraw(slot));
        REQUIRE(again.ok());
        CHECK(again->orders.at(0).status == "rejected");
        CHECK_FALSE(again->orders.at(0).rule.empty());
        // Another player cannot withdraw his order for him.
        const std::string other = Another(a, person);
        if (!other.empty()) {
          auto theirs = Send(a, other, Withdraw(slot));
          INFO(theirs.status().message());
          REQUIRE(theirs.ok());
          CHECK(theirs->orders.at(0).status == "rejected");
        }
        // The twin never gave the withdrawn order: both turns end the same.
        const std::string rest = Without(json, *sent, slot);
        if (!rest.empty()) REQUIRE(Send(b, person, rest).ok());
      } else {
        // Refused on the record, under the kind's ruleset; the order stands.
        CHECK(w->orders[0].status == "rejected");
        CHECK_FALSE(w->orders[0].rule.empty());
        for (uint64_t seq : in_slot) CHECK(Find(given, seq)->fate == replay::OrderFate::kStands);
        REQUIRE(Send(b, person, json).ok());
      }
      AdjudicateComing(a, kind);
      AdjudicateComing(b, kind);
      CHECK(Views(a, kind) == Views(b, kind));
      // After the turn: its orders closed; the slot's order cannot be withdrawn now.
      auto late = Send(a, person, Withdraw(slot));
      if (late.ok()) {
        CHECK(late->orders.at(0).status == "rejected");
        CHECK(late->at.turn != kind.coming);
      }
    }
  }
}

TEST_CASE("issue 20: an order file that mixes orders and a withdrawal, and a withdrawal that names nothing, are judged item by item",
          "[withdraw]") {
  const GameKind& kind = GameKinds().front();  // nwol: a slot a ship
  PlayedGame g(kind);
  REQUIRE(g.status.ok());
  ledger::Ledger& db = *g;
  const auto& [person, json] = kind.turns.back().orders.front();
  auto sent = Send(db, person, json);
  REQUIRE(sent.ok());
  const std::string slot = sent->orders.at(0).slot;
  // An empty slot is refused by the schema (required), nothing appended.
  const uint64_t head = db.HeadOf("g", "main")->seq;
  CHECK_FALSE(Send(db, person, R"({"orders": [{"body_type": "Withdrawal", "body": {}}]})").ok());
  CHECK(db.HeadOf("g", "main")->seq == head);
  // A slot he never ordered: refused, on the record.
  auto none = Send(db, person, Withdraw("BR/ship/NOSUCH"));
  REQUIRE(none.ok());
  CHECK(none->orders.at(0).status == "rejected");
  CHECK(none->orders.at(0).rule == "PATE 4.1");  // a ship's orders are PATE's
  auto no_build = Send(db, person, Withdraw("BR/build/NOSUCH"));
  REQUIRE(no_build.ok());
  CHECK(no_build->orders.at(0).status == "rejected");
  CHECK(no_build->orders.at(0).rule == "SOW 2.1");  // a minister's, SOW's
  // The order again, then its withdrawal, in one file: the withdrawal takes
  // the order just given (the last word stands).
  auto item = schema::ParseJson("OrderFile", json, "orders");
  REQUIRE(item.ok());
  std::string first = json.substr(json.find('[') + 1);
  first = first.substr(0, first.rfind(']'));
  auto both = Send(db, person, R"({"orders": [)" + first + R"(, {"body_type": "Withdrawal", "body": {"slot": ")" + slot +
                                   R"("}}]})");
  INFO(both.status().message());
  REQUIRE(both.ok());
  REQUIRE(both->orders.size() == 2);
  CHECK(both->orders[0].status == "withdrawn");
  CHECK(both->orders[1].status == "withdrawal");
  for (const auto& o : Given(db).orders) {
    if (o.slot == slot && !o.withdrawal) CHECK(o.fate != replay::OrderFate::kStands);
  }
}

TEST_CASE("issue 20: report orders, on every kind of game — each of a player's orders as received and as carried out, and for each of his roles with none standing what the book did instead",
          "[orders-report]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const TurnPlan& last = kind.turns.back();
      auto world = replay::Fold(db, "g", "main");
      REQUIRE(world.ok());
      std::set<std::string> ordered;
      for (const auto& [p, json] : last.orders) ordered.insert(p);
      size_t outcomes = 0;
      for (const auto& [person, p] : world->roster().persons()) {
        if (p.roles.empty()) continue;
        INFO(person);
        // The player's own report (MayRead: his own), by default the last turn adjudicated.
        reports::Viewer me;
        me.person = person;
        me.roles.assign(p.roles.begin(), p.roles.end());
        reports::Request rq;
        rq.kind = reports::Kind::kOrders;
        rq.game = "g";
        rq.format = reports::Format::kJson;
        auto r = reports::Build(db, me, rq);
        INFO(r.status().message());
        REQUIRE(r.ok());
        auto bytes = schema::ParseJson("OrdersReport", r->body, "orders report");
        REQUIRE(bytes.ok());
        const auto* rep = flatbuffers::GetRoot<fb::OrdersReport>(bytes->data());
        CHECK(rep->turn()->str() == last.turn.ToString());
        CHECK(rep->person()->str() == person);
        size_t rows = rep->orders() ? rep->orders()->size() : 0;
        size_t missing = rep->missing() ? rep->missing()->size() : 0;
        if (ordered.count(person)) {
          CHECK(rows > 0);
        } else {
          // He gave none: his report lists none, and says what stood in their place.
          CHECK(rows == 0);
          CHECK(missing > 0);
        }
        for (size_t i = 0; i < missing; ++i) {
          const auto* m = rep->missing()->Get(i);
          CHECK(p.roles.count(m->role()->str()));
          CHECK_FALSE(m->text()->str().empty());
          if (kind.cites_missing) CHECK_FALSE(m->rule()->str().empty());
        }
        // His rows are his orders, every one, no one else's; each in the
        // text form, and for those that stood, how they were carried out.
        for (size_t i = 0; i < rows; ++i) {
          const auto* row = rep->orders()->Get(i);
          CHECK(p.roles.count(row->role()->str()));
          CHECK_FALSE(row->received()->str().empty());
          INFO(row->order()->str());
          CHECK(row->order()->str().find('{') == std::string::npos);
          const size_t told = row->outcomes() ? row->outcomes()->size() : 0;
          if (row->received()->str() != "stands") CHECK(told == 0);
          for (size_t k = 0; k < told; ++k) {
            CHECK_FALSE(row->outcomes()->Get(k)->what()->str().empty());
            CHECK(row->outcomes()->Get(k)->seq() > row->seq());
          }
          outcomes += told;
        }
        // The text form says the same.
        rq.format = reports::Format::kText;
        auto text = reports::Build(db, me, rq);
        REQUIRE(text.ok());
        CHECK_THAT(text->body, Catch::Contains("Orders of " + person));
        if (missing) CHECK_THAT(text->body, Catch::Contains("No order of yours stood for:"));
        // Another player may not read it (403 at the desk).
        const std::string other = Another(db, person);
        if (!other.empty()) {
          reports::Viewer them;
          them.person = other;
          rq.player = person;
          bool not_yours = false;
          auto refused = reports::Build(db, them, rq, &not_yours);
          CHECK_FALSE(refused.ok());
          CHECK(not_yours);
          rq.player.clear();
        }
      }
      // How the orders were carried out: told on every kind whose books link
      // its orders to their events (reports/order_outcomes.cc).
      if (kind.tells_outcomes) {
        CHECK(outcomes > 0);
      } else {
        CHECK(outcomes == 0);
      }
      // The coming turn's: still open, as the orders stand now.
      reports::Request coming;
      coming.kind = reports::Kind::kOrders;
      coming.game = "g";
      coming.player = last.orders.front().first;
      coming.turn = kind.coming.ToString();
      auto open = reports::Build(db, reports::Ga(), coming);
      INFO(open.status().message());
      REQUIRE(open.ok());
      CHECK_THAT(open->body, Catch::Contains("still open"));
      // A turn that never was: an error naming it.
      coming.turn = "2999.1.1";
      CHECK_FALSE(reports::Build(db, reports::Ga(), coming).ok());
    }
  }
}

namespace {

// Each order of the coming turn on `branch`: its slot and what befell it, in order.
std::vector<std::string> Fates(ledger::Ledger& db, const std::string& branch) {
  auto w = replay::Fold(db, "g", branch);
  REQUIRE(w.ok());
  auto at = replay::OrderPositionOf(*w);
  REQUIRE(at.ok());
  auto given = replay::OrdersGiven(db, "g", branch, *at);
  REQUIRE(given.ok());
  std::vector<std::string> out;
  for (const auto& o : given->orders) {
    out.push_back(o.person + " " + o.slot + " " + std::to_string(static_cast<int>(o.fate)) + (o.withdrawal ? " W" : ""));
  }
  return out;
}

}  // namespace

TEST_CASE("issue 20: orders given again by correct and fork --with-orders go in file by file where a new file replaces the earlier (Y1.3), on every kind",
          "[withdraw]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      // One player sends his orders for the coming turn twice, then takes one back.
      const auto& [person, json] = kind.turns.back().orders.front();
      auto first = Send(db, person, json);
      REQUIRE(first.ok());
      REQUIRE(Send(db, person, json).ok());
      REQUIRE(Send(db, person, Withdraw(first->orders.at(0).slot)).ok());
      const std::vector<std::string> fates = Fates(db, "main");
      // A correction at the coming turn gives them again: the same fates.
      auto ruling = schema::ParseJson("DirectiveFile", kind.correction, "correction");
      REQUIRE(ruling.ok());
      auto corrected = replay::Correct(db, "g", "main", TurnPhase{kind.coming, 0}, *ruling, "fixed");
      INFO(corrected.status().message());
      REQUIRE(corrected.ok());
      CHECK(Fates(db, "fixed") == fates);
      // So does a fork at the turn with its orders.
      CliRun fork = Cli(db, {"fork", "g", "--at", kind.coming.ToString(), "--branch", "main", "--with-orders", "--name", "again"});
      INFO(fork.err);
      REQUIRE(fork.code == 0);
      CHECK(Fates(db, "again") == fates);
    }
  }
}

TEST_CASE("issue 20: Y1.3 — a ruler's withdrawal goes alone: a file mixing it with orders is refused whole, nothing appended",
          "[withdraw]") {
  const GameKind* y = nullptr;
  for (const GameKind& k : GameKinds()) {
    if (k.name == "y1820") y = &k;
  }
  REQUIRE(y != nullptr);
  PlayedGame g(*y);
  REQUIRE(g.status.ok());
  ledger::Ledger& db = *g;
  const auto& [person, json] = y->turns.back().orders.front();
  auto sent = Send(db, person, json);
  REQUIRE(sent.ok());
  const std::string nation = sent->orders.at(0).slot;
  std::string items = json.substr(json.find('[') + 1);
  items = items.substr(0, items.rfind(']'));
  const uint64_t head = db.HeadOf("g", "main")->seq;
  auto mixed = Send(db, person, R"({"orders": [)" + items + R"(, {"body_type": "Withdrawal", "body": {"slot": ")" + nation +
                                    R"("}}]})");
  CHECK_FALSE(mixed.ok());
  CHECK_THAT(mixed.status().message(), Catch::Contains("Y1.3") && Catch::Contains("alone"));
  CHECK(db.HeadOf("g", "main")->seq == head);
  // Alone, it takes back the nation's orders of the turn.
  auto alone = Send(db, person, Withdraw(nation));
  REQUIRE(alone.ok());
  CHECK(alone->orders.at(0).status == "withdrawal");
  for (const auto& o : Given(db).orders) {
    if (!o.withdrawal) CHECK(o.fate == replay::OrderFate::kWithdrawn);
  }
}

TEST_CASE("issue 20: report orders after a season's end (which takes no orders, SOW 4.2) — by default the coming turn's, asked for the season's end a clear refusal",
          "[orders-report]") {
  const GameKind* nwol = nullptr;
  for (const GameKind& k : GameKinds()) {
    if (k.name == "nwol") nwol = &k;
  }
  REQUIRE(nwol);
  PlayedGame g(*nwol);
  REQUIRE(g.status.ok());
  ledger::Ledger& db = *g;
  auto file = schema::ParseJson("DirectiveFile",
                                R"({"reason": "test", "body_type": "SowDirective", "body": {"body_type": "EndCampaign", "body": {}}})",
                                "directive");
  REQUIRE(file.ok());
  auto d = replay::RecordDirective(db, "g", "main", *file);
  INFO(d.status().message());
  REQUIRE(d.ok());
  // The coming turn runs, and the season's end after it.
  AdjudicateComing(db, *nwol);
  auto w = replay::Fold(db, "g", "main");
  REQUIRE(w.ok());
  const rules::Progress p = w->kind()->ProgressOf(w->projections);
  REQUIRE(p.turn.step == 16);
  REQUIRE(p.phase_done > 0);
  auto next = replay::OrderPositionOf(*w);
  REQUIRE(next.ok());
  reports::Request rq;
  rq.kind = reports::Kind::kOrders;
  rq.game = "g";
  rq.player = nwol->turns.back().orders.front().first;
  rq.format = reports::Format::kJson;
  auto r = reports::Build(db, reports::Ga(), rq);
  INFO(r.status().message());
  REQUIRE(r.ok());
  auto bytes = schema::ParseJson("OrdersReport", r->body, "orders report");
  REQUIRE(bytes.ok());
  CHECK(flatbuffers::GetRoot<fb::OrdersReport>(bytes->data())->turn()->str() == next->turn.ToString());
  rq.turn = p.turn.ToString();
  auto refused = reports::Build(db, reports::Ga(), rq);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().message(), Catch::Contains("takes no orders for turn " + p.turn.ToString()));
}
