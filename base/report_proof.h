// A player's report proof, checked (issue 23): pure functions over what the
// proof file holds (schema table ReportProof, docs/PROOFS.md "Report
// proofs"), so that `adjutant verify-report` — or another program written
// from that page — needs nothing but the file and, to check that history
// only grew, the proof of the player's previous report.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/merkle.h"
#include "base/signing.h"
#include "base/turn.h"

namespace adjutant {

struct ReportProofData {
  std::string game, branch, person;
  Turn turn;
  TurnPhase head_at;
  uint64_t head_seq = 0, size = 0;
  merkle::Hash root{};
  signing::PublicKey public_key{};
  signing::Signature signature{};
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> events;  // (seq, the stored Event bytes)
  std::vector<merkle::Hash> proof;
  uint64_t previous_size = 0;
  merkle::Hash previous_root{};
  std::vector<merkle::Hash> consistency;
};

struct ReportCheck {
  std::string check;  // "signature", "events", "previous", "consistency"
  bool ok = false;
  std::string detail;
};

// Every check of `p`: its head's signature, its events' inclusion under the
// signed root, and the consistency of its tree with the previous head —
// `previous` (the player's previous proof, whose own signature is checked:
// `p` must have been made from its size, and is checked against its root,
// the one the player was shown) when given, else the previous tree `p`
// itself names. Holds when every check does.
std::vector<ReportCheck> CheckReportProof(const ReportProofData& p, const ReportProofData* previous);

}  // namespace adjutant
