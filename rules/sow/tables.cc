// Compile-time checks of the SOW tables: every row sits at its enum's
// index, and the book's own cross-references between numbers hold. A table
// edited out of order, or a number that breaks one of the book's stated
// equivalences, fails the build rather than a game.
#include "rules/sow/tables.h"

namespace adjutant::rules::sow {
namespace {

template <typename Table, typename Key>
constexpr bool KeyedInOrder(const Table& table, Key Table::value_type::*key) {
  for (size_t i = 0; i < table.size(); ++i) {
    if (static_cast<size_t>(table[i].*key) != i) return false;
  }
  return true;
}

static_assert(KeyedInOrder(kSeasons, &SeasonRow::kind));
static_assert(KeyedInOrder(kCityKinds, &CityKindRow::kind));
static_assert(KeyedInOrder(kUnitSizes, &UnitSizeRow::type));
static_assert(KeyedInOrder(kShipCrews, &ShipCrewRow::type));
static_assert(KeyedInOrder(kUnitBuildTurns, &UnitBuildRow::type));
static_assert(KeyedInOrder(kShipBuildTurns, &ShipBuildRow::type));
static_assert(KeyedInOrder(kUnitClasses, &UnitClassRow::type));
static_assert(KeyedInOrder(kReinforcementPrices, &ReinforcementRow::type));
static_assert(KeyedInOrder(kNewUnitFixedPrices, &NewUnitPriceRow::type));
static_assert(KeyedInOrder(kShipHullPrices, &ShipHullPriceRow::type));
static_assert(KeyedInOrder(kUnitUpkeep, &UnitUpkeepRow::type));
static_assert(KeyedInOrder(kShipUpkeep, &ShipUpkeepRow::type));
static_assert(KeyedInOrder(kPurchaseLimits, &PurchaseLimitRow::kind));

// SOW 2.2: "over 15 campaign turns, the city produces the same income it
// does in one peace or truce turn".
constexpr bool PeaceIncomeIsFifteenWarTurns() {
  for (const CityKindRow& r : kCityKinds) {
    if (r.peace_turn_cc_per_level != 15 * r.war_turn_cc_per_level) return false;
  }
  return true;
}
static_assert(PeaceIncomeIsFifteenWarTurns());

// SOW 6.3: 600 stores or 150 supplies in peace, 40 stores or 10 supplies in
// war; SOW 6.4: 20 stores or 5 supplies per city in war, 300 or 75 in peace.
static_assert(At(kPurchaseLimits, fb::SeasonKind_War).city_store_equivalents == 10 * kStoresPerSupply);
static_assert(At(kPurchaseLimits, fb::SeasonKind_Peace).city_store_equivalents == 150 * kStoresPerSupply);
static_assert(At(kPurchaseLimits, fb::SeasonKind_War).state_store_equivalents_per_city == 5 * kStoresPerSupply);
static_assert(At(kPurchaseLimits, fb::SeasonKind_Peace).state_store_equivalents_per_city ==
              75 * kStoresPerSupply);

// SOW 3.3: no transport group is raised larger than a port's pool.
static_assert(kTransportCapacityMax == kTransportPoolPerPort);

// SOW 4.8 / 5.2: attached batteries count as artillery of a priced type.
constexpr bool BatteriesCountAsArtillery() {
  for (const UnitClassRow& r : kUnitClasses) {
    if (At(kUnitClasses, r.battery_as).unit_class != UnitClass::kArtillery) return false;
  }
  return true;
}
static_assert(BatteriesCountAsArtillery());

// SOW 4.7 / 4.8: only the fixed-size headquarters take no reinforcements,
// and only they carry a fixed purchase price.
constexpr bool OnlyHeadquartersAreFixed() {
  for (size_t i = 0; i < kUnitTypeCount; ++i) {
    const bool hq = kUnitClasses[i].unit_class == UnitClass::kHeadquarters;
    if (kUnitSizes[i].fixed_men != hq) return false;
    if ((kReinforcementPrices[i].block_men == 0) != hq) return false;
    if ((kNewUnitFixedPrices[i].fixed_cc != 0) != hq) return false;
    if ((kUnitUpkeep[i].block_men == 0) != hq) return false;
  }
  return true;
}
static_assert(OnlyHeadquartersAreFixed());

// SOW 5.2: infantry rounds to 500 men, cavalry to 250, artillery to 100.
constexpr bool UpkeepBlocksFollowClass() {
  for (size_t i = 0; i < kUnitTypeCount; ++i) {
    const int64_t block = kUnitUpkeep[i].block_men;
    switch (kUnitClasses[i].unit_class) {
      case UnitClass::kInfantry: case UnitClass::kMilitia: if (block != 500) return false; break;
      case UnitClass::kCavalry: if (block != 250) return false; break;
      case UnitClass::kArtillery: if (block != 100) return false; break;
      case UnitClass::kHeadquarters: break;
    }
  }
  return true;
}
static_assert(UpkeepBlocksFollowClass());

// The city build limit table covers exactly levels 1..5 (SOW 4.6).
static_assert(kCityBuildLimitByLevel.size() == kCityLevelMax - kCityLevelMin + 1);

}  // namespace

const char* UnitClassName(UnitClass c) {
  switch (c) {
    case UnitClass::kInfantry: return "infantry";
    case UnitClass::kCavalry: return "cavalry";
    case UnitClass::kArtillery: return "artillery";
    case UnitClass::kMilitia: return "militia";
    case UnitClass::kHeadquarters: return "headquarters";
  }
  return "?";
}

// PATE 2.7 and SOW 3.1 agree: a full ship's crew and Marines are its men.
static_assert(kShipComplements[fb::SowShipType_FL].crew_max + kShipComplements[fb::SowShipType_FL].marines_max ==
              kShipCrews[fb::SowShipType_FL].crew_per_ship);
static_assert(kShipComplements[fb::SowShipType_SL].crew_max + kShipComplements[fb::SowShipType_SL].marines_max ==
              kShipCrews[fb::SowShipType_SL].crew_per_ship);
static_assert(kShipComplements[fb::SowShipType_FR].crew_max + kShipComplements[fb::SowShipType_FR].marines_max ==
              kShipCrews[fb::SowShipType_FR].crew_per_frigate);

}  // namespace adjutant::rules::sow
