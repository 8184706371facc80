// A scenario's players, on every kind of game: each role is HOLDER.office,
// the office one of the kind's (GameKind::Offices) and the holder one of the
// scenario's; a person is named once, a role held by one person once.
// `adjutant new` refuses anything else with one message naming the player
// and role, and creates nothing — a
// mistyped role would otherwise be a role nothing answers to, its holder
// never asked for orders. Every reader of a role splits it alike
// (projections::Role::Parse, at the last '.').
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "projections/roster.h"
#include "support/kinds.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

// `adjutant new g` on `scenario_json` (and the kind's map) in a fresh database;
// `games` is how many games it holds afterwards.
struct NewRun {
  CliRun run;
  size_t games = 0;
};

NewRun New(const GameKind& kind, const std::string& scenario_json) {
  TempDir dir;
  auto db = ledger::Ledger::Open(dir.path() + "/db");
  REQUIRE(db.ok());
  const std::string scenario = dir.path() + "/scenario.json";
  std::ofstream(scenario) << scenario_json;
  std::vector<std::string> args = {"new", "g", "--scenario", scenario, "--seed", "7"};
  if (!kind.map_json.empty()) {
    const std::string map = dir.path() + "/map.json";
    std::ofstream(map) << kind.map_json;
    args.insert(args.end(), {"--map", map});
  }
  NewRun r;
  r.run = Cli(**db, args);
  auto games = (*db)->Games();
  REQUIRE(games.ok());
  r.games = games->size();
  return r;
}

// The scenario with `role` put first in the first player's roles.
std::string WithRole(const std::string& json, const std::string& role) {
  const std::regex roles(R"("roles"\s*:\s*\[)");
  std::smatch m;
  REQUIRE(std::regex_search(json, m, roles));
  const size_t at = static_cast<size_t>(m.position(0) + m.length(0));
  const size_t next = json.find_first_not_of(" \t\r\n", at);
  const bool empty = next != std::string::npos && json[next] == ']';
  return json.substr(0, at) + "\"" + role + "\"" + (empty ? "" : ", ") + json.substr(at);
}

// The first role of the scenario, split.
projections::Role FirstRole(const std::string& json) {
  const std::regex first(R"re("roles"\s*:\s*\[\s*"([^"]+)")re");
  std::smatch m;
  REQUIRE(std::regex_search(json, m, first));
  auto role = projections::Role::Parse(m[1].str());
  REQUIRE(role.has_value());
  return *role;
}

}  // namespace

TEST_CASE("Role::Parse splits HOLDER.office at the last dot", "[roles][new]") {
  auto r = projections::Role::Parse("A.B.commander");
  REQUIRE(r.has_value());
  CHECK(r->holder == "A.B");
  CHECK(r->title == "commander");
  CHECK(r->Name() == "A.B.commander");
  auto plain = projections::Role::Parse("BR.naval");
  REQUIRE(plain.has_value());
  CHECK(plain->holder == "BR");
  CHECK(plain->title == "naval");
  CHECK_FALSE(projections::Role::Parse("naval").has_value());
}

TEST_CASE("new, on every kind of game: a role of no office, of no holder, or held twice, or a player twice is "
          "refused and nothing is created",
          "[roles][new]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      const NewRun good = New(kind, kind.scenario_json);
      INFO(good.run.err);
      REQUIRE(good.run.code == 0);
      REQUIRE(good.games == 1);

      const projections::Role first = FirstRole(kind.scenario_json);
      struct Bad {
        std::string role, says;
      };
      const std::vector<Bad> bads = {
          {first.holder + ".nosuchoffice", "is no role of this game (kind " + kind.name + "): a role is HOLDER.office, the office one of"},
          {first.holder + "." + first.title + "x", "is no role of this game (kind " + kind.name + ")"},
          {first.title, "is no role of this game (kind " + kind.name + ")"},
          {"Nobody." + first.title, "and the scenario has no"},
          {first.holder + "x." + first.title, "and the scenario has no"},
      };
      for (const Bad& bad : bads) {
        const NewRun r = New(kind, WithRole(kind.scenario_json, bad.role));
        INFO(bad.role << ": " << r.run.err);
        CHECK(r.run.code != 0);
        CHECK(r.games == 0);
        CHECK_THAT(r.run.err, Catch::Contains(".roles[0]: '" + bad.role + "'"));
        CHECK_THAT(r.run.err, Catch::Contains(bad.says));
      }

      // The first player again, with no role.
      const std::regex person(R"re("person"\s*:\s*"([^"]+)")re");
      std::smatch m;
      REQUIRE(std::regex_search(kind.scenario_json, m, person));
      const std::regex players(R"("players"\s*:\s*\[)");
      std::smatch p;
      REQUIRE(std::regex_search(kind.scenario_json, p, players));
      const size_t at = static_cast<size_t>(p.position(0) + p.length(0));
      const std::string twice = kind.scenario_json.substr(0, at) + R"({"person": ")" + m[1].str() + R"(", "roles": []}, )" +
                                kind.scenario_json.substr(at);
      const NewRun r = New(kind, twice);
      INFO(r.run.err);
      CHECK(r.run.code != 0);
      CHECK(r.games == 0);
      CHECK_THAT(r.run.err, Catch::Contains("'" + m[1].str() + "' appears twice"));

      // A role is one person's: the first role twice in the first player's
      // list, or held by another player too.
      const std::string role = first.Name();
      const NewRun again = New(kind, WithRole(kind.scenario_json, role));
      INFO(again.run.err);
      CHECK(again.run.code != 0);
      CHECK(again.games == 0);
      CHECK_THAT(again.run.err, Catch::Contains("players[0].roles[1]: '" + role + "' appears twice in players[0].roles"));
      const std::string shared = kind.scenario_json.substr(0, at) + R"({"person": "newcomer", "roles": [")" + role +
                                 R"("]}, )" + kind.scenario_json.substr(at);
      const NewRun two = New(kind, shared);
      INFO(two.run.err);
      CHECK(two.run.code != 0);
      CHECK(two.games == 0);
      CHECK_THAT(two.run.err, Catch::Contains("players[1].roles[0]: '" + role + "' is players[0] ('newcomer')'s too: a "
                                              "role is one person's"));
    }
  }
}

TEST_CASE("new: an NWOL scenario without its opening position lists no states or ships, so only the office of a "
          "role is checked",
          "[roles][new]") {
  GameKind bare;  // no map
  bare.name = "nwol";
  std::string json;
  {
    std::ifstream in(std::string(ADJUTANT_FIXTURES) + "/scenarios/trafalgar.json");
    json.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  REQUIRE_FALSE(std::regex_search(json, std::regex(R"("sow"\s*:)")));  // no opening position
  const NewRun good = New(bare, json);
  INFO(good.run.err);
  CHECK(good.run.code == 0);
  CHECK(good.games == 1);
  const NewRun typo = New(bare, WithRole(json, "BR.admiral"));
  CHECK(typo.run.code != 0);
  CHECK(typo.games == 0);
  CHECK_THAT(typo.run.err, Catch::Contains("players[0].roles[0]: 'BR.admiral' is no role of this game (kind nwol): a role is "
                                           "HOLDER.office, the office one of monarch, prime, treasury, war, naval, "
                                           "foreign, commander, deputy"));
}
