#include "rules/sow/economy.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace adjutant::rules::sow {
namespace {

// Bounds of the inputs, far above any treasury, army or navy, low enough
// that no product below overflows int64: an amount (2^48 cc, some 2.8
// trillion crowns) times 10000 bp; men or capacity (2^32) times a rate of
// up to 100 Cr; a count of ports or cities (2^20) squared times 5000 bp.
constexpr int64_t kAmountMax = int64_t{1} << 48;
constexpr int64_t kMenMax = int64_t{1} << 32;
constexpr int64_t kCountMax = int64_t{1} << 20;

bool InAmountRange(int64_t v) { return v >= -kAmountMax && v <= kAmountMax; }
bool IsBp(int bp) { return bp >= 0 && bp <= kBpWhole; }

// Men (or batteries) counted for artillery: SOW 5.2 "either the number of
// batteries or 100s of men in the unit, whichever is greater", read the
// same way for SOW 4.8's "100 men and 1 battery".
int64_t ArtilleryBlocks(int64_t men, int batteries, int64_t block_men) {
  return std::max(CeilDiv(men, block_men), static_cast<int64_t>(batteries));
}

bool IsArtillery(SowUnitType type) { return At(kUnitClasses, type).unit_class == UnitClass::kArtillery; }

}  // namespace

// ---- rounding ----------------------------------------------------------------

int64_t CeilDiv(int64_t num, int64_t den) {
  assert(num >= 0 && den > 0);
  return num / den + (num % den != 0 ? 1 : 0);
}

int64_t RoundUpToMultiple(int64_t value, int64_t step) { return CeilDiv(value, step) * step; }

int64_t WholeBlocks(int64_t value, int64_t block) {
  assert(value >= 0 && block > 0);
  return value / block;
}

int64_t DivRoundHalfAway(int64_t num, int64_t den) {
  assert(den > 0);
  const int64_t q = num / den;  // truncates toward zero
  const int64_t r = num % den;  // same sign as num
  if (2 * (r < 0 ? -r : r) >= den) return num < 0 ? q - 1 : q + 1;
  return q;
}

int64_t ApplyBp(int64_t amount, int bp) {
  assert(InAmountRange(amount) && IsBp(bp));
  return DivRoundHalfAway(amount * bp, kBpWhole);
}

std::vector<int64_t> ApportionLargestRemainder(int64_t amount, std::span<const int64_t> weights) {
  assert(amount >= 0 && amount <= kAmountMax);
  std::vector<int64_t> parts(weights.size(), 0);
  __int128 total = 0;
  for (int64_t w : weights) {
    assert(w >= 0 && w <= kAmountMax);
    total += w;
  }
  if (total == 0) return parts;
  // Exact arithmetic in 128 bits: amount × weight reaches 2^100 at most.
  std::vector<__int128> remainder(weights.size());
  int64_t given = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    const __int128 product = static_cast<__int128>(amount) * weights[i];
    parts[i] = static_cast<int64_t>(product / total);
    remainder[i] = product % total;
    given += parts[i];
  }
  // The leftover is below the number of nonzero remainders; stable_sort keeps
  // the list order among equal remainders.
  std::vector<size_t> order(weights.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return remainder[a] > remainder[b]; });
  int64_t left = amount - given;
  assert(left >= 0 && static_cast<size_t>(left) <= weights.size());
  for (size_t k = 0; left > 0; ++k, --left) parts[order[k]] += 1;
  return parts;
}

// ---- seasons -----------------------------------------------------------------

bool IsCampaign(SeasonKind season) { return At(kSeasons, season).campaign; }

// ---- 2. income ---------------------------------------------------------------

// SOW 2.2
int64_t BaseIncomeCc(SowCityKind kind, int level, SeasonKind season) {
  assert(level >= 0 && level <= kCityLevelMax);
  const CityKindRow& row = At(kCityKinds, kind);
  return (IsCampaign(season) ? row.war_turn_cc_per_level : row.peace_turn_cc_per_level) * level;
}

// SOW 2.3
int64_t OccupiedIncomeCc(int64_t income_cc, SowCityKind kind) {
  return ApplyBp(income_cc, At(kCityKinds, kind).occupied_income_bp);
}

// SOW 2.4
int ContactReductionBp(int hostile_brigades_in_contact, int embargoed_cities_within_8) {
  assert(hostile_brigades_in_contact >= 0 && embargoed_cities_within_8 >= 0);
  return std::min(hostile_brigades_in_contact, kContactBrigadesCounted) * kContactReductionBpPerBrigade +
         std::min(embargoed_cities_within_8, kEmbargoedCitiesCounted) * kEmbargoedCityReductionBp;
}

// SOW 2.5
int BlockadeLossBp(int blockaded_ports, int nation_ports) {
  assert(blockaded_ports >= 0 && blockaded_ports <= nation_ports && nation_ports <= kCountMax);
  if (nation_ports == 0) return 0;
  const int64_t b = blockaded_ports;
  const int64_t n = nation_ports;
  return static_cast<int>(DivRoundHalfAway(kBlockadeAllPortsLossBp * b * b, n * n));
}

// SOW 2.5
int ColonyBlockadeLossBp() { return kColonyBlockadeLossBp; }

// SOW 2.6
int EmbargoLossBp(int trade_share_bp, int embargoing_port_share_bp) {
  assert(IsBp(trade_share_bp) && IsBp(embargoing_port_share_bp));
  const int64_t product =
      int64_t{kEmbargoLossBpAtWholeTrade} * trade_share_bp * embargoing_port_share_bp;
  return static_cast<int>(DivRoundHalfAway(product, int64_t{kBpWhole} * kBpWhole));
}

// SOW 2.7
int64_t RaidingPoints(int64_t frigates_in_coastal_waters, int64_t frigates_in_sea_area,
                      int64_t sols_or_patrolling_frigates_in_port,
                      int64_t sols_or_patrolling_frigates_in_sea_area) {
  assert(frigates_in_coastal_waters >= 0 && frigates_in_sea_area >= 0 &&
         sols_or_patrolling_frigates_in_port >= 0 && sols_or_patrolling_frigates_in_sea_area >= 0);
  const CommerceWeights& w = kCommerceWeights;
  return w.frigate_in_coastal_waters * frigates_in_coastal_waters +
         w.frigate_in_sea_area * frigates_in_sea_area +
         w.sol_or_patroller_in_port * sols_or_patrolling_frigates_in_port +
         w.sol_or_patroller_in_sea_area * sols_or_patrolling_frigates_in_sea_area;
}

// SOW 2.7: "the same scale for friendly ships on convoy duty".
int64_t ConvoyPoints(int64_t frigates_in_coastal_waters, int64_t frigates_in_sea_area, int64_t sols_in_port,
                     int64_t sols_in_sea_area) {
  return RaidingPoints(frigates_in_coastal_waters, frigates_in_sea_area, sols_in_port, sols_in_sea_area);
}

// SOW 2.7
int RaidingLossBp(int64_t raid_points, int64_t convoy_points) {
  assert(raid_points >= 0 && convoy_points >= 0);
  assert(raid_points <= kMenMax && convoy_points <= kMenMax);
  if (raid_points == 0) return 0;
  const int64_t denominator = raid_points + kRaidingConvoyWeight * convoy_points + kRaidingHalfLossPoints;
  return static_cast<int>(DivRoundHalfAway(kRaidingLossBpLimit * raid_points, denominator));
}

// SOW 2.8
int DisplacedTradeBp() { return kDisplacedTradeBp; }

// SOW 2.8
int64_t DisplacedTradeCc(int64_t lost_cc) {
  assert(lost_cc >= 0);
  return ApplyBp(lost_cc, kDisplacedTradeBp);
}

// SOW 2.8
DisplacedSplit SplitDisplacedTrade(int64_t displaced_cc, std::span<const TradeReceiver> receivers) {
  assert(displaced_cc >= 0);
  // Weights in (ports × bp): an unreduced receiver weighs ports × 10000, a
  // reduced one ports × 5000, and the part reduced receivers do not take
  // weighs the rest, last in the list so receivers win ties.
  std::vector<int64_t> weights;
  weights.reserve(receivers.size() + 1);
  int64_t withheld_weight = 0;
  for (const TradeReceiver& r : receivers) {
    assert(r.ports >= 0);
    const int share_bp = r.reduced ? kReducedReceiverShareBp : kBpWhole;
    weights.push_back(int64_t{r.ports} * share_bp);
    withheld_weight += int64_t{r.ports} * (kBpWhole - share_bp);
  }
  weights.push_back(withheld_weight);
  const std::vector<int64_t> parts = ApportionLargestRemainder(displaced_cc, weights);

  DisplacedSplit split;
  split.shares.reserve(receivers.size());
  int64_t shifted = 0;
  for (size_t i = 0; i < receivers.size(); ++i) {
    split.shares.push_back(TradeShare{receivers[i].state, parts[i]});
    shifted += parts[i];
  }
  // With no ports anywhere there is no one to shift to: all of it stays lost.
  split.not_shifted_cc = displaced_cc - shifted;
  return split;
}

// ---- 3. manpower -------------------------------------------------------------

// SOW 3.1
int64_t MenForUnit(SowUnitType type, int64_t men) {
  assert(men >= 0);
  const UnitSizeRow& row = At(kUnitSizes, type);
  return row.fixed_men ? row.max_men : men;
}

// SOW 3.2
bool DrawsOnMilitiaPool(SowUnitType type) { return At(kUnitSizes, type).militia_pool; }

// SOW 3.1
int64_t MenForShip(SowShipType type, int frigates, int64_t capacity) {
  assert(frigates >= 0 && capacity >= 0);
  const ShipCrewRow& row = At(kShipCrews, type);
  int64_t crew = row.crew_per_ship + row.crew_per_frigate * frigates;
  if (row.capacity_per_crew > 0) crew += CeilDiv(capacity, row.capacity_per_crew);
  return crew;
}

// PATE 2.7
ShipComplement FullComplement(SowShipType type, int frigates, int64_t capacity) {
  if (type == fb::SowShipType_TR) return {MenForShip(type, frigates, capacity), 0};
  const ShipComplementRow& row = At(kShipComplements, type);
  int64_t n = type == fb::SowShipType_FR ? frigates : 1;
  return {row.crew_max * n, row.marines_max * n};
}

// SOW 3.4
int64_t SeasonalGrowth(int own_cities) {
  assert(own_cities >= 0);
  return kGrowthMenPerOwnCity * own_cities;
}

// SOW 3.4
Attrition SeasonalAttrition(int64_t pool, int64_t men_in_units, int64_t men_in_ships) {
  assert(pool >= 0 && men_in_units >= 0 && men_in_ships >= 0);
  return Attrition{ApplyBp(pool, kAttritionBp), ApplyBp(men_in_units, kAttritionBp),
                   ApplyBp(men_in_ships, kAttritionBp)};
}

// ---- 4. builds, reinforcements, disbanding --------------------------------------

// SOW 4.1
int BuildWarTurns(SowUnitType type) { return At(kUnitBuildTurns, type).war_turns; }
int BuildWarTurns(SowShipType type) { return At(kShipBuildTurns, type).war_turns; }

// SOW 4.1
BuildClock StartBuild(SowUnitType type) { return BuildClock{BuildWarTurns(type), 0}; }
BuildClock StartBuild(SowShipType type) { return BuildClock{BuildWarTurns(type), 0}; }

// SOW 4.1
BuildClock AfterWarTurn(BuildClock clock) {
  assert(clock.needed >= 0 && clock.done >= 0);
  if (!clock.complete()) clock.done += 1;
  return clock;
}

// SOW 4.1 ("always built in a single peace or truce turn"), 4.2 (a build
// under way when a campaign ends completes at the end of a following peace
// or truce turn).
BuildClock AfterPeaceOrTruceTurn(BuildClock clock) {
  assert(clock.needed >= 0 && clock.done >= 0);
  clock.done = std::max(clock.done, clock.needed);
  return clock;
}

// SOW 4.1 / 4.2
BuildClock AfterTurn(BuildClock clock, SeasonKind season) {
  return IsCampaign(season) ? AfterWarTurn(clock) : AfterPeaceOrTruceTurn(clock);
}

// SOW 4.4
int64_t FundsRequiredCc(int64_t price_cc, int64_t wartime_upkeep_cc) {
  assert(price_cc >= 0 && wartime_upkeep_cc >= 0);
  return price_cc + kFundsUpkeepWarTurns * wartime_upkeep_cc;
}

// SOW 4.6
int CityBuildLimit(int level) {
  assert(level >= kCityLevelMin && level <= kCityLevelMax);
  return kCityBuildLimitByLevel[static_cast<size_t>(level - kCityLevelMin)];
}

// SOW 4.6 (dockyards)
bool DockyardAllows(int building_ships, int repairing_ships, int dockyards, bool is_transport) {
  assert(building_ships >= 0 && repairing_ships >= 0 && dockyards >= 0);
  if (is_transport) return true;
  return building_ships + repairing_ships + 1 <= dockyards;
}

// SOW 4.7
SizeLimit UnitSizeLimit(SowUnitType type) {
  const UnitSizeRow& row = At(kUnitSizes, type);
  return SizeLimit{row.max_men, row.max_batteries};
}

// SOW 4.7
bool WithinSizeLimit(SowUnitType type, int64_t men, int batteries) {
  const SizeLimit limit = UnitSizeLimit(type);
  return men >= 0 && batteries >= 0 && men <= limit.max_men && batteries <= limit.max_batteries;
}

// SOW 4.8
int64_t ReinforcementCostCc(SowUnitType type, int64_t men, int batteries) {
  assert(men >= 0 && batteries >= 0 && men <= kMenMax);
  const ReinforcementRow& row = At(kReinforcementPrices, type);
  if (row.block_men == 0) return 0;  // headquarters: not reinforced
  if (IsArtillery(type)) return ArtilleryBlocks(men, batteries, row.block_men) * row.block_cc;
  const ReinforcementRow& battery = At(kReinforcementPrices, At(kUnitClasses, type).battery_as);
  return CeilDiv(men, row.block_men) * row.block_cc + batteries * battery.block_cc;
}

// SOW 4.8
bool ReinforcementAllowed(SowUnitType type, int64_t men, int batteries, int64_t men_added,
                          int batteries_added) {
  if (men_added < 0 || batteries_added < 0) return false;
  if (At(kReinforcementPrices, type).block_men == 0) return false;
  return WithinSizeLimit(type, men + men_added, batteries + batteries_added);
}

// SOW 4.8
bool SoldiersMayJoin(SeasonKind season, int campaign_turn) {
  return !IsCampaign(season) || campaign_turn == kReinforcementCampaignTurn;
}

// SOW 4.8
int64_t CrewCostCc(int64_t crew) {
  assert(crew >= 0 && crew <= kMenMax);
  return CeilDiv(crew, kCrewBlockMen) * kCrewBlockCc;
}

// Assumed (the book gives no purchase prices; see tables.h).
int64_t UnitPriceCc(SowUnitType type, int64_t men, int batteries) {
  return At(kNewUnitFixedPrices, type).fixed_cc + ReinforcementCostCc(type, men, batteries);
}

// Assumed (the book gives no purchase prices; see tables.h).
int64_t ShipPriceCc(SowShipType type, int frigates, int64_t capacity) {
  assert(frigates >= 0 && capacity >= 0);
  const ShipHullPriceRow& row = At(kShipHullPrices, type);
  const int64_t hull_cc = row.hull_cc * (row.per_frigate ? frigates : 1);
  return hull_cc + CrewCostCc(MenForShip(type, frigates, capacity));
}

// SOW 4.9
// SOW 3.5
int64_t SunkShipMenReturning(int64_t men) {
  assert(men >= 0);
  return ApplyBp(men, kSunkShipReturningBp);
}

DisbandResult DisbandOutcome(int64_t men, bool outside_own_territory) {
  assert(men >= 0);
  if (!outside_own_territory) return DisbandResult{men, 0, 0};
  const int64_t lost = ApplyBp(men, kDisbandAbroadLossBp);
  return DisbandResult{men - lost, lost, WholeBlocks(men, kDisbandMenPerVp)};
}

// ---- 5. maintenance ----------------------------------------------------------

// SOW 5.1 (rates), 5.2 (rounding, batteries, artillery), 5.3 (peace).
int64_t UnitUpkeepCc(SowUnitType type, int64_t men, int batteries, bool active, SeasonKind season) {
  assert(men >= 0 && batteries >= 0 && men <= kMenMax);
  const SeasonRow& s = At(kSeasons, season);
  // 5.3: in peace and truce every unit pays its wartime inactive cost, 15 times.
  const bool pays_active = s.campaign && active;
  auto rate = [&](const UnitUpkeepRow& r) { return pays_active ? r.active_cc : r.inactive_cc; };

  const UnitUpkeepRow& row = At(kUnitUpkeep, type);
  int64_t wartime_cc = 0;
  if (row.block_men == 0) {
    wartime_cc = rate(row);  // headquarters: a flat cost
  } else if (IsArtillery(type)) {
    wartime_cc = ArtilleryBlocks(men, batteries, row.block_men) * rate(row);
  } else {
    const UnitUpkeepRow& battery = At(kUnitUpkeep, At(kUnitClasses, type).battery_as);
    wartime_cc = RoundUpToMultiple(men, row.block_men) / row.block_men * rate(row) + batteries * rate(battery);
  }
  return wartime_cc * s.upkeep_multiplier;
}

// SOW 5.4 (rates), 5.5 (peace), 5.6 (inactive ships).
int64_t ShipUpkeepCc(SowShipType type, int frigates, int64_t capacity, bool active, bool in_base_harbour,
                     SeasonKind season) {
  assert(frigates >= 0 && capacity >= 0 && capacity <= kMenMax);
  if (!active) return 0;
  const ShipUpkeepRow& row = At(kShipUpkeep, type);
  const int64_t rate = in_base_harbour ? row.base_harbour_cc : row.sailing_cc;
  int64_t wartime_cc = 0;
  switch (row.basis) {
    case ShipUpkeepBasis::kPerShip: wartime_cc = rate; break;
    case ShipUpkeepBasis::kPerFrigate: wartime_cc = rate * frigates; break;
    case ShipUpkeepBasis::kPerCapacity:
      wartime_cc = CeilDiv(rate * capacity, kTransportUpkeepCapacityBlock);
      break;
  }
  return wartime_cc * At(kSeasons, season).upkeep_multiplier;
}

// ---- 6. supplies and stores --------------------------------------------------

// SOW 6.2
int64_t SupplyCostCc(int64_t supplies, int64_t stores) {
  assert(supplies >= 0 && stores >= 0);
  return supplies * kSupplyPriceCc + stores * kStorePriceCc;
}

// SOW 6.3
int64_t PurchaseSize(int64_t supplies, int64_t stores) {
  assert(supplies >= 0 && stores >= 0);
  return stores + kStoresPerSupply * supplies;
}

// SOW 6.3
int64_t CityPurchaseCapacity(SeasonKind season) { return At(kPurchaseLimits, season).city_store_equivalents; }

// SOW 6.4
int64_t StatePurchaseCapacity(int cities_controlled, SeasonKind season) {
  assert(cities_controlled >= 0);
  return At(kPurchaseLimits, season).state_store_equivalents_per_city * cities_controlled;
}

// SOW 6.3 / 6.4: equality allowed, as 6.4's example.
bool PurchaseFits(int64_t supplies, int64_t stores, int64_t capacity) {
  return PurchaseSize(supplies, stores) <= capacity;
}

// SOW 6.3 / 6.6
bool SellsStores(SowCityKind kind) { return At(kCityKinds, kind).sells_stores; }

// ---- 7. repairs --------------------------------------------------------------

// SOW 7.1
int64_t BatteryRepairCc(bool destroyed) {
  return destroyed ? kBatteryRepairDestroyedCc : kBatteryRepairDamagedCc;
}

// SOW 7.1
int64_t FortRepairCc(int from_level) {
  assert(from_level >= 0);
  return kFortRepairCcPerLevel * std::max(from_level, kFortRepairMinChargedLevel);
}

// SOW 7.1
bool FortRepairAllowed(int level, int start_level) { return level >= 0 && level < start_level; }

}  // namespace adjutant::rules::sow
