#include "base/money.h"

#include <charconv>

namespace adjutant {

std::string FormatCc(int64_t cc) {
  std::string sign = cc < 0 ? "-" : "";
  uint64_t a = cc < 0 ? static_cast<uint64_t>(-(cc + 1)) + 1 : static_cast<uint64_t>(cc);
  std::string out = sign + std::to_string(a / 100);
  if (a % 100) {
    std::string frac = std::to_string(a % 100);
    out += "." + (frac.size() < 2 ? "0" + frac : frac);
  }
  return out + " Cr";
}

std::optional<int64_t> ParseCrowns(std::string_view text) {
  bool neg = !text.empty() && text[0] == '-';
  if (neg) text.remove_prefix(1);
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot), frac = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (whole.empty() || frac.size() > 2 || (dot != std::string_view::npos && frac.empty())) return std::nullopt;
  int64_t w = 0, f = 0;
  auto [e1, c1] = std::from_chars(whole.data(), whole.data() + whole.size(), w);
  if (c1 != std::errc() || e1 != whole.data() + whole.size() || w > INT64_MAX / 100 - 1) return std::nullopt;
  if (!frac.empty()) {
    auto [e2, c2] = std::from_chars(frac.data(), frac.data() + frac.size(), f);
    if (c2 != std::errc() || e2 != frac.data() + frac.size()) return std::nullopt;
    if (frac.size() == 1) f *= 10;
  }
  int64_t cc = w * 100 + f;
  return neg ? -cc : cc;
}

}  // namespace adjutant
