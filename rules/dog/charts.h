// Death or Glory's charts (part 2 of the rules) as pure functions: every
// number is in rules/dog/tables.h; every function names its chart
// (rules/dog/RULES.md: D1 formation changes, D2 movement allowances,
// D3 terrain, D4 melee modifiers, D5 when morale is tested, D6 how, D7 its
// modifiers, D8 when control is tested, D9 how, D10 its modifiers, D11 its
// results; D12-D15 what the missing main rules leave open, ASSUMED).
// Each chart row is a test in tests/rules/dog/charts_test.cc.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "schema/dog_generated.h"

namespace adjutant::rules::dog {

// A modifier as the charts name it: its value and its row, e.g. {+2, "Heavy Cavalry"}.
struct Modifier {
  int value = 0;
  std::string name;
  friend bool operator==(const Modifier&, const Modifier&) = default;
};
int Sum(const std::vector<Modifier>& mods);
// "+2 Heavy Cavalry, -1 unformed"
std::string Describe(const std::vector<Modifier>& mods);

bool IsCavalry(fb::DogArm a);   // light, heavy, cuirassiers, lancers, Cossacks
bool IsArtillery(fb::DogArm a);  // foot and horse
bool IsFoot(fb::DogArm a);       // infantry and skirmishers

// ---- D1: formation changes --------------------------------------------------
// The time a change takes, in quarters of a move (the chart's 1/4 … 2 moves
// is 1 … 8), before doubling; nullopt where the chart has "-" (the arm
// cannot make it). The chart's columns: infantry British/French, Russian,
// Prussian/Austrian; cavalry British, French/Russian, Prussian/Austrian;
// batteries foot or horse by the same three nation columns as infantry.
// Changes go both ways ("and vice versa"). Skirmishers form from and to
// Line at the "into skirmish order" time. No change (from == to) takes 0.
// Batteries change only Limbered <-> Unlimbered (limber and unlimber differ).
std::optional<int> FormationChangeQuarters(fb::DogNation n, fb::DogArm a, fb::DogFormation from, fb::DogFormation to);
// D1 "Reform": back to formed from unformed or disordered (0 when formed;
// batteries at the infantry columns' times, ASSUMED: the sheet has none).
std::optional<int> ReformQuarters(fb::DogNation n, fb::DogArm a, fb::DogCohesion from);
// D1: refacing a battery by `degrees` (0-30: 1/4, 30-60: 1/2, 60-120: 1, each
// upper bound included; more: 120 then the rest, two steps of the chart,
// ASSUMED). The turn is taken the short way (so at most 180); 0 takes 0.
int RefaceQuarters(int degrees);
// D1 note: tired units, conscripts, militia and landwehr take double time
// (exhausted units too, reading; doubled once, however many apply).
bool TakesDoubleTime(fb::DogClass c, fb::DogFatigue f);

// ---- D2: movement allowances (mm a move) ---------------------------------------
// Infantry in line 100, in column 150 (column of march or of divisions; a
// square moves as a line, ASSUMED), skirmishers 150, light cavalry (and
// lancers, Cossacks) 240 in line / 300 in column, heavy cavalry (and
// cuirassiers) 200 / 240, foot artillery 140, horse artillery 240
// (limbered; 0 unlimbered, ASSUMED).
// A formation the arm cannot take (D1's "-": cavalry in a column of
// divisions or square, a battery in anything but Limbered) moves 0; foot in
// skirmish order moves as skirmishers, cavalry in skirmish order at its line
// rate (ASSUMED).
int Allowance(fb::DogArm a, fb::DogFormation f);
// D2: only skirmishers (foot in skirmish order) may move through other units.
bool MayPassThroughUnits(fb::DogArm a, fb::DogFormation f);

// ---- D3: terrain ---------------------------------------------------------------
struct TerrainRow {
  fb::DogTerrainKind kind;
  int visibility = 0;          // m; 0: not limited
  int percent_of_rate = 100;   // areas: the share of the normal rate a unit keeps inside it
  int deduct_mm = 0;           // linear features: mm taken from the move to cross
  int deduct_per_10 = 0;       // streams and rivers: mm deducted per 10 mm (or part) of their width (reading, tables.h)
  bool unforms_all = false, unforms_cavalry = false, disorders = false;
  bool artillery_cannot = false, cavalry_cannot = false;
};
const TerrainRow& Terrain(fb::DogTerrainKind k);
// What crossing or entering terrain does to a unit of `arm`: whether it may
// at all, and the cohesion it is left in (never better than it had).
bool MayEnter(fb::DogTerrainKind k, fb::DogArm a);
fb::DogCohesion CohesionAfter(fb::DogTerrainKind k, fb::DogArm a, fb::DogCohesion before);
// D3: the mm a crossing of linear feature `k` takes from the move: a wall's
// or building's deduct_mm; a stream's or river's deduct_per_10 for every
// 10 mm or part of `width_mm` (<= 0: 10 mm wide, ASSUMED); 0 for areas.
int CrossingDeductionMm(fb::DogTerrainKind k, int width_mm = 0);

// ---- D4: melee modifiers ----------------------------------------------------------
// One side of a melee as the modifiers see it.
struct MeleeSide {
  fb::DogArm arm = fb::DogArm_Infantry;
  fb::DogClass cls = fb::DogClass_Line;
  fb::DogFormation formation = fb::DogFormation_Line;
  fb::DogCohesion cohesion = fb::DogCohesion_Formed;
  fb::DogFatigue fatigue = fb::DogFatigue_Fresh;
  int strength = 0;            // men now
  bool single_rank = false;    // a line of one rank (British two-deep is not; squares count, D4)
  bool following_up = false;   // it won the last round and follows up
  bool uphill = false;         // it fights from higher ground
};
// The modifiers of `me` against `enemy` in round `round` (1 = the first).
std::vector<Modifier> MeleeModifiers(const MeleeSide& me, const MeleeSide& enemy, int round);

// ---- D5-D7: morale -------------------------------------------------------------------
// D5 (occasions: tables.h kMoraleOccasions). "For each 10% casualties": how
// many tests losses bring that take a unit of `start` men from `before` to
// `after` men (one per multiple of 10% of `start` lost passed).
int CasualtyTests(int start, int before, int after);
// D5 "strength falls below 50% and when additional casualties taken
// thereafter": the unit ends below half its starting strength having lost men.
bool BelowHalfTest(int start, int before, int after);
struct MoraleContext {
  int casualties_pct = 0;          // of the starting strength, lost so far
  int casualties_pct_this_move = 0;
  int flanks_threatened = 0;       // 0, 1 or 2
  bool attacked_from_rear = false;
  bool charged_by_cavalry = false; // it is being charged by cavalry
  int routing_within_150 = 0;      // routing units within 150 m (the engine: of either side from dog=3, friends before)
  bool secure_flanks = false;
  bool supported = false;          // friendly formed units to its rear
  bool receiving_charge = false;   // it is being charged (British +10%)
  bool in_cover = false;
  bool charging = false;           // it is charging (cavalry +20%)
  int commander_rating = 0;        // percent, his rating
};
struct MoraleResult {
  int factor_pct = 0;              // the morale factor x 10, with every modifier and the rating
  std::vector<Modifier> modifiers;
  std::string result;              // "pass", "shaken", "break"
};
// D6 (reading, RULES.md): a percentage roll; the unit's morale factor x 10
// plus the modifiers and its commander's rating is T; a roll at or below
// T - 10 passes, above T - 10 up to T is "equal" (shaken), above T breaks.
// D6 alone: "pass", "shaken" or "break" for `roll_d100` against T.
std::string MoraleBand(int factor_pct, int roll_d100);
MoraleResult MoraleTest(fb::DogNation n, fb::DogArm a, fb::DogClass c, fb::DogFormation f, fb::DogCohesion coh,
                        fb::DogFatigue fat, int morale_factor, const MoraleContext& ctx, int roll_d100);

// ---- D8-D11: control -------------------------------------------------------------------
enum class Movement { None, Standing, Advancing, AdvancingOnFlank, Retiring, Retreating, Routing };
struct ControlContext {
  Movement enemy = Movement::None;    // the nearest enemy's
  bool enemy_within_100 = false;       // "enemy retiring within 100m"
  Movement friends = Movement::None;   // nearby friends' (within 100 m)
  int melee_rounds_won_last_4 = 0;
  bool under_fire_flank_or_rear = false;
  int senior_factor = 0;               // D9: a senior officer present
};
struct ControlResult {
  int total = 0;
  std::vector<Modifier> modifiers;
  std::string result;   // D11: "pursue 2", "pursue 1", "follow orders", "stand 1", "stand 2", "retire"
  int moves = 0;        // how many moves it binds the unit (0 for follow orders; retire 1, 0 under version 1)
};
// D9: one d10 (a "percentage die" read 1-10) + the unit's control factor +
// a senior officer's + D10's modifiers; D11's bands.
ControlResult ControlTest(fb::DogClass c, int unit_factor, const ControlContext& ctx, int roll_d10);
// D11 alone: the band of a total.
ControlResult ControlBand(int total);

}  // namespace adjutant::rules::dog
