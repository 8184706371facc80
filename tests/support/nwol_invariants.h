// What every NWOL (sow + pate) game must keep, whatever its orders, dice and
// history, as checks that random-game properties share: each returns "" when
// the rule holds, else what broke in words (callers RC_FAIL with it). Also
// the random orders and directives those properties draw, for the small
// scenario of support/pate_game.h.
#pragma once

#include <rapidcheck.h>

#include <string>
#include <utility>
#include <vector>

#include "ledger/ledger.h"
#include "projections/treasury.h"
#include "support/sow_game.h"

namespace adjutant::testing {

// The scenario's ships with their commanders (PateScenario()).
const std::vector<std::pair<std::string, std::string>>& ShipCommanders();
// Sea areas of the bundled map and one that is not ("XYZ").
const std::vector<std::string>& SeaAreaNames();
// Ports of the scenario, "" for none (twice, so most forms name none).
const std::vector<std::string>& PortNames();

// Inside a rapidcheck property: one element of a non-empty vector.
template <class T>
const T& OneOf(const std::vector<T>& v) {
  return v[*rc::gen::inRange<size_t>(0, v.size())];
}

// Inside a rapidcheck property: a random PATE 4.3–4.9 order form (the JSON
// of a ShipOrders table) for `ship`, as likely refused as standing.
std::string RandomShipOrders(const std::string& ship);

// The persons and the ships of the scenario, and one of each that is not
// of it ("nobody" is not listed: callers add him).
const std::vector<std::string>& PersonNames();
const std::vector<std::string>& ShipIds();

// Inside a rapidcheck property: one item of an order file from `person`
// (JSON OrderItem) — mostly a form for a ship he commands, else another
// ship's, a Naval Minister's order, a minister's order of any state, or a
// written order; now and then naming a role, his or not.
std::string RandomOrderItem(const std::string& person);

// Inside a rapidcheck property: a GA directive (JSON DirectiveFile) of sow,
// of pate or a ruling, as likely refused as accepted. Only directives that
// keep every man recorded: PlaceUnit adds men no ManpowerLine records, and
// is left out.
std::string RandomDirectiveFile();

// PATE 1.2, 2.2–2.7, 4.4: a ship is in one place, damage within 0..5 (hull
// 5 is sunk), stores within what she carries, crews within their limits,
// attachment never forms a chain nor names a ship gone, units aboard are in
// a hold of the game; ports never hold negative stores.
std::string ShipInvariantBroken(const NwolState& s);

// SOW 2: every balance is its opening plus its credits less its charges.
std::string MoneyBroken(const projections::TreasuryState& s);

// DESIGN inv. 8: the reports of every person of the game for turn `turn` of
// `branch` (events, positions and the SVG map, as the CLI renders them)
// name no ship or unit outside what his ships observed that turn, his own
// ships, and the ships his follow — worked out from the log itself, not
// from the visibility view the reports use.
Result<std::string> ReportLeak(ledger::Ledger& db, const std::string& game, const std::string& branch,
                               const Turn& turn);

// A refused order has no effect: no outcome among events from..to of
// `branch` names an order refused among the same events.
Result<std::string> RefusedOrderActed(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                      uint64_t from, uint64_t to);

}  // namespace adjutant::testing
