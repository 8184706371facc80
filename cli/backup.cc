// `adjutant backup` and `adjutant restore` (ledger/backup.h): consistent,
// incremental backups of the database, and restores that are verified
// before they are used.
#include <cstdio>
#include <ctime>

#include <flatbuffers/flatbuffers.h>

#include "cli/common.h"
#include "ledger/backup.h"
#include "schema/backup_generated.h"

namespace adjutant::cli {
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

Status List(Context& c, const std::string& dir) {
  auto list = ledger::ListBackups(dir);
  if (!list.ok()) return list.status();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::BackupLine>> rows;
    for (const auto& e : *list) rows.push_back(LineOf(f, e));
    f.Finish(fb::CreateBackupListDirect(f, dir.c_str(), &rows));
    return PrintJson("BackupList", f);
  }
  for (const auto& e : *list) {
    Line("backup " + std::to_string(e.id) + "  " + Utc(e.time) + "  " + Size(e.bytes) + " in " +
         std::to_string(e.files) + " files");
  }
  return Status::Ok();
}

Status CmdBackup(Context& c) {
  const auto to = c.args.Value("to");
  if (!to || to->empty()) return Status::InvalidArgument("--to DIR is required: the backup directory");
  if (c.args.Flag("list")) return List(c, *to);
  auto db = OpenDb(c, true);
  if (!db.ok()) {
    if (db.status().code() == Status::Code::kBusy) {
      return Status::Busy(db.status().message() +
                          ": a backup is made by the process that holds the database; if it is `adjutant serve`, "
                          "start it with --backup-dir DIR and ask it (POST /api/ga/backup as the GA), or stop it "
                          "and run this again");
    }
    return db.status();
  }
  auto keep = U64Option(c.args, "keep", 0);
  if (!keep.ok()) return keep.status();
  if (*keep > 100000) return Status::InvalidArgument("--keep: at most 100000 backups");
  auto made = ledger::CreateBackup(**db, *to, static_cast<uint32_t>(*keep));
  if (!made.ok()) return made.status();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder f;
    auto line = LineOf(f, made->backup);
    f.Finish(fb::CreateBackupTakenDirect(f, to->c_str(), line, made->new_bytes, made->new_files, made->deleted));
    return PrintJson("BackupTaken", f);
  }
  const auto& b = made->backup;
  Line("backup " + std::to_string(b.id) + " of " + (*db)->dir() + " in " + *to + ": " + Size(b.bytes) + " in " +
       std::to_string(b.files) + " files; " + Size(made->new_bytes) + " in " + std::to_string(made->new_files) +
       " files copied, the rest shared with earlier backups" +
       (made->deleted ? "; " + std::to_string(made->deleted) + " older deleted (--keep " + std::to_string(*keep) + ")"
                      : std::string()));
  return Status::Ok();
}

Status CmdRestore(Context& c) {
  const auto from = c.args.Value("from");
  const auto to = c.args.Value("to");
  if (!from || from->empty()) return Status::InvalidArgument("--from DIR is required: the backup directory");
  if (!to || to->empty()) return Status::InvalidArgument("--to NEWDIR is required: a new or empty directory");
  std::optional<uint32_t> id;
  if (auto v = c.args.Value("backup")) {
    auto n = ParseU64(*v);
    if (!n || *n == 0 || *n > UINT32_MAX) return Status::InvalidArgument("--backup: '" + *v + "' is not a backup id");
    id = static_cast<uint32_t>(*n);
  }
  auto rep = ledger::RestoreBackup(*from, id, *to);
  if (!rep.ok()) return rep.status();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder f;
    f.Finish(fb::CreateBackupRestoredDirect(f, rep->id, from->c_str(), rep->dir.c_str(), rep->games, rep->branches,
                                            rep->events));
    return PrintJson("BackupRestored", f);
  }
  auto n = [](uint64_t k, const std::string& one, const std::string& many) {
    return std::to_string(k) + " " + (k == 1 ? one : many);
  };
  Line("restored backup " + std::to_string(rep->id) + " of " + *from + " into " + rep->dir + ": " +
       n(rep->games, "game", "games") + ", " + n(rep->branches, "branch", "branches") + ", " +
       n(rep->events, "event", "events") + " verified; use it with --db " + rep->dir);
  return Status::Ok();
}

}  // namespace

std::vector<Command> BackupCommands() {
  return {
      {{"backup", "--to DIR [--keep N] [--list] [--json]",
        "Back the database up into DIR (created if missing), while it is in use: a consistent copy of one moment,\n"
        "every batch acknowledged before it began included. Backups into the same DIR are incremental: each\n"
        "copies only the files that changed and shares the rest. DIR is self-contained: copy it elsewhere\n"
        "(rsync, scp) and restore it there. While `adjutant serve` holds the database, ask the server instead\n"
        "(serve --backup-dir DIR; POST /api/ga/backup). With --list: the backups in DIR (id, time, size).",
        {{"to", "DIR", "the backup directory"},
         {"keep", "N", "then keep only the N newest backups in DIR (default: keep all)"},
         {"list", "", "list the backups in DIR instead"}, kJson},
        0, 0},
       CmdBackup},
      {{"restore", "--from DIR [--backup ID] --to NEWDIR [--json]",
        "Restore a backup (default: the latest) into NEWDIR, which must not exist or be empty: the files are\n"
        "checked against the checksums the backup recorded, the database is opened and every branch of every\n"
        "game verified before NEWDIR is made; a damaged backup or a failed verify leaves NEWDIR untouched and\n"
        "exits 3 naming the file, or the game, branch and seq. Never overwrites a database.",
        {{"from", "DIR", "the backup directory"}, {"backup", "ID", "the backup to restore (backup --list)"},
         {"to", "NEWDIR", "where the restored database goes"}, kJson},
        0, 0},
       CmdRestore},
  };
}

}  // namespace adjutant::cli
