// PATE 3.7, 7: the battles of the combat phase — who is in contact, the
// battle calculator (combat.h), and what follows: damage, sinkings, prizes,
// escapes, what each ship saw.
#include "rules/pate/phase_internal.h"

#include <algorithm>
#include <array>
#include <set>

#include "rules/pate/combat.h"
#include "rules/sow/economy.h"

namespace adjutant::rules::pate::internal {

// ---- 3.7, 7 combat ---------------------------------------------------------------

Kind KindOf(ShipType t) { return static_cast<Kind>(t); }

namespace {

// Does most of `side`'s ships in battle `b` ask for the windward gauge
// (4.6, 4.7; ties leeward, 4.11's default)?
bool AsksWindward(const Battle& b, int side, std::map<std::string, ShipOrders>& orders) {
  int ask = 0, n = 0;
  for (const Combatant& c : b.ships) {
    if (c.side != side) continue;
    ++n;
    ask += orders[c.id].windward ? 1 : 0;
  }
  return 2 * ask > n;
}

// Rules version 3 (PATE 6.9, 7.4, 7.7): the weather gauge of a battle in a
// port's coastal waters, from the wind recorded for the port's sea area
// (1.4). The shoreward side is the one whose ships came out of the harbour
// to fight, else the one friendly to the port's controller. With the wind
// onshore (blowing from the port's exit, off the sea) the seaward side holds
// the gauge; offshore, the shoreward side; across the wind, or with no side
// shoreward, the sides' requests are granted when they differ, else a d2
// (6.9). No wind recorded yet: no gauge (-1).
Result<int> CoastalGauge(Pate& p, const Battle& b, const Port& port, int shoreward,
                         std::map<std::string, ShipOrders>& orders) {
  auto known = p.s().winds.find(port.sea_area);
  if (known == p.s().winds.end()) return -1;
  const Compass from = static_cast<Compass>(known->second.from);
  if (shoreward >= 0 && from == port.exit) return 1 - shoreward;    // onshore
  if (shoreward >= 0 && from == Opposite(port.exit)) return shoreward;  // offshore
  const bool ask0 = AsksWindward(b, 0, orders), ask1 = AsksWindward(b, 1, orders);
  if (ask0 != ask1) return ask0 ? 0 : 1;
  PATE_TRY(d, p.Die(b.id, "gauge", "PATE 6.9", 2));
  return d == 1 ? 0 : 1;
}

}  // namespace

// One battle to fight in the combat phase: where, and its ships by side.
struct Engagement {
  int no = 0;                 // "battle N at ..."
  std::string location;
  Where where = Where::Sea;
  std::array<std::vector<std::string>, 2> ships;    // in the battle, in id order
  std::array<std::vector<std::string>, 2> contact;  // the sides in contact: 4.6's counts, 7.1's batteries
};

struct CombatPhase {
  Pate& p;
  std::map<std::string, ShipOrders> orders;
  uint32_t version = 1;  // the game's pate rules version (Pate::version)
  std::set<std::string> came_out;  // version 3: out of the harbour to fight this phase (7.1)
  std::set<std::string> changed;   // the ships sunk or taken this phase, and the ids given to prizes
  std::set<std::string> evading;   // the ships that sought to evade a battle not fought this phase (4.6, 7.4)
  std::set<std::string> beaten;    // version 10: a beaten side's transport groups, staying where they lost (7.8, 2.1)

  // The ship whose friends form side 0 of a place's battle and whose enemies
  // side 1 (`ids` in id order): rules version 5 (PATE 7.1), the first with an
  // enemy among them, none when no two there are at war; before it, the first.
  std::optional<std::string> Anchor(const std::vector<std::string>& ids) const {
    if (ids.empty()) return std::nullopt;
    if (version < kSidesFromEnemiesVersion) return ids.front();
    for (const auto& id : ids) {
      const std::string& st = p.ship(id)->state;
      if (std::any_of(ids.begin(), ids.end(), [&](const std::string& o) { return p.Hostile(p.ship(o)->state, st); })) {
        return id;
      }
    }
    return std::nullopt;
  }

  Status Fight(const Engagement& e);
  Status PortV3(const std::vector<std::string>& ids, const Port& port, int* battle_no);
  void Split(Engagement e, std::vector<Engagement>* out, int* battle_no) const;
};

// Version 3 (PATE 7.1): outside a harbour, frigates never fight line ships
// nor beside them: the line ships (with the transports) fight one battle and
// the frigates of both sides, if both have some, another. A battle is kept
// only when both sides have a ship in it.
void CombatPhase::Split(Engagement e, std::vector<Engagement>* out, int* battle_no) const {
  auto line = [&](const std::string& id) {
    ShipType t = p.ship(id)->type;
    return t == ShipType::FL || t == ShipType::SL;
  };
  auto keep = [&](Engagement x) {
    if (x.ships[0].empty() || x.ships[1].empty()) return;
    x.no = ++*battle_no;
    x.contact = x.ships;
    out->push_back(std::move(x));
  };
  bool any_line = false;
  for (const auto& side : e.ships) any_line = any_line || std::any_of(side.begin(), side.end(), line);
  if (e.where == Where::Harbour || !any_line) return keep(std::move(e));
  Engagement lines = e, frigates = e;
  for (int side = 0; side < 2; ++side) {
    lines.ships[side].clear();
    frigates.ships[side].clear();
    for (const auto& id : e.ships[side]) {
      (p.ship(id)->type == ShipType::FR ? frigates : lines).ships[side].push_back(id);
    }
  }
  keep(std::move(lines));
  keep(std::move(frigates));
}

// Version 3 (PATE 7.1, 6.6, 6.4): in a port, ships in harbour that seek
// battle (Close, or Pursue) with an enemy in the coastal waters come out, the
// wind permitting (6.6: not upwind, enemies being present); if none comes
// out, ships in the coastal waters ordered into this harbour (and not
// evading) with an enemy there go in, the wind permitting. Only those move:
// the others stay where they are. Then each part fights its own battle.
Status CombatPhase::PortV3(const std::vector<std::string>& ids, const Port& port, int* battle_no) {
  const std::string location = p.ship(ids.front())->location;  // a copy: ships move, and may be taken
  std::vector<std::string> harbour, coastal;
  for (const auto& id : ids) (p.ship(id)->in_port ? harbour : coastal).push_back(id);
  auto hostile_among = [&](const std::vector<std::string>& list, const Ship& sh) {
    return std::any_of(list.begin(), list.end(), [&](const std::string& o) { return p.Hostile(p.ship(o)->state, sh.state); });
  };
  // 6.6: the wind recorded for the port (none before the first movement phase: not barred).
  const bool wind_known = p.s().winds.count(port.sea_area) > 0;
  const projections::Wind wind = p.WindAt(location);
  auto barred = [&](Compass heading) {
    return wind_known ? PortMoveBarred(CourseOf(heading, wind), wind, true) : std::string();
  };
  // Rules version 5 (PATE 6.4): a ship ordered out to sea may leave the
  // harbour past hostile ships (not transports, 2.1) off the coast only now,
  // and must fight her way out if they give battle; version 4 held her in.
  const bool sorties = version >= kSortieVersion;
  // May ship `id` move between harbour and coastal waters now, heading
  // `heading`? 6.6's wind (enemies being present: never upwind); and, rules
  // version 7 (SOW 4.8), not a ship that added crew this turn (version 6
  // moved her here though the movement phase would hold her). If not, she
  // is told why (`what`: what she could not do).
  auto may_shift = [&](const std::string& id, Compass heading, const std::string& what) {
    if (version >= kCrewedStayVersion && p.CrewedThisTurn(*p.ship(id))) {
      p.Failed(id, "SOW 4.8", "could not " + what + ": " + Pate::kCrewedReason);
      return false;
    }
    if (std::string why = barred(heading); !why.empty()) {
      p.Failed(id, "PATE 6.6", "could not " + what + ": " + why);
      return false;
    }
    return true;
  };
  std::set<std::string> out_now, in_now;
  for (const auto& id : harbour) {
    const Ship& sh = *p.ship(id);
    const ShipOrders& o = orders[id];
    const bool seeks_battle = (o.engage == Engage::Close || o.contact == Contact::Pursue) && hostile_among(coastal, sh);
    const bool sails_out =
        sorties && !o.sea1.empty() && p.EnemyShipsInPort(location, sh.state, fb::PortPart_Coastal);
    if (!seeks_battle && !sails_out) continue;
    if (!may_shift(id, port.exit,
                   seeks_battle ? "come out of the harbour to fight"
                                : "come out of the harbour past the hostile ships off the coast")) {
      continue;
    }
    out_now.insert(id);
  }
  if (out_now.empty()) {
    for (const auto& id : coastal) {
      const Ship& sh = *p.ship(id);
      const ShipOrders& o = orders[id];
      if (!o.harbour || o.port != location || o.engage == Engage::Evade || !hostile_among(harbour, sh)) continue;
      if (!may_shift(id, Opposite(port.exit), "go into the harbour to fight")) continue;
      in_now.insert(id);
    }
  }
  // Rules version 7 (PATE 6.4): the ships in the coastal waters ordered
  // into this harbour while hostile ships are off the coast and none in the
  // harbour: they go in after the battles, unless they evaded theirs.
  std::vector<std::string> inbound;
  for (const auto& id : coastal) {
    if (version < kInboundVersion) break;
    const Ship& sh = *p.ship(id);
    const ShipOrders& o = orders[id];
    if (o.harbour && o.port == location && o.sea1.empty() &&
        p.EnemyShipsInPort(location, sh.state, fb::PortPart_Coastal) &&
        !p.EnemyShipsInPort(location, sh.state, fb::PortPart_Harbour)) {
      inbound.push_back(id);
    }
  }
  for (const auto& id : ids) {
    if (out_now.count(id)) {
      const ShipOrders& o = orders[id];
      const bool seeks_battle = o.engage == Engage::Close || o.contact == Contact::Pursue;
      p.Moved(id, {location, fb::PortPart_Coastal, 0}, seeks_battle ? "PATE 7.1" : "PATE 6.4",
              seeks_battle ? "out to the coastal waters to fight"
                           : "out to the coastal waters past the hostile ships there, bound for " + o.sea1,
              0, false);
      came_out.insert(id);
    } else if (in_now.count(id)) {
      p.Moved(id, {location, fb::PortPart_Harbour, 0}, "PATE 7.1", "into the harbour to fight", 0, false);
    }
  }
  // Each part's battle: the anchor's friends against her enemies (Anchor).
  std::vector<Engagement> battles;
  for (Where where : {Where::Harbour, Where::Coastal}) {
    std::vector<std::string> part;
    for (const auto& id : ids) {
      if (p.ship(id) && p.ship(id)->in_port == (where == Where::Harbour)) part.push_back(id);
    }
    if (part.empty()) continue;
    const auto anchor = Anchor(part);
    if (!anchor) continue;
    Engagement e;
    e.location = location;
    e.where = where;
    const std::string first = p.ship(*anchor)->state;
    for (const auto& id : part) {
      const std::string& st = p.ship(id)->state;
      if (p.Friendly(st, first)) e.ships[0].push_back(id);
      else if (p.Hostile(st, first)) e.ships[1].push_back(id);
    }
    Split(std::move(e), &battles, battle_no);
  }
  for (const auto& e : battles) ADJ_RETURN_IF_ERROR(Fight(e));
  // Rules version 7 (PATE 6.4, 6.6): a ship in the coastal waters ordered
  // into this harbour while hostile ships were off the coast has offered them
  // battle (fought above if they gave it); if she is still there and they
  // still are, she goes in now, no hostile ship being in the harbour and the
  // wind permitting (upwind is barred, enemies being present). If they have
  // gone, the movement phase shifts her as it would any ship.
  for (const auto& id : inbound) {
    if (changed.count(id)) continue;   // sunk or taken (a prize may have been given her id)
    if (evading.count(id)) continue;   // she sought to evade and no battle was fought (7.4)
    if (beaten.count(id)) continue;    // version 10: a transport group of the beaten side stays (7.8, 2.1)
    const Ship* sh = p.ship(id);
    if (!sh || sh->location != location || sh->in_port) continue;  // fled or evaded out to sea
    if (!p.EnemyShipsInPort(location, sh->state, fb::PortPart_Coastal) ||
        p.EnemyShipsInPort(location, sh->state, fb::PortPart_Harbour)) {
      continue;
    }
    if (!may_shift(id, Opposite(port.exit), "go into the harbour past the hostile ships off the coast")) continue;
    p.Moved(id, {location, fb::PortPart_Harbour, 0}, "PATE 6.4", "into the harbour past the hostile ships off the coast",
            0, false);
  }
  return Status::Ok();
}

Status RunCombat(Pate& p) {
  CombatPhase phase{p, CarriedOut(p.f(), StandingShipOrders(p.s())), p.version(), {}, {}, {}, {}};
  auto& orders = phase.orders;
  // The places where hostile ships are in contact, in order.
  std::map<std::string, std::vector<std::string>> places;  // key: location / tactical
  for (const std::string& id : p.OnMap()) {
    const Ship& sh = *p.ship(id);
    std::string key = sh.location + (sh.at_sea() ? "/" + std::to_string(sh.tactical) : "");
    places[key].push_back(id);
  }
  int battle_no = 0;
  for (const auto& [key, ids] : places) {
    // Sides: the anchor's friends against her enemies (ships neutral to
    // both stay out).
    const auto anchor = phase.Anchor(ids);
    if (!anchor) continue;
    const Ship first = *p.ship(*anchor);  // a copy: she may be taken or sunk
    std::vector<std::string> side0, side1;
    for (const auto& id : ids) {
      const Ship& sh = *p.ship(id);
      if (p.Friendly(sh.state, first.state)) side0.push_back(id);
      else if (p.Hostile(sh.state, first.state)) side1.push_back(id);
    }
    if (side1.empty()) continue;
    const Port* port = p.map().PortNamed(first.location);
    if (phase.version >= 3) {
      // Version 3 (PATE 7.1): see PortV3 and Split.
      if (port) {
        ADJ_RETURN_IF_ERROR(phase.PortV3(ids, *port, &battle_no));
      } else {
        Engagement e;
        e.location = first.location;
        e.where = Where::Sea;
        e.ships = {side0, side1};
        std::vector<Engagement> battles;
        phase.Split(std::move(e), &battles, &battle_no);
        for (const auto& e : battles) ADJ_RETURN_IF_ERROR(phase.Fight(e));
      }
      continue;
    }
    // Versions 1 and 2 (7.1): in a port, ships in harbour come out when they
    // seek battle, else ships offshore ordered into the harbour go in (every
    // ship in the port then fights there); otherwise each part fights only
    // those in it. One battle a place: frigates stand aside from line ships.
    Engagement e;
    e.no = ++battle_no;
    e.location = first.location;
    e.where = first.at_sea() ? Where::Sea : Where::Coastal;
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
      if (harbour_any && !coastal_any) e.where = Where::Harbour;
      else if (harbour_any && coastal_any && !come_out && go_in) e.where = Where::Harbour;
      else e.where = Where::Coastal;
    }
    auto in_battle = [&](const Ship& sh) {
      if (e.where == Where::Sea) return true;
      if (e.where == Where::Harbour) return true;  // those offshore came in, or all were in
      return sh.coastal || orders[sh.id].engage == Engage::Close || orders[sh.id].contact == Contact::Pursue;
    };
    e.contact = {side0, side1};
    for (int side = 0; side < 2; ++side) {
      for (const auto& id : e.contact[side]) {
        if (in_battle(*p.ship(id))) e.ships[side].push_back(id);
      }
    }
    ADJ_RETURN_IF_ERROR(phase.Fight(e));
  }
  return Status::Ok();
}

// One battle: the calculator (combat.h), then what follows.
Status CombatPhase::Fight(const Engagement& e) {
  // Rules version 2 (PATE 3.7, 7.1, 7.4): ships in a port that go into the
  // harbour or come out of it to fight are moved there, and a side that
  // wholly evades and gets away leaves contact though no battle is fought.
  // Version 1 did neither: the ships stayed where they were recorded.
  // (Version 3 moves them before the battles: PortV3.)
  const bool moves_to_fight = version >= 2;
  // Rules version 3 (PATE 6.9, 7.4, 7.7): a battle in a port's coastal
  // waters has a weather gauge too, from the recorded wind; version 2 gave
  // it none (evasion at 50%, nobody +10% to windward).
  const bool coastal_gauge = version >= 3;
  // Rules version 3 (PATE 7.7): a harbour's batteries are its intact and
  // its damaged ones, each counted once (100 and 50 x defence). Version 2
  // took the intact ones as the whole and the damaged among them (so an
  // intact battery fought at 50 while a damaged one did not fight).
  const bool batteries_kept = version >= 3;
  // Rules version 3 (PATE 7.7, SOW 7.1): the batteries damaged in the
  // battle are written to their city (BatteriesDamaged), which then fights
  // with them damaged and may repair them; version 2 rolled the damage and
  // forgot it.
  const bool batteries_written = version >= 3;
  // Rules version 5 (PATE 2.1): transports are not 7.4's, 7.5's or 4.6's
  // "ships" (Battle::version).
  const bool transports_not_ships = version >= kTransportsNotShipsVersion;
  const auto& side0 = e.contact[0];
  const auto& side1 = e.contact[1];
  const Port* port = p.map().PortNamed(e.location);
  Battle b;
  b.id = "battle " + std::to_string(e.no) + " at " + e.location;
  b.at = p.at();
  b.where = e.where;
  b.version = version;
  if (port) {
    auto wind = p.WindAt(e.location);
    b.onshore_wind = static_cast<Compass>(wind.from) == port->exit;
  }
  int ww0 = 0, ww1 = 0;
  std::string gauge_note;
  for (int side = 0; side < 2; ++side) {
    for (const auto& id : e.ships[side]) {
      const Ship& sh = *p.ship(id);
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
      // 4.6: the enemy ships counted for a ranged Evade (2.1, version 5: not
      // the transport groups).
      const auto& them = side == 0 ? side1 : side0;
      int enemies = static_cast<int>(
          transports_not_ships ? std::count_if(them.begin(), them.end(),
                                               [&](const std::string& t) { return Pate::IsWarship(*p.ship(t)); })
                               : them.size());
      c.evade = o.engage == Engage::Evade || (o.contact == Contact::Evade && ContactApplies(o.min_ships, o.max_ships, enemies));
      c.close = o.engage == Engage::Close;
      c.break_line = o.break_line;
      c.aim_rigging = !o.aim_hull;
      c.windward = b.where == Where::Sea && sh.windward;
      (side == 0 ? ww0 : ww1) += sh.windward ? 1 : 0;
      b.ships.push_back(c);
    }
  }
  bool both = std::any_of(b.ships.begin(), b.ships.end(), [](const Combatant& c) { return c.side == 0; }) &&
              std::any_of(b.ships.begin(), b.ships.end(), [](const Combatant& c) { return c.side == 1; });
  if (!both) return Status::Ok();
  if (b.where == Where::Sea) b.windward_side = ww0 > ww1 ? 0 : ww1 > ww0 ? 1 : -1;
  if (b.where == Where::Coastal && port && coastal_gauge) {
    std::array<bool, 2> out{};  // came out of the harbour to fight (7.1)
    for (const Combatant& c : b.ships) out[c.side] = out[c.side] || came_out.count(c.id) > 0;
    int shoreward = out[0] != out[1] ? (out[0] ? 0 : 1) : -1;
    if (!out[0] && !out[1]) {
      const City* c = p.city(e.location);
      const bool f0 = c && p.Friendly(c->controller, p.ship(side0.front())->state);
      const bool f1 = c && p.Friendly(c->controller, p.ship(side1.front())->state);
      if (f0 != f1) shoreward = f0 ? 0 : 1;
    }
    PATE_TRY(g, CoastalGauge(p, b, *port, shoreward, orders));
    b.windward_side = g;
    if (g >= 0) {
      gauge_note = "; PATE 6.9: the " + p.ship((g == 0 ? side0 : side1).front())->state +
                   " ships hold the weather gauge in the coastal waters (wind from the " +
                   kCompassNames[p.WindAt(e.location).from] + ", " +
                   (static_cast<Compass>(p.WindAt(e.location).from) == port->exit ? "onshore" : "not onshore") + ")";
    }
  }
  if (b.where == Where::Harbour && port) {
    const City* c = p.city(e.location);
    for (int side = 0; side < 2 && c; ++side) {
      const auto& list = side == 0 ? side0 : side1;
      for (const auto& id : list) {
        if (p.Friendly(c->controller, p.ship(id)->state)) b.battery_side = side;
      }
    }
    if (b.battery_side >= 0 && c) {
      b.defence = port->defence;
      if (batteries_kept) {
        b.batteries = static_cast<uint8_t>(std::min(255, c->batteries + c->batteries_damaged));
        b.batteries_damaged = static_cast<uint8_t>(b.batteries - std::min(b.batteries, c->batteries));
      } else {
        b.batteries = c->batteries;
        b.batteries_damaged = std::min(c->batteries_damaged, c->batteries);
      }
    }
    if (b.batteries == 0) b.battery_side = -1;
  }
  auto r = ResolveBattle(b, p.DiceRef());
  if (!r.ok()) return r.status();
  for (const Roll& roll : r->rolls) p.Record(roll);
  for (const Combatant& c : b.ships) {
    if (c.evade && !r->fought) evading.insert(c.id);  // she offered no battle, and none was fought
  }
  if (!moves_to_fight && !r->fought) return Status::Ok();
  // The battle began when it was fought or someone evaded it (7.4: when
  // both sides evade, no ship moves).
  bool evaded = std::any_of(r->ships.begin(), r->ships.end(), [](const ShipResult& s) { return s.evaded; });
  if (!r->fought && !evaded) return Status::Ok();
  if (moves_to_fight && b.where != Where::Sea) {
    // 3.7, 7.1: in a port, the ships of the battle go into the harbour or
    // come out to the coastal waters to fight there (the wind is not
    // checked, as before).
    const bool in = b.where == Where::Harbour;
    for (const auto& c : b.ships) {
      const Ship& sh = *p.ship(c.id);
      if (sh.in_port == in) continue;
      Place to{sh.location, in ? fb::PortPart_Harbour : fb::PortPart_Coastal, 0};
      p.Moved(c.id, to, "PATE 7.1",
              in ? "into the harbour to fight " + b.id : "out to the coastal waters to fight " + b.id, 0, false);
    }
  }
  if (r->fought) {
    // What every ship in the battle saw.
    std::vector<std::string> all;
    for (const auto& c : b.ships) all.push_back(c.id);
    std::string winner;
    for (const auto& c : b.ships) {
      if (c.side == r->winner && winner.empty()) winner = p.ship(c.id)->state;
    }
    std::string summary = b.id + ": " + (winner.empty() ? std::string("no decision") : "won by " + winner) + gauge_note;
    for (const auto& line : r->log) summary += "; " + line;
    for (const auto& c : b.ships) {
      p.Observe(c.id, fb::ObservationKind_Battle, e.location, all, static_cast<int>(all.size()), false,
                b.where == Where::Harbour, summary, "PATE 7");
    }
  }
  if (batteries_written && r->fought && b.battery_side >= 0 && r->batteries_damaged_after > b.batteries_damaged) {
    const uint8_t n = static_cast<uint8_t>(r->batteries_damaged_after - b.batteries_damaged);
    std::string city = e.location, battle = b.id;
    p.Emit([=](Fbb& f) -> Body {
      auto x = fb::CreateBatteriesDamagedDirect(f, city.c_str(), n, battle.c_str(), "PATE 7.7");
      return {fb::PateEventBody_BatteriesDamaged, x.Union()};
    });
  }
  // Outcomes, ship by ship (when no battle was fought, 7.4's evaders only
  // have one: they get away).
  for (const ShipResult& res : r->ships) {
    if (!p.ship(res.id)) continue;
    if (res.stayed) beaten.insert(res.id);
    const Ship before = *p.ship(res.id);  // a copy: the events below change the state
    const Ship* now = &before;
    Ship after = before;
    after.hull = std::min<uint8_t>(res.hull, 5);
    after.rigging = res.rigging;
    after.crew = std::max(0, now->crew - res.crew_lost);
    after.marines = std::max(0, now->marines - res.marines_lost);
    after.experience = static_cast<uint16_t>(now->experience + res.experience_gained);
    if (res.sunk) {
      changed.insert(res.id);
      p.Sunk(res.id, "PATE 7.7", "sunk in " + b.id, /*in_battle=*/true);
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
      // Rules version 5: at sea, one of the other tactical areas, each as
      // likely (a d3); version 4 rolled a d4 and took the next area for her
      // own, so that one came up half the time.
      const bool even = now->at_sea() && version >= kEscapeAreaVersion;
      PATE_TRY(t, p.Die(res.id, "escape: tactical area", "PATE 7.8", even ? kTacticalAreas - 1 : kTacticalAreas));
      Place to;
      if (even) {
        to = {now->location, fb::PortPart_Sea, static_cast<uint8_t>(t < now->tactical ? t : t + 1)};
      } else if (now->at_sea()) {
        to = {now->location, fb::PortPart_Sea, static_cast<uint8_t>(t == now->tactical ? (t % kTacticalAreas) + 1 : t)};
      } else {
        to = {port ? port->sea_area : now->location, fb::PortPart_Sea, static_cast<uint8_t>(t)};
      }
      p.Moved(res.id, to, res.escaped ? "PATE 7.8" : "PATE 7.4", res.escaped ? "escaped the battle" : "evaded the battle", 0, false);
    } else if (res.captured) {
      const Ship* captor = p.ship(res.captor);
      if (!captor) continue;
      // 7.8: the lowest free number of her type in the captor's state
      // (rules version 8: nor a land unit's, nor one spoken for).
      const bool v8 = version >= kPrizeNumberVersion;
      const std::set<std::string> spoken = v8 ? SpokenForNumbers(p.s(), p.Writer().roster()) : std::set<std::string>{};
      const std::string new_id =
          LowestFreeShipId(p.s(), p.f(), v8, spoken, captor->state, fb::EnumNameSowShipType(FbType(now->type)));
      auto full = sow::FullComplement(FbType(now->type), now->frigates, now->capacity);
      int32_t prize = std::min<int32_t>(static_cast<int32_t>(full.crew * kPrizeCrewPct / 100),
                                        std::max(0, captor->crew - kCrewKeptShip));
      int32_t men = static_cast<int32_t>(after.men());
      changed.insert(res.id);
      changed.insert(new_id);
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
  return Status::Ok();
}

}  // namespace adjutant::rules::pate::internal
