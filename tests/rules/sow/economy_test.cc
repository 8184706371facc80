// SOW tables and calculators: every worked example of the book (a test
// named after its rule), every table row against the book's numbers, and
// the shapes of the curves the book leaves open, as properties.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rules/sow/economy.h"
#include "rules/sow/tables.h"

using namespace adjutant::rules::sow;
namespace fb = adjutant::fb;

namespace {

constexpr SeasonKind kWar = fb::SeasonKind_War;
constexpr SeasonKind kPeace = fb::SeasonKind_Peace;
constexpr SeasonKind kTruce = fb::SeasonKind_Truce;

SowUnitType AnyUnitType() {
  return static_cast<SowUnitType>(*rc::gen::inRange<int>(0, static_cast<int>(kUnitTypeCount)));
}
SowShipType AnyShipType() {
  return static_cast<SowShipType>(*rc::gen::inRange<int>(0, static_cast<int>(kShipTypeCount)));
}
SeasonKind AnySeason() {
  return static_cast<SeasonKind>(*rc::gen::inRange<int>(0, static_cast<int>(kSeasonKindCount)));
}

// n × 100 cc, to write expectations in crowns.
constexpr int64_t CrOf(int64_t n) { return n * 100; }

}  // namespace

// ---- worked examples of the book ---------------------------------------------

TEST_CASE("SOW 2.2: fifteen campaign turns earn one peace or truce turn's income", "[sow]") {
  for (SowCityKind kind : fb::EnumValuesSowCityKind()) {
    for (int level = kCityLevelMin; level <= kCityLevelMax; ++level) {
      CAPTURE(fb::EnumNameSowCityKind(kind), level);
      CHECK(15 * BaseIncomeCc(kind, level, kWar) == BaseIncomeCc(kind, level, kPeace));
      CHECK(BaseIncomeCc(kind, level, kPeace) == BaseIncomeCc(kind, level, kTruce));
    }
  }
}

TEST_CASE("SOW 3.1: transport crews", "[sow]") {
  // PATE 2.4: a transport group's crew is its capacity / 10.
  // "a TR with 5000 capacity requires 500 crew"
  CHECK(MenForShip(fb::SowShipType_TR, 0, 5000) == 500);
  // capacity/10 "or fraction": a part of ten tons still needs a man.
  CHECK(MenForShip(fb::SowShipType_TR, 0, 5001) == 501);
  CHECK(MenForShip(fb::SowShipType_TR, 0, 8000) == 800);
}

TEST_CASE("SOW 3.4: Sardinia's manpower example", "[sow]") {
  // 4 cities, pool 40,000, army 25,000, 10 ships with 5000 men.
  const int64_t growth = SeasonalGrowth(4);
  const Attrition loss = SeasonalAttrition(40000, 25000, 5000);
  CHECK(growth == 4000);
  CHECK(loss == Attrition{1600, 1000, 200});
  CHECK(loss.total() == 2800);
  CHECK(40000 + growth - loss.total() == 41200);
}

TEST_CASE("SOW 4.2: the medium cavalry built in Paris across campaigns", "[sow]") {
  // Ordered on turn 8 of Spring 1796; the campaign ends after turn 11.
  BuildClock mc = StartBuild(fb::SowUnitType_MC);
  REQUIRE(mc.needed == 6);
  for (int turn = 8; turn <= 11; ++turn) mc = AfterTurn(mc, kWar);
  CHECK(mc.done == 4);
  CHECK(!mc.complete());
  CHECK(mc.remaining() == 2);

  SECTION("Summer 1796 is a war season: complete at the end of its turn 2") {
    BuildClock summer = AfterTurn(mc, kWar);  // turn 1
    CHECK(!summer.complete());
    summer = AfterTurn(summer, kWar);  // turn 2
    CHECK(summer.complete());
    CHECK(summer.done == 6);
  }
  SECTION("Summer 1796 is a peace season: complete at the end of the peace turn") {
    CHECK(AfterTurn(mc, kPeace).complete());
    CHECK(AfterPeaceOrTruceTurn(mc) == BuildClock{6, 6});
  }
  SECTION("a truce season completes it too") { CHECK(AfterTurn(mc, kTruce).complete()); }
}

TEST_CASE("SOW 5.2: light cavalry brigade of 1100 men with a battery costs 20", "[sow]") {
  // 1100 men round up to 1250: 5 × 3 = 15, plus 5 for a battery paid as LA.
  CHECK(UnitUpkeepCc(fb::SowUnitType_LC, 1100, 1, true, kWar) == CrOf(20));
  CHECK(UnitUpkeepCc(fb::SowUnitType_LC, 1250, 0, true, kWar) + CrOf(5) == CrOf(20));
  // "not 12 (the cost of a 1000 man brigade without artillery)"
  CHECK(UnitUpkeepCc(fb::SowUnitType_LC, 1000, 0, true, kWar) == CrOf(12));
}

TEST_CASE("SOW 5.2: horse artillery by batteries or hundreds of men", "[sow]") {
  CHECK(UnitUpkeepCc(fb::SowUnitType_HA, 200, 2, true, kWar) == CrOf(10));
  CHECK(UnitUpkeepCc(fb::SowUnitType_HA, 300, 1, true, kWar) == CrOf(15));
  CHECK(UnitUpkeepCc(fb::SowUnitType_HA, 100, 3, true, kWar) == CrOf(15));
}

TEST_CASE("SOW 6.3: stores and supplies in one city", "[sow]") {
  // "40 stores ..., or 10 supplies ..., or any combination such that
  // stores + 4*supplies = 40"; in peace 600 stores or 150 supplies.
  const int64_t war = CityPurchaseCapacity(kWar);
  CHECK(war == 40);
  CHECK(PurchaseFits(0, 40, war));
  CHECK(PurchaseFits(10, 0, war));
  CHECK(PurchaseFits(5, 20, war));
  CHECK(!PurchaseFits(0, 41, war));
  CHECK(!PurchaseFits(10, 1, war));
  CHECK(PurchaseFits(0, 600, CityPurchaseCapacity(kPeace)));
  CHECK(PurchaseFits(150, 0, CityPurchaseCapacity(kTruce)));
  CHECK(!PurchaseFits(151, 0, CityPurchaseCapacity(kPeace)));
}

TEST_CASE("SOW 6.4: Britain's purchase limit", "[sow]") {
  // 20 cities and 8 off-map ports: 28 × 20 = 560 stores, or 140 supplies, or
  // 100 supplies and 160 stores (the book's own example is an equality).
  const int64_t cap = StatePurchaseCapacity(28, kWar);
  CHECK(cap == 560);
  CHECK(PurchaseFits(0, 560, cap));
  CHECK(PurchaseFits(140, 0, cap));
  CHECK(PurchaseSize(100, 160) == 560);
  CHECK(PurchaseFits(100, 160, cap));
  CHECK(!PurchaseFits(100, 161, cap));
  CHECK(!PurchaseFits(141, 0, cap));
  // Peace or truce: 300 stores or 75 supplies per city.
  CHECK(PurchaseFits(0, 28 * 300, StatePurchaseCapacity(28, kPeace)));
  CHECK(PurchaseFits(28 * 75, 0, StatePurchaseCapacity(28, kTruce)));
  CHECK(!PurchaseFits(28 * 75 + 1, 0, StatePurchaseCapacity(28, kPeace)));
}

TEST_CASE("SOW 7.1: fort repair costs", "[sow]") {
  CHECK(FortRepairCc(2) == CrOf(300));  // level 2 → 3
  CHECK(FortRepairCc(4) == CrOf(600));  // level 4 → 5
  CHECK(BatteryRepairCc(false) == CrOf(100));
  CHECK(BatteryRepairCc(true) == CrOf(200));
  // Never above the starting level.
  CHECK(FortRepairAllowed(2, 3));
  CHECK(!FortRepairAllowed(3, 3));
  CHECK(!FortRepairAllowed(4, 3));
  // Assumed: a level-0 fort pays as from level 1.
  CHECK(FortRepairCc(0) == CrOf(150));
  CHECK(FortRepairCc(1) == CrOf(150));
}

// ---- the tables, row by row, against the book -----------------------------------

TEST_CASE("SOW 2.2: income per level of city", "[sow]") {
  CHECK(BaseIncomeCc(fb::SowCityKind_Inland, 1, kWar) == CrOf(15));
  CHECK(BaseIncomeCc(fb::SowCityKind_Inland, 3, kWar) == CrOf(45));
  CHECK(BaseIncomeCc(fb::SowCityKind_Inland, 2, kPeace) == CrOf(450));
  CHECK(BaseIncomeCc(fb::SowCityKind_Port, 1, kWar) == CrOf(18));
  CHECK(BaseIncomeCc(fb::SowCityKind_Port, 4, kTruce) == CrOf(1080));
  CHECK(BaseIncomeCc(fb::SowCityKind_OffMapPort, 1, kWar) == CrOf(21));
  CHECK(BaseIncomeCc(fb::SowCityKind_OffMapPort, 5, kPeace) == CrOf(1575));
}

TEST_CASE("SOW 2.3: occupied cities", "[sow]") {
  CHECK(OccupiedIncomeCc(CrOf(45), fb::SowCityKind_Inland) == 2250);
  CHECK(OccupiedIncomeCc(CrOf(18), fb::SowCityKind_Port) == CrOf(9));
  CHECK(OccupiedIncomeCc(CrOf(21), fb::SowCityKind_OffMapPort) == 1575);
  // Rounded to the nearest cc, halves up: 15 cc / 2 = 7.5 → 8.
  CHECK(OccupiedIncomeCc(15, fb::SowCityKind_Inland) == 8);
}

TEST_CASE("SOW 2.4: contact and embargoed neighbours, four of each", "[sow]") {
  CHECK(ContactReductionBp(0, 0) == 0);
  CHECK(ContactReductionBp(1, 0) == 500);
  CHECK(ContactReductionBp(4, 0) == 2000);
  CHECK(ContactReductionBp(9, 0) == 2000);
  CHECK(ContactReductionBp(0, 3) == 1500);
  CHECK(ContactReductionBp(0, 7) == 2000);
  CHECK(ContactReductionBp(2, 2) == 2000);
  CHECK(ContactReductionBp(6, 6) == 4000);
}

TEST_CASE("SOW 2.5: blockade curve points", "[sow]") {
  CHECK(BlockadeLossBp(0, 10) == 0);
  CHECK(BlockadeLossBp(1, 20) == 13);     // 5000/400 = 12.5 → 13
  CHECK(BlockadeLossBp(1, 10) == 50);
  CHECK(BlockadeLossBp(5, 10) == 1250);
  CHECK(BlockadeLossBp(10, 10) == 5000);
  CHECK(BlockadeLossBp(1, 1) == 5000);
  CHECK(BlockadeLossBp(0, 0) == 0);
  CHECK(ColonyBlockadeLossBp() == 5000);
}

TEST_CASE("SOW 2.6: embargo points", "[sow]") {
  CHECK(EmbargoLossBp(0) == 0);
  CHECK(EmbargoLossBp(2000) == 1000);
  CHECK(EmbargoLossBp(10000) == 5000);
  // Germany: the embargoing state holds a quarter of the nation's ports.
  CHECK(EmbargoLossBp(2000, 2500) == 250);
  CHECK(EmbargoLossBp(2000, 0) == 0);
}

TEST_CASE("SOW 2.7: raiding and convoy points, and the loss curve", "[sow]") {
  CHECK(RaidingPoints(1, 0, 0, 0) == 9);
  CHECK(RaidingPoints(0, 1, 0, 0) == 3);
  CHECK(RaidingPoints(0, 0, 1, 0) == 3);
  CHECK(RaidingPoints(0, 0, 0, 1) == 1);
  CHECK(RaidingPoints(2, 3, 1, 4) == 18 + 9 + 3 + 4);
  CHECK(ConvoyPoints(2, 3, 1, 4) == RaidingPoints(2, 3, 1, 4));
  CHECK(RaidingLossBp(0, 0) == 0);
  CHECK(RaidingLossBp(0, 50) == 0);
  CHECK(RaidingLossBp(9, 0) == 1000);   // one frigate in the coastal waters: 10%
  CHECK(RaidingLossBp(36, 0) == 2500);  // four: 25%
  CHECK(RaidingLossBp(3, 0) == 385);    // one in the sea area: 15000/39
  CHECK(RaidingLossBp(9, 9) == 714);    // met by one convoying frigate: 45000/63
}

TEST_CASE("SOW 2.8: displaced trade split by ports", "[sow]") {
  CHECK(DisplacedTradeBp() == 5000);
  CHECK(DisplacedTradeCc(CrOf(100)) == CrOf(50));

  const std::vector<TradeReceiver> receivers = {
      {"PR", 3, false}, {"SA", 2, false}, {"BA", 1, true}};
  // Weights 30000, 20000, 5000 and 5000 withheld, of 60000.
  const DisplacedSplit split = SplitDisplacedTrade(6000, receivers);
  CHECK(split.shares ==
        std::vector<TradeShare>{{"PR", 3000}, {"SA", 2000}, {"BA", 500}});
  CHECK(split.not_shifted_cc == 500);

  // Largest remainder, ties to the earlier receiver: 10 among three equals.
  const std::vector<TradeReceiver> equal = {{"A", 1, false}, {"B", 1, false}, {"C", 1, false}};
  const DisplacedSplit tie = SplitDisplacedTrade(10, equal);
  CHECK(tie.shares == std::vector<TradeShare>{{"A", 4}, {"B", 3}, {"C", 3}});
  CHECK(tie.not_shifted_cc == 0);

  // Nobody with ports: nothing shifts.
  const std::vector<TradeReceiver> none = {{"A", 0, false}};
  const DisplacedSplit empty = SplitDisplacedTrade(777, none);
  CHECK(empty.shares == std::vector<TradeShare>{{"A", 0}});
  CHECK(empty.not_shifted_cc == 777);
}

TEST_CASE("SOW 3.1: men for every unit and ship type", "[sow]") {
  for (SowUnitType t : fb::EnumValuesSowUnitType()) {
    CAPTURE(fb::EnumNameSowUnitType(t));
    if (t == fb::SowUnitType_AQ) {
      CHECK(MenForUnit(t, 0) == 250);
    } else if (t == fb::SowUnitType_CQ) {
      CHECK(MenForUnit(t, 0) == 100);
    } else {
      CHECK(MenForUnit(t, 1234) == 1234);
    }
    CHECK(DrawsOnMilitiaPool(t) == (t == fb::SowUnitType_MI));  // SOW 3.2
  }
  CHECK(MenForShip(fb::SowShipType_FL, 0, 0) == 1000);
  CHECK(MenForShip(fb::SowShipType_SL, 0, 0) == 750);
  CHECK(MenForShip(fb::SowShipType_FR, 1, 0) == 250);
  CHECK(MenForShip(fb::SowShipType_FR, 4, 0) == 1000);
  CHECK(MenForShip(fb::SowShipType_TR, 0, 2500) == 250);
}

TEST_CASE("SOW 3.2 / 3.3: militia and transport pools", "[sow]") {
  CHECK(kMilitiaPoolPerCity == 7500);
  CHECK(kTransportPoolPerPort == 8000);
  CHECK(kTransportCapacityMax == 8000);
}

TEST_CASE("SOW 4.1: build times of every type", "[sow]") {
  const std::map<SowUnitType, int> units = {
      {fb::SowUnitType_MI, 1}, {fb::SowUnitType_IN, 3}, {fb::SowUnitType_LI, 4},
      {fb::SowUnitType_MA, 4}, {fb::SowUnitType_HA, 4}, {fb::SowUnitType_CQ, 4},
      {fb::SowUnitType_LC, 6}, {fb::SowUnitType_MC, 6}, {fb::SowUnitType_HC, 6},
      {fb::SowUnitType_LA, 6}, {fb::SowUnitType_AQ, 8}, {fb::SowUnitType_SA, 8}};
  REQUIRE(units.size() == kUnitTypeCount);
  for (auto [type, turns] : units) {
    CAPTURE(fb::EnumNameSowUnitType(type));
    CHECK(BuildWarTurns(type) == turns);
    CHECK(StartBuild(type) == BuildClock{turns, 0});
  }
  const std::map<SowShipType, int> ships = {
      {fb::SowShipType_TR, 2}, {fb::SowShipType_FR, 8}, {fb::SowShipType_FL, 16}, {fb::SowShipType_SL, 16}};
  REQUIRE(ships.size() == kShipTypeCount);
  for (auto [type, turns] : ships) {
    CAPTURE(fb::EnumNameSowShipType(type));
    CHECK(BuildWarTurns(type) == turns);
    CHECK(StartBuild(type) == BuildClock{turns, 0});
  }
}

TEST_CASE("SOW 4.1: a war build completes after its turns, a peace turn at once", "[sow]") {
  BuildClock in = StartBuild(fb::SowUnitType_IN);
  in = AfterWarTurn(AfterWarTurn(in));
  CHECK(!in.complete());
  in = AfterWarTurn(in);
  CHECK(in.complete());
  CHECK(AfterWarTurn(in) == in);  // a finished clock stays finished
  CHECK(AfterPeaceOrTruceTurn(StartBuild(fb::SowShipType_SL)).complete());
}

TEST_CASE("SOW 4.4: funds for the price and 15 wartime turns of upkeep", "[sow]") {
  CHECK(FundsRequiredCc(CrOf(160), CrOf(24)) == CrOf(160 + 15 * 24));
  CHECK(FundsRequiredCc(0, 0) == 0);
}

TEST_CASE("SOW 4.6: city build limits and dockyards", "[sow]") {
  CHECK(CityBuildLimit(1) == 6);
  CHECK(CityBuildLimit(2) == 8);
  CHECK(CityBuildLimit(3) == 10);
  CHECK(CityBuildLimit(4) == 12);
  CHECK(CityBuildLimit(5) == 14);
  CHECK(DockyardAllows(0, 0, 1, false));
  CHECK(!DockyardAllows(1, 0, 1, false));
  CHECK(!DockyardAllows(0, 1, 1, false));
  CHECK(DockyardAllows(1, 1, 3, false));
  CHECK(!DockyardAllows(2, 1, 3, false));
  CHECK(!DockyardAllows(0, 0, 0, false));
  CHECK(DockyardAllows(5, 5, 0, true));  // transport groups are exempt
}

TEST_CASE("SOW 4.7: size limits of every type", "[sow]") {
  const std::map<SowUnitType, SizeLimit> limits = {
      {fb::SowUnitType_IN, {4000, 1}}, {fb::SowUnitType_LI, {4000, 1}},
      {fb::SowUnitType_LC, {2000, 1}}, {fb::SowUnitType_MC, {2000, 1}},
      {fb::SowUnitType_HC, {2000, 1}}, {fb::SowUnitType_LA, {400, 4}},
      {fb::SowUnitType_MA, {400, 4}},  {fb::SowUnitType_HA, {400, 4}},
      {fb::SowUnitType_SA, {400, 4}},  {fb::SowUnitType_MI, {3000, 0}},
      {fb::SowUnitType_AQ, {250, 0}},  {fb::SowUnitType_CQ, {100, 0}}};
  REQUIRE(limits.size() == kUnitTypeCount);
  for (auto [type, limit] : limits) {
    CAPTURE(fb::EnumNameSowUnitType(type));
    CHECK(UnitSizeLimit(type) == limit);
    CHECK(WithinSizeLimit(type, limit.max_men, limit.max_batteries));
    CHECK(!WithinSizeLimit(type, limit.max_men + 1, 0));
    CHECK(!WithinSizeLimit(type, 0, limit.max_batteries + 1));
  }
}

TEST_CASE("SOW 4.8: reinforcement prices of every type", "[sow]") {
  // One block of men, and a block and a man more ("or fraction thereof").
  struct Row { SowUnitType type; int64_t block_men; int64_t cr; };
  const std::vector<Row> rows = {
      {fb::SowUnitType_IN, 500, 20}, {fb::SowUnitType_MI, 500, 20}, {fb::SowUnitType_LI, 500, 24},
      {fb::SowUnitType_HC, 250, 50}, {fb::SowUnitType_MC, 250, 35}, {fb::SowUnitType_LC, 250, 30},
      {fb::SowUnitType_HA, 100, 30}, {fb::SowUnitType_MA, 100, 25}, {fb::SowUnitType_LA, 100, 20},
      {fb::SowUnitType_SA, 100, 40}};  // SA assumed
  for (const Row& r : rows) {
    CAPTURE(fb::EnumNameSowUnitType(r.type));
    CHECK(ReinforcementCostCc(r.type, r.block_men, 0) == CrOf(r.cr));
    CHECK(ReinforcementCostCc(r.type, r.block_men + 1, 0) == CrOf(2 * r.cr));
    CHECK(ReinforcementCostCc(r.type, 1, 0) == CrOf(r.cr));
    CHECK(ReinforcementCostCc(r.type, 0, 0) == 0);
  }
  // Batteries: on infantry as MA (25), on cavalry as LA (20); artillery by
  // batteries or hundreds of men, whichever is more.
  CHECK(ReinforcementCostCc(fb::SowUnitType_IN, 1000, 1) == CrOf(40 + 25));
  CHECK(ReinforcementCostCc(fb::SowUnitType_LI, 0, 1) == CrOf(25));
  CHECK(ReinforcementCostCc(fb::SowUnitType_HC, 250, 1) == CrOf(50 + 20));
  CHECK(ReinforcementCostCc(fb::SowUnitType_HA, 100, 1) == CrOf(30));
  CHECK(ReinforcementCostCc(fb::SowUnitType_HA, 0, 2) == CrOf(60));
  CHECK(ReinforcementCostCc(fb::SowUnitType_MA, 300, 1) == CrOf(75));
  // Headquarters take no reinforcements.
  CHECK(ReinforcementCostCc(fb::SowUnitType_AQ, 0, 0) == 0);
  CHECK(!ReinforcementAllowed(fb::SowUnitType_AQ, 200, 0, 50, 0));
  CHECK(!ReinforcementAllowed(fb::SowUnitType_CQ, 50, 0, 50, 0));
  // Not above the 4.7 sizes.
  CHECK(ReinforcementAllowed(fb::SowUnitType_IN, 3500, 0, 500, 1));
  CHECK(!ReinforcementAllowed(fb::SowUnitType_IN, 3500, 0, 501, 0));
  CHECK(!ReinforcementAllowed(fb::SowUnitType_IN, 3500, 1, 0, 1));
  CHECK(!ReinforcementAllowed(fb::SowUnitType_MI, 1000, 0, 0, 1));
  CHECK(!ReinforcementAllowed(fb::SowUnitType_LC, 1000, 0, -1, 0));
  // When: peace or truce turns, or turn 1 of a campaign.
  CHECK(SoldiersMayJoin(kWar, 1));
  CHECK(!SoldiersMayJoin(kWar, 2));
  CHECK(SoldiersMayJoin(kPeace, 1));
  CHECK(SoldiersMayJoin(kTruce, 1));
  // Crew: 5 Cr per 100 or fraction.
  CHECK(CrewCostCc(0) == 0);
  CHECK(CrewCostCc(100) == CrOf(5));
  CHECK(CrewCostCc(101) == CrOf(10));
  CHECK(CrewCostCc(750) == CrOf(40));
}

TEST_CASE("SOW 4.8 (assumed): purchase prices of new units and ships", "[sow]") {
  // Units: the 4.8 rates; headquarters a fixed price.
  CHECK(UnitPriceCc(fb::SowUnitType_IN, 4000, 1) == CrOf(8 * 20 + 25));
  CHECK(UnitPriceCc(fb::SowUnitType_LC, 1100, 1) == CrOf(5 * 30 + 20));
  CHECK(UnitPriceCc(fb::SowUnitType_MI, 3000, 0) == CrOf(6 * 20));
  CHECK(UnitPriceCc(fb::SowUnitType_SA, 400, 4) == CrOf(4 * 40));
  CHECK(UnitPriceCc(fb::SowUnitType_AQ, 250, 0) == CrOf(150));
  CHECK(UnitPriceCc(fb::SowUnitType_CQ, 100, 0) == CrOf(100));
  // Ships: hull plus crew at the 4.8 crew price.
  CHECK(ShipPriceCc(fb::SowShipType_FL, 0, 0) == CrOf(250 + 50));
  CHECK(ShipPriceCc(fb::SowShipType_SL, 0, 0) == CrOf(160 + 40));
  CHECK(ShipPriceCc(fb::SowShipType_FR, 1, 0) == CrOf(45 + 15));
  CHECK(ShipPriceCc(fb::SowShipType_FR, 3, 0) == CrOf(135 + 40));
  CHECK(ShipPriceCc(fb::SowShipType_TR, 0, 5000) == CrOf(25));
  // Every assumed row is marked in the tables.
  CHECK(At(kReinforcementPrices, fb::SowUnitType_SA).assumed);
}

TEST_CASE("SOW 4.9: disbanding at home and abroad", "[sow]") {
  CHECK(DisbandOutcome(2000, false) == DisbandResult{2000, 0, 0});
  CHECK(DisbandOutcome(2000, true) == DisbandResult{1200, 800, 8});
  CHECK(DisbandOutcome(1100, true) == DisbandResult{660, 440, 4});
  CHECK(DisbandOutcome(249, true) == DisbandResult{149, 100, 0});  // 99.6 → 100
  CHECK(DisbandOutcome(0, true) == DisbandResult{0, 0, 0});
}

TEST_CASE("SOW 5.1: wartime upkeep of every unit type", "[sow]") {
  // One block of men (HQ: the unit), active and inactive.
  struct Row { SowUnitType type; int64_t men; int64_t active_cr; int64_t inactive_cr; };
  const std::vector<Row> rows = {
      {fb::SowUnitType_IN, 500, 3, 1}, {fb::SowUnitType_LI, 500, 3, 1},
      {fb::SowUnitType_HC, 250, 6, 2}, {fb::SowUnitType_MC, 250, 6, 2},
      {fb::SowUnitType_LC, 250, 3, 1}, {fb::SowUnitType_HA, 100, 5, 1},
      {fb::SowUnitType_MA, 100, 4, 1}, {fb::SowUnitType_LA, 100, 5, 1},
      {fb::SowUnitType_SA, 100, 8, 1}, {fb::SowUnitType_MI, 500, 5, 0},
      {fb::SowUnitType_AQ, 250, 75, 10}, {fb::SowUnitType_CQ, 100, 50, 5}};
  REQUIRE(rows.size() == kUnitTypeCount);
  for (const Row& r : rows) {
    CAPTURE(fb::EnumNameSowUnitType(r.type));
    CHECK(UnitUpkeepCc(r.type, r.men, 0, true, kWar) == CrOf(r.active_cr));
    CHECK(UnitUpkeepCc(r.type, r.men, 0, false, kWar) == CrOf(r.inactive_cr));
    // SOW 5.3
    CHECK(UnitUpkeepCc(r.type, r.men, 0, true, kPeace) == CrOf(15 * r.inactive_cr));
    CHECK(UnitUpkeepCc(r.type, r.men, 0, false, kTruce) == CrOf(15 * r.inactive_cr));
  }
}

TEST_CASE("SOW 5.2: strengths round up — attached batteries pay as MA or LA", "[sow]") {
  CHECK(UnitUpkeepCc(fb::SowUnitType_IN, 501, 0, true, kWar) == CrOf(6));
  CHECK(UnitUpkeepCc(fb::SowUnitType_IN, 4000, 1, true, kWar) == CrOf(24 + 4));  // MA battery
  CHECK(UnitUpkeepCc(fb::SowUnitType_IN, 4000, 1, false, kWar) == CrOf(8 + 1));
  CHECK(UnitUpkeepCc(fb::SowUnitType_HC, 251, 1, true, kWar) == CrOf(12 + 5));   // LA battery
  CHECK(UnitUpkeepCc(fb::SowUnitType_SA, 50, 0, true, kWar) == CrOf(8));
  CHECK(UnitUpkeepCc(fb::SowUnitType_MI, 2600, 0, true, kWar) == CrOf(30));
  CHECK(UnitUpkeepCc(fb::SowUnitType_MI, 2600, 0, false, kWar) == 0);
}

TEST_CASE("SOW 5.3: peace upkeep is 15 times the wartime inactive cost", "[sow]") {
  // LC 1100 + battery: inactive 5 + 1 = 6; peace 90.
  CHECK(UnitUpkeepCc(fb::SowUnitType_LC, 1100, 1, true, kPeace) == CrOf(90));
  CHECK(UnitUpkeepCc(fb::SowUnitType_HA, 300, 1, true, kPeace) == CrOf(45));
  CHECK(UnitUpkeepCc(fb::SowUnitType_MI, 3000, 0, true, kPeace) == 0);
}

TEST_CASE("SOW 5.4-5.6: ship upkeep of every type", "[sow]") {
  struct Row { SowShipType type; int frigates; int64_t sailing_cr; int64_t base_cr; };
  const std::vector<Row> rows = {{fb::SowShipType_FL, 0, 12, 4},
                                 {fb::SowShipType_SL, 0, 8, 3},
                                 {fb::SowShipType_FR, 1, 5, 1},
                                 {fb::SowShipType_FR, 3, 15, 3}};
  for (const Row& r : rows) {
    CAPTURE(fb::EnumNameSowShipType(r.type), r.frigates);
    CHECK(ShipUpkeepCc(r.type, r.frigates, 0, true, false, kWar) == CrOf(r.sailing_cr));
    CHECK(ShipUpkeepCc(r.type, r.frigates, 0, true, true, kWar) == CrOf(r.base_cr));
    CHECK(ShipUpkeepCc(r.type, r.frigates, 0, true, false, kPeace) == CrOf(15 * r.sailing_cr));  // 5.5
    CHECK(ShipUpkeepCc(r.type, r.frigates, 0, true, true, kTruce) == CrOf(15 * r.base_cr));      // 5.5
    CHECK(ShipUpkeepCc(r.type, r.frigates, 0, false, false, kWar) == 0);                        // 5.6
    CHECK(ShipUpkeepCc(r.type, r.frigates, 0, false, true, kPeace) == 0);                       // 5.6
  }
  // Transports: 8 per 1000 capacity, the same in base; pro rata to the cc.
  CHECK(ShipUpkeepCc(fb::SowShipType_TR, 0, 1000, true, false, kWar) == CrOf(8));
  CHECK(ShipUpkeepCc(fb::SowShipType_TR, 0, 5000, true, true, kWar) == CrOf(40));
  CHECK(ShipUpkeepCc(fb::SowShipType_TR, 0, 2500, true, false, kWar) == CrOf(20));
  CHECK(ShipUpkeepCc(fb::SowShipType_TR, 0, 1001, true, false, kWar) == 801);  // 800.8 → 801
  CHECK(ShipUpkeepCc(fb::SowShipType_TR, 0, 5000, true, true, kPeace) == CrOf(600));
  CHECK(ShipUpkeepCc(fb::SowShipType_TR, 0, 5000, false, false, kWar) == 0);
}

TEST_CASE("SOW 6.2 / 6.6: supply prices and where stores are sold", "[sow]") {
  CHECK(SupplyCostCc(1, 0) == CrOf(5));
  CHECK(SupplyCostCc(0, 1) == CrOf(2));
  CHECK(SupplyCostCc(100, 160) == CrOf(500 + 320));
  CHECK(!SellsStores(fb::SowCityKind_Inland));
  CHECK(SellsStores(fb::SowCityKind_Port));
  CHECK(!SellsStores(fb::SowCityKind_OffMapPort));
}

TEST_CASE("SOW seasons: war is a campaign, peace and truce are one turn", "[sow]") {
  CHECK(IsCampaign(kWar));
  CHECK(!IsCampaign(kPeace));
  CHECK(!IsCampaign(kTruce));
  CHECK(UnitClassName(At(kUnitClasses, fb::SowUnitType_HA).unit_class) == std::string("artillery"));
}

// ---- rounding ------------------------------------------------------------------

TEST_CASE("SOW rounding: the named functions", "[sow]") {
  CHECK(CeilDiv(0, 500) == 0);
  CHECK(CeilDiv(1, 500) == 1);
  CHECK(CeilDiv(500, 500) == 1);
  CHECK(CeilDiv(501, 500) == 2);
  CHECK(RoundUpToMultiple(1100, 250) == 1250);
  CHECK(RoundUpToMultiple(1000, 250) == 1000);
  CHECK(WholeBlocks(499, 250) == 1);
  CHECK(DivRoundHalfAway(5, 2) == 3);
  CHECK(DivRoundHalfAway(-5, 2) == -3);
  CHECK(DivRoundHalfAway(7, 3) == 2);
  CHECK(DivRoundHalfAway(-7, 3) == -2);
  CHECK(ApplyBp(1500, 5000) == 750);
  CHECK(ApplyBp(1, 5000) == 1);
  CHECK(ApplyBp(-1, 5000) == -1);
  CHECK(ApplyBp(1, 4999) == 0);
}

TEST_CASE("SOW rounding: properties", "[sow][property]") {
  rc::prop("ApplyBp is within half a unit of the exact product, and odd", [] {
    const int64_t amount = *rc::gen::inRange<int64_t>(-(int64_t{1} << 40), int64_t{1} << 40);
    const int bp = *rc::gen::inRange<int>(0, kBpWhole + 1);
    const int64_t got = ApplyBp(amount, bp);
    const int64_t error2 = 2 * (got * kBpWhole - amount * bp);
    RC_ASSERT(error2 <= kBpWhole);
    RC_ASSERT(error2 >= -kBpWhole);
    RC_ASSERT(ApplyBp(-amount, bp) == -got);
  });
  rc::prop("CeilDiv never rounds down and never by a whole block", [] {
    const int64_t num = *rc::gen::inRange<int64_t>(0, int64_t{1} << 40);
    const int64_t den = *rc::gen::inRange<int64_t>(1, 100000);
    const int64_t q = CeilDiv(num, den);
    RC_ASSERT(q * den >= num);
    RC_ASSERT((q - 1) * den < num || q == 0);
    RC_ASSERT(RoundUpToMultiple(num, den) == q * den);
    RC_ASSERT(WholeBlocks(num, den) * den <= num);
    RC_ASSERT((WholeBlocks(num, den) + 1) * den > num);
  });
  rc::prop("largest remainder: parts sum exactly, each within 1 of its quota", [] {
    const int64_t amount = *rc::gen::inRange<int64_t>(0, int64_t{1} << 40);
    const auto weights = *rc::gen::container<std::vector<int64_t>>(rc::gen::inRange<int64_t>(0, 1000000));
    const std::vector<int64_t> parts = ApportionLargestRemainder(amount, weights);
    RC_ASSERT(parts.size() == weights.size());
    int64_t total_weight = 0;
    for (int64_t w : weights) total_weight += w;
    int64_t sum = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
      RC_ASSERT(parts[i] >= 0);
      sum += parts[i];
      if (total_weight > 0) {
        // |part − amount × w / W| < 1, in integers.
        const __int128 exact = static_cast<__int128>(amount) * weights[i];
        const __int128 scaled = static_cast<__int128>(parts[i]) * total_weight;
        RC_ASSERT(scaled - exact < total_weight);
        RC_ASSERT(exact - scaled < total_weight);
      }
    }
    RC_ASSERT(sum == (total_weight > 0 ? amount : 0));
  });
}

// ---- curve shapes -----------------------------------------------------------------

TEST_CASE("SOW 2.5: blockade curve properties", "[sow][property]") {
  rc::prop("every port blockaded: exactly 50%; none: 0", [] {
    const int n = *rc::gen::inRange(1, 5000);
    RC_ASSERT(BlockadeLossBp(n, n) == 5000);
    RC_ASSERT(BlockadeLossBp(0, n) == 0);
  });
  rc::prop("rises with blockaded ports, convex, within [0, 50%]", [] {
    const int n = *rc::gen::inRange(2, 5000);
    const int b = *rc::gen::inRange(1, n);  // 1..n-1
    const int lo = BlockadeLossBp(b - 1, n);
    const int mid = BlockadeLossBp(b, n);
    const int hi = BlockadeLossBp(b + 1, n);
    RC_ASSERT(lo <= mid);
    RC_ASSERT(mid <= hi);
    RC_ASSERT(hi - mid >= mid - lo - 1);  // convex up to rounding
    RC_ASSERT(mid >= 0);
    RC_ASSERT(mid <= 5000);
  });
  rc::prop("falls as the nation has more ports; one port of many is small", [] {
    const int n = *rc::gen::inRange(1, 5000);
    const int b = *rc::gen::inRange(0, n + 1);
    RC_ASSERT(BlockadeLossBp(b, n + 1) <= BlockadeLossBp(b, n));
    if (n >= 10) RC_ASSERT(BlockadeLossBp(1, n) <= 50);
  });
}

TEST_CASE("SOW 2.6: embargo curve properties", "[sow][property]") {
  rc::prop("rises with trade share and port share; 0 without trade; at most 50%", [] {
    const int share = *rc::gen::inRange(0, kBpWhole);
    const int ports = *rc::gen::inRange(0, kBpWhole);
    const int loss = EmbargoLossBp(share, ports);
    RC_ASSERT(loss >= 0);
    RC_ASSERT(loss <= 5000);
    RC_ASSERT(EmbargoLossBp(share + 1, ports) >= loss);
    RC_ASSERT(EmbargoLossBp(share, ports + 1) >= loss);
    RC_ASSERT(EmbargoLossBp(0, ports) == 0);
    RC_ASSERT(EmbargoLossBp(share) >= EmbargoLossBp(share, ports));
  });
}

TEST_CASE("SOW 2.7: raiding curve properties", "[sow][property]") {
  rc::prop("no raiders, no loss; rises with raid, falls with convoy; below 50%", [] {
    const int64_t raid = *rc::gen::inRange<int64_t>(0, 100000);
    const int64_t convoy = *rc::gen::inRange<int64_t>(0, 100000);
    const int loss = RaidingLossBp(raid, convoy);
    RC_ASSERT(RaidingLossBp(0, convoy) == 0);
    RC_ASSERT(loss >= 0);
    RC_ASSERT(loss < 5000);
    RC_ASSERT(loss < kBpWhole);
    RC_ASSERT(RaidingLossBp(raid + 1, convoy) >= loss);
    RC_ASSERT(RaidingLossBp(raid, convoy + 1) <= loss);
    if (raid > 0 && convoy == 0) RC_ASSERT(loss > 0);
  });
  rc::prop("points are the 9/3/3/1 weighted sum, for raiders and convoys alike", [] {
    const int64_t a = *rc::gen::inRange<int64_t>(0, 1000);
    const int64_t b = *rc::gen::inRange<int64_t>(0, 1000);
    const int64_t c = *rc::gen::inRange<int64_t>(0, 1000);
    const int64_t d = *rc::gen::inRange<int64_t>(0, 1000);
    RC_ASSERT(RaidingPoints(a, b, c, d) == 9 * a + 3 * b + 3 * c + d);
    RC_ASSERT(ConvoyPoints(a, b, c, d) == RaidingPoints(a, b, c, d));
  });
}

TEST_CASE("SOW 2.8: displaced trade properties", "[sow][property]") {
  rc::prop("shares and the part not shifted sum exactly to the displaced amount", [] {
    const int64_t displaced = *rc::gen::inRange<int64_t>(0, int64_t{1} << 36);
    const int count = *rc::gen::inRange(0, 12);
    std::vector<TradeReceiver> receivers;
    int64_t ports_total = 0;
    bool any_reduced = false;
    for (int i = 0; i < count; ++i) {
      TradeReceiver r{"S" + std::to_string(i), *rc::gen::inRange(0, 40), *rc::gen::arbitrary<bool>()};
      ports_total += r.ports;
      any_reduced = any_reduced || (r.reduced && r.ports > 0);
      receivers.push_back(r);
    }
    const DisplacedSplit split = SplitDisplacedTrade(displaced, receivers);
    RC_ASSERT(split.shares.size() == receivers.size());
    int64_t sum = split.not_shifted_cc;
    for (size_t i = 0; i < receivers.size(); ++i) {
      RC_ASSERT(split.shares[i].state == receivers[i].state);
      RC_ASSERT(split.shares[i].cc >= 0);
      if (receivers[i].ports == 0) RC_ASSERT(split.shares[i].cc == 0);
      // Within 1 of the exact quota: displaced × ports × (1 or ½) / total.
      if (ports_total > 0) {
        const int64_t weight = receivers[i].ports * (receivers[i].reduced ? 1 : 2);
        const __int128 exact = static_cast<__int128>(displaced) * weight;
        const __int128 scaled = static_cast<__int128>(split.shares[i].cc) * 2 * ports_total;
        RC_ASSERT(scaled - exact < 2 * ports_total);
        RC_ASSERT(exact - scaled < 2 * ports_total);
      }
      sum += split.shares[i].cc;
    }
    RC_ASSERT(sum == displaced);
    RC_ASSERT(split.not_shifted_cc >= 0);
    if (ports_total == 0) RC_ASSERT(split.not_shifted_cc == displaced);
    if (ports_total > 0 && !any_reduced) RC_ASSERT(split.not_shifted_cc == 0);
  });
}

// ---- costs ------------------------------------------------------------------------

TEST_CASE("SOW 4.8 / 5: costs are never negative and never under-charge", "[sow][property]") {
  rc::prop("unit upkeep and prices", [] {
    const SowUnitType type = AnyUnitType();
    const int64_t men = *rc::gen::inRange<int64_t>(0, 100000);
    const int batteries = *rc::gen::inRange(0, 10);
    const bool active = *rc::gen::arbitrary<bool>();
    const SeasonKind season = AnySeason();
    const int64_t upkeep = UnitUpkeepCc(type, men, batteries, active, season);
    RC_ASSERT(upkeep >= 0);
    RC_ASSERT(UnitUpkeepCc(type, men + 1, batteries, active, season) >= upkeep);
    RC_ASSERT(UnitUpkeepCc(type, men, batteries + 1, active, season) >= upkeep);
    // 5.3: peace and truce pay 15 × the wartime inactive cost.
    if (!IsCampaign(season)) RC_ASSERT(upkeep == 15 * UnitUpkeepCc(type, men, batteries, false, kWar));
    // Active costs at least inactive.
    RC_ASSERT(UnitUpkeepCc(type, men, batteries, true, kWar) >= UnitUpkeepCc(type, men, batteries, false, kWar));

    // Rounding up never charges less than the exact pro-rata cost, nor a
    // whole block more.
    const UnitUpkeepRow& row = At(kUnitUpkeep, type);
    if (row.block_men > 0) {
      const int64_t war_active = UnitUpkeepCc(type, men, 0, true, kWar);
      RC_ASSERT(war_active * row.block_men >= row.active_cc * men);
      RC_ASSERT(war_active * row.block_men < row.active_cc * (men + row.block_men) || row.active_cc == 0);
    }
    const ReinforcementRow& price = At(kReinforcementPrices, type);
    const int64_t reinforce = ReinforcementCostCc(type, men, batteries);
    RC_ASSERT(reinforce >= 0);
    RC_ASSERT(ReinforcementCostCc(type, men + 1, batteries) >= reinforce);
    if (price.block_men > 0) RC_ASSERT(reinforce * price.block_men >= price.block_cc * men);
    RC_ASSERT(UnitPriceCc(type, men, batteries) >= reinforce);
    RC_ASSERT(UnitPriceCc(type, men, batteries) - reinforce == At(kNewUnitFixedPrices, type).fixed_cc);
  });
  rc::prop("ship upkeep and prices", [] {
    const SowShipType type = AnyShipType();
    const int frigates = *rc::gen::inRange(1, 12);
    const int64_t capacity = *rc::gen::inRange<int64_t>(0, 8001);
    const bool active = *rc::gen::arbitrary<bool>();
    const bool in_base = *rc::gen::arbitrary<bool>();
    const SeasonKind season = AnySeason();
    const int64_t upkeep = ShipUpkeepCc(type, frigates, capacity, active, in_base, season);
    RC_ASSERT(upkeep >= 0);
    if (!active) RC_ASSERT(upkeep == 0);  // 5.6
    const int64_t war = ShipUpkeepCc(type, frigates, capacity, active, in_base, kWar);
    if (!IsCampaign(season)) RC_ASSERT(upkeep == 15 * war);  // 5.5
    // In base never costs more than sailing.
    RC_ASSERT(ShipUpkeepCc(type, frigates, capacity, true, true, kWar) <=
              ShipUpkeepCc(type, frigates, capacity, true, false, kWar));
    if (type == fb::SowShipType_TR) {
      // 8 Cr per 1000 capacity, rounded up to the cc, never down.
      const int64_t sailing = ShipUpkeepCc(type, 0, capacity, true, false, kWar);
      RC_ASSERT(sailing * 1000 >= 800 * capacity);
      RC_ASSERT((sailing - 1) * 1000 < 800 * capacity || sailing == 0);
      RC_ASSERT(sailing == ShipUpkeepCc(type, 0, capacity, true, true, kWar));
    }
    const int64_t price = ShipPriceCc(type, frigates, capacity);
    RC_ASSERT(price >= CrewCostCc(MenForShip(type, frigates, capacity)));
    RC_ASSERT(price >= 0);
  });
  rc::prop("crew, supplies and funds", [] {
    const int64_t crew = *rc::gen::inRange<int64_t>(0, 100000);
    const int64_t cost = CrewCostCc(crew);
    RC_ASSERT(cost * 100 >= 500 * crew);
    RC_ASSERT(cost * 100 < 500 * (crew + 100));
    const int64_t supplies = *rc::gen::inRange<int64_t>(0, 100000);
    const int64_t stores = *rc::gen::inRange<int64_t>(0, 100000);
    RC_ASSERT(SupplyCostCc(supplies, stores) == 500 * supplies + 200 * stores);
    const int64_t upkeep = *rc::gen::inRange<int64_t>(0, 100000);
    RC_ASSERT(FundsRequiredCc(cost, upkeep) == cost + 15 * upkeep);
  });
}

// ---- manpower, builds, disbanding -----------------------------------------------------

TEST_CASE("SOW 3.4 / 4.9: manpower properties", "[sow][property]") {
  rc::prop("each attrition part is 4% to the nearest man", [] {
    const int64_t pool = *rc::gen::inRange<int64_t>(0, 10000000);
    const int64_t units = *rc::gen::inRange<int64_t>(0, 10000000);
    const int64_t ships = *rc::gen::inRange<int64_t>(0, 10000000);
    const Attrition a = SeasonalAttrition(pool, units, ships);
    for (auto [part, men] : {std::pair{a.from_pool, pool}, std::pair{a.from_units, units},
                             std::pair{a.from_ships, ships}}) {
      RC_ASSERT(2 * std::abs(part * 100 - men * 4) <= 100);
    }
    RC_ASSERT(a.total() == a.from_pool + a.from_units + a.from_ships);
    RC_ASSERT(SeasonalGrowth(static_cast<int>(pool % 1000)) == 1000 * (pool % 1000));
  });
  rc::prop("disbanding conserves men; abroad about 40% are lost, 1 VP per 250", [] {
    const int64_t men = *rc::gen::inRange<int64_t>(0, 100000);
    const DisbandResult home = DisbandOutcome(men, false);
    RC_ASSERT((home == DisbandResult{men, 0, 0}));
    const DisbandResult abroad = DisbandOutcome(men, true);
    RC_ASSERT(abroad.returning + abroad.lost == men);
    RC_ASSERT(2 * std::abs(abroad.lost * 10 - men * 4) <= 10);
    RC_ASSERT(abroad.vp_penalty == men / 250);
  });
}

TEST_CASE("SOW 4.1 / 4.2: build clock properties", "[sow][property]") {
  rc::prop("complete exactly when enough war turns or any peace/truce turn passed", [] {
    const bool ship = *rc::gen::arbitrary<bool>();
    const BuildClock start = ship ? StartBuild(AnyShipType()) : StartBuild(AnyUnitType());
    const auto seasons = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 3));
    BuildClock clock = start;
    int war_turns = 0;
    bool peace_seen = false;
    for (int s : seasons) {
      const SeasonKind kind = static_cast<SeasonKind>(s);
      clock = AfterTurn(clock, kind);
      if (IsCampaign(kind)) ++war_turns; else peace_seen = true;
      RC_ASSERT(clock.done <= clock.needed);
      RC_ASSERT(clock.needed == start.needed);
      RC_ASSERT(clock.complete() == (peace_seen || war_turns >= start.needed));
      RC_ASSERT(clock.remaining() == (clock.complete() ? 0 : start.needed - war_turns));
    }
  });
}
