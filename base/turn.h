// Turn coordinates (see schema/common.fbs): three integers ordered
// lexicographically. Text form "MAJOR[.MINOR[.STEP]]", e.g. "1805.2.3".
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace adjutant {

struct Turn {
  int32_t major = 0;
  int32_t minor = 0;
  int32_t step = 0;
  friend auto operator<=>(const Turn&, const Turn&) = default;
  std::string ToString() const;
  // Parses the text form; omitted parts are 0. nullopt on anything else.
  static std::optional<Turn> Parse(std::string_view text);
};

// A position in a game's calendar: a turn and a phase within it.
struct TurnPhase {
  Turn turn;
  uint16_t phase = 0;
  friend auto operator<=>(const TurnPhase&, const TurnPhase&) = default;
};

// Parses an unsigned decimal integer that must fill the whole text.
std::optional<uint64_t> ParseU64(std::string_view text);

}  // namespace adjutant
