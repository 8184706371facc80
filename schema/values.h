// Values as the schema stores them, as the code uses them: a stored turn
// (fb::Turn, common.fbs) as a Turn (base/turn.h), a string that may be
// absent as a std::string. One conversion each, not one a file.
#pragma once

#include <string>

#include "base/turn.h"
#include "schema/common_generated.h"

namespace adjutant::schema {

// An absent turn (an event or record written without one) is Turn{}.
inline Turn TurnOf(const fb::Turn* t) { return t ? Turn{t->major(), t->minor(), t->step()} : Turn{}; }

inline std::string Str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

}  // namespace adjutant::schema
