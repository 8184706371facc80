// Disks that fail: a power loss (what was written but not synced is gone)
// and a full disk. What the ledger acknowledged survives a power loss — it
// was synced before the answer — and a full disk is a clear error that
// records nothing, after which the game goes on once there is space again.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "projections/battle.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/scenario_generated.h"
#include "support/fault_fs.h"
#include "support/desk_client.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;

Status CreateBattle(ledger::Ledger& db) { return testing::CreateTalavera(db, "b", false); }

Result<replay::SubmitReport> Orders(ledger::Ledger& db, int move, const std::string& person, const std::string& side) {
  auto o = schema::ParseJson("OrderFile", Slurp(F + "/orders/dog-talavera/m" + std::to_string(move) + "-" + side + ".orders.json"), "o");
  if (!o.ok()) return o.status();
  return replay::SubmitOrders(db, "b", "main", person, *o, {.idempotency_key = "m" + std::to_string(move) + "-" + side});
}

}  // namespace

TEST_CASE("power loss: every acknowledged batch survives when all that was not synced is lost", "[ledger][fault]") {
  TempDir dir;
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // The child writes, acknowledging each batch on the pipe once the ledger
    // returned; then the power goes: unsynced data dropped, no clean close.
    close(fds[0]);
    testing::FaultFs fs;
    ledger::OpenOptions o;
    o.env = fs.env();
    auto db = ledger::Ledger::Open(dir.Sub("db"), o);
    if (!db.ok() || !CreateBattle(**db).ok()) _exit(3);
    std::string acks = "created\n";
    for (int m = 1; m <= 2; ++m) {
      if (!Orders(**db, m, "wellesley", "British").ok()) _exit(3);
      acks += "m" + std::to_string(m) + "-British\n";
      if (!Orders(**db, m, "victor", "French").ok()) _exit(3);
      acks += "m" + std::to_string(m) + "-French\n";
      if (!replay::Adjudicate(**db, "b", "main", replay::AdjudicateMode::kPhase).ok()) _exit(3);
      acks += "move " + std::to_string(m) + "\n";
      // A cache the ledger writes without syncing (snapshots): lost, harmlessly.
      if (!(*db)->PutSnapshot("b", "main", "scratch", 1, std::string(4096, 'x')).ok()) _exit(3);
    }
    const uint64_t dropped = fs.DropUnsynced();
    acks += "dropped " + std::to_string(dropped) + "\n";
    if (write(fds[1], acks.data(), acks.size()) != static_cast<ssize_t>(acks.size())) _exit(3);
    _exit(0);  // no destructors: the process is simply gone
  }
  close(fds[1]);
  std::string acks;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) acks.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  INFO(acks);
  // The power loss cut something (the unsynced snapshots at least).
  const auto at = acks.find("dropped ");
  REQUIRE(at != std::string::npos);
  CHECK(std::stoull(acks.substr(at + 8)) > 0);
  auto db = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(db.ok());
  auto v = (*db)->Verify("b", "main");
  REQUIRE(v.ok());
  CHECK(v->ok);
  for (const char* key : {"m1-British", "m1-French", "m2-British", "m2-French"}) {
    const bool british = std::string(key).find("British") != std::string::npos;
    auto found = (*db)->FindIdempotent("b", ledger::IdempotencyOwner(ActorKind::kPlayer, british ? "wellesley" : "victor"), key);
    REQUIRE(found.ok());
    CHECK(found->has_value());
  }
  auto w = replay::Fold(**db, "b", "main");
  REQUIRE(w.ok());
  CHECK(w->battle().moves_done == 2);
}

TEST_CASE("a full disk: a clear error, nothing recorded, and the game goes on once there is space", "[ledger][fault]") {
  TempDir dir;
  testing::FaultFs fs;
  ledger::OpenOptions o;
  o.env = fs.env();
  auto db = ledger::Ledger::Open(dir.Sub("db"), o);
  REQUIRE(db.ok());
  REQUIRE(CreateBattle(**db).ok());
  const uint64_t head = (*db)->HeadOf("b", "main")->seq;
  fs.SetFull(true);
  auto r = Orders(**db, 1, "wellesley", "British");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == Status::Code::kIOError);
  CHECK_THAT(r.status().message(), Catch::Contains("space") || Catch::Contains("full"));
  // While the disk is full every write is refused with the reason, and
  // reads go on (a player can still read his reports).
  auto adj = replay::Adjudicate(**db, "b", "main", replay::AdjudicateMode::kPhase);
  REQUIRE_FALSE(adj.ok());
  CHECK(adj.status().code() == Status::Code::kIOError);
  CHECK_THAT(adj.status().message(), Catch::Contains("space") || Catch::Contains("full"));
  CHECK((*db)->HeadOf("b", "main")->seq == head);  // nothing half there
  auto during = replay::Fold(**db, "b", "main");
  REQUIRE(during.ok());
  CHECK(during->battle().moves_done == 0);
  fs.SetFull(false);
  // The same open ledger (a long-running desk, no restart) goes on from
  // where the game stood.
  auto again = Orders(**db, 1, "wellesley", "British");
  INFO((again.ok() ? std::string() : again.status().message()));
  REQUIRE(again.ok());
  REQUIRE(replay::Adjudicate(**db, "b", "main", replay::AdjudicateMode::kPhase).ok());
  auto v = (*db)->Verify("b", "main");
  REQUIRE(v.ok());
  CHECK(v->ok);
  CHECK(replay::Fold(**db, "b", "main")->battle().moves_done == 1);
  // And a command that opens the database afresh finds it whole.
  db->reset();
  db = ledger::Ledger::Open(dir.Sub("db"), o);
  REQUIRE(db.ok());
  CHECK(replay::Fold(**db, "b", "main")->battle().moves_done == 1);
  CHECK((*db)->Verify("b", "main")->ok);
}
