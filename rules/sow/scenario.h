// Checks a scenario's sow section before a game is created from it: every
// reference resolves, every number is in range (the calculators assert on
// what they are given). A bad scenario creates nothing.
#pragma once

#include <set>
#include <string>

#include "base/status.h"

namespace adjutant::fb { struct Scenario; }

namespace adjutant::rules::sow {

// InvalidArgument naming the field, e.g. "sow.cities[3].level: must be 1..5".
// Also the players: each person once, each role naming a state or a ship.
// `map_sea_areas`: the sea areas of the naval map recorded with the game
// (PATE 1), where ships may lie besides the scenario's cities' areas.
Status CheckScenario(const fb::Scenario& scenario, const std::set<std::string>& map_sea_areas = {});

}  // namespace adjutant::rules::sow
