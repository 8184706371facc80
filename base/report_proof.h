// A player's report proof, checked (issue 23): pure functions over what the
// proof file holds (schema table ReportProof, docs/PROOFS.md "Report
// proofs"), so that `adjutant verify-report` — or another program written
// from that page — needs nothing but the file and, to check that history
// only grew, the proof of the player's previous report.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/merkle.h"
#include "base/signing.h"
#include "base/turn.h"

namespace adjutant {

// A counter-based roll among a proof's events (a DieRolled the adjudicator
// made), as its event says.
struct ProvenRoll {
  uint64_t seq = 0;
  std::string branch;  // the branch that wrote it (its envelope's)
  TurnPhase at;
  std::string subject, purpose;
  uint32_t index = 0, sides = 0;
  std::vector<uint32_t> results;
};

struct ReportProofData {
  std::string game, branch, person;
  std::string report;  // the one report it proves ("": the whole turn)
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
  // What its events say (replay/proofs.h ReportProofFrom reads them): the
  // rolls, the dice commitments and reveals, the signing keys adopted —
  // each with the seq of the event that says it.
  uint64_t dice_seed = 0, dice_salt = 0;
  std::vector<ProvenRoll> rolls;
  std::map<Turn, std::pair<uint64_t, std::string>> commitments;  // turn → (seq, BLAKE2b hex)
  std::map<Turn, std::pair<uint64_t, std::string>> reveals;      // turn → (seq, salt hex)
  std::vector<std::pair<uint64_t, signing::PublicKey>> key_changes;
};

struct ReportCheck {
  std::string check;  // "signature", "events", "previous", "consistency", "dice" (and verify-report's "listing")
  bool ok = false;
  std::string detail;
  bool pending = false;  // dice: none failed, but some await their turn's salt
};

// Every check of `p`: its head's signature, its events' inclusion under the
// signed root, and the consistency of its tree with the previous head —
// `previous` (the player's previous proof, whose own signature is checked:
// `p` must have been made from its size, and is checked against its root,
// the one the player was shown; signed by another key only where `p`
// proves the SigningKey directive that adopted its key since) when given,
// else the previous tree `p` itself names — and the dice: every roll of
// `p` and of `previous` recomputed from the seed, the branch's salt and,
// for a committed turn, its salt once a proven RevealDice gives it (which
// must match the proven commitment, made before the turn's rolls); a roll
// whose salt is not revealed yet leaves the check pending. Holds when every
// check does.
std::vector<ReportCheck> CheckReportProof(const ReportProofData& p, const ReportProofData* previous);

}  // namespace adjutant
