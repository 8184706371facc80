// The order desk: an HTTP/1.1 server (Boost.Beast on Boost.Asio) for the
// players and the GA of the games in one database. Players log in with the
// password the GA set (only its libsodium hash is in the log), submit
// orders (recorded as OrderSubmitted events, answered only once the batch
// is synced), read their standing orders and their own reports; the GA
// adjudicates, records directives, reads every view and follows a live
// feed of new events (server-sent events). Boost and RocksDB stay behind
// this header (pimpl); `adjutant serve` (cli/serve.cc) starts it.
//
// Writes to a game go through that game's sequencer (an Asio strand on the
// worker pool), so appends stay ordered while reads run concurrently.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"

namespace adjutant::ledger { class Ledger; }
namespace adjutant::signing { class SigningKey; }

namespace adjutant::desk {

// Every limit is a named setting (`adjutant serve --help` lists them).
struct Settings {
  std::string listen = "127.0.0.1:8080";  // address:port; port 0 picks a free one
  size_t max_body_bytes = 256 * 1024;     // a request's body
  size_t max_header_bytes = 8 * 1024;     // a request's header block
  size_t max_orders = 200;                // orders in one submission
  int requests_per_minute = 600;          // per client address
  int header_timeout_s = 10;              // to receive a request once it has begun
  int idle_timeout_s = 60;                // a kept-alive connection waiting for its next request
  size_t max_connections = 256;           // open at once; more are answered 503 and closed
  int session_minutes = 8 * 60;           // a login's lifetime
  int threads = 2;                        // worker threads (the I/O runs on one more)
  std::string ga_pwhash;                  // the GA's password (libsodium hash); empty: no GA login
  // Logins: after a failure, the pair (client address, game, person) — (client
  // address, GA) for the GA — waits login_backoff_s, doubled per further
  // failure up to login_backoff_max_s, and is answered 429 with Retry-After
  // meanwhile; a success forgets the pair. Other addresses are not delayed.
  int login_backoff_s = 1;
  int login_backoff_max_s = 600;
  size_t login_backoff_pairs = 100000;    // pairs remembered at most (those not waiting are forgotten first)
  // Reverse proxies (ADDRESS or ADDRESS/PREFIX) whose X-Forwarded-For names
  // the client: the right-most address in it that is not itself a trusted
  // proxy. From any other peer the header is ignored.
  std::vector<std::string> trusted_proxies;
  // The wall clock of deadlines (seconds since 1970 UTC) for `status` and
  // `schedule` (tests); empty: the system clock. No rule reads it.
  std::function<int64_t()> now;
  // The login backoff's clock (tests); empty: std::chrono::steady_clock.
  std::function<std::chrono::steady_clock::time_point()> clock;
  // Tests: called while a login is being checked (once the backoff let it in).
  std::function<void()> login_checking;
  std::string backup_dir;                 // where POST /api/ga/backup backs the database up (set on the
                                          // server only: no client names a path); empty: no backups
  uint32_t backup_keep = 0;               // then keep only this many newest backups; 0: all
  // The edges of a deployment (README "The order desk in production").
  std::string tls_cert;                   // PEM certificate chain file; with tls_key: HTTPS only (TLS 1.2+)
  std::string tls_key;                    // PEM private key file
  std::string access_log;                 // one JSON line per request to this file ("-": stderr); empty: off
  size_t max_connections_per_address = 32;  // open at once from one client address; more are answered 503
  // Per person and orders window (turn), counted from the ledger (a restart
  // does not reset them): over either, a submission is refused (429),
  // nothing recorded.
  size_t orders_per_turn = 1000;          // orders recorded for one person in one turn
  size_t order_bytes_per_turn = 8 << 20;  // bytes of those orders (as recorded) plus the submission's body
  size_t page_rows = 100;                 // rows in one page of a list (?limit= may ask fewer, never more)
  size_t max_answer_bytes = 16 << 20;     // a report's or a command's output in one answer
  // Issue 23: the GA's secret key (`adjutant serve --signing-key`): the
  // desk's adjudications, corrections and deadlines of games that sign
  // their tree heads with it use it; null: such games are not adjudicated
  // here (the GA's answer and the scheduler's log say why).
  std::shared_ptr<const signing::SigningKey> signer;
};

// What an operator should hear before the desk serves with `s`: listening
// beyond loopback without TLS. One sentence each; none when all is well.
std::vector<std::string> DeploymentWarnings(const Settings& s);

class Desk {
 public:
  // Binds and starts serving on its own threads; returns once listening.
  static Result<std::unique_ptr<Desk>> Start(ledger::Ledger& db, const Settings& settings);
  ~Desk();
  Desk(const Desk&) = delete;
  Desk& operator=(const Desk&) = delete;

  uint16_t port() const;
  // Graceful stop: accept no more, let requests in flight finish (their
  // orders are synced before they are answered), close idle connections.
  void Stop();
  // Blocks until the desk has stopped (after Stop, or SIGTERM/SIGINT when
  // `handle_signals` was asked for).
  void Wait();
  // Stop on SIGTERM or SIGINT (adjutant serve).
  void HandleSignals();
  // Runs `fn` on the worker pool: on the sequencer of `game` (the one that
  // game's writes from requests go through), or anywhere on it for "".
  // Work in flight when the desk stops is finished before Wait returns.
  void Sequence(const std::string& game, std::function<void()> fn);
  // A command for `game` from the command line's way in (adjutant serve's
  // socket): `run` on the game's sequencer; then the sessions of everyone an
  // AssignRole it recorded took a role from end (issue 20); then `done`
  // (the answer), so no client hears the command's answer while such a
  // session still works.
  void Command(const std::string& game, std::function<void()> run, std::function<void()> done);

  struct Impl;

 private:
  explicit Desk(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace adjutant::desk
