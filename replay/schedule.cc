#include "replay/schedule.h"
#include "replay/heads.h"

#include <flatbuffers/flatbuffers.h>

#include "base/utc.h"
#include "projections/summary.h"
#include "rules/kind.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/values.h"

namespace adjutant::replay {
namespace {

namespace P = projections;

using schema::TurnOf;

constexpr int64_t kMaxInterval = 366LL * 86400;

}  // namespace

const P::ScheduleState& ScheduleOf(const World& w) { return rules::Get<P::Schedule>(w.projections).state(); }

Status CheckSchedule(const World& w, const fb::Schedule& s) {
  const P::ScheduleState& st = ScheduleOf(w);
  auto at = OrderPositionOf(w);
  auto coming = [&]() -> Result<Turn> {
    if (!at.ok()) return Status::InvalidArgument("no deadline: the game takes no orders now (" + at.status().message() + ")");
    return at->turn;
  };
  auto names_coming = [&]() -> Status {
    auto c = coming();
    if (!c.ok()) return c.status();
    if (!s.turn()) return Status::InvalidArgument("turn: the deadline closes the coming turn, " + c->ToString());
    if (TurnOf(s.turn()) != *c) {
      return Status::InvalidArgument("turn: the deadline closes the coming turn, " + c->ToString() + ", not " +
                                     TurnOf(s.turn()).ToString());
    }
    return Status::Ok();
  };
  switch (s.action()) {
    case fb::ScheduleAction_Set: {
      ADJ_RETURN_IF_ERROR(names_coming());
      if (s.deadline() <= 0 || s.deadline() > kMaxUtc) {
        return Status::InvalidArgument("deadline: when the coming turn's orders close (required; 1970..9999)");
      }
      switch (s.repeat()) {
        case fb::ScheduleRepeat_Once:
          if (s.interval() != 0) return Status::InvalidArgument("interval: only with repeat After");
          break;
        case fb::ScheduleRepeat_Weekly:
          if (s.weekday() > 6) return Status::InvalidArgument("weekday: 0 (Sunday) .. 6 (Saturday)");
          if (s.minute_of_day() >= 1440) return Status::InvalidArgument("minute_of_day: 0 .. 1439");
          break;
        case fb::ScheduleRepeat_After:
          if (s.interval() < 60 || s.interval() > kMaxInterval) {
            return Status::InvalidArgument("interval: from a minute to a year (seconds 60.." + std::to_string(kMaxInterval) + ")");
          }
          break;
        default:
          return Status::InvalidArgument("repeat: Once, Weekly or After");
      }
      return Status::Ok();
    }
    case fb::ScheduleAction_Extend: {
      if (s.extend_by() <= 0 || s.extend_by() > kMaxInterval) return Status::InvalidArgument("extend_by: from a second to a year");
      auto c = coming();
      if (!c.ok()) return c.status();
      auto d = st.set ? P::DeadlineFor(st, *c) : std::nullopt;
      if (!d) return Status::InvalidArgument("no deadline to extend: turn " + c->ToString() + " has none (set one)");
      ADJ_RETURN_IF_ERROR(names_coming());
      if (s.deadline() != d->at + s.extend_by()) {
        return Status::InvalidArgument("deadline: the deadline in force, " + FormatUtc(d->at) + ", moved " +
                                       FormatDuration(s.extend_by()) + " is " + FormatUtc(d->at + s.extend_by()));
      }
      return Status::Ok();
    }
    case fb::ScheduleAction_Pause:
      if (!st.set) return Status::InvalidArgument("no schedule to pause");
      if (st.paused) return Status::InvalidArgument("the schedule is already paused");
      return Status::Ok();
    case fb::ScheduleAction_Resume:
      if (!st.set) return Status::InvalidArgument("no schedule to resume");
      if (!st.paused) return Status::InvalidArgument("the schedule is not paused");
      if (s.deadline() < 0 || s.deadline() > kMaxUtc) return Status::InvalidArgument("deadline: 1970..9999");
      if (s.deadline() != 0) return names_coming();
      return Status::Ok();
    case fb::ScheduleAction_Clear:
      if (!st.set) return Status::InvalidArgument("no schedule to clear");
      return Status::Ok();
    default:
      return Status::InvalidArgument("action: Set, Extend, Pause, Resume or Clear");
  }
}

std::string FiredKey(std::string_view branch, const Turn& turn, int64_t deadline) {
  return "deadline " + std::string(branch) + " " + turn.ToString() + " " + std::to_string(deadline);
}
std::string FiredAdjudicationKey(std::string_view branch, const Turn& turn, int64_t deadline) {
  return FiredKey(branch, turn, deadline) + " adjudicated";
}

Result<ScheduleView> ScheduleViewOf(ledger::Ledger& db, std::string_view game, std::string_view branch, const World& w) {
  ScheduleView v;
  v.state = ScheduleOf(w);
  auto next = NextPhaseOf(w);
  if (!next.ok()) {
    v.ended = true;
    v.why_ended = next.status().message();
  }
  auto at = OrderPositionOf(w);
  if (at.ok()) v.coming = at->turn;
  if (v.state.fired_seq != 0) {
    auto done = db.FindIdempotent(game, ledger::IdempotencyOwner(ActorKind::kGameAdministrator, ""),
                                  FiredAdjudicationKey(branch, v.state.fired_turn, v.state.fired_deadline));
    if (!done.ok()) return done.status();
    if (!done->has_value()) {
      // Not adjudicated under its key: pending while the fired turn is
      // still the one to adjudicate (not when the GA finished it himself).
      v.pending = next.ok() && !(v.state.fired_turn < next->at.turn);
    } else {
      // Adjudicated; a season's end that must follow the turn at once
      // (NextRunsWithTurnBefore) and that a crash kept from it is still due.
      const rules::GameKind* kind = w.kind();
      v.pending = next.ok() && kind && kind->NextRunsWithTurnBefore(w.projections) &&
                  (*done)->result.last_seq == w.head.seq;
    }
  }
  if (v.coming && !v.pending) v.deadline = P::DeadlineFor(v.state, *v.coming);
  return v;
}

Result<ScheduleStep> RunSchedule(ledger::Ledger& db, std::string_view game, std::string_view branch, int64_t now,
                                 const signing::SigningKey* signer) {
  auto w = Fold(db, game, branch);
  if (!w.ok()) return w.status();
  auto v = ScheduleViewOf(db, game, branch, *w);
  if (!v.ok()) return v.status();
  ScheduleStep step;
  if (v->pending) {
    const auto& s = v->state;
    auto r = Adjudicate(db, game, branch, AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr,
                        FiredAdjudicationKey(branch, s.fired_turn, s.fired_deadline), nullptr, signer);
    if (!r.ok()) return r.status();
    step.what = ScheduleStep::kFinished;
    step.turn = s.fired_turn;
    step.deadline = s.fired_deadline;
    step.phases = std::move(*r);
    return step;
  }
  if (v->ended || !v->deadline || v->state.paused || now < v->deadline->at) {
    step.head = w->head;
    step.wake = v->ended || !v->deadline || v->state.paused ? 0 : v->deadline->at;
    return step;
  }
  const Turn turn = v->deadline->turn;
  const int64_t deadline = v->deadline->at;
  if (SummaryOf(*w).dice_commitments.count(turn)) {
    return Status::InvalidArgument("turn " + turn.ToString() + "'s dice are committed: the scheduler cannot roll them "
                                      "without the salt; adjudicate the turn with `adjutant adjudicate --dice-salt-file`");
  }
  // Issue 23: a game that signs its tree heads waits for its key (`adjutant
  // serve --signing-key`), its deadline not fired.
  if (auto st = CheckSigner(game, SummaryOf(*w), signer); !st.ok()) {
    return Status::InvalidArgument("turn " + turn.ToString() + " is due, but the scheduler cannot adjudicate it: " +
                                   st.message());
  }
  auto fired = RecordDeadlineFired(db, game, branch, turn, deadline, now, FiredKey(branch, turn, deadline));
  if (!fired.ok()) return fired.status();
  auto r = Adjudicate(db, game, branch, AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr,
                      FiredAdjudicationKey(branch, turn, deadline), nullptr, signer);
  if (!r.ok()) return r.status();
  step.what = ScheduleStep::kFired;
  step.turn = turn;
  step.deadline = deadline;
  step.phases = std::move(*r);
  return step;
}

}  // namespace adjutant::replay
