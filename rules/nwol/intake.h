// The order intake of an NWOL game (sow + pate in one game): each item of a
// player's order file is recorded as an OrderSubmitted event with who sent
// it, and followed where needed by its OrderRejected (a role not entitled, a
// check failed), an OrderSuperseded (the order it replaces, or itself when
// a more senior order stands in its slot), or — for the few orders carried
// out when received (PATE 2.3 appointments) — their outcome.
#pragma once

#include <string>
#include <vector>

#include "projections/roster.h"
#include "rules/pate/map.h"
#include "rules/phase_writer.h"

namespace adjutant::fb { struct OrderItem; }

namespace adjutant::rules::nwol {

// Precedence (SOW 2.1, 4.1; PATE 4.1): within a slot, the last order of the
// most senior role that gave one stands. The drafts read the items when
// built: their buffer must outlive the append. `map` may be null (a game
// without a naval map).
void Submit(PhaseWriter& w, const TurnPhase& at, const projections::Roster& roster, const pate::NavalMap* map,
            const std::string& person, const std::vector<const fb::OrderItem*>& items);

// Whether `person` holds a role entitled to give `item` (SOW 2.1, PATE 2.3,
// 4.1) — the check Submit makes first, asked before anything is recorded
// (the order desk answers 403 for another's ship or ministry).
bool MayGive(const projections::TreasuryState& s, const projections::FleetState& fleet, const projections::Roster& roster,
             const std::string& person, const fb::OrderItem& item);

}  // namespace adjutant::rules::nwol
