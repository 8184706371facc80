// The treasury view (ruleset sow): every state's money, manpower and
// pools, every city and unit, builds in progress, diplomacy, standing
// orders, the calendar, the winds (PATE 1.4), and the statement of the
// current turn line by line. A pure fold of GameCreated (the scenario's sow
// section), SowDirective, SowEvent, PateEvent and the phase boundaries.
// The ships are the fleet's (projections/fleet.h); `Ship` is declared here
// because a ship being built is the treasury's `Build`.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/turn.h"
#include "projections/projection.h"

namespace adjutant::fb { struct SowUnitDef; struct SowShipDef; }

namespace adjutant::projections {

// Mirrors of the schema's sow enums (checked in treasury.cc).
enum class UnitType : uint8_t { IN, LI, MI, LC, MC, HC, LA, MA, HA, SA, AQ, CQ };
enum class ShipType : uint8_t { FL, SL, FR, TR };
enum class CityKind : uint8_t { Inland, Port, OffMapPort };
enum class SeasonKind : uint8_t { War, Peace, Truce };
enum class Relation : uint8_t { Neutral, War, Alliance };
enum class Mission : uint8_t { None, Raid, Convoy, Patrol, IgnoreCommerce };
enum class RepairKind : uint8_t { Battery, Fort };

struct Square {
  int16_t x = 0, y = 0;
  friend auto operator<=>(const Square&, const Square&) = default;
};

struct StatementLine {
  Turn turn;
  uint16_t phase = 0;
  int64_t amount_cc = 0;
  std::string rule, item, subject, detail;
  uint64_t order_seq = 0;
};

struct ManpowerEntry {
  Turn turn;
  std::string pool, city;
  int64_t men = 0;
  std::string rule, item, subject;
};

// An order of this state refused this turn (the player is told).
struct Refused {
  uint64_t order_seq = 0;
  std::string slot, rule, reason;
};

struct StateAcct {
  std::string id, name, nation;
  int64_t opening_cc = 0;      // the scenario's treasury
  int64_t treasury_cc = 0;
  int64_t credits_cc = 0;      // every credit since the opening
  int64_t debits_cc = 0;       // every charge since the opening (positive)
  int64_t opening_men = 0;
  int64_t manpower = 0;        // national pool (SOW 3.1)
  int64_t men_growth = 0;      // recorded growth since the opening (SOW 3.4)
  int64_t men_lost = 0;        // recorded attrition and losses
  std::vector<StatementLine> statement;  // the current turn's lines
  std::vector<ManpowerEntry> manpower_lines;  // the current turn's
  std::vector<Refused> refused;               // the current turn's
  std::vector<std::string> notes;             // the current turn's other events, in words
};

struct City {
  std::string name, nation, controller;
  uint8_t level = 1;
  CityKind kind = CityKind::Inland;
  Square square;
  std::string sea_area;
  uint8_t dockyards = 0, fort_level = 0, fort_start = 0;
  uint8_t batteries = 0, batteries_damaged = 0, batteries_destroyed = 0;
  int32_t militia_pool = 0, transport_pool = 0;
  bool besieged = false;
  bool enemy_this_campaign = false;  // SOW 7.1: the GA's EnemyInCity
  int32_t supplies = 0, stores = 0;
};

struct Unit {
  std::string id, state;
  UnitType type = UnitType::IN;
  int32_t men = 0;
  uint8_t batteries = 0;
  bool active = true;
  Square square;
  std::string city, raised_in;
  std::string aboard;  // PATE 9: the transport group carrying her ("" on land)
};

// The GA's MoveUnit (sow rules version 13, with PATE 9): a unit the GA moves
// stands where he puts it, on land: one aboard a transport is landed (no
// longer aboard, so not lost with her, and in the city it is put in for SOW
// 7.1), and leaves her hold, as a unit the GA destroys or one disbanded
// aboard does (projections/fleet.cc OutOfHolds: a hold lists exactly the
// units aboard her). Versions 1-12 moved its square and city and left it
// aboard, where it went on being wherever the transport was, and kept the
// id of a unit gone from the game in the hold.
inline constexpr uint32_t kMoveUnitLandsVersion = 13;

// PATE 9: an amphibious order begun in the initial amphibious phase.
struct CargoOp {
  std::string port, unit;
  bool unload = false;
  int32_t supplies = 0;
  uint64_t order_seq = 0;
};

struct Ship {
  std::string id, state;
  ShipType type = ShipType::SL;
  int32_t crew = 0;
  uint8_t frigates = 1;
  int32_t capacity = 0;
  std::string base, location;
  bool in_port = false, coastal = false, active = true;
  Mission mission = Mission::None;
  Turn crewed_on;  // SOW 4.8: a ship that adds crew may not move that turn
  // PATE 2.2–2.4: ratings.
  std::string name;
  int32_t marines = 0;
  uint8_t quality = 2;  // fb::ShipQuality
  uint8_t morale = 2;
  uint16_t experience = 0, stores = 0;
  uint8_t hull = 0, rigging = 0;
  // PATE 1.2, 4.4, 6.11, 2.6: the tactical area at sea (1..), the ship it
  // is attached to, the turns left in an Atlantic crossing (then
  // `location` is the sea area it will arrive in), the campaign turns left
  // until reactivated.
  uint8_t tactical = 0;
  std::string attached_to;
  uint8_t crossing_turns = 0;
  uint8_t reactivating = 0;
  // PATE 9: what a transport group carries, and its amphibious orders begun.
  std::vector<std::string> cargo_units;
  int32_t cargo_supplies = 0;
  std::vector<CargoOp> loading;
  bool windward = false;          // PATE 6.9: the weather gauge against enemies in contact
  std::string start_location;     // PATE 5.4: where she was when `moved_on` began
  Turn moved_on;                  // the last turn she moved in
  // Where she began turn `t` (PATE 5.4).
  const std::string& StartOf(const Turn& t) const { return moved_on == t ? start_location : location; }
  bool at_sea() const { return !in_port && !coastal; }
  bool on_map() const { return active && crossing_turns == 0; }
  // SOW 3.1 counts a ship's men: its crew and its Marines (PATE 2.7).
  int64_t men() const { return int64_t{crew} + marines; }
};

// PATE 1.4: the wind in a sea area this turn.
struct Wind {
  uint8_t from = 0;      // fb::Compass
  uint8_t strength = 0;  // fb::WindStrength
  friend bool operator==(const Wind&, const Wind&) = default;
};

struct Build {
  std::string id, state, city;
  bool is_ship = false;
  Unit unit;
  Ship ship;
  uint8_t war_turns = 0, done = 0;
  Turn started;
  uint64_t order_seq = 0;
};

struct Return {
  std::string state, pool, city;
  int64_t men = 0;
  int32_t due_year = 0, due_season = 0;
  std::string rule, subject;
};

struct StandingOrder {
  int32_t supplies = 0;
  std::string forward_to;
  int32_t forward = 0;
  uint64_t order_seq = 0;
};

struct Repair {
  std::string city, state;
  RepairKind what = RepairKind::Battery;
  Turn started;
  int64_t paid_cc = 0;  // what the order paid (recorded since sow=8; 0 before)
};

// An order of the current turn that stands: submitted, neither superseded
// nor rejected. `event` is the OrderSubmitted event as stored.
struct PendingOrder {
  std::string slot, person, role;
  std::vector<uint8_t> event;
};

struct TreasuryState {
  bool active = false;         // the game plays sow
  bool naval = false;          // ... and pate, on a naval map (MapDefined)
  uint64_t last_seq = 0;
  Turn turn;                   // the turn being played
  Turn started;                // the game's first turn
  uint16_t phase_done = 0;     // the last completed phase of `turn` (0: none)
  bool turn_done = false;      // every phase of `turn` is complete
  SeasonKind season_kind = SeasonKind::War;
  std::pair<int32_t, int32_t> season_of_kind;  // the (year, season) `season_kind` is for
  bool campaign_ended = false; // the GA ended the campaign early
  std::map<std::pair<int32_t, int32_t>, SeasonKind> season_plan;  // (year, season) → kind
  std::map<std::string, StateAcct> states;
  std::map<std::string, City> cities;
  std::map<std::string, Unit> units;
  std::map<std::pair<std::string, std::string>, Relation> relations;  // (a < b)
  std::set<std::pair<std::string, std::string>> blockades;  // (by, against)
  std::set<std::pair<std::string, std::string>> embargoes;  // (by, against)
  std::map<std::pair<std::string, std::string>, uint16_t> trade_bp;  // (nation, partner)
  std::map<std::string, Build> builds;
  std::vector<Return> returns;
  std::map<std::pair<std::string, std::string>, StandingOrder> standing;  // (state, city)
  std::vector<Repair> repairs;
  std::map<uint64_t, PendingOrder> orders;  // by seq: the current turn's standing orders
  bool piracy = false;
  std::map<std::string, Wind> winds;  // PATE 1.4: sea area → the wind now blowing
  // SOW 7.1 as the log shows it (the rules count it in sow 8-10): the cities
  // an enemy entered this campaign. A city is in it once it changed hands
  // (PATE 10's PortTaken, the GA's SetCityControl) or a unit at war with its
  // controller was placed, moved or landed there (on its square, not
  // aboard), or stands there as the game or a campaign begins or a war is
  // declared. Emptied at the season's end, like City::enemy_this_campaign
  // (and marked again for the enemies still there).
  std::set<std::string> enemy_entered;
  // The same as the rules count it since sow=11 (treasury@7): a unit that
  // names its city (a garrison, a landing) is in that city alone, not in
  // another city on the same square (Gibraltar and Algeciras share one in
  // the 1805 scenario); a unit naming none is in every city on its square.
  // A subset of enemy_entered.
  std::set<std::string> enemy_entered_named;

  Relation RelationOf(const std::string& a, const std::string& b) const;
  const StateAcct* State(const std::string& id) const;
};

class Treasury final : public Fold<TreasuryState> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<Treasury>(*this); }
  std::string_view name() const override { return "treasury"; }
  // 5: the ships moved to the fleet (projections/fleet.h). 6: a city's
  // enemy_entered and a repair's paid_cc (SOW 7.1, sow=8). 7:
  // enemy_entered_named (SOW 7.1, sow=11).
  uint32_t version() const override { return 7; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;
};

Unit UnitFromDef(const fb::SowUnitDef& d);
Ship ShipFromDef(const fb::SowShipDef& d);

}  // namespace adjutant::projections
