// The order desk's authorization table: every kind of caller (a ship's
// commander, a treasury minister, another state's minister, the GA, no
// session, a session logged out) against every request, on his own
// resource and on another's — and the answers that must not differ (a
// wrong login; another's ship and one that does not exist; another's game
// and one that does not exist), so nothing tells which exist.
#include <catch2/catch.hpp>
#include <sodium.h>

#include <array>
#include <map>

#include <boost/beast/http.hpp>

#include "support/build_paths.h"
#include "cli/commands.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "support/desk_client.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

const std::string F = ADJUTANT_FIXTURES;

struct Answer {
  int status = 0;
  std::string body;
};

struct Nwol {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  std::unique_ptr<desk::Desk> desk;
  Nwol() {
    REQUIRE(sodium_init() >= 0);
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    REQUIRE(testing::CreateNwolGame(*db, "nwol", Slurp(F + "/scenarios/nwol-1805.json")).ok());
    for (const char* p : {"nelson", "pitt", "gaudin", "barham"}) {
      REQUIRE(replay::SetPassword(*db, "nwol", "main", p, testing::CheapPasswordHash(std::string(p) + "-1805")).ok());
    }
    desk::Settings s;
    s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
    auto d = testing::StartDesk(*db, s);
    REQUIRE(d.ok());
    desk = std::move(d).value();
  }
  ~Nwol() {
    desk->Stop();
    desk->Wait();
  }
  Answer Call(http::verb method, const std::string& target, const std::string& body, const std::string& token) {
    testing::HttpReply r = testing::HttpCall(desk->port(), std::string(http::to_string(method)), target, body, token);
    INFO(r.error);
    REQUIRE(r.status != 0);
    return {r.status, r.body};
  }
  std::string Token(const std::string& path, const std::string& body) {
    Answer a = Call(http::verb::post, path, body, "");
    INFO(a.body);
    REQUIRE(a.status == 200);
    return a.body.substr(a.body.find("\"token\": \"") + 10, 64);
  }
  size_t Orders() {
    size_t n = 0;
    REQUIRE(db->Read("nwol", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                  n += e.event()->payload_type() == fb::Payload_OrderSubmitted;
                  return Status::Ok();
                }).ok());
    return n;
  }
};

std::string ShipOrder(const std::string& ship) {
  return R"({"orders": [{"body_type": "PateOrder", "body": {"body_type": "ShipOrders", "body": {"ship": ")" + ship +
         R"(", "sea1": "SOA", "contact": "Pursue"}}}]})";
}
std::string Treasury(const std::string& state, const std::string& city) {
  return R"({"orders": [{"body_type": "SowOrder", "body": {"state": ")" + state +
         R"(", "body_type": "BuySuppliesOrder", "body": {"city": ")" + city + R"(", "stores": 10}}}]})";
}

}  // namespace

TEST_CASE("desk authorization: every caller against every request, on his own and on another's", "[desk][authz]") {
  Nwol g;
  auto login = [&](const std::string& p) {
    return g.Token("/api/login", R"({"game": "nwol", "person": ")" + p + R"(", "password": ")" + p + R"(-1805"})");
  };
  const std::string nelson = login("nelson"), pitt = login("pitt"), gaudin = login("gaudin");
  const std::string ga = g.Token("/api/ga/login", R"({"password": "the-ga-secret"})");
  // The first turn played, so that it has a digest and can be corrected.
  REQUIRE(g.Call(http::verb::post, "/api/games/nwol/adjudicate", R"({"mode": "turn"})", ga).status == 200);
  const std::string gone = login("pitt");
  REQUIRE(g.Call(http::verb::post, "/api/logout", "", gone).status == 200);
  const std::string nobody;

  struct Row {
    const char* what;
    http::verb method;
    std::string target, body;
    // The expected status for: nelson, pitt, gaudin, the GA, no session, logged out.
    std::array<int, 6> want;
  };
  const auto P = http::verb::post, G = http::verb::get;
  const std::vector<Row> table = {
      {"own ship's orders", P, "/api/games/nwol/orders", ShipOrder("BR1FL"), {200, 403, 403, 400, 401, 401}},
      {"another state's ship", P, "/api/games/nwol/orders", ShipOrder("FR1FL"), {403, 403, 403, 400, 401, 401}},
      {"a ship that does not exist", P, "/api/games/nwol/orders", ShipOrder("XX9FL"), {403, 403, 403, 400, 401, 401}},
      {"Britain's treasury", P, "/api/games/nwol/orders", Treasury("BR", "Portsmouth"), {403, 200, 403, 400, 401, 401}},
      {"France's treasury", P, "/api/games/nwol/orders", Treasury("FR", "Paris"), {403, 403, 200, 400, 401, 401}},
      // Issue 20: the text form, the same answers.
      {"own ship's orders, in text", P, "/api/games/nwol/orders", "BR1FL orders move SOA contact pursue",
       {200, 403, 403, 400, 401, 401}},
      {"another state's ship, in text", P, "/api/games/nwol/orders", "FR1FL orders move SOA", {403, 403, 403, 400, 401, 401}},
      {"Britain's treasury, in text", P, "/api/games/nwol/orders", "BR buy stores 10 at Portsmouth",
       {403, 200, 403, 400, 401, 401}},
      {"orders in text with a word misspelt", P, "/api/games/nwol/orders", "BR1FL orders mvoe SOA",
       {400, 400, 400, 400, 401, 401}},
      // Issue 20: orders a player sent the GA by other means, entered for him
      // (the GA's only; a ?for without a GA session is refused, even for oneself).
      {"nelson's ship's orders entered for him", P, "/api/games/nwol/orders?for=nelson", ShipOrder("BR1FL"),
       {403, 403, 403, 200, 401, 401}},
      {"another state's ship entered for nelson", P, "/api/games/nwol/orders?for=nelson", ShipOrder("FR1FL"),
       {403, 403, 403, 400, 401, 401}},
      {"orders entered for a person not in the game", P, "/api/games/nwol/orders?for=nobody", ShipOrder("BR1FL"),
       {403, 403, 403, 400, 401, 401}},
      {"own orders", G, "/api/games/nwol/orders", "", {200, 200, 200, 403, 401, 401}},
      {"another game's orders", G, "/api/games/elsewhere/orders", "", {403, 403, 403, 403, 401, 401}},
      {"own ships' events", G, "/api/games/nwol/reports?kind=events", "", {200, 200, 200, 403, 401, 401}},
      {"own state's treasury", G, "/api/games/nwol/reports?kind=treasury", "", {403, 200, 200, 403, 401, 401}},
      {"a nation's report (no ruler here)", G, "/api/games/nwol/reports?kind=nation", "", {403, 403, 403, 403, 401, 401}},
      {"adjudicate", P, "/api/games/nwol/adjudicate", R"({"mode": "phase"})", {403, 403, 403, 200, 401, 401}},
      {"a GA command", P, "/api/ga/run", R"({"args": ["verify", "nwol"]})", {403, 403, 403, 200, 401, 401}},
      {"who am I", G, "/api/me", "", {200, 200, 200, 200, 401, 401}},
      {"a directive", P, "/api/games/nwol/directives", Slurp(F + "/orders/nwol-1805/t1-01-blockade-france.directive.json"),
       {403, 403, 403, 200, 401, 401}},
      {"a correction", P, "/api/games/nwol/correct?at=1805.1.1", Slurp(F + "/orders/nwol-1805/t1-01-blockade-france.directive.json"),
       {403, 403, 403, 200, 401, 401}},
      {"a turn's digest", G, "/api/games/nwol/digest?turn=1805.1.1", "", {200, 200, 200, 200, 401, 401}},
      {"another game's digest", G, "/api/games/elsewhere/digest?turn=1805.1.1", "", {403, 403, 403, 400, 401, 401}},
      {"who owes orders (the GA's)", G, "/api/games/nwol/status", "", {403, 403, 403, 200, 401, 401}},
      {"another game's status", G, "/api/games/elsewhere/status", "", {403, 403, 403, 404, 401, 401}},
      {"the live feed (the GA's)", G, "/api/games/nwol/feed?after=1000000", "", {403, 403, 403, -1, 401, 401}},
      // Last: it ends villeneuve's sessions (no caller's here).
      {"a password set (the GA's)", P, "/api/games/nwol/passwords", R"({"person": "villeneuve", "password": "trafalgar-1805"})",
       {403, 403, 403, 200, 401, 401}},
  };
  const std::array<std::string, 6> callers = {nelson, pitt, gaudin, ga, nobody, gone};
  const std::array<const char*, 6> names = {"nelson", "pitt", "gaudin", "the GA", "no session", "logged out"};
  std::map<std::string, int> bodies_401;
  for (const Row& r : table) {
    for (size_t c = 0; c < callers.size(); ++c) {
      if (r.want[c] < 0) continue;  // a stream: tested in desk_test.cc
      const size_t before = g.Orders();
      Answer a = g.Call(r.method, r.target, r.body, callers[c]);
      INFO(r.what << " by " << names[c] << ": " << a.body);
      CHECK(a.status == r.want[c]);
      // Nothing is recorded for a refused submission.
      if (a.status != 200) CHECK(g.Orders() == before);
      if (a.status == 401) bodies_401[a.body]++;
    }
  }
  // One 401 answer for every missing, wrong or ended session.
  CHECK(bodies_401.size() == 1);
  // Another's ship and a ship that does not exist: the same answer.
  Answer other = g.Call(http::verb::post, "/api/games/nwol/orders", ShipOrder("FR1FL"), nelson);
  Answer none = g.Call(http::verb::post, "/api/games/nwol/orders", ShipOrder("XX9FL"), nelson);
  CHECK(other.body == none.body);
  // A mistake in the text form is named by line, column and word, with the nearest.
  CHECK_THAT(g.Call(http::verb::post, "/api/games/nwol/orders", "# Villeneuve\nBR1FL orders mvoe SOA", nelson).body,
             Catch::Contains("orders:2:14: 'mvoe' is not a word of 'orders' (ShipOrders, PATE 4.3); did you mean 'move'?"));
  // Another's game and a game that does not exist: the same answer.
  CHECK(g.Call(http::verb::get, "/api/games/talavera/orders", "", nelson).body ==
        g.Call(http::verb::get, "/api/games/elsewhere/orders", "", nelson).body);
}

TEST_CASE("desk: a ship given to a commander after he logged in is his at once, in /api/me and for his orders "
          "(PATE 2.3)",
          "[desk][authz]") {
  Nwol g;
  auto login = [&](const std::string& p) {
    return g.Token("/api/login", R"({"game": "nwol", "person": ")" + p + R"(", "password": ")" + p + R"(-1805"})");
  };
  const std::string nelson = login("nelson"), barham = login("barham");
  CHECK_THAT(g.Call(http::verb::get, "/api/me", "", nelson).body, !Catch::Contains("BR2FL.commander"));
  CHECK(g.Call(http::verb::post, "/api/games/nwol/orders", ShipOrder("BR2FL"), nelson).status == 403);
  // The Naval Minister appoints nelson to BR2FL (in effect on receipt).
  Answer appoint = g.Call(http::verb::post, "/api/games/nwol/orders",
                          R"({"orders": [{"body_type": "PateOrder", "body": {"body_type": "AppointOrder", "body": {"ship": "BR2FL", "commander": "nelson"}}}]})",
                          barham);
  INFO(appoint.body);
  REQUIRE(appoint.status == 200);
  REQUIRE_THAT(appoint.body, Catch::Contains("\"status\": \"stands\""));
  // No new login: the session reads the roster as it stands.
  CHECK_THAT(g.Call(http::verb::get, "/api/me", "", nelson).body, Catch::Contains("BR2FL.commander"));
  CHECK(g.Call(http::verb::post, "/api/games/nwol/orders", ShipOrder("BR2FL"), nelson).status == 200);
  Answer events = g.Call(http::verb::get, "/api/games/nwol/reports?kind=events&format=json", "", nelson);
  CHECK(events.status == 200);
}
