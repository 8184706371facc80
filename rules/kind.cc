#include "rules/kind.h"

#include "projections/summary.h"

namespace adjutant::rules {

RulesVersions GameVersionsOf(const State& s) {
  RulesVersions v = LatestVersions();
  for (const auto& [ruleset, version] : Get<projections::Summary>(s).state().rules_versions) v.Set(ruleset, version);
  return v;
}

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
