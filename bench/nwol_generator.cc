#include "bench/nwol_generator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "projections/fleet.h"
#include "projections/roster.h"
#include "projections/treasury.h"
#include "rules/pate/map.h"
#include "rules/sow/calendar.h"
#include "rules/sow/economy.h"
#include "rules/sow/scenario.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"
#include "schema/pate_generated.h"
#include "schema/scenario_generated.h"
#include "schema/values.h"

namespace adjutant::bench {
namespace {

namespace P = projections;
namespace sow = rules::sow;
using rules::pate::NavalMap;
using rules::pate::Port;

// ---- randomness and JSON ----------------------------------------------------------

// SplitMix64: the same numbers on every platform and standard library
// (std::uniform_int_distribution is not specified bit for bit).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t Next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int Int(int lo, int hi) { return lo + static_cast<int>(Next() % static_cast<uint64_t>(hi - lo + 1)); }
  bool Pct(int pct) { return Int(1, 100) <= pct; }
  template <class T>
  const T& Pick(const std::vector<T>& v) { return v[Next() % v.size()]; }

 private:
  uint64_t s_;
};

// A JSON object written field by field (the schema's JSON form; every name
// here is plain ASCII, so quoting is all the escaping needed).
class Obj {
 public:
  Obj& S(const char* k, const std::string& v) { return Raw(k, Quote(v)); }
  Obj& I(const char* k, int64_t v) { return Raw(k, std::to_string(v)); }
  Obj& B(const char* k, bool v) { return Raw(k, v ? "true" : "false"); }
  Obj& Raw(const char* k, const std::string& json) {
    body_ += (body_.empty() ? "\"" : ", \"") + std::string(k) + "\": " + json;
    return *this;
  }
  std::string str() const { return "{" + body_ + "}"; }
  static std::string Quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  }

 private:
  std::string body_;
};

std::string Arr(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string s = "[";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? sep : "") + items[i];
  return s + "]";
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// ---- the fixed geography ------------------------------------------------------------

// The thirteen states, with their armies and fleets at scale 1.
struct StateRow {
  const char *id, *name, *nation;
  int ships, units;
  int quality_lo, quality_hi;  // fb::ShipQuality range of its crews
};
constexpr StateRow kStates[] = {
    {"BR", "United Kingdom of Great Britain and Ireland", "Britain", 100, 130, 2, 4},
    {"FR", "French Empire", "France", 60, 300, 1, 3},
    {"SP", "Kingdom of Spain", "Spain", 40, 140, 1, 2},
    {"AU", "Austrian Empire", "Austria", 5, 220, 1, 2},
    {"RU", "Russian Empire", "Russia", 28, 240, 1, 3},
    {"PR", "Kingdom of Prussia", "Germany", 3, 150, 1, 2},
    {"NA", "Kingdom of Naples and Sicily", "Italy", 8, 40, 1, 2},
    {"SW", "Kingdom of Sweden", "Sweden", 14, 40, 2, 3},
    {"PO", "Kingdom of Portugal", "Portugal", 8, 35, 1, 2},
    {"DK", "Denmark-Norway", "Denmark", 14, 35, 2, 3},
    {"OT", "Ottoman Empire", "Ottoman", 16, 110, 0, 2},
    {"HO", "Batavian Republic", "Holland", 12, 40, 1, 3},
    {"BV", "Electorate of Bavaria", "Germany", 0, 50, 1, 2},
};

// Wars and alliances: the Third Coalition (BR, RU, AU, SW, NA, with
// Portugal and the Ottoman Empire friendly) against France and her allies
// (SP, HO, BV). Prussia and Denmark are neutral.
constexpr const char* kWars[][2] = {{"BR", "FR"}, {"BR", "SP"}, {"BR", "HO"}, {"BR", "BV"}, {"RU", "FR"},
                                    {"RU", "SP"}, {"RU", "HO"}, {"AU", "FR"}, {"AU", "BV"}, {"AU", "SP"},
                                    {"SW", "FR"}, {"SW", "HO"}, {"NA", "FR"}, {"NA", "SP"}};
constexpr const char* kAlliances[][2] = {{"FR", "SP"}, {"FR", "HO"}, {"FR", "BV"}, {"SP", "HO"}, {"SP", "BV"},
                                         {"HO", "BV"}, {"BR", "RU"}, {"BR", "AU"}, {"BR", "SW"}, {"BR", "NA"},
                                         {"BR", "PO"}, {"RU", "AU"}, {"RU", "SW"}, {"RU", "NA"}, {"AU", "SW"},
                                         {"AU", "NA"}, {"SW", "NA"}, {"RU", "OT"}};

// Every city: name (ports as the naval map spells them), nation, the state
// holding it, and its strategic square (fixtures/scenarios/README.md gives
// the grid: x = round((lon + 12) × 1.486), y = round((62 − lat) × 2.22)).
// The squares of nwol-1805.json, Port au Prince, and 29 more inland cities.
struct CityRow {
  const char *name, *nation, *controller;
  int x, y;
};
constexpr CityRow kCities[] = {
    {"London", "Britain", "BR", 18, 23}, {"Portsmouth", "Britain", "BR", 16, 25}, {"Plymouth", "Britain", "BR", 12, 26},
    {"Bristol", "Britain", "BR", 14, 23}, {"Liverpool", "Britain", "BR", 13, 19}, {"Edinburgh", "Britain", "BR", 13, 13},
    {"Manchester", "Britain", "BR", 15, 19}, {"Dublin", "Britain", "BR", 9, 19}, {"Cork", "Britain", "BR", 5, 22},
    {"Gibraltar", "Britain", "BR", 10, 57}, {"Malta", "Italy", "BR", 39, 58}, {"Kingston", "Britain", "BR", -96, 98},
    {"Bridgetown", "Britain", "BR", -71, 109}, {"Antigua", "Britain", "BR", -74, 100}, {"Dominica", "Britain", "BR", -73, 104},
    {"Trinidad", "Spain", "BR", -74, 114}, {"Paris", "France", "FR", 21, 29}, {"Lyon", "France", "FR", 25, 36},
    {"Strasbourg", "France", "FR", 29, 30}, {"Marseille", "France", "FR", 26, 42}, {"Toulon", "France", "FR", 27, 42},
    {"Brest", "France", "FR", 11, 30}, {"Rochefort", "France", "FR", 16, 36}, {"Bordeaux", "France", "FR", 17, 38},
    {"Boulogne", "France", "FR", 20, 25}, {"Antwerp", "France", "FR", 24, 24}, {"Amsterdam", "Holland", "HO", 25, 21},
    {"Genoa", "Italy", "FR", 31, 39}, {"Milan", "Italy", "FR", 31, 37}, {"Hanover", "Germany", "FR", 32, 21},
    {"Taranto", "Italy", "FR", 43, 48}, {"Martinique", "France", "FR", -73, 105}, {"Guadeloupe", "France", "FR", -74, 102},
    {"Santo Domingo", "Spain", "FR", -86, 97}, {"Madrid", "Spain", "SP", 12, 48}, {"Barcelona", "Spain", "SP", 21, 46},
    {"Valencia", "Spain", "SP", 17, 50}, {"Cartagena", "Spain", "SP", 16, 54}, {"Cadiz", "Spain", "SP", 8, 57},
    {"Algeciras", "Spain", "SP", 10, 57}, {"Seville", "Spain", "SP", 9, 55}, {"Zaragoza", "Spain", "SP", 17, 45},
    {"Ferrol", "Spain", "SP", 6, 41}, {"La Coruna", "Spain", "SP", 5, 41}, {"Bilbao", "Spain", "SP", 13, 42},
    {"Havana", "Spain", "SP", -105, 86}, {"San Juan", "Spain", "SP", -80, 97}, {"Vera Cruz", "Spain", "SP", -125, 95},
    {"La Guaira", "Spain", "SP", -82, 114}, {"Vienna", "Austria", "AU", 42, 31}, {"Prague", "Austria", "AU", 39, 26},
    {"Buda", "Austria", "AU", 46, 32}, {"Linz", "Austria", "AU", 39, 30}, {"Innsbruck", "Austria", "AU", 35, 33},
    {"Lemberg", "Austria", "AU", 54, 27}, {"Cracow", "Poland", "AU", 47, 27}, {"Trieste", "Austria", "AU", 38, 36},
    {"Venetzia", "Italy", "AU", 36, 37}, {"St Petersburg", "Russia", "RU", 63, 5}, {"Moscow", "Russia", "RU", 74, 14},
    {"Riga", "Russia", "RU", 54, 11}, {"Reval", "Russia", "RU", 55, 6}, {"Vilna", "Poland", "RU", 55, 16},
    {"Smolensk", "Russia", "RU", 65, 16}, {"Kiev", "Russia", "RU", 63, 26}, {"Odessa", "Russia", "RU", 63, 34},
    {"Sevastopol", "Russia", "RU", 68, 39}, {"Corfu", "Ottoman", "RU", 47, 50}, {"Berlin", "Germany", "PR", 38, 21},
    {"Magdeburg", "Germany", "PR", 35, 22}, {"Breslau", "Germany", "PR", 43, 24}, {"Konigsberg", "Germany", "PR", 48, 16},
    {"Danzig", "Germany", "PR", 46, 17}, {"Stettin", "Germany", "PR", 39, 19}, {"Emden", "Germany", "PR", 29, 19},
    {"Warsaw", "Poland", "PR", 49, 22}, {"Naples", "Italy", "NA", 39, 47}, {"Palermo", "Italy", "NA", 38, 53},
    {"Messina", "Italy", "NA", 41, 53}, {"Bari", "Italy", "NA", 43, 46}, {"Stockholm", "Sweden", "SW", 45, 6},
    {"Karlskrona", "Sweden", "SW", 41, 13}, {"Gothenburg", "Sweden", "SW", 36, 10}, {"Stralsund", "Sweden", "SW", 37, 17},
    {"Abo", "Sweden", "SW", 51, 3}, {"Lisbon", "Portugal", "PO", 4, 52}, {"Porto", "Portugal", "PO", 5, 46},
    {"Coimbra", "Portugal", "PO", 5, 48}, {"Kobenhavn", "Denmark", "DK", 37, 14}, {"Christiania", "Denmark", "DK", 34, 5},
    {"Bergen", "Denmark", "DK", 26, 4}, {"Altona", "Denmark", "DK", 33, 19}, {"St Thomas", "Denmark", "DK", -79, 97},
    {"Constantinople", "Ottoman", "OT", 61, 47}, {"Smyrna", "Ottoman", "OT", 58, 52}, {"Salonika", "Ottoman", "OT", 52, 47},
    {"Varna", "Ottoman", "OT", 59, 42}, {"Adrianople", "Ottoman", "OT", 57, 45}, {"Belgrade", "Ottoman", "OT", 48, 38},
    {"Bucharest", "Ottoman", "OT", 57, 39}, {"Port au Prince", "France", "FR", -90, 96}, {"Utrecht", "Holland", "HO", 25, 22},
    {"Rotterdam", "Holland", "HO", 25, 22}, {"The Hague", "Holland", "HO", 24, 22}, {"Groningen", "Holland", "HO", 28, 20},
    {"Munich", "Germany", "BV", 35, 31}, {"Nuremberg", "Germany", "BV", 34, 28}, {"Augsburg", "Germany", "BV", 34, 30},
    {"Wurzburg", "Germany", "BV", 33, 27}, {"Regensburg", "Germany", "BV", 36, 29}, {"Toulouse", "France", "FR", 20, 41},
    {"Lille", "France", "FR", 22, 25}, {"Nantes", "France", "FR", 16, 33}, {"Rouen", "France", "FR", 19, 28},
    {"Dijon", "France", "FR", 25, 33}, {"Valladolid", "Spain", "SP", 11, 45}, {"Granada", "Spain", "SP", 12, 55},
    {"Birmingham", "Britain", "BR", 15, 21}, {"York", "Britain", "BR", 16, 18}, {"Glasgow", "Britain", "BR", 11, 14},
    {"Minsk", "Russia", "RU", 59, 18}, {"Novgorod", "Russia", "RU", 64, 8}, {"Graz", "Austria", "AU", 41, 33},
    {"Brunn", "Austria", "AU", 42, 28}, {"Munster", "Germany", "PR", 29, 22}, {"Uppsala", "Sweden", "SW", 44, 5},
    {"Odense", "Denmark", "DK", 33, 15}, {"Sofia", "Ottoman", "OT", 52, 43}, {"Athens", "Ottoman", "OT", 53, 53},
    {"Foggia", "Italy", "NA", 41, 46},
};

const std::set<std::string> kCapitals = {"London", "Paris", "Madrid", "Vienna", "St Petersburg", "Berlin", "Naples",
                                         "Stockholm", "Lisbon", "Kobenhavn", "Constantinople", "Amsterdam", "Munich"};

// Names for ships, reused with a numeral where a navy runs out of them.
const std::vector<std::string> kShipNames = {
    "Achille", "Active", "Africa", "Agamemnon", "Ajax", "Albion", "Alcmene", "Amazon", "Apollo", "Ardent",
    "Argonaut", "Audacious", "Belleisle", "Bellerophon", "Bellona", "Berwick", "Blenheim", "Boreas", "Brilliant",
    "Britannia", "Caesar", "Canopus", "Captain", "Centaur", "Colossus", "Conqueror", "Courageux", "Culloden",
    "Defence", "Defiance", "Diadem", "Dragon", "Dreadnought", "Eagle", "Egmont", "Elephant", "Excellent",
    "Formidable", "Fortitude", "Foudroyant", "Ganges", "Glory", "Goliath", "Hannibal", "Hector", "Hercule", "Hero",
    "Intrepid", "Invincible", "Jupiter", "Leander", "Leviathan", "Lion", "Magnificent", "Majestic", "Mars",
    "Minotaur", "Monarch", "Neptune", "Orion", "Pegasus", "Phoenix", "Pluton", "Polyphemus", "Prince", "Repulse",
    "Resolution", "Revenge", "Royal Oak", "Saturn", "Sceptre", "Spartiate", "Superb", "Swiftsure", "Temeraire",
    "Terrible", "Thunderer", "Tigre", "Tonnant", "Triumph", "Valiant", "Vanguard", "Victory", "Zealous"};

const char* kQualities[] = {"Poor", "Fair", "Average", "Good", "VeryGood"};

// ---- the scenario -------------------------------------------------------------------

struct GenShip {
  std::string id, state, type, base, location, attached_to, name, mission = "None", quality;
  bool in_port = false, coastal = false, active = true;
  int crew = 0, marines = 0, frigates = 1, capacity = 0, stores = 0, experience = 0, hull = 0, rigging = 0, tactical = 0;
};

struct GenUnit {
  std::string id, state, type, city, raised_in;
  int men = 0, batteries = 0, x = 0, y = 0;
  bool active = true;
};

fb::SowUnitType UnitTypeOf(const std::string& t) {
  for (int i = 0; i <= fb::SowUnitType_MAX; ++i) {
    if (t == fb::EnumNameSowUnitType(static_cast<fb::SowUnitType>(i))) return static_cast<fb::SowUnitType>(i);
  }
  return fb::SowUnitType_IN;
}
fb::SowShipType ShipTypeOf(const std::string& t) {
  for (int i = 0; i <= fb::SowShipType_MAX; ++i) {
    if (t == fb::EnumNameSowShipType(static_cast<fb::SowShipType>(i))) return static_cast<fb::SowShipType>(i);
  }
  return fb::SowShipType_SL;
}

// A new unit of `type` within its SOW 4.7 size.
void SizeUnit(Rng& r, GenUnit& u) {
  auto lim = sow::UnitSizeLimit(UnitTypeOf(u.type));
  if (u.type == "AQ" || u.type == "CQ") {
    u.men = static_cast<int>(lim.max_men);
  } else if (u.type == "MI") {
    u.men = 500 * r.Int(2, 6);
  } else if (lim.max_men >= 2000) {  // infantry and cavalry
    int step = lim.max_men == 4000 ? 250 : 125;
    u.men = step * r.Int(static_cast<int>(lim.max_men / step / 3), static_cast<int>(lim.max_men / step));
    u.batteries = r.Pct(40) ? 1 : 0;
  } else {  // artillery
    u.men = 100 * r.Int(1, 4);
    u.batteries = r.Int(1, lim.max_batteries);
  }
}

std::string UnitTypeDraw(Rng& r) {
  int x = r.Int(1, 100);
  if (x <= 42) return "IN";
  if (x <= 52) return "LI";
  if (x <= 64) return "MI";
  if (x <= 72) return "LC";
  if (x <= 78) return "MC";
  if (x <= 82) return "HC";
  if (x <= 86) return "LA";
  if (x <= 91) return "MA";
  if (x <= 94) return "HA";
  if (x <= 96) return "SA";
  if (x <= 98) return "CQ";
  return "AQ";
}

int Scaled(int n, double scale) {
  if (n == 0) return 0;
  return std::max(1, static_cast<int>(std::lround(n * scale)));
}

}  // namespace

Result<NwolScenario> GenerateScenario(const NwolOptions& o, std::string_view map_json) {
  auto map_buf = schema::ParseJson("NavalMap", map_json, "nwol-waters.json");
  if (!map_buf.ok()) return map_buf.status();
  auto map = NavalMap::Load(*flatbuffers::GetRoot<fb::NavalMap>(map_buf->data()));
  if (!map.ok()) return map.status();
  Rng r(o.seed ^ 0x6e776f6c2d736365ULL);  // "nwol-sce"
  NwolScenario out;

  // Cities: every port of the map is in the table, on its map's sea area.
  std::set<std::string> listed;
  std::vector<std::string> cities;
  std::map<std::string, const CityRow*> row_of;
  std::map<std::string, std::vector<std::string>> held;  // state → cities
  for (const CityRow& c : kCities) {
    listed.insert(c.name);
    row_of[c.name] = &c;
    held[c.controller].push_back(c.name);
    const Port* p = map->PortNamed(c.name);
    int dockyards = p ? p->dockyards : 0;
    int level = kCapitals.count(c.name) ? 5 : p && dockyards >= 3 ? r.Int(4, 5) : r.Int(1, 4);
    int fort_start = p ? r.Int(1, 4) : r.Int(0, 2);
    int fort = fort_start > 0 && r.Pct(10) ? fort_start - 1 : fort_start;
    Obj city;
    city.S("name", c.name).S("nation", c.nation).S("controller", c.controller).I("level", level)
        .S("kind", !p ? "Inland" : p->on_land_map ? "Port" : "OffMapPort")
        .Raw("square", Obj().I("x", c.x).I("y", c.y).str());
    if (p) {
      city.S("sea_area", p->sea_area).I("dockyards", dockyards);
      int batteries = r.Int(1, 5);
      city.I("batteries", batteries);
      if (r.Pct(12)) city.I("batteries_damaged", 1);
      city.I("stores", p->on_land_map ? 60 + 40 * dockyards + r.Int(0, 80) : r.Int(20, 60));
      if (!p->on_land_map) city.I("transport_pool", 0);
      ++out.ports;
    } else {
      city.I("transport_pool", 0);
    }
    city.I("fort_level", fort).I("fort_start", fort_start).I("supplies", r.Int(10, 50));
    cities.push_back(city.str());
  }
  for (const auto& [name, port] : map->ports()) {
    if (!listed.count(name)) return Status::InvalidArgument("the naval map's port " + name + " has no row in kCities");
  }
  out.cities = cities.size();

  // Land units, spread over the cities each state holds.
  std::vector<GenUnit> units;
  std::map<std::string, int> next_number;  // state+type → next
  auto number = [&](const std::string& state, const std::string& type) {
    return state + std::to_string(++next_number[state + type]) + type;
  };
  std::map<std::string, int64_t> men_in_units;
  for (const StateRow& st : kStates) {
    const auto& mine = held[st.id];
    int n = Scaled(st.units, o.scale);
    for (int i = 0; i < n; ++i) {
      GenUnit u;
      u.state = st.id;
      u.type = UnitTypeDraw(r);
      u.id = number(st.id, u.type);
      u.city = mine[r.Next() % mine.size()];
      u.x = row_of[u.city]->x;
      u.y = row_of[u.city]->y;
      if (u.type == "MI") u.raised_in = u.city;
      u.active = !r.Pct(15);
      SizeUnit(r, u);
      men_in_units[st.id] += u.men;
      units.push_back(u);
    }
  }
  out.units = units.size();

  // Fleets: squadrons under a flagship or a ship of the line, frigates and
  // transport groups alone, each at her base, off it or at sea nearby.
  std::vector<GenShip> ships;
  std::vector<std::pair<std::string, std::vector<std::string>>> squadrons;  // commander person → ships
  for (const StateRow& st : kStates) {
    int n = Scaled(st.ships, o.scale);
    if (n == 0) continue;
    std::vector<std::string> europe, america;  // the state's ports
    for (const auto& c : held[st.id]) {
      const Port* p = map->PortNamed(c);
      if (!p) continue;
      if (p->on_land_map) {
        for (int k = 0; k <= p->dockyards; ++k) europe.push_back(c);  // weighted by dockyards
      } else {
        america.push_back(c);
      }
    }
    if (europe.empty()) return Status::InvalidArgument(std::string(st.id) + " has ships and no on-map port");
    int fl = n >= 8 ? std::max(1, n / 20) : 0;
    int tr = n >= 6 ? std::max(1, n / 10) : 0;
    int fr = (n - fl - tr) * 2 / 5;
    int sl = n - fl - tr - fr;
    std::vector<std::string> types;
    for (int i = 0; i < fl; ++i) types.push_back("FL");
    for (int i = 0; i < sl; ++i) types.push_back("SL");
    for (int i = 0; i < fr; ++i) types.push_back("FR");
    for (int i = 0; i < tr; ++i) types.push_back("TR");
    std::map<std::string, int> name_uses;
    size_t next = 0;
    int cdr = 0;
    while (next < types.size()) {
      // A squadron: a flagship with 2-5 ships of the line, or 1-3 ships of
      // the line, or one frigate group or transport group.
      std::vector<std::string> sq = {types[next++]};
      int followers = sq[0] == "FL" ? r.Int(2, 5) : sq[0] == "SL" ? r.Int(0, 2) : 0;
      while (followers-- > 0 && next < types.size() && types[next] == "SL") sq.push_back(types[next++]);
      bool west = !america.empty() && r.Pct(12);
      std::string base = west ? r.Pick(america) : r.Pick(europe);
      const Port* bp = map->PortNamed(base);
      int where = r.Int(1, 100);
      std::string location = base, area;
      bool in_port = where <= 55, coastal = where > 55 && where <= 70;
      int tactical = 0;
      if (where > 70) {
        area = bp->sea_area;
        const auto* a = map->Area(area);
        std::vector<std::string> near = {area};
        for (const auto& dir : a->neighbours) near.insert(near.end(), dir.begin(), dir.end());
        location = r.Pick(near);
        tactical = r.Int(1, 4);
      }
      bool inactive = sq.size() == 1 && sq[0] == "SL" && in_port && r.Pct(15);
      std::string person = Lower(st.id) + "-cdr-" + std::to_string(++cdr);
      std::vector<std::string> ids;
      for (size_t k = 0; k < sq.size(); ++k) {
        GenShip s;
        s.state = st.id;
        s.type = sq[k];
        s.id = number(st.id, s.type);
        s.base = base;
        s.location = location;
        s.in_port = in_port;
        s.coastal = coastal;
        s.tactical = tactical;
        s.active = !inactive;
        if (k > 0) s.attached_to = ids[0];
        const std::string& word = kShipNames[r.Next() % kShipNames.size()];
        int use = ++name_uses[word];
        s.name = use == 1 ? word : word + " " + std::to_string(use);
        s.quality = kQualities[r.Int(st.quality_lo, st.quality_hi)];
        s.experience = r.Int(0, 12);
        s.hull = r.Pct(20) ? 1 : 0;
        s.rigging = r.Int(0, 2);
        s.stores = !s.active ? 0 : in_port && base == location ? r.Int(18, 24) : r.Int(8, 22);
        if (s.type == "FL") s.crew = r.Int(720, 800), s.marines = r.Int(150, 200);
        if (s.type == "SL") s.crew = r.Int(520, 600), s.marines = r.Int(100, 150);
        if (s.type == "FR") {
          s.frigates = r.Int(1, 2);
          s.crew = 225 * s.frigates - r.Int(0, 20);
          s.marines = r.Int(20, 25) * s.frigates;
          s.mission = where > 70 ? (r.Pct(60) ? "Raid" : "Patrol") : "None";
        }
        if (s.type == "TR") {
          s.capacity = 500 * r.Int(4, 12);
          s.crew = (s.capacity + 9) / 10;
          s.mission = where > 70 && r.Pct(50) ? "Convoy" : "None";
        }
        ids.push_back(s.id);
        ships.push_back(s);
      }
      squadrons.push_back({person, ids});
    }
  }
  out.ships = ships.size();

  // Treasuries: 30 war turns of upkeep (a campaign and a peace turn's 15)
  // and some to spend; national pools a fifth of the men under arms.
  std::map<std::string, int64_t> upkeep;
  for (const GenUnit& u : units) {
    upkeep[u.state] += sow::UnitUpkeepCc(UnitTypeOf(u.type), u.men, u.batteries, u.active, fb::SeasonKind_War);
  }
  for (const GenShip& s : ships) {
    upkeep[s.state] += sow::ShipUpkeepCc(ShipTypeOf(s.type), s.frigates, s.capacity, s.active, false, fb::SeasonKind_War);
  }

  std::vector<std::string> states, players;
  for (const StateRow& st : kStates) {
    int64_t treasury = 30 * upkeep[st.id] + sow::CrToCc(4000);
    int64_t manpower = men_in_units[st.id] / 5 + 30000;
    states.push_back(Obj().S("id", st.id).S("name", st.name).S("nation", st.nation).I("treasury_cc", treasury)
                         .I("manpower", manpower).str());
    for (const char* office : {"monarch", "prime", "treasury", "war", "naval", "foreign"}) {
      players.push_back(Obj().S("person", Lower(st.id) + "-" + office)
                            .Raw("roles", Arr({Obj::Quote(std::string(st.id) + "." + office)})).str());
    }
  }
  // Commanders: one person for each squadron; the flagships' deputies are
  // the next squadron's commanders. A few spare captains per navy, for the
  // ships that are built or taken.
  std::map<std::string, int> spares;
  for (size_t i = 0; i < squadrons.size(); ++i) {
    const auto& [person, ids] = squadrons[i];
    std::vector<std::string> roles;
    for (const auto& id : ids) roles.push_back(Obj::Quote(id + ".commander"));
    if (i > 0 && squadrons[i - 1].second[0].find("FL") != std::string::npos &&
        squadrons[i - 1].first.substr(0, 2) == person.substr(0, 2)) {
      roles.push_back(Obj::Quote(squadrons[i - 1].second[0] + ".deputy"));
    }
    players.push_back(Obj().S("person", person).Raw("roles", Arr(roles)).str());
    spares[person.substr(0, 2)]++;
  }
  for (const auto& [prefix, n] : spares) {
    for (int i = 1; i <= std::max(1, n / 10); ++i) {
      players.push_back(Obj().S("person", prefix + "-captain-" + std::to_string(i)).Raw("roles", "[]").str());
    }
  }
  out.persons = players.size();
  out.states = states.size();

  std::vector<std::string> unit_json, ship_json, relations;
  for (const GenUnit& u : units) {
    Obj j;
    j.S("id", u.id).S("state", u.state).S("type", u.type).I("men", u.men);
    if (u.batteries) j.I("batteries", u.batteries);
    if (!u.active) j.B("active", false);
    j.Raw("square", Obj().I("x", u.x).I("y", u.y).str()).S("city", u.city);
    if (!u.raised_in.empty()) j.S("raised_in", u.raised_in);
    unit_json.push_back(j.str());
  }
  for (const GenShip& s : ships) {
    Obj j;
    j.S("id", s.id).S("state", s.state).S("type", s.type).I("crew", s.crew);
    if (s.type == "FR") j.I("frigates", s.frigates);
    if (s.type == "TR") j.I("capacity", s.capacity);
    j.S("base", s.base).S("location", s.location);
    if (s.in_port) j.B("in_port", true);
    if (s.coastal) j.B("coastal", true);
    if (!s.active) j.B("active", false);
    if (s.mission != "None") j.S("mission", s.mission);
    j.S("name", s.name);
    if (s.marines) j.I("marines", s.marines);
    j.S("quality", s.quality).I("experience", s.experience).I("stores", s.stores);
    if (s.hull) j.I("hull", s.hull);
    if (s.rigging) j.I("rigging", s.rigging);
    if (s.tactical) j.I("tactical", s.tactical);
    if (!s.attached_to.empty()) j.S("attached_to", s.attached_to);
    ship_json.push_back(j.str());
  }
  for (const auto& w : kWars) relations.push_back(Obj().S("a", w[0]).S("b", w[1]).S("relation", "War").str());
  for (const auto& a : kAlliances) relations.push_back(Obj().S("a", a[0]).S("b", a[1]).S("relation", "Alliance").str());
  // Trade shares (read only by embargoes, SOW 2.6): each nation trades a
  // quarter with Britain and an eighth with France, where it can.
  std::vector<std::string> trade;
  std::set<std::string> nations;
  for (const StateRow& st : kStates) nations.insert(st.nation);
  for (const auto& n : nations) {
    if (n != "Britain") trade.push_back(Obj().S("nation", n).S("partner", "Britain").I("share_bp", 2500).str());
    if (n != "France") trade.push_back(Obj().S("nation", n).S("partner", "France").I("share_bp", 1250).str());
  }

  const char* nl = ",\n    ";
  Obj sow_section;
  sow_section.S("season_kind", "War").Raw("states", Arr(states, nl)).Raw("cities", Arr(cities, nl))
      .Raw("units", Arr(unit_json, nl)).Raw("ships", Arr(ship_json, nl)).Raw("relations", Arr(relations, nl))
      .Raw("trade", Arr(trade, nl));
  Obj sc;
  sc.S("name", "NWOL 1805, generated (adjutant_bench_game, seed " + std::to_string(o.seed) + ")")
      .Raw("rulesets", R"(["sow", "pate"])")
      .S("description", "A full-size NWOL game for the benchmark: the Third Coalition against France and her allies, "
                        "thirteen states, every port of the NWOL waters. Generated; not a historical position.")
      .Raw("start", R"({"major": 1805, "minor": 1, "step": 1})").Raw("players", Arr(players, nl))
      .Raw("sow", sow_section.str());
  out.json = sc.str() + "\n";
  auto parsed = schema::ParseJson("Scenario", out.json, "generated scenario");
  if (!parsed.ok()) return parsed.status();
  out.scenario = std::move(parsed).value();
  out.map = std::move(map_buf).value();
  return out;
}

Status CheckAsNew(const NwolScenario& s) {
  if (!schema::VerifyTableBuffer("Scenario", s.scenario.data(), s.scenario.size())) {
    return Status::InvalidArgument("the scenario buffer does not verify");
  }
  const auto* sc = flatbuffers::GetRoot<fb::Scenario>(s.scenario.data());
  if (sc->name()->size() == 0) return Status::InvalidArgument("field 'name' is empty");
  if (sc->rulesets()) {
    for (const auto* r : *sc->rulesets()) {
      std::string n = r->str();
      if (n != "sow" && n != "pate" && n != "y1820" && n != "dog") return Status::InvalidArgument("unknown ruleset " + n);
    }
  }
  if (sc->players()) {
    for (flatbuffers::uoffset_t i = 0; i < sc->players()->size(); ++i) {
      auto st = ledger::CheckName("person", sc->players()->Get(i)->person()->string_view());
      if (!st.ok()) return Status::InvalidArgument("players[" + std::to_string(i) + "].person: " + st.message());
    }
  }
  auto map = NavalMap::Load(*flatbuffers::GetRoot<fb::NavalMap>(s.map.data()));
  if (!map.ok()) return map.status();
  ADJ_RETURN_IF_ERROR(rules::pate::CheckScenarioAgainstMap(*sc, *map));
  std::set<std::string> map_areas;  // ships may lie in any sea area of the game's map
  for (const auto& [code, area] : map->areas()) map_areas.insert(code);
  return sow::CheckScenario(*sc, map_areas);
}

Result<ledger::Head> CreateGame(ledger::Ledger& db, std::string_view game, const NwolScenario& s, uint64_t seed) {
  ADJ_RETURN_IF_ERROR(CheckAsNew(s));
  const auto* sc = flatbuffers::GetRoot<fb::Scenario>(s.scenario.data());
  TurnPhase at;
  if (sc->start()) at.turn = schema::TurnOf(sc->start());
  std::vector<Draft> more;
  more.push_back(rules::pate::MapDefinedDraft(at, s.map));
  return db.CreateGame(game, seed, s.scenario, at, Actor{ActorKind::kGameAdministrator, "", ""}, more);
}

namespace {

Result<Directive> MakeDirective(const std::string& what, const std::string& reason, const std::string& ruleset,
                                const std::string& kind, const std::string& body) {
  std::string json = Obj().S("reason", reason).S("body_type", ruleset)
                         .Raw("body", Obj().S("body_type", kind).Raw("body", body).str()).str();
  auto buf = schema::ParseJson("DirectiveFile", json, what);
  if (!buf.ok()) return buf.status();
  return Directive{what, std::move(buf).value()};
}

}  // namespace

Result<std::vector<Directive>> OpeningDirectives() {
  std::vector<Directive> out;
  auto plan = MakeDirective("SetSeasonKind 1805.2 Peace", "the GA's calendar: the armistice of summer 1805",
                            "SowDirective", "SetSeasonKind", R"({"year": 1805, "season": 2, "kind": "Peace"})");
  if (!plan.ok()) return plan.status();
  out.push_back(std::move(plan).value());
  for (const char* against : {"FR", "SP", "HO"}) {
    std::string body = Obj().S("by", "BR").S("against", against)
                           .S("notice", std::string("His Majesty's squadrons hold every port of ") + against +
                                            " in a state of blockade.").str();
    auto d = MakeDirective(std::string("DeclareBlockade BR against ") + against, "SOW 2.5: Britain's notice received",
                           "SowDirective", "DeclareBlockade", body);
    if (!d.ok()) return d.status();
    out.push_back(std::move(d).value());
  }
  return out;
}

Result<Directive> SeasonKindDirective(int32_t year, int32_t season, const std::string& kind) {
  const std::string at = std::to_string(year) + "." + std::to_string(season);
  return MakeDirective("SetSeasonKind " + at + " " + kind, "the GA's calendar for a long campaign", "SowDirective",
                       "SetSeasonKind", Obj().I("year", year).I("season", season).S("kind", kind).str());
}

Result<Directive> EndCampaignDirective() {
  return MakeDirective("EndCampaign", "the GA ends the campaign (a shorter benchmark)", "SowDirective", "EndCampaign",
                       "{}");
}

// ---- orders ---------------------------------------------------------------------------

namespace {

// What one turn's orders are generated from, and what they have used up.
class OrderWriter {
 public:
  OrderWriter(const NwolOptions& o, const P::TreasuryState& s, const P::FleetState& fleet, const P::Roster& roster,
              const NavalMap& map)
      : o_(o), s_(s), f_(fleet), roster_(roster), map_(map), r_(o.seed) {
    auto at = sow::OrderPosition(s);
    turn_ = at.ok() ? at->turn : s.turn;
    kind_ = static_cast<fb::SeasonKind>(sow::Next(s).season_kind);
    // One stream per turn: the orders of turn T do not depend on how many
    // numbers earlier turns drew.
    r_ = Rng(o.seed * 0x9e3779b97f4a7c15ULL ^ (uint64_t(turn_.major) << 32 | uint64_t(turn_.minor) << 16 |
                                               uint64_t(turn_.step)));
    for (const auto& [name, c] : s.cities) held_[c.controller].push_back(name);
    // Standing orders buy in the orders phase too, within the same limits.
    for (const auto& [key, so] : s.standing) Reserve(key.first, key.second, sow::PurchaseSize(so.supplies, 0));
    for (const auto& [person, p] : roster.persons()) {
      for (const auto& role : p.roles) {
        auto dot = role.find('.');
        if (dot != std::string::npos && role.substr(dot) == ".commander") commander_[role.substr(0, dot)] = person;
      }
    }
  }

  Result<TurnOrders> Run() {
    TurnOrders out;
    for (const auto& [id, acct] : s_.states) {
      (void)acct;
      ADJ_RETURN_IF_ERROR(Add(&out, Lower(id) + "-naval", NavalOrders(id)));
      ADJ_RETURN_IF_ERROR(Add(&out, Lower(id) + "-treasury", TreasuryOrders(id)));
      ADJ_RETURN_IF_ERROR(Add(&out, Lower(id) + "-war", WarOrders(id)));
    }
    std::map<std::string, std::vector<std::string>> by_person;  // commander → ships, in id order
    for (const auto& [ship, person] : commander_) by_person[person].push_back(ship);
    for (const auto& [person, ships] : by_person) {
      std::vector<std::string> items = ShipOrders(ships);
      out.ship_orders += items.size();
      ADJ_RETURN_IF_ERROR(Add(&out, person, items));
    }
    out.meant_invalid = invalid_;
    return out;
  }

 private:
  // ---- the world ----
  bool Friendly(const std::string& a, const std::string& b) const {
    return a == b || s_.RelationOf(a, b) == P::Relation::Alliance;
  }
  bool Hostile(const std::string& a, const std::string& b) const {
    return a != b && s_.RelationOf(a, b) == P::Relation::War;
  }
  // SOW 6.1: no purchases with hostile units in or next to the city's square.
  bool HostileNear(const P::City& c, const std::string& state) const {
    if (c.kind == P::CityKind::OffMapPort) return false;
    for (const auto& [id, u] : s_.units) {
      if (Hostile(u.state, state) && std::max(std::abs(u.square.x - c.square.x), std::abs(u.square.y - c.square.y)) <= 1) {
        return true;
      }
    }
    return false;
  }
  bool HostileShipsIn(const std::string& place, const std::string& state) const {
    for (const auto& [id, o] : f_.ships) {
      if (o.on_map() && o.location == place && Hostile(o.state, state)) return true;
    }
    return false;
  }
  std::string FreeId(const std::string& state, const char* type) {
    for (int n = 1;; ++n) {
      std::string id = state + std::to_string(n) + type;
      if (!s_.units.count(id) && !f_.ships.count(id) && !s_.builds.count(id) && used_ids_.insert(id).second) return id;
    }
  }
  int64_t& Budget(const std::string& state) {
    auto it = budget_.find(state);
    if (it == budget_.end()) it = budget_.emplace(state, s_.State(state)->treasury_cc).first;
    return it->second;
  }
  bool Spend(const std::string& state, int64_t cc) {
    if (cc > Budget(state)) return false;
    Budget(state) -= cc;
    return true;
  }
  // SOW 6.3, 6.4: what a state may still buy this turn, in a city and in all.
  bool Buy(const std::string& state, const P::City& c, int64_t supplies, int64_t stores) {
    int64_t size = sow::PurchaseSize(supplies, stores);
    int64_t cap = sow::StatePurchaseCapacity(static_cast<int>(held_[state].size()), kind_);
    int64_t& city = bought_city_[{state, c.name}];
    int64_t& all = bought_state_[state];
    // One purchase a city: the state's ministers' orders for a city share
    // one slot, and the later would replace the earlier (SOW 2.1).
    if (city > 0) return false;
    if (city + size > sow::CityPurchaseCapacity(kind_) || all + size > cap || HostileNear(c, state)) return false;
    if (!Spend(state, sow::SupplyCostCc(supplies, stores))) return false;
    city += size;
    all += size;
    return true;
  }
  void Reserve(const std::string& state, const std::string& city, int64_t size) {
    bought_city_[{state, city}] += size;
    bought_state_[state] += size;
  }
  bool War() const { return kind_ == fb::SeasonKind_War; }

  // ---- order items ----
  static std::string Sow(const std::string& state, const std::string& role, const char* kind, const std::string& body) {
    std::string order = Obj().S("state", state).S("body_type", kind).Raw("body", body).str();
    return Obj().S("role", state + "." + role).S("body_type", "SowOrder").Raw("body", order).str();
  }
  static std::string Pate(const std::string& role, const char* kind, const std::string& body) {
    Obj item;
    if (!role.empty()) item.S("role", role);
    return item.S("body_type", "PateOrder").Raw("body", Obj().S("body_type", kind).Raw("body", body).str()).str();
  }

  Status Add(TurnOrders* out, const std::string& person, const std::vector<std::string>& items) {
    if (items.empty()) return Status::Ok();
    Submission sub;
    sub.person = person;
    sub.json = "{\"orders\": " + Arr(items, ",\n  ") + "}\n";
    auto buf = schema::ParseJson("OrderFile", sub.json, person + " " + turn_.ToString());
    if (!buf.ok()) return buf.status();
    sub.file = std::move(buf).value();
    sub.orders = items.size();
    out->orders += items.size();
    out->submissions.push_back(std::move(sub));
    return Status::Ok();
  }

  std::vector<std::string> Ports(const std::string& state, bool on_map) const {
    std::vector<std::string> out;
    auto it = held_.find(state);
    if (it == held_.end()) return out;
    for (const auto& name : it->second) {
      const Port* p = map_.PortNamed(name);
      if (p && p->on_land_map == on_map) out.push_back(name);
    }
    return out;
  }

  // The Naval Minister: captains for ships without one (PATE 2.3), stores
  // bought (SOW 6.1) and moved between ports (PATE 3.5), ships laid up or
  // brought back into service (2.6).
  std::vector<std::string> NavalOrders(const std::string& st) {
    std::vector<std::string> items;
    std::vector<std::string> mine;
    for (const auto& [id, sh] : f_.ships) if (sh.state == st) mine.push_back(id);
    if (mine.empty()) return items;
    std::vector<std::string> captains;
    std::map<std::string, int> load;
    for (const auto& [person, p] : roster_.persons()) {
      if (person.rfind(Lower(st) + "-c", 0) != 0) continue;  // "-cdr-" and "-captain-"
      captains.push_back(person);
      load[person] = 0;
    }
    for (const auto& [ship, person] : commander_) if (load.count(person)) load[person]++;
    for (const auto& id : mine) {
      const P::Ship& sh = f_.ships.at(id);
      if (commander_.count(id) || !sh.active || captains.empty()) continue;
      std::string who = captains[0];
      for (const auto& c : captains) if (load[c] < load[who]) who = c;
      load[who]++;
      commander_[id] = who;  // the appointment stands when received: his orders follow
      items.push_back(Pate(st + ".naval", "AppointOrder", Obj().S("ship", id).S("commander", who).str()));
    }
    // Stores at the port where most of the fleet lies.
    std::map<std::string, int> at_port;
    for (const auto& id : mine) {
      const P::Ship& sh = f_.ships.at(id);
      auto c = s_.cities.find(sh.location);
      if (c != s_.cities.end() && c->second.controller == st && c->second.kind == P::CityKind::Port) at_port[sh.location]++;
    }
    if (!at_port.empty()) {
      auto best = std::max_element(at_port.begin(), at_port.end(), [](auto& a, auto& b) { return a.second < b.second; });
      int stores = War() ? r_.Int(20, 40) : r_.Int(100, 300);
      if (Buy(st, s_.cities.at(best->first), 0, stores)) {
        items.push_back(Sow(st, "naval", "BuySuppliesOrder", Obj().S("city", best->first).I("stores", stores).str()));
      }
    }
    // Stores moved from a well-stocked port to a neighbouring one.
    auto ports = Ports(st, true);
    if (ports.size() >= 2 && r_.Pct(50)) {
      const std::string& from = r_.Pick(ports);
      std::vector<std::string> to;
      for (const auto& p : ports) {
        const std::string &a = map_.PortNamed(from)->sea_area, &b = map_.PortNamed(p)->sea_area;
        if (p != from && (a == b || map_.DirectionTo(a, b))) to.push_back(p);
      }
      if (!to.empty() && s_.cities.at(from).stores >= 40) {
        items.push_back(Pate(st + ".naval", "MoveStoresOrder",
                             Obj().S("from", from).S("to", r_.Pick(to)).I("stores", r_.Int(10, 30)).str()));
      }
    }
    // Lay up a ship of the line in a home port now and then; recommission one.
    if (r_.Pct(10)) {
      for (const auto& id : mine) {
        const P::Ship& sh = f_.ships.at(id);
        auto c = s_.cities.find(sh.location);
        if (sh.type != P::ShipType::SL || !sh.active || !sh.in_port || !sh.attached_to.empty() || c == s_.cities.end() ||
            c->second.kind != P::CityKind::Port || c->second.controller != st ||
            c->second.nation != s_.State(st)->nation || HostileShipsIn(sh.location, st)) {
          continue;
        }
        items.push_back(Pate(st + ".naval", "ActivationOrder", Obj().S("ship", id).B("active", false).str()));
        laid_up_.insert(id);
        break;
      }
    }
    for (const auto& id : mine) {
      const P::Ship& sh = f_.ships.at(id);
      if (!sh.active && sh.reactivating == 0 && r_.Pct(30)) {
        items.push_back(Pate(st + ".naval", "ActivationOrder", Obj().S("ship", id).B("active", true).str()));
        break;
      }
    }
    return items;
  }

  // The Treasury Minister: new units and ships, supplies, subsidies,
  // reinforcements, disbanding, repairs (SOW 2.1, 4, 6, 7).
  std::vector<std::string> TreasuryOrders(const std::string& st) {
    std::vector<std::string> items;
    const P::StateAcct& acct = *s_.State(st);
    std::vector<std::string> home;  // cities of the state's nation that it holds
    for (const auto& name : held_[st]) if (s_.cities.at(name).nation == acct.nation) home.push_back(name);
    int64_t pool = acct.manpower;
    // New units: more for larger states.
    int n_units = 0;
    for (const auto& [id, u] : s_.units) n_units += u.state == st;
    int builds = home.empty() ? 0 : r_.Int(0, 1 + n_units / 60);
    if (auto cap = o_.unit_cap.find(st); cap != o_.unit_cap.end()) {
      int building = 0;
      for (const auto& [id, b] : s_.builds) building += b.state == st && !b.is_ship;
      builds = std::max(0, std::min(builds, cap->second - n_units - building));
    }
    for (int i = 0; i < builds; ++i) {
      const std::string& city = r_.Pick(home);
      const P::City& c = s_.cities.at(city);
      int building = 0;
      for (const auto& [id, b] : s_.builds) building += b.city == city && !b.is_ship;
      building += builds_in_[city];
      if (building >= sow::CityBuildLimit(c.level)) continue;
      GenUnit u;
      u.type = UnitTypeDraw(r_);
      if (u.type == "AQ" || u.type == "SA") u.type = "IN";
      SizeUnit(r_, u);
      auto type = UnitTypeOf(u.type);
      bool militia = sow::DrawsOnMilitiaPool(type);
      if ((militia && u.men > c.militia_pool) || (!militia && u.men > pool)) continue;
      int64_t need = sow::FundsRequiredCc(sow::UnitPriceCc(type, u.men, u.batteries),
                                          sow::UnitUpkeepCc(type, u.men, u.batteries, true, fb::SeasonKind_War));
      if (!Spend(st, need)) continue;
      if (!militia) pool -= u.men;
      builds_in_[city]++;
      Obj b;
      b.S("city", city).S("type", u.type).I("men", u.men).S("id", FreeId(st, u.type.c_str()));
      if (u.batteries) b.I("batteries", u.batteries);
      items.push_back(Sow(st, "treasury", "BuildUnitOrder", b.str()));
    }
    // A ship now and then, in a port with a dockyard free.
    auto ports = Ports(st, true);
    bool ships_wanted = true;
    if (auto cap = o_.ship_cap.find(st); cap != o_.ship_cap.end()) {
      int n_ships = 0;
      for (const auto& [id, sh] : f_.ships) n_ships += sh.state == st;
      for (const auto& [id, b] : s_.builds) n_ships += b.state == st && b.is_ship;
      ships_wanted = n_ships < cap->second;
    }
    if (!ports.empty() && r_.Pct(35) && ships_wanted) {
      const std::string& port = r_.Pick(ports);
      const P::City& c = s_.cities.at(port);
      int building = 0;
      for (const auto& [id, b] : s_.builds) building += b.city == port && b.is_ship && b.ship.type != P::ShipType::TR;
      int x = r_.Int(1, 100);
      const char* type = x <= 40 ? "SL" : x <= 80 ? "FR" : "TR";
      int frigates = r_.Int(1, 2), capacity = 500 * r_.Int(4, 10);
      auto t = ShipTypeOf(type);
      bool yard = t == fb::SowShipType_TR ? capacity <= c.transport_pool : building < c.dockyards;
      int64_t men = sow::MenForShip(t, frigates, capacity);
      int64_t need = sow::FundsRequiredCc(sow::ShipPriceCc(t, frigates, capacity),
                                          sow::ShipUpkeepCc(t, frigates, capacity, true, false, fb::SeasonKind_War));
      if (yard && men <= pool && Spend(st, need)) {
        pool -= men;
        Obj b;
        b.S("port", port).S("type", type).S("id", FreeId(st, type));
        if (t == fb::SowShipType_FR) b.I("frigates", frigates);
        if (t == fb::SowShipType_TR) b.I("capacity", capacity);
        items.push_back(Sow(st, "treasury", "BuildShipOrder", b.str()));
      }
    }
    // Supplies for the armies.
    if (!held_[st].empty()) {
      const std::string& city = r_.Pick(held_[st]);
      int supplies = War() ? r_.Int(4, 10) : r_.Int(20, 100);
      if (Buy(st, s_.cities.at(city), supplies, 0)) {
        items.push_back(Sow(st, "treasury", "BuySuppliesOrder", Obj().S("city", city).I("supplies", supplies).str()));
      }
    }
    // A subsidy to an ally.
    if (r_.Pct(15)) {
      std::vector<std::string> allies;
      for (const auto& [id, a] : s_.states) if (id != st && s_.RelationOf(id, st) == P::Relation::Alliance) allies.push_back(id);
      int64_t amount = sow::CrToCc(r_.Int(5, 30) * 10);
      if (!allies.empty() && Spend(st, amount)) {
        items.push_back(Sow(st, "treasury", "TransferOrder", Obj().S("to_state", r_.Pick(allies)).I("amount_cc", amount).str()));
      }
    }
    // Reinforcements, on the first turn of a campaign and in peace (SOW 4.8).
    if (sow::SoldiersMayJoin(kind_, turn_.step)) {
      int want = r_.Int(2, 5);
      for (const auto& [id, u] : s_.units) {
        if (want == 0) break;
        if (u.state != st || !r_.Pct(20)) continue;
        auto type = static_cast<fb::SowUnitType>(u.type);
        int add = u.type == P::UnitType::LA || u.type == P::UnitType::MA || u.type == P::UnitType::HA ||
                          u.type == P::UnitType::SA ? 100 : 500;
        if (!sow::ReinforcementAllowed(type, u.men, u.batteries, add, 0) || add > pool) continue;
        if (sow::DrawsOnMilitiaPool(type)) continue;  // militia draw on their city's pool; keep it simple
        if (!Spend(st, sow::ReinforcementCostCc(type, add, 0))) continue;
        pool -= add;
        want--;
        items.push_back(Sow(st, "treasury", "ReinforceOrder", Obj().S("unit", id).I("men", add).str()));
      }
    }
    // Militia sent home in peace (SOW 4.9).
    if (!War() && r_.Pct(30)) {
      for (const auto& [id, u] : s_.units) {
        if (u.state == st && u.type == P::UnitType::MI && u.aboard.empty()) {
          items.push_back(Sow(st, "treasury", "DisbandOrder", Obj().S("unit", id).str()));
          break;
        }
      }
    }
    // Repairs of damaged batteries and forts (SOW 7.1).
    for (const auto& name : held_[st]) {
      const P::City& c = s_.cities.at(name);
      auto under_way = [&](P::RepairKind k) {
        for (const auto& rep : s_.repairs) if (rep.city == name && rep.what == k) return true;
        return false;
      };
      if ((c.batteries_damaged || c.batteries_destroyed) && !under_way(P::RepairKind::Battery) && r_.Pct(50)) {
        items.push_back(Sow(st, "treasury", "RepairOrder", Obj().S("city", name).S("what", "Battery").str()));
      } else if (c.fort_level < c.fort_start && !under_way(P::RepairKind::Fort) && r_.Pct(50)) {
        items.push_back(Sow(st, "treasury", "RepairOrder", Obj().S("city", name).S("what", "Fort").str()));
      }
    }
    // Now and then an order the rules refuse: a reinforcement after turn 1
    // (SOW 4.8), a unit over its size (4.7), stores in an inland city (6.3).
    if (r_.Pct(12) && !s_.units.empty() && !home.empty()) {
      ++invalid_;
      int which = r_.Int(1, 3);
      if (which == 1 && War() && turn_.step > 1) {
        for (const auto& [id, u] : s_.units) {
          if (u.state == st) {
            items.push_back(Sow(st, "treasury", "ReinforceOrder", Obj().S("unit", id).I("men", 500).str()));
            break;
          }
        }
      } else if (which <= 2) {
        items.push_back(Sow(st, "treasury", "BuildUnitOrder",
                            Obj().S("city", r_.Pick(home)).S("type", "IN").I("men", 4500).S("id", FreeId(st, "IN")).str()));
      } else {
        std::string inland;
        for (const auto& name : held_[st]) if (s_.cities.at(name).kind == P::CityKind::Inland) inland = name;
        if (inland.empty()) inland = "Nowhere";
        items.push_back(Sow(st, "treasury", "BuySuppliesOrder", Obj().S("city", inland).I("stores", 10).str()));
      }
    }
    return items;
  }

  // The War Minister: a standing order for supplies when a campaign opens
  // (SOW 6.5), and supplies bought for the armies (6.1).
  std::vector<std::string> WarOrders(const std::string& st) {
    std::vector<std::string> items;
    if (held_[st].empty()) return items;
    if (War() && turn_.step == 1) {
      const std::string& city = r_.Pick(held_[st]);
      int supplies = r_.Int(1, 4);
      if (!s_.standing.count({st, city}) && Buy(st, s_.cities.at(city), supplies, 0)) {
        items.push_back(Sow(st, "war", "StandingSupplyOrder", Obj().S("city", city).I("supplies", supplies).str()));
      }
    }
    const std::string& city = r_.Pick(held_[st]);
    int supplies = War() ? r_.Int(2, 6) : r_.Int(10, 60);
    if (Buy(st, s_.cities.at(city), supplies, 0)) {
      items.push_back(Sow(st, "war", "BuySuppliesOrder", Obj().S("city", city).I("supplies", supplies).str()));
    }
    return items;
  }

  // ---- ship order forms (PATE 4) ----
  std::vector<std::string> Neighbours(const std::string& area) const {
    std::vector<std::string> out;
    if (const auto* a = map_.Area(area)) {
      for (const auto& dir : a->neighbours) out.insert(out.end(), dir.begin(), dir.end());
    }
    return out;
  }
  std::vector<std::string> PortsOn(const std::string& area, const std::string& state, bool friendly) const {
    std::vector<std::string> out;
    for (const auto& port : map_.PortsReachableFrom(area)) {
      auto c = s_.cities.find(port);
      if (c == s_.cities.end()) continue;
      if (friendly ? Friendly(c->second.controller, state) : Hostile(c->second.controller, state)) out.push_back(port);
    }
    return out;
  }

  // Where a ship goes this turn: a move or two between adjacent areas,
  // into a friendly harbour, off an enemy port, across the Atlantic, out of
  // port, between harbour and coastal waters, or nowhere.
  void Movement(const P::Ship& sh, Obj& f, std::string& commerce) {
    const Port* here = map_.PortNamed(sh.location);
    int x = r_.Int(1, 100);
    bool warship = sh.type == P::ShipType::FL || sh.type == P::ShipType::SL;
    if (here) {
      auto c = s_.cities.find(sh.location);
      bool friendly_harbour = sh.in_port && c != s_.cities.end() && Friendly(c->second.controller, sh.state);
      if (x <= (sh.type == P::ShipType::TR ? 60 : 40)) {  // stay, reprovisioning in a friendly harbour
        if (friendly_harbour) f.I("stores", r_.Int(20, 24));
        if (x <= 5 && !HostileShipsIn(sh.location, sh.state)) f.S("port", sh.location).B("harbour", !sh.in_port);
        return;
      }
      std::string out_to = here->sea_area;
      if (!here->strait_area.empty() && r_.Pct(50)) out_to = here->strait_area;
      if (x <= 65) {  // to a port on the way: an enemy's coastal waters, or a friend's harbour
        std::vector<std::string> areas = {out_to};
        for (const auto& n : Neighbours(out_to)) areas.push_back(n);
        const std::string& area = r_.Pick(areas);
        auto enemy = PortsOn(area, sh.state, false);
        auto friendly = PortsOn(area, sh.state, true);
        bool blockade = warship && !enemy.empty() && r_.Pct(60);
        if (!blockade && friendly.empty()) return;
        f.S("sea1", out_to);
        if (area != out_to) f.S("sea2", area);
        f.S("port", blockade ? r_.Pick(enemy) : r_.Pick(friendly));
        if (blockade) commerce = "IgnoreCommerce";
        else f.B("harbour", true);
        return;
      }
      f.S("sea1", out_to);  // to sea: one area, or on to the next
      auto next = Neighbours(out_to);
      if (!next.empty() && r_.Pct(50)) f.S("sea2", r_.Pick(next));
      return;
    }
    // At sea.
    const auto* area = map_.Area(sh.location);
    if (!area) return;
    auto next = Neighbours(sh.location);
    if (area->atlantic && r_.Pct(3)) {  // across the Atlantic (PATE 6.11)
      std::vector<std::string> far;
      for (const auto& [code, a] : map_.areas()) if (a.atlantic && a.map != area->map) far.push_back(code);
      if (!far.empty()) f.S("sea1", r_.Pick(far));
      return;
    }
    if (x <= 25 && !next.empty()) {
      f.S("sea1", r_.Pick(next));
    } else if (x <= 40 && !next.empty()) {
      const std::string& a = r_.Pick(next);
      auto beyond = Neighbours(a);
      f.S("sea1", a);
      if (!beyond.empty()) f.S("sea2", r_.Pick(beyond));
    } else if (x <= 65) {  // home to a friendly harbour, here or next door
      auto friendly = PortsOn(sh.location, sh.state, true);
      if (!friendly.empty()) {
        f.S("port", r_.Pick(friendly)).B("harbour", true);
        return;
      }
      for (const auto& a : next) {
        friendly = PortsOn(a, sh.state, true);
        if (!friendly.empty()) {
          f.S("sea1", a).S("port", r_.Pick(friendly)).B("harbour", true);
          return;
        }
      }
    } else if (x <= 77 && warship) {  // off an enemy port
      auto enemy = PortsOn(sh.location, sh.state, false);
      if (!enemy.empty()) {
        f.S("port", r_.Pick(enemy));
        commerce = "IgnoreCommerce";
      } else if (r_.Pct(30)) {
        f.B("any_enemy_port", true);
      }
    } else if (x <= 79 && !next.empty()) {  // a move the map does not allow: refused when it is made (PATE 6.2)
      for (const auto& [code, a] : map_.areas()) {
        if (code != sh.location && a.map == area->map && std::find(next.begin(), next.end(), code) == next.end()) {
          f.S("sea1", code);
          break;
        }
      }
    }
  }

  std::string ShipForm(const P::Ship& sh) {
    Obj f;
    f.S("ship", sh.id);
    std::string commerce;
    Movement(sh, f, commerce);
    // PATE 4.6, 4.7: contact and combat.
    int c = r_.Int(1, 100);
    f.S("contact", c <= 40 ? "Accept" : c <= 75 ? "Pursue" : "Evade");
    if (r_.Pct(10)) f.I("min_ships", r_.Int(1, 3)).I("max_ships", r_.Int(2, 8));
    if (r_.Pct(10)) f.B("join_allies", false);
    if (r_.Pct(50)) f.S("gauge", "Windward");
    int e = r_.Int(1, 100);
    f.S("engage", e <= 45 ? "Accept" : e <= 80 ? "Close" : "Evade");
    if (r_.Pct(30)) f.S("line", "BreakLine");
    if (r_.Pct(50)) f.S("aim", "Hull");
    // PATE 4.8: commerce.
    if (commerce.empty()) {
      int m = r_.Int(1, 100);
      switch (sh.type) {
        case P::ShipType::FR: commerce = m <= 45 ? "Raid" : m <= 75 ? "Patrol" : m <= 90 ? "Convoy" : "None"; break;
        case P::ShipType::TR: commerce = m <= 30 ? "Convoy" : "None"; break;
        default: commerce = m <= 20 ? "Patrol" : "None"; break;
      }
    }
    if (commerce != "None") f.S("commerce", commerce);
    // PATE 4.9: transports load and unload in friendly harbours.
    auto c_it = s_.cities.find(sh.location);
    if (sh.type == P::ShipType::TR && sh.in_port && c_it != s_.cities.end() &&
        Friendly(c_it->second.controller, sh.state) && c_it->second.kind == P::CityKind::Port) {
      std::vector<std::string> amph;
      if (!sh.cargo_units.empty() && r_.Pct(60)) {
        amph.push_back(Obj().B("unload", true).S("unit", sh.cargo_units.front()).str());
      } else if (r_.Pct(35)) {
        for (const auto& [id, u] : s_.units) {
          if (u.state == sh.state && u.city == sh.location && u.aboard.empty() && u.active &&
              u.men <= sh.capacity / 2 && !loading_.count(id)) {
            loading_.insert(id);
            amph.push_back(Obj().S("unit", id).str());
            break;
          }
        }
      }
      if (r_.Pct(20) && c_it->second.supplies >= 5) amph.push_back(Obj().I("supplies", r_.Int(1, 5)).str());
      if (!amph.empty()) f.Raw("amphibious", Arr(amph));
    }
    // Now and then a form the intake refuses: an unknown sea area (PATE 1.4)
    // or more stores than a ship carries (3.4).
    if (r_.Pct(1)) {
      ++invalid_;
      Obj bad;
      bad.S("ship", sh.id).S("sea1", "XYZ");
      return Pate("", "ShipOrders", bad.str());
    }
    if (r_.Pct(1) && sh.type != P::ShipType::TR) {
      ++invalid_;
      return Pate("", "ShipOrders", Obj().S("ship", sh.id).I("stores", 30).str());
    }
    return Pate("", "ShipOrders", f.str());
  }

  // One commander's order forms: his ships that can take orders, a
  // squadron's followers sailing with their leader (their own forms are
  // replaced by the leader's, PATE 4.2, unless they detach).
  std::vector<std::string> ShipOrders(const std::vector<std::string>& ids) {
    std::vector<std::string> items;
    for (const auto& id : ids) {
      auto it = f_.ships.find(id);
      if (it == f_.ships.end()) continue;  // sunk or taken
      const P::Ship& sh = it->second;
      if (!sh.on_map() || laid_up_.count(id)) continue;
      if (!sh.attached_to.empty() && r_.Pct(8)) {
        items.push_back(Pate("", "ShipOrders", Obj().S("ship", id).B("detach", true).S("contact", "Accept").str()));
        continue;
      }
      if (sh.attached_to.empty() && (sh.type == P::ShipType::SL || sh.type == P::ShipType::FR) && r_.Pct(4)) {
        // Join another ship of her state in the same place, if she leads no one.
        bool leads = false, attached = false;
        for (const auto& [oid, o] : f_.ships) leads = leads || o.attached_to == id;
        for (const auto& [oid, o] : f_.ships) {
          if (leads || oid == id || o.state != sh.state || !o.on_map() || !o.attached_to.empty()) continue;
          if (o.location != sh.location || o.at_sea() != sh.at_sea() || (sh.at_sea() && o.tactical != sh.tactical)) continue;
          items.push_back(Pate("", "ShipOrders", Obj().S("ship", id).S("attach_to", oid).S("contact", "Accept").str()));
          attached = true;
          break;
        }
        if (attached) continue;
      }
      items.push_back(ShipForm(sh));
    }
    return items;
  }

  const NwolOptions o_;
  const P::TreasuryState& s_;
  const P::FleetState& f_;  // the ships
  const P::Roster& roster_;
  const NavalMap& map_;
  Rng r_;
  Turn turn_;
  fb::SeasonKind kind_ = fb::SeasonKind_War;
  std::map<std::string, std::vector<std::string>> held_;  // state → cities it holds
  std::map<std::string, std::string> commander_;          // ship → person
  std::map<std::string, int64_t> budget_;
  std::map<std::pair<std::string, std::string>, int64_t> bought_city_;
  std::map<std::string, int64_t> bought_state_;
  std::map<std::string, int> builds_in_;
  std::set<std::string> used_ids_, laid_up_, loading_;
  size_t invalid_ = 0;
};

}  // namespace

Result<TurnOrders> GenerateOrders(const NwolOptions& options, const P::TreasuryState& state, const P::FleetState& fleet,
                                  const P::Roster& roster,
                                  const NavalMap& map) {
  if (!state.active) return Status::InvalidArgument("the game plays no sow: no orders to generate");
  return OrderWriter(options, state, fleet, roster, map).Run();
}

}  // namespace adjutant::bench
