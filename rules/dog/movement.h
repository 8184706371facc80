// D2, D3, D12: a unit's move across the table — integer geometry (no
// floating point reaches an event), terrain areas that slow it, linear
// features that take a deduction to cross or bar its arm, the cohesion the
// terrain leaves it in, and other units that stop it. Pure: the battle
// state in, the move's outcome out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "projections/battle.h"

namespace adjutant::rules::dog {

using projections::DogXY;

// Whole-degree sine and cosine, x 10000 (a table; deterministic).
int32_t Sin10k(int32_t degrees);
int32_t Cos10k(int32_t degrees);
// The integer square root (floor).
int64_t ISqrt(int64_t v);
int32_t Distance(DogXY a, DogXY b);

// D12.3: a unit's footprint: the four corners of its block (front left,
// front right, back right, back left) with its front's centre at `at`.
std::vector<DogXY> Footprint(const projections::DogUnitState& u, DogXY at, int32_t facing);
// D12.3 (ASSUMED): the depth of a block, mm.
int32_t Depth(const projections::DogUnitState& u);
bool PolygonContains(const std::vector<DogXY>& poly, DogXY p);
bool SegmentsCross(DogXY a, DogXY b, DogXY c, DogXY d);
bool FootprintsOverlap(const std::vector<DogXY>& a, const std::vector<DogXY>& b);
// Whether two footprints overlap or come within `mm` of each other (exact
// integer geometry: the nearest corner of either to an edge of the other).
bool FootprintsWithin(const std::vector<DogXY>& a, const std::vector<DogXY>& b, int32_t mm);

// D2.10: the first unit (in id order) whose block `id`'s block overlaps when
// it stands at `at` facing `facing`; "" if none, or if it passes through
// units (skirmishers).
std::string BlockerAt(const projections::BattleState& s, const std::string& id, DogXY at, int32_t facing);

struct Walk {
  DogXY to;
  int32_t distance = 0;          // mm actually moved
  int32_t budget_used = 0;       // mm of the normal rate spent (terrain costs more)
  uint8_t cohesion = 0;          // after the terrain it crossed or entered (fb::DogCohesion)
  std::string terrain;           // D3: the deductions and effects, in words
  std::string stopped;           // why it stopped short ("" if it went the whole way or used its allowance)
  std::string stopped_rule;
};

// D2, D3: `id` walks `path` from where it stands with `allowance` mm of its
// normal rate: inside an area each mm costs 100 / its rate (open woods 2,
// dense woods 4, slopes 4/3, 2 and 4); crossing a line costs its deduction
// (D3) and is refused to the arms it bars; it stops short of any other unit
// it would overlap (skirmishers pass through, D2.10), and of the table's edge.
// `version` is the dog rules version run under: from 3 (dog.h
// kRetreatsVersion) a point in a wood and on a slope keeps the wood's share
// of the slope's rate (open woods on a gentle slope: 50% x 75% = 37.5%);
// before, the slowest area alone counted.
// `facing`, when not negative, is the facing the unit walks with (the one
// it ends the move with, dog.h kWalkFacingVersion); else the one it stands with.
Walk WalkPath(const projections::BattleState& s, const std::string& id, const std::vector<DogXY>& path,
              int32_t allowance, uint32_t version = 0, int32_t facing = -1);
// D3: the share of the normal rate a unit keeps at `p`, in hundredths of a
// percent (10000: the whole rate), under dog rules `version` (as WalkPath).
int32_t RateAt(const projections::BattleState& s, DogXY p, uint32_t version);

}  // namespace adjutant::rules::dog
