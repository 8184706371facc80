// The phases of a PATE turn (3.2), run after the economy's phases in an
// NWOL game: repair (3.3), supply (3.4, 3.5, 2.6, 2.7), the initial
// amphibious phase (3.6), combat (3.7, 7), movement (3.8, 6, 8), the final
// amphibious phase (3.9) and intelligence (3.10, 5). Each takes the state
// folded to the phase's start (inside the PhaseWriter), the orders carried
// out this turn (orders.h), the map and the dice, and emits the phase's
// events — every roll a DieRolled naming its rule. Pure: no I/O, no clock;
// maps iterated in key order.
#pragma once

#include "projections/treasury.h"
#include "rules/dice.h"
#include "rules/pate/map.h"
#include "rules/phase_writer.h"

namespace adjutant::rules::pate {

// Runs phase `at.phase` (rules/sow/calendar.h: kRepair .. kIntelligence).
// Fails only when a die cannot be rolled.
Status RunPhase(PhaseWriter& w, const TurnPhase& at, const NavalMap& map, DiceSource& dice,
                projections::SeasonKind kind);

}  // namespace adjutant::rules::pate
