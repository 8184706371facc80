#include "projections/projection.h"

#include "projections/battle.h"
#include "projections/fleet.h"
#include "projections/mail.h"
#include "projections/navalmap.h"
#include "projections/roles_due.h"
#include "projections/roster.h"
#include "projections/schedule.h"
#include "projections/summary.h"
#include "projections/treasury.h"
#include "projections/visibility.h"
#include "projections/y1820.h"
#include "schema/event_generated.h"

namespace adjutant::projections {

uint32_t FoldVersionOf(const Input& in) {
  return in.run_version != 0 ? in.run_version : in.event->rules_version();
}

std::string Projection::SnapshotName() const {
  return std::string(name()) + "@" + std::to_string(version());
}

std::vector<std::unique_ptr<Projection>> AllProjections() {
  std::vector<std::unique_ptr<Projection>> out;
  out.push_back(std::make_unique<Summary>());
  out.push_back(std::make_unique<Treasury>());
  out.push_back(std::make_unique<Fleet>());  // applies in NWOL games only
  out.push_back(std::make_unique<Roster>());
  out.push_back(std::make_unique<NavalMapView>());
  out.push_back(std::make_unique<Visibility>());
  out.push_back(std::make_unique<Y1820>());
  out.push_back(std::make_unique<Battle>());
  out.push_back(std::make_unique<Schedule>());  // applies once the GA set a schedule
  out.push_back(std::make_unique<Mail>());      // applies once mail was used
  out.push_back(std::make_unique<RolesDue>());  // applies once a role change was given for a later turn
  return out;
}

}  // namespace adjutant::projections
