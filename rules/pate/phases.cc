#include "rules/pate/phases.h"

#include "rules/pate/phase_internal.h"
#include "rules/sow/calendar.h"

namespace adjutant::rules::pate {

Status RunPhase(PhaseWriter& w, const TurnPhase& at, const NavalMap& map, DiceSource& dice,
                projections::SeasonKind kind) {
  using namespace internal;
  Pate p(w, at, map, dice, kind);
  switch (at.phase) {
    case sow::kRepair: return RunRepair(p);
    case sow::kSupply: return RunSupply(p);
    case sow::kLanding: return RunLanding(p);
    case sow::kCombat: return p.kind() == SeasonKind::War ? RunCombat(p) : Status::Ok();
    case sow::kMovement: return RunMovement(p);
    case sow::kLanded: return RunLanded(p);
    case sow::kIntelligence: return RunIntelligence(p);
    default: return Status::InvalidArgument("phase " + std::to_string(at.phase) + " is not a PATE phase");
  }
}

}  // namespace adjutant::rules::pate
