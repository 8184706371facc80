// Y1.3: a y1820 turn is one phase. Its start (treaties coming into force,
// trades), each nation's orders in the scenario's order (diplomacy,
// research and reform choices, rally points, improvements and fleets, then
// fleet and army moves with their battles, in the order the file gives),
// and its end (research, reforms, epidemics, army limits and spawning,
// random events, domination).
#include <algorithm>
#include <map>
#include <set>

#include "rules/y1820/context.h"
#include "rules/y1820/formulas.h"
#include "rules/y1820/tables.h"
#include "rules/y1820/war.h"

namespace adjutant::rules::y1820 {

using projections::Y1820StandingOrder;

std::optional<NextPhase> Next(const projections::Y1820State& s) {
  // The game ends by its GameEnded (Y1.4); this only bounds the calendar.
  if (!s.active || s.ended || s.turns_done > kLastTurn) return std::nullopt;
  NextPhase n;
  n.index = s.turns_done;
  n.at = TurnPhase{projections::Y1820Turn(n.index), kTurnPhase};
  n.name = n.index == 0 ? "deployment" : "turn";
  n.turn_name = projections::Y1820TurnName(n.index);
  return n;
}

TurnPhase OrderPosition(const projections::Y1820State& s) {
  return TurnPhase{projections::Y1820Turn(s.turns_done), 0};
}

namespace {

std::string P(int32_t id) { return "province " + std::to_string(id); }

// ---- turn 0 (Y1.1) -----------------------------------------------------------

void Deploy(Ctx& c, const std::string& nation, const Y1820StandingOrder& o) {
  const auto* n = c.s().Nation(nation);
  const auto* p = c.s().Province(o.a);
  auto reject = [&](const std::string& rule, const std::string& why) { c.Reject(o.seq, rule, why); };
  if (!p || p->owner != nation) return reject("Y1.1", P(o.a) + " is not " + nation + "'s");
  if (o.n < 0 || o.b < 0) return reject("Y1.1", "armies and fleets deployed cannot be negative");
  if (o.n > n->undeployed_armies) {
    return reject("Y1.1", nation + " has " + std::to_string(n->undeployed_armies) + " armies left to deploy, not " +
                              std::to_string(o.n));
  }
  // Y1.2: at least one army stays in the capital.
  bool capital_held = p->armies.count(nation) && o.a == n->capital;
  const auto* cap = c.s().Province(n->capital);
  bool capital_has = cap && cap->armies.count(nation);
  if (o.a != n->capital && !capital_has && !capital_held && o.n >= n->undeployed_armies && o.n > 0) {
    return reject("Y1.2", "at least one army must remain in the capital (" + P(n->capital) + ")");
  }
  if (o.b > n->undeployed_fleets) {
    return reject("Y1.1", nation + " has " + std::to_string(n->undeployed_fleets) + " fleets left to deploy, not " +
                              std::to_string(o.b));
  }
  std::string sea = o.s1;
  if (o.b > 0) {
    const auto& def = c.s().defs.at(o.a);
    if (!sea.empty() && std::find(def.seas.begin(), def.seas.end(), sea) == def.seas.end()) {
      return reject("Y8.2", "sea zone '" + sea + "' does not touch " + P(o.a));
    }
    if (sea.empty() && !p->improvements.count("Port")) {
      return reject("Y8.2", "fleets dock only at a province with a Port; " + P(o.a) + " has none (name a sea zone)");
    }
  }
  int32_t prov = o.a, armies = o.n, fleets = o.b;
  c.Emit([=](Fbb& f) { return Body(fb::CreateY1820DeployedDirect(f, nation.c_str(), prov, armies, fleets, sea.c_str())); });
}

// What was not deployed: armies to the capital, fleets to the capital's
// port (or the first port the nation holds); fleets with no port are
// placed in the first sea zone its capital or any coastal province touches.
void DeployRest(Ctx& c, const std::string& nation) {
  const auto* n = c.s().Nation(nation);
  int32_t armies = n->undeployed_armies, fleets = n->undeployed_fleets, cap = n->capital;
  if (armies > 0) {
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820DeployedDirect(f, nation.c_str(), cap, armies, 0, "")); });
  }
  if (fleets <= 0) return;
  int32_t port = 0;
  std::string sea;
  const auto* cp = c.s().Province(cap);
  if (cp && cp->improvements.count("Port")) port = cap;
  for (const auto& [id, p] : c.s().provinces) {
    if (port || p.owner != nation) continue;
    if (p.improvements.count("Port")) port = id;
  }
  if (!port) {
    for (const auto& [id, p] : c.s().provinces) {
      if (p.owner != nation || !sea.empty()) continue;
      const auto& def = c.s().defs.at(id);
      if (!def.seas.empty()) { port = id; sea = def.seas.front(); }
    }
  }
  if (!port) {  // a landlocked nation: its fleets are lost (the scenario check forbids this)
    return;
  }
  c.Emit([=](Fbb& f) { return Body(fb::CreateY1820DeployedDirect(f, nation.c_str(), port, 0, fleets, sea.c_str())); });
}

// ---- diplomacy (Y12) -------------------------------------------------------------

void DeclareWar(Ctx& c, const std::string& nation, const Y1820StandingOrder& o) {
  const std::string& target = o.s1;
  const auto* t = c.s().Nation(target);
  if (!t || t->eliminated || target == nation) return c.Reject(o.seq, "Y12.1", "no nation '" + target + "' to declare war on");
  if (c.s().AtWar(nation, target)) return c.Reject(o.seq, "Y12.1", nation + " is already at war with " + target);
  std::vector<std::string> broken;
  auto [lo, hi] = projections::NationPair(nation, target);
  for (const auto& [a, b, kind] : c.s().treaties) {
    if (a == lo && b == hi) broken.push_back(kind);
  }
  c.Emit([=](Fbb& f) {
    return Body(fb::CreateY1820WarDeclared(f, f.CreateString(nation), f.CreateString(target),
                                           f.CreateVectorOfStrings(broken)));
  });
}

void AnnounceTreaty(Ctx& c, const std::string& nation, const Y1820StandingOrder& o) {
  const std::string& other = o.s1;
  const std::string& kind = o.s2;
  const auto* t = c.s().Nation(other);
  if (!t || t->eliminated || other == nation) return c.Reject(o.seq, "Y12.2", "no nation '" + other + "' to treat with");
  if (c.s().HasTreaty(nation, other, kind)) {
    return c.Reject(o.seq, "Y12.2", "a " + kind + " treaty with " + other + " is already in force");
  }
  if (c.s().announced.count({nation, other, kind})) {
    return c.Reject(o.seq, "Y12.2", nation + " has already announced a " + kind + " treaty with " + other);
  }
  if (auto why = TreatyBarredByWar(c.s(), nation, other, kind, c.version()); !why.empty()) {
    return c.Reject(o.seq, "Y12.2", why);
  }
  c.Emit([=](Fbb& f) {
    return Body(fb::CreateY1820TreatyAnnouncedDirect(f, nation.c_str(), other.c_str(), kind.c_str()));
  });
}

// Y12.4: treaties both nations announced come into force at the start of
// the next turn; a non-aggression treaty ends a war between them (Y12.2
// reading); Y12.3: at most two exchange treaties a nation; an exchange
// needs non-aggression (in force, or coming into force now).
void TreatiesIntoForce(Ctx& c) {
  std::vector<std::tuple<std::string, std::string, std::string>> due;
  for (const auto& [a, b, kind] : c.s().announced) {
    if (a < b && c.s().announced.count({b, a, kind})) due.emplace_back(a, b, kind);
  }
  // Non-aggression first: an exchange announced with it may rely on it.
  std::stable_sort(due.begin(), due.end(), [](const auto& x, const auto& y) {
    return (std::get<2>(x) == "non-aggression") > (std::get<2>(y) == "non-aggression");
  });
  for (const auto& [a, b, kind] : due) {
    if (kind == "exchange") {
      if (!c.s().HasTreaty(a, b, "non-aggression")) continue;  // waits for its non-aggression treaty
      if (ExchangeTreaties(c.s(), a) >= kMaxExchangeTreaties || ExchangeTreaties(c.s(), b) >= kMaxExchangeTreaties) {
        continue;  // Y12.3: waits until one of the two ends
      }
    }
    std::string x = a, y = b, k = kind;
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820TreatyInForceDirect(f, x.c_str(), y.c_str(), k.c_str())); });
  }
}

void GiveProvince(Ctx& c, const std::string& nation, const Y1820StandingOrder& o) {
  const auto* to = c.s().Nation(o.s1);
  const auto* p = c.s().Province(o.a);
  const auto* n = c.s().Nation(nation);
  if (!to || to->eliminated || o.s1 == nation) return c.Reject(o.seq, "Y12.5", "no nation '" + o.s1 + "' to trade with");
  if (!p || p->owner != nation) return c.Reject(o.seq, "Y12.5", P(o.a) + " is not " + nation + "'s to give");
  if (o.a == n->capital) return c.Reject(o.seq, "Y12.5", "a nation cannot give away its capital");
  if (c.s().AtWar(nation, o.s1)) return c.Reject(o.seq, "Y12.5", nation + " is at war with " + o.s1);
  std::string from = nation, dest = o.s1;
  int32_t prov = o.a;
  c.Emit([=](Fbb& f) {
    return Body(fb::CreateY1820TradePendingDirect(f, "province", from.c_str(), dest.c_str(), prov, ""));
  });
}

void GiveTech(Ctx& c, const std::string& nation, const Y1820StandingOrder& o) {
  const auto* to = c.s().Nation(o.s1);
  const auto* n = c.s().Nation(nation);
  if (!to || to->eliminated || o.s1 == nation) return c.Reject(o.seq, "Y12.5", "no nation '" + o.s1 + "' to trade with");
  if (!n->techs.count(o.s2)) return c.Reject(o.seq, "Y12.5", nation + " has not researched " + o.s2);
  if (to->techs.count(o.s2)) return c.Reject(o.seq, "Y12.5", o.s1 + " already has " + o.s2);
  std::string from = nation, dest = o.s1, tech = o.s2;
  c.Emit([=](Fbb& f) {
    return Body(fb::CreateY1820TradePendingDirect(f, "tech", from.c_str(), dest.c_str(), 0, tech.c_str()));
  });
}

// Y12.5: technologies traded arrive at the start of the next turn; a
// province is handed over once none of its giver's armies stand in it.
void Trades(Ctx& c) {
  auto trades = c.s().trades;  // a copy: events change the list
  for (const auto& t : trades) {
    if (t.kind == "tech") {
      const auto* to = c.s().Nation(t.to);
      if (!to || to->eliminated || to->techs.count(t.tech)) continue;
      std::string n = t.to, tech = t.tech, how = "traded by " + t.from;
      c.Emit([=](Fbb& f) { return Body(fb::CreateY1820TechAcquiredDirect(f, n.c_str(), tech.c_str(), how.c_str())); });
    } else {
      const auto* p = c.s().Province(t.province);
      const auto* to = c.s().Nation(t.to);
      if (!p || p->owner != t.from || !to || to->eliminated) continue;
      if (p->armies.count(t.from)) continue;  // waits for the giver's armies to leave
      // Version 4: not while the two are at war (the trade waits for peace).
      if (c.version() >= kTreatiesAtWarVersion && c.s().AtWar(t.from, t.to)) continue;
      // Version 5: not while it is the giver's capital (Y3.1: drawn since the trade was made).
      const auto* giver = c.s().Nation(t.from);
      if (c.version() >= kCapitalNotTradedVersion && giver && giver->capital == t.province) continue;
      int32_t prov = t.province;
      std::string from = t.from, dest = t.to;
      c.Emit([=](Fbb& f) {
        return Body(fb::CreateY1820ProvinceTransferredDirect(f, prov, from.c_str(), dest.c_str(), "trade"));
      });
    }
  }
}

// ---- research and reforms chosen (Y10, Y14) ------------------------------------------

void ChooseResearch(Ctx& c, const std::string& nation, const Y1820StandingOrder& o) {
  const Tech* t = FindTech(o.s1, c.version());
  const auto* n = c.s().Nation(nation);
  if (!t) return c.Reject(o.seq, "Y15.1", "no technology '" + o.s1 + "'");
  if (n->techs.count(o.s1)) return c.Reject(o.seq, "Y10.3", nation + " already has " + o.s1);
  if (!t->needs.empty() && !n->techs.count(std::string(t->needs))) {
    return c.Reject(o.seq, "Y15.1", o.s1 + " needs " + std::string(t->needs) + " first");
  }
  if (n->research == o.s1) return c.Reject(o.seq, "Y10.3", nation + " is already researching " + o.s1);
  std::string nat = nation, tech = o.s1;
  c.Emit([=](Fbb& f) { return Body(fb::CreateY1820ResearchChosenDirect(f, nat.c_str(), tech.c_str())); });
}

void ChooseReform(Ctx& c, const std::string& nation, const Y1820StandingOrder& o) {
  const Reform* r = FindReform(o.s1);
  const auto* n = c.s().Nation(nation);
  if (!r) return c.Reject(o.seq, "Y14.4", "no social reform '" + o.s1 + "'");
  if (!n->reform.empty()) {
    return c.Reject(o.seq, "Y14.1", nation + " is already pursuing " + n->reform + " (one reform at a time)");
  }
  if (r->government.empty() && n->reforms.count(o.s1)) return c.Reject(o.seq, "Y14.4", nation + " already has " + o.s1);
  if (!r->government.empty()) {
    if (n->government == r->government) {
      return c.Reject(o.seq, "Y14.4", nation + " is already a " + FindGovernment(n->government)->name.data());
    }
    bool from_ok = r->from[0] == n->government || r->from[1] == n->government;
    if (!from_ok) {
      return c.Reject(o.seq, "Y14.4", o.s1 + " is not one step from " + nation +
                                          "'s government (Absolutism <-> Enlightened Monarchy <-> Liberalism)");
    }
  }
  std::string nat = nation, reform = o.s1;
  c.Emit([=](Fbb& f) { return Body(fb::CreateY1820ReformChosenDirect(f, nat.c_str(), reform.c_str())); });
}

void SetRallyPoints(Ctx& c, const std::string& nation, const Y1820StandingOrder& o) {
  int allowed = RallyPointsAllowed(c.s(), nation);
  if (allowed == 0) return c.Reject(o.seq, "Y4.3", nation + " has Army Modernization: it builds Military HQs instead");
  if (static_cast<int>(o.ints.size()) > allowed) {
    return c.Reject(o.seq, "Y4.2", nation + " may set " + std::to_string(allowed) + " rally points, not " +
                                       std::to_string(o.ints.size()));
  }
  std::set<int32_t> seen;
  for (int32_t id : o.ints) {
    const auto* p = c.s().Province(id);
    if (!p || p->owner != nation) return c.Reject(o.seq, "Y4.2", P(id) + " is not " + nation + "'s");
    if (!seen.insert(id).second) return c.Reject(o.seq, "Y4.2", P(id) + " is named twice");
  }
  std::string nat = nation;
  std::vector<int32_t> ids = o.ints;
  c.Emit([=](Fbb& f) { return Body(fb::CreateY1820RallyPointsSetDirect(f, nat.c_str(), &ids)); });
}

// ---- improvements and fleets (Y11, Y8) ----------------------------------------------

struct TurnUse {
  int improvements = 0;           // Y11.1
  std::set<int32_t> fleets_raised;  // Y8.1: one a port a turn
};

void Build(Ctx& c, const std::string& nation, const Y1820StandingOrder& o, TurnUse& use) {
  const Improvement* imp = FindImprovement(o.s1);
  const auto* p = c.s().Province(o.a);
  const auto* n = c.s().Nation(nation);
  if (!imp) return c.Reject(o.seq, "Y11", "no improvement '" + o.s1 + "'");
  if (!p || p->owner != nation) return c.Reject(o.seq, std::string(imp->rule), P(o.a) + " is not " + nation + "'s");
  if (use.improvements >= ImprovementsAllowed(c.s(), nation, c.version())) {
    return c.Reject(o.seq, "Y11.1", nation + " has built or dismantled " + std::to_string(use.improvements) +
                                        " improvements this turn, its limit");
  }
  if (p->improvements.count(o.s1)) return c.Reject(o.seq, std::string(imp->rule), P(o.a) + " already has a " + o.s1);
  if (!imp->needs_tech.empty() && !n->techs.count(std::string(imp->needs_tech))) {
    return c.Reject(o.seq, std::string(imp->rule), o.s1 + " needs the " + std::string(imp->needs_tech) + " technology");
  }
  if (!imp->needs_reform.empty() && !n->reforms.count(std::string(imp->needs_reform))) {
    return c.Reject(o.seq, std::string(imp->rule), o.s1 + " needs the " + std::string(imp->needs_reform) + " reform");
  }
  if (o.s1 == "Port" && !c.s().defs.at(o.a).coastal) return c.Reject(o.seq, "Y11.4", P(o.a) + " has no coast");
  int32_t prov = o.a;
  std::string nat = nation, what = o.s1;
  if (o.s1 == "Military HQ") {
    if (c.version() >= kNoHqInCapitalVersion && o.a == n->capital) {
      return c.Reject(o.seq, "Y11.6", P(o.a) + " is " + nation + "'s capital, which spawns armies already: a Military HQ there adds no spawn point");
    }
    auto it = p->armies.find(nation);
    if (it == p->armies.end() || it->second < kHqDisbandedArmies) {
      return c.Reject(o.seq, "Y11.6", "a Military HQ disbands 2 of " + nation + "'s armies in " + P(o.a) +
                                          "; it has " + std::to_string(it == p->armies.end() ? 0 : it->second));
    }
    c.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820ArmiesLostDirect(f, nat.c_str(), prov, kHqDisbandedArmies, "Military HQ", "Y11.6"));
    });
  }
  use.improvements++;
  c.Emit([=](Fbb& f) { return Body(fb::CreateY1820ImprovementBuiltDirect(f, nat.c_str(), prov, what.c_str())); });
}

void Dismantle(Ctx& c, const std::string& nation, const Y1820StandingOrder& o, TurnUse& use) {
  const auto* p = c.s().Province(o.a);
  if (!p || p->owner != nation) return c.Reject(o.seq, "Y11.1", P(o.a) + " is not " + nation + "'s");
  if (!p->improvements.count(o.s1)) return c.Reject(o.seq, "Y11.1", P(o.a) + " has no " + o.s1);
  if (use.improvements >= ImprovementsAllowed(c.s(), nation, c.version())) {
    return c.Reject(o.seq, "Y11.1", nation + " has built or dismantled " + std::to_string(use.improvements) +
                                        " improvements this turn, its limit");
  }
  use.improvements++;
  int32_t prov = o.a;
  std::string nat = nation, what = o.s1;
  c.Emit([=](Fbb& f) {
    return Body(fb::CreateY1820ImprovementRemovedDirect(f, nat.c_str(), prov, what.c_str(), "dismantled"));
  });
}

void RaiseFleet(Ctx& c, const std::string& nation, const Y1820StandingOrder& o, TurnUse& use) {
  const auto* p = c.s().Province(o.a);
  if (!p || p->owner != nation) return c.Reject(o.seq, "Y8.1", P(o.a) + " is not " + nation + "'s");
  if (!p->improvements.count("Port")) return c.Reject(o.seq, "Y8.1", P(o.a) + " has no Port");
  if (use.fleets_raised.count(o.a)) return c.Reject(o.seq, "Y8.1", "a port raises one fleet a turn");
  if (!p->armies.count(nation)) return c.Reject(o.seq, "Y8.1", "a fleet is made from an army; " + nation + " has none in " + P(o.a));
  use.fleets_raised.insert(o.a);
  int32_t prov = o.a;
  std::string nat = nation;
  c.Emit([=](Fbb& f) { return Body(fb::CreateY1820FleetRaisedDirect(f, nat.c_str(), prov)); });
}

void DismantleFleet(Ctx& c, const std::string& nation, const Y1820StandingOrder& o) {
  const auto* p = c.s().Province(o.a);
  if (!p || p->owner != nation) return c.Reject(o.seq, "Y8.6", P(o.a) + " is not " + nation + "'s");
  if (!p->fleets.count(nation)) return c.Reject(o.seq, "Y8.6", nation + " has no fleet docked at " + P(o.a));
  if (c.version() >= kDismantleInPortVersion && !p->improvements.count("Port")) {
    return c.Reject(o.seq, "Y8.6", P(o.a) + " has no Port: a fleet is dismantled where it is docked in a Port");
  }
  int32_t prov = o.a;
  std::string nat = nation;
  c.Emit([=](Fbb& f) { return Body(fb::CreateY1820FleetsLostDirect(f, nat.c_str(), prov, "", 1, "dismantled", "Y8.6")); });
}

// ---- the end of the turn ---------------------------------------------------------------

Status Research(Ctx& c, const std::string& nation) {
  ResearchPoints rp = ResearchPointsOf(c.s(), nation);
  const auto* n = c.s().Nation(nation);
  std::string tech = n->research;
  const Tech* t = FindTech(tech);
  int cost = t ? t->cost : 0;
  ResearchStep step = StepResearch(n->progress, rp.total, cost, t != nullptr);
  std::string nat = nation, bd = rp.breakdown;
  int pts = rp.total;
  c.Emit([=](Fbb& f) {
    return Body(fb::CreateY1820ResearchPointsDirect(f, nat.c_str(), tech.c_str(), pts, step.progress_after, cost,
                                                    step.lost, bd.c_str()));
  });
  if (step.finished) {
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820TechAcquiredDirect(f, nat.c_str(), tech.c_str(), "research")); });
  }
  return Status::Ok();
}

// Y14.3: a revolt: one province other than the capital becomes an NPC state.
Status Revolt(Ctx& c, const std::string& nation) {
  const auto* n = c.s().Nation(nation);
  std::vector<int32_t> candidates;
  for (const auto& [id, p] : c.s().provinces) {
    if (p.owner == nation && id != n->capital && id != n->original_capital) candidates.push_back(id);
  }
  if (candidates.empty()) return Status::Ok();
  int pick = 0;
  if (candidates.size() > 1) {
    auto r = c.Die(nation, "revolting province", "Y14.3", static_cast<uint32_t>(candidates.size()));
    if (!r.ok()) return r.status();
    pick = *r - 1;
  }
  int32_t prov = candidates[pick];
  std::string nat = nation, state = "Free " + c.s().defs.at(prov).name;
  const auto* p = c.s().Province(prov);
  if (auto it = p->armies.find(nation); it != p->armies.end()) {
    int32_t k = it->second;
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820ArmiesLostDirect(f, nat.c_str(), prov, k, "revolt", "Y14.3")); });
  }
  if (auto it = p->fleets.find(nation); it != p->fleets.end()) {
    int32_t k = it->second;
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820FleetsLostDirect(f, nat.c_str(), prov, "", k, "revolt", "Y14.3")); });
  }
  c.Emit([=](Fbb& f) { return Body(fb::CreateY1820ProvinceRevoltedDirect(f, nat.c_str(), prov, state.c_str())); });
  return Status::Ok();
}

Status ReformRoll(Ctx& c, const std::string& nation, int32_t index) {
  const auto* n = c.s().Nation(nation);
  if (n->reform.empty() || n->reform_since >= index) return Status::Ok();  // Y14.2: from the turn after
  const Reform* r = FindReform(n->reform);
  if (!r) return Status::Corruption("unknown reform " + n->reform);
  ReformChances ch = ReformChancesOf(r->chance_pct, n->government, n->reforms.count("New Philosophies") > 0);
  auto roll = c.Die(nation, "social reform " + n->reform, "Y14.2", 100);
  if (!roll.ok()) return roll.status();
  std::string outcome = ReformOutcome(ch, *roll);
  std::string nat = nation, reform = n->reform;
  int rl = *roll;
  c.Emit([=](Fbb& f) {
    return Body(fb::CreateY1820ReformRolledDirect(f, nat.c_str(), reform.c_str(), rl, ch.success, ch.revolt,
                                                  outcome.c_str()));
  });
  if (outcome == "success" && !r->government.empty()) {
    std::string gov(r->government);
    c.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820GovernmentChangedDirect(f, nat.c_str(), gov.c_str(), reform.c_str()));
    });
  }
  if (outcome == "revolt") return Revolt(c, nation);
  return Status::Ok();
}

Status Epidemics(Ctx& c) {
  std::vector<int32_t> struck;
  for (const auto& [id, p] : c.s().provinces) if (p.epidemic) struck.push_back(id);
  for (int32_t id : struck) {
    const auto* p = c.s().Province(id);
    const auto* owner = c.s().Nation(p->owner);
    EpidemicChances ch = EpidemicChancesOf(owner ? owner->techs : std::set<std::string>{});
    auto kill = c.Die(P(id), "epidemic kills an army", "Y13.2", 100);
    if (!kill.ok()) return kill.status();
    if (*kill <= ch.kill && !p->armies.empty()) {
      // The owner's army first; else the nation with the most armies there.
      std::string victim = p->armies.count(p->owner) ? p->owner : p->armies.begin()->first;
      for (const auto& [nat, k] : p->armies) {
        if (!p->armies.count(p->owner) && k > p->armies.at(victim)) victim = nat;
      }
      int rl = *kill, chance = ch.kill;
      c.Emit([=](Fbb& f) { return Body(fb::CreateY1820EpidemicStruckDirect(f, id, rl, chance, victim.c_str())); });
      c.Emit([=](Fbb& f) { return Body(fb::CreateY1820ArmiesLostDirect(f, victim.c_str(), id, 1, "epidemic", "Y13.2")); });
    }
    auto end = c.Die(P(id), "epidemic ends", "Y13.3", 100);
    if (!end.ok()) return end.status();
    if (*end <= ch.end) {
      int rl = *end, chance = ch.end;
      c.Emit([=](Fbb& f) { return Body(fb::CreateY1820EpidemicEnded(f, id, rl, chance)); });
    }
  }
  return Status::Ok();
}

// Y4.5: over the limit, one army is lost (a random one of the nation's);
// Y4.1: else one army at each spawn point, capital first, up to the limit.
Status Armies(Ctx& c, const std::string& nation) {
  int limit = ArmyLimitOf(c.s(), nation).total;
  int have = c.s().ArmiesOf(nation);
  std::string nat = nation;
  if (have > limit) {
    std::vector<std::pair<int32_t, int32_t>> where;  // province, armies
    for (const auto& [id, p] : c.s().provinces) {
      if (auto it = p.armies.find(nation); it != p.armies.end()) where.emplace_back(id, it->second);
    }
    auto r = c.Die(nation, "army lost over the limit", "Y4.5", static_cast<uint32_t>(have));
    if (!r.ok()) return r.status();
    int k = *r;
    int32_t prov = 0;
    for (const auto& [id, n] : where) {
      if (k <= n) { prov = id; break; }
      k -= n;
    }
    c.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820ArmiesLostDirect(f, nat.c_str(), prov, kLostOverLimitPerTurn, "over the limit", "Y4.5"));
    });
    return Status::Ok();
  }
  for (int32_t point : SpawnPoints(c.s(), nation)) {
    if (c.s().ArmiesOf(nation) >= limit) break;
    // No army spawns where an enemy army stands (a pact partner's is no enemy).
    bool enemy = false;
    for (const auto& [other, k] : c.s().Province(point)->armies) enemy |= other != nation && c.s().AtWar(nation, other);
    if (enemy) continue;
    // Y4.1 the capital; Y4.2 a rally point; Y4.3 a Military HQ (with Army Modernization).
    const auto* n = c.s().Nation(nation);
    std::string rule = point == n->capital ? "Y4.1" : n->reforms.count("Army Modernization") ? "Y4.3" : "Y4.2";
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820ArmySpawnedDirect(f, nat.c_str(), point, rule.c_str())); });
  }
  return Status::Ok();
}

// Y15.2 (ASSUMED): one d100 on the random-event table.
Status RandomEvent(Ctx& c) {
  if (!c.s().random_events) return Status::Ok();
  auto roll = c.Die("", "random event", "Y15.2", 100);
  if (!roll.ok()) return roll.status();
  const RandomEventRow* row = nullptr;
  for (const auto& r : kRandomEvents) {
    if (*roll <= r.upto) { row = &r; break; }
  }
  std::string kind(row->kind);
  std::vector<int32_t> candidates;
  for (const auto& [id, p] : c.s().provinces) {
    if (p.owner.empty()) continue;
    if (kind == "epidemic" && !p.epidemic) candidates.push_back(id);
    if (kind == "fire" && p.improvements.count("Academy")) candidates.push_back(id);
  }
  int32_t prov = 0;
  if (!candidates.empty() && kind != "none") {
    int pick = 0;
    if (candidates.size() > 1) {
      auto r = c.Die("", "random event: " + kind, "Y15.2", static_cast<uint32_t>(candidates.size()));
      if (!r.ok()) return r.status();
      pick = *r - 1;
    }
    prov = candidates[pick];
  }
  std::string owner = prov ? c.s().Province(prov)->owner : "";
  int rl = *roll;
  c.Emit([=](Fbb& f) { return Body(fb::CreateY1820RandomEventDirect(f, rl, kind.c_str(), prov, owner.c_str())); });
  if (!prov) return Status::Ok();
  if (kind == "epidemic") {
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820EpidemicStartedDirect(f, prov, "random event")); });
  } else if (kind == "fire") {
    c.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820ImprovementRemovedDirect(f, owner.c_str(), prov, "Academy", "fire (random event)"));
    });
  }
  return Status::Ok();
}

// Y1.4: domination and stagnation.
void EndConditions(Ctx& c, int32_t index) {
  int needed = DominationNeeded(c.s());
  for (const std::string& nation : c.s().order) {
    const auto* n = c.s().Nation(nation);
    if (n->eliminated) continue;
    int held = ProvincesOf(c.s(), nation);
    int turns = held >= needed ? n->domination_turns + 1 : 0;
    if (turns == n->domination_turns) continue;
    std::string nat = nation;
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820DominationDirect(f, nat.c_str(), held, needed, turns)); });
    if (turns >= kDominationTurns) {
      c.Emit([=](Fbb& f) { return Body(fb::CreateY1820GameEndedDirect(f, "domination", nat.c_str())); });
      return;
    }
  }
  const int last = c.version() >= kCalendarVersion ? kLastTurn : kLastTurnV1;
  if (index >= last) {
    c.Emit([=](Fbb& f) { return Body(fb::CreateY1820GameEndedDirect(f, "stagnation", "")); });
  }
}

bool Alive(const Ctx& c, const std::string& nation) {
  const auto* n = c.s().Nation(nation);
  return n && !n->eliminated;
}

}  // namespace

Status RunPhase(PhaseWriter& w, const NextPhase& next, DiceSource& dice) {
  Ctx c(w, next.at, &dice);
  const std::vector<std::string> order = c.s().order;
  if (next.index == 0) {
    // Y1.1: deployment, rally points, public diplomacy, first choices.
    for (const std::string& nation : order) {
      auto orders = c.s().orders.count(nation) ? c.s().orders.at(nation) : std::vector<Y1820StandingOrder>{};
      for (const auto& o : orders) {
        if (o.kind == "Y1820Deploy") Deploy(c, nation, o);
        else if (o.kind == "Y1820RallyPoints") SetRallyPoints(c, nation, o);
        else if (o.kind == "Y1820Treaty") AnnounceTreaty(c, nation, o);
        else if (o.kind == "Y1820DeclareWar") DeclareWar(c, nation, o);
        else if (o.kind == "Y1820Research") ChooseResearch(c, nation, o);
        else if (o.kind == "Y1820Reform") ChooseReform(c, nation, o);
        else c.Reject(o.seq, "Y1.1", "turn 0 takes deployments, rally points, diplomacy and first choices only");
      }
      DeployRest(c, nation);
    }
    return Status::Ok();
  }
  // Y12.4, Y12.5: the start of the turn.
  TreatiesIntoForce(c);
  Trades(c);
  // Each nation's orders (Y1.3).
  for (const std::string& nation : order) {
    auto orders = c.s().orders.count(nation) ? c.s().orders.at(nation) : std::vector<Y1820StandingOrder>{};
    if (!Alive(c, nation)) {
      // Y3.2: an eliminated nation (perhaps earlier this turn) takes no further part.
      for (const auto& o : orders) c.Reject(o.seq, "Y3.2", nation + " has been eliminated");
      continue;
    }
    TurnUse use;
    Moves moves(c, nation);
    moves.Plan(orders);
    // Diplomacy and choices first, then builds and fleets, then moves in file order.
    for (const auto& o : orders) {
      if (!Alive(c, nation)) break;
      if (o.kind == "Y1820DeclareWar") DeclareWar(c, nation, o);
      else if (o.kind == "Y1820Treaty") AnnounceTreaty(c, nation, o);
      else if (o.kind == "Y1820GiveProvince") GiveProvince(c, nation, o);
      else if (o.kind == "Y1820GiveTech") GiveTech(c, nation, o);
      else if (o.kind == "Y1820Research") ChooseResearch(c, nation, o);
      else if (o.kind == "Y1820Reform") ChooseReform(c, nation, o);
      else if (o.kind == "Y1820RallyPoints") SetRallyPoints(c, nation, o);
    }
    for (const auto& o : orders) {
      if (!Alive(c, nation)) break;
      if (o.kind == "Y1820Build") Build(c, nation, o, use);
      else if (o.kind == "Y1820Dismantle") Dismantle(c, nation, o, use);
      else if (o.kind == "Y1820RaiseFleet") RaiseFleet(c, nation, o, use);
      else if (o.kind == "Y1820DismantleFleet") DismantleFleet(c, nation, o);
    }
    // Y8.2 (version 7): first its fleets sharing a zone with enemy fleets fight them.
    if (c.version() >= kAtWarFleetsFightVersion && Alive(c, nation)) ADJ_RETURN_IF_ERROR(moves.Engage());
    for (const auto& o : orders) {
      if (!Alive(c, nation)) break;
      if (o.kind == "Y1820FleetMove") ADJ_RETURN_IF_ERROR(moves.Fleet(o));
      else if (o.kind == "Y1820Move") ADJ_RETURN_IF_ERROR(moves.Army(o));
      else if (o.kind == "Y1820Deploy") c.Reject(o.seq, "Y1.1", "armies are deployed at turn 0 only");
    }
    // Y9.1 (version 8): last, its armies still standing on an enemy's ground attack it there.
    if (c.version() >= kStandingArmiesAttackVersion && Alive(c, nation)) ADJ_RETURN_IF_ERROR(moves.Besiege());
  }
  // The end of the turn.
  for (const std::string& nation : order) {
    if (!Alive(c, nation)) continue;
    ADJ_RETURN_IF_ERROR(Research(c, nation));
    ADJ_RETURN_IF_ERROR(ReformRoll(c, nation, next.index));
  }
  ADJ_RETURN_IF_ERROR(Epidemics(c));
  for (const std::string& nation : order) {
    if (Alive(c, nation)) ADJ_RETURN_IF_ERROR(Armies(c, nation));
  }
  ADJ_RETURN_IF_ERROR(RandomEvent(c));
  EndConditions(c, next.index);
  return Status::Ok();
}

}  // namespace adjutant::rules::y1820
