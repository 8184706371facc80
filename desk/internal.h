// The order desk's insides, shared by its files (desk/http.cc: answers,
// parsing, limits, the client's address, TLS; desk/conn.cc: one connection
// and the GA's feed, the acceptor; desk/sessions.cc: logins and sessions;
// desk/player_api.cc: orders, reports, digests; desk/ga_api.cc: the GA's
// typed operations, directives, corrections; desk/desk.cc: routing, start
// and stop). Private to desk/: Boost stays here.
#pragma once

#include <atomic>
#include <utility>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "desk/desk.h"
#include "replay/warm.h"

namespace flatbuffers { class FlatBufferBuilder; }
namespace adjutant::ops { struct Answer; }

namespace adjutant::desk {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

// ---- ga_api.cc ----

// POST /api/ga/run: the operations the GA may ask for, each a named entry
// with its typed parameters (GaOperations). A request's "args" (the command
// line's words, the shape the desk has always taken) are read onto them by
// the desk itself (ReadGaCall), every value checked against its type before
// anything runs; no parameter names a file. Each is then called as the ops
// library's typed function (ops/ops.h; report: the reports library's). A dice script or a salt travels
// in the request's body ("script", "salt").
enum class ParamType {
  kGame,          // a game's name (ledger::CheckName)
  kBranch,        // a branch's name
  kBranchAt,      // BRANCH@SEQ or BRANCH@head
  kTurn,          // a turn or TURN.PHASE: digits and dots
  kCount,         // a whole number
  kWord,          // a view, a state, a person, an event kind: letters, digits, - _ .
  kKey,           // an idempotency key
  kHex,           // a digest
  kRulesVersion,  // RULESET=VERSION[,...]
  kText,          // words recorded in the ledger (a ruling's text, a roll's purpose): never opened
  kReportKind,    // treasury, fleet, events, positions, map, nation, battle
};
struct GaParam {
  std::string name;  // a positional's name (GAME), or an option's without "--"
  ParamType type;
};
struct GaOperation {
  std::vector<GaParam> positionals;  // in order; the first `required` must be given
  size_t required = 0;
  std::vector<GaParam> values;       // options with a value
  std::set<std::string> flags;
  bool writes = false;               // runs on its game's sequencer (the first positional, args[1])
  std::string field{};               // "script" or "salt": the body's field it takes, if any
  std::string field_option{};        // the option that reads that field from standard input
  bool field_required = false;
};
const std::map<std::string, GaOperation>& GaOperations();
std::string RefusedBecause(const std::string& option);

// One operation asked for, read and checked (ReadGaCall).
struct GaCall {
  std::string op;
  std::vector<std::string> positionals;
  std::vector<std::pair<std::string, std::string>> values;  // in the order given
  std::set<std::string> flags;
  std::string in;  // the body's script or salt, when the operation takes it
  bool has_field = false;
  int64_t now = 0;  // the desk's wall clock when the call was read (Settings::now)
  bool Flag(const std::string& name) const { return flags.count(name) != 0; }
  std::optional<std::string> Value(const std::string& name) const {
    std::optional<std::string> v;
    for (const auto& [n, x] : values) if (n == name) v = x;
    return v;
  }
};

struct Session {
  std::string game, person;
  std::vector<std::string> roles;
  bool ga = false;
  Clock::time_point expires;
};

struct Request {
  http::verb method = http::verb::unknown;
  std::string target, path, query, body, authorization, idempotency_key, last_event_id, client;
};

struct Response {
  http::status status = http::status::ok;
  std::string type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

// ---- http.cc (conn.cc: ConnBase, Accept) ----
std::string JsonOf(std::string_view table, flatbuffers::FlatBufferBuilder& f);
Response Error(http::status st, const std::string& message);
Response Json(std::string body);
http::status StatusOf(const Status& s);
const std::string& IndexPage();
std::map<std::string, std::string> Query(const std::string& q);
std::vector<std::string> Split(const std::string& path);
bool SafeWord(const std::string& s);
std::string JsonString(std::string_view v);
std::string PagePolicy(const std::string& page);
std::string UtcNow();
Result<std::pair<net::ip::address, uint16_t>> ParseListen(const std::string& listen);
std::string SslError();
Result<std::unique_ptr<net::ssl::context>> TlsContext(const Settings& s);
// Settings::now, else the system clock (seconds since 1970 UTC).
int64_t WallNow(const Settings& s);

// ---- sessions.cc ----
std::string Hex(const unsigned char* p, size_t n);
std::string TokenKey(const std::string& token);

class ConnBase {
 public:
  virtual ~ConnBase() = default;
  virtual void CloseIfIdle() = 0;
};

void Accept(Desk::Impl& impl, std::shared_ptr<std::vector<std::weak_ptr<ConnBase>>> conns);

struct Desk::Impl {
  // Declared first, so they outlive the I/O loop: a connection's destructor
  // may run while the loop's queue is torn down.
  std::atomic<bool> stopping{false};
  std::atomic<size_t> connections{0};
  std::mutex conn_mu;  // per_address
  std::map<std::string, size_t> per_address;  // connections open from each client address
  ledger::Ledger& db;
  Settings settings;
  // Each game's projections kept warm and brought forward by what was
  // appended since (issue 22): a request folds the events it did not see,
  // not the game from its last snapshot.
  replay::WarmWorlds warm;
  net::io_context ioc{1};
  net::thread_pool pool;
  tcp::acceptor acceptor{ioc};
  std::thread io_thread;
  std::optional<net::signal_set> signals;
  std::mutex mu;  // sessions, strands, rates
  std::map<std::string, Session> sessions;
  std::map<std::string, std::shared_ptr<net::strand<net::thread_pool::executor_type>>> strands;
  std::map<std::string, std::pair<Clock::time_point, int>> rates;
  std::function<void()> close_idle;  // closes the connections waiting for a request (Stop)
  std::mutex done_mu;
  std::condition_variable done_cv;
  bool done = false;
  std::string dummy_hash;  // verified against when the person is unknown: the same work either way
  // The login backoff (under mu): per (client address, account) pair, its
  // failures since its last success and when it may try again.
  struct LoginPair {
    int failures = 0;
    Clock::time_point until{};
    bool busy = false;  // a login of the pair is being checked
  };
  std::map<std::string, LoginPair> logins;
  // The trusted proxies (settings.trusted_proxies, parsed by Start): an
  // address's 16 bytes (IPv4 as IPv4-mapped IPv6) and the bits that count.
  std::vector<std::pair<net::ip::address_v6::bytes_type, unsigned>> trusted;
  std::unique_ptr<net::ssl::context> tls;  // --tls-cert/--tls-key: every connection is TLS
  std::string policy;                      // the page's Content-Security-Policy (PagePolicy)
  std::mutex access_mu;                    // the access log's lines
  std::FILE* access = nullptr;             // --access-log (stderr for "-"), else null
  bool access_owned = false;

  Impl(ledger::Ledger& d, Settings s)
      : db(d), settings(std::move(s)), pool(static_cast<size_t>(std::max(1, settings.threads))) {}
  ~Impl() {
    pool.join();
    if (access_owned) std::fclose(access);
  }

  // ---- http.cc ----
  // A connection from `address` may be served: under both the desk's and
  // the address's limits (one client holding idle connections cannot lock
  // the others out). Counted until DropConnection.
  enum class Admit { kOk, kTooMany, kTooManyFromAddress };
  Admit AddConnection(const std::string& address);
  void DropConnection(const std::string& address);
  void Log(const std::string& client, const std::string& who, const std::string& game, http::verb method,
           const std::string& path, unsigned status, size_t bytes, Clock::time_point began);
  bool RateOk(const std::string& client);
  static std::optional<net::ip::address_v6::bytes_type> AddressBytes(std::string_view text, bool with_port);
  static std::string AddressText(const net::ip::address_v6::bytes_type& b);
  bool Trusted(const net::ip::address_v6::bytes_type& a) const;
  std::string ClientAddress(const std::string& peer, const http::request<http::string_body>& m) const;
  Clock::time_point Now() const { return settings.clock ? settings.clock() : Clock::now(); }

  // ---- sessions.cc ----
  size_t RevokeSessions(const std::string& game, const std::string& person);
  // Issue 20: the game's current head, and the sessions of those whose role
  // the GA gave to another or withdrew (an AssignRole recorded after
  // `after`: its taken_from) ended. Run after a command on the game's
  // sequencer (Desk::Command, POST directives).
  uint64_t HeadSeqOf(const std::string& game);
  void EndSessionsOfRolesTaken(const std::string& game, uint64_t after);
  static std::string LoginKey(const std::string& client, const std::string& game, const std::string& person, bool ga);
  std::optional<Response> LoginBegin(const std::string& key);
  void LoginEnd(const std::string& key, bool ok);
  std::optional<Session> SessionOf(const Request& rq);
  Response NewSession(Session s);
  Response Login(const Request& rq);
  Response GaLogin(const Request& rq);
  std::vector<std::string> RolesNow(const Session& s);
  // One login between LoginBegin and LoginEnd (ended even if its check throws).
  struct LoginAttempt {
    Impl& impl;
    std::string key;
    bool ok = false;
    ~LoginAttempt() { impl.LoginEnd(key, ok); }
  };

  // ---- player_api.cc ----
  Response TooBig(size_t bytes);
  // `person`'s orders for `game`: the player's own (s.person, s.game), or
  // ones the GA enters on his behalf (s.ga: recorded as entered by the GA).
  Response SubmitOrders(const Session& s, const std::string& game, const std::string& person, const Request& rq);
  // The order file a request carries: the schema's OrderFile JSON, or the
  // text form read with the words of the game's rule books (player_api.cc).
  // `rulesets`: the game's books when the caller has read them already.
  Result<std::vector<uint8_t>> ReadOrderFile(const std::string& game, const std::string& body,
                                             const std::vector<std::string_view>* rulesets = nullptr);
  // POST /api/games/G/orders/read: the file read as a submission reads it,
  // printed back in the text form; nothing recorded.
  Response ReadOrders(const std::string& game, const Request& rq);
  bool OverQuota(const Session& s, const Request& rq, const std::string& branch, size_t n, Response* answer);
  Response OwnOrders(const Session& s, const std::map<std::string, std::string>& q);
  Response Report(const Session& s, const std::map<std::string, std::string>& q);
  Response Digest(const std::string& game, const std::string& turn);
  // Issue 23: a player's report proof of a turn (replay/proofs.h): his own;
  // the GA names the player (?player=).
  Response Proof(const Session& s, const std::string& game, const std::map<std::string, std::string>& q);

  // ---- ga_api.cc ----
  Response RunResult(int code, std::string out, const std::string& err);
  Response GaRun(const Request& rq);
  Response GaReport(const GaCall& call);
  Response GameStatus(const std::string& game, const std::map<std::string, std::string>& q);
  Response Answered(const ops::Answer& a);
  Response Adjudicate(const std::string& game, const Request& rq, bool phase, const std::optional<std::string>& expect);
  Response Directive(const std::string& game, const Request& rq);
  Response Correct(const std::string& game, const Request& rq);
  // POST /api/games/G/passwords: a person's password set by the GA, his
  // sessions ended; run on the game's sequencer (the hash made before).
  Response SetPassword(const std::string& game, const std::string& person, const std::string& hash);

  // ---- desk.cc ----
  net::strand<net::thread_pool::executor_type>& StrandOf(const std::string& game);
  // A write to `game` on its sequencer: `fn`, then the sessions of everyone
  // a role was taken from by what it recorded ended, then `reply`.
  void OnSequencer(const std::string& game, std::function<Response()> fn, std::function<void(Response)> reply);
  void Handle(Request rq, std::function<void(Response)> reply);
};

}  // namespace adjutant::desk
