// PATE section 7: one battle, from the ships in contact and their orders to
// damage, prizes and experience. Pure: the battle and the dice in; the
// outcome, every roll made and a log of each step out, for the caller to
// record as events. Numbers are in combat_tables.h; the readings chosen
// where the book is vague are in RULES.md (section "Combat").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/turn.h"
#include "rules/dice.h"
#include "rules/pate/combat_tables.h"

namespace adjutant::rules::pate {

enum class Where : uint8_t { Harbour, Coastal, Sea };

// A ship or transport group in contact, with its ratings (2.2, 2.4) and
// the orders that matter in battle (4.6, 4.7).
struct Combatant {
  std::string id;            // "BR1FL"
  int side = 0;              // 0 or 1
  Kind kind = Kind::SL;
  int32_t frigates = 1;      // FR: frigates in the group
  int32_t crew = 0;
  int32_t full_crew = 0;     // the complement (2.7): FL 800, SL 600, FR 225 a frigate
  int32_t marines = 0;
  uint8_t quality = kQualityAverage;  // 0 Poor .. 4 Very Good
  uint16_t experience = 0;
  uint8_t hull = 0, rigging = 0;      // damage 0..4 (5 is sunk)
  bool evade = false;        // contact order Evade (4.6, 7.4)
  bool close = false;        // close quarters (7.5)
  bool break_line = false;   // break the enemy's line (4.7, 7.6)
  bool aim_rigging = true;   // 4.7, 7.3; rigging is 4.11's default
  bool windward = false;     // 6.9: at sea, her group lies to windward of the enemy
};

struct Battle {
  std::string id;            // the subject of the battle's rolls
  TurnPhase at;
  Where where = Where::Sea;
  bool onshore_wind = false; // 7.4: coastal waters with the wind onshore
  int windward_side = -1;    // 6.9: the side with the weather gauge; -1 neither
  std::vector<Combatant> ships;  // rolls follow this order
  int battery_side = -1;     // 7.1: the side the harbour's batteries fight for
  uint8_t defence = 0;       // the harbour's defence rating (1.4)
  uint8_t batteries = 0, batteries_damaged = 0;  // damaged ones among them
  // The rules version the battle is judged under: which readings of 7.4,
  // 7.5, 7.7 and 7.8 apply (the gates are tables.h's). 0, a test's default,
  // takes the first reading of each.
  // - kTransportsNotShipsVersion (5, PATE 2.1): 7.4's and 7.5's "ships" are
  //   the warships, not the transport groups: a side whose warships all evade
  //   evades whole, and a side of shore batteries and transports is one of
  //   "only shore batteries".
  // - kDecisiveLineVersion (5, PATE 7.2): a battle whose line was broken (one
  //   side through, or both sides breaking) is more decisive whoever wins:
  //   the loser's ships escape less often (kEscapeLineBrokenBp). Before: only
  //   when the winner was the side that broke through.
  // - kTransportsNotPrizesVersion (10, PATE 7.8 with 2.1): 7.8's escape and
  //   prizes concern the loser's warships; its transport groups neither roll
  //   nor are taken (nor withdraw when the winner has no captor): they stay.
  // - kWindwardEachVersion (11, PATE 7.7): at sea the +10% is each ship's
  //   whose group lies to windward of the enemy (Combatant::windward), not
  //   every ship's of the side with more ships to windward.
  // - kWholeMarinesVersion (11, PATE 7.7): a point for each whole 20 Marines.
  uint32_t version = 0;
};

// 7.6: what became of an attempt to break the line.
enum class LineOutcome : uint8_t { None, Divided, BrokeThrough, Held };

struct ShipResult {
  std::string id;
  bool fought = false;       // took part after 7.1 and 7.4
  bool evaded = false, escaped = false, captured = false, sunk = false;  // at most one
  bool stayed = false;       // 7.8 with 2.1 (version 10): a beaten transport group, neither escaping nor taken
  std::string captor;        // 7.8: set when captured
  uint8_t hull = 0, rigging = 0;      // after the battle
  int32_t crew_lost = 0, marines_lost = 0;
  uint16_t experience_gained = 0;
  bool at_close_quarters = false;
  int32_t strength_tenths = 0;
  friend bool operator==(const ShipResult&, const ShipResult&) = default;
};

struct BattleResult {
  bool fought = false;
  int winner = -1;           // -1: no battle, or a draw
  std::array<int64_t, 2> strength_tenths{};  // batteries included
  int breaking_side = -1;
  LineOutcome line = LineOutcome::None;
  uint8_t batteries_damaged_after = 0;
  std::vector<ShipResult> ships;  // in the battle's order
  std::vector<Roll> rolls;        // in the order made
  std::vector<std::string> log;   // each step, with its rule
};

// Resolves one battle. InvalidArgument for a battle the rules cannot hold
// (a side not 0 or 1, damage or quality out of range, batteries at sea);
// a failed roll's Status as it is.
Result<BattleResult> ResolveBattle(const Battle& b, DiceSource& dice);

// ---- the calculators ResolveBattle uses, for tests and reports ------------

// 7.6: the quality points by which `ours` (average quality) exceeds
// `theirs`, rounded to the nearest point, halves away from zero; 0 when
// either is empty.
int QualityAdvantagePoints(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& theirs);
// 7.6, clamped to 0..10000.
int32_t LoseCoordinationChanceBp(int quality_points);
int32_t BreakThroughChanceBp(int quality_points);

// 7.4: an evading side's chance (and each evading ship's of that side).
int32_t EvadeChanceBp(const Battle& b, int side);

// 7.7: the share of full strength a crew gives (10000 at 70% and above).
int32_t CrewFactorBp(int32_t crew, int32_t full_crew);

// 7.7: what a ship's strength depends on besides its ratings.
struct Situation {
  bool windward = false;
  bool close_quarters = false;
  bool closed = false;       // 7.5: moved to close quarters itself
  int32_t line_bp = 0;       // 7.6: -2500 divided, +3300 broke through
};
// `version`: the rules version's reading of the Marines (Battle::version).
int32_t ShipStrengthTenths(const Combatant& c, const Situation& s, uint32_t version = 0);
int32_t BatteryStrengthTenths(uint8_t defence, uint8_t batteries, uint8_t damaged);

// 7.7: experience each ship gains from a battle of these strengths.
uint16_t ExperienceGain(int64_t a_tenths, int64_t b_tenths);

}  // namespace adjutant::rules::pate
