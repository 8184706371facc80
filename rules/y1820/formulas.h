// The y1820 ruleset's arithmetic as pure functions of the state: army
// limits and spawn points, research points, reform and epidemic chances,
// combat bonuses. Each names its section (rules/y1820/RULES.md); the
// numbers are in tables.h. The book's worked examples are tests of these
// (tests/rules/y1820/formulas_test.cc).
#pragma once

#include <string>
#include <vector>

#include "projections/y1820.h"

namespace adjutant::rules::y1820 {

using projections::Y1820State;

// Y4.4: the most armies a nation may have, with its parts named.
struct ArmyLimit {
  int total = 0;
  std::string breakdown;  // e.g. "12 provinces 12, 2 populous 6, capital 3, Levies 3"
};
ArmyLimit ArmyLimitOf(const Y1820State& s, const std::string& nation);

// Y4.1–Y4.3: where a nation's armies may spawn this turn, capital first.
std::vector<int32_t> SpawnPoints(const Y1820State& s, const std::string& nation);
// Y4.2 / Y6.1: how many rally points a nation may set (0 once it has Army Modernization).
int RallyPointsAllowed(const Y1820State& s, const std::string& nation);

// Y10: a turn's research points, with their parts named.
struct ResearchPoints {
  int total = 0;
  std::string breakdown;
};
ResearchPoints ResearchPointsOf(const Y1820State& s, const std::string& nation);

// Y10.3: where a turn's points go. progress_before + points = progress_after
// + lost; `lost` is the overflow past the cost (Y10.3), the points of a
// nation researching nothing, or (negative) a deficit below zero forgiven.
struct ResearchStep {
  int progress_after = 0;
  int lost = 0;
  bool finished = false;
};
ResearchStep StepResearch(int progress_before, int points, int cost, bool researching);

// Y14.2: a reform's chances in whole percent; success + revolt + nothing = 100.
struct ReformChances {
  int success = 0, revolt = 0, nothing = 0;
};
ReformChances ReformChancesOf(int base_pct, const std::string& government, bool new_philosophies);
// The outcome of a d100 roll (1..100) against those chances: rolls 1..success
// succeed, the top `revolt` rolls revolt, the rest change nothing.
std::string ReformOutcome(const ReformChances& c, int roll);

// Y13: an epidemic's chances in a province held by a nation with `techs`.
struct EpidemicChances {
  int kill = 0, end = 0;
};
EpidemicChances EpidemicChancesOf(const std::set<std::string>& techs);

// Y9.3: the bonus of the side with `mine` armies against `theirs`.
int OutnumberBonus(int mine, int theirs);

// Y11.1: improvements a nation may build or dismantle this turn: two, one
// more for each 4 factories (Y11.7), and from version 2 the technologies'
// `improvements` (Y15.1: Civil Engineering +1).
int ImprovementsAllowed(const Y1820State& s, const std::string& nation, uint32_t version);

// Y1.4: provinces one nation must hold for domination.
int DominationNeeded(const Y1820State& s);
int ProvincesOf(const Y1820State& s, const std::string& nation);

// Y12.3: exchange treaties a nation has in force.
int ExchangeTreaties(const Y1820State& s, const std::string& nation);

// Y12.2 (version 4, kTreatiesAtWarVersion): why `nation` may not announce a
// `kind` treaty with `other` while the two are at war ("": it may). Read
// when the order is sent (intake.cc) and at adjudication (phase.cc).
std::string TreatyBarredByWar(const Y1820State& s, const std::string& nation, const std::string& other,
                              const std::string& kind, uint32_t version);

// Y4.2: whether `province` gives the nation's defenders the rally point's +1.
// Version 2: one of the first two provinces named (kRallyPoints), and not the
// capital — the capital spawns armies of its own (Y4.1), and a Feudal
// Monarchy's third (Y6.1's "selectable spawn point") is a spawn point only.
// Version 1: any province named.
bool RallyPointDefends(const projections::Y1820Nation& n, int32_t province, uint32_t version);

}  // namespace adjutant::rules::y1820
