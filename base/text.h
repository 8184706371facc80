// What a string people hand to Adjutant may hold, code point by code point:
// schema::CheckText (schema/text.h) refuses a string that breaks it, and
// SafeText mends one that arrives where nothing can be refused (a mail's
// headers), so that no stray byte or terminal escape is recorded or shown.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace adjutant {

// Always: valid UTF-8 (no overlong forms, no surrogates, nothing above
// U+10FFFF) and no NUL. kName: no C0 or C1 control character (nor DEL) and
// no bidirectional control (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F,
// U+061C). kFreeText: as kName, but line breaks (\n) and tabs are allowed.
// kSecret (a password, compared and never shown): anything but NUL.
enum class TextRule { kName, kFreeText, kSecret };

// The first place a text breaks its rule: the byte it starts at, how many
// bytes it takes (1 for a byte that begins no UTF-8 sequence), the code point
// (none when the bytes are not UTF-8) and what it is ("a NUL byte", "a
// control character", "a bidirectional control", "invalid UTF-8").
struct TextFault {
  size_t at = 0;
  size_t size = 1;
  std::optional<uint32_t> code_point;
  const char* what = "";
};
std::optional<TextFault> FindTextFault(std::string_view text, TextRule rule);

// The fault in words: "U+001B (a control character)", or "0xFF (a byte that
// is not UTF-8)".
std::string TextFaultName(std::string_view text, const TextFault& fault);

// The text with every fault FindTextFault would find replaced by U+FFFD.
std::string SafeText(std::string_view text, TextRule rule);

}  // namespace adjutant
