// The NWOL calendar (SOW 4.2, PATE 3): years of four seasons; a season is
// a campaign of up to 15 war turns, or one peace or truce turn. Turn
// coordinates are (year, season 1–4, step): step 1..15 for campaign turns,
// 0 for the peace or truce turn, and kSeasonEndStep for the end of the
// season, when the seasonal rules run (SOW 3.4, 3.5, 7.1).
#pragma once

#include <string>

#include "base/turn.h"
#include "projections/treasury.h"

namespace adjutant::rules::sow {

inline constexpr int32_t kCampaignTurnsMax = 15;
inline constexpr int32_t kSeasonEndStep = 16;

// Phases of a regular turn, and the one phase of a season's end. A game
// with a naval map (sow + pate) runs PATE 3.2's phases after the economy's,
// in the book's order.
enum Phase : uint16_t {
  kOrdersWindow = 0,  // orders and directives for the turn are recorded here
  kIncome = 1,
  kUpkeep = 2,
  kOrders = 3,        // transfers, builds, reinforcements, disbanding, supplies, repairs
  kConstruction = 4,
  kRepair = 5,        // PATE 3.3
  kSupply = 6,        // PATE 3.4, 3.5
  kLanding = 7,       // PATE 3.6: the initial amphibious phase
  kCombat = 8,        // PATE 3.7
  kMovement = 9,      // PATE 3.8
  kLanded = 10,       // PATE 3.9: the final amphibious phase
  kIntelligence = 11, // PATE 3.10
  kSeasonEnd = 1,     // the only phase of a season-end turn
};

struct NextPhase {
  TurnPhase at;
  std::string name;
  projections::SeasonKind season_kind = projections::SeasonKind::War;
  bool opens_season = false;   // the first phase of a new season's first turn
  bool last_of_turn = false;
};

std::string PhaseName(const TurnPhase& at);
std::string SeasonName(int32_t season);
// "Spring 1805, turn 3", "Summer 1805, peace turn", "end of Autumn 1805".
std::string TurnName(const Turn& t, projections::SeasonKind kind);

bool IsSeasonEnd(const Turn& t);
// The last phase of turn `t` of a game with (`naval`) or without a naval map.
uint16_t LastPhaseOf(const Turn& t, bool naval);
uint16_t LastPhaseOf(const projections::TreasuryState& s, const Turn& t);

// The phase the next `adjudicate` runs, from the state folded to the head.
NextPhase Next(const projections::TreasuryState& s);

// Where orders go now: phase 0 of the turn not yet begun. Fails while a
// turn is part-way through its phases, or when a season's end (which takes
// no orders) comes next.
Result<TurnPhase> OrderPosition(const projections::TreasuryState& s);

// Where a GA directive goes now: like orders between turns; part-way
// through a turn, at the last completed phase (it applies to the phases
// still to run).
TurnPhase DirectivePosition(const projections::TreasuryState& s);

}  // namespace adjutant::rules::sow
