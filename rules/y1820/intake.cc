// Y1.3: a nation's orders for the coming turn, and the checks of what a GA
// gives: scenario, map, directives.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "rules/intake.h"
#include "rules/y1820/context.h"
#include "rules/y1820/formulas.h"
#include "rules/y1820/tables.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"

namespace adjutant::rules::y1820 {

std::optional<std::string> NationOf(const projections::Y1820State& s, const std::set<std::string>& roles,
                                    const std::string& asked_role) {
  return projections::HolderOf(roles, "ruler", asked_role,
                               [&](const std::string& nation) { return s.nations.count(nation) > 0; });
}

namespace {

// What can be known of an order when it is sent: names and kinds exist, and
// what only turn 0 takes (Y1.1). What depends on the moment it is carried
// out (armies present, treaties, limits) is checked at adjudication.
std::optional<std::pair<std::string, std::string>> Refusal(const projections::Y1820State& s, const std::string& nation,
                                                           const fb::Y1820Order& o, uint32_t version) {
  using R = std::pair<std::string, std::string>;
  auto province = [&](int32_t id, const char* rule) -> std::optional<R> {
    if (!s.defs.count(id)) return R{rule, "there is no province " + std::to_string(id)};
    return std::nullopt;
  };
  auto nation_named = [&](const flatbuffers::String* n, const char* rule) -> std::optional<R> {
    std::string id = n ? n->str() : "";
    if (!s.nations.count(id) || id == nation) return R{rule, "there is no other nation '" + id + "'"};
    return std::nullopt;
  };
  bool turn0 = s.turns_done == 0;
  if (const auto* n = s.Nation(nation); n && n->eliminated) return R{"Y3.2", nation + " has been eliminated"};
  switch (o.body_type()) {
    case fb::Y1820OrderBody_Y1820Deploy:
      if (!turn0) return R{"Y1.1", "armies and fleets are deployed at turn 0 (Pre-1820) only"};
      return province(o.body_as_Y1820Deploy()->province(), "Y1.1");
    case fb::Y1820OrderBody_Y1820Move: {
      if (turn0) return R{"Y1.1", "armies move from turn 1 (1820.1); at turn 0 they are deployed"};
      auto* m = o.body_as_Y1820Move();
      if (auto r = province(m->from(), "Y5.1")) return r;
      if (auto r = province(m->to(), "Y5.1")) return r;
      if (m->via()) for (int32_t v : *m->via()) if (auto r = province(v, "Y5.2")) return r;
      if (m->seas()) {
        for (const auto* z : *m->seas()) {
          if (!s.seas.count(z->str())) return R{"Y8.3", "there is no sea zone '" + z->str() + "'"};
        }
      }
      return std::nullopt;
    }
    case fb::Y1820OrderBody_Y1820FleetMove:
    case fb::Y1820OrderBody_Y1820RaiseFleet:
    case fb::Y1820OrderBody_Y1820DismantleFleet:
      if (turn0) return R{"Y1.1", "fleets are deployed at turn 0; they move, are raised and dismantled from turn 1"};
      if (auto* r = o.body_as_Y1820RaiseFleet()) return province(r->port(), "Y8.1");
      if (auto* r = o.body_as_Y1820DismantleFleet()) return province(r->port(), "Y8.6");
      return std::nullopt;
    case fb::Y1820OrderBody_Y1820Build:
    case fb::Y1820OrderBody_Y1820Dismantle: {
      if (turn0) return R{"Y1.1", "improvements are built from turn 1"};
      auto* b = o.body_as_Y1820Build();
      auto* d = o.body_as_Y1820Dismantle();
      std::string what = b ? (b->improvement() ? b->improvement()->str() : "") : (d->improvement() ? d->improvement()->str() : "");
      if (!FindImprovement(what)) {
        return R{"Y11", "no improvement '" + what + "' (Academy, Fortifications, Port, Railroad, Military HQ, Factory)"};
      }
      return province(b ? b->province() : d->province(), "Y11");
    }
    case fb::Y1820OrderBody_Y1820Research: {
      auto* r = o.body_as_Y1820Research();
      std::string t = r->tech() ? r->tech()->str() : "";
      if (!FindTech(t, version)) return R{"Y15.1", "no technology '" + t + "'"};
      return std::nullopt;
    }
    case fb::Y1820OrderBody_Y1820Reform: {
      auto* r = o.body_as_Y1820Reform();
      std::string t = r->reform() ? r->reform()->str() : "";
      if (!FindReform(t)) return R{"Y14.4", "no social reform '" + t + "'"};
      return std::nullopt;
    }
    case fb::Y1820OrderBody_Y1820DeclareWar:
      return nation_named(o.body_as_Y1820DeclareWar()->nation(), "Y12.1");
    case fb::Y1820OrderBody_Y1820Treaty: {
      auto* t = o.body_as_Y1820Treaty();
      if (auto r = nation_named(t->nation(), "Y12.2")) return r;
      std::string k = t->kind() ? t->kind()->str() : "";
      if (std::find(std::begin(kTreatyKinds), std::end(kTreatyKinds), k) == std::end(kTreatyKinds)) {
        return R{"Y12.2", "no treaty kind '" + k + "' (non-aggression, exchange, pact)"};
      }
      // Y12.2 (version 4): between nations at war, non-aggression only.
      if (auto why = TreatyBarredByWar(s, nation, t->nation()->str(), k, version); !why.empty()) return R{"Y12.2", why};
      // Y12.3 (version 2): a nation has two exchange treaties at most — in
      // force, or announced and awaiting its partner. A third is refused when
      // it is sent (version 1 kept it waiting until one of the two ended).
      if (k == "exchange" && version >= kExchangeLimitVersion) {
        const std::string other = t->nation()->str();
        for (const std::string& who : {nation, other}) {
          int held = ExchangeTreaties(s, who);
          for (const auto& [by, with, kind] : s.announced) {
            if (by == who && kind == "exchange" && with != (who == nation ? other : nation)) ++held;
          }
          if (held >= kMaxExchangeTreaties) {
            return R{"Y12.3", who + " already has " + std::to_string(held) + " exchange treaties (in force or announced); "
                              "a nation has " + std::to_string(kMaxExchangeTreaties) + " at most"};
          }
        }
      }
      return std::nullopt;
    }
    case fb::Y1820OrderBody_Y1820RallyPoints: {
      auto* r = o.body_as_Y1820RallyPoints();
      if (r->provinces()) for (int32_t p : *r->provinces()) if (auto x = province(p, "Y4.2")) return x;
      return std::nullopt;
    }
    case fb::Y1820OrderBody_Y1820GiveProvince: {
      if (turn0) return R{"Y12.5", "provinces are traded from turn 1"};
      auto* g = o.body_as_Y1820GiveProvince();
      if (auto r = nation_named(g->nation(), "Y12.5")) return r;
      return province(g->province(), "Y12.5");
    }
    case fb::Y1820OrderBody_Y1820GiveTech: {
      if (turn0) return R{"Y12.5", "technologies are traded from turn 1"};
      auto* g = o.body_as_Y1820GiveTech();
      if (auto r = nation_named(g->nation(), "Y12.5")) return r;
      std::string t = g->tech() ? g->tech()->str() : "";
      if (!FindTech(t, version)) return R{"Y15.1", "no technology '" + t + "'"};
      return std::nullopt;
    }
    default:
      return R{"Y1.3", "an empty order"};
  }
}

}  // namespace

void Submit(PhaseWriter& w, const TurnPhase& at, const std::string& person, const std::string& role,
            const std::string& nation, const std::vector<const fb::OrderItem*>& items) {
  OrderJudge judge;
  judge.arrives = [&](const PhaseWriter&, const fb::OrderItem&) {
    OrderJudgement j;
    j.slot = nation;
    return j;
  };
  // Judged with the order in the state.
  judge.recorded = [&](const PhaseWriter& now, const fb::OrderItem& item, uint64_t, OrderJudgement& j) {
    const fb::Y1820Order* yo = item.body_as_Y1820Order();
    if (!yo) {
      j.rule = "Y1.3";
      j.reason = "a y1820 game takes y1820 orders (Y1820Order)";
    } else if (auto r = Refusal(now.y1820(), nation, *yo, now.rules_versions().Of(kRuleset))) {
      j.rule = r->first;
      j.reason = r->second;
    }
  };
  // Y1.3: a nation's new file replaces what it sent before for this turn.
  judge.replaces_file = [&](const PhaseWriter& now) {
    std::vector<uint64_t> earlier;
    if (auto it = now.y1820().orders.find(nation); it != now.y1820().orders.end()) {
      for (const auto& o : it->second) earlier.push_back(o.seq);
    }
    return earlier;
  };
  // Issue 20: the ruler withdraws what his nation has ordered this turn
  // (its slot is the nation): it then does nothing this turn, as a nation
  // that sent no orders.
  judge.withdraws = [&](const PhaseWriter& now, const std::string&, const std::string& slot,
                        std::vector<uint64_t>* orders) {
    OrderJudgement j;
    if (slot != nation) {
      j.rule = "Y1.3";
      j.reason = "a ruler withdraws his own nation's orders: '" + nation + "', not '" + slot + "'";
      return j;
    }
    if (auto it = now.y1820().orders.find(nation); it != now.y1820().orders.end()) {
      for (const auto& o : it->second) orders->push_back(o.seq);
    }
    if (orders->empty()) {
      j.rule = "Y1.3";
      j.reason = nation + " has no orders standing this turn";
    }
    return j;
  };
  IntakeOrders(w, at, OrderSender{person, role, std::string(kRuleset)}, items, judge);
}

// ---- the GA's directives ------------------------------------------------------------

Status CheckDirective(const projections::Y1820State& s, const fb::Y1820Directive& d) {
  if (!s.active) return Status::InvalidArgument("Y1820Directive: this game does not play the y1820 ruleset");
  auto province = [&](int32_t id) -> Status {
    if (!s.defs.count(id)) return Status::InvalidArgument("province: there is no province " + std::to_string(id));
    return Status::Ok();
  };
  if (auto* x = d.body_as_Y1820StartEpidemic()) {
    ADJ_RETURN_IF_ERROR(province(x->province()));
    if (s.Province(x->province())->epidemic) {
      return Status::InvalidArgument("Y13.1: province " + std::to_string(x->province()) + " already has an epidemic");
    }
    return Status::Ok();
  }
  if (auto* x = d.body_as_Y1820EndEpidemic()) {
    ADJ_RETURN_IF_ERROR(province(x->province()));
    if (!s.Province(x->province())->epidemic) {
      return Status::InvalidArgument("Y13.3: province " + std::to_string(x->province()) + " has no epidemic");
    }
    return Status::Ok();
  }
  if (auto* x = d.body_as_Y1820SetOwner()) {
    ADJ_RETURN_IF_ERROR(province(x->province()));
    std::string n = x->nation() ? x->nation()->str() : "";
    if (!n.empty() && !s.nations.count(n)) return Status::InvalidArgument("nation: there is no nation '" + n + "'");
    for (const auto& [id, nat] : s.nations) {
      if (nat.capital == x->province() && id != n) {
        return Status::InvalidArgument("province " + std::to_string(x->province()) + " is " + id +
                                       "'s capital; a correction does not move capitals (Y2)");
      }
    }
    return Status::Ok();
  }
  return Status::InvalidArgument("Y1820Directive: no directive body");
}

void DirectiveConsequences(PhaseWriter& w, const TurnPhase& at, const fb::Y1820Directive& d) {
  Ctx c(w, at, nullptr);
  if (auto* x = d.body_as_Y1820StartEpidemic()) {
    int32_t p = x->province();
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820EpidemicStartedDirect(f, p, "GA directive")); });
  } else if (auto* x = d.body_as_Y1820EndEpidemic()) {
    int32_t p = x->province();
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820EpidemicEnded(f, p, 0, 100)); });
  } else if (auto* x = d.body_as_Y1820SetOwner()) {
    int32_t p = x->province();
    std::string from = c.s().Province(p)->owner, to = x->nation() ? x->nation()->str() : "";
    c.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820ProvinceTransferredDirect(f, p, from.c_str(), to.c_str(), "GA correction"));
    });
  }
}

// ---- map and scenario -----------------------------------------------------------------

Draft MapDefinedDraft(const TurnPhase& at, std::vector<uint8_t> map_buffer) {
  Draft d;
  d.at = at;
  d.actor = Actor{ActorKind::kGameAdministrator, "", ""};
  d.ruleset = std::string(kRuleset);
  d.rules_version = LatestVersion(kRuleset);
  d.payload = [map = std::move(map_buffer)](flatbuffers::FlatBufferBuilder& f) {
    auto m = flatbuffers::Offset<fb::Y1820Map>(schema::CopyRootTable(f, "Y1820Map", map.data()));
    auto body = fb::CreateY1820MapDefined(f, m);
    auto e = fb::CreateY1820Event(f, fb::Y1820EventBody_Y1820MapDefined, body.Union());
    return PayloadRef{fb::Payload_Y1820Event, e.o};
  };
  return d;
}

// Where a province or sea zone lies, for the drawn map only: a place on the earth.
Status CheckPlace(const std::string& at, float lon, float lat, const flatbuffers::Vector<float>* seeds) {
  const std::string bad = ": not a place on the earth (longitude within 180, latitude within 90 degrees)";
  if (std::abs(lon) > 180 || std::abs(lat) > 90) return Status::InvalidArgument(at + ".lon" + bad);
  if (!seeds) return Status::Ok();
  if (seeds->size() % 2) return Status::InvalidArgument(at + ".seeds: longitudes and latitudes come in pairs");
  for (flatbuffers::uoffset_t k = 0; k < seeds->size(); k += 2) {
    if (std::abs(seeds->Get(k)) > 180 || std::abs(seeds->Get(k + 1)) > 90) {
      return Status::InvalidArgument(at + ".seeds[" + std::to_string(k) + "]" + bad);
    }
  }
  return Status::Ok();
}

Status CheckMap(const fb::Y1820Map& m) {
  std::set<int32_t> ids;
  std::set<std::string> seas;
  if (m.seas()) {
    for (flatbuffers::uoffset_t i = 0; i < m.seas()->size(); ++i) {
      const auto* z = m.seas()->Get(i);
      std::string id = z->id()->str();
      if (!seas.insert(id).second) return Status::InvalidArgument("seas[" + std::to_string(i) + "].id: '" + id + "' twice");
      ADJ_RETURN_IF_ERROR(CheckPlace("seas[" + std::to_string(i) + "]", z->lon(), z->lat(), z->seeds()));
    }
    for (flatbuffers::uoffset_t i = 0; i < m.seas()->size(); ++i) {
      const auto* z = m.seas()->Get(i);
      if (!z->neighbours()) continue;
      for (const auto* n : *z->neighbours()) {
        if (!seas.count(n->str())) {
          return Status::InvalidArgument("seas[" + std::to_string(i) + "].neighbours: no sea zone '" + n->str() + "'");
        }
        // Y8.2: adjacency goes both ways.
        bool back = false;
        for (const auto* o : *m.seas()) {
          if (o->id()->str() != n->str() || !o->neighbours()) continue;
          for (const auto* b : *o->neighbours()) back |= b->str() == z->id()->str();
        }
        if (!back) {
          return Status::InvalidArgument("seas[" + std::to_string(i) + "].neighbours: '" + n->str() + "' does not list '" +
                                         z->id()->str() + "' back");
        }
      }
    }
  }
  if (!m.provinces() || m.provinces()->size() == 0) return Status::InvalidArgument("provinces: the map has none");
  for (flatbuffers::uoffset_t i = 0; i < m.provinces()->size(); ++i) {
    const auto* p = m.provinces()->Get(i);
    std::string at = "provinces[" + std::to_string(i) + "]";
    if (p->id() <= 0) return Status::InvalidArgument(at + ".id: province numbers start at 1");
    ADJ_RETURN_IF_ERROR(CheckPlace(at, p->lon(), p->lat(), nullptr));
    if (!ids.insert(p->id()).second) return Status::InvalidArgument(at + ".id: province " + std::to_string(p->id()) + " twice");
    bool has_seas = p->seas() && p->seas()->size() > 0;
    if (has_seas != p->coastal()) return Status::InvalidArgument(at + ".coastal: a province is coastal when it touches a sea zone");
    if (p->seas()) {
      for (const auto* z : *p->seas()) {
        if (!seas.count(z->str())) return Status::InvalidArgument(at + ".seas: no sea zone '" + z->str() + "'");
      }
    }
  }
  std::set<std::pair<int32_t, int32_t>> seen;
  if (m.borders()) {
    for (flatbuffers::uoffset_t i = 0; i < m.borders()->size(); ++i) {
      const auto* b = m.borders()->Get(i);
      std::string at = "borders[" + std::to_string(i) + "]";
      if (!ids.count(b->a()) || !ids.count(b->b()) || b->a() == b->b()) {
        return Status::InvalidArgument(at + ": " + std::to_string(b->a()) + "-" + std::to_string(b->b()) +
                                       " is not a border between two provinces of the map");
      }
      std::string kind = b->kind() ? b->kind()->str() : "land";
      if (kind != "land" && kind != "mountain" && kind != "water") {
        return Status::InvalidArgument(at + ".kind: '" + kind + "' (land, mountain or water)");
      }
      if (!seen.insert({std::min(b->a(), b->b()), std::max(b->a(), b->b())}).second) {
        return Status::InvalidArgument(at + ": the border " + std::to_string(b->a()) + "-" + std::to_string(b->b()) + " twice");
      }
    }
  }
  return Status::Ok();
}

Status CheckScenario(const fb::Scenario& sc, const fb::Y1820Map* m) {
  bool y = false;
  if (sc.rulesets()) for (const auto* r : *sc.rulesets()) y |= r->str() == "y1820";
  if (!y) return Status::Ok();
  if (sc.rulesets()->size() != 1) return Status::InvalidArgument("rulesets: a y1820 game runs alone");
  if (!sc.y1820()) return Status::InvalidArgument("y1820: the scenario has no y1820 section");
  if (!m) return Status::InvalidArgument("a y1820 game needs its province map (--map FILE, a Y1820Map)");
  std::set<int32_t> ids;
  for (const auto* p : *m->provinces()) ids.insert(p->id());
  std::map<int32_t, std::string> held;
  const auto& ys = *sc.y1820();
  if (!ys.nations() || ys.nations()->size() < 2) return Status::InvalidArgument("y1820.nations: a game needs two nations");
  std::set<std::string> rulers;
  if (sc.players()) {
    for (const auto* p : *sc.players()) {
      if (p->roles()) for (const auto* r : *p->roles()) rulers.insert(r->str());
    }
  }
  for (flatbuffers::uoffset_t i = 0; i < ys.nations()->size(); ++i) {
    const auto* n = ys.nations()->Get(i);
    std::string at = "y1820.nations[" + std::to_string(i) + "]";
    std::string id = n->id()->str();
    if (id.empty() || id.find('.') != std::string::npos) return Status::InvalidArgument(at + ".id: '" + id + "'");
    if (!FindGovernment(n->government() ? n->government()->string_view() : "")) {
      return Status::InvalidArgument(at + ".government: '" + (n->government() ? n->government()->str() : "") +
                                     "' (feudal, constitutional, republic)");
    }
    if (!n->provinces()) return Status::InvalidArgument(at + ".provinces: a nation holds provinces");
    for (int32_t p : *n->provinces()) {
      if (!ids.count(p)) return Status::InvalidArgument(at + ".provinces: the map has no province " + std::to_string(p));
      if (held.count(p)) {
        return Status::InvalidArgument(at + ".provinces: province " + std::to_string(p) + " is also " + held[p] + "'s");
      }
      held[p] = id;
    }
    if (held[n->capital()] != id) {
      return Status::InvalidArgument(at + ".capital: province " + std::to_string(n->capital()) + " is not one of " + id + "'s");
    }
    if (n->armies() < 1) return Status::InvalidArgument(at + ".armies: at least one army, for the capital (Y1.2)");
    if (n->fleets() < 0) return Status::InvalidArgument(at + ".fleets: cannot be negative");
    if (n->fleets() > 0) {
      bool coast = false;
      for (int32_t p : *n->provinces()) {
        for (const auto* d : *m->provinces()) coast |= d->id() == p && d->coastal();
      }
      if (!coast) return Status::InvalidArgument(at + ".fleets: " + id + " holds no coastal province to deploy them from");
    }
    for (const auto* list : {n->techs(), n->reforms()}) {
      if (!list) continue;
      for (const auto* t : *list) {
        bool known = list == n->techs() ? FindTech(t->string_view()) != nullptr : FindReform(t->string_view()) != nullptr;
        if (!known) return Status::InvalidArgument(at + ": no technology or reform '" + t->str() + "'");
      }
    }
    if (!rulers.count(id + ".ruler")) {
      return Status::InvalidArgument(at + ": no player holds the role " + id + ".ruler");
    }
  }
  if (ys.neutrals()) {
    for (int32_t p : *ys.neutrals()) {
      if (!ids.count(p)) return Status::InvalidArgument("y1820.neutrals: the map has no province " + std::to_string(p));
      if (held.count(p)) {
        return Status::InvalidArgument("y1820.neutrals: province " + std::to_string(p) + " is " + held[p] + "'s");
      }
      held[p] = "";
    }
  }
  for (int32_t p : ids) {
    if (!held.count(p)) {
      return Status::InvalidArgument("y1820: province " + std::to_string(p) +
                                     " is held by no nation and is not neutral (every province has one owner)");
    }
  }
  if (ys.improvements()) {
    for (flatbuffers::uoffset_t i = 0; i < ys.improvements()->size(); ++i) {
      const auto* x = ys.improvements()->Get(i);
      std::string at = "y1820.improvements[" + std::to_string(i) + "]";
      if (!ids.count(x->province())) return Status::InvalidArgument(at + ".province: no province " + std::to_string(x->province()));
      std::string what = x->improvement() ? x->improvement()->str() : "";
      if (!FindImprovement(what)) return Status::InvalidArgument(at + ".improvement: no improvement '" + what + "'");
      if (what == "Port") {
        bool coast = false;
        for (const auto* d : *m->provinces()) coast |= d->id() == x->province() && d->coastal();
        if (!coast) return Status::InvalidArgument(at + ": province " + std::to_string(x->province()) + " has no coast");
      }
    }
  }
  return Status::Ok();
}

}  // namespace adjutant::rules::y1820
