#include "rules/kind.h"

#include <algorithm>

#include "projections/summary.h"
#include "rules/events.h"

namespace adjutant::rules {

bool NamesRuleset(std::span<const std::string> rulesets, std::string_view ruleset) {
  return std::find(rulesets.begin(), rulesets.end(), ruleset) != rulesets.end();
}

Status EmitPhase(PhaseWriter& w, const KindPhase& phase, std::string_view ruleset,
                 const std::function<Status()>& outcomes) {
  const auto book = w.Under(ruleset);
  auto tag = [&](Draft d) {
    d.actor = Actor{ActorKind::kAdjudicator, "", ""};
    return d;
  };
  w.Emit(tag(PhaseStartedDraft(phase.at, phase.name)));
  ADJ_RETURN_IF_ERROR(outcomes());
  w.Emit(tag(PhaseCompletedDraft(phase.at, phase.name, w.Digests(), w.Versions())));
  return Status::Ok();
}

RulesVersions GameVersionsOf(const projections::SummaryState& summary) {
  RulesVersions v = LatestVersions();
  for (const auto& [ruleset, version] : summary.rules_versions) v.Set(ruleset, version);
  return v;
}

std::vector<MissingOrders> GameKind::OrdersNotGiven(const State&, std::span<const std::string> roles,
                                                   const std::set<std::string>&,
                                                   const std::set<std::string>& roles_stood) const {
  std::vector<MissingOrders> out;
  for (const std::string& r : roles) {
    if (!roles_stood.count(r)) out.push_back({r, "", "", "no order of this role stood for the turn"});
  }
  return out;
}

RulesVersions GameVersionsOf(const State& s) { return GameVersionsOf(Get<projections::Summary>(s).state()); }

std::string JoinRow(const std::vector<std::string>& xs) {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::string CountsRow(const std::map<std::string, int32_t>& m) {
  std::string out;
  for (const auto& [n, k] : m) out += (out.empty() ? "" : ",") + n + ":" + std::to_string(k);
  return out;
}

std::string IntsRow(const std::vector<int32_t>& v) {
  std::string out;
  for (int32_t x : v) out += (out.empty() ? "" : ",") + std::to_string(x);
  return out;
}

}  // namespace adjutant::rules
