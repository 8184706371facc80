// The drawn maps on real geography (maps/), one per kind that has one; each
// report falls back to its plot board where the game's map gives no places.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace adjutant::projections {
struct Y1820State;
}
namespace adjutant::rules::pate {
class NavalMap;
}

namespace adjutant::reports {

// Every province says where it lies (lon, lat).
bool Y1820HasGeography(const projections::Y1820State& s);
std::string Y1820GeoSvg(const projections::Y1820State& s, const std::string& title);

// The naval positions: what the viewer may see, by place (a port or a sea area).
struct NavalMark {
  std::string kind;  // "your ship", "enemy seen", "other ship seen"
  std::string text;
  std::string place;
};
struct NavalWind {
  int from = 0;  // 0 N, 1 E, 2 S, 3 W: where it blows from
  std::string words;
  int strength = 0;  // 0 light, 1 moderate, 2 heavy
};
struct NavalPicture {
  const rules::pate::NavalMap* map = nullptr;
  std::string turn;
  std::vector<NavalMark> marks;
  std::vector<std::string> notes;             // his ships crossing the Atlantic, or nowhere on the map
  std::set<std::string> mine, seen;           // areas with his ships; areas where enemies were seen
  std::map<std::string, NavalWind> winds;     // area → its wind, where the viewer knows it
};
// Every sea area and port says where it lies.
bool NavalHasGeography(const rules::pate::NavalMap& m);
std::string NavalGeoSvg(const NavalPicture& pic, const std::string& title);

}  // namespace adjutant::reports
