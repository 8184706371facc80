#include "ledger/backup.h"

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/utilities/backup_engine.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>

#include "ledger/ledger.h"

namespace adjutant::ledger {
namespace {

namespace fs = std::filesystem;

Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::Ok();
  const std::string m = what + ": " + s.ToString();
  if (s.IsCorruption()) return Status::Corruption(m);
  if (s.IsNotFound()) return Status::NotFound(m);
  if (s.IsInvalidArgument() || s.IsNotSupported()) return Status::InvalidArgument(m);
  if (s.IsBusy()) return Status::Busy(m);
  return Status::IOError(m);
}

BackupEntry EntryOf(const rocksdb::BackupInfo& i) {
  return {i.backup_id, i.timestamp, i.size, i.number_files};
}

// One backup at a time in a process (the desk may be asked twice at once).
std::mutex& BackupMutex() {
  static std::mutex mu;
  return mu;
}

std::string WithoutTrailingSlashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

// Before a backup: the memtables flushed, and the compactions that follow
// a flush (in a small database every fresh table file is soon rewritten
// once, RocksDB's "bottommost files" compaction) given time to finish, so
// that the backup holds table files that stay as they are, and the next
// backup shares them instead of copying their rewritten twins.
constexpr auto kSettleWaitMax = std::chrono::seconds(10);

Status Settle(rocksdb::DB& raw) {
  rocksdb::LiveFilesStorageInfoOptions lo;
  lo.wal_size_for_flush = 0;  // flush every column family first
  std::vector<rocksdb::LiveFileStorageInfo> ignored;
  ADJ_RETURN_IF_ERROR(FromRocks(raw.GetLiveFilesStorageInfo(lo, &ignored), "flushing before a backup"));
  // RocksDB marks the fresh files for that compaction when a snapshot
  // older than none of them is released (the ledger's next read would).
  raw.ReleaseSnapshot(raw.GetSnapshot());
  const auto deadline = std::chrono::steady_clock::now() + kSettleWaitMax;
  while (std::chrono::steady_clock::now() < deadline) {
    uint64_t pending = 0, running = 0;
    if (!raw.GetAggregatedIntProperty("rocksdb.compaction-pending", &pending) ||
        !raw.GetIntProperty("rocksdb.num-running-compactions", &running)) {
      break;
    }
    if (pending == 0 && running == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return Status::Ok();
}

}  // namespace

Result<BackupMade> CreateBackup(const Ledger& db, const std::string& backup_dir, uint32_t keep) {
  if (backup_dir.empty()) return Status::InvalidArgument("the backup directory is empty");
  std::error_code ec;
  if (fs::exists(backup_dir, ec) && fs::equivalent(backup_dir, db.dir(), ec)) {
    return Status::InvalidArgument("the backup directory " + backup_dir + " is the database's own directory");
  }
  std::lock_guard<std::mutex> lock(BackupMutex());
  BackupMade made;
  Status st = WithRocksDb(db, [&](rocksdb::DB& raw) -> Status {
    rocksdb::BackupEngineOptions o(backup_dir);
    o.share_table_files = true;          // incremental: unchanged table files are shared
    o.share_files_with_checksum = true;  // ... by name, size and checksum
    o.sync = true;                       // a backup that says "done" is on disk
    rocksdb::BackupEngine* engine_raw = nullptr;
    ADJ_RETURN_IF_ERROR(FromRocks(rocksdb::BackupEngine::Open(o, raw.GetEnv(), &engine_raw),
                                  "opening the backup directory " + backup_dir));
    std::unique_ptr<rocksdb::BackupEngine> engine(engine_raw);
    // What earlier backups already hold, to tell what this one copied.
    std::vector<rocksdb::BackupInfo> before;
    engine->GetBackupInfo(&before, /*include_file_details=*/true);
    std::set<std::string> known;
    for (const auto& b : before) {
      for (const auto& f : b.file_details) known.insert(f.relative_filename);
    }
    ADJ_RETURN_IF_ERROR(Settle(raw));
    rocksdb::CreateBackupOptions co;
    // The memtables are flushed first, so what was written since the last
    // backup lands in new table files (which the next backup shares) and
    // the WAL copied with them is short; file deletions stay off meanwhile,
    // and the files and the WAL are those of one moment.
    co.flush_before_backup = true;
    rocksdb::BackupID id = 0;
    ADJ_RETURN_IF_ERROR(FromRocks(engine->CreateNewBackup(co, &raw, &id), "backing up " + db.dir()));
    rocksdb::BackupInfo info;
    ADJ_RETURN_IF_ERROR(FromRocks(engine->GetBackupInfo(id, &info, /*include_file_details=*/true),
                                  "reading backup " + std::to_string(id)));
    made.backup = EntryOf(info);
    if (keep > 0) {
      std::vector<rocksdb::BackupInfo> all;
      engine->GetBackupInfo(&all);
      ADJ_RETURN_IF_ERROR(FromRocks(engine->PurgeOldBackups(keep), "deleting backups older than the " +
                                                                      std::to_string(keep) + " newest"));
      if (all.size() > keep) made.deleted = static_cast<uint32_t>(all.size() - keep);
    }
    for (const auto& f : info.file_details) {
      if (known.count(f.relative_filename)) continue;
      made.new_bytes += f.size;
      ++made.new_files;
    }
    return Status::Ok();
  });
  if (!st.ok()) return st;
  return made;
}

namespace {

Result<std::unique_ptr<rocksdb::BackupEngineReadOnly>> OpenForReading(const std::string& backup_dir) {
  std::error_code ec;
  if (!fs::exists(backup_dir + "/meta", ec)) {
    return Status::NotFound("no backups in " + backup_dir + " (adjutant backup --to " + backup_dir + " makes one)");
  }
  rocksdb::BackupEngineOptions o(backup_dir);
  rocksdb::BackupEngineReadOnly* raw = nullptr;
  ADJ_RETURN_IF_ERROR(FromRocks(rocksdb::BackupEngineReadOnly::Open(o, rocksdb::Env::Default(), &raw),
                                "opening the backup directory " + backup_dir));
  return std::unique_ptr<rocksdb::BackupEngineReadOnly>(raw);
}

}  // namespace

Result<std::vector<BackupEntry>> ListBackups(const std::string& backup_dir) {
  auto engine = OpenForReading(backup_dir);
  if (!engine.ok()) return engine.status();
  std::vector<rocksdb::BackupInfo> infos;
  (*engine)->GetBackupInfo(&infos);
  std::vector<rocksdb::BackupID> corrupt;
  (*engine)->GetCorruptedBackups(&corrupt);
  if (infos.empty()) {
    return Status::NotFound("no usable backups in " + backup_dir +
                            (corrupt.empty() ? "" : " (" + std::to_string(corrupt.size()) + " damaged)"));
  }
  std::vector<BackupEntry> out;
  for (const auto& i : infos) out.push_back(EntryOf(i));
  return out;
}

Result<RestoreReport> RestoreBackup(const std::string& backup_dir, std::optional<uint32_t> id,
                                    const std::string& target_arg) {
  const std::string target = WithoutTrailingSlashes(target_arg);
  if (target.empty()) return Status::InvalidArgument("--to: the directory to restore into is empty");
  std::error_code ec;
  if (fs::exists(fs::symlink_status(target, ec))) {
    if (!fs::is_directory(fs::symlink_status(target, ec))) {
      return Status::InvalidArgument("--to: " + target + " exists and is not a directory; a restore never overwrites");
    }
    if (!fs::is_empty(target, ec) || ec) {
      return Status::InvalidArgument("--to: " + target +
                                     " is not empty; a restore goes into a new or empty directory and never "
                                     "overwrites a database");
    }
  }
  auto engine = OpenForReading(backup_dir);
  if (!engine.ok()) return engine.status();
  rocksdb::BackupInfo info;
  std::vector<rocksdb::BackupID> corrupt;
  (*engine)->GetCorruptedBackups(&corrupt);
  if (id) {
    if (std::find(corrupt.begin(), corrupt.end(), *id) != corrupt.end()) {
      return Status::Corruption("backup " + std::to_string(*id) + " in " + backup_dir +
                                " is damaged (its description in meta/ does not read); nothing was restored");
    }
    auto s = (*engine)->GetBackupInfo(*id, &info);
    if (s.IsCorruption()) {
      return Status::Corruption("backup " + std::to_string(*id) + " in " + backup_dir + " is damaged: " + s.ToString());
    }
    if (!s.ok()) {
      return Status::NotFound("no backup " + std::to_string(*id) + " in " + backup_dir + " (adjutant backup --list --to " +
                              backup_dir + " lists them)");
    }
  } else {
    auto s = (*engine)->GetLatestBackupInfo(&info);
    const bool good = s.ok();
    for (rocksdb::BackupID c : corrupt) {
      if (!good || c > info.backup_id) {
        return Status::Corruption("the latest backup in " + backup_dir + ", " + std::to_string(c) +
                                  ", is damaged (its description in meta/ does not read); nothing was restored" +
                                  (good ? "; backup " + std::to_string(info.backup_id) + " reads: --backup " +
                                              std::to_string(info.backup_id)
                                        : std::string()));
      }
    }
    if (!good) return Status::NotFound("no usable backups in " + backup_dir);
  }
  RestoreReport rep;
  rep.id = info.backup_id;
  rep.dir = target;

  // Restored and verified beside the target, then renamed: `target` never
  // holds a database that has not been verified.
  const fs::path parent = fs::path(target).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  const std::string staging = target + ".restoring-" + std::to_string(getpid());
  fs::remove_all(staging, ec);
  auto fail = [&](Status s) {
    std::error_code e;
    fs::remove_all(staging, e);
    return s;
  };
  const std::string what = "backup " + std::to_string(rep.id) + " of " + backup_dir;
  auto rs = (*engine)->RestoreDBFromBackup(rocksdb::RestoreOptions(), rep.id, staging, staging);
  // A failed restore returns at its first bad file while the engine's
  // threads may still copy others: closing the engine waits for them,
  // before the staging directory is removed.
  engine->reset();
  if (!rs.ok()) {
    Status s = FromRocks(rs, "restoring " + what);
    if (s.code() == Status::Code::kCorruption) {
      // RocksDB's restore error leaves the file out; its verify names it.
      std::string which;
      if (auto again = OpenForReading(backup_dir); again.ok()) {
        auto vs = (*again)->VerifyBackup(rep.id, /*verify_with_checksum=*/true);
        if (!vs.ok()) which = "; " + vs.ToString();
      }
      s = Status::Corruption(s.message() + which +
                             " (the backup is damaged; nothing was restored; an earlier backup may be whole: --backup ID)");
    }
    return fail(s);
  }
  {
    OpenOptions o;
    o.create_if_missing = false;
    auto db = Ledger::Open(staging, o);
    if (!db.ok()) {
      const Status& s = db.status();
      return fail(Status(s.code() == Status::Code::kCorruption ? Status::Corruption("the restored " + what +
                                                                                       " does not open: " + s.message())
                                                                 : Status::IOError("the restored " + what +
                                                                                   " does not open: " + s.message())));
    }
    auto games = (*db)->Games();
    if (!games.ok()) return fail(Status::Corruption("the restored " + what + ": " + games.status().message()));
    for (const auto& g : *games) {
      auto branches = (*db)->Branches(g.name);
      if (!branches.ok()) {
        return fail(Status::Corruption("the restored " + what + ": game " + g.name + ": " + branches.status().message()));
      }
      ++rep.games;
      for (const auto& b : *branches) {
        auto v = (*db)->Verify(g.name, b.name);
        if (!v.ok()) {
          return fail(Status::Corruption("the restored " + what + ": game " + g.name + ", branch " + b.name + ": " +
                                         v.status().message()));
        }
        if (!v->ok) {
          return fail(Status::Corruption("the restored " + what + " fails verification: game " + g.name +
                                         ", branch " + b.name + ", seq " + std::to_string(v->bad_seq) + ": " +
                                         v->reason + "; nothing was restored"));
        }
        ++rep.branches;
        rep.events += v->events;
      }
    }
  }
  fs::rename(staging, target, ec);
  if (ec) return fail(Status::IOError("cannot rename " + staging + " to " + target + ": " + ec.message()));
  return rep;
}

}  // namespace adjutant::ledger
