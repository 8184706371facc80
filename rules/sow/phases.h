// The phases of a sow turn (rules/sow/calendar.h): each takes the state
// folded to the phase's start (inside the Outcomes' PhaseWriter) and emits
// the phase's events, every one naming its rule. Pure: no I/O, no clock;
// maps are iterated in key order.
#pragma once

#include <optional>
#include <string>

#include "rules/sow/calendar.h"
#include "rules/sow/outcomes.h"

namespace adjutant::rules::sow {

// SOW 2: each state's income from its cities and ports, with every
// reduction (2.3 occupation, 2.4 contact and embargoed neighbours,
// 2.5 blockade, 2.6 embargo, 2.7 raiding) and the trade displaced (2.8).
void RunIncome(Outcomes& out);

// SOW 5: upkeep of every unit and ship.
void RunUpkeep(Outcomes& out);

// SOW 2.1, 4, 6, 7: the turn's standing orders, in the order received, each
// executed or recorded as rejected with its rule; then the wartime standing
// supply orders (6.5).
void RunOrders(Outcomes& out);

// SOW 4.1, 4.2: builds advance one war turn, or complete on a peace or
// truce turn.
void RunConstruction(Outcomes& out);

// SOW 3.4, 3.5, 4.9, 4.10, 7.1: the end of a season: manpower growth and
// attrition, men returning, repairs completing.
void RunSeasonEnd(Outcomes& out, projections::SeasonKind kind);

// Runs whichever phase `next` names, opening the season first if it does.
void RunPhase(Outcomes& out, const NextPhase& next);

// Squares between two positions on the land map (Chebyshev distance).
int SquareDistance(const projections::Square& a, const projections::Square& b);

// Where troops aboard `ship` stand on the land map (the project's reading
// of PATE 9, which a cut-off page leaves to us): the square of the city
// whose port she lies in, active, in harbour or coastal waters; none at
// sea, crossing, inactive or in an off-map port. SOW reads it since sow=7
// (LandSquare), PATE 5.3 since pate=9.
std::optional<projections::Square> TransportLandSquare(const projections::TreasuryState& s,
                                                       const projections::FleetState& fleet, const std::string& ship);

}  // namespace adjutant::rules::sow
