// End to end with the built binary: a y1820 game made from the bundled
// Europe 1820 fixtures, orders from a ruler with his password, turns
// adjudicated, and the map and nation views — text, JSON, SVG, public and
// private, now and at a past turn — with the errors a GA would meet.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>

#include "support/build_paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using adjutant::testing::Adjutant;
using adjutant::testing::Run;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;

struct Europe {
  TempDir dir;
  std::string db = dir.Sub("db");
  Run adj(std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    return Adjutant(args);
  }
  Europe() {
    Run r = adj({"new", "europe", "--scenario", F + "/y1820/europe-1820.json", "--map", F + "/y1820/europe-1820.map.json",
                 "--seed", "1820"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    std::ofstream(dir.Sub("pw")) << "richelieu-1820\n";
    REQUIRE(adj({"password", "europe", "--person", "richelieu", "--password-file", dir.Sub("pw")}).code == 0);
  }
};

}  // namespace

TEST_CASE("y1820: a ruler's orders, turn 0 and turn 1, and the map and nation views", "[y1820][cli]") {
  Europe e;
  Run o = e.adj({"order", "europe", F + "/orders/europe-1820/t0-FRA.orders.json", "--as", "richelieu", "--password-file",
                 e.dir.Sub("pw")});
  INFO(o.out << o.err);
  REQUIRE(o.code == 0);
  CHECK_THAT(o.out, Catch::Contains("rejected (Y1.1)"));  // the move sent at turn 0
  REQUIRE(e.adj({"adjudicate", "europe"}).code == 0);
  Run n = e.adj({"report", "nation", "europe", "--nation", "FRA"});
  INFO(n.out << n.err);
  REQUIRE(n.code == 0);
  CHECK_THAT(n.out, Catch::Contains("France (FRA), Constitutional Monarchy"));
  CHECK_THAT(n.out, Catch::Contains("Research: Railroads 0/40"));
  CHECK_THAT(n.out, Catch::Contains("Reform: Nationalism (success 25%, revolt 25%, nothing 50%)"));
  CHECK_THAT(n.out, Catch::Contains("rally points: 16, 20"));
  // What the other rulers see: no research, no reform, no orders.
  Run pub = e.adj({"report", "nation", "europe", "--nation", "FRA", "--public"});
  REQUIRE(pub.code == 0);
  CHECK_THAT(pub.out, Catch::Contains("(public)"));
  CHECK_THAT(pub.out, !Catch::Contains("Research:") && !Catch::Contains("Reform:"));
  Run pj = e.adj({"report", "nation", "europe", "--nation", "FRA", "--public", "--json"});
  REQUIRE(pj.code == 0);
  CHECK_THAT(pj.out, Catch::Contains("\"army_limit\"") && !Catch::Contains("\"research\""));
  // The map: Alsace holds the 4 armies deployed there; the SVG draws it.
  Run m = e.adj({"report", "map", "europe", "--svg", e.dir.Sub("map.svg")});
  INFO(m.err);
  REQUIRE(m.code == 0);
  // Line by line: a regex over the whole report ("(.|\n)*") recurses once a
  // character in std::regex and overflows the stack under AddressSanitizer.
  bool alsace = false;
  for (const auto& line : adjutant::testing::Lines(m.out)) {
    alsace = alsace || std::regex_search(line, std::regex("^16   Alsace +FRA +FRA:4 "));
  }
  CHECK(alsace);
  std::string svg = Slurp(e.dir.Sub("map.svg"));
  CHECK_THAT(svg, Catch::StartsWith("<svg"));
  CHECK_THAT(svg, Catch::Contains("<title>14 Paris (FRA), capital of FRA"));
  CHECK_THAT(svg, Catch::Contains("49 Bavaria"));
  Run mj = e.adj({"report", "map", "europe", "--json"});
  REQUIRE(mj.code == 0);
  CHECK_THAT(mj.out, Catch::Contains("\"name\": \"Swiss Confederacy\",\"owner\": \"\",\"npc\": \"Swiss Confederacy\""));
  // A past turn: before turn 0's deployment Alsace was empty.
  REQUIRE(e.adj({"adjudicate", "europe"}).code == 0);
  Run then = e.adj({"report", "map", "europe", "--turn", "1820.0"});
  INFO(then.err);
  REQUIRE(then.code == 0);
  CHECK_THAT(then.out, Catch::Contains("after Pre-1820 (turn 0)"));
  Run now = e.adj({"report", "map", "europe"});
  CHECK_THAT(now.out, Catch::Contains("after 1820.1 (turn 1)"));
  // The views for replay and diff.
  Run rv = e.adj({"replay", "europe", "--to", "1820.1", "--view", "nations"});
  INFO(rv.err);
  REQUIRE(rv.code == 0);
  CHECK_THAT(rv.out, Catch::Contains("FRA") && Catch::Contains("research"));
  // Every turn audits identical.
  Run a = e.adj({"audit", "europe", "--all"});
  INFO(a.out << a.err);
  CHECK(a.code == 0);
  CHECK_THAT(a.out, Catch::Contains("identical"));
}

TEST_CASE("y1820: the reports' errors name what is wrong", "[y1820][cli]") {
  Europe e;
  Run no_nation = e.adj({"report", "nation", "europe"});
  CHECK(no_nation.code == 2);
  CHECK_THAT(no_nation.err, Catch::Contains("--nation N is required"));
  Run unknown = e.adj({"report", "nation", "europe", "--nation", "XYZ"});
  CHECK(unknown.code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("no nation 'XYZ' (nations: GBR, FRA, NED, PRU, AUS, SPA, RUS, OTT)"));
  Run svg_nation = e.adj({"report", "nation", "europe", "--nation", "FRA", "--svg", e.dir.Sub("x.svg")});
  CHECK(svg_nation.code == 2);
  CHECK_THAT(svg_nation.err, Catch::Contains("--svg does not apply"));
  Run treasury = e.adj({"report", "treasury", "europe", "--state", "FRA"});
  CHECK(treasury.code == 2);
  // A y1820 game needs its map; a map that breaks Y0 is refused naming the field.
  Run no_map = e.adj({"new", "other", "--scenario", F + "/y1820/europe-1820.json"});
  CHECK(no_map.code == 2);
  CHECK_THAT(no_map.err, Catch::Contains("needs its province map"));
  std::string bad = Slurp(F + "/y1820/europe-1820.map.json");
  bad.replace(bad.find("\"NWG\""), 5, "\"QQQ\"");  // a sea zone the map does not have
  std::ofstream(e.dir.Sub("bad.json")) << bad;
  Run bad_map = e.adj({"new", "other", "--scenario", F + "/y1820/europe-1820.json", "--map", e.dir.Sub("bad.json")});
  CHECK(bad_map.code == 2);
  CHECK_THAT(bad_map.err, Catch::Contains("bad.json: provinces[31].seas: no sea zone 'QQQ'"));
  Run games = e.adj({"games"});
  CHECK_THAT(games.out, !Catch::Contains("other"));  // nothing made of either
}

TEST_CASE("Y0: `adjutant map --y1820` checks a province map, naming the field at fault", "[y1820][cli]") {
  Run ok = Adjutant({"map", F + "/y1820/europe-1820.map.json", "--y1820"});
  INFO(ok.err);
  CHECK(ok.code == 0);
  CHECK_THAT(ok.out, Catch::Contains("a sound province map: 99 provinces (18 populous, 63 coastal)"));
  TempDir dir;
  std::string bad = Slurp(F + "/y1820/europe-1820.map.json");
  // Bavaria's number twice.
  bad.replace(bad.find("\"id\": 50,"), 9, "\"id\": 49,");
  std::ofstream(dir.Sub("twice.json")) << bad;
  Run twice = Adjutant({"map", dir.Sub("twice.json"), "--y1820"});
  CHECK(twice.code == 2);
  CHECK_THAT(twice.err, Catch::Contains("twice.json: provinces[") && Catch::Contains(".id: province 49 twice"));
  // Where things lie (the drawn map's geography): on the earth, seeds in pairs.
  auto refused = [&](const std::string& from, const std::string& to, const std::string& says) {
    std::string m = Slurp(F + "/y1820/europe-1820.map.json");
    REQUIRE(m.find(from) != std::string::npos);
    m.replace(m.find(from), from.size(), to);
    std::ofstream(dir.Sub("placed.json")) << m;
    Run r = Adjutant({"map", dir.Sub("placed.json"), "--y1820"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains(says));
  };
  refused("\"lon\": 2.2, \"lat\": 48.4", "\"lon\": 2.2, \"lat\": 98.4",
          ".lon: not a place on the earth (longitude within 180, latitude within 90 degrees)");
  refused("\"seeds\": [13.8, 55.0, ", "\"seeds\": [13.8, ", "].seeds: longitudes and latitudes come in pairs");
  refused("\"seeds\": [13.8, 55.0, ", "\"seeds\": [213.8, 55.0, ", "].seeds[0]: not a place on the earth");
}
