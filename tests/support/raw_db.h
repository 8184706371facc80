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

}  // namespace adjutant::testing
