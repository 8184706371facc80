// The Merkle tree over a branch's events (issue 23): RFC 9162's tree
// (base/merkle.h) whose leaf i is merkle::LeafHash of event seq i + 1 as
// stored (its Event flatbuffer, without the ledger's chain hash). A fork's
// tree holds its parent's events up to the fork point, so the two share
// every node below it and the parent's roots up to there are the fork's.
//
// Nodes of kStoredLevel and above are kept in the ledger as a cache
// (Ledger::GetTreeNode/PutTreeNodes, format.h), each made from its
// children the first time it is asked for; those below are made from the
// events (at most 2^kStoredLevel read). So a root or a proof of a tree
// whose nodes are kept reads O(log n) nodes and one block of events.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/merkle.h"
#include "base/status.h"
#include "ledger/ledger.h"

namespace adjutant::ledger {

inline constexpr unsigned kStoredLevel = 4;  // a kept node covers at least 16 events

// The leaf of one event: SHA-256(0x00 ‖ its Event flatbuffer as stored).
merkle::Hash EventLeaf(const EventView& e);

// merkle::Nodes over a branch's events. A read that fails is kept in
// status(), and every hash made after it is void: check status() before
// using a result (the functions below do).
class BranchTree : public merkle::Nodes {
 public:
  BranchTree(Ledger& db, std::string_view game, std::string_view branch)
      : db_(db), game_(game), branch_(branch) {}
  merkle::Hash Perfect(unsigned level, uint64_t index) const override;
  const Status& status() const { return status_; }
  // Keeps the nodes made since the last Flush (unsynced: a cache).
  Status Flush();
  // Before asking for the tree of the first `size` leaves: finds where the
  // kept nodes end (each root leaves every node below its size kept, so
  // they form a prefix: found by bisection) and hashes the leaves after it
  // (at most kPrefetchLeaves) in one read, so that the nodes made next
  // read no event twice and ask for no node known not to be kept. Only a
  // shortcut: a node wrongly taken for missing is made again, the same.
  void Warm(uint64_t size);

  static constexpr uint64_t kPrefetchLeaves = uint64_t{1} << 16;

 private:
  merkle::Hash FromEvents(unsigned level, uint64_t index) const;

  Ledger& db_;
  std::string game_, branch_;
  mutable std::map<std::pair<unsigned, uint64_t>, merkle::Hash> made_;  // made here, not yet kept
  mutable Status status_;
  std::vector<merkle::Hash> leaves_;  // Warm's: the hashes of leaves [leaves_from_, leaves_from_ + size)
  uint64_t leaves_from_ = 0;
  uint64_t unkept_from_ = UINT64_MAX;  // the first leaf of the first block not kept
};

// The root of the tree of `branch`'s first `size` events (size <= its
// head; 0 gives merkle::EmptyRoot()).
Result<merkle::Hash> TreeRoot(Ledger& db, std::string_view game, std::string_view branch, uint64_t size);
// The root of the tree of `branch`'s first `size` events (its head, or
// below) followed by `pending`: the leaf hashes of events not yet appended
// (a batch about to be, whose signed head goes in the same batch: issue 23).
// `nodes`: the kept levels' nodes made over the pending leaves, for the
// caller to keep (Ledger::PutTreeNodes) once they are appended, so that the
// next root reads no event of the batch again.
// Every kept node of `branch`'s tree (those of whole subtrees of its
// events up to its head) made again from the events and compared: the
// nodes are a cache, and a damaged one would make wrong roots — and so
// wrongly signed heads and proofs that fail. `wrong` holds the nodes that
// differ, each with the hash the events give (what PutTreeNodes mends).
struct KeptNodesCheck {
  uint64_t events = 0;   // hashed
  uint64_t checked = 0;  // kept nodes compared
  std::vector<Ledger::TreeNode> wrong;
};
Result<KeptNodesCheck> CheckKeptNodes(Ledger& db, std::string_view game, std::string_view branch);
// The same check over events a caller reads anyway (`adjutant verify`
// hands it Ledger::Verify's scan, so the branch is read once): Add each
// event of the branch from seq 1 in order, then Check.
class KeptNodesChecker {
 public:
  void Add(std::span<const uint8_t> event);
  uint64_t events() const { return events_; }
  // Compares the kept nodes over the events added (whole blocks only).
  Result<KeptNodesCheck> Check(const Ledger& db, std::string_view game, std::string_view branch) const;

 private:
  uint64_t events_ = 0;
  merkle::Frontier block_;  // the leaves of the block being added
  merkle::MemoryTree kept_;  // over each whole block's root: the levels from kStoredLevel up
};

// What `adjutant verify` does for one branch: Ledger::Verify, and, when the
// branch keeps Merkle nodes (Ledger::HasTreeNodes), their leaves hashed on
// the same scan, for tree->Check once the events are known good.
struct VerifiedBranch {
  VerifyReport report;
  std::optional<KeptNodesChecker> tree;  // none: no node kept
};
Result<VerifiedBranch> VerifyWithTree(Ledger& db, std::string_view game, std::string_view branch);

struct PendingRoot {
  merkle::Hash root{};
  std::vector<Ledger::TreeNode> nodes;
};
Result<PendingRoot> TreeRootWith(Ledger& db, std::string_view game, std::string_view branch, uint64_t size,
                                 std::span<const merkle::Hash> pending);
// RFC 9162 proofs over the tree of the first `size` events: event `seq`'s
// inclusion (1 <= seq <= size), several events' at once (merkle::MultiProof:
// seqs strictly increasing), and that the tree of `size2` extends that of
// `size1` (0 < size1 <= size2).
Result<std::vector<merkle::Hash>> TreeInclusion(Ledger& db, std::string_view game, std::string_view branch,
                                                uint64_t seq, uint64_t size);
Result<std::vector<merkle::Hash>> TreeMultiProof(Ledger& db, std::string_view game, std::string_view branch,
                                                 std::span<const uint64_t> seqs, uint64_t size);
Result<std::vector<merkle::Hash>> TreeConsistency(Ledger& db, std::string_view game, std::string_view branch,
                                                  uint64_t size1, uint64_t size2);

}  // namespace adjutant::ledger
