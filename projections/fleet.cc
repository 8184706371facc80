#include "projections/fleet.h"

#include "projections/archive.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::projections {

// ---- canonical encoding ------------------------------------------------------
template <class A> void Visit(A& a, CargoOp& c) { a(c.port, c.unit, c.unload, c.supplies, c.order_seq); }
template <class A> void Visit(A& a, Ship& s) {
  a(s.id, s.state, s.type, s.crew, s.frigates, s.capacity, s.base, s.location, s.in_port, s.coastal, s.active,
    s.mission, s.crewed_on, s.name, s.marines, s.quality, s.morale, s.experience, s.stores, s.hull, s.rigging,
    s.tactical, s.attached_to, s.crossing_turns, s.reactivating, s.windward, s.start_location, s.moved_on,
    s.cargo_units, s.cargo_supplies, s.loading);
}
template <class A> void Visit(A& a, FleetState& s) { a(s.active, s.last_seq, s.ships, s.building, s.cities); }

std::string Fleet::Encode() const { return EncodeState(s_); }

Status Fleet::Decode(std::string_view bytes) { return DecodeState(bytes, &s_, name()); }

// ---- the fold ----------------------------------------------------------------
namespace {

using schema::Str;
Turn TurnOf(const fb::Event& e) { return schema::TurnOf(e.turn()); }

// No ship follows `id` any more (PATE 4.4: she is gone).
void Unfollow(FleetState& s, const std::string& id) {
  for (auto& [oid, o] : s.ships) {
    if (o.attached_to == id) o.attached_to.clear();
  }
}

// Sow version 13 (kMoveUnitLandsVersion): a unit that leaves the game or
// is landed by the GA leaves the hold of the transport carrying it, so a
// hold lists exactly the units aboard her (PATE 9); versions 1-12 kept its
// id there.
void OutOfHolds(FleetState& s, const std::string& unit) {
  for (auto& [id, sh] : s.ships) std::erase(sh.cargo_units, unit);
}

// `version`: the sow rules version the directive was recorded under (its
// consequences for a lost or moved ship changed in version 4, for a unit
// moved or destroyed in version 13).
void ApplyDirective(FleetState& s, const fb::SowDirective& d, uint32_t version) {
  switch (d.body_type()) {
    case fb::SowDirectiveBody_MoveUnit:
      if (version >= kMoveUnitLandsVersion) OutOfHolds(s, d.body_as_MoveUnit()->unit()->str());
      break;
    case fb::SowDirectiveBody_DestroyUnit:
      if (version >= kMoveUnitLandsVersion) OutOfHolds(s, d.body_as_DestroyUnit()->unit()->str());
      break;
    case fb::SowDirectiveBody_MoveShip: {
      auto* x = d.body_as_MoveShip();
      auto it = s.ships.find(x->ship()->str());
      if (it != s.ships.end()) {
        it->second.location = Str(x->location());
        it->second.in_port = x->in_port();
        it->second.coastal = x->coastal();
        it->second.mission = static_cast<Mission>(x->mission());
        it->second.active = x->active();
        // Version 4: a ship the GA puts somewhere has ended any crossing,
        // and one put at sea is in a tactical area there (PATE 1.2).
        if (version >= 4) {
          it->second.crossing_turns = 0;
          it->second.tactical = s.cities.count(it->second.location) ? 0 : 1;
        }
      }
      break;
    }
    case fb::SowDirectiveBody_LoseShip: {
      std::string id = d.body_as_LoseShip()->ship()->str();
      s.ships.erase(id);
      if (version >= 4) Unfollow(s, id);  // as a ship sunk (PATE 4.4); the treasury drops the troops aboard
      break;
    }
    default:
      break;
  }
}

// `version`: the sow rules version the event was recorded under.
void ApplyOutcome(FleetState& s, const fb::SowEvent& e, const Turn& turn, uint32_t version) {
  switch (e.body_type()) {
    case fb::SowEventBody_UnitDisbanded:  // aboard a transport in port (SOW 4.9, sow=9)
      if (version >= kMoveUnitLandsVersion) OutOfHolds(s, e.body_as_UnitDisbanded()->unit()->str());
      break;
    case fb::SowEventBody_BuildStarted: {
      auto* x = e.body_as_BuildStarted();
      if (x->ship()) s.building[x->build_id()->str()] = ShipFromDef(*x->ship());
      break;
    }
    case fb::SowEventBody_BuildCompleted: {
      auto it = s.building.find(e.body_as_BuildCompleted()->build_id()->str());
      if (it == s.building.end()) break;
      s.ships[it->second.id] = it->second;
      s.building.erase(it);
      break;
    }
    case fb::SowEventBody_ShipCrewed: {
      auto* x = e.body_as_ShipCrewed();
      auto it = s.ships.find(x->ship()->str());
      if (it != s.ships.end()) {
        it->second.crew += x->crew();
        it->second.crewed_on = turn;
      }
      break;
    }
    case fb::SowEventBody_ShipRemoved:
      s.ships.erase(e.body_as_ShipRemoved()->ship()->str());
      break;
    default:
      break;
  }
}

// PATE outcomes that change a ship. (What they do to units and cities is
// the treasury's.)
void ApplyPate(FleetState& s, const fb::PateEvent& e, const Turn& turn) {
  auto ship = [&](const flatbuffers::String* id) -> Ship* {
    auto it = s.ships.find(id->str());
    return it == s.ships.end() ? nullptr : &it->second;
  };
  switch (e.body_type()) {
    case fb::PateEventBody_ShipAttached:
      if (Ship* sh = ship(e.body_as_ShipAttached()->ship())) sh->attached_to = Str(e.body_as_ShipAttached()->to());
      break;
    case fb::PateEventBody_ShipMoved: {
      auto* x = e.body_as_ShipMoved();
      if (Ship* sh = ship(x->ship())) {
        if (sh->moved_on != turn) {
          sh->start_location = sh->location;
          sh->moved_on = turn;
        }
        sh->windward = x->windward();
        sh->location = x->location()->str();
        sh->in_port = x->part() == fb::PortPart_Harbour;
        sh->coastal = x->part() == fb::PortPart_Coastal;
        sh->tactical = x->tactical();
        sh->crossing_turns = x->crossing_turns();
      }
      break;
    }
    case fb::PateEventBody_ShipRated: {
      auto* x = e.body_as_ShipRated();
      if (Ship* sh = ship(x->ship())) {
        sh->hull = x->hull();
        sh->rigging = x->rigging();
        sh->stores = x->stores();
        sh->experience = x->experience();
        sh->crew = x->crew();
        sh->marines = x->marines();
      }
      break;
    }
    case fb::PateEventBody_ShipActivation: {
      auto* x = e.body_as_ShipActivation();
      if (Ship* sh = ship(x->ship())) {
        sh->active = x->active();
        sh->reactivating = x->reactivating();
      }
      break;
    }
    case fb::PateEventBody_MissionSet:
      if (Ship* sh = ship(e.body_as_MissionSet()->ship())) {
        sh->mission = static_cast<Mission>(e.body_as_MissionSet()->mission());
      }
      break;
    case fb::PateEventBody_TransportsCombined: {
      auto* x = e.body_as_TransportsCombined();
      Ship* into = ship(x->into());
      if (!into) break;
      if (x->from()) {
        for (const auto* id : *x->from()) {
          auto it = s.ships.find(id->str());
          if (it == s.ships.end()) continue;
          for (const auto& u : it->second.cargo_units) into->cargo_units.push_back(u);
          into->cargo_supplies += it->second.cargo_supplies;
          for (auto& [oid, o] : s.ships) {
            if (o.attached_to == it->first) o.attached_to = into->id == oid ? "" : into->id;
          }
          s.ships.erase(it);
        }
      }
      into->capacity = x->capacity();
      into->crew = x->crew();
      into->stores = x->stores();
      break;
    }
    case fb::PateEventBody_TransportDivided: {
      auto* x = e.body_as_TransportDivided();
      Ship* from = ship(x->ship());
      if (!from) break;
      Ship made = *from;
      made.id = x->new_id()->str();
      made.capacity = x->capacity();
      made.crew = x->crew();
      made.stores = x->stores();
      made.cargo_units.clear();
      made.cargo_supplies = 0;
      made.loading.clear();
      made.name.clear();
      from->capacity -= x->capacity();
      from->crew -= x->crew();
      from->stores -= x->stores();
      s.ships[made.id] = std::move(made);
      break;
    }
    case fb::PateEventBody_CargoMoved: {
      // The hold's side. A completed load or unload always names a unit that
      // exists (rules/pate/amphibious.cc fails the order otherwise), so the
      // fleet needs no record of units.
      auto* x = e.body_as_CargoMoved();
      Ship* sh = ship(x->ship());
      if (!sh) break;
      CargoOp op{x->port()->str(), Str(x->unit()), x->unload(), x->supplies(), x->order_seq()};
      if (!x->done()) {
        sh->loading.push_back(op);
        break;
      }
      std::erase_if(sh->loading, [&](const CargoOp& o) { return o.order_seq == op.order_seq && o.unit == op.unit; });
      if (x->failed() && x->failed()->size()) break;
      if (!op.unit.empty()) {
        if (op.unload) std::erase(sh->cargo_units, op.unit);
        else sh->cargo_units.push_back(op.unit);
      }
      if (op.supplies > 0 && s.cities.count(op.port)) sh->cargo_supplies += op.unload ? -op.supplies : op.supplies;
      break;
    }
    case fb::PateEventBody_ShipSunk: {
      std::string id = e.body_as_ShipSunk()->ship()->str();
      s.ships.erase(id);
      Unfollow(s, id);
      break;
    }
    case fb::PateEventBody_ShipCaptured: {
      auto* x = e.body_as_ShipCaptured();
      auto it = s.ships.find(x->ship()->str());
      if (it == s.ships.end()) break;
      Ship prize = std::move(it->second);
      s.ships.erase(it);
      // PATE 9: the troops aboard are taken; the supplies stay in the hold.
      prize.cargo_units.clear();
      prize.loading.clear();
      Unfollow(s, prize.id);
      prize.id = x->new_id()->str();
      prize.state = x->state()->str();
      prize.attached_to.clear();
      prize.crew = x->prize_crew();
      prize.marines = 0;
      prize.mission = Mission::None;
      auto captor = s.ships.find(x->captor()->str());
      if (captor != s.ships.end()) {
        captor->second.crew -= x->prize_crew();
        prize.base = captor->second.base;
        // PATE 7.8: the captor's attachment — her leader's, if she follows one
        // (so no chain forms, 4.4). (A ship seized in port, 2.6, has no captor ship.)
        prize.attached_to = captor->second.attached_to.empty() ? captor->first : captor->second.attached_to;
      }
      s.ships[prize.id] = std::move(prize);
      break;
    }
    default:
      break;
  }
}

}  // namespace

void Fleet::Apply(const Input& in) {
  const fb::Event& e = *in.event;
  s_.last_seq = in.seq;
  if (e.payload_type() == fb::Payload_GameCreated) {
    const fb::Scenario* sc = e.payload_as_GameCreated()->scenario();
    if (!sc || !sc->sow()) return;
    const fb::SowScenario& sow = *sc->sow();
    s_.active = true;
    if (sow.cities()) for (const auto* d : *sow.cities()) s_.cities.insert(d->name()->str());
    if (sow.ships()) for (const auto* d : *sow.ships()) s_.ships[d->id()->str()] = ShipFromDef(*d);
    return;
  }
  if (!s_.active) return;
  switch (e.payload_type()) {
    case fb::Payload_Directive:
      if (auto* d = e.payload_as_Directive()->body_as_SowDirective()) ApplyDirective(s_, *d, FoldVersionOf(in));
      break;
    case fb::Payload_SowEvent:
      ApplyOutcome(s_, *e.payload_as_SowEvent(), TurnOf(e), FoldVersionOf(in));
      break;
    case fb::Payload_PateEvent:
      ApplyPate(s_, *e.payload_as_PateEvent(), TurnOf(e));
      break;
    default:
      break;
  }
}

}  // namespace adjutant::projections
