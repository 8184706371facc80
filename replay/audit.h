// Auditing a past turn (issue 5): rebuild the state before each of the
// turn's phases, adjudicate the phase again from what the log recorded
// before it (the orders and directives) with the branch's dice, and compare
// what comes out with what was recorded, event by event, byte for byte —
// the PhaseCompleted events carry every projection's digest, so the views
// are compared too.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/turn.h"
#include "ledger/ledger.h"
#include "rules/versions.h"

namespace adjutant::replay {

struct AuditResult {
  Turn turn;
  size_t phases = 0;
  size_t events = 0;           // recorded events of the turn's phases compared
  size_t views_not_compared = 0;  // digests recorded under another projection version
  size_t heads = 0;            // signed tree heads checked (issue 23: replay/heads.h)
  bool identical = true;
  // At the first difference:
  uint64_t seq = 0;            // the sequence number where they part
  std::string recorded, produced;  // each event as JSON ("" where there is none)
  std::string rule;            // the rule the event names, if any
  std::string reason;          // what differs, in words
};

// Audits turn `t` of a branch. NotFound when the turn has no adjudicated phase.
// In a game that signs its tree heads, each phase must be followed by its
// TreeHead, and each head of the turn must hold (CheckHeads).
// Each phase runs under the rules versions it recorded — or, for each
// ruleset `under` names (a version other than 0), under that version: the
// events keep their recorded version tags, so the first difference is the
// first event that version would adjudicate differently.
Result<AuditResult> AuditTurn(ledger::Ledger& db, std::string_view game, std::string_view branch, const Turn& t,
                              const rules::RulesVersions& under = {});

// The turns of a branch with at least one adjudicated phase, in order.
Result<std::vector<Turn>> AdjudicatedTurns(ledger::Ledger& db, std::string_view game, std::string_view branch);

}  // namespace adjutant::replay
