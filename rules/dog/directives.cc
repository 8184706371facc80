// The GA's directives in a battle: corrections and a commander killed.
#include "rules/dog/dog.h"
#include "schema/event_generated.h"

namespace adjutant::rules::dog {

Status CheckDirective(const projections::BattleState& s, const fb::DogDirective& d) {
  if (const auto* p = d.body_as_DogPlaceUnit()) {
    const auto* u = s.Unit(p->unit()->str());
    if (!u) return Status::InvalidArgument("unit: there is no unit '" + p->unit()->str() + "' in this battle (D12.6)");
    if (p->x() < 0 || p->y() < 0 || p->x() > s.width || p->y() > s.height) {
      return Status::InvalidArgument("x, y: (" + std::to_string(p->x()) + ", " + std::to_string(p->y()) +
                                     ") is off the table (D12.6)");
    }
    if (p->facing() < 0 || p->facing() >= 360) return Status::InvalidArgument("facing: 0-359 degrees (D12.6)");
    return Status::Ok();
  }
  if (const auto* k = d.body_as_DogCommanderKilled()) {
    auto it = s.commanders.find(k->commander()->str());
    if (it == s.commanders.end()) {
      return Status::InvalidArgument("commander: there is no commander '" + k->commander()->str() + "' (D12.6)");
    }
    if (it->second.lost) return Status::InvalidArgument("commander: " + k->commander()->str() + " is already lost (D12.6)");
    return Status::Ok();
  }
  return Status::InvalidArgument("DogDirective: no directive body (D12.6)");
}

}  // namespace adjutant::rules::dog
