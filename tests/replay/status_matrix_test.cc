// `adjutant status` on every kind of game of the registry (tests/support/
// kinds.cc: a kind without a row fails the history matrix): who owes orders
// for the coming turn, what became of the orders given, and the last
// finished turn's digest — each checked against the same thing found another
// way (the roster, the submission's own report, `adjutant digest`).
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "base/utc.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/reports_generated.h"
#include "support/kinds.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

struct Report {
  std::vector<uint8_t> bytes;
  const fb::StatusReport* operator->() const { return flatbuffers::GetRoot<fb::StatusReport>(bytes.data()); }
  std::set<std::string> owing() const {
    std::set<std::string> out;
    for (const auto* p : *(*this)->owing()) out.insert(p->str());
    return out;
  }
  const fb::StatusPerson* Row(const std::string& person) const {
    for (const auto* r : *(*this)->persons()) {
      if (r->person()->str() == person) return r;
    }
    return nullptr;
  }
};

Report StatusOf(ledger::Ledger& db) {
  CliRun s = Cli(db, {"status", "g", "--json"});
  INFO(s.err);
  REQUIRE(s.code == 0);
  auto bytes = schema::ParseJson("StatusReport", s.out, "status");
  INFO(s.out);
  REQUIRE(bytes.ok());
  return Report{*bytes};
}

}  // namespace

TEST_CASE("adjutant status, on every kind of game: who owes orders for the coming turn, what became of those given, the last turn's digest",
          "[status]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      INFO(kind.name);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      // Everyone holding roles owes orders for the coming turn; nobody else.
      auto w = replay::Fold(db, "g", "main");
      REQUIRE(w.ok());
      std::set<std::string> holders;
      for (const auto& [person, p] : w->roster().persons()) {
        if (!p.roles.empty()) holders.insert(person);
      }
      REQUIRE_FALSE(holders.empty());
      Report before = StatusOf(db);
      CHECK(before->kind()->str() == kind.name);
      CHECK(before->orders_for()->str() == kind.coming.ToString());
      CHECK(before.owing() == holders);
      CHECK(before->persons()->size() == holders.size());
      CHECK_FALSE(before->next_phase()->str().empty());
      // The last finished turn and the digest `adjutant digest` gives for it.
      const std::string last = kind.turns.back().turn.ToString();
      CHECK(before->last_turn()->str() == last);
      CliRun digest = Cli(db, {"digest", "g", "--turn", last});
      REQUIRE(digest.code == 0);
      CHECK(digest.out.substr(0, 64) == before->last_digest()->str());
      // One player orders for the coming turn: his row counts what the
      // submission itself reported, and he owes nothing more.
      const auto& [person, json] = kind.turns.back().orders.front();
      auto file = schema::ParseJson("OrderFile", json, "orders");
      REQUIRE(file.ok());
      auto sent = replay::SubmitOrders(db, "g", "main", person, *file);
      INFO(sent.status().message());
      REQUIRE(sent.ok());
      uint32_t rejected = 0, superseded = 0;
      uint64_t last_order = 0;
      for (const auto& o : sent->orders) {
        last_order = std::max(last_order, o.seq);
        rejected += o.status == "rejected";
        superseded += o.status == "superseded";
      }
      Report after = StatusOf(db);
      const fb::StatusPerson* row = after.Row(person);
      REQUIRE(row != nullptr);
      CHECK(row->submitted() == sent->orders.size());
      CHECK(row->refused() == rejected);
      CHECK(row->superseded() == superseded);
      CHECK(row->stand() == sent->orders.size() - rejected - superseded);
      CHECK(row->last_seq() == last_order);
      CHECK(row->last_received_at() == 0);  // given in process: when is not known
      std::set<std::string> still = holders;
      still.erase(person);
      CHECK(after.owing() == still);
      // The text form says the same.
      CliRun text = Cli(db, {"status", "g"});
      REQUIRE(text.code == 0);
      CHECK_THAT(text.out, Catch::Contains("orders now go to " + kind.coming.ToString()));
      CHECK_THAT(text.out, Catch::Contains("  " + person + " [") && Catch::Contains(std::to_string(sent->orders.size()) + " given"));
      CHECK_THAT(text.out, Catch::Contains("last finished turn " + last + ", digest " + before->last_digest()->str()));
      CHECK_THAT(text.out, !Catch::Contains("received"));
      // The same file again, received at a time the command line names: when
      // he last sent orders is his row's, in JSON and in words.
      std::ofstream(g.dir.Sub("again.json")) << json;
      CliRun again = Cli(db, {"order", "g", g.dir.Sub("again.json"), "--for", person, "--now", "2026-12-06T19:58Z"});
      INFO(again.out << again.err);
      REQUIRE(again.code == 0);
      Report later = StatusOf(db);
      REQUIRE(later.Row(person) != nullptr);
      CHECK(later.Row(person)->last_received_at() == *ParseUtc("2026-12-06T19:58Z"));
      CHECK(later.Row(person)->last_seq() > last_order);
      CHECK_THAT(Cli(db, {"status", "g"}).out, Catch::Contains("received 2026-12-06 19:58 UTC"));
      CHECK_THAT(Cli(db, {"order", "g", g.dir.Sub("again.json"), "--for", person, "--now", "tomorrow"}).err,
                 Catch::Contains("--now: 'tomorrow' is not a UTC time"));
    }
  }
}

TEST_CASE("adjutant status: an unknown game or branch is an error naming it, exit 2", "[status]") {
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  auto played = Play(**l, dir.path(), GameKinds().front(), {});
  REQUIRE(played.ok());
  CliRun none = Cli(**l, {"status", "nosuch"});
  CHECK(none.code == 2);
  CHECK_THAT(none.err, Catch::Contains("nosuch"));
  CliRun branch = Cli(**l, {"status", "g", "--branch", "nosuch"});
  CHECK(branch.code == 2);
  CHECK_THAT(branch.err, Catch::Contains("nosuch"));
}
