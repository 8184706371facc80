// Human-readable lines for events, for `adjutant log` and a roll answered again (ops/).
#pragma once

#include <string>
#include <string_view>

#include "ledger/ledger.h"

namespace adjutant::ops {

// "   12  1805.1.3/2  GA:nelson  DieRolled  2d6 = 3+5 = 8  for weather (GA ruling)"
std::string EventLine(const ledger::EventView& e);

// The payload kind's name ("DieRolled"), as the schema spells it.
std::string KindName(const ledger::EventView& e);
// The same, or a ruleset event's own kind ("TreasuryLine" for a SowEvent).
std::string DisplayKind(const ledger::EventView& e);

// True if `name` names a payload kind (case-insensitive); sets `canonical`.
bool KnownKind(std::string_view name, std::string* canonical);
std::string KnownKinds();

}  // namespace adjutant::ops
