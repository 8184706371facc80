// The registry of game kinds (rules/kind.h): one row per kind. A scenario's
// rulesets choose the first kind that plays them (no two kinds play the
// same list).
#include <algorithm>
#include <vector>

#include "projections/summary.h"
#include "rules/dog/kind.h"
#include "rules/kind.h"
#include "rules/nwol/kind.h"
#include "rules/y1820/kind.h"

namespace adjutant::rules {

namespace {

std::vector<const GameKind*>& Registry() {
  static std::vector<const GameKind*> kinds = {
      &nwol::Kind(),  // sow, pate, both, or a scenario naming neither
      &y1820::Kind(),
      &dog::Kind(),
  };
  return kinds;
}

}  // namespace

std::span<const GameKind* const> AllKinds() { return Registry(); }

void RegisterKind(const GameKind* kind) {
  auto& r = Registry();
  if (std::find(r.begin(), r.end(), kind) != r.end()) return;
  r.push_back(kind);
  RegisterVersions(kind->Versions());
}

const GameKind* KindNamed(std::string_view name) {
  for (const GameKind* k : Registry()) {
    if (k->name() == name) return k;
  }
  return nullptr;
}

const GameKind* KindFor(std::span<const std::string> rulesets) {
  for (const GameKind* k : Registry()) {
    if (k->Plays(rulesets)) return k;
  }
  return nullptr;
}

const GameKind* KindOf(const State& s) {
  const auto& sum = Get<projections::Summary>(s).state();
  if (sum.last_seq == 0) return nullptr;  // before GameCreated
  return KindFor(sum.rulesets);
}

State AllKindProjections() {
  State out = projections::AllProjections();
  for (const GameKind* k : Registry()) {
    for (auto& p : k->ExtraProjections()) out.push_back(std::move(p));
  }
  return out;
}

std::vector<std::string_view> KnownRulesets() {
  std::vector<std::string_view> out;
  for (const GameKind* k : Registry()) {
    for (std::string_view r : k->Rulesets()) {
      if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
    }
  }
  return out;
}

}  // namespace adjutant::rules
