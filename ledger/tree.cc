#include "ledger/tree.h"

#include <algorithm>

namespace adjutant::ledger {

merkle::Hash EventLeaf(const EventView& e) { return merkle::LeafHash(e.bytes); }

namespace {

// The leaf hashes of seqs [first, last] of a branch, in one read; NotFound
// when the branch holds fewer.
Result<std::vector<merkle::Hash>> LeafHashes(const Ledger& db, const std::string& game, const std::string& branch,
                                             uint64_t first, uint64_t last) {
  std::vector<merkle::Hash> hashes;
  hashes.reserve(last - first + 1);
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, first, last, [&](const EventView& e) {
    hashes.push_back(EventLeaf(e));
    return Status::Ok();
  }));
  if (hashes.size() != last - first + 1) {
    return Status::NotFound(game + "/" + branch + " has no events " + std::to_string(first) + "-" +
                            std::to_string(last) + " for its Merkle tree");
  }
  return hashes;
}

}  // namespace

merkle::Hash BranchTree::FromEvents(unsigned level, uint64_t index) const {
  const uint64_t first = (index << level) + 1, last = (index + 1) << level;
  std::vector<merkle::Hash> hashes;
  if (first - 1 >= leaves_from_ && last - leaves_from_ <= leaves_.size()) {
    const auto from = leaves_.begin() + static_cast<std::ptrdiff_t>(first - 1 - leaves_from_);
    hashes.assign(from, from + static_cast<std::ptrdiff_t>(last - first + 1));
  } else {
    auto read = LeafHashes(db_, game_, branch_, first, last);
    if (!read.ok()) {
      if (status_.ok()) status_ = read.status();
      return {};
    }
    hashes = std::move(*read);
  }
  // Pairwise up to the one root of the block.
  while (hashes.size() > 1) {
    for (size_t i = 0; i < hashes.size() / 2; ++i) hashes[i] = merkle::NodeHash(hashes[2 * i], hashes[2 * i + 1]);
    hashes.resize(hashes.size() / 2);
  }
  return hashes[0];
}

merkle::Hash BranchTree::Perfect(unsigned level, uint64_t index) const {
  if (!status_.ok()) return {};
  if (level < kStoredLevel) return FromEvents(level, index);
  if (auto m = made_.find({level, index}); m != made_.end()) return m->second;
  if ((index << level) < unkept_from_) {
    auto kept = db_.GetTreeNode(game_, branch_, level, index);
    if (!kept.ok()) {
      status_ = kept.status();
      return {};
    }
    if (kept->has_value()) return **kept;
  }
  const merkle::Hash h = level == kStoredLevel
                             ? FromEvents(level, index)
                             : merkle::NodeHash(Perfect(level - 1, 2 * index), Perfect(level - 1, 2 * index + 1));
  if (status_.ok()) made_.emplace(std::make_pair(level, index), h);
  return h;
}

void BranchTree::Warm(uint64_t size) {
  const uint64_t blocks = size >> kStoredLevel;
  auto kept = [&](uint64_t block) {
    auto n = db_.GetTreeNode(game_, branch_, kStoredLevel, block);
    return n.ok() && n->has_value();
  };
  uint64_t lo = 0, hi = blocks;  // the first block not kept lies in [lo, hi]
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (kept(mid)) lo = mid + 1;
    else hi = mid;
  }
  unkept_from_ = lo << kStoredLevel;
  const uint64_t from = unkept_from_, to = std::min(size, from + kPrefetchLeaves);
  if (from >= to) return;
  auto read = LeafHashes(db_, game_, branch_, from + 1, to);
  if (!read.ok()) return;  // the reads that follow name what failed
  leaves_ = std::move(*read);
  leaves_from_ = from;
}

Status BranchTree::Flush() {
  if (!status_.ok() || made_.empty()) return Status::Ok();
  std::vector<Ledger::TreeNode> nodes;
  nodes.reserve(made_.size());
  for (const auto& [at, h] : made_) nodes.push_back({at.first, at.second, h});
  made_.clear();
  return db_.PutTreeNodes(game_, branch_, nodes);
}

namespace {

// Runs `make` over the branch's tree once `size` is known to be on the
// branch, then keeps what it made. A cache that cannot be written is no
// error: the result stands.
template <typename T, typename F>
Result<T> WithTree(Ledger& db, std::string_view game, std::string_view branch, uint64_t size, F make) {
  auto head = db.HeadOf(game, branch);
  if (!head.ok()) return head.status();
  if (size > head->seq) {
    return Status::InvalidArgument(std::string(game) + "/" + std::string(branch) + " has " +
                                   std::to_string(head->seq) + " events, not " + std::to_string(size));
  }
  BranchTree tree(db, game, branch);
  tree.Warm(size);
  T out = make(tree);
  if (!tree.status().ok()) return tree.status();
  (void)tree.Flush();
  return out;
}

}  // namespace

Result<merkle::Hash> TreeRoot(Ledger& db, std::string_view game, std::string_view branch, uint64_t size) {
  return WithTree<merkle::Hash>(db, game, branch, size, [&](const BranchTree& t) { return merkle::Root(t, size); });
}

namespace {

// The branch's first `size` leaves (from its tree) followed by `pending`.
class PendingNodes : public merkle::Nodes {
 public:
  PendingNodes(const BranchTree& kept, uint64_t size, std::span<const merkle::Hash> pending,
               std::vector<Ledger::TreeNode>* made)
      : kept_(kept), size_(size), pending_(pending), made_(made) {}
  merkle::Hash Perfect(unsigned level, uint64_t index) const override {
    const uint64_t begin = index << level, end = (index + 1) << level;
    if (end <= size_) return kept_.Perfect(level, index);
    if (level == 0) return pending_[begin - size_];
    const merkle::Hash h = merkle::NodeHash(Perfect(level - 1, 2 * index), Perfect(level - 1, 2 * index + 1));
    if (level >= kStoredLevel) made_->push_back({level, index, h});
    return h;
  }

 private:
  const BranchTree& kept_;
  uint64_t size_;
  std::span<const merkle::Hash> pending_;
  std::vector<Ledger::TreeNode>* made_;
};

}  // namespace

Result<PendingRoot> TreeRootWith(Ledger& db, std::string_view game, std::string_view branch, uint64_t size,
                                 std::span<const merkle::Hash> pending) {
  std::vector<Ledger::TreeNode> made;
  auto root = WithTree<merkle::Hash>(db, game, branch, size, [&](const BranchTree& t) {
    return merkle::Root(PendingNodes(t, size, pending, &made), size + pending.size());
  });
  if (!root.ok()) return root.status();
  return PendingRoot{*root, std::move(made)};
}

Result<std::vector<merkle::Hash>> TreeInclusion(Ledger& db, std::string_view game, std::string_view branch,
                                                uint64_t seq, uint64_t size) {
  if (seq < 1 || seq > size) {
    return Status::InvalidArgument("seq " + std::to_string(seq) + " is not in a tree of " + std::to_string(size) +
                                   " events");
  }
  return WithTree<std::vector<merkle::Hash>>(
      db, game, branch, size, [&](const BranchTree& t) { return merkle::InclusionProof(t, seq - 1, size); });
}

Result<std::vector<merkle::Hash>> TreeMultiProof(Ledger& db, std::string_view game, std::string_view branch,
                                                 std::span<const uint64_t> seqs, uint64_t size) {
  std::vector<uint64_t> indices;
  indices.reserve(seqs.size());
  for (uint64_t s : seqs) {
    if (s < 1 || s > size || (!indices.empty() && s - 1 <= indices.back())) {
      return Status::InvalidArgument("seqs must rise strictly within 1-" + std::to_string(size) + " (seq " +
                                     std::to_string(s) + ")");
    }
    indices.push_back(s - 1);
  }
  return WithTree<std::vector<merkle::Hash>>(
      db, game, branch, size, [&](const BranchTree& t) { return merkle::MultiProof(t, indices, size); });
}

Result<std::vector<merkle::Hash>> TreeConsistency(Ledger& db, std::string_view game, std::string_view branch,
                                                  uint64_t size1, uint64_t size2) {
  if (size1 == 0 || size1 > size2) {
    return Status::InvalidArgument("a consistency proof runs from a tree of 1 or more events to one as large or "
                                   "larger (" + std::to_string(size1) + " to " + std::to_string(size2) + ")");
  }
  return WithTree<std::vector<merkle::Hash>>(
      db, game, branch, size2, [&](const BranchTree& t) { return merkle::ConsistencyProof(t, size1, size2); });
}

void KeptNodesChecker::Add(std::span<const uint8_t> event) {
  ++events_;
  block_.Append(merkle::LeafHash(event));
  if (block_.size() == uint64_t{1} << kStoredLevel) {
    kept_.Append(block_.Root());
    block_ = merkle::Frontier();
  }
}

Result<KeptNodesCheck> KeptNodesChecker::Check(const Ledger& db, std::string_view game,
                                               std::string_view branch) const {
  KeptNodesCheck out;
  out.events = events_;
  // Each kept node against the one the events give (one scan of the kept
  // nodes; those over events past the ones added are not checked).
  ADJ_RETURN_IF_ERROR(db.ForEachTreeNode(game, branch, [&](const Ledger::TreeNode& kept) {
    if (kept.level < kStoredLevel) return;
    const unsigned l = kept.level - kStoredLevel;
    if (l >= 64 || kept.index >= (kept_.size() >> l)) return;
    ++out.checked;
    const merkle::Hash made = kept_.Perfect(l, kept.index);
    if (kept.hash != made) out.wrong.push_back(Ledger::TreeNode{kept.level, kept.index, made});
  }));
  return out;
}

Result<VerifiedBranch> VerifyWithTree(Ledger& db, std::string_view game, std::string_view branch) {
  auto kept = db.HasTreeNodes(game, branch);
  if (!kept.ok()) return kept.status();
  VerifiedBranch out;
  Ledger::EachVerified each;
  if (*kept) {
    out.tree.emplace();
    each = [tree = &*out.tree](std::span<const uint8_t> event) { tree->Add(event); };
  }
  auto rep = db.Verify(game, branch, each);
  if (!rep.ok()) return rep.status();
  out.report = std::move(rep).value();
  return out;
}

Result<KeptNodesCheck> CheckKeptNodes(Ledger& db, std::string_view game, std::string_view branch) {
  auto head = db.HeadOf(game, branch);
  if (!head.ok()) return head.status();
  KeptNodesChecker checker;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, 1, head->seq, [&](const EventView& e) {
    checker.Add(e.bytes);
    return Status::Ok();
  }));
  if (checker.events() != head->seq) {
    return Status::Corruption(std::string(game) + "/" + std::string(branch) + ": " + std::to_string(checker.events()) +
                              " events read of " + std::to_string(head->seq));
  }
  return checker.Check(db, game, branch);
}

}  // namespace adjutant::ledger
