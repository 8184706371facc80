// Turn digests (issue 5): a BLAKE2b digest of the log up to the end of a
// turn, published by the GA, still matches after later turns are played; a
// different history has a different digest; the command line checks one.
#include <catch2/catch.hpp>

#include "ledger/ledger.h"
#include "replay/digest.h"
#include "replay/driver.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

TEST_CASE("turn digests: stable as the game goes on, different for a different history", "[digest]") {
  TempDir dir;
  auto a = ledger::Ledger::Open(dir.Sub("a"));
  REQUIRE(a.ok());
  REQUIRE(CreateNwolGame(**a, "g", PateScenario(), 5).ok());
  // Not over yet: refused.
  auto early = replay::DigestTurn(**a, "g", "main", Turn{1805, 1, 1});
  CHECK_FALSE(early.ok());
  REQUIRE(Turns(**a, "g", 1).ok());
  auto d1 = replay::DigestTurn(**a, "g", "main", Turn{1805, 1, 1});
  REQUIRE(d1.ok());
  CHECK(d1->hex.size() == 64);
  CHECK(d1->events == d1->last_seq);
  // The next turn played: turn 1's digest does not move.
  REQUIRE(Turns(**a, "g", 1).ok());
  auto again = replay::DigestTurn(**a, "g", "main", Turn{1805, 1, 1});
  REQUIRE(again.ok());
  CHECK(again->hex == d1->hex);
  CHECK(again->last_seq == d1->last_seq);
  auto d2 = replay::DigestTurn(**a, "g", "main", Turn{1805, 1, 2});
  REQUIRE(d2.ok());
  CHECK(d2->hex != d1->hex);
  // Another game with other dice: another history, another digest.
  auto b = ledger::Ledger::Open(dir.Sub("b"));
  REQUIRE(b.ok());
  REQUIRE(CreateNwolGame(**b, "g", PateScenario(), 6).ok());
  REQUIRE(Turns(**b, "g", 1).ok());
  auto other = replay::DigestTurn(**b, "g", "main", Turn{1805, 1, 1});
  REQUIRE(other.ok());
  CHECK(other->hex != d1->hex);
}

TEST_CASE("adjutant digest and verify --digest", "[digest][cli]") {
  TempDir dir;
  std::string db = dir.Sub("db");
  {
    auto l = ledger::Ledger::Open(db);
    REQUIRE(l.ok());
    REQUIRE(CreateNwolGame(**l, "g", PateScenario()).ok());
    REQUIRE(Turns(**l, "g", 1).ok());
  }
  Run d = Adjutant({"--db", db, "digest", "g", "--turn", "1805.1.1"});
  REQUIRE(d.code == 0);
  std::string hex = d.out.substr(0, 64);
  Run ok = Adjutant({"--db", db, "verify", "g", "--turn", "1805.1.1", "--digest", hex});
  CHECK(ok.code == 0);
  CHECK_THAT(ok.out, Catch::Contains("matches its digest"));
  std::string wrong = hex;
  wrong[0] = wrong[0] == '0' ? '1' : '0';
  Run bad = Adjutant({"--db", db, "verify", "g", "--turn", "1805.1.1", "--digest", wrong});
  CHECK(bad.code == 3);
  CHECK_THAT(bad.err, Catch::Contains("no longer matches digest"));
  CHECK(Adjutant({"--db", db, "verify", "g", "--digest", hex}).code == 2);
  CHECK(Adjutant({"--db", db, "digest", "g", "--turn", "1805.1.2"}).code != 0);
}
