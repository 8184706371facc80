// Projections are folds: rebuilt from zero, applied incrementally, or
// started from a snapshot, they give the same digest (DESIGN inv. 6).
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "projections/summary.h"
#include "replay/rebuild.h"
#include "schema/event_generated.h"
#include "projections/projection.h"
#include "support/random_game.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;

namespace {

// Folds events seq > summary.last_seq() of `branch` into `summary`.
void CatchUp(ledger::Ledger& db, const std::string& branch, projections::Summary& summary) {
  auto st = db.Read("g", branch, summary.last_seq() + 1, UINT64_MAX, [&](const ledger::EventView& e) {
    summary.Apply({e.seq, e.event(), e.bytes});
    return Status::Ok();
  });
  RC_ASSERT(st.ok());
}

Hash128 RebuildDigest(ledger::Ledger& db, const std::string& branch, uint64_t upto,
                      const replay::RebuildOptions& opts, replay::RebuildStats* stats = nullptr) {
  projections::Summary s;
  projections::Projection* ps[] = {&s};
  auto r = replay::Rebuild(db, "g", branch, upto, ps, opts);
  RC_ASSERT(r.ok());
  if (stats) *stats = *r;
  return s.Digest();
}

}  // namespace

TEST_CASE("rebuild from zero == incremental == snapshot-accelerated", "[projections][property]") {
  rc::prop("the three ways to the summary agree at every point, on a branch and its fork", [] {
    adjutant::testing::TempDir dir;
    // Snapshots every one kept, or thinned (ledger.h OpenOptions): then a
    // fold starts at most a span before the snapshot it would start from.
    const bool thin = *rc::gen::arbitrary<bool>();
    const uint64_t keep = thin ? *rc::gen::inRange<uint64_t>(1, 4) : 0;
    const uint64_t span = *rc::gen::inRange<uint64_t>(2, 20);
    auto opened = ledger::Ledger::Open(dir.Sub("db"), {.snapshots_kept_recent = keep, .snapshot_sparse_events = span});
    RC_ASSERT(opened.ok());
    auto& db = **opened;
    RC_ASSERT(adjutant::testing::CreateTestGame(db, "g", *rc::gen::arbitrary<uint64_t>()).ok());
    projections::Summary live;
    TurnPhase cursor{{1, 1, 0}, 0};
    uint64_t head = 1;
    std::vector<Hash128> digest_at = {Hash128{}, Hash128{}};  // index = seq
    CatchUp(db, "main", live);
    digest_at[1] = live.Digest();
    for (int b = *rc::gen::inRange(1, 10); b > 0; --b) {
      auto r = db.Append("g", "main", head, adjutant::testing::ToDrafts(adjutant::testing::GenBatch(&cursor, 6)));
      RC_ASSERT(r.ok());
      head = r->last_seq;
      CatchUp(db, "main", live);
      digest_at.resize(head + 1);
      digest_at[head] = live.Digest();
    }
    uint64_t every = *rc::gen::inRange<uint64_t>(1, 6);
    // Write snapshots along the way, then ask for random points.
    replay::RebuildStats stats;
    RC_ASSERT(RebuildDigest(db, "main", UINT64_MAX, {.use_snapshots = false, .snapshot_every = every}, &stats) ==
              live.Digest());
    RC_ASSERT(stats.snapshots_written == head / every);
    // Where a fold of `upto` starts: the nearest snapshot, or (thinned) no
    // more than a span before it.
    auto starts_right = [&](uint64_t start, uint64_t upto) {
      const uint64_t nearest = upto - upto % every;
      if (!thin) return start == nearest;
      return start <= nearest && (nearest == 0 || start + span > nearest);
    };
    for (int q = 0; q < 5; ++q) {
      uint64_t upto = *rc::gen::inRange<uint64_t>(1, head + 1);
      Hash128 zero = RebuildDigest(db, "main", upto, {.use_snapshots = false});
      Hash128 snap = RebuildDigest(db, "main", upto, {.use_snapshots = true}, &stats);
      RC_ASSERT(zero == snap);
      RC_ASSERT(starts_right(stats.start_seq, upto));
      if (digest_at[upto] != Hash128{}) RC_ASSERT(zero == digest_at[upto]);
    }
    // A fork reuses its parent's snapshots below the fork point.
    uint64_t at = *rc::gen::inRange<uint64_t>(1, head + 1);
    RC_ASSERT(db.Fork("g", "main", at, "f", std::nullopt, Actor{}).ok());
    Hash128 fz = RebuildDigest(db, "f", UINT64_MAX, {.use_snapshots = false});
    Hash128 fs = RebuildDigest(db, "f", UINT64_MAX, {.use_snapshots = true}, &stats);
    RC_ASSERT(fz == fs);
    RC_ASSERT(starts_right(stats.start_seq, at));
    // Snapshots are a cache: deleting them changes no digest.
    RC_ASSERT(db.DeleteSnapshots("g").ok());
    RC_ASSERT(RebuildDigest(db, "main", UINT64_MAX, {.use_snapshots = true}, &stats) == live.Digest());
    RC_ASSERT(stats.start_seq == 0);
    RC_ASSERT(RebuildDigest(db, "f", UINT64_MAX, {.use_snapshots = true}) == fz);
  });
}

TEST_CASE("the summary's encoding round-trips and refuses damage", "[projections]") {
  adjutant::testing::TempDir dir;
  auto db = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(db.ok());
  REQUIRE(adjutant::testing::CreateTestGame(**db, "g", 1234).ok());
  TurnPhase c{{1, 1, 0}, 0};
  REQUIRE((*db)->Append("g", "main", 1, adjutant::testing::ToDrafts(adjutant::testing::FixedBatch(&c, 30, 0))).ok());
  projections::Summary s;
  projections::Projection* ps[] = {&s};
  REQUIRE(replay::Rebuild(**db, "g", "main", UINT64_MAX, ps).ok());
  const auto& st = s.state();
  CHECK(st.total.events == 31);
  CHECK(st.seed == 1234);
  CHECK(st.scenario_name == "test g");
  CHECK(st.by_kind.at("GameCreated").events == 1);
  CHECK(st.by_kind.at("DieRolled").events == 5);  // kinds cycle through six
  CHECK(st.dice_rolled == 10);
  CHECK(st.dice_scripted == 10);

  projections::Summary copy;
  REQUIRE(copy.Decode(s.Encode()).ok());
  CHECK(copy.state() == s.state());
  CHECK(copy.Digest() == s.Digest());
  std::string bytes = s.Encode();
  CHECK(copy.Decode(bytes.substr(0, bytes.size() - 1)).code() == Status::Code::kCorruption);
  CHECK(copy.Decode(bytes + "x").code() == Status::Code::kCorruption);

  SECTION("a damaged snapshot is a cache miss, not a wrong answer") {
    REQUIRE((*db)->PutSnapshot("g", "main", s.SnapshotName(), 20, "garbage").ok());
    projections::Summary again;
    projections::Projection* ps2[] = {&again};
    auto r = replay::Rebuild(**db, "g", "main", UINT64_MAX, ps2);
    REQUIRE(r.ok());
    CHECK(r->start_seq == 0);
    CHECK(again.Digest() == s.Digest());
  }
}

TEST_CASE("a fold starts from the last snapshot in every kind of game: no view that does not apply to the game "
          "holds it back at event 1",
          "[projections][snapshots]") {
  // Every view folds every game; one that does not apply (the battle in an
  // NWOL game, the 1820 map in a battle) must still stand at the last seq,
  // or its snapshot is refused and every fold — each order, each phase —
  // reads the whole log again (found by the full-game benchmark: a turn's
  // orders took 60 s instead of 0.9 s).
  const std::string F = ADJUTANT_FIXTURES;
  struct Game {
    std::string name;
    std::vector<std::string> create;
  };
  const std::vector<Game> games = {
      {"nwol", {"--scenario", F + "/scenarios/nwol-1805.json", "--map", F + "/maps/nwol-waters.json", "--seed", "1805"}},
      {"europe", {"--scenario", F + "/y1820/europe-1820.json", "--map", F + "/y1820/europe-1820.map.json", "--seed", "1820"}},
      {"talavera", {"--scenario", F + "/dog/talavera-brigade.json", "--seed", "1809"}},
  };
  for (const Game& g : games) {
    DYNAMIC_SECTION(g.name) {
      adjutant::testing::TempDir dir;
      std::vector<std::string> args = {"--db", dir.Sub("db"), "new", g.name};
      args.insert(args.end(), g.create.begin(), g.create.end());
      REQUIRE(adjutant::testing::Adjutant(args).code == 0);
      REQUIRE(adjutant::testing::Adjutant({"--db", dir.Sub("db"), "adjudicate", g.name}).code == 0);
      auto db = ledger::Ledger::Open(dir.Sub("db"));
      REQUIRE(db.ok());
      const uint64_t head = (*db)->HeadOf(g.name, "main")->seq;
      REQUIRE(head > 4);
      auto views = projections::AllProjections();
      std::vector<projections::Projection*> ps;
      for (auto& p : views) ps.push_back(p.get());
      // The turn's end: every view's snapshot was written there when the
      // turn was adjudicated (issue 22); one view refusing its own would
      // start the fold at event 1.
      auto at_end = replay::Rebuild(**db, g.name, "main", UINT64_MAX, ps, {});
      REQUIRE(at_end.ok());
      CHECK(at_end->start_seq == head);
      CHECK(at_end->events_folded == 0);
      // Snapshots every 2 events, written by a fold from event 1; a fold
      // to the event before the turn's end then starts at the last of them.
      replay::RebuildOptions opts;
      opts.snapshot_every = 2;
      opts.use_snapshots = false;
      auto first = replay::Rebuild(**db, g.name, "main", UINT64_MAX, ps, opts);
      REQUIRE(first.ok());
      CHECK(first->snapshots_written > 0);
      opts.use_snapshots = true;
      const uint64_t before = head - 1;
      auto second = replay::Rebuild(**db, g.name, "main", before, ps, opts);
      REQUIRE(second.ok());
      CHECK(second->start_seq == before - before % 2);
      CHECK(second->events_folded == before % 2);
    }
  }
}
