// Report proofs (issue 23): for a player's turn, the signed head at its end,
// his events of the turn with one multi-leaf proof of them under that head,
// and the consistency proof from the head before it — all a player needs to
// check offline (base/report_proof.h) that what his report tells him is in
// the history the GA signed, and that this history only grew. Nothing else
// of the log is revealed: the proofs carry hashes of other events, never
// the events.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/report_proof.h"
#include "base/status.h"
#include "base/turn.h"
#include "ledger/ledger.h"

namespace adjutant::fb { struct ReportProof; }

namespace adjutant::replay {

// The events of turn `turn` of `branch` that are `person`'s: the orders he
// gave for it (OrderSubmitted with his name) and what became of them
// (OrderRejected, OrderSuperseded naming one of them), seqs rising, each
// with its bytes as stored.
struct PersonEvent {
  uint64_t seq = 0;
  std::vector<uint8_t> bytes;
};
Result<std::vector<PersonEvent>> PersonsEventsOf(ledger::Ledger& db, const std::string& game,
                                                 const std::string& branch, const std::string& person,
                                                 const Turn& turn);

// `person`'s proof of turn `turn` (a ReportProof flatbuffer). NotFound when
// the turn has no signed head (a game that signs none, a turn not over).
// Its consistency proof starts from the signed head before the turn's, or
// from the tree of `since` events when given (the head of the player's last
// proof, if he skipped some: 0 < since <= the head's size).
Result<std::vector<uint8_t>> BuildReportProof(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                              const std::string& person, const Turn& turn,
                                              std::optional<uint64_t> since = std::nullopt);

// A ReportProof (verified flatbuffer) as data; InvalidArgument naming the
// field whose hex is malformed or of the wrong length.
Result<ReportProofData> ReportProofFrom(const fb::ReportProof& p);

}  // namespace adjutant::replay
