// A y1820 turn end to end on the toy map (tests/support/y1820_game.h):
// orders sent, turns adjudicated by the driver, the state folded back.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "projections/y1820.h"
#include "replay/driver.h"
#include "rules/versions.h"
#include "rules/y1820/tables.h"
#include "schema/codec.h"
#include "support/pate_game.h"
#include "support/y1820_game.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

bool Has(const std::vector<std::string>& events, const std::string& needle) {
  return std::any_of(events.begin(), events.end(), [&](const std::string& e) { return e.find(needle) != std::string::npos; });
}

int Count(const std::vector<std::string>& events, const std::string& needle) {
  return static_cast<int>(
      std::count_if(events.begin(), events.end(), [&](const std::string& e) { return e.find(needle) != std::string::npos; }));
}

}  // namespace

TEST_CASE("Y12.4: X and Y announce non-aggression and exchange at turn 8 — from turn 9 both are in force", "[y1820]") {
  Y1820Db g(ToyScenario(), ToyMap());
  REQUIRE(g.Adjudicate(8).ok());  // turn 0 and turns 1..7
  REQUIRE(g.State().turns_done == 8);
  for (const auto& [person, other] : {std::pair{"alice", "BBB"}, std::pair{"bob", "AAA"}}) {
    REQUIRE(g.Orders(person, {Y1820Db::Item("Y1820Treaty", R"({"nation": ")" + std::string(other) + R"(", "kind": "non-aggression"})"),
                              Y1820Db::Item("Y1820Treaty", R"({"nation": ")" + std::string(other) + R"(", "kind": "exchange"})")})
                .ok());
  }
  REQUIRE(g.Adjudicate().ok());  // turn 8: announced, not yet in force
  auto s8 = g.State();
  CHECK(s8.treaties.empty());
  CHECK(s8.announced.size() == 4);
  CHECK_FALSE(s8.HasTreaty("AAA", "BBB", "exchange"));
  REQUIRE(g.Adjudicate().ok());  // turn 9
  auto s9 = g.State();
  CHECK(s9.HasTreaty("AAA", "BBB", "non-aggression"));
  CHECK(s9.HasTreaty("AAA", "BBB", "exchange"));
  CHECK(s9.announced.empty());
  // Turn 9's research already counts the exchange: +2 RP for both.
  auto rp = g.Events("Y1820ResearchPoints");
  REQUIRE(rp.size() >= 2);
  CHECK(rp[rp.size() - 2].find("exchange treaties +2") != std::string::npos);
  CHECK(rp[rp.size() - 1].find("exchange treaties +2") != std::string::npos);
  CHECK(Count(g.Events("Y1820TreatyInForce"), "\"kind\": \"exchange\"") == 1);
}

TEST_CASE("Y12.4: a treaty announced by one side only never comes into force", "[y1820]") {
  Y1820Db g(ToyScenario(), ToyMap());
  REQUIRE(g.Adjudicate(2).ok());
  REQUIRE(g.Orders("alice", {Y1820Db::Item("Y1820Treaty", R"({"nation": "BBB", "kind": "pact"})")}).ok());
  REQUIRE(g.Adjudicate(3).ok());
  CHECK(g.State().treaties.empty());
  CHECK(g.State().announced.size() == 1);
}

TEST_CASE("Y12.1: war is declared at once and breaks every treaty", "[y1820]") {
  Y1820Db g(ToyScenario(), ToyMap());
  REQUIRE(g.Adjudicate(1).ok());
  for (const auto& [person, other] : {std::pair{"alice", "BBB"}, std::pair{"bob", "AAA"}}) {
    REQUIRE(g.Orders(person, {Y1820Db::Item("Y1820Treaty", R"({"nation": ")" + std::string(other) + R"(", "kind": "non-aggression"})")}).ok());
  }
  REQUIRE(g.Adjudicate(2).ok());
  REQUIRE(g.State().HasTreaty("AAA", "BBB", "non-aggression"));
  REQUIRE(g.Orders("bob", {Y1820Db::Item("Y1820DeclareWar", R"({"nation": "AAA"})")}).ok());
  REQUIRE(g.Adjudicate().ok());
  CHECK(g.State().AtWar("AAA", "BBB"));
  CHECK(g.State().treaties.empty());
  CHECK(Has(g.Events("Y1820WarDeclared"), "\"broken\": [\"non-aggression\"]"));
}

TEST_CASE("Y1.1, Y1.2: deployment at turn 0 — the capital keeps an army — moves wait for turn 1", "[y1820]") {
  Y1820Db g(ToyScenario(), ToyMap());
  // AAA has 3 armies: all 3 to Beta would leave the capital empty.
  REQUIRE(g.Orders("alice", {Y1820Db::Item("Y1820Deploy", R"({"province": 2, "armies": 3})"),
                             Y1820Db::Item("Y1820Move", R"({"from": 1, "to": 2})")})
              .ok());
  auto rejected = g.Events("OrderRejected");
  REQUIRE(rejected.size() == 1);
  CHECK(rejected[0].find("\"rule\": \"Y1.1\"") != std::string::npos);  // the move, refused at once
  REQUIRE(g.Adjudicate().ok());
  rejected = g.Events("OrderRejected");
  REQUIRE(rejected.size() == 2);
  CHECK(rejected[1].find("\"rule\": \"Y1.2\"") != std::string::npos);
  auto s = g.State();
  CHECK(s.provinces.at(1).armies.at("AAA") == 3);  // undeployed: all in the capital
  // The fleet not deployed: no Port to dock at, so at sea off the first coastal province.
  CHECK(s.sea_fleets.at("S1").at("AAA") == 1);
  CHECK(s.nations.at("AAA").undeployed_armies == 0);
  CHECK(s.nations.at("AAA").undeployed_fleets == 0);
}

TEST_CASE("Y1.3: a nation's new order file replaces the one it sent before for the turn", "[y1820]") {
  Y1820Db g(ToyScenario(), ToyMap());
  REQUIRE(g.Adjudicate(1).ok());
  REQUIRE(g.Orders("alice", {Y1820Db::Item("Y1820Research", R"({"tech": "Railroads"})")}).ok());
  REQUIRE(g.Orders("alice", {Y1820Db::Item("Y1820Research", R"({"tech": "Epidemiology"})")}).ok());
  CHECK(g.Events("OrderSuperseded").size() == 1);
  REQUIRE(g.State().orders.at("AAA").size() == 1);
  REQUIRE(g.Adjudicate().ok());
  CHECK(g.State().nations.at("AAA").research == "Epidemiology");
  // Only a ruler orders for a nation.
  CHECK_FALSE(g.Orders("carol", {Y1820Db::Item("Y1820Research", R"({"tech": "Railroads"})")}).ok());
}

TEST_CASE("Y4.1: one army a turn at the capital, up to the limit", "[y1820]") {
  // AAA (republic): capital 3 + Beta 1 = a limit of 4; it starts with 3.
  Y1820Db g(ToyScenario(), ToyMap());
  REQUIRE(g.Adjudicate(1).ok());
  CHECK(g.State().ArmiesOf("AAA") == 3);
  REQUIRE(g.Adjudicate(1).ok());
  CHECK(g.State().ArmiesOf("AAA") == 4);
  CHECK(g.State().provinces.at(1).armies.at("AAA") == 4);
  REQUIRE(g.Adjudicate(2).ok());
  CHECK(g.State().ArmiesOf("AAA") == 4);  // at the limit: no more
  CHECK(Count(g.Events("Y1820ArmySpawned"), "\"nation\": \"AAA\"") == 1);
}

TEST_CASE("Y4.5: over the limit, one army is lost a turn", "[y1820]") {
  // BBB (republic): capital 3 + Delta 1 + Mons 1 = 5; it is given 8.
  std::string sc = ToyScenario();
  sc.replace(sc.find("\"armies\": 2"), 11, "\"armies\": 8");
  Y1820Db g(sc, ToyMap());
  REQUIRE(g.Adjudicate(1).ok());
  CHECK(g.State().ArmiesOf("BBB") == 8);
  REQUIRE(g.Adjudicate(1).ok());
  CHECK(g.State().ArmiesOf("BBB") == 7);
  REQUIRE(g.Adjudicate(3).ok());
  CHECK(g.State().ArmiesOf("BBB") == 5);  // 7, 6, 5, then at the limit
  CHECK(Count(g.Events("Y1820ArmiesLost"), "over the limit") == 3);
}

TEST_CASE("Y13: an epidemic the GA declares stops spawning there and is rolled for every turn", "[y1820]") {
  Y1820Db g(ToyScenario(), ToyMap());
  REQUIRE(g.Adjudicate(1).ok());
  REQUIRE(g.Directive("Y1820StartEpidemic", R"({"province": 1})").ok());
  CHECK_FALSE(g.Directive("Y1820StartEpidemic", R"({"province": 1})").ok());  // already
  CHECK_FALSE(g.Directive("Y1820StartEpidemic", R"({"province": 99})").ok());
  // Kill roll 50 (over 40: no army dies), end roll 90 (over 20: it goes on).
  REQUIRE(g.Adjudicate(1, "50 90").ok());
  CHECK(g.State().provinces.at(1).epidemic);
  CHECK(Count(g.Events("Y1820ArmySpawned"), "\"nation\": \"AAA\"") == 0);  // Y13.1: AAA, under its limit, spawns nowhere
  CHECK(g.State().ArmiesOf("AAA") == 3);
  // Kill roll 40 (an army dies), end roll 20 (it ends).
  REQUIRE(g.Adjudicate(1, "40 20").ok());
  CHECK_FALSE(g.State().provinces.at(1).epidemic);
  CHECK(Count(g.Events("Y1820ArmiesLost"), "epidemic") == 1);
  // Over: the capital spawns again.
  CHECK(Count(g.Events("Y1820ArmySpawned"), "\"nation\": \"AAA\"") == 1);
  auto rolls = g.Events("DieRolled");
  CHECK(Has(rolls, "\"rule\": \"Y13.2\""));
  CHECK(Has(rolls, "\"rule\": \"Y13.3\""));
}


TEST_CASE("Y12.2: a non-aggression treaty coming into force ends the war between the two", "[y1820]") {
  Y1820Db g(ToyScenario(), ToyMap());
  REQUIRE(g.Adjudicate(1).ok());
  REQUIRE(g.Orders("alice", {Y1820Db::Item("Y1820DeclareWar", R"({"nation": "BBB"})")}).ok());
  REQUIRE(g.Adjudicate().ok());
  REQUIRE(g.State().AtWar("AAA", "BBB"));
  for (const auto& [person, other] : {std::pair{"alice", "BBB"}, std::pair{"bob", "AAA"}}) {
    std::vector<std::string> items{
        Y1820Db::Item("Y1820Treaty", R"({"nation": ")" + std::string(other) + R"(", "kind": "non-aggression"})")};
    if (std::string(person) == "alice") items.push_back(Y1820Db::Item("Y1820Move", R"({"from": 1, "to": 2})"));
    REQUIRE(g.Orders(person, items).ok());
  }
  REQUIRE(g.Adjudicate().ok());
  CHECK(g.State().AtWar("AAA", "BBB"));  // announced: still at war this turn
  CHECK(g.State().provinces.at(2).armies.at("AAA") == 1);
  REQUIRE(g.Adjudicate().ok());
  CHECK_FALSE(g.State().AtWar("AAA", "BBB"));
  CHECK(g.State().HasTreaty("AAA", "BBB", "non-aggression"));
  // Peace closes the border again.
  REQUIRE(g.Orders("alice", {Y1820Db::Item("Y1820Move", R"({"from": 2, "to": 3})")}).ok());
  REQUIRE(g.Adjudicate().ok());
  auto rejected = g.Events("OrderRejected");
  REQUIRE_FALSE(rejected.empty());
  CHECK(rejected.back().find("\"rule\": \"Y12.2\"") != std::string::npos);
}

TEST_CASE("Y1.4 stagnation: the game ends after 1840.12 (turn 252) under y1820=2 — after turn 240 (1839.12) under "
          "version 1", "[y1820][versions]") {
  for (const uint32_t version : {1u, 2u}) {
    DYNAMIC_SECTION("y1820=" << version) {
      Y1820Db g(ToyScenario(), ToyMap());
      rules::RulesVersions v = rules::LatestVersions();
      REQUIRE(v.Set("y1820", version));
      const int last = version == 1 ? 240 : 252;
      // Turn 0 and turns 1 … last - 1: not over yet.
      auto r = replay::Adjudicate(*g.db, "g", "main", replay::AdjudicateMode::kTurn, last, std::nullopt, nullptr, &v);
      INFO((r.ok() ? "" : r.status().message()));
      REQUIRE(r.ok());
      CHECK(g.State().turns_done == last);
      CHECK_FALSE(g.State().ended);
      CHECK(g.Events("Y1820GameEnded").empty());
      // The last turn: stagnation, named as the calendar names it.
      REQUIRE(g.Adjudicate().ok());
      CHECK(g.State().ended);
      const auto ended = g.Events("Y1820GameEnded");
      REQUIRE(ended.size() == 1);
      CHECK_THAT(ended[0], Catch::Contains("\"stagnation\""));
      CHECK(projections::Y1820TurnName(last) == (version == 1 ? "1839.12 (turn 240)" : "1840.12 (turn 252)"));
      Status more = g.Adjudicate();
      CHECK_FALSE(more.ok());
    }
  }
}

TEST_CASE("Y1.4: a game that has ended takes no more orders or turns", "[y1820]") {
  // BBB holds 3 of the 6 provinces: give it Neutralia and it holds 4, a majority, for six turns.
  std::string sc = ToyScenario();
  sc.replace(sc.find("\"provinces\": [3, 4, 6]"), 22, "\"provinces\": [3, 4, 5, 6]");
  sc.replace(sc.find("\"neutrals\": [5]"), 15, "\"neutrals\": []");
  Y1820Db g(sc, ToyMap());
  REQUIRE(g.Adjudicate(6).ok());  // turn 0, then 1..5: five turns of majority
  CHECK_FALSE(g.State().ended);
  REQUIRE(g.Adjudicate().ok());   // the sixth
  CHECK(g.State().ended);
  CHECK(g.State().winner == "BBB");
  Status more = g.Adjudicate();
  CHECK_FALSE(more.ok());
  CHECK(more.message().find("Y1.4") != std::string::npos);
  Status orders = g.Orders("alice", {Y1820Db::Item("Y1820Research", R"({"tech": "Railroads"})")});
  CHECK_FALSE(orders.ok());
  CHECK(orders.message().find("Y1.4") != std::string::npos);
}

TEST_CASE("Y1.3: rulesets keep to their games: a y1820 order or directive sent to an NWOL game is refused, nothing "
          "appended",
          "[y1820]") {
  NwolDb n;
  auto head = n.db->HeadOf("g", "main");
  REQUIRE(head.ok());
  auto file = schema::ParseJson(
      "OrderFile", "{\"orders\": [" + Y1820Db::Item("Y1820Research", R"({"tech": "Railroads"})") + "]}", "orders");
  REQUIRE(file.ok());
  auto r = replay::SubmitOrders(*n.db, "g", "main", "pitt", *file);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().find("Y1820Order: game 'g' plays sow and pate") != std::string::npos);
  auto dir = schema::ParseJson("DirectiveFile",
                               R"({"reason": "x", "body_type": "Y1820Directive", "body": {"body_type": "Y1820StartEpidemic", "body": {"province": 1}}})",
                               "directive");
  REQUIRE(dir.ok());
  CHECK_FALSE(replay::RecordDirective(*n.db, "g", "main", *dir).ok());
  CHECK(n.db->HeadOf("g", "main")->seq == head->seq);
}

TEST_CASE("Y7.1: the bundled Europe 1820 scenario holds the book's ten neutrals, by number and name — any other "
          "neutral is the scenario's addition", "[y1820]") {
  Y1820Db g(EuropeScenario(), EuropeMap());
  REQUIRE(g.Adjudicate().ok());  // turn 0: the garrisons stand
  const auto s = g.State();
  std::set<int32_t> book;
  for (const auto& n : adjutant::rules::y1820::kBookNeutrals) {
    INFO("province " << n.province << " " << n.name);
    book.insert(n.province);
    REQUIRE(s.defs.count(n.province));
    CHECK(s.defs.at(n.province).name == n.name);
    REQUIRE(s.provinces.count(n.province));
    CHECK(s.provinces.at(n.province).owner.empty());  // no nation's: a neutral (Y7.1)
    CHECK(s.provinces.at(n.province).garrison == 1);  // one army, defending with +2
  }
  CHECK(book.size() == 10);
  // The others no nation holds are additions, each listed as such in fixtures/y1820/README.md.
  int additions = 0;
  for (const auto& [id, p] : s.provinces) additions += p.owner.empty() && !book.count(id);
  CHECK(additions == 17);
}
