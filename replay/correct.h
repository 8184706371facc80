// Correcting history without rewriting it (issue 5): a branch forked just
// before the faulty point, the GA's correction recorded there, and every
// later order and password of the old branch — each at the turn and phase it
// was given — recorded again on the new branch in order, with the turns
// adjudicated again between them from the same dice. The GA's later
// directives are not given again (the correction stands in for what went
// wrong; he gives again those he still wants: they are listed). The
// corrected branch becomes the game's current one (commands use it when no
// branch is named); the old branch stays as it was.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/turn.h"
#include "ledger/ledger.h"

namespace adjutant::replay {

struct CorrectReport {
  std::string branch;        // the corrected branch
  uint64_t fork_seq = 0;
  size_t inputs = 0;         // orders and passwords carried over
  std::vector<uint64_t> directives_left;  // the old branch's later directives, not given again
  size_t phases = 0;         // phases adjudicated again
  uint64_t head = 0;
};

// `directive_file` is a verified DirectiveFile buffer (the correction).
Result<CorrectReport> Correct(ledger::Ledger& db, std::string_view game, std::string_view branch, const TurnPhase& at,
                              const std::vector<uint8_t>& directive_file, std::string_view new_branch);

}  // namespace adjutant::replay
