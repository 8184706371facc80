// The acknowledged heads (ARCHITECTURE I10): a file beside RocksDB's, `adjutant-heads` in
// the database directory, that records for every branch the last batch the
// ledger acknowledged (its last seq and chain hash), written and fdatasync'd
// after the batch's WAL write and before the caller is told "done".
//
// It is the proof that RocksDB's recovery is complete: the write-ahead log
// is checked by RocksDB record by record, but a damaged log can still end
// early (a record that looks cut off at the tail is dropped as a torn
// write), and the head/ record inside RocksDB is lost with it. A head held
// outside that log cannot be lost with it: on open, every branch must reach
// at least its acknowledged seq with the acknowledged hash, or the database
// is damaged and is not opened for writing (ledger.cc).
//
// Layout: two 64-byte slots per branch id (slot 2·id and 2·id + 1), written
// alternately, so a write torn by a power loss spoils at most the slot being
// written and the other still holds the previous acknowledgement:
//
//   slot := "ADJH" ‖ u32 BE 1 ‖ branch_id u64 BE ‖ seq u64 BE ‖ hash (16) ‖
//           XXH3-64 of the 40 bytes before it (u64 BE) ‖ 16 zero bytes
//
// The file is grown (zero-filled, synced) before a new branch's first batch
// is written, so an acknowledgement never needs new blocks (no ENOSPC after
// the batch is already on disk).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/hash.h"
#include "base/status.h"

namespace adjutant::ledger {

inline constexpr const char* kAckedHeadsFile = "adjutant-heads";

struct Acked {
  uint64_t seq = 0;
  Hash128 hash;
};

class AckedHeads {
 public:
  AckedHeads() = default;
  ~AckedHeads();
  AckedHeads(const AckedHeads&) = delete;
  AckedHeads& operator=(const AckedHeads&) = delete;

  // Reads `dir`/adjutant-heads: every branch's newest valid slot. A missing
  // file reads as no acknowledgements (a database older than the file, or a
  // restored one; the ledger writes it from the database's heads).
  static Result<std::map<uint64_t, Acked>> Load(const std::string& dir, bool* exists);

  // Opens (creating it if missing) for writing; `known` are the heads loaded.
  Status OpenForWrite(const std::string& dir, const std::map<uint64_t, Acked>& known);
  // Makes room for branch ids up to `id` (synced before returning).
  Status Reserve(uint64_t id);
  // Records one branch's acknowledged head: pwrite into the slot not holding
  // the newest, then fdatasync.
  Status Record(uint64_t id, uint64_t seq, const Hash128& hash);
  bool open() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
  std::string path_;
  uint64_t capacity_ids_ = 0;          // branch ids the file has room for
  std::map<uint64_t, int> next_slot_;  // per branch id: 0 or 1
};

}  // namespace adjutant::ledger
