// The scheduler of `adjutant serve` (issue 20): at each tick, for every game
// on its current branch, the step of replay::RunSchedule — a deadline that
// has passed fires (a DeadlineFired carrying the time) and its turn is
// adjudicated, each under an idempotency key, on the game's sequencer (so
// it is ordered with the orders and commands the desk takes). A restart
// finishes a turn a crash interrupted and never fires a deadline twice. The
// clock is injected (tests pass their own); rules never read it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace adjutant::ledger { class Ledger; }

namespace adjutant::desk {

class Desk;

struct SchedulerSettings {
  int tick_s = 30;                              // seconds between passes (the first runs at once)
  std::function<int64_t()> now;                 // the clock (seconds since 1970 UTC); empty: the system clock
  std::function<void(const std::string&)> log;  // a line per deadline fired, turn finished, or failure
};

// What one pass did for one game (games with nothing due are left out).
struct ScheduleOutcome {
  std::string game, branch;
  std::string line;     // "deadline fired: turn ...", or the failure
  bool failed = false;
};

class Scheduler {
 public:
  // Starts the passes on a thread of its own; each game's step runs on the
  // desk's sequencer of that game.
  static std::unique_ptr<Scheduler> Start(ledger::Ledger& db, Desk& desk, SchedulerSettings settings);
  ~Scheduler();  // stops
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;
  // No more passes; one under way finishes first.
  void Stop();
  // One pass now, at the injected clock's time; returns when every game's
  // step has run.
  std::vector<ScheduleOutcome> RunOnce();

  struct Impl;

 private:
  explicit Scheduler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace adjutant::desk
