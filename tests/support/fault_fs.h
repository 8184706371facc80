// A RocksDB file system for tests that fails the way disks fail:
//  - it remembers how much of every file written was synced, and
//    DropUnsynced() cuts each back to that (a power loss: what was written
//    but not synced is gone);
//  - SetFull(true) makes every write and sync fail with "no space", until
//    SetFull(false) (a full disk, then space again);
//  - what a reader beside a live writer may meet: FailLogOpens(n) makes the
//    next n opens of a write-ahead log for reading fail as if the writer had
//    just deleted it, HideLogs(n) leaves the logs out of the next n listings
//    of a directory (an older moment than the files now hold); each returns
//    how many of them were met (Met*).
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
  void FailLogOpens(int n);
  void HideLogs(int n);
  int MetLogOpens() const;
  int MetHiddenLogs() const;
  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace adjutant::testing
