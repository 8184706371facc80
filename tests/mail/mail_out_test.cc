// Issue 20, mail out, on every kind of game of the registry
// (tests/support/kinds.cc), against real Postfix and Dovecot on loopback
// (tests/mail/servers.sh): after a turn each player with an address finds
// in his own mailbox one message with his reports of it — the turn's digest
// in the body and the header, equal to `adjutant digest`, the hash recorded
// in the log equal to the hash of the text he got — and nothing twice; a
// server that refuses is recorded, waited for, and tried again, and
// nothing is lost.
#include <catch2/catch.hpp>
#include <sodium.h>

#include <array>
#include <chrono>
#include <map>
#include <thread>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "ops/ops.h"
#include "replay/digest.h"
#include "replay/driver.h"
#include "replay/mail.h"
#include "reports/packet.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "support/kinds.h"
#include "support/mail_servers.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

std::string Blake2b(const std::string& s) {
  REQUIRE(sodium_init() >= 0);
  std::array<unsigned char, crypto_generichash_BYTES> out{};
  crypto_generichash(out.data(), out.size(), reinterpret_cast<const unsigned char*>(s.data()), s.size(), nullptr, 0);
  std::array<char, crypto_generichash_BYTES * 2 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), out.data(), out.size());
  return hex.data();
}

std::vector<mail::Incoming> Await(const mail::Settings& s, size_t n) {
  auto got = AwaitMail(s, n);
  INFO(got.status().message());
  REQUIRE(got.ok());
  return *got;
}

const fb::MailOutReport* Rows(const ops::Answer& a, std::vector<uint8_t>* keep) {
  auto bytes = schema::ParseJson("MailOutReport", a.out, "mail-out");
  INFO(a.out);
  REQUIRE(bytes.ok());
  *keep = std::move(bytes).value();
  return flatbuffers::GetRoot<fb::MailOutReport>(keep->data());
}

// The MailSent and MailFailed of the branch, in order.
std::vector<std::string> MailEvents(ledger::Ledger& db) {
  std::vector<std::string> out;
  REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
              const auto* d = e.event()->payload_as_Directive();
              if (!d) return Status::Ok();
              if (const auto* m = d->body_as_MailSent()) out.push_back("sent " + m->person()->str() + " " + m->body_hash()->str());
              if (const auto* m = d->body_as_MailFailed()) out.push_back("failed " + m->person()->str());
              return Status::Ok();
            }).ok());
  return out;
}

}  // namespace

TEST_CASE("issue 20: mail out, on every kind of game — each player with an address gets his reports of the turn, once, with its digest, and a refusing server is recorded and tried again after the backoff",
          "[mail]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      auto w = replay::Fold(db, "g", "main");
      REQUIRE(w.ok());
      // A mailbox for each person holding roles, and the GA's.
      const Mailboxes boxes = MailboxesFor(w->roster().persons());
      const auto& box_of = boxes.box_of;
      const auto& users = boxes.users;
      REQUIRE(box_of.size() >= 2);
      MailServers servers(users);
      INFO(servers.error());
      REQUIRE(servers.ok());
      const mail::Settings ga = servers.SettingsFor("ga", "ga-pass");
      ops::Env env = ops::On(db);

      // Addresses given: the turns already over are not mailed (he had none then).
      for (const auto& [person, box] : box_of) {
        ops::MailAddressRequest rq;
        rq.game = "g";
        rq.person = person;
        rq.address = servers.Address(box);
        ops::Answer a = ops::MailAddress(env, rq);
        INFO(a.status.message());
        REQUIRE(a.status.ok());
      }
      ops::MailOutRequest out;
      out.game = "g";
      out.settings = &ga;
      out.now = 2000000000;
      out.json = true;
      std::vector<uint8_t> keep;
      ops::Answer none = ops::MailOut(env, out);
      REQUIRE(none.status.ok());
      CHECK(Rows(none, &keep)->rows()->size() == 0);

      // The coming turn adjudicated: one message to each.
      auto adj = replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn);
      INFO(adj.status().message());
      REQUIRE(adj.ok());
      const Turn turn = kind.coming;
      auto digest = replay::DigestTurn(db, "g", "main", turn);
      INFO(digest.status().message());
      REQUIRE(digest.ok());
      ops::Answer sent = ops::MailOut(env, out);
      INFO(sent.status.message());
      REQUIRE(sent.status.ok());
      const auto* rows = Rows(sent, &keep);
      std::map<std::string, std::string> hash_of;
      for (const auto* r : *rows->rows()) {
        INFO(r->person()->str() + " " + r->error()->str());
        CHECK(r->outcome()->str() == "sent");
        CHECK(r->turn()->str() == turn.ToString());
        CHECK(r->digest()->str() == digest->hex);
        CHECK(r->seq() > 0);
        hash_of[r->person()->str()] = r->body_hash()->str();
      }
      CHECK(hash_of.size() == box_of.size());
      for (const auto& [person, box] : box_of) {
        INFO(person);
        auto got = Await(servers.SettingsFor(box, box + "-pass"), 1);
        REQUIRE(got.size() == 1);
        const mail::Incoming& m = got[0];
        CHECK(m.error.empty());
        CHECK(m.from_address == servers.Address("ga"));
        CHECK_THAT(m.subject, Catch::Contains("[g]"));
        CHECK_THAT(m.text, Catch::StartsWith("Reports of " + person + " for "));
        CHECK_THAT(m.text, Catch::Contains(digest->hex));
        CHECK(m.Header("X-Adjutant-Digest") == digest->hex);
        CHECK(m.Header("X-Adjutant-Turn") == turn.ToString());
        CHECK_FALSE(m.in_reply_to.empty());
        // What he got is what the log says he was sent.
        CHECK(Blake2b(m.text) == hash_of[person]);
        // His reports and only his: the packet built for him, word for word.
        auto packet = reports::TurnPacket(db, "g", "main", person, turn);
        REQUIRE(packet.ok());
        CHECK_THAT(m.text, Catch::Contains(packet->Text()));
        for (const auto& [other, other_box] : box_of) {
          if (other != person) CHECK_THAT(m.text, !Catch::Contains("Reports of " + other + " "));
        }
        size_t json = 0;
        for (const auto& at : m.attachments) json += at.media_type == "application/json";
        CHECK(json == packet->json.size());
      }
      // Nothing twice.
      ops::Answer again = ops::MailOut(env, out);
      REQUIRE(again.status.ok());
      CHECK(Rows(again, &keep)->rows()->size() == 0);
      const size_t recorded = MailEvents(db).size();
      CHECK(recorded == box_of.size());

      // The server refuses (a wrong password): recorded, not lost.
      auto adj2 = replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn);
      INFO(adj2.status().message());
      REQUIRE(adj2.ok());
      mail::Settings wrong = ga;
      wrong.smtp.password = "not-it";
      out.settings = &wrong;
      ops::Answer failed = ops::MailOut(env, out);
      CHECK(failed.status.code() == Status::Code::kIOError);
      for (const auto* r : *Rows(failed, &keep)->rows()) {
        CHECK(r->outcome()->str() == "failed");
        CHECK(r->attempt() == 1);
        CHECK(r->retry_at() == out.now + 60);
      }
      CHECK(MailEvents(db).size() == recorded + box_of.size());
      // Before the retry: waits, sends nothing, records nothing.
      out.settings = &ga;
      out.now += 30;
      ops::Answer waiting = ops::MailOut(env, out);
      REQUIRE(waiting.status.ok());
      for (const auto* r : *Rows(waiting, &keep)->rows()) CHECK(r->outcome()->str() == "waiting");
      CHECK(MailEvents(db).size() == recorded + box_of.size());
      // The status view shows it failing.
      ops::StatusRequest st;
      st.game = "g";
      st.now = out.now;
      ops::Answer status = ops::GameStatus(env, st);
      REQUIRE(status.status.ok());
      CHECK_THAT(status.out, Catch::Contains("FAILING (1 attempt"));
      // After it: sent, and threaded with the first.
      out.now += 31;
      ops::Answer retried = ops::MailOut(env, out);
      INFO(retried.out);
      REQUIRE(retried.status.ok());
      for (const auto* r : *Rows(retried, &keep)->rows()) {
        CHECK(r->outcome()->str() == "sent");
        CHECK(r->attempt() == 2);
      }
      for (const auto& [person, box] : box_of) {
        auto got = Await(servers.SettingsFor(box, box + "-pass"), 2);
        REQUIRE(got.size() == 2);
        CHECK(got[1].Header("References") == got[0].Header("References"));
        CHECK(got[1].message_id != got[0].message_id);
      }
      status = ops::GameStatus(env, st);
      CHECK_THAT(status.out, !Catch::Contains("FAILING"));
    }
  }
}

TEST_CASE("issue 20: mail-address and mail-out from the command line — a bad address, an unknown person, a dry run",
          "[mail]") {
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
  const uint64_t head = w->head.seq;
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"mail-address", "g", "--person", person, "not an address"},
        {"mail-address", "g", "--person", person, "a@b"},
        {"mail-address", "g", "--person", person, "<a@b.org>"},
        {"mail-address", "g", "--person", "nobody", "a@b.org"},
        {"mail-address", "g", "--person", person},
        {"mail-address", "g", "--person", person, "a@b.org", "--clear"},
        {"mail-out", "g"}}) {
    CliRun r = Cli(db, bad);
    INFO(bad[4 < bad.size() ? 4 : bad.size() - 1] << ": " << r.err);
    CHECK(r.code == 2);
    CHECK_FALSE(r.err.empty());
  }
  auto after = db.HeadOf("g", "main");
  REQUIRE(after.ok());
  CHECK(after->seq == head);  // nothing appended
  CliRun ok = Cli(db, {"mail-address", "g", "--person", person, "villeneuve@example.org"});
  INFO(ok.err);
  REQUIRE(ok.code == 0);
  CHECK_THAT(ok.out, Catch::Contains("villeneuve@example.org"));
  REQUIRE(replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn).ok());
  CliRun dry = Cli(db, {"mail-out", "g", "--dry-run"});
  INFO(dry.err);
  REQUIRE(dry.code == 0);
  CHECK_THAT(dry.out, Catch::Contains("due to " + person + " <villeneuve@example.org>"));
  CliRun log = Cli(db, {"log", "g", "--kind", "Directive"});
  CHECK_THAT(log.out, Catch::Contains("mail address of " + person + ": villeneuve@example.org"));
  // A dry run records nothing.
  auto dried = db.HeadOf("g", "main");
  CliRun dry2 = Cli(db, {"mail-out", "g", "--dry-run"});
  CHECK(db.HeadOf("g", "main")->seq == dried->seq);
  // Cleared: his mail stops.
  REQUIRE(Cli(db, {"mail-address", "g", "--person", person, "--clear"}).code == 0);
  CliRun stopped = Cli(db, {"mail-out", "g", "--dry-run"});
  CHECK_THAT(stopped.out, Catch::Contains("no mail due"));
}

TEST_CASE("issue 20: reminders, on every kind of game — those who owe orders are mailed at each reminder time before the deadline, once each, and those who gave orders are not",
          "[mail]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      MailedGame mg(kind);
      INFO(mg.status.message());
      REQUIRE(mg.status.ok());
      ledger::Ledger& db = mg.db();
      const auto& box_of = mg.box_of();
      MailServers& servers = *mg.servers;
      ops::Env env = ops::On(db);
      // The deadline a day from now; reminders 12 hours and 1 hour before it.
      const int64_t now = 1893456000;  // 2030-01-01 00:00 UTC
      const int64_t deadline = now + 86400;
      CliRun set = Cli(db, {"schedule", "g", "set", "--deadline", "2030-01-02T00:00Z", "--now", "2030-01-01T00:00Z"});
      INFO(set.err);
      REQUIRE(set.code == 0);
      // One person gives orders for the coming turn: he is not reminded.
      const std::string gave = kind.turns.back().orders.front().first;
      auto doc = schema::ParseJson("OrderFile", kind.turns.back().orders.front().second, "orders.json");
      REQUIRE(doc.ok());
      REQUIRE(replay::SubmitOrders(db, "g", "main", gave, *doc).ok());
      REQUIRE(box_of.count(gave));
      mail::Settings ga = servers.SettingsFor("ga", "ga-pass");
      ga.remind_before = {12 * 3600, 3600};
      ops::MailOutRequest out;
      out.game = "g";
      out.settings = &ga;
      out.json = true;
      std::vector<uint8_t> keep;
      auto reminders = [&](int64_t at) {
        out.now = at;
        ops::Answer a = ops::MailOut(env, out);
        INFO(a.out << a.status.message());
        REQUIRE(a.status.ok());
        std::map<std::string, std::string> sent;  // person -> outcome
        const auto* rep = Rows(a, &keep);
        for (const auto* r : *rep->rows()) {
          CHECK(r->purpose()->str() == "reminder");
          CHECK(r->deadline() == deadline);
          CHECK(r->turn()->str() == kind.coming.ToString());
          sent[r->person()->str()] = r->outcome()->str();
        }
        return std::make_pair(sent, rep->next_reminder());
      };
      // A day before: none yet; the next at twelve hours before.
      auto [first, next1] = reminders(now);
      CHECK(first.empty());
      CHECK(next1 == deadline - 12 * 3600);
      // Twelve hours before: everyone who owes orders, once.
      auto [second, next2] = reminders(deadline - 12 * 3600);
      CHECK(second.size() == box_of.size() - 1);
      for (const auto& [person, outcome] : second) CHECK(outcome == "sent");
      CHECK_FALSE(second.count(gave));
      CHECK(next2 == deadline - 3600);
      CHECK(reminders(deadline - 6 * 3600).first.empty());  // not twice for the same time
      // An hour before: again; then no more times to come.
      auto [third, next3] = reminders(deadline - 1800);
      CHECK(third.size() == box_of.size() - 1);
      CHECK(next3 == 0);
      CHECK(reminders(deadline - 60).first.empty());
      for (const auto& [person, box] : box_of) {
        INFO(person);
        if (person == gave) continue;
        auto got = AwaitMail(servers.SettingsFor(box, box + "-pass"), 2);
        REQUIRE(got.ok());
        REQUIRE(got->size() == 2);
        for (const auto& m : *got) {
          CHECK_THAT(m.subject, Catch::Contains("are due by 2030-01-02"));
          CHECK_THAT(m.text, Catch::StartsWith(person + ", you have given no orders for "));
          CHECK_THAT(m.text, Catch::Contains("Person: " + person));
          CHECK(m.Header("X-Adjutant-Turn") == kind.coming.ToString());
        }
      }
      // He who gave orders: nothing (the others' came in the same batches).
      auto his = mail::Fetch(servers.SettingsFor(box_of.at(gave), box_of.at(gave) + "-pass"), false);
      REQUIRE(his.ok());
      CHECK(his->empty());
      // Recorded as sent (MailSent, purpose reminder), moving no one's reports on.
      size_t recorded = 0;
      REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                  const auto* d = e.event()->payload_as_Directive();
                  if (d && d->body_as_MailSent() && d->body_as_MailSent()->purpose()->str() == "reminder") recorded++;
                  return Status::Ok();
                }).ok());
      CHECK(recorded == 2 * (box_of.size() - 1));
      auto after = replay::Fold(db, "g", "main");
      REQUIRE(after.ok());
      for (const auto& [person, b] : replay::MailOf(*after).boxes) CHECK_FALSE(b.any_sent);
      // Past the deadline, or paused: none.
      ga.remind_before = {12 * 3600, 3600, 600};
      REQUIRE(Cli(db, {"schedule", "g", "pause", "--now", "2030-01-01T23:55Z"}).code == 0);
      CHECK(reminders(deadline - 300).first.empty());
    }
  }
}

TEST_CASE("issue 20: SOW 2.5 and 2.6 notices by mail — a blockade or embargo the GA records goes to the Foreign Ministers of both states, once, and to no one else",
          "[mail]") {
  const std::string F = ADJUTANT_FIXTURES;
  TempDir dir;
  auto opened = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(opened.ok());
  ledger::Ledger& db = **opened;
  REQUIRE(Cli(db, {"new", "nwol", "--scenario", F + "/scenarios/nwol-1805.json", "--seed", "1805"}).code == 0);
  MailServers servers({{"ga", "ga-pass"}, {"mulgrave", "m-pass"}, {"talleyrand", "t-pass"}, {"cevallos", "c-pass"},
                       {"pitt", "p-pass"}});
  INFO(servers.error());
  REQUIRE(servers.ok());
  // Spain's Foreign Minister has no address yet when France is blockaded.
  for (const char* p : {"mulgrave", "talleyrand", "pitt"}) {
    REQUIRE(Cli(db, {"mail-address", "nwol", "--person", p, servers.Address(p)}).code == 0);
  }
  CliRun france = Cli(db, {"directive", "nwol", F + "/orders/nwol-1805/t1-01-blockade-france.directive.json"});
  INFO(france.err);
  REQUIRE(france.code == 0);
  REQUIRE(Cli(db, {"mail-address", "nwol", "--person", "cevallos", servers.Address("cevallos")}).code == 0);
  const mail::Settings ga = servers.SettingsFor("ga", "ga-pass");
  ops::MailOutRequest out;
  out.game = "nwol";
  out.settings = &ga;
  out.now = 1893456000;
  out.json = true;
  std::vector<uint8_t> keep;
  auto notices = [&](bool dry) {
    out.dry_run = dry;
    ops::Answer a = ops::MailOut(ops::On(db), out);
    INFO(a.out << a.status.message());
    REQUIRE(a.status.ok());
    std::map<std::string, std::string> got;  // person -> outcome
    for (const auto* r : *Rows(a, &keep)->rows()) {
      CHECK(r->purpose()->str() == "notice");
      got[r->person()->str()] = r->outcome()->str();
    }
    return got;
  };
  CHECK(notices(true) == std::map<std::string, std::string>{{"mulgrave", "due"}, {"talleyrand", "due"}});
  CHECK(notices(false) == std::map<std::string, std::string>{{"mulgrave", "sent"}, {"talleyrand", "sent"}});
  CHECK(notices(false).empty());  // once
  // Spain blockaded, now that its minister has an address: he and Britain's, not France's.
  REQUIRE(Cli(db, {"directive", "nwol", F + "/orders/nwol-1805/t2-01-blockade-spain.directive.json"}).code == 0);
  CHECK(notices(false) == std::map<std::string, std::string>{{"cevallos", "sent"}, {"mulgrave", "sent"}});
  auto box = [&](const std::string& p, const std::string& pw, size_t n) {
    auto got = AwaitMail(servers.SettingsFor(p, pw), n);
    INFO(p << ": " << got.status().message());
    REQUIRE(got.ok());
    return *got;
  };
  auto t = box("talleyrand", "t-pass", 1);
  REQUIRE(t.size() == 1);
  CHECK_THAT(t[0].subject, Catch::Contains("notice of the blockade of FR by BR (SOW 2.5)"));
  CHECK_THAT(t[0].text, Catch::Contains("Lord Mulgrave, His Britannic Majesty's Secretary of State"));
  CHECK(t[0].Header("X-Adjutant-Notice") == "blockade BR FR");
  CHECK(box("mulgrave", "m-pass", 2).size() == 2);
  auto c = box("cevallos", "c-pass", 1);
  REQUIRE(c.size() == 1);
  CHECK_THAT(c[0].subject, Catch::Contains("blockade of SP by BR"));
  auto pitt = mail::Fetch(servers.SettingsFor("pitt", "p-pass"), false);
  REQUIRE(pitt.ok());
  CHECK(pitt->empty());  // not a Foreign Minister
}
