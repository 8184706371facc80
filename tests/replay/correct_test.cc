// Correcting history without rewriting it (issue 5). The real case: a ship
// lost to an error in turn 2 is restored by correcting at turn 2; the
// corrected branch continues from the restored state with the orders the
// players gave, and the old branch stays as it was.
#include <catch2/catch.hpp>

#include <set>

#include "ledger/ledger.h"
#include "replay/audit.h"
#include "replay/correct.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

const char* kRuling =
    R"({"reason": "BR2SL was struck off in error", "body_type": "Ruling", "body": {"text": "BR2SL was never lost"}})";

struct Game : NwolDb {
  uint64_t lose_seq = 0;  // the erroneous directive
  Game() : NwolDb(21) {
    REQUIRE(Turns(*db, "g", 1).ok());
    // Turn 2: the error — BR2SL struck off — and the players' orders.
    auto lose = Directive(*db, "g", "LoseShip", R"({"ship": "BR2SL", "crew_returning": 0, "storm": true})");
    REQUIRE(lose.ok());
    lose_seq = lose->first_seq;
    REQUIRE(Order(*db, "g", "villeneuve", OrderFile({PateItem("ShipOrders", R"({"ship": "FR1FR", "sea1": "NOS"})")})).ok());
    REQUIRE(Turns(*db, "g", 1).ok());
    // Turn 3: Nelson orders BR2SL — refused on this branch, she is gone.
    auto r = Order(*db, "g", "nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "BIS"})")}));
    REQUIRE(r.ok());
    REQUIRE(r->orders.at(0).status == "rejected");
    REQUIRE(Turns(*db, "g", 1).ok());
  }
};

std::vector<uint8_t> File(const std::string& json) {
  auto buf = schema::ParseJson("DirectiveFile", json, "correction");
  REQUIRE(buf.ok());
  return *buf;
}

}  // namespace

TEST_CASE("correct: a ship lost in error is restored and the campaign continues", "[correct]") {
  Game g;
  auto r = replay::Correct(*g.db, "g", "main", TurnPhase{Turn{1805, 1, 2}, 0}, File(kRuling), "fixed", {g.lose_seq});
  INFO((r.ok() ? "" : r.status().message()));
  REQUIRE(r.ok());
  CHECK(r->inputs == 2);                          // the orders of turns 2 and 3
  CHECK(r->directives_left_out == std::vector<uint64_t>{g.lose_seq});  // the LoseShip, left out
  CHECK(r->directives_carried.empty());
  CHECK(r->phases == 22);                        // turns 2 and 3, eleven phases each
  auto fixed = Nwol(*g.db, "g", "fixed");
  auto old = Nwol(*g.db, "g", "main");
  CHECK(fixed.turn == old.turn);
  CHECK(fixed.phase_done == old.phase_done);
  REQUIRE(fixed.ships.count("BR2SL"));           // restored
  CHECK_FALSE(old.ships.count("BR2SL"));         // the old branch as it was
  CHECK(fixed.ships.at("FR1FR").location == old.ships.at("FR1FR").location);  // same orders, same dice
  // Nelson's turn-3 order now stands: no refusal names it.
  uint64_t nelson = 0;
  std::set<uint64_t> refused;
  REQUIRE(g.db->Read("g", "fixed", r->fork_seq + 1, UINT64_MAX, [&](const ledger::EventView& e) {
    if (auto* rej = e.event()->payload_as_OrderRejected()) refused.insert(rej->order_seq());
    if (auto* o = e.event()->payload_as_OrderSubmitted(); o && o->person()->str() == "nelson") nelson = e.seq;
    return Status::Ok();
  }).ok());
  REQUIRE(nelson != 0);
  CHECK_FALSE(refused.count(nelson));
  // The corrected branch audits as identical, turn by turn.
  for (const Turn& t : {Turn{1805, 1, 2}, Turn{1805, 1, 3}}) {
    auto a = replay::AuditTurn(*g.db, "g", "fixed", t);
    REQUIRE(a.ok());
    CHECK(a->identical);
  }
}

TEST_CASE("correct: a correction that breaks the rules is refused and nothing is written", "[correct]") {
  Game g;
  auto branches = g.db->Branches("g");
  REQUIRE(branches.ok());
  auto bad = replay::Correct(*g.db, "g", "main", TurnPhase{Turn{1805, 1, 2}, 0},
                             File(R"({"reason": "x", "body_type": "SowDirective", "body": {"body_type": "SetCityControl", "body": {"city": "Atlantis", "controller": "BR"}}})"),
                             "fixed");
  CHECK_FALSE(bad.ok());
  auto after = g.db->Branches("g");
  REQUIRE(after.ok());
  CHECK(after->size() == branches->size());
  // Dice commitments and passwords are not corrections: refused before the
  // fork, so no half-made branch is left behind.
  for (const char* json :
       {R"({"reason": "x", "body_type": "CommitDice", "body": {"turn": {"major": 1805, "minor": 1, "step": 2}, "commitment": "00"}})",
        R"({"reason": "x", "body_type": "SetPassword", "body": {"person": "nelson", "pwhash": "x"}})"}) {
    auto r = replay::Correct(*g.db, "g", "main", TurnPhase{Turn{1805, 1, 2}, 0}, File(json), "fixed2");
    INFO(json);
    CHECK_FALSE(r.ok());
    CHECK(r.status().code() == Status::Code::kInvalidArgument);
    CHECK(g.db->Branches("g")->size() == branches->size());
  }
  CHECK(*g.db->Current("g") == "main");
}

TEST_CASE("adjutant correct", "[correct][cli]") {
  Game g;
  std::string db = g.dir.Sub("db");
  g.db.reset();
  std::string file = g.dir.Sub("ruling.json");
  {
    FILE* f = std::fopen(file.c_str(), "w");
    REQUIRE(f);
    std::fputs(kRuling, f);
    std::fclose(f);
  }
  Run r = Adjutant({"--db", db, "correct", "g", "--at", "1805.1.2", "--directive", file, "--leave-out",
                    std::to_string(g.lose_seq)});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("corrected g: branch main-corrected leaves main") &&
                        Catch::Contains("left out: the GA's later directives on main (seq " + std::to_string(g.lose_seq) +
                                        ")"));
  // The corrected branch is the game's current one: commands use it unless told.
  CHECK_THAT(Adjutant({"--db", db, "branches", "g"}).out, Catch::Contains("main-corrected") &&
                                                             Catch::Contains("(current)"));
  CHECK_THAT(Adjutant({"--db", db, "report", "fleet", "g"}).out, Catch::Contains("BR2SL"));
  CHECK_THAT(Adjutant({"--db", db, "report", "fleet", "g", "--branch", "main"}).out, !Catch::Contains("BR2SL"));
  CHECK_THAT(Adjutant({"--db", db, "log", "g", "--kind", "BranchForked"}).out, Catch::Contains("from main@"));
  Run back = Adjutant({"--db", db, "branches", "g", "--make-current", "main"});
  CHECK(back.code == 0);
  CHECK_THAT(Adjutant({"--db", db, "report", "fleet", "g"}).out, !Catch::Contains("BR2SL"));
  CHECK(Adjutant({"--db", db, "branches", "g", "--make-current", "nowhere"}).code == 2);
  CHECK(Adjutant({"--db", db, "correct", "g", "--at", "1805.1.2"}).code == 2);
}

TEST_CASE("adjutant correct: a correction that ends the campaign stops where the later orders cannot be given, and "
          "says how to go on from there", "[correct][cli]") {
  Game g;
  std::string db = g.dir.Sub("db");
  const uint64_t head = g.db->HeadOf("g", "main")->seq;
  g.db.reset();
  std::string file = g.dir.Sub("end.json");
  {
    FILE* f = std::fopen(file.c_str(), "w");
    REQUIRE(f);
    std::fputs(R"({"reason": "the peace came early", "body_type": "SowDirective", "body": {"body_type": "EndCampaign", "body": {}}})", f);
    std::fclose(f);
  }
  // The season ends at turn 2: turn 3's orders have no turn to go to.
  Run r = Adjutant({"--db", db, "correct", "g", "--at", "1805.1.2", "--directive", file, "--name", "ended"});
  CHECK(r.code == 4);
  CHECK_THAT(r.err, Catch::Contains("went past turn 1805.1.3") &&
                        Catch::Contains("before nelson's orders (seq ") &&
                        Catch::Contains("the correction stopped: branch 'ended' was left as far as it got") &&
                        Catch::Contains("the game's current branch is still 'main'") &&
                        Catch::Contains("`adjutant branches g --make-current ended`"));
  CHECK_THAT(Adjutant({"--db", db, "status", "g"}).out, Catch::StartsWith("g/main"));
  CHECK_THAT(Adjutant({"--db", db, "branches", "g"}).out, Catch::Contains("main  head " + std::to_string(head) + " "));
  // The command it names: the game goes on from the ended campaign.
  Run go_on = Adjutant({"--db", db, "branches", "g", "--make-current", "ended"});
  CHECK(go_on.code == 0);
  Run status = Adjutant({"--db", db, "status", "g"});
  CHECK_THAT(status.out, Catch::StartsWith("g/ended"));
}

TEST_CASE("ledger: the current branch is main until the GA names another", "[correct][ledger]") {
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  REQUIRE(CreateNwolGame(**l, "g", PateScenario()).ok());
  CHECK(*(*l)->Current("g") == "main");
  CHECK_FALSE((*l)->SetCurrent("g", "other").ok());
  REQUIRE((*l)->Fork("g", "main", 1, "other", std::nullopt, Actor{}).ok());
  REQUIRE((*l)->SetCurrent("g", "other").ok());
  CHECK(*(*l)->Current("g") == "other");
  CHECK_FALSE((*l)->Current("nogame").ok());
}
