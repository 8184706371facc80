// `adjutant mail-address`, `mail-out` and `mail-check` (issue 20): players'
// addresses, their reports mailed after each turn, and a check of the GA's
// mail settings against his servers (ops/mail.cc, mail/mail.h).
#include "cli/args.h"
#include "cli/common.h"
#include "mail/mail.h"
#include "ops/ops.h"

namespace adjutant::cli {
namespace {

// The largest message taken from the standard input (orders are at most
// limits::kOrderFileBytesMax; the rest is room for MIME's encodings).
constexpr size_t kMailBytesMax = 8 << 20;

const OptionSpec kSettings{"settings", "FILE", "the GA's mail account: a settings file (see `adjutant mail-check --help`)"};

Status CmdMailAddress(Context& c) {
  ops::MailAddressRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  auto person = c.args.Value("person");
  if (!person) return Status::InvalidArgument("adjutant mail-address: --person P is required");
  rq.person = *person;
  if (c.args.positional.size() > 1) rq.address = c.args.positional[1];
  rq.clear = c.args.Flag("clear");
  return RunOp(c, ops::MailAddress, rq);
}

Status CmdMailOut(Context& c) {
  ops::MailOutRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.dry_run = c.args.Flag("dry-run");
  rq.json = c.args.Flag("json");
  auto now = NowOption(c.args);
  if (!now.ok()) return now.status();
  rq.now = *now;
  std::optional<mail::Settings> settings;
  if (auto path = c.args.Value("settings")) {
    auto s = mail::LoadSettings(*path);
    if (!s.ok()) return s.status();
    if (s->smtp.host.empty()) return Status::InvalidArgument(*path + ": smtp.host is not set: no mail goes out");
    settings = std::move(s).value();
    rq.settings = &*settings;
  }
  return RunOp(c, ops::MailOut, rq);
}

Status CmdMailIn(Context& c) {
  ops::MailInRequest rq;
  rq.json = c.args.Flag("json");
  const bool from_stdin = c.args.Flag("stdin");
  if (from_stdin) c.temp_fail_code = 75;  // EX_TEMPFAIL: the MTA delivers it again later
  auto now = NowOption(c.args);
  if (!now.ok()) return now.status();
  rq.now = *now;
  auto path = c.args.Value("settings");
  if (!path) return Status::InvalidArgument("adjutant mail-in: --settings FILE (the GA's mail account) is required");
  std::optional<mail::Settings> own;
  if (CurrentCapture()) {
    // Run by the order desk for a client: the desk's own settings (serve
    // --mail-settings); it reads no file a command names.
    if (!from_stdin) {
      return Status::InvalidArgument("adjutant mail-in: the order desk reads the IMAP folder itself at each tick "
                                     "(serve --mail-settings); only --stdin goes through it");
    }
    if (!DeskMailSettings()) {
      return Status::InvalidArgument("adjutant mail-in: the order desk has no mail settings to answer with: start "
                                     "`adjutant serve` with --mail-settings FILE");
    }
    rq.settings = DeskMailSettings().get();
  } else {
    auto s = mail::LoadSettings(*path);
    if (!s.ok()) return s.status();
    own = std::move(s).value();
    rq.settings = &*own;
  }
  if (from_stdin) {
    auto raw = ReadFile("-", kMailBytesMax);
    if (!raw.ok()) return raw.status();
    if (raw->empty()) return Status::InvalidArgument("adjutant mail-in --stdin: the standard input is empty (no message)");
    rq.raw.push_back(std::move(raw).value());
  } else {
    rq.from_imap = true;
  }
  return RunOp(c, ops::MailIn, rq);
}

Status CmdMailCheck(Context& c) {
  auto path = c.args.Value("settings");
  if (!path) return Status::InvalidArgument("adjutant mail-check: --settings FILE is required");
  auto s = mail::LoadSettings(*path);
  if (!s.ok()) return s.status();
  bool bad = false;
  if (!s->imap.host.empty()) {
    auto in = mail::Fetch(*s, true);
    if (in.ok()) {
      Line("imap " + s->imap.host + ":" + std::to_string(s->imap.port) + ": logged in as " + s->imap.user + "; " +
           std::to_string(in->size()) + " unread in " + s->imap_folder);
    } else {
      Line("imap: " + in.status().message());
      bad = true;
    }
  } else {
    Line("imap: not set (no mail comes in)");
  }
  if (!s->smtp.host.empty()) {
    if (auto to = c.args.Value("send-to")) {
      mail::Outgoing m;
      m.to_address = *to;
      m.subject = "Adjutant: a test of the GA's mail settings";
      m.text = "This message was sent by `adjutant mail-check` to check the mail settings " + *path + ".\n";
      std::vector<Status> sent;
      Status st = mail::Send(*s, {m}, &sent);
      if (st.ok() && sent[0].ok()) {
        Line("smtp " + s->smtp.host + ":" + std::to_string(s->smtp.port) + ": sent a test message to " + *to);
      } else {
        Line("smtp: " + (st.ok() ? sent[0].message() : st.message()));
        bad = true;
      }
    } else {
      std::vector<Status> none;
      Status st = mail::Send(*s, {}, &none);  // connects, authenticates, sends nothing
      if (st.ok()) {
        Line("smtp " + s->smtp.host + ":" + std::to_string(s->smtp.port) + ": logged in as " + s->smtp.user);
      } else {
        Line("smtp: " + st.message());
        bad = true;
      }
    }
  } else {
    Line("smtp: not set (no mail goes out)");
  }
  if (bad) return Status::IOError("the mail settings " + *path + " do not work (above)");
  return Status::Ok();
}

}  // namespace

std::vector<Command> MailCommands() {
  return {
      {{"mail-address", "GAME --person P (ADDRESS | --clear) [--branch B]",
        "Give a person the mail address his reports go to (a recorded GA directive); --clear: none, his mail\n"
        "stops. Turns that end after it are mailed by `adjutant mail-out` (and by `adjutant serve\n"
        "--mail-settings`). Only the GA's views show the address; no player's report does.",
        {{"person", "P", "the person"}, {"clear", "", "no address: his mail stops"}, kBranch}, 1, 2,
        "Give a person the mail address his reports go to, or (--clear) none."},
       CmdMailAddress},
      {{"mail-out", "GAME --settings FILE [--dry-run] [--now T] [--branch B] [--json]",
        "Mail each person with an address and a role his reports of every turn (or battle move) over since the\n"
        "last one his mail server took: one message a turn, in order, threaded per game and person, the text\n"
        "reports as the body (and as HTML), the drawings and the reports' JSON attached, the turn's digest in the\n"
        "body and the X-Adjutant-Digest header. Each message the server takes is recorded (MailSent: to whom,\n"
        "the subject, the BLAKE2b-256 of the body), so a player can check what he was sent; one it refuses is\n"
        "recorded (MailFailed) and tried again from a minute later, the wait doubling up to an hour: mail is\n"
        "never dropped. With `remind` in the settings, those who owe orders for the coming turn are reminded\n"
        "at those times before its deadline, once each. Exits 5 if a message was not sent. --dry-run lists\n"
        "what is due and sends nothing.",
        {kSettings, {"dry-run", "", "list the messages due; send and record nothing"}, kNow, kBranch, kJson}, 1, 1,
        "Mail each person the reports of every turn over since his server last took one."},
       CmdMailOut},
      {{"mail-in", "--settings FILE [--stdin] [--now T] [--json]",
        "Read the orders players mailed to the game's address: the unseen messages of the IMAP folder of the\n"
        "settings (marked seen once handled), or with --stdin one message piped in by the mail server (a\n"
        "`| adjutant mail-in --stdin ...` delivery; exit 75 asks it to deliver again later). A message gives,\n"
        "one to a line at the top of its text, `Game: G`, `Person: P` and `Password: ...`, then the orders in\n"
        "the text form (or attaches an order file, JSON or .txt). Its orders are recorded as `adjutant order`\n"
        "records them; the message is recorded (MailReceived: accepted, or refused and why; the hash of its\n"
        "text with the password blotted out); the sender is answered in its thread with each order's fate and\n"
        "rule, or why nothing was taken. The Message-ID is the idempotency key: a message read again records\n"
        "nothing new and is not answered twice. Automatic mail and bounces are not answered. Exits 5 (75 with\n"
        "--stdin) if a message could not be finished; it is read again next time. While `adjutant serve\n"
        "--mail-settings` holds the database it reads the IMAP folder itself, and a --stdin message goes\n"
        "through it, answered with its own mail settings.",
        {kSettings, {"stdin", "", "read one message from the standard input instead of IMAP"}, kNow, kJson}, 0, 0,
        "Read the orders players mailed: the IMAP folder's, or (--stdin) one piped message."},
       CmdMailIn},
      {{"mail-check", "--settings FILE [--send-to ADDRESS]",
        "Check the GA's mail settings: log in to the IMAP and SMTP servers they name (over TLS, the\n"
        "certificates checked) and, with --send-to, send a test message. The settings file has one\n"
        "`key = value` a line:\n"
        "  from = Name <address>     smtp.host, smtp.port (587), smtp.user, smtp.password_file, smtp.tls\n"
        "  imap.host, imap.port (143), imap.user, imap.password_file, imap.tls, imap.folder (INBOX)\n"
        "  ca_file (default: the system's CAs), timeout (seconds, 30), remind (24h, 2h: reminders before deadlines)\n"
        "*.tls is starttls (the default) or tls (465, 993); mail never goes in the clear. A password written\n"
        "in the file (*.password) needs the file to be the GA's alone (chmod 600).",
        {kSettings, {"send-to", "ADDRESS", "send a test message there"}}, 0, 0,
        "Check the GA's mail settings: log in to the IMAP and SMTP servers, send a test."},
       CmdMailCheck},
  };
}

}  // namespace adjutant::cli
