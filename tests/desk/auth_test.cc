// Issue 17, items 4 and 6 over loopback: the GA's run endpoint reads no file
// on the server (an allowlist of commands and their options; dice scripts and
// salts travel in the request's body), logins back off per (client address,
// account) pair without locking the real user out, the GA's password has a
// minimum strength, and X-Forwarded-For is believed from trusted proxies only.
// Clients bind to 127.0.0.1 or 127.0.0.2 (both loopback) to be two addresses;
// the login backoff runs on an injected clock, so nothing here sleeps for it.
#include <catch2/catch.hpp>
#include <sodium.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <fstream>
#include <future>
#include <memory>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/build_paths.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "replay/dice_commit.h"
#include "replay/driver.h"
#include "schema/event_generated.h"
#include "support/desk_client.h"
#include "support/pate_game.h"
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

struct Got {
  int status = 0;  // 0: no answer within the deadline (`error` says why)
  std::string body, retry_after, error;
};

using testing::Headers;

// One request on a fresh connection from the loopback address `from`.
Got CallFrom(const std::string& from, uint16_t port, http::verb method, const std::string& target,
             const std::string& body = "", const std::string& token = "", const Headers& headers = {},
             int timeout_ms = 60000) {
  testing::HttpReply r = testing::HttpCallFrom(from, port, std::string(http::to_string(method)), target, body, token,
                                               headers, timeout_ms);
  Got out;
  out.status = r.status;
  out.body = r.body;
  out.error = r.error;
  if (auto ra = r.headers.find("retry-after"); ra != r.headers.end()) out.retry_after = ra->second;
  return out;
}

// A clock the test moves by hand (the login backoff's).
struct FakeClock {
  std::shared_ptr<std::atomic<int64_t>> seconds = std::make_shared<std::atomic<int64_t>>(0);
  std::function<std::chrono::steady_clock::time_point()> fn() const {
    return [s = seconds] { return std::chrono::steady_clock::time_point(std::chrono::hours(1000) + std::chrono::seconds(s->load())); };
  }
  void Advance(int64_t by) { *seconds += by; }
};

// The NWOL game "nwol" (its persons' passwords PERSON-1805) served on loopback.
struct Served {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  std::unique_ptr<desk::Desk> desk;
  explicit Served(desk::Settings s = {}) {
    REQUIRE(sodium_init() >= 0);
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    REQUIRE(testing::CreateNwolGame(*db, "nwol", Slurp(F + "/scenarios/nwol-1805.json")).ok());
    for (const char* p : {"nelson", "pitt", "gaudin"}) {
      REQUIRE(replay::SetPassword(*db, "nwol", "main", p, testing::CheapPasswordHash(std::string(p) + "-1805")).ok());
    }
    s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
    auto d = testing::StartDesk(*db, s);
    REQUIRE(d.ok());
    desk = std::move(d).value();
  }
  ~Served() {
    desk->Stop();
    desk->Wait();
  }
  Got Call(const std::string& from, http::verb method, const std::string& target, const std::string& body = "",
           const std::string& token = "", const Headers& headers = {}) {
    Got g = CallFrom(from, desk->port(), method, target, body, token, headers);
    INFO(g.error);
    REQUIRE(g.status != 0);
    return g;
  }
  std::string GaToken() {
    Got g = Call("127.0.0.1", http::verb::post, "/api/ga/login", R"({"password": "the-ga-secret"})");
    REQUIRE(g.status == 200);
    return testing::TokenOf(g.body);
  }
  Got Run(const std::string& ga, const std::string& json) {
    return Call("127.0.0.1", http::verb::post, "/api/ga/run", json, ga);
  }
  Got Login(const std::string& from, const std::string& person, const std::string& password, const Headers& h = {}) {
    return Call(from, http::verb::post, "/api/login",
                R"({"game": "nwol", "person": ")" + person + R"(", "password": ")" + password + R"("})", "", h);
  }
  uint64_t Head() { return db->HeadOf("nwol", "main")->seq; }
};

}  // namespace

TEST_CASE("desk auth: the GA's run reads no server file: file options are refused by name before anything runs "
          "and a named pipe does not hang the workers",
          "[desk][auth]") {
  Served s;
  const std::string ga = s.GaToken();
  const uint64_t head = s.Head();
  const std::string secret = s.dir.Sub("secret");
  std::ofstream(secret) << "s3cret-word 4 5 6\n";
  const std::string roll = R"("roll", "nwol", "--purpose", "p", "--rule", "r", )";
  for (const std::string& path : {std::string("/etc/passwd"), secret}) {
    for (const std::string& args : {roll + R"("--script", ")" + path + R"(")", roll + R"("--script=)" + path + R"(")"}) {
      Got g = s.Run(ga, R"({"args": [)" + args + "]}");
      INFO(g.body);
      CHECK(g.status == 400);
      CHECK_THAT(g.body, Catch::Contains("--script: not an option the desk runs roll with") &&
                             Catch::Contains("\\\"script\\\" field"));
      CHECK_THAT(g.body, !Catch::Contains("root") && !Catch::Contains("s3cret") && !Catch::Contains(path));
    }
  }
  // Whether a file exists is not told either: one answer for both.
  Got exists = s.Run(ga, R"({"args": ["adjudicate", "nwol", "--dice-salt-file", "/etc/passwd"]})");
  Got missing = s.Run(ga, R"({"args": ["adjudicate", "nwol", "--dice-salt-file", "/nonexistent/salt"]})");
  CHECK(exists.status == 400);
  CHECK_THAT(exists.body, Catch::Contains("--dice-salt-file: not an option the desk runs adjudicate with"));
  CHECK(missing.body == exists.body);
  // dice-commit would write a new salt to a missing file: refused, nothing written.
  const std::string fresh = s.dir.Sub("fresh-salt");
  Got commit = s.Run(ga, R"({"args": ["dice-commit", "nwol", "--turn", "1805.1.1", "--salt-file", ")" + fresh + R"("]})");
  CHECK(commit.status == 400);
  CHECK_THAT(commit.body, Catch::Contains("--salt-file: not an option"));
  CHECK_FALSE(std::ifstream(fresh).good());
  // A named pipe: refused at once, and the workers still answer.
  const std::string fifo = s.dir.Sub("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  Got piped = CallFrom("127.0.0.1", s.desk->port(), http::verb::post, "/api/ga/run",
                       R"({"args": [)" + roll + R"("--script", ")" + fifo + R"("]})", ga, {}, 20000);
  // Whatever happened, nothing stays blocked on the pipe (a reader waiting on it gets its end).
  if (int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) ::close(fd);
  INFO(piped.error);
  CHECK(piped.status == 400);
  CHECK_THAT(piped.body, Catch::Contains("--script: not an option"));
  for (int i = 0; i < 3; ++i) CHECK(s.Run(ga, R"({"args": ["verify", "nwol"]})").status == 200);
  // Options that are no file but are not the GA's either, and help.
  CHECK_THAT(s.Run(ga, R"({"args": ["report", "events", "nwol", "--as", "nelson"]})").body, Catch::Contains("--as: not an option"));
  CHECK_THAT(s.Run(ga, R"({"args": ["report", "map", "nwol", "--svg", "/tmp/x.svg"]})").body, Catch::Contains("--svg: not an option"));
  CHECK_THAT(s.Run(ga, R"({"args": ["roll", "nwol", "--help"]})").body, Catch::Contains("--help: not an option"));
  CHECK_THAT(s.Run(ga, R"({"args": ["verify", "nwol", "-h"]})").body, Catch::Contains("--help: not an option"));
  // A word after an option with a value is its value, as the command line reads it.
  Got value = s.Run(ga, R"({"args": ["log", "nwol", "--kind", "--script", "/etc/passwd"]})");
  INFO(value.body);
  CHECK(value.status == 400);
  CHECK_THAT(value.body, Catch::Contains("no event kind '--script'") || Catch::Contains("unexpected argument '/etc/passwd'"));
  CHECK_THAT(value.body, !Catch::Contains("root"));
  // A command that writes names its game first: it runs on that game's sequencer.
  Got later = s.Run(ga, R"({"args": ["ruling", "--reason", "r", "nwol", "--text", "t"]})");
  CHECK(later.status == 400);
  CHECK_THAT(later.body, Catch::Contains("args[1]: ruling takes its game first"));
  CHECK(s.Head() == head);  // nothing recorded by any of them
}

TEST_CASE("desk auth: a scripted roll and committed dice with the salt in the request's body end to end",
          "[desk][auth]") {
  Served s;
  const std::string ga = s.GaToken();
  Got roll = s.Run(ga, R"({"args": ["roll", "nwol", "--purpose", "boarding", "--rule", "PATE 8.1", "--count", "2"],
                           "script": "4 # the first die\n6\n"})");
  INFO(roll.body);
  REQUIRE(roll.status == 200);
  CHECK_THAT(roll.body, Catch::Contains("rolled 2d6 for boarding (PATE 8.1): 4 + 6 = 10"));
  bool scripted = false;
  REQUIRE(s.db->Read("nwol", "main", s.Head(), s.Head(), [&](const ledger::EventView& e) {
                  const auto* d = e.event()->payload_as_DieRolled();
                  scripted = d && d->scripted() && d->results()->size() == 2 && d->results()->Get(0) == 4;
                  return Status::Ok();
                }).ok());
  CHECK(scripted);
  // A field the command does not take, or a salt missing, is refused by name.
  CHECK_THAT(s.Run(ga, R"({"args": ["verify", "nwol"], "script": "1"})").body, Catch::Contains("script: verify takes no script"));
  CHECK_THAT(s.Run(ga, R"({"args": ["roll", "nwol", "--purpose", "p", "--rule", "r"], "salt": "00"})").body,
             Catch::Contains("salt: roll takes no salt"));
  Got no_salt = s.Run(ga, R"({"args": ["dice-commit", "nwol", "--turn", "1805.1.1"]})");
  CHECK(no_salt.status == 400);
  CHECK_THAT(no_salt.body, Catch::Contains("salt: dice-commit needs the turn's secret salt"));

  const std::string salt = "5a1e" + std::string(60, '7');
  const uint64_t before = s.Head();
  Got commit = s.Run(ga, R"({"args": ["dice-commit", "nwol", "--turn", "1805.1.1"], "salt": ")" + salt + R"("})");
  INFO(commit.body);
  REQUIRE(commit.status == 200);
  CHECK_THAT(commit.body, Catch::Contains(*replay::CommitmentOf(salt)));
  CHECK(s.Head() == before + 1);
  // The committed turn needs its salt: without it or with another, nothing is adjudicated.
  CHECK(s.Run(ga, R"({"args": ["adjudicate", "nwol"]})").status == 400);
  CHECK(s.Run(ga, R"({"args": ["adjudicate", "nwol"], "salt": ")" + std::string(64, 'b') + R"("})").status == 400);
  CHECK(s.Head() == before + 1);
  Got adj = s.Run(ga, R"({"args": ["adjudicate", "nwol"], "salt": ")" + salt + R"("})");
  INFO(adj.body);
  REQUIRE(adj.status == 200);
  Got reveal = s.Run(ga, R"({"args": ["dice-reveal", "nwol", "--turn", "1805.1.1"], "salt": ")" + salt + R"("})");
  INFO(reveal.body);
  REQUIRE(reveal.status == 200);
  Got check = s.Run(ga, R"({"args": ["verify", "nwol", "--turn", "1805.1.1", "--dice"]})");
  INFO(check.body);
  CHECK(check.status == 200);
  CHECK_THAT(check.body, Catch::Contains("revealed salt matches its commitment"));
}

TEST_CASE("desk auth: dice-commit and adjudicate and dice-reveal take the salt from standard input (-) and help "
          "through RunShared runs no command",
          "[desk][auth][cli]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  {
    auto l = ledger::Ledger::Open(db);
    REQUIRE(l.ok());
    REQUIRE(testing::CreateNwolGame(**l, "g", testing::PateScenario(), 9).ok());
  }
  const std::string salt = replay::NewSalt();
  auto c = testing::AdjutantWithInput({"--db", db, "dice-commit", "g", "--turn", "1805.1.1", "--salt-file", "-"}, salt + "\n");
  INFO(c.err);
  REQUIRE(c.code == 0);
  CHECK_THAT(c.out, Catch::Contains(*replay::CommitmentOf(salt)));
  CHECK(testing::AdjutantWithInput({"--db", db, "adjudicate", "g", "--dice-salt-file", "-"}, "not a salt\n").code == 2);
  auto a = testing::AdjutantWithInput({"--db", db, "adjudicate", "g", "--dice-salt-file", "-"}, salt + "\n");
  INFO(a.err);
  CHECK(a.code == 0);
  CHECK(testing::AdjutantWithInput({"--db", db, "dice-reveal", "g", "--turn", "1805.1.1", "--salt-file", "-"}, salt).code == 0);
  CHECK(testing::Adjutant({"--db", db, "verify", "g", "--turn", "1805.1.1", "--dice"}).code == 0);
  auto r = testing::AdjutantWithInput({"--db", db, "roll", "g", "--purpose", "p", "--rule", "r", "--script", "-"}, "3\n");
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("rolled 1d6 for p (r): 3"));

  // `roll --help` run by a server: the help, and no command run without its arguments.
  auto l = ledger::Ledger::Open(db);
  REQUIRE(l.ok());
  std::string out, err;
  CHECK(cli::RunShared(**l, {"roll", "--help"}, &out, &err, "") == 0);
  CHECK_THAT(out, Catch::StartsWith("usage: adjutant [--db DIR] roll GAME"));
}

TEST_CASE("desk auth: failed logins back off per (address and account) pair: the real user from another address "
          "is never delayed and 429 says the same for any account",
          "[desk][auth]") {
  FakeClock clock;
  desk::Settings st;
  st.login_backoff_s = 1;
  st.login_backoff_max_s = 8;
  st.clock = clock.fn();
  Served s(st);
  const std::string attacker = "127.0.0.2", user = "127.0.0.1";
  // The attacker's waits double from the base to the ceiling; he is refused
  // at once (no password checked) while he waits.
  for (int wait : {1, 2, 4, 8, 8}) {
    CHECK(s.Login(attacker, "nelson", "guess").status == 401);
    Got refused = s.Login(attacker, "nelson", "nelson-1805");  // even the right password
    INFO(refused.body);
    CHECK(refused.status == 429);
    CHECK(refused.retry_after == std::to_string(wait));
    CHECK_THAT(refused.body, Catch::Contains("try again in " + std::to_string(wait) + " s"));
    // Meanwhile the real user, from his own address, logs in at once.
    Got real = s.Login(user, "nelson", "nelson-1805");
    CHECK(real.status == 200);
    clock.Advance(wait - 1);
    CHECK(s.Login(attacker, "nelson", "guess").status == 429);  // not yet
    clock.Advance(1);
  }
  // His wait over, a success resets his pair: the next failure waits the base again.
  CHECK(s.Login(attacker, "nelson", "nelson-1805").status == 200);
  CHECK(s.Login(attacker, "nelson", "guess").status == 401);
  CHECK(s.Login(attacker, "nelson", "guess").retry_after == "1");
  clock.Advance(1);

  // The same answers for an account that exists and one that does not.
  CHECK(s.Login(attacker, "pitt", "guess").status == 401);
  CHECK(s.Login(attacker, "nobody", "guess").status == 401);
  Got pitt = s.Login(attacker, "pitt", "guess"), nobody = s.Login(attacker, "nobody", "guess");
  CHECK(pitt.status == 429);
  CHECK(nobody.status == 429);
  CHECK(pitt.body == nobody.body);
  CHECK(pitt.retry_after == nobody.retry_after);
  // Another account from the attacker's address is its own pair.
  CHECK(s.Login(attacker, "gaudin", "gaudin-1805").status == 200);

  // The GA's login: (address, GA).
  CHECK(s.Call(attacker, http::verb::post, "/api/ga/login", R"({"password": "guess"})").status == 401);
  Got ga_wait = s.Call(attacker, http::verb::post, "/api/ga/login", R"({"password": "the-ga-secret"})");
  CHECK(ga_wait.status == 429);
  CHECK(ga_wait.retry_after == "1");
  CHECK(s.Call(user, http::verb::post, "/api/ga/login", R"({"password": "the-ga-secret"})").status == 200);
  clock.Advance(1);
  CHECK(s.Call(attacker, http::verb::post, "/api/ga/login", R"({"password": "the-ga-secret"})").status == 200);
}

TEST_CASE("desk auth: while a login of a pair is being checked another of the same pair is answered 429 (no "
          "parallel guessing) and other addresses are not",
          "[desk][auth]") {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  auto calls = std::make_shared<std::atomic<int>>(0);
  desk::Settings st;
  st.login_checking = [calls, released] {
    if ((*calls)++ == 0) released.wait();  // the first login is held inside its check
  };
  Served s(st);
  Got first;
  std::thread attempt([&] { first = CallFrom("127.0.0.2", s.desk->port(), http::verb::post, "/api/login",
                                             R"({"game": "nwol", "person": "nelson", "password": "guess"})"); });
  struct Release {  // the held login ends whatever happens below
    std::promise<void>& p;
    std::thread& t;
    ~Release() {
      p.set_value();
      t.join();
    }
  } at_end{release, attempt};
  for (int i = 0; i < 6000 && calls->load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(calls->load() == 1);
  Got second = s.Login("127.0.0.2", "nelson", "nelson-1805");
  CHECK(second.status == 429);
  CHECK(second.retry_after == "1");
  CHECK(calls->load() == 1);  // refused before any check
  CHECK(s.Login("127.0.0.1", "nelson", "nelson-1805").status == 200);
}

TEST_CASE("desk auth: X-Forwarded-For names the client only when the peer is a trusted proxy (rate limit and login "
          "backoff)",
          "[desk][auth]") {
  FakeClock clock;
  desk::Settings st;
  st.trusted_proxies = {"127.0.0.1"};
  st.requests_per_minute = 3;
  st.clock = clock.fn();
  Served s(st);
  const std::string proxy = "127.0.0.1", direct = "127.0.0.2";
  auto me = [&](const std::string& from, const Headers& h) { return s.Call(from, http::verb::get, "/api/me", "", "", h).status; };
  // Behind the proxy, each client has its own allowance.
  for (int i = 0; i < 3; ++i) CHECK(me(proxy, {{"X-Forwarded-For", "203.0.113.7"}}) == 401);
  CHECK(me(proxy, {{"X-Forwarded-For", "203.0.113.7"}}) == 429);
  CHECK(me(proxy, {{"X-Forwarded-For", "203.0.113.8"}}) == 401);
  // The right-most address that is not a trusted proxy: what a client wrote
  // to the left of it changes nothing; so does a second header line.
  CHECK(me(proxy, {{"X-Forwarded-For", "198.51.100.1, 203.0.113.20, 127.0.0.1"}}) == 401);
  CHECK(me(proxy, {{"X-Forwarded-For", "198.51.100.2, 203.0.113.20"}}) == 401);
  CHECK(me(proxy, {{"X-Forwarded-For", "198.51.100.3"}, {"X-Forwarded-For", "203.0.113.20"}}) == 401);
  CHECK(me(proxy, {{"X-Forwarded-For", "198.51.100.4,203.0.113.20"}}) == 429);
  // A client that is not a trusted proxy is counted as itself, whatever it forwards.
  for (int i = 0; i < 3; ++i) CHECK(me(direct, {{"X-Forwarded-For", "203.0.113." + std::to_string(100 + i)}}) == 401);
  CHECK(me(direct, {{"X-Forwarded-For", "203.0.113.200"}}) == 429);
  // The login backoff follows the forwarded client too.
  CHECK(s.Login(proxy, "nelson", "guess", {{"X-Forwarded-For", "203.0.113.30"}}).status == 401);
  CHECK(s.Login(proxy, "nelson", "nelson-1805", {{"X-Forwarded-For", "203.0.113.30"}}).status == 429);
  CHECK(s.Login(proxy, "nelson", "nelson-1805", {{"X-Forwarded-For", "203.0.113.31"}}).status == 200);

  // A proxy that is no address is refused when the desk starts, by name.
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  for (const char* bad : {"proxy.example", "10.0.0.0/33", "10.0.0.1:80", "::1/129", "10.0.0.0/x"}) {
    desk::Settings b;
    b.trusted_proxies = {bad};
    auto d = testing::StartDesk(**l, b);
    REQUIRE_FALSE(d.ok());
    CHECK_THAT(d.status().message(), Catch::StartsWith("--trusted-proxy: '" + std::string(bad) + "'"));
  }
  desk::Settings good;
  good.trusted_proxies = {"10.0.0.0/8", "::1", "fd00::/8"};
  CHECK(testing::StartDesk(**l, good).ok());
}

TEST_CASE("desk auth: adjutant serve refuses a GA password that is short or weak and says why", "[desk][auth][cli]") {
  TempDir dir;
  const std::string pw = dir.Sub("pw"), db = dir.Sub("no-db");
  auto serve = [&](const std::string& password, std::vector<std::string> more = {}) {
    std::ofstream(pw, std::ios::trunc) << password << "\n";
    std::vector<std::string> args = {"--db", db, "serve", "--listen", "127.0.0.1:0", "--ga-password-file", pw};
    args.insert(args.end(), more.begin(), more.end());
    return testing::Adjutant(args);
  };
  auto short_one = serve("Short1pass");  // 10 characters: accepted before
  CHECK(short_one.code == 2);
  CHECK_THAT(short_one.err, Catch::Contains("--ga-password-file: the GA's password has 10 characters; it needs at least 12"));
  CHECK_THAT(short_one.err, !Catch::Contains("Short1pass"));
  CHECK_THAT(serve("abcdefghijklmn").err, Catch::Contains("too weak: under 16 characters, it must mix at least two kinds"));
  CHECK_THAT(serve("abababababab1212ab").err, Catch::Contains("too weak: it repeats fewer than 5 different characters"));
  CHECK_THAT(serve("Correct-Horse-9", {"--ga-password-min-length", "20"}).err,
             Catch::Contains("has 15 characters; it needs at least 20"));
  CHECK_THAT(serve("Correct-Horse-9", {"--ga-password-min-length", "7"}).err,
             Catch::Contains("--ga-password-min-length: 7 is not within 8-1024"));
  // One strong enough passes the check (and the missing database is what stops this one).
  auto ok = serve("Correct-Horse-9");
  CHECK(ok.code != 0);
  CHECK_THAT(ok.err, !Catch::Contains("--ga-password") && Catch::Contains(db));
  CHECK(serve("correcthorsebattery").err.find("--ga-password") == std::string::npos);  // one kind, but 19 long
  // Every new setting is in the help; --trusted-proxy may be given again, the others may not.
  auto help = testing::Adjutant({"serve", "--help"});
  for (const char* o : {"--ga-password-min-length N", "--login-backoff S", "--login-backoff-max S", "--login-backoff-pairs N",
                        "--trusted-proxy ADDR"}) {
    CHECK_THAT(help.out, Catch::Contains(o));
  }
  const cli::CommandSpec* spec = nullptr;
  const auto commands = cli::ServeCommands();
  for (const auto& c : commands) if (c.spec.name == "serve") spec = &c.spec;
  REQUIRE(spec);
  auto two = cli::Parse(*spec, {"--trusted-proxy", "10.0.0.1", "--trusted-proxy=fd00::/8"});
  REQUIRE(two.ok());
  CHECK(two->All("trusted-proxy") == std::vector<std::string>{"10.0.0.1", "fd00::/8"});
  auto twice = cli::Parse(*spec, {"--rate", "1", "--rate", "2"});
  REQUIRE_FALSE(twice.ok());
  CHECK_THAT(twice.status().message(), Catch::Contains("--rate given twice"));
}
