// The GA's PATE directives (2.5 combining and dividing transport groups,
// which the book has players ask the GA for; 2.6 the fate of inactive ships
// in a taken port): checked against the state — a directive that breaks a
// rule is refused and nothing is recorded — and their consequences emitted
// with the directive, in its batch.
#pragma once

#include "base/status.h"
#include "projections/roster.h"
#include "projections/treasury.h"
#include "rules/phase_writer.h"

namespace adjutant::fb { struct PateDirective; }

namespace adjutant::rules::pate {

// PATE 2.5: the limits of a transport group's capacity after combining or dividing.
inline constexpr int kTransportCapacityMin = 2000;
inline constexpr int kTransportCapacityMax = 20000;

// `version`: the game's pate rules version (since 3, PATE 2.6: a harbour's
// damaged batteries defend it too; since 9, PATE 2.5: a divided group's new
// number is no land unit's id, named by no ship order standing in `s` nor
// any post in `roster`).
Status CheckDirective(const projections::TreasuryState& s, const projections::FleetState& fleet,
                      const projections::Roster& roster, const fb::PateDirective& d, uint32_t version);

void DirectiveConsequences(PhaseWriter& w, const TurnPhase& at, const fb::PateDirective& d);

}  // namespace adjutant::rules::pate
