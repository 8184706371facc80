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

namespace adjutant::fb { struct ReportProof; struct ProvenEvent; }

namespace adjutant::replay {

// The seqs [first, last] of `turn` on the branch (its orders, its phases
// and their heads); nullopt when it has none.
Result<std::optional<std::pair<uint64_t, uint64_t>>> TurnSeqs(ledger::Ledger& db, const std::string& game,
                                                              const std::string& branch, const Turn& turn);

// A signed tree head as its TreeHead event holds it.
struct SignedHead {
  uint64_t seq = 0;    // the TreeHead event's own
  std::string branch;  // as signed: the branch that wrote it
  TurnPhase at;
  uint64_t size = 0;
  std::string root, public_key, signature;  // hex
};

// The signed head that covers a report of turn `turn` (its last phase's),
// or with no turn the branch's latest; nullopt when there is none (a game
// that signs nothing, a turn not over).
Result<std::optional<SignedHead>> HeadCovering(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                               const std::optional<Turn>& turn);

// How a proof is made: the tree its consistency proof starts from, the one
// report it proves, and how its events are held.
struct ProofShape {
  // Its consistency proof starts from the tree of `since` events (the head
  // of the player's last proof, if he skipped some: 0 < since <= the
  // head's size), else from the signed head before the turn's.
  std::optional<uint64_t> since;
  std::string report;       // the one report it proves (empty: the whole turn)
  bool raw_events = false;  // ProvenEvent.bytes (a text block's), else .event in hex (JSON)
};

// `person`'s proof of turn `turn` (a ReportProof flatbuffer): the events
// `seqs` (what his reports of the turn were built from: reports/sources.h)
// under the turn's signed head, those after the head left out. NotFound
// when the turn has no signed head (a game that signs none, a turn not
// over); made as `shape` says.
Result<std::vector<uint8_t>> BuildReportProof(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                              const std::string& person, const Turn& turn,
                                              const std::vector<uint64_t>& seqs, const ProofShape& shape = {});

// A proven event's bytes, from whichever of its fields holds them; nullopt
// when neither does (or `event` is not hex).
std::optional<std::vector<uint8_t>> ProvenEventBytes(const fb::ProvenEvent& e);

// A ReportProof (verified flatbuffer) as data, with what its events say
// (rolls, dice commitments and reveals, keys adopted); InvalidArgument
// naming the field whose hex is malformed or of the wrong length, or the
// event that is not an Event.
Result<ReportProofData> ReportProofFrom(const fb::ReportProof& p);

}  // namespace adjutant::replay
