#include "projections/y1820.h"

#include <algorithm>

#include "projections/archive.h"
#include "projections/roster.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::projections {

// Version 2 adds the drawn map's geography (lon, lat, seeds): version 1
// left it out, so a fold from a snapshot drew the old plot board.
template <class A> void Visit(A& a, Y1820ProvinceDef& d) {
  a(d.name, d.populous, d.coastal, d.seas, d.x, d.y, d.lon, d.lat);
}
template <class A> void Visit(A& a, Y1820SeaDef& d) { a(d.name, d.neighbours, d.x, d.y, d.lon, d.lat, d.seeds); }
template <class A> void Visit(A& a, Y1820Province& p) {
  a(p.owner, p.npc, p.garrison, p.improvements, p.armies, p.fleets, p.epidemic);
}
template <class A> void Visit(A& a, Y1820Nation& n) {
  a(n.name, n.government, n.color, n.capital, n.original_capital, n.eliminated, n.techs, n.reforms, n.research,
    n.progress, n.reform, n.reform_since, n.rally_points, n.undeployed_armies, n.undeployed_fleets, n.domination_turns);
}
template <class A> void Visit(A& a, Y1820StandingOrder& o) { a(o.seq, o.kind, o.a, o.b, o.n, o.s1, o.s2, o.ints, o.strs); }
template <class A> void Visit(A& a, Y1820Trade& t) { a(t.kind, t.from, t.to, t.tech, t.province); }
template <class A, class X, class Y> void Visit(A& a, std::tuple<X, Y>& t) { a(std::get<0>(t), std::get<1>(t)); }
template <class A, class X, class Y, class Z> void Visit(A& a, std::tuple<X, Y, Z>& t) {
  a(std::get<0>(t), std::get<1>(t), std::get<2>(t));
}
template <class A> void Visit(A& a, Y1820State& s) {
  a(s.last_seq, s.active, s.has_map, s.map_name, s.width, s.height, s.defs, s.borders, s.seas, s.random_events, s.order,
    s.nations, s.provinces, s.sea_fleets, s.wars, s.treaties, s.announced, s.trades, s.turns_done, s.ended, s.end_reason,
    s.winner, s.orders);
}

std::tuple<std::string, std::string> NationPair(const std::string& a, const std::string& b) {
  return a < b ? std::make_tuple(a, b) : std::make_tuple(b, a);
}

Turn Y1820Turn(int32_t i) {
  if (i <= 0) return Turn{1820, 0, 0};
  return Turn{1820 + (i - 1) / 12, (i - 1) % 12 + 1, 0};
}

std::string Y1820TurnName(int32_t i) {
  if (i <= 0) return "Pre-1820 (turn 0)";
  Turn t = Y1820Turn(i);
  return std::to_string(t.major) + "." + std::to_string(t.minor) + " (turn " + std::to_string(i) + ")";
}

const Y1820Nation* Y1820State::Nation(const std::string& id) const {
  auto it = nations.find(id);
  return it == nations.end() ? nullptr : &it->second;
}

const Y1820Province* Y1820State::Province(int32_t id) const {
  auto it = provinces.find(id);
  return it == provinces.end() ? nullptr : &it->second;
}

bool Y1820State::AtWar(const std::string& a, const std::string& b) const { return wars.count(NationPair(a, b)) > 0; }

bool Y1820State::HasTreaty(const std::string& a, const std::string& b, const std::string& kind) const {
  auto [x, y] = NationPair(a, b);
  return treaties.count({x, y, kind}) > 0;
}

std::string Y1820State::Border(int32_t a, int32_t b) const {
  auto it = borders.find(a < b ? std::make_tuple(a, b) : std::make_tuple(b, a));
  return it == borders.end() ? "" : it->second;
}

int32_t Y1820State::ArmiesOf(const std::string& nation) const {
  int32_t n = 0;
  for (const auto& [id, p] : provinces) {
    auto it = p.armies.find(nation);
    if (it != p.armies.end()) n += it->second;
  }
  return n;
}

int32_t Y1820State::FleetsOf(const std::string& nation) const {
  int32_t n = 0;
  for (const auto& [id, p] : provinces) {
    auto it = p.fleets.find(nation);
    if (it != p.fleets.end()) n += it->second;
  }
  for (const auto& [sea, by] : sea_fleets) {
    auto it = by.find(nation);
    if (it != by.end()) n += it->second;
  }
  return n;
}

namespace {

using schema::Str;

// Counts that reach 0 go; a negative one stays, for the properties to find.
void Add(std::map<std::string, int32_t>& m, const std::string& k, int32_t n) {
  int32_t& v = m[k];
  v += n;
  if (v == 0) m.erase(k);
}

std::vector<int32_t> Ints(const flatbuffers::Vector<int32_t>* v) {
  std::vector<int32_t> out;
  if (v) out.assign(v->begin(), v->end());
  return out;
}

std::vector<std::string> Strs(const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>* v) {
  std::vector<std::string> out;
  if (v) for (const auto* s : *v) out.push_back(s->str());
  return out;
}

// The standing form of an order body.
Y1820StandingOrder Standing(uint64_t seq, const fb::Y1820Order& o) {
  Y1820StandingOrder r;
  r.seq = seq;
  r.kind = fb::EnumNameY1820OrderBody(o.body_type());
  if (auto* x = o.body_as_Y1820Deploy()) { r.a = x->province(); r.n = x->armies(); r.b = x->fleets(); r.s1 = Str(x->sea()); }
  if (auto* x = o.body_as_Y1820Move()) {
    r.a = x->from(); r.b = x->to(); r.n = x->armies(); r.ints = Ints(x->via()); r.strs = Strs(x->seas());
  }
  if (auto* x = o.body_as_Y1820FleetMove()) {
    r.a = x->from_port(); r.b = x->to_port(); r.n = x->fleets(); r.s1 = Str(x->from_sea()); r.s2 = Str(x->to_sea());
  }
  if (auto* x = o.body_as_Y1820RaiseFleet()) r.a = x->port();
  if (auto* x = o.body_as_Y1820DismantleFleet()) r.a = x->port();
  if (auto* x = o.body_as_Y1820Build()) { r.a = x->province(); r.s1 = Str(x->improvement()); }
  if (auto* x = o.body_as_Y1820Dismantle()) { r.a = x->province(); r.s1 = Str(x->improvement()); }
  if (auto* x = o.body_as_Y1820Research()) r.s1 = Str(x->tech());
  if (auto* x = o.body_as_Y1820Reform()) r.s1 = Str(x->reform());
  if (auto* x = o.body_as_Y1820DeclareWar()) r.s1 = Str(x->nation());
  if (auto* x = o.body_as_Y1820Treaty()) { r.s1 = Str(x->nation()); r.s2 = Str(x->kind()); }
  if (auto* x = o.body_as_Y1820RallyPoints()) r.ints = Ints(x->provinces());
  if (auto* x = o.body_as_Y1820GiveProvince()) { r.s1 = Str(x->nation()); r.a = x->province(); }
  if (auto* x = o.body_as_Y1820GiveTech()) { r.s1 = Str(x->nation()); r.s2 = Str(x->tech()); }
  return r;
}

void DropOrder(Y1820State& s, uint64_t seq) {
  for (auto& [nation, list] : s.orders) {
    std::erase_if(list, [&](const Y1820StandingOrder& o) { return o.seq == seq; });
  }
  std::erase_if(s.orders, [](const auto& kv) { return kv.second.empty(); });
}

void ApplyScenario(Y1820State& s, const fb::Scenario& sc) {
  bool y = false;
  if (sc.rulesets()) for (const auto* r : *sc.rulesets()) y |= r->str() == "y1820";
  if (!y || !sc.y1820()) return;
  s.active = true;
  const fb::Y1820Scenario& ys = *sc.y1820();
  s.random_events = ys.random_events();
  if (ys.nations()) {
    for (const auto* n : *ys.nations()) {
      std::string id = n->id()->str();
      s.order.push_back(id);
      Y1820Nation& nat = s.nations[id];
      nat.name = Str(n->name());
      nat.government = Str(n->government());
      nat.color = Str(n->color());
      nat.capital = n->capital();
      nat.undeployed_armies = n->armies();
      nat.undeployed_fleets = n->fleets();
      if (n->techs()) for (const auto* t : *n->techs()) nat.techs.insert(t->str());
      if (n->reforms()) for (const auto* t : *n->reforms()) nat.reforms.insert(t->str());
      if (n->provinces()) for (int32_t p : *n->provinces()) s.provinces[p].owner = id;
    }
  }
  if (ys.improvements()) {
    for (const auto* i : *ys.improvements()) s.provinces[i->province()].improvements.insert(Str(i->improvement()));
  }
  if (ys.neutrals()) {
    for (int32_t p : *ys.neutrals()) {
      s.provinces[p].garrison = 1;
    }
  }
}

void ApplyMap(Y1820State& s, const fb::Y1820Map& m) {
  s.has_map = true;
  s.map_name = Str(m.name());
  s.width = m.width();
  s.height = m.height();
  if (m.provinces()) {
    for (const auto* p : *m.provinces()) {
      Y1820ProvinceDef& d = s.defs[p->id()];
      d.name = p->name()->str();
      d.populous = p->populous();
      d.coastal = p->coastal();
      d.seas = Strs(p->seas());
      d.x = p->x();
      d.y = p->y();
      d.lon = p->lon();
      d.lat = p->lat();
      Y1820Province& st = s.provinces[p->id()];
      if (st.owner.empty() && st.garrison > 0) st.npc = d.name;
    }
  }
  if (m.borders()) {
    for (const auto* b : *m.borders()) {
      int32_t x = std::min(b->a(), b->b()), y = std::max(b->a(), b->b());
      s.borders[{x, y}] = Str(b->kind()).empty() ? "land" : Str(b->kind());
    }
  }
  if (m.seas()) {
    for (const auto* z : *m.seas()) {
      Y1820SeaDef& d = s.seas[z->id()->str()];
      d.name = Str(z->name());
      d.neighbours = Strs(z->neighbours());
      d.x = z->x();
      d.y = z->y();
      d.lon = z->lon();
      d.lat = z->lat();
      if (z->seeds()) d.seeds.assign(z->seeds()->begin(), z->seeds()->end());
    }
  }
}

// `version`: the y1820 rules version the event was made under (FoldVersionOf).
void ApplyEvent(Y1820State& s, const fb::Y1820Event& ev, uint32_t version) {
  using namespace fb;
  if (auto* x = ev.body_as_Y1820MapDefined()) { ApplyMap(s, *x->map()); return; }
  if (auto* x = ev.body_as_Y1820Deployed()) {
    Y1820Nation& n = s.nations[Str(x->nation())];
    n.undeployed_armies -= x->armies();
    n.undeployed_fleets -= x->fleets();
    if (x->armies()) Add(s.provinces[x->province()].armies, Str(x->nation()), x->armies());
    if (x->fleets()) {
      if (Str(x->sea()).empty()) Add(s.provinces[x->province()].fleets, Str(x->nation()), x->fleets());
      else Add(s.sea_fleets[Str(x->sea())], Str(x->nation()), x->fleets());
    }
    return;
  }
  if (auto* x = ev.body_as_Y1820ArmySpawned()) { Add(s.provinces[x->province()].armies, Str(x->nation()), 1); return; }
  if (auto* x = ev.body_as_Y1820ArmiesLost()) {
    if (Str(x->nation()).empty()) {
      s.provinces[x->province()].garrison = std::max(0, s.provinces[x->province()].garrison - x->armies());
    } else {
      Add(s.provinces[x->province()].armies, Str(x->nation()), -x->armies());
    }
    return;
  }
  if (auto* x = ev.body_as_Y1820ArmiesMoved()) {
    Add(s.provinces[x->from()].armies, Str(x->nation()), -x->armies());
    Add(s.provinces[x->to()].armies, Str(x->nation()), x->armies());
    return;
  }
  if (auto* x = ev.body_as_Y1820CombatRound()) {
    // The loser of each round loses one army (Y9.4); a draw sends the
    // attacker back (a separate ArmiesRetreated event).
    std::string res = Str(x->result());
    bool naval = !Str(x->sea()).empty();
    std::string loser = res == "attacker lost" ? Str(x->attacker()) : res == "defender lost" ? Str(x->defender()) : "";
    bool lost = res == "attacker lost" || res == "defender lost";
    if (lost && naval) {
      Add(s.sea_fleets[Str(x->sea())], loser, -1);
      if (s.sea_fleets[Str(x->sea())].empty()) s.sea_fleets.erase(Str(x->sea()));
    } else if (lost && loser.empty()) {
      Y1820Province& p = s.provinces[x->province()];
      p.garrison = std::max(0, p.garrison - 1);
    } else if (lost) {
      // The attacker's armies are counted in the province they attack from
      // until they win: the event names where each side stands.
      Add(s.provinces[res == "attacker lost" ? x->attack_from() : x->province()].armies, loser, -1);
    }
    return;
  }
  // Y1820ArmiesRetreated: the army never left `to` (attackers are counted
  // where they attack from), so the state does not change.
  if (auto* x = ev.body_as_Y1820ProvinceCaptured()) {
    Y1820Province& p = s.provinces[x->province()];
    p.owner = Str(x->to());
    p.npc.clear();
    p.garrison = 0;
    if (!Str(x->razed()).empty()) p.improvements.erase(Str(x->razed()));
    std::erase_if(s.trades, [&](const Y1820Trade& t) { return t.kind == "province" && t.province == x->province(); });
    for (auto& [id, n] : s.nations) std::erase(n.rally_points, x->province());
    return;
  }
  if (auto* x = ev.body_as_Y1820CapitalMoved()) {
    Y1820Nation& n = s.nations[Str(x->nation())];
    std::string reason = Str(x->reason());
    if (reason == "restored") {
      n.capital = x->to();
      n.original_capital = 0;
    } else {
      if (n.original_capital == 0) n.original_capital = x->from();
      n.capital = x->to();
    }
    return;
  }
  if (auto* x = ev.body_as_Y1820ProvinceSurrendered()) {
    Y1820Province& p = s.provinces[x->province()];
    p.owner = Str(x->to());
    std::erase_if(s.trades, [&](const Y1820Trade& t) { return t.kind == "province" && t.province == x->province(); });
    for (auto& [id, n] : s.nations) std::erase(n.rally_points, x->province());
    return;
  }
  if (auto* x = ev.body_as_Y1820NationEliminated()) {
    Y1820Nation& n = s.nations[Str(x->nation())];
    n.eliminated = true;
    n.capital = 0;
    n.original_capital = 0;
    n.research.clear();
    n.reform.clear();
    if (version >= kEliminationEndsTreatiesVersion) {
      const std::string gone = Str(x->nation());
      std::erase_if(s.treaties, [&](const auto& t) { return std::get<0>(t) == gone || std::get<1>(t) == gone; });
      std::erase_if(s.announced, [&](const auto& t) { return std::get<0>(t) == gone || std::get<1>(t) == gone; });
    }
    return;
  }
  if (auto* x = ev.body_as_Y1820FleetRaised()) {
    Add(s.provinces[x->port()].armies, Str(x->nation()), -1);
    Add(s.provinces[x->port()].fleets, Str(x->nation()), 1);
    return;
  }
  if (auto* x = ev.body_as_Y1820FleetsMoved()) {
    std::string n = Str(x->nation());
    if (x->from_port()) Add(s.provinces[x->from_port()].fleets, n, -x->fleets());
    else Add(s.sea_fleets[Str(x->from_sea())], n, -x->fleets());
    if (x->to_port()) Add(s.provinces[x->to_port()].fleets, n, x->fleets());
    else Add(s.sea_fleets[Str(x->to_sea())], n, x->fleets());
    std::erase_if(s.sea_fleets, [](const auto& kv) { return kv.second.empty(); });
    return;
  }
  if (auto* x = ev.body_as_Y1820FleetsLost()) {
    if (x->port()) Add(s.provinces[x->port()].fleets, Str(x->nation()), -x->fleets());
    else Add(s.sea_fleets[Str(x->sea())], Str(x->nation()), -x->fleets());
    std::erase_if(s.sea_fleets, [](const auto& kv) { return kv.second.empty(); });
    return;
  }
  if (auto* x = ev.body_as_Y1820ImprovementBuilt()) { s.provinces[x->province()].improvements.insert(Str(x->improvement())); return; }
  if (auto* x = ev.body_as_Y1820ImprovementRemoved()) { s.provinces[x->province()].improvements.erase(Str(x->improvement())); return; }
  if (auto* x = ev.body_as_Y1820ResearchChosen()) {
    Y1820Nation& n = s.nations[Str(x->nation())];
    if (n.research != Str(x->tech())) n.progress = 0;
    n.research = Str(x->tech());
    return;
  }
  if (auto* x = ev.body_as_Y1820ResearchPoints()) {
    Y1820Nation& n = s.nations[Str(x->nation())];
    n.progress = x->progress();
    return;
  }
  if (auto* x = ev.body_as_Y1820TechAcquired()) {
    Y1820Nation& n = s.nations[Str(x->nation())];
    n.techs.insert(Str(x->tech()));
    if (n.research == Str(x->tech())) { n.research.clear(); n.progress = 0; }
    std::erase_if(s.trades, [&](const Y1820Trade& t) {
      return t.kind == "tech" && t.to == Str(x->nation()) && t.tech == Str(x->tech());
    });
    return;
  }
  if (auto* x = ev.body_as_Y1820ReformChosen()) {
    Y1820Nation& n = s.nations[Str(x->nation())];
    n.reform = Str(x->reform());
    n.reform_since = s.turns_done;
    return;
  }
  if (auto* x = ev.body_as_Y1820ReformRolled()) {
    if (Str(x->outcome()) == "success") {
      Y1820Nation& n = s.nations[Str(x->nation())];
      n.reforms.insert(Str(x->reform()));
      n.reform.clear();
      if (Str(x->reform()) == "Army Modernization") n.rally_points.clear();  // Y4.3: HQs instead
    }
    return;
  }
  if (auto* x = ev.body_as_Y1820GovernmentChanged()) { s.nations[Str(x->nation())].government = Str(x->government()); return; }
  if (auto* x = ev.body_as_Y1820ProvinceRevolted()) {
    Y1820Province& p = s.provinces[x->province()];
    p.owner.clear();
    p.npc = Str(x->state());
    p.garrison = 1;
    p.armies.erase(Str(x->nation()));
    for (auto& [id, n] : s.nations) std::erase(n.rally_points, x->province());
    return;
  }
  if (auto* x = ev.body_as_Y1820WarDeclared()) {
    std::string a = Str(x->nation()), b = Str(x->target());
    s.wars.insert(NationPair(a, b));
    auto [lo, hi] = NationPair(a, b);
    std::erase_if(s.treaties, [&](const auto& t) { return std::get<0>(t) == lo && std::get<1>(t) == hi; });
    std::erase_if(s.announced, [&](const auto& t) {
      return (std::get<0>(t) == a && std::get<1>(t) == b) || (std::get<0>(t) == b && std::get<1>(t) == a);
    });
    return;
  }
  if (auto* x = ev.body_as_Y1820TreatyAnnounced()) {
    s.announced.insert({Str(x->nation()), Str(x->other()), Str(x->kind())});
    return;
  }
  if (auto* x = ev.body_as_Y1820TreatyInForce()) {
    std::string a = Str(x->a()), b = Str(x->b()), k = Str(x->kind());
    auto [lo, hi] = NationPair(a, b);
    s.treaties.insert({lo, hi, k});
    s.announced.erase({a, b, k});
    s.announced.erase({b, a, k});
    if (k == "non-aggression") s.wars.erase({lo, hi});  // Y12.2: the reading of peace
    return;
  }
  if (auto* x = ev.body_as_Y1820TradePending()) {
    s.trades.push_back({Str(x->kind()), Str(x->from()), Str(x->to()), Str(x->tech()), x->province()});
    return;
  }
  if (auto* x = ev.body_as_Y1820ProvinceTransferred()) {
    Y1820Province& p = s.provinces[x->province()];
    p.owner = Str(x->to());
    p.npc.clear();
    p.garrison = 0;
    std::erase_if(s.trades, [&](const Y1820Trade& t) { return t.kind == "province" && t.province == x->province(); });
    for (auto& [id, n] : s.nations) if (id != Str(x->to())) std::erase(n.rally_points, x->province());
    return;
  }
  if (auto* x = ev.body_as_Y1820EpidemicStarted()) { s.provinces[x->province()].epidemic = true; return; }
  if (auto* x = ev.body_as_Y1820EpidemicEnded()) { s.provinces[x->province()].epidemic = false; return; }
  if (auto* x = ev.body_as_Y1820RallyPointsSet()) { s.nations[Str(x->nation())].rally_points = Ints(x->provinces()); return; }
  if (auto* x = ev.body_as_Y1820Domination()) { s.nations[Str(x->nation())].domination_turns = x->turns(); return; }
  if (auto* x = ev.body_as_Y1820GameEnded()) {
    s.ended = true;
    s.end_reason = Str(x->reason());
    s.winner = Str(x->winner());
    return;
  }
}

}  // namespace

void Y1820::Apply(const Input& in) {
  const fb::Event& e = *in.event;
  if (auto* g = e.payload_as_GameCreated()) {
    if (g->scenario()) ApplyScenario(s_, *g->scenario());
  }
  // Every event is folded, whatever the game: a snapshot of this view must
  // stand at its seq, or every fold of another game would start from event 1.
  s_.last_seq = in.seq;
  if (!s_.active) return;  // nothing else concerns a game without y1820
  if (auto* ye = e.payload_as_Y1820Event()) {
    ApplyEvent(s_, *ye, FoldVersionOf(in));
  } else if (auto* o = e.payload_as_OrderSubmitted()) {
    if (auto* yo = o->body_as_Y1820Order()) {
      // The nation is the order's slot, or its role's holder (Y1.3: a
      // nation's ruler); a role without a dot names the nation itself.
      std::string nation = Str(o->slot());
      if (nation.empty()) {
        const std::string role = Str(o->role());
        const auto r = Role::Parse(role);
        nation = r ? r->holder : role;
      }
      s_.orders[nation].push_back(Standing(in.seq, *yo));
    }
  } else if (auto* sp = e.payload_as_OrderSuperseded()) {
    DropOrder(s_, sp->order_seq());
  } else if (auto* rj = e.payload_as_OrderRejected()) {
    DropOrder(s_, rj->order_seq());
  } else if (e.payload_type() == fb::Payload_PhaseCompleted) {
    // Y1: one phase a turn; its orders are spent.
    s_.turns_done++;
    s_.orders.clear();
  }
}

std::string Y1820::Encode() const { return EncodeState(s_); }

Status Y1820::Decode(std::string_view bytes) { return DecodeState(bytes, &s_, name()); }

}  // namespace adjutant::projections
