// Committed dice (issue 5): the GA commits to a turn's salt before it, the
// turn is adjudicated with it, he reveals it after; the commitment and every
// roll of the turn can then be checked — and rolls made otherwise are found.
#include <catch2/catch.hpp>

#include "ledger/ledger.h"
#include "replay/audit.h"
#include "replay/dice_commit.h"
#include "replay/driver.h"
#include "rules/sow/calendar.h"
#include "schema/codec.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

Result<ledger::AppendResult> DiceDirective(ledger::Ledger& db, const std::string& kind, const Turn& t,
                                           const std::string& field, const std::string& value) {
  std::string json = "{\"reason\": \"dice\", \"body_type\": \"" + kind + "\", \"body\": {\"turn\": {\"major\": " +
                     std::to_string(t.major) + ", \"minor\": " + std::to_string(t.minor) + ", \"step\": " +
                     std::to_string(t.step) + "}, \"" + field + "\": \"" + value + "\"}}";
  auto buf = schema::ParseJson("DirectiveFile", json, "dice");
  if (!buf.ok()) return buf.status();
  return replay::RecordDirective(db, "g", "main", *buf);
}

}  // namespace

TEST_CASE("committed dice: commit, adjudicate with the salt, reveal, verify every roll", "[dice-commit]") {
  NwolDb game(9);  // game g on the bundled map
  auto& db = *game.db;
  const Turn t{1805, 1, 1};
  const std::string salt = replay::NewSalt();
  auto commitment = replay::CommitmentOf(salt);
  REQUIRE(commitment.ok());
  CHECK(commitment->size() == 64);
  CHECK_FALSE(replay::CommitmentOf("xyz").ok());
  REQUIRE(DiceDirective(db, "CommitDice", t, "commitment", *commitment).ok());
  CHECK_FALSE(DiceDirective(db, "CommitDice", t, "commitment", *commitment).ok());  // once
  // Without the salt, or with another, the turn is not adjudicated; nothing is written.
  uint64_t head = db.HeadOf("g", "main")->seq;
  CHECK_FALSE(replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn).ok());
  CHECK_FALSE(replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn, 1, replay::NewSalt()).ok());
  CHECK(db.HeadOf("g", "main")->seq == head);
  // Not revealed before the turn is over.
  CHECK_FALSE(DiceDirective(db, "RevealDice", t, "salt", salt).ok());
  REQUIRE(replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn, 1, salt).ok());
  // Audit waits for the reveal; the wrong salt is not accepted as one.
  CHECK_FALSE(replay::AuditTurn(db, "g", "main", t).ok());
  CHECK_FALSE(DiceDirective(db, "RevealDice", t, "salt", replay::NewSalt()).ok());
  REQUIRE(DiceDirective(db, "RevealDice", t, "salt", salt).ok());
  auto check = replay::VerifyTurnDice(db, "g", "main", t);
  REQUIRE(check.ok());
  CHECK(check->ok);
  CHECK(check->rolls > 30);  // the winds of every sea area, at least
  auto audit = replay::AuditTurn(db, "g", "main", t);
  REQUIRE(audit.ok());
  CHECK(audit->identical);
  // Too late to commit to a turn already played.
  CHECK_FALSE(DiceDirective(db, "CommitDice", t, "commitment", *commitment).ok());
}

TEST_CASE("committed dice: rolls made with another salt are found", "[dice-commit]") {
  NwolDb game(9);  // game g on the bundled map
  auto& db = *game.db;
  const Turn t{1805, 1, 1};
  // A fixed salt: with a random one the first wind roll of the two dice
  // could agree by chance (one in six), and the first difference come later.
  const std::string salt = "5a1e" + std::string(60, '7');
  REQUIRE(DiceDirective(db, "CommitDice", t, "commitment", *replay::CommitmentOf(salt)).ok());
  for (int i = 0; i < 8; ++i) {
    REQUIRE(replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kPhase, 1, salt).ok());
  }
  // The movement phase rolled with the branch's dice alone: not the committed ones.
  auto w = replay::Fold(db, "g", "main");
  REQUIRE(w.ok());
  auto next = *replay::NextPhaseOf(*w);
  uint64_t h = w->head.seq;
  rules::PhaseWriter pw("g", "main", h, std::move(w->projections));
  auto plain = replay::BranchDice(db, "g", "main");
  REQUIRE(plain.ok());
  REQUIRE(replay::RunPhaseInto(pw, next, *plain).ok());
  auto drafts = pw.TakeDrafts();
  REQUIRE(db.Append("g", "main", h, drafts).ok());
  REQUIRE(replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn, 1, salt).ok());
  REQUIRE(DiceDirective(db, "RevealDice", t, "salt", salt).ok());
  auto check = replay::VerifyTurnDice(db, "g", "main", t);
  REQUIRE(check.ok());
  CHECK_FALSE(check->ok);
  CHECK(check->bad_seq == h + 2);  // the first wind roll of the movement phase
}

TEST_CASE("adjutant dice-commit, adjudicate --dice-salt-file, dice-reveal, verify --dice", "[dice-commit][cli]") {
  TempDir dir;
  std::string db = dir.Sub("db");
  {
    auto l = ledger::Ledger::Open(db);
    REQUIRE(l.ok());
    REQUIRE(CreateNwolGame(**l, "g", PateScenario(), 9).ok());
  }
  std::string salt = dir.Sub("salt");
  Run c = Adjutant({"--db", db, "dice-commit", "g", "--turn", "1805.1.1", "--salt-file", salt});
  CHECK(c.code == 0);
  CHECK_THAT(c.out, Catch::Contains("committed to the dice of turn 1805.1.1"));
  CHECK(Adjutant({"--db", db, "adjudicate", "g"}).code == 2);
  CHECK(Adjutant({"--db", db, "adjudicate", "g", "--dice-salt-file", salt}).code == 0);
  CHECK(Adjutant({"--db", db, "verify", "g", "--turn", "1805.1.1", "--dice"}).code != 0);  // not revealed yet
  CHECK(Adjutant({"--db", db, "dice-reveal", "g", "--turn", "1805.1.1", "--salt-file", salt}).code == 0);
  Run v = Adjutant({"--db", db, "verify", "g", "--turn", "1805.1.1", "--dice"});
  CHECK(v.code == 0);
  CHECK_THAT(v.out, Catch::Contains("revealed salt matches its commitment"));
  CHECK(Adjutant({"--db", db, "audit", "g", "--all"}).code == 0);
}
