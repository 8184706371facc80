// Events read through the binary schema (flatbuffers reflection), for the
// reports that read any kind's events by their fields' names: how orders
// were carried out (order_outcomes.cc) and what a player's reports were
// built from (sources.cc). Private to reports/.
#pragma once

#include <flatbuffers/reflection.h>

#include <optional>
#include <string>
#include <string_view>

namespace adjutant::fb { struct Event; }

namespace adjutant::reports {

const reflection::Schema& Schema();
// A table's name without the schema's namespace ("ShipMoved").
std::string_view ShortName(const reflection::Object& o);
const reflection::Field* FieldOf(const reflection::Object& o, std::string_view name);
// The table a union field of `t` holds (into *value), and its type.
const reflection::Object* UnionMember(const flatbuffers::Table& t, const reflection::Object& o, std::string_view field,
                                      const flatbuffers::Table** value);

// The innermost table an event's payload holds: a ruleset's event inside
// its wrapper (PateEvent's body: ShipMoved, say), else the payload itself
// (DieRolled, Directive); nullptr for none.
const reflection::Object* EventBody(const fb::Event& e, const flatbuffers::Table** body);
// The string field `name` of `t` (of type `o`); nullopt when it has none or
// it is not a string.
std::optional<std::string> StringField(const flatbuffers::Table& t, const reflection::Object& o, std::string_view name);

}  // namespace adjutant::reports
