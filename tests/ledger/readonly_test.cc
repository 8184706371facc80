// A read-only open beside a live writer (`adjutant log` while `adjutant
// serve` holds the database): RocksDB lets it read the writer's files, but
// it may meet the writer between two steps of its own work — a log listed
// and then deleted by a flush, a listing from before the newest log. That is
// not damage: the open is tried again while a writer is there, and a
// failure that lasts, or one with no writer, is still said to be damage.
#include <catch2/catch.hpp>

#include <filesystem>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "support/fault_fs.h"
#include "support/run.h"
#include "support/serve.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Adjutant;
using adjutant::testing::FaultFs;
using adjutant::testing::Run;
using adjutant::testing::Serve;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;

// The events of talavera/main as `db` reads them.
Result<uint64_t> CountEvents(ledger::Ledger& db) {
  uint64_t n = 0;
  Status s = db.Read("talavera", "main", 1, UINT64_MAX, [&](const ledger::EventView&) {
    ++n;
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return n;
}

}  // namespace

TEST_CASE("read-only beside a writer: an open that meets the writer mid-work is tried again, and damage is still damage",
          "[ledger][damage][readonly]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  Run made = Adjutant({"--db", db, "new", "talavera", "--scenario", F + "/dog/talavera-brigade.json", "--seed", "1809"});
  INFO(made.err);
  REQUIRE(made.code == 0);
  Serve serve(db, dir.Sub("serve.out"));
  REQUIRE(serve.Ready());
  // Acknowledged by the desk: in its live write-ahead log only.
  Run ruled = Adjutant({"--db", db, "ruling", "talavera", "--reason", "r", "--text", "beside a writer"});
  INFO(ruled.err);
  REQUIRE(ruled.code == 0);
  ledger::OpenOptions ro;
  ro.read_only = true;
  uint64_t events = 0;
  {
    auto plain = ledger::Ledger::Open(db, ro);
    REQUIRE(plain.ok());
    auto n = CountEvents(**plain);
    REQUIRE(n.ok());
    events = *n;
    REQUIRE(events >= 2);
  }
  FaultFs fs;
  ro.env = fs.env();
  const std::string damage = db + "/adjutant-damage";

  SECTION("its log listed, then gone: tried again, every event read") {
    fs.FailLogOpens(3);
    auto got = ledger::Ledger::Open(db, ro);
    INFO((got.ok() ? std::string() : got.status().message()));
    REQUIRE(got.ok());
    CHECK(fs.MetLogOpens() == 3);
    auto n = CountEvents(**got);
    REQUIRE(n.ok());
    CHECK(*n == events);
  }
  SECTION("an older moment than the acknowledged heads: tried again, nothing called damage") {
    fs.HideLogs(3);
    auto got = ledger::Ledger::Open(db, ro);
    REQUIRE(got.ok());
    CHECK(fs.MetHiddenLogs() >= 1);
    auto n = CountEvents(**got);
    INFO((n.ok() ? std::string() : n.status().message()));
    REQUIRE(n.ok());
    CHECK(*n == events);
    CHECK_FALSE(std::filesystem::exists(damage));
  }
  SECTION("a failure that lasts beside the writer: damage, after a bounded number of tries") {
    fs.FailLogOpens(1000);
    auto got = ledger::Ledger::Open(db, ro);
    REQUIRE_FALSE(got.ok());
    CHECK(got.status().code() == Status::Code::kCorruption);
    CHECK_THAT(got.status().message(), Catch::Contains("is damaged and was not opened"));
    CHECK(fs.MetLogOpens() == 12);
  }
  SECTION("no writer: one more try only, then damage") {
    REQUIRE(serve.Stop() == 0);
    fs.FailLogOpens(1000);
    auto got = ledger::Ledger::Open(db, ro);
    REQUIRE_FALSE(got.ok());
    CHECK(got.status().code() == Status::Code::kCorruption);
    CHECK(fs.MetLogOpens() == 2);
    fs.FailLogOpens(0);
    auto after = ledger::Ledger::Open(db, ro);
    REQUIRE(after.ok());
    auto n = CountEvents(**after);
    REQUIRE(n.ok());
    CHECK(*n == events);
  }
}
