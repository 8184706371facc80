// A long read is read ahead on a thread of its own (ledger.cc RecordScan,
// OpenOptions::scan_ahead_min_events). It must give exactly what a read on
// the caller's thread gives: the same events, hashes and bytes in the same
// order, across forks and chunk boundaries; the same error at the same seq
// on damage; and it must stop cleanly wherever the visitor stops.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ledger/ledger.h"
#include "support/random_game.h"
#include "support/raw_db.h"
#include "support/temp_dir.h"

using namespace adjutant;

namespace {

struct Seen {
  uint64_t seq;
  Hash128 hash;
  std::string bytes;
  bool operator==(const Seen&) const = default;
};

// Appends `n` events to `branch` of game "g" in batches of 50.
void Grow(ledger::Ledger& db, const std::string& branch, int n, uint32_t salt) {
  auto h = db.HeadOf("g", branch);
  REQUIRE(h.ok());
  uint64_t head = h->seq;
  TurnPhase cursor = h->at;
  for (int done = 0; done < n; done += 50) {
    auto r = db.Append("g", branch, head,
                       adjutant::testing::ToDrafts(adjutant::testing::FixedBatch(&cursor, 50, salt + done)));
    REQUIRE(r.ok());
    head = r->last_seq;
  }
}

// main: 1..1301; "alt" forks at 700 and grows 900 more (a second branch id,
// so a read of it crosses two stretches, each of several chunks).
void Build(const std::string& path) {
  auto db = ledger::Ledger::Open(path);
  REQUIRE(db.ok());
  REQUIRE(adjutant::testing::CreateTestGame(**db, "g").ok());
  Grow(**db, "main", 1300, 0);
  REQUIRE((*db)->Fork("g", "main", 700, "alt", std::nullopt, Actor{}).ok());
  Grow(**db, "alt", 900, 7);
}

std::unique_ptr<ledger::Ledger> OpenWith(const std::string& path, uint64_t ahead) {
  auto db = ledger::Ledger::Open(path, {.read_only = true, .scan_ahead_min_events = ahead});
  REQUIRE(db.ok());
  return std::move(db).value();
}

struct ReadResult {
  std::vector<Seen> events;
  Status status;
};

ReadResult ReadAll(ledger::Ledger& db, const std::string& branch, uint64_t from, uint64_t to, uint64_t stop_at = 0) {
  ReadResult r;
  r.status = db.Read("g", branch, from, to, [&](const ledger::EventView& e) {
    r.events.push_back({e.seq, e.hash,
                        std::string(reinterpret_cast<const char*>(e.bytes.data()), e.bytes.size())});
    if (e.seq == stop_at) return Status::Busy("stop");
    return Status::Ok();
  });
  return r;
}

// The built database opened twice: reading on the caller's thread, and ahead.
struct BothWays {
  adjutant::testing::TempDir dir;
  std::string path = dir.Sub("db");
  std::unique_ptr<ledger::Ledger> near, ahead;
  BothWays() {
    Build(path);
    near = OpenWith(path, UINT64_MAX);
    ahead = OpenWith(path, 0);
  }
};

}  // namespace

TEST_CASE("a read ahead gives what a read on the caller's thread gives, across forks and chunks", "[ledger][scan]") {
  BothWays w;
  auto& near = w.near;
  auto& ahead = w.ahead;
  for (const std::string branch : {"main", "alt"}) {
    const uint64_t head = branch == "main" ? 1301 : 1601;
    for (auto [from, to] : std::vector<std::pair<uint64_t, uint64_t>>{
             {1, UINT64_MAX}, {2, 257}, {255, 1030}, {690, 712}, {1200, UINT64_MAX}, {1, 1}}) {
      INFO(branch << " " << from << ".." << to);
      auto a = ReadAll(*near, branch, from, to);
      auto b = ReadAll(*ahead, branch, from, to);
      REQUIRE(a.status.ok());
      REQUIRE(b.status.ok());
      CHECK(a.events.size() == std::min(to, head) - from + 1);
      CHECK(a.events == b.events);
    }
    auto va = near->Verify("g", branch);
    auto vb = ahead->Verify("g", branch);
    REQUIRE(va.ok());
    REQUIRE(vb.ok());
    CHECK(va->ok);
    CHECK(vb->ok);
    CHECK(va->events == vb->events);
    CHECK(va->head.seq == vb->head.seq);
    CHECK(va->head.hash == vb->head.hash);
  }
  // The whole of "alt": 700 of main, its fork event, 900 of its own.
  CHECK(ReadAll(*ahead, "alt", 1, UINT64_MAX).events.size() == 1601);
}

TEST_CASE("a read ahead stops wherever its visitor stops", "[ledger][scan]") {
  BothWays w;
  auto& near = w.near;
  auto& ahead = w.ahead;
  // At the first event, inside a chunk, at a chunk's last record, the
  // fork point, the first event after it, the last event.
  for (uint64_t stop : {uint64_t{1}, uint64_t{100}, uint64_t{256}, uint64_t{257}, uint64_t{700}, uint64_t{701},
                        uint64_t{1601}}) {
    INFO("stop at " << stop);
    auto a = ReadAll(*near, "alt", 1, UINT64_MAX, stop);
    auto b = ReadAll(*ahead, "alt", 1, UINT64_MAX, stop);
    CHECK(a.status.code() == Status::Code::kBusy);
    CHECK(b.status.code() == Status::Code::kBusy);
    CHECK(b.events.size() == stop);
    CHECK(a.events == b.events);
  }
}

TEST_CASE("a read ahead meets damage where a read on the caller's thread does", "[ledger][scan]") {
  adjutant::testing::TempDir dir;
  const std::string path = dir.Sub("db");
  Build(path);
  uint64_t main_id = 0;
  {
    auto db = OpenWith(path, UINT64_MAX);
    main_id = db->Branch("g", "main")->id;
  }
  const auto damage = GENERATE(as<std::string>{}, "gap", "flip", "cut");
  const uint64_t at = GENERATE(uint64_t{2}, uint64_t{600}, uint64_t{1299});
  INFO(damage << " at seq " << at);
  if (damage == "gap") {
    REQUIRE(adjutant::testing::DeleteEventRecord(path, main_id, at));
  } else if (damage == "flip") {
    REQUIRE(adjutant::testing::MutateEventRecord(path, main_id, at, [](std::string& v) { v[v.size() / 2] ^= 0x10; }));
  } else {
    REQUIRE(adjutant::testing::MutateEventRecord(path, main_id, at, [](std::string& v) { v.resize(12); }));
  }
  // Each read on a ledger of its own: damage found is remembered for the game.
  ReadResult a, b;
  {
    auto db = OpenWith(path, UINT64_MAX);
    auto v = db->Verify("g", "main");
    REQUIRE(v.ok());
    CHECK_FALSE(v->ok);
    CHECK(v->bad_seq == at);
    auto w = OpenWith(path, 0)->Verify("g", "main");
    REQUIRE(w.ok());
    CHECK_FALSE(w->ok);
    CHECK(w->bad_seq == at);
    CHECK(w->reason == v->reason);
  }
  std::filesystem::remove_all(path + "/adjutant-damage");
  a = ReadAll(*OpenWith(path, UINT64_MAX), "main", 1, UINT64_MAX);
  std::filesystem::remove_all(path + "/adjutant-damage");
  b = ReadAll(*OpenWith(path, 0), "main", 1, UINT64_MAX);
  CHECK(a.status.code() == Status::Code::kCorruption);
  CHECK(b.status.code() == Status::Code::kCorruption);
  CHECK(b.status.message() == a.status.message());
  CHECK_THAT(b.status.message(), Catch::Contains("seq " + std::to_string(at)));
  CHECK(a.events.size() == at - 1);
  CHECK(a.events == b.events);
}
