#include "rules/pate/map.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "rules/versions.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/pate_generated.h"
#include "schema/scenario_generated.h"

namespace adjutant::rules::pate {

namespace {

Compass Opposite(Compass c) {
  switch (c) {
    case Compass::N: return Compass::S;
    case Compass::S: return Compass::N;
    case Compass::E: return Compass::W;
    case Compass::W: return Compass::E;
  }
  return Compass::N;
}

const char* kCompassField[] = {"north", "east", "south", "west"};

Status Bad(const std::string& field, const std::string& why) { return Status::InvalidArgument(field + ": " + why); }

std::string At(const char* list, size_t i) { return std::string(list) + "[" + std::to_string(i) + "]"; }

}  // namespace

Result<NavalMap> NavalMap::Load(const fb::NavalMap& doc) {
  NavalMap m;
  m.atlantic_turns_min = doc.atlantic_turns_min();
  m.atlantic_turns_max = doc.atlantic_turns_max();
  m.atlantic_frigate_turns_min = doc.atlantic_frigate_turns_min();
  m.atlantic_frigate_turns_max = doc.atlantic_frigate_turns_max();
  if (m.atlantic_turns_min < 1 || m.atlantic_turns_min > m.atlantic_turns_max ||
      m.atlantic_frigate_turns_min < 1 || m.atlantic_frigate_turns_min > m.atlantic_frigate_turns_max) {
    return Bad("atlantic_turns", "each minimum must be at least 1 and at most its maximum (PATE 6.11)");
  }
  if (!doc.sea_areas() || doc.sea_areas()->size() == 0) return Bad("sea_areas", "a map needs sea areas");
  for (size_t i = 0; i < doc.sea_areas()->size(); ++i) {
    const auto* d = doc.sea_areas()->Get(static_cast<flatbuffers::uoffset_t>(i));
    SeaArea a;
    a.code = d->code()->str();
    a.name = d->name()->str();
    a.map = static_cast<MapSide>(d->map());
    a.atlantic = d->atlantic();
    a.lon = d->lon(), a.lat = d->lat();
    if (d->seeds()) a.seeds.assign(d->seeds()->begin(), d->seeds()->end());
    if (a.seeds.size() % 2) return Bad(At("sea_areas", i) + ".seeds", "longitudes and latitudes come in pairs");
    for (size_t k = 0; k <= a.seeds.size(); k += 2) {
      double lon = k < a.seeds.size() ? a.seeds[k] : a.lon, lat = k < a.seeds.size() ? a.seeds[k + 1] : a.lat;
      if (std::abs(lon) > 180 || std::abs(lat) > 90) {
        return Bad(At("sea_areas", i) + (k < a.seeds.size() ? ".seeds[" + std::to_string(k) + "]" : ".lon"),
                   "not a place on the earth (longitude within 180, latitude within 90 degrees)");
      }
    }
    if (a.code.size() != 3) return Bad(At("sea_areas", i) + ".code", "'" + a.code + "' is not a three-letter code (PATE 1.4)");
    const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>* lists[4] = {d->north(), d->east(), d->south(),
                                                                                       d->west()};
    for (int c = 0; c < 4; ++c) {
      if (lists[c]) for (const auto* n : *lists[c]) a.neighbours[c].push_back(n->str());
    }
    int total = 0;
    if (d->winds()) {
      for (const auto* w : *d->winds()) {
        a.winds.push_back({static_cast<Compass>(w->from()), static_cast<uint8_t>(w->strength()), w->chance_pct()});
        total += w->chance_pct();
      }
    }
    if (total != 100) {
      return Bad(At("sea_areas", i) + ".winds", "the chances of " + a.code + " sum to " + std::to_string(total) + ", not 100");
    }
    if (!m.areas_.emplace(a.code, a).second) return Bad(At("sea_areas", i) + ".code", "'" + a.code + "' appears twice");
  }
  // Every neighbour exists, on the same map, and sees this area back the
  // other way (PATE 6.2: adjacency is mutual).
  size_t i = 0;
  for (const auto& d : *doc.sea_areas()) {
    const SeaArea& a = m.areas_.at(d->code()->str());
    for (int c = 0; c < 4; ++c) {
      for (size_t k = 0; k < a.neighbours[c].size(); ++k) {
        std::string field = At("sea_areas", i) + "." + kCompassField[c] + "[" + std::to_string(k) + "]";
        const SeaArea* b = m.Area(a.neighbours[c][k]);
        if (!b) return Bad(field, "no sea area '" + a.neighbours[c][k] + "'");
        if (b->map != a.map) return Bad(field, a.code + " and " + b->code + " are on different maps (they meet only across the Atlantic, PATE 1.6)");
        const auto& back = b->neighbours[static_cast<int>(Opposite(static_cast<Compass>(c)))];
        if (std::find(back.begin(), back.end(), a.code) == back.end()) {
          return Bad(field, b->code + " lies " + kCompassField[c] + " of " + a.code + ", but " + a.code + " is not in " +
                                b->code + "'s " + kCompassField[static_cast<int>(Opposite(static_cast<Compass>(c)))] + " list");
        }
      }
    }
    ++i;
  }
  if (doc.ports()) {
    for (size_t p = 0; p < doc.ports()->size(); ++p) {
      const auto* d = doc.ports()->Get(static_cast<flatbuffers::uoffset_t>(p));
      Port port;
      port.name = d->name()->str();
      port.nation = d->nation()->str();
      port.controller = d->controller() ? d->controller()->str() : "";
      port.sea_area = d->sea_area()->str();
      port.strait_area = d->strait_area() ? d->strait_area()->str() : "";
      port.exit = static_cast<Compass>(d->exit());
      port.defence = d->defence();
      port.dockyards = d->dockyards();
      port.on_land_map = d->on_land_map();
      port.lon = d->lon(), port.lat = d->lat();
      if (std::abs(port.lon) > 180 || std::abs(port.lat) > 90) {
        return Bad(At("ports", p) + ".lon", "not a place on the earth (longitude within 180, latitude within 90 degrees)");
      }
      const SeaArea* area = m.Area(port.sea_area);
      if (!area) return Bad(At("ports", p) + ".sea_area", "no sea area '" + port.sea_area + "'");
      if (!port.strait_area.empty()) {
        const SeaArea* other = m.Area(port.strait_area);
        if (!other) return Bad(At("ports", p) + ".strait_area", "no sea area '" + port.strait_area + "'");
        if (!m.DirectionTo(port.sea_area, port.strait_area)) {
          return Bad(At("ports", p) + ".strait_area", "a strait lies between adjacent areas; " + port.sea_area + " and " +
                                                          port.strait_area + " are not (PATE 6.3)");
        }
      }
      if (port.defence > 5) return Bad(At("ports", p) + ".defence", "must be 0..5");
      if (!m.ports_.emplace(port.name, port).second) return Bad(At("ports", p) + ".name", "'" + port.name + "' appears twice");
    }
  }
  // PATE 6.11: each map has an Atlantic edge.
  bool edge[2] = {false, false};
  for (const auto& [code, a] : m.areas_) edge[static_cast<int>(a.map)] |= a.atlantic;
  if (!edge[0] || !edge[1]) return Bad("sea_areas", "each map needs an Atlantic edge area (PATE 6.11)");
  return m;
}

const SeaArea* NavalMap::Area(const std::string& code) const {
  auto it = areas_.find(code);
  return it == areas_.end() ? nullptr : &it->second;
}

const Port* NavalMap::PortNamed(const std::string& name) const {
  auto it = ports_.find(name);
  return it == ports_.end() ? nullptr : &it->second;
}

std::optional<Compass> NavalMap::DirectionTo(const std::string& a, const std::string& b) const {
  const SeaArea* from = Area(a);
  if (!from) return std::nullopt;
  for (int c = 0; c < 4; ++c) {
    const auto& l = from->neighbours[c];
    if (std::find(l.begin(), l.end(), b) != l.end()) return static_cast<Compass>(c);
  }
  return std::nullopt;
}

bool NavalMap::PortOpensOn(const std::string& port, const std::string& area) const {
  const Port* p = PortNamed(port);
  return p && (p->sea_area == area || (!p->strait_area.empty() && p->strait_area == area));
}

std::vector<std::string> NavalMap::PortsReachableFrom(const std::string& area) const {
  std::vector<std::string> out;
  for (const auto& [name, p] : ports_) {
    if (p.sea_area == area || p.strait_area == area) out.push_back(name);
  }
  return out;
}

bool NavalMap::CrossesAtlantic(const std::string& a, const std::string& b) const {
  const SeaArea* x = Area(a);
  const SeaArea* y = Area(b);
  return x && y && x->map != y->map && x->atlantic && y->atlantic;
}

int NavalMap::Distance(const std::string& from, const std::string& to) const {
  auto area_of = [&](const std::string& place) {
    const Port* p = PortNamed(place);
    return p ? p->sea_area : place;
  };
  std::string a = area_of(from), b = area_of(to);
  if (!Area(a) || !Area(b)) return -1;
  // Dijkstra over areas: a neighbour costs 1, an Atlantic crossing its
  // shortest time; the map is small, so a plain ordered set will do.
  std::map<std::string, int> best{{a, 0}};
  std::set<std::pair<int, std::string>> open{{0, a}};
  while (!open.empty()) {
    auto [d, code] = *open.begin();
    open.erase(open.begin());
    if (code == b) return d;
    if (d > best[code]) continue;
    std::vector<std::pair<std::string, int>> next;
    for (const auto& dir : areas_.at(code).neighbours) {
      for (const auto& n : dir) next.emplace_back(n, 1);
    }
    if (areas_.at(code).atlantic) {
      for (const auto& [other, area] : areas_) {
        if (CrossesAtlantic(code, other)) next.emplace_back(other, atlantic_turns_min);
      }
    }
    for (const auto& [n, cost] : next) {
      auto it = best.find(n);
      if (it == best.end() || d + cost < it->second) {
        best[n] = d + cost;
        open.insert({d + cost, n});
      }
    }
  }
  return -1;
}

Status CheckScenarioAgainstMap(const fb::Scenario& scenario, const NavalMap& map) {
  const fb::SowScenario* sow = scenario.sow();
  if (sow == nullptr) return Status::Ok();
  if (sow->cities()) {
    for (size_t i = 0; i < sow->cities()->size(); ++i) {
      const auto* c = sow->cities()->Get(static_cast<flatbuffers::uoffset_t>(i));
      if (c->kind() == fb::SowCityKind_Inland) continue;
      std::string field = "sow.cities[" + std::to_string(i) + "]";
      const Port* p = map.PortNamed(c->name()->str());
      if (!p) return Status::InvalidArgument(field + ": the port " + c->name()->str() + " is not on the naval map");
      std::string area = c->sea_area() ? c->sea_area()->str() : "";
      if (!map.PortOpensOn(p->name, area)) {
        return Status::InvalidArgument(field + ".sea_area: " + p->name + " opens on " + p->sea_area +
                                       " on the naval map, not '" + area + "' (PATE 1.3)");
      }
      if (p->on_land_map != (c->kind() == fb::SowCityKind_Port)) {
        return Status::InvalidArgument(field + ".kind: " + p->name + " is " +
                                       (p->on_land_map ? "on" : "off") + " the land map on the naval map (PATE 1.5)");
      }
    }
  }
  if (sow->ships()) {
    for (size_t i = 0; i < sow->ships()->size(); ++i) {
      const auto* s = sow->ships()->Get(static_cast<flatbuffers::uoffset_t>(i));
      std::string where = s->location() ? s->location()->str() : "";
      if (!where.empty() && !map.PortNamed(where) && !map.Area(where)) {
        return Status::InvalidArgument("sow.ships[" + std::to_string(i) + "].location: '" + where +
                                       "' is neither a port nor a sea area of the naval map");
      }
      std::string field = "sow.ships[" + std::to_string(i) + "]";
      if (map.PortNamed(where) && !s->in_port() && !s->coastal()) {
        return Status::InvalidArgument(field + ": " + where + " is a port; say whether the ship is in its harbour "
                                       "(in_port) or its coastal waters (coastal) (PATE 1.2)");
      }
      if (map.Area(where) && (s->in_port() || s->coastal())) {
        return Status::InvalidArgument(field + ": " + where + " is a sea area, which has no harbour or coastal "
                                       "waters (PATE 1.2)");
      }
      if (s->attached_to() && s->attached_to()->size()) {
        bool found = false;
        for (const auto* o : *sow->ships()) found = found || o->id()->str() == s->attached_to()->str();
        if (!found) return Status::InvalidArgument(field + ".attached_to: no ship '" + s->attached_to()->str() + "'");
      }
    }
  }
  return Status::Ok();
}

Draft MapDefinedDraft(const TurnPhase& at, std::vector<uint8_t> map_buffer) {
  Draft d;
  d.at = at;
  d.actor = Actor{ActorKind::kGameAdministrator, "", ""};
  d.ruleset = "pate";
  d.rules_version = LatestVersion("pate");
  d.payload = [map = std::move(map_buffer)](flatbuffers::FlatBufferBuilder& f) {
    auto m = flatbuffers::Offset<fb::NavalMap>(schema::CopyRootTable(f, "NavalMap", map.data()));
    auto body = fb::CreateMapDefined(f, m);
    auto e = fb::CreatePateEvent(f, fb::PateEventBody_MapDefined, body.Union());
    return PayloadRef{fb::Payload_PateEvent, e.o};
  };
  return d;
}

}  // namespace adjutant::rules::pate
