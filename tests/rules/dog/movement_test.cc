// D2, D3, D12.3: a unit's walk across the table — integer geometry, terrain
// that slows, lines that cost or bar, units that block — and the property
// the issue names: no unit moves farther than its allowance after terrain.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include "rules/dog/charts.h"
#include "rules/dog/dog.h"
#include "rules/dog/movement.h"
#include "rules/versions.h"

using namespace adjutant;
using namespace adjutant::rules::dog;
namespace P = adjutant::projections;

namespace {

P::DogUnitState Unit(fb::DogArm arm, fb::DogFormation f, int x, int y, int facing = 0, int men = 600) {
  P::DogUnitState u;
  u.side = "A";
  u.arm = arm;
  u.formation = f;
  u.strength = u.start_strength = men;
  u.x = x;
  u.y = y;
  u.facing = facing;
  u.morale = 6;
  return u;
}

P::BattleState Table() {
  P::BattleState s;
  s.active = true;
  s.width = 1800;
  s.height = 1200;
  s.sides = {"A", "B"};
  return s;
}

P::DogTerrainState Area(const std::string& id, fb::DogTerrainKind k, int x0, int y0, int x1, int y1) {
  return {id, static_cast<uint8_t>(k), {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, 0};
}

P::DogTerrainState Line(const std::string& id, fb::DogTerrainKind k, int x0, int y0, int x1, int y1) {
  return {id, static_cast<uint8_t>(k), {{x0, y0}, {x1, y1}}, 0};
}

}  // namespace

TEST_CASE("D12.3: integer geometry: sines, square roots, polygons, crossings, footprints", "[dog]") {
  CHECK(Sin10k(0) == 0);
  CHECK(Sin10k(90) == 10000);
  CHECK(Sin10k(180) == 0);
  CHECK(Sin10k(270) == -10000);
  CHECK(Sin10k(-90) == -10000);
  CHECK(Cos10k(0) == 10000);
  CHECK(Cos10k(60) == 5000);
  CHECK(ISqrt(0) == 0);
  CHECK(ISqrt(99) == 9);
  CHECK(ISqrt(100) == 10);
  CHECK(Distance({0, 0}, {30, 40}) == 50);
  std::vector<DogXY> sq{{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  CHECK(PolygonContains(sq, {5, 5}));
  CHECK_FALSE(PolygonContains(sq, {15, 5}));
  CHECK(SegmentsCross({0, 0}, {10, 10}, {0, 10}, {10, 0}));
  CHECK_FALSE(SegmentsCross({0, 0}, {10, 0}, {0, 5}, {10, 5}));
  // A British line of 600 (two ranks: 300 files, 180 mm) facing up the table at (500, 500).
  auto u = Unit(fb::DogArm_Infantry, fb::DogFormation_Line, 500, 500);
  u.nation = fb::DogNation_British;
  auto f = Footprint(u, {500, 500}, 0);
  CHECK(f[0] == DogXY{410, 500});
  CHECK(f[1] == DogXY{590, 500});
  CHECK(f[2] == DogXY{590, 510});  // its ten-deep block behind its front
  // Turned about (facing 180), the block lies the other way.
  auto g = Footprint(u, {500, 500}, 180);
  CHECK(g[2].y == 490);
}

TEST_CASE("D2.1: infantry in line walks its 100 mm on open ground, and no farther", "[dog]") {
  auto s = Table();
  s.units["a"] = Unit(fb::DogArm_Infantry, fb::DogFormation_Line, 500, 800);
  auto w = WalkPath(s, "a", {{500, 100}}, Allowance(fb::DogArm_Infantry, fb::DogFormation_Line));
  CHECK(w.distance == 100);
  CHECK(w.to == DogXY{500, 700});
  CHECK(w.stopped.empty());
  // A path shorter than the allowance ends where it ends.
  auto v = WalkPath(s, "a", {{500, 760}}, 100);
  CHECK(v.distance == 40);
  CHECK(v.to == DogXY{500, 760});
}

TEST_CASE("D3.1, D3.2: open woods halve the rate and unform — dense woods quarter it and disorder", "[dog]") {
  auto s = Table();
  s.terrain.push_back(Area("wood", fb::DogTerrainKind_OpenWoods, 0, 0, 1800, 750));
  s.units["a"] = Unit(fb::DogArm_Infantry, fb::DogFormation_ColumnOfDivisions, 500, 800);
  // 150 mm: 50 in the open, then 100 of normal rate buys 50 in the wood.
  auto w = WalkPath(s, "a", {{500, 100}}, 150);
  CHECK(w.distance == 100);
  CHECK(w.cohesion == fb::DogCohesion_Unformed);
  CHECK(w.terrain == "into wood");
  s.terrain[0].kind = fb::DogTerrainKind_DenseWoods;
  auto d = WalkPath(s, "a", {{500, 100}}, 150);
  CHECK(d.distance == 75);  // 50, then 100 buys 25
  CHECK(d.cohesion == fb::DogCohesion_Disordered);
}

TEST_CASE("D3 woods on slopes (dog=3) take both reductions (each from what the other leaves) and under dog=2 the slower", "[dog][versions]") {
  auto s = Table();
  s.terrain.push_back(Area("wood", fb::DogTerrainKind_OpenWoods, 0, 0, 1800, 750));
  s.terrain.push_back(Area("hill", fb::DogTerrainKind_GentleSlope, 0, 0, 1800, 750));
  // The share of the rate kept, in hundredths of a percent.
  CHECK(RateAt(s, {500, 500}, 3) == 3750);  // 1/2 x 3/4
  CHECK(RateAt(s, {500, 500}, 2) == 5000);  // the slower of the two
  CHECK(RateAt(s, {500, 500}, 1) == 5000);
  CHECK(RateAt(s, {500, 900}, 3) == 10000);  // open ground
  s.terrain[0].kind = fb::DogTerrainKind_DenseWoods;
  s.terrain[1].kind = fb::DogTerrainKind_ExtremeSlope;
  CHECK(RateAt(s, {500, 500}, 3) == 625);  // 1/4 x 1/4: slow, never nothing
  CHECK(RateAt(s, {500, 500}, 2) == 2500);
  // Two woods (or two slopes) over one spot: the slower of each kind, as before.
  s.terrain.push_back(Area("copse", fb::DogTerrainKind_OpenWoods, 0, 0, 1800, 750));
  s.terrain.push_back(Area("rise", fb::DogTerrainKind_GentleSlope, 0, 0, 1800, 750));
  CHECK(RateAt(s, {500, 500}, 3) == 625);
  // A wood alone or a slope alone is what it always was.
  auto alone = Table();
  alone.terrain.push_back(Area("hill", fb::DogTerrainKind_MediumSlope, 0, 0, 1800, 750));
  CHECK(RateAt(alone, {500, 500}, 3) == 5000);
  CHECK(RateAt(alone, {500, 500}, 2) == 5000);
  // Walked: a column of divisions (150) from 50 mm outside an open wood on a gentle slope:
  // 50 in the open, then 100 of the rate buys 35 (whole 5 mm steps of 37.5) under dog=3, 50 under dog=2.
  auto w = Table();
  w.terrain.push_back(Area("wood", fb::DogTerrainKind_OpenWoods, 0, 0, 1800, 750));
  w.terrain.push_back(Area("hill", fb::DogTerrainKind_GentleSlope, 0, 0, 1800, 750));
  w.units["a"] = Unit(fb::DogArm_Infantry, fb::DogFormation_ColumnOfDivisions, 500, 800);
  CHECK(WalkPath(w, "a", {{500, 100}}, 150, 3).distance == 85);
  CHECK(WalkPath(w, "a", {{500, 100}}, 150, 2).distance == 100);
}

TEST_CASE("D3.3, D3.5: a stream takes 10 mm to cross — a low wall 25 and bars a battery", "[dog]") {
  auto s = Table();
  s.terrain.push_back(Line("brook", fb::DogTerrainKind_Stream, 0, 752, 1800, 752));
  s.units["a"] = Unit(fb::DogArm_Infantry, fb::DogFormation_Line, 500, 800);
  auto w = WalkPath(s, "a", {{500, 100}}, 100);
  CHECK(w.distance == 90);
  CHECK(w.terrain == "crossed brook");
  s.terrain[0].kind = fb::DogTerrainKind_LowWall;
  auto v = WalkPath(s, "a", {{500, 100}}, 100);
  CHECK(v.distance == 75);
  s.units["g"] = Unit(fb::DogArm_FootArtillery, fb::DogFormation_Limbered, 1000, 800, 0, 120);
  auto g = WalkPath(s, "g", {{1000, 100}}, 140);
  CHECK(g.distance == 45);  // stops at the wall
  CHECK(g.stopped_rule == "D3.5");
  CHECK(g.stopped == "FootArtillery cannot cross brook (LowWall)");
}

TEST_CASE("D2.10: a unit stops short of another it would run into — skirmishers pass through", "[dog]") {
  auto s = Table();
  s.units["a"] = Unit(fb::DogArm_Infantry, fb::DogFormation_Line, 500, 800);
  s.units["b"] = Unit(fb::DogArm_Infantry, fb::DogFormation_Line, 500, 720);
  auto w = WalkPath(s, "a", {{500, 100}}, 100);
  CHECK(w.stopped == "blocked by b");
  CHECK(w.stopped_rule == "D2.10");
  CHECK(w.to.y > 720);
  CHECK(w.to.y <= 735);
  s.units["a"] = Unit(fb::DogArm_Skirmishers, fb::DogFormation_Skirmish, 500, 800, 0, 90);
  auto k = WalkPath(s, "a", {{500, 100}}, 150);
  CHECK(k.stopped.empty());
  CHECK(k.distance == 150);
}

TEST_CASE("D2, D3: no unit moves farther than its allowance after terrain", "[dog][property]") {
  rc::prop("distance <= what the allowance buys; the budget never overspent; ends on the table", [] {
    auto s = Table();
    const int areas = *rc::gen::inRange(0, 4);
    for (int i = 0; i < areas; ++i) {
      int x = *rc::gen::inRange(0, 1500), y = *rc::gen::inRange(0, 1000);
      auto k = *rc::gen::element(fb::DogTerrainKind_OpenWoods, fb::DogTerrainKind_DenseWoods, fb::DogTerrainKind_GentleSlope,
                                 fb::DogTerrainKind_MediumSlope, fb::DogTerrainKind_SteepSlope, fb::DogTerrainKind_Building);
      s.terrain.push_back(Area("t" + std::to_string(i), k, x, y, x + *rc::gen::inRange(20, 400), y + *rc::gen::inRange(20, 400)));
    }
    const int lines = *rc::gen::inRange(0, 3);
    for (int i = 0; i < lines; ++i) {
      auto k = *rc::gen::element(fb::DogTerrainKind_Stream, fb::DogTerrainKind_FordableRiver, fb::DogTerrainKind_LowWall,
                                 fb::DogTerrainKind_HighWall);
      s.terrain.push_back(Line("l" + std::to_string(i), k, *rc::gen::inRange(0, 1800), *rc::gen::inRange(0, 1200),
                               *rc::gen::inRange(0, 1800), *rc::gen::inRange(0, 1200)));
    }
    const auto arm = *rc::gen::element(fb::DogArm_Infantry, fb::DogArm_LightCavalry, fb::DogArm_HeavyCavalry,
                                       fb::DogArm_FootArtillery, fb::DogArm_Skirmishers);
    const auto f = arm == fb::DogArm_FootArtillery ? fb::DogFormation_Limbered
                   : arm == fb::DogArm_Skirmishers ? fb::DogFormation_Skirmish
                                                   : *rc::gen::element(fb::DogFormation_Line, fb::DogFormation_ColumnOfMarch);
    s.units["a"] = Unit(arm, f, *rc::gen::inRange(100, 1700), *rc::gen::inRange(100, 1100), 0, 400);
    if (*rc::gen::arbitrary<bool>()) {
      s.units["b"] = Unit(fb::DogArm_Infantry, fb::DogFormation_Line, *rc::gen::inRange(100, 1700),
                          *rc::gen::inRange(100, 1100));
    }
    std::vector<DogXY> path;
    const int n = *rc::gen::inRange(1, 4);
    for (int i = 0; i < n; ++i) path.push_back({*rc::gen::inRange(-100, 1900), *rc::gen::inRange(-100, 1300)});
    const int allowance = Allowance(arm, f);
    auto w = WalkPath(s, "a", path, allowance);
    RC_ASSERT(w.budget_used <= allowance);
    RC_ASSERT(w.distance <= w.budget_used + 1);  // terrain never makes a mm cheaper
    RC_ASSERT(w.distance <= allowance);
    RC_ASSERT((w.to.x >= 0 && w.to.y >= 0 && w.to.x <= s.width && w.to.y <= s.height));
    RC_ASSERT(w.cohesion >= s.units["a"].cohesion);  // terrain never restores order
  });
}

TEST_CASE("D2 (dog=7): a walk at any angle ends no farther from where it began than its allowance", "[dog][property][versions]") {
  rc::prop("straight-line distance from the start <= the allowance (+1 mm of rounding)", [] {
    auto s = Table();
    if (*rc::gen::arbitrary<bool>()) {
      const int x = *rc::gen::inRange(0, 1500), y = *rc::gen::inRange(0, 1000);
      s.terrain.push_back(Area("w", *rc::gen::element(fb::DogTerrainKind_OpenWoods, fb::DogTerrainKind_GentleSlope), x, y,
                               x + *rc::gen::inRange(20, 400), y + *rc::gen::inRange(20, 400)));
    }
    const auto arm = *rc::gen::element(fb::DogArm_Infantry, fb::DogArm_LightCavalry, fb::DogArm_HeavyCavalry);
    const DogXY start{*rc::gen::inRange(100, 1700), *rc::gen::inRange(100, 1100)};
    s.units["a"] = Unit(arm, fb::DogFormation_ColumnOfMarch, start.x, start.y, 0, 400);
    std::vector<DogXY> path;
    const int n = *rc::gen::inRange(1, 4);
    for (int i = 0; i < n; ++i) path.push_back({*rc::gen::inRange(0, 1800), *rc::gen::inRange(0, 1200)});
    const int allowance = Allowance(arm, fb::DogFormation_ColumnOfMarch);
    auto w = WalkPath(s, "a", path, allowance, rules::LatestVersion("dog"));
    RC_ASSERT(Distance(start, w.to) <= allowance + 1);
    RC_ASSERT(w.budget_used <= allowance);
  });
  SECTION("dog=6 cut each step toward zero: one across for two up overran the allowance by 10%") {
    auto s = Table();
    s.units["a"] = Unit(fb::DogArm_Infantry, fb::DogFormation_ColumnOfMarch, 300, 1000, 0, 400);
    const int allowance = Allowance(fb::DogArm_Infantry, fb::DogFormation_ColumnOfMarch);
    auto old = WalkPath(s, "a", {{600, 400}}, allowance, kExactStepsVersion - 1);
    CHECK(Distance({300, 1000}, old.to) > allowance + allowance / 20);
    auto now = WalkPath(s, "a", {{600, 400}}, allowance, kExactStepsVersion);
    CHECK(Distance({300, 1000}, now.to) <= allowance);
    CHECK(Distance({300, 1000}, now.to) >= allowance - 5);  // no whole step left unwalked
  }
}

TEST_CASE("D13 (dog=7): two blocks are within a distance of each other by the nearest corner to an edge", "[dog]") {
  P::DogUnitState t = Unit(fb::DogArm_HeavyCavalry, fb::DogFormation_ColumnOfMarch, 600, 650, 180, 900);
  t.frontage = 30;
  const auto block = Footprint(t, {600, 650}, 180);  // 30 wide, 150 deep, reaching up to y = 500
  P::DogUnitState c = Unit(fb::DogArm_Infantry, fb::DogFormation_ColumnOfDivisions, 600, 750);
  // From the front: 100 mm short of the front edge is not within 15, 15 short is, 16 is not.
  CHECK_FALSE(FootprintsWithin(Footprint(c, {600, 750}, 0), block, 15));
  CHECK(FootprintsWithin(Footprint(c, {600, 665}, 0), block, 15));
  CHECK_FALSE(FootprintsWithin(Footprint(c, {600, 666}, 0), block, 15));
  // From the rear (the charger's front at y = 500 - 15 - 1 facing down the table): 16 short is not, 15 is.
  CHECK_FALSE(FootprintsWithin(Footprint(c, {600, 484}, 180), block, 15));
  CHECK(FootprintsWithin(Footprint(c, {600, 485}, 180), block, 15));
  // From a flank, corner to edge: the charger's corner 10 mm off the block's side.
  CHECK(FootprintsWithin(Footprint(c, {600 + 15 + 10 + Frontage(c) / 2, 600}, 0), block, 15));
  CHECK_FALSE(FootprintsWithin(Footprint(c, {600 + 15 + 16 + Frontage(c) / 2, 600}, 0), block, 15));
  // Overlapping blocks are within any distance.
  CHECK(FootprintsWithin(Footprint(c, {600, 600}, 0), block, 0));
}
