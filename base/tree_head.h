// A signed tree head (issue 23): what the GA's key signs at the end of every
// phase of a game with a signing key, and what a player checks offline. The
// message is fixed byte for byte (docs/PROOFS.md "Signed tree heads"), so
// another verifier can rebuild it:
//
//   "adjutant-tree-head-v1" 0x00
//   u8 len(game)   game       (1-64 bytes, ledger::CheckName)
//   u8 len(branch) branch
//   i32 turn.major, i32 turn.minor, i32 turn.step, u16 phase   (big-endian)
//   u64 size                  (big-endian: the tree's leaves, events 1..size)
//   root                      (32 bytes: RFC 9162 root, ledger/tree.h)
//
// Pure: no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/merkle.h"
#include "base/signing.h"
#include "base/turn.h"

namespace adjutant {

struct TreeHeadFields {
  std::string game, branch;
  TurnPhase at;
  uint64_t size = 0;
  merkle::Hash root{};
};

std::vector<uint8_t> TreeHeadMessage(const TreeHeadFields& h);
bool VerifyTreeHead(const TreeHeadFields& h, const signing::PublicKey& pk, const signing::Signature& sig);

}  // namespace adjutant
