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

// The backup itself: ops/backup.cc (the order desk's POST /api/ga/backup calls it too).
Status CmdBackup(Context& c) {
  ops::BackupRequest rq;
  rq.to = Opt(c.args, "to");
  rq.keep = Opt(c.args, "keep");
  rq.list = c.args.Flag("list");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Backup, rq);
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
        0, 0,
        "Back the database up into DIR while it is in use; each backup copies what changed."},
       CmdBackup},
      {{"restore", "--from DIR [--backup ID] --to NEWDIR [--json]",
        "Restore a backup (default: the latest) into NEWDIR, which must not exist or be empty: the files are\n"
        "checked against the checksums the backup recorded, the database is opened and every branch of every\n"
        "game verified before NEWDIR is made; a damaged backup or a failed verify leaves NEWDIR untouched and\n"
        "exits 3 naming the file, or the game, branch and seq. Never overwrites a database.",
        {{"from", "DIR", "the backup directory"}, {"backup", "ID", "the backup to restore (backup --list)"},
         {"to", "NEWDIR", "where the restored database goes"}, kJson},
        0, 0,
        "Restore a backup into a new database directory, checked and verified first."},
       CmdRestore},
  };
}

}  // namespace adjutant::cli
