// Death or Glory's modifier charts (rules/dog/charts.h) as rapidcheck
// properties over random units and situations: every row of D4 (melee), D7
// (morale, with D6.3's commander's rating) and D10 (control) applies exactly
// once, and only when its condition holds. Each condition is written out
// here from the readings in rules/dog/RULES.md, not taken from charts.cc, so
// a change to either that breaks a reading fails with the seed and the rows.
// The values are the tables' (tests/rules/dog/charts_test.cc pins them to
// the sheet); the totals and bands are checked against D6 and D11.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/dog/charts.h"
#include "rules/dog/tables.h"

using namespace adjutant;
using namespace adjutant::rules::dog;
namespace F = adjutant::fb;

namespace {

constexpr int kMaxMen = 3000;

// The arms as RULES.md's D4 reading names them, written out (not charts.cc's).
bool Foot(F::DogArm a) { return a == F::DogArm_Infantry || a == F::DogArm_Skirmishers; }
bool Cav(F::DogArm a) {
  return a == F::DogArm_LightCavalry || a == F::DogArm_HeavyCavalry || a == F::DogArm_Cuirassiers ||
         a == F::DogArm_Lancers || a == F::DogArm_Cossacks;
}
bool Arty(F::DogArm a) { return a == F::DogArm_FootArtillery || a == F::DogArm_HorseArtillery; }
// D2.3: skirmishers are foot in skirmish order.
bool Skirmishing(F::DogArm a, F::DogFormation f) { return Foot(a) && f == F::DogFormation_Skirmish; }
// D4.7 (landwehr is militia), D7.10.
bool LowerClass(F::DogClass c) {
  return c == F::DogClass_Conscript || c == F::DogClass_Militia || c == F::DogClass_Landwehr;
}

// Generators draw uniformly (rapidcheck's inRange favours small values at
// small sizes, which would starve the last enum values), and shrink as usual.
int Uniform(int lo, int hi) { return *rc::gen::resize(100, rc::gen::inRange(lo, hi + 1)); }
bool Flip() { return *rc::gen::arbitrary<bool>(); }
template <class T>
T OneOf(const std::vector<T>& values) { return *rc::gen::elementOf(values); }
// Any value the schema gives an enum (fb::EnumValuesDogArm() …).
template <class E, std::size_t N>
E AnyOf(const E (&values)[N]) { return OneOf(std::vector<E>(values, values + N)); }

// Arms by kind, so foot meets foot and cavalry often enough for the rarer rows
// (D4.19: foot in column against a thin line); together, every arm.
const std::vector<F::DogArm> kFootArms = {F::DogArm_Infantry, F::DogArm_Skirmishers};
const std::vector<F::DogArm> kCavArms = {F::DogArm_LightCavalry, F::DogArm_HeavyCavalry, F::DogArm_Cuirassiers,
                                         F::DogArm_Lancers, F::DogArm_Cossacks};
const std::vector<F::DogArm> kArtyArms = {F::DogArm_FootArtillery, F::DogArm_HorseArtillery};
static_assert(F::DogArm_MAX + 1 == 2 + 5 + 2, "an arm missing from the groups");
F::DogArm AnyArm() { return OneOf(OneOf(std::vector{kFootArms, kCavArms, kArtyArms})); }
// Mostly a formation the arm takes (D1), sometimes any (the charts must not care).
F::DogFormation AnyFormation(F::DogArm a) {
  using Fs = std::vector<F::DogFormation>;
  const Fs own = Foot(a) ? Fs{F::DogFormation_ColumnOfMarch, F::DogFormation_ColumnOfDivisions, F::DogFormation_Line,
                              F::DogFormation_Square, F::DogFormation_Skirmish}
                 : Cav(a) ? Fs{F::DogFormation_ColumnOfMarch, F::DogFormation_Line, F::DogFormation_Skirmish}
                          : Fs{F::DogFormation_Limbered, F::DogFormation_Unlimbered};
  return Uniform(0, 3) > 0 ? OneOf(own) : AnyOf(F::EnumValuesDogFormation());
}

// Strengths 0 … kMaxMen, 0 drawn often.
int AnyMen() { return Uniform(0, 9) == 0 ? 0 : Uniform(0, kMaxMen); }
// An enemy's strength: often a man either side of one of D4.1–D4.4's ratios to `mine`.
int EnemyMen(int mine) {
  if (mine == 0 || Flip()) return AnyMen();
  const auto [num, den] = *rc::gen::element(std::pair{4, 1}, std::pair{3, 1}, std::pair{2, 1}, std::pair{3, 2});
  return std::clamp(mine * den / num + Uniform(-1, 1), 0, kMaxMen);
}

MeleeSide AnySide() {
  MeleeSide s;
  s.arm = AnyArm();
  s.cls = AnyOf(F::EnumValuesDogClass());
  s.formation = AnyFormation(s.arm);
  s.cohesion = AnyOf(F::EnumValuesDogCohesion());
  s.fatigue = AnyOf(F::EnumValuesDogFatigue());
  s.single_rank = Flip();
  s.following_up = Flip();
  s.uphill = Flip();
  return s;
}

Movement AnyMovement() {
  return OneOf(std::vector{Movement::None, Movement::Standing, Movement::Advancing, Movement::AdvancingOnFlank,
                           Movement::Retiring, Movement::Retreating, Movement::Routing});
}

// The row of `table` a modifier's name gives and how many times it counts:
// the row's label once, "label (xN)" N >= 2 times (the RULES.md convention,
// as charts.cc names counted rows); nullopt for a name the chart has not.
template <std::size_t N>
std::optional<std::pair<std::size_t, int>> RowOf(const std::array<ModifierRow, N>& table, const std::string& name) {
  for (std::size_t i = 0; i < N; ++i) {
    const std::string label(table[i].name);
    if (name == label) return std::pair{i, 1};
    const std::string prefix = label + " (x";
    if (name.size() <= prefix.size() + 1 || name.compare(0, prefix.size(), prefix) != 0 || name.back() != ')')
      continue;
    const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - 1);
    if (digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const int times = std::stoi(digits);
    if (times >= 2 && digits[0] != '0') return std::pair{i, times};
  }
  return std::nullopt;
}

// What a chart gave, by rule number: the times each row counts and the value it added.
struct Given {
  std::map<std::string, int> times, values;
  std::vector<std::size_t> rows;  // in the order given
};
template <std::size_t N>
Given Read(const std::array<ModifierRow, N>& table, const std::vector<Modifier>& mods) {
  Given g;
  std::set<std::string> names;
  for (const Modifier& m : mods) {
    RC_ASSERT(names.insert(m.name).second);  // no name twice
    const auto row = RowOf(table, m.name);
    RC_ASSERT(row.has_value());  // every name a row of this chart
    const std::string rule(table[row->first].rule);
    RC_ASSERT(g.times.emplace(rule, row->second).second);  // a row once, counted or not
    g.values[rule] = m.value;
    g.rows.push_back(row->first);
  }
  return g;
}

// What the readings say a chart should give, by rule number.
template <std::size_t N>
struct Wanted {
  explicit Wanted(const std::array<ModifierRow, N>& t) : table(t) {}
  const std::array<ModifierRow, N>& table;
  std::map<std::string, int> times, values;

  const ModifierRow& Row(std::string_view rule) const {
    for (const auto& r : table)
      if (r.rule == rule) return r;
    throw std::logic_error("no row " + std::string(rule));
  }
  // Row `rule` counted `n` times (none when n <= 0), at n x the table's value.
  void Count(std::string_view rule, int n) {
    if (n <= 0) return;
    times[std::string(rule)] = n;
    values[std::string(rule)] = n * Row(rule).value;
  }
  void When(std::string_view rule, bool holds) { Count(rule, holds ? 1 : 0); }
  int Sum() const {
    int s = 0;
    for (const auto& [rule, v] : values) s += v;
    return s;
  }
};

// D6.4–D6.6 (reading): T − 10 or less passes, T − 9 … T is shaken, above T breaks.
std::string MoraleOutcome(int t, int roll) { return roll <= t - 10 ? "pass" : roll <= t ? "shaken" : "break"; }

// D11.1–D11.6: the band of a control total (the moves it binds are ControlBand's).
std::string ControlOutcome(int total) {
  if (total >= 13) return "pursue 2";
  if (total >= 11) return "pursue 1";
  if (total >= 8) return "follow orders";
  if (total >= 5) return "stand 1";
  if (total >= 2) return "stand 2";
  return "retire";
}

// ---- D4: melee modifiers ---------------------------------------------------------------------

// D4: the modifiers of `me` against `enemy` in `round`, row by row.
void CheckMelee(const MeleeSide& me, const MeleeSide& enemy, int round) {
  const std::vector<Modifier> mods = MeleeModifiers(me, enemy, round);
  RC_LOG() << "round " << round << ", " << me.strength << " men against " << enemy.strength << ": " << Describe(mods)
           << "\n";
  const Given got = Read(kMeleeModifiers, mods);

  Wanted want(kMeleeModifiers);
  // D4.1–D4.4 (reading): whole men, mine x den >= theirs x num, the largest
  // ratio only; against 0 men +4; a side of 0 men gets none.
  const long long mine = me.strength, theirs = enemy.strength;
  if (mine > 0) {
    if (theirs == 0 || mine >= 4 * theirs) want.When("D4.1", true);
    else if (mine >= 3 * theirs) want.When("D4.2", true);
    else if (mine >= 2 * theirs) want.When("D4.3", true);
    else if (2 * mine >= 3 * theirs) want.When("D4.4", true);
  }
  want.When("D4.5", me.cls == F::DogClass_Veteran);
  want.When("D4.6", me.cls == F::DogClass_SecondLine);
  want.When("D4.7", LowerClass(me.cls));
  // D4.8, D4.9 (reading): cuirassiers are heavy cavalry too.
  want.When("D4.8", me.arm == F::DogArm_HeavyCavalry || me.arm == F::DogArm_Cuirassiers);
  want.When("D4.9", me.arm == F::DogArm_Cuirassiers);
  want.When("D4.10", me.arm == F::DogArm_Lancers && round == 1);

  // D4.11–D4.18: cavalry against … ("foot" excludes artillery).
  const bool cav = Cav(me.arm), foe_foot = Foot(enemy.arm), foe_cav = Cav(enemy.arm);
  const bool foe_skirmishing = Skirmishing(enemy.arm, enemy.formation);
  const bool foe_square = foe_foot && enemy.formation == F::DogFormation_Square;
  // D4.17, D4.19 (reading): single_rank counts for a line only.
  const bool foe_thin_line = foe_foot && enemy.formation == F::DogFormation_Line && enemy.single_rank;
  want.When("D4.11", cav && (foe_skirmishing || Arty(enemy.arm)));
  want.When("D4.12", cav && foe_foot && enemy.cohesion == F::DogCohesion_Unformed);
  want.When("D4.13", cav && foe_foot && enemy.cohesion == F::DogCohesion_Disordered);
  want.When("D4.14", cav && foe_cav && enemy.cohesion == F::DogCohesion_Unformed);
  want.When("D4.15", cav && foe_cav && enemy.cohesion == F::DogCohesion_Disordered);
  // D4.16, D4.17 (reading): a square has both rows.
  want.When("D4.16", cav && foe_square);
  want.When("D4.17", cav && (foe_square || foe_thin_line));
  want.When("D4.18", me.arm == F::DogArm_Cossacks && foe_cav && enemy.cohesion == F::DogCohesion_Formed);

  // D4.19–D4.23 (reading): the side is foot in any formation; D4.21, D4.22
  // take the enemy's cohesion, of any arm.
  const bool foot = Foot(me.arm);
  const bool column = me.formation == F::DogFormation_ColumnOfMarch ||
                      me.formation == F::DogFormation_ColumnOfDivisions;
  want.When("D4.19", foot && column && foe_thin_line);
  want.When("D4.20", foot && me.formation == F::DogFormation_Square && foe_cav);
  want.When("D4.21", foot && enemy.cohesion == F::DogCohesion_Unformed);
  want.When("D4.22", foot && enemy.cohesion == F::DogCohesion_Disordered);
  want.When("D4.23", foot && foe_skirmishing);

  // D4.24–D4.29: its own state.
  want.When("D4.24", me.following_up);
  want.When("D4.25", me.uphill);
  want.When("D4.26", me.cohesion == F::DogCohesion_Unformed);
  want.When("D4.27", me.cohesion == F::DogCohesion_Disordered);
  want.When("D4.28", me.fatigue == F::DogFatigue_Tired);
  want.When("D4.29", me.fatigue == F::DogFatigue_Exhausted);

  RC_ASSERT(got.times == want.times);    // present iff its reading holds, once
  RC_ASSERT(got.values == want.values);  // at the table's value
  RC_ASSERT(std::is_sorted(got.rows.begin(), got.rows.end()));  // D4 (reading): in the sheet's order
  RC_ASSERT(Sum(mods) == want.Sum());
}

}  // namespace

TEST_CASE("D4: each melee modifier applies exactly once, and only when its condition holds", "[dog][property]") {
  rc::prop("MeleeModifiers gives exactly the D4 rows whose readings hold, at the table's values", [] {
    MeleeSide me = AnySide(), enemy = AnySide();
    me.strength = AnyMen();
    enemy.strength = EnemyMen(me.strength);
    const int round = Uniform(1, 4);
    CheckMelee(me, enemy, round);
    CheckMelee(enemy, me, round);  // and the other side's, of the same melee
  });
}

// ---- D6.3, D7: morale modifiers ------------------------------------------------------------------

TEST_CASE("D7: each morale modifier, and D6.3's commander's rating, applies exactly once, and only when its "
          "condition holds",
          "[dog][property]") {
  rc::prop("MoraleTest gives exactly the D7 rows whose readings hold, then the rating; T and the band follow", [] {
    const auto nation = AnyOf(F::EnumValuesDogNation());
    const auto arm = AnyArm();
    const auto cls = AnyOf(F::EnumValuesDogClass());
    const auto formation = AnyFormation(arm);
    const auto cohesion = AnyOf(F::EnumValuesDogCohesion());
    const auto fatigue = AnyOf(F::EnumValuesDogFatigue());
    const int morale = Uniform(1, 10);
    MoraleContext ctx;
    ctx.casualties_pct = Uniform(0, 100);
    ctx.casualties_pct_this_move = Uniform(0, ctx.casualties_pct);
    ctx.flanks_threatened = Uniform(0, 2);
    ctx.attacked_from_rear = Flip();
    ctx.charged_by_cavalry = Flip();
    ctx.routing_within_150 = Uniform(0, 4);
    ctx.secure_flanks = Flip();
    ctx.supported = Flip();
    ctx.receiving_charge = Flip();
    ctx.in_cover = Flip();
    ctx.charging = Flip();
    ctx.commander_rating = Uniform(0, 3) == 0 ? 0 : Uniform(-20, 20);
    const int roll = Uniform(1, 100);
    const MoraleResult r = MoraleTest(nation, arm, cls, formation, cohesion, fatigue, morale, ctx, roll);
    RC_LOG() << "T " << r.factor_pct << ", roll " << roll << ": " << Describe(r.modifiers) << "\n";

    // D6.3: the rating, once, last (D7: the sheet's order, then the rating), when not 0.
    std::vector<Modifier> chart, ratings;
    for (const Modifier& m : r.modifiers) (m.name == kCommanderRatingName ? ratings : chart).push_back(m);
    RC_ASSERT(ratings.size() == (ctx.commander_rating != 0 ? 1u : 0u));
    if (!ratings.empty()) {
      RC_ASSERT(ratings.front().value == ctx.commander_rating);
      RC_ASSERT(r.modifiers.back().name == std::string(kCommanderRatingName));
    }
    const Given got = Read(kMoraleModifiers, chart);

    Wanted want(kMoraleModifiers);
    // D7.1, D7.2 (reading): per whole 10%; this move's losses count in both.
    want.Count("D7.1", ctx.casualties_pct / 10);
    want.Count("D7.2", ctx.casualties_pct_this_move / 10);
    want.When("D7.3", cohesion == F::DogCohesion_Unformed);
    want.When("D7.4", cohesion == F::DogCohesion_Disordered);
    want.When("D7.5", fatigue == F::DogFatigue_Tired);
    want.When("D7.6", fatigue == F::DogFatigue_Exhausted);
    want.Count("D7.7", ctx.flanks_threatened);  // at most two
    want.When("D7.8", ctx.attacked_from_rear);
    // D7.9, D7.16: foot (infantry and skirmishers), in square or not.
    const bool square = formation == F::DogFormation_Square;
    want.When("D7.9", Foot(arm) && ctx.charged_by_cavalry && !square);
    want.When("D7.10", LowerClass(cls));
    want.Count("D7.11", ctx.routing_within_150);
    want.When("D7.12", cls == F::DogClass_Veteran);
    want.When("D7.13", ctx.secure_flanks);
    want.When("D7.14", ctx.supported);
    // D7.15 (reading): a cavalry charge is a charge received too.
    want.When("D7.15", nation == F::DogNation_British && (ctx.receiving_charge || ctx.charged_by_cavalry));
    want.When("D7.16", Foot(arm) && ctx.charged_by_cavalry && square);
    want.When("D7.17", ctx.in_cover);
    want.When("D7.18", Cav(arm) && ctx.charging);  // cavalry arms only

    RC_ASSERT(got.times == want.times);
    RC_ASSERT(got.values == want.values);
    RC_ASSERT(std::is_sorted(got.rows.begin(), got.rows.end()));  // D7: in the sheet's order
    // D6.1, D6.3: T = factor x 10 + the modifiers + the rating.
    RC_ASSERT(r.factor_pct == morale * 10 + Sum(r.modifiers));
    RC_ASSERT(r.factor_pct == morale * 10 + want.Sum() + ctx.commander_rating);
    RC_ASSERT(r.result == MoraleBand(r.factor_pct, roll));
    RC_ASSERT(r.result == MoraleOutcome(r.factor_pct, roll));  // D6.4–D6.6
    // D6.4–D6.6 again at the bands' edges, for the same unit in the same case.
    for (const int edge : {r.factor_pct - 10, r.factor_pct - 9, r.factor_pct, r.factor_pct + 1})
      if (edge >= 1 && edge <= 100)
        RC_ASSERT(MoraleTest(nation, arm, cls, formation, cohesion, fatigue, morale, ctx, edge).result ==
                  MoraleOutcome(r.factor_pct, edge));
  });
}

// ---- D10: control modifiers ----------------------------------------------------------------------

TEST_CASE("D10: each control modifier applies exactly once, and only when its condition holds", "[dog][property]") {
  rc::prop("ControlTest gives exactly the D10 rows whose readings hold; the total and D11's band follow", [] {
    const auto cls = AnyOf(F::EnumValuesDogClass());
    const int unit_factor = Uniform(0, 6);
    ControlContext ctx;
    ctx.enemy = AnyMovement();
    ctx.enemy_within_100 = Flip();
    ctx.friends = AnyMovement();
    ctx.melee_rounds_won_last_4 = Uniform(0, 4);
    ctx.under_fire_flank_or_rear = Flip();
    ctx.senior_factor = Uniform(0, 5);
    const int roll = Uniform(1, 10);
    const ControlResult r = ControlTest(cls, unit_factor, ctx, roll);
    RC_LOG() << "enemy " << static_cast<int>(ctx.enemy) << ", friends " << static_cast<int>(ctx.friends)
             << ", total " << r.total << ": " << Describe(r.modifiers) << "\n";
    const Given got = Read(kControlModifiers, r.modifiers);

    Wanted want(kControlModifiers);
    // D10.1–D10.6: the enemy's movement; retiring counts only within 100.
    want.When("D10.1", ctx.enemy == Movement::Retiring && ctx.enemy_within_100);
    want.When("D10.2", ctx.enemy == Movement::Retreating);
    want.When("D10.3", ctx.enemy == Movement::Routing);
    want.When("D10.4", ctx.enemy == Movement::Standing);
    want.When("D10.5", ctx.enemy == Movement::Advancing);
    want.When("D10.6", ctx.enemy == Movement::AdvancingOnFlank);
    // D10.7–D10.11: the friends' (within 100); D10.11 (reading): to a flank is advancing.
    want.When("D10.7", ctx.friends == Movement::Retiring);
    want.When("D10.8", ctx.friends == Movement::Retreating);
    want.When("D10.9", ctx.friends == Movement::Routing);
    want.When("D10.10", ctx.friends == Movement::Standing);
    want.When("D10.11", ctx.friends == Movement::Advancing || ctx.friends == Movement::AdvancingOnFlank);
    want.Count("D10.12", ctx.melee_rounds_won_last_4);
    want.When("D10.13", ctx.under_fire_flank_or_rear);
    // D10.14 (reading): with every other term counted, a veteran's total above
    // 10 loses a point, below 8 gains one; listed only when it moves the total.
    const int before = roll + unit_factor + ctx.senior_factor + want.Sum();
    const int vet = want.Row("D10.14").value;
    const int step = cls != F::DogClass_Veteran ? 0 : before > 10 ? -vet : before < 8 ? vet : 0;
    if (step != 0) {
      want.times["D10.14"] = 1;
      want.values["D10.14"] = step;
    }

    auto given = [&](int first, int last) {  // how many of rows D10.first … D10.last were given
      int n = 0;
      for (int i = first; i <= last; ++i) n += got.times.count("D10." + std::to_string(i)) ? 1 : 0;
      return n;
    };
    RC_ASSERT(given(1, 6) <= 1);   // one enemy movement at most
    RC_ASSERT(given(7, 11) <= 1);  // one friends' movement at most
    RC_ASSERT(got.times == want.times);
    RC_ASSERT(got.values == want.values);
    // D9: the die + the unit's factor + a senior officer's + D10.
    RC_ASSERT(r.total == roll + unit_factor + ctx.senior_factor + Sum(r.modifiers));
    RC_ASSERT(r.total == before + step);
    const ControlResult band = ControlBand(r.total);
    RC_ASSERT(r.result == band.result);
    RC_ASSERT(r.moves == band.moves);
    RC_ASSERT(r.result == ControlOutcome(r.total));  // D11.1–D11.6
  });
}
