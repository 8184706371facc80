// Who owes orders, at the order desk (issue 20): GET /api/games/G/status is
// the GA's, and answers the StatusReport JSON ops::GameStatus gives for the
// same game (`adjutant status --json`); a player, another game's or his own,
// is refused, as is a game that does not exist; POST /api/ga/run runs
// `status` as the ops library's typed call. The live feed's ?after=head
// (what the page's status panel follows) brings only what comes next. (The
// panel itself, drawn from this JSON and drawn again on the feed:
// browser_test.cc.)
#include <catch2/catch.hpp>

#include <atomic>
#include <sodium.h>

#include <set>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>

#include "support/build_paths.h"
#include "base/utc.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "ops/ops.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/reports_generated.h"
#include "support/desk_client.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;

namespace {

const std::string F = ADJUTANT_FIXTURES;

// The wall clock the desk and the ops calls below are given: 2030-01-01 00:00 UTC.
constexpr int64_t kNow = 1893456000;

struct Served {
  std::atomic<int64_t> clock{kNow};
  testing::TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  std::unique_ptr<desk::Desk> desk;
  std::string ga;
  Served() {
    REQUIRE(sodium_init() >= 0);
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    REQUIRE(testing::CreateNwolGame(*db, "nwol", testing::Slurp(F + "/scenarios/nwol-1805.json")).ok());
    for (const char* p : {"nelson", "pitt"}) {
      REQUIRE(replay::SetPassword(*db, "nwol", "main", p, testing::CheapPasswordHash(std::string(p) + "-1805")).ok());
    }
    desk::Settings s;
    s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
    s.now = [this] { return clock.load(); };  // the deadlines' clock, the test's
    auto d = testing::StartDesk(*db, s);
    REQUIRE(d.ok());
    desk = std::move(d).value();
    ga = Login("/api/ga/login", R"({"password": "the-ga-secret"})");
  }
  ~Served() {
    desk->Stop();
    desk->Wait();
  }
  std::string Login(const std::string& path, const std::string& body) {
    auto r = testing::HttpCall(desk->port(), "POST", path, body);
    INFO(r.body);
    REQUIRE(r.status == 200);
    return testing::TokenOf(r.body);
  }
  testing::HttpReply Get(const std::string& target, const std::string& token) {
    auto r = testing::HttpCall(desk->port(), "GET", target, "", token);
    REQUIRE(r.status != 0);
    return r;
  }
  // ops::GameStatus on the database the desk serves, as `adjutant status` calls it.
  ops::Answer Status(bool json, const std::optional<std::string>& branch = std::nullopt) {
    ops::StatusRequest rq;
    rq.game = "nwol";
    rq.branch = branch;
    rq.now = clock.load();
    rq.json = json;
    return ops::GameStatus(ops::On(*db), rq);
  }
};

std::set<std::string> Owing(const std::string& json) {
  auto bytes = schema::ParseJson("StatusReport", json, "status");
  INFO(json);
  REQUIRE(bytes.ok());
  std::set<std::string> out;
  for (const auto* p : *flatbuffers::GetRoot<fb::StatusReport>(bytes->data())->owing()) out.insert(p->str());
  return out;
}

}  // namespace

TEST_CASE("desk status: GET /api/games/G/status is the GA's and answers what ops::GameStatus answers, once a player "
          "has given orders and another has not",
          "[desk][status]") {
  Served s;
  const std::string nelson = s.Login("/api/login", R"({"game": "nwol", "person": "nelson", "password": "nelson-1805"})");
  const std::string pitt = s.Login("/api/login", R"({"game": "nwol", "person": "pitt", "password": "pitt-1805"})");
  // Before any order: everyone holding roles owes them.
  auto before = s.Get("/api/games/nwol/status", s.ga);
  INFO(before.body);
  REQUIRE(before.status == 200);
  CHECK(before.type == "application/json");
  CHECK(before.body == s.Status(true).out);
  CHECK(Owing(before.body).count("nelson") == 1);
  CHECK(Owing(before.body).count("pitt") == 1);
  // nelson orders his ship through the desk; pitt gives none.
  auto order = testing::HttpCall(s.desk->port(), "POST", "/api/games/nwol/orders",
                                 R"({"orders": [{"body_type": "PateOrder", "body": {"body_type": "ShipOrders", "body": )"
                                 R"({"ship": "BR1FL", "sea1": "SOA", "contact": "Pursue"}}}]})",
                                 nelson);
  INFO(order.body);
  REQUIRE(order.status == 200);
  auto after = s.Get("/api/games/nwol/status", s.ga);
  INFO(after.body);
  REQUIRE(after.status == 200);
  CHECK(after.body == s.Status(true).out);  // byte for byte, the same JSON line
  CHECK(after.body != before.body);
  CHECK(Owing(after.body).count("nelson") == 0);
  CHECK(Owing(after.body).count("pitt") == 1);
  CHECK_THAT(after.body, Catch::Contains("\"person\": \"nelson\"") && Catch::Contains("\"submitted\": 1"));
  // Received at the desk's clock (the test's): recorded on his order, shown as his.
  CHECK_THAT(after.body, Catch::Contains("\"last_received_at\": " + std::to_string(kNow)));
  CHECK_THAT(s.Status(false).out, Catch::Contains("received " + adjutant::FormatUtc(kNow)));
  // A branch named: the same as ops on that branch.
  auto main = s.Get("/api/games/nwol/status?branch=main", s.ga);
  CHECK(main.status == 200);
  CHECK(main.body == s.Status(true, "main").out);

  // Refused: a player (his own game or another's), no session, an unknown
  // game or branch, a name that is not one.
  struct Refused {
    std::string target, token;
    int status;
    std::string says;
  };
  for (const Refused& r : std::vector<Refused>{
           {"/api/games/nwol/status", nelson, 403, "the GA's only"},
           {"/api/games/nwol/status", pitt, 403, "the GA's only"},
           {"/api/games/elsewhere/status", nelson, 403, "not your game"},
           {"/api/games/nwol/status", "", 401, "not logged in"},
           {"/api/games/nosuch/status", s.ga, 404, "nosuch"},
           {"/api/games/nwol/status?branch=nosuch", s.ga, 404, "nosuch"},
           {"/api/games/nwol/status?branch=..%2Fmain", s.ga, 400, "branch: not a branch name"},
           {"/api/games/..%2Fnwol/status", s.ga, 404, "no such game"},
       }) {
    auto a = s.Get(r.target, r.token);
    INFO(r.target << " -> " << a.status << " " << a.body);
    CHECK(a.status == r.status);
    CHECK_THAT(a.body, Catch::Contains(r.says) && Catch::Contains("\"error\""));
    CHECK_THAT(a.body, !Catch::Contains("\"owing\""));
  }
  // The unknown game says what `adjutant status` says of it.
  ops::StatusRequest none;
  none.game = "nosuch";
  none.json = true;
  const ops::Answer nosuch = ops::GameStatus(ops::On(*s.db), none);
  REQUIRE_FALSE(nosuch.status.ok());
  CHECK_THAT(s.Get("/api/games/nosuch/status", s.ga).body, Catch::Contains(nosuch.status.message()));
}

TEST_CASE("desk status: POST /api/ga/run runs status (GAME, --branch, --json) as ops::GameStatus", "[desk][status][ga-run]") {
  Served s;
  auto run = [&](const std::string& args) {
    auto r = testing::HttpCall(s.desk->port(), "POST", "/api/ga/run", R"({"args": [)" + args + "]}", s.ga);
    REQUIRE(r.status != 0);
    return r;
  };
  // The DeskRunResult's "out": the ops answer as a JSON string.
  auto out_of = [](const std::string& text) {
    std::string j;
    for (char c : text) {
      if (c == '"' || c == '\\') j += '\\';
      if (c == '\n') j += "\\n";
      else j += c;
    }
    return "\"out\": \"" + j + "\"";
  };
  auto text = run(R"("status", "nwol")");
  INFO(text.body);
  CHECK(text.status == 200);
  const ops::Answer plain = s.Status(false);
  REQUIRE(plain.status.ok());
  CHECK_THAT(plain.out, Catch::Contains("orders now go to ") && Catch::Contains("no orders yet from: "));
  CHECK_THAT(text.body, Catch::Contains("\"code\": 0") && Catch::Contains(out_of(plain.out)));
  auto json = run(R"("status", "nwol", "--branch", "main", "--json")");
  INFO(json.body);
  CHECK(json.status == 200);
  CHECK_THAT(json.body, Catch::Contains(out_of(s.Status(true, "main").out)));
  // Checked as every operation is: a parameter it does not take, a bad game.
  auto bad = run(R"("status", "nwol", "--turn", "1805.1.1")");
  CHECK(bad.status == 400);
  CHECK_THAT(bad.body, Catch::Contains("args[2]: --turn: not an option the desk runs status with"));
  auto unknown = run(R"("status", "nosuch")");
  CHECK(unknown.status == 400);
  CHECK_THAT(unknown.body, Catch::Contains("\"code\": 2") && Catch::Contains("nosuch"));
}

TEST_CASE("desk status: the live feed from ?after=head brings what comes next, not the log before it",
          "[desk][status]") {
  namespace net = boost::asio;
  namespace beast = boost::beast;
  Served s;
  const std::string nelson = s.Login("/api/login", R"({"game": "nwol", "person": "nelson", "password": "nelson-1805"})");
  auto head = s.db->HeadOf("nwol", "main");
  REQUIRE(head.ok());
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), s.desk->port()));
  net::write(stream, net::buffer("GET /api/games/nwol/feed?after=head HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + s.ga +
                                 "\r\n\r\n"));
  std::string got;
  char buf[4096];
  auto read_until = [&](const std::string& what) {
    while (got.find(what) == std::string::npos) got.append(buf, stream.socket().read_some(net::buffer(buf)));
  };
  read_until(": waiting\n\n");  // caught up at once: nothing of the log before
  CHECK_THAT(got, Catch::StartsWith("HTTP/1.1 200 OK") && !Catch::Contains("id: "));
  auto order = testing::HttpCall(s.desk->port(), "POST", "/api/games/nwol/orders",
                                 R"({"orders": [{"body_type": "PateOrder", "body": {"body_type": "ShipOrders", "body": )"
                                 R"({"ship": "BR1FL", "sea1": "SOA"}}}]})",
                                 nelson);
  REQUIRE(order.status == 200);
  const std::string next = "id: " + std::to_string(head->seq + 1) + "\ndata: {";
  read_until(next);
  CHECK_THAT(got, Catch::Contains(next) && Catch::Contains("\"OrderSubmitted\""));
  CHECK_THAT(got, !Catch::Contains("id: " + std::to_string(head->seq) + "\n"));
}

TEST_CASE("desk status: the GA sets a deadline through POST /api/ga/run — status shows it and the time left on the desk's "
          "clock — at the deadline `schedule run` fires it once",
          "[desk][status][schedule]") {
  Served s;
  auto run = [&](const std::string& args) {
    auto r = testing::HttpCall(s.desk->port(), "POST", "/api/ga/run", R"({"args": [)" + args + "]}", s.ga);
    REQUIRE(r.status != 0);
    return r;
  };
  auto set = run(R"("schedule", "nwol", "set", "--deadline", "2030-01-06T20:00Z", "--weekly")");
  INFO(set.body);
  CHECK(set.status == 200);
  CHECK_THAT(set.body, Catch::Contains("deadline 2030-01-06 20:00 UTC for turn 1805.1.1 (in 5d 20h)"));
  // The status endpoint: the deadline and the time left, by the desk's clock.
  auto st = s.Get("/api/games/nwol/status", s.ga);
  CHECK(st.status == 200);
  CHECK_THAT(st.body, Catch::Contains("\"deadline\": \"2030-01-06 20:00 UTC\""));
  CHECK_THAT(st.body, Catch::Contains("\"time_left\": " + std::to_string(1893960000 - kNow)));
  CHECK(st.body == s.Status(true).out);
  // A deadline in the desk's past is refused; nothing is recorded.
  auto past = run(R"("schedule", "nwol", "set", "--deadline", "2029-12-31T00:00Z")");
  CHECK_THAT(past.body, Catch::Contains("\"code\": 2") && Catch::Contains("not in the future"));
  // Before the deadline nothing is due; after it, it fires once.
  auto early = run(R"("schedule", "nwol", "run")");
  CHECK_THAT(early.body, Catch::Contains("nothing due at 2030-01-01 00:00 UTC"));
  s.clock = 1893960000 + 60;
  auto fired = run(R"("schedule", "nwol", "run")");
  INFO(fired.body);
  CHECK_THAT(fired.body, Catch::Contains("deadline fired: turn 1805.1.1 (due 2030-01-06 20:00 UTC)"));
  auto again = run(R"("schedule", "nwol", "run")");
  CHECK_THAT(again.body, Catch::Contains("nothing due"));
  CHECK_THAT(s.Get("/api/games/nwol/status", s.ga).body, Catch::Contains("\"orders_for\": \"1805.1.2\""));
  // --now, as on the command line: the time a view or a step is taken at.
  auto later = run(R"("schedule", "nwol", "--now", "2030-01-13T19:00Z")");
  CHECK_THAT(later.body, Catch::Contains("deadline 2030-01-13 20:00 UTC for turn 1805.1.2 (in 1h)"));
  auto bad = run(R"("schedule", "nwol", "--now", "soon")");
  CHECK_THAT(bad.body, Catch::Contains("\"code\": 2") && Catch::Contains("--now: 'soon'"));
}
