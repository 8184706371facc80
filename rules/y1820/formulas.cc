#include "rules/y1820/formulas.h"

#include <algorithm>

#include "rules/y1820/tables.h"

namespace adjutant::rules::y1820 {

namespace {
void Part(std::string& out, const std::string& what, int n) {
  if (n == 0) return;
  if (!out.empty()) out += ", ";
  out += what + " " + (n > 0 ? "+" : "") + std::to_string(n);
}
}  // namespace

int ExchangeTreaties(const Y1820State& s, const std::string& nation) {
  int n = 0;
  for (const auto& [a, b, kind] : s.treaties) {
    if (kind == "exchange" && (a == nation || b == nation)) ++n;
  }
  return n;
}

std::string TreatyBarredByWar(const Y1820State& s, const std::string& nation, const std::string& other,
                              const std::string& kind, uint32_t version) {
  if (version < kTreatiesAtWarVersion || kind == "non-aggression" || !s.AtWar(nation, other)) return "";
  return nation + " is at war with " + other + ": only a non-aggression treaty may be announced";
}

ArmyLimit ArmyLimitOf(const Y1820State& s, const std::string& nation) {
  ArmyLimit out;
  const auto* n = s.Nation(nation);
  if (!n || n->eliminated) return out;
  const Government* g = FindGovernment(n->government);
  if (!g) return out;
  int ordinary = 0, populous = 0, capital = 0;
  for (const auto& [id, p] : s.provinces) {
    if (p.owner != nation) continue;
    auto def = s.defs.find(id);
    if (id == n->capital) capital++;
    else if (def != s.defs.end() && def->second.populous) populous++;
    else ordinary++;
  }
  Part(out.breakdown, std::to_string(ordinary) + " provinces", ordinary * kArmiesPerProvince);
  Part(out.breakdown, std::to_string(populous) + " populous", populous * g->populous_armies);
  Part(out.breakdown, "capital", capital * g->capital_armies);
  Part(out.breakdown, "Levies", g->extra_armies);
  int ex = ExchangeTreaties(s, nation);
  Part(out.breakdown, std::to_string(ex) + " exchange treaties", ex * kArmiesPerExchangeTreaty);
  out.total = ordinary * kArmiesPerProvince + populous * g->populous_armies + capital * g->capital_armies +
              g->extra_armies + ex * kArmiesPerExchangeTreaty;
  return out;
}

bool RallyPointDefends(const projections::Y1820Nation& n, int32_t province, uint32_t version) {
  const auto& named = n.rally_points;
  const auto at = std::find(named.begin(), named.end(), province);
  if (at == named.end()) return false;
  if (version < kRallyDefenceVersion) return true;
  return province != n.capital && at - named.begin() < kRallyPoints;
}

int RallyPointsAllowed(const Y1820State& s, const std::string& nation) {
  const auto* n = s.Nation(nation);
  if (!n || n->reforms.count("Army Modernization")) return 0;
  const Government* g = FindGovernment(n->government);
  return kRallyPoints + (g ? g->extra_spawn_points : 0);
}

std::vector<int32_t> SpawnPoints(const Y1820State& s, const std::string& nation) {
  std::vector<int32_t> out;
  const auto* n = s.Nation(nation);
  if (!n || n->eliminated) return out;
  auto usable = [&](int32_t id) {
    const auto* p = s.Province(id);
    return p && p->owner == nation && !p->epidemic;  // Y13.1: no spawning in an epidemic
  };
  if (usable(n->capital)) out.push_back(n->capital);
  if (n->reforms.count("Army Modernization")) {
    for (const auto& [id, p] : s.provinces) {
      if (id != n->capital && p.improvements.count("Military HQ") && usable(id)) out.push_back(id);
    }
  } else {
    int allowed = RallyPointsAllowed(s, nation);
    int taken = 0;
    for (int32_t id : n->rally_points) {
      if (taken >= allowed) break;
      ++taken;
      if (id != n->capital && usable(id) && std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
    }
  }
  return out;
}

ResearchPoints ResearchPointsOf(const Y1820State& s, const std::string& nation) {
  ResearchPoints out;
  const auto* n = s.Nation(nation);
  if (!n || n->eliminated) return out;
  const Government* g = FindGovernment(n->government);
  if (!g) return out;
  int in_capital = 0, elsewhere = 0;
  for (const auto& [id, p] : s.provinces) {
    if (p.owner != nation || !p.improvements.count("Academy")) continue;
    (id == n->capital ? in_capital : elsewhere)++;
  }
  int academies = in_capital * g->academy_rp_capital + elsewhere * g->academy_rp_elsewhere;
  Part(out.breakdown, std::to_string(in_capital + elsewhere) + " academies", academies);
  int atomic = n->techs.count("Atomic Theory") ? (in_capital + elsewhere) * kAtomicTheoryPerAcademy : 0;
  Part(out.breakdown, "Atomic Theory", atomic);
  int electro = n->techs.count("Electrochemistry") ? kElectrochemistryRp : 0;
  Part(out.breakdown, "Electrochemistry", electro);
  int np = n->reforms.count("New Philosophies") ? kNewPhilosophiesRp : 0;
  Part(out.breakdown, "New Philosophies", np);
  int ex = ExchangeTreaties(s, nation) *
           (n->techs.count("Electrical Telegraphs") ? kExchangeRpTelegraphs : kExchangeRp);
  Part(out.breakdown, "exchange treaties", ex);
  Part(out.breakdown, g->name.data(), g->flat_rp);
  out.total = academies + atomic + electro + np + ex + g->flat_rp;
  return out;
}

ResearchStep StepResearch(int progress_before, int points, int cost, bool researching) {
  ResearchStep r;
  if (!researching) {
    r.progress_after = progress_before;
    r.lost = points;
    return r;
  }
  int raw = progress_before + points;
  if (raw < 0) {
    r.progress_after = 0;
    r.lost = raw;  // a deficit below zero is forgiven
  } else if (raw >= cost) {
    r.finished = true;
    r.progress_after = cost;
    r.lost = raw - cost;  // Y10.3: the overflow is lost
  } else {
    r.progress_after = raw;
  }
  return r;
}

ReformChances ReformChancesOf(int base_pct, const std::string& government, bool new_philosophies) {
  ReformChances c;
  c.success = base_pct + (new_philosophies ? kNewPhilosophiesSuccessPct : 0);
  const Government* g = FindGovernment(government);
  c.revolt = base_pct + (g ? g->revolt_bonus_pct : 0);
  c.success = std::clamp(c.success, 0, 100);
  c.revolt = std::clamp(c.revolt, 0, 100 - c.success);
  c.nothing = 100 - c.success - c.revolt;
  return c;
}

std::string ReformOutcome(const ReformChances& c, int roll) {
  if (roll <= c.success) return "success";
  if (roll > 100 - c.revolt) return "revolt";
  return "nothing";
}

EpidemicChances EpidemicChancesOf(const std::set<std::string>& techs) {
  EpidemicChances c{kEpidemicKillPct, kEpidemicEndPct};
  for (std::string_view t : kEpidemicTechs) {
    if (techs.count(std::string(t))) {
      c.kill /= 2;
      c.end = std::min(100, c.end * 2);
    }
  }
  return c;
}

int OutnumberBonus(int mine, int theirs) { return mine > theirs ? (mine - theirs) / kOutnumberStep : 0; }

int ImprovementsAllowed(const Y1820State& s, const std::string& nation, uint32_t version) {
  int factories = 0;
  for (const auto& [id, p] : s.provinces) {
    if (p.owner == nation && p.improvements.count("Factory")) ++factories;
  }
  int research = 0;
  if (const auto* n = s.Nation(nation)) {
    for (const auto& t : kTechs) {
      if (t.since <= version && n->techs.count(std::string(t.id))) research += t.improvements;
    }
  }
  return kImprovementsPerTurn + factories / kFactoriesPerExtraImprovement + research;
}

int DominationNeeded(const Y1820State& s) { return static_cast<int>(s.defs.size()) / 2 + 1; }

int ProvincesOf(const Y1820State& s, const std::string& nation) {
  int n = 0;
  for (const auto& [id, p] : s.provinces) n += p.owner == nation;
  return n;
}

}  // namespace adjutant::rules::y1820
