// `adjutant schedule`: the GA's deadlines (issue 20), shown, or changed by a
// Schedule directive (set, extend, pause, resume, clear) that this builds
// from the request and the branch as it stands, and records like any other
// directive (replay::RecordDirective checks it). The time `now` is the
// front end's; the library below never reads a clock.
#include <flatbuffers/flatbuffers.h>

#include "base/utc.h"
#include "ops/internal.h"
#include "replay/driver.h"
#include "replay/schedule.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::ops {
namespace {

namespace P = projections;

// A deadline given as a UTC time or "+DURATION" from now.
Result<int64_t> DeadlineOption(const std::string& text, int64_t now) {
  if (!text.empty() && text[0] == '+') {
    auto d = ParseDuration(text.substr(1));
    if (!d) return Status::InvalidArgument("--deadline: '" + text + "' is not +DURATION (e.g. +3d, +36h, +1w2d)");
    if (now > kMaxUtc - *d) {
      return Status::InvalidArgument("--deadline: '" + text + "' from now falls after " + FormatUtc(kMaxUtc));
    }
    return now + *d;
  }
  auto t = ParseUtc(text);
  if (!t) {
    return Status::InvalidArgument("--deadline: '" + text +
                                   "' is not a UTC time (e.g. 2026-12-06T20:00Z or \"2026-12-06 20:00\") or +DURATION");
  }
  return *t;
}

Result<int64_t> DurationOption(const std::string& name, const std::string& text) {
  auto d = ParseDuration(text);
  if (!d) return Status::InvalidArgument("--" + name + ": '" + text + "' is not a duration (e.g. 3d, 36h, 90m, 1w, 2d12h)");
  return *d;
}

const char* RepeatName(P::Repeat r) {
  switch (r) {
    case P::Repeat::kWeekly: return "weekly";
    case P::Repeat::kAfter: return "after";
    case P::Repeat::kOnce: break;
  }
  return "once";
}

Status Show(ledger::Ledger& db, const ScheduleRequest& rq, const std::string& branch, Printer& p) {
  auto w = replay::Fold(db, rq.game, branch);
  if (!w.ok()) return w.status();
  auto v = replay::ScheduleViewOf(db, rq.game, branch, *w);
  if (!v.ok()) return v.status();
  const P::ScheduleState& s = v->state;
  std::string why;
  if (!s.set) why = "no schedule set: turns run when the GA adjudicates them";
  else if (v->ended) why = "the game has nothing left to adjudicate (" + v->why_ended + ")";
  else if (v->pending) why = "the deadline of turn " + s.fired_turn.ToString() + " fired; its adjudication is not finished";
  else if (!v->coming) why = "the game takes no orders now";
  else if (!v->deadline) why = "the schedule's single deadline has passed: set the next one";
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    const std::string turn = v->deadline ? v->deadline->turn.ToString() : "";
    const std::string text = v->deadline ? FormatUtc(v->deadline->at) : "";
    const std::string fired_turn = s.fired_seq ? s.fired_turn.ToString() : "";
    f.Finish(fb::CreateScheduleReportDirect(
        f, rq.game.c_str(), branch.c_str(), s.set, s.paused, RepeatName(s.repeat), s.set ? RepeatText(s).c_str() : "",
        s.weekday, s.minute_of_day, s.interval, turn.c_str(), v->deadline ? v->deadline->at : 0, text.c_str(),
        v->deadline ? v->deadline->at - rq.now : 0, v->deadline && v->deadline->rolled, v->pending, fired_turn.c_str(),
        s.fired_deadline, s.fired_at, rq.now, why.c_str()));
    return p.Json("ScheduleReport", f);
  }
  p.Line(rq.game + "/" + branch + ":");
  if (v->deadline) {
    p.Line("  deadline " + FormatUtc(v->deadline->at) + " for turn " + v->deadline->turn.ToString() + " (" +
           TimeLeftText(v->deadline->at, rq.now) + ")" + (v->deadline->rolled ? " — from the rule" : "") +
           (s.paused ? " — PAUSED: it will not fire until resumed" : ""));
  } else {
    p.Line("  no deadline: " + why);
  }
  if (s.set) p.Line("  deadlines: " + RepeatText(s) + (s.paused ? " (paused)" : ""));
  if (s.fired_seq) {
    p.Line("  last fired: turn " + s.fired_turn.ToString() + ", due " + FormatUtc(s.fired_deadline) + ", fired " +
           FormatUtc(s.fired_at) + "  [seq " + std::to_string(s.fired_seq) + "]");
  }
  return Status::Ok();
}

Status Change(const Env& env, const ScheduleRequest& rq, const std::string& branch, Printer& p) {
  const std::string& action = *rq.action;
  fb::ScheduleAction act;
  if (action == "set") act = fb::ScheduleAction_Set;
  else if (action == "extend") act = fb::ScheduleAction_Extend;
  else if (action == "pause") act = fb::ScheduleAction_Pause;
  else if (action == "resume") act = fb::ScheduleAction_Resume;
  else if (action == "clear") act = fb::ScheduleAction_Clear;
  else return Status::InvalidArgument("adjutant schedule: '" + action + "' is not set, extend, pause, resume, clear or run");
  auto refuse_opt = [&](bool given, const char* opt) -> Status {
    if (given) return Status::InvalidArgument("--" + std::string(opt) + ": not taken by `schedule " + action + "`");
    return Status::Ok();
  };
  ADJ_RETURN_IF_ERROR(refuse_opt(rq.deadline && act != fb::ScheduleAction_Set && act != fb::ScheduleAction_Resume, "deadline"));
  ADJ_RETURN_IF_ERROR(refuse_opt(rq.weekly && act != fb::ScheduleAction_Set, "weekly"));
  ADJ_RETURN_IF_ERROR(refuse_opt(rq.after.has_value() && act != fb::ScheduleAction_Set, "after"));
  ADJ_RETURN_IF_ERROR(refuse_opt(rq.by.has_value() && act != fb::ScheduleAction_Extend, "by"));
  if (rq.weekly && rq.after) return Status::InvalidArgument("adjutant schedule set: --weekly and --after exclude each other");
  auto db = env.open(true);
  if (!db.ok()) return db.status();
  auto w = replay::Fold(**db, rq.game, branch);
  if (!w.ok()) return w.status();
  auto at = replay::OrderPositionOf(*w);
  auto v = replay::ScheduleViewOf(**db, rq.game, branch, *w);
  if (!v.ok()) return v.status();
  int64_t deadline = 0, interval = 0, extend_by = 0;
  fb::ScheduleRepeat repeat = fb::ScheduleRepeat_Once;
  uint8_t weekday = 0;
  uint16_t minute = 0;
  if (act == fb::ScheduleAction_Set && !rq.deadline) {
    return Status::InvalidArgument("adjutant schedule set: --deadline T (a UTC time, or +DURATION from now) is required");
  }
  if (rq.deadline) {
    auto d = DeadlineOption(*rq.deadline, rq.now);
    if (!d.ok()) return d.status();
    if (*d <= rq.now) {
      return Status::InvalidArgument("--deadline: " + FormatUtc(*d) + " is not in the future (now " + FormatUtc(rq.now) + ")");
    }
    deadline = *d;
  }
  if (rq.weekly) {
    repeat = fb::ScheduleRepeat_Weekly;
    weekday = static_cast<uint8_t>(WeekdayOf(deadline));
    minute = static_cast<uint16_t>(MinuteOfDayOf(deadline));
  } else if (rq.after) {
    auto d = DurationOption("after", *rq.after);
    if (!d.ok()) return d.status();
    repeat = fb::ScheduleRepeat_After;
    interval = *d;
  }
  if (act == fb::ScheduleAction_Extend) {
    if (!rq.by) return Status::InvalidArgument("adjutant schedule extend: --by DURATION is required");
    auto d = DurationOption("by", *rq.by);
    if (!d.ok()) return d.status();
    extend_by = *d;
    if (v->deadline) deadline = v->deadline->at + extend_by;  // else refused by the check, naming why
  }
  const bool names_turn = act == fb::ScheduleAction_Set || act == fb::ScheduleAction_Extend ||
                          (act == fb::ScheduleAction_Resume && deadline != 0);
  fb::Turn ft;
  if (names_turn && at.ok()) ft = fb::Turn(at->turn.major, at->turn.minor, at->turn.step);
  flatbuffers::FlatBufferBuilder f;
  fb::ScheduleBuilder sb(f);
  sb.add_action(act);
  if (names_turn) sb.add_turn(&ft);
  sb.add_deadline(deadline);
  sb.add_repeat(repeat);
  sb.add_weekday(weekday);
  sb.add_minute_of_day(minute);
  sb.add_interval(interval);
  sb.add_extend_by(extend_by);
  auto body = sb.Finish();
  const std::string reason = rq.reason.value_or("schedule " + action);
  f.Finish(fb::CreateDirectiveFile(f, f.CreateString(reason), fb::DirectiveBody_Schedule, body.Union()));
  const std::vector<uint8_t> doc(f.GetBufferPointer(), f.GetBufferPointer() + f.GetSize());
  auto r = replay::RecordDirective(**db, rq.game, branch, doc, rq.key.value_or(""));
  if (!r.ok()) {
    return r.status().code() == Status::Code::kInvalidArgument
               ? Status::InvalidArgument("adjutant schedule " + action + ": " + r.status().message())
               : r.status();
  }
  if (!rq.json) {
    p.Line(std::string(r->replayed ? "already recorded" : "recorded") + " schedule " + action + " on " + rq.game + "/" +
           branch + "  [seq " + std::to_string(r->first_seq) + "]");
  }
  return Show(**db, rq, branch, p);  // on the database already open: never a second handle
}

// The options that change a schedule, refused where none is changed (`why`).
Status NoChangeOptions(const ScheduleRequest& rq, const std::string& why) {
  for (const auto& [given, name] : {std::pair{rq.deadline.has_value(), "deadline"}, {rq.weekly, "weekly"},
                                    {rq.after.has_value(), "after"}, {rq.by.has_value(), "by"},
                                    {rq.reason.has_value(), "reason"}, {rq.key.has_value(), "key"}}) {
    if (given) return Status::InvalidArgument("--" + std::string(name) + ": " + why);
  }
  return Status::Ok();
}

// What the scheduler does at `now` (the step `adjutant serve` takes at each
// tick): finish a fired turn, or fire a deadline that has passed.
Status Run(const Env& env, const ScheduleRequest& rq, const std::string& branch, Printer& p) {
  ADJ_RETURN_IF_ERROR(NoChangeOptions(rq, "not taken by `schedule run`"));
  auto db = env.open(true);
  if (!db.ok()) return db.status();
  auto step = replay::RunSchedule(**db, rq.game, branch, rq.now);
  if (!step.ok()) return step.status();
  if (step->what == replay::ScheduleStep::kNothing) {
    if (!rq.json) p.Line("nothing due at " + FormatUtc(rq.now));
  } else if (!rq.json) {
    p.Line(std::string(step->what == replay::ScheduleStep::kFired ? "deadline fired" : "finished the fired turn") +
           ": turn " + step->turn.ToString() + " (due " + FormatUtc(step->deadline) + "), " +
           std::to_string(step->phases.size()) + (step->phases.size() == 1 ? " phase" : " phases") + " adjudicated" +
           (step->phases.empty() ? "" : ", seq " + std::to_string(step->phases.front().first_seq) + ".." +
                                            std::to_string(step->phases.back().last_seq)));
  }
  return Show(**db, rq, branch, p);
}

Status DoSchedule(const Env& env, const ScheduleRequest& rq, Printer& p) {
  const std::string branch = BranchOf(env, rq.branch, rq.game);
  if (rq.action && *rq.action == "run") return Run(env, rq, branch, p);
  if (!rq.action) {
    ADJ_RETURN_IF_ERROR(NoChangeOptions(rq, "name what to do first (adjutant schedule GAME set|extend|pause|resume|clear)"));
    auto db = env.open(false);
    if (!db.ok()) return db.status();
    return Show(**db, rq, branch, p);
  }
  return Change(env, rq, branch, p);
}

}  // namespace

Answer Schedule(const Env& env, const ScheduleRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoSchedule(env, rq, p); });
}

}  // namespace adjutant::ops
