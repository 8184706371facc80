// Idempotency keys are their sender's (issue 17, item 3): a player who
// sends a key first cannot make another player's, or the GA's, request
// with the same key fail; a key reused by its own sender for another
// request is still a conflict.
#include <catch2/catch.hpp>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/scenario_generated.h"
#include "support/raw_db.h"
#include "support/desk_client.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;

std::vector<uint8_t> Orders(int move, const std::string& side) {
  auto o = schema::ParseJson("OrderFile", Slurp(F + "/orders/dog-talavera/m" + std::to_string(move) + "-" + side + ".orders.json"), "o");
  REQUIRE(o.ok());
  return *o;
}

std::unique_ptr<ledger::Ledger> Battle(const std::string& dir) {
  auto db = ledger::Ledger::Open(dir);
  REQUIRE(db.ok());
  REQUIRE(testing::CreateTalavera(**db, "b", false).ok());
  return std::move(db).value();
}

}  // namespace

TEST_CASE("idempotency keys: another's use of my key is another key — my own reuse for another request is a conflict",
          "[replay][idempotency]") {
  TempDir dir;
  auto db = Battle(dir.Sub("db"));
  // The French general takes the key first (a guess, or a copy of the
  // British general's script).
  auto french = replay::SubmitOrders(*db, "b", "main", "victor", Orders(1, "French"), {.idempotency_key = "m1-British"});
  REQUIRE(french.ok());
  CHECK_FALSE(french->append.replayed);
  // The British general's orders under "his" key are recorded, not refused.
  auto british = replay::SubmitOrders(*db, "b", "main", "wellesley", Orders(1, "British"), {.idempotency_key = "m1-British"});
  INFO(british.status().message());
  REQUIRE(british.ok());
  CHECK_FALSE(british->append.replayed);
  CHECK(british->append.first_seq > french->append.last_seq);
  // Each one's retry is answered from his own record.
  auto retry = replay::SubmitOrders(*db, "b", "main", "wellesley", Orders(1, "British"), {.idempotency_key = "m1-British"});
  REQUIRE(retry.ok());
  CHECK(retry->append.replayed);
  CHECK(retry->append.first_seq == british->append.first_seq);
  // The GA's adjudication under the same key runs too.
  auto adj = replay::Adjudicate(*db, "b", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr,
                                "m1-British");
  INFO(adj.status().message());
  REQUIRE(adj.ok());
  CHECK_FALSE(adj->front().replayed);
  // His own key for another request is still refused, and records nothing.
  const uint64_t head = db->HeadOf("b", "main")->seq;
  auto other = replay::SubmitOrders(*db, "b", "main", "wellesley", Orders(2, "British"), {.idempotency_key = "m1-British"});
  REQUIRE_FALSE(other.ok());
  CHECK(other.status().code() == Status::Code::kConflict);
  CHECK(db->HeadOf("b", "main")->seq == head);
  // The ledger keeps them apart.
  auto mine = db->FindIdempotent("b", ledger::IdempotencyOwner(ActorKind::kPlayer, "wellesley"), "m1-British");
  auto his = db->FindIdempotent("b", ledger::IdempotencyOwner(ActorKind::kPlayer, "victor"), "m1-British");
  REQUIRE(mine.ok());
  REQUIRE(his.ok());
  REQUIRE(mine->has_value());
  REQUIRE(his->has_value());
  CHECK((*mine)->result.first_seq != (*his)->result.first_seq);
}

TEST_CASE("idempotency keys recorded before keys had owners count only for the sender of the batch they recorded",
          "[replay][idempotency]") {
  TempDir dir;
  uint64_t first_seq = 0;
  {
    auto db = Battle(dir.Sub("db"));
    auto british = replay::SubmitOrders(*db, "b", "main", "wellesley", Orders(1, "British"), {.idempotency_key = "k"});
    REQUIRE(british.ok());
    first_seq = british->append.first_seq;
  }
  REQUIRE(testing::MakeIdempotencyKeyLegacy(dir.Sub("db"), "b", ledger::IdempotencyOwner(ActorKind::kPlayer, "wellesley"), "k"));
  auto db = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(db.ok());
  auto retry = replay::SubmitOrders(**db, "b", "main", "wellesley", Orders(1, "British"), {.idempotency_key = "k"});
  REQUIRE(retry.ok());
  CHECK(retry->append.replayed);
  CHECK(retry->append.first_seq == first_seq);
  auto french = replay::SubmitOrders(**db, "b", "main", "victor", Orders(1, "French"), {.idempotency_key = "k"});
  REQUIRE(french.ok());
  CHECK_FALSE(french->append.replayed);
}
