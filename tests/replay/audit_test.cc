// Auditing past turns (issue 5): re-adjudication from the recorded orders
// and the branch's dice reproduces every event byte for byte; a phase that
// was adjudicated otherwise is found at its first differing event, with the
// rule it names.
#include <catch2/catch.hpp>

#include "ledger/ledger.h"
#include "replay/audit.h"
#include "replay/driver.h"
#include "rules/sow/calendar.h"
#include "schema/event_generated.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace sow = adjutant::rules::sow;

namespace {

// Dice that always roll their highest face: not the branch's dice.
class HighDice final : public rules::DiceSource {
 public:
  Result<rules::Roll> Next(const rules::RollRequest& req) override {
    rules::Roll r;
    r.request = req;
    r.results.assign(req.count, req.sides);
    return r;
  }
};

struct Game : NwolDb {
  Game() : NwolDb(77) {
    auto r = Order(*db, "g", "nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "NOS", "port": "London"})")}));
    REQUIRE(r.ok());
  }
};

}  // namespace

TEST_CASE("audit: re-adjudicating every past turn reproduces the log byte for byte", "[audit]") {
  Game g;
  REQUIRE(Turns(*g.db, "g", 2).ok());
  auto turns = replay::AdjudicatedTurns(*g.db, "g", "main");
  REQUIRE(turns.ok());
  REQUIRE(turns->size() == 2);
  for (const Turn& t : *turns) {
    auto a = replay::AuditTurn(*g.db, "g", "main", t);
    REQUIRE(a.ok());
    INFO(a->reason << " at " << a->seq);
    CHECK(a->identical);
    CHECK(a->phases == 11);
    CHECK(a->events > 100);
  }
}

TEST_CASE("audit: a phase adjudicated with other dice is found at its first differing event", "[audit]") {
  Game g;
  // Turn 1 up to its combat phase as the driver runs it ...
  for (int i = 0; i < 8; ++i) REQUIRE(replay::Adjudicate(*g.db, "g", "main", replay::AdjudicateMode::kPhase).ok());
  // ... then its movement phase adjudicated with dice that are not the branch's.
  auto w = replay::Fold(*g.db, "g", "main");
  REQUIRE(w.ok());
  auto next = *replay::NextPhaseOf(*w);
  REQUIRE(next.at.phase == sow::kMovement);
  uint64_t head = w->head.seq;
  rules::PhaseWriter pw("g", "main", head, std::move(w->projections));
  HighDice dice;
  REQUIRE(replay::RunPhaseInto(pw, next, dice).ok());
  auto drafts = pw.TakeDrafts();
  REQUIRE(g.db->Append("g", "main", head, drafts).ok());
  auto a = replay::AuditTurn(*g.db, "g", "main", Turn{1805, 1, 1});
  REQUIRE(a.ok());
  CHECK_FALSE(a->identical);
  CHECK(a->seq == head + 2);  // PhaseStarted matches; the first wind roll does not
  CHECK(a->rule == "PATE 1.4");
  CHECK_THAT(a->recorded, Catch::Contains("\"payload_type\": \"DieRolled\""));
  CHECK_THAT(a->produced, Catch::Contains("\"purpose\": \"wind\""));
  CHECK(a->phases == 9);
}

TEST_CASE("adjutant audit: identical turns exit 0, a difference exits 3 naming the seq", "[audit][cli]") {
  Game g;
  std::string db = g.dir.Sub("db");
  REQUIRE(Turns(*g.db, "g", 1).ok());
  g.db.reset();  // the command opens the database itself
  Run ok = Adjutant({"--db", db, "audit", "g", "--all"});
  CHECK(ok.code == 0);
  CHECK_THAT(ok.out, Catch::Contains("turn 1805.1.1: ") && Catch::Contains(" events, identical"));
  Run json = Adjutant({"--db", db, "audit", "g", "--turn", "1805.1.1", "--json"});
  CHECK(json.code == 0);
  CHECK_THAT(json.out, Catch::Contains("\"identical\": true"));
  Run none = Adjutant({"--db", db, "audit", "g", "--turn", "1805.1.5"});
  CHECK(none.code == 2);
  CHECK_THAT(none.err, Catch::Contains("has not begun"));
  CHECK(Adjutant({"--db", db, "audit", "g"}).code == 2);
}
