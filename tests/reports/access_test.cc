// The reports library's one check (reports::MayRead, inside reports::Build):
// for every kind of report, a person reads his own and is refused another's
// (another state's treasury, another player's ships, another nation, the
// other side of a battle, the GA's fleet) before anything is read; the GA
// reads them all. Both front ends (adjutant report --as, the order desk)
// go through it.
#include <catch2/catch.hpp>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "reports/reports.h"
#include "support/desk_client.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/temp_dir.h"
#include "support/y1820_game.h"

using namespace adjutant;
using reports::Kind;

namespace {

const std::string F = ADJUTANT_FIXTURES;

reports::Viewer Person(ledger::Ledger& db, const std::string& game, const std::string& person) {
  auto v = reports::PersonNow(db, game, "main", person);
  INFO(person);
  REQUIRE(v.ok());
  return *v;
}

reports::Request Ask(Kind kind, const std::string& game) {
  reports::Request rq;
  rq.kind = kind;
  rq.game = game;
  return rq;
}

// Build's answer for `v`: "ok", "refused" (not his: MayRead) or the error.
std::string Outcome(ledger::Ledger& db, const reports::Viewer& v, const reports::Request& rq) {
  bool not_yours = false;
  auto r = reports::Build(db, v, rq, &not_yours);
  if (not_yours) {
    CHECK_FALSE(r.ok());
    return "refused";
  }
  if (!r.ok()) return "error: " + r.status().message();
  CHECK_FALSE(r->body.empty());
  return "ok";
}

}  // namespace

TEST_CASE("reports: a person reads his own state's treasury, his own ships' reports, never another's nor the fleet",
          "[reports][access]") {
  testing::TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  ledger::Ledger& db = **l;
  REQUIRE(testing::CreateNwolGame(db, "nwol", testing::Slurp(F + "/scenarios/nwol-1805.json")).ok());
  const reports::Viewer pitt = Person(db, "nwol", "pitt"), gaudin = Person(db, "nwol", "gaudin"),
                        nelson = Person(db, "nwol", "nelson"), ga = reports::Ga();

  auto treasury = [&](const std::string& state) {
    reports::Request rq = Ask(Kind::kTreasury, "nwol");
    rq.state = state;
    return rq;
  };
  CHECK(Outcome(db, pitt, treasury("BR")) == "ok");
  CHECK(Outcome(db, pitt, treasury("")) == "ok");  // his own, from his roles
  CHECK(Outcome(db, pitt, treasury("FR")) == "refused");
  CHECK(Outcome(db, gaudin, treasury("BR")) == "refused");
  CHECK(Outcome(db, nelson, treasury("BR")) == "refused");  // a captain is no minister
  CHECK(Outcome(db, nelson, treasury("")) == "refused");
  CHECK(Outcome(db, ga, treasury("FR")) == "ok");

  for (Kind k : {Kind::kEvents, Kind::kPositions}) {
    INFO(reports::NameOf(k));
    reports::Request own = Ask(k, "nwol"), other = Ask(k, "nwol");
    other.player = "villeneuve";
    CHECK(Outcome(db, nelson, own) == "ok");
    CHECK(Outcome(db, nelson, other) == "refused");
    CHECK(Outcome(db, gaudin, other) == "refused");
    CHECK(Outcome(db, ga, other) == "ok");
  }
  // The drawing is refused as the report is.
  reports::Request drawn = Ask(Kind::kPositions, "nwol");
  drawn.player = "villeneuve";
  drawn.format = reports::Format::kSvg;
  CHECK(Outcome(db, nelson, drawn) == "refused");

  CHECK(Outcome(db, pitt, Ask(Kind::kFleet, "nwol")) == "refused");
  CHECK(Outcome(db, nelson, Ask(Kind::kFleet, "nwol")) == "refused");
  CHECK(Outcome(db, ga, Ask(Kind::kFleet, "nwol")) == "ok");

  // Refused before anything is read: the same answer for a state that does not exist.
  CHECK(Outcome(db, pitt, treasury("XX")) == "refused");
}

TEST_CASE("reports: a ruler reads his own nation and the public map, never another nation", "[reports][access]") {
  testing::Y1820Db g(testing::ToyScenario(), testing::ToyMap());
  const reports::Viewer alice = Person(*g.db, "g", "alice"), bob = Person(*g.db, "g", "bob");
  auto nation = [&](const std::string& n, bool pub = false) {
    reports::Request rq = Ask(Kind::kNation, "g");
    rq.nation = n;
    rq.public_only = pub;
    return rq;
  };
  CHECK(Outcome(*g.db, alice, nation("AAA")) == "ok");
  CHECK(Outcome(*g.db, alice, nation("")) == "ok");
  CHECK(Outcome(*g.db, alice, nation("BBB")) == "refused");
  CHECK(Outcome(*g.db, alice, nation("BBB", true)) == "refused");
  CHECK(Outcome(*g.db, bob, nation("AAA")) == "refused");
  CHECK(Outcome(*g.db, reports::Ga(), nation("BBB")) == "ok");
  CHECK(Outcome(*g.db, bob, Ask(Kind::kMap, "g")) == "ok");
}

TEST_CASE("reports: a general reads his own side's battle, never the other side's nor the whole field's",
          "[reports][access]") {
  testing::TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  ledger::Ledger& db = **l;
  REQUIRE(testing::CreateTalavera(db, "talavera", false).ok());
  const reports::Viewer victor = Person(db, "talavera", "victor"), wellesley = Person(db, "talavera", "wellesley");
  auto battle = [&](const std::string& side) {
    reports::Request rq = Ask(Kind::kBattle, "talavera");
    rq.side = side;
    return rq;
  };
  CHECK(Outcome(db, victor, battle("French")) == "ok");
  CHECK(Outcome(db, victor, battle("")) == "ok");  // his own side, from his roles
  CHECK(Outcome(db, victor, battle("British")) == "refused");
  CHECK(Outcome(db, wellesley, battle("French")) == "refused");
  reports::Request drawn = battle("British");
  drawn.format = reports::Format::kSvg;
  CHECK(Outcome(db, victor, drawn) == "refused");
  CHECK(Outcome(db, reports::Ga(), battle("")) == "ok");  // the whole field: the GA's
  // A person with no side (none of the battle's persons) is refused the field.
  reports::Viewer stranger;
  stranger.person = "stranger";
  CHECK(Outcome(db, stranger, battle("")) == "refused");
}
