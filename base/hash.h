// 128-bit hashes: the chain link of every stored event and the digest of
// every projection. XXH3 detects corruption, not forgery (ARCHITECTURE I2).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace adjutant {

struct Hash128 {
  uint64_t hi = 0;
  uint64_t lo = 0;
  friend bool operator==(const Hash128&, const Hash128&) = default;

  static constexpr size_t kBytes = 16;
  // Canonical form: hi then lo, each big-endian (XXH128's canonical form).
  void ToBytes(uint8_t out[kBytes]) const;
  static Hash128 FromBytes(const uint8_t in[kBytes]);
  std::string Hex() const;    // 32 lowercase hex digits
  std::string Short() const;  // first 12 hex digits, for listings
};

// h[n] = XXH3-128(h[n-1] ‖ bytes): the chain link of one stored event.
Hash128 ChainHash(const Hash128& prev, std::string_view bytes);

// XXH3-128 of a canonical encoding (projection digests).
Hash128 Digest128(std::string_view bytes);

// XXH3-64 with a seed (dice, schema hash, fingerprints).
uint64_t Hash64(std::string_view bytes, uint64_t seed = 0);

}  // namespace adjutant
