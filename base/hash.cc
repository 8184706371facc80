#include "base/hash.h"

#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace adjutant {
namespace {
void PutBE64(uint8_t* p, uint64_t v) {
  for (int i = 7; i >= 0; --i) { p[i] = static_cast<uint8_t>(v); v >>= 8; }
}
uint64_t GetBE64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}
}  // namespace

void Hash128::ToBytes(uint8_t out[kBytes]) const {
  PutBE64(out, hi);
  PutBE64(out + 8, lo);
}

Hash128 Hash128::FromBytes(const uint8_t in[kBytes]) {
  return {GetBE64(in), GetBE64(in + 8)};
}

std::string Hash128::Hex() const {
  static const char* kDigits = "0123456789abcdef";
  uint8_t b[kBytes];
  ToBytes(b);
  std::string s(2 * kBytes, '0');
  for (size_t i = 0; i < kBytes; ++i) {
    s[2 * i] = kDigits[b[i] >> 4];
    s[2 * i + 1] = kDigits[b[i] & 15];
  }
  return s;
}

std::string Hash128::Short() const { return Hex().substr(0, 12); }

Hash128 ChainHash(const Hash128& prev, std::string_view bytes) {
  // XXH3 gives the same hash in one shot as streamed; one shot over a copy
  // is much the faster for the small events most are (the read path hashes
  // every event it reads).
  constexpr size_t kOneShot = 2048;
  if (bytes.size() <= kOneShot) {
    uint8_t buf[Hash128::kBytes + kOneShot];
    prev.ToBytes(buf);
    std::memcpy(buf + Hash128::kBytes, bytes.data(), bytes.size());
    XXH128_hash_t h = XXH3_128bits(buf, Hash128::kBytes + bytes.size());
    return {h.high64, h.low64};
  }
  XXH3_state_t st;
  XXH3_128bits_reset(&st);
  uint8_t p[Hash128::kBytes];
  prev.ToBytes(p);
  XXH3_128bits_update(&st, p, sizeof p);
  XXH3_128bits_update(&st, bytes.data(), bytes.size());
  XXH128_hash_t h = XXH3_128bits_digest(&st);
  return {h.high64, h.low64};
}

Hash128 Digest128(std::string_view bytes) {
  XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return {h.high64, h.low64};
}

uint64_t Hash64(std::string_view bytes, uint64_t seed) {
  return XXH3_64bits_withSeed(bytes.data(), bytes.size(), seed);
}

}  // namespace adjutant
