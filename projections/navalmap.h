// The naval map a game is played on (ruleset pate): folded from the
// MapDefined event recorded with the game's creation. Empty for games
// without a naval map.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "projections/projection.h"

namespace adjutant::fb { struct NavalMap; }

namespace adjutant::projections {

struct NavalMapState {
  uint64_t last_seq = 0;
  std::vector<uint8_t> map;  // the NavalMap as recorded (a finished buffer)
};

class NavalMapView final : public Fold<NavalMapState> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<NavalMapView>(*this); }
  std::string_view name() const override { return "navalmap"; }
  uint32_t version() const override { return 1; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;
  // The map, if the game has one.
  const fb::NavalMap* map() const;
};

}  // namespace adjutant::projections
