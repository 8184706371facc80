#include "base/report_proof.h"

#include "base/counter_dice.h"
#include "base/tree_head.h"

#include <optional>

namespace adjutant {

namespace {

TreeHeadFields HeadOf(const ReportProofData& p) { return {p.game, p.branch, p.head_at, p.size, p.root}; }

std::string Short(const merkle::Hash& h) { return merkle::Hex(h).substr(0, 16); }

std::string Plural(size_t n, const std::string& one) { return std::to_string(n) + " " + one + (n == 1 ? "" : "s"); }

// The dice of `p` and `previous` (docs/PROOFS.md "Dice").
ReportCheck CheckDice(const ReportProofData& p, const ReportProofData* previous) {
  std::map<Turn, std::pair<uint64_t, std::string>> commitments, reveals;
  struct Held {
    const ReportProofData* proof;
    const ProvenRoll* roll;
  };
  std::vector<Held> rolls;
  for (const ReportProofData* q : {previous, &p}) {
    if (q == nullptr) continue;
    commitments.insert(q->commitments.begin(), q->commitments.end());
    reveals.insert(q->reveals.begin(), q->reveals.end());
    for (const ProvenRoll& r : q->rolls) rolls.push_back({q, &r});
  }
  if (rolls.empty()) return {"dice", true, "no roll to check", false};
  size_t checked = 0;
  std::map<Turn, size_t> waiting;
  for (const Held& h : rolls) {
    const ProvenRoll& r = *h.roll;
    const std::string what = "the " + r.purpose + " roll" + (r.subject.empty() ? "" : " of " + r.subject) + " (seq " +
                             std::to_string(r.seq) + ", turn " + r.at.turn.ToString() + ")";
    if (r.branch != h.proof->branch) {
      return {"dice", false, what + " was written by branch " + r.branch + ", not " + h.proof->branch +
                                 " whose dice salt the proof gives", false};
    }
    uint64_t salt = h.proof->dice_salt;
    if (auto c = commitments.find(r.at.turn); c != commitments.end()) {
      if (c->second.first >= r.seq) {
        return {"dice", false, what + ": its turn's dice were committed at seq " + std::to_string(c->second.first) +
                                   ", after it", false};
      }
      auto revealed = reveals.find(r.at.turn);
      if (revealed == reveals.end()) {
        ++waiting[r.at.turn];
        continue;
      }
      if (SaltCommitment(revealed->second.second) != c->second.second) {
        return {"dice", false, "turn " + r.at.turn.ToString() + "'s salt revealed at seq " +
                                   std::to_string(revealed->second.first) + " does not match its commitment " +
                                   c->second.second, false};
      }
      salt = CommittedTurnSalt(salt, revealed->second.second);
    }
    for (size_t i = 0; i < r.results.size(); ++i) {
      const uint32_t want = CounterDie(h.proof->dice_seed, salt, r.at, r.subject, r.purpose,
                                       r.index + static_cast<uint32_t>(i), r.sides);
      if (want != r.results[i]) {
        return {"dice", false, what + " is " + std::to_string(r.results[i]) + "; the seed and salts give " +
                                   std::to_string(want), false};
      }
    }
    ++checked;
  }
  std::string detail = Plural(checked, "roll") + " recomputed from the seed and salts: each as recorded";
  size_t pending = 0;
  for (const auto& [turn, n] : waiting) {
    pending += n;
    detail += "; " + Plural(n, "roll") + " of turn " + turn.ToString() + " await its salt (committed " +
              commitments.at(turn).second.substr(0, 16) + "): check again with a later proof that carries its reveal";
  }
  return {"dice", true, detail, pending > 0};
}

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
    // A key adopted since the previous head: the SigningKey directive that
    // adopted it must be among this proof's events, after that head.
    std::optional<uint64_t> adopted;
    for (const auto& [seq, key] : p.key_changes) {
      if (key == p.public_key && seq > previous->size && seq <= p.size) adopted = seq;
    }
    const bool same_key = previous->public_key == p.public_key || adopted.has_value();
    const bool sized = p.previous_size == previous->size;
    std::string detail = "turn " + previous->turn.ToString() + "'s head (" + std::to_string(previous->size) +
                         " events, root " + Short(previous->root) + ")";
    if (!signed_ok) detail += ": its signature does not verify";
    else if (!same_game) detail += ": of game " + previous->game + ", not " + p.game;
    else if (!same_key) {
      detail += ": signed by another key (" + signing::Hex(previous->public_key) +
                ") and this proof proves no SigningKey directive adopting " + signing::Hex(p.public_key) + " since";
    }
    else if (!sized) {
      detail += ": this proof extends a tree of " + std::to_string(p.previous_size) +
                " events instead (ask for one from yours: `adjutant proof ... --since " + std::to_string(previous->size) +
                "`)";
    } else {
      detail += ": signed, and the one this proof extends";
      if (previous->public_key != p.public_key) {
        detail += "; the key changed to " + signing::Hex(p.public_key) + " by the SigningKey directive at seq " +
                  std::to_string(*adopted) + ", proven here";
      }
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
  out.push_back(CheckDice(p, previous));
  return out;
}

}  // namespace adjutant
