// Death or Glory (`dog`): every number of the chart sheet (part 2 of the
// rules, ../shared/seeds/003_c20d2474f00e623e.txt), as data, in one place.
// The functions of rules/dog/charts.h read these tables and nothing else.
// Chart numbers D1…D11 are rules/dog/RULES.md's (the sheet has none); each
// table names its chart, and RULES.md names the row numbers (D1.1 …).
//
// Units: times in quarters of a move (the sheet's 1/4 = 1, 1/2 = 2, 3/4 = 3,
// 1 = 4, 1 1/2 = 6, 2 = 8, 3 = 12); distances in mm of table (the sheet's
// "m" and "mm" are the same, schema/dog.fbs); morale in percent; control in
// points of a d10. Tables indexed by a schema enum repeat their key in each
// row, and static_asserts below prove the rows are in enum order. Readings of
// what the sheet leaves unclear are marked "reading" (ASSUMED where the sheet
// is silent) here and in RULES.md.
#pragma once

#include <array>
#include <climits>
#include <cstddef>
#include <optional>
#include <string_view>

#include "rules/dog/charts.h"
#include "schema/dog_generated.h"

namespace adjutant::rules::dog {

inline constexpr std::size_t kNationCount = static_cast<std::size_t>(fb::DogNation_MAX) + 1;
inline constexpr std::size_t kTerrainKindCount = static_cast<std::size_t>(fb::DogTerrainKind_MAX) + 1;

// ---- D1: formation changes ---------------------------------------------------------

// A time in quarters of a move; nullopt is the sheet's "-" (the arm cannot
// make the change).
using Quarters = std::optional<int>;
inline constexpr Quarters kNA = std::nullopt;

// D1: the sheet's three nation columns. Infantry (and skirmishers, and
// batteries, foot or horse): British/French, Russian, Prussian/Austrian.
// Cavalry: British, French/Russian, Prussian/Austrian.
inline constexpr std::array<int, kNationCount> kInfantryColumn = {0, 0, 1, 2, 2};
inline constexpr std::array<int, kNationCount> kCavalryColumn = {0, 1, 1, 2, 2};
static_assert(fb::DogNation_British == 0 && fb::DogNation_French == 1 && fb::DogNation_Russian == 2 &&
              fb::DogNation_Prussian == 3 && fb::DogNation_Austrian == 4);

// D1.1–D1.7: changes between two formations, either way ("and vice versa").
struct FormationChangeRow {
  std::string_view rule;
  fb::DogFormation a, b;
  std::array<Quarters, 3> infantry;  // by kInfantryColumn
  std::array<Quarters, 3> cavalry;   // by kCavalryColumn
};
inline constexpr std::array<FormationChangeRow, 7> kFormationChanges = {{
    {"D1.1", fb::DogFormation_ColumnOfMarch, fb::DogFormation_ColumnOfDivisions, {1, 2, 3}, {kNA, kNA, kNA}},
    {"D1.2", fb::DogFormation_ColumnOfMarch, fb::DogFormation_Line, {3, 6, 8}, {3, 2, 4}},
    {"D1.3", fb::DogFormation_ColumnOfMarch, fb::DogFormation_Square, {2, 4, 6}, {kNA, kNA, kNA}},
    {"D1.4", fb::DogFormation_ColumnOfDivisions, fb::DogFormation_Line, {2, 4, 6}, {kNA, kNA, kNA}},
    {"D1.5", fb::DogFormation_ColumnOfDivisions, fb::DogFormation_Square, {1, 2, 3}, {kNA, kNA, kNA}},
    {"D1.6", fb::DogFormation_Line, fb::DogFormation_Square, {2, 2, 4}, {kNA, kNA, kNA}},
    // "Into skirmish order" (reading, charts.h): from Line, and back to it.
    {"D1.7", fb::DogFormation_Line, fb::DogFormation_Skirmish, {1, 2, 3}, {3, 2, 4}},
}};

// D1.8–D1.9: reforming (back to formed) from unformed or disordered.
struct ReformRow {
  std::string_view rule;
  fb::DogCohesion from;
  std::array<int, 3> infantry;  // by kInfantryColumn; batteries too (reading, ASSUMED)
  std::array<int, 3> cavalry;   // by kCavalryColumn
};
inline constexpr std::array<ReformRow, 2> kReform = {{
    {"D1.8", fb::DogCohesion_Unformed, {4, 4, 8}, {8, 4, 8}},
    {"D1.9", fb::DogCohesion_Disordered, {4, 8, 8}, {8, 8, 12}},
}};

// D1.10–D1.11: batteries. The sheet's "Foot" and "Horse" headers each sit
// over three columns read as the infantry nation columns (kInfantryColumn).
// (Read as the cavalry columns instead, a horse battery's times are the
// same for every nation, but a French foot battery's are not: 3/4 to
// unlimber and 1 to limber instead of 1/2 and 1/2. "Foot" stands over the
// infantry columns themselves, so they are the ones read.)
struct BatteryRow {
  std::string_view rule;
  fb::DogFormation from, to;
  std::array<int, 3> foot;   // foot artillery, by kInfantryColumn
  std::array<int, 3> horse;  // horse artillery, by kInfantryColumn
};
inline constexpr std::array<BatteryRow, 2> kBattery = {{
    {"D1.10", fb::DogFormation_Limbered, fb::DogFormation_Unlimbered, {2, 3, 4}, {1, 1, 2}},  // unlimber
    {"D1.11", fb::DogFormation_Unlimbered, fb::DogFormation_Limbered, {2, 4, 6}, {2, 2, 3}},  // limber
}};

// D1.12: refacing a battery, by the angle turned (each band's upper bound
// included: 30° is 1/4, 31° is 1/2). A turn of more than 120° is two
// refacings: 120° and the rest (ASSUMED).
struct RefaceRow {
  int up_to_degrees;
  int quarters;
};
inline constexpr std::array<RefaceRow, 3> kReface = {{{30, 1}, {60, 2}, {120, 4}}};

// D1.13: tired (and exhausted, reading) units, conscripts, militia and
// landwehr take this many times as long.
inline constexpr int kDoubleTimeFactor = 2;

// ---- D2: movement allowances (mm a move) ------------------------------------------------
inline constexpr int kInfantryLineMm = 100;      // D2.1 (squares too, ASSUMED)
inline constexpr int kInfantryColumnMm = 150;    // D2.2 (column of march or of divisions)
inline constexpr int kSkirmishersMm = 150;       // D2.3 (foot in skirmish order)
inline constexpr int kLightCavLineMm = 240;      // D2.4 (light cavalry, lancers, Cossacks)
inline constexpr int kLightCavColumnMm = 300;    // D2.5
inline constexpr int kHeavyCavLineMm = 200;      // D2.6 (heavy cavalry, cuirassiers)
inline constexpr int kHeavyCavColumnMm = 240;    // D2.7
inline constexpr int kFootArtilleryMm = 140;     // D2.8 (limbered)
inline constexpr int kHorseArtilleryMm = 240;    // D2.9 (limbered)

// ---- D3: terrain -------------------------------------------------------------------------
// Areas keep `percent_of_rate` of the normal rate inside them (slopes: the
// sheet's deduction of 25%, 50%, 75%); linear features take `deduct_mm`
// from the move to cross them. Streams and fordable rivers take
// `deduct_per_10` mm for every 10 mm (or part) of the watercourse's width
// (reading of the sheet's "10m/10", "20m/10"; a watercourse with no width
// given is taken as 10 mm wide, ASSUMED; see CrossingDeductionMm).
inline constexpr int kDefaultWatercourseWidthMm = 10;
inline constexpr std::array<TerrainRow, kTerrainKindCount> kTerrain = {{
    // D3.1 open woods: seen 500, half rate, unformed.
    {.kind = fb::DogTerrainKind_OpenWoods, .visibility = 500, .percent_of_rate = 50, .unforms_all = true},
    // D3.2 dense woods: seen 250, a quarter of the rate, disordered.
    {.kind = fb::DogTerrainKind_DenseWoods, .visibility = 250, .percent_of_rate = 25, .disorders = true},
    // D3.3 streams: 10 mm per 10 mm of width.
    {.kind = fb::DogTerrainKind_Stream, .deduct_per_10 = 10},
    // D3.4 fordable rivers: 20 mm per 10 mm of width, unformed, no artillery.
    {.kind = fb::DogTerrainKind_FordableRiver, .deduct_per_10 = 20, .unforms_all = true, .artillery_cannot = true},
    // D3.5 low walls and hedges: 25 mm, cavalry unformed, no artillery.
    {.kind = fb::DogTerrainKind_LowWall, .deduct_mm = 25, .unforms_cavalry = true, .artillery_cannot = true},
    // D3.6 high walls and hedges: 50 mm, all unformed, no artillery.
    {.kind = fb::DogTerrainKind_HighWall, .deduct_mm = 50, .unforms_all = true, .artillery_cannot = true},
    // D3.7 entering buildings: 25 mm, no cavalry, no artillery.
    {.kind = fb::DogTerrainKind_Building, .deduct_mm = 25, .artillery_cannot = true, .cavalry_cannot = true},
    // D3.8–D3.11 slopes: 25%, 50%, 75%, 75% and unformed.
    {.kind = fb::DogTerrainKind_GentleSlope, .percent_of_rate = 75},
    {.kind = fb::DogTerrainKind_MediumSlope, .percent_of_rate = 50},
    {.kind = fb::DogTerrainKind_SteepSlope, .percent_of_rate = 25},
    {.kind = fb::DogTerrainKind_ExtremeSlope, .percent_of_rate = 25, .unforms_all = true},
}};
inline constexpr std::array<std::string_view, kTerrainKindCount> kTerrainNames = {
    "open woods",   "dense woods",    "stream",         "fordable river", "low wall or hedge",    "high wall or hedge",
    "building",     "gentle slope",   "medium slope",   "steep slope",    "extremely steep slope",
};
constexpr bool TerrainInOrder() {
  for (std::size_t i = 0; i < kTerrain.size(); ++i)
    if (static_cast<std::size_t>(kTerrain[i].kind) != i) return false;
  return true;
}
static_assert(TerrainInOrder(), "kTerrain must be in DogTerrainKind order");

// ---- D4: melee modifiers ---------------------------------------------------------------------
// A modifier row as data (Modifier, charts.h, owns its name as a string).
// Names are the sheet's row labels; a row counted several times (D7.1,
// D7.2, D7.7, D7.11, D10.12) is named "<label> (xN)" in a Modifier.
struct ModifierRow {
  std::string_view rule;
  int value;
  std::string_view name;
};
// D4's rows in the sheet's order; kMeleeModifiers[static_cast<int>(row)].
enum class MeleeRow {
  Outnumber4to1, Outnumber3to1, Outnumber2to1, Outnumber3to2, Veteran, SecondLine, ConscriptMilitia,
  HeavyCavalry, Cuirassiers, Lancers, CavVsSkirmishersArty, CavVsUnformedFoot, CavVsDisorderedFoot,
  CavVsUnformedCav, CavVsDisorderedCav, CavVsSquare, CavVsSingleRank, CossacksVsFormedCav,
  ColumnVsSingleRankLine, SquareVsCav, InfVsUnformed, InfVsDisordered, InfVsSkirmishers, FollowingUp,
  Uphill, Unformed, Disordered, Tired, Exhausted, Count
};
inline constexpr std::array<ModifierRow, static_cast<std::size_t>(MeleeRow::Count)> kMeleeModifiers = {{
    {"D4.1", +4, "Outnumber enemy by 4:1 or more"},
    {"D4.2", +3, "Outnumber enemy by 3:1"},
    {"D4.3", +2, "Outnumber enemy by 2:1"},
    {"D4.4", +1, "Outnumber enemy by 3:2"},
    {"D4.5", +1, "Veteran"},
    {"D4.6", -1, "2nd line"},
    {"D4.7", -2, "conscript/militia"},
    {"D4.8", +2, "Heavy Cavalry"},
    {"D4.9", +1, "Cuirassiers"},
    {"D4.10", +2, "Lancers (first round only)"},
    {"D4.11", +6, "Cavalry vs skirmishers and arty"},
    {"D4.12", +3, "Cav vs unformed foot"},
    {"D4.13", +5, "Cav vs disordered foot"},
    {"D4.14", +1, "Cav vs unformed cav"},
    {"D4.15", +2, "Cav vs disordered cav"},
    {"D4.16", -5, "Cav vs Inf in square"},
    {"D4.17", +2, "Cav vs Inf in single rank (includes squares)"},
    {"D4.18", -2, "Cossacks vs formed cav"},
    {"D4.19", +2, "Inf in column vs Inf in single rank line"},
    {"D4.20", +2, "Inf in square vs cav"},
    {"D4.21", +1, "Inf vs unformed"},
    {"D4.22", +2, "Inf vs disordered"},
    {"D4.23", +2, "Inf vs skirmishers"},
    {"D4.24", +1, "following up victory"},
    {"D4.25", +1, "uphill"},
    {"D4.26", -1, "unformed"},
    {"D4.27", -2, "disordered"},
    {"D4.28", -2, "tired"},
    {"D4.29", -4, "exhausted"},
}};
// D4.1–D4.4: outnumbering, as a ratio of strengths (mine >= theirs x num / den),
// largest first; only the first that holds applies.
struct OutnumberRow {
  int num, den;
  MeleeRow row;
};
inline constexpr std::array<OutnumberRow, 4> kOutnumber = {{
    {4, 1, MeleeRow::Outnumber4to1},
    {3, 1, MeleeRow::Outnumber3to1},
    {2, 1, MeleeRow::Outnumber2to1},
    {3, 2, MeleeRow::Outnumber3to2},
}};
inline constexpr int kLancersRounds = 1;  // D4.10: lancers' bonus in round 1 only

// Modifier tables are numbered <chart>.1, <chart>.2, … in enum order (D4, D7, D10).
template <std::size_t N>
constexpr bool RowsNumbered(const std::array<ModifierRow, N>& rows, std::string_view chart) {
  for (std::size_t i = 0; i < N; ++i) {
    const std::string_view rule = rows[i].rule;
    if (rule.size() <= chart.size() + 1 || rule.substr(0, chart.size()) != chart || rule[chart.size()] != '.')
      return false;
    std::size_t n = 0;
    for (char c : rule.substr(chart.size() + 1)) {
      if (c < '0' || c > '9') return false;
      n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    if (n != i + 1) return false;
  }
  return true;
}
static_assert(RowsNumbered(kMeleeModifiers, "D4"));

// ---- D5: when a unit tests morale ----------------------------------------------------------
inline constexpr std::array<std::string_view, 7> kMoraleOccasions = {
    "infantry being charged",                // D5.1
    "charging",                              // D5.2
    "lost a round of melee",                 // D5.3
    "friends retreating within 150 mm",      // D5.4
    "10% casualties",                        // D5.5: one test for each 10% of the starting strength lost
    "commander killed within sight",         // D5.6
    "below half strength and losing more",   // D5.7
};
inline constexpr int kFriendsRetreatingRangeMm = 150;  // D5.4
inline constexpr int kCasualtyTestStepPct = 10;        // D5.5

// ---- D6: how a unit tests morale ------------------------------------------------------------
inline constexpr int kMoraleFactorPct = 10;  // D6.1: a morale factor of 10 is 100%
inline constexpr int kMoraleDie = 100;       // D6.2: one percentage die
inline constexpr int kShakenBandPct = 10;    // D6.5: "equal" is the top 10 of T (reading)
inline constexpr int kShakenRetireMm = 50;   // D6.5: a shaken defender retires 50 mm

// ---- D7: morale modifiers (percent) ---------------------------------------------------------
enum class MoraleRow {
  Casualties, CasualtiesThisMove, Unformed, Disordered, Tired, Exhausted, FlankThreatened, AttackedFromRear,
  NotInSquareChargedByCav, ConscriptMilitiaLandwehr, RoutingWithin150, Veteran, SecureFlanks, Supported,
  BritishReceivingCharge, SquareChargedByCav, InCover, ChargingCavalry, Count
};
inline constexpr std::array<ModifierRow, static_cast<std::size_t>(MoraleRow::Count)> kMoraleModifiers = {{
    {"D7.1", -5, "for every 10% casualties"},
    {"D7.2", -5, "for each 10% casualties lost this move"},
    {"D7.3", -10, "unformed"},
    {"D7.4", -20, "disordered"},
    {"D7.5", -10, "tired"},
    {"D7.6", -20, "exhausted"},
    {"D7.7", -10, "for each flank threatened"},
    {"D7.8", -20, "attacked from rear"},
    {"D7.9", -20, "infantry not in square charged by cavalry"},
    {"D7.10", -10, "conscript, militia, landwehr"},
    {"D7.11", -10, "for each routing unit within 150m"},
    {"D7.12", +10, "veteran"},
    {"D7.13", +10, "secure flanks"},
    {"D7.14", +10, "supported"},
    {"D7.15", +10, "British receiving charge"},
    {"D7.16", +20, "infantry in square charged by cavalry"},
    {"D7.17", +20, "unit in cover"},
    {"D7.18", +20, "charging cavalry"},
}};
static_assert(RowsNumbered(kMoraleModifiers, "D7"));
inline constexpr int kCasualtyStepPct = 10;    // D7.1, D7.2: per whole 10%
inline constexpr int kRoutingRangeMm = 150;    // D7.11
inline constexpr int kMaxFlanks = 2;           // D7.7
inline constexpr std::string_view kCommanderRatingName = "commander's rating";  // D6.3

// ---- D8: when a unit tests control ----------------------------------------------------------
inline constexpr std::array<std::string_view, 3> kControlOccasions = {
    "won a melee",                       // D8.1
    "unit commander killed",             // D8.2
    "charge failed to make contact",     // D8.3
};

// ---- D9: how a unit tests control -----------------------------------------------------------
inline constexpr int kControlDie = 10;  // D9.1: "1 percentage die" read as a d10 (1-10), charts.h

// ---- D10: control modifiers -----------------------------------------------------------------
enum class ControlRow {
  EnemyRetiring, EnemyRetreating, EnemyRouting, EnemyStanding, EnemyAdvancing, EnemyAdvancingOnFlank,
  FriendsRetiring, FriendsRetreating, FriendsRouting, FriendsStanding, FriendsAdvancing, MeleeRoundsWon,
  UnderFireFlankRear, Veteran, Count
};
inline constexpr std::array<ModifierRow, static_cast<std::size_t>(ControlRow::Count)> kControlModifiers = {{
    {"D10.1", +1, "enemy retiring within 100m"},
    {"D10.2", +2, "enemy retreating"},
    {"D10.3", +3, "enemy routing"},
    {"D10.4", -1, "enemy standing"},
    {"D10.5", -2, "enemy advancing"},
    {"D10.6", -3, "enemy advancing to flank or rear"},
    {"D10.7", -1, "friends retiring within 100m"},
    {"D10.8", -2, "friends retreating"},
    {"D10.9", -3, "friends routing"},
    {"D10.10", +1, "friends standing"},
    {"D10.11", +2, "friends advancing"},
    {"D10.12", +1, "for each round of melee won within last 4 moves"},
    {"D10.13", -1, "unit under fire from flank/rear"},
    {"D10.14", 1, "veteran"},  // +1 or -1, toward "follow orders" (reading)
}};
static_assert(RowsNumbered(kControlModifiers, "D10"));
inline constexpr int kControlRangeMm = 100;  // D10.1, D10.7–D10.11

// ---- D11: control results -------------------------------------------------------------------
struct ControlBandRow {
  std::string_view rule;
  int min, max;  // totals, both included
  std::string_view result;
  int moves;     // how many moves it binds the unit
};
inline constexpr std::array<ControlBandRow, 6> kControlBands = {{
    {"D11.1", 13, INT_MAX, "pursue 2", 2},
    {"D11.2", 11, 12, "pursue 1", 1},
    {"D11.3", 8, 10, "follow orders", 0},
    {"D11.4", 5, 7, "stand 1", 1},
    {"D11.5", 2, 4, "stand 2", 2},
    {"D11.6", INT_MIN, 1, "retire", 1},  // reading: it retires on the next move (RULES.md)
}};
// The veteran's reading (D10.14) pulls toward D11.3.
inline constexpr int kFollowOrdersMin = 8;
inline constexpr int kFollowOrdersMax = 10;
constexpr bool ControlBandsContiguous() {
  for (std::size_t i = 1; i < kControlBands.size(); ++i)
    if (kControlBands[i].max + 1 != kControlBands[i - 1].min) return false;
  return kControlBands.front().max == INT_MAX && kControlBands.back().min == INT_MIN;
}
static_assert(ControlBandsContiguous(), "D11's bands must cover every total once");

// ---- D13-D15: what the missing main rules leave open (ASSUMED; RULES.md) ---------------------
// D13: melee: one round a move between units in contact; each side rolls a
// d10 and adds its D4 modifiers; the higher total wins. The loser loses
// kMeleeLoserPct of its men plus kMeleePerPointPct for each point it lost
// by (at most kMeleeMaxPct); the winner kMeleeWinnerPct; on equal totals
// each loses kMeleeDrawPct and neither wins.
inline constexpr int kMeleeDie = 10;
inline constexpr int kMeleeLoserPct = 8;
inline constexpr int kMeleePerPointPct = 2;
inline constexpr int kMeleeMaxPct = 40;
inline constexpr int kMeleeWinnerPct = 3;
inline constexpr int kMeleeDrawPct = 4;
inline constexpr int kContactMm = 15;
// D13 (version 2): a routing unit caught by a charge does not fight: it loses
// this share of its men and runs on.
inline constexpr int kCaughtRoutingPct = 10;  // D13: a charger this close to its target's block is in contact
// D14: fire: after movement, each formed or unformed foot unit in line or
// skirmish order and each unlimbered battery not in contact fires at the
// nearest enemy ahead of it (within kFireArcDegrees of its facing) in range;
// a d10 gives casualties: foot lose `pct_per_roll` x roll tenths of a percent
// of the firers' men; batteries `men_per_gun_roll` x roll men a gun (20 men a
// gun); halved beyond half range, halved again against skirmishers or a
// target in woods or a building.
struct FireRow {
  fb::DogArm arm;
  int range_mm;
  int pct_per_roll_tenths;  // foot: tenths of a percent of the firers per point of the d10
  int men_per_gun_roll;     // batteries: men a gun per point of the d10, halved
};
inline constexpr std::array<FireRow, 4> kFire = {{
    {fb::DogArm_Infantry, 150, 10, 0},
    {fb::DogArm_Skirmishers, 200, 10, 0},
    {fb::DogArm_FootArtillery, 800, 0, 2},
    {fb::DogArm_HorseArtillery, 600, 0, 2},
}};
inline constexpr int kFireDie = 10;
inline constexpr int kFireArcDegrees = 45;
// D15: fatigue: a unit that charges or fights a round of melee ends the move a
// step more tired (Fresh, Tired, Exhausted); it does not recover in a battle.
// A routing unit moves its full allowance straight away from the nearest enemy.

// D12.8 (ASSUMED): where another unit stands relative to a unit's front: within
// kFrontArcDegrees of its facing is ahead; beyond kRearArcDegrees behind; in
// between, on a flank (left or right).
inline constexpr int kFrontArcDegrees = 45;
inline constexpr int kRearArcDegrees = 135;
// D7.7: a flank is threatened by a standing (not routing) enemy on that flank
// within this distance; a square has no flanks (reading).
inline constexpr int kFlankThreatMm = 150;
// D7.13: flanks are secure when a friendly unit that is not routing stands on
// each flank within this distance and neither flank is threatened.
inline constexpr int kSecureFlankMm = 100;
// D5.6: a commander's death is seen by his side's units within this distance
// that are not hidden by woods (D3.1, D3.2).
inline constexpr int kCommanderSightMm = 500;
// D6.5: a shaken square "fights worse": this much in its melee (ASSUMED).
inline constexpr int kShakenSquareMelee = -1;
// D11.6: a unit bound to retire goes straight back this share of its allowance,
// keeping its front to the enemy (reading: a full move's retirement).
inline constexpr int kRetirePercent = 100;

}  // namespace adjutant::rules::dog
