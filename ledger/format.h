// The ledger's on-disk format: one RocksDB database, these column families.
// All integers in keys are big-endian so that byte order is numeric order.
//
//   default      "format"                  → u32 BE format version (1)
//                "next_branch_id"          → u64 BE, the next id to hand out
//                "current/" ‖ game         → the name of the game's current
//                                            branch (absent: main)
//                "head/" ‖ branch_id u64   → the branch's head: seq u64 ‖
//                                            h[seq] (16 bytes), written in the
//                                            same batch as the events it ends
//                                            (absent in older databases); a
//                                            last record lost or cut off is
//                                            then seen, not taken for the end
//   games        game name                 → GameRecord   (schema/records.fbs)
//   branches     game ‖ 0x00 ‖ branch name → BranchRecord (schema/records.fbs)
//   events       branch_id u64 ‖ seq u64   → record (below)
//   turns        branch_id u64 ‖ turn ‖ phase u16
//                                          → u64 seq of the first event on
//                                            this branch at that turn/phase;
//                turn = major, minor, step as i32 with the sign bit flipped
//   idempotency  game ‖ 0x00 ‖ 0x01 ‖ u16 BE len(owner) ‖ owner ‖ key
//                                          → IdempotencyRecord (below); a
//                                            key belongs to whoever sent it (I12)
//                                            (owner: "person:NAME" or "GA"),
//                                            so another's use of the same key
//                                            is simply another key. Older
//                                            databases: game ‖ 0x00 ‖ key,
//                                            honoured only for the actor of
//                                            the batch it recorded
//   snapshots    branch_id u64 ‖ projection ‖ 0x00 ‖ seq u64
//                                          → "SNP2" ‖ h[seq] ‖ a projection's
//                                            encoded state after event seq
//                                            (a cache only, used only while (I11)
//                                            event seq has that hash)
//                0xff ‖ branch_id u64 ‖ projection ‖ 0x00 ‖ seq u64 → empty
//                                          (the index of the snapshots: small
//                                            keys, so that finding the nearest
//                                            snapshot seeks among them and then
//                                            reads one value, not a large value
//                                            in every level of the tree; written
//                                            with each snapshot since issue 22.
//                                            A snapshot without one is found as
//                                            before, by seeking the values)
//                0xfe ‖ branch_id u64 ‖ level u8 ‖ index u64 → 32 bytes
//                                          (issue 23: the SHA-256 of the
//                                            perfect subtree of the branch's
//                                            RFC 9162 Merkle tree over leaves
//                                            [index << level, (index+1) << level),
//                                            leaf i being event seq i+1; kept
//                                            under the lineage segment holding
//                                            its last leaf, so a fork shares
//                                            its parent's below the fork point.
//                                            A cache, made from the events by
//                                            ledger/tree.h; absent: made again)
//
// Outside RocksDB, in the same directory: adjutant-heads, every branch's
// acknowledged head (ledger/acked.h); adjutant-damage/GAME, damage found in
// a game (Ledger::DamageOf); wal-at-open/ and damaged-wal-*/, the write-ahead
// log files kept while an open is proved complete, and after it was not.
//
// An event record is the chain hash followed by the event as stored (I2):
//
//   record := h[n] (16 bytes, Hash128 canonical) ‖ Event flatbuffer bytes
//   h[n]   := XXH3-128(h[n-1] ‖ Event flatbuffer bytes),  h[0] = 16 zero bytes
//
// Branch ids are never reused. Events with seq ≤ fork_seq of a branch are
// read from its parent (recursively): nothing is copied by a fork. A branch
// always holds at least one event of its own (GameCreated on main,
// BranchForked on every other), so its head is its last own key.
//
//   IdempotencyRecord := branch_id u64 ‖ first_seq u64 ‖ last_seq u64 ‖
//                        fingerprint u64 ‖ head hash (16 bytes)
//   fingerprint       := XXH3-64 over the batch's event bytes with each
//                        envelope's seq set to 0, or the caller's hash of
//                        its request (orders, directives: their file)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/hash.h"
#include "base/turn.h"

namespace adjutant::ledger::format {

inline constexpr uint32_t kFormatVersion = 1;

inline constexpr const char* kCfGames = "games";
inline constexpr const char* kCfBranches = "branches";
inline constexpr const char* kCfEvents = "events";
inline constexpr const char* kCfTurns = "turns";
inline constexpr const char* kCfIdempotency = "idempotency";
inline constexpr const char* kCfSnapshots = "snapshots";

inline constexpr size_t kEventKeyBytes = 16;
// A snapshot's value: this magic ‖ h[seq] (16 bytes) ‖ the projection's bytes.
inline constexpr const char* kSnapshotMagic = "SNP2";
inline constexpr size_t kRecordHeaderBytes = Hash128::kBytes;
inline constexpr size_t kIdempotencyRecordBytes = 8 * 4 + Hash128::kBytes;

void PutU64(std::string* out, uint64_t v);
void PutU32(std::string* out, uint32_t v);
uint64_t GetU64(const char* p);
uint32_t GetU32(const char* p);

std::string EventKey(uint64_t branch_id, uint64_t seq);
// The same key written into `out` (kEventKeyBytes), with no allocation.
void EncodeEventKey(char* out, uint64_t branch_id, uint64_t seq);
std::string HeadKey(uint64_t branch_id);
std::string CurrentKey(std::string_view game);
std::string BranchKey(std::string_view game, std::string_view branch);
std::string BranchPrefix(std::string_view game);  // game ‖ 0x00
std::string TurnKey(uint64_t branch_id, const TurnPhase& at);
TurnPhase DecodeTurnKey(std::string_view key);     // key without checks: size must be 22
std::string IdempotencyKey(std::string_view game, std::string_view owner, std::string_view key);
std::string LegacyIdempotencyKey(std::string_view game, std::string_view key);
std::string SnapshotKey(uint64_t branch_id, std::string_view projection, uint64_t seq);
std::string SnapshotPrefix(uint64_t branch_id, std::string_view projection);
std::string SnapshotIndexKey(uint64_t branch_id, std::string_view projection, uint64_t seq);
std::string SnapshotIndexPrefix(uint64_t branch_id, std::string_view projection);
std::string TreeNodeKey(uint64_t branch_id, unsigned level, uint64_t index);
std::string TreeNodePrefix(uint64_t branch_id);  // every node kept under the branch id
inline constexpr size_t kTreeNodeBytes = 32;

}  // namespace adjutant::ledger::format
