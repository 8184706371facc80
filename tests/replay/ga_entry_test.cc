// Issue 20, the GA while the server runs, on every kind of game:
// - orders a player sent the GA by other means, entered with `adjutant order
//   --for P` — judged exactly as the player's own (a twin game where he gave
//   them ends every phase of the turn with the same projection digests),
//   recorded as entered by the GA (the actor), said so in the log and his
//   orders report, and still the GA's on a fork or a correction that
//   carries them;
// - `adjudicate --expect TURN.PHASE`, the confirmation: the phase the status
//   names runs, a stale one is refused (exit 4) with nothing appended.
#include <catch2/catch.hpp>

#include <fstream>

#include "base/utc.h"
#include "ledger/ledger.h"
#include "projections/roster.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "support/desk_client.h"
#include "support/kinds.h"
#include "schema/values.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

uint64_t Head(ledger::Ledger& db, const std::string& branch = "main") {
  auto h = db.HeadOf("g", branch);
  REQUIRE(h.ok());
  return h->seq;
}

// The events after `after`: each one's actor kind and person, and its
// payload as JSON (the same bytes whoever entered it).
struct Seen {
  int actor_kind;
  std::string actor_person, payload;
};
std::vector<Seen> EventsAfter(ledger::Ledger& db, uint64_t after, const std::string& branch = "main") {
  std::vector<Seen> out;
  REQUIRE(db.Read("g", branch, after + 1, UINT64_MAX, [&](const ledger::EventView& v) {
              const fb::Event* e = v.event();
              Seen s{e->actor() ? static_cast<int>(e->actor()->kind()) : -1,
                     e->actor() && e->actor()->person() ? e->actor()->person()->str() : "", ""};
              auto j = schema::ToJson("Event", v.bytes.data());
              REQUIRE(j.ok());
              // The payload: from "payload_type" on (the envelope before it names the actor).
              s.payload = j->substr(j->find("\"payload_type\""));
              out.push_back(std::move(s));
              return Status::Ok();
            }).ok());
  return out;
}

std::string NextAt(ledger::Ledger& db) {
  auto st = Cli(db, {"status", "g", "--json"});
  REQUIRE(st.code == 0);
  auto doc = schema::ParseJson("StatusReport", st.out, "status");
  REQUIRE(doc.ok());
  const auto* r = flatbuffers::GetRoot<fb::StatusReport>(doc->data());
  return r->next_at() ? r->next_at()->str() : "";
}

}  // namespace

TEST_CASE("issue 20: on every kind — orders the GA enters for a player (order --for) are judged as his and recorded as "
          "the GA's (said so in the log and his report and kept when carried) and bad entries refused",
          "[ga-entry]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame mine(kind), gas(kind);
      REQUIRE(mine.status.ok());
      REQUIRE(gas.status.ok());
      REQUIRE(!kind.turns.back().orders.empty());
      const std::string person = kind.turns.back().orders.front().first;
      const std::string json = kind.turns.back().orders.front().second;
      const std::string coming = kind.coming.ToString();
      for (PlayedGame* g : {&mine, &gas}) std::ofstream(g->dir.Sub("orders.json")) << json;
      // Both twins alike up to the orders (the same events, the same seqs).
      const std::string hash = CheapPasswordHash("his-secret");
      for (PlayedGame* g : {&mine, &gas}) REQUIRE(replay::SetPassword(**g, "g", "main", person, hash).ok());
      std::ofstream(mine.dir.Sub("pw")) << "his-secret\n";
      const uint64_t before_mine = Head(*mine), before_gas = Head(*gas);

      // Bad entries first: one message, nothing appended.
      std::string other;
      {
        auto w = replay::Fold(*gas, "g", "main");
        REQUIRE(w.ok());
        auto doc = schema::ParseJson("OrderFile", json, "orders.json");
        REQUIRE(doc.ok());
        for (const auto& [name, p] : w->roster().persons()) {
          if (name != person && !p.roles.empty() && replay::FirstNotHis(*w, name, *doc).has_value()) other = name;
        }
      }
      const std::string file = gas.dir.Sub("orders.json");
      struct Bad {
        std::vector<std::string> args;
        std::string says;
      };
      std::vector<Bad> bad = {
          {{"order", "g", file}, "--as PERSON"},
          {{"order", "g", file, "--as", person, "--for", person}, "not both"},
          {{"order", "g", file, "--for", person, "--password-file", mine.dir.Sub("pw")}, "without the person's password"},
          {{"order", "g", file, "--for", "nobody"}, "--for: there is no person 'nobody' in game 'g'"},
          {{"order", "g", file, "--for", ""}, "--for"},
      };
      if (!other.empty()) bad.push_back({{"order", "g", file, "--for", other}, "not " + other + "'s to give"});
      for (const Bad& b : bad) {
        auto r = Cli(*gas, b.args);
        std::string args;
        for (size_t i = 3; i < b.args.size(); ++i) args += b.args[i] + " ";
        INFO(args << ": " << r.out << r.err);
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Catch::Contains(b.says));
        CHECK(Head(*gas) == before_gas);
      }

      // The same file: his own, and the GA's on his behalf.
      // Both received at the same time (--now): it is recorded on each order.
      const std::string now = "2026-12-06T19:59Z";
      const int64_t now_s = *ParseUtc(now);
      auto his = Cli(*mine, {"order", "g", mine.dir.Sub("orders.json"), "--as", person, "--password-file", mine.dir.Sub("pw"),
                             "--key", "fax-1", "--now", now});
      INFO(his.out << his.err);
      REQUIRE(his.code == 0);
      auto entered = Cli(*gas, {"order", "g", file, "--for", person, "--key", "fax-1", "--now", now});
      INFO(entered.out << entered.err);
      REQUIRE(entered.code == 0);
      CHECK_THAT(entered.out, Catch::Contains("entered by the GA for " + person));
      // A retry under the GA's key records nothing new.
      auto again = Cli(*gas, {"order", "g", file, "--for", person, "--key", "fax-1"});
      CHECK(again.code == 0);
      CHECK_THAT(again.out, Catch::Contains("already recorded"));

      // The same events; only who entered them differs.
      const auto a = EventsAfter(*mine, before_mine);
      const auto b = EventsAfter(*gas, before_gas);
      REQUIRE(a.size() == b.size());
      REQUIRE(!a.empty());
      for (size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].payload == b[i].payload);
        CHECK(a[i].actor_person == b[i].actor_person);
        if (a[i].actor_kind == fb::ActorKind_Player) {
          CHECK(b[i].actor_kind == fb::ActorKind_GameAdministrator);
          CHECK(b[i].actor_person == person);
        } else {
          CHECK(b[i].actor_kind == a[i].actor_kind);
        }
      }
      auto log = Cli(*gas, {"log", "g", "--kind", "OrderSubmitted"});
      CHECK_THAT(log.out, Catch::Contains("GA for " + person));
      CHECK_THAT(Cli(*mine, {"log", "g", "--kind", "OrderSubmitted"}).out, !Catch::Contains("GA for"));

      // His orders report says so, in words and in JSON; his own does not.
      auto report = Cli(*gas, {"report", "orders", "g", "--player", person, "--turn", coming});
      INFO(report.out << report.err);
      CHECK_THAT(report.out, Catch::Contains("(entered by the GA for you), received 2026-12-06 19:59 UTC"));
      CHECK_THAT(Cli(*mine, {"report", "orders", "g", "--player", person, "--turn", coming}).out,
                 !Catch::Contains("entered by the GA"));
      auto rj = Cli(*gas, {"report", "orders", "g", "--player", person, "--turn", coming, "--json"});
      REQUIRE(rj.code == 0);
      auto rdoc = schema::ParseJson("OrdersReport", rj.out, "report");
      REQUIRE(rdoc.ok());
      const auto* rows = flatbuffers::GetRoot<fb::OrdersReport>(rdoc->data())->orders();
      REQUIRE(rows);
      REQUIRE(rows->size() > 0);
      for (const auto* row : *rows) {
        CHECK(row->entered_by_ga());
        CHECK(row->received_at() == now_s);
      }

      // A fork carrying the window's orders keeps them the GA's.
      auto fork = Cli(*gas, {"fork", "g", "--at", coming, "--branch", "main", "--with-orders", "--name", "again"});
      INFO(fork.out << fork.err);
      REQUIRE(fork.code == 0);
      bool carried = false;
      REQUIRE((*gas).Read("g", "again", 1, UINT64_MAX, [&](const ledger::EventView& v) {
                       const fb::Turn* t = v.event()->turn();
                       if (v.event()->payload_as_OrderSubmitted() && t &&
                           schema::TurnOf(t) == kind.coming) {
                         carried = true;
                         CHECK(v.event()->actor()->kind() == fb::ActorKind_GameAdministrator);
                         // and when they were received, not when the fork gave them again
                         CHECK(v.event()->payload_as_OrderSubmitted()->received_at() == now_s);
                       }
                       return Status::Ok();
                     }).ok());
      CHECK(carried);

      // The turn adjudicated in both: every event it records is the same
      // (each die, each outcome), and so are the views; only the phases'
      // digests differ, as the orders held pending keep their events whole.
      const uint64_t mark_mine = Head(*mine), mark_gas = Head(*gas);
      REQUIRE(Cli(*mine, {"adjudicate", "g"}).code == 0);
      REQUIRE(Cli(*gas, {"adjudicate", "g"}).code == 0);
      auto ta = EventsAfter(*mine, mark_mine), tb = EventsAfter(*gas, mark_gas);
      REQUIRE(ta.size() == tb.size());
      CHECK(ta.size() > 1);
      size_t same = 0;
      for (size_t i = 0; i < ta.size(); ++i) {
        if (ta[i].payload.find("\"payload_type\": \"PhaseCompleted\"") == 0) continue;
        CHECK(ta[i].payload == tb[i].payload);
        CHECK(ta[i].actor_kind == tb[i].actor_kind);
        same += ta[i].payload == tb[i].payload;
      }
      CHECK(same > 0);
      CHECK(Cli(*mine, {"replay", "g", "--to", coming}).out == Cli(*gas, {"replay", "g", "--to", coming}).out);
    }
  }
}

TEST_CASE("issue 20: on every kind — adjudicate --expect runs the phase the status names and refuses a stale one "
          "(exit 4, nothing appended)",
          "[ga-entry][expect]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const std::string next = NextAt(db);
      REQUIRE(!next.empty());
      auto text = Cli(db, {"status", "g"});
      CHECK_THAT(text.out, Catch::Contains("adjudicate --expect " + next));
      const uint64_t before = Head(db);
      auto garbage = Cli(db, {"adjudicate", "g", "--phase", "--expect", "soon"});
      CHECK(garbage.code == 2);
      CHECK_THAT(garbage.err, Catch::Contains("--expect: 'soon'"));
      // One phase on: the phase after the next is not the next.
      const std::string later = next.substr(0, next.rfind('.') + 1) + std::to_string(std::stoi(next.substr(next.rfind('.') + 1)) + 1);
      auto stale = Cli(db, {"adjudicate", "g", "--phase", "--expect", later});
      INFO(stale.out << stale.err);
      CHECK(stale.code == 4);
      CHECK_THAT(stale.err, Catch::Contains("moved on"));
      CHECK_THAT(stale.err, Catch::Contains(next));
      CHECK(Head(db) == before);
      auto ok = Cli(db, {"adjudicate", "g", "--phase", "--expect", next});
      INFO(ok.out << ok.err);
      CHECK(ok.code == 0);
      CHECK(Head(db) > before);
      // Confirmed once: the same confirmation again is stale.
      const uint64_t after = Head(db);
      auto twice = Cli(db, {"adjudicate", "g", "--phase", "--expect", next});
      CHECK(twice.code == 4);
      CHECK(Head(db) == after);
      CHECK(NextAt(db) != next);
    }
  }
}
