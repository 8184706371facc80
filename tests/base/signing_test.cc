// Ed25519 signing keys and tree-head messages (issue 23): RFC 8032's first
// test vector through libsodium, the tree head's message and signature as
// docs/PROOFS.md gives them (computed there with OpenSSL, a second
// implementation), and signatures that fail on any change.
#include <catch2/catch.hpp>

#include <rapidcheck/catch.h>

#include "base/signing.h"
#include "base/tree_head.h"

using namespace adjutant;

namespace {

template <size_t N>
std::array<uint8_t, N> Hex(std::string_view h) {
  auto v = signing::FromHex<N>(h);
  REQUIRE(v);
  return *v;
}

}  // namespace

TEST_CASE("Ed25519: RFC 8032 section 7.1 TEST 1", "[signing]") {
  const auto seed = Hex<32>("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
  const auto key = signing::SigningKey::FromSeed(seed);
  CHECK(signing::Hex(key.public_key()) == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  const signing::Signature sig = key.Sign({});
  CHECK(signing::Hex(sig) ==
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");
  CHECK(signing::Verify(key.public_key(), {}, sig));
}

TEST_CASE("tree heads: the message and signature of docs/PROOFS.md", "[signing][heads]") {
  std::array<uint8_t, 32> seed;
  seed.fill(7);
  const auto key = signing::SigningKey::FromSeed(seed);
  CHECK(signing::Hex(key.public_key()) == "ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c");
  TreeHeadFields h;
  h.game = "g";
  h.branch = "main";
  h.at = TurnPhase{Turn{1805, 1, 1}, 2};
  h.size = 269;
  h.root.fill(0xab);
  CHECK(signing::Hex(TreeHeadMessage(h)) ==
        "61646a7574616e742d747265652d686561642d7631000167046d61696e0000070d0000000100000001"
        "0002000000000000010dabababababababababababababababababababababababababababababababab");
  const signing::Signature sig = key.Sign(TreeHeadMessage(h));
  CHECK(signing::Hex(sig) ==
        "3c7ca6eff4942a3f660ec0cb045be1fab0771abbcbc28b7c821f643759d80c89"
        "4d4619b271ca942010db2414e749857c89a802dec2075d03f6d82ed286643701");
  CHECK(VerifyTreeHead(h, key.public_key(), sig));
}

TEST_CASE("tree heads: a signature fails on any change of field, key or signature", "[signing][heads]") {
  rc::prop("changed heads do not verify", [](uint8_t seed_byte, uint64_t size, uint16_t phase, int32_t major, uint8_t flip) {
    std::array<uint8_t, 32> seed;
    seed.fill(seed_byte);
    const auto key = signing::SigningKey::FromSeed(seed);
    TreeHeadFields h{"game", "main", TurnPhase{Turn{major, 1, 2}, phase}, size, {}};
    h.root.fill(static_cast<uint8_t>(size));
    const signing::Signature sig = key.Sign(TreeHeadMessage(h));
    RC_ASSERT(VerifyTreeHead(h, key.public_key(), sig));
    const int which = *rc::gen::inRange(0, 8);
    TreeHeadFields changed = h;
    signing::Signature s = sig;
    signing::PublicKey pk = key.public_key();
    switch (which) {
      case 0: changed.game = "gamf"; break;
      case 1: changed.branch = "mainx"; break;
      case 2: changed.at.turn.minor += 1; break;
      case 3: changed.at.phase ^= 1; break;
      case 4: changed.size ^= uint64_t{1} << (flip % 64); break;
      case 5: changed.root[flip % 32] ^= 1; break;
      case 6: s[flip % 64] ^= 1; break;
      default: pk = signing::SigningKey::FromSeed(std::array<uint8_t, 32>{static_cast<uint8_t>(seed_byte + 1)}).public_key(); break;
    }
    RC_ASSERT_FALSE(VerifyTreeHead(changed, pk, s));
  });
}

TEST_CASE("signing keys: hex of the wrong length or alphabet is no key", "[signing]") {
  CHECK_FALSE(signing::FromHex<32>("00"));
  CHECK_FALSE(signing::FromHex<32>(std::string(63, '0') + "g"));
  CHECK(signing::FromHex<32>(std::string(64, 'A')));
  CHECK_FALSE(signing::SigningKey::FromText("zz", "k").ok());
  CHECK(signing::SigningKey::FromText(std::string(64, '1') + "\n", "k").ok());
}
