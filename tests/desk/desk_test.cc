// The order desk end to end over loopback, with a real HTTP client
// (Boost.Beast): logging in, orders submitted and answered only once in the
// log (a retry with the same key records nothing), a player's orders and
// reports, the GA's adjudication, commands and live feed, the limits, and
// who may do what (401 without a session, 403 for what is not yours).
#include <catch2/catch.hpp>
#include <sodium.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <atomic>
#include <fstream>
#include <map>
#include <thread>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/build_paths.h"
#include "cli/commands.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/scenario_generated.h"
#include "support/desk_client.h"
#include "support/fault_fs.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

const std::string F = ADJUTANT_FIXTURES;

// The Talavera battle, its generals' passwords PERSON-1809.
void CreateTalavera(ledger::Ledger& db) { REQUIRE(testing::CreateTalavera(db).ok()); }

struct Reply {
  int status = 0;
  std::string body;
  std::string type;
};

// The Talavera battle in a fresh database, served on a free port.
struct Served {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  std::unique_ptr<desk::Desk> desk;
  explicit Served(desk::Settings s = {}) {
    REQUIRE(sodium_init() >= 0);
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    CreateTalavera(*db);
    s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
    auto d = testing::StartDesk(*db, s);
    REQUIRE(d.ok());
    desk = std::move(d).value();
  }
  ~Served() {
    desk->Stop();
    desk->Wait();
  }

  Reply Call(http::verb method, const std::string& target, const std::string& body = "", const std::string& token = "",
             const testing::Headers& headers = {}) {
    testing::HttpReply r = testing::HttpCall(desk->port(), std::string(http::to_string(method)), target, body, token, headers);
    INFO(r.error);
    REQUIRE(r.status != 0);
    return Reply{r.status, r.body, r.type};
  }

  std::string Login(const std::string& person) {
    Reply r = Call(http::verb::post, "/api/login",
                   R"({"game": "talavera", "person": ")" + person + R"(", "password": ")" + person + R"(-1809"})");
    INFO(r.body);
    REQUIRE(r.status == 200);
    const auto at = r.body.find("\"token\": \"");
    REQUIRE(at != std::string::npos);
    return r.body.substr(at + 10, 64);
  }
  std::string GaLogin() {
    Reply r = Call(http::verb::post, "/api/ga/login", R"({"password": "the-ga-secret"})");
    REQUIRE(r.status == 200);
    return r.body.substr(r.body.find("\"token\": \"") + 10, 64);
  }
  size_t Count(const std::string& kind) {
    size_t n = 0;
    REQUIRE(db->Read("talavera", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                  n += schema::PayloadKind(*e.event()) == kind;
                  return Status::Ok();
                }).ok());
    return n;
  }
};

}  // namespace

TEST_CASE("desk: a player logs in, submits orders answered once recorded, a retry records nothing, and reads his "
          "orders and his side's report",
          "[desk]") {
  Served s;
  Reply page = s.Call(http::verb::get, "/");
  CHECK(page.status == 200);
  CHECK_THAT(page.body, Catch::Contains("<title>Adjutant order desk</title>"));
  // The treasury form offers the schema's unit and ship types (SOW 3.1, 5.4), not free text.
  CHECK_THAT(page.body, Catch::Contains("<select id=\"tf-type\"><optgroup label=\"land units\"><option>IN</option>") &&
                            Catch::Contains("<option>CQ</option></optgroup><optgroup label=\"ships\"><option>FL</option>"));
  const std::string t = s.Login("wellesley");
  const std::string orders = Slurp(F + "/orders/dog-talavera/m1-British.orders.json");
  Reply sub = s.Call(http::verb::post, "/api/games/talavera/orders", orders, t, {{"Idempotency-Key", "m1-British"}});
  INFO(sub.body);
  REQUIRE(sub.status == 200);
  CHECK_THAT(sub.body, Catch::Contains("\"replayed\": false") && Catch::Contains("\"status\": \"stands\""));
  // Answered after the batch is in the log.
  const size_t recorded = s.Count("OrderSubmitted");
  CHECK(recorded == 7);
  Reply again = s.Call(http::verb::post, "/api/games/talavera/orders", orders, t, {{"Idempotency-Key", "m1-British"}});
  CHECK(again.status == 200);
  CHECK_THAT(again.body, Catch::Contains("\"replayed\": true"));
  CHECK(s.Count("OrderSubmitted") == recorded);
  Reply mine = s.Call(http::verb::get, "/api/games/talavera/orders", "", t);
  CHECK(mine.status == 200);
  CHECK_THAT(mine.body, Catch::Contains("\"turn\": \"1.1.0\"") && Catch::Contains("\"slot\": \"British\""));
  Reply report = s.Call(http::verb::get, "/api/games/talavera/reports?kind=battle", "", t);
  CHECK(report.status == 200);
  CHECK_THAT(report.body, Catch::Contains("the British side's report") && Catch::Contains("orders: hold"));
  Reply svg = s.Call(http::verb::get, "/api/games/talavera/reports?kind=battle&format=svg", "", t);
  CHECK(svg.status == 200);
  CHECK(svg.type == "image/svg+xml");
  CHECK_THAT(svg.body, Catch::StartsWith("<svg"));
  // A bad order file changes nothing and says where.
  Reply bad = s.Call(http::verb::post, "/api/games/talavera/orders", R"({"orders": [{"body_type": "Nope"}]})", t);
  CHECK(bad.status == 400);
  CHECK(s.Count("OrderSubmitted") == recorded);
}

TEST_CASE("desk: an idempotency key is its sender's: another player's key does not block my orders, nor the GA's "
          "adjudication",
          "[desk]") {
  Served s;
  const std::string victor = s.Login("victor"), wellesley = s.Login("wellesley"), ga = s.GaLogin();
  // The French general sends his orders under the key the British general's
  // script uses (keys in the bundled scripts are easy to guess).
  Reply french = s.Call(http::verb::post, "/api/games/talavera/orders",
                        Slurp(F + "/orders/dog-talavera/m1-French.orders.json"), victor, {{"Idempotency-Key", "m1-British"}});
  REQUIRE(french.status == 200);
  Reply british = s.Call(http::verb::post, "/api/games/talavera/orders",
                         Slurp(F + "/orders/dog-talavera/m1-British.orders.json"), wellesley,
                         {{"Idempotency-Key", "m1-British"}});
  INFO(british.body);
  REQUIRE(british.status == 200);
  CHECK_THAT(british.body, Catch::Contains("\"replayed\": false"));
  CHECK(s.Count("OrderSubmitted") == 17);
  const size_t completed = s.Count("PhaseCompleted");
  Reply adj = s.Call(http::verb::post, "/api/games/talavera/adjudicate", R"({"mode": "turn"})", ga,
                     {{"Idempotency-Key", "m1-British"}});
  INFO(adj.body);
  CHECK(adj.status == 200);
  CHECK(s.Count("PhaseCompleted") > completed);
}

TEST_CASE("desk: who may do what: 401 without a valid session (one answer for every wrong login), 403 for another's "
          "game, report or the GA's requests",
          "[desk]") {
  Served s;
  Reply wrong = s.Call(http::verb::post, "/api/login", R"({"game": "talavera", "person": "wellesley", "password": "nope"})");
  Reply nobody = s.Call(http::verb::post, "/api/login", R"({"game": "talavera", "person": "nobody", "password": "nope"})");
  Reply nogame = s.Call(http::verb::post, "/api/login", R"({"game": "elsewhere", "person": "wellesley", "password": "x"})");
  Reply garbage = s.Call(http::verb::post, "/api/login", "not json");
  for (const Reply* r : {&wrong, &nobody, &nogame, &garbage}) {
    CHECK(r->status == 401);
    CHECK(r->body == wrong.body);  // nothing tells which persons or games exist
  }
  CHECK(s.Call(http::verb::get, "/api/games/talavera/orders").status == 401);
  CHECK(s.Call(http::verb::get, "/api/games/talavera/orders", "", std::string(64, 'a')).status == 401);
  const std::string t = s.Login("victor");
  CHECK(s.Call(http::verb::get, "/api/games/other/orders", "", t).status == 403);
  CHECK(s.Call(http::verb::get, "/api/games/talavera/reports?kind=nation", "", t).status == 403);
  CHECK(s.Call(http::verb::post, "/api/games/talavera/adjudicate", "{}", t).status == 403);
  CHECK(s.Call(http::verb::post, "/api/ga/run", R"({"args": ["games"]})", t).status == 403);
  // The French general's report shows his intentions, never the British.
  Reply r = s.Call(http::verb::get, "/api/games/talavera/reports?kind=battle", "", t);
  CHECK_THAT(r.body, Catch::Contains("the French side's report"));
  CHECK(s.Call(http::verb::post, "/api/logout", "", t).status == 200);
  CHECK(s.Call(http::verb::get, "/api/me", "", t).status == 401);
  CHECK(s.Call(http::verb::post, "/api/ga/login", R"({"password": "wrong"})").status == 401);
}

TEST_CASE("desk: the GA adjudicates a move, runs views, is refused server files, and follows the live feed", "[desk]") {
  Served s;
  const std::string ga = s.GaLogin();
  Reply adj = s.Call(http::verb::post, "/api/games/talavera/adjudicate", R"({"mode": "phase"})", ga,
                     {{"Idempotency-Key", "move-1"}});
  INFO(adj.body);
  CHECK(adj.status == 200);
  CHECK_THAT(adj.body, Catch::Contains("\"code\": 0") && Catch::Contains("move 1 of 12"));
  CHECK(s.Count("PhaseCompleted") == 1);
  // The GA's answer was lost and he asks again with the same key: answered,
  // the move not adjudicated twice.
  Reply retry = s.Call(http::verb::post, "/api/games/talavera/adjudicate", R"({"mode": "phase"})", ga,
                       {{"Idempotency-Key", "move-1"}});
  CHECK(retry.status == 200);
  CHECK_THAT(retry.body, Catch::Contains(R"(\"replayed\": true)"));
  CHECK(s.Count("PhaseCompleted") == 1);
  Reply verify = s.Call(http::verb::post, "/api/ga/run", R"({"args": ["verify", "talavera"]})", ga);
  CHECK_THAT(verify.body, Catch::Contains("verify talavera/main: ok"));
  Reply files = s.Call(http::verb::post, "/api/ga/run", R"({"args": ["report", "battle", "talavera", "--svg", "/tmp/x"]})", ga);
  CHECK(files.status == 400);
  CHECK(s.Call(http::verb::post, "/api/ga/run", R"({"args": ["serve"]})", ga).status == 400);
  // A correction: the dragoons stood elsewhere before move 1 (D12.6); the
  // game forks before it and plays the move again on the new branch.
  Reply fix = s.Call(http::verb::post, "/api/games/talavera/correct?at=1.1.0&name=fixed",
                     R"({"reason": "the dragoons stood farther back", "body_type": "DogDirective", "body": {"body_type": "DogPlaceUnit", "body": {"unit": "BR-23LD", "x": 1560, "y": 200, "facing": 180}}})",
                     ga);
  INFO(fix.body);
  CHECK(fix.status == 200);
  Reply branches = s.Call(http::verb::post, "/api/ga/run", R"({"args": ["branches", "talavera"]})", ga);
  CHECK_THAT(branches.body, Catch::Contains("fixed"));
  CHECK(s.Call(http::verb::post, "/api/games/talavera/correct", "{}", ga).status == 400);
  // The feed: the events after seq 1, as server-sent events.
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), s.desk->port()));
  const std::string rq = "GET /api/games/talavera/feed?after=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + ga + "\r\n\r\n";
  net::write(stream, net::buffer(rq));
  std::string got;
  char buf[4096];
  while (got.find("id: 3\n") == std::string::npos) {
    const size_t n = stream.socket().read_some(net::buffer(buf));
    got.append(buf, n);
  }
  CHECK_THAT(got, Catch::StartsWith("HTTP/1.1 200 OK") && Catch::Contains("text/event-stream") &&
                      Catch::Contains("id: 2\ndata: {") && !Catch::Contains("id: 1\n"));
}

TEST_CASE("desk: a session ends when it expires", "[desk]") {
  desk::Settings st;
  st.session_minutes = 0;  // expires as it is made
  Served s(st);
  const std::string t = s.Login("wellesley");
  Reply r = s.Call(http::verb::get, "/api/me", "", t);
  CHECK(r.status == 401);
  CHECK_THAT(r.body, Catch::Contains("not logged in, or the session has expired"));
}

TEST_CASE("desk: limits: a body too big (413), too many orders (413), too many requests (429)", "[desk]") {
  desk::Settings st;
  st.max_body_bytes = 4096;
  st.max_orders = 3;
  st.requests_per_minute = 12;
  Served s(st);
  const std::string t = s.Login("wellesley");
  CHECK(s.Call(http::verb::post, "/api/games/talavera/orders", std::string(5000, ' '), t).status == 413);
  Reply many = s.Call(http::verb::post, "/api/games/talavera/orders",
                      Slurp(F + "/orders/dog-talavera/m1-British.orders.json"), t);
  CHECK(many.status == 413);
  CHECK_THAT(many.body, Catch::Contains("at most 3 orders"));
  CHECK(s.Count("OrderSubmitted") == 0);
  int last = 0;
  for (int i = 0; i < 12; ++i) last = s.Call(http::verb::get, "/api/me", "", t).status;
  CHECK(last == 429);
}

TEST_CASE("desk: connections over the limit are answered 503 — a request that stalls is cut off after the header "
          "timeout",
          "[desk]") {
  desk::Settings st;
  st.max_connections = 2;
  st.header_timeout_s = 1;
  Served s(st);
  net::io_context ioc;
  auto open = [&] {
    auto c = std::make_unique<beast::tcp_stream>(ioc);
    c->connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), s.desk->port()));
    return c;
  };
  auto a = open(), b = open();
  // Both held open; a third is refused at once.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto c = open();
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  beast::error_code ec;
  http::read(*c, buf, res, ec);
  REQUIRE_FALSE(ec);
  CHECK(res.result_int() == 503);
  CHECK_THAT(res.body(), Catch::Contains("too many connections"));
  // A request begun and never finished: cut off (408 or closed) within the timeout.
  net::write(*a, net::buffer(std::string("POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")));
  const auto t0 = std::chrono::steady_clock::now();
  beast::flat_buffer buf2;
  http::response<http::string_body> res2;
  http::read(*a, buf2, res2, ec);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  if (!ec) CHECK(res2.result_int() == 408);
}

TEST_CASE("adjutant serve: SIGTERM while players submit: every acknowledged order is in the log, none half there, "
          "and the server exits 0",
          "[desk]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  REQUIRE(testing::Adjutant({"--db", db, "new", "talavera", "--scenario", F + "/dog/talavera-brigade.json", "--seed", "1809"})
              .code == 0);
  for (const char* p : {"wellesley", "victor"}) {
    std::ofstream(dir.Sub(p)) << p << "-1809\n";
    REQUIRE(testing::Adjutant({"--db", db, "password", "talavera", "--person", p, "--password-file", dir.Sub(p)}).code == 0);
  }
  const std::string log = dir.Sub("serve.out");
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::freopen(log.c_str(), "w", stdout);
    execl(ADJUTANT_BIN, ADJUTANT_BIN, "--db", db.c_str(), "serve", "--listen", "127.0.0.1:0", static_cast<char*>(nullptr));
    _exit(127);
  }
  uint16_t port = 0;
  for (int i = 0; i < 100 && !port; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::string out = Slurp(log);
    const auto at = out.find("http://127.0.0.1:");
    if (at != std::string::npos) port = static_cast<uint16_t>(std::stoi(out.substr(at + 17)));
  }
  REQUIRE(port != 0);
  // Two players keep submitting (each submission a new key) until the server goes.
  std::atomic<int> acked{0};
  std::vector<std::thread> players;
  for (const auto& [person, side] : std::vector<std::pair<std::string, std::string>>{{"wellesley", "British"}, {"victor", "French"}}) {
    players.emplace_back([&, person = person, side = side] {
      try {
        net::io_context ioc;
        beast::tcp_stream st(ioc);
        st.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
        auto call = [&](const std::string& target, const std::string& body, const std::string& token, const std::string& key) {
          http::request<http::string_body> rq(http::verb::post, target, 11);
          rq.set(http::field::host, "x");
          if (!token.empty()) rq.set(http::field::authorization, "Bearer " + token);
          if (!key.empty()) rq.set("Idempotency-Key", key);
          rq.body() = body;
          rq.prepare_payload();
          http::write(st, rq);
          beast::flat_buffer b;
          http::response<http::string_body> res;
          http::read(st, b, res);
          return std::make_pair(static_cast<int>(res.result_int()), res.body());
        };
        auto [code, body] = call("/api/login", R"({"game": "talavera", "person": ")" + person + R"(", "password": ")" + person + R"(-1809"})", "", "");
        if (code != 200) return;
        const std::string token = body.substr(body.find("\"token\": \"") + 10, 64);
        const std::string orders = Slurp(F + "/orders/dog-talavera/m1-" + side + ".orders.json");
        for (int i = 0;; ++i) {
          auto [c, b] = call("/api/games/talavera/orders", orders, token, person + std::to_string(i));
          if (c != 200) return;
          acked++;
        }
      } catch (...) {
        // The server went away mid-request: that submission was not acknowledged.
      }
    });
  }
  // SIGTERM once both are submitting (logins hash passwords: on a loaded
  // machine that alone can take seconds), a little after the first answer.
  for (int i = 0; i < 600 && acked.load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  REQUIRE(kill(pid, SIGTERM) == 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  for (auto& t : players) t.join();
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK_THAT(Slurp(log), Catch::Contains("stopped; every acknowledged order is in the log"));
  CHECK(acked > 0);
  // The log: whole batches only (7 British, 10 French intentions a file), at
  // least every acknowledged one, and it verifies.
  auto l = ledger::Ledger::Open(db);
  REQUIRE(l.ok());
  std::map<std::string, int> per_person;
  int batches = 0;
  REQUIRE((*l)->Read("talavera", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                 if (const auto* o = e.event()->payload_as_OrderSubmitted()) per_person[o->person()->str()]++;
                 return Status::Ok();
               }).ok());
  CHECK(per_person["wellesley"] % 7 == 0);
  CHECK(per_person["victor"] % 10 == 0);
  batches = per_person["wellesley"] / 7 + per_person["victor"] / 10;
  CHECK(batches >= acked.load());
  auto v = (*l)->Verify("talavera", "main");
  REQUIRE(v.ok());
  CHECK(v->ok);
}

TEST_CASE("desk: a full disk answers 503 and records nothing, reports are still read, and the same running desk "
          "takes orders again once there is space",
          "[desk][fault]") {
  TempDir dir;
  testing::FaultFs fs;
  ledger::OpenOptions o;
  o.env = fs.env();
  auto l = ledger::Ledger::Open(dir.Sub("db"), o);
  REQUIRE(l.ok());
  std::unique_ptr<ledger::Ledger> db = std::move(l).value();
  CreateTalavera(*db);
  auto d = testing::StartDesk(*db, desk::Settings{});
  REQUIRE(d.ok());
  const uint16_t port = (*d)->port();
  const std::string token = testing::TokenOf(
      testing::HttpCall(port, "POST", "/api/login", R"({"game": "talavera", "person": "wellesley", "password": "wellesley-1809"})").body);
  REQUIRE_FALSE(token.empty());
  const std::string orders = Slurp(F + "/orders/dog-talavera/m1-British.orders.json");
  const uint64_t head = db->HeadOf("talavera", "main")->seq;
  fs.SetFull(true);
  for (int i = 0; i < 2; ++i) {  // the first write fails; the next is refused with the reason
    auto full = testing::HttpCall(port, "POST", "/api/games/talavera/orders", orders, token, {{"Idempotency-Key", "m1"}});
    INFO(full.body);
    CHECK(full.status == 503);
    CHECK_THAT(full.body, Catch::Contains("space") || Catch::Contains("full"));
  }
  CHECK(db->HeadOf("talavera", "main")->seq == head);
  auto report = testing::HttpCall(port, "GET", "/api/games/talavera/reports?kind=battle", "", token);
  CHECK(report.status == 200);
  fs.SetFull(false);
  auto ok = testing::HttpCall(port, "POST", "/api/games/talavera/orders", orders, token, {{"Idempotency-Key", "m1"}});
  INFO(ok.body);
  CHECK(ok.status == 200);
  CHECK_THAT(ok.body, Catch::Contains("\"replayed\": false"));
  CHECK(db->HeadOf("talavera", "main")->seq > head);
  (*d)->Stop();
  (*d)->Wait();
  CHECK(db->Verify("talavera", "main")->ok);
}
