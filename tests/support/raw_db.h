// Direct access to a closed ledger's RocksDB, through the documented key
// layout (ledger/format.h) — the way a failing disk or a careless hand
// would change it. Used to prove that damage is detected, never to write
// history in normal operation.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace adjutant::testing {

// Calls `mutate` on the stored record of event `seq` of branch `branch_id`
// and writes it back. Returns false if there is no such record.
bool MutateEventRecord(const std::string& dir, uint64_t branch_id, uint64_t seq,
                       const std::function<void(std::string&)>& mutate);
bool DeleteEventRecord(const std::string& dir, uint64_t branch_id, uint64_t seq);
// Writes `record` as the stored record of event `seq` (to undo a damage).
bool PutEventRecord(const std::string& dir, uint64_t branch_id, uint64_t seq, const std::string& record);
// Swaps the stored records of two events of a branch.
bool SwapEventRecords(const std::string& dir, uint64_t branch_id, uint64_t a, uint64_t b);
std::string ReadEventRecord(const std::string& dir, uint64_t branch_id, uint64_t seq);
// Any key of a column family (ledger/format.h kCf*): deleted; counted by prefix.
bool DeleteKey(const std::string& dir, const std::string& column_family, const std::string& key);
// Any key of a column family: written with `value` (a poisoned cache entry).
bool PutKey(const std::string& dir, const std::string& column_family, const std::string& key, const std::string& value);
size_t CountKeys(const std::string& dir, const std::string& column_family, const std::string& prefix);
std::vector<std::string> KeysWithPrefix(const std::string& dir, const std::string& column_family,
                                        const std::string& prefix);

}  // namespace adjutant::testing

namespace adjutant::testing {

// The table (.sst) files of one column family (ledger/format.h kCf*), as
// paths, largest first; and the write-ahead log files (.log), newest first.
std::vector<std::string> TableFiles(const std::string& dir, const std::string& column_family);
std::vector<std::string> LogFiles(const std::string& dir);
// Flips the bits of `mask` in the byte at `offset` of a file on disk, as a
// failing disk would; returns false when the file is shorter.
bool FlipByte(const std::string& path, uint64_t offset, uint8_t mask = 0x01);

}  // namespace adjutant::testing

namespace adjutant::testing {

// Rewrites an idempotency record as a database from before keys had owners
// stored it (game ‖ 0x00 ‖ key). Returns false if there is no such record.
bool MakeIdempotencyKeyLegacy(const std::string& dir, const std::string& game, const std::string& owner,
                              const std::string& key);

}  // namespace adjutant::testing
