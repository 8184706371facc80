// Backups of a ledger's database: RocksDB's BackupEngine
// (rocksdb/utilities/backup_engine.h) behind the ledger's API, RocksDB's
// headers kept in ledger/backup.cc.
//
// A backup is made by the process that holds the database open (the CLI
// when no server runs, else `adjutant serve` itself): the engine flushes the
// memtables, stops file deletions in that process, lists the live files and
// the WAL up to the moment it asks, and copies them, so a backup is one
// consistent point in the log however many writes go on meanwhile. A read-only or secondary
// instance beside a running writer cannot do this: RocksDB 7.8 lets it
// start a backup, but the writer deletes files from under it (tried: "IO
// error: No such file or directory" after a compaction), and the live WAL
// it copies has no defined end.
//
// A backup directory holds any number of backups; table files are shared
// between them by name and checksum, so each later backup copies only what
// changed (incremental). The directory is self-contained: copied elsewhere
// (rsync, scp) it restores there. Only RocksDB's own files are backed up and
// restored: nothing else in the database directory (e.g. the ledger's heads
// file) travels with a backup.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"

namespace adjutant::ledger {

class Ledger;

struct BackupEntry {
  uint32_t id = 0;
  int64_t time = 0;     // seconds since the epoch, when it was made
  uint64_t bytes = 0;   // the files it needs (shared ones included)
  uint32_t files = 0;
};

struct BackupMade {
  BackupEntry backup;
  uint64_t new_bytes = 0;   // copied by this backup: not shared with an earlier one
  uint32_t new_files = 0;
  uint32_t deleted = 0;     // older backups deleted (`keep`)
};

// Backs `db` up into `backup_dir` (created if missing) while it stays open
// for reads and writes. Every batch acknowledged before the call is in the
// backup. One backup at a time per process; `backup_dir` must not be the
// database's own directory. With `keep` > 0, only the `keep` newest backups
// are kept afterwards (older ones deleted, with the files no other needs).
Result<BackupMade> CreateBackup(const Ledger& db, const std::string& backup_dir, uint32_t keep = 0);

// The backups in `backup_dir`, oldest first. NotFound if it holds none.
Result<std::vector<BackupEntry>> ListBackups(const std::string& backup_dir);

struct RestoreReport {
  uint32_t id = 0;
  std::string dir;
  uint64_t games = 0, branches = 0, events = 0;  // every one verified
};

// Restores backup `id` (default: the latest) of `backup_dir` into `target`,
// which must not exist or be an empty directory: the files are copied (and
// checked against the checksums the backup recorded) into a staging
// directory beside it, opened as a ledger, and every branch of every game
// verified; only then is the staging directory renamed to `target`. On any
// failure `target` is left as it was and the staging directory removed.
// A damaged file or a failed verify is kCorruption naming the file, or the
// game, branch and seq.
Result<RestoreReport> RestoreBackup(const std::string& backup_dir, std::optional<uint32_t> id,
                                    const std::string& target);

}  // namespace adjutant::ledger
