// PATE orders (sections 2.3, 2.6, 2.7, 3.5, 4): the ship order form as
// plain values, who may give each order, the slot it fills, the checks made
// when it is received, and — at adjudication — which orders each ship
// carries out (4.1 precedence is settled at intake; 4.2 copying to attached
// ships and 4.11 defaults here). Pure: no I/O; maps in key order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "projections/fleet.h"
#include "projections/roster.h"
#include "projections/treasury.h"
#include "rules/pate/map.h"

namespace adjutant::fb { struct PateOrder; struct ShipOrders; }

namespace adjutant::rules::pate {

inline constexpr const char* kRuleset = "pate";
inline constexpr int kStoresMax = 24;  // PATE 3.4: the most stores a ship carries

enum class Contact : uint8_t { Accept, Pursue, Evade };
enum class Engage : uint8_t { Accept, Close, Evade };

struct Amphibious {
  bool unload = false;
  std::string unit;
  int32_t supplies = 0;
};

// PATE 4.4, 5.1: two ships are in the same place when in the same port, or
// in the same tactical area of the same sea area.
bool SamePlace(const projections::Ship& a, const projections::Ship& b);

// PATE 6.2-6.4, 6.11: the sea areas the first leg of `sh`'s order may name
// from where she is — from a port, those it opens on; at sea, those next to
// hers and, from an Atlantic edge area, those across the ocean (for a
// frigate any area of the other map) — in the map's order. None for a ship
// crossing the Atlantic or off the map. What the order desk offers; the
// checks when an order is received are RouteFaults' (orders.cc).
std::vector<std::string> FirstLegs(const NavalMap& map, const projections::Ship& sh);

// One ship's orders for a turn (PATE 4.3–4.9), as carried out.
struct ShipOrders {
  std::string ship;
  uint64_t order_seq = 0;          // 0: default orders (4.11)
  std::string copied_from;         // 4.2: the ship whose orders these are
  // 4.4
  std::string attach_to;
  bool detach = false;
  // 4.5
  std::string sea1, sea2, port;
  bool any_enemy_port = false, harbour = false, sail_alone = false, pursue_into_ports = true;
  // 4.6
  Contact contact = Contact::Accept;
  uint8_t min_ships = 0, max_ships = 0;
  bool join_allies = true;
  bool windward = false;           // gauge: leeward by default
  // 4.7
  Engage engage = Engage::Accept;
  bool break_line = false;
  bool aim_hull = false;           // rigging by default
  // 4.8
  projections::Mission commerce = projections::Mission::None;
  // 4.9
  int16_t stores = -1;             // -1: neither load nor unload
  std::vector<Amphibious> amphibious;

  bool moves() const { return !sea1.empty() || !port.empty() || any_enemy_port; }
};

ShipOrders FromOrderForm(const fb::ShipOrders& form, uint64_t order_seq);

// PATE 4.11: what a ship does when no orders reach it.
ShipOrders DefaultOrders(const std::string& ship);

// PATE 4.6: does a pursue or evade order apply to `n` enemy ships? With
// neither bound, always; with one, n at or beyond it; with both, the
// range when min ≤ max, and outside (min..max exclusive) when min > max —
// the book's example, which we follow (RULES.md).
bool ContactApplies(uint8_t min_ships, uint8_t max_ships, int n);

// A refusal: the rule and the reason, in a sentence for the player.
struct Refusal {
  std::string rule, reason;
};

// Who may give an order, and which slot it fills (a later order in the same
// slot from an equal or more senior role replaces it).
struct Claim {
  std::string state;                              // the state the order is for
  std::vector<std::pair<std::string, int>> roles; // full role names with their rank
  std::string slot;
  bool immediate = false;                         // carried out when received (2.3)
};

Claim ClaimOf(const projections::TreasuryState& s, const projections::FleetState& fleet, const fb::PateOrder& order);

// The checks made when an order is received (the player is told at once),
// under rules version `version` of pate: from version 3 a ship's order form
// is checked whole — its route on the map (6.2-6.5, 6.11) and Evade with
// Join Allies (4.6) too — and every fault is told in the one refusal;
// before, the first fault alone.
std::optional<Refusal> CheckAtSubmission(const projections::TreasuryState& s, const projections::FleetState& fleet,
                                         const NavalMap* map,
                                         const fb::PateOrder& order, uint32_t version = 1);

// PATE 4.1, 4.2, 4.11: the orders every ship on the map carries out this
// turn, from the orders that stand (by seq, already settled by precedence):
// a ship's own orders; replaced by its leader's when it stays attached
// (amphibious orders of transports excepted); defaults otherwise. The
// attachment it ends with is in `attach_to` (4.4: a ship attaching to one
// that itself stays attached is refused — see AttachmentRefusals).
std::map<std::string, ShipOrders> CarriedOut(const projections::FleetState& fleet,
                                             const std::map<uint64_t, ShipOrders>& standing);

// PATE 4.4: orders whose attachment would make a chain (X → Y → Z) after
// every order of the turn is taken into account: order seq → refusal.
std::map<uint64_t, Refusal> AttachmentRefusals(const projections::FleetState& fleet,
                                               const std::map<uint64_t, ShipOrders>& standing);

// The ship orders that stand this turn (OrderSubmitted events kept in the
// treasury's `orders`), by seq.
std::map<uint64_t, ShipOrders> StandingShipOrders(const projections::TreasuryState& s);

// PATE 7.8, 2.6 with 4.1, 2.3 (rules version 8): the ship numbers no ship
// holds that are still spoken for, so a prize taken now is not given one: a
// ship order standing this turn names it (the orders of a ship sunk or taken
// this turn; they would pass to the prize), or a person holds a post on it
// (its commander or deputy: the posts of a ship lost at any time stay with
// their holders, and would pass to the prize).
std::set<std::string> SpokenForNumbers(const projections::TreasuryState& s, const projections::Roster& roster);

// PATE 7.8, 2.6: the lowest number of `type` in `state` that no ship or build
// holds, nor a land unit when `units` (a unit's id is free text, so it may
// take a ship's form: a seizure has always skipped them, a battle prize since
// rules version 8), nor `spoken` (SpokenForNumbers since rules version 8;
// empty before): "STATE" + n + "TYPE".
std::string LowestFreeShipId(const projections::TreasuryState& s, const projections::FleetState& fleet, bool units,
                             const std::set<std::string>& spoken, const std::string& state, const std::string& type);

}  // namespace adjutant::rules::pate
