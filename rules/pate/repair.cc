// PATE 3.3 repair, with the orders that take effect as a turn opens (2.6
// activation, 4.4 attachment, 4.8 commerce) and a campaign's placement (2.8).
#include "rules/pate/phase_internal.h"

#include <algorithm>

#include "rules/sow/calendar.h"

namespace adjutant::rules::pate::internal {

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
      // Rules version 2: she is loaded with the stores of a ship on station
      // (the book: "less than full stores loaded"); version 1 kept fewer
      // when she had fewer.
      after.stores = static_cast<uint16_t>(p.version() >= 2
                                               ? StoresOnStation(moves)
                                               : std::min<int>(sh.stores, StoresOnStation(moves)));
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
    for (const auto& [id, sh] : std::map<std::string, Ship>(p.f().ships)) {
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
    if (auto r = CheckAtSubmission(p.s(), p.f(), &p.map(), *flatbuffers::GetRoot<fb::PateOrder>(probe.GetBufferPointer()))) {
      p.Rejected(seq, r->rule, r->reason);
      continue;
    }
    uint8_t wait = active ? kReactivationTurns : 0;
    p.Emit([=](Fbb& f) -> Body {
      auto x = fb::CreateShipActivationDirect(f, id.c_str(), false, wait, seq);
      return {fb::PateEventBody_ShipActivation, x.Union()};
    });
  }
  auto orders = CarriedOut(p.f(), StandingShipOrders(p.s()));
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
  auto refused = AttachmentRefusals(p.f(), StandingShipOrders(p.s()));
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

}  // namespace adjutant::rules::pate::internal
