// Issue 20, mail in, on every kind of game of the registry
// (tests/support/kinds.cc), against real Postfix and Dovecot on loopback: a
// player mails his orders (the text form in the body, or an order file
// attached) to the GA's address; `mail-in` reads the GA's IMAP folder,
// records the orders as `adjutant order` would, records the message
// (MailReceived, its hash taken with the password blotted out) and answers
// the player in the thread with each order's fate. A wrong password, a
// message that names no game, orders that do not parse are answered with
// why; automatic mail is not answered; a message read again — or mailed
// again with the same Message-ID — records nothing and is not answered
// twice; an answer the server refused is sent next time, the orders still
// taken once.
#include <catch2/catch.hpp>
#include <sodium.h>

#include <sys/stat.h>

#include <fstream>
#include <functional>
#include <map>
#include <set>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "ops/ops.h"
#include "replay/digest.h"
#include "replay/driver.h"
#include "replay/mail.h"
#include "rules/kind.h"
#include "rules/order_text.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "support/kinds.h"
#include "support/mail_servers.h"
#include "support/run.h"
#include "support/serve.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

constexpr int64_t kNow = 1893456000;  // 2030-01-01 00:00 UTC
const std::string kPassword = "saltpetre-and-oak";

std::string HashOf(const std::string& password) {
  REQUIRE(sodium_init() >= 0);
  char hash[crypto_pwhash_STRBYTES];
  REQUIRE(crypto_pwhash_str(hash, password.c_str(), password.size(), crypto_pwhash_OPSLIMIT_MIN,
                            crypto_pwhash_MEMLIMIT_MIN) == 0);
  return hash;
}

struct Report {
  std::vector<uint8_t> bytes;
  const fb::MailInReport* get() const { return flatbuffers::GetRoot<fb::MailInReport>(bytes.data()); }
  const fb::MailInRow* Row(const std::string& id) const {
    for (const auto* r : *get()->rows()) {
      if (r->message_id()->str() == id) return r;
    }
    FAIL("no row for <" << id << ">");
    return nullptr;
  }
};

Report Parse(const ops::Answer& a) {
  INFO(a.out << a.status.message());
  auto bytes = schema::ParseJson("MailInReport", a.out, "mail-in");
  REQUIRE(bytes.ok());
  return {std::move(bytes).value()};
}

// Counts of the branch's events: OrderSubmitted, MailReceived (accepted /
// refused) and MailSent replies, and the MailReceived by message id.
struct Tally {
  size_t orders = 0, received = 0, refused = 0, replies = 0;
  std::set<int64_t> received_at;  // the orders': when each was received
  std::map<std::string, std::string> body_hash;  // message id -> body hash
};
Tally Count(ledger::Ledger& db) {
  Tally t;
  REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
              if (const auto* o = e.event()->payload_as_OrderSubmitted()) {
                t.orders++;
                t.received_at.insert(o->received_at());
              }
              const auto* d = e.event()->payload_as_Directive();
              if (!d) return Status::Ok();
              if (const auto* r = d->body_as_MailReceived()) {
                t.received++;
                t.refused += !r->accepted();
                t.body_hash[r->message_id()->str()] = r->body_hash()->str();
              }
              if (const auto* m = d->body_as_MailSent(); m && m->purpose()->str() == "reply") t.replies++;
              return Status::Ok();
            }).ok());
  return t;
}

mail::Outgoing Letter(const std::string& to, const std::string& id, const std::string& text) {
  mail::Outgoing m;
  m.to_address = to;
  m.subject = "orders";
  m.message_id = id;
  m.text = text;
  return m;
}

void SendAll(const mail::Settings& from, const std::vector<mail::Outgoing>& letters) {
  std::vector<Status> sent;
  Status st = mail::Send(from, letters, &sent);
  INFO(st.message());
  REQUIRE(st.ok());
  for (const auto& s : sent) {
    INFO(s.message());
    REQUIRE(s.ok());
  }
}

std::vector<mail::Incoming> Await(const mail::Settings& s, size_t n) {
  auto got = AwaitMail(s, n);
  INFO(got.status().message());
  REQUIRE(got.ok());
  REQUIRE(got->size() >= n);
  return *got;
}

const mail::Incoming* ReplyTo(const std::vector<mail::Incoming>& box, const std::string& id) {
  const mail::Incoming* found = nullptr;
  size_t n = 0;
  for (const auto& m : box) {
    if (m.in_reply_to == id) {
      found = &m;
      n++;
    }
  }
  INFO("replies to <" << id << ">");
  CHECK(n <= 1);
  return found;
}

}  // namespace

TEST_CASE("issue 20: mail in, on every kind of game — orders mailed as text or attached are recorded once and answered in the thread with each order's fate, and bad mail is answered with why",
          "[mail]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      REQUIRE(!kind.turns.empty());
      REQUIRE(!kind.turns.back().orders.empty());
      const std::string person = kind.turns.back().orders.front().first;
      const std::string json = kind.turns.back().orders.front().second;
      REQUIRE(replay::SetPassword(db, "g", "main", person, HashOf(kPassword)).ok());
      auto w = replay::Fold(db, "g", "main");
      REQUIRE(w.ok());
      REQUIRE(w->kind());
      const auto rulesets = w->kind()->Rulesets();
      auto doc = schema::ParseJson("OrderFile", json, "orders.json");
      REQUIRE(doc.ok());
      auto text = rules::PrintOrderText(doc->data(), rulesets);
      INFO(text.status().message());
      REQUIRE(text.ok());

      MailServers servers({{"ga", "ga-pass"}, {"player", "player-pass"}});
      INFO(servers.error());
      REQUIRE(servers.ok());
      const mail::Settings ga = servers.SettingsFor("ga", "ga-pass");
      const mail::Settings player = servers.SettingsFor("player", "player-pass");
      const std::string to = servers.Address("ga");
      const std::string head = "Game: g\nPerson: " + person + "\n";
      const std::string good = head + "Password: " + kPassword + "\n\n" + *text;
      const std::string k = kind.name + "@example.test";
      std::vector<mail::Outgoing> letters = {
          Letter(to, "text." + k, good + "\n-- \nAdmiral of the fleet\nnot an order\n"),
          Letter(to, "wrong." + k, head + "Password: not-the-password\n\n" + *text),
          Letter(to, "json." + k, head + "Password: " + kPassword + "\n"),
          Letter(to, "nogame." + k, "Game: no-such-game\nPerson: " + person + "\nPassword: x\n\n" + *text),
          Letter(to, "typo." + k, head + "Password: " + kPassword + "\n\nthis is no order at all\n"),
          Letter(to, "auto." + k, good),
      };
      letters[2].attachments.push_back({"orders.json", "application/json", json});
      letters[5].headers.push_back({"Auto-Submitted", "auto-replied"});
      SendAll(player, letters);
      const auto arrived = Await(ga, letters.size());
      const Tally before = Count(db);

      ops::MailInRequest rq;
      rq.settings = &ga;
      rq.from_imap = true;
      rq.now = kNow;
      rq.json = true;
      ops::Answer a = ops::MailIn(ops::On(db), rq);
      INFO(a.out << a.status.message());
      REQUIRE(a.status.ok());
      Report rep = Parse(a);
      REQUIRE(rep.get()->rows()->size() == letters.size());
      for (const char* accepted : {"text.", "json."}) {
        const auto* r = rep.Row(accepted + k);
        INFO(accepted << " " << r->reason()->str());
        CHECK(r->outcome()->str() == "accepted");
        REQUIRE(r->orders());
        CHECK(r->orders()->orders()->size() > 0);
        CHECK(r->person()->str() == person);
        CHECK(r->reply()->str() == "sent");
        CHECK(r->seq() > 0);
      }
      CHECK(rep.Row("wrong." + k)->outcome()->str() == "refused");
      CHECK_THAT(rep.Row("wrong." + k)->reason()->str(), Catch::Contains("wrong person or password"));
      CHECK(rep.Row("wrong." + k)->seq() > 0);  // recorded as received and refused
      CHECK(rep.Row("nogame." + k)->outcome()->str() == "refused");
      CHECK(rep.Row("nogame." + k)->seq() == 0);  // no game of this ledger: recorded nowhere
      CHECK(rep.Row("nogame." + k)->reply()->str() == "sent");
      CHECK(rep.Row("typo." + k)->outcome()->str() == "refused");
      CHECK_THAT(rep.Row("typo." + k)->reason()->str(), Catch::Contains("the message:5:"));
      CHECK(rep.Row("auto." + k)->outcome()->str() == "ignored");
      CHECK(rep.Row("auto." + k)->reply()->str() == "none");

      // The ledger: the two accepted messages' orders, four messages received
      // (three refused: wrong, typo; and none for the unknown game or the
      // automatic one), a reply recorded for each answered one of this game.
      const Tally after = Count(db);
      const size_t given = rep.Row("text." + k)->orders()->orders()->size() + rep.Row("json." + k)->orders()->orders()->size();
      CHECK(after.orders - before.orders == given);
      // Each order received when the mailbox was read (the run's time).
      CHECK(after.received_at.count(kNow) == 1);
      CHECK(after.received - before.received == 4);
      CHECK(after.refused - before.refused == 2);
      CHECK(after.replies - before.replies == 4);
      // The hash recorded is of the text with the password blotted out: the
      // log gives no way to test a guess at it.
      std::string sent_text;
      for (const auto& m : arrived) {
        if (m.message_id == "wrong." + k) sent_text = m.text;
      }
      const size_t at = sent_text.find("not-the-password");
      REQUIRE(at != std::string::npos);
      std::string blotted = sent_text;
      blotted.replace(at, std::string("not-the-password").size(), "********");
      CHECK(after.body_hash.at("wrong." + k) == replay::Blake2bHex(blotted));
      CHECK(after.body_hash.at("wrong." + k) != replay::Blake2bHex(sent_text));

      // The player's mailbox: one answer to each answered message, in its thread.
      auto box = Await(player, 5);
      CHECK(box.size() == 5);
      const mail::Incoming* ok = ReplyTo(box, "text." + k);
      REQUIRE(ok);
      CHECK_THAT(ok->subject, Catch::StartsWith("Re: orders"));
      CHECK(ok->Header("Auto-Submitted") == "auto-replied");
      CHECK_THAT(ok->text, Catch::Contains("Your orders for "));
      for (const auto* o : *rep.Row("text." + k)->orders()->orders()) {
        CHECK_THAT(ok->text, Catch::Contains("#" + std::to_string(o->seq()) + " " + o->slot()->str() + ": " +
                                             o->status()->str()));
      }
      const mail::Incoming* wrong = ReplyTo(box, "wrong." + k);
      REQUIRE(wrong);
      CHECK_THAT(wrong->text, Catch::Contains("wrong person or password"));
      CHECK_THAT(wrong->text, Catch::Contains("recorded as received and refused"));
      CHECK_THAT(wrong->text, Catch::Contains("Password: YOUR PASSWORD"));
      CHECK_THAT(wrong->text, !Catch::Contains(kPassword));
      const mail::Incoming* typo = ReplyTo(box, "typo." + k);
      REQUIRE(typo);
      CHECK_THAT(typo->text, Catch::Contains("the message:5:"));
      const mail::Incoming* nogame = ReplyTo(box, "nogame." + k);
      REQUIRE(nogame);
      CHECK_THAT(nogame->text, Catch::Contains("there is no game 'no-such-game' here"));
      CHECK_THAT(nogame->text, Catch::Contains("Nothing of it was recorded"));
      CHECK(ReplyTo(box, "auto." + k) == nullptr);

      // Read again: nothing new (all were marked seen).
      const auto head_before = db.HeadOf("g", "main");
      REQUIRE(head_before.ok());
      ops::Answer again = ops::MailIn(ops::On(db), rq);
      REQUIRE(again.status.ok());
      CHECK(Parse(again).get()->rows()->size() == 0);
      // Mailed again with the same Message-ID: seen before, nothing recorded, not answered.
      SendAll(player, {letters[0]});
      Await(ga, letters.size() + 1);
      ops::Answer twice = ops::MailIn(ops::On(db), rq);
      INFO(twice.out);
      REQUIRE(twice.status.ok());
      Report rep2 = Parse(twice);
      REQUIRE(rep2.get()->rows()->size() == 1);
      CHECK(rep2.Row("text." + k)->outcome()->str() == "seen before");
      CHECK(rep2.Row("text." + k)->reply()->str() == "none");
      const auto head_after = db.HeadOf("g", "main");
      REQUIRE(head_after.ok());
      CHECK(head_after->seq == head_before->seq);
      CHECK(Await(player, 5).size() == 5);
    }
  }
}

TEST_CASE("issue 20: mail in piped from the mail server — an answer the server refused is sent next time, the orders taken once",
          "[mail]") {
  const GameKind& kind = GameKinds().front();
  PlayedGame g(kind);
  REQUIRE(g.status.ok());
  ledger::Ledger& db = *g;
  const std::string person = kind.turns.back().orders.front().first;
  REQUIRE(replay::SetPassword(db, "g", "main", person, HashOf(kPassword)).ok());
  MailServers servers({{"ga", "ga-pass"}, {"player", "player-pass"}});
  INFO(servers.error());
  REQUIRE(servers.ok());
  const mail::Settings ga = servers.SettingsFor("ga", "ga-pass");
  mail::Outgoing m = Letter(servers.Address("ga"), "piped.1@example.test",
                            "Game: g\nPerson: " + person + "\nPassword: " + kPassword + "\n");
  m.attachments.push_back({"orders.json", "application/json", kind.turns.back().orders.front().second});
  mail::Settings player = servers.SettingsFor("player", "player-pass");
  auto raw = mail::Compose(player, m);
  REQUIRE(raw.ok());
  const Tally before = Count(db);

  // The answer cannot go: the GA's SMTP settings name a port nobody listens on.
  mail::Settings broken = ga;
  broken.smtp.port = 1;
  ops::MailInRequest rq;
  rq.settings = &broken;
  rq.raw = {*raw};
  rq.now = kNow;
  rq.json = true;
  ops::Answer a = ops::MailIn(ops::On(db), rq);
  CHECK(a.status.code() == Status::Code::kIOError);  // the MTA is asked to deliver it again
  Report rep = Parse(a);
  CHECK(rep.Row("piped.1@example.test")->outcome()->str() == "accepted");
  CHECK(rep.Row("piped.1@example.test")->reply()->str() == "failed");
  const Tally mid = Count(db);
  CHECK(mid.orders > before.orders);
  CHECK(mid.received == before.received + 1);
  CHECK(mid.replies == before.replies);

  // Delivered again: the orders are not taken twice; the answer goes now.
  rq.settings = &ga;
  ops::Answer b = ops::MailIn(ops::On(db), rq);
  INFO(b.out << b.status.message());
  REQUIRE(b.status.ok());
  Report rep2 = Parse(b);
  const auto* r = rep2.Row("piped.1@example.test");
  CHECK(r->outcome()->str() == "accepted");
  REQUIRE(r->orders());
  CHECK(r->orders()->replayed());
  CHECK(r->reply()->str() == "sent");
  const Tally last = Count(db);
  CHECK(last.orders == mid.orders);
  CHECK(last.received == mid.received);
  CHECK(last.replies == mid.replies + 1);
  auto box = Await(player, 1);
  REQUIRE(box.size() == 1);
  CHECK(box[0].in_reply_to == "piped.1@example.test");
  CHECK_THAT(box[0].text, Catch::Contains("already recorded"));

  // Once more: seen before, answered before — nothing at all.
  ops::Answer c = ops::MailIn(ops::On(db), rq);
  REQUIRE(c.status.ok());
  CHECK(Parse(c).Row("piped.1@example.test")->outcome()->str() == "seen before");
  CHECK(Count(db).replies == last.replies);

  // Not a message at all; and no settings.
  rq.raw = {"\x01\x02 not mail"};
  ops::Answer junk = ops::MailIn(ops::On(db), rq);
  INFO(junk.out);
  CHECK(junk.status.ok());
  CHECK(Parse(junk).get()->rows()->Get(0)->outcome()->str() != "accepted");
  CliRun no_settings = Cli(db, {"mail-in"});
  CHECK(no_settings.code == 2);
  CHECK_THAT(no_settings.err, Catch::Contains("--settings"));
  CHECK(Count(db).received == last.received);
}

namespace {
// The settings file of USER's account on `servers` (the password in it: chmod 600).
std::string WriteSettings(const MailServers& servers, const std::string& user, const std::string& password,
                          const std::string& path) {
  const std::string text = "from = GA <" + servers.Address(user) + ">\n" + "smtp.host = " + servers.host() +
                           "\nsmtp.port = " + std::to_string(servers.smtp_port()) + "\nsmtp.user = " + user +
                           "\nsmtp.password = " + password + "\nca_file = " + servers.ca_file() + "\n";
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  REQUIRE(chmod(path.c_str(), 0600) == 0);
  return path;
}
}  // namespace

TEST_CASE("issue 20: mail in piped from the MTA while adjutant serve holds the database — taken through the desk, answered with the desk's own mail settings",
          "[mail][socket]") {
  const std::string F = ADJUTANT_FIXTURES;
  TempDir dir;
  const std::string db = dir.Sub("db");
  auto adj = [&](std::vector<std::string> args, const std::optional<std::string>& input = std::nullopt) {
    args.insert(args.begin(), {"--db", db});
    return AdjutantWithInput(args, input);
  };
  REQUIRE(adj({"new", "nwol", "--scenario", F + "/scenarios/nwol-1805.json", "--seed", "1805"}).code == 0);
  {
    std::ofstream pw(dir.Sub("nelson.pw"));
    pw << "nelson-1805\n";
  }
  REQUIRE(adj({"password", "nwol", "--person", "nelson", "--password-file", dir.Sub("nelson.pw")}).code == 0);
  MailServers servers({{"ga", "ga-pass"}, {"nelson", "nelson-pass"}});
  INFO(servers.error());
  REQUIRE(servers.ok());
  const std::string desk_settings = WriteSettings(servers, "ga", "ga-pass", dir.Sub("desk-mail.conf"));
  // The MTA's settings name a server nobody answers on: only the desk's can send the answer.
  const std::string pipe_settings = dir.Sub("pipe-mail.conf");
  {
    std::ofstream out(pipe_settings);
    out << "from = GA <ga@example.test>\nsmtp.host = 127.0.0.1\nsmtp.port = 1\nsmtp.user = ga\nsmtp.password_file = "
        << dir.Sub("pipe.pw") << "\n";
    std::ofstream pw(dir.Sub("pipe.pw"));
    pw << "not-used\n";
  }
  mail::Outgoing m;
  m.to_address = servers.Address("ga");
  m.subject = "orders";
  m.message_id = "through-the-desk@example.test";
  m.text = "Game: nwol\nPerson: nelson\nPassword: nelson-1805\n\nBR1FL orders move SOA contact pursue\n";
  auto raw = mail::Compose(servers.SettingsFor("nelson", "nelson-pass"), m);
  REQUIRE(raw.ok());

  Serve serve(db, dir.Sub("serve.log"), {"--mail-settings", desk_settings, "--schedule-tick", "3600"});
  REQUIRE(serve.Ready());
  auto piped = adj({"mail-in", "--stdin", "--settings", pipe_settings}, *raw);
  INFO(piped.out << piped.err << Slurp(serve.log + ".err"));
  CHECK(piped.code == 0);
  CHECK_THAT(piped.out, Catch::Contains("<through-the-desk@example.test> from nelson@example.test, nwol/nelson: accepted"));
  CHECK_THAT(piped.out, Catch::Contains("; answered"));
  auto box = AwaitMail(servers.SettingsFor("nelson", "nelson-pass"), 1);
  REQUIRE(box.ok());
  REQUIRE(box->size() == 1);
  CHECK((*box)[0].in_reply_to == "through-the-desk@example.test");
  // Again: seen before, nothing new.
  auto again = adj({"mail-in", "--stdin", "--settings", pipe_settings}, *raw);
  CHECK(again.code == 0);
  CHECK_THAT(again.out, Catch::Contains("seen before"));
  // The IMAP reading is the desk's own: refused through the socket.
  auto imap = adj({"mail-in", "--settings", desk_settings});
  CHECK(imap.code == 2);
  CHECK_THAT(imap.err, Catch::Contains("reads the IMAP folder itself"));
  CHECK(serve.Stop(SIGTERM) == 0);

  // A desk without mail settings cannot answer: refused, saying why.
  Serve bare(db, dir.Sub("bare.log"), {"--schedule-tick", "3600"});
  REQUIRE(bare.Ready());
  m.message_id = "no-settings@example.test";
  auto raw2 = mail::Compose(servers.SettingsFor("nelson", "nelson-pass"), m);
  REQUIRE(raw2.ok());
  auto refused = adj({"mail-in", "--stdin", "--settings", pipe_settings}, *raw2);
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Catch::Contains("has no mail settings"));
  CHECK(bare.Stop(SIGTERM) == 0);
}

// What a mail's headers and its Game/Person lines say is the sender's to
// choose, and it is recorded (MailReceived) and shown (`log`, the GA's
// mail-in report): a stray byte, a terminal's escape or a bidirectional
// control in any of them is recorded mended (U+FFFD), never as sent. On
// every kind; no server is needed to record it (the answer's SMTP port is
// closed, so mail-in reports the reply failed, as a piped delivery would).
TEST_CASE("mail in: escapes and stray bytes in a mail's headers and its Person line are recorded mended on every kind",
          "[mail]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const std::string raw =
          "From: =?UTF-8?Q?Admiral_=1B]0;owned=07?= <admiral@example.test>\r\n"
          "To: ga@example.test\r\n"
          "Subject: =?UTF-8?Q?orders_=1B[2J_=E2=80=AE_=FF?=\r\n"
          "Message-ID: <esc." + kind.name + "@example.test>\r\n"
          "MIME-Version: 1.0\r\n"
          "Content-Type: text/plain; charset=utf-8\r\n"
          "\r\n"
          "Game: g\r\n"
          "Person: nobody\x1b[31m\r\n"
          "Password: x\r\n"
          "\r\n"
          "# nothing\r\n";
      mail::Settings ga;
      ga.from_address = "ga@example.test";
      ga.smtp.host = "127.0.0.1";
      ga.smtp.port = 1;
      ops::MailInRequest rq;
      rq.settings = &ga;
      rq.raw = {raw};
      rq.now = kNow;
      rq.json = true;
      ops::Answer a = ops::MailIn(ops::On(db), rq);
      INFO(a.out << a.status.message());
      CHECK(a.out.find('\x1b') == std::string::npos);
      int seen = 0;
      REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                    const auto* d = e.event()->payload_as_Directive();
                    const auto* r = d ? d->body_as_MailReceived() : nullptr;
                    if (!r) return Status::Ok();
                    ++seen;
                    CHECK_FALSE(r->accepted());
                    CHECK(r->person()->str() == "nobody\xEF\xBF\xBD[31m");
                    CHECK(r->subject()->str() == "orders \xEF\xBF\xBD[2J \xEF\xBF\xBD \xEF\xBF\xBD");
                    CHECK(r->from()->str() == "admiral@example.test");
                    CHECK(r->reason()->str() == "wrong person or password for game 'g'");
                    return Status::Ok();
                  }).ok());
      CHECK(seen == 1);
      // A refusing server's answer is its own to word: recorded mended too.
      replay::MailRecord failed;
      failed.person = "p";
      failed.address = "p@example.test";
      failed.purpose = "reports";
      failed.message_id = "failed." + kind.name + "@example.test";
      failed.error = "550 \x1b[2J no such user\r\n\xFF";
      REQUIRE(replay::RecordMailFailed(db, "g", "main", failed).ok());
      std::string recorded_error;
      REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                    const auto* d = e.event()->payload_as_Directive();
                    if (const auto* f = d ? d->body_as_MailFailed() : nullptr) recorded_error = f->error()->str();
                    return Status::Ok();
                  }).ok());
      CHECK(recorded_error == "550 \xEF\xBF\xBD[2J no such user\xEF\xBF\xBD\n\xEF\xBF\xBD");
      // A GA's directive as an older version recorded it: appended raw
      // through the ledger, past every mending.
      const auto append_as_recorded = [&](const char* reason, fb::DirectiveBody type,
                                          const std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)>& body) {
        auto head = db.HeadOf("g", "main");
        REQUIRE(head.ok());
        Draft old;
        old.at = head->at;
        old.actor.kind = ActorKind::kGameAdministrator;
        old.payload = [&](flatbuffers::FlatBufferBuilder& f) {
          const auto b = body(f);
          return PayloadRef{fb::Payload_Directive, fb::CreateDirective(f, f.CreateString(reason), type, b).o};
        };
        REQUIRE(db.Append("g", "main", head->seq, std::span<const Draft>(&old, 1)).ok());
      };
      // One an older version recorded as sent: `log` shows it mended all the same.
      append_as_recorded("mail received and refused", fb::DirectiveBody_MailReceived, [](flatbuffers::FlatBufferBuilder& f) {
        return fb::CreateMailReceivedDirect(f, "old@example.test", "adm\x1b]0;owned\x07\xFF@example.test", "",
                                            "\x1b[2J orders", "", false, "refused", 0)
            .Union();
      });
      const CliRun log = Cli(db, {"log", "g"});
      CHECK(log.code == 0);
      CHECK(log.out.find('\x1b') == std::string::npos);
      CHECK(log.out.find('\xFF') == std::string::npos);
      CHECK_THAT(log.out, Catch::Contains("\"adm\xEF\xBF\xBD]0;owned\xEF\xBF\xBD\xEF\xBF\xBD@example.test\""));
      // Its JSON renders too, the byte that is not UTF-8 as U+FFFD (flatbuffers
      // alone would write "\xFF", which is not JSON, or refuse the event).
      const CliRun log_json = Cli(db, {"log", "g", "--json"});
      CHECK(log_json.code == 0);
      CHECK(log_json.out.find("\\x") == std::string::npos);
      CHECK_THAT(log_json.out, Catch::Contains("adm\\u001B]0;owned\\u0007\\ufffd@example.test"));
      // A refusing server's answer an older version recorded as it came:
      // `status` shows it mended, as text and as JSON.
      auto w = replay::Fold(db, "g", "main");
      REQUIRE(w.ok());
      std::string person;
      for (const auto& [p, pr] : w->roster().persons()) {
        if (!pr.roles.empty()) person = p;
      }
      REQUIRE(Cli(db, {"mail-address", "g", "--person", person, "p@example.test"}).code == 0);
      append_as_recorded("mail failed", fb::DirectiveBody_MailFailed, [&](flatbuffers::FlatBufferBuilder& f) {
        const fb::Turn turn(1, 1, 0);
        return fb::CreateMailFailedDirect(f, person.c_str(), "p@example.test", "reports", &turn, "old.failed@x",
                                          "550 \x1b[2J gone \xFF", 1, kNow, kNow + 600)
            .Union();
      });
      const CliRun status = Cli(db, {"status", "g"});
      CHECK(status.code == 0);
      CHECK(status.out.find('\x1b') == std::string::npos);
      CHECK(status.out.find('\xFF') == std::string::npos);
      CHECK_THAT(status.out, Catch::Contains("550 \xEF\xBF\xBD[2J gone \xEF\xBF\xBD"));
      const CliRun status_json = Cli(db, {"status", "g", "--json"});
      CHECK(status_json.code == 0);
      CHECK_THAT(status_json.out, Catch::Contains("550 \\u001B[2J gone \\ufffd"));
    }
  }
}
