// Committed dice (issue 5): before a turn is adjudicated the GA records a
// commitment to a secret salt for it (CommitDice: BLAKE2b-256 of the salt);
// the turn's rolls derive from the game's seed, the branch's salt and that
// salt; after the turn he reveals it (RevealDice), and anyone can check the
// commitment and recompute every roll of the turn.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/turn.h"
#include "ledger/ledger.h"
#include "projections/summary.h"
#include "rules/dice.h"

namespace adjutant::replay {

// A fresh random salt, hex (32 bytes).
std::string NewSalt();
// BLAKE2b-256 of the salt's bytes, hex; InvalidArgument for a salt that is
// not hex of 16 to 64 bytes.
Result<std::string> CommitmentOf(std::string_view salt_hex);

// The dice for turn `t` of a branch: counter dice from the game's seed and
// the branch's salt — mixed with the turn's committed salt when the GA
// committed to one, which must then be given (`salt_hex`) or revealed.
Result<rules::CounterDice> TurnDice(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                    const projections::SummaryState& summary, const Turn& t,
                                    const std::optional<std::string>& salt_hex);

// The revealed salt of turn `t`'s committed dice, as `branch` sees it: its
// own RevealDice, else one recorded on any other branch of the game that
// matches the commitment `summary` holds for the turn (a salt is public once
// revealed: a branch forked from main before, or at a point before, main's
// reveal shares the commitment and so the dice). nullopt when the turn has
// no commitment or no matching reveal anywhere.
Result<std::optional<std::string>> RevealedSalt(ledger::Ledger& db, std::string_view game,
                                                const projections::SummaryState& summary, const Turn& t);

// Checks a CommitDice / RevealDice directive against the game as it stands:
// a commitment only for a turn not yet begun, once; a reveal only for a
// committed turn whose phases are all adjudicated, matching the commitment.
Status CheckDiceDirective(const projections::SummaryState& summary, const Turn& next_turn, bool next_begun,
                          const Turn& current, bool current_done, const Turn& turn, bool reveal,
                          const std::string& value);

struct DiceCheck {
  Turn turn;
  uint64_t rolls = 0;       // DieRolled events recomputed
  bool ok = true;
  uint64_t bad_seq = 0;
  std::string reason;
};

// verify --dice: the revealed salt matches the commitment, and every roll
// the adjudicator made in turn `t` is what the seed and salts give.
Result<DiceCheck> VerifyTurnDice(ledger::Ledger& db, std::string_view game, std::string_view branch, const Turn& t);

}  // namespace adjutant::replay
