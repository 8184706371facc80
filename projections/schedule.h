// The schedule (issue 20): the deadline the GA set for the coming turn (or
// move) of a branch, how the deadlines after it follow (once, weekly, a
// time after each turn closes), whether it is paused, and the last deadline
// the scheduler of `adjutant serve` fired. Folds the Schedule and
// DeadlineFired directives; applies (and so has a digest in PhaseCompleted)
// only in a game whose GA set a schedule, so no earlier game changes.
// Times are data (seconds since 1970 UTC); nothing here reads a clock.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/turn.h"
#include "projections/projection.h"

namespace adjutant::projections {

enum class Repeat : uint8_t { kOnce = 0, kWeekly = 1, kAfter = 2 };  // fb::ScheduleRepeat

struct ScheduleState {
  uint64_t last_seq = 0;
  bool active = false;   // a Schedule directive was ever recorded
  bool set = false;      // a schedule is in force (not cleared)
  bool paused = false;
  Repeat repeat = Repeat::kOnce;
  uint8_t weekday = 0;         // kWeekly: 0 Sunday .. 6 Saturday
  uint16_t minute_of_day = 0;  // kWeekly
  int64_t interval = 0;        // kAfter: seconds
  // The deadline set (0: none; the next follows from the rule) and the
  // turn whose orders it closes.
  int64_t deadline = 0;
  Turn turn;
  // The last deadline fired: the turn it closed, when it was due, when it
  // fired and the seq of its DeadlineFired.
  uint64_t fired_seq = 0;
  Turn fired_turn;
  int64_t fired_deadline = 0, fired_at = 0;
};

class Schedule final : public Fold<ScheduleState> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<Schedule>(*this); }
  std::string_view name() const override { return "schedule"; }
  uint32_t version() const override { return 1; }
  bool applies() const override { return s_.active; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;
};

// The deadline that closes the turn (or move) `coming`, the one orders now
// go to: the one set for it; else, when the game moved on past the turn a
// deadline was set for (the GA adjudicated it himself) or a deadline fired,
// the rule's next after the last one (`rolled`). None: no schedule, a
// schedule of one deadline that has passed, or a fired turn still being
// adjudicated (`coming` is the turn fired).
struct Deadline {
  int64_t at = 0;
  Turn turn;
  bool rolled = false;
};
std::optional<Deadline> DeadlineFor(const ScheduleState& s, const Turn& coming);

// The deadline after a turn closed at `closed` under the schedule's rule
// (none for a single deadline).
std::optional<int64_t> NextDeadline(const ScheduleState& s, int64_t closed);

// "weekly, Sunday 20:00 UTC", "3d after each turn closes", "once".
std::string RepeatText(Repeat repeat, int weekday, int minute_of_day, int64_t interval);
inline std::string RepeatText(const ScheduleState& s) { return RepeatText(s.repeat, s.weekday, s.minute_of_day, s.interval); }

}  // namespace adjutant::projections
