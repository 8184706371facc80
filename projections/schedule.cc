#include "projections/schedule.h"

#include <algorithm>

#include "base/utc.h"
#include "projections/archive.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::projections {

template <class A> void Visit(A& a, ScheduleState& s) {
  a(s.last_seq, s.active, s.set, s.paused, s.repeat, s.weekday, s.minute_of_day, s.interval, s.deadline, s.turn,
    s.fired_seq, s.fired_turn, s.fired_deadline, s.fired_at);
}

namespace {
using schema::TurnOf;
}  // namespace

void Schedule::Apply(const Input& in) {
  s_.last_seq = in.seq;
  const fb::Directive* d = in.event->payload_as_Directive();
  if (!d) return;
  if (const auto* sc = d->body_as_Schedule()) {
    s_.active = true;
    switch (sc->action()) {
      case fb::ScheduleAction_Set:
        s_.set = true;
        s_.paused = false;
        s_.repeat = static_cast<Repeat>(sc->repeat());
        s_.weekday = sc->weekday();
        s_.minute_of_day = sc->minute_of_day();
        s_.interval = sc->interval();
        s_.deadline = sc->deadline();
        s_.turn = TurnOf(sc->turn());
        break;
      case fb::ScheduleAction_Extend:
        s_.deadline = sc->deadline();
        s_.turn = TurnOf(sc->turn());
        break;
      case fb::ScheduleAction_Pause:
        s_.paused = true;
        break;
      case fb::ScheduleAction_Resume:
        s_.paused = false;
        if (sc->deadline() != 0) {
          s_.deadline = sc->deadline();
          s_.turn = TurnOf(sc->turn());
        }
        break;
      case fb::ScheduleAction_Clear: {
        ScheduleState cleared;
        cleared.last_seq = s_.last_seq;
        cleared.active = true;
        s_ = cleared;
        break;
      }
      default:
        break;
    }
  } else if (const auto* f = d->body_as_DeadlineFired()) {
    s_.active = true;
    s_.fired_seq = in.seq;
    s_.fired_turn = TurnOf(f->turn());
    s_.fired_deadline = f->deadline();
    s_.fired_at = f->fired_at();
    s_.deadline = 0;  // spent: the next follows from the rule
  }
}

std::optional<int64_t> NextDeadline(const ScheduleState& s, int64_t closed) {
  switch (s.repeat) {
    case Repeat::kWeekly:
      return NextWeekly(closed, s.weekday, s.minute_of_day);
    case Repeat::kAfter:
      // Recorded intervals are checked (replay/schedule.h); a damaged one
      // gives no deadline rather than an overflow.
      if (s.interval <= 0 || closed < 0 || closed > kMaxUtc - s.interval) return std::nullopt;
      return closed + s.interval;
    case Repeat::kOnce:
      break;
  }
  return std::nullopt;
}

std::optional<Deadline> DeadlineFor(const ScheduleState& s, const Turn& coming) {
  if (!s.set) return std::nullopt;
  if (s.deadline != 0) {
    if (s.turn == coming) return Deadline{s.deadline, coming, false};
    if (coming < s.turn) return std::nullopt;  // not reached (a game forked back)
    auto next = NextDeadline(s, s.deadline);   // adjudicated by hand: the rule goes on
    if (!next) return std::nullopt;
    return Deadline{*next, coming, true};
  }
  if (s.fired_seq == 0) return std::nullopt;
  if (!(s.fired_turn < coming)) return std::nullopt;  // the fired turn is not adjudicated yet
  auto next = NextDeadline(s, std::max(s.fired_deadline, s.fired_at));
  if (!next) return std::nullopt;
  return Deadline{*next, coming, true};
}

std::string RepeatText(Repeat repeat, int weekday, int minute_of_day, int64_t interval) {
  switch (repeat) {
    case Repeat::kWeekly: {
      std::string hm = std::to_string(minute_of_day / 60 % 100 + 100).substr(1) + ":" +
                       std::to_string(minute_of_day % 60 + 100).substr(1);
      return "weekly, " + std::string(WeekdayName(weekday)) + " " + hm + " UTC";
    }
    case Repeat::kAfter:
      return FormatDuration(interval) + " after each turn closes";
    case Repeat::kOnce:
      break;
  }
  return "once";
}

std::string Schedule::Encode() const { return EncodeState(s_); }

Status Schedule::Decode(std::string_view bytes) { return DecodeState(bytes, &s_, name()); }

}  // namespace adjutant::projections
