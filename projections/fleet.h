// The fleet view (rulesets sow and pate): every ship of an NWOL game —
// where she is (sea area, tactical area, harbour or coast, an Atlantic
// crossing), her ratings (crew, Marines, quality, morale, experience, hull,
// rigging, stores), what she follows, her mission, whether she is active or
// reactivating, the weather gauge, her cargo and the amphibious orders begun
// with her. A pure fold of GameCreated (the scenario's sow ships), the sow
// directives and outcomes that make, crew, move or lose a ship, and the
// PATE outcomes. Both books read it; the treasury (projections/treasury.h)
// keeps money, manpower, cities, units, builds, diplomacy and the winds.
//
// The fleet keeps its own record of the ships being built (BuildStarted
// carries the ship; BuildCompleted names only the build), so that it makes
// the finished ship from the events it folds alone. It keeps the names of
// the game's cities too (a ship the GA puts in one is not in a tactical
// area). It does not apply in games without a sow scenario (y1820, dog), so
// their PhaseCompleted digests are unchanged.
#pragma once

#include <map>
#include <set>
#include <string>

#include "projections/projection.h"
#include "projections/treasury.h"  // Ship, CargoOp, ShipType, Mission

namespace adjutant::projections {

struct FleetState {
  bool active = false;      // the game plays sow
  uint64_t last_seq = 0;
  std::map<std::string, Ship> ships;
  std::map<std::string, Ship> building;  // build id → the ship it will make (SOW 4.1)
  std::set<std::string> cities;          // the scenario's cities, by name
};

class Fleet final : public Fold<FleetState> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<Fleet>(*this); }
  std::string_view name() const override { return "fleet"; }
  uint32_t version() const override { return 1; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;
  bool applies() const override { return s_.active; }
};

}  // namespace adjutant::projections
