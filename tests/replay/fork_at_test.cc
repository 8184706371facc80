// Forking at a turn or a phase (issue 5): the branch point, the orders of
// that turn carried over on request, the same dice — so the same orders give
// the same game — and audits of the new branch, whose early events are its
// parent's.
#include <catch2/catch.hpp>

#include "ledger/ledger.h"
#include "replay/audit.h"
#include "replay/driver.h"
#include "replay/fork.h"
#include "replay/views.h"
#include "rules/sow/calendar.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;

namespace {

struct Game : NwolDb {
  Game() : NwolDb(11) {
    Ship("BR2SL", R"("sea1": "NOS")");
    REQUIRE(Turns(*db, "g", 1).ok());
    Ship("BR2SL", R"("sea1": "ECH", "sea2": "BIS")");
    Ship("FR1FR", R"("sea1": "WAP")", "villeneuve");
    REQUIRE(Turns(*db, "g", 1).ok());
  }
  void Ship(const std::string& id, const std::string& fields, const std::string& person = "nelson",
            const std::string& branch = "main") {
    auto r = Order(*db, "g", person, OrderFile({PateItem("ShipOrders", "{\"ship\": \"" + id + "\", " + fields + "}")}), branch);
    REQUIRE(r.ok());
  }
};

}  // namespace

TEST_CASE("fork at a turn: with its orders carried over and the same dice, the same game", "[fork]") {
  Game g;
  auto point = replay::ForkPoint(*g.db, "g", "main", TurnPhase{Turn{1805, 1, 2}, 0});
  REQUIRE(point.ok());
  REQUIRE(g.db->Fork("g", "main", *point, "again", std::nullopt, Actor{}).ok());
  auto carried = replay::CarryOrders(*g.db, "g", "main", "again", *point, Turn{1805, 1, 2});
  REQUIRE(carried.ok());
  CHECK(*carried == 2);
  REQUIRE(Turns(*g.db, "g", 1, "again").ok());
  NwolState a = Nwol(*g.db, "g", "main"), b = Nwol(*g.db, "g", "again");
  for (const auto& [id, sh] : a.ships) {
    INFO(id);
    REQUIRE(b.ships.count(id));
    CHECK(b.ships.at(id).location == sh.location);
    CHECK(b.ships.at(id).tactical == sh.tactical);
    CHECK(b.ships.at(id).stores == sh.stores);
  }
  CHECK(a.states.at("BR").treasury_cc == b.states.at("BR").treasury_cc);
  // Every turn of the fork audits as identical, its parent's included.
  for (const Turn& t : {Turn{1805, 1, 1}, Turn{1805, 1, 2}}) {
    auto r = replay::AuditTurn(*g.db, "g", "again", t);
    REQUIRE(r.ok());
    INFO(t.ToString() << ": " << r->reason << " at " << r->seq);
    CHECK(r->identical);
  }
}

TEST_CASE("fork at a turn without its orders: the ships keep their defaults", "[fork]") {
  Game g;
  auto point = replay::ForkPoint(*g.db, "g", "main", TurnPhase{Turn{1805, 1, 2}, 0});
  REQUIRE(point.ok());
  REQUIRE(g.db->Fork("g", "main", *point, "quiet", std::nullopt, Actor{}).ok());
  REQUIRE(Turns(*g.db, "g", 1, "quiet").ok());
  NwolState before = Nwol(*g.db, "g", "main");
  NwolState q = Nwol(*g.db, "g", "quiet");
  // On main BR2SL sailed on in turn 2; here she had no orders.
  CHECK(q.ships.at("BR2SL").location == "NOS");
  CHECK(before.ships.at("BR2SL").location != "NOS");
}

TEST_CASE("fork at a phase: the point is just before it", "[fork]") {
  Game g;
  auto point = replay::ForkPoint(*g.db, "g", "main", TurnPhase{Turn{1805, 1, 2}, rules::sow::kMovement});
  REQUIRE(point.ok());
  REQUIRE(g.db->Fork("g", "main", *point, "premove", std::nullopt, Actor{}).ok());
  P::TreasuryState s = Treasury(*g.db, "g", "premove");
  CHECK(s.turn == Turn{1805, 1, 2});
  CHECK(s.phase_done == rules::sow::kMovement - 1);
  CHECK_FALSE(replay::ForkPoint(*g.db, "g", "main", TurnPhase{Turn{1805, 1, 9}, 0}).ok());
}

TEST_CASE("adjutant fork --at TURN[.PHASE] [--with-orders]", "[fork][cli]") {
  Game g;
  std::string db = g.dir.Sub("db");
  g.db.reset();
  Run r = Adjutant({"--db", db, "fork", "g", "--at", "1805.1.2", "--name", "again", "--with-orders"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("(before turn 1805.1.2)") && Catch::Contains("2 order(s) of that turn carried over"));
  r = Adjutant({"--db", db, "fork", "g", "--at", "1805.1.2.9", "--name", "premove"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("(before phase 9 of turn 1805.1.2)"));
  CHECK(Adjutant({"--db", db, "fork", "g", "--at", "1805.x", "--name", "bad"}).code == 2);
  CHECK(Adjutant({"--db", db, "fork", "g", "--from", "main@3", "--name", "bad", "--with-orders"}).code == 2);
  CHECK(Adjutant({"--db", db, "fork", "g", "--from", "main@3", "--at", "1805.1.2", "--name", "bad"}).code == 2);
  CHECK(Adjutant({"--db", db, "audit", "g", "--branch", "again", "--turn", "1805.1.1"}).code == 0);
}

TEST_CASE("fork at the first turn: the point is just after the game's creation (GameCreated, the map)", "[fork]") {
  NwolDb g;
  auto p = replay::ForkPoint(*g.db, "g", "main", TurnPhase{Turn{1805, 1, 1}, 0});
  REQUIRE(p.ok());
  CHECK(*p == 2);  // GameCreated, MapDefined
  REQUIRE(Order(*g.db, "g", "nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "NOS"})")})).ok());
  REQUIRE(Turns(*g.db, "g", 1).ok());
  auto again = replay::ForkPoint(*g.db, "g", "main", TurnPhase{Turn{1805, 1, 1}, 0});
  REQUIRE(again.ok());
  CHECK(*again == 2);  // before the turn's orders
  REQUIRE(g.db->Fork("g", "main", *again, "start", std::nullopt, Actor{ActorKind::kGameAdministrator, "", ""}).ok());
  REQUIRE(replay::CarryOrders(*g.db, "g", "main", "start", *again, Turn{1805, 1, 1}).ok());
  REQUIRE(Turns(*g.db, "g", 1, "start").ok());
  auto a = replay::Fold(*g.db, "g", "main");
  auto b = replay::Fold(*g.db, "g", "start");
  REQUIRE((a.ok() && b.ok()));
  CHECK(replay::Compare(replay::Flatten(*a), replay::Flatten(*b)).empty());  // the same orders and dice
}
