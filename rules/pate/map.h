// The PATE map (section 1): sea areas and ports of European and American
// waters, loaded from a NavalMap document (schema/pate.fbs) and checked,
// with the questions movement asks of it (PATE 1.3, 6.2–6.4, 6.11).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "schema/draft.h"

namespace adjutant::fb { struct NavalMap; struct Scenario; }

namespace adjutant::rules::pate {

enum class Compass : uint8_t { N, E, S, W };
enum class MapSide : uint8_t { Europe, America };

struct Wind {
  Compass from = Compass::W;
  uint8_t strength = 0;  // 0 light, 1 moderate, 2 heavy
  uint8_t chance_pct = 0;
};

struct SeaArea {
  std::string code, name;
  MapSide map = MapSide::Europe;
  std::array<std::vector<std::string>, 4> neighbours;  // by Compass
  bool atlantic = false;
  std::vector<Wind> winds;
  // Where it lies, for the drawn map only (no rule reads them): degrees east
  // and north, both 0 when the map does not say; more points of its water.
  double lon = 0, lat = 0;
  std::vector<double> seeds;  // lon, lat in turn
};

struct Port {
  std::string name, nation, controller, sea_area, strait_area;
  Compass exit = Compass::E;
  uint8_t defence = 0, dockyards = 0;
  bool on_land_map = true;
  double lon = 0, lat = 0;  // for the drawn map only; both 0: not given
};

class NavalMap {
 public:
  // Loads and checks a verified NavalMap buffer; InvalidArgument naming
  // the field ("sea_areas[3].north[0]: no sea area 'XYZ'").
  static Result<NavalMap> Load(const fb::NavalMap& doc);

  const SeaArea* Area(const std::string& code) const;
  const Port* PortNamed(const std::string& name) const;
  const std::map<std::string, SeaArea>& areas() const { return areas_; }
  const std::map<std::string, Port>& ports() const { return ports_; }

  // PATE 6.2: the direction from area `a` to its neighbour `b`, if adjacent.
  std::optional<Compass> DirectionTo(const std::string& a, const std::string& b) const;
  // PATE 1.3, 6.3: may a ship sail from `port` to `area` (its connected
  // area, or the other area of a strait port)?
  bool PortOpensOn(const std::string& port, const std::string& area) const;
  // PATE 6.2, 6.3: the ports a ship in `area` may sail into.
  std::vector<std::string> PortsReachableFrom(const std::string& area) const;
  // PATE 6.11: does a move from `a` to `b` cross the Atlantic (edge area of
  // one map to edge area of the other)?
  bool CrossesAtlantic(const std::string& a, const std::string& b) const;
  // PATE 2.8: how far apart two places (sea areas, or ports by their sea
  // area) are, in moves: one per neighbouring area, the shortest crossing
  // for the Atlantic; -1 when either is not on the map.
  int Distance(const std::string& from, const std::string& to) const;

  int atlantic_turns_min = 3, atlantic_turns_max = 4;
  int atlantic_frigate_turns_min = 2, atlantic_frigate_turns_max = 3;

 private:
  std::map<std::string, SeaArea> areas_;
  std::map<std::string, Port> ports_;
};

// The scenario and its map agree: every port city of the economy is a port
// of the map on the same sea area (PATE 1.3) and on or off the land map
// alike (1.5), and every ship is in a port or sea area of the map.
Status CheckScenarioAgainstMap(const fb::Scenario& scenario, const NavalMap& map);

// The MapDefined event for a finished NavalMap buffer (recorded with the
// game's creation).
Draft MapDefinedDraft(const TurnPhase& at, std::vector<uint8_t> map_buffer);

}  // namespace adjutant::rules::pate
