// Views flattened, compared and replayed (issue 5: `adjutant diff`,
// `adjutant replay`): the first sequence number where two branches part,
// and every field that differs between them at a turn.
#include <catch2/catch.hpp>

#include "ledger/ledger.h"
#include "replay/driver.h"
#include "replay/fork.h"
#include "replay/views.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

TEST_CASE("views: compare reports every differing, missing and extra field", "[views]") {
  std::map<replay::ViewKey, std::string> a = {{{"fleet", "BR1FL", "where"}, "ECH area 1"},
                                               {{"fleet", "BR2SL", "where"}, "NOS area 2"},
                                               {{"treasury", "BR", "balance"}, "100.00 Cr"}};
  std::map<replay::ViewKey, std::string> b = {{{"fleet", "BR1FL", "where"}, "ECH area 3"},
                                               {{"treasury", "BR", "balance"}, "100.00 Cr"},
                                               {{"treasury", "FR", "balance"}, "5.00 Cr"}};
  auto d = replay::Compare(a, b);
  REQUIRE(d.size() == 3);
  CHECK(d[0].key == replay::ViewKey{"fleet", "BR1FL", "where"});
  CHECK(d[0].a == "ECH area 1");
  CHECK(d[0].b == "ECH area 3");
  CHECK(d[1].b.empty());  // BR2SL only in a
  CHECK(d[2].a.empty());  // FR only in b
  CHECK(replay::Compare(a, a).empty());
}

TEST_CASE("views: where two branches part, and what differs at a turn", "[views]") {
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  auto& db = **l;
  REQUIRE(CreateNwolGame(db, "g", PateScenario(), 3).ok());
  REQUIRE(Turns(db, "g", 1).ok());
  auto point = replay::ForkPoint(db, "g", "main", TurnPhase{Turn{1805, 1, 2}, 0});
  REQUIRE(point.ok());
  REQUIRE(db.Fork("g", "main", *point, "other", std::nullopt, Actor{}).ok());
  // The same history so far, but for the fork's own first event.
  auto parted = replay::FirstParting(db, "g", "main", "other");
  REQUIRE(parted.ok());
  CHECK(*parted == *point + 1);
  CHECK(*replay::FirstParting(db, "g", "main", "main") == 0);
  // Turn 2 differs: BR2SL sails on main only.
  REQUIRE(Order(db, "g", "nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "NOS"})")})).ok());
  REQUIRE(Turns(db, "g", 1).ok());
  REQUIRE(Turns(db, "g", 1, "other").ok());
  auto wa = replay::Fold(db, "g", "main");
  auto wb = replay::Fold(db, "g", "other");
  REQUIRE(wa.ok());
  REQUIRE(wb.ok());
  auto fa = replay::Flatten(*wa), fb_ = replay::Flatten(*wb);
  CHECK(fa.at({"fleet", "BR2SL", "where"}).rfind("NOS", 0) == 0);
  CHECK(fb_.at({"fleet", "BR2SL", "where"}).rfind("ECH", 0) == 0);
  bool where = false;
  for (const auto& d : replay::Compare(fa, fb_)) where = where || d.key == replay::ViewKey{"fleet", "BR2SL", "where"};
  CHECK(where);
}

TEST_CASE("adjutant diff and adjutant replay", "[views][cli]") {
  TempDir dir;
  std::string db = dir.Sub("db");
  {
    auto l = ledger::Ledger::Open(db);
    REQUIRE(l.ok());
    REQUIRE(CreateNwolGame(**l, "g", PateScenario(), 3).ok());
    REQUIRE(Turns(**l, "g", 1).ok());
  }
  REQUIRE(Adjutant({"--db", db, "fork", "g", "--at", "1805.1.1.9", "--name", "b", "--reseed"}).code == 0);
  REQUIRE(Adjutant({"--db", db, "adjudicate", "g", "--branch", "b"}).code == 0);
  Run d = Adjutant({"--db", db, "diff", "g", "main", "b", "--view", "fleet"});
  CHECK(d.code == 0);
  CHECK_THAT(d.out, Catch::Contains("g: main and b part at seq"));
  Run j = Adjutant({"--db", db, "diff", "g", "main", "b", "--json"});
  CHECK(j.code == 0);
  CHECK_THAT(j.out, Catch::Contains("\"parted_at\": "));
  Run r = Adjutant({"--db", db, "replay", "g", "--to", "1805.1.1", "--view", "treasury"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("treasury  BR  balance: "));
  CHECK(Adjutant({"--db", db, "replay", "g", "--to", "1805.1.1", "--view", "nonsense"}).code == 2);
  CHECK(Adjutant({"--db", db, "replay", "g"}).code == 2);
}
