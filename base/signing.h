// Ed25519 signatures (libsodium) for the game's signed tree heads (issue
// 23): the GA's secret key lives in a file he names and never enters the
// database; the public key is recorded in the game (GameCreated, or a
// SigningKey directive) and carried by every report.
//
// The key file: one line, the 64 lowercase hex digits of the key's 32-byte
// seed (libsodium's crypto_sign_seed_keypair), then a newline. Written with
// mode 0600 and refused when anyone but its owner may read it (as ssh
// refuses a private key others can read).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace adjutant::signing {

using PublicKey = std::array<uint8_t, 32>;
using Signature = std::array<uint8_t, 64>;

class SigningKey {
 public:
  // A fresh key from the system's randomness.
  static Result<SigningKey> Generate();
  // The key of a key file (above); errors name the file and what is wrong.
  static Result<SigningKey> Load(const std::string& path);
  // The key from a key file's text, read by the caller (`name` in errors).
  static Result<SigningKey> FromText(std::string text, const std::string& name);
  // Refuses a key file that is not a regular file, or that others than its
  // owner may read or write.
  static Status CheckFileMode(const std::string& path);
  // The key from its 32-byte seed (tests, vectors).
  static SigningKey FromSeed(std::span<const uint8_t, 32> seed);
  // Writes the key file: refused when `path` exists (a key is never
  // overwritten), created with mode 0600.
  Status Save(const std::string& path) const;

  SigningKey(const SigningKey& o);
  SigningKey& operator=(const SigningKey& o);
  ~SigningKey();  // the secret is wiped (sodium_memzero)

  const PublicKey& public_key() const { return pk_; }
  Signature Sign(std::span<const uint8_t> message) const;

 private:
  SigningKey() = default;
  std::array<uint8_t, 64> sk_{};  // libsodium's secret key: seed ‖ public key
  PublicKey pk_{};
};

// Whether `sig` is `pk`'s Ed25519 signature of `message` (strict checks:
// libsodium's crypto_sign_verify_detached).
bool Verify(const PublicKey& pk, std::span<const uint8_t> message, const Signature& sig);

std::string Hex(std::span<const uint8_t> bytes);
// Any even number of hex digits as bytes; nullopt on anything else.
std::optional<std::vector<uint8_t>> BytesFromHex(std::string_view hex);
// Exactly N bytes of hex (upper or lower case); nullopt on anything else.
template <size_t N>
std::optional<std::array<uint8_t, N>> FromHex(std::string_view hex);
extern template std::optional<std::array<uint8_t, 32>> FromHex<32>(std::string_view);
extern template std::optional<std::array<uint8_t, 64>> FromHex<64>(std::string_view);

}  // namespace adjutant::signing
