// `adjutant serve`: the order desk (desk/desk.h) on the database, until
// SIGTERM or SIGINT; every limit a named option.
#include <sodium.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <type_traits>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/socket.h"
#include "desk/desk.h"
#include "desk/scheduler.h"
#include "mail/mail.h"

namespace adjutant::cli {
namespace {

Result<int> IntOption(const Args& a, const std::string& name, int fallback, int lo, int hi) {
  auto v = U64Option(a, name, static_cast<uint64_t>(fallback));
  if (!v.ok()) return v.status();
  if (*v < static_cast<uint64_t>(lo) || *v > static_cast<uint64_t>(hi)) {
    return Status::InvalidArgument("--" + name + ": " + std::to_string(*v) + " is not within " + std::to_string(lo) +
                                   "-" + std::to_string(hi));
  }
  return static_cast<int>(*v);
}

// The GA's password must be at least `min_length` characters (UTF-8 code
// points); one of fewer than 16 must mix two kinds of character (lower case,
// upper case, digits, others); and any must have at least 5 different
// characters. The password itself is never echoed.
Status CheckGaPassword(const std::string& pw, int min_length) {
  int chars = 0;
  bool lower = false, upper = false, digit = false, other = false;
  std::string distinct;
  for (size_t i = 0; i < pw.size(); ++i) {
    const auto b = static_cast<unsigned char>(pw[i]);
    if ((b & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte
    ++chars;
    size_t n = 1;
    while (i + n < pw.size() && (static_cast<unsigned char>(pw[i + n]) & 0xC0) == 0x80) ++n;
    const std::string ch = pw.substr(i, n);
    if (b >= 'a' && b <= 'z') lower = true;
    else if (b >= 'A' && b <= 'Z') upper = true;
    else if (b >= '0' && b <= '9') digit = true;
    else other = true;
    if (distinct.find(ch) == std::string::npos) distinct += ch + '\0';
  }
  const int kinds = lower + upper + digit + other;
  const auto distinct_count = std::count(distinct.begin(), distinct.end(), '\0');
  if (chars < min_length) {
    return Status::InvalidArgument("--ga-password-file: the GA's password has " + std::to_string(chars) +
                                   " characters; it needs at least " + std::to_string(min_length) +
                                   " (--ga-password-min-length)");
  }
  if (chars < 16 && kinds < 2) {
    return Status::InvalidArgument("--ga-password-file: the GA's password is too weak: under 16 characters, it must mix "
                                   "at least two kinds (lower case, upper case, digits, others)");
  }
  if (distinct_count < 5) {
    return Status::InvalidArgument("--ga-password-file: the GA's password is too weak: it repeats fewer than 5 "
                                   "different characters");
  }
  return Status::Ok();
}

Status CmdServe(Context& c) {
  desk::Settings s;
  s.listen = c.args.ValueOr("listen", s.listen);
  auto get = [&](const char* name, int fallback, int lo, int hi, auto& into) -> Status {
    auto v = IntOption(c.args, name, static_cast<int>(fallback), lo, hi);
    if (!v.ok()) return v.status();
    into = static_cast<std::remove_reference_t<decltype(into)>>(*v);
    return Status::Ok();
  };
  ADJ_RETURN_IF_ERROR(get("max-body", static_cast<int>(s.max_body_bytes), 1024, 64 << 20, s.max_body_bytes));
  ADJ_RETURN_IF_ERROR(get("max-header", static_cast<int>(s.max_header_bytes), 1024, 1 << 20, s.max_header_bytes));
  ADJ_RETURN_IF_ERROR(get("max-orders", static_cast<int>(s.max_orders), 1, 100000, s.max_orders));
  ADJ_RETURN_IF_ERROR(get("rate", s.requests_per_minute, 1, 1000000, s.requests_per_minute));
  ADJ_RETURN_IF_ERROR(get("header-timeout", s.header_timeout_s, 1, 3600, s.header_timeout_s));
  ADJ_RETURN_IF_ERROR(get("idle-timeout", s.idle_timeout_s, 1, 86400, s.idle_timeout_s));
  ADJ_RETURN_IF_ERROR(get("max-connections", static_cast<int>(s.max_connections), 1, 100000, s.max_connections));
  ADJ_RETURN_IF_ERROR(get("session-minutes", s.session_minutes, 1, 60 * 24 * 30, s.session_minutes));
  ADJ_RETURN_IF_ERROR(get("threads", s.threads, 1, 64, s.threads));
  ADJ_RETURN_IF_ERROR(get("login-backoff", s.login_backoff_s, 1, 3600, s.login_backoff_s));
  ADJ_RETURN_IF_ERROR(get("login-backoff-max", s.login_backoff_max_s, 1, 86400, s.login_backoff_max_s));
  ADJ_RETURN_IF_ERROR(get("login-backoff-pairs", static_cast<int>(s.login_backoff_pairs), 100, 10000000, s.login_backoff_pairs));
  if (s.login_backoff_max_s < s.login_backoff_s) {
    return Status::InvalidArgument("--login-backoff-max: " + std::to_string(s.login_backoff_max_s) +
                                   " is below --login-backoff " + std::to_string(s.login_backoff_s));
  }
  s.trusted_proxies = c.args.All("trusted-proxy");
  ADJ_RETURN_IF_ERROR(get("max-connections-per-address", static_cast<int>(s.max_connections_per_address), 1, 100000,
                          s.max_connections_per_address));
  ADJ_RETURN_IF_ERROR(get("orders-per-turn", static_cast<int>(s.orders_per_turn), 1, 10000000, s.orders_per_turn));
  ADJ_RETURN_IF_ERROR(get("order-bytes-per-turn", static_cast<int>(s.order_bytes_per_turn), 1024, 1 << 30,
                          s.order_bytes_per_turn));
  ADJ_RETURN_IF_ERROR(get("page-rows", static_cast<int>(s.page_rows), 1, 100000, s.page_rows));
  ADJ_RETURN_IF_ERROR(get("max-answer-bytes", static_cast<int>(s.max_answer_bytes), 4096, 1 << 30, s.max_answer_bytes));
  s.tls_cert = c.args.ValueOr("tls-cert", "");
  s.tls_key = c.args.ValueOr("tls-key", "");
  s.access_log = c.args.ValueOr("access-log", "");
  if (auto file = c.args.Value("ga-password-file")) {
    std::ifstream in(*file);
    if (!in) return Status::InvalidArgument("--ga-password-file: cannot open " + *file);
    std::string line;
    std::getline(in, line);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string* pw = &line;
    auto min_length = IntOption(c.args, "ga-password-min-length", 12, 8, 1024);
    if (!min_length.ok()) return min_length.status();
    ADJ_RETURN_IF_ERROR(CheckGaPassword(*pw, *min_length));
    char hash[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(hash, pw->c_str(), pw->size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                          crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
      return Status::IOError("out of memory while hashing the GA's password");
    }
    s.ga_pwhash = hash;
  }
  s.backup_dir = c.args.ValueOr("backup-dir", "");
  ADJ_RETURN_IF_ERROR(get("backup-keep", 0, 0, 100000, s.backup_keep));
  SocketSettings sock;
  ADJ_RETURN_IF_ERROR(get("socket-max-bytes", static_cast<int>(sock.max_request_bytes), 1024, 1 << 30, sock.max_request_bytes));
  ADJ_RETURN_IF_ERROR(get("socket-timeout", sock.timeout_s, 1, 86400, sock.timeout_s));
  ADJ_RETURN_IF_ERROR(get("socket-max-connections", static_cast<int>(sock.max_connections), 1, 100000, sock.max_connections));
  sock.max_answer_bytes = s.max_answer_bytes;
  desk::SchedulerSettings sched;
  ADJ_RETURN_IF_ERROR(get("schedule-tick", sched.tick_s, 1, 86400, sched.tick_s));
  const bool scheduling = !c.args.Flag("no-scheduler");
  if (c.args.Value("now")) {
    auto now = NowOption(c.args);
    if (!now.ok()) return now.status();
    sched.now = [t = *now] { return t; };
    s.now = sched.now;  // the desk's too: the deadlines it shows, the time orders are received
  }
  if (auto path = c.args.Value("mail-settings")) {
    if (!scheduling) return Status::InvalidArgument("--mail-settings: the scheduler mails the reports: not with --no-scheduler");
    auto m = mail::LoadSettings(*path);
    if (!m.ok()) return m.status();
    if (m->smtp.host.empty()) return Status::InvalidArgument(*path + ": smtp.host is not set: no mail goes out");
    sched.mail = std::make_shared<const mail::Settings>(std::move(m).value());
    DeskMailSettings() = sched.mail;  // `mail-in --stdin` through the socket mails its answers with them
  }
  // Issue 23: the GA's key for games that sign their tree heads.
  ADJ_RETURN_IF_ERROR(LoadSigner(c));
  s.signer = c.signer;
  sched.signer = c.signer;
  DeskSigner() = c.signer;  // `adjutant adjudicate` through the socket signs with it
  // Said before anything is opened or bound.
  for (const auto& w : desk::DeploymentWarnings(s)) std::fprintf(stderr, "adjutant serve: warning: %s\n", w.c_str());
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  auto d = desk::Desk::Start(**db, s);
  if (!d.ok()) return d.status();
  // The command line's way in while the desk holds the database: each
  // command on its game's sequencer, with the files its client read.
  ledger::Ledger* held = &**db;
  desk::Desk* running = d->get();
  const std::string sock_path = SocketPath(c.db);
  auto local = SocketServer::Start(sock_path, sock, [held, running](SocketRequest rq, std::function<void(SocketAnswer)> reply) {
    auto game = DeskCommandGame(rq.argv);
    if (!game.ok()) return reply({2, "", game.status().message()});
    auto a = std::make_shared<SocketAnswer>();
    running->Command(
        *game,
        [held, rq = std::move(rq), a] {
          const Inputs inputs{rq.files, rq.password, rq.made};
          a->code = RunShared(*held, rq.argv, &a->out, &a->err, inputs);
        },
        [a, reply] { reply(std::move(*a)); });
  });
  if (!local.ok()) {
    (*d)->Stop();
    (*d)->Wait();
    return Status(local.status().code() == Status::Code::kBusy ? local.status()
                                                                : Status::InvalidArgument(local.status().message()));
  }
  (*d)->HandleSignals();
  // The deadlines (adjutant schedule): a pass at once — finishing a turn a
  // crash interrupted — then every --schedule-tick seconds.
  std::unique_ptr<desk::Scheduler> scheduler;
  if (scheduling) {
    sched.log = [](const std::string& line) {
      std::fprintf(stderr, "%s\n", line.c_str());
      std::fflush(stderr);
    };
    scheduler = desk::Scheduler::Start(**db, **d, sched);
  }
  const std::string addr = s.listen.substr(0, s.listen.rfind(':'));
  Line("adjutant serve: the order desk on " + std::string(s.tls_cert.empty() ? "http" : "https") + "://" + addr + ":" + std::to_string((*d)->port()) + "/ (database " +
       (*db)->dir() + (s.ga_pwhash.empty() ? "; no GA login: give --ga-password-file" : "") +
       "); adjutant commands reach it through " + sock_path + "; SIGTERM or Ctrl-C stops it");
  std::fflush(stdout);
  (*d)->Wait();
  if (scheduler) scheduler->Stop();  // a pass under way finishes first
  // No more commands from the socket (its file removed), then no desk: a
  // command it still held is dropped with the desk's pool while the socket
  // server that owns its connection is still there.
  (*local)->Stop();
  (*d).reset();
  Line("adjutant serve: stopped; every acknowledged order is in the log");
  return Status::Ok();
}

}  // namespace

std::vector<Command> ServeCommands() {
  return {{{"serve", "[--listen ADDR:PORT] [--ga-password-file F] [--tls-cert F --tls-key F] [--access-log F] [limits]",
            "Serve the games of the database over HTTP/1.1: the order desk. Players log in with the password the\n"
            "GA set (adjutant password), submit orders (answered once they are synced to disk), read their orders\n"
            "and their own reports; the GA (--ga-password-file) adjudicates, records directives, runs views and\n"
            "follows a live feed of events. Stops gracefully on SIGTERM or Ctrl-C: no acknowledged order is lost.\n"
            "Web page: http://ADDR:PORT/. API: POST /api/login, GET|POST /api/games/GAME/orders,\n"
            "GET /api/games/GAME/reports?kind=K[&turn=T][&format=text|json|svg], POST /api/ga/login,\n"
            "POST /api/games/GAME/adjudicate, POST /api/games/GAME/directives,\n"
            "POST /api/games/GAME/correct?at=TURN[&name=BRANCH][&leave_out=SEQ,...], POST /api/ga/run (an\n"
            "operation and its allowed options; a roll's dice in \"script\", a turn's salt in \"salt\": no file on\n"
            "the server is read),\n"
            "GET /api/games/GAME/digest?turn=T, GET /api/games/GAME/feed (server-sent events).\n"
            "The GA's password is refused if shorter than --ga-password-min-length, if under 16 characters it\n"
            "does not mix two kinds (lower case, upper case, digits, others), or if it has fewer than 5 different\n"
            "characters. Failed logins: the (client address, game, person) pair - (address, GA) for the GA - is\n"
            "answered 429 with Retry-After for --login-backoff seconds, doubled per failure up to\n"
            "--login-backoff-max; a success resets it; another address is not delayed. Behind a reverse proxy,\n"
            "name it with --trusted-proxy: only from it is X-Forwarded-For believed (the client is its right-most\n"
            "address that is not a trusted proxy), for the rate limit and the login backoff.\n"
            "With --backup-dir: POST /api/ga/backup, GET /api/ga/backups.\n"
            "Deadlines (adjutant schedule): at start and every --schedule-tick seconds, each game whose deadline\n"
            "has passed has it fired and its turn adjudicated, once (a restart finishes a turn a crash cut short\n"
            "and never fires a deadline twice); what it does is said on stderr. --no-scheduler turns it off.\n"
            "Mail (adjutant mail-address, mail-out): with --mail-settings F each pass then mails every player with an\n"
            "address his reports of each turn over (sent from the scheduler's thread, recorded on the game's\n"
            "sequencer: no player waits for the mail server); a failure is recorded and tried again after its backoff.\n"
            "POST /api/games/GAME/sessions/revoke [{\"person\": P}] (the GA ends a game's or a person's sessions).\n"
            "Listening beyond loopback without TLS is warned about on stderr.\n"
            "The adjutant command reaches the running desk through DIR/adjutant.sock (owner-only: mode 0600, and\n"
            "only a client of the server's own user is served): a command that writes, refused by the database the\n"
            "desk holds, is sent there with the files and password it read, and runs on the game's sequencer; the\n"
            "desk reads and writes no file a request names. A stale socket a killed server left is replaced at\n"
            "start; anything else at that path stops the start. serve, backup and restore do not run through it.\n"
            "Signed tree heads (adjutant keygen): with --signing-key FILE the desk, its scheduler and commands sent\n"
            "through its socket adjudicate and correct the games whose heads that key signs; without it such a game's\n"
            "turns wait (the scheduler says why on stderr). The key stays in this process, never in the database.",
            {{"listen", "ADDR:PORT", "where to listen (default 127.0.0.1:8080; port 0: any free one)"},
             {"ga-password-file", "F", "the GA's password, first line of F (else no GA login)"},
             {"max-body", "BYTES", "a request body's limit (default 262144)"},
             {"max-header", "BYTES", "a request header's limit (default 8192)"},
             {"max-orders", "N", "orders in one submission (default 200)"},
             {"rate", "N", "requests a minute from one address (default 600)"},
             {"header-timeout", "S", "seconds for a request's whole header (from its first byte), its body, a TLS handshake (default 10)"},
             {"idle-timeout", "S", "seconds a kept-alive connection may wait (default 60)"},
             {"max-connections", "N", "connections open at once (default 256)"},
             {"session-minutes", "M", "a login's lifetime (default 480)"},
             {"threads", "N", "worker threads (default 2)"},
             {"ga-password-min-length", "N", "the GA's password: at least N characters (default 12); see below"},
             {"login-backoff", "S", "a failed login: that address waits S s for that account, doubled per failure (default 1)"},
             {"login-backoff-max", "S", "the longest wait after failed logins (default 600)"},
             {"login-backoff-pairs", "N", "(address, account) pairs remembered for the backoff (default 100000)"},
             {"trusted-proxy", "ADDR", "a reverse proxy, ADDRESS or ADDRESS/PREFIX (repeatable): see below", true},
             {"backup-dir", "DIR", "where POST /api/ga/backup backs the database up (default: none, no backups)"},
             {"backup-keep", "N", "after each such backup keep only the N newest (default 0: keep all)"},
             {"tls-cert", "F", "serve HTTPS (TLS 1.2 or later): the PEM certificate chain in F (with --tls-key)"},
             {"tls-key", "F", "the PEM private key of --tls-cert"},
             {"access-log", "F", "one JSON line per request appended to F ('-': stderr); never a password or token"},
             {"max-connections-per-address", "N", "connections open at once from one address (default 32)"},
             {"orders-per-turn", "N", "orders one person may submit in one turn (default 1000)"},
             {"order-bytes-per-turn", "BYTES", "bytes of orders one person may submit in one turn (default 8388608)"},
             {"page-rows", "N", "rows in one page of a list, e.g. a player's orders (default 100)"},
             {"max-answer-bytes", "BYTES", "a report's or a GA command's output in one answer (default 16777216)"},
             {"socket-max-bytes", "BYTES", "a command's request on DIR/adjutant.sock: its arguments and files (default 33554432)"},
             {"socket-timeout", "S", "seconds to send a whole request on the socket, and to take its answer (default 30)"},
             {"socket-max-connections", "N", "connections open at once on the socket (default 16)"},
             {"schedule-tick", "S", "seconds between the scheduler's looks at the deadlines (default 30)"},
             {"no-scheduler", "", "fire no deadline: turns run only when the GA adjudicates them"},
             {"now", "T", "the clock stands at T (UTC) for the scheduler and the desk (the deadlines, when orders are "
                          "received): a rehearsal of the schedule, or a test"},
             {"mail-settings", "F", "the GA's mail account (see `adjutant mail-check --help`): mail the reports after each turn"},
             kSigningKey},
            0, 0},
           CmdServe}};
}

}  // namespace adjutant::cli
