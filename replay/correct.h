// Correcting history without rewriting it (issue 5): a branch forked just
// before the faulty point, the GA's correction recorded there, and every
// later input of the old branch — the players' orders, passwords and the
// GA's own later directives, each at the turn and phase it was given —
// recorded again on the new branch in order, with the turns adjudicated
// again between them from the same dice: each phase with the dice it was
// first rolled with, so a branch forked with new dice after the point is
// corrected in parts (CorrectReport::segments), a branch of its own for
// each run of phases rolled with one branch's dice. The GA leaves out the later
// directives he names (`leave_out`, their seqs on the old branch): the
// erroneous one the correction stands in for, say. Dice commitments and
// reveals are directives like the others: a commitment is the GA's promise
// for a turn and is carried (the corrected turn is rolled with the same
// committed dice, its salt found where it was revealed); one left out takes
// its reveal with it. The corrected branch becomes the game's current one
// (commands use it when no branch is named); the old branch stays as it was.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/signing.h"
#include "base/turn.h"
#include "ledger/ledger.h"

namespace adjutant::replay {

struct CorrectReport {
  std::string branch;        // the corrected branch
  // When the old branch was forked with new dice after the point, the
  // branches the corrected turns below that fork were played on, in order
  // (BRANCH-part1, ...; `branch` forked from the last), each with the dice
  // those turns were first rolled with: those of `dice_of`.
  struct Segment {
    std::string branch, dice_of;
  };
  std::vector<Segment> segments;
  uint64_t fork_seq = 0;
  size_t inputs = 0;         // orders and passwords carried over
  std::vector<uint64_t> directives_carried;   // the old branch's later directives given again (their old seqs)
  std::vector<uint64_t> directives_left_out;  // those left out: named, or the reveal of a commitment left out
  size_t phases = 0;         // phases adjudicated again
  uint64_t head = 0;
};

// `directive_file` is a verified DirectiveFile buffer (the correction).
// `signer`: the GA's secret key, when the game signs its tree heads: the
// phases adjudicated again on the new branch record theirs (replay/heads.h);
// such a game is not corrected without it (nothing written).
// A seq in `leave_out` that is not one of the old branch's directives after
// the point is refused (InvalidArgument) before anything is written; so is a
// committed turn to be adjudicated again whose salt is revealed nowhere.
Result<CorrectReport> Correct(ledger::Ledger& db, std::string_view game, std::string_view branch, const TurnPhase& at,
                              const std::vector<uint8_t>& directive_file, std::string_view new_branch,
                              const std::vector<uint64_t>& leave_out = {},
                              const signing::SigningKey* signer = nullptr);

}  // namespace adjutant::replay
