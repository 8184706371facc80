// What the PATE phases share (rules/pate/phases.h runs them; one file per
// phase: repair.cc, supply.cc, amphibious.cc, battle.cc, movement.cc,
// intelligence.cc): where a ship is, contact, and the emitter `Pate`
// through which every phase writes its events and rolls its dice. Included
// only by those files.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "projections/treasury.h"
#include "rules/dice.h"
#include "rules/pate/map.h"
#include "rules/pate/orders.h"
#include "rules/pate/tables.h"
#include "rules/sow/economy.h"
#include "rules/phase_writer.h"
#include "rules/sow/outcomes.h"
#include "schema/event_generated.h"

namespace adjutant::rules::pate::internal {

using projections::CargoOp;
using projections::City;
using projections::Mission;
using projections::Relation;
using projections::SeasonKind;
using projections::Ship;
using projections::ShipType;
using projections::TreasuryState;
using projections::FleetState;

using Fbb = flatbuffers::FlatBufferBuilder;
using Body = std::pair<fb::PateEventBody, flatbuffers::Offset<void>>;

inline flatbuffers::Offset<flatbuffers::String> S(Fbb& f, const std::string& s) {
  return s.empty() ? flatbuffers::Offset<flatbuffers::String>() : f.CreateString(s);
}

inline Compass Opposite(Compass c) { return static_cast<Compass>((static_cast<int>(c) + 2) % 4); }

inline constexpr const char* kCompassNames[] = {"north", "east", "south", "west"};
inline constexpr const char* kStrengthNames[] = {"light", "moderate", "heavy"};

// PATE 6.6: the ship's course to the wind when she heads `heading`
// (movement.cc).
Course CourseOf(Compass heading, const projections::Wind& w);

// PATE 6.6: a move into or out of a port, or between its harbour and its
// coastal waters, is barred upwind into heavy winds, and upwind into any
// wind with enemy ships present. Why it is barred, or "" when it is not.
// Movement (6.5) and the moves to join a battle in a port (7.1) check it.
inline std::string PortMoveBarred(Course course, const projections::Wind& w, bool enemies) {
  if (course != Course::Upwind) return "";
  if (w.strength == 2) {
    return "the wind is heavy from the " + std::string(kCompassNames[w.from]) + ", dead against her course (PATE 6.6)";
  }
  if (enemies) return "enemy ships are present and the wind is against her course (PATE 6.6)";
  return "";
}

// Where a ship is, as contact (5.1) and movement see it.
struct Place {
  std::string location;
  fb::PortPart part = fb::PortPart_Sea;
  uint8_t tactical = 0;
  friend auto operator<=>(const Place&, const Place&) = default;
};

inline Place PlaceOf(const Ship& s) {
  fb::PortPart part = s.in_port ? fb::PortPart_Harbour : s.coastal ? fb::PortPart_Coastal : fb::PortPart_Sea;
  return {s.location, part, part == fb::PortPart_Sea ? s.tactical : uint8_t{0}};
}

inline std::string Describe(const Place& p) {
  if (p.part == fb::PortPart_Harbour) return p.location + " (harbour)";
  if (p.part == fb::PortPart_Coastal) return p.location + " (coastal waters)";
  return p.location + " (tactical area " + std::to_string(p.tactical) + ")";
}

// PATE 5.1: in contact — the same port, whatever part, or the same tactical
// area of the same sea area.
inline bool InContact(const Ship& a, const Ship& b) {
  if (!a.on_map() || !b.on_map() || a.location != b.location) return false;
  if (a.at_sea() != b.at_sea()) return false;
  return !a.at_sea() || a.tactical == b.tactical;
}

inline fb::SowShipType FbType(ShipType t) { return static_cast<fb::SowShipType>(t); }

// The emitter of one pate phase: each call builds one event naming its rule
// and folds it at once; rolls are recorded as DieRolled events.
class Pate {
 public:
  Pate(PhaseWriter& w, const TurnPhase& at, const NavalMap& map, DiceSource& dice, SeasonKind kind)
      : w_(w), at_(at), map_(map), dice_(dice), kind_(kind), sow_(w, at) {}

  const TreasuryState& s() const { return w_.treasury(); }
  const FleetState& f() const { return w_.fleet(); }  // the ships
  const NavalMap& map() const { return map_; }
  const TurnPhase& at() const { return at_; }
  SeasonKind kind() const { return kind_; }
  sow::Outcomes& sow() { return sow_; }

  const Ship* ship(const std::string& id) const {
    auto it = f().ships.find(id);
    return it == f().ships.end() ? nullptr : &it->second;
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
    for (const auto& [id, sh] : f().ships) {
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
  // Enemies of `state` in port `port` (either part, or part `part`), any
  // group: a port to attack (PortTarget, 4.5) holds an enemy's transports too.
  bool EnemiesInPort(const std::string& port, const std::string& state, int part = -1) const {
    return AnyEnemyInPort(port, state, part, false);
  }
  // PATE 2.1: a ship, not a transport group: the "ships" of 6.4, 6.6, 6.8,
  // 4.6, 7.4 and 7.5 from rules version 5 (kTransportsNotShipsVersion).
  static bool IsWarship(const Ship& s) { return s.type != ShipType::TR; }
  // PATE 2.1: 6.4's, 6.6's and 6.8's "hostile ships", which from rules
  // version 5 (kTransportsNotShipsVersion) are not transport groups.
  bool EnemyShipsInPort(const std::string& port, const std::string& state, int part = -1) const {
    return AnyEnemyInPort(port, state, part, version() >= kTransportsNotShipsVersion);
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
    w_.Emit(DieRolledDraft(r, Actor{}));
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
  // `in_battle`: sunk in a battle, not by a storm. Under sow rules version 5
  // a share of her men return at the end of this season (SOW 3.5, as for any
  // ship destroyed in battle); a storm loses them all, as before.
  void Sunk(const std::string& ship, const std::string& rule, const std::string& detail, bool in_battle = false) {
    const Ship* sh = this->ship(ship);
    if (!sh) return;
    LoseCargo(ship, rule);  // before the ship (and the troops aboard) leave the state
    int32_t men = static_cast<int32_t>(sh->men());
    int32_t back = in_battle && w_.rules_versions().Of(sow::kRuleset) >= 5
                       ? static_cast<int32_t>(sow::SunkShipMenReturning(men))
                       : 0;
    int32_t lost = men - back;
    std::string state = sh->state;
    Emit([=](Fbb& f) -> Body {
      auto x = fb::CreateShipSunkDirect(f, ship.c_str(), rule.c_str(), lost, detail.c_str());
      return {fb::PateEventBody_ShipSunk, x.Union()};
    });
    if (back > 0) sow_.ReturnLater(state, "national", "", back, at_.turn.major, at_.turn.minor, "SOW 3.5", ship);
    if (lost > 0) sow_.Lost(state, lost, rule, ship);
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
  // The game's pate rules version (rules/versions.cc).
  uint32_t version() const { return w_.rules_versions().Of(kRuleset); }
  // SOW 4.8 (sow rules version 5): a ship that added crew this turn (the
  // orders phase) may not move this turn.
  bool CrewedThisTurn(const Ship& sh) const {
    return w_.rules_versions().Of(sow::kRuleset) >= 5 && sh.crewed_on == at_.turn;
  }
  static constexpr const char* kCrewedReason = "she added crew this turn and may not move on it (SOW 4.8)";

 private:
  bool AnyEnemyInPort(const std::string& port, const std::string& state, int part, bool no_transports) const {
    for (const auto& [id, o] : f().ships) {
      if (!o.on_map() || o.location != port || o.at_sea() || !Hostile(o.state, state)) continue;
      if (no_transports && !IsWarship(o)) continue;
      if (part < 0 || PlaceOf(o).part == part) return true;
    }
    return false;
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
inline bool SailsOut(const Ship& sh, const ShipOrders& o) {
  if (!o.sea1.empty()) return true;
  return (!o.port.empty() && o.port != sh.location) || o.any_enemy_port;
}

// The phases (PATE 3.3–3.10), each in its own file.
Status RunRepair(Pate& p);        // repair.cc: 3.3, 2.6, 2.8, 4.4, 4.8
Status RunSupply(Pate& p);        // supply.cc: 3.4, 3.5, 2.7
Status RunLanding(Pate& p);       // amphibious.cc: 3.6, 9
Status RunLanded(Pate& p);        // amphibious.cc: 3.9, 9, 10
Status RunCombat(Pate& p);        // battle.cc: 3.7, 7
Status RunMovement(Pate& p);      // movement.cc: 3.8, 6, 8; 6.12 on peace turns
Status RunIntelligence(Pate& p);  // intelligence.cc: 3.10, 5, 2.2, 4.2

}  // namespace adjutant::rules::pate::internal
