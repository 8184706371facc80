#include "base/counter_dice.h"

#include <sodium.h>

#include <array>
#include <vector>

#include "base/hash.h"

namespace adjutant {

uint32_t CounterDie(uint64_t seed, uint64_t salt, const TurnPhase& at, std::string_view subject,
                    std::string_view purpose, uint32_t index, uint32_t sides) {
  std::string key;
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) { key.push_back(static_cast<char>(v & 0xff)); v >>= 8; }
  };
  put(salt, 8);
  put(static_cast<uint32_t>(at.turn.major), 4);
  put(static_cast<uint32_t>(at.turn.minor), 4);
  put(static_cast<uint32_t>(at.turn.step), 4);
  put(at.phase, 2);
  key.append(subject);
  key.push_back('\0');
  key.append(purpose);
  key.push_back('\0');
  put(index, 4);
  size_t attempt_at = key.size();
  // Reject the top sliver of the 64-bit range that would bias `% sides`.
  const uint64_t excess = (0 - static_cast<uint64_t>(sides)) % sides;  // 2^64 mod sides
  const uint64_t last_ok = UINT64_MAX - excess;
  for (uint32_t attempt = 0;; ++attempt) {
    key.resize(attempt_at);
    put(attempt, 4);
    uint64_t x = Hash64(key, seed);
    if (x <= last_ok) return static_cast<uint32_t>(x % sides) + 1;
  }
}

uint64_t CommittedTurnSalt(uint64_t branch_salt, std::string_view salt_hex) { return branch_salt ^ Hash64(salt_hex); }

std::optional<std::string> SaltCommitment(std::string_view salt_hex) {
  if (sodium_init() < 0) return std::nullopt;
  std::vector<unsigned char> bytes(salt_hex.size() / 2 + 1);
  size_t len = 0;
  if (salt_hex.size() % 2 != 0 ||
      sodium_hex2bin(bytes.data(), bytes.size(), salt_hex.data(), salt_hex.size(), nullptr, &len, nullptr) != 0 ||
      len < 16 || len > 64) {
    return std::nullopt;
  }
  std::array<unsigned char, crypto_generichash_BYTES> h{};
  crypto_generichash(h.data(), h.size(), bytes.data(), len, nullptr, 0);
  std::array<char, crypto_generichash_BYTES * 2 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), h.data(), h.size());
  return std::string(hex.data());
}

}  // namespace adjutant
