// Issue 20: the scheduler of a real `adjutant serve` child. A deadline that
// has passed is fired by the server and its turn adjudicated; the server is
// killed (SIGKILL) at moments spread over the firing and the turn's eleven
// phases, and restarted each time: in the end the deadline fired once and
// every phase of the turn was adjudicated once — never skipped, never
// doubled — and the history audits identical. The server's clock is
// injected (`serve --now`); nothing waits for a real deadline.
#include <catch2/catch.hpp>

#include <future>
#include <set>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "replay/schedule.h"
#include "schema/event_generated.h"
#include "support/run.h"
#include "support/serve.h"
#include "support/temp_dir.h"
#include "schema/values.h"

using namespace adjutant;
using adjutant::testing::Adjutant;
using adjutant::testing::Run;
using adjutant::testing::Serve;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;
const Turn kFirst{1805, 1, 1};

struct Seen {
  int fired = 0;          // DeadlineFired directives
  int phases = 0;         // PhaseStarted of the first turn
  std::set<int> distinct; // ... by phase number
  bool verified = false;
};

Seen Look(const std::string& db) {
  Seen s;
  auto l = ledger::Ledger::Open(db);
  REQUIRE(l.ok());
  REQUIRE((*l)->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                const fb::Event* ev = e.event();
                const Turn t = schema::TurnOf(ev->turn());
                if (ev->payload_type() == fb::Payload_PhaseStarted && t == kFirst) {
                  s.phases++;
                  s.distinct.insert(ev->phase());
                }
                if (const auto* d = ev->payload_as_Directive(); d && d->body_type() == fb::DirectiveBody_DeadlineFired) s.fired++;
                return Status::Ok();
              }).ok());
  return s;
}

}  // namespace

TEST_CASE("adjutant serve fires a deadline once and adjudicates its turn once, though killed again and again around it",
          "[schedule][socket]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  auto adj = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    return Adjutant(args);
  };
  Run made = adj({"new", "g", "--scenario", F + "/scenarios/nwol-1805.json", "--map", F + "/maps/nwol-waters.json", "--seed", "1805"});
  REQUIRE(made.code == 0);
  Run set = adj({"schedule", "g", "set", "--deadline", "2099-01-05T20:00Z", "--weekly", "--now", "2099-01-01T00:00Z"});
  INFO(set.err);
  REQUIRE(set.code == 0);
  // The server's clock stands after the deadline (--now): its first pass
  // fires it and adjudicates the turn (a quarter of a second here, several
  // times that under the sanitizers). It is killed at moments spread over
  // that pass; whatever a kill cut short, the next server's first pass
  // finishes.
  const int kDelaysMs[] = {0, 10, 20, 30, 40, 50, 60, 80, 100, 120, 150, 180, 220, 300, 500};
  const std::vector<std::string> at_deadline = {"--schedule-tick", "3600", "--now", "2099-01-06T00:00Z"};
  bool cut_mid_turn = false;
  int round = 0;
  for (int delay : kDelaysMs) {
    Serve serve(db, dir.Sub("serve-" + std::to_string(round++) + ".log"), at_deadline);
    REQUIRE(serve.Ready());
    std::this_thread::sleep_for(std::chrono::milliseconds(delay));  // when to kill, not a clock the scheduler reads
    serve.Stop(SIGKILL);
    const Seen seen = Look(db);
    INFO("kill after " << delay << " ms: fired " << seen.fired << ", phases " << seen.phases);
    CHECK(seen.fired <= 1);
    CHECK(seen.phases <= 11);
    CHECK(seen.distinct.size() == static_cast<size_t>(seen.phases));  // no phase twice
    cut_mid_turn = cut_mid_turn || (seen.fired == 1 && seen.phases < 11);
    CHECK(adj({"verify", "g"}).code == 0);
  }
  // A last server, left to run its first pass and stopped gently.
  {
    Serve serve(db, dir.Sub("serve-last.log"), at_deadline);
    REQUIRE(serve.Ready());
    Run run = adj({"schedule", "g", "run", "--now", "2099-01-06T00:00Z"});  // through the server, after its pass
    INFO(run.out << run.err);
    CHECK(run.code == 0);
    CHECK(serve.Stop(SIGTERM) == 0);
  }
  const Seen seen = Look(db);
  WARN("a kill landed between the firing and the turn's end: " << (cut_mid_turn ? "yes" : "no"));
  CHECK(seen.fired == 1);
  CHECK(seen.phases == 11);
  CHECK(seen.distinct.size() == 11);
  Run status = adj({"status", "g", "--now", "2099-01-06T00:00Z"});
  CHECK_THAT(status.out, Catch::Contains("orders now go to 1805.1.2"));
  CHECK_THAT(status.out, Catch::Contains("deadline: 2099-01-12 20:00 UTC"));
  Run audit = adj({"audit", "g", "--all"});
  INFO(audit.out << audit.err);
  CHECK(audit.code == 0);
}

TEST_CASE("adjutant serve's scheduler says on stderr what it fired, and nothing when --no-scheduler", "[schedule][socket]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  auto adj = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    return Adjutant(args);
  };
  REQUIRE(adj({"new", "g", "--scenario", F + "/dog/talavera-brigade.json", "--seed", "1809"}).code == 0);
  // A deadline already passed for the server's own clock: set with an
  // earlier --now (the command refuses a deadline in its own past).
  REQUIRE(adj({"schedule", "g", "set", "--deadline", "2001-01-02T00:00Z", "--after", "1d", "--now", "2001-01-01T00:00Z"}).code == 0);
  {
    Serve off(db, dir.Sub("off.log"), {"--no-scheduler"});
    REQUIRE(off.Ready());
    CHECK(off.Stop(SIGTERM) == 0);
    CHECK(Slurp(off.log + ".err").find("deadline fired") == std::string::npos);
  }
  CHECK(Look(db).fired == 0);
  Serve on(db, dir.Sub("on.log"), {"--schedule-tick", "3600"});
  REQUIRE(on.Ready());
  bool said = false;
  for (int i = 0; i < 600 && !said; ++i) {  // bounded wait for the first pass's line
    said = Slurp(on.log + ".err").find("adjutant serve: schedule g/main: deadline fired: turn ") != std::string::npos;
    if (!said) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  INFO(Slurp(on.log + ".err"));
  CHECK(said);
  CHECK(on.Stop(SIGTERM) == 0);
  CHECK(Look(db).fired == 1);
}
