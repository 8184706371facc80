// Issue 20, the end to end of the turn cycle by mail: two turns of the
// bundled 1805 game (fixtures/orders/nwol-1805, the main job's orders) run
// by mail alone, against real Postfix and Dovecot on loopback. Each player
// mails his orders in the text form from his own mailbox to the GA's; the
// order desk's scheduler (adjutant serve --mail-settings, its clock the
// test's) reads them over IMAP and answers each, the deadline fires, the
// turn is adjudicated, and every player finds in his mailbox the answers to
// his orders and his reports of the turn, whose digest is the one any copy
// of the game gives (`adjutant digest`). The GA's own directives go in by
// his command line, as he would give them.
#include <catch2/catch.hpp>
#include <sodium.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <set>

#include "support/build_paths.h"
#include "desk/desk.h"
#include "desk/scheduler.h"
#include "ledger/ledger.h"
#include "mail/mail.h"
#include "replay/digest.h"
#include "replay/driver.h"
#include "rules/kind.h"
#include "rules/order_text.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "support/desk_client.h"
#include "support/kinds.h"
#include "support/mail_servers.h"
#include "support/run.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

const std::string F = ADJUTANT_FIXTURES;
constexpr int64_t kNow = 1893456000;  // 2030-01-01 00:00 UTC

// Who sends each order file (fixtures/orders/nwol-1805/PLAY.md, scripts/main.sh).
std::string SenderOf(const std::string& file) {
  const std::map<std::string, std::string> by_suffix = {
      {"-BR.orders.json", "pitt"},         {"-BR-naval.orders.json", "barham"}, {"-BR-war.orders.json", "castlereagh"},
      {"-FR.orders.json", "gaudin"},       {"-FR-war.orders.json", "berthier"}, {"-SP.orders.json", "soler"},
      {"-BR1FL.orders.json", "nelson"}};
  for (const auto& [suffix, person] : by_suffix) {
    if (file.size() > suffix.size() && file.ends_with(suffix)) return person;
  }
  FAIL("no sender for " << file);
  return "";
}

std::vector<std::string> FilesOf(int turn) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(F + "/orders/nwol-1805")) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("t" + std::to_string(turn) + "-") && name.ends_with(".json")) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("issue 20: two turns of the 1805 game by mail alone — orders mailed in, answered, the deadline fires, every player gets his reports and their digest verifies",
          "[mail][e2e]") {
  REQUIRE(sodium_init() >= 0);
  TempDir dir;
  auto opened = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(opened.ok());
  ledger::Ledger& db = **opened;
  CliRun made = Cli(db, {"new", "nwol", "--scenario", F + "/scenarios/nwol-1805.json", "--map",
                         F + "/maps/nwol-waters.json", "--seed", "1805"});
  INFO(made.err);
  REQUIRE(made.code == 0);
  const std::vector<std::string> persons = {"pitt", "barham", "castlereagh", "gaudin", "berthier", "soler", "nelson"};
  std::vector<std::pair<std::string, std::string>> users = {{"ga", "ga-pass"}};
  for (const auto& p : persons) users.emplace_back(p, p + "-mailbox");
  MailServers servers(users);
  INFO(servers.error());
  REQUIRE(servers.ok());
  for (const auto& p : persons) {
    REQUIRE(replay::SetPassword(db, "nwol", "main", p, CheapPasswordHash(p + "-1805")).ok());
    CliRun r = Cli(db, {"mail-address", "nwol", "--person", p, servers.Address(p)});
    INFO(r.err);
    REQUIRE(r.code == 0);
  }
  // Turn 1 closes an hour from now, and each later turn a day after the last closed.
  CliRun set = Cli(db, {"schedule", "nwol", "set", "--deadline", "2030-01-01T01:00Z", "--after", "1d", "--now",
                        "2030-01-01T00:00Z"});
  INFO(set.err);
  REQUIRE(set.code == 0);

  const mail::Settings ga = servers.SettingsFor("ga", "ga-pass");
  ScheduledDesk served(db, kNow, std::make_shared<const mail::Settings>(ga));
  REQUIRE(served.status.ok());
  auto& sched = served.scheduler;
  auto& clock = served.clock;

  auto w = replay::Fold(db, "nwol", "main");
  REQUIRE(w.ok());
  const auto rulesets = w->kind()->Rulesets();
  size_t mailed_to_ga = 0;
  std::map<std::string, size_t> in_box;  // person -> messages he should have
  const std::vector<std::string> turns = {"1805.1.1", "1805.1.2"};
  int64_t deadline = kNow + 3600;
  for (int t = 1; t <= 2; ++t) {
    const std::string turn = turns[t - 1];
    INFO("turn " << turn);
    // The GA's directives by his command line; each player's orders by mail.
    std::map<std::string, std::string> id_of_file;
    std::vector<std::pair<std::string, mail::Outgoing>> letters;
    for (const auto& file : FilesOf(t)) {
      if (file.ends_with(".directive.json")) {
        CliRun r = Cli(db, {"directive", "nwol", file});
        INFO(file << ": " << r.err);
        REQUIRE(r.code == 0);
        continue;
      }
      const std::string person = SenderOf(file);
      auto doc = schema::ParseJson("OrderFile", Slurp(file), file);
      REQUIRE(doc.ok());
      auto text = rules::PrintOrderText(doc->data(), rulesets);
      INFO(file << ": " << text.status().message());
      REQUIRE(text.ok());
      mail::Outgoing m;
      m.to_address = servers.Address("ga");
      m.subject = "my orders for " + turn;
      m.message_id = std::filesystem::path(file).stem().string() + ".orders@example.test";
      m.text = "Game: nwol\nPerson: " + person + "\nPassword: " + person + "-1805\n\n" + *text;
      id_of_file[file] = m.message_id;
      letters.emplace_back(person, std::move(m));
    }
    REQUIRE(!letters.empty());
    for (const auto& [person, m] : letters) {
      std::vector<Status> sent;
      REQUIRE(mail::Send(servers.SettingsFor(person, person + "-mailbox"), {m}, &sent).ok());
      REQUIRE(sent[0].ok());
      in_box[person]++;  // the answer to it
      mailed_to_ga++;
    }
    REQUIRE(AwaitMail(ga, mailed_to_ga).ok());

    // Before the deadline: the scheduler reads and answers the orders; nothing fires.
    clock = deadline - 60;
    size_t accepted = 0;
    for (const auto& o : sched->RunOnce()) {
      INFO(o.line);
      CHECK_FALSE(o.failed);
      CHECK_THAT(o.line, !Catch::Contains("deadline fired"));
      accepted += o.line.find("mail in: ") != std::string::npos && o.line.find(": accepted") != std::string::npos &&
                  o.line.find("; answered") != std::string::npos;
    }
    CHECK(accepted == letters.size());
    // The deadline: the turn is adjudicated and every player's reports go out.
    clock = deadline;
    size_t fired = 0, reports = 0;
    for (const auto& o : sched->RunOnce()) {
      INFO(o.line);
      CHECK_FALSE(o.failed);
      fired += o.line.find("deadline fired: turn " + turn) != std::string::npos;
      reports += o.line.find("mail: reports of " + turn + " to ") != std::string::npos;
    }
    CHECK(fired == 1);
    CHECK(reports == persons.size());
    auto digest = replay::DigestTurn(db, "nwol", "main", *Turn::Parse(turn));
    REQUIRE(digest.ok());
    for (const auto& p : persons) {
      in_box[p]++;  // his reports of the turn
      auto box = AwaitMail(servers.SettingsFor(p, p + "-mailbox"), in_box[p]);
      REQUIRE(box.ok());
      INFO(p << " has " << box->size());
      REQUIRE(box->size() == in_box[p]);
      size_t answers = 0, his_reports = 0;
      for (const auto& m : *box) {
        if (m.Header("X-Adjutant-Turn") == turn) {
          his_reports++;
          CHECK(m.Header("X-Adjutant-Digest") == digest->hex);
          CHECK_THAT(m.text, Catch::Contains(digest->hex));
          CHECK_THAT(m.text, Catch::StartsWith("Reports of " + p + " for turn " + turn));
        }
        for (const auto& [file, id] : id_of_file) {
          if (m.in_reply_to != id) continue;
          answers++;
          CHECK_THAT(m.text, Catch::Contains("Your orders for turn " + turn + " of nwol"));
        }
      }
      CHECK(his_reports == 1);
      size_t sent_this_turn = 0;
      for (const auto& [person, m] : letters) sent_this_turn += person == p;
      CHECK(answers == sent_this_turn);
    }
    // The next turn's deadline: a day after this one closed.
    deadline = clock + 86400;
  }
  // Every order the players gave, given by mail: the orders of the two turns
  // are exactly those of the fixtures.
  size_t by_mail = 0, received = 0;
  REQUIRE(db.Read("nwol", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
              if (e.event()->payload_type() == fb::Payload_OrderSubmitted) by_mail++;
              if (const auto* dd = e.event()->payload_as_Directive(); dd && dd->body_as_MailReceived()) {
                received++;
                CHECK(dd->body_as_MailReceived()->accepted());
              }
              return Status::Ok();
            }).ok());
  size_t in_fixtures = 0;
  for (int t = 1; t <= 2; ++t) {
    for (const auto& file : FilesOf(t)) {
      if (!file.ends_with(".orders.json")) continue;
      auto doc = schema::ParseJson("OrderFile", Slurp(file), file);
      REQUIRE(doc.ok());
      in_fixtures += flatbuffers::GetRoot<fb::OrderFile>(doc->data())->orders()->size();
    }
  }
  CHECK(received == mailed_to_ga);
  CHECK(by_mail == in_fixtures);
}
