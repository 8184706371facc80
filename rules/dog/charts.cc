// Death or Glory's charts (rules/dog/charts.h): pure functions over the
// numbers of rules/dog/tables.h. The readings are RULES.md's (D1…D11).
#include "rules/dog/charts.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <utility>

#include "rules/dog/tables.h"

namespace adjutant::rules::dog {
namespace {

std::size_t NationIndex(fb::DogNation n) {
  const auto i = static_cast<std::size_t>(n);
  if (i >= kNationCount) throw std::out_of_range("dog: unknown nation " + std::to_string(i));
  return i;
}
int InfantryColumnOf(fb::DogNation n) { return kInfantryColumn[NationIndex(n)]; }
int CavalryColumnOf(fb::DogNation n) { return kCavalryColumn[NationIndex(n)]; }

bool IsHeavyCavalry(fb::DogArm a) { return a == fb::DogArm_HeavyCavalry || a == fb::DogArm_Cuirassiers; }
bool IsColumn(fb::DogFormation f) {
  return f == fb::DogFormation_ColumnOfMarch || f == fb::DogFormation_ColumnOfDivisions;
}
// D2, D4: "skirmishers" are foot in skirmish order.
bool IsSkirmishing(fb::DogArm a, fb::DogFormation f) { return IsFoot(a) && f == fb::DogFormation_Skirmish; }
bool IsLowerClass(fb::DogClass c) {
  return c == fb::DogClass_Conscript || c == fb::DogClass_Militia || c == fb::DogClass_Landwehr;
}

Modifier ModOf(const ModifierRow& r) { return {r.value, std::string(r.name)}; }
// A row counted `times` times: "<name> (xN)" when N > 1.
Modifier ModTimes(const ModifierRow& r, int times) {
  Modifier m{r.value * times, std::string(r.name)};
  if (times > 1) m.name += " (x" + std::to_string(times) + ")";
  return m;
}
const ModifierRow& MeleeRowOf(MeleeRow r) { return kMeleeModifiers[static_cast<std::size_t>(r)]; }
const ModifierRow& MoraleRowOf(MoraleRow r) { return kMoraleModifiers[static_cast<std::size_t>(r)]; }
const ModifierRow& ControlRowOf(ControlRow r) { return kControlModifiers[static_cast<std::size_t>(r)]; }

std::string Signed(int v) { return (v < 0 ? "-" : "+") + std::to_string(v < 0 ? -static_cast<long long>(v) : v); }

}  // namespace

int Sum(const std::vector<Modifier>& mods) {
  int total = 0;
  for (const auto& m : mods) total += m.value;
  return total;
}

std::string Describe(const std::vector<Modifier>& mods) {
  std::string out;
  for (const auto& m : mods) {
    if (!out.empty()) out += ", ";
    out += Signed(m.value) + " " + m.name;
  }
  return out;
}

bool IsCavalry(fb::DogArm a) {
  return a == fb::DogArm_LightCavalry || a == fb::DogArm_HeavyCavalry || a == fb::DogArm_Cuirassiers ||
         a == fb::DogArm_Lancers || a == fb::DogArm_Cossacks;
}
bool IsArtillery(fb::DogArm a) { return a == fb::DogArm_FootArtillery || a == fb::DogArm_HorseArtillery; }
bool IsFoot(fb::DogArm a) { return a == fb::DogArm_Infantry || a == fb::DogArm_Skirmishers; }

// ---- D1 ---------------------------------------------------------------------------------

std::optional<int> FormationChangeQuarters(fb::DogNation n, fb::DogArm a, fb::DogFormation from,
                                           fb::DogFormation to) {
  if (from == to) return 0;
  if (IsArtillery(a)) {
    for (const auto& row : kBattery)
      if (row.from == from && row.to == to)
        return (a == fb::DogArm_FootArtillery ? row.foot : row.horse)[InfantryColumnOf(n)];
    return std::nullopt;
  }
  const bool cav = IsCavalry(a);
  const int col = cav ? CavalryColumnOf(n) : InfantryColumnOf(n);
  for (const auto& row : kFormationChanges)
    if ((row.a == from && row.b == to) || (row.a == to && row.b == from))
      return (cav ? row.cavalry : row.infantry)[col];
  return std::nullopt;
}

std::optional<int> ReformQuarters(fb::DogNation n, fb::DogArm a, fb::DogCohesion from) {
  if (from == fb::DogCohesion_Formed) return 0;
  const bool cav = IsCavalry(a);
  const int col = cav ? CavalryColumnOf(n) : InfantryColumnOf(n);
  for (const auto& row : kReform)
    if (row.from == from) return (cav ? row.cavalry : row.infantry)[col];
  return std::nullopt;
}

int RefaceQuarters(int degrees) {
  int d = degrees % 360;
  if (d < 0) d += 360;
  if (d > 180) d = 360 - d;
  if (d == 0) return 0;
  int quarters = 0;
  const int widest = kReface.back().up_to_degrees;
  while (d > widest) {  // a second step of the chart
    quarters += kReface.back().quarters;
    d -= widest;
  }
  for (const auto& band : kReface)
    if (d <= band.up_to_degrees) return quarters + band.quarters;
  return quarters;  // unreachable: d <= widest
}

bool TakesDoubleTime(fb::DogClass c, fb::DogFatigue f) { return IsLowerClass(c) || f != fb::DogFatigue_Fresh; }

// ---- D2 ---------------------------------------------------------------------------------

int Allowance(fb::DogArm a, fb::DogFormation f) {
  if (IsFoot(a)) {
    switch (f) {
      case fb::DogFormation_Line:
      case fb::DogFormation_Square: return kInfantryLineMm;
      case fb::DogFormation_ColumnOfMarch:
      case fb::DogFormation_ColumnOfDivisions: return kInfantryColumnMm;
      case fb::DogFormation_Skirmish: return kSkirmishersMm;
      default: return 0;
    }
  }
  if (IsCavalry(a)) {
    const bool heavy = IsHeavyCavalry(a);
    switch (f) {
      case fb::DogFormation_Line:
      case fb::DogFormation_Skirmish: return heavy ? kHeavyCavLineMm : kLightCavLineMm;
      case fb::DogFormation_ColumnOfMarch: return heavy ? kHeavyCavColumnMm : kLightCavColumnMm;
      default: return 0;
    }
  }
  if (IsArtillery(a) && f == fb::DogFormation_Limbered)
    return a == fb::DogArm_FootArtillery ? kFootArtilleryMm : kHorseArtilleryMm;
  return 0;
}

bool MayPassThroughUnits(fb::DogArm a, fb::DogFormation f) { return IsSkirmishing(a, f); }

// ---- D3 ---------------------------------------------------------------------------------

const TerrainRow& Terrain(fb::DogTerrainKind k) {
  const auto i = static_cast<std::size_t>(k);
  if (i >= kTerrain.size()) throw std::out_of_range("dog: unknown terrain kind " + std::to_string(i));
  return kTerrain[i];
}

bool MayEnter(fb::DogTerrainKind k, fb::DogArm a) {
  const TerrainRow& t = Terrain(k);
  if (t.artillery_cannot && IsArtillery(a)) return false;
  if (t.cavalry_cannot && IsCavalry(a)) return false;
  return true;
}

fb::DogCohesion CohesionAfter(fb::DogTerrainKind k, fb::DogArm a, fb::DogCohesion before) {
  const TerrainRow& t = Terrain(k);
  if (!MayEnter(k, a)) return before;
  fb::DogCohesion after = fb::DogCohesion_Formed;
  if (t.disorders) after = fb::DogCohesion_Disordered;
  else if (t.unforms_all || (t.unforms_cavalry && IsCavalry(a))) after = fb::DogCohesion_Unformed;
  return std::max(before, after);  // Formed < Unformed < Disordered: never better than before
}

int CrossingDeductionMm(fb::DogTerrainKind k, int width_mm) {
  const TerrainRow& t = Terrain(k);
  if (t.deduct_per_10 == 0) return t.deduct_mm;
  const int width = width_mm > 0 ? width_mm : kDefaultWatercourseWidthMm;
  return t.deduct_mm + t.deduct_per_10 * ((width - 1) / 10 + 1);  // per 10 mm or part
}

// ---- D4 ---------------------------------------------------------------------------------

std::vector<Modifier> MeleeModifiers(const MeleeSide& me, const MeleeSide& enemy, int round) {
  std::vector<Modifier> mods;
  auto add = [&](MeleeRow r) { mods.push_back(ModOf(MeleeRowOf(r))); };

  // D4.1–D4.4: the largest ratio that holds, in whole men.
  if (me.strength > 0) {
    const long long mine = me.strength, theirs = std::max(enemy.strength, 0);
    for (const auto& o : kOutnumber)
      if (mine * o.den >= theirs * o.num) {
        add(o.row);
        break;
      }
  }
  // D4.5–D4.7: class.
  if (me.cls == fb::DogClass_Veteran) add(MeleeRow::Veteran);
  if (me.cls == fb::DogClass_SecondLine) add(MeleeRow::SecondLine);
  if (IsLowerClass(me.cls)) add(MeleeRow::ConscriptMilitia);  // landwehr is militia (reading)
  // D4.8–D4.10: arm. Cuirassiers are heavy cavalry too.
  if (IsHeavyCavalry(me.arm)) add(MeleeRow::HeavyCavalry);
  if (me.arm == fb::DogArm_Cuirassiers) add(MeleeRow::Cuirassiers);
  if (me.arm == fb::DogArm_Lancers && round >= 1 && round <= kLancersRounds) add(MeleeRow::Lancers);

  const bool enemy_foot = IsFoot(enemy.arm), enemy_cav = IsCavalry(enemy.arm);
  const bool enemy_skirmishing = IsSkirmishing(enemy.arm, enemy.formation);
  const bool enemy_square = enemy_foot && enemy.formation == fb::DogFormation_Square;
  const bool enemy_single_line = enemy_foot && enemy.formation == fb::DogFormation_Line && enemy.single_rank;
  // D4.11–D4.18: cavalry against ...
  if (IsCavalry(me.arm)) {
    if (enemy_skirmishing || IsArtillery(enemy.arm)) add(MeleeRow::CavVsSkirmishersArty);
    if (enemy_foot && enemy.cohesion == fb::DogCohesion_Unformed) add(MeleeRow::CavVsUnformedFoot);
    if (enemy_foot && enemy.cohesion == fb::DogCohesion_Disordered) add(MeleeRow::CavVsDisorderedFoot);
    if (enemy_cav && enemy.cohesion == fb::DogCohesion_Unformed) add(MeleeRow::CavVsUnformedCav);
    if (enemy_cav && enemy.cohesion == fb::DogCohesion_Disordered) add(MeleeRow::CavVsDisorderedCav);
    if (enemy_square) add(MeleeRow::CavVsSquare);
    if (enemy_square || enemy_single_line) add(MeleeRow::CavVsSingleRank);
    if (me.arm == fb::DogArm_Cossacks && enemy_cav && enemy.cohesion == fb::DogCohesion_Formed)
      add(MeleeRow::CossacksVsFormedCav);
  }
  // D4.19–D4.23: infantry against ...
  if (IsFoot(me.arm)) {
    if (IsColumn(me.formation) && enemy_single_line) add(MeleeRow::ColumnVsSingleRankLine);
    if (me.formation == fb::DogFormation_Square && enemy_cav) add(MeleeRow::SquareVsCav);
    if (enemy.cohesion == fb::DogCohesion_Unformed) add(MeleeRow::InfVsUnformed);
    if (enemy.cohesion == fb::DogCohesion_Disordered) add(MeleeRow::InfVsDisordered);
    if (enemy_skirmishing) add(MeleeRow::InfVsSkirmishers);
  }
  // D4.24–D4.29: its own state.
  if (me.following_up) add(MeleeRow::FollowingUp);
  if (me.uphill) add(MeleeRow::Uphill);
  if (me.cohesion == fb::DogCohesion_Unformed) add(MeleeRow::Unformed);
  if (me.cohesion == fb::DogCohesion_Disordered) add(MeleeRow::Disordered);
  if (me.fatigue == fb::DogFatigue_Tired) add(MeleeRow::Tired);
  if (me.fatigue == fb::DogFatigue_Exhausted) add(MeleeRow::Exhausted);
  return mods;
}

// ---- D5–D7 ------------------------------------------------------------------------------

int CasualtyTests(int start, int before, int after) {
  if (start <= 0 || after >= before) return 0;
  auto steps = [&](int now) {  // whole 10% steps of `start` lost with `now` men left
    const long long lost = static_cast<long long>(start) - std::clamp(now, 0, start);
    return lost * 100 / (static_cast<long long>(start) * kCasualtyTestStepPct);
  };
  return static_cast<int>(steps(after) - steps(before));
}

bool BelowHalfTest(int start, int before, int after) {
  return after < before && static_cast<long long>(after) * 2 < start;
}

std::string MoraleBand(int factor_pct, int roll_d100) {
  if (roll_d100 <= factor_pct - kShakenBandPct) return "pass";
  if (roll_d100 <= factor_pct) return "shaken";
  return "break";
}

MoraleResult MoraleTest(fb::DogNation n, fb::DogArm a, fb::DogClass c, fb::DogFormation f, fb::DogCohesion coh,
                        fb::DogFatigue fat, int morale_factor, const MoraleContext& ctx, int roll_d100) {
  MoraleResult r;
  auto add = [&](MoraleRow row) { r.modifiers.push_back(ModOf(MoraleRowOf(row))); };
  auto times = [&](MoraleRow row, int count) {
    if (count > 0) r.modifiers.push_back(ModTimes(MoraleRowOf(row), count));
  };
  times(MoraleRow::Casualties, std::max(ctx.casualties_pct, 0) / kCasualtyStepPct);
  times(MoraleRow::CasualtiesThisMove, std::max(ctx.casualties_pct_this_move, 0) / kCasualtyStepPct);
  if (coh == fb::DogCohesion_Unformed) add(MoraleRow::Unformed);
  if (coh == fb::DogCohesion_Disordered) add(MoraleRow::Disordered);
  if (fat == fb::DogFatigue_Tired) add(MoraleRow::Tired);
  if (fat == fb::DogFatigue_Exhausted) add(MoraleRow::Exhausted);
  times(MoraleRow::FlankThreatened, std::clamp(ctx.flanks_threatened, 0, kMaxFlanks));
  if (ctx.attacked_from_rear) add(MoraleRow::AttackedFromRear);
  const bool square = f == fb::DogFormation_Square;
  if (IsFoot(a) && ctx.charged_by_cavalry && !square) add(MoraleRow::NotInSquareChargedByCav);
  if (IsLowerClass(c)) add(MoraleRow::ConscriptMilitiaLandwehr);
  times(MoraleRow::RoutingWithin150, ctx.routing_within_150);
  if (c == fb::DogClass_Veteran) add(MoraleRow::Veteran);
  if (ctx.secure_flanks) add(MoraleRow::SecureFlanks);
  if (ctx.supported) add(MoraleRow::Supported);
  if (n == fb::DogNation_British && (ctx.receiving_charge || ctx.charged_by_cavalry))
    add(MoraleRow::BritishReceivingCharge);
  if (IsFoot(a) && ctx.charged_by_cavalry && square) add(MoraleRow::SquareChargedByCav);
  if (ctx.in_cover) add(MoraleRow::InCover);
  if (IsCavalry(a) && ctx.charging) add(MoraleRow::ChargingCavalry);
  if (ctx.commander_rating != 0) r.modifiers.push_back({ctx.commander_rating, std::string(kCommanderRatingName)});

  r.factor_pct = morale_factor * kMoraleFactorPct + Sum(r.modifiers);
  r.result = MoraleBand(r.factor_pct, roll_d100);
  return r;
}

// ---- D8–D11 -----------------------------------------------------------------------------

ControlResult ControlBand(int total) {
  ControlResult r;
  r.total = total;
  for (const auto& band : kControlBands)
    if (total >= band.min && total <= band.max) {
      r.result = std::string(band.result);
      r.moves = band.moves;
      break;
    }
  return r;
}

ControlResult ControlTest(fb::DogClass c, int unit_factor, const ControlContext& ctx, int roll_d10) {
  std::vector<Modifier> mods;
  auto add = [&](ControlRow row) { mods.push_back(ModOf(ControlRowOf(row))); };
  switch (ctx.enemy) {
    case Movement::Retiring:
      if (ctx.enemy_within_100) add(ControlRow::EnemyRetiring);
      break;
    case Movement::Retreating: add(ControlRow::EnemyRetreating); break;
    case Movement::Routing: add(ControlRow::EnemyRouting); break;
    case Movement::Standing: add(ControlRow::EnemyStanding); break;
    case Movement::Advancing: add(ControlRow::EnemyAdvancing); break;
    case Movement::AdvancingOnFlank: add(ControlRow::EnemyAdvancingOnFlank); break;
    case Movement::None: break;
  }
  switch (ctx.friends) {
    case Movement::Retiring: add(ControlRow::FriendsRetiring); break;
    case Movement::Retreating: add(ControlRow::FriendsRetreating); break;
    case Movement::Routing: add(ControlRow::FriendsRouting); break;
    case Movement::Standing: add(ControlRow::FriendsStanding); break;
    case Movement::Advancing:
    case Movement::AdvancingOnFlank: add(ControlRow::FriendsAdvancing); break;
    case Movement::None: break;
  }
  if (ctx.melee_rounds_won_last_4 > 0)
    mods.push_back(ModTimes(ControlRowOf(ControlRow::MeleeRoundsWon), ctx.melee_rounds_won_last_4));
  if (ctx.under_fire_flank_or_rear) add(ControlRow::UnderFireFlankRear);

  int total = roll_d10 + unit_factor + ctx.senior_factor + Sum(mods);
  if (c == fb::DogClass_Veteran) {  // D10.14 (reading): one point toward "follow orders"
    const ModifierRow& vet = ControlRowOf(ControlRow::Veteran);
    const int step = total > kFollowOrdersMax ? -vet.value : total < kFollowOrdersMin ? vet.value : 0;
    if (step != 0) {
      mods.push_back({step, std::string(vet.name)});
      total += step;
    }
  }
  ControlResult r = ControlBand(total);
  r.modifiers = std::move(mods);
  return r;
}

}  // namespace adjutant::rules::dog
