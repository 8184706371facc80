#include "rules/pate/orders.h"

#include <algorithm>


#include "rules/sow/calendar.h"
#include "rules/spelling.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::rules::pate {

using projections::Ship;
using projections::ShipType;
using projections::TreasuryState;
using projections::FleetState;

namespace {

using schema::Str;

const Ship* FindShip(const FleetState& fleet, const std::string& id) {
  auto it = fleet.ships.find(id);
  return it == fleet.ships.end() ? nullptr : &it->second;
}

std::string StateOf(const FleetState& fleet, const std::string& ship) {
  const Ship* sh = FindShip(fleet, ship);
  return sh ? sh->state : "";
}

// The state's ministers who may act for its navy (PATE 2.3; seniority as
// in SOW 2.1: the monarch and prime minister may act for any minister).
std::vector<std::pair<std::string, int>> NavalRoles(const std::string& state) {
  return {{state + ".monarch", 3}, {state + ".prime", 2}, {state + ".naval", 1}};
}

std::vector<std::pair<std::string, int>> ShipRoles(const std::string& ship) {
  return {{ship + ".commander", 2}, {ship + ".deputy", 1}};
}


bool Hostile(const TreasuryState& s, const std::string& a, const std::string& b) {
  return a != b && s.RelationOf(a, b) == projections::Relation::War;
}

}  // namespace

bool SamePlace(const Ship& a, const Ship& b) {
  if (!a.on_map() || !b.on_map() || a.location != b.location) return false;
  return a.at_sea() == b.at_sea() && (!a.at_sea() || a.tactical == b.tactical);
}

std::vector<std::string> FirstLegs(const NavalMap& map, const Ship& sh) {
  std::vector<std::string> out;
  if (!sh.on_map() || sh.crossing_turns > 0) return out;
  if (const Port* port = sh.at_sea() ? nullptr : map.PortNamed(sh.location)) {
    for (const std::string& a : {port->sea_area, port->strait_area}) {
      if (!a.empty() && map.PortOpensOn(sh.location, a)) out.push_back(a);
    }
    return out;
  }
  const SeaArea* here = map.Area(sh.location);
  if (!here) return out;
  for (const auto& [code, area] : map.areas()) {
    if (code == sh.location) continue;
    const bool across = map.CrossesAtlantic(sh.location, code) ||
                        (sh.type == projections::ShipType::FR && here->atlantic && here->map != area.map);
    if (map.DirectionTo(sh.location, code) || across) out.push_back(code);
  }
  return out;
}

ShipOrders FromOrderForm(const fb::ShipOrders& f, uint64_t order_seq) {
  ShipOrders o;
  o.ship = f.ship()->str();
  o.order_seq = order_seq;
  o.attach_to = Str(f.attach_to());
  o.detach = f.detach();
  o.sea1 = Str(f.sea1());
  o.sea2 = Str(f.sea2());
  o.port = Str(f.port());
  o.any_enemy_port = f.any_enemy_port();
  o.harbour = f.harbour();
  o.sail_alone = f.sail_alone();
  o.pursue_into_ports = f.pursue_into_ports();
  o.contact = static_cast<Contact>(f.contact());
  o.min_ships = f.min_ships();
  o.max_ships = f.max_ships();
  // PATE 4.6: a ship that evades never approaches allies to join them.
  o.join_allies = f.join_allies() && o.contact != Contact::Evade;
  o.windward = f.gauge() == fb::Gauge_Windward;
  o.engage = static_cast<Engage>(f.engage());
  o.break_line = f.line() == fb::LineOrder_BreakLine;
  o.aim_hull = f.aim() == fb::Aim_Hull;
  o.commerce = static_cast<projections::Mission>(f.commerce());
  o.stores = f.stores();
  if (f.amphibious()) {
    for (const auto* a : *f.amphibious()) o.amphibious.push_back({a->unload(), Str(a->unit()), a->supplies()});
  }
  return o;
}

ShipOrders DefaultOrders(const std::string& ship) {
  // PATE 4.11: stay, keep the attachment, load nothing, accept contact, join
  // allies, accept combat, leeward gauge, line ahead, fire at rigging. The
  // struct's defaults are exactly these.
  ShipOrders o;
  o.ship = ship;
  return o;
}

bool ContactApplies(uint8_t lo, uint8_t hi, int n) {
  if (lo == 0 && hi == 0) return true;
  if (hi == 0) return n >= lo;
  if (lo == 0) return n <= hi;
  if (lo <= hi) return n >= lo && n <= hi;
  return n <= hi || n >= lo;  // PATE 4.6's example: min 10 max 2 → 1, 2, 10, 11
}

Claim ClaimOf(const TreasuryState& s, const FleetState& fleet, const fb::PateOrder& o) {
  Claim c;
  switch (o.body_type()) {
    case fb::PateOrderBody_ShipOrders: {
      std::string ship = o.body_as_ShipOrders()->ship()->str();
      c.state = StateOf(fleet, ship);
      c.roles = ShipRoles(ship);
      c.slot = c.state + "/ship/" + ship;
      break;
    }
    case fb::PateOrderBody_AppointOrder: {
      std::string ship = o.body_as_AppointOrder()->ship()->str();
      c.state = StateOf(fleet, ship);
      c.roles = NavalRoles(c.state);
      c.slot = c.state + "/appoint/" + ship;
      c.immediate = true;
      break;
    }
    case fb::PateOrderBody_ActivationOrder: {
      std::string ship = o.body_as_ActivationOrder()->ship()->str();
      c.state = StateOf(fleet, ship);
      c.roles = NavalRoles(c.state);
      c.slot = c.state + "/activate/" + ship;
      break;
    }
    case fb::PateOrderBody_MoveStoresOrder: {
      auto* m = o.body_as_MoveStoresOrder();
      auto city = s.cities.find(m->from()->str());
      c.state = city == s.cities.end() ? "" : city->second.controller;
      c.roles = NavalRoles(c.state);
      c.slot = c.state + "/stores/" + m->from()->str() + "/" + m->to()->str();
      break;
    }
    case fb::PateOrderBody_TransferCrewOrder: {
      std::string ship = o.body_as_TransferCrewOrder()->from()->str();
      c.state = StateOf(fleet, ship);
      c.roles = ShipRoles(ship);
      c.slot = c.state + "/crew/" + ship;
      break;
    }
    case fb::PateOrderBody_NONE:
      break;
  }
  return c;
}

namespace {

// From rules version 4 a refusal of a place says which the player may have
// meant (PATE 1.4: a misspelt port or sea area; rules/spelling) and, for a
// leg the map does not allow (6.2), where the ship could go instead.
constexpr uint32_t kSuggestsPlaces = 4;

std::string Listed(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

// "; did you mean BIS (Bay of Biscay)?": the sea area nearest `word`, by its
// code or by its name; "" when none is near.
std::string NearArea(const NavalMap& map, const std::string& word) {
  std::vector<std::string> spellings;
  for (const auto& [code, area] : map.areas()) {
    spellings.push_back(code);
    if (!area.name.empty()) spellings.push_back(area.name);
  }
  const std::optional<std::string> near = NearestSpelling(word, spellings);
  if (!near) return "";
  for (const auto& [code, area] : map.areas()) {
    if (*near == code || *near == area.name) {
      return "; did you mean " + code + (area.name.empty() ? "" : " (" + area.name + ")") + "?";
    }
  }
  return "";
}

// "; did you mean 'Toulon'?": the port nearest `word`; "" when none is near.
std::string NearPort(const NavalMap& map, const std::string& word) {
  std::vector<std::string> names;
  for (const auto& [name, port] : map.ports()) names.push_back(name);
  const std::optional<std::string> near = NearestSpelling(word, names);
  return near ? "; did you mean '" + *near + "'?" : "";
}

// "; next to BIS: CHA, IRE and FIN": the areas a leg from `area` may reach
// (6.2), in the compass's order.
std::string NextTo(const NavalMap& map, const std::string& area) {
  const SeaArea* a = map.Area(area);
  if (!a) return "";
  std::vector<std::string> near;
  for (const auto& side : a->neighbours) {
    for (const std::string& n : side) {
      if (std::find(near.begin(), near.end(), n) == near.end()) near.push_back(n);
    }
  }
  return near.empty() ? "" : "; next to " + area + ": " + Listed(near);
}

// "; from BIS a ship enters Ferrol and La Coruna": the ports a leg ending in
// `area` may go into (6.2, 6.3).
std::string EntersFrom(const NavalMap& map, const std::string& area) {
  const std::vector<std::string> ports = map.PortsReachableFrom(area);
  return ports.empty() ? "; no port opens on " + area : "; from " + area + " a ship enters " + Listed(ports);
}

// PATE 6.2-6.4, 6.11: the faults of the route an order form gives a ship
// where she is now (rules version 3): each leg to a neighbouring sea area
// (or across the Atlantic), out of a port only to a sea area it opens on,
// never from one port straight to another, and into a named port only from
// a sea area it opens on. "Any enemy port" is looked for when sailing.
std::vector<Refusal> RouteFaults(const Ship& sh, const NavalMap& map, const std::string& sea1, const std::string& sea2,
                                 const std::string& port, uint32_t version) {
  const bool suggest = version >= kSuggestsPlaces;
  std::vector<Refusal> out;
  // Only a route whose every place is on the map (the names are told apart).
  if ((!sea1.empty() && !map.Area(sea1)) || (!sea2.empty() && (sea1.empty() || !map.Area(sea2))) ||
      (!port.empty() && !map.PortNamed(port))) {
    return out;
  }
  auto crosses = [&](const std::string& a, const std::string& b) {
    const SeaArea* x = map.Area(a);
    const SeaArea* y = map.Area(b);
    if (map.CrossesAtlantic(a, b)) return true;
    // 6.11: frigates name any area of the far map from an edge area.
    return sh.type == ShipType::FR && x && y && x->atlantic && x->map != y->map;
  };
  const Port* here = sh.at_sea() ? nullptr : map.PortNamed(sh.location);
  bool crossing = false;  // the route enters the Atlantic: it ends there this turn
  std::string last = sh.at_sea() ? sh.location : "";
  if (!sea1.empty() && map.Area(sea1)) {
    if (here) {
      if (!map.PortOpensOn(sh.location, sea1)) {
        out.push_back({"PATE 6.4", "sea1: " + sh.location + " opens only on " + here->sea_area +
                                       (here->strait_area.empty() ? "" : " and " + here->strait_area) + ", not " + sea1});
      }
    } else if (sh.at_sea() && sea1 != sh.location) {
      if (crosses(sh.location, sea1)) {
        crossing = true;
      } else if (!map.DirectionTo(sh.location, sea1)) {
        out.push_back({"PATE 6.2", "sea1: " + sea1 + " is not next to " + sh.location +
                                       (suggest ? NextTo(map, sh.location) : "")});
      }
    }
    last = sea1;
  }
  if (!sea2.empty() && !sea1.empty() && map.Area(sea2) && map.Area(sea1) && !crossing) {
    if (crosses(sea1, sea2)) {
      crossing = true;
    } else if (sea2 != sea1 && !map.DirectionTo(sea1, sea2)) {
      out.push_back({"PATE 6.2", "sea2: " + sea2 + " is not next to " + sea1 + (suggest ? NextTo(map, sea1) : "")});
    }
    last = sea2;
  }
  if (!port.empty() && map.PortNamed(port) && !crossing) {
    if (last.empty()) {
      if (here && port != sh.location) {
        out.push_back({"PATE 6.5", "port: a ship sails from " + sh.location + " to " + port +
                                       " only by way of a sea area (no port to port)"});
      }
    } else if (!map.PortOpensOn(port, last)) {
      out.push_back({"PATE 6.2", "port: " + port + " is not entered from " + last + (suggest ? EntersFrom(map, last) : "")});
    }
  }
  return out;
}

// Every fault found in a ship's order form, in the order of the form. From
// rules version 3 the checks go on past the first fault, and the route and
// Evade with Join Allies (4.6) are checked too; before, the first fault
// alone was told.
std::vector<Refusal> ShipOrderFaults(const TreasuryState& s, const FleetState& fleet, const NavalMap* map,
                                     const fb::ShipOrders& f, uint32_t version) {
  const bool all = version >= 3;
  std::vector<Refusal> out;
  std::string id = f.ship()->str();
  const Ship* sh = FindShip(fleet, id);
  if (!sh) return {{"PATE 4.3", "there is no ship '" + id + "'"}};
  if (sh->crossing_turns > 0) {
    return {{"PATE 6.11", id + " is crossing the Atlantic and takes no orders until she arrives"}};
  }
  if (!sh->active) return {{"PATE 2.6", id + " is inactive and takes no orders"}};
  auto fault = [&](Refusal r) {
    out.push_back(std::move(r));
    return !all;  // stop at the first fault before version 3
  };
  std::string to = Str(f.attach_to());
  if (!to.empty()) {
    std::optional<Refusal> r;
    const Ship* t = FindShip(fleet, to);
    if (f.detach()) {
      r = Refusal{"PATE 4.4", "to attach to another ship, give Attach alone, without Detach"};
    } else if (to == id) {
      r = Refusal{"PATE 4.4", "a ship cannot attach to herself"};
    } else if (!t) {
      r = Refusal{"PATE 4.4", "there is no ship '" + to + "' to attach to"};
    } else if (!SamePlace(*sh, *t)) {
      r = Refusal{"PATE 4.4", id + " is not in the same place as " + to};
    } else if (!t->attached_to.empty() && t->attached_to != id) {
      r = Refusal{"PATE 4.4", to + " is itself attached to " + t->attached_to + "; attachment may not form a chain"};
    }
    if (r && fault(*r)) return out;
  }
  std::string sea1 = Str(f.sea1()), sea2 = Str(f.sea2()), port = Str(f.port());
  if (!sea2.empty() && sea1.empty() && fault({"PATE 4.5", "a second sea area needs a first"})) return out;
  if (f.any_enemy_port() && !port.empty() &&
      fault({"PATE 4.5", "name a port or ask for any port with an enemy ship, not both"})) {
    return out;
  }
  if (map) {
    for (const auto& [field, code] : {std::pair{"sea1", sea1}, std::pair{"sea2", sea2}}) {
      if (!code.empty() && !map->Area(code)) {
        if (fault({"PATE 1.4", std::string(field) + ": there is no sea area '" + code + "' (use its three-letter code)" +
                                   (version >= kSuggestsPlaces ? NearArea(*map, code) : "")})) {
          return out;
        }
      }
    }
    if (!port.empty() && !map->PortNamed(port)) {
      if (fault({"PATE 1.4", "port: there is no port '" + port + "' (check the spelling)" +
                                 (version >= kSuggestsPlaces ? NearPort(*map, port) : "")})) {
        return out;
      }
    }
    // 6.12: on a peace or truce turn a ship may be sent anywhere.
    if (all && sow::Next(s).season_kind == projections::SeasonKind::War) {  // unknown names are told above
      for (Refusal& r : RouteFaults(*sh, *map, sea1, sea2, port, version)) out.push_back(std::move(r));
    }
  }
  if (all && f.join_allies() && static_cast<Contact>(f.contact()) == Contact::Evade) {
    out.push_back({"PATE 4.6", "a ship that evades may not join allies: with Evade, set join_allies to false (it is true unless given)"});
  }
  int most = kStoresMax + (sh->type == ShipType::TR ? sh->capacity / 20 : 0);  // PATE 3.4
  if ((f.stores() < -1 || f.stores() > most) &&
      fault({"PATE 3.4", id + " can carry 0 to " + std::to_string(most) + " stores"})) {
    return out;
  }
  if (f.amphibious() && f.amphibious()->size() && sh->type != ShipType::TR &&
      fault({"PATE 4.9", "only transport groups load and unload units and supplies"})) {
    return out;
  }
  return out;
}

// One refusal for all the faults: a lone fault as it is; several in one
// message, each naming its rule, under every rule they cite.
std::optional<Refusal> OneRefusal(const std::vector<Refusal>& faults) {
  if (faults.empty()) return std::nullopt;
  if (faults.size() == 1) return faults.front();
  Refusal r;
  r.reason = std::to_string(faults.size()) + " faults: ";
  for (size_t i = 0; i < faults.size(); ++i) {
    if (r.rule.find(faults[i].rule) == std::string::npos) r.rule += (r.rule.empty() ? "" : ", ") + faults[i].rule;
    r.reason += (i ? "; " : "") + faults[i].reason + " (" + faults[i].rule + ")";
  }
  return r;
}

}  // namespace

std::optional<Refusal> CheckAtSubmission(const TreasuryState& s, const FleetState& fleet, const NavalMap* map, const fb::PateOrder& o,
                                         uint32_t version) {
  switch (o.body_type()) {
    case fb::PateOrderBody_ShipOrders:
      return OneRefusal(ShipOrderFaults(s, fleet, map, *o.body_as_ShipOrders(), version));
    case fb::PateOrderBody_AppointOrder: {
      auto* a = o.body_as_AppointOrder();
      if (!FindShip(fleet, a->ship()->str())) return Refusal{"PATE 2.3", "there is no ship '" + a->ship()->str() + "'"};
      if (Str(a->commander()).empty() && Str(a->deputy()).empty()) {
        return Refusal{"PATE 2.3", "name a commander, a deputy or both"};
      }
      return std::nullopt;  // the persons are checked by the intake, which holds the roster
    }
    case fb::PateOrderBody_ActivationOrder: {
      auto* a = o.body_as_ActivationOrder();
      std::string id = a->ship()->str();
      const Ship* sh = FindShip(fleet, id);
      if (!sh) return Refusal{"PATE 2.6", "there is no ship '" + id + "'"};
      if (sh->type == ShipType::TR) return Refusal{"PATE 2.6", "transport groups cannot be inactivated"};
      if (a->active()) {
        if (sh->active) return Refusal{"PATE 2.6", id + " is already active"};
        if (sh->reactivating > 0) return Refusal{"PATE 2.6", id + " is already being reactivated"};
        return std::nullopt;
      }
      if (!sh->active) return Refusal{"PATE 2.6", id + " is already inactive"};
      auto c = s.cities.find(sh->location);
      const auto* st = s.State(sh->state);
      if (!sh->in_port || c == s.cities.end()) return Refusal{"PATE 2.6", id + " is not in a harbour"};
      if (c->second.kind == projections::CityKind::OffMapPort) {
        return Refusal{"PATE 2.6", "ships are not inactivated in off-map ports"};
      }
      if (!st || c->second.nation != st->nation || c->second.controller != sh->state) {
        return Refusal{"PATE 2.6", "ships are inactivated only in home ports their own state holds"};
      }
      for (const auto& [oid, other] : fleet.ships) {
        if (other.on_map() && other.location == sh->location && !other.at_sea() && Hostile(s, other.state, sh->state)) {
          return Refusal{"PATE 2.6", "hostile ships are present at " + sh->location};
        }
      }
      return std::nullopt;
    }
    case fb::PateOrderBody_MoveStoresOrder: {
      auto* m = o.body_as_MoveStoresOrder();
      for (const auto* p : {m->from(), m->to()}) {
        auto c = s.cities.find(p->str());
        if (c == s.cities.end() || c->second.kind == projections::CityKind::Inland) {
          return Refusal{"PATE 3.5", "there is no port '" + p->str() + "'"};
        }
      }
      if (m->from()->str() == m->to()->str()) return Refusal{"PATE 3.5", "stores move between two different ports"};
      if (m->stores() <= 0 || m->stores() > 60) return Refusal{"PATE 3.5", "a port sends 1 to 60 stores a turn"};
      return std::nullopt;
    }
    case fb::PateOrderBody_TransferCrewOrder: {
      auto* t = o.body_as_TransferCrewOrder();
      const Ship* from = FindShip(fleet, t->from()->str());
      const Ship* to = FindShip(fleet, t->to()->str());
      if (!from || !to) return Refusal{"PATE 2.7", "both ships of a crew transfer must exist"};
      if (from->type == ShipType::FR || from->type == ShipType::TR) {
        return Refusal{"PATE 2.7", "crew cannot be transferred from frigates or transport groups"};
      }
      if (to->type == ShipType::TR) return Refusal{"PATE 2.7", "crew is transferred only between FLs, SLs and FRs"};
      if (t->crew() <= 0) return Refusal{"PATE 2.7", "a transfer moves a positive number of crew"};
      return std::nullopt;  // place, enemies and limits are checked when it is carried out
    }
    case fb::PateOrderBody_NONE:
      break;
  }
  return Refusal{"PATE 4.3", "the order has no body"};
}

std::map<uint64_t, ShipOrders> StandingShipOrders(const TreasuryState& s) {
  std::map<uint64_t, ShipOrders> out;
  for (const auto& [seq, pending] : s.orders) {
    const auto* ev = flatbuffers::GetRoot<fb::Event>(pending.event.data());
    const auto* sub = ev->payload_as_OrderSubmitted();
    if (!sub) continue;
    const auto* po = sub->body_as_PateOrder();
    if (!po || !po->body_as_ShipOrders()) continue;
    out[seq] = FromOrderForm(*po->body_as_ShipOrders(), seq);
  }
  return out;
}

std::set<std::string> SpokenForNumbers(const TreasuryState& s, const projections::Roster& roster) {
  std::set<std::string> out;
  for (const auto& [seq, o] : StandingShipOrders(s)) out.insert(o.ship);
  for (const auto& [ship, posts] : projections::ShipPosts(roster)) out.insert(ship);
  return out;
}

std::string LowestFreeShipId(const TreasuryState& s, const FleetState& fleet, bool units,
                             const std::set<std::string>& spoken, const std::string& state, const std::string& type) {
  for (int n = 1;; ++n) {
    std::string id = state + std::to_string(n) + type;
    if (!fleet.ships.count(id) && !s.builds.count(id) && !(units && s.units.count(id)) && !spoken.count(id)) return id;
  }
}

namespace {

// PATE 4.4: the attachments after every order of the turn, taken in the
// order received, and the attach orders refused because they would chain.
struct AttachmentPlan {
  std::map<uint64_t, Refusal> refused;
  std::map<std::string, std::string> leader;  // follower → leader
};

AttachmentPlan PlanAttachments(const FleetState& fleet, const std::map<uint64_t, ShipOrders>& standing) {
  AttachmentPlan plan;
  auto& leader = plan.leader;
  for (const auto& [id, sh] : fleet.ships) {
    if (!sh.attached_to.empty()) leader[id] = sh.attached_to;
  }
  for (const auto& [seq, o] : standing) {
    if (o.detach) leader.erase(o.ship);
    if (o.attach_to.empty()) continue;
    auto t = leader.find(o.attach_to);
    bool leads = false;
    for (const auto& [follower, l] : leader) leads = leads || (l == o.ship && follower != o.attach_to);
    if (t != leader.end() && t->second != o.ship) {
      plan.refused[seq] = {"PATE 4.4", o.attach_to + " is attached to " + t->second + "; attachment may not form a chain"};
    } else if (leads) {
      plan.refused[seq] = {"PATE 4.4", "ships are attached to " + o.ship + ", which may not itself attach to another"};
    } else {
      if (t != leader.end()) leader.erase(t);  // the two swap: the old leader now follows
      leader[o.ship] = o.attach_to;
    }
  }
  return plan;
}

}  // namespace

std::map<uint64_t, Refusal> AttachmentRefusals(const FleetState& fleet, const std::map<uint64_t, ShipOrders>& standing) {
  return PlanAttachments(fleet, standing).refused;
}

std::map<std::string, ShipOrders> CarriedOut(const FleetState& fleet, const std::map<uint64_t, ShipOrders>& standing) {
  AttachmentPlan plan = PlanAttachments(fleet, standing);
  const auto& refused = plan.refused;
  std::map<std::string, ShipOrders> own;
  for (const auto& [seq, o] : standing) {
    ShipOrders kept = o;
    if (refused.count(seq)) kept.attach_to.clear();  // the rest of the order stands
    own[o.ship] = std::move(kept);                   // one order per ship stands (4.1)
  }
  // Each ship's attachment at the end of the orders (4.4).
  std::map<std::string, std::string>& leader = plan.leader;
  std::map<std::string, ShipOrders> out;
  for (const auto& [id, sh] : fleet.ships) {
    if (!sh.on_map()) continue;
    const std::string& l = leader[id];
    auto mine = own.find(id);
    bool changes = mine != own.end() && (mine->second.detach || (!mine->second.attach_to.empty() &&
                                                                 mine->second.attach_to != sh.attached_to));
    auto theirs = l.empty() ? own.end() : own.find(l);
    if (!changes && theirs != own.end()) {
      // PATE 4.2: the leader's orders, copied; a transport's own amphibious
      // orders are neither replaced nor copied to others.
      ShipOrders c = theirs->second;
      c.ship = id;
      c.copied_from = l;
      c.attach_to = l;
      c.detach = false;
      c.amphibious.clear();
      if (sh.type == ShipType::TR && mine != own.end()) c.amphibious = mine->second.amphibious;
      out[id] = std::move(c);
    } else if (mine != own.end()) {
      out[id] = mine->second;
      out[id].attach_to = l;
    } else {
      out[id] = DefaultOrders(id);
      out[id].attach_to = l;
    }
  }
  return out;
}

}  // namespace adjutant::rules::pate
