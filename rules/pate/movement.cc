// PATE 3.8, 6, 8: the movement phase — winds and their shift, storms, the
// eight steps of 6.5, pursuit, encounters and the gauge, the Atlantic — and
// 6.12 on peace and truce turns.
#include "rules/pate/phase_internal.h"

#include <algorithm>
#include <set>

namespace adjutant::rules::pate::internal {

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
  bool crewed = false;      // held in port: she added crew this turn (SOW 4.8)
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
  Movement(Pate& p)
      : p_(p),
        orders_(CarriedOut(p.f(), StandingShipOrders(p.s()))),
        version_(p.version()),
        shift_reads_wind_(version_ >= 3),
        meets_allies_(version_ >= 3) {}

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
    if (pr.pursuing || pr.crossing || pr.crewed || !o.moves()) return std::nullopt;
    const Port* here = p_.map().PortNamed(sh.location);
    auto enter = [&](const std::string& area) -> std::optional<Leg> {
      std::string target = PortTarget(sh, o, area);
      if (target.empty()) return std::nullopt;
      const Port* port = p_.map().PortNamed(target);
      bool harbour = o.harbour && !p_.EnemyShipsInPort(target, sh.state);  // 6.8
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
        if (p_.EnemyShipsInPort(sh.location, sh.state)) {
          *why = "enemy ships are in " + sh.location + ": no moving between harbour and coastal waters (PATE 6.6)";
          return std::nullopt;
        }
        // Rules version 3: moving between harbour and coastal waters is moving
        // into or out of the port (PATE 7.1 so reads 6.6), never upwind into
        // heavy winds; version 2 let the wind pass unread.
        return Leg{{sh.location, want, 0}, want == fb::PortPart_Harbour ? Opposite(here->exit) : here->exit,
                   shift_reads_wind_, false, "", "PATE 6.1"};
      }
      case 2:  // into a port of the sea area she is in
        if (!sh.at_sea() || !o.sea1.empty()) return std::nullopt;
        return enter(sh.location);
      case 3:
      case 6: {
        const std::string& dest = step == 3 ? o.sea1 : o.sea2;
        if (dest.empty() || (step == 6 && (!pr.first || pr.no_second))) return std::nullopt;
        if (step == 3 && sh.at_sea() && sh.location == dest) {  // there already (fled, 7.8)
          // Rules version 5 (PATE 7.8, 4.5): her first move is carried out, so
          // her second may follow; version 4 lost the rest of her orders.
          if (version_ >= kFledFirstMoveVersion) progress_[sh.id].first = true;
          return std::nullopt;
        }
        if (here) {
          if (!p_.map().PortOpensOn(sh.location, dest)) {
            *why = sh.location + " opens only on " + here->sea_area +
                   (here->strait_area.empty() ? "" : " and " + here->strait_area) + " (PATE 6.4)";
            return std::nullopt;
          }
          if (sh.in_port && p_.EnemyShipsInPort(sh.location, sh.state, fb::PortPart_Coastal)) {
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
      if (p_.CrewedThisTurn(sh)) {  // the leg she would make is refused, once
        progress_[id].crewed = true;
        p_.Failed(id, "SOW 4.8", Pate::kCrewedReason);
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
        if (progress_[id].crewed) continue;
        if (p_.CrewedThisTurn(o)) {
          progress_[id].crewed = true;
          p_.Failed(id, "SOW 4.8", Pate::kCrewedReason);
          continue;
        }
        pursuers[gi].push_back(id);
        taken.insert(id);
        progress_[id].pursuing = true;
      }
    }
    // 6.3 (rules version 3): ships passing a strait go through the port's
    // coastal waters, and enemies there with orders to pursue follow them
    // out to the sea area they make for (those in the harbour cannot come
    // out past them, 6.4); version 2 let them pass unseen.
    for (size_t gi = 0; gi < groups.size() && version_ >= 3; ++gi) {
      const Group& g = groups[gi];
      if (g.leg.via.empty()) continue;
      const Ship& lead = *p_.ship(g.ships.front());
      for (const std::string& id : p_.OnMap()) {
        const Ship& o = *p_.ship(id);
        const ShipOrders& oo = orders_[id];
        if (taken.count(id) || o.location != g.leg.via || !o.coastal || !p_.Hostile(o.state, lead.state) ||
            oo.contact != Contact::Pursue ||
            !ContactApplies(oo.min_ships, oo.max_ships, static_cast<int>(g.ships.size()))) {
          continue;
        }
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
    bool enemies = p_.EnemyShipsInPort(leg.port_move ? (p_.map().PortNamed(from.location) ? from.location : leg.to.location) : "", lead.state);
    if (leg.port_move) why = PortMoveBarred(course, wind, enemies);
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
    std::vector<std::string> friends;  // 6.9: the allied ships joined (version 3)
    bool kept_apart = false;           // 6.9: moved on past allies, not joining
    std::vector<std::string> avoided;  // ... those allies
    if (to.part == fb::PortPart_Sea) {
      // 6.8: a random tactical area; 6.9: evaders avoid the enemy; the gauge.
      PATE_TRY(t, p_.Die(lead.id, "tactical area", "PATE 6.8", kTacticalAreas));
      to.tactical = static_cast<uint8_t>(t);
      const ShipOrders& o = orders_[lead.id];
      // The ships at sea in tactical area `tac` of the area reached that `which` takes, in id order.
      auto at_sea_in = [&](uint8_t tac, auto which) {
        std::vector<std::string> out;
        for (const auto& [id, sh] : p_.f().ships) {
          if (sh.on_map() && sh.at_sea() && sh.location == to.location && sh.tactical == tac && which(id, sh)) {
            out.push_back(id);
          }
        }
        return out;
      };
      auto hostiles_at = [&](uint8_t tac) {
        return static_cast<int>(
            at_sea_in(tac, [&](const std::string&, const Ship& sh) { return p_.Hostile(sh.state, lead.state); }).size());
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
      // 6.9 (rules version 3): allied ships in the tactical area reached.
      // Without Join Allies (never with Evade, 4.6) the group keeps apart, in
      // the next tactical area free of them (and, evading, of the enemy), if
      // there is one; with it, it joins them and sails with them. Version 2
      // took no notice of allies.
      auto friends_at = [&](uint8_t tac) {
        return at_sea_in(tac, [&](const std::string& id, const Ship& sh) {
          return p_.Friendly(sh.state, lead.state) && std::find(ships.begin(), ships.end(), id) == ships.end();
        });
      };
      if (meets_allies_) {
        friends = friends_at(to.tactical);
        if (!friends.empty() && !o.join_allies) {
          avoided = friends;
          const bool evading = o.contact == Contact::Evade;
          for (int k = 1; k < kTacticalAreas; ++k) {
            uint8_t alt = static_cast<uint8_t>((to.tactical - 1 + k) % kTacticalAreas + 1);
            if (friends_at(alt).empty() && (!evading || hostiles_at(alt) == 0)) {
              to.tactical = alt;
              kept_apart = true;
              break;
            }
          }
          friends = friends_at(to.tactical);
          n = hostiles_at(to.tactical);
        }
      }
      if (n > 0) {
        PATE_TRY(g, GaugeOnMeeting(lead, to, leg.heading, o.windward));
        gauge = g;
      }
    }
    const bool joined = JoinsAllies(friends, gauge);
    std::string detail = "from " + Describe(from) + " to " + Describe(to) + (leg.via.empty() ? "" : " through the coastal waters of " + leg.via);
    // 6.3 (version 3): the enemies in the strait port, as the ships pass its
    // coastal waters — both sides see each other there (5.1).
    std::vector<std::string> in_strait;
    if (!leg.via.empty() && version_ >= 3) {
      for (const std::string& id : p_.OnMap()) {
        const Ship& o = *p_.ship(id);
        if (o.location == leg.via && !o.at_sea() && p_.Hostile(o.state, lead.state)) in_strait.push_back(id);
      }
    }
    bool windward = SideOfWind(friends, gauge, joined);
    // 6.9, 6.10 (rules version 5): pursuers reaching at sea the ships they
    // followed, who met no enemy there, arrive as a second group: from
    // windward sailing downwind, from leeward upwind, across the wind by the
    // requests (the pursuers' lead's against the group's), else a d2; with
    // allies joined, on the side away from them. Version 4 gave neither side
    // the gauge.
    std::optional<bool> pursuers_windward;
    if (gauge) {
      pursuers_windward = !*gauge;
    } else if (!pursuers.empty() && to.part == fb::PortPart_Sea && version_ >= kPursuitGaugeVersion) {
      if (joined) {
        pursuers_windward = !windward;
      } else {
        const Course c = CourseOf(leg.heading, p_.WindAt(to.location));
        const bool theirs = orders_[pursuers.front()].windward;
        if (c != Course::Across) {
          pursuers_windward = c == Course::Downwind;
        } else if (orders_[lead.id].windward != theirs) {
          pursuers_windward = theirs;
        } else {
          PATE_TRY(g, p_.Die(pursuers.front(), "gauge", "PATE 6.9", 2));
          pursuers_windward = g == 1;
        }
        windward = !*pursuers_windward;
      }
    }
    for (const auto& id : ships) p_.Moved(id, to, leg.rule, detail, 0, windward);
    if (joined) {
      Joined(ships, friends, to);
    } else if (kept_apart) {
      for (const auto& id : ships) {
        p_.Observe(id, fb::ObservationKind_Event, to.location, avoided, static_cast<int>(avoided.size()), false, false,
                   "kept apart from allied ships in " + Describe(to) + " (not ordered to join allies)", "PATE 6.9");
      }
    }
    Place pursued_to = to;
    if (pursued_to.part == fb::PortPart_Harbour) pursued_to.part = fb::PortPart_Coastal;  // 6.10
    for (const auto& id : pursuers) {
      p_.Moved(id, pursued_to, "PATE 6.10", "pursuing " + lead.id + " to " + Describe(pursued_to), 0,
               pursuers_windward);
    }
    if (!in_strait.empty()) {
      for (const auto& id : in_strait) {
        p_.Observe(id, fb::ObservationKind_Event, leg.via, ships, static_cast<int>(ships.size()), false, false,
                   "enemy ships passed through the coastal waters of " + leg.via + " from " + from.location + " to " +
                       to.location,
                   "PATE 6.3");
      }
      for (const auto& id : ships) {
        p_.Observe(id, fb::ObservationKind_Event, leg.via, in_strait, static_cast<int>(in_strait.size()), false, false,
                   "passed enemy ships at " + leg.via + " going through its coastal waters", "PATE 6.3");
      }
    }
    if (gauge) Met(ships, lead.state, to, *gauge, friends.empty(), "enemy ships arrived from " + from.location);
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

  // 6.9: the side of the wind a group reaching enemies at sea in `to` takes,
  // sailing `heading`: windward from windward (downwind), leeward from
  // leeward (upwind); across the wind by the requests (`requested`, the
  // group's lead's, against the first enemy's there), else a d2.
  Result<bool> GaugeOnMeeting(const Ship& lead, const Place& to, Compass heading, bool requested) {
    Course c = CourseOf(heading, p_.WindAt(to.location));
    if (c == Course::Downwind) return true;
    if (c == Course::Upwind) return false;
    bool theirs = false;
    for (const auto& [id, sh] : p_.f().ships) {
      if (sh.on_map() && sh.at_sea() && sh.location == to.location && sh.tactical == to.tactical &&
          p_.Hostile(sh.state, lead.state)) {
        theirs = orders_[id].windward;
        break;
      }
    }
    if (requested != theirs) return requested;
    PATE_TRY(g, p_.Die(lead.id, "gauge", "PATE 6.9", 2));
    return g == 1;
  }

  // 6.9 (version 3): a group finding allied ships (`friends`) where it
  // arrives joins them; with enemies there too (`gauge`, the side it comes
  // in on), only when they are the first group on that side (a third group).
  bool JoinsAllies(const std::vector<std::string>& friends, std::optional<bool> gauge) const {
    if (friends.empty()) return false;
    if (!gauge) return true;
    return std::any_of(friends.begin(), friends.end(),
                       [&](const std::string& id) { return p_.ship(id)->windward == *gauge; });
  }
  // 6.9: the side of the wind the group takes: the one it came in on against
  // enemies; joining allies with no enemy there, theirs; else leeward.
  bool SideOfWind(const std::vector<std::string>& friends, std::optional<bool> gauge, bool joined) const {
    if (gauge) return *gauge;
    return joined && p_.ship(friends.front())->windward;
  }
  // 6.9: each ship of the group is told of the allies it joined.
  void Joined(const std::vector<std::string>& ships, const std::vector<std::string>& friends, const Place& to) {
    for (const auto& id : ships) {
      p_.Observe(id, fb::ObservationKind_Event, to.location, friends, static_cast<int>(friends.size()), false, false,
                 "joined allied ships in " + Describe(to), "PATE 6.9");
    }
  }

  // 6.9: the enemies (of `state`, the group's lead's) that `ships` met in
  // `to` take the other side of the wind from `gauge` (the group's), and both
  // sides see it. Enemies already facing allies there keep their side
  // (`move_met` false, a third group, version 3).
  void Met(const std::vector<std::string>& ships, const std::string& state, const Place& to, bool gauge, bool move_met,
           const std::string& told) {
    std::vector<std::string> met;
    for (const auto& [id, sh] : std::map<std::string, Ship>(p_.f().ships)) {
      if (sh.on_map() && sh.at_sea() && sh.location == to.location && sh.tactical == to.tactical &&
          p_.Hostile(sh.state, state)) {
        met.push_back(id);
        // Version 3, a third group (6.9): enemies already facing allies
        // there keep their side of the wind (their position to those
        // allies is taken); the group comes in on the side it approached.
        if (sh.windward == gauge && move_met) {
          p_.Moved(id, to, "PATE 6.9", "takes the " + std::string(gauge ? "leeward" : "windward") + " gauge", 0, !gauge);
        }
      }
    }
    for (const auto& id : ships) {
      p_.Observe(id, fb::ObservationKind_Event, to.location, met, static_cast<int>(met.size()), !gauge, false,
                 "met enemy ships in " + Describe(to), "PATE 6.9");
    }
    for (const auto& id : met) {
      p_.Observe(id, fb::ObservationKind_Event, to.location, ships, static_cast<int>(ships.size()), gauge, false, told,
                 "PATE 6.9");
    }
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
  // Version 6: those arriving, by sea area and state, meet what is there
  // together (ArrivalsMeeting); version 5 drew an area for each alone.
  // Version 12: arrivals of allied states in one area are one group, as
  // they crossed (6.7, 6.11), the first ship's state deciding who is a
  // friend; the groups of an area in the order of their first ships' ids.
  Status Arrivals() {
    const bool together = version_ >= kArrivalEncounterVersion;
    const bool allies = version_ >= kArrivalAlliesTogetherVersion;
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> groups;  // (area, state) -> ships
    std::map<std::string, std::vector<std::vector<std::string>>> allied;           // area -> groups (version 12)
    for (const auto& [id, sh] : std::map<std::string, Ship>(p_.f().ships)) {
      if (!sh.active || sh.crossing_turns == 0 || progress_[id].crossing) continue;
      uint8_t left = sh.crossing_turns - 1;
      if (left == 0 && allies) {
        auto& in_area = allied[sh.location];
        auto g = std::find_if(in_area.begin(), in_area.end(), [&](const std::vector<std::string>& group) {
          return p_.Friendly(p_.ship(group.front())->state, sh.state);
        });
        if (g == in_area.end()) in_area.push_back({id}); else g->push_back(id);
        continue;
      }
      if (left == 0 && together) {
        groups[{sh.location, sh.state}].push_back(id);
        continue;
      }
      uint8_t tac = 0;
      if (left == 0) {
        PATE_TRY(t, p_.Die(id, "tactical area", "PATE 6.8", kTacticalAreas));
        tac = static_cast<uint8_t>(t);
      }
      p_.Moved(id, {sh.location, fb::PortPart_Sea, tac}, "PATE 6.11",
               left == 0 ? "arrived from the Atlantic" : "crossing the Atlantic", left);
    }
    for (const auto& [key, ships] : groups) ADJ_RETURN_IF_ERROR(ArrivalsMeeting(key.first, ships));
    for (const auto& [area, in_area] : allied) {
      for (const auto& ships : in_area) ADJ_RETURN_IF_ERROR(ArrivalsMeeting(area, ships));
    }
    return Status::Ok();
  }

  // Version 6 (tables.h kArrivalEncounterVersion): the ships of one state
  // arriving in one sea area this turn arrive together, in one tactical area
  // (6.11: groups cross together; 6.8: a d4), and meet what is there as a
  // group moving in does (6.9) under the orders they crossed without (4.11's
  // defaults: no evasion, no gauge asked, Join Allies ticked): the enemies
  // from windward sailing downwind, from leeward upwind, across the wind by
  // the enemy's request, else a d2 — sailing west onto the American map,
  // east onto the European; allied ships there are joined, on their side of
  // the wind, or with enemies there too when they are the first group on
  // the side the arrivals come from.
  Status ArrivalsMeeting(const std::string& area, const std::vector<std::string>& ships) {
    const Ship lead = *p_.ship(ships.front());
    PATE_TRY(t, p_.Die(lead.id, "tactical area", "PATE 6.8", kTacticalAreas));
    const Place to{area, fb::PortPart_Sea, static_cast<uint8_t>(t)};
    bool enemies = false;
    std::vector<std::string> friends;  // allied ships there, not of the group
    for (const auto& [id, sh] : p_.f().ships) {
      if (!sh.on_map() || !sh.at_sea() || sh.location != to.location || sh.tactical != to.tactical) continue;
      enemies |= p_.Hostile(sh.state, lead.state);
      if (p_.Friendly(sh.state, lead.state) && std::find(ships.begin(), ships.end(), id) == ships.end()) {
        friends.push_back(id);
      }
    }
    const ShipOrders& o = orders_[lead.id];
    if (!o.join_allies) friends.clear();  // (crossing ships carry the default: ticked)
    std::optional<bool> gauge;
    if (enemies) {
      const auto* at = p_.map().Area(area);
      const Compass heading = at && at->map == MapSide::America ? Compass::W : Compass::E;
      PATE_TRY(g, GaugeOnMeeting(lead, to, heading, o.windward));
      gauge = g;
    }
    const bool joined = JoinsAllies(friends, gauge);
    const bool windward = SideOfWind(friends, gauge, joined);
    for (const auto& id : ships) p_.Moved(id, to, "PATE 6.11", "arrived from the Atlantic", 0, windward);
    if (joined) Joined(ships, friends, to);
    if (gauge) Met(ships, lead.state, to, *gauge, friends.empty(), "enemy ships arrived from the Atlantic");
    return Status::Ok();
  }

  Pate& p_;
  std::map<std::string, ShipOrders> orders_;
  std::map<std::string, Progress> progress_;
  uint32_t version_;
  bool shift_reads_wind_;  // 6.6 for harbour <-> coastal waters (version 3)
  bool meets_allies_;      // 6.9: Join Allies and the third group (version 3)
};

// PATE 6.12, 2.8: peace and truce turns — anywhere, but maybe back at base.
Status RunPeaceMovement(Pate& p) {
  auto orders = CarriedOut(p.f(), StandingShipOrders(p.s()));
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
    if (p.CrewedThisTurn(sh)) {
      p.Failed(id, "SOW 4.8", Pate::kCrewedReason);
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


Status RunMovement(Pate& p) { return p.kind() == SeasonKind::War ? Movement(p).Run() : RunPeaceMovement(p); }

}  // namespace adjutant::rules::pate::internal
