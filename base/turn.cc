#include "base/turn.h"

#include <charconv>

namespace adjutant {

std::string Turn::ToString() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(step);
}

std::optional<Turn> Turn::Parse(std::string_view text) {
  int32_t parts[3] = {0, 0, 0};
  size_t n = 0;
  while (true) {
    if (n == 3) return std::nullopt;
    size_t dot = text.find('.');
    std::string_view part = text.substr(0, dot);
    if (part.empty()) return std::nullopt;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), parts[n]);
    if (ec != std::errc() || end != part.data() + part.size()) return std::nullopt;
    ++n;
    if (dot == std::string_view::npos) break;
    text.remove_prefix(dot + 1);
  }
  return Turn{parts[0], parts[1], parts[2]};
}

std::optional<uint64_t> ParseU64(std::string_view text) {
  uint64_t v = 0;
  if (text.empty()) return std::nullopt;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace adjutant
