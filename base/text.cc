#include "base/text.h"

#include <cstdio>

namespace adjutant {
namespace {

// One code point at p[i..]: its length in bytes and value, or length 0 when
// the bytes there are not strict UTF-8 (overlong, a surrogate, above
// U+10FFFF, cut short).
size_t Decode(const unsigned char* p, size_t n, size_t i, uint32_t* out) {
  uint32_t c = p[i];
  const size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > n) return 0;
  if (len > 1) {
    c &= (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return 0;
      c = (c << 6) | (p[i + k] & 0x3F);
    }
    const uint32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  }
  *out = c;
  return len;
}

// What a code point is under the rule, or nullptr when the rule allows it.
const char* Forbidden(uint32_t c, TextRule rule) {
  if (c == 0) return "a NUL byte";
  if (rule == TextRule::kSecret) return nullptr;
  if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F)) {
    if (rule == TextRule::kFreeText && (c == '\n' || c == '\t')) return nullptr;
    return "a control character";
  }
  if ((c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C) {
    return "a bidirectional control";
  }
  return nullptr;
}

std::optional<TextFault> FaultFrom(std::string_view text, size_t from, TextRule rule) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t i = from; i < text.size();) {
    uint32_t c = 0;
    const size_t len = Decode(p, text.size(), i, &c);
    if (len == 0) return TextFault{i, 1, std::nullopt, "invalid UTF-8"};
    if (const char* what = Forbidden(c, rule)) return TextFault{i, len, c, what};
    i += len;
  }
  return std::nullopt;
}

}  // namespace

std::optional<TextFault> FindTextFault(std::string_view text, TextRule rule) { return FaultFrom(text, 0, rule); }

std::string TextFaultName(std::string_view text, const TextFault& fault) {
  char buf[16];
  if (fault.code_point) {
    std::snprintf(buf, sizeof buf, "U+%04X", *fault.code_point);
    return std::string(buf) + " (" + fault.what + ")";
  }
  std::snprintf(buf, sizeof buf, "0x%02X", fault.at < text.size() ? static_cast<unsigned char>(text[fault.at]) : 0u);
  return std::string(buf) + " (a byte that is not UTF-8)";
}

std::string SafeText(std::string_view text, TextRule rule) {
  std::string out;
  size_t done = 0;
  for (auto f = FaultFrom(text, 0, rule); f; f = FaultFrom(text, done, rule)) {
    out.append(text.substr(done, f->at - done));
    out += "\xEF\xBF\xBD";  // U+FFFD
    done = f->at + f->size;
  }
  if (done == 0) return std::string(text);
  out.append(text.substr(done));
  return out;
}

}  // namespace adjutant
