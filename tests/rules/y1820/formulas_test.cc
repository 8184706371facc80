// The y1820 arithmetic (rules/y1820/formulas.cc) and the book's worked
// examples, each named after its section (rules/y1820/RULES.md).
#include <catch2/catch.hpp>

#include "rules/y1820/formulas.h"
#include "rules/y1820/tables.h"

using namespace adjutant;
using namespace adjutant::rules::y1820;
namespace P = adjutant::projections;

namespace {

// A nation "N" of `gov` holding provinces 1..n (1 its capital); `populous`
// of them (from 2 up) populous; academies in the given provinces.
P::Y1820State Nation(const std::string& gov, int n, int populous, std::vector<int> academies = {}) {
  P::Y1820State s;
  s.active = true;
  for (int i = 1; i <= n + 2; ++i) {
    s.defs[i].name = "p" + std::to_string(i);
    s.defs[i].populous = i >= 2 && i < 2 + populous;
    s.provinces[i].owner = i <= n ? "N" : "";
    s.provinces[i].garrison = i <= n ? 0 : 1;
  }
  for (int a : academies) s.provinces[a].improvements.insert("Academy");
  s.nations["N"].government = gov;
  s.nations["N"].capital = 1;
  s.nations["M"].government = "republic";
  s.nations["M"].capital = n + 1;
  s.provinces[n + 1].owner = "M";
  s.provinces[n + 1].garrison = 0;
  s.order = {"N", "M"};
  return s;
}

}  // namespace

TEST_CASE("Y14.2: Army Modernization's 15% is 15% success, 70% nothing, 15% revolt", "[y1820]") {
  const Reform* am = FindReform("Army Modernization");
  REQUIRE(am);
  auto c = ReformChancesOf(am->chance_pct, "republic", false);
  CHECK(c.success == 15);
  CHECK(c.nothing == 70);
  CHECK(c.revolt == 15);
  // The d100 bands: 1-15 succeed, 16-85 nothing, 86-100 revolt.
  CHECK(ReformOutcome(c, 1) == "success");
  CHECK(ReformOutcome(c, 15) == "success");
  CHECK(ReformOutcome(c, 16) == "nothing");
  CHECK(ReformOutcome(c, 85) == "nothing");
  CHECK(ReformOutcome(c, 86) == "revolt");
  CHECK(ReformOutcome(c, 100) == "revolt");
}

TEST_CASE("Y14.2, Y6.1: New Philosophies add 10% to success — a Feudal Monarchy 10% to revolt", "[y1820]") {
  auto feudal = ReformChancesOf(15, "feudal", false);
  CHECK((feudal.success == 15 && feudal.revolt == 25 && feudal.nothing == 60));
  auto np = ReformChancesOf(15, "constitutional", true);
  CHECK((np.success == 25 && np.revolt == 15 && np.nothing == 60));
  auto both = ReformChancesOf(25, "feudal", true);
  CHECK((both.success == 35 && both.revolt == 35 && both.nothing == 30));
}

TEST_CASE("Y14.4: the reforms' chances and the governments they install", "[y1820]") {
  CHECK(FindReform("Absolutism")->chance_pct == 25);
  CHECK(FindReform("Absolutism")->government == "feudal");
  CHECK(FindReform("Enlightened Monarchy")->chance_pct == 25);
  CHECK(FindReform("Enlightened Monarchy")->government == "constitutional");
  CHECK(FindReform("Liberalism")->chance_pct == 15);
  CHECK(FindReform("Liberalism")->government == "republic");
  CHECK(FindReform("Nationalism")->chance_pct == 25);
  CHECK(FindReform("New Philosophies")->chance_pct == 15);
  CHECK(FindReform("Socialism") == nullptr);
}

TEST_CASE("Y13: epidemics kill at 40% and end at 20% — Epidemiology and Sanitation each halve and double: 10% and 80%",
          "[y1820]") {
  auto none = EpidemicChancesOf({});
  CHECK((none.kill == 40 && none.end == 20));
  auto one = EpidemicChancesOf({"Epidemiology"});
  CHECK((one.kill == 20 && one.end == 40));
  auto other = EpidemicChancesOf({"Sanitation"});
  CHECK((other.kill == 20 && other.end == 40));
  auto both = EpidemicChancesOf({"Epidemiology", "Sanitation"});
  CHECK((both.kill == 10 && both.end == 80));
}

TEST_CASE("Y9.3: +1 for each 3 armies more than the enemy, for the larger side only", "[y1820]") {
  CHECK(OutnumberBonus(4, 4) == 0);
  CHECK(OutnumberBonus(6, 4) == 0);
  CHECK(OutnumberBonus(7, 4) == 1);
  CHECK(OutnumberBonus(10, 4) == 2);
  CHECK(OutnumberBonus(4, 10) == 0);
  // Recomputed as armies fall: 7 against 4 is +1; after one loss, 6 against 4 is nothing.
  CHECK(OutnumberBonus(6, 4) == 0);
}

TEST_CASE("Y10.3: a project finishes when its cost is reached, the overflow lost", "[y1820]") {
  auto done = StepResearch(35, 10, 40, true);
  CHECK(done.finished);
  CHECK(done.progress_after == 40);
  CHECK(done.lost == 5);
  auto exact = StepResearch(30, 10, 40, true);
  CHECK((exact.finished && exact.lost == 0));
  auto on = StepResearch(10, 7, 40, true);
  CHECK((!on.finished && on.progress_after == 17 && on.lost == 0));
  auto idle = StepResearch(0, 6, 0, false);
  CHECK((!idle.finished && idle.progress_after == 0 && idle.lost == 6));
  auto deficit = StepResearch(1, -3, 40, true);  // a Constitutional Monarchy's -3 with no academy
  CHECK((deficit.progress_after == 0 && deficit.lost == -2));
}

TEST_CASE("Y10.1, Y6.1, Y6.3: research points from academies by government", "[y1820]") {
  // Academies in the capital (1) and two elsewhere (2, 3).
  auto feudal = Nation("feudal", 5, 0, {1, 2, 3});
  CHECK(ResearchPointsOf(feudal, "N").total == 2 + 1 + 1);
  auto republic = Nation("republic", 5, 0, {1, 2, 3});
  CHECK(ResearchPointsOf(republic, "N").total == 3 + 2 + 2);
  auto cons = Nation("constitutional", 5, 0, {1, 2, 3});
  CHECK(ResearchPointsOf(cons, "N").total == 2 + 2 + 2 - 3);  // Y6.2: -3
  // Atomic Theory: +1 an academy, whatever the government.
  feudal.nations["N"].techs.insert("Atomic Theory");
  CHECK(ResearchPointsOf(feudal, "N").total == 4 + 3);
}

TEST_CASE("Y10.2, Y12.3: Electrochemistry and New Philosophies +7 each — exchange treaties +2, +6 with Electrical Telegraphs",
          "[y1820]") {
  auto s = Nation("republic", 4, 0, {});
  CHECK(ResearchPointsOf(s, "N").total == 0);
  s.nations["N"].techs.insert("Electrochemistry");
  CHECK(ResearchPointsOf(s, "N").total == 7);
  s.nations["N"].reforms.insert("New Philosophies");
  CHECK(ResearchPointsOf(s, "N").total == 14);
  s.treaties.insert({"M", "N", "exchange"});
  CHECK(ResearchPointsOf(s, "N").total == 16);
  CHECK(ResearchPointsOf(s, "M").total == 2);  // both nations gain
  s.nations["N"].techs.insert("Electrical Telegraphs");
  CHECK(ResearchPointsOf(s, "N").total == 20);
  CHECK(ResearchPointsOf(s, "N").breakdown.find("exchange treaties +6") != std::string::npos);
}

TEST_CASE("Y4.4, Y6.1-Y6.3, Y12.3: the army limit by government", "[y1820]") {
  // 6 provinces: the capital, 2 populous, 3 ordinary.
  CHECK(ArmyLimitOf(Nation("republic", 6, 2), "N").total == 3 + 2 * 2 + 3);
  CHECK(ArmyLimitOf(Nation("constitutional", 6, 2), "N").total == 3 + 2 * 3 + 3);
  CHECK(ArmyLimitOf(Nation("feudal", 6, 2), "N").total == 3 + 2 * 3 + 3 + 3);  // Levies: +3
  auto s = Nation("republic", 6, 2);
  s.treaties.insert({"M", "N", "exchange"});
  CHECK(ArmyLimitOf(s, "N").total == 10 + 1);
  CHECK(ArmyLimitOf(s, "N").breakdown == "3 provinces +3, 2 populous +4, capital +3, 1 exchange treaties +1");
}

TEST_CASE("Y4.1-Y4.3, Y6.1, Y13.1: spawn points: the capital first, rally points (three for a Feudal Monarchy), "
          "Military HQs after Army Modernization, none in an epidemic",
          "[y1820]") {
  auto s = Nation("feudal", 6, 0);
  s.nations["N"].rally_points = {4, 2, 5};
  CHECK(RallyPointsAllowed(s, "N") == 3);
  CHECK(SpawnPoints(s, "N") == std::vector<int32_t>{1, 4, 2, 5});
  s.nations["N"].government = "republic";
  CHECK(RallyPointsAllowed(s, "N") == 2);
  CHECK(SpawnPoints(s, "N") == std::vector<int32_t>{1, 4, 2});
  s.provinces[4].epidemic = true;
  CHECK(SpawnPoints(s, "N") == std::vector<int32_t>{1, 2});
  s.nations["N"].reforms.insert("Army Modernization");
  s.provinces[3].improvements.insert("Military HQ");
  CHECK(RallyPointsAllowed(s, "N") == 0);
  CHECK(SpawnPoints(s, "N") == std::vector<int32_t>{1, 3});
  // A Feudal Monarchy's third point goes with the rally points (the reform
  // replaces levy-conscription, the perk that gives it: RULES.md Y6.1).
  s.nations["N"].government = "feudal";
  CHECK(RallyPointsAllowed(s, "N") == 0);
  CHECK(SpawnPoints(s, "N") == std::vector<int32_t>{1, 3});
}

TEST_CASE("Y11.1, Y11.7: two improvements a turn, one more for each 4 factories", "[y1820]") {
  auto s = Nation("republic", 9, 0);
  CHECK(ImprovementsAllowed(s, "N", 2) == 2);
  for (int i = 1; i <= 3; ++i) s.provinces[i].improvements.insert("Factory");
  CHECK(ImprovementsAllowed(s, "N", 2) == 2);
  s.provinces[4].improvements.insert("Factory");
  CHECK(ImprovementsAllowed(s, "N", 2) == 3);
  for (int i = 5; i <= 8; ++i) s.provinces[i].improvements.insert("Factory");
  CHECK(ImprovementsAllowed(s, "N", 2) == 4);
  CHECK(ImprovementsAllowed(s, "N", 1) == 4);
}

TEST_CASE("Y11.1, Y15.1: Civil Engineering, the research that raises the improvements a turn, adds one under "
          "y1820=2 — version 1 knows no such technology", "[y1820][versions]") {
  auto s = Nation("republic", 3, 0);
  s.nations["N"].techs.insert("Civil Engineering");
  CHECK(ImprovementsAllowed(s, "N", 2) == 3);
  CHECK(ImprovementsAllowed(s, "N", 1) == 2);
  REQUIRE(FindTech("Civil Engineering", 2) != nullptr);
  CHECK(FindTech("Civil Engineering", 2)->improvements == 1);
  CHECK(FindTech("Civil Engineering", 1) == nullptr);
  CHECK(FindTech("Railroads", 1) != nullptr);  // the others are every version's
  int raising = 0;
  for (const auto& t : kTechs) raising += t.improvements > 0;
  CHECK(raising == 1);
}

TEST_CASE("Y1.4: domination needs 50% + 1 of all provinces", "[y1820]") {
  auto s = Nation("republic", 6, 0);  // 8 provinces on the map
  CHECK(DominationNeeded(s) == 5);
  CHECK(ProvincesOf(s, "N") == 6);
  s.defs[9].name = "p9";  // 9: 4.5 + 1 → 5
  CHECK(DominationNeeded(s) == 5);
}

TEST_CASE("Y15.1: every technology's prerequisite is a technology of the table, and costs are positive", "[y1820]") {
  for (const auto& t : kTechs) {
    INFO(t.id);
    CHECK(t.cost > 0);
    if (!t.needs.empty()) CHECK(FindTech(t.needs) != nullptr);
  }
  for (std::string_view named : {"Railroads", "Industrialization", "Atomic Theory", "Electrochemistry", "Epidemiology",
                                 "Sanitation", "Electrical Telegraphs", "Rocketry"}) {
    CHECK(FindTech(named) != nullptr);  // the ones the book names
  }
  CHECK(FindTech("Rocketry")->fleet_attack == 1);  // Y8.4: Rocketry helps fleets though not Nautical
}

TEST_CASE("Y15.2: the random-event table covers every d100 face, ending at 100", "[y1820]") {
  int prev = 0;
  for (const auto& r : kRandomEvents) {
    CHECK(r.upto > prev);
    prev = r.upto;
  }
  CHECK(prev == 100);
}

TEST_CASE("Y8.4: fleets' combat bonuses come from the Nautical technologies and Rocketry, and only from them",
          "[y1820]") {
  // Y8.4 names the "Nautical" technologies and Rocketry as what gives fleets their
  // combat bonuses; war.cc FleetBattle adds every held technology's fleet_attack to
  // the attacker's roll and fleet_defence to the defender's (fleet-8.2 pins that).
  int attack = 0, defence = 0;
  for (const auto& t : kTechs) {
    INFO(t.id);
    const bool nautical = std::string_view(t.effect).find("Nautical") != std::string_view::npos;
    const bool rocketry = std::string_view(t.id) == "Rocketry";
    if (!nautical && !rocketry) {
      CHECK(t.fleet_attack == 0);
      CHECK(t.fleet_defence == 0);
    }
    if (nautical) CHECK(t.fleet_attack + t.fleet_defence > 0);  // every Nautical technology helps fleets
    attack += t.fleet_attack;
    defence += t.fleet_defence;
  }
  CHECK(FindTech("Rocketry")->fleet_attack == 1);
  CHECK(FindTech("Steam Navigation")->fleet_attack == 1);
  CHECK(FindTech("Naval Gunnery")->fleet_attack == 1);
  CHECK(FindTech("Naval Gunnery")->fleet_defence == 1);
  CHECK(FindTech("Ironclads")->fleet_defence == 1);
  // A nation holding them all: +3 to its fleets' attack rolls, +2 to their defence.
  CHECK(attack == 3);
  CHECK(defence == 2);
}
