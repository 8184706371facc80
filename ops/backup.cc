// A backup of the database while it is in use (ops.h; ledger/backup.h): made
// by the process that holds it, into a directory that process names.
#include <cstdio>
#include <ctime>

#include <flatbuffers/flatbuffers.h>

#include "ledger/backup.h"
#include "ops/internal.h"
#include "schema/backup_generated.h"

namespace adjutant::ops {
namespace {

std::string Utc(int64_t t) {
  std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string Size(uint64_t b) {
  char buf[32];
  if (b < 10 * 1024) std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(b));
  else if (b < 10ull << 20) std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(b) / 1024);
  else std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1 << 20));
  return buf;
}

flatbuffers::Offset<fb::BackupLine> LineOf(flatbuffers::FlatBufferBuilder& f, const ledger::BackupEntry& e) {
  return fb::CreateBackupLineDirect(f, e.id, e.time, Utc(e.time).c_str(), e.bytes, e.files);
}

Status List(const BackupRequest& rq, Printer& p, const std::string& dir) {
  auto list = ledger::ListBackups(dir);
  if (!list.ok()) return list.status();
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::BackupLine>> rows;
    for (const auto& e : *list) rows.push_back(LineOf(f, e));
    f.Finish(fb::CreateBackupListDirect(f, dir.c_str(), &rows));
    return p.Json("BackupList", f);
  }
  for (const auto& e : *list) {
    p.Line("backup " + std::to_string(e.id) + "  " + Utc(e.time) + "  " + Size(e.bytes) + " in " +
         std::to_string(e.files) + " files");
  }
  return Status::Ok();
}

Status DoBackup(const Env& env, const BackupRequest& rq, Printer& p) {
  const auto& to = rq.to;
  if (!to || to->empty()) return Status::InvalidArgument("--to DIR is required: the backup directory");
  if (rq.list) return List(rq, p, *to);
  auto db = env.open(true);
  if (!db.ok()) {
    if (db.status().code() == Status::Code::kBusy) {
      return Status::Busy(db.status().message() +
                          ": a backup is made by the process that holds the database; if it is `adjutant serve`, "
                          "start it with --backup-dir DIR and ask it (POST /api/ga/backup as the GA), or stop it "
                          "and run this again");
    }
    return db.status();
  }
  auto keep = Count("keep", rq.keep, 0);
  if (!keep.ok()) return keep.status();
  if (*keep > 100000) return Status::InvalidArgument("--keep: at most 100000 backups");
  auto made = ledger::CreateBackup(**db, *to, static_cast<uint32_t>(*keep));
  if (!made.ok()) return made.status();
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    auto line = LineOf(f, made->backup);
    f.Finish(fb::CreateBackupTakenDirect(f, to->c_str(), line, made->new_bytes, made->new_files, made->deleted));
    return p.Json("BackupTaken", f);
  }
  const auto& b = made->backup;
  p.Line("backup " + std::to_string(b.id) + " of " + (*db)->dir() + " in " + *to + ": " + Size(b.bytes) + " in " +
       std::to_string(b.files) + " files; " + Size(made->new_bytes) + " in " + std::to_string(made->new_files) +
       " files copied, the rest shared with earlier backups" +
       (made->deleted ? "; " + std::to_string(made->deleted) + " older deleted (--keep " + std::to_string(*keep) + ")"
                      : std::string()));
  return Status::Ok();
}

}  // namespace

Answer Backup(const Env& env, const BackupRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoBackup(env, rq, p); });
}

}  // namespace adjutant::ops
