// Snapshots are thinned as they are written (ledger.h OpenOptions): of one
// view's snapshots under one branch id the newest `snapshots_kept_recent`
// stay, and of the older ones the first in each span of
// `snapshot_sparse_events` seqs. What stays grows by one a span, and a fold
// of any point still starts at most one span before the snapshot it would
// have started from with every snapshot kept.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ledger/format.h"
#include "ledger/ledger.h"
#include "support/random_game.h"
#include "support/raw_db.h"
#include "support/temp_dir.h"

using namespace adjutant;
namespace fmt = adjutant::ledger::format;

namespace {

// Game "g" with 1 + n events on main.
void Fill(ledger::Ledger& db, int n) {
  REQUIRE(adjutant::testing::CreateTestGame(db, "g").ok());
  TurnPhase cursor{{1, 1, 0}, 0};
  uint64_t head = 1;
  for (int done = 0; done < n; done += 50) {
    auto r = db.Append("g", "main", head, adjutant::testing::ToDrafts(adjutant::testing::FixedBatch(&cursor, 50, done)));
    REQUIRE(r.ok());
    head = r->last_seq;
  }
}

// The seqs of view `view`'s snapshots still indexed under `id`.
std::vector<uint64_t> Indexed(const std::string& path, uint64_t id, const std::string& view) {
  std::vector<uint64_t> out;
  const std::string prefix = fmt::SnapshotIndexPrefix(id, view);
  for (const std::string& k : adjutant::testing::KeysWithPrefix(path, fmt::kCfSnapshots, prefix)) {
    if (k.size() == prefix.size() + 8) out.push_back(fmt::GetU64(k.data() + prefix.size()));
  }
  return out;
}

std::string Bytes(uint64_t seq) { return "snapshot-" + std::to_string(seq); }

}  // namespace

TEST_CASE("snapshots written in order are thinned to the recent ones and one a span", "[ledger][snapshot]") {
  adjutant::testing::TempDir dir;
  const std::string path = dir.Sub("db");
  uint64_t id = 0;
  {
    auto db = ledger::Ledger::Open(path, {.snapshots_kept_recent = 3, .snapshot_sparse_events = 100});
    REQUIRE(db.ok());
    Fill(**db, 1000);
    id = (*db)->Branch("g", "main")->id;
    for (uint64_t s = 10; s <= 1000; s += 10) REQUIRE((*db)->PutSnapshot("g", "main", "p", s, Bytes(s)).ok());
    // Another view is thinned on its own.
    REQUIRE((*db)->PutSnapshot("g", "main", "q", 15, Bytes(15)).ok());
  }
  // The first of each span of 100 (10, 100, 200, ... 900) and the newest three.
  std::vector<uint64_t> want = {10};
  for (uint64_t s = 100; s <= 900; s += 100) want.push_back(s);
  for (uint64_t s : {980, 990, 1000}) want.push_back(s);
  CHECK(Indexed(path, id, "p") == want);
  CHECK(Indexed(path, id, "q") == std::vector<uint64_t>{15});
  // A thinned snapshot's value went with its index entry.
  CHECK(adjutant::testing::CountKeys(path, fmt::kCfSnapshots, fmt::SnapshotPrefix(id, "p")) == want.size());

  auto db = ledger::Ledger::Open(path, {.read_only = true});
  REQUIRE(db.ok());
  for (uint64_t upto = 1; upto <= 1001; ++upto) {
    auto f = (*db)->FindSnapshot("g", "main", "p", upto);
    REQUIRE(f.ok());
    if (upto < 10) {
      CHECK_FALSE(f->has_value());
      continue;
    }
    REQUIRE(f->has_value());
    const uint64_t nearest_unthinned = std::min<uint64_t>(upto - upto % 10, 1000);
    INFO("upto " << upto << ": found " << (*f)->seq);
    CHECK((*f)->seq <= upto);
    CHECK((*f)->seq + 100 > nearest_unthinned);  // at most a span before
    CHECK((*f)->bytes == Bytes((*f)->seq));
  }
}

// A turn's end writes every view's snapshot in one batch (PutSnapshots):
// each view is thinned as if written alone, and the one iterator they
// share reads past no deleted snapshot either.
TEST_CASE("several views' snapshots written in one batch are each thinned as alone", "[ledger][snapshot]") {
  adjutant::testing::TempDir dir;
  const std::string path = dir.Sub("db");
  uint64_t id = 0;
  uint64_t put_skipped = 0;
  {
    auto db = ledger::Ledger::Open(path, {.snapshots_kept_recent = 3, .snapshot_sparse_events = 100});
    REQUIRE(db.ok());
    Fill(**db, 1000);
    id = (*db)->Branch("g", "main")->id;
    for (uint64_t s = 10; s <= 1000; s += 10) {
      const std::string bytes = Bytes(s), other = "r" + Bytes(s);
      std::vector<ledger::Ledger::SnapshotPut> puts{{"p", bytes}, {"r", other}};
      if (s % 20 == 0) puts.push_back({"q", bytes});  // a view written at every other point
      if (s == 1000) {
        rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
        rocksdb::get_perf_context()->Reset();
      }
      REQUIRE((*db)->PutSnapshots("g", "main", s, puts).ok());
    }
    put_skipped = rocksdb::get_perf_context()->internal_delete_skipped_count;
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  }
  std::vector<uint64_t> want = {10};
  for (uint64_t s = 100; s <= 900; s += 100) want.push_back(s);
  for (uint64_t s : {980, 990, 1000}) want.push_back(s);
  CHECK(Indexed(path, id, "p") == want);
  CHECK(Indexed(path, id, "r") == want);
  std::vector<uint64_t> want_q = {20};
  for (uint64_t s = 100; s <= 900; s += 100) want_q.push_back(s);
  for (uint64_t s : {960, 980, 1000}) want_q.push_back(s);
  CHECK(Indexed(path, id, "q") == want_q);
  CHECK(adjutant::testing::CountKeys(path, fmt::kCfSnapshots, fmt::SnapshotPrefix(id, "r")) == want.size());
  CHECK(put_skipped == 0);
  auto db = ledger::Ledger::Open(path, {.read_only = true});
  REQUIRE(db.ok());
  auto r = (*db)->FindSnapshot("g", "main", "r", 995);
  REQUIRE(r.ok());
  REQUIRE(r->has_value());
  CHECK((*r)->seq == 990);
  CHECK((*r)->bytes == "r" + Bytes(990));
}

TEST_CASE("with no snapshots kept recent, none is thinned", "[ledger][snapshot]") {
  adjutant::testing::TempDir dir;
  const std::string path = dir.Sub("db");
  auto db = ledger::Ledger::Open(path, {.snapshots_kept_recent = 0, .snapshot_sparse_events = 100});
  REQUIRE(db.ok());
  Fill(**db, 500);
  for (uint64_t s = 5; s <= 500; s += 5) REQUIRE((*db)->PutSnapshot("g", "main", "p", s, Bytes(s)).ok());
  const uint64_t id = (*db)->Branch("g", "main")->id;
  db->reset();
  CHECK(Indexed(path, id, "p").size() == 100);
}

TEST_CASE("snapshots written in any order: every span that had one keeps one", "[ledger][snapshot][property]") {
  rc::prop("a fold starts at most a span before where it would with every snapshot kept", [] {
    const uint64_t keep = *rc::gen::inRange<uint64_t>(1, 5);
    const uint64_t span = *rc::gen::inRange<uint64_t>(2, 40);
    const auto seqs = *rc::gen::container<std::vector<uint64_t>>(*rc::gen::inRange<size_t>(1, 80),
                                                                  rc::gen::inRange<uint64_t>(1, 401));
    adjutant::testing::TempDir dir;
    const std::string path = dir.Sub("db");
    auto db = ledger::Ledger::Open(path, {.snapshots_kept_recent = keep, .snapshot_sparse_events = span});
    RC_ASSERT(db.ok());
    Fill(**db, 400);
    std::set<uint64_t> written;
    for (uint64_t s : seqs) {
      RC_ASSERT((*db)->PutSnapshot("g", "main", "p", s, Bytes(s)).ok());
      written.insert(s);
    }
    const uint64_t id = (*db)->Branch("g", "main")->id;
    db->reset();
    const std::vector<uint64_t> kept = Indexed(path, id, "p");
    const std::set<uint64_t> kept_set(kept.begin(), kept.end());
    RC_ASSERT(std::includes(written.begin(), written.end(), kept_set.begin(), kept_set.end()));
    // The newest `keep` stay, whatever the order they came in, and so does
    // the first of every span.
    uint64_t newest = 0;
    for (auto it = written.rbegin(); it != written.rend() && newest < keep; ++it, ++newest) {
      RC_ASSERT(kept_set.count(*it) == 1u);
    }
    std::map<uint64_t, uint64_t> first_of_span;  // span → the first seq written in it
    for (uint64_t s : written) first_of_span.emplace(s / span, s);
    for (const auto& [b, s] : first_of_span) RC_ASSERT(kept_set.count(s) == 1u);
    auto ro = ledger::Ledger::Open(path, {.read_only = true});
    RC_ASSERT(ro.ok());
    for (uint64_t upto = 1; upto <= 401; ++upto) {
      auto f = (*ro)->FindSnapshot("g", "main", "p", upto);
      RC_ASSERT(f.ok());
      auto it = written.upper_bound(upto);
      if (it == written.begin()) {
        RC_ASSERT(!f->has_value());
        continue;
      }
      const uint64_t nearest = *std::prev(it);
      RC_ASSERT(f->has_value());
      RC_ASSERT((*f)->seq <= upto);
      RC_ASSERT((*f)->seq + span > nearest);
      RC_ASSERT((*f)->bytes == Bytes((*f)->seq));
    }
  });
}

// Issue 22: what thinning deletes must not slow what comes after. Deleted
// keys stay in the tree as tombstones until compaction, and a read that
// walks through them costs more the longer the game: the deleted snapshots
// lie between a span's first and the recent ones, which neither the next
// thinning nor a fold of the head crosses. Counted with RocksDB's own
// per-thread counters, not timed.
TEST_CASE("thinning and a fold of the head read past no deleted snapshot", "[ledger][snapshot]") {
  adjutant::testing::TempDir dir;
  auto db = ledger::Ledger::Open(dir.Sub("db"), {.snapshots_kept_recent = 3, .snapshot_sparse_events = 1000000});
  REQUIRE(db.ok());
  Fill(**db, 700);
  for (uint64_t s = 1; s <= 600; ++s) REQUIRE((*db)->PutSnapshot("g", "main", "p", s, Bytes(s)).ok());
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->Reset();
  REQUIRE((*db)->PutSnapshot("g", "main", "p", 601, Bytes(601)).ok());
  const uint64_t put_skipped = rocksdb::get_perf_context()->internal_delete_skipped_count;
  rocksdb::get_perf_context()->Reset();
  auto f = (*db)->FindSnapshot("g", "main", "p", 700);
  const uint64_t find_skipped = rocksdb::get_perf_context()->internal_delete_skipped_count;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  REQUIRE(f.ok());
  REQUIRE(f->has_value());
  CHECK((*f)->seq == 601);
  CHECK(put_skipped == 0);
  CHECK(find_skipped == 0);
  // And 597 were deleted: the first of the span and the newest three stay.
  const uint64_t id = (*db)->Branch("g", "main")->id;
  db->reset();
  CHECK(Indexed(dir.Sub("db"), id, "p") == std::vector<uint64_t>{1, 599, 600, 601});
  // A process remembers the newest it wrote; a fresh one walks back to
  // them first, and that walk too passes no deleted snapshot.
  db = ledger::Ledger::Open(dir.Sub("db"), {.snapshots_kept_recent = 3, .snapshot_sparse_events = 1000000});
  REQUIRE(db.ok());
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->Reset();
  REQUIRE((*db)->PutSnapshot("g", "main", "p", 602, Bytes(602)).ok());
  const uint64_t walk_skipped = rocksdb::get_perf_context()->internal_delete_skipped_count;
  const uint64_t walk_steps = rocksdb::get_perf_context()->internal_key_skipped_count +
                              rocksdb::get_perf_context()->next_on_memtable_count +
                              rocksdb::get_perf_context()->prev_on_memtable_count;
  rocksdb::get_perf_context()->Reset();
  REQUIRE((*db)->PutSnapshot("g", "main", "p", 603, Bytes(603)).ok());
  const uint64_t remembered_steps = rocksdb::get_perf_context()->internal_key_skipped_count +
                                    rocksdb::get_perf_context()->next_on_memtable_count +
                                    rocksdb::get_perf_context()->prev_on_memtable_count;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  CHECK(walk_skipped == 0);
  // The second put walks back through none of them.
  CHECK(remembered_steps < walk_steps);
  db->reset();
  CHECK(Indexed(dir.Sub("db"), id, "p") == std::vector<uint64_t>{1, 601, 602, 603});
}
