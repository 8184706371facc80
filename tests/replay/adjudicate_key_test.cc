// A GA's adjudication retried under an idempotency key (a lost answer, a
// crash): a phase or a turn already adjudicated is answered, not run again;
// a turn a crash cut short is finished, and the log is then exactly the one
// an uninterrupted adjudication makes.
#include <catch2/catch.hpp>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;

std::unique_ptr<ledger::Ledger> NwolGame(const std::string& dir) {
  auto l = ledger::Ledger::Open(dir);
  REQUIRE(l.ok());
  REQUIRE(testing::CreateNwolGame(**l, "nwol", Slurp(F + "/scenarios/nwol-1805.json")).ok());
  return std::move(l).value();
}

uint64_t Head(ledger::Ledger& db) {
  auto h = db.HeadOf("nwol", "main");
  REQUIRE(h.ok());
  return h->seq;
}

}  // namespace

TEST_CASE("adjudicate --key: a phase retried under its key is answered, not adjudicated again", "[replay][idempotency]") {
  TempDir dir;
  auto db = NwolGame(dir.Sub("db"));
  auto first = replay::Adjudicate(*db, "nwol", "main", replay::AdjudicateMode::kPhase, 1, std::nullopt, nullptr, nullptr,
                                  "ga-1805.1.1-p1");
  REQUIRE(first.ok());
  REQUIRE(first->size() == 1);
  CHECK_FALSE((*first)[0].replayed);
  const uint64_t head = Head(*db);
  auto again = replay::Adjudicate(*db, "nwol", "main", replay::AdjudicateMode::kPhase, 1, std::nullopt, nullptr,
                                  nullptr, "ga-1805.1.1-p1");
  REQUIRE(again.ok());
  REQUIRE(again->size() == 1);
  CHECK((*again)[0].replayed);
  CHECK((*again)[0].first_seq == (*first)[0].first_seq);
  CHECK((*again)[0].last_seq == (*first)[0].last_seq);
  CHECK((*again)[0].name == (*first)[0].name);
  CHECK((*again)[0].at == (*first)[0].at);
  CHECK(Head(*db) == head);  // nothing recorded
  // The same key for another request is a conflict, and records nothing.
  auto other = replay::Adjudicate(*db, "nwol", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr,
                                  "ga-1805.1.1-p1");
  REQUIRE_FALSE(other.ok());
  CHECK(other.status().code() == Status::Code::kConflict);
  CHECK(Head(*db) == head);
  // A new key adjudicates the next phase.
  auto next = replay::Adjudicate(*db, "nwol", "main", replay::AdjudicateMode::kPhase, 1, std::nullopt, nullptr, nullptr,
                                 "ga-1805.1.1-p2");
  REQUIRE(next.ok());
  CHECK_FALSE((*next)[0].replayed);
  CHECK(Head(*db) > head);
}

TEST_CASE("adjudicate --key: a turn cut short by a crash is finished by the retry, and the log equals an "
          "uninterrupted turn's — a second retry records nothing",
          "[replay][idempotency]") {
  TempDir dir;
  auto reference = NwolGame(dir.Sub("reference"));
  auto whole = replay::Adjudicate(*reference, "nwol", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr,
                                  nullptr, "ga-turn-1");  // (the key is in the events' envelopes)
  REQUIRE(whole.ok());
  REQUIRE(whole->size() > 2);
  // The crashed run: its first two phases were recorded (the key goes with
  // the turn's last phase, so it is not there yet), then the process died.
  auto db = NwolGame(dir.Sub("crashed"));
  for (int i = 0; i < 2; ++i) REQUIRE(replay::Adjudicate(*db, "nwol", "main", replay::AdjudicateMode::kPhase).ok());
  auto retry = replay::Adjudicate(*db, "nwol", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr,
                                  "ga-turn-1");
  REQUIRE(retry.ok());
  CHECK(retry->size() == whole->size() - 2);  // only the rest of the turn
  for (const auto& p : *retry) CHECK_FALSE(p.replayed);
  auto a = reference->HeadOf("nwol", "main");
  auto b = db->HeadOf("nwol", "main");
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->seq == b->seq);
  CHECK(a->hash == b->hash);
  // Retried again (its answer lost too): answered from the key.
  auto twice = replay::Adjudicate(*db, "nwol", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr,
                                  "ga-turn-1");
  REQUIRE(twice.ok());
  REQUIRE(twice->size() == 1);
  CHECK((*twice)[0].replayed);
  CHECK((*twice)[0].last_seq == b->seq);
  CHECK(Head(*db) == b->seq);
}

TEST_CASE("adjudicate --key with more than one turn is refused: a retry could not tell where it stopped",
          "[replay][idempotency]") {
  TempDir dir;
  auto db = NwolGame(dir.Sub("db"));
  const uint64_t head = Head(*db);
  auto r = replay::Adjudicate(*db, "nwol", "main", replay::AdjudicateMode::kTurn, 2, std::nullopt, nullptr, nullptr,
                              "ga-two-turns");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == Status::Code::kInvalidArgument);
  CHECK(Head(*db) == head);
}

TEST_CASE("adjutant adjudicate --key: the retry says it was already adjudicated and records nothing",
          "[cli][idempotency]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  REQUIRE(testing::Adjutant({"--db", db, "new", "talavera", "--scenario", F + "/dog/talavera-brigade.json", "--seed", "1809"})
              .code == 0);
  auto first = testing::Adjutant({"--db", db, "adjudicate", "talavera", "--phase", "--key", "move-1"});
  REQUIRE(first.code == 0);
  CHECK_THAT(first.out, !Catch::Contains("already adjudicated"));
  auto again = testing::Adjutant({"--db", db, "adjudicate", "talavera", "--phase", "--key", "move-1", "--json"});
  REQUIRE(again.code == 0);
  CHECK_THAT(again.out, Catch::Contains("\"replayed\": true"));
  auto text = testing::Adjutant({"--db", db, "adjudicate", "talavera", "--phase", "--key", "move-1"});
  CHECK_THAT(text.out, Catch::Contains("already adjudicated under key move-1"));
  auto refused = testing::Adjutant({"--db", db, "adjudicate", "talavera", "--turns", "2", "--key", "two"});
  CHECK(refused.code != 0);
  CHECK_THAT(refused.err, Catch::Contains("--key"));
  // One move adjudicated in all.
  auto status = testing::Adjutant({"--db", db, "report", "battle", "talavera", "--json"});
  REQUIRE(status.code == 0);
  CHECK_THAT(status.out, Catch::Contains("\"move\": 1,"));
}
