// PATE 3.10, 5: contacts, frigates' sightings, land units, intelligence and
// garrison reports; a turn's experience (2.2); detaching out of contact (4.2).
#include <set>

#include "rules/pate/phase_internal.h"
#include "rules/sow/phases.h"


namespace adjutant::rules::pate::internal {

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
      for (const auto& port : p.map().PortsReachableFrom(sh.location)) {
        // Rules version 5 (PATE 6.3): a strait port is sighted only from the
        // sea area it is connected to, not from the strait's other side
        // (version 4: from both).
        if (p.version() >= kStraitSightingVersion && p.map().PortNamed(port)->sea_area != sh.location) continue;
        places.push_back(port);
      }
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
        // Since rules version 9 a unit aboard is where its transport is
        // (sow::TransportLandSquare, as SOW reads it since sow=7): near
        // while she lies in a port on this port's square, and not
        // otherwise; version 8 counted it on the square it boarded from,
        // wherever the transport had sailed.
        if (!u.aboard.empty() && p.version() >= kAboardNearVersion) {
          const auto at = sow::TransportLandSquare(p.s(), p.f(), u.aboard);
          if (at && *at == c->square) near.push_back(uid);
          continue;
        }
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
    for (const auto& [oid, o] : p.f().ships) {
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
  // 5.3 (rules version 3): the land units in an on-map port's strategic
  // square (its city's tactical square or not) report the ships of other
  // states in the port, harbour or coastal waters, to their state's Naval
  // Minister this turn. Version 2 had the ships see the units only.
  if (p.version() >= 3) {
    for (const auto& [name, c] : p.s().cities) {
      if (c.kind != projections::CityKind::Port) continue;
      std::set<std::string> states;
      for (const auto& [uid, u] : p.s().units) {
        if (u.active && u.aboard.empty() && (u.city == name || u.square == c.square)) states.insert(u.state);
      }
      for (const std::string& state : states) {
        std::vector<std::string> seen;
        bool harbour = false;
        for (const std::string& oid : ids) {
          const Ship* o = p.ship(oid);
          if (!o || o->location != name || o->state == state || o->at_sea()) continue;
          seen.push_back(oid);
          harbour = harbour || o->in_port;
        }
        if (seen.empty()) continue;
        p.Observe("land units of " + state + " at " + name, fb::ObservationKind_Garrison, name, seen,
                  static_cast<int>(seen.size()), false, harbour, "ships in port seen from the land", "PATE 5.3", state);
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
    for (const auto& [oid, o] : p.f().ships) {
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

}  // namespace adjutant::rules::pate::internal
