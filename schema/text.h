// What a string people hand to `adjutant` may hold. schema::ParseJson
// (schema/codec.h) checks every string of every document it parses with
// CheckText, through the binary schema (fields, vectors, nested tables,
// unions): the prose fields `text`, `reason`, `description` and `detail` as
// kFreeText, a `password` as kSecret, every other string (ids, names) as
// kName. A refusal reads "FILE: orders[2].body.ship: U+0000 (a NUL byte) is
// not allowed". The CLI applies it to the options that become events
// (`ruling --text`, `roll --purpose`).
#pragma once

#include <string_view>

#include "base/status.h"
#include "base/text.h"

namespace adjutant::schema {

// The rules are base/text.h's: kName, kFreeText, kSecret.
using adjutant::TextRule;

// Ok, or InvalidArgument naming the field and the code point, e.g.
// "orders[0].body.body.unit: U+0000 (a NUL byte) is not allowed".
Status CheckText(std::string_view field, std::string_view text, TextRule rule);

}  // namespace adjutant::schema
