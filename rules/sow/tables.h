// Sinews of War (SOW): every number of the rule book, as data, in one
// place. The calculators in economy.h read these tables and nothing else;
// the adjudication driver reads neither state nor numbers of its own.
//
// Units: money in hundredths of a crown ("cc", SOW 1.1: 15 Cr = 1500 cc),
// fractions in basis points (10000 = 100%), men one by one. Each table is a
// constexpr std::array indexed by a schema enum; every row repeats its key
// so that tables.cc can prove at compile time that the rows are in enum
// order. Numbers the book does not give are marked ASSUMED here and in
// RULES.md.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

#include "schema/sow_generated.h"

namespace adjutant::rules::sow {

using fb::RepairKind;
using fb::SeasonKind;
using fb::SowCityKind;
using fb::SowShipType;
using fb::SowUnitType;

// SOW 1.1: one crown is 100 cc.
// SOW 2.5, 2.6 (rules version 6): a declared blockade holds only while its
// declarer is at war with the state blockaded, an embargo only while the two
// are not allied; versions 1-5 kept both until the GA lifted them, whatever
// peace or alliance came after (rules/versions.cc).
inline constexpr uint32_t kDeclarationsLapseVersion = 6;
// PATE 9 with SOW 2.4, 6.1, 4.9 (rules version 7): troops aboard a transport
// are at sea, not on the square they boarded from: they neither cut a city's
// income as hostile brigades near it, bar purchases next to them, nor stop a
// unit disbanding beside them; versions 1-6 counted them where they boarded.
inline constexpr uint32_t kAboardAtSeaVersion = 7;
// SOW 7.1 (rules version 8): an enemy has been in a city once the log shows
// it - the city changed hands (PATE 10, the GA's SetCityControl) or a unit at
// war with its controller was placed, moved or landed there, or stands there as
// a campaign begins or a war is declared - as well as when
// the GA says so (EnemyInCity, the only sign versions 1-7 read); a repair
// cancelled refunds what its order paid (versions 1-7 priced it again at the
// season's end, from the city as it was then); and a city repairs as many
// coastal batteries in a season as it has damaged or destroyed, each a
// repair of its own (versions 1-7: one at a time).
inline constexpr uint32_t kRepairsFromLogVersion = 8;
// SOW 4.9 (rules version 9): a unit disbands where it is - one aboard a
// transport lying in a port is in that city (on its square, none for an
// off-map port), and one at sea or crossing is on no strategic square, so it
// may not disband until landed or in port; an off-map port's square is not
// home to a unit standing on it. Versions 1-8 disbanded a unit aboard as if
// it stood on the square it boarded from.
inline constexpr uint32_t kDisbandOnLandVersion = 9;
// SOW 4.10 (rules version 9): the friendly ship that lets a ship leave the
// game from a sea area must stay - not crossing the Atlantic and not itself
// ordered removed in the same phase - and a ship crossing is in no sea
// area's tactical location, so an enemy crossing does not stop a removal, nor
// does anything stop hers. Versions 1-8 counted every ship whose destination
// was the area, the crossing ship's own destination included.
inline constexpr uint32_t kRemovalFriendStaysVersion = 9;
// SOW 6.1 (rules version 10): the War Minister's supplies and the Naval
// Minister's stores are bought in one city on one turn, each within 6.3's
// limit for the city: a purchase's slot is its buyer's ministry
// (`STATE/buy/CITY/war`, `/naval`, `/treasury` - the Treasury Minister, or
// the PM or monarch on his behalf; BuyerSlot), so a later order replaces only
// its own ministry's. Versions 1-9 held every purchase in a city in one
// slot, so the later of the two ministers' orders superseded the other's
// unbought.
inline constexpr uint32_t kPurchaseSlotVersion = 10;
// SOW 2.2 with 2.4, 6.1, 4.9 (rules version 10): a unit garrisoning an
// off-map port (its `city`) stands on no square of the land map, as the port
// has none (RULES.md): it cuts no city's income as a hostile brigade near it
// (2.4), bars no purchase (6.1) and shares no square with a unit disbanding
// (4.9). Versions 1-9 counted it on the square the scenario gave it (in
// the 1805 scenario Russia's garrison of Corfu cut Taranto's and Bari's
// income when at war with France or Naples).
inline constexpr uint32_t kOffMapGarrisonVersion = 10;
// SOW 7.1 (rules version 11): a unit that names its city (a garrison, a
// landing) has been in that city alone, not in another city sharing its
// square (Gibraltar and Algeciras in the 1805 scenario); a unit naming none
// is in every city on its square (TreasuryState::enemy_entered_named).
// Versions 8-10 counted every city on the unit's square, so at war Spain's
// garrison of Algeciras barred Gibraltar's repairs every campaign, and the
// reverse.
inline constexpr uint32_t kEnemyInNamedCityVersion = 11;

// SOW 4.1 with PATE 2.3 (rules version 12): a ship built takes the number
// its order names, and with it the posts held on that number - a lost
// ship's commander and deputy keep theirs until the GA withdraws them - so a
// build may not name a number someone holds a post on (as a prize or a
// divided transport may not since pate=8 and pate=9). Version 11 let the
// new ship take a lost ship's number and her commander with it.
inline constexpr uint32_t kBuildNumberVersion = 12;

// SOW 3.5's GA directives with PATE 9 (rules version 13): a unit the GA
// moves (MoveUnit, the land module's landing) is landed where he puts it -
// projections::kMoveUnitLandsVersion, where the treasury view folds it.
// Versions 1-12 left a unit aboard a transport aboard, so she carried it on,
// and it was lost if she was.

inline constexpr int64_t kCcPerCrown = 100;
constexpr int64_t CrToCc(int64_t crowns) { return crowns * kCcPerCrown; }

inline constexpr int kBpWhole = 10000;  // 100%

inline constexpr size_t kUnitTypeCount = static_cast<size_t>(fb::SowUnitType_MAX) + 1;
inline constexpr size_t kShipTypeCount = static_cast<size_t>(fb::SowShipType_MAX) + 1;
inline constexpr size_t kCityKindCount = static_cast<size_t>(fb::SowCityKind_MAX) + 1;
inline constexpr size_t kSeasonKindCount = static_cast<size_t>(fb::SeasonKind_MAX) + 1;

// The row of `table` for enum value `key`. Out-of-range keys (a corrupt
// scenario, a newer schema) stop the process rather than read past a table.
template <typename Table, typename Key>
constexpr const typename Table::value_type& At(const Table& table, Key key) {
  const auto i = static_cast<size_t>(key);
  assert(i < table.size());
  return table[i];
}

// ---- seasons ---------------------------------------------------------------

// SOW 2.2, 4.1, 5.3, 5.5: a war season is a campaign of turns; a peace or
// truce season is one turn worth 15 campaign turns of income and upkeep.
struct SeasonRow {
  SeasonKind kind;
  bool campaign;           // war turns: builds advance one turn at a time (4.1)
  int upkeep_multiplier;   // 5.3, 5.5: 15 × the wartime cost
};
inline constexpr std::array<SeasonRow, kSeasonKindCount> kSeasons = {{
    {fb::SeasonKind_War, true, 1},
    {fb::SeasonKind_Peace, false, 15},
    {fb::SeasonKind_Truce, false, 15},
}};

// ---- 2. income -------------------------------------------------------------

// SOW 2.2: income per level of the city, per campaign turn and per peace or
// truce turn. SOW 2.3: the share an occupied city still produces ("in
// Europe" = inland and on-map ports; off-map ports, Corfu and Malta
// included, keep 75%). SOW 6.3/6.6: stores are sold only in on-map ports.
struct CityKindRow {
  SowCityKind kind;
  int64_t war_turn_cc_per_level;
  int64_t peace_turn_cc_per_level;
  int occupied_income_bp;
  bool sells_stores;
};
inline constexpr std::array<CityKindRow, kCityKindCount> kCityKinds = {{
    {fb::SowCityKind_Inland, CrToCc(15), CrToCc(225), 5000, false},
    {fb::SowCityKind_Port, CrToCc(18), CrToCc(270), 5000, true},
    {fb::SowCityKind_OffMapPort, CrToCc(21), CrToCc(315), 7500, false},
}};
inline constexpr int kCityLevelMin = 1;
inline constexpr int kCityLevelMax = 5;

// SOW 2.4: 5% per hostile brigade in contact within 4 squares, and 5% per
// city of an embargoed power within 8 squares, each counted up to four.
inline constexpr int kContactReductionBpPerBrigade = 500;
inline constexpr int kContactBrigadesCounted = 4;
inline constexpr int kContactRangeSquares = 4;
inline constexpr int kEmbargoedCityReductionBp = 500;
inline constexpr int kEmbargoedCitiesCounted = 4;
inline constexpr int kEmbargoedCityRangeSquares = 8;

// SOW 2.5: blockade of on-map ports. The book fixes only the end point (all
// of a nation's ports blockaded: half their income lost) and the shape (one
// port: very small). ASSUMED curve: loss = 5000 bp × (b/n)², convex, so one
// port of twenty loses 0.125%. ASSUMED colony: a blockaded colony is a
// nation of one port wholly blockaded, so it loses the same 50%.
inline constexpr int kBlockadeAllPortsLossBp = 5000;
inline constexpr int kColonyBlockadeLossBp = 5000;  // ASSUMED

// SOW 2.6: embargo. ASSUMED: half of the trade with the other nation is lost
// (the rest finds other routes), so loss = share × 50%, at most 50% when all
// of the nation's trade is with the other; in Germany and Italy, times the
// fraction of the nation's ports the embargoing state controls.
inline constexpr int kEmbargoLossBpAtWholeTrade = 5000;  // ASSUMED

// SOW 2.7: raiding (and, on the same scale, convoying) points per ship.
// Frigates count one by one, so a frigate group of n counts n times.
struct CommerceWeights {
  int frigate_in_coastal_waters;
  int frigate_in_sea_area;
  int sol_or_patroller_in_port;
  int sol_or_patroller_in_sea_area;
};
inline constexpr CommerceWeights kCommerceWeights = {9, 3, 3, 1};

// SOW 2.7: the loss curve is not given. ASSUMED:
//   loss = 5000 bp × raid / (raid + 2 × convoy + 36)
// 0 without raiders; one frigate in the coastal waters (9 points) takes
// 10%; four (36 points) take 25%; the loss rises towards but never passes
// 50%; each convoy point cancels as much as two raid points add to the
// denominator, so escorts help but never drive the loss to zero.
inline constexpr int kRaidingLossBpLimit = 5000;    // ASSUMED
inline constexpr int kRaidingHalfLossPoints = 36;   // ASSUMED
inline constexpr int kRaidingConvoyWeight = 2;      // ASSUMED
// SOW 2.7: 1 VP per 50 Cr of trade lost to raiders; the book says "not yet
// implemented", so nothing uses it.
inline constexpr int64_t kRaidingCcPerVp = CrToCc(50);

// SOW 2.8: displaced trade. ASSUMED: half of what a nation loses to
// blockades and embargoes shifts to other nations; a receiver that is
// itself blockaded or embargoed takes only half of its share (the other
// half is not shifted at all).
inline constexpr int kDisplacedTradeBp = 5000;        // ASSUMED
inline constexpr int kReducedReceiverShareBp = 5000;  // ASSUMED

// ---- 3. manpower -----------------------------------------------------------

// SOW 3.1 / 4.7: how many men a unit has. Headquarters are a fixed size
// (250 AQ, 100 CQ); other units have as many men as they hold, up to
// max_men, and up to max_batteries batteries. Militia (MI) draws on its
// city's militia pool (3.2), every other type on the national pool (3.1).
struct UnitSizeRow {
  SowUnitType type;
  int64_t max_men;
  int max_batteries;
  bool fixed_men;        // AQ, CQ: always exactly max_men
  bool militia_pool;     // 3.2
};
inline constexpr std::array<UnitSizeRow, kUnitTypeCount> kUnitSizes = {{
    {fb::SowUnitType_IN, 4000, 1, false, false},
    {fb::SowUnitType_LI, 4000, 1, false, false},
    {fb::SowUnitType_MI, 3000, 0, false, true},
    {fb::SowUnitType_LC, 2000, 1, false, false},
    {fb::SowUnitType_MC, 2000, 1, false, false},
    {fb::SowUnitType_HC, 2000, 1, false, false},
    {fb::SowUnitType_LA, 400, 4, false, false},
    {fb::SowUnitType_MA, 400, 4, false, false},
    {fb::SowUnitType_HA, 400, 4, false, false},
    {fb::SowUnitType_SA, 400, 4, false, false},
    {fb::SowUnitType_AQ, 250, 0, true, false},
    {fb::SowUnitType_CQ, 100, 0, true, false},
}};

// SOW 3.1: crew a ship takes from the national pool: a fixed crew (FL, SL),
// so many per frigate of a group (FR), or one man per so many tons of
// capacity, "or fraction" rounded up (TR: 5000 capacity → 500 crew).
struct ShipCrewRow {
  SowShipType type;
  int64_t crew_per_ship;
  int64_t crew_per_frigate;
  int64_t capacity_per_crew;
};
inline constexpr std::array<ShipCrewRow, kShipTypeCount> kShipCrews = {{
    {fb::SowShipType_FL, 1000, 0, 0},
    {fb::SowShipType_SL, 750, 0, 0},
    {fb::SowShipType_FR, 0, 250, 0},
    {fb::SowShipType_TR, 0, 0, 10},
}};

// PATE 2.7: the most crew and Marines a ship holds. At full strength they
// make up exactly the men SOW 3.1 takes for it (FL 800 + 200 = 1000,
// SL 600 + 150 = 750, each frigate 225 + 25 = 250); a TR's crew is its
// capacity / 10 and it carries no Marines.
struct ShipComplementRow {
  SowShipType type;
  int64_t crew_max;     // per ship, or per frigate of a group
  int64_t marines_max;  // per ship, or per frigate of a group
};
inline constexpr std::array<ShipComplementRow, kShipTypeCount> kShipComplements = {{
    {fb::SowShipType_FL, 800, 200},
    {fb::SowShipType_SL, 600, 150},
    {fb::SowShipType_FR, 225, 25},
    {fb::SowShipType_TR, 0, 0},
}};

inline constexpr int64_t kMilitiaPoolPerCity = 7500;      // SOW 3.2
inline constexpr int64_t kTransportPoolPerPort = 8000;    // SOW 3.3
inline constexpr int64_t kTransportCapacityMax = 8000;    // SOW 3.3: no TR raised larger

// SOW 3.4: per season, 1000 men per own city held; 4% of the pool and 4% of
// the men in units and in ships leave.
inline constexpr int64_t kGrowthMenPerOwnCity = 1000;
inline constexpr int kAttritionBp = 400;

// SOW 3.5: "a fraction" of the men of a ship destroyed in battle return (a
// storm loses all). ASSUMED: a quarter, as PATE 10 returns of a garrison's
// units destroyed in battle (rules/pate/tables.h kBattleSurvivorsPct).
inline constexpr int kSunkShipReturningBp = 2500;

// ---- 4. builds -------------------------------------------------------------

// SOW 4.1: war turns to build. One peace or truce turn completes any build.
struct UnitBuildRow { SowUnitType type; int war_turns; };
inline constexpr std::array<UnitBuildRow, kUnitTypeCount> kUnitBuildTurns = {{
    {fb::SowUnitType_IN, 3},
    {fb::SowUnitType_LI, 4},
    {fb::SowUnitType_MI, 1},
    {fb::SowUnitType_LC, 6},
    {fb::SowUnitType_MC, 6},
    {fb::SowUnitType_HC, 6},
    {fb::SowUnitType_LA, 6},
    {fb::SowUnitType_MA, 4},
    {fb::SowUnitType_HA, 4},
    {fb::SowUnitType_SA, 8},
    {fb::SowUnitType_AQ, 8},
    {fb::SowUnitType_CQ, 4},
}};
struct ShipBuildRow { SowShipType type; int war_turns; };
inline constexpr std::array<ShipBuildRow, kShipTypeCount> kShipBuildTurns = {{
    {fb::SowShipType_FL, 16},
    {fb::SowShipType_SL, 16},
    {fb::SowShipType_FR, 8},
    {fb::SowShipType_TR, 2},
}};

// SOW 4.4: funds for the price plus this many wartime turns of upkeep.
inline constexpr int kFundsUpkeepWarTurns = 15;

// SOW 4.5: allied units in one tactical square.
inline constexpr int kAlliedUnitsPerTacSquareMax = 12;

// SOW 4.6: units (militia included) building at once in a city, by level.
inline constexpr std::array<int, kCityLevelMax> kCityBuildLimitByLevel = {6, 8, 10, 12, 14};

// ---- 4.8 / 5.2: unit classes -------------------------------------------------

// How the book groups unit types: infantry rounds to 500 men, cavalry to
// 250, artillery to 100 and pays by batteries or hundreds of men, whichever
// is more (5.2). A battery attached to infantry is priced and maintained
// as a battery of MA, one attached to cavalry as LA (4.8, 5.2).
enum class UnitClass : uint8_t { kInfantry, kCavalry, kArtillery, kMilitia, kHeadquarters };
struct UnitClassRow {
  SowUnitType type;
  UnitClass unit_class;
  SowUnitType battery_as;  // the artillery type an attached battery counts as
};
inline constexpr std::array<UnitClassRow, kUnitTypeCount> kUnitClasses = {{
    {fb::SowUnitType_IN, UnitClass::kInfantry, fb::SowUnitType_MA},
    {fb::SowUnitType_LI, UnitClass::kInfantry, fb::SowUnitType_MA},
    {fb::SowUnitType_MI, UnitClass::kMilitia, fb::SowUnitType_MA},   // no batteries (4.7)
    {fb::SowUnitType_LC, UnitClass::kCavalry, fb::SowUnitType_LA},
    {fb::SowUnitType_MC, UnitClass::kCavalry, fb::SowUnitType_LA},
    {fb::SowUnitType_HC, UnitClass::kCavalry, fb::SowUnitType_LA},
    {fb::SowUnitType_LA, UnitClass::kArtillery, fb::SowUnitType_LA},
    {fb::SowUnitType_MA, UnitClass::kArtillery, fb::SowUnitType_MA},
    {fb::SowUnitType_HA, UnitClass::kArtillery, fb::SowUnitType_HA},
    {fb::SowUnitType_SA, UnitClass::kArtillery, fb::SowUnitType_SA},
    {fb::SowUnitType_AQ, UnitClass::kHeadquarters, fb::SowUnitType_MA},  // no batteries
    {fb::SowUnitType_CQ, UnitClass::kHeadquarters, fb::SowUnitType_MA},  // no batteries
}};

// SOW 4.8: the price of men added to a unit, per block of men "or fraction
// thereof"; for artillery per 100 men and 1 battery. Headquarters are a
// fixed size and take no reinforcements (block_men 0). The book prices no
// SA: ASSUMED 40 Cr, above HA's 30 as SA's upkeep (8) is above HA's (5).
struct ReinforcementRow {
  SowUnitType type;
  int64_t block_men;
  int64_t block_cc;
  bool assumed;
};
inline constexpr std::array<ReinforcementRow, kUnitTypeCount> kReinforcementPrices = {{
    {fb::SowUnitType_IN, 500, CrToCc(20), false},
    {fb::SowUnitType_LI, 500, CrToCc(24), false},
    {fb::SowUnitType_MI, 500, CrToCc(20), false},
    {fb::SowUnitType_LC, 250, CrToCc(30), false},
    {fb::SowUnitType_MC, 250, CrToCc(35), false},
    {fb::SowUnitType_HC, 250, CrToCc(50), false},
    {fb::SowUnitType_LA, 100, CrToCc(20), false},
    {fb::SowUnitType_MA, 100, CrToCc(25), false},
    {fb::SowUnitType_HA, 100, CrToCc(30), false},
    {fb::SowUnitType_SA, 100, CrToCc(40), true},   // ASSUMED
    {fb::SowUnitType_AQ, 0, 0, false},
    {fb::SowUnitType_CQ, 0, 0, false},
}};

// SOW 4.8: 5 Cr per 100 crew or fraction (the book names FL, SL and TR;
// frigate groups are ASSUMED to pay the same).
inline constexpr int64_t kCrewBlockMen = 100;
inline constexpr int64_t kCrewBlockCc = CrToCc(5);

// SOW 4.8: soldiers join units only on peace or truce turns or on this turn
// of a campaign.
inline constexpr int kReinforcementCampaignTurn = 1;

// New units and ships: the book gives NO purchase prices. ASSUMED, to agree
// with 4.8: a new unit's men and batteries cost what reinforcing them would
// (kReinforcementPrices), plus the fixed price below, which only the
// headquarters have (they cannot be reinforced). A new ship costs its hull
// (per frigate for a frigate group) plus its crew at the 4.8 crew price; a
// transport group is chartered civilian shipping (3.3): it pays only crew.
struct NewUnitPriceRow { SowUnitType type; int64_t fixed_cc; };
inline constexpr std::array<NewUnitPriceRow, kUnitTypeCount> kNewUnitFixedPrices = {{
    {fb::SowUnitType_IN, 0},
    {fb::SowUnitType_LI, 0},
    {fb::SowUnitType_MI, 0},
    {fb::SowUnitType_LC, 0},
    {fb::SowUnitType_MC, 0},
    {fb::SowUnitType_HC, 0},
    {fb::SowUnitType_LA, 0},
    {fb::SowUnitType_MA, 0},
    {fb::SowUnitType_HA, 0},
    {fb::SowUnitType_SA, 0},
    {fb::SowUnitType_AQ, CrToCc(150)},  // ASSUMED
    {fb::SowUnitType_CQ, CrToCc(100)},  // ASSUMED
}};
struct ShipHullPriceRow { SowShipType type; int64_t hull_cc; bool per_frigate; };
inline constexpr std::array<ShipHullPriceRow, kShipTypeCount> kShipHullPrices = {{
    {fb::SowShipType_FL, CrToCc(250), false},  // ASSUMED: 300 Cr with its 1000 crew
    {fb::SowShipType_SL, CrToCc(160), false},  // ASSUMED: 200 Cr with its 750 crew
    {fb::SowShipType_FR, CrToCc(45), true},    // ASSUMED: 60 Cr for one frigate with crew
    {fb::SowShipType_TR, 0, false},        // ASSUMED: chartered, crew only
}};

// SOW 4.9: a unit disbanded outside its state's territory loses 40% of its
// men ("approximately": exactly 40%, rounded to the nearest man) and costs
// 1 VP for every full 250 men disbanded.
inline constexpr int kDisbandAbroadLossBp = 4000;
inline constexpr int64_t kDisbandMenPerVp = 250;

// ---- 5. maintenance --------------------------------------------------------

// SOW 5.1: wartime upkeep per block of men (rounded up, 5.2) — artillery per
// battery or per 100 men, whichever is more — active and inactive.
// block_men 0: a flat cost per unit (headquarters).
struct UnitUpkeepRow {
  SowUnitType type;
  int64_t block_men;
  int64_t active_cc;
  int64_t inactive_cc;
};
inline constexpr std::array<UnitUpkeepRow, kUnitTypeCount> kUnitUpkeep = {{
    {fb::SowUnitType_IN, 500, CrToCc(3), CrToCc(1)},
    {fb::SowUnitType_LI, 500, CrToCc(3), CrToCc(1)},
    {fb::SowUnitType_MI, 500, CrToCc(5), 0},
    {fb::SowUnitType_LC, 250, CrToCc(3), CrToCc(1)},
    {fb::SowUnitType_MC, 250, CrToCc(6), CrToCc(2)},
    {fb::SowUnitType_HC, 250, CrToCc(6), CrToCc(2)},
    {fb::SowUnitType_LA, 100, CrToCc(5), CrToCc(1)},
    {fb::SowUnitType_MA, 100, CrToCc(4), CrToCc(1)},
    {fb::SowUnitType_HA, 100, CrToCc(5), CrToCc(1)},
    {fb::SowUnitType_SA, 100, CrToCc(8), CrToCc(1)},
    {fb::SowUnitType_AQ, 0, CrToCc(75), CrToCc(10)},
    {fb::SowUnitType_CQ, 0, CrToCc(50), CrToCc(5)},
}};

// SOW 5.4: wartime upkeep of an active ship, sailing and tied up in its
// base harbour; per ship, per frigate of a group, or per 1000 capacity of a
// transport group (which pays the same in base). Inactive ships pay
// nothing (5.6).
enum class ShipUpkeepBasis : uint8_t { kPerShip, kPerFrigate, kPerCapacity };
struct ShipUpkeepRow {
  SowShipType type;
  ShipUpkeepBasis basis;
  int64_t sailing_cc;
  int64_t base_harbour_cc;
};
inline constexpr std::array<ShipUpkeepRow, kShipTypeCount> kShipUpkeep = {{
    {fb::SowShipType_FL, ShipUpkeepBasis::kPerShip, CrToCc(12), CrToCc(4)},
    {fb::SowShipType_SL, ShipUpkeepBasis::kPerShip, CrToCc(8), CrToCc(3)},
    {fb::SowShipType_FR, ShipUpkeepBasis::kPerFrigate, CrToCc(5), CrToCc(1)},
    {fb::SowShipType_TR, ShipUpkeepBasis::kPerCapacity, CrToCc(8), CrToCc(8)},
}};
// The capacity a transport group's rate is quoted for. ASSUMED rounding:
// pro rata, to the hundredth of a crown, rounded up (2500 capacity: 20 Cr).
inline constexpr int64_t kTransportUpkeepCapacityBlock = 1000;

// ---- 6. supplies and stores ------------------------------------------------

inline constexpr int64_t kSupplyPriceCc = CrToCc(5);  // SOW 6.2
inline constexpr int64_t kStorePriceCc = CrToCc(2);   // SOW 6.2
// SOW 6.3: one supply takes the room of four stores.
inline constexpr int64_t kStoresPerSupply = 4;

// SOW 6.3 / 6.4: purchase limits in store-equivalents (stores + 4 ×
// supplies): in one city a turn, and for the state a turn per city it
// controls. Equality is allowed (6.4's own example spends exactly 560).
struct PurchaseLimitRow {
  SeasonKind kind;
  int64_t city_store_equivalents;
  int64_t state_store_equivalents_per_city;
};
inline constexpr std::array<PurchaseLimitRow, kSeasonKindCount> kPurchaseLimits = {{
    {fb::SeasonKind_War, 40, 20},
    {fb::SeasonKind_Peace, 600, 300},
    {fb::SeasonKind_Truce, 600, 300},
}};

// ---- 7. repairs --------------------------------------------------------------

// SOW 7.1: a damaged coastal battery, a destroyed one; a fort, per level it
// is repaired from. ASSUMED: a fort at level 0 pays as from level 1 (the
// book's formula would make it free).
inline constexpr int64_t kBatteryRepairDamagedCc = CrToCc(100);
inline constexpr int64_t kBatteryRepairDestroyedCc = CrToCc(200);
inline constexpr int64_t kFortRepairCcPerLevel = CrToCc(150);
inline constexpr int kFortRepairMinChargedLevel = 1;  // ASSUMED

const char* UnitClassName(UnitClass c);

}  // namespace adjutant::rules::sow
