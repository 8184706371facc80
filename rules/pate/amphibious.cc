// PATE 3.6, 3.9, 9, 10: transports loading and unloading over the two
// amphibious phases, and the battles for off-map ports.
#include "rules/pate/phase_internal.h"

#include <algorithm>

namespace adjutant::rules::pate::internal {

Status PortBattles(Pate& p);  // below

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
  auto orders = CarriedOut(p.f(), StandingShipOrders(p.s()));
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


// 3.9: what was begun is finished if the transport is still in that port;
// then the battles for off-map ports (10).
Status RunLanded(Pate& p) {
  for (const auto& [id, sh] : std::map<std::string, Ship>(p.f().ships)) {
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

}  // namespace adjutant::rules::pate::internal
