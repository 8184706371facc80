// End to end with the built binary: a Death or Glory battle made from the
// bundled Talavera scenario, a general's intentions for the first move
// (refused where the charts refuse them), and the battle view — text, JSON,
// SVG, a side's report — with the errors a GA would meet.
#include <catch2/catch.hpp>

#include <fstream>

#include "support/build_paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using adjutant::testing::Adjutant;
using adjutant::testing::Run;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;

struct Talavera {
  TempDir dir;
  std::string db = dir.Sub("db");
  Run adj(std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    return Adjutant(args);
  }
  Talavera() {
    Run r = adj({"new", "talavera", "--scenario", F + "/dog/talavera-brigade.json", "--seed", "1809"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    for (const char* p : {"wellesley", "victor"}) {
      std::ofstream(dir.Sub(p)) << p << "-1809\n";
      REQUIRE(adj({"password", "talavera", "--person", p, "--password-file", dir.Sub(p)}).code == 0);
    }
  }
};

}  // namespace

TEST_CASE("D12: a battle: the generals' intentions for the first move, the move adjudicated, and the battle view", "[dog][cli]") {
  Talavera t;
  Run o = t.adj({"order", "talavera", F + "/orders/dog-talavera/m1-French.orders.json", "--as", "victor",
                 "--password-file", t.dir.Sub("victor")});
  INFO(o.out << o.err);
  REQUIRE(o.code == 0);
  CHECK_THAT(o.out, !Catch::Contains("rejected"));
  // A general orders his own side only; the charts refuse what no unit can do.
  std::ofstream(t.dir.Sub("bad.json"))
      << R"({"orders": [{"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": "FR-24L-1", "hold": true}}},
                        {"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": "BR-23LD", "change_formation": true, "formation": "Square"}}},
                        {"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": "BR-29", "path": [{"x": 5000, "y": 10}]}}},
                        {"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": "BR-RA", "charge": "FR-24L-1"}}},
                        {"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": "BR-48-1", "charge": "BR-29"}}}]})";
  Run bad = t.adj({"order", "talavera", t.dir.Sub("bad.json"), "--as", "wellesley", "--password-file", t.dir.Sub("wellesley")});
  INFO(bad.out << bad.err);
  REQUIRE(bad.code == 0);
  CHECK_THAT(bad.out, Catch::Contains("rejected (D12.2): FR-24L-1 is not a unit of the British side"));
  CHECK_THAT(bad.out, Catch::Contains("rejected (D1): the charts give LightCavalry no change from Line to Square"));
  CHECK_THAT(bad.out, Catch::Contains("rejected (D2): the path leaves the table"));
  CHECK_THAT(bad.out, Catch::Contains("rejected (D5): a battery does not charge"));
  CHECK_THAT(bad.out, Catch::Contains("rejected (D5): BR-29 is a unit of its own side"));
  // The British side's report shows no French intentions; the GA's shows them.
  Run br = t.adj({"report", "battle", "talavera", "--side", "British"});
  INFO(br.err);
  REQUIRE(br.code == 0);
  CHECK_THAT(br.out, Catch::Contains("Battle talavera/main, before the first move of 12, the British side's report"));
  CHECK_THAT(br.out, Catch::Contains("FR-24L-1 1st Battalion, 24e Ligne: Infantry, ColumnOfDivisions at (600, 960) facing 0"));
  CHECK_THAT(br.out, !Catch::Contains("orders: move to"));
  Run ga = t.adj({"report", "battle", "talavera"});
  CHECK_THAT(ga.out, Catch::Contains("orders: move to"));
  // The British general's refused order for a French unit left the French
  // order standing (dog version 2).
  CHECK_THAT(ga.out, Catch::Contains("FR-24L-1 1st Battalion, 24e Ligne: Infantry, ColumnOfDivisions at (600, 960) facing 0, "
                                     "Formed, Fresh, 650 of 650 men; orders: move to (600,820)"));
  Run js = t.adj({"report", "battle", "talavera", "--json", "--svg", t.dir.Sub("b.svg")});
  REQUIRE(js.code == 0);
  CHECK_THAT(js.out, Catch::Contains("\"id\": \"BR-RA\",\"side\": \"British\"") && Catch::Contains("\"formation\": \"Unlimbered\""));
  std::string svg = Slurp(t.dir.Sub("b.svg"));
  CHECK_THAT(svg, Catch::StartsWith("<svg") && Catch::Contains(">BR-29, line, ") && Catch::Contains("(stream)"));
  // The first move adjudicated; the view as it stood before it, and after.
  Run adj = t.adj({"adjudicate", "talavera"});
  INFO(adj.err);
  REQUIRE(adj.code == 0);
  CHECK_THAT(adj.out, Catch::Contains("move 1 of 12"));
  Run after = t.adj({"report", "battle", "talavera", "--side", "French"});
  CHECK_THAT(after.out, Catch::Contains("after move 1 of 12"));
  // The move in words, each outcome naming its rule.
  CHECK_THAT(after.out, Catch::Contains("What happened in move 1:\n") &&
                            Catch::Contains("  FR-24L-1 moved 140 mm of 150 to (600, 820), facing 0 (D2)\n"));
  Run after_js = t.adj({"report", "battle", "talavera", "--json"});
  CHECK_THAT(after_js.out, Catch::Contains("\"events\": [") && Catch::Contains("FR-24L-1 moved 140 mm of 150"));
  Run before = t.adj({"report", "battle", "talavera", "--move", "0"});
  INFO(before.err);
  CHECK_THAT(before.out, Catch::Contains("before the first move"));
  CHECK_THAT(before.out, Catch::Contains("FR-24L-1 1st Battalion, 24e Ligne: Infantry, ColumnOfDivisions at (600, 960)"));
  Run audit = t.adj({"audit", "talavera", "--all"});
  CHECK(audit.code == 0);
  CHECK_THAT(audit.out, Catch::Contains("turn 1.1.0:") && Catch::Contains("identical"));
}

TEST_CASE("D0: a battle scenario that breaks the charts is refused, naming the field", "[dog][cli]") {
  TempDir dir;
  std::string sc = Slurp(F + "/dog/squares.json");
  auto broken = [&](const std::string& from, const std::string& to) {
    std::string s = sc;
    size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    s.replace(at, from.size(), to);
    std::ofstream(dir.Sub("s.json")) << s;
    return Adjutant({"--db", dir.Sub("db"), "new", "b", "--scenario", dir.Sub("s.json")});
  };
  Run square_cav = broken("\"arm\": \"Cuirassiers\"", "\"arm\": \"FootArtillery\"");
  CHECK(square_cav.code == 2);
  CHECK_THAT(square_cav.err, Catch::Contains("batteries are Limbered or Unlimbered"));
  Run general = broken("[\"French.general\"]", "[]");
  CHECK(general.code == 2);
  CHECK_THAT(general.err, Catch::Contains("no one holds the role French.general"));
  Run colonel = broken("\"French.general\"", "\"French.colonel\"");
  CHECK(colonel.code == 2);
  CHECK_THAT(colonel.err, Catch::Contains("players[1].roles[0]: 'French.colonel' is no role of this game (kind dog)"));
  Run map = Adjutant({"--db", dir.Sub("db"), "new", "b", "--scenario", F + "/dog/squares.json", "--map",
                      F + "/maps/nwol-waters.json"});
  CHECK(map.code == 2);
  CHECK_THAT(map.err, Catch::Contains("takes no --map"));
}

TEST_CASE("D12: the GA's directives in a battle: a unit put elsewhere, a commander killed — bad ones refused",
          "[dog][cli]") {
  Talavera t;
  auto directive = [&](const std::string& body) {
    std::ofstream(t.dir.Sub("d.json")) << R"({"reason": "test", "body_type": "DogDirective", "body": )" << body << "}";
    return t.adj({"directive", "talavera", t.dir.Sub("d.json")});
  };
  Run place = directive(R"({"body_type": "DogPlaceUnit", "body": {"unit": "BR-29", "x": 500, "y": 400, "facing": 170}})");
  INFO(place.err);
  REQUIRE(place.code == 0);
  CHECK_THAT(t.adj({"report", "battle", "talavera"}).out, Catch::Contains("BR-29 29th (Worcestershire) Foot: Infantry, Line at (500, 400) facing 170"));
  CHECK(directive(R"({"body_type": "DogCommanderKilled", "body": {"commander": "BR-HILL"}})").code == 0);
  Run again = directive(R"({"body_type": "DogCommanderKilled", "body": {"commander": "BR-HILL"}})");
  CHECK(again.code == 2);
  CHECK_THAT(again.err, Catch::Contains("already lost"));
  Run off = directive(R"({"body_type": "DogPlaceUnit", "body": {"unit": "BR-29", "x": 5000, "y": 400}})");
  CHECK(off.code == 2);
  CHECK_THAT(off.err, Catch::Contains("off the table"));
  Run nobody = directive(R"({"body_type": "DogPlaceUnit", "body": {"unit": "BR-99", "x": 50, "y": 40}})");
  CHECK(nobody.code == 2);
  CHECK_THAT(nobody.err, Catch::Contains("no unit 'BR-99'"));
}

TEST_CASE("D12: a side's report tells the move in words and keeps the other side's refused orders private — "
          "conform --keep leaves a case's battle to inspect",
          "[dog][cli]") {
  TempDir dir;
  // stand-11: the French column bound to stand has its advance refused on move 2 (D11).
  Run c = Adjutant({"conform", F + "/conformance/dog/stand-11.json", "--keep", dir.Sub("case")});
  INFO(c.out << c.err);
  REQUIRE(c.code == 0);
  // this move and the next; dog=7 refuses the path alone (a formation change would go on)
  const std::string refused = "FR-COL's orders refused: FR-COL must stand 2 more move(s): it walks none of its path (D11)";
  Run fr = Adjutant({"--db", dir.Sub("case"), "report", "battle", "case", "--side", "French"});
  INFO(fr.err);
  REQUIRE(fr.code == 0);
  CHECK_THAT(fr.out, Catch::Contains("What happened in move 2:") && Catch::Contains(refused));
  CHECK_THAT(fr.out, Catch::Contains("FR-2 moved 150 mm of 150 to (1200, 750), facing 0 (D2)"));
  Run br = Adjutant({"--db", dir.Sub("case"), "report", "battle", "case", "--side", "British"});
  CHECK_THAT(br.out, Catch::Contains("FR-2 moved 150 mm of 150") && !Catch::Contains("FR-COL's orders refused"));
  Run ga = Adjutant({"--db", dir.Sub("case"), "report", "battle", "case"});
  CHECK_THAT(ga.out, Catch::Contains(refused));
  // Move 1 as it stood: the failed charge and its control test.
  Run m1 = Adjutant({"--db", dir.Sub("case"), "report", "battle", "case", "--move", "1"});
  CHECK_THAT(m1.out, Catch::Contains("FR-COL tests control (charge failed to make contact): rolled 1 +1 +1 senior officer "
                                     "-1 enemy standing, +1 friends standing = 3: stand 2 (D11)"));
}
