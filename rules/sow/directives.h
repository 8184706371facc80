// GA directives of the sow ruleset: their checks (a directive that breaks
// a rule is refused and nothing is appended) and their consequences, which
// are recorded as events right after the directive in the same batch
// (SOW 3.5 returns, 6.5 cancelled standing orders, corrections as
// statement lines).
#pragma once

#include "rules/sow/outcomes.h"

namespace adjutant::fb { struct SowDirective; }

namespace adjutant::rules::sow {

// Checks `d` against the state; InvalidArgument naming the field and rule.
Status CheckDirective(const projections::TreasuryState& s, const projections::FleetState& fleet, const fb::SowDirective& d);

// Emits the consequences of `d`, given `before` and `fleet_before`, the
// treasury and the fleet before it.
void DirectiveConsequences(Outcomes& out, const projections::TreasuryState& before,
                           const projections::FleetState& fleet_before, const fb::SowDirective& d,
                           const std::string& reason);

}  // namespace adjutant::rules::sow
