#include "rules/sow/orders.h"

#include <algorithm>

#include "rules/sow/calendar.h"
#include "rules/sow/tables.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"

namespace adjutant::rules::sow {

int RoleRank(const std::string& role) {
  if (role == "monarch") return 3;
  if (role == "prime") return 2;
  if (role == "treasury" || role == "war" || role == "naval") return 1;
  return 0;
}

std::vector<std::string> EntitledRoles(const fb::SowOrder& order) {
  // SOW 2.1, 4.1: the Treasury Minister, or the PM or monarch on his behalf.
  std::vector<std::string> roles = {"monarch", "prime", "treasury"};
  if (auto* b = order.body_as_BuySuppliesOrder()) {
    // SOW 6.1: the War Minister may buy supplies, the Naval Minister stores.
    if (b->stores() == 0) roles.push_back("war");
    if (b->supplies() == 0) roles.push_back("naval");
  }
  if (auto* st = order.body_as_StandingSupplyOrder()) {
    (void)st;
    roles.push_back("war");  // standing orders buy supplies only (SOW 6.5)
  }
  return roles;
}

std::string BuyerSlot(const std::string& slot, const std::string& role) {
  const std::string suffix = role.substr(role.rfind('.') + 1);
  return slot + "/" + (suffix == "war" || suffix == "naval" ? suffix : "treasury");
}

std::string SlotOf(const projections::TreasuryState& st, const fb::SowOrder& o) {
  std::string s = o.state()->str() + "/";
  if (auto* b = o.body_as_BuildUnitOrder(); b && b->type() == fb::SowUnitType_MI) {
    auto c = st.cities.find(b->city()->str());
    if (c != st.cities.end() && c->second.controller != o.state()->str()) return s + "militia-in-hostile-city";
  }
  switch (o.body_type()) {
    case fb::SowOrderBody_TransferOrder: return s + "transfer/" + o.body_as_TransferOrder()->to_state()->str();
    case fb::SowOrderBody_BuildUnitOrder: return s + "build/" + o.body_as_BuildUnitOrder()->id()->str();
    case fb::SowOrderBody_BuildShipOrder: return s + "build/" + o.body_as_BuildShipOrder()->id()->str();
    case fb::SowOrderBody_ReinforceOrder: return s + "reinforce/" + o.body_as_ReinforceOrder()->unit()->str();
    case fb::SowOrderBody_DisbandOrder: return s + "disband/" + o.body_as_DisbandOrder()->unit()->str();
    case fb::SowOrderBody_RemoveShipOrder: return s + "remove/" + o.body_as_RemoveShipOrder()->ship()->str();
    case fb::SowOrderBody_BuySuppliesOrder: return s + "buy/" + o.body_as_BuySuppliesOrder()->city()->str();
    case fb::SowOrderBody_StandingSupplyOrder: return s + "standing/" + o.body_as_StandingSupplyOrder()->city()->str();
    case fb::SowOrderBody_RepairOrder: {
      auto* r = o.body_as_RepairOrder();
      return s + "repair/" + r->city()->str() + "/" + fb::EnumNameRepairKind(r->what());
    }
    case fb::SowOrderBody_NONE: break;
  }
  return s + "none";
}

namespace {

using projections::CityKind;
using projections::TreasuryState;
using projections::FleetState;

bool IdTaken(const TreasuryState& s, const FleetState& fleet, const std::string& id) {
  return s.units.count(id) || fleet.ships.count(id) || s.builds.count(id);
}

std::optional<Refusal> CheckCity(const TreasuryState& s, const std::string& state, const std::string& city,
                                 const char* rule) {
  auto c = s.cities.find(city);
  if (c == s.cities.end()) return Refusal{rule, "there is no city '" + city + "'"};
  if (c->second.controller != state) {
    return Refusal{rule, city + " is held by " + c->second.controller + ", not " + state};
  }
  return std::nullopt;
}

}  // namespace

std::optional<Refusal> CheckAtSubmission(const TreasuryState& s, const FleetState& fleet,
                                         const projections::Roster& roster, const fb::SowOrder& o, const Turn& turn,
                                         uint32_t version) {
  std::string st = o.state()->str();
  const projections::StateAcct* acct = s.State(st);
  if (acct == nullptr) return Refusal{"SOW 2.1", "there is no state '" + st + "' in this game"};
  switch (o.body_type()) {
    case fb::SowOrderBody_TransferOrder: {
      auto* t = o.body_as_TransferOrder();
      if (!s.State(t->to_state()->str())) return Refusal{"SOW 2.1", "there is no state '" + t->to_state()->str() + "'"};
      if (t->to_state()->str() == st) return Refusal{"SOW 2.1", "a state cannot transfer money to itself"};
      if (t->amount_cc() <= 0) return Refusal{"SOW 2.1", "a transfer must be of a positive amount"};
      return std::nullopt;
    }
    case fb::SowOrderBody_BuildUnitOrder: {
      auto* b = o.body_as_BuildUnitOrder();
      if (IdTaken(s, fleet, b->id()->str())) return Refusal{"SOW 4.1", "the id " + b->id()->str() + " is already in use"};
      if (b->men() <= 0 && b->type() != fb::SowUnitType_AQ && b->type() != fb::SowUnitType_CQ) {
        return Refusal{"SOW 4.7", "a new unit needs men"};
      }
      auto c = s.cities.find(b->city()->str());
      if (c == s.cities.end()) return Refusal{"SOW 4.3", "there is no city '" + b->city()->str() + "'"};
      bool home = c->second.nation == acct->nation;
      if (!home) return Refusal{"SOW 4.3", "units are raised only in cities of the state's own nation (" + acct->nation + ")"};
      // SOW 4.3: militia may be raised in a home city a hostile state holds;
      // since rules version 5 only a hostile one (at war with the state):
      // version 4 took any other holder, an ally or a neutral too.
      if (c->second.controller != st && b->type() != fb::SowUnitType_MI) {
        return Refusal{"SOW 4.3", b->city()->str() + " is held by " + c->second.controller + ", not " + st};
      }
      if (c->second.controller != st && version >= 5 &&
          s.RelationOf(st, c->second.controller) != projections::Relation::War) {
        return Refusal{"SOW 4.3", b->city()->str() + " is held by " + c->second.controller +
                                      ", which is not hostile to " + st + ": militia are raised only in a home "
                                      "city " + st + " or a hostile state holds"};
      }
      return std::nullopt;
    }
    case fb::SowOrderBody_BuildShipOrder: {
      auto* b = o.body_as_BuildShipOrder();
      if (IdTaken(s, fleet, b->id()->str())) return Refusal{"SOW 4.1", "the id " + b->id()->str() + " is already in use"};
      if (version >= kBuildNumberVersion) {
        const auto posts = projections::ShipPosts(roster);
        if (auto it = posts.find(b->id()->str()); it != posts.end()) {
          return Refusal{"SOW 4.1", "the id " + b->id()->str() + " is spoken for: " + projections::PostsHeld(it->second) +
                                        " (PATE 2.3: no ship has this number, but the ship built would take the posts "
                                        "held on it); name another number, or ask the GA to withdraw those posts"};
        }
      }
      if (auto r = CheckCity(s, st, b->port()->str(), "SOW 4.3")) return r;
      if (s.cities.at(b->port()->str()).kind != CityKind::Port) {
        return Refusal{"SOW 4.3", "ships and transports are built only in on-map ports, and " + b->port()->str() +
                                      " is not one"};
      }
      if (b->type() == fb::SowShipType_TR && b->capacity() <= 0) return Refusal{"SOW 3.3", "a transport needs capacity"};
      if (b->type() == fb::SowShipType_FR && b->frigates() == 0) return Refusal{"SOW 3.1", "a frigate group needs frigates"};
      return std::nullopt;
    }
    case fb::SowOrderBody_ReinforceOrder: {
      auto* r = o.body_as_ReinforceOrder();
      std::string id = r->unit()->str();
      auto u = s.units.find(id);
      auto sh = fleet.ships.find(id);
      if (u == s.units.end() && sh == fleet.ships.end()) return Refusal{"SOW 4.8", "there is no unit or ship '" + id + "'"};
      const std::string& owner = u != s.units.end() ? u->second.state : sh->second.state;
      if (owner != st) return Refusal{"SOW 4.8", id + " belongs to " + owner + ", not " + st};
      if (r->men() < 0 || (r->men() == 0 && r->batteries() == 0)) return Refusal{"SOW 4.8", "a reinforcement adds men or batteries"};
      // Campaign turns after the first are war turns whatever the plan says.
      if (u != s.units.end() && turn.step > 1 && turn.step != kSeasonEndStep) {
        return Refusal{"SOW 4.8", "soldiers join units only on peace or truce turns and on turn 1 of a campaign"};
      }
      return std::nullopt;
    }
    case fb::SowOrderBody_DisbandOrder: {
      std::string id = o.body_as_DisbandOrder()->unit()->str();
      auto u = s.units.find(id);
      if (u == s.units.end()) return Refusal{"SOW 4.9", "there is no unit '" + id + "'"};
      if (u->second.state != st) return Refusal{"SOW 4.9", id + " belongs to " + u->second.state + ", not " + st};
      return std::nullopt;
    }
    case fb::SowOrderBody_RemoveShipOrder: {
      std::string id = o.body_as_RemoveShipOrder()->ship()->str();
      auto sh = fleet.ships.find(id);
      if (sh == fleet.ships.end()) return Refusal{"SOW 4.10", "there is no ship '" + id + "'"};
      if (sh->second.state != st) return Refusal{"SOW 4.10", id + " belongs to " + sh->second.state + ", not " + st};
      return std::nullopt;
    }
    case fb::SowOrderBody_BuySuppliesOrder: {
      auto* b = o.body_as_BuySuppliesOrder();
      if (auto r = CheckCity(s, st, b->city()->str(), "SOW 6.1")) return r;
      if (b->supplies() < 0 || b->stores() < 0 || (b->supplies() == 0 && b->stores() == 0)) {
        return Refusal{"SOW 6.2", "a purchase is of a positive number of supplies or stores"};
      }
      CityKind kind = s.cities.at(b->city()->str()).kind;
      if (b->stores() > 0 && kind == CityKind::OffMapPort) return Refusal{"SOW 6.6", "stores cannot be bought in off-map ports"};
      if (b->stores() > 0 && kind == CityKind::Inland) return Refusal{"SOW 6.3", "stores are bought only in port cities"};
      return std::nullopt;
    }
    case fb::SowOrderBody_StandingSupplyOrder: {
      auto* b = o.body_as_StandingSupplyOrder();
      if (auto r = CheckCity(s, st, b->city()->str(), "SOW 6.5")) return r;
      if (b->supplies() < 0 || b->forward() < 0) return Refusal{"SOW 6.5", "standing orders are of zero or more supplies"};
      if (b->forward_to() && b->forward_to()->size() && !s.cities.count(b->forward_to()->str())) {
        return Refusal{"SOW 6.5", "there is no city '" + b->forward_to()->str() + "' to forward to"};
      }
      return std::nullopt;
    }
    case fb::SowOrderBody_RepairOrder: {
      auto* r = o.body_as_RepairOrder();
      if (auto ref = CheckCity(s, st, r->city()->str(), "SOW 7.1")) return ref;
      const auto& c = s.cities.at(r->city()->str());
      if (r->what() == fb::RepairKind_Fort && c.fort_level >= c.fort_start) {
        return Refusal{"SOW 7.1", "the fort of " + c.name + " is at its starting level; forts are never raised above it"};
      }
      if (r->what() == fb::RepairKind_Battery && c.batteries_damaged == 0 && c.batteries_destroyed == 0) {
        return Refusal{"SOW 7.1", c.name + " has no damaged or destroyed coastal battery; new ones may not be built"};
      }
      return std::nullopt;
    }
    case fb::SowOrderBody_NONE:
      break;
  }
  return Refusal{"SOW 2.1", "the order has no body"};
}

}  // namespace adjutant::rules::sow
