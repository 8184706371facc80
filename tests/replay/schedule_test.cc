// Issue 20: deadlines. The time arithmetic (base/utc.h), the GA's schedule
// directives and the scheduler's step (replay/schedule.h) on every kind of
// game of the registry: a deadline fires once, adjudicates its turn once,
// a step repeated after a crash between the two finishes the turn without
// doubling it, and the next deadline follows the rule. The clock is a
// number passed in; nothing sleeps.
#include <catch2/catch.hpp>

#include "base/utc.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "replay/schedule.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "support/kinds.h"
#include "support/temp_dir.h"
#include "schema/values.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

int64_t T(const char* text) {
  auto t = ParseUtc(text);
  REQUIRE(t.has_value());
  return *t;
}

// PhaseStarted events of `turn`, and DeadlineFired directives, on main.
struct Count { int phases = 0, fired = 0; };
Count CountOf(ledger::Ledger& db, const Turn& turn) {
  Count c;
  REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
              const fb::Event* ev = e.event();
              const Turn t = schema::TurnOf(ev->turn());
              if (ev->payload_type() == fb::Payload_PhaseStarted && t == turn) c.phases++;
              if (const auto* d = ev->payload_as_Directive(); d && d->body_type() == fb::DirectiveBody_DeadlineFired) c.fired++;
              return Status::Ok();
            }).ok());
  return c;
}

uint64_t HeadSeq(ledger::Ledger& db) {
  auto h = db.HeadOf("g", "main");
  REQUIRE(h.ok());
  return h->seq;
}

Turn Coming(ledger::Ledger& db) {
  auto w = replay::Fold(db, "g", "main");
  REQUIRE(w.ok());
  auto at = replay::OrderPositionOf(*w);
  REQUIRE(at.ok());
  return at->turn;
}

}  // namespace

TEST_CASE("UTC times and durations: read, written, and the next weekly deadline", "[schedule]") {
  CHECK(ParseUtc("1970-01-01T00:00Z") == 0);
  CHECK(ParseUtc("2026-12-06T20:00Z") == 1796587200);
  CHECK(ParseUtc("2026-12-06 20:00") == 1796587200);
  CHECK(ParseUtc("2026-12-06 20:00 UTC") == 1796587200);
  CHECK(ParseUtc("2026-12-06T20:00:30Z") == 1796587230);
  CHECK(ParseUtc("2026-12-06") == 1796515200);
  for (const char* bad : {"", "2026-12-06T24:00Z", "2026-02-30", "2026-12-06T20", "2026/12/06", "1969-12-31", "2026-12-06T20:00+01",
                          "tomorrow", "2026-12-06T20:00:60Z"}) {
    INFO(bad);
    CHECK_FALSE(ParseUtc(bad).has_value());
  }
  CHECK(FormatUtc(1796587200) == "2026-12-06 20:00 UTC");
  CHECK(FormatUtc(1796587230) == "2026-12-06 20:00:30 UTC");
  CHECK(IsoUtc(1796587200) == "2026-12-06T20:00:00Z");
  // A damaged record's time is shown as it is, never converted out of range.
  CHECK(FormatUtc(-1) == "@-1");
  CHECK(FormatUtc(INT64_MAX) == "@" + std::to_string(INT64_MAX));
  CHECK(FormatUtc(kMaxUtc) == "9999-12-31 23:59:59 UTC");
  CHECK(NextWeekly(INT64_MAX, 0, 0) > kMaxUtc - 8 * 86400);
  CHECK(ParseDuration("3d") == 3 * 86400);
  CHECK(ParseDuration("2d12h") == 2 * 86400 + 12 * 3600);
  CHECK(ParseDuration("1w") == 7 * 86400);
  CHECK(ParseDuration("90m") == 5400);
  for (const char* bad : {"", "0d", "d", "3", "12h2d", "3x", "-1d", "1d1d"}) {
    INFO(bad);
    CHECK_FALSE(ParseDuration(bad).has_value());
  }
  CHECK(FormatDuration(2 * 86400 + 3 * 3600 + 5 * 60 + 7) == "2d 3h 5m");
  CHECK(FormatDuration(42) == "42s");
  CHECK(FormatDuration(-3600) == "-1h");
  CHECK(WeekdayOf(T("2026-12-06T20:00Z")) == 0);  // a Sunday
  CHECK(WeekdayOf(T("2026-12-02T00:00Z")) == 3);  // a Wednesday
  CHECK(MinuteOfDayOf(T("2026-12-06T20:00Z")) == 1200);
  // The first Sunday 20:00 strictly after a time.
  CHECK(NextWeekly(T("2026-12-02T07:00Z"), 0, 1200) == T("2026-12-06T20:00Z"));
  CHECK(NextWeekly(T("2026-12-06T20:00Z"), 0, 1200) == T("2026-12-13T20:00Z"));
  CHECK(NextWeekly(T("2026-12-06T19:59Z"), 0, 1200) == T("2026-12-06T20:00Z"));
  CHECK(NextWeekly(T("2026-12-07T20:00Z"), 0, 1200) == T("2026-12-13T20:00Z"));
}

TEST_CASE("the scheduler on every kind of game: a deadline fires once, its turn is adjudicated once, the next follows the rule",
          "[schedule]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      TempDir dir;
      auto l = ledger::Ledger::Open(dir.Sub("db"));
      REQUIRE(l.ok());
      ledger::Ledger& db = **l;
      REQUIRE(Play(db, dir.path(), kind, {}).ok());
      const Turn coming = kind.coming;
      REQUIRE(Coming(db) == coming);
      const char* now0 = "2026-12-02T07:00Z";
      CliRun set = Cli(db, {"schedule", "g", "set", "--deadline", "2026-12-06T20:00Z", "--after", "2d", "--now", now0});
      INFO(set.err);
      REQUIRE(set.code == 0);
      CHECK_THAT(set.out, Catch::Contains("deadline 2026-12-06 20:00 UTC for turn " + coming.ToString() + " (in 4d 13h)"));
      // status shows it, with the time left.
      CliRun st = Cli(db, {"status", "g", "--json", "--now", now0});
      REQUIRE(st.code == 0);
      auto sb = schema::ParseJson("StatusReport", st.out, "status");
      REQUIRE(sb.ok());
      const auto* sr = flatbuffers::GetRoot<fb::StatusReport>(sb->data());
      CHECK(sr->deadline_at() == T("2026-12-06T20:00Z"));
      CHECK(sr->time_left() == T("2026-12-06T20:00Z") - T(now0));
      CHECK(sr->deadline()->str() == "2026-12-06 20:00 UTC");
      // Before the deadline: nothing happens.
      const uint64_t head0 = HeadSeq(db);
      auto early = replay::RunSchedule(db, "g", "main", T("2026-12-06T19:59:59Z"));
      REQUIRE(early.ok());
      CHECK(early->what == replay::ScheduleStep::kNothing);
      CHECK(HeadSeq(db) == head0);
      // At it: the deadline fires and the turn is adjudicated, once.
      const int64_t fired_at = T("2026-12-06T20:00:05Z");
      auto fire = replay::RunSchedule(db, "g", "main", fired_at);
      INFO(fire.status().message());
      REQUIRE(fire.ok());
      CHECK(fire->what == replay::ScheduleStep::kFired);
      CHECK(fire->turn == coming);
      CHECK(fire->deadline == T("2026-12-06T20:00Z"));
      CHECK(CountOf(db, coming).phases == kind.phases_per_turn);
      CHECK(CountOf(db, coming).fired == 1);
      CHECK(coming < Coming(db));
      // Again at the same moment, and later before the next deadline: nothing.
      const uint64_t head1 = HeadSeq(db);
      for (int64_t at : {fired_at, fired_at + 2 * 86400 - 1}) {
        auto again = replay::RunSchedule(db, "g", "main", at);
        REQUIRE(again.ok());
        CHECK(again->what == replay::ScheduleStep::kNothing);
      }
      CHECK(HeadSeq(db) == head1);
      // The next deadline: 2 days after the turn closed (when it fired).
      auto w = replay::Fold(db, "g", "main");
      REQUIRE(w.ok());
      auto v = replay::ScheduleViewOf(db, "g", "main", *w);
      REQUIRE(v.ok());
      if (!v->ended) {
        REQUIRE(v->deadline.has_value());
        CHECK(v->deadline->at == fired_at + 2 * 86400);
        CHECK(v->deadline->turn == Coming(db));
        CHECK(v->deadline->rolled);
      }
      // The history with a schedule audits identical, and verifies.
      CliRun audit = Cli(db, {"audit", "g", "--all"});
      INFO(audit.out << audit.err);
      CHECK(audit.code == 0);
      CliRun log = Cli(db, {"log", "g", "--kind", "Directive"});
      CHECK_THAT(log.out, Catch::Contains("deadline of turn " + coming.ToString() + " (2026-12-06 20:00 UTC) fired at 2026-12-06 20:00:05 UTC"));
    }
  }
}

TEST_CASE("the scheduler after a crash: between the deadline firing and the end of its turn, the turn is finished, never doubled",
          "[schedule]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      TempDir dir;
      auto l = ledger::Ledger::Open(dir.Sub("db"));
      REQUIRE(l.ok());
      ledger::Ledger& db = **l;
      REQUIRE(Play(db, dir.path(), kind, {}).ok());
      const Turn coming = kind.coming;
      CliRun set = Cli(db, {"schedule", "g", "set", "--deadline", "2026-12-06T20:00Z", "--weekly", "--now", "2026-12-02T07:00Z"});
      INFO(set.err);
      REQUIRE(set.code == 0);
      const int64_t deadline = T("2026-12-06T20:00Z"), now = T("2026-12-06T20:00:01Z");
      // What a crash leaves: the DeadlineFired recorded (under its key), and
      // at most the turn's first phase.
      auto fired = replay::RecordDeadlineFired(db, "g", "main", coming, deadline, now, replay::FiredKey("main", coming, deadline));
      REQUIRE(fired.ok());
      if (kind.phases_per_turn > 1) REQUIRE(replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kPhase).ok());
      auto w = replay::Fold(db, "g", "main");
      REQUIRE(w.ok());
      auto v = replay::ScheduleViewOf(db, "g", "main", *w);
      REQUIRE(v.ok());
      CHECK(v->pending);
      CHECK_FALSE(v->deadline.has_value());
      CliRun st = Cli(db, {"status", "g", "--now", "2026-12-06T20:00:02Z"});
      CHECK_THAT(st.out, Catch::Contains("deadline: turn " + coming.ToString() + "'s fired; it is being adjudicated"));
      // The restarted scheduler finishes the turn...
      auto step = replay::RunSchedule(db, "g", "main", now + 60);
      INFO(step.status().message());
      REQUIRE(step.ok());
      CHECK(step->what == replay::ScheduleStep::kFinished);
      CHECK(step->turn == coming);
      CHECK(CountOf(db, coming).phases == kind.phases_per_turn);
      CHECK(CountOf(db, coming).fired == 1);
      // ...and a repeat of the whole step (the DeadlineFired under its key
      // included) records nothing more.
      const uint64_t head = HeadSeq(db);
      auto again = replay::RecordDeadlineFired(db, "g", "main", coming, deadline, now, replay::FiredKey("main", coming, deadline));
      REQUIRE(again.ok());
      CHECK(again->replayed);
      auto step2 = replay::RunSchedule(db, "g", "main", now + 120);
      REQUIRE(step2.ok());
      CHECK(step2->what == replay::ScheduleStep::kNothing);
      CHECK(HeadSeq(db) == head);
      CHECK(CountOf(db, coming).phases == kind.phases_per_turn);
      // The next deadline: the next Sunday 20:00.
      w = replay::Fold(db, "g", "main");
      REQUIRE(w.ok());
      v = replay::ScheduleViewOf(db, "g", "main", *w);
      REQUIRE(v.ok());
      if (!v->ended) {
        REQUIRE(v->deadline.has_value());
        CHECK(v->deadline->at == T("2026-12-13T20:00Z"));
      }
    }
  }
}

TEST_CASE("the schedule's directives: pause holds a deadline, a hand-adjudicated turn keeps the rule, bad requests change nothing",
          "[schedule]") {
  const GameKind& kind = GameKinds().front();
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  ledger::Ledger& db = **l;
  REQUIRE(Play(db, dir.path(), kind, {}).ok());
  const std::string now = "2026-12-02T07:00Z";
  // Refused, each naming why, exit 2, nothing appended.
  const uint64_t head0 = HeadSeq(db);
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"schedule", "g", "extend", "--by", "1d"}, "no deadline to extend"},
      {{"schedule", "g", "pause"}, "no schedule to pause"},
      {{"schedule", "g", "set"}, "--deadline T"},
      {{"schedule", "g", "set", "--deadline", "2026-12-01T20:00Z"}, "not in the future"},
      {{"schedule", "g", "set", "--deadline", "next sunday"}, "--deadline: 'next sunday'"},
      {{"schedule", "g", "set", "--deadline", "+3d", "--weekly", "--after", "2d"}, "exclude each other"},
      {{"schedule", "g", "set", "--deadline", "+99999999d"}, "--deadline: '+99999999d' from now falls after 9999-12-31"},
      {{"schedule", "g", "set", "--deadline", "+3d", "--after", "30s"}, "interval"},
      {{"schedule", "g", "set", "--deadline", "+3d", "--by", "1d"}, "--by: not taken"},
      {{"schedule", "g", "postpone"}, "'postpone' is not"},
      {{"schedule", "g", "--deadline", "+3d"}, "name what to do first"},
  };
  for (const auto& [args, why] : bad) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--now", now});
    CliRun r = Cli(db, a);
    INFO(a[2] << ": " << r.err);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains(why));
  }
  CHECK(HeadSeq(db) == head0);
  // A DeadlineFired is the scheduler's, never the GA's directive.
  std::string fired_json = R"({"reason": "mine", "body_type": "DeadlineFired", "body": {"deadline": 1, "fired_at": 2}})";
  std::string path = dir.path() + "/fired.json";
  {
    FILE* f = fopen(path.c_str(), "w");
    REQUIRE(f);
    fputs(fired_json.c_str(), f);
    fclose(f);
  }
  CliRun d = Cli(db, {"directive", "g", path});
  CHECK(d.code == 2);
  CHECK_THAT(d.err, Catch::Contains("recorded by the scheduler"));
  CHECK(HeadSeq(db) == head0);
  // Paused: the deadline passes and nothing fires; resumed: it fires.
  REQUIRE(Cli(db, {"schedule", "g", "set", "--deadline", "2026-12-06T20:00Z", "--weekly", "--now", now}).code == 0);
  CHECK_THAT(Cli(db, {"log", "g", "--kind", "Directive"}).out,
             Catch::Contains("schedule set: turn " + kind.coming.ToString() +
                             " closes 2026-12-06 20:00 UTC; then weekly, Sunday 20:00 UTC"));
  REQUIRE(Cli(db, {"schedule", "g", "pause", "--now", now}).code == 0);
  CliRun twice = Cli(db, {"schedule", "g", "pause", "--now", now});
  CHECK(twice.code == 2);
  CHECK_THAT(twice.err, Catch::Contains("already paused"));
  const uint64_t head1 = HeadSeq(db);
  auto held = replay::RunSchedule(db, "g", "main", T("2026-12-08T00:00Z"));
  REQUIRE(held.ok());
  CHECK(held->what == replay::ScheduleStep::kNothing);
  CHECK(HeadSeq(db) == head1);
  REQUIRE(Cli(db, {"schedule", "g", "resume", "--now", now}).code == 0);
  // Extended by a day: not yet at Sunday's time, fired on Monday's.
  CliRun ext = Cli(db, {"schedule", "g", "extend", "--by", "1d", "--now", now});
  INFO(ext.err);
  REQUIRE(ext.code == 0);
  CHECK_THAT(ext.out, Catch::Contains("deadline 2026-12-07 20:00 UTC"));
  const Turn coming = kind.coming;
  auto sunday = replay::RunSchedule(db, "g", "main", T("2026-12-06T20:00Z"));
  REQUIRE(sunday.ok());
  CHECK(sunday->what == replay::ScheduleStep::kNothing);
  // The GA adjudicates the turn himself before it: the rule goes on from
  // the deadline in force (the Sunday after Monday's).
  REQUIRE(Cli(db, {"adjudicate", "g"}).code == 0);
  CHECK(coming < Coming(db));
  CliRun show = Cli(db, {"schedule", "g", "--now", now});
  CHECK_THAT(show.out, Catch::Contains("deadline 2026-12-13 20:00 UTC for turn " + Coming(db).ToString()));
  CHECK_THAT(show.out, Catch::Contains("from the rule"));
  CHECK_THAT(show.out, Catch::Contains("weekly, Sunday 20:00 UTC"));
  // Cleared: no deadline, nothing fires.
  REQUIRE(Cli(db, {"schedule", "g", "clear", "--now", now}).code == 0);
  const uint64_t head2 = HeadSeq(db);
  auto none = replay::RunSchedule(db, "g", "main", T("2027-01-01T00:00Z"));
  REQUIRE(none.ok());
  CHECK(none->what == replay::ScheduleStep::kNothing);
  CHECK(HeadSeq(db) == head2);
  CliRun status = Cli(db, {"status", "g", "--now", now});
  CHECK_THAT(status.out, Catch::Contains("deadline: none set"));
}

TEST_CASE("a correction carries the deadlines fired over to its branch: the schedule goes on from them", "[schedule]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      TempDir dir;
      auto l = ledger::Ledger::Open(dir.Sub("db"));
      REQUIRE(l.ok());
      ledger::Ledger& db = **l;
      REQUIRE(Play(db, dir.path(), kind, {}).ok());
      const Turn coming = kind.coming;
      REQUIRE(Cli(db, {"schedule", "g", "set", "--deadline", "2026-12-06T20:00Z", "--after", "3d", "--now", "2026-12-02T07:00Z"}).code == 0);
      auto fire = replay::RunSchedule(db, "g", "main", T("2026-12-06T21:00Z"));
      REQUIRE(fire.ok());
      REQUIRE(fire->what == replay::ScheduleStep::kFired);
      // A correction at the start of the turn fired: the DeadlineFired is
      // given again on the corrected branch, at its place.
      const std::string path = dir.path() + "/correction.json";
      {
        FILE* f = fopen(path.c_str(), "w");
        REQUIRE(f);
        fputs(kind.correction.c_str(), f);
        fclose(f);
      }
      CliRun c = Cli(db, {"correct", "g", "--at", coming.ToString(), "--directive", path});
      INFO(c.out << c.err);
      REQUIRE(c.code == 0);
      auto cur = db.Current("g");
      REQUIRE(cur.ok());
      REQUIRE(*cur != "main");
      auto w = replay::Fold(db, "g", *cur);
      REQUIRE(w.ok());
      const auto& s = replay::ScheduleOf(*w);
      CHECK(s.fired_seq != 0);
      CHECK(s.fired_turn == coming);
      CHECK(s.fired_at == T("2026-12-06T21:00Z"));
      auto v = replay::ScheduleViewOf(db, "g", *cur, *w);
      REQUIRE(v.ok());
      CHECK_FALSE(v->pending);
      if (!v->ended) {
        REQUIRE(v->deadline.has_value());
        CHECK(v->deadline->at == T("2026-12-06T21:00Z") + 3 * 86400);
      }
      // Nothing fires again on the corrected branch at the same time.
      auto again = replay::RunSchedule(db, "g", *cur, T("2026-12-06T21:00Z"));
      REQUIRE(again.ok());
      CHECK(again->what == replay::ScheduleStep::kNothing);
    }
  }
}
