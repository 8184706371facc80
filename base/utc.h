// Wall-clock times as data: seconds since 1970-01-01 00:00 UTC, read and
// written in one text form, and durations. Nothing here reads a clock: the
// front ends (the command line, the order desk, the scheduler of `adjutant
// serve`) pass the time in, and what they pass is recorded on events.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace adjutant {

// "2026-12-06T20:00Z", "2026-12-06 20:00", "2026-12-06T20:00:30Z",
// "2026-12-06" (midnight): always UTC; a trailing "Z" or " UTC" may be
// given. Years 1970..9999. nullopt on anything else.
std::optional<int64_t> ParseUtc(std::string_view text);
// The last second these functions read or write: 9999-12-31 23:59:59 UTC.
inline constexpr int64_t kMaxUtc = 253402300799;

// "2026-12-06 20:00 UTC" (with ":SS" when the seconds are not 0); a time
// outside 1970..9999 (a damaged record) as "@SECONDS".
std::string FormatUtc(int64_t t);
// The same as an ISO 8601 timestamp a script reads: "2026-12-06T20:00:00Z".
std::string IsoUtc(int64_t t);

// "3d", "36h", "90m", "45s", "1w", "2d12h" (units w d h m s, each once at
// most, largest first), more than 0. nullopt on anything else.
std::optional<int64_t> ParseDuration(std::string_view text);
// "2d 3h 5m" (seconds only under a minute); "0s" for 0; "-" before a
// negative one.
std::string FormatDuration(int64_t seconds);

// How far `at` lies from `now`: "in 2d 3h", or "passed 5m ago".
std::string TimeLeftText(int64_t at, int64_t now);

// 0 Sunday .. 6 Saturday, and minutes since midnight, of an instant (UTC).
int WeekdayOf(int64_t t);
int MinuteOfDayOf(int64_t t);
// "Sunday" .. "Saturday".
std::string_view WeekdayName(int weekday);

// The first instant strictly after `after` that falls on `weekday` at
// `minute_of_day` (UTC); `after` is clamped to 0..kMaxUtc.
int64_t NextWeekly(int64_t after, int weekday, int minute_of_day);

}  // namespace adjutant
