// Checks a scenario's sow section before a game is created from it: every
// reference resolves, every number is in range (the calculators assert on
// what they are given). A bad scenario creates nothing.
#pragma once

#include "base/status.h"

namespace adjutant::fb { struct Scenario; }

namespace adjutant::rules::sow {

// InvalidArgument naming the field, e.g. "sow.cities[3].level: must be 1..5".
// Also the players: each person once, each role naming a state or a ship.
Status CheckScenario(const fb::Scenario& scenario);

}  // namespace adjutant::rules::sow
