// A RocksDB file system for tests that fails the way disks fail:
//  - it remembers how much of every file written was synced, and
//    DropUnsynced() cuts each back to that (a power loss: what was written
//    but not synced is gone);
//  - SetFull(true) makes every write and sync fail with "no space", until
//    SetFull(false) (a full disk, then space again).
// Pass env() to ledger::OpenOptions::env.
#pragma once

#include <memory>

namespace rocksdb { class Env; }

namespace adjutant::testing {

class FaultFs {
 public:
  FaultFs();
  ~FaultFs();
  rocksdb::Env* env();
  // Cuts every file written back to what was synced; returns the bytes dropped.
  uint64_t DropUnsynced();
  void SetFull(bool full);
  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace adjutant::testing
