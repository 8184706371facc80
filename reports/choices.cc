// `report choices` (issue 21): what a person's order forms may offer him —
// the order desk's pickers — from the game's own data and the rules that
// say where a ship may go (rules/pate/orders.h FirstLegs, SamePlace). Only
// what is public (the naval map, the states, the provinces) and what is his
// (his commands, his state's cities, his side's units).
#include <flatbuffers/flatbuffers.h>

#include <set>

#include "projections/battle.h"
#include "projections/navalmap.h"
#include "projections/roster.h"
#include "projections/y1820.h"
#include "reports/common.h"
#include "rules/kind.h"
#include "rules/pate/map.h"
#include "rules/pate/orders.h"
#include "schema/reports_generated.h"

namespace adjutant::reports {
namespace {

namespace P = projections;
namespace pate = rules::pate;

using Strings = std::vector<std::string>;

struct Choices {
  struct Ship {
    std::string id, name, location, position;
    Strings sea1, attach;
  };
  struct Area {
    std::string code, name;
    Strings next, ports;
  };
  struct Named {
    std::string id, name;
  };
  std::vector<Ship> ships;
  std::vector<Area> areas;
  std::vector<std::pair<std::string, Strings>> ports;  // a port, the areas it opens on
  Strings states, cities;
  std::vector<Named> provinces, units;
};

// The holders of the roles of `titles` the person holds ("BR1FL" of
// "BR1FL.commander"), in name order.
std::set<std::string> HoldersOf(const P::Person& p, std::initializer_list<std::string_view> titles) {
  std::set<std::string> out;
  for (const std::string& r : p.roles) {
    auto role = P::Role::Parse(r);
    if (!role) continue;
    for (std::string_view t : titles) {
      if (role->title == t) out.insert(role->holder);
    }
  }
  return out;
}

Status NavalChoices(const replay::World& w, const P::Person& person, Choices& out) {
  std::optional<pate::NavalMap> map;
  for (const auto& p : w.projections) {
    if (auto* m = dynamic_cast<const P::NavalMapView*>(p.get()); m && m->map()) {
      auto loaded = pate::NavalMap::Load(*m->map());
      if (!loaded.ok()) return Status::Corruption("its recorded map: " + loaded.status().message());
      map = std::move(loaded).value();
    }
  }
  if (!map) return Status::Ok();
  for (const auto& [code, area] : map->areas()) {
    Choices::Area a{code, area.name, {}, map->PortsReachableFrom(code)};
    for (const auto& side : area.neighbours) {
      for (const std::string& n : side) {
        if (std::find(a.next.begin(), a.next.end(), n) == a.next.end()) a.next.push_back(n);
      }
    }
    out.areas.push_back(std::move(a));
  }
  for (const auto& [name, port] : map->ports()) {
    Strings opens;
    for (const std::string& a : {port.sea_area, port.strait_area}) {
      if (!a.empty() && map->PortOpensOn(name, a)) opens.push_back(a);
    }
    out.ports.emplace_back(name, std::move(opens));
  }
  // His commands: the ships he gives order forms to (PATE 4.3).
  const auto& ships = w.fleet().state().ships;
  std::vector<const P::Ship*> his;
  for (const std::string& id : HoldersOf(person, {"commander", "deputy"})) {
    auto it = ships.find(id);
    if (it != ships.end()) his.push_back(&it->second);
  }
  for (const P::Ship* sh : his) {
    Choices::Ship s{sh->id, sh->name, sh->location, PositionWords(*sh, map->PortNamed(sh->location) != nullptr),
                    pate::FirstLegs(*map, *sh), {}};
    for (const P::Ship* other : his) {
      if (other != sh && pate::SamePlace(*sh, *other)) s.attach.push_back(other->id);
    }
    out.ships.push_back(std::move(s));
  }
  return Status::Ok();
}

void EconomyChoices(const replay::World& w, const P::Person& person, Choices& out) {
  const P::TreasuryState& s = w.treasury().state();
  if (!s.active) return;
  for (const auto& [id, state] : s.states) out.states.push_back(id);
  // A minister's: the cities his state holds, for its builds, supplies and repairs.
  const std::set<std::string> mine = HoldersOf(person, {"treasury", "prime"});
  for (const auto& [name, city] : s.cities) {
    if (mine.count(city.controller)) out.cities.push_back(name);
  }
}

void Y1820Choices(const replay::World& w, Choices& out) {
  const P::Y1820State& y = w.y1820();
  if (!y.active) return;
  for (const auto& [id, def] : y.defs) out.provinces.push_back({std::to_string(id), def.name});
}

void BattleChoices(const replay::World& w, const P::Person& person, Choices& out) {
  const P::BattleState& b = w.battle();
  if (!b.active) return;
  const std::set<std::string> sides = HoldersOf(person, {"general"});
  for (const auto& [id, unit] : b.units) {
    if (sides.count(unit.side) && !unit.gone) out.units.push_back({id, unit.name});
  }
}

std::string Joined(const Strings& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s.empty() ? "-" : s;
}

}  // namespace

Status ChoicesReport(Ctx& c, const std::string& game) {
  uint64_t upto = 0;
  auto w = WorldAt(c, game, &upto);
  if (!w.ok()) return w.status();
  const rules::GameKind* kind = w->kind();
  if (!kind) return Status::NotFound("no game '" + game + "'");
  const std::string& who = c.rq.player;
  if (who.empty()) return Status::InvalidArgument("report choices: give --player P (the GA) or --as P (the player)");
  const P::Person* person = w->roster().Find(who);
  if (!person) return Status::InvalidArgument("--player: no person '" + who + "' in game '" + game + "'");
  Choices ch;
  ADJ_RETURN_IF_ERROR(NavalChoices(*w, *person, ch));
  EconomyChoices(*w, *person, ch);
  Y1820Choices(*w, ch);
  BattleChoices(*w, *person, ch);
  const std::string kind_name(kind->name());
  if (c.json()) {
    flatbuffers::FlatBufferBuilder f;
    auto strings = [&](const Strings& v) {
      std::vector<flatbuffers::Offset<flatbuffers::String>> o;
      for (const auto& x : v) o.push_back(f.CreateString(x));
      return f.CreateVector(o);
    };
    auto named = [&](const std::vector<Choices::Named>& v) {
      std::vector<flatbuffers::Offset<fb::ChoiceName>> o;
      for (const auto& x : v) o.push_back(fb::CreateChoiceNameDirect(f, x.id.c_str(), x.name.c_str()));
      return f.CreateVector(o);
    };
    std::vector<flatbuffers::Offset<fb::ChoiceShip>> ships;
    for (const auto& s : ch.ships) {
      auto sea1 = strings(s.sea1);
      auto attach = strings(s.attach);
      ships.push_back(fb::CreateChoiceShip(f, f.CreateString(s.id), f.CreateString(s.name), f.CreateString(s.location),
                                           f.CreateString(s.position), sea1, attach));
    }
    std::vector<flatbuffers::Offset<fb::ChoiceArea>> areas;
    for (const auto& a : ch.areas) {
      auto next = strings(a.next);
      auto ports = strings(a.ports);
      areas.push_back(fb::CreateChoiceArea(f, f.CreateString(a.code), f.CreateString(a.name), next, ports));
    }
    std::vector<flatbuffers::Offset<fb::ChoicePort>> ports;
    for (const auto& [name, opens] : ch.ports) {
      auto o = strings(opens);
      ports.push_back(fb::CreateChoicePort(f, f.CreateString(name), o));
    }
    auto sv = f.CreateVector(ships);
    auto av = f.CreateVector(areas);
    auto pv = f.CreateVector(ports);
    auto states = strings(ch.states);
    auto cities = strings(ch.cities);
    auto provinces = named(ch.provinces);
    auto units = named(ch.units);
    f.Finish(fb::CreateOrderChoices(f, f.CreateString(game), f.CreateString(c.branch), f.CreateString(who),
                                    f.CreateString(kind_name), sv, av, pv, states, cities, provinces, units));
    return c.PrintJson("OrderChoices", f);
  }
  c.Line("What the order forms offer " + who + " in " + game + "/" + c.branch + " (" + kind_name + ")");
  for (const auto& s : ch.ships) {
    c.Line("  ship " + s.id + (s.name.empty() ? "" : " (" + s.name + ")") + ", " + s.location + " (" + s.position +
           "): first sea area " + Joined(s.sea1) + "; may attach to " + Joined(s.attach));
  }
  for (const auto& a : ch.areas) {
    c.Line("  sea area " + a.code + " (" + a.name + "): next to " + Joined(a.next) + "; ports entered from it " +
           Joined(a.ports));
  }
  for (const auto& [name, opens] : ch.ports) c.Line("  port " + name + ": opens on " + Joined(opens));
  if (!ch.states.empty()) c.Line("  states: " + Joined(ch.states));
  if (!ch.cities.empty()) c.Line("  his state's cities: " + Joined(ch.cities));
  for (const auto& p : ch.provinces) c.Line("  province " + p.id + " " + p.name);
  for (const auto& u : ch.units) c.Line("  unit " + u.id + (u.name.empty() ? "" : " (" + u.name + ")"));
  return Status::Ok();
}

}  // namespace adjutant::reports
