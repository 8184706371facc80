// The words of the text order form (order_text.h), one table a ruleset: each
// kind of order, the word that names it (and the book's abbreviations), the
// field written before it, the fields written after it by position, and
// the words for the boxes of its form — with the rule it follows and an
// example line. Each ruleset's README.md shows every kind with an example;
// tests/rules/order_text_test.cc reads them all.
#include "rules/order_text.h"

namespace adjutant::rules {
namespace {

// Every game: withdrawing an order, and an order written in prose for the GA.
const OrderKindWords kCommon[] = {
    {"", "", "withdraw", "wd", "", false, {"Withdrawal", {"slot"}, {}}, {}, {}, "issue 20",
     "withdraw BR/ship/BR2SL"},
    {"", "", "write", "note", "", false, {"WrittenOrder", {"text"}, {}}, {}, {}, "",
     "write \"Villeneuve to wait for the Spanish squadron\""},
};

// PATE 2.3–4.9: a ship's (or transport group's) order form, and the Naval
// Minister's orders.
const OrderKindWords kPate[] = {
    {"pate", "PateOrder", "orders", "order", "ship", false,
     {"ShipOrders",
      {},
      {
          {"attach", "attach_to", "att"},            // 4.4
          {"detach", "detach", "det"},               // 4.4
          {"move", "sea1", "sail sea to"},                // 4.5: up to two sea areas
          {"then", "sea2", ""},                      // 4.5
          {"port", "port", ""},                      // 4.5
          {"any-enemy-port", "any_enemy_port", "enemy-port"},
          {"harbour", "harbour", "harbor"},          // 4.5: enter the harbour
          {"alone", "sail_alone", "sail-alone"},     // 4.5
          {"contact", "contact", ""},                // 4.6: accept, pursue, evade
          {"min", "min_ships", "minimum"},           // 4.6
          {"max", "max_ships", "maximum"},           // 4.6
          {"join-allies", "join_allies", "join"},    // 4.6, 6.9
          {"gauge", "gauge", ""},                    // 4.6, 4.7: leeward, windward
          {"engage", "engage", "combat"},            // 4.7: accept, close, evade
          {"line", "line", ""},                      // 4.7: line-ahead, break-line
          {"aim", "aim", ""},                        // 4.7: rigging, hull
          {"commerce", "commerce", ""},              // 4.8: raid, convoy, patrol, ignore
          {"stores", "stores", ""},                  // 4.9
          {"load", "amphibious", "", "unload", "false"},   // 4.9: a unit, or supplies N
          {"unload", "amphibious", "", "unload", "true"},  // 4.9
      }},
     {}, {}, "PATE 4.3",
     "BR2SL orders move Channel then Biscay port Brest harbour contact pursue min 2 max 10 gauge windward "
     "engage close line break-line aim hull commerce raid stores 10"},
    {"pate", "PateOrder", "appoint", "", "ship", false,
     {"AppointOrder", {"commander"}, {{"commander", "commander", "captain"}, {"deputy", "deputy", ""}}}, {}, {},
     "PATE 2.3", "BR2SL appoint Nelson deputy Hardy"},
    {"pate", "PateOrder", "inactivate", "lay-up", "ship", false, {"ActivationOrder", {}, {}}, "active", "false",
     "PATE 2.6", "FR5SL inactivate"},
    {"pate", "PateOrder", "reactivate", "activate", "ship", false, {"ActivationOrder", {}, {}}, "active", "true",
     "PATE 2.6", "FR5SL reactivate"},
    {"pate", "PateOrder", "send-stores", "move-stores", "from", false,
     {"MoveStoresOrder", {"stores"}, {{"to", "to", ""}}}, {}, {}, "PATE 3.5", "Portsmouth send-stores 12 to Plymouth"},
    {"pate", "PateOrder", "crew", "transfer-crew", "from", false, {"TransferCrewOrder", {"crew"}, {{"to", "to", ""}}},
     {}, {}, "PATE 2.7", "BR2SL crew 50 to BR5SL"},
};

// SOW 2.1–7.1: a minister's orders for his state (the state first).
const OrderKindWords kSow[] = {
    {"sow", "SowOrder", "transfer", "pay", "state", true,
     {"TransferOrder", {"amount_cc"}, {{"to", "to_state", ""}}}, {}, {}, "SOW 2.1", "SP transfer 1200 to FR"},
    {"sow", "SowOrder", "build", "raise", "state", true,
     {"BuildUnitOrder", {"type", "men"}, {{"at", "city", ""}, {"men", "men", ""}, {"batteries", "batteries", "guns"},
                                          {"id", "id", ""}}},
     {}, {}, "SOW 4.3", "FR build IN 5000 at Paris id FR-I-9"},
    {"sow", "SowOrder", "build-ship", "launch", "state", true,
     {"BuildShipOrder", {"type"}, {{"at", "port", ""}, {"frigates", "frigates", ""}, {"capacity", "capacity", ""},
                                   {"id", "id", ""}}},
     {}, {}, "SOW 4.3", "FR build-ship SL at Brest id FR9SL"},
    {"sow", "SowOrder", "reinforce", "", "state", true,
     {"ReinforceOrder", {"unit"}, {{"men", "men", ""}, {"batteries", "batteries", "guns"}}}, {}, {}, "SOW 4.8",
     "FR reinforce FR-I-3 men 800"},
    {"sow", "SowOrder", "disband", "", "state", true, {"DisbandOrder", {"unit"}, {}}, {}, {}, "SOW 4.9",
     "FR disband FR-M-2"},
    {"sow", "SowOrder", "remove-ship", "scrap", "state", true, {"RemoveShipOrder", {"ship"}, {}}, {}, {}, "SOW 4.10",
     "FR remove-ship FR7SL"},
    {"sow", "SowOrder", "buy", "purchase", "state", true,
     {"BuySuppliesOrder", {}, {{"supplies", "supplies", ""}, {"stores", "stores", ""}, {"at", "city", "in"}}}, {}, {},
     "SOW 6.1", "FR buy supplies 10 stores 4 at Toulon"},
    {"sow", "SowOrder", "standing-supply", "standing", "state", true,
     {"StandingSupplyOrder",
      {},
      {{"at", "city", "in"}, {"supplies", "supplies", ""}, {"forward", "forward", ""}, {"to", "forward_to", ""}}},
     {}, {}, "SOW 6.5", "FR standing-supply at Paris supplies 5 forward 2 to Lyon"},
    {"sow", "SowOrder", "repair", "", "state", true, {"RepairOrder", {"what"}, {{"at", "city", "in"}}}, {}, {},
     "SOW 7.1", "FR repair fort at Toulon"},
};

// Y1–Y14: a ruler's orders for his nation (provinces by number).
const OrderKindWords kY1820[] = {
    {"y1820", "Y1820Order", "deploy", "", "", false,
     {"Y1820Deploy", {"province"}, {{"armies", "armies", ""}, {"fleets", "fleets", ""}, {"sea", "sea", ""}}}, {}, {},
     "Y1.1", "deploy 12 armies 3 fleets 1"},
    {"y1820", "Y1820Order", "move", "march", "", false,
     {"Y1820Move", {"from"}, {{"to", "to", ""}, {"armies", "armies", ""}, {"via", "via", "rail"}, {"seas", "seas", "by-sea"}}},
     {}, {}, "Y5", "move 12 to 14 armies 2 via 13"},
    {"y1820", "Y1820Order", "sail", "fleet", "", false,
     {"Y1820FleetMove",
      {},
      {{"from-port", "from_port", ""}, {"from-sea", "from_sea", ""}, {"to-port", "to_port", ""}, {"to-sea", "to_sea", ""},
       {"fleets", "fleets", ""}}},
     {}, {}, "Y8.2", "sail from-port 12 to-sea North-Sea fleets 2"},
    {"y1820", "Y1820Order", "raise-fleet", "", "", false, {"Y1820RaiseFleet", {"port"}, {}}, {}, {}, "Y8.1",
     "raise-fleet 12"},
    {"y1820", "Y1820Order", "dismantle-fleet", "", "", false, {"Y1820DismantleFleet", {"port"}, {}}, {}, {}, "Y8.6",
     "dismantle-fleet 12"},
    {"y1820", "Y1820Order", "build", "", "", false, {"Y1820Build", {"province", "improvement"}, {}}, {}, {}, "Y11",
     "build 12 \"Military HQ\""},
    {"y1820", "Y1820Order", "dismantle", "", "", false, {"Y1820Dismantle", {"province", "improvement"}, {}}, {}, {},
     "Y11.1", "dismantle 12 Fortifications"},
    {"y1820", "Y1820Order", "research", "", "", false, {"Y1820Research", {"tech"}, {}}, {}, {}, "Y10",
     "research Railroads"},
    {"y1820", "Y1820Order", "reform", "", "", false, {"Y1820Reform", {"reform"}, {}}, {}, {}, "Y14",
     "reform \"Army Modernization\""},
    {"y1820", "Y1820Order", "declare-war", "war", "", false, {"Y1820DeclareWar", {"nation"}, {}}, {}, {}, "Y12.1",
     "declare-war Austria"},
    {"y1820", "Y1820Order", "treaty", "", "", false, {"Y1820Treaty", {"nation", "kind"}, {}}, {}, {}, "Y12.2",
     "treaty Prussia non-aggression"},
    {"y1820", "Y1820Order", "rally", "rally-points", "", false, {"Y1820RallyPoints", {"provinces"}, {}}, {}, {},
     "Y4.2", "rally 12 14"},
    {"y1820", "Y1820Order", "give-province", "cede", "", false, {"Y1820GiveProvince", {"nation", "province"}, {}}, {},
     {}, "Y12.5", "give-province Prussia 14"},
    {"y1820", "Y1820Order", "give-tech", "", "", false, {"Y1820GiveTech", {"nation", "tech"}, {}}, {}, {}, "Y12.5",
     "give-tech Prussia Railroads"},
};

// D1–D12: a general's intentions for a unit for the coming move.
const OrderKindWords kDog[] = {
    {"dog", "DogOrder", "orders", "order intends", "unit", false,
     {"DogIntent",
      {},
      {
          {"form", "formation", "", "change_formation", "true"},  // D1: change formation
          {"face", "face", "reface"},                             // D2: a new facing, degrees
          {"move", "path", "to"},                                 // D2: points x/y, in order
          {"charge", "charge", ""},                               // D5
          {"hold", "hold", "halt"},
          {"reform", "reform", "rally"},                          // D1.8, D1.9
      }},
     {}, {}, "D12.2", "BR-29 orders form line face 90 move 120/40 160/40"},
};

// The list of tables inside an order: a transport's amphibious orders.
const TableWords kItems[] = {
    {"AmphibiousOrder", {"unit"}, {{"supplies", "supplies", ""}}},
};

const EnumAlias kEnumAliases[] = {
    {"ShipMission", "IgnoreCommerce", "ignore"},
    {"LineOrder", "LineAhead", "ahead"},
    {"LineOrder", "BreakLine", "break"},
    {"DogFormation", "ColumnOfMarch", "march-column"},
    {"DogFormation", "ColumnOfDivisions", "column"},
};

std::vector<OrderKindWords> Everything() {
  std::vector<OrderKindWords> all;
  for (auto table : {std::span<const OrderKindWords>(kCommon), std::span<const OrderKindWords>(kPate),
                            std::span<const OrderKindWords>(kSow), std::span<const OrderKindWords>(kY1820),
                            std::span<const OrderKindWords>(kDog)}) {
    all.insert(all.end(), table.begin(), table.end());
  }
  return all;
}

}  // namespace

std::span<const OrderKindWords> AllOrderKinds() {
  static const std::vector<OrderKindWords> all = Everything();
  return all;
}
std::span<const TableWords> ItemTables() { return kItems; }
std::span<const EnumAlias> EnumAliases() { return kEnumAliases; }

}  // namespace adjutant::rules
