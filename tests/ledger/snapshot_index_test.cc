// Snapshots are found through their index (ledger/format.h: a small key per
// snapshot), then read by key; a snapshot written before the index, or an
// index entry whose snapshot cannot be read, is found by seeking the values
// as before. Deleting a game's snapshots deletes their index too.
#include <catch2/catch.hpp>

#include <string>

#include "ledger/format.h"
#include "ledger/ledger.h"
#include "support/random_game.h"
#include "support/raw_db.h"
#include "support/temp_dir.h"

using namespace adjutant;
namespace fmt = adjutant::ledger::format;

namespace {

// Game "g": 1 + 60 events on main; snapshots of view "p" after 10, 20, 30
// ("s10", "s20", "s30") and of view "q" after 25. Returns main's branch id.
uint64_t Build(const std::string& path) {
  auto db = ledger::Ledger::Open(path);
  REQUIRE(db.ok());
  REQUIRE(adjutant::testing::CreateTestGame(**db, "g").ok());
  TurnPhase cursor{{1, 1, 0}, 0};
  uint64_t head = 1;
  for (int done = 0; done < 60; done += 10) {
    auto r = (*db)->Append("g", "main", head, adjutant::testing::ToDrafts(adjutant::testing::FixedBatch(&cursor, 10, done)));
    REQUIRE(r.ok());
    head = r->last_seq;
  }
  for (uint64_t s : {10, 20, 30}) REQUIRE((*db)->PutSnapshot("g", "main", "p", s, "s" + std::to_string(s)).ok());
  REQUIRE((*db)->PutSnapshot("g", "main", "q", 25, "q25").ok());
  return (*db)->Branch("g", "main")->id;
}

// The seq and bytes FindSnapshot gives, or "none".
std::string Find(const std::string& path, const std::string& view, uint64_t upto) {
  auto db = ledger::Ledger::Open(path, {.read_only = true});
  REQUIRE(db.ok());
  auto f = (*db)->FindSnapshot("g", "main", view, upto);
  REQUIRE(f.ok());
  if (!f->has_value()) return "none";
  return std::to_string((*f)->seq) + ":" + (*f)->bytes;
}

}  // namespace

TEST_CASE("a snapshot is found through its index, and without it as before", "[ledger][snapshot]") {
  adjutant::testing::TempDir dir;
  const std::string path = dir.Sub("db");
  const uint64_t id = Build(path);
  // One index entry a snapshot.
  CHECK(adjutant::testing::CountKeys(path, fmt::kCfSnapshots, fmt::SnapshotIndexPrefix(id, "p")) == 3);
  CHECK(adjutant::testing::CountKeys(path, fmt::kCfSnapshots, fmt::SnapshotIndexPrefix(id, "q")) == 1);

  CHECK(Find(path, "p", 9) == "none");
  CHECK(Find(path, "p", 10) == "10:s10");
  CHECK(Find(path, "p", 29) == "20:s20");
  CHECK(Find(path, "p", 61) == "30:s30");
  CHECK(Find(path, "q", 61) == "25:q25");
  CHECK(Find(path, "q", 24) == "none");

  SECTION("an index entry whose snapshot is gone: the values are sought, and the one before is found") {
    REQUIRE(adjutant::testing::DeleteKey(path, fmt::kCfSnapshots, fmt::SnapshotKey(id, "p", 30)));
    CHECK(Find(path, "p", 61) == "20:s20");
    CHECK(Find(path, "p", 25) == "20:s20");
  }
  SECTION("snapshots from before the index are found by their values") {
    for (uint64_t s : {10, 20, 30}) {
      REQUIRE(adjutant::testing::DeleteKey(path, fmt::kCfSnapshots, fmt::SnapshotIndexKey(id, "p", s)));
    }
    CHECK(adjutant::testing::CountKeys(path, fmt::kCfSnapshots, fmt::SnapshotIndexPrefix(id, "p")) == 0);
    CHECK(Find(path, "p", 9) == "none");
    CHECK(Find(path, "p", 29) == "20:s20");
    CHECK(Find(path, "p", 61) == "30:s30");
    CHECK(Find(path, "q", 61) == "25:q25");
  }
  SECTION("deleting a game's snapshots deletes their index") {
    {
      auto db = ledger::Ledger::Open(path);
      REQUIRE(db.ok());
      REQUIRE((*db)->DeleteSnapshots("g").ok());
    }
    std::string all;
    fmt::PutU64(&all, id);
    CHECK(adjutant::testing::CountKeys(path, fmt::kCfSnapshots, all) == 0);
    CHECK(adjutant::testing::CountKeys(path, fmt::kCfSnapshots, "\xff" + all) == 0);
    CHECK(Find(path, "p", 61) == "none");
  }
}

TEST_CASE("a snapshot found through its index is still bound to its event's hash", "[ledger][snapshot][damage]") {
  adjutant::testing::TempDir dir;
  const std::string path = dir.Sub("db");
  const uint64_t id = Build(path);
  REQUIRE(adjutant::testing::MutateEventRecord(path, id, 20, [](std::string& v) { v[2] = static_cast<char>(v[2] ^ 4); }));
  auto db = ledger::Ledger::Open(path, {.read_only = true});
  REQUIRE(db.ok());
  auto f = (*db)->FindSnapshot("g", "main", "p", 29);
  REQUIRE_FALSE(f.ok());
  CHECK(f.status().code() == Status::Code::kCorruption);
  CHECK_THAT(f.status().message(), Catch::Contains("seq 20"));
}
