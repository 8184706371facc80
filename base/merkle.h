// Merkle trees of RFC 9162 (Certificate Transparency 2.0, section 2.1; the
// shape and hashes of RFC 6962): SHA-256 (OpenSSL's libcrypto, merkle.cc says why), a leaf hashed as
// SHA-256(0x00 ‖ data), a node as SHA-256(0x01 ‖ left ‖ right), the tree over
// n leaves split at the largest power of two below n. Inclusion and
// consistency proofs are the RFC's (so transparency-log tooling and its test
// vectors apply: fixtures/merkle/); a multi-leaf proof is Adjutant's own
// (docs/PROOFS.md). Issue 23: a player checks that the events of his report
// are in the history the GA signed, without seeing any other event.
//
// Pure functions over hashes: no I/O. Where a tree's nodes are kept is the
// caller's (`Nodes`): a proof reads O(log n) of them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace adjutant::merkle {

using Hash = std::array<uint8_t, 32>;

Hash LeafHash(std::span<const uint8_t> data);     // SHA-256(0x00 ‖ data)
Hash NodeHash(const Hash& left, const Hash& right);  // SHA-256(0x01 ‖ left ‖ right)
Hash EmptyRoot();                                  // SHA-256 of nothing: the root of no leaves

std::string Hex(const Hash& h);
std::optional<Hash> FromHex(std::string_view hex);  // exactly 64 hex digits

// The hashes of a tree's perfect subtrees, wherever they are kept:
// Perfect(level, index) covers leaves [index << level, (index + 1) << level),
// level 0 being the leaf hashes. Asked only of subtrees wholly inside the
// tree whose proof is being made.
class Nodes {
 public:
  virtual ~Nodes() = default;
  virtual Hash Perfect(unsigned level, uint64_t index) const = 0;
};

// A tree held in memory, leaf by leaf: every perfect subtree's hash, kept
// as leaves arrive (O(1) amortised per leaf, 2n hashes in all).
class MemoryTree : public Nodes {
 public:
  void Append(const Hash& leaf_hash);
  uint64_t size() const { return levels_.empty() ? 0 : levels_[0].size(); }
  Hash Perfect(unsigned level, uint64_t index) const override;

 private:
  std::vector<std::vector<Hash>> levels_;
};

// The roots of a growing tree without its nodes: only the perfect subtrees
// along its right edge (at most 64 hashes), so that the root of the tree of
// every size is known as leaves arrive (RFC 9162's shape: the root of n
// leaves is those subtrees' roots, largest first, folded from the right).
class Frontier {
 public:
  void Append(const Hash& leaf_hash);
  uint64_t size() const { return size_; }
  Hash Root() const;  // EmptyRoot() for no leaves

 private:
  std::vector<std::pair<unsigned, Hash>> edge_;  // (level, hash), levels falling
  uint64_t size_ = 0;
};

// The root of leaves [begin, begin + count), a subtree of the RFC's shape
// (begin a multiple of the smallest power of two >= count); count > 0.
Hash SubtreeRoot(const Nodes& nodes, uint64_t begin, uint64_t count);
// The root of the tree of the first `size` leaves (EmptyRoot() for none).
Hash Root(const Nodes& nodes, uint64_t size);

// RFC 9162 2.1.3: the inclusion proof of leaf `index` in the tree of `size`
// leaves (index < size), bottom-up; and its check, which fails on any other
// leaf, index, size, root, or proof hash, and on a proof of the wrong length.
std::vector<Hash> InclusionProof(const Nodes& nodes, uint64_t index, uint64_t size);
bool VerifyInclusion(uint64_t index, uint64_t size, const Hash& leaf_hash, std::span<const Hash> proof,
                     const Hash& root);

// RFC 9162 2.1.4: the consistency proof that the tree of `size2` leaves
// extends the tree of its first `size1` (0 < size1 <= size2); and its check.
// A tree of no leaves proves nothing (refused, as in the published vectors);
// equal sizes take an empty proof and equal roots.
std::vector<Hash> ConsistencyProof(const Nodes& nodes, uint64_t size1, uint64_t size2);
bool VerifyConsistency(uint64_t size1, uint64_t size2, const Hash& root1, const Hash& root2,
                       std::span<const Hash> proof);

// One proof for many leaves of the tree of `size` leaves (Adjutant's; the
// RFC proves one leaf at a time): the roots of the maximal subtrees that hold
// none of `indices`, in the order a depth-first walk from the root, left
// before right, meets them. `indices` strictly increasing, each < size.
// Its size is at most the sum of the single proofs, and far less for leaves
// that lie together.
std::vector<Hash> MultiProof(const Nodes& nodes, std::span<const uint64_t> indices, uint64_t size);
// The root that `leaves` (index, leaf hash; strictly increasing indices, each
// < size, at least one) and `proof` give for the tree of `size` leaves; nullopt
// if they are malformed (unordered or out-of-range indices, or a proof with
// too few or too many hashes). A caller compares it with the signed root.
std::optional<Hash> MultiRoot(std::span<const std::pair<uint64_t, Hash>> leaves, uint64_t size,
                              std::span<const Hash> proof);

}  // namespace adjutant::merkle
