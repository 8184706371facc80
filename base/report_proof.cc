#include "base/report_proof.h"

#include "base/tree_head.h"

namespace adjutant {

namespace {

TreeHeadFields HeadOf(const ReportProofData& p) { return {p.game, p.branch, p.head_at, p.size, p.root}; }

std::string Short(const merkle::Hash& h) { return merkle::Hex(h).substr(0, 16); }

}  // namespace

std::vector<ReportCheck> CheckReportProof(const ReportProofData& p, const ReportProofData* previous) {
  std::vector<ReportCheck> out;
  // The head: signed by the key the proof names, over exactly these fields.
  {
    const bool ok = VerifyTreeHead(HeadOf(p), p.public_key, p.signature);
    out.push_back({"signature", ok,
                   (ok ? "the head of " : "NOT the signature of the head of ") + p.game + "/" + p.branch + " at turn " +
                       p.head_at.turn.ToString() + " phase " + std::to_string(p.head_at.phase) + ", " +
                       std::to_string(p.size) + " events, root " + Short(p.root) + ", by key " +
                       signing::Hex(p.public_key)});
  }
  // The events: every one a leaf of that tree, by one multi-leaf proof.
  {
    std::vector<std::pair<uint64_t, merkle::Hash>> leaves;
    bool ordered = true;
    for (const auto& [seq, bytes] : p.events) {
      if (seq < 1 || seq > p.size || (!leaves.empty() && seq - 1 <= leaves.back().first)) ordered = false;
      leaves.emplace_back(seq - 1, merkle::LeafHash(bytes));
    }
    if (leaves.empty()) {
      out.push_back({"events", p.proof.empty(), p.proof.empty() ? "none to prove" : "a proof without events"});
    } else if (!ordered) {
      out.push_back({"events", false, "their seqs do not rise strictly within 1-" + std::to_string(p.size)});
    } else {
      const auto root = merkle::MultiRoot(leaves, p.size, p.proof);
      const bool ok = root && *root == p.root;
      out.push_back({"events", ok,
                     std::to_string(leaves.size()) + " event" + (leaves.size() == 1 ? "" : "s") + " (seqs " +
                         std::to_string(p.events.front().first) + "-" + std::to_string(p.events.back().first) + ") " +
                         (leaves.size() == 1 ? (ok ? "is in" : "is NOT proven in") : (ok ? "are in" : "are NOT proven in")) + " the signed tree of " + std::to_string(p.size) +
                         " events, by " + std::to_string(p.proof.size()) + " hashes"});
    }
  }
  // The previous head: the player's own, when he gives it. The proof must
  // have been made from its size; its root is the player's, not the proof's.
  uint64_t from_size = p.previous_size;
  merkle::Hash from_root = p.previous_root;
  if (previous) {
    const bool signed_ok = VerifyTreeHead(HeadOf(*previous), previous->public_key, previous->signature);
    const bool same_game = previous->game == p.game;
    const bool same_key = previous->public_key == p.public_key;
    const bool sized = p.previous_size == previous->size;
    std::string detail = "turn " + previous->turn.ToString() + "'s head (" + std::to_string(previous->size) +
                         " events, root " + Short(previous->root) + ")";
    if (!signed_ok) detail += ": its signature does not verify";
    else if (!same_game) detail += ": of game " + previous->game + ", not " + p.game;
    else if (!same_key) detail += ": signed by another key (" + signing::Hex(previous->public_key) + ")";
    else if (!sized) {
      detail += ": this proof extends a tree of " + std::to_string(p.previous_size) +
                " events instead (ask for one from yours: `adjutant proof ... --since " + std::to_string(previous->size) +
                "`)";
    } else {
      detail += ": signed, and the one this proof extends";
    }
    out.push_back({"previous", signed_ok && same_game && same_key && sized, detail});
    from_size = previous->size;
    from_root = previous->root;
  }
  // History only grew: the tree of the previous head is a prefix of this one.
  if (from_size == 0) {
    out.push_back({"consistency", true, "no earlier signed head: nothing to extend"});
  } else {
    const bool ok = p.previous_size == from_size && from_size <= p.size &&
                    merkle::VerifyConsistency(from_size, p.size, from_root, p.root, p.consistency);
    out.push_back({"consistency", ok,
                   "the tree of " + std::to_string(p.size) + " events " + (ok ? "extends" : "does NOT extend") +
                       " the tree of " + std::to_string(from_size) + " (root " + Short(from_root) + ")" +
                       (ok ? ": nothing before it was changed" : ": the history was rewritten, or the proof is wrong")});
  }
  return out;
}

}  // namespace adjutant
