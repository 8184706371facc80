// Damage on disk, as a failing disk or a careless hand makes it: bytes of
// the write-ahead log, of a table file, of the acknowledged heads. Nothing
// acknowledged may silently go, and no read may answer from a game whose
// history is known damaged (issue 17, items 1 and 2).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "support/build_paths.h"
#include "ledger/acked.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/scenario_generated.h"
#include "support/pate_game.h"
#include "support/raw_db.h"
#include "support/desk_client.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string F = ADJUTANT_FIXTURES;

// A Talavera battle with two moves' orders and adjudications: a dozen
// acknowledged batches, all in one write-ahead log (nothing flushed yet).
// Returns the acknowledged head.
ledger::Head PlayBattle(const std::string& dir) {
  auto db = ledger::Ledger::Open(dir);
  REQUIRE(db.ok());
  REQUIRE(testing::CreateTalavera(**db, "b", false).ok());
  for (int move = 1; move <= 2; ++move) {
    for (auto [person, side] : {std::pair{"wellesley", "British"}, std::pair{"victor", "French"}}) {
      auto o = schema::ParseJson("OrderFile",
                                 Slurp(F + "/orders/dog-talavera/m" + std::to_string(move) + "-" + side + ".orders.json"), "o");
      REQUIRE(o.ok());
      REQUIRE(replay::SubmitOrders(**db, "b", "main", person, *o).ok());
    }
    REQUIRE(replay::Adjudicate(**db, "b", "main", replay::AdjudicateMode::kTurn).ok());
  }
  auto head = (*db)->HeadOf("b", "main");
  REQUIRE(head.ok());
  return *head;
}

std::string Bytes(const std::string& path) { return Slurp(path); }

}  // namespace

TEST_CASE("damage: a flipped byte in the middle of the write-ahead log stops the open, and deletes nothing", "[ledger][damage]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  PlayBattle(db);
  auto logs = testing::LogFiles(db);
  REQUIRE(!logs.empty());
  const std::string log = logs.front();
  const uint64_t size = fs::file_size(log);
  REQUIRE(size > 4096);
  REQUIRE(testing::FlipByte(log, size / 2, 0x40));
  const std::string damaged = Bytes(log);

  // Read-write (every command that records) and read-only (verify, reports):
  // both refuse, naming the damage; RocksDB's default recovery would have
  // replayed up to the bad record and dropped the acknowledged rest.
  auto rw = ledger::Ledger::Open(db);
  REQUIRE(!rw.ok());
  CHECK(rw.status().code() == Status::Code::kCorruption);
  CHECK_THAT(rw.status().message(), Catch::Contains("damaged") && Catch::Contains(fs::path(log).filename().string()));
  auto ro = ledger::Ledger::Open(db, ledger::OpenOptions{.read_only = true});
  REQUIRE(!ro.ok());
  CHECK(ro.status().code() == Status::Code::kCorruption);
  // The damaged log is still there, as it was.
  REQUIRE(fs::exists(log));
  CHECK(Bytes(log) == damaged);

  auto v = testing::Adjutant({"--db", db, "verify", "b"});
  CHECK(v.code == 3);
  CHECK_THAT(v.err, Catch::Contains("damaged"));
  auto r = testing::Adjutant({"--db", db, "report", "battle", "b", "--side", "British"});
  CHECK(r.code == 3);
}

TEST_CASE("damage: a write-ahead log that ends early is caught against the acknowledged heads, and kept", "[ledger][damage]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  const ledger::Head acked = PlayBattle(db);
  // A copy without the heads file: what the ledger did before it had one.
  const std::string bare = dir.Sub("bare");
  fs::copy(db, bare, fs::copy_options::recursive);
  fs::remove(bare + "/" + ledger::kAckedHeadsFile);

  for (const std::string& d : {db, bare}) {
    auto logs = testing::LogFiles(d);
    REQUIRE(!logs.empty());
    // Cut inside a record, as a damaged length field does: RocksDB takes the
    // rest for a write torn by a crash and drops it.
    fs::resize_file(logs.front(), fs::file_size(logs.front()) * 6 / 10);
  }

  SECTION("a read-write open refuses, names what is missing, and keeps the log as found") {
    const uint64_t cut_size = fs::file_size(testing::LogFiles(db).front());
    auto rw = ledger::Ledger::Open(db);
    REQUIRE(!rw.ok());
    CHECK(rw.status().code() == Status::Code::kCorruption);
    CHECK_THAT(rw.status().message(), Catch::Contains("acknowledged up to seq " + std::to_string(acked.seq)) &&
                                          Catch::Contains("branch 'main' of game 'b'") && Catch::Contains("damaged-wal-"));
    std::vector<fs::path> kept;
    for (const auto& e : fs::directory_iterator(db)) {
      if (e.path().filename().string().rfind("damaged-wal-", 0) == 0) kept.push_back(e.path());
    }
    REQUIRE(kept.size() == 1);
    bool has_log = false;
    for (const auto& e : fs::directory_iterator(kept[0])) {
      has_log = has_log || (e.path().extension() == ".log" && fs::file_size(e.path()) == cut_size);
    }
    CHECK(has_log);
    // And so does every later open: nothing is ever written to it again.
    CHECK(!ledger::Ledger::Open(db).ok());
  }
  SECTION("read-only: verify reports the first missing acknowledged seq; every read fails") {
    auto ro = ledger::Ledger::Open(db, ledger::OpenOptions{.read_only = true});
    REQUIRE(ro.ok());
    auto rep = (*ro)->Verify("b", "main");
    REQUIRE(rep.ok());
    CHECK(!rep->ok);
    CHECK(rep->bad_seq < acked.seq);
    CHECK(rep->bad_seq > 1);
    CHECK_THAT(rep->reason, Catch::Contains("acknowledged"));
    auto w = replay::Fold(**ro, "b", "main");
    REQUIRE(!w.ok());
    CHECK(w.status().code() == Status::Code::kCorruption);
    // Not remembered as damage: every open checks the heads again (and a
    // read-only process beside a live writer may see an older moment).
    CHECK(rep->acknowledged_missing);
    CHECK(!(*ro)->DamageOf("b"));
    auto v = testing::Adjutant({"--db", db, "verify", "b"});
    CHECK(v.code == 3);
    CHECK_THAT(v.err, Catch::Contains("FAILED at seq " + std::to_string(rep->bad_seq)));
  }
  SECTION("without the heads file the same cut shortens history silently (what the file is for)") {
    auto rw = ledger::Ledger::Open(bare);
    REQUIRE(rw.ok());
    auto rep = (*rw)->Verify("b", "main");
    REQUIRE(rep.ok());
    CHECK(rep->ok);
    CHECK(rep->head.seq < acked.seq);
  }
}

TEST_CASE("damage: the acknowledged heads survive a torn write of one slot", "[ledger][damage]") {
  TempDir dir;
  const Hash128 h1{1, 2}, h2{3, 4};
  {
    ledger::AckedHeads heads;
    REQUIRE(heads.OpenForWrite(dir.path(), {}).ok());
    REQUIRE(heads.Record(3, 10, h1).ok());
    REQUIRE(heads.Record(3, 20, h2).ok());
  }
  bool exists = false;
  auto loaded = ledger::AckedHeads::Load(dir.path(), &exists);
  REQUIRE(loaded.ok());
  REQUIRE(exists);
  REQUIRE(loaded->count(3));
  CHECK(loaded->at(3).seq == 20);
  CHECK(loaded->at(3).hash == h2);
  // Branch 3's slots are 6 and 7 (64 bytes each); seq 20 went to slot 7.
  const std::string path = dir.path() + "/" + ledger::kAckedHeadsFile;
  REQUIRE(testing::FlipByte(path, 7 * 64 + 20));
  loaded = ledger::AckedHeads::Load(dir.path(), &exists);
  REQUIRE(loaded.ok());
  REQUIRE(loaded->count(3));
  CHECK(loaded->at(3).seq == 10);
  // The next write goes to the spoilt slot, not over the good one.
  {
    ledger::AckedHeads heads;
    REQUIRE(heads.OpenForWrite(dir.path(), *loaded).ok());
    REQUIRE(heads.Record(3, 30, h1).ok());
  }
  REQUIRE(testing::FlipByte(path, 7 * 64 + 20));
  loaded = ledger::AckedHeads::Load(dir.path(), &exists);
  REQUIRE(loaded.ok());
  CHECK(loaded->at(3).seq == 10);
}

TEST_CASE("damage: a flipped byte in a table file — verify finds it, and from then on every read of the game fails the same way",
          "[ledger][damage]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  uint64_t head = 0;
  {
    auto opened = ledger::Ledger::Open(db);
    REQUIRE(opened.ok());
    REQUIRE(testing::CreateNwolGame(**opened, "big", Slurp(F + "/scenarios/nwol-1805.json")).ok());
    for (int t = 0; t < 2; ++t) REQUIRE(replay::Adjudicate(**opened, "big", "main", replay::AdjudicateMode::kTurn).ok());
    // A fold writes its snapshots: later reads start from them.
    REQUIRE(replay::Fold(**opened, "big", "main").ok());
    head = (*opened)->HeadOf("big", "main")->seq;
  }
  // Reopened: the write-ahead log goes into table files.
  REQUIRE(ledger::Ledger::Open(db).ok());
  auto tables = testing::TableFiles(db, "events");
  REQUIRE(!tables.empty());
  const std::string table = tables.front();
  const std::string pristine = Bytes(table);
  // Early in the file: old events, below every snapshot.
  REQUIRE(testing::FlipByte(table, pristine.size() / 8));

  auto v = testing::Adjutant({"--db", db, "verify", "big"});
  REQUIRE(v.code == 3);
  CHECK_THAT(v.err, Catch::Contains("FAILED at seq"));
  const std::string finding = v.err.substr(v.err.find("verify big/main"));

  // Every read after that fails, with what verify found: the report, the
  // log, an order, an adjudication.
  auto r = testing::Adjutant({"--db", db, "report", "treasury", "big", "--state", "BR"});
  CHECK(r.code == 3);
  CHECK_THAT(r.err, Catch::Contains("FAILED at seq") && Catch::Contains("adjutant verify big --all"));
  auto l = testing::Adjutant({"--db", db, "log", "big"});
  CHECK(l.code == 3);
  {
    auto opened = ledger::Ledger::Open(db);
    REQUIRE(opened.ok());
    auto w = replay::Fold(**opened, "big", "main");
    REQUIRE(!w.ok());
    CHECK(w.status().code() == Status::Code::kCorruption);
    auto a = replay::Adjudicate(**opened, "big", "main", replay::AdjudicateMode::kPhase);
    REQUIRE(!a.ok());
    CHECK(a.status().code() == Status::Code::kCorruption);
    CHECK((*opened)->HeadOf("big", "main").status().code() == Status::Code::kCorruption);
  }
  // The GA puts the file back from a copy: a full verify clears the finding.
  {
    std::ofstream out(table, std::ios::binary | std::ios::trunc);
    out << pristine;
  }
  auto again = testing::Adjutant({"--db", db, "verify", "big", "--all"});
  CHECK(again.code == 0);
  CHECK_THAT(again.out, Catch::Contains("cleared"));
  auto ok = testing::Adjutant({"--db", db, "report", "treasury", "big", "--state", "BR"});
  CHECK(ok.code == 0);
  auto opened = ledger::Ledger::Open(db);
  REQUIRE(opened.ok());
  CHECK((*opened)->HeadOf("big", "main")->seq == head);
}

TEST_CASE("damage: a snapshot is used only while the event it follows has the hash it was made from", "[ledger][damage]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  PlayBattle(db);
  uint64_t branch_id = 0, seq = 0;
  {
    auto opened = ledger::Ledger::Open(db);
    REQUIRE(opened.ok());
    branch_id = (*opened)->Branch("b", "main")->id;
    seq = (*opened)->HeadOf("b", "main")->seq;
    REQUIRE((*opened)->PutSnapshot("b", "main", "probe", seq, "state").ok());
    auto found = (*opened)->FindSnapshot("b", "main", "probe", seq);
    REQUIRE(found.ok());
    REQUIRE(found->has_value());
    CHECK((*found)->bytes == "state");
  }
  // The last event's stored hash changed (nothing after it checks it).
  REQUIRE(testing::MutateEventRecord(db, branch_id, seq, [](std::string& v) { v[3] = static_cast<char>(v[3] ^ 1); }));
  auto opened = ledger::Ledger::Open(db, ledger::OpenOptions{.read_only = true});
  REQUIRE(opened.ok());
  auto found = (*opened)->FindSnapshot("b", "main", "probe", seq);
  REQUIRE(!found.ok());
  CHECK(found.status().code() == Status::Code::kCorruption);
  CHECK_THAT(found.status().message(), Catch::Contains("seq " + std::to_string(seq)));
}
