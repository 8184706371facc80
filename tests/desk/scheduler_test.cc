// The scheduler of `adjutant serve` does not fold a game again at every
// tick: once a step found nothing to do, the game is left alone until its
// head moves or the deadline that step named comes — and then it is looked
// at, and fires, on time. On every kind of the registry, with the clock
// passed in (desk/scheduler.h PassCounts).
#include <catch2/catch.hpp>

#include <atomic>
#include <sodium.h>

#include "desk/desk.h"
#include "desk/scheduler.h"
#include "ledger/ledger.h"
#include "support/desk_client.h"
#include "support/kinds.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {
constexpr int64_t kNow = 1893456000;  // 2030-01-01 00:00 UTC
}  // namespace

TEST_CASE("desk scheduler: a game whose step found nothing to do is not folded again until its head moves or its deadline comes, on every kind",
          "[schedule]") {
  REQUIRE(sodium_init() >= 0);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      // The passes below are the test's alone: a pass of the scheduler's own
      // between the deadline set and the test's pass would leave the game
      // unchanged for the test's.
      ScheduledDesk served(db, kNow);
      REQUIRE(served.status.ok());
      auto& sched = served.scheduler;
      auto& clock = served.clock;
      desk::PassCounts c;
      sched->RunOnce(&c);  // the first pass, as at start
      // No schedule: nothing to do, and nothing changes — left alone.
      c = {};
      CHECK(sched->RunOnce(&c).empty());
      CHECK(c.unchanged == 1);
      CHECK(c.stepped == 0);
      // A deadline set: the head moved, so the game is looked at again...
      CliRun set = Cli(db, {"schedule", "g", "set", "--deadline", "2030-01-01T01:00Z", "--now", "2030-01-01T00:00Z"});
      INFO(set.err);
      REQUIRE(set.code == 0);
      c = {};
      CHECK(sched->RunOnce(&c).empty());
      CHECK(c.stepped == 1);
      // ...and then left alone while its deadline has not come.
      clock = kNow + 3599;
      c = {};
      CHECK(sched->RunOnce(&c).empty());
      CHECK(c.unchanged == 1);
      // The deadline comes, the head unchanged: it is looked at, and fires.
      clock = kNow + 3600;
      c = {};
      auto fired = sched->RunOnce(&c);
      CHECK(c.stepped == 1);
      REQUIRE(fired.size() == 1);
      CHECK_THAT(fired[0].line, Catch::Contains("deadline fired"));
      // Its one deadline spent: looked at once more (the head moved), then left alone.
      c = {};
      sched->RunOnce(&c);
      CHECK(c.stepped == 1);
      c = {};
      CHECK(sched->RunOnce(&c).empty());
      CHECK(c.unchanged == 1);
    }
  }
}
