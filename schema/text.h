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

namespace adjutant::schema {

// Always: valid UTF-8 (no overlong forms, no surrogates, nothing above
// U+10FFFF) and no NUL. kName: no C0 or C1 control character (nor DEL) and
// no bidirectional control (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F,
// U+061C). kFreeText: as kName, but line breaks (\n) and tabs are allowed.
// kSecret (a password, compared and never shown): anything but NUL.
enum class TextRule { kName, kFreeText, kSecret };

// Ok, or InvalidArgument naming the field and the code point, e.g.
// "orders[0].body.body.unit: U+0000 (a NUL byte) is not allowed".
Status CheckText(std::string_view field, std::string_view text, TextRule rule);

}  // namespace adjutant::schema
