// The order desk (desk.h): Boost.Beast over Boost.Asio. One I/O thread runs
// the acceptor and every connection; requests that touch the database run
// on a worker pool, writes to a game on that game's strand (its sequencer).
#include "desk/desk.h"

#include <sodium.h>

#include "desk/internal.h"
#include "ops/ops.h"
#include "ledger/ledger.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"
#include "schema/text.h"
#include "schema/reports_generated.h"

namespace adjutant::desk {

std::vector<std::string> DeploymentWarnings(const Settings& s) {
  std::vector<std::string> out;
  auto l = ParseListen(s.listen);
  if (!l.ok()) return out;
  net::ip::address a = l->first;
  if (a.is_v6() && a.to_v6().is_v4_mapped()) a = net::ip::make_address_v4(net::ip::v4_mapped, a.to_v6());
  if (!a.is_loopback() && s.tls_cert.empty()) {
    out.push_back("listening on " + s.listen + ", beyond loopback, without TLS: passwords and session tokens cross "
                  "the network in clear; give --tls-cert and --tls-key, or listen on 127.0.0.1 behind a TLS reverse "
                  "proxy");
  }
  return out;
}

net::strand<net::thread_pool::executor_type>& Desk::Impl::StrandOf(const std::string& game) {
  std::lock_guard<std::mutex> lock(mu);
  auto& s = strands[game];
  if (!s) s = std::make_shared<net::strand<net::thread_pool::executor_type>>(net::make_strand(pool.get_executor()));
  return *s;
}

// Routes a request; `reply` is called once, from any thread.
void Desk::Impl::Handle(Request rq, std::function<void(Response)> reply) {
  const std::vector<std::string> parts = Split(rq.path);
  const bool get = rq.method == http::verb::get, post = rq.method == http::verb::post;
  if (get && (parts.empty() || parts == std::vector<std::string>{"index.html"})) {
    Response r;
    r.type = "text/html; charset=utf-8";
    r.body = IndexPage();
    return reply(std::move(r));
  }
  if (parts.empty() || parts[0] != "api") return reply(Error(http::status::not_found, "no such page: " + rq.path));
  auto on_pool = [&](auto fn) { net::post(pool, [fn = std::move(fn), reply]() mutable { reply(fn()); }); };
  if (post && parts == std::vector<std::string>{"api", "login"}) return on_pool([this, rq] { return Login(rq); });
  if (post && parts == std::vector<std::string>{"api", "ga", "login"}) return on_pool([this, rq] { return GaLogin(rq); });
  // Everything else needs a session: 401 for none, a wrong or an expired one.
  std::optional<Session> s = SessionOf(rq);
  if (!s) return reply(Error(http::status::unauthorized, "not logged in, or the session has expired"));
  if (post && parts == std::vector<std::string>{"api", "logout"}) {
    std::lock_guard<std::mutex> lock(mu);
    sessions.erase(TokenKey(rq.authorization.substr(7)));
    return reply(Json("{\"logged_out\": true}"));
  }
  if (get && parts == std::vector<std::string>{"api", "me"}) {
    return on_pool([this, s = *s] {
      flatbuffers::FlatBufferBuilder f;
      std::vector<flatbuffers::Offset<flatbuffers::String>> roles;
      for (const auto& r : s.ga ? s.roles : RolesNow(s)) roles.push_back(f.CreateString(r));
      const int left = static_cast<int>(std::chrono::duration_cast<std::chrono::seconds>(s.expires - Clock::now()).count());
      f.Finish(fb::CreateDeskSessionDirect(f, "", left, s.game.c_str(), s.person.c_str(), &roles, s.ga));
      return Json(JsonOf("DeskSession", f));
    });
  }
  if (post && parts == std::vector<std::string>{"api", "ga", "run"}) {
    if (!s->ga) return reply(Error(http::status::forbidden, "the GA's only"));
    // A command that writes runs on its game's sequencer.
    auto doc = schema::ParseJson("DeskRun", rq.body, "run");
    std::string game;
    if (doc.ok()) {
      const auto* d = flatbuffers::GetRoot<fb::DeskRun>(doc->data());
      if (d->args() && d->args()->size() >= 2) {
        auto c = GaOperations().find(d->args()->Get(0)->str());
        if (c != GaOperations().end() && c->second.writes && ledger::CheckName("game", d->args()->Get(1)->str()).ok()) {
          game = d->args()->Get(1)->str();
        }
      }
    }
    if (!game.empty()) {
      OnSequencer(game, [this, rq] { return GaRun(rq); }, reply);
      return;
    }
    return on_pool([this, rq] { return GaRun(rq); });
  }
  // Backups (ledger/backup.h): made by this process, which holds the
  // database, into the directory the server was started with.
  if ((post || get) && (parts == std::vector<std::string>{"api", "ga", "backup"} ||
                        parts == std::vector<std::string>{"api", "ga", "backups"})) {
    if (!s->ga) return reply(Error(http::status::forbidden, "the GA's only"));
    if (settings.backup_dir.empty()) {
      return reply(Error(http::status::not_found, "no backup directory: start adjutant serve with --backup-dir DIR"));
    }
    ops::BackupRequest b;
    b.to = settings.backup_dir;
    b.json = true;
    if (get || parts[2] == "backups") b.list = true;
    else if (settings.backup_keep > 0) b.keep = std::to_string(settings.backup_keep);
    return on_pool([this, b] { return Answered(ops::Backup(ops::On(db), b)); });
  }
  if (parts.size() >= 4 && parts[0] == "api" && parts[1] == "games") {
    const std::string& game = parts[2];
    const std::string& what = parts[3];
    if (!ledger::CheckName("game", game).ok()) return reply(Error(http::status::not_found, "no such game"));
    // A player reaches his own game only; the GA every game.
    if (!s->ga && s->game != game) return reply(Error(http::status::forbidden, "not your game"));
    const auto q = Query(rq.query);
    if (what == "orders" && parts.size() == 5 && parts[4] == "read") {
      // An order file read as a submission reads it and printed back in the
      // text form (the page's preview of its draft); nothing recorded.
      if (!post) return reply(Error(http::status::method_not_allowed, "POST the order file to read it"));
      return on_pool([this, game, rq] { return ReadOrders(game, rq); });
    }
    if (what == "orders" && parts.size() > 4) return reply(Error(http::status::not_found, "no such resource"));
    if (what == "orders" && post && s->ga && parts.size() == 4) {
      // Orders a player sent the GA by other means, entered on his behalf
      // (?for=PERSON): judged as his, recorded as entered by the GA.
      if (!q.count("for") || !schema::CheckText("for", q.at("for"), schema::TextRule::kName).ok()) {
        return reply(Error(http::status::bad_request, "for: the person whose orders these are, e.g. ?for=alice"));
      }
      OnSequencer(game, [this, s = *s, game, person = q.at("for"), rq] { return SubmitOrders(s, game, person, rq); },
                  reply);
      return;
    }
    if ((what == "orders" || what == "reports") && s->ga) {
      return reply(Error(http::status::forbidden, "a player's request: the GA reads every view with /api/ga/run, and "
                                                  "enters a player's orders with POST /api/games/G/orders?for=PERSON"));
    }
    if (what == "orders" && post && !s->ga && q.count("for")) {
      return reply(Error(http::status::forbidden, "for: the GA's only (he enters orders a player sent him by other "
                                                  "means); your own orders need no for"));
    }
    if (what == "orders" && post && !s->ga) {
      OnSequencer(game, [this, s = *s, rq] { return SubmitOrders(s, s.game, s.person, rq); }, reply);
      return;
    }
    if (what == "orders" && get && !s->ga) return on_pool([this, s = *s, q] { return OwnOrders(s, q); });
    if (what == "digest" && get) {
      // A finished turn's digest (public: a hash of the log up to its end),
      // for a player to keep and check later with `adjutant verify --digest`.
      if (!q.count("turn") || !SafeWord(q.at("turn"))) return reply(Error(http::status::bad_request, "turn: e.g. ?turn=1805.1.2"));
      return on_pool([this, game, turn = q.at("turn")] {
        return Digest(game, turn);
      });
    }
    if (what == "proof" && get && parts.size() == 4) {
      // Issue 23: a player's report proof (his own; the GA's for ?player=),
      // checked offline with `adjutant verify-report`.
      return on_pool([this, s = *s, game, q] { return Proof(s, game, q); });
    }
    if (what == "reports" && get && !s->ga) return on_pool([this, s = *s, q] { return Report(s, q); });
    if (!s->ga) return reply(Error(http::status::forbidden, "the GA's only"));
    if (what == "status" && get && parts.size() == 4) return on_pool([this, game, q] { return GameStatus(game, q); });
    if (what == "sessions" && post && parts.size() == 5 && parts[4] == "revoke") {
      // The GA ends sessions of the game: every one, or one person's
      // ({"person": P}). Their tokens are refused at once (feeds included).
      std::string person;
      if (!rq.body.empty()) {
        auto doc = schema::ParseJson("DeskRevoke", rq.body, "revoke");
        if (!doc.ok()) return reply(Error(http::status::bad_request, doc.status().message()));
        const auto* r = flatbuffers::GetRoot<fb::DeskRevoke>(doc->data());
        if (r->person()) {
          person = r->person()->str();
          if (person.empty()) return reply(Error(http::status::bad_request, "person: empty (leave it out to revoke all)"));
        }
      }
      const size_t n = RevokeSessions(game, person);
      return reply(Json("{\"revoked\": " + std::to_string(n) + "}"));
    }
    if (what == "adjudicate" && post) {
      auto doc = schema::ParseJson("DeskAdjudicate", rq.body.empty() ? "{}" : rq.body, "adjudicate");
      if (!doc.ok()) return reply(Error(http::status::bad_request, doc.status().message()));
      const auto* a = flatbuffers::GetRoot<fb::DeskAdjudicate>(doc->data());
      const std::string mode = a->mode() ? a->mode()->str() : "phase";
      if (mode != "phase" && mode != "turn") return reply(Error(http::status::bad_request, "mode: \"phase\" or \"turn\""));
      std::optional<std::string> expect;
      if (a->expect()) {
        expect = a->expect()->str();
        if (!ops::ParseTurnPhase(*expect)) {
          return reply(Error(http::status::bad_request, "expect: the phase confirmed, TURN.PHASE as the status's next_at "
                                                        "gives it (e.g. 1805.1.3.9)"));
        }
      }
      OnSequencer(game, [this, game, rq, phase = mode == "phase", expect] { return Adjudicate(game, rq, phase, expect); },
                  reply);
      return;
    }
    if (what == "passwords" && post && parts.size() == 4) {
      // The GA sets or resets a person's password: hashed here on the pool
      // (slow by design), recorded on the game's sequencer.
      auto doc = schema::ParseJson("DeskPassword", rq.body, "password");
      if (!doc.ok()) return reply(Error(http::status::bad_request, doc.status().message()));
      const auto* pw = flatbuffers::GetRoot<fb::DeskPassword>(doc->data());
      const std::string person = pw->person() ? pw->person()->str() : "";
      if (Status st = schema::CheckText("person", person, schema::TextRule::kName); !st.ok() || person.empty()) {
        return reply(Error(http::status::bad_request, "person: whose password it is (a person's name)"));
      }
      const std::string password = pw->password() ? pw->password()->str() : "";
      if (password.size() < 8 || password.size() > 1024) {
        return reply(Error(http::status::bad_request, "password: 8 to 1024 characters"));
      }
      return net::post(pool, [this, game, person, password, reply] {
        char hash[crypto_pwhash_STRBYTES];
        if (crypto_pwhash_str(hash, password.c_str(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                              crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
          return reply(Error(http::status::service_unavailable, "out of memory while hashing the password"));
        }
        OnSequencer(game, [this, game, person, h = std::string(hash)] { return SetPassword(game, person, h); }, reply);
      });
    }
    if (what == "correct" && post) {
      OnSequencer(game, [this, game, rq] { return Correct(game, rq); }, reply);
      return;
    }
    if (what == "directives" && post) {
      OnSequencer(game, [this, game, rq] { return Directive(game, rq); }, reply);
      return;
    }
    return reply(Error(http::status::not_found, "no such request: " + std::string(http::to_string(rq.method)) + " " +
                                                    rq.path));
  }
  return reply(Error(http::status::not_found, "no such request: " + rq.path));
}

Desk::Desk(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Desk::~Desk() {
  Stop();
  Wait();
}

uint16_t Desk::port() const {
  beast::error_code ec;
  auto ep = impl_->acceptor.local_endpoint(ec);
  return ec ? 0 : ep.port();
}

Result<std::unique_ptr<Desk>> Desk::Start(ledger::Ledger& db, const Settings& settings) {
  if (sodium_init() < 0) return Status::IOError("libsodium failed to initialise");
  auto impl = std::make_unique<Impl>(db, settings);
  {
    // A hash to verify against when there is none (unknown person, no GA
    // password): a wrong login costs the same either way.
    char h[crypto_pwhash_STRBYTES];
    const std::string nothing = "no such person";
    if (crypto_pwhash_str(h, nothing.c_str(), nothing.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                          crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
      return Status::IOError("out of memory while hashing");
    }
    impl->dummy_hash = h;
  }
  for (const std::string& t : settings.trusted_proxies) {
    const size_t slash = t.find('/');
    const auto a = Impl::AddressBytes(t.substr(0, slash), false);
    const bool v4 = a && net::ip::address_v6(*a).is_v4_mapped();
    unsigned bits = 128;
    if (a && slash != std::string::npos) {
      const std::string n = t.substr(slash + 1);
      const unsigned max = v4 ? 32 : 128;
      const bool digits = !n.empty() && n.size() <= 3 && std::all_of(n.begin(), n.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
      bits = digits ? static_cast<unsigned>(std::stoul(n)) : max + 1;
      if (bits > max) return Status::InvalidArgument("--trusted-proxy: '" + t + "': the prefix is 0 to " + std::to_string(max));
      if (v4) bits += 96;
    }
    if (!a) {
      return Status::InvalidArgument("--trusted-proxy: '" + t + "' is not an IP address or ADDRESS/PREFIX network");
    }
    impl->trusted.push_back({*a, bits});
  }
  auto listen = ParseListen(settings.listen);
  if (!listen.ok()) return listen.status();
  // TLS and the access log before anything is bound: a bad file serves nothing.
  if (!settings.tls_cert.empty() || !settings.tls_key.empty()) {
    auto ctx = TlsContext(settings);
    if (!ctx.ok()) return ctx.status();
    impl->tls = std::move(ctx).value();
  }
  if (settings.access_log == "-") {
    impl->access = stderr;
  } else if (!settings.access_log.empty()) {
    impl->access = std::fopen(settings.access_log.c_str(), "a");
    if (!impl->access) {
      return Status::InvalidArgument("--access-log: cannot open " + settings.access_log + ": " + std::strerror(errno));
    }
    impl->access_owned = true;
  }
  impl->policy = PagePolicy(IndexPage());
  beast::error_code ec;
  tcp::endpoint ep(listen->first, listen->second);
  impl->acceptor.open(ep.protocol(), ec);
  if (!ec) impl->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(ep, ec);
  if (!ec) impl->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return Status::IOError("--listen " + settings.listen + ": " + ec.message());
  auto conns = std::make_shared<std::vector<std::weak_ptr<ConnBase>>>();
  Impl* raw = impl.get();
  raw->close_idle = [conns] {
    for (auto& w : *conns) {
      if (auto c = w.lock()) c->CloseIfIdle();
    }
  };
  Accept(*raw, conns);
  raw->io_thread = std::thread([raw] {
    raw->ioc.run();
    raw->pool.join();  // requests in flight finish; their answers are posted to connections now gone
    std::lock_guard<std::mutex> lock(raw->done_mu);
    raw->done = true;
    raw->done_cv.notify_all();
  });
  return std::unique_ptr<Desk>(new Desk(std::move(impl)));
}

void Desk::HandleSignals() {
  Impl* raw = impl_.get();
  net::post(raw->ioc, [this, raw] {
    raw->signals.emplace(raw->ioc, SIGTERM, SIGINT);
    raw->signals->async_wait([this](beast::error_code ec, int) {
      if (!ec) Stop();
    });
  });
}

// A write to `game` on its sequencer, bracketed: the sessions of everyone
// a role was taken from by what it recorded (the GA's AssignRole, or one
// given for this turn taking effect as an adjudication opened its orders)
// end before anyone hears of it.
// (`reply` is called after: no client hears the answer while such a
// session still works.)
void Desk::Impl::OnSequencer(const std::string& game, std::function<Response()> fn,
                             std::function<void(Response)> reply) {
  net::post(StrandOf(game), [this, game, fn = std::move(fn), reply = std::move(reply)] {
    const uint64_t before = HeadSeqOf(game);
    Response r = fn();
    EndSessionsOfRolesTaken(game, before);
    reply(std::move(r));
  });
}

// The scheduler's steps: bracketed as a command is (an adjudication may open
// a turn whose role changes take effect), with nothing to answer.
void Desk::Sequence(const std::string& game, std::function<void()> fn) { Command(game, std::move(fn), [] {}); }

void Desk::Command(const std::string& game, std::function<void()> run, std::function<void()> done) {
  Impl* raw = impl_.get();
  if (game.empty()) {
    net::post(raw->pool, [run = std::move(run), done = std::move(done)] {
      run();
      done();
    });
    return;
  }
  // The sessions end before the answer (`done`): no client hears it while
  // such a session still works.
  net::post(raw->StrandOf(game), [raw, game, run = std::move(run), done = std::move(done)] {
    const uint64_t before = raw->HeadSeqOf(game);
    run();
    raw->EndSessionsOfRolesTaken(game, before);
    done();
  });
}

void Desk::Stop() {
  Impl* raw = impl_.get();
  if (raw->stopping.exchange(true)) return;
  net::post(raw->ioc, [raw] {
    beast::error_code ec;
    raw->acceptor.close(ec);
    if (raw->signals) raw->signals->cancel(ec);
    raw->close_idle();
    // Connections finish what they are doing (keep_alive is now off) and
    // close; the I/O loop ends when the last one has.
  });
}

void Desk::Wait() {
  Impl* raw = impl_.get();
  {
    std::unique_lock<std::mutex> lock(raw->done_mu);
    raw->done_cv.wait(lock, [raw] { return raw->done; });
  }
  if (raw->io_thread.joinable()) raw->io_thread.join();
}

}  // namespace adjutant::desk
