#include "rules/pate/phases.h"

#include <algorithm>
#include <set>

#include "rules/pate/combat.h"
#include "rules/pate/orders.h"
#include "rules/pate/tables.h"
#include "rules/sow/calendar.h"
#include "rules/sow/economy.h"
#include "rules/sow/outcomes.h"
#include "schema/event_generated.h"

namespace adjutant::rules::pate {

using projections::CargoOp;
using projections::City;
using projections::Mission;
using projections::Relation;
using projections::SeasonKind;
using projections::Ship;
using projections::ShipType;
using projections::TreasuryState;

namespace {

using Fbb = flatbuffers::FlatBufferBuilder;
using Body = std::pair<fb::PateEventBody, flatbuffers::Offset<void>>;

flatbuffers::Offset<flatbuffers::String> S(Fbb& f, const std::string& s) {
  return s.empty() ? flatbuffers::Offset<flatbuffers::String>() : f.CreateString(s);
}

Compass Opposite(Compass c) { return static_cast<Compass>((static_cast<int>(c) + 2) % 4); }

const char* kCompassNames[] = {"north", "east", "south", "west"};
const char* kStrengthNames[] = {"light", "moderate", "heavy"};

// Where a ship is, as contact (5.1) and movement see it.
struct Place {
  std::string location;
  fb::PortPart part = fb::PortPart_Sea;
  uint8_t tactical = 0;
  friend auto operator<=>(const Place&, const Place&) = default;
};

Place PlaceOf(const Ship& s) {
  fb::PortPart part = s.in_port ? fb::PortPart_Harbour : s.coastal ? fb::PortPart_Coastal : fb::PortPart_Sea;
  return {s.location, part, part == fb::PortPart_Sea ? s.tactical : uint8_t{0}};
}

std::string Describe(const Place& p) {
  if (p.part == fb::PortPart_Harbour) return p.location + " (harbour)";
  if (p.part == fb::PortPart_Coastal) return p.location + " (coastal waters)";
  return p.location + " (tactical area " + std::to_string(p.tactical) + ")";
}

// PATE 5.1: in contact — the same port, whatever part, or the same tactical
// area of the same sea area.
bool InContact(const Ship& a, const Ship& b) {
  if (!a.on_map() || !b.on_map() || a.location != b.location) return false;
  if (a.at_sea() != b.at_sea()) return false;
  return !a.at_sea() || a.tactical == b.tactical;
}

fb::SowShipType FbType(ShipType t) { return static_cast<fb::SowShipType>(t); }

// The emitter of one pate phase: each call builds one event naming its rule
// and folds it at once; rolls are recorded as DieRolled events.
class Pate {
 public:
  Pate(PhaseWriter& w, const TurnPhase& at, const NavalMap& map, DiceSource& dice, SeasonKind kind)
      : w_(w), at_(at), map_(map), dice_(dice), kind_(kind), sow_(w, at) {}

  const TreasuryState& s() const { return w_.treasury(); }
  const NavalMap& map() const { return map_; }
  const TurnPhase& at() const { return at_; }
  SeasonKind kind() const { return kind_; }
  sow::Outcomes& sow() { return sow_; }

  const Ship* ship(const std::string& id) const {
    auto it = s().ships.find(id);
    return it == s().ships.end() ? nullptr : &it->second;
  }
  const City* city(const std::string& name) const {
    auto it = s().cities.find(name);
    return it == s().cities.end() ? nullptr : &it->second;
  }
  bool Friendly(const std::string& a, const std::string& b) const {
    return a == b || s().RelationOf(a, b) == Relation::Alliance;
  }
  bool Hostile(const std::string& a, const std::string& b) const {
    return a != b && s().RelationOf(a, b) == Relation::War;
  }
  // The ids of the ships on the map, in id order (a copy: events change the map).
  std::vector<std::string> OnMap() const {
    std::vector<std::string> out;
    for (const auto& [id, sh] : s().ships) {
      if (sh.on_map()) out.push_back(id);
    }
    return out;
  }
  // PATE 1.4: the wind in a sea area, or in a port (its connected area's).
  projections::Wind WindAt(const std::string& location) const {
    std::string area = location;
    if (const Port* p = map_.PortNamed(location)) area = p->sea_area;
    auto it = s().winds.find(area);
    return it == s().winds.end() ? projections::Wind{} : it->second;
  }
  // Enemy ships of `state` in port `port` (either part), or in the place.
  bool EnemiesInPort(const std::string& port, const std::string& state, int part = -1) const {
    for (const auto& [id, o] : s().ships) {
      if (!o.on_map() || o.location != port || o.at_sea() || !Hostile(o.state, state)) continue;
      if (part < 0 || PlaceOf(o).part == part) return true;
    }
    return false;
  }

  Result<uint32_t> Die(const std::string& subject, const std::string& purpose, const std::string& rule,
                        uint32_t sides) {
    RollRequest req{at_, subject, purpose, rule, sides, 1};
    auto r = dice_.Next(req);
    if (!r.ok()) return r.status();
    Record(*r);
    return r->results.at(0);
  }
  void Record(const Roll& r) {
    Draft d = DieRolledDraft(r, Actor{});
    Tag(d);
    w_.Emit(std::move(d));
  }
  // A percentage chance: rolled unless certain or impossible.
  Result<bool> Chance(const std::string& subject, const std::string& purpose, const std::string& rule, int pct) {
    if (pct <= 0) return false;
    if (pct >= 100) return true;
    auto r = Die(subject, purpose, rule, 100);
    if (!r.ok()) return r.status();
    return static_cast<int>(*r) <= pct;
  }

  template <class F>
  void Emit(F body) {
    Draft d;
    d.at = at_;
    Tag(d);
    d.payload = [body = std::move(body)](Fbb& f) {
      auto [type, off] = body(f);
      auto e = fb::CreatePateEvent(f, type, off);
      return PayloadRef{fb::Payload_PateEvent, e.o};
    };
    w_.Emit(std::move(d));
  }

  void Moved(const std::string& ship, const Place& to, const std::string& rule, const std::string& detail,
             uint8_t crossing = 0, std::optional<bool> windward = std::nullopt) {
    const Ship* sh = this->ship(ship);
    bool ww = windward ? *windward : (sh && sh->windward && PlaceOf(*sh) == to);
    Emit([=](Fbb& f) -> Body {
      auto x = fb::CreateShipMovedDirect(f, ship.c_str(), to.location.c_str(), to.part, to.tactical, rule.c_str(),
                                         detail.empty() ? nullptr : detail.c_str(), crossing, ww);
      return {fb::PateEventBody_ShipMoved, x.Union()};
    });
  }
  void Failed(const std::string& ship, const std::string& rule, const std::string& reason) {
    Emit([=](Fbb& f) -> Body {
      return {fb::PateEventBody_MoveFailed, fb::CreateMoveFailedDirect(f, ship.c_str(), rule.c_str(), reason.c_str()).Union()};
    });
  }
  // The ship's ratings as `after`, with the port stores drawn (+) or given back (−).
  void Rated(const Ship& after, const std::string& rule, const std::string& detail, const std::string& port = "",
             int port_stores = 0) {
    Ship a = after;
    Emit([=](Fbb& f) -> Body {
      auto x = fb::CreateShipRated(f, f.CreateString(a.id), f.CreateString(rule), S(f, detail), a.hull, a.rigging,
                                   a.stores, a.experience, a.crew, a.marines, S(f, port), port_stores);
      return {fb::PateEventBody_ShipRated, x.Union()};
    });
  }
  void Attached(const std::string& ship, const std::string& to, const std::string& rule, uint64_t order_seq = 0) {
    Emit([=](Fbb& f) -> Body {
      auto x = fb::CreateShipAttachedDirect(f, ship.c_str(), to.empty() ? nullptr : to.c_str(), rule.c_str(), order_seq);
      return {fb::PateEventBody_ShipAttached, x.Union()};
    });
  }
  void Observe(const std::string& observer, fb::ObservationKind kind, const std::string& location,
               std::vector<std::string> seen, int count, bool windward, bool harbour, const std::string& text,
               const std::string& rule, const std::string& state = "") {
    Emit([=](Fbb& f) -> Body {
      std::vector<flatbuffers::Offset<flatbuffers::String>> ids;
      for (const auto& id : seen) ids.push_back(f.CreateString(id));
      auto x = fb::CreateObserved(f, f.CreateString(observer), kind, f.CreateString(location), f.CreateVector(ids),
                                  count, windward, harbour, S(f, text), f.CreateString(rule), S(f, state));
      return {fb::PateEventBody_Observed, x.Union()};
    });
  }
  void Sunk(const std::string& ship, const std::string& rule, const std::string& detail) {
    const Ship* sh = this->ship(ship);
    if (!sh) return;
    LoseCargo(ship, rule);  // before the ship (and the troops aboard) leave the state
    int32_t men = static_cast<int32_t>(sh->men());
    std::string state = sh->state;
    Emit([=](Fbb& f) -> Body {
      auto x = fb::CreateShipSunkDirect(f, ship.c_str(), rule.c_str(), men, detail.c_str());
      return {fb::PateEventBody_ShipSunk, x.Union()};
    });
    if (men > 0) sow_.Lost(state, men, rule, ship);
  }
  // PATE 9: the troops aboard a ship sunk or taken are lost to their state
  // (the fold removes them with the ship).
  void LoseCargo(const std::string& ship, const std::string& rule) {
    for (const auto& [uid, u] : std::map<std::string, projections::Unit>(s().units)) {
      if (u.aboard == ship && u.men > 0) sow_.Lost(u.state, u.men, rule, uid);
    }
  }
  void Rejected(uint64_t seq, const std::string& rule, const std::string& reason) { sow_.Rejected(seq, rule, reason); }
  DiceSource& DiceRef() { return dice_; }
  PhaseWriter& Writer() { return w_; }

 private:
  void Tag(Draft& d) const {
    d.ruleset = kRuleset;
    d.rules_version = kRulesVersion;
  }
  PhaseWriter& w_;
  TurnPhase at_;
  const NavalMap& map_;
  DiceSource& dice_;
  SeasonKind kind_;
  sow::Outcomes sow_;
};

#define PATE_TRY(var, expr)              \
  auto var##_r = (expr);                 \
  if (!var##_r.ok()) return var##_r.status(); \
  auto var = *var##_r

// The pending PATE orders of one kind, by seq.
template <class T>
std::vector<std::pair<uint64_t, const T*>> Pending(const TreasuryState& s, fb::PateOrderBody type) {
  std::vector<std::pair<uint64_t, const T*>> out;
  for (const auto& [seq, p] : s.orders) {
    const auto* sub = flatbuffers::GetRoot<fb::Event>(p.event.data())->payload_as_OrderSubmitted();
    const fb::PateOrder* po = sub ? sub->body_as_PateOrder() : nullptr;
    if (po && po->body_type() == type) out.emplace_back(seq, static_cast<const T*>(po->body()));
  }
  return out;
}

// Does a ship with these orders sail out of her port this turn (3.3)?
bool SailsOut(const Ship& sh, const ShipOrders& o) {
  if (!o.sea1.empty()) return true;
  return (!o.port.empty() && o.port != sh.location) || o.any_enemy_port;
}

// ---- 3.3 repair, 2.6 activation, 4.8 commerce ----------------------------------

// PATE 2.8: when a campaign opens (any war season after the game's first
// turn), each ship away from her base is placed on station or at her base,
// the nearer her base the likelier on station; attachments are mended.
Status PlaceForCampaign(Pate& p) {
  std::map<std::string, std::string> leader_before;
  for (const std::string& id : p.OnMap()) {
    const Ship sh = *p.ship(id);
    if (!sh.attached_to.empty()) leader_before[id] = sh.attached_to;
    if (sh.base.empty() || sh.location == sh.base || !p.map().PortNamed(sh.base)) continue;
    int moves = p.map().Distance(sh.location, sh.base);
    if (moves < 0) continue;
    PATE_TRY(on_station, p.Chance(id, "campaign start: on station", "PATE 2.8", OnStationPct(moves)));
    Ship after = sh;
    if (on_station) {
      after.stores = static_cast<uint16_t>(std::min<int>(sh.stores, StoresOnStation(moves)));
      if (after.stores != sh.stores) p.Rated(after, "PATE 2.8", "on station as the campaign opens");
    } else {
      p.Moved(id, {sh.base, fb::PortPart_Harbour, 0}, "PATE 2.8", "at her base as the campaign opens", 0, false);
      after = *p.ship(id);
      after.stores = static_cast<uint16_t>(kStoresCarried);
      p.Rated(after, "PATE 2.8", "full stores at her base as the campaign opens");
    }
  }
  // A ship no longer with the ship she followed follows the first (by id) of
  // that ship's followers now where she is, else none.
  std::map<std::pair<std::string, std::string>, std::string> first_here;  // (leader, place) → new leader
  for (const auto& [id, l] : leader_before) {
    const Ship* sh = p.ship(id);
    const Ship* lead = p.ship(l);
    if (!sh || (lead && InContact(*sh, *lead))) continue;
    std::string place = sh->location + "/" + std::to_string(sh->at_sea() ? sh->tactical : 0);
    auto [it, fresh] = first_here.emplace(std::make_pair(l, place), id);
    p.Attached(id, fresh ? "" : it->second, "PATE 2.8");
  }
  return Status::Ok();
}

Status RunRepair(Pate& p) {
  if (p.kind() == SeasonKind::War && p.at().turn.step == 1 && p.at().turn != p.s().started) {
    ADJ_RETURN_IF_ERROR(PlaceForCampaign(p));
  }
  // PATE 2.6: reactivation counts campaign turns.
  if (p.kind() == SeasonKind::War) {
    for (const auto& [id, sh] : std::map<std::string, Ship>(p.s().ships)) {
      if (sh.active || sh.reactivating == 0) continue;
      uint8_t left = sh.reactivating - 1;
      p.Emit([=](Fbb& f) -> Body {
        auto x = fb::CreateShipActivationDirect(f, id.c_str(), left == 0, left, 0);
        return {fb::PateEventBody_ShipActivation, x.Union()};
      });
    }
  }
  for (const auto& [seq, a] : Pending<fb::ActivationOrder>(p.s(), fb::PateOrderBody_ActivationOrder)) {
    flatbuffers::FlatBufferBuilder probe;  // re-check against the state now
    std::string id = a->ship()->str();
    bool active = a->active();
    auto po = fb::CreatePateOrder(probe, fb::PateOrderBody_ActivationOrder,
                                  fb::CreateActivationOrderDirect(probe, id.c_str(), active).Union());
    probe.Finish(po);
    if (auto r = CheckAtSubmission(p.s(), &p.map(), *flatbuffers::GetRoot<fb::PateOrder>(probe.GetBufferPointer()))) {
      p.Rejected(seq, r->rule, r->reason);
      continue;
    }
    uint8_t wait = active ? kReactivationTurns : 0;
    p.Emit([=](Fbb& f) -> Body {
      auto x = fb::CreateShipActivationDirect(f, id.c_str(), false, wait, seq);
      return {fb::PateEventBody_ShipActivation, x.Union()};
    });
  }
  auto orders = CarriedOut(p.s(), StandingShipOrders(p.s()));
  // PATE 4.8: the commerce orders give the economy its missions (SOW 2.5, 2.7).
  for (const auto& [id, o] : orders) {
    const Ship* sh = p.ship(id);
    if (!sh || o.commerce == Mission::None || o.commerce == sh->mission) continue;
    Mission m = o.commerce;
    uint64_t seq = o.order_seq;
    p.Emit([=](Fbb& f) -> Body {
      auto x = fb::CreateMissionSetDirect(f, id.c_str(), static_cast<fb::ShipMission>(m), seq);
      return {fb::PateEventBody_MissionSet, x.Union()};
    });
  }
  // PATE 4.4: attachments ordered this turn.
  auto refused = AttachmentRefusals(p.s(), StandingShipOrders(p.s()));
  for (const auto& [seq, r] : refused) p.Rejected(seq, r.rule, r.reason);
  for (const auto& [id, o] : orders) {
    const Ship* sh = p.ship(id);
    if (sh && sh->attached_to != o.attach_to) p.Attached(id, o.attach_to, "PATE 4.4", o.order_seq);
  }
  // PATE 3.3: yards repair up to their capacity less the ships they build.
  std::map<std::string, int> yards;
  for (const auto& [name, c] : p.s().cities) yards[name] = c.dockyards;
  for (const auto& [bid, b] : p.s().builds) {
    if (b.is_ship && b.ship.type != ShipType::TR) yards[b.city]--;
  }
  for (const std::string& id : p.OnMap()) {
    Ship sh = *p.ship(id);
    if (sh.hull == 0 && sh.rigging == 0) continue;
    const City* c = p.city(sh.location);
    bool yard = sh.in_port && c && p.Friendly(c->controller, sh.state) && !SailsOut(sh, orders[id]) &&
                yards[sh.location] > 0;
    Ship after = sh;
    std::string detail;
    if (yard) {
      yards[sh.location]--;
      after.hull = sh.hull > 0 ? sh.hull - 1 : 0;
      after.rigging = 0;
      detail = "repaired in " + sh.location + "'s yard";
    } else if (sh.rigging > 0) {
      after.rigging = sh.rigging - 1;
      detail = "repaired one point of rigging";
    } else {
      continue;
    }
    detail += ": hull " + std::to_string(sh.hull) + "→" + std::to_string(after.hull) + ", rigging " +
              std::to_string(sh.rigging) + "→" + std::to_string(after.rigging);
    p.Rated(after, "PATE 3.3", detail);
  }
  return Status::Ok();
}

// ---- 3.4, 3.5 supply; 2.7 crew transfers ------------------------------------

bool AreasTouch(const NavalMap& map, const std::string& a, const std::string& b) {
  return a == b || map.DirectionTo(a, b).has_value();
}

Status RunSupply(Pate& p) {
  // PATE 3.5: the Naval Minister's stores, port to port.
  std::map<std::string, int> sent;
  for (const auto& [seq, m] : Pending<fb::MoveStoresOrder>(p.s(), fb::PateOrderBody_MoveStoresOrder)) {
    std::string from = m->from()->str(), to = m->to()->str();
    int n = m->stores();
    const City* a = p.city(from);
    const City* b = p.city(to);
    const Port* pa = p.map().PortNamed(from);
    const Port* pb = p.map().PortNamed(to);
    std::string state = a ? a->controller : "";
    std::string why;
    if (!a || !b || !pa || !pb) {
      why = "both ports must be ports of the naval map";
    } else if (b->controller != state) {
      why = to + " is held by " + b->controller + ", not " + state;
    } else if (!AreasTouch(p.map(), pa->sea_area, pb->sea_area)) {
      why = from + " and " + to + " are not on the same or adjacent sea areas";
    } else if (sent[from] + n > kStoresMovedMax) {
      why = from + " may send at most " + std::to_string(kStoresMovedMax) + " stores a turn";
    } else if (a->stores < n) {
      why = from + " has only " + std::to_string(a->stores) + " stores";
    } else {
      for (const auto& [id, o] : p.s().ships) {
        bool there = o.location == from || o.location == to || o.location == pa->sea_area || o.location == pb->sea_area;
        if (o.on_map() && there && p.Hostile(o.state, state)) why = "hostile ships (" + id + ") are on the way";
      }
    }
    if (!why.empty()) {
      p.Rejected(seq, "PATE 3.5", why);
      continue;
    }
    sent[from] += n;
    p.Emit([=](Fbb& f) -> Body {
      return {fb::PateEventBody_StoresMoved, fb::CreateStoresMovedDirect(f, from.c_str(), to.c_str(), n, seq).Union()};
    });
  }
  // PATE 2.7: crew transfers between ships in one place, no enemy present.
  for (const auto& [seq, t] : Pending<fb::TransferCrewOrder>(p.s(), fb::PateOrderBody_TransferCrewOrder)) {
    const Ship* a = p.ship(t->from()->str());
    const Ship* b = p.ship(t->to()->str());
    int n = t->crew();
    std::string why;
    if (!a || !b) {
      why = "both ships must still be afloat";
    } else if (!InContact(*a, *b) || PlaceOf(*a).part != PlaceOf(*b).part) {
      why = a->id + " and " + b->id + " are not in the same place (both in harbour, both in coastal waters, or in "
                                      "sight at sea)";
    } else if (a->crew - n < kCrewKeptShip) {
      why = a->id + " would keep fewer than " + std::to_string(kCrewKeptShip) + " crew";
    } else {
      auto full = sow::FullComplement(FbType(b->type), b->frigates, b->capacity);
      if (b->crew + n > full.crew) why = b->id + " can hold at most " + std::to_string(full.crew) + " crew";
      for (const auto& [id, o] : p.s().ships) {
        if (o.on_map() && o.location == a->location && p.Hostile(o.state, a->state) && InContact(o, *a)) {
          why = "enemy ships (" + id + ") are present";
        }
      }
    }
    if (!why.empty()) {
      p.Rejected(seq, "PATE 2.7", why);
      continue;
    }
    Ship from = *a, to = *b;
    from.crew -= n;
    to.crew += n;
    p.Rated(from, "PATE 2.7", std::to_string(n) + " crew sent to " + to.id);
    p.Rated(to, "PATE 2.7", std::to_string(n) + " crew received from " + from.id);
  }
  // PATE 3.4: stores used, loaded and unloaded.
  auto orders = CarriedOut(p.s(), StandingShipOrders(p.s()));
  std::map<std::string, int> reprovisioned;
  for (const std::string& id : p.OnMap()) {
    Ship sh = *p.ship(id);
    const City* c = p.city(sh.location);
    int port_stores = c ? c->stores : 0;
    int drawn = 0;  // from the port (+) or back to it (−)
    Ship after = sh;
    std::vector<std::string> said;
    bool harbour = sh.in_port && c;
    if (harbour && port_stores > 0) {
      drawn += 1;
      said.push_back("used 1 store of " + sh.location);
    } else if (after.stores > 0) {
      after.stores -= 1;
      said.push_back("used 1 store aboard");
    }
    const ShipOrders& o = orders[id];
    bool allied_port = harbour && p.Friendly(c->controller, sh.state);
    if (allied_port && o.stores >= 0) {
      if (o.stores > after.stores) {
        int cap = kReprovisionPerYard * c->dockyards;
        int take = std::min(o.stores - static_cast<int>(after.stores), port_stores - drawn);
        if (take > 0 && reprovisioned[sh.location] < cap) {
          reprovisioned[sh.location]++;
          after.stores += take;
          drawn += take;
          said.push_back("loaded " + std::to_string(take));
        } else if (take > 0) {
          said.push_back(sh.location + " reprovisions no more ships this turn");
        }
      } else if (o.stores < after.stores) {
        int give = after.stores - o.stores;
        after.stores -= give;
        drawn -= give;
        said.push_back("unloaded " + std::to_string(give));
      }
    }
    int lost = 0;
    if (sh.stores == 0 && drawn <= 0 && !(harbour && port_stores > 0)) {
      // PATE 3.4: out of stores, the crew suffers.
      lost = (sh.crew * kNoStoresCrewLossPct + 99) / 100;
      after.crew -= lost;
      said.push_back("no stores: " + std::to_string(lost) + " crew lost");
    }
    std::string detail;
    for (const auto& x : said) detail += (detail.empty() ? "" : "; ") + x;
    p.Rated(after, "PATE 3.4", detail, drawn != 0 ? sh.location : "", drawn);
    if (lost > 0) p.sow().Lost(sh.state, lost, "PATE 3.4", id);
  }
  return Status::Ok();
}

// ---- 3.7, 7 combat ---------------------------------------------------------------

Kind KindOf(ShipType t) { return static_cast<Kind>(t); }

Status RunCombat(Pate& p) {
  auto orders = CarriedOut(p.s(), StandingShipOrders(p.s()));
  // The places where hostile ships are in contact, in order.
  std::map<std::string, std::vector<std::string>> places;  // key: location / tactical
  for (const std::string& id : p.OnMap()) {
    const Ship& sh = *p.ship(id);
    std::string key = sh.location + (sh.at_sea() ? "/" + std::to_string(sh.tactical) : "");
    places[key].push_back(id);
  }
  int battle_no = 0;
  for (const auto& [key, ids] : places) {
    // Sides: the first ship's friends against her enemies (ships neutral to
    // both stay out).
    const Ship first = *p.ship(ids.front());  // a copy: she may be taken or sunk
    std::vector<std::string> side0, side1;
    for (const auto& id : ids) {
      const Ship& sh = *p.ship(id);
      if (p.Friendly(sh.state, first.state)) side0.push_back(id);
      else if (p.Hostile(sh.state, first.state)) side1.push_back(id);
    }
    if (side1.empty()) continue;
    Battle b;
    b.id = "battle " + std::to_string(++battle_no) + " at " + first.location;
    b.at = p.at();
    const Port* port = p.map().PortNamed(first.location);
    // 7.1: in a port, ships in harbour come out when they seek battle, else
    // ships offshore ordered into the harbour go in; otherwise each part fights
    // only those in it.
    b.where = first.at_sea() ? Where::Sea : Where::Coastal;
    if (port) {
      bool harbour_any = false, coastal_any = false, come_out = false, go_in = false;
      for (const auto& id : ids) {
        const Ship& sh = *p.ship(id);
        const ShipOrders& o = orders[id];
        if (sh.in_port) {
          harbour_any = true;
          come_out = come_out || o.engage == Engage::Close || o.contact == Contact::Pursue;
        } else {
          coastal_any = true;
          go_in = go_in || (o.harbour && o.port == first.location && o.engage != Engage::Evade);
        }
      }
      if (harbour_any && !coastal_any) b.where = Where::Harbour;
      else if (harbour_any && coastal_any && !come_out && go_in) b.where = Where::Harbour;
      else b.where = Where::Coastal;
      auto wind = p.WindAt(first.location);
      b.onshore_wind = static_cast<Compass>(wind.from) == port->exit;
    }
    auto in_battle = [&](const Ship& sh) {
      if (b.where == Where::Sea) return true;
      if (b.where == Where::Harbour) return true;  // those offshore came in, or all were in
      return sh.coastal || orders[sh.id].engage == Engage::Close || orders[sh.id].contact == Contact::Pursue;
    };
    int ww0 = 0, ww1 = 0;
    for (int side = 0; side < 2; ++side) {
      for (const auto& id : side == 0 ? side0 : side1) {
        const Ship& sh = *p.ship(id);
        if (!in_battle(sh)) continue;
        const ShipOrders& o = orders[id];
        Combatant c;
        c.id = id;
        c.side = side;
        c.kind = KindOf(sh.type);
        c.frigates = sh.frigates;
        c.crew = sh.crew;
        c.full_crew = static_cast<int32_t>(sow::FullComplement(FbType(sh.type), sh.frigates, sh.capacity).crew);
        c.marines = sh.marines;
        c.quality = sh.quality;
        c.experience = sh.experience;
        c.hull = std::min<uint8_t>(sh.hull, 4);
        c.rigging = sh.rigging;
        int enemies = static_cast<int>((side == 0 ? side1 : side0).size());
        c.evade = o.engage == Engage::Evade || (o.contact == Contact::Evade && ContactApplies(o.min_ships, o.max_ships, enemies));
        c.close = o.engage == Engage::Close;
        c.break_line = o.break_line;
        c.aim_rigging = !o.aim_hull;
        (side == 0 ? ww0 : ww1) += sh.windward ? 1 : 0;
        b.ships.push_back(c);
      }
    }
    bool both = std::any_of(b.ships.begin(), b.ships.end(), [](const Combatant& c) { return c.side == 0; }) &&
                std::any_of(b.ships.begin(), b.ships.end(), [](const Combatant& c) { return c.side == 1; });
    if (!both) continue;
    if (b.where == Where::Sea) b.windward_side = ww0 > ww1 ? 0 : ww1 > ww0 ? 1 : -1;
    if (b.where == Where::Harbour && port) {
      const City* c = p.city(first.location);
      for (int side = 0; side < 2 && c; ++side) {
        const auto& list = side == 0 ? side0 : side1;
        for (const auto& id : list) {
          if (p.Friendly(c->controller, p.ship(id)->state)) b.battery_side = side;
        }
      }
      if (b.battery_side >= 0 && c) {
        b.defence = port->defence;
        b.batteries = c->batteries;
        b.batteries_damaged = std::min(c->batteries_damaged, c->batteries);
      }
      if (b.batteries == 0) b.battery_side = -1;
    }
    auto r = ResolveBattle(b, p.DiceRef());
    if (!r.ok()) return r.status();
    for (const Roll& roll : r->rolls) p.Record(roll);
    if (!r->fought) continue;
    // What every ship in the battle saw.
    std::vector<std::string> all;
    for (const auto& c : b.ships) all.push_back(c.id);
    std::string winner;
    for (const auto& c : b.ships) {
      if (c.side == r->winner && winner.empty()) winner = p.ship(c.id)->state;
    }
    std::string summary = b.id + ": " + (winner.empty() ? std::string("no decision") : "won by " + winner);
    for (const auto& line : r->log) summary += "; " + line;
    for (const auto& c : b.ships) {
      p.Observe(c.id, fb::ObservationKind_Battle, first.location, all, static_cast<int>(all.size()), false,
                b.where == Where::Harbour, summary, "PATE 7");
    }
    // Outcomes, ship by ship.
    for (const ShipResult& res : r->ships) {
      if (!p.ship(res.id)) continue;
      const Ship before = *p.ship(res.id);  // a copy: the events below change the state
      const Ship* now = &before;
      Ship after = before;
      after.hull = std::min<uint8_t>(res.hull, 5);
      after.rigging = res.rigging;
      after.crew = std::max(0, now->crew - res.crew_lost);
      after.marines = std::max(0, now->marines - res.marines_lost);
      after.experience = static_cast<uint16_t>(now->experience + res.experience_gained);
      if (res.sunk) {
        p.Sunk(res.id, "PATE 7.7", "sunk in " + b.id);
        continue;
      }
      if (after.hull != now->hull || after.rigging != now->rigging || after.crew != now->crew ||
          after.marines != now->marines || after.experience != now->experience) {
        p.Rated(after, "PATE 7.7", "after " + b.id);
        int lost = (now->crew - after.crew) + (now->marines - after.marines);
        if (lost > 0) p.sow().Lost(now->state, lost, "PATE 7.7", res.id);
      }
      if (res.escaped || (res.evaded && b.where != Where::Harbour)) {
        // 7.8, 7.4: to another tactical area at sea; out to sea from a port.
        PATE_TRY(t, p.Die(res.id, "escape: tactical area", "PATE 7.8", kTacticalAreas));
        Place to;
        if (now->at_sea()) {
          to = {now->location, fb::PortPart_Sea, static_cast<uint8_t>(t == now->tactical ? (t % kTacticalAreas) + 1 : t)};
        } else {
          to = {port ? port->sea_area : now->location, fb::PortPart_Sea, static_cast<uint8_t>(t)};
        }
        p.Moved(res.id, to, res.escaped ? "PATE 7.8" : "PATE 7.4", res.escaped ? "escaped the battle" : "evaded the battle", 0, false);
      } else if (res.captured) {
        const Ship* captor = p.ship(res.captor);
        if (!captor) continue;
        // 7.8: the lowest free number of her type in the captor's state.
        std::string type = fb::EnumNameSowShipType(FbType(now->type));
        std::string new_id;
        for (int n = 1;; ++n) {
          new_id = captor->state + std::to_string(n) + type;
          if (!p.s().ships.count(new_id) && !p.s().builds.count(new_id)) break;
        }
        auto full = sow::FullComplement(FbType(now->type), now->frigates, now->capacity);
        int32_t prize = std::min<int32_t>(static_cast<int32_t>(full.crew * kPrizeCrewPct / 100),
                                          std::max(0, captor->crew - kCrewKeptShip));
        int32_t men = static_cast<int32_t>(after.men());
        std::string old_state = now->state, id = res.id, cid = captor->id, cstate = captor->state;
        p.LoseCargo(id, "PATE 7.8");
        p.Emit([=](Fbb& f) -> Body {
          auto x = fb::CreateShipCapturedDirect(f, id.c_str(), new_id.c_str(), cstate.c_str(), cid.c_str(), prize, men);
          return {fb::PateEventBody_ShipCaptured, x.Union()};
        });
        if (men > 0) p.sow().Lost(old_state, men, "PATE 7.8", id);
        // The captor's commander and deputy take the prize.
        std::string commander, deputy;
        for (const auto& [person, pr] : p.Writer().roster().persons()) {
          if (pr.roles.count(cid + ".commander")) commander = person;
          if (pr.roles.count(cid + ".deputy")) deputy = person;
        }
        if (!commander.empty() || !deputy.empty()) {
          p.Emit([=](Fbb& f) -> Body {
            auto x = fb::CreateCommandAssignedDirect(f, new_id.c_str(), commander.c_str(), deputy.c_str(), 0);
            return {fb::PateEventBody_CommandAssigned, x.Union()};
          });
        }
      }
    }
  }
  return Status::Ok();
}


// ---- 3.8, 6, 8 movement -------------------------------------------------------

Course CourseOf(Compass heading, const projections::Wind& w) {
  Compass from = static_cast<Compass>(w.from);
  if (heading == from) return Course::Upwind;
  if (heading == Opposite(from)) return Course::Downwind;
  return Course::Across;
}

// Rolls the winds of every sea area (PATE 1.4; 6.5 step 4 for the shift).
Status RollWinds(Pate& p, uint8_t step) {
  for (const auto& [code, area] : p.map().areas()) {
    if (area.winds.empty()) continue;
    PATE_TRY(r, p.Die(code, step == 1 ? "wind" : "wind shift", step == 1 ? "PATE 1.4" : "PATE 6.5", 100));
    int acc = 0;
    Wind chosen = area.winds.back();
    for (const Wind& w : area.winds) {
      acc += w.chance_pct;
      if (static_cast<int>(r) <= acc) {
        chosen = w;
        break;
      }
    }
    uint8_t from = static_cast<uint8_t>(chosen.from), strength = chosen.strength;
    std::string c = code;
    p.Emit([=](Fbb& f) -> Body {
      auto x = fb::CreateWindSetDirect(f, c.c_str(), static_cast<fb::Compass>(from), static_cast<fb::WindStrength>(strength), step);
      return {fb::PateEventBody_WindSet, x.Union()};
    });
  }
  return Status::Ok();
}

// PATE 8 (cut off; read from 1.4 and 3.8): storms after the winds shift.
Status RollStorms(Pate& p) {
  for (const auto& [code, area] : p.map().areas()) {
    auto w = p.WindAt(code);
    PATE_TRY(storm, p.Chance(code, "storm", "PATE 8", kStormPct.at(w.strength)));
    if (!storm) continue;
    for (const std::string& id : p.OnMap()) {
      const Ship* sh = p.ship(id);
      const Port* port = p.map().PortNamed(sh->location);
      bool exposed = (sh->at_sea() && sh->location == code) || (sh->coastal && port && port->sea_area == code);
      if (!exposed) continue;
      PATE_TRY(d, p.Die(id, "storm damage", "PATE 8", 6));
      if (d <= 3) continue;
      Ship after = *sh;
      int points = d == 6 ? 2 : 1;
      after.rigging = std::min<uint8_t>(5, sh->rigging + 1);
      if (d == 6) after.hull = std::min<uint8_t>(5, sh->hull + 1);
      int lost = sh->crew * kStormCrewLossPctPerPoint * points / 100;
      after.crew -= lost;
      if (after.hull >= 5) {
        p.Sunk(id, "PATE 8", "foundered in a storm in " + code);
        continue;
      }
      p.Rated(after, "PATE 8", "storm in " + code + ": " + std::to_string(points) + " point(s) of damage, " +
                                   std::to_string(lost) + " crew lost");
      if (lost > 0) p.sow().Lost(sh->state, lost, "PATE 8", id);
    }
  }
  return Status::Ok();
}

// One ship's progress through the eight steps of 6.5.
struct Progress {
  bool first = false;       // made her first sea move (step 3)
  bool second = false;      // made her second (step 6)
  bool no_second = false;   // lost her second move (6.6)
  bool pursuing = false;    // abandoned her orders to pursue (6.10)
  bool crossing = false;    // entered the Atlantic this turn (6.11)
};

struct Leg {
  Place to;
  Compass heading = Compass::N;
  bool port_move = false;    // into or out of a port (6.6's stricter winds)
  bool cross = false;        // into the Atlantic (6.11)
  std::string via;           // a strait port passed through (6.3)
  std::string rule;
};

class Movement {
 public:
  Movement(Pate& p) : p_(p), orders_(CarriedOut(p.s(), StandingShipOrders(p.s()))) {}

  Status Run() {
    ADJ_RETURN_IF_ERROR(RollWinds(p_, 1));
    ADJ_RETURN_IF_ERROR(Step(1));
    ADJ_RETURN_IF_ERROR(Step(2));
    ADJ_RETURN_IF_ERROR(Step(3));
    ADJ_RETURN_IF_ERROR(RollWinds(p_, 2));  // step 4
    ADJ_RETURN_IF_ERROR(RollStorms(p_));
    ADJ_RETURN_IF_ERROR(Step(5));
    ADJ_RETURN_IF_ERROR(Step(6));
    ADJ_RETURN_IF_ERROR(Arrivals());        // step 7
    return Step(8);
  }

 private:
  // The port a ship's orders send her to from sea area `area`, if any.
  std::string PortTarget(const Ship& sh, const ShipOrders& o, const std::string& area) const {
    if (!o.port.empty()) return p_.map().PortOpensOn(o.port, area) ? o.port : "";
    if (!o.any_enemy_port) return "";
    for (const std::string& port : p_.map().PortsReachableFrom(area)) {
      if (p_.EnemiesInPort(port, sh.state)) return port;
    }
    return "";
  }

  // The leg ship `sh` makes at `step`, if any; a refusal reason otherwise.
  std::optional<Leg> LegOf(int step, const Ship& sh, std::string* why) {
    const ShipOrders& o = orders_[sh.id];
    const Progress& pr = progress_[sh.id];
    if (pr.pursuing || pr.crossing || !o.moves()) return std::nullopt;
    const Port* here = p_.map().PortNamed(sh.location);
    auto enter = [&](const std::string& area) -> std::optional<Leg> {
      std::string target = PortTarget(sh, o, area);
      if (target.empty()) return std::nullopt;
      const Port* port = p_.map().PortNamed(target);
      bool harbour = o.harbour && !p_.EnemiesInPort(target, sh.state);  // 6.8
      Leg l{{target, harbour ? fb::PortPart_Harbour : fb::PortPart_Coastal, 0}, Opposite(port->exit), true, false, "",
            "PATE 6.5"};
      if (port->sea_area != area) l.heading = *p_.map().DirectionTo(area, port->sea_area);  // a strait port
      return l;
    };
    switch (step) {
      case 1: {  // shifting within a port
        if (!here || o.port != sh.location || !o.sea1.empty()) return std::nullopt;
        fb::PortPart want = o.harbour ? fb::PortPart_Harbour : fb::PortPart_Coastal;
        if (PlaceOf(sh).part == want) return std::nullopt;
        if (p_.EnemiesInPort(sh.location, sh.state)) {
          *why = "enemy ships are in " + sh.location + ": no moving between harbour and coastal waters (PATE 6.6)";
          return std::nullopt;
        }
        return Leg{{sh.location, want, 0}, want == fb::PortPart_Harbour ? Opposite(here->exit) : here->exit, false, false,
                   "", "PATE 6.1"};
      }
      case 2:  // into a port of the sea area she is in
        if (!sh.at_sea() || !o.sea1.empty()) return std::nullopt;
        return enter(sh.location);
      case 3:
      case 6: {
        const std::string& dest = step == 3 ? o.sea1 : o.sea2;
        if (dest.empty() || (step == 6 && (!pr.first || pr.no_second))) return std::nullopt;
        if (step == 3 && sh.at_sea() && sh.location == dest) return std::nullopt;  // there already (fled, 7.8)
        if (here) {
          if (!p_.map().PortOpensOn(sh.location, dest)) {
            *why = sh.location + " opens only on " + here->sea_area +
                   (here->strait_area.empty() ? "" : " and " + here->strait_area) + " (PATE 6.4)";
            return std::nullopt;
          }
          if (sh.in_port && p_.EnemiesInPort(sh.location, sh.state, fb::PortPart_Coastal)) {
            *why = "hostile ships are off the coast of " + sh.location + " (PATE 6.4)";
            return std::nullopt;
          }
          Compass heading = dest == here->sea_area ? here->exit : *p_.map().DirectionTo(here->sea_area, dest);
          return Leg{{dest, fb::PortPart_Sea, 0}, heading, true, false, "", "PATE 6.4"};
        }
        bool frigate_cross = sh.type == ShipType::FR && p_.map().Area(sh.location) && p_.map().Area(dest) &&
                             p_.map().Area(sh.location)->atlantic && p_.map().Area(sh.location)->map != p_.map().Area(dest)->map;
        if (p_.map().CrossesAtlantic(sh.location, dest) || frigate_cross) {
          return Leg{{dest, fb::PortPart_Sea, 0}, Compass::W, false, true, "", "PATE 6.11"};
        }
        auto dir = p_.map().DirectionTo(sh.location, dest);
        if (!dir) {
          *why = dest + " is not next to " + sh.location + " (PATE 6.2)";
          return std::nullopt;
        }
        Leg l{{dest, fb::PortPart_Sea, 0}, *dir, false, false, "", "PATE 6.2"};
        for (const auto& [name, port] : p_.map().ports()) {  // 6.3: through a strait port's coastal waters
          if (!port.strait_area.empty() && ((port.sea_area == sh.location && port.strait_area == dest) ||
                                            (port.strait_area == sh.location && port.sea_area == dest))) {
            l.via = name;
          }
        }
        return l;
      }
      case 5:
      case 8: {
        if (!sh.at_sea()) return std::nullopt;
        if (step == 5 && (!pr.first || !o.sea2.empty())) return std::nullopt;
        if (step == 8 && !pr.second) return std::nullopt;
        return enter(sh.location);
      }
    }
    return std::nullopt;
  }

  Status Step(int step) {
    // The movers of this step, grouped: friends in one place with the same
    // movement orders sail together on one roll (6.7), unless sailing alone.
    struct Group {
      std::vector<std::string> ships;
      Leg leg;
    };
    std::vector<Group> groups;
    std::map<std::string, size_t> by_key;
    for (const std::string& id : p_.OnMap()) {
      const Ship& sh = *p_.ship(id);
      std::string why;
      auto leg = LegOf(step, sh, &why);
      if (!leg) {
        // The reason ends with the rule it rests on: "... (PATE 6.2)".
        if (!why.empty()) {
          size_t at = why.rfind("(PATE ");
          std::string rule = at == std::string::npos ? "PATE 6.5" : why.substr(at + 1, why.size() - at - 2);
          p_.Failed(id, rule, why);
        }
        continue;
      }
      const ShipOrders& o = orders_[id];
      Place at = PlaceOf(sh);
      std::string key = at.location + "|" + std::to_string(at.part) + "|" + std::to_string(at.tactical) + "|" +
                        leg->to.location + "|" + std::to_string(leg->to.part) + "|" + o.sea1 + "|" + o.sea2 + "|" +
                        o.port + (o.sail_alone ? "|alone|" + id : "");
      bool placed = false;
      for (size_t n = 0; !placed; ++n) {
        auto it = by_key.find(key + "#" + std::to_string(n));
        if (it == by_key.end()) {
          by_key[key + "#" + std::to_string(n)] = groups.size();
          groups.push_back({{id}, *leg});
          placed = true;
        } else if (p_.Friendly(p_.ship(groups[it->second].ships.front())->state, sh.state)) {
          groups[it->second].ships.push_back(id);
          placed = true;
        }
      }
    }
    // 6.10: enemies in contact with orders to pursue follow a group that
    // sails, abandoning their own orders — decided before anyone moves.
    std::vector<std::vector<std::string>> pursuers(groups.size());
    std::set<std::string> taken;
    for (size_t gi = 0; gi < groups.size() && step != 1; ++gi) {
      const Group& g = groups[gi];
      const Ship& lead = *p_.ship(g.ships.front());
      for (const std::string& id : p_.OnMap()) {
        const Ship& o = *p_.ship(id);
        const ShipOrders& oo = orders_[id];
        if (taken.count(id) || std::find(g.ships.begin(), g.ships.end(), id) != g.ships.end() || !InContact(o, lead) ||
            !p_.Hostile(o.state, lead.state) || oo.contact != Contact::Pursue ||
            !ContactApplies(oo.min_ships, oo.max_ships, static_cast<int>(g.ships.size()))) {
          continue;
        }
        if (g.leg.to.part != fb::PortPart_Sea && !oo.pursue_into_ports) continue;
        pursuers[gi].push_back(id);
        taken.insert(id);
        progress_[id].pursuing = true;
      }
    }
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      std::vector<std::string> own;
      for (const auto& id : groups[gi].ships) {
        if (!taken.count(id)) own.push_back(id);
      }
      if (!own.empty()) ADJ_RETURN_IF_ERROR(MoveGroup(step, own, groups[gi].leg, pursuers[gi]));
    }
    return Status::Ok();
  }

  Status MoveGroup(int step, std::vector<std::string> ships, Leg leg, const std::vector<std::string>& pursuers) {
    const Ship lead = *p_.ship(ships.front());
    Place from = PlaceOf(lead);
    auto wind = p_.WindAt(leg.port_move || leg.to.part != fb::PortPart_Sea ? (p_.map().PortNamed(from.location) ? from.location : leg.to.location) : from.location);
    Course course = CourseOf(leg.heading, wind);
    // 6.6: no port move upwind into heavy winds, nor upwind with enemies present.
    std::string why;
    bool enemies = p_.EnemiesInPort(leg.port_move ? (p_.map().PortNamed(from.location) ? from.location : leg.to.location) : "", lead.state);
    if (leg.port_move && course == Course::Upwind && wind.strength == 2) {
      why = "the wind is heavy from the " + std::string(kCompassNames[wind.from]) + ", dead against her course (PATE 6.6)";
    } else if (leg.port_move && course == Course::Upwind && enemies) {
      why = "enemy ships are present and the wind is against her course (PATE 6.6)";
    }
    bool ok = why.empty();
    if (ok && step != 1 && !leg.cross) {
      int pct = kMovePct.at(static_cast<int>(course)).at(wind.strength);
      if (ships.size() == 1) pct -= kMovePctPerRigging * lead.rigging;
      PATE_TRY(made, p_.Chance(lead.id, "move: step " + std::to_string(step), "PATE 6.6", pct));
      if (!made) {
        why = std::string("could not make her way with the wind ") + kStrengthNames[wind.strength] + " from the " +
              kCompassNames[wind.from] + " (" + std::to_string(pct) + "%, PATE 6.6)";
      }
      ok = made;
    }
    if (!ok) {
      for (const auto& id : ships) p_.Failed(id, "PATE 6.6", why);
      for (const auto& id : pursuers) p_.Failed(id, "PATE 6.10", "the ships she pursued did not get away");
      return Status::Ok();
    }
    // 6.7: damaged ships stay when their group moves.
    if (ships.size() > 1) {
      std::vector<std::string> going;
      for (const auto& id : ships) {
        const Ship& sh = *p_.ship(id);
        if (sh.rigging >= kDamagedAt || sh.hull >= kDamagedAt) {
          p_.Failed(id, "PATE 6.7", "too damaged to sail with the others");
        } else {
          going.push_back(id);
        }
      }
      ships = going;
      if (ships.empty()) return Status::Ok();
    }
    if (leg.cross) return Cross(ships, leg);
    Place to = leg.to;
    std::optional<bool> gauge;
    if (to.part == fb::PortPart_Sea) {
      // 6.8: a random tactical area; 6.9: evaders avoid the enemy; the gauge.
      PATE_TRY(t, p_.Die(lead.id, "tactical area", "PATE 6.8", kTacticalAreas));
      to.tactical = static_cast<uint8_t>(t);
      const ShipOrders& o = orders_[lead.id];
      auto hostiles_at = [&](uint8_t tac) {
        int n = 0;
        for (const auto& [id, sh] : p_.s().ships) {
          if (sh.on_map() && sh.at_sea() && sh.location == to.location && sh.tactical == tac && p_.Hostile(sh.state, lead.state)) ++n;
        }
        return n;
      };
      int n = hostiles_at(to.tactical);
      if (n > 0 && o.contact == Contact::Evade && ContactApplies(o.min_ships, o.max_ships, n)) {
        for (int k = 1; k < kTacticalAreas; ++k) {
          uint8_t alt = static_cast<uint8_t>((to.tactical - 1 + k) % kTacticalAreas + 1);
          if (hostiles_at(alt) == 0) {
            to.tactical = alt;
            break;
          }
        }
        n = hostiles_at(to.tactical);
      }
      if (n > 0) {
        auto w2 = p_.WindAt(to.location);
        Course c2 = CourseOf(leg.heading, w2);
        if (c2 == Course::Downwind) {
          gauge = true;
        } else if (c2 == Course::Upwind) {
          gauge = false;
        } else {
          bool theirs = false;
          for (const auto& [id, sh] : p_.s().ships) {
            if (sh.on_map() && sh.at_sea() && sh.location == to.location && sh.tactical == to.tactical &&
                p_.Hostile(sh.state, lead.state)) {
              theirs = orders_[id].windward;
              break;
            }
          }
          if (o.windward != theirs) {
            gauge = o.windward;
          } else {
            PATE_TRY(g, p_.Die(lead.id, "gauge", "PATE 6.9", 2));
            gauge = g == 1;
          }
        }
      }
    }
    std::string detail = "from " + Describe(from) + " to " + Describe(to) + (leg.via.empty() ? "" : " through the coastal waters of " + leg.via);
    for (const auto& id : ships) p_.Moved(id, to, leg.rule, detail, 0, gauge.value_or(false));
    Place pursued_to = to;
    if (pursued_to.part == fb::PortPart_Harbour) pursued_to.part = fb::PortPart_Coastal;  // 6.10
    for (const auto& id : pursuers) {
      p_.Moved(id, pursued_to, "PATE 6.10", "pursuing " + lead.id + " to " + Describe(pursued_to), 0,
               gauge ? std::optional<bool>(!*gauge) : std::nullopt);
    }
    if (gauge) {
      // The ships met take the other gauge (6.9), and both sides see it.
      std::vector<std::string> met;
      for (const auto& [id, sh] : std::map<std::string, Ship>(p_.s().ships)) {
        if (sh.on_map() && sh.at_sea() && sh.location == to.location && sh.tactical == to.tactical &&
            p_.Hostile(sh.state, lead.state)) {
          met.push_back(id);
          if (sh.windward == *gauge) p_.Moved(id, to, "PATE 6.9", "takes the " + std::string(*gauge ? "leeward" : "windward") + " gauge", 0, !*gauge);
        }
      }
      for (const auto& id : ships) {
        p_.Observe(id, fb::ObservationKind_Event, to.location, met, static_cast<int>(met.size()), !*gauge, false,
                   "met enemy ships in " + Describe(to), "PATE 6.9");
      }
      for (const auto& id : met) {
        p_.Observe(id, fb::ObservationKind_Event, to.location, ships, static_cast<int>(ships.size()), *gauge, false,
                   "enemy ships arrived from " + from.location, "PATE 6.9");
      }
    }
    for (const auto& id : ships) {
      Progress& pr = progress_[id];
      if (step == 3) pr.first = true;
      if (step == 6) pr.second = true;
    }
    // 6.6: ships that made their first move may lose their second.
    if (step == 3 && !orders_[lead.id].sea2.empty()) {
      PATE_TRY(lost, p_.Chance(lead.id, "lose second move", "PATE 6.6", kLoseSecondMovePct));
      if (lost) {
        for (const auto& id : ships) {
          progress_[id].no_second = true;
          p_.Failed(id, "PATE 6.6", "ended her movement after the first move");
        }
      }
    }
    return Status::Ok();
  }

  // 6.11: into the Atlantic; the crossing's length is not told until arrival.
  Status Cross(const std::vector<std::string>& ships, const Leg& leg) {
    const Ship& lead = *p_.ship(ships.front());
    bool frigates = std::all_of(ships.begin(), ships.end(), [&](const std::string& id) { return p_.ship(id)->type == ShipType::FR; });
    int lo = frigates ? p_.map().atlantic_frigate_turns_min : p_.map().atlantic_turns_min;
    int hi = frigates ? p_.map().atlantic_frigate_turns_max : p_.map().atlantic_turns_max;
    PATE_TRY(d, p_.Die(lead.id, "Atlantic crossing", "PATE 6.11", static_cast<uint32_t>(hi - lo + 1)));
    int turns = lo + static_cast<int>(d) - 1;  // this turn counts
    for (const auto& id : ships) {
      p_.Moved(id, leg.to, "PATE 6.11", "entered the Atlantic for " + leg.to.location, static_cast<uint8_t>(turns - 1));
      progress_[id].crossing = true;
    }
    return Status::Ok();
  }

  // 6.5 step 7: ships completing a crossing arrive in a random tactical area.
  Status Arrivals() {
    for (const auto& [id, sh] : std::map<std::string, Ship>(p_.s().ships)) {
      if (!sh.active || sh.crossing_turns == 0 || progress_[id].crossing) continue;
      uint8_t left = sh.crossing_turns - 1;
      uint8_t tac = 0;
      if (left == 0) {
        PATE_TRY(t, p_.Die(id, "tactical area", "PATE 6.8", kTacticalAreas));
        tac = static_cast<uint8_t>(t);
      }
      p_.Moved(id, {sh.location, fb::PortPart_Sea, tac}, "PATE 6.11",
               left == 0 ? "arrived from the Atlantic" : "crossing the Atlantic", left);
    }
    return Status::Ok();
  }

  Pate& p_;
  std::map<std::string, ShipOrders> orders_;
  std::map<std::string, Progress> progress_;
};

// PATE 6.12, 2.8: peace and truce turns — anywhere, but maybe back at base.
Status RunPeaceMovement(Pate& p) {
  auto orders = CarriedOut(p.s(), StandingShipOrders(p.s()));
  for (const std::string& id : p.OnMap()) {
    const Ship sh = *p.ship(id);
    const ShipOrders& o = orders[id];
    Place dest;
    if (!o.port.empty()) {
      dest = {o.port, o.harbour ? fb::PortPart_Harbour : fb::PortPart_Coastal, 0};
    } else if (!o.sea2.empty() || !o.sea1.empty()) {
      dest = {o.sea2.empty() ? o.sea1 : o.sea2, fb::PortPart_Sea, 1};
    } else if (sh.location != sh.base && !sh.base.empty()) {
      dest = PlaceOf(sh);  // on station: she may rotate to her base
    } else {
      continue;
    }
    PATE_TRY(on_station, p.Chance(id, "peace: on station", "PATE 6.12", kPeaceOnStationPct));
    if (on_station || sh.base.empty()) {
      if (dest.part == fb::PortPart_Sea) {
        PATE_TRY(t, p.Die(id, "tactical area", "PATE 6.8", kTacticalAreas));
        dest.tactical = static_cast<uint8_t>(t);
      }
      if (!(dest == PlaceOf(sh))) p.Moved(id, dest, "PATE 6.12", "sailed to " + Describe(dest));
      continue;
    }
    Place base{sh.base, fb::PortPart_Harbour, 0};
    if (!(base == PlaceOf(sh))) p.Moved(id, base, "PATE 2.8", "returned to her base to replenish");
    const City* c = p.city(sh.base);
    if (c && p.Friendly(c->controller, sh.state) && sh.stores < kStoresCarried) {
      Ship after = *p.ship(id);
      int take = std::min(kStoresCarried - static_cast<int>(after.stores), c->stores);
      if (take > 0) {
        after.stores += take;
        p.Rated(after, "PATE 2.8", "replenished " + std::to_string(take) + " stores at her base", sh.base, take);
      }
    }
  }
  return Status::Ok();
}

// ---- 3.6, 3.9, 9 amphibious ---------------------------------------------------

// The space a transport group's cargo takes (PATE 9, 2.7, 3.4), with `plus`.
int64_t SpaceUsed(const TreasuryState& s, const Ship& tr) {
  int64_t used = int64_t{tr.cargo_supplies} * kSpacePerSupply;
  for (const auto& uid : tr.cargo_units) {
    auto u = s.units.find(uid);
    if (u != s.units.end()) used += u->second.men;
  }
  used += std::max<int64_t>(0, tr.crew - tr.capacity / 10);
  used += std::max<int64_t>(0, int64_t{tr.stores} - kStoresCarried) * kTransportCapacityPerStore;
  return used;
}

void Cargo(Pate& p, const std::string& ship, const CargoOp& op, bool done, const std::string& failed) {
  p.Emit([=](Fbb& f) -> Body {
    auto x = fb::CreateCargoMovedDirect(f, ship.c_str(), op.port.c_str(), op.unload,
                                        op.unit.empty() ? nullptr : op.unit.c_str(), op.supplies, done,
                                        failed.empty() ? nullptr : failed.c_str(), op.order_seq);
    return {fb::PateEventBody_CargoMoved, x.Union()};
  });
}

// 3.6: transports in a port begin the loading and unloading their own
// amphibious orders ask for (never orders copied from another ship, 4.2).
Status RunLanding(Pate& p) {
  auto orders = CarriedOut(p.s(), StandingShipOrders(p.s()));
  for (const std::string& id : p.OnMap()) {
    const Ship tr = *p.ship(id);
    const ShipOrders& o = orders[id];
    if (tr.type != ShipType::TR || o.amphibious.empty()) continue;
    const City* c = p.city(tr.location);
    int64_t space = tr.capacity - SpaceUsed(p.s(), tr);
    int32_t supplies_aboard = tr.cargo_supplies;
    for (const Amphibious& a : o.amphibious) {
      CargoOp op{tr.location, a.unit, a.unload, a.unit.empty() ? a.supplies : 0, o.order_seq};
      std::string why;
      if (tr.at_sea() || !c) {
        why = "she is not in a port";
      } else if (!a.unit.empty()) {
        auto u = p.s().units.find(a.unit);
        if (u == p.s().units.end()) {
          why = "there is no unit " + a.unit;
        } else if (!p.Friendly(u->second.state, tr.state)) {
          why = a.unit + " belongs to " + u->second.state + ", not a friend of " + tr.state;
        } else if (a.unload && u->second.aboard != id) {
          why = a.unit + " is not aboard " + id;
        } else if (!a.unload && (u->second.city != tr.location || !u->second.active || !u->second.aboard.empty())) {
          why = a.unit + " is not in " + tr.location;
        } else if (!a.unload && u->second.men > space) {
          why = a.unit + " needs " + std::to_string(u->second.men) + " spaces and " + id + " has " + std::to_string(space);
        }
        if (why.empty() && !a.unload) space -= u->second.men;
      } else if (a.supplies <= 0) {
        why = "an amphibious order moves a unit or a positive number of supplies";
      } else if (a.unload && a.supplies > supplies_aboard) {
        why = id + " carries only " + std::to_string(supplies_aboard) + " supplies";
      } else if (!a.unload && !p.Friendly(c->controller, tr.state)) {
        why = "supplies are loaded only in a friendly port";
      } else if (!a.unload && a.supplies > c->supplies) {
        why = tr.location + " has only " + std::to_string(c->supplies) + " supplies";
      } else if (!a.unload && int64_t{a.supplies} * kSpacePerSupply > space) {
        why = id + " has room for " + std::to_string(space / kSpacePerSupply) + " supplies";
      }
      if (why.empty() && a.unit.empty()) {
        if (a.unload) supplies_aboard -= a.supplies;
        else space -= int64_t{a.supplies} * kSpacePerSupply;
      }
      if (!why.empty()) {
        p.Failed(id, "PATE 9", why);
        continue;
      }
      Cargo(p, id, op, false, "");
    }
  }
  return Status::Ok();
}

Status PortBattles(Pate& p);

// 3.9: what was begun is finished if the transport is still in that port;
// then the battles for off-map ports (10).
Status RunLanded(Pate& p) {
  for (const auto& [id, sh] : std::map<std::string, Ship>(p.s().ships)) {
    for (const CargoOp& op : sh.loading) {
      bool there = sh.on_map() && sh.location == op.port && !sh.at_sea();
      const City* c = p.city(op.port);
      std::string failed;
      if (!there) failed = id + " left " + op.port + " before the loading or unloading was done";
      else if (!op.unit.empty() && !p.s().units.count(op.unit)) failed = op.unit + " is gone";
      else if (op.supplies > 0 && !op.unload && (!c || c->supplies < op.supplies)) failed = op.port + " no longer has the supplies";
      Cargo(p, id, op, true, failed);
    }
  }
  return PortBattles(p);
}

// 3.9, 10: battles for off-map ports between their garrisons and the troops
// landed against them.
Status PortBattles(Pate& p) {
  const Turn turn = p.at().turn;
  for (const auto& [name, c] : std::map<std::string, City>(p.s().cities)) {
    if (c.kind != projections::CityKind::OffMapPort) continue;
    std::vector<projections::Unit> garrison, attackers;
    for (const auto& [uid, u] : p.s().units) {
      if (!u.active || !u.aboard.empty() || u.city != name) continue;
      if (p.Friendly(u.state, c.controller)) garrison.push_back(u);
      else if (p.Hostile(u.state, c.controller)) attackers.push_back(u);
    }
    if (attackers.empty()) continue;
    std::string attacker = attackers.front().state;
    auto men = [](const std::vector<projections::Unit>& us) {
      int64_t n = 0;
      for (const auto& u : us) n += u.men;
      return n;
    };
    int64_t am = men(attackers), dm = men(garrison);
    bool won = true;
    std::string detail = "taken without a fight";
    if (dm > 0) {
      PATE_TRY(da, p.Die(name, "port battle: attacker", "PATE 10", 6));
      PATE_TRY(dd, p.Die(name, "port battle: garrison", "PATE 10", 6));
      int64_t as = am * (da + kPortBattleDieBase) * 100;
      int64_t ds = dm * (dd + kPortBattleDieBase) * (100 + kGarrisonFortPct * c.fort_level);
      won = as > ds;
      detail = std::to_string(am) + " men × (" + std::to_string(da) + " + 3) against " + std::to_string(dm) + " × (" +
               std::to_string(dd) + " + 3) × " + std::to_string(100 + kGarrisonFortPct * c.fort_level) + "% (fort " +
               std::to_string(c.fort_level) + ")";
    }
    std::string defender = c.controller;
    p.Emit([=](Fbb& f) -> Body {
      auto x = fb::CreatePortBattleDirect(f, name.c_str(), attacker.c_str(), defender.c_str(), static_cast<int32_t>(am),
                                          static_cast<int32_t>(dm), won, detail.c_str());
      return {fb::PateEventBody_PortBattle, x.Union()};
    });
    const auto& losers = won ? garrison : attackers;
    const auto& winners = won ? attackers : garrison;
    auto losses = [&](const projections::Unit& u, int32_t lost, int32_t back, bool destroyed) {
      std::string id = u.id;
      p.Emit([=](Fbb& f) -> Body {
        auto x = fb::CreateUnitLossesDirect(f, id.c_str(), lost, back, destroyed, "PATE 10");
        return {fb::PateEventBody_UnitLosses, x.Union()};
      });
      if (lost > 0) p.sow().Lost(u.state, lost, "PATE 10", u.id);
      if (back > 0) {
        bool militia = u.type == projections::UnitType::MI && p.s().cities.count(u.raised_in);
        p.sow().ReturnLater(u.state, militia ? "militia" : "national", militia ? u.raised_in : "", back, turn.major,
                            turn.minor, "SOW 3.5", u.id);
      }
    };
    for (const auto& u : losers) {
      int32_t back = u.men * kBattleSurvivorsPct / 100;
      losses(u, u.men - back, back, true);
    }
    int64_t wm = men(winners);
    int64_t toll = std::min(men(losers) * kWinnerLossPct / 100, wm / 2);
    for (const auto& u : winners) {
      int32_t share = wm > 0 ? static_cast<int32_t>(toll * u.men / wm) : 0;
      if (share > 0) losses(u, share, 0, false);
    }
    if (won) {
      p.Emit([=](Fbb& f) -> Body {
        return {fb::PateEventBody_PortTaken, fb::CreatePortTakenDirect(f, name.c_str(), attacker.c_str(), "PATE 10").Union()};
      });
      for (const auto& [key, so] : std::map<std::pair<std::string, std::string>, projections::StandingOrder>(p.s().standing)) {
        if (key.second == name && key.first != attacker) p.sow().StandingCancelled(key.first, name, "SOW 6.5", name + " was captured");
      }
    }
    // Ships in the port see it.
    std::string text = "battle for " + name + ": " + attacker + " against " + defender + "'s garrison, " +
                       (won ? "the port falls to " + attacker : "the garrison holds") + " (" + detail + ")";
    for (const std::string& id : p.OnMap()) {
      const Ship* sh = p.ship(id);
      if (sh->location == name) p.Observe(id, fb::ObservationKind_Battle, name, {}, 0, false, false, text, "PATE 10");
    }
  }
  return Status::Ok();
}

// ---- 3.10, 5 intelligence -------------------------------------------------------

Status RunIntelligence(Pate& p) {
  const Turn turn = p.at().turn;
  std::vector<std::string> ids = p.OnMap();
  for (const std::string& id : ids) {
    const Ship sh = *p.ship(id);
    // 5.1: every ship in contact, exactly; enemies to windward or leeward, in
    // harbour or coastal waters.
    std::vector<std::string> seen;
    bool enemy_windward = false, enemy_harbour = false;
    for (const std::string& oid : ids) {
      const Ship& o = *p.ship(oid);
      if (oid == id || !InContact(sh, o)) continue;
      seen.push_back(oid);
      if (p.Hostile(o.state, sh.state)) {
        enemy_windward = enemy_windward || (sh.at_sea() && !sh.windward);
        enemy_harbour = enemy_harbour || o.in_port;
      }
    }
    if (!seen.empty()) {
      std::string text = "in contact at " + Describe(PlaceOf(sh));
      p.Observe(id, fb::ObservationKind_Contact, sh.location, seen, static_cast<int>(seen.size()), enemy_windward,
                enemy_harbour, text, "PATE 5.1");
    }
    // 5.2: frigates at sea sense enemies in their area and its ports.
    if (sh.type == ShipType::FR && sh.at_sea()) {
      int pct = sh.mission == Mission::Patrol || sh.mission == Mission::Raid ? kFrigateDetectPctActive : kFrigateDetectPctOther;
      std::vector<std::string> places = {sh.location};
      for (const auto& port : p.map().PortsReachableFrom(sh.location)) places.push_back(port);
      for (const std::string& where : places) {
        int n = 0;
        for (const std::string& oid : ids) {
          const Ship& o = *p.ship(oid);
          if (o.location == where && p.Hostile(o.state, sh.state) && !InContact(sh, o)) ++n;
        }
        if (n == 0) continue;
        PATE_TRY(found, p.Chance(id, "detection: " + where, "PATE 5.2", pct));
        if (!found) continue;
        int approx = n <= 3 ? n : (n + 2) / 5 * 5;  // ASSUMED: exact to 3, then to the nearest five
        if (approx == 0) approx = 5;
        p.Observe(id, fb::ObservationKind_FrigateSighting, where, {}, approx, false, false,
                  "about " + std::to_string(approx) + " enemy ship(s) sighted at " + where, "PATE 5.2");
      }
    }
    // 5.3: land units in the port's city, and perhaps near it.
    const City* c = p.city(sh.location);
    if (!sh.at_sea() && c && c->kind == projections::CityKind::Port) {
      std::vector<std::string> units, near;
      for (const auto& [uid, u] : p.s().units) {
        if (u.state == sh.state || !u.active) continue;
        if (u.city == sh.location) units.push_back(uid);
        else if (u.square == c->square) near.push_back(uid);
      }
      if (!near.empty()) {
        PATE_TRY(more, p.Chance(id, "land units nearby", "PATE 5.3", kLandUnitsNearbyPct));
        if (more) units.insert(units.end(), near.begin(), near.end());
      }
      if (!units.empty()) {
        p.Observe(id, fb::ObservationKind_LandUnits, sh.location, units, static_cast<int>(units.size()), false, false,
                  "land units seen at " + sh.location, "PATE 5.3");
      }
    }
    // 5.4: ships that began the turn where she ended it (they may be gone).
    int began = 0;
    for (const auto& [oid, o] : p.s().ships) {
      if (oid == id || !o.active || !p.Hostile(o.state, sh.state)) continue;
      if (o.StartOf(turn) == sh.location && !(o.on_map() && InContact(sh, o))) ++began;
    }
    if (began > 0) {
      PATE_TRY(d, p.Die(id, "intelligence", "PATE 5.4", 6));
      int told = began + (d == 1 ? -1 : d == 6 ? 1 : 0);
      if (told > 0) {
        p.Observe(id, fb::ObservationKind_Intelligence, sh.location, {}, told, false, false,
                  "reports of " + std::to_string(told) + " enemy ship(s) at " + sh.location + " earlier this turn",
                  "PATE 5.4");
      }
    }
  }
  // 5.3: the garrison of an off-map port reports the ships of other states in
  // port at the start of the turn — a turn late — to its Naval Minister.
  for (const auto& [name, c] : p.s().cities) {
    if (c.kind != projections::CityKind::OffMapPort) continue;
    bool garrisoned = false;
    for (const auto& [uid, u] : p.s().units) {
      garrisoned = garrisoned || (u.active && u.aboard.empty() && u.city == name && u.state == c.controller);
    }
    if (!garrisoned) continue;
    std::vector<std::string> seen;
    for (const auto& [oid, o] : p.s().ships) {
      if (o.active && o.state != c.controller && o.StartOf(turn) == name) seen.push_back(oid);
    }
    if (seen.empty()) continue;
    p.Observe("garrison of " + name, fb::ObservationKind_Garrison, name, seen, static_cast<int>(seen.size()), false,
              false, "ships in port at the start of the turn", "PATE 5.3", c.controller);
  }
  // 2.2: a point of experience for a turn at sea or in coastal waters.
  if (p.kind() == SeasonKind::War) {
    for (const std::string& id : p.OnMap()) {
      const Ship* sh = p.ship(id);
      if (!sh->at_sea() && !sh->coastal) continue;
      Ship after = *sh;
      after.experience += 1;
      p.Rated(after, "PATE 2.2", "a turn at sea");
    }
  }
  // 4.2: ships out of contact with the ship they follow are detached.
  for (const std::string& id : p.OnMap()) {
    const Ship* sh = p.ship(id);
    if (sh->attached_to.empty()) continue;
    const Ship* leader = p.ship(sh->attached_to);
    if (!leader || !InContact(*sh, *leader)) p.Attached(id, "", "PATE 4.2");
  }
  return Status::Ok();
}

}  // namespace

Status RunPhase(PhaseWriter& w, const TurnPhase& at, const NavalMap& map, DiceSource& dice, SeasonKind kind) {
  Pate p(w, at, map, dice, kind);
  switch (at.phase) {
    case sow::kRepair: return RunRepair(p);
    case sow::kSupply: return RunSupply(p);
    case sow::kLanding: return RunLanding(p);
    case sow::kCombat: return p.kind() == SeasonKind::War ? RunCombat(p) : Status::Ok();
    case sow::kMovement: return p.kind() == SeasonKind::War ? Movement(p).Run() : RunPeaceMovement(p);
    case sow::kLanded: return RunLanded(p);
    case sow::kIntelligence: return RunIntelligence(p);
    default: return Status::InvalidArgument("phase " + std::to_string(at.phase) + " is not a PATE phase");
  }
}

}  // namespace adjutant::rules::pate
