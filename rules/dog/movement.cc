#include "rules/dog/movement.h"

#include <algorithm>
#include <map>

#include "rules/dog/charts.h"
#include "rules/dog/dog.h"

namespace adjutant::rules::dog {

namespace P = projections;

namespace {

// sin(d) x 10000 for d = 0..90.
constexpr int32_t kSin[91] = {
    0,    175,  349,  523,  698,  872,  1045, 1219, 1392, 1564, 1736, 1908, 2079, 2250, 2419, 2588, 2756, 2924, 3090,
    3256, 3420, 3584, 3746, 3907, 4067, 4226, 4384, 4540, 4695, 4848, 5000, 5150, 5299, 5446, 5592, 5736, 5878, 6018,
    6157, 6293, 6428, 6561, 6691, 6820, 6947, 7071, 7193, 7314, 7431, 7547, 7660, 7771, 7880, 7986, 8090, 8192, 8290,
    8387, 8480, 8572, 8660, 8746, 8829, 8910, 8988, 9063, 9135, 9205, 9272, 9336, 9397, 9455, 9511, 9563, 9613, 9659,
    9703, 9744, 9781, 9816, 9848, 9877, 9903, 9925, 9945, 9962, 9976, 9986, 9994, 9998, 10000};

constexpr int32_t kStep = 5;  // mm walked at a time

int64_t Cross(DogXY o, DogXY a, DogXY b) {
  return int64_t(a.x - o.x) * (b.y - o.y) - int64_t(a.y - o.y) * (b.x - o.x);
}

int Sign(int64_t v) { return (v > 0) - (v < 0); }

// D3: whether the step from `here` to `next` crosses the line c-d: it starts
// off the line and ends on its far side or on the line itself (a step that
// arrives on a wall has reached it; the step that leaves it again does not
// cross a second time), and the line's segment meets the step. A strict
// test alone would let a path whose 5 mm steps land exactly on the line
// (any straight path across a wall at a whole multiple of 5 mm) pass free.
bool StepCrosses(DogXY here, DogXY next, DogXY c, DogXY d) {
  const int s1 = Sign(Cross(c, d, here)), s2 = Sign(Cross(c, d, next));
  if (s1 == 0 || s1 == s2) return false;
  const int s3 = Sign(Cross(here, next, c)), s4 = Sign(Cross(here, next, d));
  return s3 * s4 <= 0;
}

}  // namespace

int32_t Sin10k(int32_t d) {
  d %= 360;
  if (d < 0) d += 360;
  if (d <= 90) return kSin[d];
  if (d <= 180) return kSin[180 - d];
  if (d <= 270) return -kSin[d - 180];
  return -kSin[360 - d];
}

int32_t Cos10k(int32_t d) { return Sin10k(d + 90); }

int64_t ISqrt(int64_t v) {
  if (v <= 0) return 0;
  int64_t r = 0, bit = int64_t(1) << 62;
  while (bit > v) bit >>= 2;
  while (bit) {
    if (v >= r + bit) {
      v -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  return r;
}

namespace {
// n / d rounded to the nearest whole number, halves away from zero (d > 0).
int64_t RoundedDiv(int64_t n, int64_t d) { return n >= 0 ? (2 * n + d) / (2 * d) : -((-2 * n + d) / (2 * d)); }
// The length from a to b in hundredths of a mm (floor), at least 1.
int64_t ExactLength100(DogXY a, DogXY b) {
  const int64_t dx = a.x - b.x, dy = a.y - b.y;
  return std::max<int64_t>(1, ISqrt((dx * dx + dy * dy) * 10000));
}
}  // namespace

int32_t Distance(DogXY a, DogXY b) {
  int64_t dx = a.x - b.x, dy = a.y - b.y;
  return static_cast<int32_t>(ISqrt(dx * dx + dy * dy));
}

int32_t Depth(const P::DogUnitState& u) {
  const auto arm = static_cast<fb::DogArm>(u.arm);
  switch (static_cast<fb::DogFormation>(u.formation)) {
    case fb::DogFormation_Line: return IsCavalry(arm) ? 20 : 10;
    case fb::DogFormation_Skirmish: return 10;
    case fb::DogFormation_Square: return Frontage(u);
    case fb::DogFormation_ColumnOfDivisions: return 40;
    case fb::DogFormation_ColumnOfMarch: return std::max(40, u.strength / 6);
    default: return 40;  // batteries
  }
}

std::string BlockerAt(const P::BattleState& s, const std::string& id, DogXY at, int32_t facing) {
  const P::DogUnitState& u = s.units.at(id);
  if (MayPassThroughUnits(static_cast<fb::DogArm>(u.arm), static_cast<fb::DogFormation>(u.formation))) return "";
  const auto mine = Footprint(u, at, facing);
  for (const auto& [other, o] : s.units) {
    if (other == id || o.gone) continue;
    if (FootprintsOverlap(mine, Footprint(o, {o.x, o.y}, o.facing))) return other;
  }
  return "";
}

std::vector<DogXY> Footprint(const P::DogUnitState& u, DogXY at, int32_t facing) {
  const int64_t w = Frontage(u), d = Depth(u);
  // Facing 0 is up the table (towards smaller y).
  const int64_t fx = Sin10k(facing), fy = -Cos10k(facing);  // forward, x 10000
  const int64_t rx = Cos10k(facing), ry = Sin10k(facing);   // right, x 10000
  auto pt = [&](int64_t side, int64_t back) {
    return DogXY{static_cast<int32_t>(at.x + (rx * side - fx * back) / 10000),
                 static_cast<int32_t>(at.y + (ry * side - fy * back) / 10000)};
  };
  return {pt(-w / 2, 0), pt(w / 2, 0), pt(w / 2, d), pt(-w / 2, d)};
}

bool PolygonContains(const std::vector<DogXY>& poly, DogXY p) {
  bool in = false;
  for (size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const DogXY a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y)) {
      // x of the edge at p.y, compared without division.
      int64_t lhs = int64_t(p.x - a.x) * (b.y - a.y);
      int64_t rhs = int64_t(b.x - a.x) * (p.y - a.y);
      if ((b.y - a.y > 0) ? lhs < rhs : lhs > rhs) in = !in;
    }
  }
  return in;
}

bool SegmentsCross(DogXY a, DogXY b, DogXY c, DogXY d) {
  int64_t d1 = Cross(c, d, a), d2 = Cross(c, d, b), d3 = Cross(a, b, c), d4 = Cross(a, b, d);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

bool FootprintsOverlap(const std::vector<DogXY>& a, const std::vector<DogXY>& b) {
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t j = 0; j < b.size(); ++j) {
      if (SegmentsCross(a[i], a[(i + 1) % a.size()], b[j], b[(j + 1) % b.size()])) return true;
    }
  }
  return PolygonContains(a, b[0]) || PolygonContains(b, a[0]);
}

namespace {
// Whether p lies within mm of the segment ab (squared distances compared
// exactly: the perpendicular's square as cross^2 / |ab|^2).
bool NearSegment(DogXY p, DogXY a, DogXY b, int32_t mm) {
  const __int128 abx = b.x - a.x, aby = b.y - a.y, apx = p.x - a.x, apy = p.y - a.y;
  const __int128 r2 = __int128(mm) * mm;
  const __int128 len2 = abx * abx + aby * aby;
  const __int128 t = apx * abx + apy * aby;
  if (len2 == 0 || t <= 0) return apx * apx + apy * apy <= r2;
  if (t >= len2) {
    const __int128 bpx = p.x - b.x, bpy = p.y - b.y;
    return bpx * bpx + bpy * bpy <= r2;
  }
  const __int128 cross = abx * apy - aby * apx;
  return cross * cross <= r2 * len2;
}
}  // namespace

bool FootprintsWithin(const std::vector<DogXY>& a, const std::vector<DogXY>& b, int32_t mm) {
  if (FootprintsOverlap(a, b)) return true;
  for (int pass = 0; pass < 2; ++pass) {
    const auto& corners = pass == 0 ? a : b;
    const auto& edges = pass == 0 ? b : a;
    for (const DogXY& p : corners) {
      for (size_t j = 0; j < edges.size(); ++j) {
        if (NearSegment(p, edges[j], edges[(j + 1) % edges.size()], mm)) return true;
      }
    }
  }
  return false;
}

int32_t RateAt(const P::BattleState& s, DogXY p, uint32_t version) {
  // The slowest area of each kind: woods (D3.1, D3.2), slopes (D3.8-D3.11),
  // the rest (buildings keep the whole rate).
  int woods = 100, slope = 100, other = 100;
  for (const auto& t : s.terrain) {
    if (IsLinear(t.kind) || !PolygonContains(t.points, p)) continue;
    const auto kind = static_cast<fb::DogTerrainKind>(t.kind);
    const int pct = Terrain(kind).percent_of_rate;
    int& group = kind == fb::DogTerrainKind_OpenWoods || kind == fb::DogTerrainKind_DenseWoods ? woods
                 : kind >= fb::DogTerrainKind_GentleSlope && kind <= fb::DogTerrainKind_ExtremeSlope ? slope
                                                                                                   : other;
    group = std::min(group, pct);
  }
  if (version < kRetreatsVersion) {
    // Versions 1 and 2: the slowest area alone (a wood on a slope: the slower of the two).
    return std::max(std::min({woods, slope, other}), 1) * 100;
  }
  // Version 3 (D3 reading, RULES.md): each reduction is taken from the rate
  // the other leaves: a wood on a slope keeps the wood's share of the slope's rate.
  return std::max(woods * slope * other / 100, 100);
}

Walk WalkPath(const P::BattleState& s, const std::string& id, const std::vector<DogXY>& path, int32_t allowance,
              uint32_t version, int32_t facing) {
  const P::DogUnitState& u = s.units.at(id);
  const auto arm = static_cast<fb::DogArm>(u.arm);
  Walk w;
  w.to = {u.x, u.y};
  w.cohesion = u.cohesion;
  const int64_t budget = int64_t(allowance) * 100;  // hundredths of a mm of the normal rate
  int64_t spent = 0;
  int64_t walked = 0;  // hundredths of a mm
  const bool exact = version >= kExactStepsVersion;
  std::map<std::string, int> effects;  // in words → times, for the record
  std::vector<bool> entered(s.terrain.size(), false);
  if (version >= kStartsInsideVersion) {
    // D3 (version 6): an area it stands in already is not entered anew.
    for (size_t i = 0; i < s.terrain.size(); ++i) {
      const auto& t = s.terrain[i];
      entered[i] = !IsLinear(t.kind) && PolygonContains(t.points, w.to);
    }
  }
  auto blocked_by = [&](DogXY at) { return BlockerAt(s, id, at, facing >= 0 ? facing : u.facing); };
  DogXY here = w.to;
  for (const DogXY& target : path) {
    while (here.x != target.x || here.y != target.y) {
      const int32_t left = Distance(here, target);
      DogXY next = target;
      if (left > kStep && exact) {
        // Version 7: each coordinate of the step rounded to the nearest mm.
        next = {here.x + static_cast<int32_t>(RoundedDiv(int64_t(target.x - here.x) * kStep, left)),
                here.y + static_cast<int32_t>(RoundedDiv(int64_t(target.y - here.y) * kStep, left))};
      } else if (left > kStep) {
        next = {here.x + static_cast<int32_t>(int64_t(target.x - here.x) * kStep / left),
                here.y + static_cast<int32_t>(int64_t(target.y - here.y) * kStep / left)};
      }
      // The step's length in hundredths of a mm: exact (version 7), or cut to whole mm.
      const int64_t len =
          exact ? ExactLength100(here, next) : int64_t(std::max<int32_t>(1, Distance(here, next))) * 100;
      int64_t cost = len * 10000 / RateAt(s, next, version);
      // Linear features crossed on this step (each once, however many of its
      // segments the step touches): barred to some arms, a deduction (D3).
      std::vector<size_t> crossing;
      for (size_t i = 0; i < s.terrain.size(); ++i) {
        const auto& t = s.terrain[i];
        if (!IsLinear(t.kind)) continue;
        const auto kind = static_cast<fb::DogTerrainKind>(t.kind);
        for (size_t k = 0; k + 1 < t.points.size(); ++k) {
          if (!StepCrosses(here, next, t.points[k], t.points[k + 1])) continue;
          if (!MayEnter(kind, arm)) {
            w.stopped = std::string(fb::EnumNameDogArm(arm)) + " cannot cross " + t.id + " (" +
                        fb::EnumNameDogTerrainKind(kind) + ")";
            w.stopped_rule = "D3." + std::to_string(t.kind + 1);  // the row barring it
            goto done;
          }
          cost += int64_t(CrossingDeductionMm(kind)) * 100;
          crossing.push_back(i);
          break;
        }
      }
      // Areas entered on this step: barred to some arms; buildings take a deduction (D3).
      std::vector<size_t> entering;
      for (size_t i = 0; i < s.terrain.size(); ++i) {
        const auto& t = s.terrain[i];
        if (IsLinear(t.kind) || entered[i] || !PolygonContains(t.points, next)) continue;
        const auto kind = static_cast<fb::DogTerrainKind>(t.kind);
        if (!MayEnter(kind, arm)) {
          w.stopped = std::string(fb::EnumNameDogArm(arm)) + " cannot enter " + t.id;
          w.stopped_rule = "D3." + std::to_string(t.kind + 1);
          goto done;
        }
        cost += int64_t(CrossingDeductionMm(kind)) * 100;
        entering.push_back(i);
      }
      if (spent + cost > budget) goto done;  // the allowance is spent
      if (next.x < 0 || next.y < 0 || next.x > s.width || next.y > s.height) {
        w.stopped = "the table's edge";
        w.stopped_rule = "D2";
        goto done;
      }
      if (std::string other = blocked_by(next); !other.empty()) {
        w.stopped = "blocked by " + other;
        w.stopped_rule = "D2.10";
        goto done;
      }
      // Lines crossed and areas entered (D3): their cohesion effect, only
      // once the step is taken (a unit that stops short keeps its order).
      for (size_t i : crossing) {
        const auto& t = s.terrain[i];
        w.cohesion = CohesionAfter(static_cast<fb::DogTerrainKind>(t.kind), arm, static_cast<fb::DogCohesion>(w.cohesion));
        effects[std::string("crossed ") + t.id]++;
      }
      for (size_t i : entering) {
        const auto& t = s.terrain[i];
        entered[i] = true;
        w.cohesion = CohesionAfter(static_cast<fb::DogTerrainKind>(t.kind), arm, static_cast<fb::DogCohesion>(w.cohesion));
        effects[std::string("into ") + t.id]++;
      }
      spent += cost;
      walked += len;
      here = next;
    }
  }
done:
  w.to = here;
  w.distance = static_cast<int32_t>((walked + 50) / 100);
  w.budget_used = static_cast<int32_t>((spent + 99) / 100);
  for (const auto& [what, n] : effects) w.terrain += (w.terrain.empty() ? "" : ", ") + what;
  return w;
}

}  // namespace adjutant::rules::dog
