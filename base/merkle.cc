#include "base/merkle.h"

#include <openssl/evp.h>

#include <algorithm>
#include <bit>
#include <initializer_list>
#include <memory>
#include <stdexcept>

namespace adjutant::merkle {
namespace {

// The split of RFC 9162 2.1.1: the largest power of two smaller than n (n >= 2).
uint64_t Split(uint64_t n) { return uint64_t{1} << (63 - std::countl_zero(n - 1)); }

bool IsPowerOfTwo(uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

// Right-shifts fn and sn together until fn's lowest bit is set or fn is 0
// (RFC 9162 2.1.3.2 step 4b, 2.1.4.2 step 6b).
void ShiftToSetBit(uint64_t& fn, uint64_t& sn) {
  while ((fn & 1) == 0 && fn != 0) {
    fn >>= 1;
    sn >>= 1;
  }
}

// PATH(m, D[begin : begin + count]) of RFC 9162 2.1.3.1, bottom-up.
void Path(const Nodes& nodes, uint64_t begin, uint64_t count, uint64_t m, std::vector<Hash>& out) {
  if (count == 1) return;
  const uint64_t k = Split(count);
  if (m < k) {
    Path(nodes, begin, k, m, out);
    out.push_back(SubtreeRoot(nodes, begin + k, count - k));
  } else {
    Path(nodes, begin + k, count - k, m - k, out);
    out.push_back(SubtreeRoot(nodes, begin, k));
  }
}

// SUBPROOF(m, D[begin : begin + count], whole) of RFC 9162 2.1.4.1.
void SubProof(const Nodes& nodes, uint64_t begin, uint64_t count, uint64_t m, bool whole, std::vector<Hash>& out) {
  if (m == count) {
    if (!whole) out.push_back(SubtreeRoot(nodes, begin, count));
    return;
  }
  const uint64_t k = Split(count);
  if (m <= k) {
    SubProof(nodes, begin, k, m, whole, out);
    out.push_back(SubtreeRoot(nodes, begin + k, count - k));
  } else {
    SubProof(nodes, begin + k, count - k, m - k, false, out);
    out.push_back(SubtreeRoot(nodes, begin, k));
  }
}

// The multi-leaf walk: the subtree [begin, begin + count) holds `indices`.
void Multi(const Nodes& nodes, uint64_t begin, uint64_t count, std::span<const uint64_t> indices,
           std::vector<Hash>& out) {
  if (indices.empty()) {
    out.push_back(SubtreeRoot(nodes, begin, count));
    return;
  }
  if (count == 1) return;  // a leaf the verifier is given
  const uint64_t k = Split(count);
  const auto mid = std::lower_bound(indices.begin(), indices.end(), begin + k);
  const size_t left = static_cast<size_t>(mid - indices.begin());
  Multi(nodes, begin, k, indices.first(left), out);
  Multi(nodes, begin + k, count - k, indices.subspan(left), out);
}

struct MultiWalk {
  std::span<const Hash> proof;
  size_t next = 0;

  std::optional<Hash> Root(uint64_t begin, uint64_t count, std::span<const std::pair<uint64_t, Hash>> leaves) {
    if (leaves.empty()) {
      if (next >= proof.size()) return std::nullopt;  // too few hashes
      return proof[next++];
    }
    if (count == 1) return leaves.front().second;  // strictly increasing: the only one here
    const uint64_t k = Split(count);
    const auto mid = std::lower_bound(leaves.begin(), leaves.end(), begin + k,
                                      [](const std::pair<uint64_t, Hash>& l, uint64_t i) { return l.first < i; });
    const size_t left = static_cast<size_t>(mid - leaves.begin());
    auto l = Root(begin, k, leaves.first(left));
    if (!l) return std::nullopt;
    auto r = Root(begin + k, count - k, leaves.subspan(left));
    if (!r) return std::nullopt;
    return NodeHash(*l, *r);
  }
};

}  // namespace

// SHA-256 of the parts, one after the other. OpenSSL's libcrypto (already
// the desk's TLS library) and not libsodium's: its SHA-256 uses the CPU's
// SHA extensions where there are any, four times as fast here, and the
// tree's hashing is most of what a root costs (bench_game's "tree" line).
// The published vectors check that both give the same bytes.
Hash Sha256(std::initializer_list<std::span<const uint8_t>> parts) {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  thread_local std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  Hash out;
  unsigned int n = 0;
  bool ok = md != nullptr && ctx != nullptr && EVP_DigestInit_ex2(ctx.get(), md, nullptr) == 1;
  for (const auto& p : parts) ok = ok && EVP_DigestUpdate(ctx.get(), p.data(), p.size()) == 1;
  ok = ok && EVP_DigestFinal_ex(ctx.get(), out.data(), &n) == 1 && n == out.size();
  if (!ok) throw std::runtime_error("merkle: OpenSSL's SHA-256 failed");
  return out;
}

Hash LeafHash(std::span<const uint8_t> data) {
  static constexpr uint8_t kLeafPrefix[1] = {0x00};
  return Sha256({kLeafPrefix, data});
}

Hash NodeHash(const Hash& left, const Hash& right) {
  static constexpr uint8_t kNodePrefix[1] = {0x01};
  return Sha256({kNodePrefix, left, right});
}

Hash EmptyRoot() { return Sha256({}); }

std::string Hex(const Hash& h) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * h.size());
  for (uint8_t b : h) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

std::optional<Hash> FromHex(std::string_view hex) {
  if (hex.size() != 2 * sizeof(Hash)) return std::nullopt;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  Hash h;
  for (size_t i = 0; i < h.size(); ++i) {
    const int hi = digit(hex[2 * i]), lo = digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    h[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return h;
}

void Frontier::Append(const Hash& leaf_hash) {
  edge_.emplace_back(0, leaf_hash);
  while (edge_.size() >= 2 && edge_[edge_.size() - 2].first == edge_.back().first) {
    const Hash right = edge_.back().second;
    edge_.pop_back();
    edge_.back().second = NodeHash(edge_.back().second, right);
    edge_.back().first++;
  }
  size_++;
}

Hash Frontier::Root() const {
  if (edge_.empty()) return EmptyRoot();
  Hash r = edge_.back().second;
  for (size_t i = edge_.size() - 1; i-- > 0;) r = NodeHash(edge_[i].second, r);
  return r;
}

void MemoryTree::Append(const Hash& leaf_hash) {
  if (levels_.empty()) levels_.emplace_back();
  levels_[0].push_back(leaf_hash);
  // Each level that now holds an even count has completed its last pair.
  for (size_t level = 0; levels_[level].size() % 2 == 0; ++level) {
    const auto& lv = levels_[level];
    Hash parent = NodeHash(lv[lv.size() - 2], lv.back());
    if (levels_.size() == level + 1) levels_.emplace_back();
    levels_[level + 1].push_back(parent);
  }
}

Hash MemoryTree::Perfect(unsigned level, uint64_t index) const {
  if (level >= levels_.size() || index >= levels_[level].size()) {
    throw std::out_of_range("merkle::MemoryTree: no perfect subtree at level " + std::to_string(level) + " index " +
                            std::to_string(index));
  }
  return levels_[level][index];
}

Hash SubtreeRoot(const Nodes& nodes, uint64_t begin, uint64_t count) {
  if (IsPowerOfTwo(count)) {
    const unsigned level = static_cast<unsigned>(std::countr_zero(count));
    return nodes.Perfect(level, begin >> level);
  }
  const uint64_t k = Split(count);
  return NodeHash(SubtreeRoot(nodes, begin, k), SubtreeRoot(nodes, begin + k, count - k));
}

Hash Root(const Nodes& nodes, uint64_t size) { return size == 0 ? EmptyRoot() : SubtreeRoot(nodes, 0, size); }

std::vector<Hash> InclusionProof(const Nodes& nodes, uint64_t index, uint64_t size) {
  std::vector<Hash> out;
  if (index < size) Path(nodes, 0, size, index, out);
  return out;
}

bool VerifyInclusion(uint64_t index, uint64_t size, const Hash& leaf_hash, std::span<const Hash> proof,
                     const Hash& root) {
  if (index >= size) return false;
  uint64_t fn = index, sn = size - 1;
  Hash r = leaf_hash;
  for (const Hash& p : proof) {
    if (sn == 0) return false;  // a hash more than the path holds
    if ((fn & 1) != 0 || fn == sn) {
      r = NodeHash(p, r);
      if ((fn & 1) == 0) ShiftToSetBit(fn, sn);
    } else {
      r = NodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn == 0 && r == root;
}

std::vector<Hash> ConsistencyProof(const Nodes& nodes, uint64_t size1, uint64_t size2) {
  std::vector<Hash> out;
  if (size1 > 0 && size1 < size2) SubProof(nodes, 0, size2, size1, true, out);
  return out;
}

bool VerifyConsistency(uint64_t size1, uint64_t size2, const Hash& root1, const Hash& root2,
                       std::span<const Hash> proof) {
  if (size1 == 0 || size2 < size1) return false;
  if (size1 == size2) return proof.empty() && root1 == root2;
  if (proof.empty()) return false;
  // RFC 9162 2.1.4.2: a first tree of a power of two leaves is a node of the
  // second, which the proof leaves out.
  std::vector<Hash> path;
  path.reserve(proof.size() + 1);
  if (IsPowerOfTwo(size1)) path.push_back(root1);
  path.insert(path.end(), proof.begin(), proof.end());
  uint64_t fn = size1 - 1, sn = size2 - 1;
  while ((fn & 1) != 0) {
    fn >>= 1;
    sn >>= 1;
  }
  Hash fr = path[0], sr = path[0];
  for (size_t i = 1; i < path.size(); ++i) {
    const Hash& c = path[i];
    if (sn == 0) return false;
    if ((fn & 1) != 0 || fn == sn) {
      fr = NodeHash(c, fr);
      sr = NodeHash(c, sr);
      if ((fn & 1) == 0) ShiftToSetBit(fn, sn);
    } else {
      sr = NodeHash(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return fr == root1 && sr == root2 && sn == 0;
}

std::vector<Hash> MultiProof(const Nodes& nodes, std::span<const uint64_t> indices, uint64_t size) {
  std::vector<Hash> out;
  if (size == 0 || indices.empty()) return out;
  Multi(nodes, 0, size, indices, out);
  return out;
}

std::optional<Hash> MultiRoot(std::span<const std::pair<uint64_t, Hash>> leaves, uint64_t size,
                              std::span<const Hash> proof) {
  if (leaves.empty() || size == 0) return std::nullopt;
  for (size_t i = 0; i < leaves.size(); ++i) {
    if (leaves[i].first >= size) return std::nullopt;
    if (i > 0 && leaves[i].first <= leaves[i - 1].first) return std::nullopt;
  }
  MultiWalk walk{proof};
  auto root = walk.Root(0, size, leaves);
  if (!root || walk.next != proof.size()) return std::nullopt;  // too many hashes
  return root;
}

}  // namespace adjutant::merkle
