// Rules versions (issue 5): each version stays callable; a game keeps the
// versions it was adjudicated under until the GA adopts others; an audit
// re-runs a turn under the versions it recorded (identical) or under
// another, showing the first event that version adjudicates differently.
#include <catch2/catch.hpp>

#include <flatbuffers/flatbuffers.h>

#include <fstream>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "replay/audit.h"
#include "replay/driver.h"
#include "rules/versions.h"
#include "schema/event_generated.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;

namespace {

// Brest, France's one on-map port, is blockaded by BR2SL and under a
// British embargo: two reductions of one city's income (SOW 2.5, 2.6).
const char* kScenario = R"({
  "name": "versions", "rulesets": ["sow"], "start": {"major": 1805, "minor": 1, "step": 1},
  "players": [{"person": "george", "roles": ["BR.monarch"]}, {"person": "napoleon", "roles": ["FR.monarch"]}],
  "sow": {
    "season_kind": "War",
    "states": [
      {"id": "BR", "name": "Great Britain", "nation": "Britain", "treasury_cc": 2000000, "manpower": 60000},
      {"id": "FR", "name": "France", "nation": "France", "treasury_cc": 3000000, "manpower": 150000}
    ],
    "cities": [
      {"name": "London", "nation": "Britain", "controller": "BR", "level": 5, "kind": "Port", "square": {"x": 10, "y": 10}, "sea_area": "ECH", "dockyards": 2},
      {"name": "Paris", "nation": "France", "controller": "FR", "level": 5, "kind": "Inland", "square": {"x": 20, "y": 20}},
      {"name": "Brest", "nation": "France", "controller": "FR", "level": 3, "kind": "Port", "square": {"x": 12, "y": 22}, "sea_area": "BIS", "dockyards": 2}
    ],
    "ships": [
      {"id": "BR2SL", "state": "BR", "type": "SL", "crew": 600, "marines": 150, "base": "London", "location": "Brest", "coastal": true, "mission": "IgnoreCommerce"}
    ],
    "relations": [{"a": "BR", "b": "FR", "relation": "War"}],
    "trade": [{"nation": "France", "partner": "Britain", "share_bp": 2000}]
  }
})";

struct Game {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  Game() {
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    REQUIRE(CreateSowGame(*db, "g", kScenario).ok());
    REQUIRE(Directive(*db, "g", "DeclareBlockade", R"({"by": "BR", "against": "FR"})").ok());
    REQUIRE(Directive(*db, "g", "DeclareEmbargo", R"({"by": "BR", "against": "FR"})").ok());
  }
  void Turn(const rules::RulesVersions* adopt = nullptr) {
    REQUIRE(replay::Adjudicate(*db, "g", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, adopt).ok());
  }
  int64_t BrestIncome() {
    auto s = Treasury(*db, "g");
    for (const auto& l : s.states.at("FR").statement) {
      if (l.item == "income" && l.subject == "Brest") return l.amount_cc;
    }
    FAIL("no income line for Brest");
    return 0;
  }
  // The rules version every PhaseStarted of the sow ruleset names, in order.
  std::vector<uint32_t> SowPhaseVersions() {
    std::vector<uint32_t> out;
    REQUIRE(db->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                if (e.event()->payload_type() == fb::Payload_PhaseStarted && e.event()->ruleset() &&
                    e.event()->ruleset()->str() == "sow") {
                  out.push_back(e.event()->rules_version());
                }
                return Status::Ok();
              }).ok());
    return out;
  }
};

// Brest: 18 Cr × level 3 = 54 Cr. The blockade takes 50% (France's only
// on-map port, 2.5); the embargo 10% (20% of France's trade is with
// Britain, whose every port the embargoing state holds: 2.6).
constexpr int64_t kBrestBase = 18 * 3 * 100;
constexpr int64_t kBrestUnderV1 = kBrestBase / 2 - kBrestBase / 2 / 10;  // 10% of what the blockade left
constexpr int64_t kBrestUnderV2 = kBrestBase / 2 - kBrestBase / 10;      // 10% of the whole

}  // namespace

TEST_CASE("rules versions: the table names every version, the newest of each ruleset, and parses", "[versions]") {
  CHECK(rules::LatestVersion("sow") == 13);
  CHECK(rules::LatestVersion("pate") == 12);
  CHECK(rules::LatestVersion("y1820") == 10);
  CHECK(rules::LatestVersion("dog") == 10);
  CHECK(rules::LatestVersion("chess") == 0);
  CHECK(rules::KnownVersion("sow", 1));
  CHECK(rules::KnownVersion("sow", 13));
  CHECK_FALSE(rules::KnownVersion("sow", 14));
  CHECK(rules::KnownVersion("pate", 12));
  CHECK_FALSE(rules::KnownVersion("pate", 13));
  // (and the versions of any kind the tests register: the race's)
  CHECK(rules::LatestVersions() ==
        rules::RulesVersions{{"sow", 13}, {"pate", 12}, {"y1820", 10}, {"dog", 10}, {"race", rules::LatestVersion("race")}});
  const rules::RulesVersions base{{"sow", 1}, {"pate", 1}};
  CHECK(*rules::ParseRulesVersions("2", base) == rules::RulesVersions{{"sow", 2}, {"pate", 2}, {"y1820", 2}, {"dog", 2},
                                                                         {"race", rules::KnownVersion("race", 2) ? 2u : 0u}});  // every ruleset with a version 2
  CHECK(*rules::ParseRulesVersions("1", rules::RulesVersions{{"sow", 4}, {"pate", 2}, {"y1820", 1}, {"dog", 1}}) ==
        rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 1}, {"dog", 1}, {"race", rules::KnownVersion("race", 1) ? 1u : 0u}});
  CHECK(*rules::ParseRulesVersions("3", base) == rules::RulesVersions{{"sow", 3}, {"pate", 3}, {"y1820", 3}, {"dog", 3},
                                                                         {"race", rules::KnownVersion("race", 3) ? 3u : 0u}});  // every ruleset has a version 3
  CHECK(*rules::ParseRulesVersions("sow=1,pate=1", rules::RulesVersions{{"sow", 2}, {"pate", 1}}) == rules::RulesVersions{{"sow", 1}, {"pate", 1}});
  CHECK(*rules::ParseRulesVersions("sow=2", base) == rules::RulesVersions{{"sow", 2}, {"pate", 1}});
  CHECK(*rules::ParseRulesVersions("pate=7", base) == rules::RulesVersions{{"sow", 1}, {"pate", 7}});
  CHECK(*rules::ParseRulesVersions("pate=8", base) == rules::RulesVersions{{"sow", 1}, {"pate", 8}});
  CHECK(*rules::ParseRulesVersions("pate=9", base) == rules::RulesVersions{{"sow", 1}, {"pate", 9}});
  CHECK(*rules::ParseRulesVersions("pate=10", base) == rules::RulesVersions{{"sow", 1}, {"pate", 10}});
  CHECK(*rules::ParseRulesVersions("pate=11", base) == rules::RulesVersions{{"sow", 1}, {"pate", 11}});
  CHECK(*rules::ParseRulesVersions("pate=12", base) == rules::RulesVersions{{"sow", 1}, {"pate", 12}});
  const std::string past = "pate=" + std::to_string(rules::LatestVersion("pate") + 1);  // one past the newest
  auto bad = rules::ParseRulesVersions(past, base);
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(), Catch::Contains("'" + past + "' is not known") && Catch::Contains("sow=2"));
  CHECK_FALSE(rules::ParseRulesVersions("99", base).ok());  // no ruleset has it
  CHECK_FALSE(rules::ParseRulesVersions("sow=", base).ok());
  CHECK_FALSE(rules::ParseRulesVersions("sow=1,", base).ok());
  CHECK(*rules::ParseRulesVersions("dog=2", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 0}, {"dog", 2}});
  CHECK(*rules::ParseRulesVersions("dog=3", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 0}, {"dog", 3}});
  CHECK(*rules::ParseRulesVersions("dog=4", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 0}, {"dog", 4}});
  CHECK(*rules::ParseRulesVersions("dog=5", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 0}, {"dog", 5}});
  CHECK(*rules::ParseRulesVersions("dog=6", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 0}, {"dog", 6}});
  CHECK(*rules::ParseRulesVersions("dog=7", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 0}, {"dog", 7}});
  CHECK(*rules::ParseRulesVersions("dog=8", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 0}, {"dog", 8}});
  CHECK(*rules::ParseRulesVersions("dog=9", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 0}, {"dog", 9}});
  CHECK(*rules::ParseRulesVersions("y1820=7", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 7}, {"dog", 0}});
  CHECK(*rules::ParseRulesVersions("y1820=8", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 8}, {"dog", 0}});
  CHECK(*rules::ParseRulesVersions("y1820=9", base) == rules::RulesVersions{{"sow", 1}, {"pate", 1}, {"y1820", 9}, {"dog", 0}});
  CHECK_FALSE(rules::ParseRulesVersions("y1820=" + std::to_string(rules::LatestVersion("y1820") + 1), base).ok());
  CHECK_FALSE(rules::ParseRulesVersions("dog=" + std::to_string(rules::LatestVersion("dog") + 1), base).ok());
  CHECK_FALSE(rules::ParseRulesVersions("chess=1", base).ok());
  CHECK_FALSE(rules::ParseRulesVersions("sow", base).ok());
}

TEST_CASE("SOW 2.5, 2.6 under rules versions 1 and 2: the reductions compound, or add", "[versions][sow][income]") {
  Game newest;
  newest.Turn();
  CHECK(newest.BrestIncome() == kBrestUnderV2);  // later versions keep 2's reading
  CHECK(newest.SowPhaseVersions() == std::vector<uint32_t>(4, rules::LatestVersion("sow")));

  Game old;
  const rules::RulesVersions v1{{"sow", 1}, {"pate", 1}};
  old.Turn(&v1);
  CHECK(old.BrestIncome() == kBrestUnderV1);
  CHECK(old.SowPhaseVersions() == std::vector<uint32_t>{1, 1, 1, 1});
}

TEST_CASE("rules versions: a game keeps the versions it ran under until the GA adopts others", "[versions]") {
  Game g;
  const rules::RulesVersions v1{{"sow", 1}, {"pate", 1}};
  g.Turn(&v1);
  g.Turn();  // no --rules-version: the game goes on under sow=1
  CHECK(g.BrestIncome() == kBrestUnderV1);
  const rules::RulesVersions v2{{"sow", 2}, {"pate", 1}};
  g.Turn(&v2);  // the GA adopts sow=2
  CHECK(g.BrestIncome() == kBrestUnderV2);
  g.Turn();
  CHECK(g.BrestIncome() == kBrestUnderV2);
  CHECK(g.SowPhaseVersions() == std::vector<uint32_t>{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2});
}

TEST_CASE("audit: each turn under the version it recorded is identical — under another, the first event it changes",
          "[versions][audit]") {
  Game g;
  const rules::RulesVersions v1{{"sow", 1}, {"pate", 1}};
  g.Turn(&v1);
  const Turn t1{1805, 1, 1};
  auto same = replay::AuditTurn(*g.db, "g", "main", t1);
  REQUIRE(same.ok());
  CHECK(same->identical);
  // The same versions named explicitly: still identical.
  auto named = replay::AuditTurn(*g.db, "g", "main", t1, rules::RulesVersions{{"sow", 1}, {"pate", 0}});
  REQUIRE(named.ok());
  CHECK(named->identical);
  // Under sow=2: Brest's income is the first event to differ.
  auto other = replay::AuditTurn(*g.db, "g", "main", t1, rules::RulesVersions{{"sow", 2}, {"pate", 0}});
  REQUIRE(other.ok());
  CHECK_FALSE(other->identical);
  CHECK(other->rule == "SOW 2.2");
  CHECK_THAT(other->recorded, Catch::Contains("Brest") && Catch::Contains(std::to_string(kBrestUnderV1)));
  CHECK_THAT(other->produced, Catch::Contains("Brest") && Catch::Contains(std::to_string(kBrestUnderV2)));
  // The version tags are the recorded ones: only the rule's outcome differs.
  CHECK_THAT(other->produced, Catch::Contains("\"rules_version\": 1"));
  bool found = false;
  REQUIRE(g.db->Read("g", "main", other->seq, other->seq, [&](const ledger::EventView& e) {
                found = true;
                CHECK(e.event()->payload_type() == fb::Payload_SowEvent);
                return Status::Ok();
              }).ok());
  CHECK(found);
}

TEST_CASE("dog=10: a new battle starts under the newest dog rules version", "[versions][cli][dog]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  REQUIRE(Adjutant({"--db", db, "new", "b", "--scenario", std::string(ADJUTANT_FIXTURES) + "/dog/talavera-brigade.json"}).code == 0);
  CHECK(rules::LatestVersion("dog") == 10);
  CHECK_THAT(Adjutant({"--db", db, "rules-versions", "b"}).out, Catch::Contains("dog=10  newest  in use by b/main"));
}

TEST_CASE("cli: rules-versions, adjudicate --rules-version and audit --all --rules-version", "[versions][cli]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  const std::string scenario = dir.Sub("scenario.json");
  {
    std::ofstream(scenario) << kScenario;
  }
  REQUIRE(Adjutant({"--db", db, "new", "g", "--scenario", scenario}).code == 0);
  for (const char* kind : {"DeclareBlockade", "DeclareEmbargo"}) {
    const std::string file = dir.Sub(std::string(kind) + ".json");
    std::ofstream(file) << R"({"reason": "HMG", "body_type": "SowDirective", "body": {"body_type": ")" << kind
                        << R"(", "body": {"by": "BR", "against": "FR"}}})";
    REQUIRE(Adjutant({"--db", db, "directive", "g", file}).code == 0);
  }
  Run list = Adjutant({"--db", db, "rules-versions", "g"});
  CHECK(list.code == 0);
  CHECK_THAT(list.out, Catch::Contains("sow=1\n") &&
                           Catch::Contains("sow=8\n    SOW 7.1, PATE 10: an enemy has been in a city") &&
                           Catch::Contains("sow=9\n    SOW 4.9, SOW 4.10: 4.9: a unit aboard a transport disbands where she is") &&
                           Catch::Contains("sow=10\n    SOW 6.1, 6.3, 2.2, 2.4, 4.9: the War Minister's supplies and the Naval Minister's stores") &&
                           Catch::Contains("sow=11\n    SOW 7.1: a unit that names its city (a garrison, a landing) has been in that city alone") &&
                           Catch::Contains("sow=12\n    SOW 4.1, PATE 2.3: a ship's build may not name a number someone holds a post on") &&
                           Catch::Contains("sow=13  newest  in use by g/main\n    SOW 3.5 (GA MoveUnit, DestroyUnit), SOW 4.9, PATE 9: a unit the GA moves is landed where he puts it"));
  // dog=10 is listed, newest, with the rules it changed and what (rules/versions.cc); dog=9 before it.
  CHECK_THAT(list.out, Catch::Contains("dog=2\n") &&
                           Catch::Contains("dog=3\n    D3, D5.4, D7.11: friends within 150 mm that fall back") &&
                           Catch::Contains("dog=4\n    D5.3, D7.8, D7.9, D7.15, D7.16: a unit charged this move") &&
                           Catch::Contains("dog=5\n    D5, D6.5: a shaken result has its effect whatever the test") &&
                           Catch::Contains("dog=6\n    D3: a unit that starts its move inside a wood") &&
                           Catch::Contains("dog=7\n    D2, D2.10, D5, D11, D13: a unit walks its path in 5 mm steps") &&
                           Catch::Contains("dog=8\n    D5.4: a unit that went back this move") &&
                           Catch::Contains("dog=9\n    D5.3, D5.4, D5.5, D5.7, D7.8, D7.9, D7.14, D7.15, D7.16, D7.18: a unit a charge reached this move") &&
                           Catch::Contains("dog=10  newest\n    D2.10: a unit turns where it stands"));
  // pate=12 and y1820=10 are listed, newest, with the rules they changed and what; the versions before them too.
  CHECK_THAT(list.out, Catch::Contains("pate=6\n    PATE 6.11, 6.8, 6.9: ships of one state arriving") &&
                           Catch::Contains("pate=7\n    PATE 6.4, 7.1, 6.6, SOW 4.8: a ship in a port's coastal waters ordered into its harbour") &&
                           Catch::Contains("pate=8\n    PATE 7.8, 2.6, 4.1, 4.2, 2.3: a prize (taken in battle or seized in port)") &&
                           Catch::Contains("pate=9\n    PATE 2.5, 2.3, 5.3, 9: the GA's new number for a part of a divided transport group") &&
                           Catch::Contains("pate=10\n    PATE 7.8, 2.1: a battle's losing transport groups make no escape roll") &&
                           Catch::Contains("pate=11\n    PATE 7.7, 6.9: at sea the +10% to windward is each ship's") &&
                           Catch::Contains("pate=12  newest\n    PATE 6.11, 6.7, 6.8, 3.5, 9: ships of allied states arriving from the Atlantic") &&
                           Catch::Contains("y1820=7\n    Y8.2: fleets of nations at war do not share a sea zone") &&
                           Catch::Contains("y1820=8\n    Y9.1, Y12.2, Y9.5: armies do not stand on the ground of a nation at war") &&
                           Catch::Contains("y1820=9\n    Y9.1, Y9.3, Y9.5: the armies a nation moves into one hostile province") &&
                           Catch::Contains("y1820=10  newest\n    Y9.1, Y9.3: the nation's armies already standing in a hostile province"));
  // An unknown version is refused, and nothing is adjudicated.
  const std::string unknown = "sow=" + std::to_string(rules::LatestVersion("sow") + 1);
  Run bad = Adjutant({"--db", db, "adjudicate", "g", "--rules-version", unknown});
  CHECK(bad.code != 0);
  CHECK_THAT(bad.err, Catch::Contains("--rules-version") && Catch::Contains("'" + unknown + "' is not known"));
  CHECK_THAT(Adjutant({"--db", db, "stats", "g"}).out, !Catch::Contains("PhaseStarted"));
  REQUIRE(Adjutant({"--db", db, "adjudicate", "g", "--rules-version", "sow=1"}).code == 0);
  REQUIRE(Adjutant({"--db", db, "adjudicate", "g"}).code == 0);
  CHECK_THAT(Adjutant({"--db", db, "rules-versions", "g"}).out, Catch::Contains("sow=1  in use by g/main"));
  Run audit = Adjutant({"--db", db, "audit", "g", "--all"});
  CHECK(audit.code == 0);
  CHECK_THAT(audit.out, Catch::Contains("turn 1805.1.1: ") && Catch::Contains("identical"));
  Run under = Adjutant({"--db", db, "audit", "g", "--all", "--rules-version", "sow=2"});
  CHECK(under.code == 3);
  CHECK_THAT(under.out, Catch::Contains("turn 1805.1.1: differs under sow=2 at seq ") && Catch::Contains("(SOW 2.2)"));
  Run json = Adjutant({"--db", db, "audit", "g", "--turn", "1805.1.2", "--rules-version", "sow=2", "--json"});
  CHECK(json.code == 3);
  CHECK_THAT(json.out, Catch::Contains("\"identical\": false") && Catch::Contains("\"rules_versions\": \"sow=2\""));
}

TEST_CASE("sow=4: a ship the GA strikes off takes her troops and leaves her followers free — sow=3 did not",
          "[versions][cli]") {
  // SOW 3.5: the GA's LoseShip.
  TempDir dir;
  const std::string fixtures = ADJUTANT_FIXTURES;
  const std::string lose = dir.Sub("lose.json");
  std::ofstream(lose) << R"({"reason": "Trafalgar", "body_type": "SowDirective", "body": {"body_type": "LoseShip",
                             "body": {"ship": "BR1FL", "crew_returning": 0}}})";
  for (const char* version : {"sow=3", "sow=4"}) {
    const std::string db = dir.Sub(std::string("db-") + version);
    REQUIRE(Adjutant({"--db", db, "new", "nwol", "--scenario", fixtures + "/scenarios/nwol-1805.json", "--map",
                      fixtures + "/maps/nwol-waters.json", "--seed", "1805"}).code == 0);
    // One phase under the version, so the directive is recorded under it.
    REQUIRE(Adjutant({"--db", db, "adjudicate", "nwol", "--phase", "--rules-version", version}).code == 0);
    REQUIRE(Adjutant({"--db", db, "directive", "nwol", lose}).code == 0);
    Run fleet = Adjutant({"--db", db, "report", "fleet", "nwol", "--json"});
    REQUIRE(fleet.code == 0);
    CHECK_THAT(fleet.out, !Catch::Contains("\"id\": \"BR1FL\""));
    if (std::string(version) == "sow=4") {
      CHECK_THAT(fleet.out, !Catch::Contains("\"attached_to\": \"BR1FL\""));
    } else {
      CHECK_THAT(fleet.out, Catch::Contains("\"attached_to\": \"BR1FL\""));  // the old behaviour, kept callable
    }
    CHECK(Adjutant({"--db", db, "audit", "nwol", "--all"}).code == 0);
  }
}

TEST_CASE("pate=2, PATE 2.3: an appointment takes effect for the orders after it in the same file — pate=1 read the "
          "roster once per file", "[versions][pate]") {
  const std::string file = OrderFile({PateItem("AppointOrder", R"({"ship": "BR2SL", "commander": "barham"})"),
                                      PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "NOS"})")});
  for (uint32_t pate : {1u, 2u}) {
    NwolDb g;
    if (pate == 1) {  // the game adopts pate=1 by a turn adjudicated under it
      const rules::RulesVersions v{{"sow", rules::LatestVersion("sow")}, {"pate", 1}};
      REQUIRE(replay::Adjudicate(*g.db, "g", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, &v).ok());
    }
    auto r = Order(*g.db, "g", "barham", file);
    REQUIRE(r.ok());
    REQUIRE(r->orders.size() == 2);
    CHECK(r->orders[0].status == "stands");
    if (pate == 2) {
      CHECK(r->orders[1].status == "stands");
    } else {
      CHECK(r->orders[1].status == "rejected");
      CHECK(r->orders[1].rule == "PATE 4.1");
    }
  }
}
