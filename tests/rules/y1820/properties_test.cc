// y1820 invariants as rapidcheck properties over random games: random
// orders (many of them invalid) from every nation's ruler and random GA
// epidemics, turn after turn, on the toy map (where capitals fall and
// nations die) or the bundled Europe 1820 map. After each turn: every
// province has one owner; armies and fleets are never negative; spawning
// stays within the spawn points and the limit, and over the limit one army
// goes a turn; research points balance; treaties come into force exactly
// the turn after both announced; rebuilding from event 1 gives the digests
// each phase recorded; every turn audits identical, and the last turn played
// again on a fork with the same orders and dice (a fallen capital with its
// new capital and loyalists among them) gives the same events.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <map>
#include <set>

#include "projections/y1820.h"
#include "replay/audit.h"
#include "replay/driver.h"
#include "replay/fork.h"
#include "replay/rebuild.h"
#include "rules/y1820/formulas.h"
#include "rules/y1820/tables.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "support/y1820_game.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;
namespace y = adjutant::rules::y1820;

namespace {

std::string Q(const std::string& s) { return "\"" + s + "\""; }

template <class T>
const T& Pick(const std::vector<T>& v) {
  return v.at(*rc::gen::inRange<size_t>(0, v.size()));
}

// A random order for `nation`: usually sensible, sometimes not.
std::string RandomOrder(const P::Y1820State& s, const std::string& nation) {
  std::vector<int32_t> own, with_armies, all;
  for (const auto& [id, p] : s.provinces) {
    all.push_back(id);
    if (p.owner == nation) own.push_back(id);
    auto it = p.armies.find(nation);
    if (it != p.armies.end() && it->second > 0) with_armies.push_back(id);
  }
  std::vector<std::string> others;
  for (const auto& n : s.order) if (n != nation) others.push_back(n);
  int kind = *rc::gen::inRange(-4, 14);
  if (kind <= 4 && !with_armies.empty()) {  // a move: most often to a neighbour, an enemy's or a neutral's first
    int32_t from = Pick(with_armies);
    std::vector<int32_t> near, hostile;
    for (const auto& [ab, k] : s.borders) {
      int32_t other = std::get<0>(ab) == from ? std::get<1>(ab) : std::get<1>(ab) == from ? std::get<0>(ab) : 0;
      if (!other) continue;
      near.push_back(other);
      const std::string& owner = s.provinces.at(other).owner;
      if (owner.empty() || (owner != nation && s.AtWar(owner, nation))) hostile.push_back(other);
    }
    int32_t to = near.empty() || *rc::gen::inRange(0, 8) == 0 ? Pick(all)
                 : !hostile.empty() && *rc::gen::inRange(0, 3) > 0 ? Pick(hostile)
                                                                    : Pick(near);
    int armies = *rc::gen::inRange(1, 7);
    return Y1820Db::Item("Y1820Move", "{\"from\": " + std::to_string(from) + ", \"to\": " + std::to_string(to) +
                                          ", \"armies\": " + std::to_string(armies) + "}");
  }
  switch (kind) {
    case 5:
      return Y1820Db::Item("Y1820DeclareWar", "{\"nation\": " + Q(Pick(others)) + "}");
    case 6: {
      static const std::vector<std::string> kinds{"non-aggression", "exchange", "pact"};
      return Y1820Db::Item("Y1820Treaty", "{\"nation\": " + Q(Pick(others)) + ", \"kind\": " + Q(Pick(kinds)) + "}");
    }
    case 7: {
      std::vector<std::string> imps;
      for (const auto& i : y::kImprovements) imps.emplace_back(i.id);
      int32_t where = own.empty() ? Pick(all) : Pick(own);
      return Y1820Db::Item(*rc::gen::inRange(0, 5) == 0 ? "Y1820Dismantle" : "Y1820Build",
                           "{\"province\": " + std::to_string(where) + ", \"improvement\": " + Q(Pick(imps)) + "}");
    }
    case 8: {
      std::vector<std::string> techs;
      for (const auto& t : y::kTechs) techs.emplace_back(t.id);
      return Y1820Db::Item("Y1820Research", "{\"tech\": " + Q(Pick(techs)) + "}");
    }
    case 9: {
      std::vector<std::string> reforms;
      for (const auto& r : y::kReforms) reforms.emplace_back(r.id);
      return Y1820Db::Item("Y1820Reform", "{\"reform\": " + Q(Pick(reforms)) + "}");
    }
    case 10: {
      std::string ids;
      int n = *rc::gen::inRange(0, 4);
      for (int i = 0; i < n && !own.empty(); ++i) ids += (ids.empty() ? "" : ", ") + std::to_string(Pick(own));
      return Y1820Db::Item("Y1820RallyPoints", "{\"provinces\": [" + ids + "]}");
    }
    case 11:
      return Y1820Db::Item("Y1820RaiseFleet", "{\"port\": " + std::to_string(own.empty() ? 1 : Pick(own)) + "}");
    case 12: {
      std::vector<std::string> seas;
      for (const auto& [id, z] : s.seas) seas.push_back(id);
      int32_t port = own.empty() ? 1 : Pick(own);
      std::string sea = Pick(seas);
      return *rc::gen::inRange(0, 2) == 0
                 ? Y1820Db::Item("Y1820FleetMove", "{\"from_port\": " + std::to_string(port) + ", \"to_sea\": " + Q(sea) + "}")
                 : Y1820Db::Item("Y1820FleetMove", "{\"from_sea\": " + Q(sea) + ", \"to_sea\": " + Q(Pick(seas)) + "}");
    }
    default:
      return Y1820Db::Item("Y1820GiveProvince", "{\"nation\": " + Q(Pick(others)) + ", \"province\": " +
                                                    std::to_string(own.empty() ? 1 : Pick(own)) + "}");
  }
}

std::string RandomDeploy(const P::Y1820State& s, const std::string& nation) {
  std::vector<int32_t> own;
  for (const auto& [id, p] : s.provinces) if (p.owner == nation) own.push_back(id);
  return Y1820Db::Item("Y1820Deploy", "{\"province\": " + std::to_string(Pick(own)) + ", \"armies\": " +
                                          std::to_string(*rc::gen::inRange(0, 4)) + "}");
}

std::string PersonOf(const std::string& scenario, const std::string& nation) {
  // "person": "X", "roles": ["NATION.ruler"]
  size_t r = scenario.find("\"" + nation + ".ruler\"");
  size_t p = scenario.rfind("\"person\": \"", r);
  size_t start = p + 11;
  return scenario.substr(start, scenario.find('"', start) - start);
}

// Every check of the list above that reads the log, folding it event by event.
void CheckLog(Y1820Db& g) {
  P::Y1820 fold;
  fold.Reset();
  P::Y1820State at_phase_start;
  std::map<std::string, int> spawned, lost_over;
  std::vector<std::pair<std::string, Hash128>> digests;
  Status st = g.db->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    const P::Y1820State& before = fold.state();
    if (ev.payload_type() == fb::Payload_PhaseStarted) {
      at_phase_start = before;
      spawned.clear();
      lost_over.clear();
    }
    if (auto* ye = ev.payload_as_Y1820Event()) {
      if (auto* rp = ye->body_as_Y1820ResearchPoints()) {
        // Y10.3: progress before + points = progress after + lost.
        const auto& n = before.nations.at(rp->nation()->str());
        RC_ASSERT(rp->tech()->str() == n.research);
        RC_ASSERT(n.progress + rp->points() == rp->progress() + rp->lost());
        RC_ASSERT(rp->progress() >= 0);
        if (!n.research.empty()) RC_ASSERT(rp->progress() <= y::FindTech(n.research)->cost);
        RC_ASSERT(rp->points() == y::ResearchPointsOf(before, rp->nation()->str()).total);
      }
      if (auto* t = ye->body_as_Y1820TreatyInForce()) {
        // Y12.4: both had announced it before this turn began.
        std::string a = t->a()->str(), b = t->b()->str(), k = t->kind()->str();
        RC_ASSERT(at_phase_start.announced.count({a, b, k}) == 1u);
        RC_ASSERT(at_phase_start.announced.count({b, a, k}) == 1u);
      }
      if (auto* sp = ye->body_as_Y1820ArmySpawned()) {
        // Y4.1: within the limit, at a spawn point, one a point.
        std::string n = sp->nation()->str();
        auto points = y::SpawnPoints(before, n);
        RC_ASSERT(std::find(points.begin(), points.end(), sp->province()) != points.end());
        RC_ASSERT(before.ArmiesOf(n) < y::ArmyLimitOf(before, n).total);
        RC_ASSERT(++spawned[n] <= static_cast<int>(points.size()));
        RC_ASSERT(lost_over[n] == 0);
      }
      if (auto* l = ye->body_as_Y1820ArmiesLost(); l && l->cause()->str() == "over the limit") {
        // Y4.5: one a turn, only over the limit.
        std::string n = l->nation()->str();
        RC_ASSERT(before.ArmiesOf(n) > y::ArmyLimitOf(before, n).total);
        RC_ASSERT(++lost_over[n] == 1);
      }
      if (auto* r = ye->body_as_Y1820ReformRolled()) {
        RC_ASSERT(r->success() + r->revolt() <= 100);
        RC_ASSERT(r->outcome()->str() == y::ReformOutcome({r->success(), r->revolt(), 100 - r->success() - r->revolt()},
                                                          r->roll()));
      }
    }
    if (auto* pc = ev.payload_as_PhaseCompleted()) {
      // The y1820 digest the phase recorded is the fold's.
      bool found = false;
      for (const auto* d : *pc->digests()) {
        if (d->projection()->str() != "y1820") continue;
        found = true;
        Hash128 now = fold.Digest();
        RC_ASSERT((d->digest()->hi() == now.hi && d->digest()->lo() == now.lo));
      }
      RC_ASSERT(found);
    }
    projections::Input in{e.seq, e.event(), e.bytes};
    fold.Apply(in);
    return Status::Ok();
  });
  RC_ASSERT(st.ok());
}

void CheckState(const P::Y1820State& s) {
  for (const auto& [id, d] : s.defs) {
    // One owner: a nation still in the game, or a neutral / NPC state.
    RC_ASSERT(s.provinces.count(id) == 1u);
    const auto& p = s.provinces.at(id);
    if (p.owner.empty()) {
      RC_ASSERT(!p.npc.empty());
    } else {
      RC_ASSERT(s.nations.count(p.owner) == 1u);
      RC_ASSERT(!s.nations.at(p.owner).eliminated);
      RC_ASSERT(p.garrison == 0);
    }
    RC_ASSERT((p.garrison == 0 || p.garrison == 1));
    for (const auto& [n, k] : p.armies) RC_ASSERT(k > 0);
    for (const auto& [n, k] : p.fleets) RC_ASSERT(k > 0);
  }
  RC_ASSERT(s.provinces.size() == s.defs.size());
  for (const auto& [sea, by] : s.sea_fleets) for (const auto& [n, k] : by) RC_ASSERT(k > 0);
  for (const auto& [id, n] : s.nations) {
    if (n.eliminated) {
      RC_ASSERT(y::ProvincesOf(s, id) == 0);
      RC_ASSERT(s.ArmiesOf(id) == 0);
      continue;
    }
    // A nation in the game holds its capital.
    RC_ASSERT(s.provinces.at(n.capital).owner == id);
  }
}

}  // namespace

TEST_CASE("y1820 invariants hold over random games", "[y1820][property]") {
  rc::prop("one owner a province, counts never negative, spawning and limits, RP balance, treaty timing, digests, "
           "audits and forks identical",
           [] {
             const bool europe = *rc::gen::inRange(0, 4) == 0;
             const std::string scenario =
                 europe ? EuropeScenario()
                        : ToyScenario(*rc::gen::element<std::string>("republic", "feudal", "constitutional"),
                                      *rc::gen::element<std::string>("republic", "feudal", "constitutional"),
                                      *rc::gen::arbitrary<bool>());
             Y1820Db g(scenario, europe ? EuropeMap() : ToyMap(), *rc::gen::inRange<uint64_t>(1, 1000000));
             const int turns = *rc::gen::inRange(1, europe ? 4 : 14);
             bool directive_last_turn = false;  // the GA's directives are not carried to a fork
             for (int t = 0; t < turns; ++t) {
               const P::Y1820State s = g.State();
               if (s.ended) break;
               directive_last_turn = false;
               // Now and then two nations announce the same treaty (Y12.4).
               std::map<std::string, std::string> mutual;
               if (*rc::gen::inRange(0, 3) == 0) {
                 const std::string a = Pick(s.order), b = Pick(s.order);
                 const std::string k = *rc::gen::element<std::string>("non-aggression", "exchange", "pact");
                 if (a != b) {
                   mutual[a] = Y1820Db::Item("Y1820Treaty", "{\"nation\": " + Q(b) + ", \"kind\": " + Q(k) + "}");
                   mutual[b] = Y1820Db::Item("Y1820Treaty", "{\"nation\": " + Q(a) + ", \"kind\": " + Q(k) + "}");
                 }
               }
               for (const std::string& nation : s.order) {
                 if (s.nations.at(nation).eliminated || *rc::gen::inRange(0, 5) == 0) continue;
                 std::vector<std::string> items;
                 if (mutual.count(nation)) items.push_back(mutual[nation]);
                 int n = *rc::gen::inRange(1, 6);
                 for (int i = 0; i < n; ++i) {
                   items.push_back(t == 0 && *rc::gen::inRange(0, 3) > 0 ? RandomDeploy(s, nation) : RandomOrder(s, nation));
                 }
                 RC_ASSERT(g.Orders(PersonOf(scenario, nation), items).ok());
               }
               if (*rc::gen::inRange(0, 10) == 0) {
                 std::vector<int32_t> ids;
                 for (const auto& [id, p] : s.provinces) ids.push_back(id);
                 directive_last_turn =
                     g.Directive("Y1820StartEpidemic", "{\"province\": " + std::to_string(Pick(ids)) + "}").ok();
               }
               RC_ASSERT(g.Adjudicate().ok());
               CheckState(g.State());
             }
             CheckLog(g);
             // Every turn audits identical (the same state, orders and dice give the same events).
             auto turns_played = replay::AdjudicatedTurns(*g.db, "g", "main");
             RC_ASSERT(turns_played.ok());
             for (const Turn& t : *turns_played) {
               auto a = replay::AuditTurn(*g.db, "g", "main", t);
               RC_ASSERT(a.ok());
               if (!a->identical) RC_FAIL("turn " + t.ToString() + " audits differently at seq " + std::to_string(a->seq) + ": " + a->reason);
             }
             // The last turn again on a fork with the same orders and dice: the same events.
             RC_CLASSIFY(directive_last_turn, "no fork: the GA gave a directive in the last turn");
             if (directive_last_turn) return;
             const P::Y1820State end = g.State();
             const Turn last = P::Y1820Turn(end.turns_done - 1);
             auto point = replay::ForkPoint(*g.db, "g", "main", TurnPhase{last, 0});
             RC_ASSERT(point.ok());
             RC_ASSERT(g.db->Fork("g", "main", *point, "again", std::nullopt, Actor{ActorKind::kGameAdministrator, "", ""}).ok());
             RC_ASSERT(replay::CarryOrders(*g.db, "g", "main", "again", *point, last).ok());
             RC_ASSERT(replay::Adjudicate(*g.db, "g", "again", replay::AdjudicateMode::kTurn).ok());
             auto a = replay::Fold(*g.db, "g", "again");
             RC_ASSERT(a.ok());
             P::Y1820State again = a->y1820();
             again.last_seq = end.last_seq;  // the fork's log is one event longer (BranchForked)
             if (!(again == end)) {
               std::string what;
               for (const auto& [id, p] : end.provinces) {
                 const auto& q = again.provinces.at(id);
                 if (p == q) continue;
                 std::string ar, aq;
                 for (const auto& [n, k] : p.armies) ar += n + ":" + std::to_string(k) + " ";
                 for (const auto& [n, k] : q.armies) aq += n + ":" + std::to_string(k) + " ";
                 what += " province " + std::to_string(id) + " main " + p.owner + " [" + ar + "] fork " + q.owner + " [" + aq + "]";
               }
               if (again.nations != end.nations) what += " nations";
               if (again.sea_fleets != end.sea_fleets) what += " sea_fleets";
               if (again.treaties != end.treaties || again.announced != end.announced || again.wars != end.wars) what += " diplomacy";
               if (again.turns_done != end.turns_done) what += " turns " + std::to_string(again.turns_done) + "/" + std::to_string(end.turns_done);
               if (again.orders != end.orders) what += " orders";
               if (again.trades != end.trades) what += " trades";
               for (const char* br : {"main", "again"}) {
                 what += std::string("\n") + br + ":";
                 (void)g.db->Read("g", br, *point + 1, UINT64_MAX, [&](const ledger::EventView& e) {
                   auto j = schema::ToJson("Event", e.bytes.data());
                   std::string line = j.ok() ? *j : "?";
                   size_t p = line.find("\"payload\"");
                   what += "\n  " + std::to_string(e.seq) + " " + (p == std::string::npos ? line : line.substr(p, 200));
                   return Status::Ok();
                 });
               }
               RC_FAIL("the fork played the last turn otherwise:" + what);
             }
             RC_CLASSIFY(europe, "Europe 1820");
             bool fell = !g.Events("Y1820CapitalMoved").empty();
             RC_CLASSIFY(fell, "a capital fell");
             RC_CLASSIFY(!g.Events("Y1820NationEliminated").empty(), "a nation was eliminated");
             RC_CLASSIFY(!g.Events("Y1820CombatRound").empty(), "a battle");
             RC_CLASSIFY(!g.Events("Y1820TreatyInForce").empty(), "a treaty came into force");
           });
}

TEST_CASE("Y14.2: every reform's outcome chances sum to 100 under every government", "[y1820][property]") {
  rc::prop("success + revolt + nothing = 100, each band as wide as its chance", [] {
    const auto& r = *rc::gen::elementOf(std::vector<y::Reform>(std::begin(y::kReforms), std::end(y::kReforms)));
    const std::string gov = *rc::gen::element<std::string>("republic", "feudal", "constitutional");
    const bool np = *rc::gen::arbitrary<bool>();
    auto c = y::ReformChancesOf(r.chance_pct, gov, np);
    RC_ASSERT(c.success + c.revolt + c.nothing == 100);
    RC_ASSERT((c.success >= 0 && c.revolt >= 0 && c.nothing >= 0));
    int s = 0, v = 0, n = 0;
    for (int roll = 1; roll <= 100; ++roll) {
      std::string o = y::ReformOutcome(c, roll);
      s += o == "success";
      v += o == "revolt";
      n += o == "nothing";
    }
    RC_ASSERT((s == c.success && v == c.revolt && n == c.nothing));
  });
}
