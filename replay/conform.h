// The conformance runner (issue 5): plays a ConformanceCase
// (schema/inputs.fbs; fixtures/conformance/README.md) in a scratch database
// and compares the views with what the case expects.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace adjutant::fb { struct ConformanceCase; }

namespace adjutant::replay {

struct CaseResult {
  std::string name;
  std::vector<std::string> rules;
  std::vector<std::string> differences;  // empty: passed
  bool passed() const { return differences.empty(); }
};

// Runs one case in a fresh database under `scratch_dir` (which must not
// exist yet). A case that cannot be played (a step refused, a roll beyond
// the scripted dice) is an error naming the step.
Result<CaseResult> RunCase(const fb::ConformanceCase& c, const std::string& scratch_dir);

}  // namespace adjutant::replay
