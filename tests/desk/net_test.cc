// The order desk at the edges of a deployment and under one hostile client
// (issue 17, items 5, 7 and 9), over real loopback sockets: HTTPS with
// Debian's curl against a certificate made here by the openssl command (a
// login, an order, the GA's feed; plain HTTP to the TLS port gets nothing),
// bad --tls-* files refused by name; the security headers and the page's
// script hash; the access log without passwords or tokens; the warning for
// an exposed listener; one address's idle connections leaving another
// address served; a header dribbled on a kept-alive connection cut off; the
// per-person quotas counted from the ledger (a restart does not reset them);
// a player's orders in pages; the GA's feed ending at logout; the GA
// revoking a game's or a person's sessions.
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "support/build_paths.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/scenario_generated.h"
#include "support/desk_client.h"
#include "support/run.h"
#include "support/temp_dir.h"

extern char** environ;

using namespace adjutant;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;
namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;

namespace {

const std::string F = ADJUTANT_FIXTURES;
const std::string kOneOrder =
    R"({"orders": [{"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": "BR-29", "hold": true}}}]})";

// The Talavera battle, its generals' passwords PERSON-1809.
void CreateTalavera(ledger::Ledger& db) { REQUIRE(testing::CreateTalavera(db).ok()); }

// A database holding Talavera; desks are started on it (and again, for a restart).
struct Game {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  Game() {
    REQUIRE(sodium_init() >= 0);
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    CreateTalavera(*db);
  }
  std::unique_ptr<desk::Desk> Start(desk::Settings s = {}) {
    s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
    auto d = testing::StartDesk(*db, s);
    INFO(d.status().message());
    REQUIRE(d.ok());
    return std::move(d).value();
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

testing::HttpReply Call(desk::Desk& d, const std::string& method, const std::string& target, const std::string& body = "",
                        const std::string& token = "", const testing::Headers& h = {}) {
  return testing::HttpCall(d.port(), method, target, body, token, h);
}

std::string Login(desk::Desk& d, const std::string& person) {
  auto r = Call(d, "POST", "/api/login",
                R"({"game": "talavera", "person": ")" + person + R"(", "password": ")" + person + R"(-1809"})");
  INFO(r.body << r.error);
  REQUIRE(r.status == 200);
  return testing::TokenOf(r.body);
}

std::string GaLogin(desk::Desk& d) {
  auto r = Call(d, "POST", "/api/ga/login", R"({"password": "the-ga-secret"})");
  REQUIRE(r.status == 200);
  return testing::TokenOf(r.body);
}

// A program from Debian (openssl, curl): its exit code, output and errors.
struct Proc {
  int code = -1;
  std::string out, err;
};

pid_t Spawn(const std::vector<std::string>& args, const std::string& out, const std::string& err) {
  std::vector<char*> argv;
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, copy[0].c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(rc == 0);
  return pid;
}

// Waits for `pid` at most `limit` (a bound on hangs only); -1 if it had to be killed.
int Reap(pid_t pid, std::chrono::seconds limit = std::chrono::seconds(120)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  int st = 0;
  while (waitpid(pid, &st, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > until) {
      kill(pid, SIGKILL);
      waitpid(pid, &st, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Proc RunProgram(const TempDir& dir, const std::vector<std::string>& args) {
  const std::string out = dir.Sub("proc.out"), err = dir.Sub("proc.err");
  Proc p;
  p.code = Reap(Spawn(args, out, err));
  p.out = Slurp(out);
  p.err = Slurp(err);
  return p;
}

// A self-signed certificate for 127.0.0.1 (and its key) made by the openssl command.
void MakeCertificate(const TempDir& dir, const std::string& cert, const std::string& key) {
  Proc p = RunProgram(dir, {"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                            "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"});
  INFO(p.err);
  REQUIRE(p.code == 0);
}

// curl over HTTPS trusting only `cert`: -w appends the status on a line of its own.
Proc Curl(const TempDir& dir, const std::string& cert, const std::vector<std::string>& more) {
  std::vector<std::string> args = {"curl", "-sS", "--max-time", "60", "--cacert", cert, "-w", "\n%{http_code}"};
  args.insert(args.end(), more.begin(), more.end());
  return RunProgram(dir, args);
}

// A socket to the desk from `source` (any address of 127.0.0.0/8).
std::unique_ptr<beast::tcp_stream> Open(net::io_context& ioc, uint16_t port, const std::string& source = "127.0.0.1") {
  auto s = std::make_unique<beast::tcp_stream>(ioc);
  s->socket().open(tcp::v4());
  s->socket().bind(tcp::endpoint(net::ip::make_address(source), 0));
  s->socket().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  return s;
}

// Reads on `s` until `done(got)` or the peer closes (eof) or the generous
// deadline passes: what was read, and why it stopped.
std::string ReadUntil(net::io_context& ioc, beast::tcp_stream& s, const std::function<bool(const std::string&)>& done,
                      beast::error_code* why, std::chrono::seconds limit = std::chrono::seconds(60)) {
  std::string got;
  char buf[4096];
  s.expires_after(limit);
  *why = {};
  while (!done(got)) {
    bool finished = false;
    size_t n = 0;
    s.async_read_some(net::buffer(buf), [&](beast::error_code ec, size_t k) {
      *why = ec;
      n = k;
      finished = true;
    });
    ioc.restart();
    while (!finished) ioc.run_one();
    got.append(buf, n);
    if (*why) break;
  }
  return got;
}

}  // namespace

TEST_CASE("desk TLS: curl logs in, submits an order and follows the GA's feed over HTTPS — plain HTTP to the TLS port "
          "gets nothing — bad --tls-cert/--tls-key files are refused by name and nothing is served",
          "[desk][net][tls]") {
  Game g;
  const std::string cert = g.dir.Sub("cert.pem"), key = g.dir.Sub("key.pem");
  MakeCertificate(g.dir, cert, key);
  desk::Settings st;
  st.tls_cert = cert;
  st.tls_key = key;
  auto d = g.Start(st);
  const std::string base = "https://127.0.0.1:" + std::to_string(d->port());
  // A login over TLS: the headers say HTTPS only from now on.
  std::ofstream(g.dir.Sub("login.json")) << R"({"game": "talavera", "person": "wellesley", "password": "wellesley-1809"})";
  Proc login = Curl(g.dir, cert, {"-D", g.dir.Sub("login.headers"), "-X", "POST", "--data-binary",
                                  "@" + g.dir.Sub("login.json"), base + "/api/login"});
  INFO(login.err);
  REQUIRE(login.code == 0);
  CHECK_THAT(login.out, Catch::EndsWith("\n200"));
  const std::string token = testing::TokenOf(login.out);
  REQUIRE(token.size() == 64);
  CHECK_THAT(Slurp(g.dir.Sub("login.headers")), Catch::Contains("Strict-Transport-Security: max-age=", Catch::CaseSensitive::No));
  // An order over TLS, answered once recorded.
  std::ofstream(g.dir.Sub("order.json")) << kOneOrder;
  Proc order = Curl(g.dir, cert, {"-X", "POST", "-H", "Authorization: Bearer " + token, "--data-binary",
                                  "@" + g.dir.Sub("order.json"), base + "/api/games/talavera/orders"});
  INFO(order.out << order.err);
  CHECK(order.code == 0);
  CHECK_THAT(order.out, Catch::Contains("\"status\": \"stands\"") && Catch::EndsWith("\n200"));
  CHECK(g.Count("OrderSubmitted") == 1);
  // The GA's feed over TLS: curl reads the events; when the GA logs out the
  // stream ends and curl exits by itself.
  Proc ga = Curl(g.dir, cert, {"-X", "POST", "--data-binary", R"({"password": "the-ga-secret"})", base + "/api/ga/login"});
  const std::string ga_token = testing::TokenOf(ga.out);
  REQUIRE(ga_token.size() == 64);
  const std::string feed_out = g.dir.Sub("feed.out");
  pid_t feed = Spawn({"curl", "-sS", "-N", "--max-time", "120", "--cacert", cert, "-H", "Authorization: Bearer " + ga_token,
                      base + "/api/games/talavera/feed?after=0"},
                     feed_out, g.dir.Sub("feed.err"));
  bool seen = false;
  for (int i = 0; i < 1200 && !seen; ++i) {  // a bound on hangs only
    seen = Slurp(feed_out).find("id: 2\ndata: {") != std::string::npos;
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(seen);
  Proc out = Curl(g.dir, cert, {"-X", "POST", "-H", "Authorization: Bearer " + ga_token, base + "/api/logout"});
  CHECK_THAT(out.out, Catch::EndsWith("\n200"));
  CHECK(Reap(feed) == 0);  // the stream ended (not curl's --max-time: exit 28)
  CHECK_THAT(Slurp(feed_out), Catch::Contains("id: 1\ndata: {") && Catch::Contains("\"OrderSubmitted\""));
  // Plain HTTP to the TLS port: no answer at all.
  testing::HttpReply plain = testing::HttpCall(d->port(), "GET", "/", "", "", {}, 30000);
  CHECK(plain.status == 0);
  Proc plain_curl = RunProgram(g.dir, {"curl", "-sS", "--max-time", "60", "http://127.0.0.1:" + std::to_string(d->port()) + "/"});
  CHECK(plain_curl.code != 0);
  CHECK(plain_curl.out.find("order desk") == std::string::npos);
  // TLS 1.2 and 1.3 are spoken; older is refused for its version (the desk
  // asks for 1.2 at least, whatever the system's openssl.cnf says; a client
  // offering 1.1 with every cipher allowed is told "protocol version").
  for (const char* v : {"-tls1_2", "-tls1_3"}) {
    Proc p = RunProgram(g.dir, {"openssl", "s_client", "-connect", "127.0.0.1:" + std::to_string(d->port()), v,
                                "-CAfile", cert, "-verify_return_error"});
    INFO(v << ": " << p.err);
    CHECK(p.code == 0);
    CHECK_THAT(p.out, Catch::Contains("Verify return code: 0 (ok)"));
  }
  Proc old = RunProgram(g.dir, {"openssl", "s_client", "-connect", "127.0.0.1:" + std::to_string(d->port()), "-tls1_1",
                                "-cipher", "DEFAULT@SECLEVEL=0", "-CAfile", cert});
  CHECK(old.code != 0);
  // Refused for its version (alert 70), not merely for want of a cipher.
  CHECK_THAT(old.out + old.err, Catch::Contains("alert protocol version") && Catch::Contains("Cipher is (NONE)"));
  d->Stop();
  d->Wait();

  // Bad files: each refused naming its option; the desk does not start.
  auto refused = [&](desk::Settings s) {
    s.ga_pwhash = testing::CheapPasswordHash("x");
    auto r = testing::StartDesk(*g.db, s);
    REQUIRE_FALSE(r.ok());
    return r.status().message();
  };
  desk::Settings bad;
  bad.tls_cert = g.dir.Sub("no-such.pem");
  bad.tls_key = key;
  CHECK_THAT(refused(bad), Catch::StartsWith("--tls-cert: "));
  bad.tls_cert = key;  // a key where the certificate belongs
  CHECK_THAT(refused(bad), Catch::StartsWith("--tls-cert: "));
  const std::string cert2 = g.dir.Sub("cert2.pem"), key2 = g.dir.Sub("key2.pem");
  MakeCertificate(g.dir, cert2, key2);
  bad.tls_cert = cert;
  bad.tls_key = key2;  // another certificate's key
  CHECK_THAT(refused(bad), Catch::StartsWith("--tls-key: ") && Catch::Contains("not the key of the certificate"));
  bad.tls_key = "";
  CHECK_THAT(refused(bad), Catch::StartsWith("--tls-key: "));
  // `adjutant serve` says so and exits non-zero.
  REQUIRE(ledger::Ledger::Open(g.dir.Sub("served")).ok());  // a database of its own, closed again
  testing::Run run = testing::Adjutant({"--db", g.dir.Sub("served"), "serve", "--listen", "127.0.0.1:0", "--tls-cert", cert,
                                        "--tls-key", key2});
  CHECK(run.code != 0);
  CHECK_THAT(run.err, Catch::Contains("--tls-key"));
  CHECK(run.out.find("order desk on") == std::string::npos);
}

TEST_CASE("desk TLS: a client that connects and never finishes the handshake is cut off at the header timeout",
          "[desk][net][tls]") {
  Game g;
  const std::string cert = g.dir.Sub("cert.pem"), key = g.dir.Sub("key.pem");
  MakeCertificate(g.dir, cert, key);
  desk::Settings st;
  st.tls_cert = cert;
  st.tls_key = key;
  st.header_timeout_s = 1;
  st.idle_timeout_s = 3600;
  auto d = g.Start(st);
  net::io_context ioc;
  auto silent = Open(ioc, d->port());
  auto partial = Open(ioc, d->port());
  net::write(partial->socket(), net::buffer(std::string("\x16\x03\x01\x00\xff\x01", 6)));  // a ClientHello begun
  for (auto* c : {silent.get(), partial.get()}) {
    beast::error_code why;
    const std::string got = ReadUntil(ioc, *c, [](const std::string&) { return false; }, &why);
    INFO(why.message());
    CHECK(why != beast::error::timeout);  // closed by the desk, not our deadline (60 s)
    CHECK(got.find("HTTP/1.1") == std::string::npos);
  }
}

TEST_CASE("desk: every answer carries the security headers — the page's policy allows its own script by hash and "
          "nothing else — a listener beyond loopback without TLS is warned about",
          "[desk][net]") {
  Game g;
  auto d = g.Start();
  testing::HttpReply page = Call(*d, "GET", "/");
  REQUIRE(page.status == 200);
  const std::string csp = page.headers["content-security-policy"];
  INFO(csp);
  // The hash of the page's one inline script, as a browser computes it.
  const size_t a = page.body.find("<script>") + 8, b = page.body.find("</script>");
  REQUIRE(b != std::string::npos);
  const std::string script = page.body.substr(a, b - a);
  unsigned char h[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(script.data()), script.size());
  char b64[sodium_base64_ENCODED_LEN(crypto_hash_sha256_BYTES, sodium_base64_VARIANT_ORIGINAL)];
  sodium_bin2base64(b64, sizeof b64, h, sizeof h, sodium_base64_VARIANT_ORIGINAL);
  CHECK_THAT(csp, Catch::Contains("script-src 'sha256-" + std::string(b64) + "';") &&
                      Catch::Contains("default-src 'none'") && Catch::Contains("frame-ancestors 'none'") &&
                      Catch::Contains("connect-src 'self'") && !Catch::Contains("unsafe-eval"));
  CHECK(csp.find("script-src 'unsafe-inline'") == std::string::npos);
  for (const auto& r : {page, Call(*d, "GET", "/api/me"), Call(*d, "POST", "/api/login", "{}")}) {
    CHECK(r.headers.at("x-frame-options") == "DENY");
    CHECK(r.headers.at("referrer-policy") == "no-referrer");
    CHECK(r.headers.at("x-content-type-options") == "nosniff");
    CHECK(r.headers.count("content-security-policy") == 1);
    CHECK(r.headers.count("strict-transport-security") == 0);  // plain HTTP: no HSTS
  }
  // The warning for an exposed listener without TLS (computed, not bound: the
  // tests listen on loopback only).
  desk::Settings s;
  s.listen = "0.0.0.0:8080";
  REQUIRE(desk::DeploymentWarnings(s).size() == 1);
  CHECK_THAT(desk::DeploymentWarnings(s)[0], Catch::Contains("without TLS") && Catch::Contains("--tls-cert"));
  s.listen = "192.168.1.20:8080";
  CHECK(desk::DeploymentWarnings(s).size() == 1);
  s.listen = "[::]:8080";
  CHECK(desk::DeploymentWarnings(s).size() == 1);
  s.tls_cert = "cert.pem";
  CHECK(desk::DeploymentWarnings(s).empty());
  s = {};
  for (const char* l : {"127.0.0.1:8080", "127.0.0.2:0", "::1:8080", "[::1]:8080", "[::ffff:127.0.0.1]:8080"}) {
    s.listen = l;
    INFO(l);
    CHECK(desk::DeploymentWarnings(s).empty());
  }
  // `adjutant serve` says it on stderr before it opens or binds anything
  // (here the database is missing, so nothing is ever bound).
  testing::Run exposed = testing::Adjutant({"--db", g.dir.Sub("none"), "serve", "--listen", "0.0.0.0:0"});
  CHECK(exposed.code != 0);
  CHECK_THAT(exposed.err, Catch::Contains("adjutant serve: warning: listening on 0.0.0.0:0, beyond loopback, without TLS"));
  testing::Run local = testing::Adjutant({"--db", g.dir.Sub("none"), "serve", "--listen", "127.0.0.1:0"});
  CHECK(local.code != 0);
  CHECK(local.err.find("warning") == std::string::npos);
}

TEST_CASE("desk: a report or a GA command's output over the answer limit is refused or cut, saying how to narrow it",
          "[desk][net]") {
  Game g;
  desk::Settings st;
  st.max_answer_bytes = 4096;
  auto d = g.Start(st);
  const std::string t = Login(*d, "wellesley");
  auto report = Call(*d, "GET", "/api/games/talavera/reports?kind=battle&format=json", "", t);
  INFO(report.body);
  CHECK(report.status == 400);
  CHECK_THAT(report.body, Catch::Contains("max-answer-bytes") && Catch::Contains("&turn="));
  auto svg = Call(*d, "GET", "/api/games/talavera/reports?kind=battle&format=svg", "", t);
  CHECK(svg.status == 400);
  CHECK(svg.body.size() < 4096);
  const std::string ga = GaLogin(*d);
  auto log = Call(*d, "POST", "/api/ga/run", R"({"args": ["log", "talavera", "--json"]})", ga);
  CHECK(log.status == 200);
  CHECK(log.body.size() < 2 * 4096 + 1024);
  CHECK_THAT(log.body, Catch::Contains("bytes more: an answer holds at most max-answer-bytes 4096"));
}

TEST_CASE("desk: the access log has one JSON line per request (time, client, person, game, method, path, status, "
          "bytes, duration) and never a password, a token or a query string",
          "[desk][net]") {
  Game g;
  desk::Settings st;
  st.access_log = g.dir.Sub("access.log");
  auto d = g.Start(st);
  const std::string t = Login(*d, "wellesley");
  const std::string ga = GaLogin(*d);
  CHECK(Call(*d, "POST", "/api/games/talavera/orders", kOneOrder, t).status == 200);
  CHECK(Call(*d, "GET", "/api/games/talavera/orders?limit=5&token=" + t + "&password=wellesley-1809", "", t).status == 200);
  CHECK(Call(*d, "POST", "/api/login", R"({"game": "talavera", "person": "victor", "password": "wrong-guess-77"})").status == 401);
  CHECK(Call(*d, "GET", "/api/me", "", ga).status == 200);
  d->Stop();
  d->Wait();
  const std::string log = Slurp(st.access_log);
  INFO(log);
  const auto lines = testing::Lines(log);
  REQUIRE(lines.size() == 6);
  for (const auto& l : lines) {
    CHECK_THAT(l, Catch::StartsWith("{\"time\": \"20") && Catch::Contains("Z\", \"client\": \"127.0.0.1\"") &&
                      Catch::Contains("\"status\": ") && Catch::Contains("\"bytes\": ") && Catch::Contains("\"ms\": ") &&
                      Catch::EndsWith("}"));
  }
  CHECK_THAT(lines[0], Catch::Contains("\"person\": \"-\", \"game\": \"-\", \"method\": \"POST\", \"path\": \"/api/login\", "
                                       "\"status\": 200"));
  CHECK_THAT(lines[2], Catch::Contains("\"person\": \"wellesley\", \"game\": \"talavera\", \"method\": \"POST\", "
                                       "\"path\": \"/api/games/talavera/orders\", \"status\": 200"));
  CHECK_THAT(lines[3], Catch::Contains("\"path\": \"/api/games/talavera/orders\", \"status\": 200"));
  CHECK_THAT(lines[4], Catch::Contains("\"status\": 401"));
  CHECK_THAT(lines[5], Catch::Contains("\"person\": \"GA\""));
  // A log that cannot be opened: refused by name, nothing served.
  desk::Settings bad;
  bad.access_log = g.dir.Sub("no-such-dir/access.log");
  auto refused = testing::StartDesk(*g.db, bad);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().message(), Catch::StartsWith("--access-log: cannot open"));
  for (const std::string& secret : {t, ga, std::string("wellesley-1809"), std::string("wrong-guess-77"),
                                   std::string("the-ga-secret"), std::string("Bearer"), std::string("limit=")}) {
    CHECK(log.find(secret) == std::string::npos);
  }
}

TEST_CASE("desk: one address holding idle connections up to its cap leaves the desk serving another address",
          "[desk][net]") {
  Game g;
  desk::Settings st;
  st.max_connections = 8;
  st.max_connections_per_address = 4;
  st.header_timeout_s = 3600;  // the idle ones stay for the whole test
  auto d = g.Start(st);
  net::io_context ioc;
  std::vector<std::unique_ptr<beast::tcp_stream>> idle;
  for (int i = 0; i < 8; ++i) idle.push_back(Open(ioc, d->port(), "127.0.0.1"));
  // The connections past the address's cap are answered 503 and closed (in
  // the order they came: the first four are held, idle).
  for (int i = 4; i < 8; ++i) {
    beast::error_code why;
    const std::string got = ReadUntil(ioc, *idle[i], [](const std::string&) { return false; }, &why);
    INFO(i << ": " << why.message());
    CHECK(why == net::error::eof);
    CHECK_THAT(got, Catch::StartsWith("HTTP/1.1 503") && Catch::Contains("from your address (limit 4)"));
  }
  // Another address (127.0.0.2 is loopback too) is served.
  auto other = Open(ioc, d->port(), "127.0.0.2");
  net::write(other->socket(), net::buffer(std::string("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")));
  beast::error_code why;
  const std::string page = ReadUntil(ioc, *other, [](const std::string&) { return false; }, &why);
  CHECK(why == net::error::eof);
  CHECK_THAT(page, Catch::StartsWith("HTTP/1.1 200 OK") && Catch::Contains("Adjutant order desk"));
  // The first address gets a slot back as soon as one of its connections closes.
  idle[0]->socket().close();
  bool served = false;
  for (int i = 0; i < 600 && !served; ++i) {  // a bound on hangs only
    served = Call(*d, "GET", "/").status == 200;
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(served);
}

TEST_CASE("desk: a kept-alive connection must send each whole header within the header timeout (a header dribbled "
          "a byte at a time is cut off), while waiting idle for the next request keeps the idle timeout",
          "[desk][net]") {
  Game g;
  desk::Settings st;
  st.header_timeout_s = 1;
  st.idle_timeout_s = 3600;
  auto d = g.Start(st);
  net::io_context ioc;
  auto c = Open(ioc, d->port());
  const std::string rq = "GET /api/me HTTP/1.1\r\nHost: x\r\n\r\n";
  auto answered = [](const std::string& got) { return got.find("not logged in") != std::string::npos; };
  beast::error_code why;
  net::write(c->socket(), net::buffer(rq));
  CHECK(answered(ReadUntil(ioc, *c, answered, &why)));
  // Idle longer than the header timeout: still open, and served.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  net::write(c->socket(), net::buffer(rq));
  CHECK(answered(ReadUntil(ioc, *c, answered, &why)));
  // Now a header a byte every 100 ms: cut off (408 or closed) long before
  // the idle timeout; 600 bytes (a minute) bound the loop.
  net::write(c->socket(), net::buffer(std::string("GET /api/me HTTP/1.1\r\nX-Slow: ")));
  c->socket().non_blocking(true);
  bool closed = false;
  for (int i = 0; i < 600 && !closed; ++i) {
    beast::error_code ec;
    net::write(c->socket(), net::buffer(std::string("a")), ec);
    char b[512];
    const size_t n = c->socket().read_some(net::buffer(b), ec);
    closed = (ec && ec != net::error::would_block && ec != net::error::try_again) || n > 0;
    if (!closed) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(closed);
}

TEST_CASE("desk: per-person quotas on orders per turn, counted from the ledger: over the limit a submission is "
          "refused naming it and nothing is recorded, across a restart — a retry of a recorded one is still answered",
          "[desk][net]") {
  Game g;
  desk::Settings st;
  st.orders_per_turn = 3;
  {
    auto d = g.Start(st);
    const std::string t = Login(*d, "wellesley");
    for (int i = 0; i < 3; ++i) {
      auto r = Call(*d, "POST", "/api/games/talavera/orders", kOneOrder, t, {{"Idempotency-Key", "q" + std::to_string(i)}});
      INFO(r.body);
      REQUIRE(r.status == 200);
    }
    auto over = Call(*d, "POST", "/api/games/talavera/orders", kOneOrder, t);
    CHECK(over.status == 429);
    CHECK_THAT(over.body, Catch::Contains("orders-per-turn") && Catch::Contains("nothing was recorded"));
    CHECK(g.Count("OrderSubmitted") == 3);
    // A retry of the last recorded submission (its answer lost): answered, not refused.
    auto retry = Call(*d, "POST", "/api/games/talavera/orders", kOneOrder, t, {{"Idempotency-Key", "q2"}});
    CHECK(retry.status == 200);
    CHECK_THAT(retry.body, Catch::Contains("\"replayed\": true"));
    // Another person has his own quota.
    const std::string v = Login(*d, "victor");
    auto french = Call(*d, "POST", "/api/games/talavera/orders",
                       R"({"orders": [{"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": "FR-24L-1", "hold": true}}}]})",
                       v, {{"Idempotency-Key", "victor-1"}});
    INFO(french.body);
    CHECK(french.status == 200);
    // Another's key is no way around his own quota.
    auto borrowed = Call(*d, "POST", "/api/games/talavera/orders", kOneOrder, t, {{"Idempotency-Key", "victor-1"}});
    CHECK(borrowed.status == 429);
    CHECK(g.Count("OrderSubmitted") == 4);
    d->Stop();
    d->Wait();
  }
  {
    // A restart does not reset it.
    auto d = g.Start(st);
    const std::string t = Login(*d, "wellesley");
    auto over = Call(*d, "POST", "/api/games/talavera/orders", kOneOrder, t);
    CHECK(over.status == 429);
    CHECK_THAT(over.body, Catch::Contains("orders-per-turn"));
    CHECK(g.Count("OrderSubmitted") >= 3);
  }
  const size_t before = g.Count("OrderSubmitted");
  {
    // The bytes quota: the 7-order file fits once, not twice.
    desk::Settings sb;
    const std::string file = Slurp(F + "/orders/dog-talavera/m1-British.orders.json");
    sb.order_bytes_per_turn = 8192;  // his recorded orders and a file or two, not twenty
    auto d = g.Start(sb);
    const std::string t = Login(*d, "wellesley");
    int last = 200, accepted = 0;
    for (int i = 0; i < 20 && last == 200; ++i) {
      auto r = Call(*d, "POST", "/api/games/talavera/orders", file, t);
      last = r.status;
      if (last == 200) ++accepted;
      else CHECK_THAT(r.body, Catch::Contains("order-bytes-per-turn") && Catch::Contains("nothing was recorded"));
    }
    CHECK(last == 429);
    CHECK(accepted >= 1);
    CHECK(g.Count("OrderSubmitted") == before + 7 * static_cast<size_t>(accepted));
  }
}

TEST_CASE("desk: a player's orders come in bounded pages (?limit=, ?after=), the next page named, however long "
          "his history",
          "[desk][net]") {
  Game g;
  desk::Settings st;
  st.page_rows = 5;
  auto d = g.Start(st);
  const std::string t = Login(*d, "wellesley");
  const std::string file = Slurp(F + "/orders/dog-talavera/m1-British.orders.json");
  for (int i = 0; i < 3; ++i) REQUIRE(Call(*d, "POST", "/api/games/talavera/orders", file, t).status == 200);
  REQUIRE(g.Count("OrderSubmitted") == 21);
  auto rows = [](const std::string& body) {
    std::vector<uint64_t> seqs;
    for (size_t at = body.find("\"seq\": "); at != std::string::npos; at = body.find("\"seq\": ", at + 1)) {
      seqs.push_back(std::stoull(body.substr(at + 7)));
    }
    return seqs;
  };
  auto next_of = [](const std::string& body) -> uint64_t {
    const size_t at = body.find("\"next_after\": ");
    return at == std::string::npos ? 0 : std::stoull(body.substr(at + 14));
  };
  std::set<uint64_t> all;
  uint64_t after = 0;
  int pages = 0;
  do {
    auto r = Call(*d, "GET", "/api/games/talavera/orders" + (after ? "?after=" + std::to_string(after) : std::string()), "", t);
    INFO(r.body);
    REQUIRE(r.status == 200);
    const auto seqs = rows(r.body);
    CHECK(seqs.size() <= 5);
    for (auto s : seqs) CHECK(s > after);
    all.insert(seqs.begin(), seqs.end());
    const uint64_t next = next_of(r.body);
    if (next) CHECK(next == seqs.back());
    after = next;
    ++pages;
  } while (after != 0 && pages < 50);
  CHECK(pages == 5);  // 21 rows, 5 a page
  CHECK(all.size() == 21);
  // Fewer on asking; never more than the setting.
  CHECK(rows(Call(*d, "GET", "/api/games/talavera/orders?limit=2", "", t).body).size() == 2);
  CHECK(rows(Call(*d, "GET", "/api/games/talavera/orders?limit=1000", "", t).body).size() == 5);
  CHECK(Call(*d, "GET", "/api/games/talavera/orders?limit=0", "", t).status == 400);
  CHECK(Call(*d, "GET", "/api/games/talavera/orders?limit=x", "", t).status == 400);
  CHECK(Call(*d, "GET", "/api/games/talavera/orders?after=-1", "", t).status == 400);
}

TEST_CASE("desk: the GA's live feed ends once his session does (logout), within a bounded wait", "[desk][net]") {
  Game g;
  auto d = g.Start();
  const std::string ga = GaLogin(*d);
  net::io_context ioc;
  auto c = Open(ioc, d->port());
  net::write(c->socket(), net::buffer("GET /api/games/talavera/feed?after=0 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                                      ga + "\r\n\r\n"));
  beast::error_code why;
  std::string got = ReadUntil(ioc, *c, [](const std::string& s) { return s.find("id: 1\n") != std::string::npos; }, &why);
  REQUIRE_THAT(got, Catch::StartsWith("HTTP/1.1 200 OK") && Catch::Contains("Content-Security-Policy"));
  CHECK(Call(*d, "POST", "/api/logout", "", ga).status == 200);
  got += ReadUntil(ioc, *c, [](const std::string&) { return false; }, &why);
  INFO(why.message());
  CHECK(why == net::error::eof);  // closed by the desk, not the deadline
}

TEST_CASE("desk: the GA revokes one person's sessions or a whole game's: their tokens are refused at once — a player "
          "may not revoke",
          "[desk][net]") {
  Game g;
  auto d = g.Start();
  const std::string ga = GaLogin(*d);
  const std::string w1 = Login(*d, "wellesley"), w2 = Login(*d, "wellesley"), v = Login(*d, "victor");
  // A player may not.
  auto no = Call(*d, "POST", "/api/games/talavera/sessions/revoke", "", w1);
  CHECK(no.status == 403);
  CHECK(Call(*d, "GET", "/api/me", "", w1).status == 200);
  CHECK(Call(*d, "POST", "/api/games/talavera/sessions/revoke", R"({"persn": "x"})", ga).status == 400);
  // One person: both his sessions; the other player's stands.
  auto one = Call(*d, "POST", "/api/games/talavera/sessions/revoke", R"({"person": "wellesley"})", ga);
  INFO(one.body);
  CHECK(one.status == 200);
  CHECK_THAT(one.body, Catch::Contains("\"revoked\": 2"));
  CHECK(Call(*d, "GET", "/api/me", "", w1).status == 401);
  CHECK(Call(*d, "GET", "/api/me", "", w2).status == 401);
  CHECK(Call(*d, "POST", "/api/games/talavera/orders", kOneOrder, w1).status == 401);
  CHECK(Call(*d, "GET", "/api/me", "", v).status == 200);
  // The whole game: every player's session; the GA's own is not a game's.
  const std::string w3 = Login(*d, "wellesley");
  auto all = Call(*d, "POST", "/api/games/talavera/sessions/revoke", "", ga);
  CHECK_THAT(all.body, Catch::Contains("\"revoked\": 2"));
  CHECK(Call(*d, "GET", "/api/me", "", v).status == 401);
  CHECK(Call(*d, "GET", "/api/me", "", w3).status == 401);
  CHECK(Call(*d, "GET", "/api/me", "", ga).status == 200);
  CHECK(g.Count("OrderSubmitted") == 0);
}
