// The ledger summary: what every game has whatever its rulesets — the
// game's seed and scenario, the branch's dice salt, and counts of events
// per payload kind and per turn with their stored sizes. `adjutant stats`
// renders it; its digest goes into every PhaseCompleted.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/turn.h"
#include "projections/projection.h"

namespace adjutant::projections {

struct Tally {
  uint64_t events = 0;
  uint64_t bytes = 0;
  friend bool operator==(const Tally&, const Tally&) = default;
};

struct SummaryState {
  uint64_t last_seq = 0;
  TurnPhase last_at;
  uint64_t seed = 0;
  uint64_t dice_salt = 0;
  std::string scenario_name;
  std::vector<std::string> rulesets;
  Tally total;
  std::map<std::string, Tally> by_kind;  // payload kind name → tally
  std::map<Turn, Tally> by_turn;
  uint64_t dice_rolled = 0;   // dice, not DieRolled events
  uint64_t dice_scripted = 0;
  // Issue 5: turns whose dice the GA committed to (commitment, hex), and the
  // salts he revealed (hex).
  std::map<Turn, std::string> dice_commitments;
  std::map<Turn, std::string> dice_revealed;
  // Issue 5: the rules version of each ruleset's last event (rules/versions.h);
  // a game goes on under them.
  std::map<std::string, uint32_t> rules_versions;
  // Issue 23: the Ed25519 public key (64 hex digits) that signs the game's
  // tree heads from now on ("": none; GameCreated or a SigningKey
  // directive). Encoded after the rest only when set, so the snapshots and
  // digests of games without one are what they were (version 4).
  std::string signing_key;
  friend bool operator==(const SummaryState&, const SummaryState&) = default;
};

class Summary final : public Fold<SummaryState> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<Summary>(*this); }
  std::string_view name() const override { return "summary"; }
  uint32_t version() const override { return 4; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;
};

}  // namespace adjutant::projections
