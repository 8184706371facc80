// Sinews of War (SOW): the pure calculators of the economy. Each function
// computes one rule's number from plain integers and schema enums: no
// state, no I/O, no FlatBuffers tables, no floating point. The adjudication
// driver gathers the inputs from its projections and turns the results into
// events, so every result must be bit-identical on every machine.
//
// Units: money in cc (hundredths of a crown: 15 Cr = 1500 cc), fractions in
// basis points (10000 = 100%), men one by one. Every rounding is one of the
// named functions in the first section; each says which rules use it.
// Preconditions (counts and men not negative, levels 1..5, ...) are
// asserted: the driver validates scenarios and orders at the edge.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rules/sow/tables.h"

namespace adjutant::rules::sow {

// ---- rounding ----------------------------------------------------------------

// ⌈num / den⌉ for num ≥ 0, den > 0: "or fraction thereof". SOW 3.1 (TR crew
// = capacity/10), 4.8 (blocks of men, crew), 5.2 (unit strengths for
// costs), 5.4 (transport upkeep pro rata, to the cc).
int64_t CeilDiv(int64_t num, int64_t den);

// `value` rounded up to a multiple of `step`: SOW 5.2 ("rounded up to the
// nearest 500 men for infantry, 250 for cavalry, 100 for artillery").
int64_t RoundUpToMultiple(int64_t value, int64_t step);

// ⌊value / block⌋, the number of whole blocks: SOW 4.9 ("1 VP for every
// 250 men").
int64_t WholeBlocks(int64_t value, int64_t block);

// num / den rounded to the nearest integer, halves away from zero
// (den > 0). The one rounding of every fraction of an amount.
int64_t DivRoundHalfAway(int64_t num, int64_t den);

// `amount` × bp / 10000, rounded to the nearest unit (cc or man), halves
// away from zero. SOW 2.3 (occupied income), 2.4–2.7 (income losses), 2.8
// (the displaced part), 3.4 (4% attrition), 4.9 (40% lost).
int64_t ApplyBp(int64_t amount, int bp);

// Splits `amount` ≥ 0 in proportion to `weights` (each ≥ 0) by the largest
// remainder method: every part gets the floor of its quota, and the units
// left over go one each to the largest remainders, ties to the earlier
// weight. The parts sum exactly to `amount`, and each is within 1 of its
// exact quota. All weights zero: every part is zero. SOW 2.8.
std::vector<int64_t> ApportionLargestRemainder(int64_t amount, std::span<const int64_t> weights);

// ---- seasons -----------------------------------------------------------------

// A war season is a campaign of turns; peace and truce seasons are one turn.
bool IsCampaign(SeasonKind season);

// ---- 2. income ---------------------------------------------------------------

// SOW 2.2: a city's income for one turn of `season`, before any reduction.
int64_t BaseIncomeCc(SowCityKind kind, int level, SeasonKind season);

// SOW 2.3: what an occupied city still produces of `income_cc`: half in
// Europe (inland, on-map ports), 75% in off-map ports.
int64_t OccupiedIncomeCc(int64_t income_cc, SowCityKind kind);

// SOW 2.4: 5% per hostile brigade in contact within 4 squares plus 5% per
// city of an embargoed power within 8 squares, each counted up to 4 (so at
// most 20% + 20%).
int ContactReductionBp(int hostile_brigades_in_contact, int embargoed_cities_within_8);

// SOW 2.5: the share of each blockaded on-map port's income lost, given how
// many of the nation's `nation_ports` on-map ports are blockaded (Germany
// and Italy count as one nation each): 5000 × (b/n)², rounded to the bp.
// Exactly 50% when every port is blockaded; 0 when none is.
int BlockadeLossBp(int blockaded_ports, int nation_ports);

// SOW 2.5: a blockaded colony (off-map port) loses this, whatever other
// colonies suffer.
int ColonyBlockadeLossBp();

// SOW 2.6: the share of a port's income lost to one embargo, given the share
// of the nation's trade that is with the other nation, and — in Germany and
// Italy — the share of the nation's ports the embargoing state controls
// (10000 elsewhere). share × port share × 50%, rounded to the bp.
int EmbargoLossBp(int trade_share_bp, int embargoing_port_share_bp = kBpWhole);

// SOW 2.7: raiding strength off a port: 9 per hostile raiding frigate in its
// coastal waters, 3 per one in the sea area, 3 per hostile raiding SOL or
// patrolling frigate in the port, 1 per one in the sea area. Frigates are
// counted one by one (a group of 3 counts 3).
int64_t RaidingPoints(int64_t frigates_in_coastal_waters, int64_t frigates_in_sea_area,
                      int64_t sols_or_patrolling_frigates_in_port,
                      int64_t sols_or_patrolling_frigates_in_sea_area);

// SOW 2.7: convoying strength, on the same scale, for friendly ships on
// convoy duty.
int64_t ConvoyPoints(int64_t frigates_in_coastal_waters, int64_t frigates_in_sea_area,
                     int64_t sols_in_port, int64_t sols_in_sea_area);

// SOW 2.7: the share of a port's income lost to raiders:
// 5000 × raid / (raid + 2 × convoy + 36), rounded to the bp. 0 without
// raiders; rises with raid, falls with convoy; never above 50%.
int RaidingLossBp(int64_t raid_points, int64_t convoy_points);

// SOW 2.8: the fraction of trade lost to blockades and embargoes that shifts
// to other nations, and that part of `lost_cc`.
int DisplacedTradeBp();
int64_t DisplacedTradeCc(int64_t lost_cc);

// SOW 2.8: a state that may receive displaced trade. `reduced`: it is itself
// blockaded or embargoed, so it takes only kReducedReceiverShareBp of its
// share.
struct TradeReceiver {
  std::string state;
  int ports = 0;
  bool reduced = false;
};
struct TradeShare {
  std::string state;
  int64_t cc = 0;
  friend bool operator==(const TradeShare&, const TradeShare&) = default;
};
struct DisplacedSplit {
  std::vector<TradeShare> shares;  // one per receiver, in the receivers' order
  int64_t not_shifted_cc = 0;      // what reduced receivers did not take
};

// SOW 2.8: divides `displaced_cc` among `receivers` in proportion to the
// ports they control; a reduced receiver's share is cut to
// kReducedReceiverShareBp and the cut is not shifted. One largest-remainder
// apportionment over (receivers..., not shifted), ties by list order, so
// Σ shares + not_shifted_cc == displaced_cc exactly. No ports at all:
// nothing shifts.
DisplacedSplit SplitDisplacedTrade(int64_t displaced_cc, std::span<const TradeReceiver> receivers);

// ---- 3. manpower -------------------------------------------------------------

// SOW 3.1: men a new unit takes from its pool: its men (250 for AQ, 100 for
// CQ whatever `men` says).
int64_t MenForUnit(SowUnitType type, int64_t men);

// SOW 3.2: militia draw on the city's militia pool, all else on the
// national pool.
bool DrawsOnMilitiaPool(SowUnitType type);

// SOW 3.1: crew a new ship takes from the national pool: 1000 FL, 750 SL,
// 250 per frigate, capacity/10 for TR rounded up ("or fraction": 5001
// capacity takes 501 crew).
int64_t MenForShip(SowShipType type, int frigates, int64_t capacity);

// PATE 2.7: how a ship's men divide into crew and Marines at full strength,
// and the most of each it may hold. TR: crew = capacity / 10 (3.1), no
// Marines, and no limit on crew (extra crew take cargo space, PATE 2.7).
struct ShipComplement {
  int64_t crew = 0;
  int64_t marines = 0;
  friend bool operator==(const ShipComplement&, const ShipComplement&) = default;
};
ShipComplement FullComplement(SowShipType type, int frigates, int64_t capacity);

// SOW 3.4: men added to the national pool at the end of a season.
int64_t SeasonalGrowth(int own_cities);

// SOW 3.4: men leaving the national pool at the end of a season, each 4%
// part rounded to the nearest man, so a report can show them.
struct Attrition {
  int64_t from_pool = 0;
  int64_t from_units = 0;
  int64_t from_ships = 0;
  int64_t total() const { return from_pool + from_units + from_ships; }
  friend bool operator==(const Attrition&, const Attrition&) = default;
};
Attrition SeasonalAttrition(int64_t pool, int64_t men_in_units, int64_t men_in_ships);

// ---- 4. builds, reinforcements, disbanding --------------------------------------

// SOW 4.1: war turns to build.
int BuildWarTurns(SowUnitType type);
int BuildWarTurns(SowShipType type);

// SOW 4.1 / 4.2: how far a build has come, in war turns. A build counts the
// turn it is ordered in (4.2's MC ordered on turn 8 has 4 turns done after
// turn 11). The clock carries over the end of a campaign unchanged: a next
// war season continues it turn by turn, a peace or truce turn completes it.
struct BuildClock {
  int needed = 0;
  int done = 0;
  bool complete() const { return done >= needed; }
  int remaining() const { return done >= needed ? 0 : needed - done; }
  friend bool operator==(const BuildClock&, const BuildClock&) = default;
};
BuildClock StartBuild(SowUnitType type);
BuildClock StartBuild(SowShipType type);
// SOW 4.1: a war turn passed.
BuildClock AfterWarTurn(BuildClock clock);
// SOW 4.1 / 4.2: a peace or truce turn passed: any build is complete.
BuildClock AfterPeaceOrTruceTurn(BuildClock clock);
// One of the above, by the kind of the season the turn belonged to.
BuildClock AfterTurn(BuildClock clock, SeasonKind season);

// SOW 4.4: funds a state needs to buy something: its price plus 15 wartime
// turns of its upkeep (the active wartime upkeep the caller computed).
int64_t FundsRequiredCc(int64_t price_cc, int64_t wartime_upkeep_cc);

// SOW 4.6: units (militia included) building at once in a city of `level`.
int CityBuildLimit(int level);

// SOW 4.6 (dockyards): may one more ship be built or repaired in a port with
// `dockyards`, where `building_ships` and `repairing_ships` (transport
// groups not counted) are already under way? Transport groups always may.
bool DockyardAllows(int building_ships, int repairing_ships, int dockyards, bool is_transport);

// SOW 4.7: the most men and batteries a unit may hold.
struct SizeLimit {
  int64_t max_men = 0;
  int max_batteries = 0;
  friend bool operator==(const SizeLimit&, const SizeLimit&) = default;
};
SizeLimit UnitSizeLimit(SowUnitType type);
bool WithinSizeLimit(SowUnitType type, int64_t men, int batteries);

// SOW 4.8: the price of adding `men` and `batteries` to a unit: per 500 men
// or fraction (IN, MI 20; LI 24), per 250 or fraction (HC 50, MC 35,
// LC 30), per 100 men and 1 battery for artillery (HA 30, MA 25, LA 20,
// SA 40 assumed) counting batteries or hundreds of men, whichever is more;
// batteries added to infantry cost as MA, to cavalry as LA. 0 for
// headquarters (they take no reinforcements; see ReinforcementAllowed).
int64_t ReinforcementCostCc(SowUnitType type, int64_t men, int batteries);

// SOW 4.8: may `men_added` and `batteries_added` join a unit of `men` and
// `batteries`? Not a headquarters, and not above the 4.7 sizes.
bool ReinforcementAllowed(SowUnitType type, int64_t men, int batteries, int64_t men_added,
                          int batteries_added);

// SOW 4.8: soldiers join units only on peace or truce turns and on turn 1 of
// a campaign.
bool SoldiersMayJoin(SeasonKind season, int campaign_turn);

// SOW 4.8: 5 Cr per 100 crew or fraction.
int64_t CrewCostCc(int64_t crew);

// New builds (ASSUMED prices, see tables.h): a unit's men and batteries at
// the 4.8 rates, plus the fixed price of a headquarters; a ship's hull (per
// frigate for a group) plus its 3.1 crew at the 4.8 crew price.
int64_t UnitPriceCc(SowUnitType type, int64_t men, int batteries);
int64_t ShipPriceCc(SowShipType type, int frigates, int64_t capacity);

// SOW 3.5: of the `men` aboard a ship destroyed in battle, those who return
// at the end of the season (kSunkShipReturningBp, to the nearest man).
int64_t SunkShipMenReturning(int64_t men);

// SOW 4.9: a disbanded unit's men. At home all return; outside the state's
// territory 40% are lost (rounded to the nearest man) and the state pays
// 1 VP for every full 250 men disbanded.
struct DisbandResult {
  int64_t returning = 0;
  int64_t lost = 0;
  int64_t vp_penalty = 0;
  friend bool operator==(const DisbandResult&, const DisbandResult&) = default;
};
DisbandResult DisbandOutcome(int64_t men, bool outside_own_territory);

// ---- 5. maintenance ----------------------------------------------------------

// SOW 5.1–5.3: a unit's upkeep for one turn of `season`. Strengths round up
// to 500 (infantry, militia) / 250 (cavalry) / 100 (artillery) men; an
// attached battery pays as 1 battery of MA (infantry) or LA (cavalry);
// artillery pays per battery or per 100 men, whichever is more. Peace and
// truce: 15 × the wartime inactive cost, active or not.
int64_t UnitUpkeepCc(SowUnitType type, int64_t men, int batteries, bool active, SeasonKind season);

// SOW 5.4–5.6: a ship's upkeep for one turn of `season`. Frigate groups pay
// per frigate; transport groups 8 Cr per 1000 capacity pro rata, rounded up
// to the cc, in base or not. Ships other than TR pay the lower base-harbour
// rate in their base. Peace and truce: 15 × the wartime cost. Inactive
// ships pay nothing.
int64_t ShipUpkeepCc(SowShipType type, int frigates, int64_t capacity, bool active,
                     bool in_base_harbour, SeasonKind season);

// ---- 6. supplies and stores --------------------------------------------------

// SOW 6.2: 5 Cr per supply, 2 Cr per store.
int64_t SupplyCostCc(int64_t supplies, int64_t stores);

// SOW 6.3: the room a purchase takes: stores + 4 × supplies.
int64_t PurchaseSize(int64_t supplies, int64_t stores);

// SOW 6.3: the most a state may buy in one city in one turn, in
// store-equivalents: 40 in war, 600 in peace or truce.
int64_t CityPurchaseCapacity(SeasonKind season);

// SOW 6.4: the most a state may buy in one turn in all, in
// store-equivalents: 20 per city controlled in war, 300 in peace or truce.
int64_t StatePurchaseCapacity(int cities_controlled, SeasonKind season);

// SOW 6.3 / 6.4: does a purchase fit a capacity? Equality fits (6.4's own
// example: 100 × 4 + 160 = 560 for 28 cities).
bool PurchaseFits(int64_t supplies, int64_t stores, int64_t capacity);

// SOW 6.3 / 6.6: stores are sold only in on-map ports.
bool SellsStores(SowCityKind kind);

// ---- 7. repairs --------------------------------------------------------------

// SOW 7.1: 100 Cr for a damaged coastal battery, 200 for a destroyed one.
int64_t BatteryRepairCc(bool destroyed);

// SOW 7.1: raising a fort one level costs 150 × the level it is raised from
// (2 → 3: 300). Level 0 pays as level 1 (assumed).
int64_t FortRepairCc(int from_level);

// SOW 7.1: a fort is never repaired above the level it started at.
bool FortRepairAllowed(int level, int start_level);

}  // namespace adjutant::rules::sow
