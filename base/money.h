// Money is kept in hundredths of a crown ("cc") everywhere (ARCHITECTURE I4:
// integers, not floating point); this is how it reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace adjutant {

// "1234 Cr", "12.50 Cr", "-0.05 Cr".
std::string FormatCc(int64_t cc);

// Parses "1234", "1234.5" or "1234.50" crowns into cc; nullopt otherwise.
std::optional<int64_t> ParseCrowns(std::string_view text);

}  // namespace adjutant
