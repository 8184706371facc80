// Issue 20, mail in and out: the settings file, messages composed and read
// back, and real SMTP submission and IMAP against Debian's Postfix and
// Dovecot on loopback (tests/mail/servers.sh) — TLS required, the server's
// certificate checked, a wrong password or a stranger's CA refused.
#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "mail/mail.h"
#include "support/mail_servers.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

void Write(const std::string& path, const std::string& text, mode_t mode) {
  std::ofstream(path) << text;
  REQUIRE(chmod(path.c_str(), mode) == 0);
}

// USER's messages over IMAP once `n` have arrived (delivery is asynchronous:
// polled, a bounded number of times; no timing is asserted).
std::vector<mail::Incoming> Await(const mail::Settings& s, size_t n) {
  auto got = AwaitMail(s, n);
  INFO(got.status().message());
  REQUIRE(got.ok());
  return *got;
}

}  // namespace

TEST_CASE("mail settings: the example reads, and each mistake is refused naming file, line and key", "[mail]") {
  TempDir d;
  const std::string pw = d.Sub("pw");
  Write(pw, "s3cret\n", 0600);
  std::string example(mail::ExampleSettings());
  for (const char* k : {"smtp.password_file = /home/ga/.adjutant-mail-password",
                        "imap.password_file = /home/ga/.adjutant-mail-password"}) {
    example.replace(example.find(k), std::string(k).size(), std::string(k).substr(0, 18) + " = " + pw);
  }
  auto s = mail::ParseSettings(example, "mail.conf");
  INFO(s.status().message());
  REQUIRE(s.ok());
  CHECK(s->from_address == "ga@example.org");
  CHECK(s->from_name == "Game Administrator");
  CHECK(s->smtp.host == "mail.example.org");
  CHECK(s->smtp.port == 587);
  CHECK(s->smtp.password == "s3cret");
  CHECK(s->imap.port == 143);
  CHECK(s->smtp.tls == mail::Tls::kStartTls);
  CHECK_FALSE(s->holds_password);
  CHECK(s->remind_before.empty());  // the example leaves reminders off
  auto reminding = mail::ParseSettings("from = a@b\nsmtp.host = h\nsmtp.user = u\nsmtp.password = p\nremind = 2h, 1d, 2h\n", "mail.conf");
  INFO(reminding.status().message());
  REQUIRE(reminding.ok());
  CHECK(reminding->remind_before == std::vector<int64_t>{86400, 7200});  // longest first, once each

  struct Case {
    std::string text, says;
  };
  const std::vector<Case> bad = {
      {"from = a@b\nsmtp.host = h\nsmtp.user = u\nsmtp.password = p\nsmtp.prot = 25\n", "mail.conf:5: smtp.prot: no such setting"},
      {"from = a@b\nsmtp.host = h\nsmtp.port = 70000\n", "mail.conf:3: smtp.port: '70000' is not a port"},
      {"from = a@b\nsmtp.host = h\nsmtp.tls = none\n", "mail.conf:3: smtp.tls: 'none' is not starttls or tls"},
      {"from = a@b\nsmtp.host = h\nsmtp.user = u\n", "smtp.password (or smtp.password_file) is missing"},
      {"from = nobody\nsmtp.host = h\n", "mail.conf:1: from: 'nobody' is not an address"},
      {"smtp.host = h\nsmtp.host = g\n", "mail.conf:2: smtp.host: given twice (first on line 1)"},
      {"smtp.host = h\nsmtp.user = u\nsmtp.password = p\n", "from is missing"},
      {"just words\n", "mail.conf:1: 'just words' is not `key = value`"},
      {"from = a@b\nsmtp.host = h\nremind = 24h, soon\n", "mail.conf:3: remind: 'soon' is not a duration"},
      {"# nothing\n", "neither smtp.host nor imap.host is set"},
      {"from = a@b\nsmtp.host = h\nsmtp.user = u\nsmtp.password_file = /nonexistent/pw\n", "mail.conf:4: smtp.password_file: /nonexistent/pw cannot be read"},
  };
  for (const auto& c : bad) {
    INFO(c.text);
    auto r = mail::ParseSettings(c.text, "mail.conf");
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.status().message(), Catch::Contains(c.says));
  }
  // A password written in the file: the file must be the GA's alone.
  const std::string conf = d.Sub("mail.conf");
  Write(conf, "from = GA <ga@example.test>\nsmtp.host = h\nsmtp.user = u\nsmtp.password = p\n", 0644);
  auto open = mail::LoadSettings(conf);
  REQUIRE_FALSE(open.ok());
  CHECK_THAT(open.status().message(), Catch::Contains("chmod 600 " + conf));
  REQUIRE(chmod(conf.c_str(), 0600) == 0);
  auto closed = mail::LoadSettings(conf);
  INFO(closed.status().message());
  REQUIRE(closed.ok());
  CHECK(closed->holds_password);
  CHECK(closed->smtp.port == 587);
  CHECK_FALSE(mail::LoadSettings(d.Sub("missing.conf")).ok());
}

TEST_CASE("mail: a message composed reads back the same — UTF-8 subject and body, HTML part, attachments, thread, headers", "[mail]") {
  mail::Settings s;
  s.from_address = "ga@example.test";
  s.from_name = "Le Maître du Jeu";
  mail::Outgoing m;
  m.to_address = "villeneuve@example.test";
  m.to_name = "Pierre-Charles Villeneuve";
  m.subject = "Été 1805, tour 3 — vos ordres";
  m.text = "Départ de Toulon: refusé (PATE 6.2).\nLigne 2 \xe2\x80\x94 fin.\n";
  m.html = "<p>Départ de Toulon</p>";
  m.attachments = {{"map.svg", "image/svg+xml", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"},
                   {"report.json", "application/json", "{\"a\": 1}"}};
  m.message_id = "turn-3.g.main@adjutant.test";
  m.references = {"thread.g@adjutant.test", "turn-2.g.main@adjutant.test"};
  m.headers = {{"X-Adjutant-Game", "g/main"}, {"X-Adjutant-Digest", "ab12cd"}};
  auto raw = mail::Compose(s, m);
  INFO(raw.status().message());
  REQUIRE(raw.ok());
  INFO(*raw);
  auto in = mail::Parse(*raw);
  INFO(in.status().message());
  REQUIRE(in.ok());
  CHECK(in->from_address == "ga@example.test");
  CHECK(in->from_name == "Le Maître du Jeu");
  CHECK(in->subject == m.subject);
  CHECK(in->text == m.text);
  CHECK(in->message_id == m.message_id);
  CHECK(in->in_reply_to == "turn-2.g.main@adjutant.test");
  CHECK_THAT(in->Header("references"), Catch::Contains("<thread.g@adjutant.test>"));
  CHECK(in->Header("x-adjutant-digest") == "ab12cd");
  CHECK(in->Header("X-Adjutant-Game") == "g/main");
  REQUIRE(in->attachments.size() == 2);
  CHECK(in->attachments[0].name == "map.svg");
  CHECK(in->attachments[0].bytes == m.attachments[0].bytes);
  CHECK(in->attachments[1].media_type == "application/json");
  CHECK(in->attachments[1].bytes == "{\"a\": 1}");
  // A long subject with accents is folded into several encoded words, and
  // reads back with its spaces as they were.
  m.subject = "Été 1805 — ";
  for (int i = 0; i < 12; ++i) m.subject += "l'escadre de Brest reste à quai, ";
  auto folded = mail::Compose(s, m);
  REQUIRE(folded.ok());
  auto unfolded = mail::Parse(*folded);
  REQUIRE(unfolded.ok());
  CHECK(unfolded->subject == m.subject);
  // Nothing is invented for a message that says nothing.
  auto empty = mail::Parse("");
  if (empty.ok()) {
    CHECK(empty->from_address.empty());
    CHECK(empty->message_id.empty());
    CHECK(empty->text.empty());
  }
}

TEST_CASE("mail: real Postfix and Dovecot on loopback — sent over submission with STARTTLS and SASL, read over IMAP, and a wrong password or a stranger's CA sends nothing",
          "[mail]") {
  MailServers servers({{"ga", "ga-pass"}, {"bob", "bob-pass"}, {"carol", "carol-pass"}});
  INFO(servers.error());
  REQUIRE(servers.ok());
  const mail::Settings ga = servers.SettingsFor("ga", "ga-pass");
  const mail::Settings bob = servers.SettingsFor("bob", "bob-pass");
  const mail::Settings carol = servers.SettingsFor("carol", "carol-pass");

  std::vector<mail::Outgoing> out(2);
  out[0].to_address = servers.Address("bob");
  out[0].to_name = "Amiral Brueys d'Aigalliers — Bob";
  // Words no ASCII holds, in the headers too: encoded (RFC 2047), so no hop
  // needs SMTPUTF8 (Dovecot's LMTP offers none: the message would bounce).
  out[0].subject = "Printemps 1805, tour 1 — vos rapports, Été";
  out[0].text = "Token 7f3a-bob.\nYour orders: stand.\n";
  out[0].message_id = "t1.bob@adjutant.test";
  out[0].references = {"thread.bob@adjutant.test"};
  out[0].headers = {{"X-Adjutant-Digest", "d1g35t"}};
  out[0].attachments = {{"positions.svg", "image/svg+xml", "<svg/>"}};
  out[1].to_address = servers.Address("carol");
  out[1].subject = "Spring 1805, turn 1: your reports";
  out[1].text = "Token 91c2-carol.\n";
  std::vector<Status> sent;
  Status st = mail::Send(ga, out, &sent);
  INFO(st.message());
  REQUIRE(st.ok());
  for (const auto& s : sent) {
    INFO(s.message());
    CHECK(s.ok());
  }

  auto got = Await(bob, 1);
  REQUIRE(got.size() == 1);
  CHECK(got[0].error.empty());
  CHECK(got[0].subject == out[0].subject);
  CHECK(got[0].text == out[0].text);
  CHECK(got[0].message_id == "t1.bob@adjutant.test");
  CHECK(got[0].in_reply_to == "thread.bob@adjutant.test");
  CHECK(got[0].Header("X-Adjutant-Digest") == "d1g35t");
  CHECK(got[0].from_address == servers.Address("ga"));
  REQUIRE(got[0].attachments.size() == 1);
  CHECK(got[0].attachments[0].bytes == "<svg/>");
  CHECK(got[0].uid > 0);
  auto carols = Await(carol, 1);
  REQUIRE(carols.size() == 1);
  CHECK_THAT(carols[0].text, Catch::Contains("91c2-carol"));
  CHECK_THAT(got[0].text, !Catch::Contains("carol"));

  // Reading marks nothing; MarkSeen does.
  auto unseen = mail::Fetch(bob, true);
  REQUIRE(unseen.ok());
  CHECK(unseen->size() == 1);
  REQUIRE(mail::MarkSeen(bob, {got[0].uid}).ok());
  unseen = mail::Fetch(bob, true);
  REQUIRE(unseen.ok());
  CHECK(unseen->empty());
  CHECK(mail::Fetch(bob, false)->size() == 1);

  // A wrong password: nothing goes, and the error says where.
  mail::Settings wrong = ga;
  wrong.smtp.password = "not-it";
  std::vector<Status> none;
  Status refused = mail::Send(wrong, {out[1]}, &none);
  CHECK_FALSE(refused.ok());
  CHECK_THAT(refused.message(), Catch::Contains("smtp " + servers.host() + ":"));
  REQUIRE(none.size() == 1);
  CHECK_FALSE(none[0].ok());
  wrong = bob;
  wrong.imap.password = "not-it";
  CHECK_FALSE(mail::Fetch(wrong, false).ok());

  // A server whose certificate the settings' CA did not sign: refused.
  TempDir d;
  const std::string other_ca = d.Sub("stranger.pem");
  REQUIRE(std::system(("openssl req -x509 -newkey rsa:2048 -nodes -keyout '" + d.Sub("k.pem") + "' -out '" + other_ca +
                       "' -subj /CN=stranger -days 2 >/dev/null 2>&1")
                          .c_str()) == 0);
  mail::Settings stranger = ga;
  stranger.ca_file = other_ca;
  Status untrusted = mail::Send(stranger, {out[1]}, &none);
  CHECK_FALSE(untrusted.ok());
  CHECK_THAT(untrusted.message(), Catch::Contains("smtp " + servers.host() + ":"));
  stranger = bob;
  stranger.ca_file = other_ca;
  auto untrusted_in = mail::Fetch(stranger, false);
  CHECK_FALSE(untrusted_in.ok());

  // Carol still has one message: nothing refused was delivered.
  auto again = mail::Fetch(carol, false);
  REQUIRE(again.ok());
  CHECK(again->size() == 1);
}
