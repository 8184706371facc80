// The PATE map (section 1): the bundled waters of Europe and America obey
// the book's own facts, and a map that breaks them is refused.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "support/build_paths.h"
#include "rules/pate/map.h"
#include "schema/codec.h"
#include "schema/pate_generated.h"
#include "schema/scenario_generated.h"

using namespace adjutant;
using adjutant::rules::pate::Compass;
using adjutant::rules::pate::NavalMap;

namespace {

Result<NavalMap> FromJson(const std::string& json) {
  auto buf = schema::ParseJson("NavalMap", json, "map.json");
  if (!buf.ok()) return buf.status();
  return NavalMap::Load(*flatbuffers::GetRoot<fb::NavalMap>(buf->data()));
}

NavalMap Bundled() {
  std::ifstream in(std::string(ADJUTANT_FIXTURES) + "/maps/nwol-waters.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto m = FromJson(ss.str());
  INFO(m.status().message());
  REQUIRE(m.ok());
  return std::move(m).value();
}

const char* kWinds = R"("winds": [{"from": "W", "strength": "Moderate", "chance_pct": 100}])";

std::string Area(const std::string& code, const std::string& map, const std::string& links, bool edge = false) {
  return "{\"code\": \"" + code + "\", \"name\": \"" + code + "\", \"map\": \"" + map + "\", " + links +
         (edge ? ", \"atlantic\": true, " : ", ") + kWinds + "}";
}

}  // namespace

TEST_CASE("PATE 1.3: ports open on one sea area, in one direction", "[pate][map]") {
  NavalMap m = Bundled();
  REQUIRE(m.PortNamed("London"));
  CHECK(m.PortNamed("London")->sea_area == "NOS");
  CHECK(m.PortNamed("London")->exit == Compass::E);
  CHECK(m.PortNamed("Brest")->sea_area == "ECH");
  CHECK(m.PortNamed("Brest")->exit == Compass::W);
  CHECK(m.PortNamed("Venetzia")->sea_area == "ADR");
  CHECK(m.PortNamed("Venetzia")->exit == Compass::E);
  // Port au Prince opens on the Western Caribbean only.
  REQUIRE(m.PortNamed("Port au Prince"));
  CHECK(m.PortOpensOn("Port au Prince", "WCA"));
  for (const auto& [code, a] : m.areas()) {
    if (code != "WCA") CHECK_FALSE(m.PortOpensOn("Port au Prince", code));
  }
}

TEST_CASE("PATE 1.5: Caribbean ports, Malta and Corfu are off the land map", "[pate][map]") {
  NavalMap m = Bundled();
  for (const auto& [name, p] : m.ports()) {
    bool american = m.Area(p.sea_area)->map == rules::pate::MapSide::America;
    INFO(name);
    CHECK(p.on_land_map == !(american || name == "Malta" || name == "Corfu"));
  }
}

TEST_CASE("PATE 6.2: the Southern Caribbean example", "[pate][map]") {
  NavalMap m = Bundled();
  const auto* sca = m.Area("SCA");
  REQUIRE(sca);
  std::vector<std::string> near;
  for (const auto& l : sca->neighbours) near.insert(near.end(), l.begin(), l.end());
  auto has = [&](const std::string& name) {
    for (const auto& code : near) if (m.Area(code)->name == name) return true;
    return false;
  };
  CHECK(has("Northern Caribbean"));
  CHECK(has("Surinam Coast"));
  CHECK(has("Panama Coast"));
  CHECK_FALSE(has("Western Caribbean"));
  CHECK_FALSE(has("Southwest Atlantic"));
  CHECK_FALSE(has("Bahamas"));
  auto ports = m.PortsReachableFrom("SCA");
  CHECK(std::find(ports.begin(), ports.end(), "Martinique") != ports.end());
  CHECK(std::find(ports.begin(), ports.end(), "Dominica") == ports.end());
}

TEST_CASE("PATE 6.3: the three strait ports open on both their areas", "[pate][map]") {
  NavalMap m = Bundled();
  for (auto [port, a, b] : {std::tuple{"Gibraltar", "SOA", "WMD"}, std::tuple{"Boulogne", "ECH", "NOS"},
                            std::tuple{"Kobenhavn", "SKA", "BAS"}}) {
    INFO(port);
    CHECK(m.PortOpensOn(port, a));
    CHECK(m.PortOpensOn(port, b));
    auto from_a = m.PortsReachableFrom(a), from_b = m.PortsReachableFrom(b);
    CHECK(std::find(from_a.begin(), from_a.end(), port) != from_a.end());
    CHECK(std::find(from_b.begin(), from_b.end(), port) != from_b.end());
  }
  int straits = 0;
  for (const auto& [name, p] : m.ports()) straits += !p.strait_area.empty();
  CHECK(straits == 3);
}

TEST_CASE("PATE 6.11: Lisbon to the Iberian Coast, then across to the Southwest Atlantic", "[pate][map]") {
  // PATE 1.6: the two maps meet only across the Atlantic.
  NavalMap m = Bundled();
  CHECK(m.PortOpensOn("Lisbon", "IBC"));
  std::string swa;
  for (const auto& [code, a] : m.areas()) if (a.name == "Southwest Atlantic") swa = code;
  REQUIRE_FALSE(swa.empty());
  CHECK(m.CrossesAtlantic("IBC", swa));
  CHECK(m.CrossesAtlantic(swa, "IBC"));
  CHECK_FALSE(m.CrossesAtlantic("IBC", "ECH"));
  CHECK(m.atlantic_turns_min == 3);
  CHECK(m.atlantic_turns_max == 4);
  CHECK(m.atlantic_frigate_turns_min == 2);
  CHECK(m.atlantic_frigate_turns_max == 3);
}

TEST_CASE("the bundled map holds every port of the 1805 scenario on its sea area", "[pate][map]") {
  NavalMap m = Bundled();
  std::ifstream in(std::string(ADJUTANT_FIXTURES) + "/scenarios/nwol-1805.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto buf = schema::ParseJson("Scenario", ss.str(), "nwol-1805.json");
  REQUIRE(buf.ok());
  const auto* sc = flatbuffers::GetRoot<fb::Scenario>(buf->data());
  int ports = 0;
  for (const auto* c : *sc->sow()->cities()) {
    if (c->kind() == fb::SowCityKind_Inland) continue;
    ++ports;
    INFO(c->name()->str());
    const auto* p = m.PortNamed(c->name()->str());
    REQUIRE(p);
    CHECK(m.PortOpensOn(p->name, c->sea_area()->str()));
    CHECK(p->on_land_map == (c->kind() == fb::SowCityKind_Port));
  }
  CHECK(ports > 40);
}

TEST_CASE("maps that break the book are refused, naming the field", "[pate][map]") {
  auto two = [](const std::string& a_links, const std::string& b_links, const std::string& ports = "") {
    return "{\"sea_areas\": [" + Area("AAA", "Europe", a_links, true) + ", " + Area("BBB", "Europe", b_links) + ", " +
           Area("CCC", "America", "\"north\": []", true) + "], \"ports\": [" + ports + "]}";
  };
  CHECK(FromJson(two("\"east\": [\"BBB\"]", "\"west\": [\"AAA\"]")).ok());
  auto one_way = FromJson(two("\"east\": [\"BBB\"]", "\"north\": []"));
  REQUIRE_FALSE(one_way.ok());
  CHECK(one_way.status().message() == "sea_areas[0].east[0]: BBB lies east of AAA, but AAA is not in BBB's west list");
  CHECK(FromJson(two("\"east\": [\"ZZZ\"]", "\"west\": [\"AAA\"]")).status().message() ==
        "sea_areas[0].east[0]: no sea area 'ZZZ'");
  auto strait = FromJson(two("\"north\": []", "\"north\": []",
                             R"({"name": "P", "nation": "X", "sea_area": "AAA", "strait_area": "BBB"})"));
  CHECK_THAT(strait.status().message(), Catch::Contains("PATE 6.3"));
  auto winds = FromJson(R"({"sea_areas": [{"code": "AAA", "name": "a", "winds": [{"chance_pct": 90}]}]})");
  CHECK(winds.status().message() == "sea_areas[0].winds: the chances of AAA sum to 90, not 100");
  auto code = FromJson(R"({"sea_areas": [{"code": "AAAA", "name": "a"}]})");
  CHECK_THAT(code.status().message(), Catch::Contains("three-letter code (PATE 1.4)"));
  auto no_edge = FromJson("{\"sea_areas\": [" + Area("AAA", "Europe", "\"north\": []") + "]}");
  CHECK_THAT(no_edge.status().message(), Catch::Contains("PATE 6.11"));  // Where things lie (for the drawn map): a place on the earth, seeds in pairs.
  auto placed = [&](const std::string& more, const std::string& port_more) {
    std::string a = Area("AAA", "Europe", "\"east\": [\"BBB\"]", true);
    a.insert(a.size() - 1, ", " + more);
    return FromJson("{\"sea_areas\": [" + a + ", " + Area("BBB", "Europe", "\"west\": [\"AAA\"]") + ", " +
                    Area("CCC", "America", "\"north\": []", true) +
                    "], \"ports\": [{\"name\": \"P\", \"nation\": \"X\", \"sea_area\": \"AAA\", " + port_more + "}]}");
  };
  CHECK(placed("\"lon\": -5.5, \"lat\": 48, \"seeds\": [-6, 47, -7, 46]", "\"lon\": -4.5, \"lat\": 48.4").ok());
  CHECK(placed("\"lon\": -5.5, \"lat\": 48, \"seeds\": [-6, 47, -7]", "\"lon\": 1").status().message() ==
        "sea_areas[0].seeds: longitudes and latitudes come in pairs");
  CHECK(placed("\"lon\": 5, \"lat\": 48, \"seeds\": [-6, 97]", "\"lon\": 1").status().message() ==
        "sea_areas[0].seeds[0]: not a place on the earth (longitude within 180, latitude within 90 degrees)");
  CHECK(placed("\"lon\": 190, \"lat\": 48", "\"lon\": 1").status().message() ==
        "sea_areas[0].lon: not a place on the earth (longitude within 180, latitude within 90 degrees)");
  CHECK(placed("\"lon\": 5, \"lat\": 48", "\"lat\": -91").status().message() ==
        "ports[0].lon: not a place on the earth (longitude within 180, latitude within 90 degrees)");
}
