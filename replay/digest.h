// Turn digests a player can keep (issue 5): a cryptographic hash (BLAKE2b
// via libsodium's crypto_generichash, 256 bits) of every event of a branch
// up to the end of a turn — its sequence number and its bytes, in order, the
// parent's events included for a fork. The GA publishes it after the turn;
// anyone holding it can later check that the log still holds that history
// (the ledger's XXH3 chain finds accidents; this digest resists forgery).
#pragma once

#include <string>
#include <string_view>

#include "base/turn.h"
#include "ledger/ledger.h"

namespace adjutant::replay {

struct TurnDigest {
  Turn turn;
  uint64_t last_seq = 0;   // the last event digested (the end of the turn)
  uint64_t events = 0;
  std::string hex;         // 64 hex digits
};

// BLAKE2b-256 (libsodium's crypto_generichash) of `bytes`, 64 hex digits:
// a dice commitment's, a mailed message's body hash.
std::string Blake2bHex(std::string_view bytes);

// The digest of `branch` up to the end of turn `t`. The turn must be over
// (the next has begun): NotFound or Conflict otherwise.
Result<TurnDigest> DigestTurn(ledger::Ledger& db, std::string_view game, std::string_view branch, const Turn& t);

}  // namespace adjutant::replay
