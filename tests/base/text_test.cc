// base/text.h: where a text breaks its rule (strict UTF-8, no NUL, no
// control or bidirectional control where the rule forbids it), and SafeText,
// which mends such a text (a mail's headers) with U+FFFD: its result always
// keeps the rule, and a text that keeps it comes back unchanged.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <string>
#include <vector>

#include "base/text.h"

using namespace adjutant;

namespace {
const std::string kMend = "\xEF\xBF\xBD";
}

TEST_CASE("text: each fault is found where it is, and mended by U+FFFD", "[text]") {
  struct Case {
    std::string text;
    size_t at, size;
    std::optional<uint32_t> cp;
    std::string what, mended;
  };
  const std::vector<Case> cases = {
      {std::string("ab\0c", 4), 2, 1, 0u, "a NUL byte", "ab" + kMend + "c"},
      {"x\x1b[2J", 1, 1, 0x1Bu, "a control character", "x" + kMend + "[2J"},
      {"\x7f", 0, 1, 0x7Fu, "a control character", kMend},
      {"a\xC2\x9B", 1, 2, 0x9Bu, "a control character", "a" + kMend},
      {"\xE2\x80\xAE" "evil", 0, 3, 0x202Eu, "a bidirectional control", kMend + "evil"},
      {"\xD8\x9C", 0, 2, 0x061Cu, "a bidirectional control", kMend},
      {"\xFF\xFE", 0, 1, std::nullopt, "invalid UTF-8", kMend + kMend},
      {"\xC0\xAF", 0, 1, std::nullopt, "invalid UTF-8", kMend + kMend},        // overlong '/'
      {"\xED\xA0\x80", 0, 1, std::nullopt, "invalid UTF-8", kMend + kMend + kMend},  // a surrogate
      {"\xF4\x90\x80\x80", 0, 1, std::nullopt, "invalid UTF-8", kMend + kMend + kMend + kMend},  // above U+10FFFF
      {"caf\xC3", 3, 1, std::nullopt, "invalid UTF-8", "caf" + kMend},        // cut short
  };
  for (const auto& c : cases) {
    INFO(c.what << " at " << c.at);
    const auto f = FindTextFault(c.text, TextRule::kName);
    REQUIRE(f);
    CHECK(f->at == c.at);
    CHECK(f->size == c.size);
    CHECK(f->code_point == c.cp);
    CHECK(std::string(f->what) == c.what);
    CHECK(SafeText(c.text, TextRule::kName) == c.mended);
  }
  // Named in words, as a refusal names them.
  CHECK(TextFaultName("x\x1b", *FindTextFault("x\x1b", TextRule::kName)) == "U+001B (a control character)");
  CHECK(TextFaultName("ab\xFF", *FindTextFault("ab\xFF", TextRule::kName)) == "0xFF (a byte that is not UTF-8)");
  // What each rule allows.
  CHECK_FALSE(FindTextFault("Été 1805 — l'escadre\xF0\x9F\x9A\xA2", TextRule::kName));
  CHECK(FindTextFault("two\nlines", TextRule::kName));
  CHECK_FALSE(FindTextFault("two\nlines\tand a tab", TextRule::kFreeText));
  CHECK(FindTextFault("a\rb", TextRule::kFreeText));
  CHECK_FALSE(FindTextFault("\x1b\x7f\xE2\x80\xAE", TextRule::kSecret));
  CHECK(FindTextFault(std::string("\0", 1), TextRule::kSecret));
  CHECK(SafeText("two\nlines", TextRule::kFreeText) == "two\nlines");
  CHECK(SafeText("two\nlines", TextRule::kName) == "two" + kMend + "lines");
}

TEST_CASE("text: SafeText keeps the rule on any bytes, and changes a text that keeps it not at all", "[text][property]") {
  for (TextRule rule : {TextRule::kName, TextRule::kFreeText, TextRule::kSecret}) {
    rc::prop("mended", [rule] {
      const auto bytes = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
      const std::string safe = SafeText(bytes, rule);
      RC_ASSERT_FALSE(FindTextFault(safe, rule).has_value());
      RC_ASSERT(SafeText(safe, rule) == safe);
      if (!FindTextFault(bytes, rule)) RC_ASSERT(safe == bytes);
    });
  }
}
