// Death or Glory's charts (rules/dog/charts.h, rules/dog/tables.h): one
// test case for every row of every chart, named after its number in
// rules/dog/RULES.md (D1.1 … D11.6). Expected values are written out here
// from the chart sheet (../shared/seeds/003_c20d2474f00e623e.txt), not read
// back from the tables.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "rules/dog/charts.h"
#include "rules/dog/tables.h"

using namespace adjutant;
using namespace adjutant::rules::dog;
namespace F = adjutant::fb;

namespace Catch {
template <>
struct StringMaker<Modifier> {
  static std::string convert(const Modifier& m) { return "{" + std::to_string(m.value) + ", \"" + m.name + "\"}"; }
};
template <>
struct StringMaker<std::optional<int>> {
  static std::string convert(const std::optional<int>& q) { return q ? std::to_string(*q) : std::string("-"); }
};
}  // namespace Catch

namespace {

constexpr std::array<F::DogNation, 5> kNations = {F::DogNation_British, F::DogNation_French, F::DogNation_Russian,
                                                  F::DogNation_Prussian, F::DogNation_Austrian};
constexpr std::array<F::DogArm, 2> kFootArms = {F::DogArm_Infantry, F::DogArm_Skirmishers};
constexpr std::array<F::DogArm, 5> kCavArms = {F::DogArm_LightCavalry, F::DogArm_HeavyCavalry, F::DogArm_Cuirassiers,
                                               F::DogArm_Lancers, F::DogArm_Cossacks};
constexpr std::array<F::DogArm, 2> kArtyArms = {F::DogArm_FootArtillery, F::DogArm_HorseArtillery};
const std::optional<int> NA;
using PerNation = std::array<std::optional<int>, 5>;  // British, French, Russian, Prussian, Austrian

// D1.1–D1.7: the change a <-> b, both ways, for every nation and arm.
void ExpectChange(F::DogFormation a, F::DogFormation b, const PerNation& foot, const PerNation& cav) {
  for (std::size_t i = 0; i < kNations.size(); ++i) {
    CAPTURE(i, a, b);
    for (auto arm : kFootArms) {
      CHECK(FormationChangeQuarters(kNations[i], arm, a, b) == foot[i]);
      CHECK(FormationChangeQuarters(kNations[i], arm, b, a) == foot[i]);
    }
    for (auto arm : kCavArms) {
      CHECK(FormationChangeQuarters(kNations[i], arm, a, b) == cav[i]);
      CHECK(FormationChangeQuarters(kNations[i], arm, b, a) == cav[i]);
    }
    for (auto arm : kArtyArms) {  // batteries only limber and unlimber
      CHECK(FormationChangeQuarters(kNations[i], arm, a, b) == NA);
      CHECK(FormationChangeQuarters(kNations[i], arm, b, a) == NA);
    }
  }
}

void ExpectReform(F::DogCohesion from, const PerNation& foot, const PerNation& cav) {
  for (std::size_t i = 0; i < kNations.size(); ++i) {
    CAPTURE(i, from);
    for (auto arm : kFootArms) CHECK(ReformQuarters(kNations[i], arm, from) == foot[i]);
    for (auto arm : kCavArms) CHECK(ReformQuarters(kNations[i], arm, from) == cav[i]);
    for (auto arm : kArtyArms) CHECK(ReformQuarters(kNations[i], arm, from) == foot[i]);  // reading
  }
}

void ExpectBattery(F::DogFormation from, F::DogFormation to, const PerNation& foot, const PerNation& horse) {
  for (std::size_t i = 0; i < kNations.size(); ++i) {
    CAPTURE(i);
    CHECK(FormationChangeQuarters(kNations[i], F::DogArm_FootArtillery, from, to) == foot[i]);
    CHECK(FormationChangeQuarters(kNations[i], F::DogArm_HorseArtillery, from, to) == horse[i]);
    for (auto arm : kFootArms) CHECK(FormationChangeQuarters(kNations[i], arm, from, to) == NA);
    for (auto arm : kCavArms) CHECK(FormationChangeQuarters(kNations[i], arm, from, to) == NA);
  }
}

bool Has(const std::vector<Modifier>& mods, int value, const std::string& name) {
  return std::find(mods.begin(), mods.end(), Modifier{value, name}) != mods.end();
}
bool Named(const std::vector<Modifier>& mods, const std::string& name) {
  return std::any_of(mods.begin(), mods.end(), [&](const Modifier& m) { return m.name.rfind(name, 0) == 0; });
}

MeleeSide Side(F::DogArm arm, int strength, F::DogFormation f = F::DogFormation_Line) {
  MeleeSide s;
  s.arm = arm;
  s.strength = strength;
  s.formation = f;
  return s;
}
MeleeSide Foot(F::DogFormation f = F::DogFormation_Line) { return Side(F::DogArm_Infantry, 500, f); }
MeleeSide Horse(F::DogArm arm = F::DogArm_LightCavalry) { return Side(arm, 500); }
std::vector<Modifier> Mods(const MeleeSide& me, const MeleeSide& enemy, int round = 1) {
  return MeleeModifiers(me, enemy, round);
}

// D7: a French line battalion in line, formed, fresh, morale 6, rolling 1.
MoraleResult Morale(const MoraleContext& ctx, F::DogArm arm = F::DogArm_Infantry,
                    F::DogFormation f = F::DogFormation_Line, F::DogClass c = F::DogClass_Line,
                    F::DogCohesion coh = F::DogCohesion_Formed, F::DogFatigue fat = F::DogFatigue_Fresh,
                    F::DogNation n = F::DogNation_French) {
  return MoraleTest(n, arm, c, f, coh, fat, 6, ctx, 1);
}

// D10: a line unit of control factor 0, no senior officer, rolling 5.
ControlResult Control(const ControlContext& ctx, F::DogClass c = F::DogClass_Line, int roll = 5) {
  return ControlTest(c, 0, ctx, roll);
}

}  // namespace

// ---- D1: formation changes ----------------------------------------------------------------

TEST_CASE("D1.1: Column of March <-> Column of Divisions: 1/4 (Brit/Fr), 1/2 (Russ), 3/4 (Pr/Au) infantry — "
          "cavalry -",
          "[dog][D1]") {
  ExpectChange(F::DogFormation_ColumnOfMarch, F::DogFormation_ColumnOfDivisions, {1, 1, 2, 3, 3}, {NA, NA, NA, NA, NA});
}

TEST_CASE("D1.2: Column of March <-> Line: 3/4 (Brit/Fr), 1 1/2 (Russ), 2 (Pr/Au) infantry — 3/4 (Brit), "
          "1/2 (Fr/Russ), 1 (Pr/Au) cavalry",
          "[dog][D1]") {
  ExpectChange(F::DogFormation_ColumnOfMarch, F::DogFormation_Line, {3, 3, 6, 8, 8}, {3, 2, 2, 4, 4});
}

TEST_CASE("D1.3: Column of March <-> Square: 1/2 (Brit/Fr), 1 (Russ), 1 1/2 (Pr/Au) infantry — cavalry -",
          "[dog][D1]") {
  ExpectChange(F::DogFormation_ColumnOfMarch, F::DogFormation_Square, {2, 2, 4, 6, 6}, {NA, NA, NA, NA, NA});
}

TEST_CASE("D1.4: Column of Divisions <-> Line: 1/2 (Brit/Fr), 1 (Russ), 1 1/2 (Pr/Au) infantry — cavalry -",
          "[dog][D1]") {
  ExpectChange(F::DogFormation_ColumnOfDivisions, F::DogFormation_Line, {2, 2, 4, 6, 6}, {NA, NA, NA, NA, NA});
}

TEST_CASE("D1.5: Column of Divisions <-> Square: 1/4 (Brit/Fr), 1/2 (Russ), 3/4 (Pr/Au) infantry — cavalry -",
          "[dog][D1]") {
  ExpectChange(F::DogFormation_ColumnOfDivisions, F::DogFormation_Square, {1, 1, 2, 3, 3}, {NA, NA, NA, NA, NA});
}

TEST_CASE("D1.6: Line <-> Square: 1/2 (Brit/Fr), 1/2 (Russ), 1 (Pr/Au) infantry — cavalry -", "[dog][D1]") {
  ExpectChange(F::DogFormation_Line, F::DogFormation_Square, {2, 2, 2, 4, 4}, {NA, NA, NA, NA, NA});
}

TEST_CASE("D1.7: Line <-> skirmish order: 1/4 (Brit/Fr), 1/2 (Russ), 3/4 (Pr/Au) infantry — 3/4 (Brit), "
          "1/2 (Fr/Russ), 1 (Pr/Au) cavalry",
          "[dog][D1]") {
  ExpectChange(F::DogFormation_Line, F::DogFormation_Skirmish, {1, 1, 2, 3, 3}, {3, 2, 2, 4, 4});
  // Reading: skirmish order is formed from Line only.
  CHECK(FormationChangeQuarters(F::DogNation_British, F::DogArm_Infantry, F::DogFormation_ColumnOfMarch,
                                F::DogFormation_Skirmish) == NA);
  CHECK(FormationChangeQuarters(F::DogNation_French, F::DogArm_LightCavalry, F::DogFormation_Skirmish,
                                F::DogFormation_ColumnOfMarch) == NA);
}

TEST_CASE("D1: no change takes no time — changes no row lists are impossible", "[dog][D1]") {
  CHECK(FormationChangeQuarters(F::DogNation_Russian, F::DogArm_Infantry, F::DogFormation_Line,
                                F::DogFormation_Line) == 0);
  CHECK(FormationChangeQuarters(F::DogNation_Russian, F::DogArm_FootArtillery, F::DogFormation_Limbered,
                                F::DogFormation_Limbered) == 0);
  CHECK(FormationChangeQuarters(F::DogNation_Russian, F::DogArm_Infantry, F::DogFormation_Square,
                                F::DogFormation_Skirmish) == NA);
  CHECK(FormationChangeQuarters(F::DogNation_Russian, F::DogArm_LightCavalry, F::DogFormation_Line,
                                F::DogFormation_Limbered) == NA);
}

TEST_CASE("D1.8: Reform from unformed: 1 (Brit/Fr), 1 (Russ), 2 (Pr/Au) infantry — 2 (Brit), 1 (Fr/Russ), "
          "2 (Pr/Au) cavalry",
          "[dog][D1]") {
  ExpectReform(F::DogCohesion_Unformed, {4, 4, 4, 8, 8}, {8, 4, 4, 8, 8});
  for (auto n : kNations) CHECK(ReformQuarters(n, F::DogArm_Infantry, F::DogCohesion_Formed) == 0);
}

TEST_CASE("D1.9: Reform from disordered: 1 (Brit/Fr), 2 (Russ), 2 (Pr/Au) infantry — 2 (Brit), 2 (Fr/Russ), "
          "3 (Pr/Au) cavalry",
          "[dog][D1]") {
  ExpectReform(F::DogCohesion_Disordered, {4, 4, 8, 8, 8}, {8, 8, 8, 12, 12});
}

TEST_CASE("D1.10: Unlimber battery: foot 1/2 (Brit/Fr), 3/4 (Russ), 1 (Pr/Au) — horse 1/4, 1/4, 1/2", "[dog][D1]") {
  ExpectBattery(F::DogFormation_Limbered, F::DogFormation_Unlimbered, {2, 2, 3, 4, 4}, {1, 1, 1, 2, 2});
}

TEST_CASE("D1.11: Limber battery: foot 1/2 (Brit/Fr), 1 (Russ), 1 1/2 (Pr/Au) — horse 1/2, 1/2, 3/4", "[dog][D1]") {
  ExpectBattery(F::DogFormation_Unlimbered, F::DogFormation_Limbered, {2, 2, 4, 6, 6}, {2, 2, 2, 3, 3});
  // A battery changes nothing else.
  CHECK(FormationChangeQuarters(F::DogNation_British, F::DogArm_FootArtillery, F::DogFormation_Limbered,
                                F::DogFormation_Line) == NA);
}

TEST_CASE("D1.12: Refacing a battery: 0-30 deg 1/4, 30-60 1/2, 60-120 1 — more in two steps", "[dog][D1]") {
  CHECK(RefaceQuarters(0) == 0);
  CHECK(RefaceQuarters(1) == 1);
  CHECK(RefaceQuarters(30) == 1);
  CHECK(RefaceQuarters(31) == 2);
  CHECK(RefaceQuarters(60) == 2);
  CHECK(RefaceQuarters(61) == 4);
  CHECK(RefaceQuarters(120) == 4);
  // ASSUMED: beyond 120, 120 and then the rest.
  CHECK(RefaceQuarters(121) == 5);
  CHECK(RefaceQuarters(150) == 5);
  CHECK(RefaceQuarters(151) == 6);
  CHECK(RefaceQuarters(180) == 6);
  // The short way round.
  CHECK(RefaceQuarters(-45) == 2);
  CHECK(RefaceQuarters(270) == 4);
  CHECK(RefaceQuarters(330) == 1);
  CHECK(RefaceQuarters(360) == 0);
}

TEST_CASE("D1.13: Tired units, conscripts, militia and landwehr take double time", "[dog][D1]") {
  CHECK(TakesDoubleTime(F::DogClass_Line, F::DogFatigue_Tired));
  CHECK(TakesDoubleTime(F::DogClass_Veteran, F::DogFatigue_Exhausted));  // reading
  CHECK(TakesDoubleTime(F::DogClass_Conscript, F::DogFatigue_Fresh));
  CHECK(TakesDoubleTime(F::DogClass_Militia, F::DogFatigue_Fresh));
  CHECK(TakesDoubleTime(F::DogClass_Landwehr, F::DogFatigue_Fresh));
  CHECK(TakesDoubleTime(F::DogClass_Landwehr, F::DogFatigue_Tired));
  CHECK_FALSE(TakesDoubleTime(F::DogClass_Line, F::DogFatigue_Fresh));
  CHECK_FALSE(TakesDoubleTime(F::DogClass_Veteran, F::DogFatigue_Fresh));
  CHECK_FALSE(TakesDoubleTime(F::DogClass_SecondLine, F::DogFatigue_Fresh));
  CHECK(kDoubleTimeFactor == 2);
}

// ---- D2: movement allowances -------------------------------------------------------------

TEST_CASE("D2.1: Infantry in line 100 mm (a square too)", "[dog][D2]") {
  CHECK(Allowance(F::DogArm_Infantry, F::DogFormation_Line) == 100);
  CHECK(Allowance(F::DogArm_Infantry, F::DogFormation_Square) == 100);
  CHECK(Allowance(F::DogArm_Skirmishers, F::DogFormation_Line) == 100);
}

TEST_CASE("D2.2: Infantry in column 150 mm (column of march or of divisions)", "[dog][D2]") {
  CHECK(Allowance(F::DogArm_Infantry, F::DogFormation_ColumnOfMarch) == 150);
  CHECK(Allowance(F::DogArm_Infantry, F::DogFormation_ColumnOfDivisions) == 150);
}

TEST_CASE("D2.3: Skirmishers 150 mm", "[dog][D2]") {
  CHECK(Allowance(F::DogArm_Skirmishers, F::DogFormation_Skirmish) == 150);
  CHECK(Allowance(F::DogArm_Infantry, F::DogFormation_Skirmish) == 150);
}

TEST_CASE("D2.4: Light cavalry in line 240 mm (lancers, Cossacks too)", "[dog][D2]") {
  CHECK(Allowance(F::DogArm_LightCavalry, F::DogFormation_Line) == 240);
  CHECK(Allowance(F::DogArm_Lancers, F::DogFormation_Line) == 240);
  CHECK(Allowance(F::DogArm_Cossacks, F::DogFormation_Line) == 240);
  CHECK(Allowance(F::DogArm_LightCavalry, F::DogFormation_Skirmish) == 240);  // ASSUMED
}

TEST_CASE("D2.5: Light cavalry in column 300 mm", "[dog][D2]") {
  CHECK(Allowance(F::DogArm_LightCavalry, F::DogFormation_ColumnOfMarch) == 300);
  CHECK(Allowance(F::DogArm_Lancers, F::DogFormation_ColumnOfMarch) == 300);
  CHECK(Allowance(F::DogArm_Cossacks, F::DogFormation_ColumnOfMarch) == 300);
}

TEST_CASE("D2.6: Heavy cavalry in line 200 mm (cuirassiers too)", "[dog][D2]") {
  CHECK(Allowance(F::DogArm_HeavyCavalry, F::DogFormation_Line) == 200);
  CHECK(Allowance(F::DogArm_Cuirassiers, F::DogFormation_Line) == 200);
  CHECK(Allowance(F::DogArm_HeavyCavalry, F::DogFormation_Skirmish) == 200);  // ASSUMED
}

TEST_CASE("D2.7: Heavy cavalry in column 240 mm", "[dog][D2]") {
  CHECK(Allowance(F::DogArm_HeavyCavalry, F::DogFormation_ColumnOfMarch) == 240);
  CHECK(Allowance(F::DogArm_Cuirassiers, F::DogFormation_ColumnOfMarch) == 240);
}

TEST_CASE("D2.8: Foot artillery 140 mm limbered, 0 unlimbered", "[dog][D2]") {
  CHECK(Allowance(F::DogArm_FootArtillery, F::DogFormation_Limbered) == 140);
  CHECK(Allowance(F::DogArm_FootArtillery, F::DogFormation_Unlimbered) == 0);
}

TEST_CASE("D2.9: Horse artillery 240 mm limbered, 0 unlimbered", "[dog][D2]") {
  CHECK(Allowance(F::DogArm_HorseArtillery, F::DogFormation_Limbered) == 240);
  CHECK(Allowance(F::DogArm_HorseArtillery, F::DogFormation_Unlimbered) == 0);
}

TEST_CASE("D2: formations an arm cannot take move 0", "[dog][D2]") {
  CHECK(Allowance(F::DogArm_LightCavalry, F::DogFormation_Square) == 0);
  CHECK(Allowance(F::DogArm_HeavyCavalry, F::DogFormation_ColumnOfDivisions) == 0);
  CHECK(Allowance(F::DogArm_Infantry, F::DogFormation_Limbered) == 0);
  CHECK(Allowance(F::DogArm_FootArtillery, F::DogFormation_ColumnOfMarch) == 0);
  CHECK(Allowance(F::DogArm_HorseArtillery, F::DogFormation_Line) == 0);
}

TEST_CASE("D2.10: Only skirmishers may move through other units", "[dog][D2]") {
  CHECK(MayPassThroughUnits(F::DogArm_Skirmishers, F::DogFormation_Skirmish));
  CHECK(MayPassThroughUnits(F::DogArm_Infantry, F::DogFormation_Skirmish));
  CHECK_FALSE(MayPassThroughUnits(F::DogArm_Infantry, F::DogFormation_Line));
  CHECK_FALSE(MayPassThroughUnits(F::DogArm_Skirmishers, F::DogFormation_ColumnOfMarch));
  CHECK_FALSE(MayPassThroughUnits(F::DogArm_LightCavalry, F::DogFormation_Skirmish));
  CHECK_FALSE(MayPassThroughUnits(F::DogArm_HorseArtillery, F::DogFormation_Limbered));
}

// ---- D3: terrain -----------------------------------------------------------------------------

TEST_CASE("D3: each terrain row is its kind's", "[dog][D3]") {
  for (int k = F::DogTerrainKind_MIN; k <= F::DogTerrainKind_MAX; ++k)
    CHECK(Terrain(static_cast<F::DogTerrainKind>(k)).kind == k);
  CHECK_THROWS_AS(Terrain(static_cast<F::DogTerrainKind>(F::DogTerrainKind_MAX + 1)), std::out_of_range);
}

TEST_CASE("D3.1: Open woods: seen at 500 mm, half rate, units unformed", "[dog][D3]") {
  const TerrainRow& t = Terrain(F::DogTerrainKind_OpenWoods);
  CHECK(t.visibility == 500);
  CHECK(t.percent_of_rate == 50);
  CHECK(CrossingDeductionMm(F::DogTerrainKind_OpenWoods) == 0);
  for (auto arm : {F::DogArm_Infantry, F::DogArm_LightCavalry, F::DogArm_FootArtillery}) {
    CHECK(MayEnter(F::DogTerrainKind_OpenWoods, arm));
    CHECK(CohesionAfter(F::DogTerrainKind_OpenWoods, arm, F::DogCohesion_Formed) == F::DogCohesion_Unformed);
    CHECK(CohesionAfter(F::DogTerrainKind_OpenWoods, arm, F::DogCohesion_Disordered) == F::DogCohesion_Disordered);
  }
}

TEST_CASE("D3.2: Dense woods: seen at 250 mm, a quarter of the rate, units disordered", "[dog][D3]") {
  const TerrainRow& t = Terrain(F::DogTerrainKind_DenseWoods);
  CHECK(t.visibility == 250);
  CHECK(t.percent_of_rate == 25);
  for (auto arm : {F::DogArm_Infantry, F::DogArm_HeavyCavalry, F::DogArm_HorseArtillery}) {
    CHECK(MayEnter(F::DogTerrainKind_DenseWoods, arm));
    CHECK(CohesionAfter(F::DogTerrainKind_DenseWoods, arm, F::DogCohesion_Formed) == F::DogCohesion_Disordered);
    CHECK(CohesionAfter(F::DogTerrainKind_DenseWoods, arm, F::DogCohesion_Unformed) == F::DogCohesion_Disordered);
  }
}

TEST_CASE("D3.3: Streams: 10 mm for every 10 mm of width — no other effect", "[dog][D3]") {
  const TerrainRow& t = Terrain(F::DogTerrainKind_Stream);
  CHECK(t.visibility == 0);
  CHECK(t.percent_of_rate == 100);
  CHECK(t.deduct_per_10 == 10);
  CHECK(CrossingDeductionMm(F::DogTerrainKind_Stream) == 10);  // ASSUMED 10 mm wide
  CHECK(CrossingDeductionMm(F::DogTerrainKind_Stream, 10) == 10);
  CHECK(CrossingDeductionMm(F::DogTerrainKind_Stream, 11) == 20);
  CHECK(CrossingDeductionMm(F::DogTerrainKind_Stream, 25) == 30);
  for (auto arm : {F::DogArm_Infantry, F::DogArm_Lancers, F::DogArm_FootArtillery}) {
    CHECK(MayEnter(F::DogTerrainKind_Stream, arm));
    CHECK(CohesionAfter(F::DogTerrainKind_Stream, arm, F::DogCohesion_Formed) == F::DogCohesion_Formed);
    CHECK(CohesionAfter(F::DogTerrainKind_Stream, arm, F::DogCohesion_Unformed) == F::DogCohesion_Unformed);
  }
}

TEST_CASE("D3.4: Fordable rivers: 20 mm for every 10 mm of width, unformed, artillery may not cross", "[dog][D3]") {
  CHECK(Terrain(F::DogTerrainKind_FordableRiver).deduct_per_10 == 20);
  CHECK(CrossingDeductionMm(F::DogTerrainKind_FordableRiver) == 20);
  CHECK(CrossingDeductionMm(F::DogTerrainKind_FordableRiver, 30) == 60);
  for (auto arm : {F::DogArm_Infantry, F::DogArm_Skirmishers, F::DogArm_Cossacks, F::DogArm_Cuirassiers}) {
    CHECK(MayEnter(F::DogTerrainKind_FordableRiver, arm));
    CHECK(CohesionAfter(F::DogTerrainKind_FordableRiver, arm, F::DogCohesion_Formed) == F::DogCohesion_Unformed);
  }
  for (auto arm : kArtyArms) {
    CHECK_FALSE(MayEnter(F::DogTerrainKind_FordableRiver, arm));
    CHECK(CohesionAfter(F::DogTerrainKind_FordableRiver, arm, F::DogCohesion_Formed) == F::DogCohesion_Formed);
  }
}

TEST_CASE("D3.5: Low walls and hedges: 25 mm, cavalry unformed, artillery may not cross", "[dog][D3]") {
  CHECK(Terrain(F::DogTerrainKind_LowWall).deduct_mm == 25);
  CHECK(CrossingDeductionMm(F::DogTerrainKind_LowWall) == 25);
  CHECK(CrossingDeductionMm(F::DogTerrainKind_LowWall, 40) == 25);
  CHECK(MayEnter(F::DogTerrainKind_LowWall, F::DogArm_Infantry));
  CHECK(CohesionAfter(F::DogTerrainKind_LowWall, F::DogArm_Infantry, F::DogCohesion_Formed) == F::DogCohesion_Formed);
  for (auto arm : kCavArms) {
    CHECK(MayEnter(F::DogTerrainKind_LowWall, arm));
    CHECK(CohesionAfter(F::DogTerrainKind_LowWall, arm, F::DogCohesion_Formed) == F::DogCohesion_Unformed);
  }
  for (auto arm : kArtyArms) CHECK_FALSE(MayEnter(F::DogTerrainKind_LowWall, arm));
}

TEST_CASE("D3.6: High walls and hedges: 50 mm, all unformed, artillery may not cross", "[dog][D3]") {
  CHECK(CrossingDeductionMm(F::DogTerrainKind_HighWall) == 50);
  for (auto arm : {F::DogArm_Infantry, F::DogArm_HeavyCavalry}) {
    CHECK(MayEnter(F::DogTerrainKind_HighWall, arm));
    CHECK(CohesionAfter(F::DogTerrainKind_HighWall, arm, F::DogCohesion_Formed) == F::DogCohesion_Unformed);
  }
  for (auto arm : kArtyArms) CHECK_FALSE(MayEnter(F::DogTerrainKind_HighWall, arm));
}

TEST_CASE("D3.7: Entering buildings: 25 mm — cavalry and artillery may not", "[dog][D3]") {
  CHECK(CrossingDeductionMm(F::DogTerrainKind_Building) == 25);
  for (auto arm : kFootArms) {
    CHECK(MayEnter(F::DogTerrainKind_Building, arm));
    CHECK(CohesionAfter(F::DogTerrainKind_Building, arm, F::DogCohesion_Formed) == F::DogCohesion_Formed);
  }
  for (auto arm : kCavArms) CHECK_FALSE(MayEnter(F::DogTerrainKind_Building, arm));
  for (auto arm : kArtyArms) CHECK_FALSE(MayEnter(F::DogTerrainKind_Building, arm));
}

TEST_CASE("D3.8: Gentle slopes: 25% off the rate", "[dog][D3]") {
  CHECK(Terrain(F::DogTerrainKind_GentleSlope).percent_of_rate == 75);
  CHECK(CrossingDeductionMm(F::DogTerrainKind_GentleSlope) == 0);
  CHECK(CohesionAfter(F::DogTerrainKind_GentleSlope, F::DogArm_Infantry, F::DogCohesion_Formed) ==
        F::DogCohesion_Formed);
}

TEST_CASE("D3.9: Medium slopes: 50% off the rate", "[dog][D3]") {
  CHECK(Terrain(F::DogTerrainKind_MediumSlope).percent_of_rate == 50);
  CHECK(CohesionAfter(F::DogTerrainKind_MediumSlope, F::DogArm_LightCavalry, F::DogCohesion_Formed) ==
        F::DogCohesion_Formed);
}

TEST_CASE("D3.10: Steep slopes: 75% off the rate", "[dog][D3]") {
  CHECK(Terrain(F::DogTerrainKind_SteepSlope).percent_of_rate == 25);
  CHECK(CohesionAfter(F::DogTerrainKind_SteepSlope, F::DogArm_FootArtillery, F::DogCohesion_Formed) ==
        F::DogCohesion_Formed);
  CHECK(MayEnter(F::DogTerrainKind_SteepSlope, F::DogArm_FootArtillery));
}

TEST_CASE("D3.11: Extremely steep slopes: 75% off the rate, unformed", "[dog][D3]") {
  CHECK(Terrain(F::DogTerrainKind_ExtremeSlope).percent_of_rate == 25);
  for (auto arm : {F::DogArm_Infantry, F::DogArm_Cossacks, F::DogArm_HorseArtillery}) {
    CHECK(MayEnter(F::DogTerrainKind_ExtremeSlope, arm));
    CHECK(CohesionAfter(F::DogTerrainKind_ExtremeSlope, arm, F::DogCohesion_Formed) == F::DogCohesion_Unformed);
  }
}

// ---- D4: melee modifiers ------------------------------------------------------------------------

TEST_CASE("D4: Sum and Describe", "[dog][D4]") {
  std::vector<Modifier> m = {{2, "Heavy Cavalry"}, {-1, "unformed"}};
  CHECK(Sum(m) == 1);
  CHECK(Describe(m) == "+2 Heavy Cavalry, -1 unformed");
  CHECK(Describe({}) == "");
  CHECK(Sum({}) == 0);
}

TEST_CASE("D4: equal, formed, fresh line infantry have no modifiers", "[dog][D4]") {
  CHECK(Mods(Foot(), Foot()).empty());
}

TEST_CASE("D4.1: +4 outnumber enemy by 4:1 or more", "[dog][D4]") {
  CHECK(Mods(Side(F::DogArm_Infantry, 2000), Foot()) ==
        std::vector<Modifier>{{4, "Outnumber enemy by 4:1 or more"}});
  CHECK(Mods(Side(F::DogArm_Infantry, 5000), Foot()) ==
        std::vector<Modifier>{{4, "Outnumber enemy by 4:1 or more"}});
  CHECK(Mods(Side(F::DogArm_Infantry, 1999), Foot()) == std::vector<Modifier>{{3, "Outnumber enemy by 3:1"}});
  // Reading: against no men at all, the largest; with none, nothing.
  CHECK(Sum(Mods(Side(F::DogArm_Infantry, 10), Side(F::DogArm_Infantry, 0))) == 4);
  CHECK(Mods(Side(F::DogArm_Infantry, 0), Side(F::DogArm_Infantry, 0)).empty());
}

TEST_CASE("D4.2: +3 outnumber enemy by 3:1", "[dog][D4]") {
  CHECK(Mods(Side(F::DogArm_Infantry, 1500), Foot()) == std::vector<Modifier>{{3, "Outnumber enemy by 3:1"}});
  CHECK(Mods(Side(F::DogArm_Infantry, 1499), Foot()) == std::vector<Modifier>{{2, "Outnumber enemy by 2:1"}});
}

TEST_CASE("D4.3: +2 outnumber enemy by 2:1", "[dog][D4]") {
  CHECK(Mods(Side(F::DogArm_Infantry, 1000), Foot()) == std::vector<Modifier>{{2, "Outnumber enemy by 2:1"}});
  CHECK(Mods(Side(F::DogArm_Infantry, 999), Foot()) == std::vector<Modifier>{{1, "Outnumber enemy by 3:2"}});
}

TEST_CASE("D4.4: +1 outnumber enemy by 3:2", "[dog][D4]") {
  CHECK(Mods(Side(F::DogArm_Infantry, 750), Foot()) == std::vector<Modifier>{{1, "Outnumber enemy by 3:2"}});
  CHECK(Mods(Side(F::DogArm_Infantry, 3), Side(F::DogArm_Infantry, 2)) ==
        std::vector<Modifier>{{1, "Outnumber enemy by 3:2"}});
  CHECK(Mods(Side(F::DogArm_Infantry, 749), Foot()).empty());
  CHECK(Mods(Foot(), Side(F::DogArm_Infantry, 750)).empty());  // the smaller side has none
}

TEST_CASE("D4.5: +1 Veteran", "[dog][D4]") {
  MeleeSide me = Foot();
  me.cls = F::DogClass_Veteran;
  CHECK(Mods(me, Foot()) == std::vector<Modifier>{{1, "Veteran"}});
  CHECK_FALSE(Named(Mods(Foot(), me), "Veteran"));
}

TEST_CASE("D4.6: -1 2nd line", "[dog][D4]") {
  MeleeSide me = Foot();
  me.cls = F::DogClass_SecondLine;
  CHECK(Mods(me, Foot()) == std::vector<Modifier>{{-1, "2nd line"}});
  CHECK(Mods(Foot(), me).empty());
}

TEST_CASE("D4.7: -2 conscript/militia (landwehr as militia)", "[dog][D4]") {
  for (auto c : {F::DogClass_Conscript, F::DogClass_Militia, F::DogClass_Landwehr}) {
    MeleeSide me = Foot();
    me.cls = c;
    CHECK(Mods(me, Foot()) == std::vector<Modifier>{{-2, "conscript/militia"}});
  }
  MeleeSide second = Foot();
  second.cls = F::DogClass_SecondLine;
  CHECK_FALSE(Named(Mods(second, Foot()), "conscript/militia"));
}

TEST_CASE("D4.8: +2 Heavy Cavalry (cuirassiers are heavy cavalry)", "[dog][D4]") {
  CHECK(Mods(Horse(F::DogArm_HeavyCavalry), Horse()) == std::vector<Modifier>{{2, "Heavy Cavalry"}});
  CHECK(Mods(Horse(F::DogArm_Cuirassiers), Horse()) ==
        std::vector<Modifier>{{2, "Heavy Cavalry"}, {1, "Cuirassiers"}});
  CHECK(Mods(Horse(F::DogArm_LightCavalry), Horse()).empty());
}

TEST_CASE("D4.9: +1 Cuirassiers", "[dog][D4]") {
  CHECK(Has(Mods(Horse(F::DogArm_Cuirassiers), Horse()), 1, "Cuirassiers"));
  CHECK(Sum(Mods(Horse(F::DogArm_Cuirassiers), Horse())) == 3);
  CHECK_FALSE(Named(Mods(Horse(F::DogArm_HeavyCavalry), Horse()), "Cuirassiers"));
}

TEST_CASE("D4.10: +2 Lancers (first round only)", "[dog][D4]") {
  CHECK(Mods(Horse(F::DogArm_Lancers), Horse(), 1) == std::vector<Modifier>{{2, "Lancers (first round only)"}});
  CHECK(Mods(Horse(F::DogArm_Lancers), Horse(), 2).empty());
  CHECK(Mods(Horse(F::DogArm_Lancers), Horse(), 3).empty());
  CHECK(Mods(Horse(F::DogArm_LightCavalry), Horse(), 1).empty());
}

TEST_CASE("D4.11: +6 Cavalry vs skirmishers and arty", "[dog][D4]") {
  const std::vector<Modifier> six = {{6, "Cavalry vs skirmishers and arty"}};
  CHECK(Mods(Horse(), Side(F::DogArm_Skirmishers, 500, F::DogFormation_Skirmish)) == six);
  CHECK(Mods(Horse(), Foot(F::DogFormation_Skirmish)) == six);
  CHECK(Mods(Horse(), Side(F::DogArm_FootArtillery, 500, F::DogFormation_Unlimbered)) == six);
  CHECK(Mods(Horse(F::DogArm_Cossacks), Side(F::DogArm_HorseArtillery, 500, F::DogFormation_Limbered)) == six);
  CHECK(Mods(Horse(), Foot()).empty());
  CHECK(Mods(Horse(), Side(F::DogArm_Skirmishers, 500, F::DogFormation_Line)).empty());  // formed: not skirmishing
  CHECK_FALSE(Named(Mods(Foot(), Side(F::DogArm_FootArtillery, 500, F::DogFormation_Unlimbered)),
                    "Cavalry vs skirmishers and arty"));
}

TEST_CASE("D4.12: +3 Cav vs unformed foot", "[dog][D4]") {
  MeleeSide enemy = Foot();
  enemy.cohesion = F::DogCohesion_Unformed;
  CHECK(Mods(Horse(), enemy) == std::vector<Modifier>{{3, "Cav vs unformed foot"}});
  CHECK(Mods(Horse(), Foot()).empty());
  MeleeSide cav = Horse();
  cav.cohesion = F::DogCohesion_Unformed;
  CHECK_FALSE(Named(Mods(Horse(), cav), "Cav vs unformed foot"));
}

TEST_CASE("D4.13: +5 Cav vs disordered foot", "[dog][D4]") {
  MeleeSide enemy = Foot();
  enemy.cohesion = F::DogCohesion_Disordered;
  CHECK(Mods(Horse(), enemy) == std::vector<Modifier>{{5, "Cav vs disordered foot"}});
  enemy.cohesion = F::DogCohesion_Unformed;
  CHECK_FALSE(Named(Mods(Horse(), enemy), "Cav vs disordered foot"));
}

TEST_CASE("D4.14: +1 Cav vs unformed cav", "[dog][D4]") {
  MeleeSide enemy = Horse(F::DogArm_HeavyCavalry);
  enemy.cohesion = F::DogCohesion_Unformed;
  CHECK(Mods(Horse(), enemy) == std::vector<Modifier>{{1, "Cav vs unformed cav"}});
  CHECK_FALSE(Named(Mods(Horse(), Horse()), "Cav vs unformed cav"));
}

TEST_CASE("D4.15: +2 Cav vs disordered cav", "[dog][D4]") {
  MeleeSide enemy = Horse();
  enemy.cohesion = F::DogCohesion_Disordered;
  CHECK(Mods(Horse(), enemy) == std::vector<Modifier>{{2, "Cav vs disordered cav"}});
  enemy.cohesion = F::DogCohesion_Unformed;
  CHECK_FALSE(Named(Mods(Horse(), enemy), "Cav vs disordered cav"));
}

TEST_CASE("D4.16: -5 Cav vs Inf in square (with D4.17's +2: -3 in all)", "[dog][D4]") {
  const auto mods = Mods(Horse(), Foot(F::DogFormation_Square));
  CHECK(mods == std::vector<Modifier>{{-5, "Cav vs Inf in square"}, {2, "Cav vs Inf in single rank (includes squares)"}});
  CHECK(Sum(mods) == -3);
  CHECK_FALSE(Named(Mods(Horse(), Foot(F::DogFormation_Line)), "Cav vs Inf in square"));
}

TEST_CASE("D4.17: +2 Cav vs Inf in single rank (includes squares)", "[dog][D4]") {
  MeleeSide thin = Foot();
  thin.single_rank = true;
  CHECK(Mods(Horse(), thin) == std::vector<Modifier>{{2, "Cav vs Inf in single rank (includes squares)"}});
  CHECK(Has(Mods(Horse(), Foot(F::DogFormation_Square)), 2, "Cav vs Inf in single rank (includes squares)"));
  CHECK(Mods(Horse(), Foot()).empty());  // two or more ranks
  MeleeSide column = Foot(F::DogFormation_ColumnOfDivisions);
  column.single_rank = true;  // reading: a column is never a single rank
  CHECK(Mods(Horse(), column).empty());
}

TEST_CASE("D4.18: -2 Cossacks vs formed cav", "[dog][D4]") {
  CHECK(Mods(Horse(F::DogArm_Cossacks), Horse()) == std::vector<Modifier>{{-2, "Cossacks vs formed cav"}});
  MeleeSide unformed = Horse();
  unformed.cohesion = F::DogCohesion_Unformed;
  CHECK(Mods(Horse(F::DogArm_Cossacks), unformed) == std::vector<Modifier>{{1, "Cav vs unformed cav"}});
  CHECK(Mods(Horse(F::DogArm_Cossacks), Foot()).empty());
  CHECK(Mods(Horse(F::DogArm_LightCavalry), Horse()).empty());
}

TEST_CASE("D4.19: +2 Inf in column vs Inf in single rank line", "[dog][D4]") {
  MeleeSide thin = Foot();
  thin.single_rank = true;
  const std::vector<Modifier> two = {{2, "Inf in column vs Inf in single rank line"}};
  CHECK(Mods(Foot(F::DogFormation_ColumnOfDivisions), thin) == two);
  CHECK(Mods(Foot(F::DogFormation_ColumnOfMarch), thin) == two);
  CHECK(Mods(Foot(F::DogFormation_Line), thin).empty());
  CHECK(Mods(Foot(F::DogFormation_ColumnOfDivisions), Foot()).empty());
  CHECK(Mods(Foot(F::DogFormation_ColumnOfDivisions), Foot(F::DogFormation_Square)).empty());
}

TEST_CASE("D4.20: +2 Inf in square vs cav", "[dog][D4]") {
  CHECK(Mods(Foot(F::DogFormation_Square), Horse()) == std::vector<Modifier>{{2, "Inf in square vs cav"}});
  CHECK(Mods(Foot(F::DogFormation_Square), Foot()).empty());
  CHECK(Mods(Foot(F::DogFormation_Line), Horse()).empty());
}

TEST_CASE("D4.21: +1 Inf vs unformed (own unformed -1 is D4.26)", "[dog][D4]") {
  MeleeSide enemy = Horse();
  enemy.cohesion = F::DogCohesion_Unformed;
  CHECK(Mods(Foot(), enemy) == std::vector<Modifier>{{1, "Inf vs unformed"}});
  MeleeSide foot = Foot();
  foot.cohesion = F::DogCohesion_Unformed;
  CHECK(Mods(Foot(), foot) == std::vector<Modifier>{{1, "Inf vs unformed"}});
  CHECK(Mods(foot, Foot()) == std::vector<Modifier>{{-1, "unformed"}});
  CHECK_FALSE(Named(Mods(Horse(), foot), "Inf vs unformed"));
}

TEST_CASE("D4.22: +2 Inf vs disordered", "[dog][D4]") {
  MeleeSide enemy = Foot();
  enemy.cohesion = F::DogCohesion_Disordered;
  CHECK(Mods(Foot(), enemy) == std::vector<Modifier>{{2, "Inf vs disordered"}});
  CHECK(Mods(Foot(), Foot()).empty());
}

TEST_CASE("D4.23: +2 Inf vs skirmishers", "[dog][D4]") {
  CHECK(Mods(Foot(), Side(F::DogArm_Skirmishers, 500, F::DogFormation_Skirmish)) ==
        std::vector<Modifier>{{2, "Inf vs skirmishers"}});
  CHECK(Mods(Foot(), Foot(F::DogFormation_Skirmish)) == std::vector<Modifier>{{2, "Inf vs skirmishers"}});
  CHECK(Mods(Foot(), Foot()).empty());
}

TEST_CASE("D4.24: +1 following up victory", "[dog][D4]") {
  MeleeSide me = Foot();
  me.following_up = true;
  CHECK(Mods(me, Foot()) == std::vector<Modifier>{{1, "following up victory"}});
  CHECK(Mods(Foot(), me).empty());
}

TEST_CASE("D4.25: +1 uphill", "[dog][D4]") {
  MeleeSide me = Horse();
  me.uphill = true;
  CHECK(Mods(me, Horse()) == std::vector<Modifier>{{1, "uphill"}});
  CHECK(Mods(Horse(), me).empty());
}

TEST_CASE("D4.26: -1 unformed", "[dog][D4]") {
  MeleeSide me = Horse();
  me.cohesion = F::DogCohesion_Unformed;
  CHECK(Has(Mods(me, Horse()), -1, "unformed"));
  CHECK(Sum(Mods(me, Horse())) == -1);
  CHECK_FALSE(Named(Mods(Horse(), Horse()), "unformed"));
}

TEST_CASE("D4.27: -2 disordered", "[dog][D4]") {
  MeleeSide me = Foot();
  me.cohesion = F::DogCohesion_Disordered;
  CHECK(Mods(me, Foot()) == std::vector<Modifier>{{-2, "disordered"}});
  me.cohesion = F::DogCohesion_Unformed;
  CHECK_FALSE(Named(Mods(me, Foot()), "disordered"));
}

TEST_CASE("D4.28: -2 tired", "[dog][D4]") {
  MeleeSide me = Foot();
  me.fatigue = F::DogFatigue_Tired;
  CHECK(Mods(me, Foot()) == std::vector<Modifier>{{-2, "tired"}});
  CHECK(Mods(Foot(), me).empty());
}

TEST_CASE("D4.29: -4 exhausted", "[dog][D4]") {
  MeleeSide me = Foot();
  me.fatigue = F::DogFatigue_Exhausted;
  CHECK(Mods(me, Foot()) == std::vector<Modifier>{{-4, "exhausted"}});
  CHECK_FALSE(Named(Mods(me, Foot()), "tired"));
}

TEST_CASE("D4: all rows that hold add up, in the chart's order", "[dog][D4]") {
  // Tired veteran cuirassiers, 1200 strong, following up from higher ground into a
  // disordered single-rank line of 500 in round 1.
  MeleeSide me = Side(F::DogArm_Cuirassiers, 1200);
  me.cls = F::DogClass_Veteran;
  me.following_up = true;
  me.uphill = true;
  me.fatigue = F::DogFatigue_Tired;
  MeleeSide enemy = Foot();
  enemy.single_rank = true;
  enemy.cohesion = F::DogCohesion_Disordered;
  const auto mods = Mods(me, enemy);
  CHECK(Describe(mods) ==
        "+2 Outnumber enemy by 2:1, +1 Veteran, +2 Heavy Cavalry, +1 Cuirassiers, +5 Cav vs disordered foot, "
        "+2 Cav vs Inf in single rank (includes squares), +1 following up victory, +1 uphill, -2 tired");
  CHECK(Sum(mods) == 13);
}

// ---- D5: when morale is tested -----------------------------------------------------------------

TEST_CASE("D5.1-D5.7: the occasions of a morale test", "[dog][D5]") {
  CHECK(kMoraleOccasions.size() == 7);
  CHECK(kMoraleOccasions[0] == "infantry being charged");
  CHECK(kMoraleOccasions[1] == "charging");
  CHECK(kMoraleOccasions[2] == "lost a round of melee");
  CHECK(kMoraleOccasions[3] == "friends retreating within 150 mm");
  CHECK(kMoraleOccasions[4] == "10% casualties");
  CHECK(kMoraleOccasions[5] == "commander killed within sight");
  CHECK(kMoraleOccasions[6] == "below half strength and losing more");
  CHECK(kFriendsRetreatingRangeMm == 150);
}

TEST_CASE("D5.5: one test for each 10% of the starting strength lost", "[dog][D5]") {
  CHECK(CasualtyTests(500, 500, 451) == 0);  // 9.8%
  CHECK(CasualtyTests(500, 500, 450) == 1);  // 10%
  CHECK(CasualtyTests(500, 460, 440) == 1);  // 8% -> 12%
  CHECK(CasualtyTests(500, 450, 350) == 2);  // 10% -> 30%
  CHECK(CasualtyTests(500, 449, 401) == 0);  // 10.2% -> 19.8%
  CHECK(CasualtyTests(500, 500, 0) == 10);
  CHECK(CasualtyTests(500, 450, 450) == 0);
  CHECK(CasualtyTests(0, 0, 0) == 0);
  CHECK(CasualtyTests(333, 333, 299) == 1);  // 34 of 333: 10.2%
  CHECK(CasualtyTests(333, 333, 300) == 0);  // 33 of 333: 9.9%
}

TEST_CASE("D5.7: below half strength, and each loss after", "[dog][D5]") {
  CHECK_FALSE(BelowHalfTest(500, 260, 250));  // exactly half is not below
  CHECK(BelowHalfTest(500, 251, 249));
  CHECK(BelowHalfTest(500, 249, 240));
  CHECK_FALSE(BelowHalfTest(500, 240, 240));  // no new casualties
  CHECK(BelowHalfTest(501, 260, 250));        // 250 < 250.5
  CHECK_FALSE(BelowHalfTest(500, 400, 300));
}

// ---- D6: how morale is tested ----------------------------------------------------------------------

TEST_CASE("D6.1-D6.6: T = factor x 10 + modifiers + rating — pass at T-10 and below, shaken above it to T, "
          "break above T",
          "[dog][D6]") {
  MoraleContext ctx;
  auto roll = [&](int r) { return MoraleTest(F::DogNation_French, F::DogArm_Infantry, F::DogClass_Line,
                                             F::DogFormation_Line, F::DogCohesion_Formed, F::DogFatigue_Fresh, 6,
                                             ctx, r); };
  CHECK(roll(1).factor_pct == 60);
  CHECK(roll(1).modifiers.empty());
  CHECK(roll(50).result == "pass");
  CHECK(roll(51).result == "shaken");
  CHECK(roll(60).result == "shaken");
  CHECK(roll(61).result == "break");

  // With modifiers and the commander's rating: 7 x 10 - 10 (unformed) + 5 = 65.
  ctx.commander_rating = 5;
  auto r = MoraleTest(F::DogNation_French, F::DogArm_Infantry, F::DogClass_Line, F::DogFormation_Line,
                      F::DogCohesion_Unformed, F::DogFatigue_Fresh, 7, ctx, 55);
  CHECK(r.factor_pct == 65);
  CHECK(r.modifiers == std::vector<Modifier>{{-10, "unformed"}, {5, "commander's rating"}});
  CHECK(r.result == "pass");
  CHECK(MoraleBand(65, 56) == "shaken");
  CHECK(MoraleBand(65, 65) == "shaken");
  CHECK(MoraleBand(65, 66) == "break");

  // Factor 10 and factor 5, as the sheet gives them.
  CHECK(MoraleBand(100, 90) == "pass");
  CHECK(MoraleBand(100, 91) == "shaken");
  CHECK(MoraleBand(100, 100) == "shaken");
  CHECK(MoraleBand(50, 40) == "pass");
  CHECK(MoraleBand(50, 41) == "shaken");
  CHECK(MoraleBand(50, 50) == "shaken");
  CHECK(MoraleBand(50, 51) == "break");
  CHECK(kShakenRetireMm == 50);
}

TEST_CASE("D6: the three results partition the rolls 1..100 for any T", "[dog][D6]") {
  for (int t = -30; t <= 140; ++t) {
    int pass = 0, shaken = 0, broke = 0;
    std::string last = "pass";
    for (int roll = 1; roll <= 100; ++roll) {
      const std::string r = MoraleBand(t, roll);
      if (r == "pass") ++pass;
      else if (r == "shaken") ++shaken;
      else if (r == "break") ++broke;
      // Monotone: pass, then shaken, then break.
      if (last == "shaken") CHECK(r != "pass");
      if (last == "break") CHECK(r == "break");
      last = r;
    }
    CAPTURE(t);
    CHECK(pass + shaken + broke == 100);
    CHECK(pass == std::clamp(t - 10, 0, 100));
    CHECK(shaken == std::clamp(t, 0, 100) - std::clamp(t - 10, 0, 100));
    CHECK(broke == 100 - std::clamp(t, 0, 100));
  }
}

// ---- D7: morale modifiers ----------------------------------------------------------------------------

TEST_CASE("D7.1: -5% for every 10% casualties", "[dog][D7]") {
  MoraleContext ctx;
  ctx.casualties_pct = 30;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{-15, "for every 10% casualties (x3)"}});
  CHECK(Morale(ctx).factor_pct == 45);
  ctx.casualties_pct = 29;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{-10, "for every 10% casualties (x2)"}});
  ctx.casualties_pct = 10;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{-5, "for every 10% casualties"}});
  ctx.casualties_pct = 9;
  CHECK(Morale(ctx).modifiers.empty());
}

TEST_CASE("D7.2: -5% for each 10% casualties lost this move (on top of D7.1)", "[dog][D7]") {
  MoraleContext ctx;
  ctx.casualties_pct_this_move = 20;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{-10, "for each 10% casualties lost this move (x2)"}});
  ctx.casualties_pct = 20;
  CHECK(Morale(ctx).factor_pct == 40);
  ctx = {};
  ctx.casualties_pct_this_move = 9;
  CHECK(Morale(ctx).modifiers.empty());
}

TEST_CASE("D7.3: -10% unformed", "[dog][D7]") {
  MoraleContext ctx;
  auto r = Morale(ctx, F::DogArm_Infantry, F::DogFormation_Line, F::DogClass_Line, F::DogCohesion_Unformed);
  CHECK(r.modifiers == std::vector<Modifier>{{-10, "unformed"}});
  CHECK(r.factor_pct == 50);
}

TEST_CASE("D7.4: -20% disordered", "[dog][D7]") {
  MoraleContext ctx;
  auto r = Morale(ctx, F::DogArm_Infantry, F::DogFormation_Line, F::DogClass_Line, F::DogCohesion_Disordered);
  CHECK(r.modifiers == std::vector<Modifier>{{-20, "disordered"}});
}

TEST_CASE("D7.5: -10% tired", "[dog][D7]") {
  MoraleContext ctx;
  auto r = Morale(ctx, F::DogArm_Infantry, F::DogFormation_Line, F::DogClass_Line, F::DogCohesion_Formed,
                  F::DogFatigue_Tired);
  CHECK(r.modifiers == std::vector<Modifier>{{-10, "tired"}});
}

TEST_CASE("D7.6: -20% exhausted", "[dog][D7]") {
  MoraleContext ctx;
  auto r = Morale(ctx, F::DogArm_Infantry, F::DogFormation_Line, F::DogClass_Line, F::DogCohesion_Formed,
                  F::DogFatigue_Exhausted);
  CHECK(r.modifiers == std::vector<Modifier>{{-20, "exhausted"}});
}

TEST_CASE("D7.7: -10% for each flank threatened", "[dog][D7]") {
  MoraleContext ctx;
  ctx.flanks_threatened = 1;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{-10, "for each flank threatened"}});
  ctx.flanks_threatened = 2;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{-20, "for each flank threatened (x2)"}});
  ctx.flanks_threatened = 3;  // a unit has two
  CHECK(Morale(ctx).factor_pct == 40);
  ctx.flanks_threatened = 0;
  CHECK(Morale(ctx).modifiers.empty());
}

TEST_CASE("D7.8: -20% attacked from rear", "[dog][D7]") {
  MoraleContext ctx;
  ctx.attacked_from_rear = true;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{-20, "attacked from rear"}});
}

TEST_CASE("D7.9: -20% infantry not in square charged by cavalry", "[dog][D7]") {
  MoraleContext ctx;
  ctx.charged_by_cavalry = true;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{-20, "infantry not in square charged by cavalry"}});
  CHECK(Morale(ctx, F::DogArm_Skirmishers, F::DogFormation_Skirmish).factor_pct == 40);
  CHECK_FALSE(Named(Morale(ctx, F::DogArm_Infantry, F::DogFormation_Square).modifiers,
                    "infantry not in square charged by cavalry"));
  CHECK(Morale(ctx, F::DogArm_LightCavalry).modifiers.empty());
  CHECK(Morale(ctx, F::DogArm_FootArtillery, F::DogFormation_Unlimbered).modifiers.empty());
}

TEST_CASE("D7.10: -10% conscript, militia, landwehr", "[dog][D7]") {
  MoraleContext ctx;
  for (auto c : {F::DogClass_Conscript, F::DogClass_Militia, F::DogClass_Landwehr})
    CHECK(Morale(ctx, F::DogArm_Infantry, F::DogFormation_Line, c).modifiers ==
          std::vector<Modifier>{{-10, "conscript, militia, landwehr"}});
  CHECK(Morale(ctx, F::DogArm_Infantry, F::DogFormation_Line, F::DogClass_SecondLine).modifiers.empty());
}

TEST_CASE("D7.11: -10% for each routing unit within 150m", "[dog][D7]") {
  MoraleContext ctx;
  ctx.routing_within_150 = 1;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{-10, "for each routing unit within 150m"}});
  ctx.routing_within_150 = 2;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{-20, "for each routing unit within 150m (x2)"}});
  CHECK(kRoutingRangeMm == 150);
}

TEST_CASE("D7.12: +10% veteran", "[dog][D7]") {
  MoraleContext ctx;
  CHECK(Morale(ctx, F::DogArm_Infantry, F::DogFormation_Line, F::DogClass_Veteran).modifiers ==
        std::vector<Modifier>{{10, "veteran"}});
  CHECK(Morale(ctx, F::DogArm_Infantry, F::DogFormation_Line, F::DogClass_Veteran).factor_pct == 70);
}

TEST_CASE("D7.13: +10% secure flanks", "[dog][D7]") {
  MoraleContext ctx;
  ctx.secure_flanks = true;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{10, "secure flanks"}});
}

TEST_CASE("D7.14: +10% supported (friendly formed units to the rear)", "[dog][D7]") {
  MoraleContext ctx;
  ctx.supported = true;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{10, "supported"}});
}

TEST_CASE("D7.15: +10% British receiving charge", "[dog][D7]") {
  MoraleContext ctx;
  ctx.receiving_charge = true;
  auto brit = [&] {
    return Morale(ctx, F::DogArm_Infantry, F::DogFormation_Line, F::DogClass_Line, F::DogCohesion_Formed,
                  F::DogFatigue_Fresh, F::DogNation_British);
  };
  CHECK(brit().modifiers == std::vector<Modifier>{{10, "British receiving charge"}});
  CHECK(Morale(ctx).modifiers.empty());  // French
  ctx.receiving_charge = false;
  CHECK(brit().modifiers.empty());
  ctx.charged_by_cavalry = true;  // reading: a cavalry charge is a charge received
  CHECK(brit().modifiers ==
        std::vector<Modifier>{{-20, "infantry not in square charged by cavalry"}, {10, "British receiving charge"}});
}

TEST_CASE("D7.16: +20% infantry in square charged by cavalry", "[dog][D7]") {
  MoraleContext ctx;
  ctx.charged_by_cavalry = true;
  CHECK(Morale(ctx, F::DogArm_Infantry, F::DogFormation_Square).modifiers ==
        std::vector<Modifier>{{20, "infantry in square charged by cavalry"}});
  CHECK(Morale(ctx, F::DogArm_Infantry, F::DogFormation_Square).factor_pct == 80);
  ctx.charged_by_cavalry = false;
  CHECK(Morale(ctx, F::DogArm_Infantry, F::DogFormation_Square).modifiers.empty());
}

TEST_CASE("D7.17: +20% unit in cover", "[dog][D7]") {
  MoraleContext ctx;
  ctx.in_cover = true;
  CHECK(Morale(ctx).modifiers == std::vector<Modifier>{{20, "unit in cover"}});
}

TEST_CASE("D7.18: +20% charging cavalry", "[dog][D7]") {
  MoraleContext ctx;
  ctx.charging = true;
  CHECK(Morale(ctx, F::DogArm_Cossacks).modifiers == std::vector<Modifier>{{20, "charging cavalry"}});
  CHECK(Morale(ctx, F::DogArm_Cuirassiers).factor_pct == 80);
  CHECK(Morale(ctx).modifiers.empty());  // charging infantry
}

TEST_CASE("D7: every modifier together, in the chart's order, with the rating last", "[dog][D7]") {
  MoraleContext ctx;
  ctx.casualties_pct = 25;
  ctx.casualties_pct_this_move = 15;
  ctx.flanks_threatened = 1;
  ctx.supported = true;
  ctx.commander_rating = 10;
  auto r = MoraleTest(F::DogNation_Prussian, F::DogArm_Infantry, F::DogClass_Landwehr, F::DogFormation_Line,
                      F::DogCohesion_Unformed, F::DogFatigue_Tired, 5, ctx, 11);
  CHECK(Describe(r.modifiers) ==
        "-10 for every 10% casualties (x2), -5 for each 10% casualties lost this move, -10 unformed, -10 tired, "
        "-10 for each flank threatened, -10 conscript, militia, landwehr, +10 supported, +10 commander's rating");
  CHECK(Sum(r.modifiers) == -35);
  CHECK(r.factor_pct == 15);  // 50 - 35
  CHECK(r.result == "shaken");  // 11: above 5, not above 15
}

// ---- D8, D9: when and how control is tested ---------------------------------------------------------

TEST_CASE("D8.1-D8.3: the occasions of a control test", "[dog][D8]") {
  CHECK(kControlOccasions.size() == 3);
  CHECK(kControlOccasions[0] == "won a melee");
  CHECK(kControlOccasions[1] == "unit commander killed");
  CHECK(kControlOccasions[2] == "charge failed to make contact");
}

TEST_CASE("D9.1-D9.3: a d10 plus the unit's control factor plus a senior officer's", "[dog][D9]") {
  ControlContext ctx;
  ctx.senior_factor = 2;
  auto r = ControlTest(F::DogClass_Line, 3, ctx, 4);
  CHECK(r.total == 9);
  CHECK(r.modifiers.empty());
  CHECK(r.result == "follow orders");
  CHECK(r.moves == 0);
  CHECK(ControlTest(F::DogClass_Line, 3, ControlContext{}, 4).total == 7);
  CHECK(kControlDie == 10);
}

// ---- D10: control modifiers -------------------------------------------------------------------------

TEST_CASE("D10.1: +1 enemy retiring within 100m", "[dog][D10]") {
  ControlContext ctx;
  ctx.enemy = Movement::Retiring;
  ctx.enemy_within_100 = true;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{1, "enemy retiring within 100m"}});
  CHECK(Control(ctx).total == 6);
  ctx.enemy_within_100 = false;
  CHECK(Control(ctx).modifiers.empty());
  CHECK(Control(ctx).total == 5);
}

TEST_CASE("D10.2: +2 enemy retreating", "[dog][D10]") {
  ControlContext ctx;
  ctx.enemy = Movement::Retreating;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{2, "enemy retreating"}});
  CHECK(Control(ctx).total == 7);
}

TEST_CASE("D10.3: +3 enemy routing", "[dog][D10]") {
  ControlContext ctx;
  ctx.enemy = Movement::Routing;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{3, "enemy routing"}});
  CHECK(Control(ctx).total == 8);
}

TEST_CASE("D10.4: -1 enemy standing", "[dog][D10]") {
  ControlContext ctx;
  ctx.enemy = Movement::Standing;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{-1, "enemy standing"}});
  CHECK(Control(ctx).total == 4);
}

TEST_CASE("D10.5: -2 enemy advancing", "[dog][D10]") {
  ControlContext ctx;
  ctx.enemy = Movement::Advancing;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{-2, "enemy advancing"}});
}

TEST_CASE("D10.6: -3 enemy advancing to flank or rear", "[dog][D10]") {
  ControlContext ctx;
  ctx.enemy = Movement::AdvancingOnFlank;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{-3, "enemy advancing to flank or rear"}});
  CHECK(Control(ctx).total == 2);
}

TEST_CASE("D10.7: -1 friends retiring within 100m", "[dog][D10]") {
  ControlContext ctx;
  ctx.friends = Movement::Retiring;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{-1, "friends retiring within 100m"}});
}

TEST_CASE("D10.8: -2 friends retreating", "[dog][D10]") {
  ControlContext ctx;
  ctx.friends = Movement::Retreating;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{-2, "friends retreating"}});
}

TEST_CASE("D10.9: -3 friends routing", "[dog][D10]") {
  ControlContext ctx;
  ctx.friends = Movement::Routing;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{-3, "friends routing"}});
}

TEST_CASE("D10.10: +1 friends standing", "[dog][D10]") {
  ControlContext ctx;
  ctx.friends = Movement::Standing;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{1, "friends standing"}});
}

TEST_CASE("D10.11: +2 friends advancing (to a flank too)", "[dog][D10]") {
  ControlContext ctx;
  ctx.friends = Movement::Advancing;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{2, "friends advancing"}});
  ctx.friends = Movement::AdvancingOnFlank;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{2, "friends advancing"}});
  ctx.friends = Movement::None;
  CHECK(Control(ctx).modifiers.empty());
}

TEST_CASE("D10.12: +1 for each round of melee won within last 4 moves", "[dog][D10]") {
  ControlContext ctx;
  ctx.melee_rounds_won_last_4 = 1;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{1, "for each round of melee won within last 4 moves"}});
  ctx.melee_rounds_won_last_4 = 3;
  CHECK(Control(ctx).modifiers ==
        std::vector<Modifier>{{3, "for each round of melee won within last 4 moves (x3)"}});
  CHECK(Control(ctx).total == 8);
  ctx.melee_rounds_won_last_4 = 0;
  CHECK(Control(ctx).modifiers.empty());
}

TEST_CASE("D10.13: -1 unit under fire from flank/rear", "[dog][D10]") {
  ControlContext ctx;
  ctx.under_fire_flank_or_rear = true;
  CHECK(Control(ctx).modifiers == std::vector<Modifier>{{-1, "unit under fire from flank/rear"}});
}

TEST_CASE("D10.14: +-1 veteran, one point toward follow orders", "[dog][D10]") {
  ControlContext ctx;
  const auto vet = F::DogClass_Veteran;
  auto v11 = Control(ctx, vet, 11);  // 11 -> 10
  CHECK(v11.modifiers == std::vector<Modifier>{{-1, "veteran"}});
  CHECK(v11.total == 10);
  CHECK(v11.result == "follow orders");
  CHECK(Control(ctx, F::DogClass_Line, 11).result == "pursue 1");
  auto v7 = Control(ctx, vet, 7);  // 7 -> 8
  CHECK(v7.modifiers == std::vector<Modifier>{{1, "veteran"}});
  CHECK(v7.total == 8);
  CHECK(v7.result == "follow orders");
  for (int roll : {8, 9, 10}) {
    CHECK(Control(ctx, vet, roll).modifiers.empty());
    CHECK(Control(ctx, vet, roll).total == roll);
  }
  CHECK(Control(ctx, vet, 13).total == 12);
  CHECK(Control(ctx, vet, 13).result == "pursue 1");
  CHECK(Control(ctx, vet, 1).total == 2);
  CHECK(Control(ctx, vet, 1).result == "stand 2");
  // Counted on the total with the other modifiers.
  ctx.enemy = Movement::Routing;  // 9 + 3 = 12 -> 11
  auto v = Control(ctx, vet, 9);
  CHECK(v.modifiers == std::vector<Modifier>{{3, "enemy routing"}, {-1, "veteran"}});
  CHECK(v.total == 11);
}

// ---- D11: control results ------------------------------------------------------------------------------

TEST_CASE("D11.1: 13 or more: pursue or charge the nearest enemy for 2 moves", "[dog][D11]") {
  CHECK(ControlBand(13).result == "pursue 2");
  CHECK(ControlBand(13).moves == 2);
  CHECK(ControlBand(13).total == 13);
  CHECK(ControlBand(40).result == "pursue 2");
}

TEST_CASE("D11.2: 11-12: pursue or charge the nearest enemy for 1 move", "[dog][D11]") {
  CHECK(ControlBand(12).result == "pursue 1");
  CHECK(ControlBand(12).moves == 1);
  CHECK(ControlBand(11).result == "pursue 1");
  CHECK(ControlBand(11).moves == 1);
}

TEST_CASE("D11.3: 8-10: follows orders", "[dog][D11]") {
  CHECK(ControlBand(10).result == "follow orders");
  CHECK(ControlBand(10).moves == 0);
  CHECK(ControlBand(8).result == "follow orders");
  CHECK(ControlBand(8).moves == 0);
}

TEST_CASE("D11.4: 5-7: stand, no advance for 1 move", "[dog][D11]") {
  CHECK(ControlBand(7).result == "stand 1");
  CHECK(ControlBand(7).moves == 1);
  CHECK(ControlBand(5).result == "stand 1");
  CHECK(ControlBand(5).moves == 1);
}

TEST_CASE("D11.5: 2-4: stand, no advance for 2 moves", "[dog][D11]") {
  CHECK(ControlBand(4).result == "stand 2");
  CHECK(ControlBand(4).moves == 2);
  CHECK(ControlBand(2).result == "stand 2");
  CHECK(ControlBand(2).moves == 2);
}

TEST_CASE("D11.6: 1 or less: retire", "[dog][D11]") {
  CHECK(ControlBand(1).result == "retire");
  CHECK(ControlBand(1).moves == 1);  // reading: it retires on the next move
  CHECK(ControlBand(0).result == "retire");
  CHECK(ControlBand(-20).result == "retire");
}

TEST_CASE("D11: the bands partition every total from -20 to 40", "[dog][D11]") {
  for (int total = -20; total <= 40; ++total) {
    CAPTURE(total);
    int bands = 0;
    for (const auto& b : kControlBands)
      if (total >= b.min && total <= b.max) ++bands;
    CHECK(bands == 1);
    const auto r = ControlBand(total);
    const std::string expected = total >= 13   ? "pursue 2"
                                 : total >= 11 ? "pursue 1"
                                 : total >= 8  ? "follow orders"
                                 : total >= 5  ? "stand 1"
                                 : total >= 2  ? "stand 2"
                                               : "retire";
    CHECK(r.result == expected);
    CHECK(r.total == total);
  }
}
