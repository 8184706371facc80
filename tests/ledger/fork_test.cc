// Forks: O(1) branch records whose reads fall through to the parent below
// the fork point; appends on either side leave the other untouched.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <map>

#include "ledger/ledger.h"
#include "schema/event_generated.h"
#include "support/random_game.h"
#include "support/raw_db.h"
#include "support/temp_dir.h"

using namespace adjutant;

namespace {

struct Stored {
  uint64_t seq;
  Hash128 hash;
  std::vector<uint8_t> bytes;
  friend bool operator==(const Stored&, const Stored&) = default;
};

std::vector<Stored> ReadAll(ledger::Ledger& db, const std::string& branch, uint64_t to = UINT64_MAX) {
  std::vector<Stored> out;
  auto st = db.Read("g", branch, 1, to, [&](const ledger::EventView& e) {
    out.push_back({e.seq, e.hash, {e.bytes.begin(), e.bytes.end()}});
    return Status::Ok();
  });
  RC_ASSERT(st.ok());
  return out;
}

uint64_t AppendRandom(ledger::Ledger& db, const std::string& branch) {
  auto h = db.HeadOf("g", branch);
  RC_ASSERT(h.ok());
  TurnPhase c = h->at;
  auto r = db.Append("g", branch, h->seq, adjutant::testing::ToDrafts(adjutant::testing::GenBatch(&c)));
  RC_ASSERT(r.ok());
  return r->last_seq;
}

}  // namespace

TEST_CASE("fork then append on both branches leaves the parent unchanged", "[fork][property]") {
  rc::prop("parent history and chain are untouched; the child shares them below the fork", [] {
    adjutant::testing::TempDir dir;
    auto opened = ledger::Ledger::Open(dir.Sub("db"));
    RC_ASSERT(opened.ok());
    auto& db = **opened;
    RC_ASSERT(adjutant::testing::CreateTestGame(db, "g").ok());
    for (int i = *rc::gen::inRange(1, 6); i > 0; --i) AppendRandom(db, "main");
    auto before = ReadAll(db, "main");
    uint64_t at = *rc::gen::inRange<uint64_t>(1, before.size() + 1);
    bool reseed = *rc::gen::arbitrary<bool>();
    auto b = db.Fork("g", "main", at, "alt", reseed ? std::optional<uint64_t>(42) : std::nullopt, Actor{});
    RC_ASSERT(b.ok());
    RC_ASSERT(b->fork_seq == at);
    RC_ASSERT(b->fork_hash == before[at - 1].hash);
    RC_ASSERT(b->dice_salt == (reseed ? 42u : 0u));
    for (int i = *rc::gen::inRange(1, 5); i > 0; --i) {
      AppendRandom(db, *rc::gen::arbitrary<bool>() ? "main" : "alt");
    }
    AppendRandom(db, "alt");
    auto after = ReadAll(db, "main");
    RC_ASSERT(after.size() >= before.size());
    for (size_t i = 0; i < before.size(); ++i) RC_ASSERT(after[i] == before[i]);
    auto child = ReadAll(db, "alt");
    for (size_t i = 0; i < at; ++i) RC_ASSERT(child[i] == before[i]);
    RC_ASSERT(child[at].seq == at + 1);
    RC_ASSERT(flatbuffers::GetRoot<fb::Event>(child[at].bytes.data())->payload_type() == fb::Payload_BranchForked);
    RC_ASSERT(db.Verify("g", "main")->ok);
    auto v = db.Verify("g", "alt");
    RC_ASSERT(v->ok);
    RC_ASSERT(v->events == child.size());
  });
}

TEST_CASE("forks of forks read through every ancestor", "[fork]") {
  adjutant::testing::TempDir dir;
  auto db = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(db.ok());
  REQUIRE(adjutant::testing::CreateTestGame(**db, "g").ok());
  TurnPhase c{{1, 1, 0}, 0};
  REQUIRE((*db)->Append("g", "main", 1, adjutant::testing::ToDrafts(adjutant::testing::FixedBatch(&c, 10, 0))).ok());
  REQUIRE((*db)->Fork("g", "main", 5, "a", std::nullopt, Actor{}).ok());        // a: 1..5, 6 = fork
  REQUIRE((*db)->Append("g", "a", 6, adjutant::testing::ToDrafts(adjutant::testing::FixedBatch(&c, 4, 1))).ok());
  REQUIRE((*db)->Fork("g", "a", 8, "b", std::uint64_t{9}, Actor{}).ok());      // b: 1..5 main, 6..8 a, 9 = fork
  auto branches = (*db)->Branches("g");
  REQUIRE(branches->size() == 3);
  CHECK((*branches)[2].parent == "a");
  CHECK((*branches)[2].dice_salt == 9);
  std::vector<std::string> from;
  REQUIRE((*db)->Read("g", "b", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                 from.push_back(e.event()->branch()->str());
                 return Status::Ok();
               }).ok());
  CHECK(from == std::vector<std::string>{"main", "main", "main", "main", "main", "a", "a", "a", "b"});
  CHECK((*db)->Verify("g", "b")->ok);

  SECTION("a fork of a fork below the parent's own fork point") {
    // c leaves a at 3, where a still shows main's history: c sees main 1..3.
    REQUIRE((*db)->Fork("g", "a", 3, "c", std::nullopt, Actor{}).ok());
    std::vector<std::string> seen;
    REQUIRE((*db)->Read("g", "c", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                   seen.push_back(e.event()->branch()->str() + "@" + std::to_string(e.seq));
                   return Status::Ok();
                 }).ok());
    CHECK(seen == std::vector<std::string>{"main@1", "main@2", "main@3", "c@4"});
    auto v = (*db)->Verify("g", "c");
    CHECK(v->ok);
    CHECK(v->events == 4);
    auto at = (*db)->SeekTurn("g", "c", TurnPhase{{99, 0, 0}, 0});
    CHECK_FALSE(at->has_value());
  }
  SECTION("a fork point beyond the parent's head is refused") {
    auto r = (*db)->Fork("g", "main", 12, "c", std::nullopt, Actor{});
    CHECK(r.status().code() == Status::Code::kInvalidArgument);
    CHECK_THAT(r.status().message(), Catch::Contains("its events are 1..11"));
    CHECK((*db)->Fork("g", "main", 0, "c", std::nullopt, Actor{}).status().code() == Status::Code::kInvalidArgument);
  }
  SECTION("a branch name is used once") {
    CHECK((*db)->Fork("g", "main", 3, "a", std::nullopt, Actor{}).status().code() == Status::Code::kAlreadyExists);
  }
  SECTION("damage in an ancestor is reported when verifying a descendant") {
    uint64_t main_id = (*db)->Branch("g", "main")->id;
    db->reset();
    REQUIRE(adjutant::testing::MutateEventRecord(dir.Sub("db"), main_id, 2, [](std::string& v) { v[30] ^= 1; }));
    auto re = ledger::Ledger::Open(dir.Sub("db"), {.read_only = true});
    auto rep = (*re)->Verify("g", "b");
    CHECK_FALSE(rep->ok);
    CHECK(rep->bad_seq == 2);
  }
}

TEST_CASE("random trees of forks read as their model says", "[fork][property]") {
  rc::prop("each branch reads as its parent's prefix up to the fork, then its own events", [] {
    adjutant::testing::TempDir dir;
    auto opened = ledger::Ledger::Open(dir.Sub("db"));
    RC_ASSERT(opened.ok());
    auto& db = **opened;
    RC_ASSERT(adjutant::testing::CreateTestGame(db, "g").ok());
    std::vector<std::string> names = {"main"};
    std::map<std::string, std::vector<Stored>> model;
    model["main"] = ReadAll(db, "main");
    for (int step = *rc::gen::inRange(1, 16); step > 0; --step) {
      std::string on = *rc::gen::elementOf(names);
      if (*rc::gen::inRange(0, 3) == 0) {
        const auto& parent = model[on];
        uint64_t at = *rc::gen::inRange<uint64_t>(1, parent.size() + 1);
        std::string name = "b" + std::to_string(names.size());
        RC_ASSERT(db.Fork("g", on, at, name, std::nullopt, Actor{}).ok());
        names.push_back(name);
        model[name] = std::vector<Stored>(parent.begin(), parent.begin() + static_cast<long>(at));
        auto own = ReadAll(db, name);
        RC_ASSERT(own.size() == at + 1);
        model[name].push_back(own.back());
      } else {
        uint64_t before = model[on].size();
        AppendRandom(db, on);
        auto now = ReadAll(db, on);
        model[on].insert(model[on].end(), now.begin() + static_cast<long>(before), now.end());
      }
    }
    for (const auto& n : names) {
      RC_ASSERT(ReadAll(db, n) == model[n]);
      auto v = db.Verify("g", n);
      RC_ASSERT(v->ok);
      RC_ASSERT(v->events == model[n].size());
    }
  });
}
