// Issue 20: `adjutant serve --mail-settings` — the scheduler of the order
// desk fires a deadline and then mails every player his reports of the
// turn, on every kind of game, against real Postfix and Dovecot on
// loopback; and a mail server that never answers holds up no one: the
// game's sequencer (orders, commands) runs while the scheduler waits on it.
#include <catch2/catch.hpp>
#include <netinet/in.h>
#include <sodium.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <chrono>
#include <future>
#include <thread>

#include "desk/desk.h"
#include "desk/scheduler.h"
#include "ledger/ledger.h"
#include "mail/mail.h"
#include "replay/driver.h"
#include "support/desk_client.h"
#include "support/kinds.h"
#include "support/mail_servers.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {
constexpr int64_t kNow = 1893456000;  // 2030-01-01 00:00 UTC
}  // namespace

TEST_CASE("serve's scheduler mails: the deadline fires, the turn is adjudicated, every player finds his reports of it, once, on every kind",
          "[mail]") {
  REQUIRE(sodium_init() >= 0);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      MailedGame mg(kind);
      INFO(mg.status.message());
      REQUIRE(mg.status.ok());
      ledger::Ledger& db = mg.db();
      const auto& box_of = mg.box_of();
      MailServers& servers = *mg.servers;
      CliRun set = Cli(db, {"schedule", "g", "set", "--deadline", "2030-01-01T01:00Z", "--now", "2030-01-01T00:00Z"});
      INFO(set.err);
      REQUIRE(set.code == 0);
      ScheduledDesk served(db, kNow, std::make_shared<const mail::Settings>(servers.SettingsFor("ga", "ga-pass")));
      REQUIRE(served.status.ok());
      auto& sched = served.scheduler;
      auto& clock = served.clock;
      // Before the deadline: nothing fired, nothing mailed (no turn over since the addresses).
      for (const auto& o : sched->RunOnce()) CHECK_THAT(o.line, !Catch::Contains("sent"));
      clock = kNow + 3600;
      auto pass = sched->RunOnce();
      size_t fired = 0, mailed = 0;
      for (const auto& o : pass) {
        INFO(o.line);
        CHECK_FALSE(o.failed);
        fired += o.line.find("deadline fired") != std::string::npos;
        mailed += o.line.find("mail: reports of " + kind.coming.ToString() + " to ") != std::string::npos;
      }
      CHECK(fired == 1);
      CHECK(mailed == box_of.size());
      for (const auto& [person, box] : box_of) {
        auto got = AwaitMail(servers.SettingsFor(box, box + "-pass"), 1);
        REQUIRE(got.ok());
        REQUIRE(got->size() == 1);
        CHECK_THAT((*got)[0].text, Catch::StartsWith("Reports of " + person + " for "));
        CHECK((*got)[0].Header("X-Adjutant-Turn") == kind.coming.ToString());
      }
      // The next passes mail nothing again.
      for (const auto& o : sched->RunOnce()) CHECK_THAT(o.line, !Catch::Contains("mail:"));
    }
  }
}

TEST_CASE("serve's scheduler mails off the game's sequencer: a mail server that never answers holds up no order or command of the game",
          "[mail]") {
  REQUIRE(sodium_init() >= 0);
  const GameKind& kind = GameKinds().front();
  PlayedGame g(kind);
  REQUIRE(g.status.ok());
  ledger::Ledger& db = *g;
  auto w = replay::Fold(db, "g", "main");
  REQUIRE(w.ok());
  std::string person;
  for (const auto& [p, pr] : w->roster().persons()) {
    if (!pr.roles.empty()) person = p;
  }
  REQUIRE(Cli(db, {"mail-address", "g", "--person", person, "someone@example.test"}).code == 0);
  REQUIRE(replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn).ok());
  // A "mail server" that takes the connection and never says a word.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  REQUIRE(listen(fd, 8) == 0);
  socklen_t len = sizeof a;
  REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0);
  mail::Settings silent;
  silent.path = "(silent)";
  silent.from_address = "ga@example.test";
  silent.smtp = {"127.0.0.1", ntohs(a.sin_port), "ga", "pw", mail::Tls::kStartTls};
  silent.timeout_seconds = 60;  // longer than the server waits: only the sequencer can end the wait
  silent.ca_file = "/etc/ssl/certs/ca-certificates.crt";
  TempDir dir;
  if (access(silent.ca_file.c_str(), R_OK) != 0) {
    // No system bundle: any certificate will do (the server never gets that far).
    REQUIRE(std::system(("openssl req -x509 -newkey rsa:2048 -nodes -keyout '" + dir.Sub("k.pem") + "' -out '" +
                         dir.Sub("ca.pem") + "' -subj /CN=x -days 2 >/dev/null 2>&1")
                            .c_str()) == 0);
    silent.ca_file = dir.Sub("ca.pem");
  }
  desk::Settings s;
  s.listen = "127.0.0.1:0";
  auto d = StartDesk(db, s);
  REQUIRE(d.ok());
  std::unique_ptr<desk::Desk> desk = std::move(d).value();
  desk::SchedulerSettings ss;
  ss.background = false;
  ss.now = [] { return kNow; };
  ss.mail = std::make_shared<const mail::Settings>(silent);
  auto sched = desk::Scheduler::Start(db, *desk, ss);
  // The "server" takes the connection and says nothing until the game's
  // sequencer has run a command (as an order from the desk would) — which it
  // can only do if the mail is not being sent on that sequencer.
  std::promise<void> accepted, ran;
  std::shared_future<void> ran_f = ran.get_future().share();
  std::atomic<bool> ran_while_open{false};
  std::thread server([&] {
    const int conn = accept(fd, nullptr, nullptr);
    accepted.set_value();
    ran_while_open = ran_f.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
    if (conn >= 0) close(conn);  // the send fails now: recorded, tried again later
  });
  auto pass = std::async(std::launch::async, [&] { return sched->RunOnce(); });
  accepted.get_future().wait();
  desk->Sequence("g", [&] { ran.set_value(); });
  server.join();
  CHECK(ran_while_open);
  auto outcomes = pass.get();
  bool failed = false;
  for (const auto& o : outcomes) failed |= o.failed && o.line.find("mail: reports of") != std::string::npos;
  CHECK(failed);  // recorded as failed, to be tried again
  CliRun status = Cli(db, {"status", "g"});
  CHECK_THAT(status.out, Catch::Contains("FAILING (1 attempt"));
  close(fd);
  sched->Stop();
  desk->Stop();
  desk->Wait();
}

TEST_CASE("serve's scheduler reminds: at the reminder time before the deadline every player who owes orders is mailed, though nothing in the game moved",
          "[mail]") {
  REQUIRE(sodium_init() >= 0);
  const GameKind& kind = GameKinds().front();
  MailedGame mg(kind);
  INFO(mg.status.message());
  REQUIRE(mg.status.ok());
  ledger::Ledger& db = mg.db();
  const auto& box_of = mg.box_of();
  MailServers& servers = *mg.servers;
  REQUIRE(Cli(db, {"schedule", "g", "set", "--deadline", "2030-01-01T10:00Z", "--now", "2030-01-01T00:00Z"}).code == 0);
  auto settings = servers.SettingsFor("ga", "ga-pass");
  settings.remind_before = {3600};
  ScheduledDesk served(db, kNow, std::make_shared<const mail::Settings>(settings));
  REQUIRE(served.status.ok());
  auto& sched = served.scheduler;
  auto& clock = served.clock;
  for (const auto& o : sched->RunOnce()) CHECK_THAT(o.line, !Catch::Contains("reminder"));
  clock = kNow + 8 * 3600;  // still two hours to go: nothing
  for (const auto& o : sched->RunOnce()) CHECK_THAT(o.line, !Catch::Contains("reminder"));
  clock = kNow + 9 * 3600;  // the hour before
  size_t reminded = 0;
  for (const auto& o : sched->RunOnce()) {
    INFO(o.line);
    CHECK_FALSE(o.failed);
    reminded += o.line.find("mail: reminder of orders for " + kind.coming.ToString() + " to ") != std::string::npos;
  }
  CHECK(reminded == box_of.size());
  for (const auto& o : sched->RunOnce()) CHECK_THAT(o.line, !Catch::Contains("reminder"));
  for (const auto& [person, box] : box_of) {
    auto got = AwaitMail(servers.SettingsFor(box, box + "-pass"), 1);
    REQUIRE(got.ok());
    REQUIRE(got->size() == 1);
    CHECK_THAT((*got)[0].text, Catch::StartsWith(person + ", you have given no orders"));
  }
}
