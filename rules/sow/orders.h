// Orders of the sow ruleset at submission time (SOW 2.1, 4.1, 4.3, 6.1):
// who may give which order, which "slot" an order fills, which order in a
// slot stands, and the checks that can be made before adjudication (the
// intake itself, shared with pate, is rules/nwol/intake.h). Checks
// that depend on the state at execution (funds, limits) are made in the
// orders phase (rules/sow/execute.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "projections/roster.h"
#include "projections/fleet.h"
#include "projections/treasury.h"
#include "rules/sow/outcomes.h"

namespace adjutant::fb { struct SowOrder; struct OrderItem; }

namespace adjutant::rules::sow {

// A refusal: the rule it rests on and why, in a sentence for the player.
struct Refusal {
  const char* rule;
  std::string reason;
};

// Seniority of a role over a state's orders: monarch 3, prime minister 2,
// ministers 1, anything else 0 (SOW 2.1, 4.1, 6.1).
int RoleRank(const std::string& role_suffix);

// The role suffixes entitled to give `order` (most senior first).
std::vector<std::string> EntitledRoles(const fb::SowOrder& order);

// The slot an order fills: a later order in the same slot from an equal or
// more senior role replaces it (e.g. "BR/build/BR-IN-7", "BR/buy/London").
// SOW 4.3: one order per turn to raise militia in a home city a hostile
// state holds; the last one stands — all such orders share one slot.
std::string SlotOf(const projections::TreasuryState& s, const fb::SowOrder& order);

// SOW 6.1 (sow rules version 10, kPurchaseSlotVersion): a purchase's slot is
// its buyer's - the War Minister's, the Naval Minister's, or the Treasury's
// (the Treasury Minister, or the PM or monarch on his behalf) - so each
// ministry's purchase in a city stands beside the others' and a later order
// replaces only its own ministry's: `slot` ("BR/buy/London") with the
// ministry of `role` ("BR.war") added ("BR/buy/London/war").
std::string BuyerSlot(const std::string& slot, const std::string& role);

// Checks that need only the state, the roster (the posts held on a ship
// number, SOW 4.1 since version 12) and the turn the order is for, under sow
// rules version `version`.
std::optional<Refusal> CheckAtSubmission(const projections::TreasuryState& s, const projections::FleetState& fleet,
                                         const projections::Roster& roster, const fb::SowOrder& order,
                                         const Turn& turn, uint32_t version);

}  // namespace adjutant::rules::sow
