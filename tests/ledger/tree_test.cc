// ledger/tree.h (issue 23): the Merkle tree over a branch's events, with its
// nodes kept in the ledger, gives the root a tree built in memory from the
// events read back gives — at every size, on forks (which share their
// parent's roots up to the fork point), after a reopen and with the cache
// dropped — and its proofs verify against that root.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <set>

#include "ledger/ledger.h"
#include "ledger/tree.h"
#include "support/random_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using merkle::Hash;

namespace {

std::vector<Hash> Leaves(ledger::Ledger& db, const std::string& branch) {
  std::vector<Hash> out;
  auto st = db.Read("g", branch, 1, UINT64_MAX, [&](const ledger::EventView& e) {
    out.push_back(merkle::LeafHash(e.bytes));
    return Status::Ok();
  });
  RC_ASSERT(st.ok());
  return out;
}

void Grow(ledger::Ledger& db, const std::string& branch, int batches) {
  for (int i = 0; i < batches; ++i) {
    auto h = db.HeadOf("g", branch);
    RC_ASSERT(h.ok());
    TurnPhase c = h->at;
    auto r = db.Append("g", branch, h->seq, testing::ToDrafts(testing::GenBatch(&c, 12)));
    RC_ASSERT(r.ok());
  }
}

// The branch's tree checked against one built in memory from its events:
// the root at `size`, an event's inclusion, several events' at once, and a
// consistency proof from a smaller size.
void CheckAt(ledger::Ledger& db, const std::string& branch, const std::vector<Hash>& leaves, uint64_t size) {
  merkle::MemoryTree mem;
  for (uint64_t i = 0; i < size; ++i) mem.Append(leaves[i]);
  const Hash want = merkle::Root(mem, size);
  auto root = ledger::TreeRoot(db, "g", branch, size);
  RC_ASSERT(root.ok());
  RC_ASSERT(*root == want);
  if (size == 0) return;
  const uint64_t seq = *rc::gen::inRange<uint64_t>(1, size + 1);
  auto incl = ledger::TreeInclusion(db, "g", branch, seq, size);
  RC_ASSERT(incl.ok());
  RC_ASSERT(merkle::VerifyInclusion(seq - 1, size, leaves[seq - 1], *incl, want));
  std::set<uint64_t> picked;
  for (int i = *rc::gen::inRange(1, 6); i > 0; --i) picked.insert(*rc::gen::inRange<uint64_t>(1, size + 1));
  const std::vector<uint64_t> seqs(picked.begin(), picked.end());
  auto multi = ledger::TreeMultiProof(db, "g", branch, seqs, size);
  RC_ASSERT(multi.ok());
  std::vector<std::pair<uint64_t, Hash>> given;
  for (uint64_t s : seqs) given.push_back({s - 1, leaves[s - 1]});
  RC_ASSERT(merkle::MultiRoot(given, size, *multi) == std::optional<Hash>(want));
  const uint64_t size1 = *rc::gen::inRange<uint64_t>(1, size + 1);
  auto cons = ledger::TreeConsistency(db, "g", branch, size1, size);
  RC_ASSERT(cons.ok());
  RC_ASSERT(merkle::VerifyConsistency(size1, size, merkle::Root(mem, size1), want, *cons));
}

}  // namespace

TEST_CASE("tree: a branch's kept Merkle tree is the tree of its events, at every size, on forks, after a reopen",
          "[tree][ledger][property]") {
  rc::prop("roots and proofs from the kept tree agree with a tree built from the events read back", [] {
    testing::TempDir dir;
    auto opened = ledger::Ledger::Open(dir.Sub("db"));
    RC_ASSERT(opened.ok());
    ledger::Ledger& db = **opened;
    RC_ASSERT(testing::CreateTestGame(db, "g").ok());
    Grow(db, "main", *rc::gen::inRange(1, 12));
    std::vector<Hash> main_leaves = Leaves(db, "main");
    // Asked at rising sizes, as the driver asks at each phase's end.
    for (uint64_t size = 0; size <= main_leaves.size(); size += *rc::gen::inRange<uint64_t>(1, 20)) {
      CheckAt(db, "main", main_leaves, size);
    }
    CheckAt(db, "main", main_leaves, main_leaves.size());
    // A fork at a random point, grown on both sides.
    const uint64_t at = *rc::gen::inRange<uint64_t>(1, main_leaves.size() + 1);
    RC_ASSERT(db.Fork("g", "main", at, "alt", std::nullopt, Actor{}).ok());
    Grow(db, "alt", *rc::gen::inRange(1, 6));
    Grow(db, "main", *rc::gen::inRange(0, 4));
    main_leaves = Leaves(db, "main");
    const std::vector<Hash> alt_leaves = Leaves(db, "alt");
    for (uint64_t size = 1; size <= at; ++size) {
      auto a = ledger::TreeRoot(db, "g", "alt", size);
      auto m = ledger::TreeRoot(db, "g", "main", size);
      RC_ASSERT(a.ok() && m.ok());
      RC_ASSERT(*a == *m);
    }
    CheckAt(db, "alt", alt_leaves, *rc::gen::inRange<uint64_t>(at, alt_leaves.size() + 1));
    CheckAt(db, "alt", alt_leaves, alt_leaves.size());
    CheckAt(db, "main", main_leaves, main_leaves.size());
    // The parent's tree at the fork point extends to the fork's head.
    auto cons = ledger::TreeConsistency(db, "g", "alt", at, alt_leaves.size());
    auto at_root = ledger::TreeRoot(db, "g", "main", at);
    auto alt_root = ledger::TreeRoot(db, "g", "alt", alt_leaves.size());
    RC_ASSERT(cons.ok() && at_root.ok() && alt_root.ok());
    RC_ASSERT(merkle::VerifyConsistency(at, alt_leaves.size(), *at_root, *alt_root, *cons));
    // Reopened, and with the cache dropped: the same roots.
    opened->reset();
    auto again = ledger::Ledger::Open(dir.Sub("db"));
    RC_ASSERT(again.ok());
    auto r1 = ledger::TreeRoot(**again, "g", "alt", alt_leaves.size());
    RC_ASSERT(r1.ok() && *r1 == *alt_root);
    RC_ASSERT((*again)->DeleteSnapshots("g").ok());
    auto r2 = ledger::TreeRoot(**again, "g", "alt", alt_leaves.size());
    RC_ASSERT(r2.ok() && *r2 == *alt_root);
  });
}

TEST_CASE("tree: nodes are kept once made, a fork's below its fork point under its parent, and bad requests are "
          "refused",
          "[tree][ledger]") {
  testing::TempDir dir;
  auto opened = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(opened.ok());
  ledger::Ledger& db = **opened;
  REQUIRE(testing::CreateTestGame(db, "g").ok());
  TurnPhase c = db.HeadOf("g", "main")->at;
  while (db.HeadOf("g", "main")->seq < 100) {
    auto h = db.HeadOf("g", "main");
    REQUIRE(db.Append("g", "main", h->seq, testing::ToDrafts(testing::FixedBatch(&c, 10, 3))).ok());
  }
  const uint64_t head = db.HeadOf("g", "main")->seq;
  // Nothing kept before the first root; then the level-4 nodes and those above.
  REQUIRE_FALSE(db.GetTreeNode("g", "main", ledger::kStoredLevel, 0)->has_value());
  REQUIRE(ledger::TreeRoot(db, "g", "main", head).ok());
  CHECK(db.GetTreeNode("g", "main", ledger::kStoredLevel, 0)->has_value());
  CHECK(db.GetTreeNode("g", "main", ledger::kStoredLevel + 2, 0)->has_value());  // leaves 0-63
  CHECK_FALSE(db.GetTreeNode("g", "main", ledger::kStoredLevel + 3, 0)->has_value());  // 0-127: not whole
  // A fork at 40 reads the parent's node over 0-31 (seqs 1-32) as its own.
  REQUIRE(db.Fork("g", "main", 40, "alt", std::nullopt, Actor{}).ok());
  auto shared = db.GetTreeNode("g", "alt", ledger::kStoredLevel + 1, 0);
  REQUIRE(shared.ok());
  CHECK(shared->has_value());
  CHECK(**shared == **db.GetTreeNode("g", "main", ledger::kStoredLevel + 1, 0));
  // Refusals: beyond the head, seqs out of order, an empty first tree.
  CHECK(ledger::TreeRoot(db, "g", "main", head + 1).status().code() == Status::Code::kInvalidArgument);
  CHECK(ledger::TreeInclusion(db, "g", "main", 0, head).status().code() == Status::Code::kInvalidArgument);
  CHECK(ledger::TreeInclusion(db, "g", "main", head, head - 1).status().code() == Status::Code::kInvalidArgument);
  const std::vector<uint64_t> unordered{5, 3};
  CHECK(ledger::TreeMultiProof(db, "g", "main", unordered, head).status().code() == Status::Code::kInvalidArgument);
  CHECK(ledger::TreeConsistency(db, "g", "main", 0, head).status().code() == Status::Code::kInvalidArgument);
  CHECK(ledger::TreeConsistency(db, "g", "main", head, head - 1).status().code() == Status::Code::kInvalidArgument);
  CHECK_FALSE(ledger::TreeRoot(db, "g", "nobranch", 1).ok());
}
