// The desk's player reports go through the reports library with the
// session's viewer (desk/player_api.cc): a player may name whose report he
// asks for (?state=, ?player=, ?nation=, ?side=), and another's is answered
// 403 for every kind, his own 200.
#include <catch2/catch.hpp>
#include <sodium.h>

#include "support/build_paths.h"
#include "cli/commands.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "support/desk_client.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/temp_dir.h"
#include "support/y1820_game.h"

using namespace adjutant;

namespace {

const std::string F = ADJUTANT_FIXTURES;

struct On {
  std::unique_ptr<desk::Desk> desk;
  explicit On(ledger::Ledger& db) {
    REQUIRE(sodium_init() >= 0);
    auto d = testing::StartDesk(db, desk::Settings{});
    REQUIRE(d.ok());
    desk = std::move(d).value();
  }
  ~On() {
    desk->Stop();
    desk->Wait();
  }
  std::string Login(const std::string& game, const std::string& person, const std::string& password) {
    auto r = testing::HttpCall(desk->port(), "POST", "/api/login",
                               R"({"game": ")" + game + R"(", "person": ")" + person + R"(", "password": ")" + password + R"("})", "");
    INFO(r.body);
    REQUIRE(r.status == 200);
    return testing::TokenOf(r.body);
  }
  int Get(const std::string& target, const std::string& token, std::string* body = nullptr) {
    auto r = testing::HttpCall(desk->port(), "GET", target, "", token);
    INFO(target << " -> " << r.status << " " << r.body);
    REQUIRE(r.status != 0);
    if (body) *body = r.body;
    return r.status;
  }
};

}  // namespace

TEST_CASE("desk reports: another state's treasury, another player's ships, the GA's fleet are answered 403 — his own 200",
          "[desk][reports]") {
  testing::TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  ledger::Ledger& db = **l;
  REQUIRE(testing::CreateNwolGame(db, "nwol", testing::Slurp(F + "/scenarios/nwol-1805.json")).ok());
  for (const char* p : {"pitt", "nelson"}) {
    REQUIRE(replay::SetPassword(db, "nwol", "main", p, testing::CheapPasswordHash(std::string(p) + "-1805")).ok());
  }
  On on(db);
  const std::string pitt = on.Login("nwol", "pitt", "pitt-1805"), nelson = on.Login("nwol", "nelson", "nelson-1805");
  const std::string R = "/api/games/nwol/reports?kind=";
  CHECK(on.Get(R + "treasury", pitt) == 200);
  CHECK(on.Get(R + "treasury&state=BR", pitt) == 200);
  std::string body;
  CHECK(on.Get(R + "treasury&state=FR", pitt, &body) == 403);
  CHECK_THAT(body, Catch::Contains("the treasury of 'FR' is not pitt's"));
  CHECK(on.Get(R + "treasury&state=FR&format=json", pitt) == 403);
  CHECK(on.Get(R + "treasury&state=BR", nelson) == 403);
  for (const std::string kind : {"events", "positions"}) {
    CHECK(on.Get(R + kind, nelson) == 200);
    CHECK(on.Get(R + kind + "&player=nelson", nelson) == 200);
    CHECK(on.Get(R + kind + "&player=villeneuve", nelson) == 403);
    CHECK(on.Get(R + kind + "&player=villeneuve&format=json", nelson) == 403);
  }
  CHECK(on.Get(R + "positions&player=villeneuve&format=svg", nelson) == 403);
  CHECK(on.Get(R + "fleet", pitt) == 403);
  // A name that is no name is bad input, not a refusal.
  CHECK(on.Get(R + "treasury&state=..%2Fetc", pitt) == 400);
  CHECK(on.Get(R + "treasury&format=pdf", pitt) == 400);
}

TEST_CASE("desk reports: another nation and the other side of a battle are answered 403 — his own 200", "[desk][reports]") {
  SECTION("y1820: a ruler's nation") {
    testing::Y1820Db g(testing::ToyScenario(), testing::ToyMap());
    REQUIRE(replay::SetPassword(*g.db, "g", "main", "alice", testing::CheapPasswordHash("alice-1820")).ok());
    On on(*g.db);
    const std::string alice = on.Login("g", "alice", "alice-1820");
    CHECK(on.Get("/api/games/g/reports?kind=nation", alice) == 200);
    CHECK(on.Get("/api/games/g/reports?kind=nation&nation=AAA", alice) == 200);
    CHECK(on.Get("/api/games/g/reports?kind=nation&nation=BBB", alice) == 403);
    CHECK(on.Get("/api/games/g/reports?kind=nation&nation=BBB&format=json", alice) == 403);
    CHECK(on.Get("/api/games/g/reports?kind=map", alice) == 200);
  }
  SECTION("dog: a general's side") {
    testing::TempDir dir;
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    REQUIRE(testing::CreateTalavera(**l).ok());
    On on(**l);
    const std::string victor = on.Login("talavera", "victor", "victor-1809");
    CHECK(on.Get("/api/games/talavera/reports?kind=battle&side=French", victor) == 200);
    CHECK(on.Get("/api/games/talavera/reports?kind=battle&side=British", victor) == 403);
    CHECK(on.Get("/api/games/talavera/reports?kind=battle&side=British&format=svg", victor) == 403);
    CHECK(on.Get("/api/games/talavera/reports?kind=battle&side=British&format=json", victor) == 403);
  }
}

TEST_CASE("desk reports: a turn's digest is replay's, the same JSON as adjutant digest --json, without a command line",
          "[desk][reports]") {
  testing::TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  ledger::Ledger& db = **l;
  REQUIRE(testing::CreateNwolGame(db, "nwol", testing::Slurp(F + "/scenarios/nwol-1805.json")).ok());
  REQUIRE(replay::SetPassword(db, "nwol", "main", "nelson", testing::CheapPasswordHash("nelson-1805")).ok());
  std::string out, err;
  REQUIRE(cli::RunShared(db, {"adjudicate", "nwol"}, &out, &err) == 0);
  On on(db);
  const std::string nelson = on.Login("nwol", "nelson", "nelson-1805");
  std::string body;
  CHECK(on.Get("/api/games/nwol/digest?turn=1805.1.1", nelson, &body) == 200);
  REQUIRE(cli::RunShared(db, {"digest", "nwol", "--turn", "1805.1.1", "--json"}, &out, &err) == 0);
  CHECK(body == out);
  CHECK(on.Get("/api/games/nwol/digest?turn=1805.1.9", nelson, &body) == 400);  // not played yet
  CHECK(on.Get("/api/games/nwol/digest?turn=soon", nelson, &body) == 400);
  CHECK_THAT(body, Catch::Contains("\"error\": \"turn: 'soon' is not a turn"));  // the request's field
}
