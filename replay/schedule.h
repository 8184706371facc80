// The schedule of a branch (issue 20) as the scheduler of `adjutant serve`,
// `adjutant schedule` and `adjutant status` see it: the deadline of the
// turn (or move) orders now go to, and the scheduler's one step — fire a
// deadline that has passed, adjudicate its turn exactly once. The time is
// passed in (the front end's clock) and recorded on DeadlineFired; no rule
// reads it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/signing.h"
#include "base/status.h"
#include "base/turn.h"
#include "projections/schedule.h"
#include "replay/driver.h"

namespace adjutant::fb { struct Schedule; }

namespace adjutant::replay {

const projections::ScheduleState& ScheduleOf(const World& w);

// Checks a Schedule directive against the branch as it stands: Set and
// Resume name the coming turn; Extend's deadline is the one in force moved
// by extend_by; Pause needs a running schedule, Resume a paused one, Clear
// one at all. No clock: a deadline already past is the front end's to
// refuse.
Status CheckSchedule(const World& w, const fb::Schedule& s);

// The idempotency keys of a fired deadline: its DeadlineFired, and the
// adjudication of the turn it closed.
std::string FiredKey(std::string_view branch, const Turn& turn, int64_t deadline);
std::string FiredAdjudicationKey(std::string_view branch, const Turn& turn, int64_t deadline);

struct ScheduleView {
  projections::ScheduleState state;
  std::optional<Turn> coming;                       // the turn orders go to; none: the game takes none
  std::optional<projections::Deadline> deadline;    // the deadline that closes it
  bool ended = false;                               // nothing left to adjudicate
  std::string why_ended;
  // A deadline fired and its turn is not fully adjudicated (a crash or an
  // error between): the scheduler finishes it before anything else.
  bool pending = false;
};
Result<ScheduleView> ScheduleViewOf(ledger::Ledger& db, std::string_view game, std::string_view branch, const World& w);

// One step of the scheduler for one branch at `now`: finishes the
// adjudication of a fired turn, else, if the deadline of the coming turn
// has passed and the schedule is not paused, records DeadlineFired (turn,
// deadline, now) and adjudicates the turn — each under its idempotency
// key, so a step repeated after a crash neither skips nor doubles a turn.
struct ScheduleStep {
  enum What { kNothing, kFired, kFinished } what = kNothing;
  Turn turn;              // the turn fired (or finished)
  int64_t deadline = 0;
  std::vector<PhaseReport> phases;
  // kNothing: the head the step looked at, and from when a step could do
  // something while the log stays at that head (the deadline in force;
  // 0: not before the log changes — no schedule, paused, or the game over).
  // A caller may skip steps until either changes (desk/scheduler.cc).
  ledger::Head head;
  int64_t wake = 0;
};
// `signer`: the GA's key, for a game that signs its tree heads (else such a
// game's deadline fires and its turn waits: the step's error says why).
Result<ScheduleStep> RunSchedule(ledger::Ledger& db, std::string_view game, std::string_view branch, int64_t now,
                                 const signing::SigningKey* signer = nullptr);

}  // namespace adjutant::replay
