#include "base/utc.h"

#include <algorithm>
#include <chrono>


namespace adjutant {
namespace {

constexpr int64_t kDay = 86400;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::optional<int> Digits(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

std::string Two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

}  // namespace

std::optional<int64_t> ParseUtc(std::string_view s) {
  using namespace std::chrono;
  if (s.ends_with(" UTC")) s.remove_suffix(4);
  else if (s.ends_with("Z") || s.ends_with("z")) s.remove_suffix(1);
  auto y = Digits(s, 0, 4), mo = Digits(s, 5, 2), d = Digits(s, 8, 2);
  if (!y || !mo || !d || s.size() < 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  int h = 0, mi = 0, sec = 0;
  if (s.size() > 10) {
    if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') return std::nullopt;
    auto hh = Digits(s, 11, 2), mm = Digits(s, 14, 2);
    if (!hh || !mm || s.size() < 16 || s[13] != ':') return std::nullopt;
    h = *hh;
    mi = *mm;
    if (s.size() > 16) {
      auto ss = Digits(s, 17, 2);
      if (!ss || s[16] != ':' || s.size() != 19) return std::nullopt;
      sec = *ss;
    }
  }
  if (*y < 1970 || h > 23 || mi > 59 || sec > 59) return std::nullopt;
  const year_month_day ymd{year{*y}, month{static_cast<unsigned>(*mo)}, day{static_cast<unsigned>(*d)}};
  if (!ymd.ok()) return std::nullopt;
  const int64_t days = sys_days(ymd).time_since_epoch().count();
  return days * kDay + h * 3600 + mi * 60 + sec;
}

std::string FormatUtc(int64_t t) {
  using namespace std::chrono;
  if (t < 0 || t > kMaxUtc) return "@" + std::to_string(t);
  const int64_t days = FloorDiv(t, kDay);
  const int64_t rest = t - days * kDay;
  const year_month_day ymd{sys_days{std::chrono::days{days}}};
  std::string out = std::to_string(static_cast<int>(ymd.year())) + "-" + Two(static_cast<unsigned>(ymd.month())) + "-" +
                    Two(static_cast<unsigned>(ymd.day())) + " " + Two(static_cast<int>(rest / 3600)) + ":" +
                    Two(static_cast<int>(rest / 60 % 60));
  if (rest % 60) out += ":" + Two(static_cast<int>(rest % 60));
  return out + " UTC";
}

std::string IsoUtc(int64_t t) {
  if (t < 0 || t > kMaxUtc) return "@" + std::to_string(t);
  std::string s = FormatUtc(t);  // "YYYY-MM-DD HH:MM[:SS] UTC"
  s.resize(s.size() - 4);
  if (s.size() == 16) s += ":00";
  s[10] = 'T';
  return s + "Z";
}

std::optional<int64_t> ParseDuration(std::string_view s) {
  static constexpr struct { char unit; int64_t seconds; } kUnits[] = {
      {'w', 7 * kDay}, {'d', kDay}, {'h', 3600}, {'m', 60}, {'s', 1}};
  int64_t total = 0;
  size_t next_unit = 0;
  size_t i = 0;
  if (s.empty()) return std::nullopt;
  while (i < s.size()) {
    size_t start = i;
    int64_t n = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      n = n * 10 + (s[i] - '0');
      if (n > 100000000) return std::nullopt;
      ++i;
    }
    if (i == start || i == s.size()) return std::nullopt;
    char u = static_cast<char>(s[i] | 0x20);
    size_t k = next_unit;
    while (k < std::size(kUnits) && kUnits[k].unit != u) ++k;
    if (k == std::size(kUnits)) return std::nullopt;
    total += n * kUnits[k].seconds;
    next_unit = k + 1;
    ++i;
  }
  if (total <= 0) return std::nullopt;
  return total;
}

std::string FormatDuration(int64_t s) {
  if (s < 0) return "-" + FormatDuration(-s);
  if (s < 60) return std::to_string(s) + "s";
  std::string out;
  auto part = [&](int64_t n, const char* unit) {
    if (n) out += (out.empty() ? "" : " ") + std::to_string(n) + unit;
  };
  part(s / kDay, "d");
  part(s % kDay / 3600, "h");
  part(s % 3600 / 60, "m");
  return out;
}

std::string TimeLeftText(int64_t at, int64_t now) {
  return at > now ? "in " + FormatDuration(at - now) : "passed " + FormatDuration(now - at) + " ago";
}

int WeekdayOf(int64_t t) {
  // 1970-01-01 was a Thursday (4).
  return static_cast<int>((FloorDiv(t, kDay) % 7 + 7 + 4) % 7);
}

int MinuteOfDayOf(int64_t t) { return static_cast<int>((t - FloorDiv(t, kDay) * kDay) / 60); }

std::string_view WeekdayName(int weekday) {
  static constexpr std::string_view kNames[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                                                "Saturday"};
  return weekday >= 0 && weekday < 7 ? kNames[weekday] : "?";
}

int64_t NextWeekly(int64_t after, int weekday, int minute_of_day) {
  after = std::clamp<int64_t>(after, 0, kMaxUtc);
  const int64_t day0 = FloorDiv(after, kDay) * kDay;
  for (int i = 0; i <= 7; ++i) {
    const int64_t t = day0 + i * kDay + minute_of_day * 60;
    if (t > after && WeekdayOf(t) == weekday) return t;
  }
  return day0 + 8 * kDay + minute_of_day * 60;  // not reached for a weekday 0..6
}

}  // namespace adjutant
