#include "rules/pate/directives.h"

#include <algorithm>
#include <set>

#include "rules/pate/orders.h"
#include "rules/pate/tables.h"
#include "rules/sow/outcomes.h"
#include "schema/event_generated.h"

namespace adjutant::rules::pate {

using projections::Ship;
using projections::ShipType;
using projections::TreasuryState;
using projections::FleetState;

namespace {

using Fbb = flatbuffers::FlatBufferBuilder;

const Ship* Find(const FleetState& fleet, const std::string& id) {
  auto it = fleet.ships.find(id);
  return it == fleet.ships.end() ? nullptr : &it->second;
}

// PATE 2.2: STATE, a number without leading zeros, the type.
bool IdForm(const std::string& id, const std::string& state, const std::string& type) {
  if (id.size() <= state.size() + type.size() || id.compare(0, state.size(), state) != 0 ||
      id.compare(id.size() - type.size(), type.size(), type) != 0) {
    return false;
  }
  std::string n = id.substr(state.size(), id.size() - state.size() - type.size());
  return !n.empty() && n[0] != '0' && n.find_first_not_of("0123456789") == std::string::npos;
}

// PATE 9 / 2.7 / 3.4: the space a transport group's cargo, extra crew and
// extra stores take (as the amphibious phases count it).
int64_t Used(const TreasuryState& s, const Ship& tr) {
  int64_t used = int64_t{tr.cargo_supplies} * 100;
  for (const auto& u : tr.cargo_units) {
    auto it = s.units.find(u);
    if (it != s.units.end()) used += it->second.men;
  }
  return used;
}

void Emit(PhaseWriter& w, const TurnPhase& at, std::function<std::pair<fb::PateEventBody, flatbuffers::Offset<void>>(Fbb&)> body) {
  Draft d;
  d.at = at;
  d.payload = [body = std::move(body)](Fbb& f) {
    auto [type, off] = body(f);
    return PayloadRef{fb::Payload_PateEvent, fb::CreatePateEvent(f, type, off).o};
  };
  w.Emit(std::move(d));
}

// The new ship's posts are the old one's (2.3).
void SamePosts(PhaseWriter& w, const TurnPhase& at, const std::string& from, const std::string& to) {
  std::string commander, deputy;
  for (const auto& [person, p] : w.roster().persons()) {
    if (p.roles.count(from + ".commander")) commander = person;
    if (p.roles.count(from + ".deputy")) deputy = person;
  }
  if (commander.empty() && deputy.empty()) return;
  Emit(w, at, [=](Fbb& f) {
    auto x = fb::CreateCommandAssignedDirect(f, to.c_str(), commander.c_str(), deputy.c_str(), 0);
    return std::pair{fb::PateEventBody_CommandAssigned, x.Union()};
  });
}

}  // namespace

Status CheckDirective(const TreasuryState& s, const FleetState& fleet, const projections::Roster& roster,
                      const fb::PateDirective& d, uint32_t version) {
  auto bad = [](const std::string& m) { return Status::InvalidArgument(m); };
  switch (d.body_type()) {
    case fb::PateDirectiveBody_CombineTransports: {
      auto* c = d.body_as_CombineTransports();
      const Ship* into = Find(fleet, c->into()->str());
      if (!into || into->type != ShipType::TR) return bad("into: there is no transport group '" + c->into()->str() + "' (PATE 2.5)");
      if (!c->from() || c->from()->size() == 0) return bad("from: name the transport groups to combine (PATE 2.5)");
      int64_t capacity = into->capacity;
      std::set<std::string> seen{into->id};
      for (flatbuffers::uoffset_t i = 0; i < c->from()->size(); ++i) {
        std::string id = c->from()->Get(i)->str();
        std::string field = "from[" + std::to_string(i) + "]";
        const Ship* t = Find(fleet, id);
        if (!t || t->type != ShipType::TR) return bad(field + ": there is no transport group '" + id + "' (PATE 2.5)");
        if (!seen.insert(id).second) return bad(field + ": " + id + " is named twice");
        if (t->state != into->state) return bad(field + ": " + id + " belongs to " + t->state + ", not " + into->state + " (PATE 2.5)");
        if (!SamePlace(*t, *into)) return bad(field + ": " + id + " is not in contact with " + into->id + " (PATE 2.5)");
        if (!t->loading.empty() || !into->loading.empty()) return bad(field + ": loading or unloading is under way");
        capacity += t->capacity;
      }
      if (capacity > kTransportCapacityMax) {
        return bad("the combined capacity would be " + std::to_string(capacity) + ", over 20000 (PATE 2.5)");
      }
      return Status::Ok();
    }
    case fb::PateDirectiveBody_DivideTransport: {
      auto* x = d.body_as_DivideTransport();
      const Ship* t = Find(fleet, x->ship()->str());
      if (!t || t->type != ShipType::TR) return bad("ship: there is no transport group '" + x->ship()->str() + "' (PATE 2.5)");
      std::string id = x->new_id()->str();
      if (!IdForm(id, t->state, "TR")) return bad("new_id: '" + id + "' is not " + t->state + ", a number and TR (PATE 2.4)");
      if (fleet.ships.count(id) || s.builds.count(id)) return bad("new_id: " + id + " is already in use");
      if (version >= kDivideNumberVersion) {
        if (s.units.count(id)) return bad("new_id: " + id + " is a land unit's id (PATE 2.5)");
        const auto posts = projections::ShipPosts(roster);
        if (auto it = posts.find(id); it != posts.end()) {
          std::string withdraw;
          for (const auto& post : it->second) {
            withdraw += (withdraw.empty() ? "" : ", ") + ("`adjutant role GAME --person " + post.person + " --withdraw " +
                                                         post.role + "`");
          }
          return bad("new_id: " + id + " is spoken for: " + projections::PostsHeld(it->second) +
                     ", and the new group would take the posts held on her number (PATE 2.5, 2.3); choose another "
                     "number, or withdraw them first: " + withdraw);
        }
        if (SpokenForNumbers(s, roster).count(id)) {
          return bad("new_id: " + id + " is spoken for: a ship order standing this turn names it, and the new group "
                     "would carry it out (PATE 2.5, 4.1); choose another number, or divide after the turn");
        }
      }
      if (x->capacity() < kTransportCapacityMin || t->capacity - x->capacity() < kTransportCapacityMin) {
        return bad("capacity: both groups must keep at least 2000 (PATE 2.5); " + t->id + " has " + std::to_string(t->capacity));
      }
      if (Used(s, *t) > t->capacity - x->capacity()) {
        return bad("capacity: " + t->id + "'s cargo would not fit in what she keeps");
      }
      if (!t->loading.empty()) return bad("ship: loading or unloading is under way");
      return Status::Ok();
    }
    case fb::PateDirectiveBody_SeizeInactive: {
      auto* x = d.body_as_SeizeInactive();
      const Ship* sh = Find(fleet, x->ship()->str());
      std::string by = x->by()->str();
      if (!sh) return bad("ship: there is no ship '" + x->ship()->str() + "'");
      if (sh->active) return bad("ship: " + sh->id + " is active; only inactive ships are seized (PATE 2.6)");
      if (!s.State(by)) return bad("by: there is no state '" + by + "'");
      if (s.RelationOf(by, sh->state) != projections::Relation::War) return bad("by: " + by + " is not at war with " + sh->state);
      auto c = s.cities.find(sh->location);
      if (c == s.cities.end()) return bad("ship: " + sh->id + " is not in a port");
      bool taken = c->second.controller == by;
      // PATE 2.6: a battery that can still fire defends the harbour. The
      // city counts its intact and its damaged batteries apart; before rules
      // version 3 this compared the intact ones with the destroyed ones, so a
      // harbour with only damaged batteries (or more destroyed than intact)
      // counted as undefended.
      const auto& city = c->second;
      bool entered = false, defended = version >= 3 ? city.batteries + city.batteries_damaged > 0
                                                    : city.batteries > city.batteries_destroyed;
      for (const auto& [id, o] : fleet.ships) {
        if (!o.on_map() || o.location != sh->location || !o.in_port) continue;
        if (o.state == by) entered = true;
        if (o.state == sh->state || s.RelationOf(o.state, sh->state) == projections::Relation::Alliance) defended = true;
      }
      if (!taken && !(entered && !defended)) {
        return bad("ship: " + sh->location + " is neither taken by " + by + " nor entered by its ships unopposed (PATE 2.6)");
      }
      return Status::Ok();
    }
    case fb::PateDirectiveBody_NONE:
      break;
  }
  return bad("the directive has no body");
}

void DirectiveConsequences(PhaseWriter& w, const TurnPhase& at, const fb::PateDirective& d) {
  const TreasuryState& s = w.treasury();
  const FleetState& fleet = w.fleet();
  switch (d.body_type()) {
    case fb::PateDirectiveBody_CombineTransports: {
      auto* c = d.body_as_CombineTransports();
      const Ship into = *Find(fleet, c->into()->str());
      std::vector<std::string> from;
      int32_t capacity = into.capacity, crew = into.crew;
      int stores = into.stores;
      for (const auto* id : *c->from()) {
        const Ship& t = *Find(fleet, id->str());
        from.push_back(t.id);
        capacity += t.capacity;
        crew += t.crew;
        stores += t.stores;
      }
      // Stores beyond what the group carries (3.4) go back to her port, if any.
      int most = kStoresMax + capacity / 20;
      int kept = std::min(stores, most);
      std::string name = into.id;
      Emit(w, at, [=](Fbb& f) {
        std::vector<flatbuffers::Offset<flatbuffers::String>> ids;
        for (const auto& id : from) ids.push_back(f.CreateString(id));
        auto x = fb::CreateTransportsCombined(f, f.CreateString(name), f.CreateVector(ids), capacity, crew,
                                              static_cast<uint16_t>(kept));
        return std::pair{fb::PateEventBody_TransportsCombined, x.Union()};
      });
      break;
    }
    case fb::PateDirectiveBody_DivideTransport: {
      auto* x = d.body_as_DivideTransport();
      const Ship t = *Find(fleet, x->ship()->str());
      std::string id = x->new_id()->str(), from = t.id;
      int32_t capacity = x->capacity();
      int32_t crew = static_cast<int32_t>(int64_t{t.crew} * capacity / t.capacity);
      uint16_t stores = static_cast<uint16_t>(int64_t{t.stores} * capacity / t.capacity);
      Emit(w, at, [=](Fbb& f) {
        auto y = fb::CreateTransportDividedDirect(f, from.c_str(), id.c_str(), capacity, crew, stores);
        return std::pair{fb::PateEventBody_TransportDivided, y.Union()};
      });
      SamePosts(w, at, from, id);
      break;
    }
    case fb::PateDirectiveBody_SeizeInactive: {
      auto* x = d.body_as_SeizeInactive();
      const Ship sh = *Find(fleet, x->ship()->str());
      std::string by = x->by()->str(), id = sh.id;
      int32_t men = static_cast<int32_t>(sh.men());
      sow::Outcomes out(w, at);
      if (x->destroy()) {
        Emit(w, at, [=](Fbb& f) {
          auto y = fb::CreateShipSunkDirect(f, id.c_str(), "PATE 2.6", men, ("destroyed by " + by).c_str());
          return std::pair{fb::PateEventBody_ShipSunk, y.Union()};
        });
      } else {
        const std::set<std::string> spoken = w.rules_versions().Of(kRuleset) >= kPrizeNumberVersion
                                                 ? SpokenForNumbers(s, w.roster())
                                                 : std::set<std::string>{};
        std::string new_id =
            LowestFreeShipId(s, fleet, /*units=*/true, spoken, by,
                             fb::EnumNameSowShipType(static_cast<fb::SowShipType>(sh.type)));
        std::string where = sh.location;
        Emit(w, at, [=](Fbb& f) {
          auto y = fb::CreateShipCapturedDirect(f, id.c_str(), new_id.c_str(), by.c_str(), where.c_str(), 0, men);
          return std::pair{fb::PateEventBody_ShipCaptured, y.Union()};
        });
      }
      if (men > 0) out.Lost(sh.state, men, "PATE 2.6", id);
      break;
    }
    case fb::PateDirectiveBody_NONE:
      break;
  }
}

}  // namespace adjutant::rules::pate
