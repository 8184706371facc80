// Draft builders for the ledger-level events every ruleset and the CLI
// write: GA rulings, phase boundaries.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/hash.h"
#include "schema/draft.h"

namespace adjutant::rules {

// A GA's written ruling with its reason (a Directive event).
Draft RulingDraft(const TurnPhase& at, const Actor& ga, std::string reason, std::string text);

Draft PhaseStartedDraft(const TurnPhase& at, std::string name);

// Closes a phase with the digest of every projection, in order, and the
// version of each projection's encoding (0: unknown).
Draft PhaseCompletedDraft(const TurnPhase& at, std::string name,
                          std::vector<std::pair<std::string, Hash128>> digests,
                          std::vector<uint32_t> versions = {});

}  // namespace adjutant::rules
