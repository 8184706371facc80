// End to end: playing a sow game with the built binary — passwords,
// orders, directives, adjudication and the Treasury Ministry report.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "support/build_paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using adjutant::testing::Adjutant;
using adjutant::testing::Lines;
using adjutant::testing::Run;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

const char* kScenario = R"({
  "name": "cli test", "rulesets": ["sow"], "start": {"major": 1805, "minor": 1, "step": 1},
  "players": [{"person": "rose", "roles": ["BR.treasury"]}, {"person": "napoleon", "roles": ["FR.monarch"]}],
  "sow": {
    "states": [{"id": "BR", "name": "Great Britain", "nation": "Britain", "treasury_cc": 1000000, "manpower": 50000},
               {"id": "FR", "name": "France", "nation": "France", "treasury_cc": 1000000, "manpower": 90000}],
    "cities": [{"name": "London", "nation": "Britain", "controller": "BR", "level": 5, "kind": "Port", "square": {"x": 1, "y": 1}, "dockyards": 1},
               {"name": "Paris", "nation": "France", "controller": "FR", "level": 5, "square": {"x": 9, "y": 9}}],
    "relations": [{"a": "BR", "b": "FR", "relation": "War"}]
  }
})";

struct Game {
  TempDir dir;
  std::string db = dir.Sub("db");
  Game() {
    Write(dir.Sub("s.json"), kScenario);
    Write(dir.Sub("pw"), "correct horse\n");
    Write(dir.Sub("bad"), "wrong horse\n");
    REQUIRE(Do({"new", "g", "--scenario", dir.Sub("s.json"), "--seed", "5"}).code == 0);
  }
  Run Do(std::vector<std::string> args, std::vector<std::string> env = {}) {
    args.insert(args.begin(), {"--db", db});
    return Adjutant(args, env);
  }
  std::string Orders(const std::string& name, const std::string& body) {
    std::string path = dir.Sub(name);
    Write(path, body);
    return path;
  }
};

const char* kBuild = R"({"orders": [
  {"body_type": "SowOrder", "body": {"state": "BR", "body_type": "BuildUnitOrder",
   "body": {"city": "London", "type": "IN", "men": 2000, "id": "BR-IN-1"}}},
  {"body_type": "SowOrder", "body": {"state": "BR", "body_type": "BuildUnitOrder",
   "body": {"city": "London", "type": "IN", "men": 9000, "id": "BR-IN-2"}}}
]})";

}  // namespace

TEST_CASE("passwords guard orders", "[cli][sow]") {
  Game g;
  std::string orders = g.Orders("o.json", kBuild);
  auto before = g.Do({"log", "g", "--json"});
  SECTION("no password set yet, or a wrong one: one answer, nothing recorded") {
    auto none = g.Do({"order", "g", orders, "--as", "rose", "--password-file", g.dir.Sub("pw")});
    CHECK(none.code == 2);
    CHECK(none.err == "adjutant order: wrong person or password for game 'g'\n");
    REQUIRE(g.Do({"password", "g", "--person", "rose", "--password-file", g.dir.Sub("pw")}).code == 0);
    auto wrong = g.Do({"order", "g", orders, "--as", "rose", "--password-file", g.dir.Sub("bad")});
    CHECK(wrong.err == none.err);
    auto stranger = g.Do({"order", "g", orders, "--as", "nobody", "--password-file", g.dir.Sub("pw")});
    CHECK(stranger.err == none.err);
    CHECK(Lines(g.Do({"log", "g"}).out).size() == 2);  // GameCreated and the password
  }
  SECTION("the password from ADJUTANT_PASSWORD; only its hash is in the log") {
    REQUIRE(g.Do({"password", "g", "--person", "rose"}, {"ADJUTANT_PASSWORD=correct horse"}).code == 0);
    auto log = g.Do({"log", "g", "--json"});
    CHECK_THAT(log.out, Catch::Contains("$argon2id$"));
    CHECK_THAT(log.out, !Catch::Contains("correct horse"));
    auto r = g.Do({"order", "g", orders, "--as", "rose"}, {"ADJUTANT_PASSWORD=correct horse"});
    CHECK(r.code == 0);
  }
  SECTION("no password source at all") {
    auto r = g.Do({"password", "g", "--person", "rose"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("no password: give --password-file FILE, set ADJUTANT_PASSWORD"));
    Write(g.dir.Sub("short"), "abc\n");
    CHECK_THAT(g.Do({"password", "g", "--person", "rose", "--password-file", g.dir.Sub("short")}).err,
               Catch::Contains("at least 8 characters"));
  }
  SECTION("a person the GA did not mean is named first, before his password or his file is asked of") {
    Write(g.dir.Sub("short"), "abc\n");
    const std::string ghost = "adjutant password: --person: there is no person 'ghost' in game 'g'\n";
    auto short_pw = g.Do({"password", "g", "--person", "ghost", "--password-file", g.dir.Sub("short")});
    CHECK(short_pw.code == 2);
    CHECK(short_pw.err == ghost);
    auto no_source = g.Do({"password", "g", "--person", "ghost"});
    CHECK(no_source.code == 2);
    CHECK(no_source.err == ghost);
    const std::string bad = g.Orders("bad.json", "{not json");
    auto order = g.Do({"order", "g", bad, "--for", "ghost"});
    CHECK(order.code == 2);
    CHECK(order.err == "adjutant order: --for: there is no person 'ghost' in game 'g'\n");
    // One who is there has his file's fault named; a player (--as) is told
    // nothing of who exists.
    auto rose = g.Do({"order", "g", bad, "--for", "rose"});
    CHECK(rose.code == 2);
    CHECK_THAT(rose.err, Catch::Contains("bad.json"));
    auto as = g.Do({"order", "g", orders, "--as", "ghost", "--password-file", g.dir.Sub("pw")});
    CHECK(as.err == "adjutant order: wrong person or password for game 'g'\n");
    CHECK(g.Do({"log", "g", "--json"}).out == before.out);
  }
}

TEST_CASE("a turn played from the command line", "[cli][sow]") {
  Game g;
  REQUIRE(g.Do({"password", "g", "--person", "rose", "--password-file", g.dir.Sub("pw")}).code == 0);
  auto sent = g.Do({"order", "g", g.Orders("o.json", kBuild), "--as", "rose", "--password-file", g.dir.Sub("pw"), "--json"});
  REQUIRE(sent.code == 0);
  CHECK_THAT(sent.out, Catch::Contains("\"slot\": \"BR/build/BR-IN-1\",\"status\": \"stands\""));
  auto adj = g.Do({"adjudicate", "g", "--json"});
  REQUIRE(adj.code == 0);
  CHECK_THAT(adj.out, Catch::Contains("\"name\": \"income\"") && Catch::Contains("\"name\": \"construction\"") &&
                          Catch::Contains("\"rejected\": 1"));
  auto rep = g.Do({"report", "treasury", "g", "--state", "BR"});
  REQUIRE(rep.code == 0);
  CHECK_THAT(rep.out, Catch::StartsWith("Treasury Ministry report: Great Britain (BR), Spring 1805, turn 1"));
  CHECK_THAT(rep.out, Catch::Contains("SOW 4.7: IN units hold at most 4000 men"));
  CHECK_THAT(rep.out, Catch::Contains("BR-IN-1       IN  London        1 of 3 war turns"));
  auto json = g.Do({"report", "treasury", "g", "--state", "BR", "--json"});
  CHECK_THAT(json.out, Catch::Contains("\"item\": \"income\",\"subject\": \"London\"") &&
                           Catch::Contains("\"war_turns_done\": 1,\"war_turns_needed\": 3"));
  // The report as it stood at the end of turn 1, after turn 2 ran.
  REQUIRE(g.Do({"adjudicate", "g"}).code == 0);
  auto then = g.Do({"report", "treasury", "g", "--state", "BR", "--turn", "1805.1.1"});
  CHECK(then.out == rep.out.substr(0, rep.out.find("as of")) + then.out.substr(then.out.find("as of")));
  CHECK_THAT(then.out, Catch::Contains("Spring 1805, turn 1"));
  CHECK_THAT(g.Do({"report", "treasury", "g", "--state", "BR"}).out, Catch::Contains("Spring 1805, turn 2"));
  CHECK(g.Do({"verify", "g"}).code == 0);
}

TEST_CASE("directives from files — bad ones change nothing", "[cli][sow]") {
  Game g;
  std::string good = g.Orders("d.json", R"({"reason": "war declared by the Admiralty",
    "body_type": "SowDirective", "body": {"body_type": "DeclareBlockade", "body": {"by": "BR", "against": "FR", "notice": "HMG to the Emperor"}}})");
  auto r = g.Do({"directive", "g", good});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("recorded directive from " + good));
  std::string refused = g.Orders("e.json", R"({"reason": "x",
    "body_type": "SowDirective", "body": {"body_type": "DeclareEmbargo", "body": {"by": "BR", "against": "XX"}}})");
  auto e = g.Do({"directive", "g", refused});
  CHECK(e.code == 2);
  CHECK(e.err == "adjutant directive: " + refused + ": against: there is no state 'XX' in this game\n");
  std::string broken = g.Orders("f.json", "{\n  \"reason\": \"x\",\n  \"body_type\": \"NoSuchThing\"\n}");
  auto b = g.Do({"directive", "g", broken});
  CHECK(b.code == 2);
  CHECK_THAT(b.err, Catch::StartsWith("adjutant directive: " + broken + ":3:"));
  CHECK(Lines(g.Do({"log", "g"}).out).size() == 2);
  // FILE "-": the directive from standard input (a script's pipe; the desk).
  auto piped = adjutant::testing::AdjutantWithInput(
      {"--db", g.db, "directive", "g", "-"},
      R"({"reason": "peace", "body_type": "SowDirective", "body": {"body_type": "DeclareEmbargo", "body": {"by": "FR", "against": "BR"}}})");
  CHECK(piped.code == 0);
  CHECK_THAT(piped.out, Catch::StartsWith("recorded directive from - on g/main"));
  auto bad_pipe = adjutant::testing::AdjutantWithInput({"--db", g.db, "directive", "g", "-"}, "{\n  \"reason\": 1,\n");
  CHECK(bad_pipe.code == 2);
  CHECK_THAT(bad_pipe.err, Catch::StartsWith("adjutant directive: stdin:"));
  CHECK(Lines(g.Do({"log", "g"}).out).size() == 3);
}

TEST_CASE("adjudication errors and the report's errors", "[cli][sow]") {
  Game g;
  CHECK_THAT(g.Do({"report", "treasury", "g", "--state", "XX"}).err, Catch::Contains("no state 'XX' (states: BR, FR)"));
  CHECK_THAT(g.Do({"report", "navy", "g", "--state", "BR"}).err, Catch::Contains("no report 'navy'"));
  CHECK_THAT(g.Do({"report", "treasury", "g", "--state", "BR", "--turn", "1806.1.1"}).err, Catch::Contains("has not begun"));
  CHECK(g.Do({"adjudicate", "g", "--turns", "0"}).code == 2);
  CHECK(g.Do({"adjudicate", "g", "--phase", "--turns", "2"}).code == 2);
  REQUIRE(g.Do({"adjudicate", "g", "--phase"}).code == 0);
  REQUIRE(g.Do({"password", "g", "--person", "rose", "--password-file", g.dir.Sub("pw")}).code == 0);
  auto mid = g.Do({"order", "g", g.Orders("o.json", kBuild), "--as", "rose", "--password-file", g.dir.Sub("pw")});
  CHECK(mid.code == 4);
  CHECK_THAT(mid.err, Catch::Contains("is being adjudicated (phase 1 of 4 done)"));
}

TEST_CASE("the bundled 1805 scenario plays its first three turns as PLAY.md says", "[cli][sow][fixture]") {
  // PATE 3.1: the naval phases run in the same turn after the economy's.
  TempDir dir;
  std::string db = dir.Sub("db");
  const std::string fixtures = ADJUTANT_FIXTURES;
  auto adj = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    return Adjutant(args);
  };
  REQUIRE(adj({"new", "nwol", "--scenario", fixtures + "/scenarios/nwol-1805.json", "--map",
               fixtures + "/maps/nwol-waters.json", "--seed", "1805"}).code == 0);
  CHECK_THAT(adj({"log", "nwol", "--kind", "MapDefined"}).out, Catch::Contains("31 sea areas, 73 ports"));
  const std::vector<std::pair<std::string, std::string>> senders = {
      {"-BR.orders.json", "pitt"},   {"-BR-naval.orders.json", "barham"}, {"-BR-war.orders.json", "castlereagh"},
      {"-FR.orders.json", "gaudin"}, {"-FR-war.orders.json", "berthier"}, {"-SP.orders.json", "soler"},
      {"-BR1FL.orders.json", "nelson"}};
  for (const auto& [suffix, person] : senders) {
    Write(dir.Sub(person), person + "-1805\n");
    REQUIRE(adj({"password", "nwol", "--person", person, "--password-file", dir.Sub(person)}).code == 0);
  }
  const std::vector<std::vector<std::string>> turns = {
      {"t1-01-blockade-france.directive.json", "t1-02-BR.orders.json", "t1-03-BR-naval.orders.json",
       "t1-04-FR.orders.json", "t1-05-SP.orders.json", "t1-06-BR1FL.orders.json"},
      {"t2-01-blockade-spain.directive.json", "t2-02-BR.orders.json", "t2-03-BR-war.orders.json",
       "t2-04-BR-naval.orders.json", "t2-05-FR.orders.json", "t2-06-FR-war.orders.json", "t2-07-SP.orders.json",
       "t2-08-BR1FL.orders.json"},
      {"t3-01-dominica-landing.directive.json", "t3-02-dominica-garrison.directive.json",
       "t3-03-dominica-captured.directive.json", "t3-04-BR.orders.json", "t3-05-FR.orders.json",
       "t3-06-SP.orders.json"}};
  for (const auto& files : turns) {
    for (const auto& f : files) {
      std::string path = fixtures + "/orders/nwol-1805/" + f;
      Run r;
      if (f.find(".directive.") != std::string::npos) {
        r = adj({"directive", "nwol", path});
      } else {
        std::string person;
        for (const auto& [suffix, p] : senders) {
          if (f.size() > suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0) person = p;
        }
        REQUIRE_FALSE(person.empty());
        r = adj({"order", "nwol", path, "--as", person, "--password-file", dir.Sub(person)});
      }
      INFO(f << ": " << r.err);
      REQUIRE(r.code == 0);
    }
    REQUIRE(adj({"adjudicate", "nwol"}).code == 0);
  }
  // PLAY.md's balances after turn 3.
  CHECK_THAT(adj({"report", "treasury", "nwol", "--state", "BR", "--json"}).out, Catch::Contains("\"balance_cc\": 3017048,"));
  CHECK_THAT(adj({"report", "treasury", "nwol", "--state", "FR", "--json"}).out, Catch::Contains("\"balance_cc\": 2096510,"));
  CHECK_THAT(adj({"report", "treasury", "nwol", "--state", "SP", "--json"}).out, Catch::Contains("\"balance_cc\": 833410,"));
  CHECK(Lines(adj({"log", "nwol", "--kind", "OrderRejected"}).out).size() == 5);
  CHECK(adj({"verify", "nwol"}).code == 0);
  // PLAY.md's "At sea": Nelson's squadron, copied orders and all, and the storms.
  std::string moved = adj({"log", "nwol", "--kind", "ShipMoved"}).out;
  CHECK_THAT(moved, Catch::Contains("BR9SL -> SOA (at sea, tactical area 4) PATE 6.2: from WMD (tactical area 1) to SOA "
                                    "(tactical area 4) through the coastal waters of Gibraltar"));
  CHECK_THAT(moved, Catch::Contains("BR1FL -> Cadiz (coastal waters)"));
  std::string rated = adj({"log", "nwol", "--kind", "ShipRated"}).out;
  CHECK_THAT(rated, Catch::Contains("BR5SL (PATE 8): storm in IBC: 1 point(s) of damage, 30 crew lost"));
  CHECK_THAT(rated, Catch::Contains("BR6SL (PATE 8): storm in BIS"));
  CHECK_THAT(adj({"report", "events", "nwol", "--player", "nelson", "--turn", "1805.1.2"}).out,
             Catch::Contains("BR1FL (Victory) at Cadiz: in contact with SP1FL, SP6SL, SP7SL in the harbour"));
}

TEST_CASE("a scenario and a naval map that disagree are refused", "[cli][pate]") {
  // PATE 1.1, 1.2 (rules/pate/RULES.md): the naval map recorded with the game is checked against the scenario, and a ship in a port must say which part of it she is in.
  TempDir dir;
  const std::string fixtures = ADJUTANT_FIXTURES;
  std::ifstream in(fixtures + "/scenarios/nwol-1805.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Move Brest to the wrong sea area.
  std::string brest = "\"name\": \"Brest\"";
  size_t at = text.find(brest);
  REQUIRE(at != std::string::npos);
  size_t area = text.find("\"sea_area\": \"ECH\"", at);
  REQUIRE(area != std::string::npos);
  text.replace(area, std::string("\"sea_area\": \"ECH\"").size(), "\"sea_area\": \"NOS\"");
  Write(dir.Sub("s.json"), text);
  auto r = Adjutant({"--db", dir.Sub("db"), "new", "g", "--scenario", dir.Sub("s.json"), "--map",
                     fixtures + "/maps/nwol-waters.json"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains(".sea_area: Brest opens on ECH on the naval map, not 'NOS' (PATE 1.3)"));
  CHECK(Adjutant({"--db", dir.Sub("db"), "games", "--json"}).out == "{\"games\": []}\n");
}

TEST_CASE("adjutant map checks a naval map", "[cli][pate]") {
  TempDir dir;
  auto good = Adjutant({"map", std::string(ADJUTANT_FIXTURES) + "/maps/nwol-waters.json"});
  CHECK(good.code == 0);
  CHECK_THAT(good.out, Catch::Contains("a sound map: Europe 21 sea areas") && Catch::Contains("3 strait ports"));
  Write(dir.Sub("bad.json"), R"({"sea_areas": [{"code": "AAA", "name": "a", "east": ["BBB"],
    "winds": [{"chance_pct": 100}]}, {"code": "BBB", "name": "b", "winds": [{"chance_pct": 100}]}]})");
  auto bad = Adjutant({"map", dir.Sub("bad.json")});
  CHECK(bad.code == 2);
  CHECK(bad.err == "adjutant map: " + dir.Sub("bad.json") +
                       ": sea_areas[0].east[0]: BBB lies east of AAA, but AAA is not in BBB's west list\n");
}

TEST_CASE("PATE 2.2, 2.7: ship ids, and crews and Marines within their limits", "[cli][pate]") {
  // PATE 2.1: the ship kinds (FL, SL, FR, TR) are the last part of a ship's id.
  TempDir dir;
  auto scenario = [](const std::string& ship) {
    return std::string(R"({"name": "ids", "rulesets": ["sow"], "sow": {
      "states": [{"id": "BR", "nation": "Britain"}],
      "cities": [{"name": "London", "nation": "Britain", "controller": "BR", "kind": "Port", "sea_area": "NOS"}],
      "ships": [)") + ship + "]}}";
  };
  Write(dir.Sub("ok.json"), scenario(R"({"id": "BR1FL", "state": "BR", "type": "FL", "crew": 800, "location": "London",
    "name": "Victory", "quality": "VeryGood", "experience": 11, "marines": 200, "rigging": 2})"));
  REQUIRE(Adjutant({"--db", dir.Sub("db"), "new", "g", "--scenario", dir.Sub("ok.json")}).code == 0);
  auto fleet = Adjutant({"--db", dir.Sub("db"), "report", "fleet", "g", "--json"});
  CHECK_THAT(fleet.out, Catch::Contains(R"("id": "BR1FL","name": "Victory","state": "BR","type": "FL","location": "London","position": "coastal waters")"));
  CHECK_THAT(fleet.out, Catch::Contains(R"("quality": "VeryGood","experience": 11,"morale": 2,"stores": 0,"crew": 800,"marines": 200)"));
  for (const auto& [ship, why] : std::vector<std::pair<std::string, std::string>>{
           {R"({"id": "BRSL", "state": "BR", "type": "SL"})", "'BRSL' is not BR, a number and SL (PATE 2.2, e.g. BR1SL)"},
           {R"({"id": "BR01SL", "state": "BR", "type": "SL"})", "'BR01SL' is not BR, a number and SL"},
           {R"({"id": "BR1FL", "state": "BR", "type": "SL"})", "'BR1FL' is not BR, a number and SL"},
           {R"({"id": "BR1SL", "state": "BR", "type": "SL", "hull": 5})", "5 is sunk"},
           {R"({"id": "BR1TR", "state": "BR", "type": "TR", "capacity": 2000, "marines": 10})", "no marines (PATE 2.4)"},
           {R"({"id": "BR1FL", "state": "BR", "type": "FL", "crew": 1000})", "at most 800 crew besides its Marines (PATE 2.7)"},
           {R"({"id": "BR1FR", "state": "BR", "type": "FR", "frigates": 2, "marines": 60})", "holds 0..50 Marines (PATE 2.7)"}}) {
    Write(dir.Sub("bad.json"), scenario(ship));
    auto r = Adjutant({"--db", dir.Sub("db2"), "new", "g", "--scenario", dir.Sub("bad.json")});
    INFO(ship);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("sow.ships[0].") && Catch::Contains(why));
  }
}

TEST_CASE("a report's columns line up with accented names (widths in characters, not bytes)", "[cli][pate]") {
  TempDir dir;
  const std::string fixtures = ADJUTANT_FIXTURES;
  std::string scenario = Slurp(fixtures + "/scenarios/nwol-1805.json");
  const auto at = scenario.find("Santisima Trinidad");
  REQUIRE(at != std::string::npos);
  scenario.replace(at, 18, "Sant\u00edsima Trinidad");  // JSON escape: the name holds a two-byte UTF-8 letter
  std::ofstream(dir.Sub("scenario.json")) << scenario;
  REQUIRE(Adjutant({"--db", dir.Sub("db"), "new", "nwol", "--scenario", dir.Sub("scenario.json")}).code == 0);
  auto sp = Adjutant({"--db", dir.Sub("db"), "report", "fleet", "nwol", "--state", "SP"});
  REQUIRE(sp.code == 0);
  // The column after the name ("Cadiz", the location) starts at the same
  // character on the accented ship's line as on the header's.
  auto column_of = [](const std::string& line, const std::string& what) {
    const size_t byte = line.find(what);
    size_t chars = 0;
    for (size_t i = 0; i < byte && i < line.size(); ++i) chars += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80;
    return byte == std::string::npos ? std::string::npos : chars;
  };
  std::string header, trinidad;
  for (const auto& l : Lines(sp.out)) {
    if (l.rfind("id ", 0) == 0) header = l;
    if (l.find("SP1FL") != std::string::npos) trinidad = l;
  }
  REQUIRE_FALSE(header.empty());
  REQUIRE_THAT(trinidad, Catch::Contains("Sant\xc3\xadsima Trinidad"));
  CHECK(column_of(trinidad, "Cadiz") == column_of(header, "location"));
}

TEST_CASE("the GA's fleet report of the 1805 position", "[cli][pate]") {
  // PATE 2.2: ship ids, names and ratings in the report.
  TempDir dir;
  const std::string fixtures = ADJUTANT_FIXTURES;
  REQUIRE(Adjutant({"--db", dir.Sub("db"), "new", "nwol", "--scenario", fixtures + "/scenarios/nwol-1805.json"}).code == 0);
  auto all = Adjutant({"--db", dir.Sub("db"), "report", "fleet", "nwol"});
  REQUIRE(all.code == 0);
  CHECK_THAT(all.out, Catch::StartsWith("Fleet report: nwol/main, Spring 1805, turn 1 (91 ships)"));
  auto br = Adjutant({"--db", dir.Sub("db"), "report", "fleet", "nwol", "--state", "BR"});
  CHECK_THAT(br.out, Catch::Contains("(29 ships)"));
  CHECK(Lines(br.out).size() == 31);
  CHECK_THAT(Adjutant({"--db", dir.Sub("db"), "report", "navy", "nwol"}).err, Catch::Contains("reports: treasury, fleet"));
}

// Issue 20: the text order form through the built binary.
TEST_CASE("orders in the text form: read-orders shows them, order records them as the JSON form would, a mistake "
          "records nothing",
          "[cli][sow][order-text]") {
  Game g, twin;
  for (Game* x : {&g, &twin}) {
    REQUIRE(x->Do({"password", "g", "--person", "rose", "--password-file", x->dir.Sub("pw")}).code == 0);
  }
  const std::string json = g.Orders("o.json", kBuild);
  auto shown = g.Do({"read-orders", "g", json});
  INFO(shown.err);
  REQUIRE(shown.code == 0);
  CHECK(shown.out == "BR build IN 2000 at London id BR-IN-1\nBR build IN 9000 at London id BR-IN-2\n");
  const std::string text = twin.Orders("o.txt", "# Rose's builds\nBR BUILD in 2000 AT London ID BR-IN-1\nBR raise IN men 9000 at London id BR-IN-2\n");
  // Received at one time (--now): the events compared below are then the same to the byte.
  auto a = g.Do({"order", "g", json, "--as", "rose", "--password-file", g.dir.Sub("pw"), "--now", "2026-12-06T19:00Z"});
  auto b = twin.Do({"order", "g", text, "--as", "rose", "--password-file", twin.dir.Sub("pw"), "--now", "2026-12-06T19:00Z"});
  INFO(a.out << a.err << b.out << b.err);
  REQUIRE(a.code == 0);
  REQUIRE(b.code == 0);
  CHECK(a.out == b.out);
  // The same events: their orders' JSON, line by line, in both logs.
  auto la = g.Do({"log", "g", "--kind", "OrderSubmitted", "--json"});
  auto lb = twin.Do({"log", "g", "--kind", "OrderSubmitted", "--json"});
  REQUIRE(la.code == 0);
  CHECK(Lines(la.out).size() == 2);
  CHECK(la.out == lb.out);
  // A misspelt word: exit 2, the file, line, column and nearest word; nothing appended.
  const std::string before = twin.Do({"log", "g", "--json"}).out;
  const std::string bad = twin.Orders("bad.txt", "BR build IN 2000 at London id BR-IN-3\nBR biuld IN 10 at London id BR-IN-4\n");
  auto refused = twin.Do({"order", "g", bad, "--as", "rose", "--password-file", twin.dir.Sub("pw")});
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Catch::Contains(bad + ":2:4: 'biuld' is not an order word of this game; did you mean 'build'?"));
  CHECK(twin.Do({"log", "g", "--json"}).out == before);
  // A terminal's escape in a comment: refused by its line, not echoed to the GA's terminal.
  const std::string esc = twin.Orders("esc.txt", "BR build IN 2000 at London id BR-IN-3\n# \x1B]0;owned\x07\n");
  auto escaped = twin.Do({"order", "g", esc, "--as", "rose", "--password-file", twin.dir.Sub("pw")});
  CHECK(escaped.code == 2);
  CHECK(escaped.err == "adjutant order: " + esc + ":2:3: U+001B (a control character) is not allowed in order text\n");
  CHECK(twin.Do({"log", "g", "--json"}).out == before);
}
