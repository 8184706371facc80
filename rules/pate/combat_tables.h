// PATE section 7 (combat): every number the battle calculator uses, in one
// place. The calculator in combat.cc reads these and no literal of its own.
//
// Units: strength in tenths of a point (a ship of the line is 1000),
// chances and strength modifiers in basis points (10000 = 100%), chance
// rolls on a d10000 that succeed when the die is at most the chance.
// Numbers the book does not give are marked ASSUMED here and in RULES.md (section "Combat").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace adjutant::rules::pate {

inline constexpr int32_t kBpWhole = 10000;  // 100%
inline constexpr int32_t kTenthsPerPoint = 10;
inline constexpr uint32_t kChanceDieSides = 10000;

// ---- who fights ------------------------------------------------------------

// PATE 2.1: flagships, ships of the line, frigate groups, transport groups.
enum class Kind : uint8_t { FL, SL, FR, TR };
inline constexpr size_t kKindCount = 4;

// PATE 7.7: base strength. FL 135 and SL 100 are the book's. A frigate
// group gives 40 a frigate (ASSUMED: frigates fight beside line ships in
// harbour and each other at sea, 7.1, but the book gives them no
// strength). Transports fight only as targets (ASSUMED: no broadside worth
// counting).
struct KindRow {
  Kind kind;
  int32_t strength_tenths;  // a frigate group: per frigate
  bool warship;             // counted as a warship in 7.4 and 7.5
};
inline constexpr std::array<KindRow, kKindCount> kKinds = {{
    {Kind::FL, 1350, true},
    {Kind::SL, 1000, true},
    {Kind::FR, 400, true},
    {Kind::TR, 0, false},
}};
static_assert(kKinds[0].kind == Kind::FL && kKinds[1].kind == Kind::SL && kKinds[2].kind == Kind::FR &&
              kKinds[3].kind == Kind::TR);

// A bound on one battle's ships, checked at the edge.
inline constexpr size_t kShipsPerBattleMax = 256;

// ---- 7.4 evasion -----------------------------------------------------------

// PATE 7.4: a wholly evading side's chance, and an evading ship's when it
// must roll alone. The book's words are "very unlikely" to windward, "very
// likely" to leeward, "unlikely" to leeward in coastal waters with the
// wind onshore. ASSUMED: 10%, 90%, 25%; 50% when neither side holds the
// gauge (6.9 gives every battle at sea one; the caller may not know it).
inline constexpr int32_t kEvadeWindwardBp = 1000;
inline constexpr int32_t kEvadeLeewardBp = 9000;
inline constexpr int32_t kEvadeLeewardOnshoreBp = 2500;
inline constexpr int32_t kEvadeNoGaugeBp = 5000;

// PATE 7.4: evaders of a side escape without a roll while the side's
// warships that stay are at least 1/2 of the enemy's that stay.
inline constexpr int kCoverNumerator = 1, kCoverDenominator = 2;

// PATE 7.4: transports are not damaged while their side has at least
// twice the enemy's warships in the battle.
inline constexpr int kTransportCoverRatio = 2;

// ---- 7.5 closing -----------------------------------------------------------

// PATE 7.5: closers on both sides all close when the side with fewer
// closers has at least 1/2 as many as the other.
inline constexpr int kLikeNumbersNumerator = 1, kLikeNumbersDenominator = 2;

// PATE 7.5: the chance of a side closing on the whole enemy fleet when the
// enemy will not close with it. ASSUMED: 50%, +25% with the weather gauge,
// -25% without it, and +10% per point of quality advantage (7.6's points).
inline constexpr int32_t kCloseBaseBp = 5000;
inline constexpr int32_t kCloseWindwardBp = 2500;
inline constexpr int32_t kCloseLeewardBp = -2500;
inline constexpr int32_t kClosePerQualityPointBp = 1000;

// PATE 7.5: the ships that move to close quarters lose 10%.
inline constexpr int32_t kClosingBp = -1000;
// PATE 7.5: quality and experience modifiers are doubled at close quarters.
inline constexpr int32_t kCloseQuartersModifierFactor = 2;

// ---- 7.6 breaking the line -------------------------------------------------

// PATE 7.6: losing coordination: 30%, -10% per quality point of advantage,
// -25% strength. Breaking through: 60%, +12.5% per point, +33% strength.
inline constexpr int32_t kLoseCoordinationBaseBp = 3000;
inline constexpr int32_t kLoseCoordinationPerPointBp = -1000;
inline constexpr int32_t kDividedBp = -2500;
inline constexpr int32_t kBreakThroughBaseBp = 6000;
inline constexpr int32_t kBreakThroughPerPointBp = 1250;
inline constexpr int32_t kBrokeThroughBp = 3300;

// ---- 7.7 strength ----------------------------------------------------------

// PATE 7.7: below 70% crew a ship loses 2.5% of strength per 1% of crew
// missing (5/2 bp per bp), reaching 0 at 30%.
inline constexpr int32_t kCrewFullStrengthBp = 7000;
inline constexpr int32_t kCrewPenaltyNumerator = 5, kCrewPenaltyDenominator = 2;

// PATE 7.7: one point of strength per 20 Marines at close quarters.
inline constexpr int32_t kMarinesPerPoint = 20;

// PATE 7.7: the ships to windward gain 10%.
inline constexpr int32_t kWindwardBp = 1000;

// PATE 2.2, 7.7: quality from 0 (Poor) to 4 (Very Good). ASSUMED: 10% of
// strength per point above or below Average.
inline constexpr uint8_t kQualityMax = 4;
inline constexpr uint8_t kQualityAverage = 2;
inline constexpr int32_t kQualityPointBp = 1000;

// PATE 2.2, 7.7: experience. ASSUMED: +0.2% a point (1% per 5 points), at
// most +10% (a ship gains a point a turn at sea, 2.2, so a 15-turn campaign
// is worth 3%).
inline constexpr int32_t kExperiencePointBp = 20;
inline constexpr int32_t kExperienceMaxBp = 1000;

// PATE 7.7: pre-existing damage. ASSUMED: -10% per point of hull damage
// (guns and gun crews), -5% per point of rigging damage (handling).
inline constexpr int32_t kHullDamagePointBp = -1000;
inline constexpr int32_t kRiggingDamagePointBp = -500;

// PATE 7.7: shore batteries: 100 × the harbour's defence each, 50 × when damaged.
inline constexpr int32_t kBatteryTenthsPerDefence = 1000;
inline constexpr int32_t kDamagedBatteryTenthsPerDefence = 500;

// ---- 7.3, 7.7 damage -------------------------------------------------------

// PATE 2.2: damage runs 0..5; a ship whose hull reaches 5 sinks.
inline constexpr uint8_t kDamageMax = 5;

// ASSUMED damage model (7.3, 7.5, 7.7): each ship under fire rolls a d6;
// the points it takes are (die + 2 at close quarters) × the enemy's share
// of the fire (enemy fire / (enemy fire + own side's strength)), rounded
// down. The aimed-at part gets 2/3 of the points (rounded up), the other
// part the rest. Fire at rigging counts 80% (7.3: "reduces total fire
// effect"); shore batteries fire at hulls; a side aims where the larger
// part of its strength aims (ties: rigging, 4.11's default).
inline constexpr uint32_t kDamageDieSides = 6;
inline constexpr int32_t kCloseQuartersDamageBonus = 2;
inline constexpr int32_t kRiggingFireBp = 8000;
inline constexpr int32_t kAimedShareNumerator = 2, kAimedShareDenominator = 3;

// ASSUMED crew losses (7.7): 5% of the crew and of the Marines per point of
// hull damage taken, 2% per point of rigging damage; a sunk ship loses all.
inline constexpr int32_t kCrewLossPerHullPointBp = 500;
inline constexpr int32_t kCrewLossPerRiggingPointBp = 200;

// ASSUMED (7.7): each undamaged shore battery is damaged with a chance of
// 1/4 of the enemy's share of the fire.
inline constexpr int32_t kBatteryHitShareDivisor = 4;

// ---- 7.7 experience by the odds ----------------------------------------------

// PATE 7.7: every ship that fought gains 1..5 points, more for even odds.
// ASSUMED: by the ratio of the stronger side's strength to the weaker's:
// under 1.5 gives 5, under 2 gives 4, under 3 gives 3, under 5 gives 2,
// anything longer (or a side of no strength) 1.
struct OddsRow {
  int32_t below_numerator, below_denominator;  // the ratio, as a fraction
  uint16_t experience;
};
inline constexpr std::array<OddsRow, 4> kExperienceByOdds = {{{3, 2, 5}, {2, 1, 4}, {3, 1, 3}, {5, 1, 2}}};
inline constexpr uint16_t kExperienceLongOdds = 1;

// ---- 7.8 escape --------------------------------------------------------------

// ASSUMED escape chance of a losing ship (7.8): 50%, -5% per point of
// rigging damage after the battle (7.3: rigging fire takes prizes), -10% at
// close quarters (7.5: "slightly more likely ... to be taken"), -20% when
// the line was broken (7.2: "more decisive"; rules version 5: one side
// through or both breaking, whoever wins; version 4: the winner through).
inline constexpr int32_t kEscapeBaseBp = 5000;
inline constexpr int32_t kEscapePerRiggingPointBp = -500;
inline constexpr int32_t kEscapeCloseQuartersBp = -1000;
inline constexpr int32_t kEscapeLineBrokenBp = -2000;

}  // namespace adjutant::rules::pate
