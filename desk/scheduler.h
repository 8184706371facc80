// The scheduler of `adjutant serve` (issue 20): at each tick, for every game
// on its current branch, the step of replay::RunSchedule — a deadline that
// has passed fires (a DeadlineFired carrying the time) and its turn is
// adjudicated, each under an idempotency key, on the game's sequencer (so
// it is ordered with the orders and commands the desk takes). A restart
// finishes a turn a crash interrupted and never fires a deadline twice. The
// clock is injected (tests pass their own); rules never read it. A game
// whose last step found nothing to do is not folded again until its head
// moves or the deadline it named comes (ScheduleStep::head, wake). With mail
// settings, each pass then mails the reports due (a game is looked at again
// when its head moves, or when a failed message's retry comes).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace adjutant::ledger { class Ledger; }
namespace adjutant::mail { struct Settings; }
namespace adjutant::signing { class SigningKey; }

namespace adjutant::desk {

class Desk;

struct SchedulerSettings {
  int tick_s = 30;                              // seconds between passes (the first runs at once)
  std::function<int64_t()> now;                 // the clock (seconds since 1970 UTC); empty: the system clock
  std::function<void(const std::string&)> log;  // a line per deadline fired, turn finished, or failure
  bool background = true;                       // false: no passes of its own, only RunOnce (a test's passes)
  // Issue 20: the GA's mail account (serve --mail-settings). After each
  // pass's steps, every game's reports due are mailed (ops::MailOut): the
  // sending on the scheduler's thread, only the recording on the game's
  // sequencer. Empty: no mail.
  std::shared_ptr<const mail::Settings> mail;
  // Issue 23: the GA's key, for games that sign their tree heads (their
  // deadlines wait without it: the step's failure says why).
  std::shared_ptr<const signing::SigningKey> signer;
};

// What one pass did for one game (games with nothing due are left out).
struct ScheduleOutcome {
  std::string game, branch;
  std::string line;     // "deadline fired: turn ...", or the failure
  bool failed = false;
  bool unchanged = false;  // not looked at: nothing changed since its last step (PassCounts)
};

// How much a pass looked at: the games whose step ran (their log folded),
// and those left alone because nothing changed since their last step found
// nothing to do — the same head, and its deadline not yet come.
struct PassCounts {
  size_t stepped = 0, unchanged = 0;
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
  // step has run (or was found not to need running: `counts`).
  std::vector<ScheduleOutcome> RunOnce(PassCounts* counts = nullptr);

  struct Impl;

 private:
  explicit Scheduler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace adjutant::desk
