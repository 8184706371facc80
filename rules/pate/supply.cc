// PATE 3.4 supply, 3.5 stores moved between ports, 2.7 crew transfers.
#include "rules/pate/phase_internal.h"

#include <algorithm>

#include "rules/sow/economy.h"
#include "rules/sow/phases.h"

namespace adjutant::rules::pate::internal {

// ---- 3.4, 3.5 supply; 2.7 crew transfers ------------------------------------

bool AreasTouch(const NavalMap& map, const std::string& a, const std::string& b) {
  return a == b || map.DirectionTo(a, b).has_value();
}

Status RunSupply(Pate& p) {
  // PATE 3.5: the Naval Minister's stores, port to port.
  std::map<std::string, int> sent, received;
  // Rules version 2: stores move only from the port they began the turn in
  // (no second move the same turn); version 1 let them move on.
  const bool began_here_only = p.version() >= 2;
  // Rules version 3: the land route too — two ports on the land map within
  // 10 strategic squares, in contact (a reading of GITM 10.2, which is not
  // in hand: no unit of a state at war with the sender in either port's
  // strategic square). Version 2 knew the sea route only.
  const bool land_route = p.version() >= 3;
  // Version 12 (kLandRouteAboardVersion): troops aboard a transport lying in
  // a port on the land map stand on that city's square, as SOW reads them
  // (sow::TransportLandSquare, sow=7); version 11 counted no unit aboard.
  const bool aboard_in_port = p.version() >= kLandRouteAboardVersion;
  auto by_land = [&](const City& a, const City& b, const std::string& state) {
    if (!land_route || a.kind != projections::CityKind::Port || b.kind != projections::CityKind::Port) return false;
    if (sow::SquareDistance(a.square, b.square) > kStoresLandRouteSquares) return false;
    for (const auto& [uid, u] : p.s().units) {
      if (!u.active || !p.Hostile(u.state, state)) continue;
      std::optional<projections::Square> at = u.square;
      if (!u.aboard.empty()) at = aboard_in_port ? sow::TransportLandSquare(p.s(), p.f(), u.aboard) : std::nullopt;
      if (at && (*at == a.square || *at == b.square)) return false;
    }
    return true;
  };
  for (const auto& [seq, m] : Pending<fb::MoveStoresOrder>(p.s(), fb::PateOrderBody_MoveStoresOrder)) {
    std::string from = m->from()->str(), to = m->to()->str();
    int n = m->stores();
    const City* a = p.city(from);
    const City* b = p.city(to);
    const Port* pa = p.map().PortNamed(from);
    const Port* pb = p.map().PortNamed(to);
    std::string state = a ? a->controller : "";
    std::string why;
    bool overland = false;  // the land route (version 3)
    if (!a || !b || !pa || !pb) {
      why = "both ports must be ports of the naval map";
    } else if (b->controller != state) {
      why = to + " is held by " + b->controller + ", not " + state;
    } else if (!(overland = by_land(*a, *b, state)) && !AreasTouch(p.map(), pa->sea_area, pb->sea_area)) {
      why = from + " and " + to + " are not on the same or adjacent sea areas" +
            (land_route ? " nor joined by land (on the land map, within " + std::to_string(kStoresLandRouteSquares) +
                              " strategic squares, no enemy unit in either port's square)"
                        : "");
    } else if (sent[from] + n > kStoresMovedMax) {
      why = from + " may send at most " + std::to_string(kStoresMovedMax) + " stores a turn";
    } else if (a->stores < n) {
      why = from + " has only " + std::to_string(a->stores) + " stores";
    } else if (began_here_only && a->stores - received[from] < n) {
      why = from + " has only " + std::to_string(a->stores - received[from]) +
            " stores that began the turn there (stores make one move a turn)";
    } else if (!overland) {
      for (const auto& [id, o] : p.f().ships) {
        bool there = o.location == from || o.location == to || o.location == pa->sea_area || o.location == pb->sea_area;
        if (o.on_map() && there && p.Hostile(o.state, state)) why = "hostile ships (" + id + ") are on the way";
      }
    }
    if (!why.empty()) {
      p.Rejected(seq, "PATE 3.5", why);
      continue;
    }
    sent[from] += n;
    received[to] += n;
    p.Emit([=](Fbb& f) -> Body {
      return {fb::PateEventBody_StoresMoved, fb::CreateStoresMovedDirect(f, from.c_str(), to.c_str(), n, seq).Union()};
    });
  }
  // PATE 2.7: crew transfers between ships in one place, no enemy present.
  // Rules version 3: a ship may be left with fewer than 70 only when she is
  // scuttled at once, and she is when her whole crew is sent; version 2
  // refused any transfer leaving fewer than 70.
  const bool may_scuttle = p.version() >= 3;
  for (const auto& [seq, t] : Pending<fb::TransferCrewOrder>(p.s(), fb::PateOrderBody_TransferCrewOrder)) {
    const Ship* a = p.ship(t->from()->str());
    const Ship* b = p.ship(t->to()->str());
    int n = t->crew();
    bool scuttle = false;
    std::string why;
    if (!a || !b) {
      why = "both ships must still be afloat";
    } else if (!InContact(*a, *b) || PlaceOf(*a).part != PlaceOf(*b).part) {
      why = a->id + " and " + b->id + " are not in the same place (both in harbour, both in coastal waters, or in "
                                      "sight at sea)";
    } else if (a->crew - n < kCrewKeptShip && !(may_scuttle && n == static_cast<int>(a->crew))) {
      why = a->id + " would keep fewer than " + std::to_string(kCrewKeptShip) + " crew" +
            (may_scuttle ? " (to scuttle her, send her whole crew)" : "");
    } else {
      scuttle = a->crew - n < kCrewKeptShip;
      auto full = sow::FullComplement(FbType(b->type), b->frigates, b->capacity);
      if (b->crew + n > full.crew) why = b->id + " can hold at most " + std::to_string(full.crew) + " crew";
      for (const auto& [id, o] : p.f().ships) {
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
    // Her Marines, whom the book does not move, go down with her (ASSUMED).
    if (scuttle) p.Sunk(from.id, "PATE 2.7", "scuttled after sending her whole crew to " + to.id);
  }
  // PATE 3.4: stores used, loaded and unloaded.
  auto orders = CarriedOut(p.f(), StandingShipOrders(p.s()));
  std::map<std::string, int> reprovisioned;
  // Rules version 3: an enemy city's stores are not to be had (3.4's "if
  // available"): a ship in an enemy harbour eats her own; version 2 fed her
  // from the port whoever held it.
  const bool enemy_port_feeds = p.version() < 3;
  for (const std::string& id : p.OnMap()) {
    Ship sh = *p.ship(id);
    const City* c = p.city(sh.location);
    int port_stores = c ? c->stores : 0;
    int drawn = 0;  // from the port (+) or back to it (−)
    Ship after = sh;
    std::vector<std::string> said;
    bool harbour = sh.in_port && c;
    bool port_feeds = harbour && port_stores > 0 && (enemy_port_feeds || !p.Hostile(c->controller, sh.state));
    if (port_feeds) {
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
    if (sh.stores == 0 && drawn <= 0 && !port_feeds) {
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

}  // namespace adjutant::rules::pate::internal
