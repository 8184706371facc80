// Damage is detected: any change to a stored event is caught by verify at
// that event's sequence number, and reads refuse damaged buffers.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <filesystem>

#include "ledger/ledger.h"
#include "support/random_game.h"
#include "support/raw_db.h"
#include "support/temp_dir.h"

using namespace adjutant;

namespace {

struct Game {
  adjutant::testing::TempDir dir;
  uint64_t main_id = 0;
  uint64_t head = 0;
  std::string path() const { return dir.Sub("db"); }
};

// A closed database holding game "g" with `n` events after GameCreated.
void Build(Game& g, int n, uint32_t salt) {
  auto db = ledger::Ledger::Open(g.path());
  REQUIRE(db.ok());
  REQUIRE(adjutant::testing::CreateTestGame(**db, "g").ok());
  TurnPhase cursor{{1, 1, 0}, 0};
  uint64_t head = 1;
  for (int done = 0; done < n; done += 5) {
    auto r = (*db)->Append("g", "main", head,
                           adjutant::testing::ToDrafts(adjutant::testing::FixedBatch(&cursor, 5, salt + done)));
    REQUIRE(r.ok());
    head = r->last_seq;
  }
  g.main_id = (*db)->Branch("g", "main")->id;
  g.head = head;
}

// Every check runs twice (GENERATE in each test): records read on the
// caller's thread, and read ahead on a thread of their own (ledger.cc RecordScan).
uint64_t g_scan_ahead = UINT64_MAX;
uint64_t ScanBothWays() { return GENERATE(uint64_t{0}, UINT64_MAX); }

ledger::VerifyReport VerifyMain(const Game& g) {
  auto db = ledger::Ledger::Open(g.path(), {.read_only = true, .scan_ahead_min_events = g_scan_ahead});
  REQUIRE(db.ok());
  auto rep = (*db)->Verify("g", "main");
  REQUIRE(rep.ok());
  return *rep;
}

}  // namespace

TEST_CASE("an untouched ledger verifies", "[chain]") {
  g_scan_ahead = ScanBothWays();
  Game g;
  Build(g, 30, 0);
  auto rep = VerifyMain(g);
  CHECK(rep.ok);
  CHECK(rep.events == 31);
  CHECK(rep.head.seq == 31);
}

TEST_CASE("any single-byte change to any stored event is caught at that event", "[chain][property]") {
  g_scan_ahead = ScanBothWays();
  Game g;
  Build(g, 40, 1);
  rc::prop("flip one byte of one record: verify names its seq", [&] {
    uint64_t seq = *rc::gen::inRange<uint64_t>(1, g.head + 1);
    std::string original = adjutant::testing::ReadEventRecord(g.path(), g.main_id, seq);
    RC_ASSERT(!original.empty());
    size_t offset = *rc::gen::inRange<size_t>(0, original.size());
    uint8_t mask = *rc::gen::inRange<int>(1, 256);
    RC_ASSERT(adjutant::testing::MutateEventRecord(g.path(), g.main_id, seq,
                                                   [&](std::string& v) { v[offset] ^= static_cast<char>(mask); }));
    auto rep = VerifyMain(g);
    // Put it back before asserting, so one failure does not spoil the rest.
    RC_ASSERT(adjutant::testing::MutateEventRecord(g.path(), g.main_id, seq, [&](std::string& v) { v = original; }));
    RC_ASSERT(!rep.ok);
    RC_ASSERT(rep.bad_seq == seq);
  });
  CHECK(VerifyMain(g).ok);
}

TEST_CASE("truncated, missing and swapped records are caught", "[chain]") {
  g_scan_ahead = ScanBothWays();
  Game g;
  Build(g, 20, 2);
  SECTION("a record cut short") {
    REQUIRE(adjutant::testing::MutateEventRecord(g.path(), g.main_id, 7, [](std::string& v) { v.resize(v.size() / 2); }));
    auto rep = VerifyMain(g);
    CHECK_FALSE(rep.ok);
    CHECK(rep.bad_seq == 7);
  }
  SECTION("a record shorter than its hash") {
    REQUIRE(adjutant::testing::MutateEventRecord(g.path(), g.main_id, 3, [](std::string& v) { v.resize(10); }));
    auto rep = VerifyMain(g);
    CHECK(rep.bad_seq == 3);
    CHECK_THAT(rep.reason, Catch::Contains("too short"));
  }
  SECTION("a missing record is a gap") {
    REQUIRE(adjutant::testing::DeleteEventRecord(g.path(), g.main_id, 12));
    auto rep = VerifyMain(g);
    CHECK_FALSE(rep.ok);
    CHECK(rep.bad_seq == 12);
    CHECK_THAT(rep.reason, Catch::Contains("missing"));
  }
  SECTION("two records swapped") {
    REQUIRE(adjutant::testing::SwapEventRecords(g.path(), g.main_id, 5, 9));
    auto rep = VerifyMain(g);
    CHECK_FALSE(rep.ok);
    CHECK(rep.bad_seq == 5);
  }
  SECTION("a record copied over another with its own valid hash") {
    std::string r4 = adjutant::testing::ReadEventRecord(g.path(), g.main_id, 4);
    REQUIRE(adjutant::testing::MutateEventRecord(g.path(), g.main_id, 6, [&](std::string& v) { v = r4; }));
    auto rep = VerifyMain(g);
    CHECK_FALSE(rep.ok);
    CHECK(rep.bad_seq == 6);
  }
}

TEST_CASE("reads refuse a damaged buffer and name its seq", "[chain]") {
  g_scan_ahead = ScanBothWays();
  Game g;
  Build(g, 10, 3);
  // Destroy the flatbuffer's root offset so the verifier must reject it.
  REQUIRE(adjutant::testing::MutateEventRecord(g.path(), g.main_id, 8, [](std::string& v) {
    for (size_t i = 16; i < 20; ++i) v[i] = '\xff';
  }));
  auto db = ledger::Ledger::Open(g.path(), {.read_only = true, .scan_ahead_min_events = g_scan_ahead});
  REQUIRE(db.ok());
  uint64_t seen = 0;
  Status st = (*db)->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
    seen = e.seq;
    return Status::Ok();
  });
  CHECK(st.code() == Status::Code::kCorruption);
  CHECK_THAT(st.message(), Catch::Contains("seq 8"));
  CHECK(seen == 7);
}

TEST_CASE("a branch's head record must name its last stored event", "[chain]") {
  Game g;
  Build(g, 20, 4);
  // Without the acknowledged heads the check is the head record's alone.
  std::filesystem::remove(g.path() + "/adjutant-heads");
  SECTION("the last event gone") {
    REQUIRE(adjutant::testing::DeleteEventRecord(g.path(), g.main_id, g.head));
  }
  SECTION("an event stored past the head") {
    REQUIRE(adjutant::testing::PutEventRecord(g.path(), g.main_id, g.head + 1,
                                              adjutant::testing::ReadEventRecord(g.path(), g.main_id, g.head)));
  }
  auto db = ledger::Ledger::Open(g.path(), {.read_only = true});
  REQUIRE(db.ok());
  auto h = (*db)->HeadOf("g", "main");
  REQUIRE_FALSE(h.ok());
  CHECK(h.status().code() == Status::Code::kCorruption);
  CHECK_THAT(h.status().message(), Catch::Contains("its head is seq " + std::to_string(g.head)));
  Status st = (*db)->Read("g", "main", 1, UINT64_MAX, [](const ledger::EventView&) { return Status::Ok(); });
  CHECK(st.code() == Status::Code::kCorruption);
}
