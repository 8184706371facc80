// Collects the events of one adjudicated phase (or of one submission) and
// folds each into working copies of the projections as it is emitted, so
// that a rule deciding the next event sees the state the previous ones
// made — computed by the same folds that will rebuild it later, never by a
// second copy of the logic. The events are built exactly as the ledger
// will store them (same game, branch and sequence numbers), so the digests
// the writer reports are the digests a rebuild will find.
#pragma once

#include <array>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/hash.h"
#include "projections/fleet.h"
#include "projections/projection.h"
#include "projections/roster.h"
#include "projections/treasury.h"
#include "rules/versions.h"
#include "schema/draft.h"

namespace adjutant::fb { struct NavalMap; }
namespace adjutant::projections { class Y1820; struct Y1820State; class Battle; struct BattleState; }

namespace adjutant::rules {

class PhaseWriter {
 public:
  // `projections` are the state folded up to event `head_seq` of the branch;
  // the writer takes them over.
  PhaseWriter(std::string game, std::string branch, uint64_t head_seq,
              std::vector<std::unique_ptr<projections::Projection>> projections);

  // Appends a draft to the batch and folds it into the working state.
  // Emit alone stamps the event's ruleset and rules version: the book the
  // writer is under (Under, "" for none) and that book's version in the tag
  // versions (0 under none). Whatever the draft held there is replaced.
  void Emit(Draft draft);

  // Puts the writer under `ruleset` until the returned scope ends (scopes
  // nest). A kind names the book of each phase, order and directive; a
  // book's outcomes emitted in another book's phase name their own.
  class [[nodiscard]] Book {
   public:
    Book(PhaseWriter& w, std::string_view ruleset) : w_(w), before_(std::move(w.ruleset_)) { w.ruleset_ = ruleset; }
    ~Book() { w_.ruleset_ = std::move(before_); }
    Book(const Book&) = delete;
    Book& operator=(const Book&) = delete;

   private:
    PhaseWriter& w_;
    std::string before_;
  };
  Book Under(std::string_view ruleset) { return Book(*this, ruleset); }
  // The book the writer is under.
  const std::string& ruleset() const { return ruleset_; }

  const std::vector<Draft>& drafts() const { return drafts_; }
  std::vector<Draft> TakeDrafts() { return std::move(drafts_); }
  uint64_t head_seq() const { return head_seq_; }

  // Every projection's digest now, in AllProjections() order.
  std::vector<std::pair<std::string, Hash128>> Digests() const;
  // Every projection's encoding version, in the same order.
  std::vector<uint32_t> Versions() const;

  const projections::TreasuryState& treasury() const;
  // The ships (projections/fleet): both NWOL books read them here.
  const projections::FleetState& fleet() const;
  const projections::Roster& roster() const;
  // The y1820 game's state (projections/y1820).
  const projections::Y1820State& y1820() const;
  // The dog battle's state (projections/battle).
  const projections::BattleState& battle() const;
  // Every projection, as the rules' emitted events left them.
  const std::vector<std::unique_ptr<projections::Projection>>& state() const { return projections_; }
  // The naval map recorded with the game, if any (projections/navalmap).
  const fb::NavalMap* naval_map() const;
  std::vector<std::unique_ptr<projections::Projection>> TakeProjections() {
    treasury_ = nullptr;
    fleet_ = nullptr;
    roster_ = nullptr;
    y1820_ = nullptr;
    battle_ = nullptr;
    return std::move(projections_);
  }

  // The rules versions the rules run under (rules/versions.h) — the newest
  // unless the caller sets the game's. Rules decide by these alone.
  const RulesVersions& rules_versions() const { return versions_; }
  void set_rules_versions(const RulesVersions& v) { versions_ = tags_ = v; }
  // The versions Emit stamps: the same, but in an audit asking what other
  // versions would have done, the recorded ones. Not readable by rules.
  void set_tag_versions(const RulesVersions& v) { tags_ = v; }
  // A submission's: when its orders reached Adjutant (seconds since 1970
  // UTC; 0: not known), written on each OrderSubmitted (rules/intake).
  // Data the caller gives, never a clock; no rule decides by it.
  int64_t received_at() const { return received_at_; }
  void set_received_at(int64_t t) { received_at_ = t; }
  // Issue 23: keep the Merkle leaf hash (merkle::LeafHash) of every event
  // emitted from now on, as the ledger will store it when appended without
  // an idempotency key: the signed head of the batch is made from them.
  void set_keep_leaf_hashes(bool on) { keep_leaves_ = on; }
  const std::vector<std::array<uint8_t, 32>>& leaf_hashes() const { return leaves_; }

 private:
  std::string game_, branch_;
  uint64_t head_seq_;
  std::vector<std::unique_ptr<projections::Projection>> projections_;
  // Found once: the rules ask for them on every look at the state.
  const projections::Treasury* treasury_ = nullptr;
  const projections::Fleet* fleet_ = nullptr;
  const projections::Roster* roster_ = nullptr;
  const projections::Y1820* y1820_ = nullptr;
  const projections::Battle* battle_ = nullptr;
  std::vector<Draft> drafts_;
  RulesVersions versions_ = LatestVersions();
  RulesVersions tags_ = versions_;
  std::string ruleset_;
  int64_t received_at_ = 0;
  bool keep_leaves_ = false;
  std::vector<std::array<uint8_t, 32>> leaves_;
};

}  // namespace adjutant::rules
