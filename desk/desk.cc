// The order desk (desk.h): Boost.Beast over Boost.Asio. One I/O thread runs
// the acceptor and every connection; requests that touch the database run
// on a worker pool, writes to a game on that game's strand (its sequencer).
#include "desk/desk.h"

#include <sodium.h>

#include <atomic>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <type_traits>

#include "desk/pages.h"
#include "ledger/ledger.h"
#include "projections/roster.h"
#include "replay/driver.h"
#include "replay/rebuild.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::desk {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

// Commands the GA may run through POST /api/ga/run, each with the exact
// options it may take there: views, checks and the GA's own acts, and no
// option that names a file on the server. A dice script or a salt travels in
// the request's body ("script", "salt") and reaches the command as its
// standard input (its FILE option given as "-").
struct GaCommand {
  std::set<std::string> values;  // options with a value (without "--")
  std::set<std::string> flags;
  bool writes = false;           // runs on its game's sequencer (args[1] is the game)
  std::string field{};           // "script" or "salt": the body's field it takes, if any
  std::string field_option{};    // the option that reads that field from standard input
  bool field_required = false;
};

const std::map<std::string, GaCommand>& GaCommands() {
  static const std::map<std::string, GaCommand> commands = {
      {"games", {{}, {"json"}}},
      {"log", {{"branch", "from", "to", "turn", "kind"}, {"json"}}},
      {"verify", {{"branch", "turn", "digest"}, {"all", "dice", "json"}}},
      {"digest", {{"branch", "turn"}, {"json"}}},
      {"audit", {{"branch", "turn", "rules-version"}, {"all", "json"}}},
      {"replay", {{"to", "branch", "view"}, {"json"}}},
      {"diff", {{"turn", "view"}, {"json"}}},
      {"branches", {{"make-current"}, {"json"}}},
      {"stats", {{"branch", "at"}, {"json"}}},
      {"report", {{"state", "player", "nation", "side", "move", "turn", "branch"}, {"public", "json"}}},
      {"rules-versions", {{"branch"}, {"json"}}},
      {"fork", {{"from", "at", "branch", "name"}, {"with-orders", "reseed", "json"}, true}},
      {"ruling", {{"branch", "reason", "text", "key"}, {"json"}, true}},
      {"roll", {{"branch", "purpose", "rule", "sides", "count", "subject", "key"}, {"json"}, true, "script", "--script"}},
      {"dice-commit", {{"branch", "turn", "key"}, {}, true, "salt", "--salt-file", true}},
      {"dice-reveal", {{"branch", "turn", "key"}, {}, true, "salt", "--salt-file", true}},
      {"adjudicate", {{"branch", "turns", "rules-version", "key"}, {"phase", "json"}, true, "salt", "--dice-salt-file"}},
  };
  return commands;
}

// Why an option the command line knows is not run through the desk.
std::string RefusedBecause(const std::string& option) {
  if (option == "script") return "it names a file on the server: send the dice values in the request's \"script\" field";
  if (option == "salt-file" || option == "dice-salt-file") {
    return "it names a file on the server: send the salt in the request's \"salt\" field";
  }
  if (option == "svg" || option == "keep") return "it names a file on the server";
  if (option == "as" || option == "password-file") return "the GA reads a player's reports with --player";
  if (option == "help") return "the desk runs commands, not their help";
  return "";
}

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

std::string JsonOf(std::string_view table, flatbuffers::FlatBufferBuilder& f) {
  auto j = schema::ToJson(table, f.GetBufferPointer());
  return j.ok() ? *j : std::string("{\"error\": \"cannot render the answer\"}");
}

Response Error(http::status st, const std::string& message) {
  flatbuffers::FlatBufferBuilder f;
  f.Finish(fb::CreateDeskErrorDirect(f, message.c_str()));
  Response r;
  r.status = st;
  r.body = JsonOf("DeskError", f) + "\n";
  return r;
}

Response Json(std::string body) {
  Response r;
  r.body = std::move(body) + "\n";
  return r;
}

http::status StatusOf(const Status& s) {
  switch (s.code()) {
    case Status::Code::kNotFound: return http::status::not_found;
    case Status::Code::kConflict: return http::status::conflict;
    case Status::Code::kIOError: case Status::Code::kBusy:  // a full disk, say: ask again later
      return http::status::service_unavailable;
    case Status::Code::kCorruption: return http::status::internal_server_error;
    default: return http::status::bad_request;
  }
}

// The page, its treasury form's unit and ship types filled in from the
// schema's own enums (SOW 3.1, 5.4), so a player picks one that exists.
const std::string& IndexPage() {
  static const std::string page = [] {
    std::string options = "<optgroup label=\"land units\">";
    for (const char* const* n = fb::EnumNamesSowUnitType(); *n; ++n) {
      options += std::string("<option>") + *n + "</option>";
    }
    options += "</optgroup><optgroup label=\"ships\">";
    for (const char* const* n = fb::EnumNamesSowShipType(); *n; ++n) {
      options += std::string("<option>") + *n + "</option>";
    }
    options += "</optgroup>";
    std::string p(kIndexPage);
    const std::string mark = "<!--SOW-TYPES-->";
    p.replace(p.find(mark), mark.size(), options);
    return p;
  }();
  return page;
}

std::string Hex(const unsigned char* p, size_t n) {
  std::string out(n * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), p, n);
  out.pop_back();
  return out;
}

// Sessions are kept under a hash of their token, so neither a lookup's
// timing nor a dump of the table gives a token away.
std::string TokenKey(const std::string& token) {
  unsigned char h[crypto_generichash_BYTES];
  crypto_generichash(h, sizeof h, reinterpret_cast<const unsigned char*>(token.data()), token.size(), nullptr, 0);
  return Hex(h, sizeof h);
}

std::map<std::string, std::string> Query(const std::string& q) {
  std::map<std::string, std::string> out;
  size_t i = 0;
  while (i < q.size()) {
    size_t amp = q.find('&', i);
    if (amp == std::string::npos) amp = q.size();
    std::string kv = q.substr(i, amp - i);
    size_t eq = kv.find('=');
    std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    std::string dec;
    for (size_t j = 0; j < v.size(); ++j) {
      if (v[j] == '+') dec += ' ';
      else if (v[j] == '%' && j + 2 < v.size() && std::isxdigit(static_cast<unsigned char>(v[j + 1])) &&
               std::isxdigit(static_cast<unsigned char>(v[j + 2]))) {
        dec += static_cast<char>(std::stoi(v.substr(j + 1, 2), nullptr, 16));
        j += 2;
      } else {
        dec += v[j];
      }
    }
    out[k] = dec;
    i = amp + 1;
  }
  return out;
}

std::vector<std::string> Split(const std::string& path) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '/') { ++i; continue; }
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    out.push_back(path.substr(i, j - i));
    i = j;
  }
  return out;
}

bool SafeWord(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// A JSON string literal (the access log's fields): quotes, backslashes and
// every control or non-ASCII byte escaped, so a line stays one line.
std::string JsonString(std::string_view v) {
  std::string o = "\"";
  for (unsigned char c : v) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char u[8];
      std::snprintf(u, sizeof u, "\\u%04x", c);
      o += u;
    } else {
      o += static_cast<char>(c);
    }
  }
  return o + "\"";
}

// The page's Content-Security-Policy: its one inline script allowed by its
// SHA-256 (nothing else runs: not a script in a drawn SVG, not an injected
// one); styles inline (the page's own and the <style> the SVG reports carry);
// requests to the desk itself only; never framed.
std::string PagePolicy(const std::string& page) {
  std::string script_hash;
  const std::string open = "<script>", close = "</script>";
  const size_t a = page.find(open);
  const size_t b = a == std::string::npos ? a : page.find(close, a);
  if (b != std::string::npos) {
    const std::string body = page.substr(a + open.size(), b - a - open.size());
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(body.data()), body.size());
    std::string b64(sodium_base64_ENCODED_LEN(sizeof h, sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(b64.data(), b64.size(), h, sizeof h, sodium_base64_VARIANT_ORIGINAL);
    b64.resize(std::strlen(b64.c_str()));
    script_hash = " 'sha256-" + b64 + "'";
  }
  return "default-src 'none'; script-src" + (script_hash.empty() ? std::string(" 'none'") : script_hash) +
         "; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
         "frame-ancestors 'none'";
}

std::string UtcNow() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

// "LISTEN" split into its address and port, or the option's error.
Result<std::pair<net::ip::address, uint16_t>> ParseListen(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos) return Status::InvalidArgument("--listen: ADDRESS:PORT, e.g. 127.0.0.1:8080");
  beast::error_code ec;
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const auto address = net::ip::make_address(host, ec);
  if (ec) return Status::InvalidArgument("--listen: '" + listen.substr(0, colon) + "' is not an IP address");
  unsigned long port = 0;
  try {
    port = std::stoul(listen.substr(colon + 1));
  } catch (...) {
    port = 70000;
  }
  if (port > 65535) return Status::InvalidArgument("--listen: '" + listen.substr(colon + 1) + "' is not a port");
  return std::make_pair(address, static_cast<uint16_t>(port));
}

// OpenSSL's last error in words (for the --tls-* messages).
std::string SslError() {
  const unsigned long e = ERR_get_error();
  if (e == 0) return "unknown error";
  char buf[256];
  ERR_error_string_n(e, buf, sizeof buf);
  ERR_clear_error();
  return buf;
}

// The TLS context of --tls-cert and --tls-key: TLS 1.2 at least, the key
// checked against the certificate. Every failure names its option.
Result<std::unique_ptr<net::ssl::context>> TlsContext(const Settings& s) {
  if (s.tls_cert.empty() != s.tls_key.empty()) {
    return Status::InvalidArgument(s.tls_cert.empty() ? "--tls-cert: needed with --tls-key" : "--tls-key: needed with --tls-cert");
  }
  auto ctx = std::make_unique<net::ssl::context>(net::ssl::context::tls_server);
  SSL_CTX* c = ctx->native_handle();
  ERR_clear_error();
  if (SSL_CTX_set_min_proto_version(c, TLS1_2_VERSION) != 1) return Status::IOError("TLS: cannot require TLS 1.2: " + SslError());
  ctx->set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2 | net::ssl::context::no_sslv3 |
                   net::ssl::context::no_tlsv1 | net::ssl::context::no_tlsv1_1 | net::ssl::context::single_dh_use);
  if (!std::filesystem::is_regular_file(s.tls_cert)) {
    return Status::InvalidArgument("--tls-cert: " + s.tls_cert + " is not a readable file");
  }
  if (SSL_CTX_use_certificate_chain_file(c, s.tls_cert.c_str()) != 1) {
    return Status::InvalidArgument("--tls-cert: " + s.tls_cert + " holds no PEM certificate (" + SslError() + ")");
  }
  if (!std::filesystem::is_regular_file(s.tls_key)) {
    return Status::InvalidArgument("--tls-key: " + s.tls_key + " is not a readable file");
  }
  if (SSL_CTX_use_PrivateKey_file(c, s.tls_key.c_str(), SSL_FILETYPE_PEM) != 1) {
    return Status::InvalidArgument("--tls-key: " + s.tls_key + " is not the key of the certificate in --tls-cert, or "
                                   "not a PEM private key (" + SslError() + ")");
  }
  if (SSL_CTX_check_private_key(c) != 1) {
    return Status::InvalidArgument("--tls-key: " + s.tls_key + " is not the key of the certificate in --tls-cert");
  }
  return ctx;
}

}  // namespace

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

struct Desk::Impl {
  // Declared first, so they outlive the I/O loop: a connection's destructor
  // may run while the loop's queue is torn down.
  std::atomic<bool> stopping{false};
  std::atomic<size_t> connections{0};
  std::mutex conn_mu;  // per_address
  std::map<std::string, size_t> per_address;  // connections open from each client address
  ledger::Ledger& db;
  Settings settings;
  Hooks hooks;
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

  Impl(ledger::Ledger& d, Settings s, Hooks h)
      : db(d), settings(std::move(s)), hooks(std::move(h)), pool(static_cast<size_t>(std::max(1, settings.threads))) {}
  ~Impl() {
    pool.join();
    if (access_owned) std::fclose(access);
  }

  // A connection from `address` may be served: under both the desk's and
  // the address's limits (one client holding idle connections cannot lock
  // the others out). Counted until DropConnection.
  enum class Admit { kOk, kTooMany, kTooManyFromAddress };
  Admit AddConnection(const std::string& address) {
    if (++connections > settings.max_connections) {
      connections--;
      return Admit::kTooMany;
    }
    std::lock_guard<std::mutex> lock(conn_mu);
    size_t& n = per_address[address];
    if (n >= settings.max_connections_per_address) {
      if (n == 0) per_address.erase(address);
      connections--;
      return Admit::kTooManyFromAddress;
    }
    ++n;
    return Admit::kOk;
  }
  void DropConnection(const std::string& address) {
    {
      std::lock_guard<std::mutex> lock(conn_mu);
      auto it = per_address.find(address);
      if (it != per_address.end() && --it->second == 0) per_address.erase(it);
    }
    connections--;
  }

  // One line of the access log: never a password, a token, a body or a
  // query string (only the path).
  void Log(const std::string& client, const std::string& who, const std::string& game, http::verb method,
           const std::string& path, unsigned status, size_t bytes, Clock::time_point began) {
    if (!access) return;
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - began).count();
    char dur[32];
    std::snprintf(dur, sizeof dur, "%.1f", ms);
    const std::string line = "{\"time\": \"" + UtcNow() + "\", \"client\": " + JsonString(client) +
                             ", \"person\": " + JsonString(who) + ", \"game\": " + JsonString(game) +
                             ", \"method\": " + JsonString(std::string(http::to_string(method))) +
                             ", \"path\": " + JsonString(path.substr(0, 512)) + ", \"status\": " +
                             std::to_string(status) + ", \"bytes\": " + std::to_string(bytes) +
                             ", \"ms\": " + dur + "}\n";
    std::lock_guard<std::mutex> lock(access_mu);
    std::fwrite(line.data(), 1, line.size(), access);
    std::fflush(access);
  }

  // Ends every session of `game` (of `person` only, when given): their
  // tokens are refused from now on. The number ended.
  size_t RevokeSessions(const std::string& game, const std::string& person) {
    std::lock_guard<std::mutex> lock(mu);
    return std::erase_if(sessions, [&](const auto& kv) {
      return !kv.second.ga && kv.second.game == game && (person.empty() || kv.second.person == person);
    });
  }

  net::strand<net::thread_pool::executor_type>& StrandOf(const std::string& game) {
    std::lock_guard<std::mutex> lock(mu);
    auto& s = strands[game];
    if (!s) s = std::make_shared<net::strand<net::thread_pool::executor_type>>(net::make_strand(pool.get_executor()));
    return *s;
  }

  bool RateOk(const std::string& client) {
    std::lock_guard<std::mutex> lock(mu);
    const auto now = Clock::now();
    // Addresses not seen for a minute are forgotten (the table stays small).
    if (rates.size() > 10000) std::erase_if(rates, [&](const auto& kv) { return now - kv.second.first >= std::chrono::minutes(1); });
    auto& [start, n] = rates[client];
    if (now - start >= std::chrono::minutes(1)) {
      start = now;
      n = 0;
    }
    return ++n <= settings.requests_per_minute;
  }

  Clock::time_point Now() const { return settings.clock ? settings.clock() : Clock::now(); }

  // ---- logins: the backoff of a (client address, account) pair -------------------

  // A login's pair: its address and the account named (whether it exists or
  // not, so the answers tell nothing). Lengths keep the parts apart.
  static std::string LoginKey(const std::string& client, const std::string& game, const std::string& person, bool ga) {
    if (ga) return client + "\nGA";
    return client + "\n" + std::to_string(game.size()) + ":" + game + person;
  }

  // Before a login's work: the 429 if the pair must wait (or has a login
  // being checked); else the pair is marked busy until LoginEnd.
  std::optional<Response> LoginBegin(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu);
    const auto now = Now();
    auto it = logins.find(key);
    if (it != logins.end() && (it->second.busy || now < it->second.until)) {
      const auto wait = std::chrono::ceil<std::chrono::seconds>(it->second.until - now).count();
      const long long seconds = std::max<long long>(1, wait);
      Response r = Error(http::status::too_many_requests,
                         "too many failed logins for this game and person from this address: try again in " +
                             std::to_string(seconds) + " s");
      r.headers.push_back({"Retry-After", std::to_string(seconds)});
      return r;
    }
    if (it == logins.end() && logins.size() >= settings.login_backoff_pairs) {
      // Full: forget the pairs quiet for a ceiling's length, then those not waiting.
      const auto ceiling = std::chrono::seconds(settings.login_backoff_max_s);
      std::erase_if(logins, [&](const auto& kv) { return !kv.second.busy && now >= kv.second.until + ceiling; });
      if (logins.size() >= settings.login_backoff_pairs) {
        std::erase_if(logins, [&](const auto& kv) { return !kv.second.busy && now >= kv.second.until; });
      }
    }
    logins[key].busy = true;
    return std::nullopt;
  }

  // After it: a success forgets the pair; a failure doubles its wait, from
  // login_backoff_s up to login_backoff_max_s. A pair quiet for a ceiling's
  // length since its last wait ended starts again from the base.
  void LoginEnd(const std::string& key, bool ok) {
    std::lock_guard<std::mutex> lock(mu);
    if (ok) {
      logins.erase(key);
      return;
    }
    const auto now = Now();
    const auto ceiling = std::chrono::seconds(settings.login_backoff_max_s);
    LoginPair& p = logins[key];
    p.busy = false;
    if (p.failures > 0 && now >= p.until + ceiling) p.failures = 0;
    p.failures = std::min(p.failures + 1, 64);
    const auto doubled = std::chrono::seconds(settings.login_backoff_s) * (int64_t{1} << std::min(p.failures - 1, 24));
    p.until = now + std::min<std::chrono::seconds>(doubled, ceiling);
  }
  // One login between LoginBegin and LoginEnd (ended even if its check throws).
  struct LoginAttempt {
    Impl& impl;
    std::string key;
    bool ok = false;
    ~LoginAttempt() { impl.LoginEnd(key, ok); }
  };

  // ---- the client's address ---------------------------------------------------------

  // An address as 16 bytes (IPv4 as IPv4-mapped IPv6). `with_port`: as a
  // proxy may write it in X-Forwarded-For, "[v6]:port" or "v4:port" too.
  static std::optional<net::ip::address_v6::bytes_type> AddressBytes(std::string_view text, bool with_port) {
    std::string t(text);
    if (with_port && !t.empty() && t.front() == '[') {  // [v6]:port
      const size_t close = t.find(']');
      if (close == std::string::npos) return std::nullopt;
      t = t.substr(1, close - 1);
    } else if (with_port && std::count(t.begin(), t.end(), ':') == 1) {  // v4:port
      t = t.substr(0, t.find(':'));
    }
    beast::error_code ec;
    const auto a = net::ip::make_address(t, ec);
    if (ec) return std::nullopt;
    return a.is_v4() ? net::ip::make_address_v6(net::ip::v4_mapped, a.to_v4()).to_bytes() : a.to_v6().to_bytes();
  }

  static std::string AddressText(const net::ip::address_v6::bytes_type& b) {
    const net::ip::address_v6 a(b);
    return a.is_v4_mapped() ? net::ip::make_address_v4(net::ip::v4_mapped, a).to_string() : a.to_string();
  }

  bool Trusted(const net::ip::address_v6::bytes_type& a) const {
    for (const auto& [net_bytes, bits] : trusted) {
      bool in = true;
      for (unsigned i = 0; i < 16 && in; ++i) {
        const unsigned have = bits > i * 8 ? std::min(8u, bits - i * 8) : 0;
        const auto mask = static_cast<unsigned char>(0xff00 >> have);
        in = (a[i] & mask) == (net_bytes[i] & mask);
      }
      if (in) return true;
    }
    return false;
  }

  // The client's address: the peer's, unless the peer is a trusted proxy;
  // then the right-most address of X-Forwarded-For (every such header, in
  // order) that is not a trusted proxy itself — or the left-most, if all
  // are; a word that is no address ends the walk at the hop before it.
  std::string ClientAddress(const std::string& peer, const http::request<http::string_body>& m) const {
    if (trusted.empty()) return peer;
    const auto p = AddressBytes(peer, false);
    if (!p || !Trusted(*p)) return peer;
    std::vector<std::string> hops;
    for (auto [it, end] = m.equal_range("X-Forwarded-For"); it != end; ++it) {
      const std::string_view v(it->value().data(), it->value().size());
      size_t i = 0;
      while (i <= v.size()) {
        size_t comma = v.find(',', i);
        if (comma == std::string_view::npos) comma = v.size();
        std::string_view h = v.substr(i, comma - i);
        while (!h.empty() && (h.front() == ' ' || h.front() == '\t')) h.remove_prefix(1);
        while (!h.empty() && (h.back() == ' ' || h.back() == '\t')) h.remove_suffix(1);
        hops.emplace_back(h);
        i = comma + 1;
      }
    }
    auto client = *p;
    for (auto h = hops.rbegin(); h != hops.rend(); ++h) {
      const auto a = AddressBytes(*h, true);
      if (!a) break;
      client = *a;
      if (!Trusted(client)) break;
    }
    return AddressText(client);
  }

  std::optional<Session> SessionOf(const Request& rq) {
    const std::string prefix = "Bearer ";
    if (rq.authorization.rfind(prefix, 0) != 0) return std::nullopt;
    const std::string key = TokenKey(rq.authorization.substr(prefix.size()));
    std::lock_guard<std::mutex> lock(mu);
    auto it = sessions.find(key);
    if (it == sessions.end()) return std::nullopt;
    if (Clock::now() >= it->second.expires) {
      sessions.erase(it);
      return std::nullopt;
    }
    return it->second;
  }

  Response NewSession(Session s) {
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    const std::string token = Hex(raw, sizeof raw);
    s.expires = Clock::now() + std::chrono::minutes(settings.session_minutes);
    {
      std::lock_guard<std::mutex> lock(mu);
      if (sessions.size() > 10000) {
        const auto now = Clock::now();
        std::erase_if(sessions, [&](const auto& kv) { return now >= kv.second.expires; });
      }
      sessions[TokenKey(token)] = s;
    }
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<flatbuffers::String>> roles;
    for (const auto& r : s.roles) roles.push_back(f.CreateString(r));
    f.Finish(fb::CreateDeskSessionDirect(f, token.c_str(), settings.session_minutes * 60, s.game.c_str(),
                                         s.person.c_str(), &roles, s.ga));
    return Json(JsonOf("DeskSession", f));
  }

  // ---- handlers (run on the pool) -------------------------------------------------

  Response Login(const Request& rq) {
    auto doc = schema::ParseJson("DeskLogin", rq.body, "login");
    // One answer, after the same work, for a bad body, an unknown game or
    // person and a wrong password: none tells a stranger what exists.
    const Response refused = Error(http::status::unauthorized, "wrong game, person or password");
    std::string game, person, password;
    if (doc.ok()) {
      const auto* l = flatbuffers::GetRoot<fb::DeskLogin>(doc->data());
      game = l->game() ? l->game()->str() : "";
      person = l->person() ? l->person()->str() : "";
      password = l->password() ? l->password()->str() : "";
    }
    // The pair of this address and this account waits after failures (429,
    // the same whether the account exists or not); others are not delayed.
    const std::string key = LoginKey(rq.client, game, person, false);
    if (auto wait = LoginBegin(key)) return *wait;
    LoginAttempt attempt{*this, key};
    if (settings.login_checking) settings.login_checking();
    std::string hash = dummy_hash;
    std::vector<std::string> roles;
    bool known = false;
    if (ledger::CheckName("game", game).ok()) {
      // The roster of the game's current branch (a correction may have made
      // another than main current).
      auto branch = db.Current(game);
      auto world = branch.ok() ? replay::Fold(db, game, *branch) : Result<replay::World>(branch.status());
      if (world.ok()) {
        if (const projections::Person* p = world->roster().Find(person); p && !p->pwhash.empty()) {
          hash = p->pwhash;
          roles.assign(p->roles.begin(), p->roles.end());
          known = true;
        }
      }
    }
    const bool match = crypto_pwhash_str_verify(hash.c_str(), password.c_str(), password.size()) == 0;
    attempt.ok = known && match;
    if (!known || !match) return refused;
    Session s;
    s.game = game;
    s.person = person;
    s.roles = roles;
    return NewSession(s);
  }

  Response GaLogin(const Request& rq) {
    auto doc = schema::ParseJson("DeskGaLogin", rq.body, "login");
    std::string password;
    if (doc.ok()) {
      const auto* l = flatbuffers::GetRoot<fb::DeskGaLogin>(doc->data());
      password = l->password() ? l->password()->str() : "";
    }
    const std::string key = LoginKey(rq.client, "", "", true);
    if (auto wait = LoginBegin(key)) return *wait;
    LoginAttempt attempt{*this, key};
    if (settings.login_checking) settings.login_checking();
    const std::string& hash = settings.ga_pwhash.empty() ? dummy_hash : settings.ga_pwhash;
    const bool match = crypto_pwhash_str_verify(hash.c_str(), password.c_str(), password.size()) == 0;
    attempt.ok = !settings.ga_pwhash.empty() && match;
    if (settings.ga_pwhash.empty() || !match) return Error(http::status::unauthorized, "wrong game, person or password");
    Session s;
    s.person = "GA";
    s.ga = true;
    return NewSession(s);
  }

  Response Run(const std::vector<std::string>& argv, const std::string& in = "") {
    std::string out, err;
    const int code = hooks.run(db, argv, in, &out, &err);
    // Bounded (--max-answer-bytes): the output cut, saying so; the exit
    // code stands (a command that wrote has written).
    if (out.size() > settings.max_answer_bytes) {
      const size_t more = out.size() - settings.max_answer_bytes;
      out.resize(settings.max_answer_bytes);
      out += "\n[" + std::to_string(more) + " bytes more: an answer holds at most max-answer-bytes " +
             std::to_string(settings.max_answer_bytes) + "; narrow the command, e.g. log --from SEQ --to SEQ or --turn T]\n";
    }
    flatbuffers::FlatBufferBuilder f;
    f.Finish(fb::CreateDeskRunResultDirect(f, code, out.c_str(), err.c_str()));
    Response r = Json(JsonOf("DeskRunResult", f));
    if (code != 0) {
      r.status = code == 3   ? http::status::internal_server_error
                 : code == 4 ? http::status::conflict
                 : code == 5 ? http::status::service_unavailable  // a full disk, say: ask again later
                             : http::status::bad_request;
    }
    return r;
  }

  // A report over --max-answer-bytes: refused, with how to narrow it.
  Response TooBig(size_t bytes) {
    return Error(http::status::bad_request, "max-answer-bytes: this report is " + std::to_string(bytes) +
                                                " bytes and an answer holds at most " +
                                                std::to_string(settings.max_answer_bytes) + "; ask for one turn (&turn=T)");
  }

  // A command's output as the answer itself (reports): text, JSON or SVG.
  Response Render(const std::vector<std::string>& argv, const std::string& type) {
    const std::string in;
    std::string out, err;
    const int code = hooks.run(db, argv, in, &out, &err);
    if (code != 0) return Error(code == 3 ? http::status::internal_server_error : http::status::bad_request, err);
    if (out.size() > settings.max_answer_bytes) return TooBig(out.size());
    Response r;
    r.type = type;
    r.body = std::move(out);
    return r;
  }

  Response SubmitOrders(const Session& s, const Request& rq) {
    auto doc = schema::ParseJson("OrderFile", rq.body, "orders");
    if (!doc.ok()) return Error(http::status::bad_request, doc.status().message());
    const auto* file = flatbuffers::GetRoot<fb::OrderFile>(doc->data());
    const size_t n = file->orders() ? file->orders()->size() : 0;
    if (n > settings.max_orders) {
      return Error(http::status::payload_too_large, "a submission holds at most " + std::to_string(settings.max_orders) +
                                                        " orders (this one " + std::to_string(n) + ")");
    }
    auto branch = db.Current(s.game);
    if (!branch.ok()) return Error(StatusOf(branch.status()), branch.status().message());
    if (Response over; OverQuota(s, rq, *branch, n, &over)) return over;
    // Another's ship, ministry or unit — or one that does not exist: the same
    // 403, naming only the order's place in the file, nothing recorded. (A
    // retry of a request already recorded gets its first answer instead.)
    std::optional<size_t> not_his;
    auto rep = replay::SubmitOrders(db, s.game, *branch, s.person, *doc, rq.idempotency_key, &not_his);
    if (not_his.has_value()) return Error(http::status::forbidden, rep.status().message());
    if (!rep.ok()) return Error(StatusOf(rep.status()), rep.status().message());
    // Answered only now: the batch is synced (Ledger::Append).
    auto j = replay::SubmitSummaryJson(s.game, *branch, *rep);
    if (!j.ok()) return Error(http::status::internal_server_error, j.status().message());
    return Json(*j);
  }

  // The person's quotas for the orders window (--orders-per-turn,
  // --order-bytes-per-turn), counted from the ledger (his OrderSubmitted
  // events since the window opened), so a restart does not reset them. A
  // retry of his own submission already recorded is not counted again: it
  // is answered by SubmitOrders as before (a key that another used is no
  // way around the quota). Over either: *answer is the 429 that names the
  // limit, and nothing is recorded.
  bool OverQuota(const Session& s, const Request& rq, const std::string& branch, size_t n, Response* answer) {
    auto fail = [&](const Status& st) {
      *answer = Error(StatusOf(st), st.message());
      return true;
    };
    if (!rq.idempotency_key.empty()) {
      // His own key (keys are their sender's): a retry of his own submission.
      auto prior = db.FindIdempotent(s.game, ledger::IdempotencyOwner(ActorKind::kPlayer, s.person), rq.idempotency_key);
      if (!prior.ok()) return fail(prior.status());
      if (prior->has_value()) {
        bool his = false;
        const uint64_t first = (*prior)->result.first_seq;
        Status st = db.Read(s.game, branch, first, first, [&](const ledger::EventView& e) {
          const auto* o = e.event()->payload_as_OrderSubmitted();
          his = o && o->person()->str() == s.person;
          return Status::Ok();
        });
        if (!st.ok()) return fail(st);
        if (his) return false;
      }
    }
    auto world = replay::Fold(db, s.game, branch);
    if (!world.ok()) return fail(world.status());
    auto at = replay::OrderPositionOf(*world);
    if (!at.ok()) return false;  // no orders are taken now: SubmitOrders says why
    auto from = db.SeekTurn(s.game, branch, *at);
    if (!from.ok()) return fail(from.status());
    size_t orders = 0, bytes = 0;
    if (from->has_value()) {
      Status st = db.Read(s.game, branch, **from, UINT64_MAX, [&](const ledger::EventView& e) {
        if (const auto* o = e.event()->payload_as_OrderSubmitted(); o && o->person()->str() == s.person) {
          ++orders;
          bytes += e.bytes.size();
        }
        return Status::Ok();
      });
      if (!st.ok()) return fail(st);
    }
    const std::string turn = at->turn.ToString();
    if (orders + n > settings.orders_per_turn) {
      *answer = Error(http::status::too_many_requests,
                      "orders-per-turn: " + s.person + " has submitted " + std::to_string(orders) + " orders for " + turn +
                          " and may submit " + std::to_string(settings.orders_per_turn) + " in one turn (this submission " +
                          std::to_string(n) + " more); nothing was recorded");
      return true;
    }
    if (bytes + rq.body.size() > settings.order_bytes_per_turn) {
      *answer = Error(http::status::too_many_requests,
                      "order-bytes-per-turn: " + s.person + " has submitted " + std::to_string(bytes) +
                          " bytes of orders for " + turn + " and may submit " +
                          std::to_string(settings.order_bytes_per_turn) + " in one turn (this submission " +
                          std::to_string(rq.body.size()) + " more); nothing was recorded");
      return true;
    }
    return false;
  }

  // The person's orders for the coming turn, as they stand: one page of at
  // most --page-rows (?limit= fewer) orders after ?after=SEQ; next_after,
  // when not 0, asks for the next.
  Response OwnOrders(const Session& s, const std::map<std::string, std::string>& q) {
    size_t limit = settings.page_rows;
    uint64_t after = 0;
    try {
      if (q.count("limit")) {
        const unsigned long long l = std::stoull(q.at("limit"));
        if (l == 0 || q.at("limit").find_first_not_of("0123456789") != std::string::npos) throw std::invalid_argument("");
        limit = static_cast<size_t>(std::min<unsigned long long>(l, settings.page_rows));
      }
    } catch (...) {
      return Error(http::status::bad_request, "limit: a number of rows from 1 to " + std::to_string(settings.page_rows));
    }
    try {
      if (q.count("after")) {
        if (q.at("after").find_first_not_of("0123456789") != std::string::npos) throw std::invalid_argument("");
        after = std::stoull(q.at("after"));
      }
    } catch (...) {
      return Error(http::status::bad_request, "after: a sequence number (the last page's next_after)");
    }
    auto branch = db.Current(s.game);
    if (!branch.ok()) return Error(StatusOf(branch.status()), branch.status().message());
    auto world = replay::Fold(db, s.game, *branch);
    if (!world.ok()) return Error(StatusOf(world.status()), world.status().message());
    auto at = replay::OrderPositionOf(*world);
    if (!at.ok()) return Error(StatusOf(at.status()), at.status().message());
    auto from = db.SeekTurn(s.game, *branch, *at);
    if (!from.ok()) return Error(StatusOf(from.status()), from.status().message());
    struct Row {
      std::string slot, status = "stands", rule, reason, json;
    };
    std::map<uint64_t, Row> rows;
    uint64_t next_after = 0;
    if (from->has_value()) {
      Status st = db.Read(s.game, *branch, std::max(**from, after + 1), UINT64_MAX, [&](const ledger::EventView& e) {
        const fb::Event* ev = e.event();
        if (const auto* o = ev->payload_as_OrderSubmitted(); o && o->person()->str() == s.person) {
          if (rows.size() >= limit) {  // past the page: only whether there is more
            if (next_after == 0) next_after = rows.rbegin()->first;
            return Status::Ok();
          }
          Row r;
          r.slot = o->slot() ? o->slot()->str() : "";
          auto j = schema::ToJson("Event", e.bytes.data());
          r.json = j.ok() ? *j : "";
          rows[e.seq] = std::move(r);
        } else if (const auto* rj = ev->payload_as_OrderRejected()) {
          if (auto it = rows.find(rj->order_seq()); it != rows.end()) {
            it->second.status = "rejected";
            it->second.rule = rj->rule() ? rj->rule()->str() : "";
            it->second.reason = rj->reason()->str();
          }
        } else if (const auto* sp = ev->payload_as_OrderSuperseded()) {
          if (auto it = rows.find(sp->order_seq()); it != rows.end()) it->second.status = "superseded";
        }
        return Status::Ok();
      });
      if (!st.ok()) return Error(StatusOf(st), st.message());
    }
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::DeskOrderRow>> out;
    for (const auto& [seq, r] : rows) {
      out.push_back(fb::CreateDeskOrderRowDirect(f, seq, r.slot.c_str(), r.status.c_str(), r.rule.c_str(),
                                                 r.reason.c_str(), r.json.c_str()));
    }
    f.Finish(fb::CreateDeskOrdersDirect(f, s.game.c_str(), branch->c_str(), at->turn.ToString().c_str(), &out, next_after));
    return Json(JsonOf("DeskOrders", f));
  }

  // A player's own reports, from his roles: his ships' events and positions
  // (PATE), his state's treasury (SOW), his nation (y1820), his side's
  // battle (dog), the public 1820 map.
  // A person's roles as the game's roster stands now: a ship given to him
  // after he logged in is his at once (PATE 2.3), as the order check has it.
  std::vector<std::string> RolesNow(const Session& s) {
    auto branch = db.Current(s.game);
    if (!branch.ok()) return {};
    projections::Roster roster;
    projections::Projection* ps[] = {&roster};
    if (!replay::Rebuild(db, s.game, *branch, UINT64_MAX, ps).ok()) return {};
    const projections::Person* p = roster.Find(s.person);
    return p ? std::vector<std::string>(p->roles.begin(), p->roles.end()) : std::vector<std::string>{};
  }

  Response Report(const Session& s, const std::map<std::string, std::string>& q) {
    const std::string kind = q.count("kind") ? q.at("kind") : "";
    const std::string format = q.count("format") ? q.at("format") : "text";
    std::vector<std::string> argv = {"report", kind, s.game};
    const std::vector<std::string> roles = RolesNow(s);
    auto prefix_of = [&](const std::string& suffix) -> std::optional<std::string> {
      for (const auto& r : roles) {
        auto dot = r.find('.');
        if (dot != std::string::npos && (suffix.empty() || r.substr(dot + 1) == suffix)) return r.substr(0, dot);
      }
      return std::nullopt;
    };
    if (kind == "events" || kind == "positions") {
      argv.insert(argv.end(), {"--player", s.person});
    } else if (kind == "treasury") {
      auto state = prefix_of("treasury");
      if (!state) state = prefix_of("prime");
      if (!state) return Error(http::status::forbidden, "this report is not yours");
      argv.insert(argv.end(), {"--state", *state});
    } else if (kind == "nation") {
      auto nation = prefix_of("ruler");
      if (!nation) return Error(http::status::forbidden, "this report is not yours");
      argv.insert(argv.end(), {"--nation", *nation});
    } else if (kind == "battle") {
      auto side = prefix_of("general");
      if (!side) return Error(http::status::forbidden, "this report is not yours");
      argv.insert(argv.end(), {"--side", *side});
    } else if (kind != "map") {
      return Error(http::status::bad_request, "kind: events, positions, treasury, nation, battle or map");
    }
    if (q.count("turn")) {
      if (!SafeWord(q.at("turn"))) return Error(http::status::bad_request, "turn: not a turn");
      argv.insert(argv.end(), {kind == "battle" ? "--move" : "--turn", q.at("turn")});
    }
    if (format == "svg") {
      if (kind != "positions" && kind != "map" && kind != "battle") {
        return Error(http::status::bad_request, "format svg: positions, map and battle only");
      }
      return Svg(argv);
    }
    if (format == "json") argv.push_back("--json");
    return Render(argv, format == "json" ? "application/json" : "text/plain; charset=utf-8");
  }

  // A report drawn by the command (--svg -: the SVG alone on its output), answered as SVG.
  Response Svg(std::vector<std::string> argv) {
    argv.insert(argv.end(), {"--svg", "-"});
    std::string svg, err;
    const int code = hooks.run(db, argv, "", &svg, &err);
    if (code != 0) return Error(http::status::bad_request, err);
    if (svg.size() > settings.max_answer_bytes) return TooBig(svg.size());
    Response r;
    r.type = "image/svg+xml";
    r.body = std::move(svg);
    return r;
  }

  // POST /api/ga/run: every option checked against the command's allowlist
  // (GaCommands) before anything runs, exactly as the command line will read
  // them (cli/args.cc: "--NAME[=VALUE]", a value option takes the next word).
  Response GaRun(const Request& rq) {
    auto doc = schema::ParseJson("DeskRun", rq.body, "run");
    if (!doc.ok()) return Error(http::status::bad_request, doc.status().message());
    const auto* d = flatbuffers::GetRoot<fb::DeskRun>(doc->data());
    std::vector<std::string> argv;
    if (d->args()) for (const auto* a : *d->args()) argv.push_back(a->str());
    const auto& commands = GaCommands();
    auto it = argv.empty() ? commands.end() : commands.find(argv[0]);
    if (it == commands.end()) {
      std::string known;
      for (const auto& [name, c] : commands) known += (known.empty() ? "" : ", ") + name;
      return Error(http::status::bad_request, "args[0]: the desk runs " + known);
    }
    const GaCommand& cmd = it->second;
    // A command that writes runs on the sequencer of the game named first (Handle).
    if (cmd.writes && (argv.size() < 2 || argv[1].rfind("-", 0) == 0)) {
      return Error(http::status::bad_request, "args[1]: " + argv[0] + " takes its game first, before any option");
    }
    for (size_t i = 1; i < argv.size(); ++i) {
      const std::string& a = argv[i];
      std::string name;
      if (a == "-h") {
        name = "help";
      } else if (a.size() > 2 && a.rfind("--", 0) == 0) {
        name = a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2);
        const bool inline_value = a.find('=') != std::string::npos;
        if (cmd.values.count(name)) {
          if (!inline_value) ++i;  // its value, whatever it looks like
          continue;
        }
        if (cmd.flags.count(name)) continue;
      } else {
        continue;  // a positional argument: a game, a branch, a report's kind
      }
      std::string allowed;
      for (const auto& o : cmd.values) allowed += (allowed.empty() ? "--" : ", --") + o;
      for (const auto& o : cmd.flags) allowed += (allowed.empty() ? "--" : ", --") + o;
      const std::string why = RefusedBecause(name);
      return Error(http::status::bad_request,
                   "args[" + std::to_string(i) + "]: --" + name + ": not an option the desk runs " + argv[0] + " with" +
                       (why.empty() ? "" : " (" + why + ")") + "; it takes " + (allowed.empty() ? "none" : allowed));
    }
    // The body's dice script or salt: the command's standard input.
    std::string in;
    for (const auto& [field, value] : {std::pair<std::string, const flatbuffers::String*>{"script", d->script()},
                                       std::pair<std::string, const flatbuffers::String*>{"salt", d->salt()}}) {
      if (!value) continue;
      if (cmd.field != field) {
        return Error(http::status::bad_request, field + ": " + argv[0] + " takes no " + field +
                                                    (field == "script" ? " (roll does)" : " (adjudicate, dice-commit and dice-reveal do)"));
      }
      in = value->str();
      argv.insert(argv.end(), {cmd.field_option, "-"});
    }
    if (cmd.field_required && !(cmd.field == "salt" ? d->salt() : d->script())) {
      return Error(http::status::bad_request, cmd.field + ": " + argv[0] + " needs the turn's secret salt (32 to 128 hex digits)");
    }
    return Run(argv, in);
  }

  // Routes a request; `reply` is called once, from any thread.
  void Handle(Request rq, std::function<void(Response)> reply) {
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
          auto c = GaCommands().find(d->args()->Get(0)->str());
          if (c != GaCommands().end() && c->second.writes) game = d->args()->Get(1)->str();
        }
      }
      if (!game.empty()) {
        net::post(StrandOf(game), [this, rq, reply] { reply(GaRun(rq)); });
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
      std::vector<std::string> argv = {"backup", "--to", settings.backup_dir, "--json"};
      if (get || parts[2] == "backups") argv.push_back("--list");
      else if (settings.backup_keep > 0) argv.insert(argv.end(), {"--keep", std::to_string(settings.backup_keep)});
      return on_pool([this, argv] { return Run(argv); });
    }
    if (parts.size() >= 4 && parts[0] == "api" && parts[1] == "games") {
      const std::string& game = parts[2];
      const std::string& what = parts[3];
      if (!ledger::CheckName("game", game).ok()) return reply(Error(http::status::not_found, "no such game"));
      // A player reaches his own game only; the GA every game.
      if (!s->ga && s->game != game) return reply(Error(http::status::forbidden, "not your game"));
      const auto q = Query(rq.query);
      if ((what == "orders" || what == "reports") && s->ga) {
        return reply(Error(http::status::forbidden, "a player's request: the GA reads every view with /api/ga/run"));
      }
      if (what == "orders" && post && !s->ga) {
        net::post(StrandOf(game), [this, s = *s, rq, reply] { reply(SubmitOrders(s, rq)); });
        return;
      }
      if (what == "orders" && get && !s->ga) return on_pool([this, s = *s, q] { return OwnOrders(s, q); });
      if (what == "digest" && get) {
        // A finished turn's digest (public: a hash of the log up to its end),
        // for a player to keep and check later with `adjutant verify --digest`.
        if (!q.count("turn") || !SafeWord(q.at("turn"))) return reply(Error(http::status::bad_request, "turn: e.g. ?turn=1805.1.2"));
        return on_pool([this, game, turn = q.at("turn")] {
          return Render({"digest", game, "--turn", turn, "--json"}, "application/json");
        });
      }
      if (what == "reports" && get && !s->ga) return on_pool([this, s = *s, q] { return Report(s, q); });
      if (!s->ga) return reply(Error(http::status::forbidden, "the GA's only"));
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
        std::vector<std::string> argv = {"adjudicate", game, "--json"};
        if (mode == "phase") argv.push_back("--phase");
        if (!rq.idempotency_key.empty()) argv.insert(argv.end(), {"--key", rq.idempotency_key});
        net::post(StrandOf(game), [this, argv, reply] { reply(Run(argv)); });
        return;
      }
      if (what == "correct" && post) {
        net::post(StrandOf(game), [this, game, rq, reply] { reply(Correct(game, rq)); });
        return;
      }
      if (what == "directives" && post) {
        net::post(StrandOf(game), [this, game, rq, reply] { reply(Directive(game, rq)); });
        return;
      }
      return reply(Error(http::status::not_found, "no such request: " + std::string(http::to_string(rq.method)) + " " +
                                                      rq.path));
    }
    return reply(Error(http::status::not_found, "no such request: " + rq.path));
  }

  // A GA's directive file (checked first), given as the standard input of
  // the command that reads it ("-"): `adjutant directive` records it, and
  // `adjutant correct` forks before `at` and records it there.
  Response WithDirective(const Request& rq, const std::function<std::vector<std::string>(const std::string&)>& argv_of) {
    auto doc = schema::ParseJson("DirectiveFile", rq.body, "directive");
    if (!doc.ok()) return Error(http::status::bad_request, doc.status().message());
    return Run(argv_of("-"), rq.body);
  }
  Response Directive(const std::string& game, const Request& rq) {
    return WithDirective(rq, [&](const std::string& file) {
      std::vector<std::string> argv = {"directive", game, file};
      if (!rq.idempotency_key.empty()) argv.insert(argv.end(), {"--key", rq.idempotency_key});
      return argv;
    });
  }
  Response Correct(const std::string& game, const Request& rq) {
    const auto q = Query(rq.query);
    if (!q.count("at") || !SafeWord(q.at("at"))) return Error(http::status::bad_request, "at: the faulty turn, e.g. ?at=1805.1.2");
    if (q.count("name") && !ledger::CheckName("branch", q.at("name")).ok()) {
      return Error(http::status::bad_request, "name: not a branch name");
    }
    return WithDirective(rq, [&](const std::string& file) {
      std::vector<std::string> argv = {"correct", game, "--at", q.at("at"), "--directive", file, "--json"};
      if (q.count("name")) argv.insert(argv.end(), {"--name", q.at("name")});
      return argv;
    });
  }
};

namespace {

// One client connection: requests read one after another (keep-alive),
// each answered in order; the GA's feed turns it into an event stream.
// `Stream` is a plain TCP stream or, with --tls-cert, TLS over one (the
// pattern of Beast's advanced_server_flex example); the connection's code is
// the same for both.
class ConnBase {
 public:
  virtual ~ConnBase() = default;
  virtual void CloseIfIdle() = 0;
};

template <class Stream>
class Conn : public ConnBase, public std::enable_shared_from_this<Conn<Stream>> {
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;
  using std::enable_shared_from_this<Conn<Stream>>::shared_from_this;

 public:
  // `tls`: the TLS context, for a TLS stream only.
  template <class... Tls>
  Conn(tcp::socket socket, std::string client, Desk::Impl& impl, Tls&... tls)
      : stream_(std::move(socket), tls...), impl_(impl), client_(std::move(client)) {}
  ~Conn() override { impl_.DropConnection(client_); }

  void Start() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if constexpr (kTls) {
        // The handshake has the header's deadline: a client that never
        // finishes it is cut off like one that never finishes a header.
        self->Lowest().expires_after(std::chrono::seconds(self->impl_.settings.header_timeout_s));
        self->stream_.async_handshake(net::ssl::stream_base::server, [self](beast::error_code ec) {
          if (ec) return self->CloseSocket();  // plain HTTP to the TLS port, say: nothing is answered
          self->handshaken_ = true;
          self->Read();
        });
      } else {
        self->Read();
      }
    });
  }
  void CloseIfIdle() override {
    net::post(stream_.get_executor(), [self = shared_from_this()] {
      if (!self->busy_) {
        beast::error_code ec;
        self->Lowest().socket().shutdown(tcp::socket::shutdown_both, ec);
        self->Lowest().close();
      }
    });
  }

 private:
  beast::tcp_stream& Lowest() { return beast::get_lowest_layer(stream_); }

  void Read() {
    if (impl_.stopping) return Close();
    busy_ = false;
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(impl_.settings.max_header_bytes));
    parser_->body_limit(impl_.settings.max_body_bytes);
    if (first_ || buffer_.size() > 0) return ReadHeader();
    // A kept-alive connection waits idle_timeout_s for its next request's
    // first byte; from then on the whole header has header_timeout_s, as the
    // first request's has (a header dribbled a byte at a time is cut off).
    Lowest().expires_after(std::chrono::seconds(impl_.settings.idle_timeout_s));
    stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
      if (ec) return self->Close();
      self->buffer_.commit(n);
      self->ReadHeader();
    });
  }

  void ReadHeader() {
    Lowest().expires_after(std::chrono::seconds(impl_.settings.header_timeout_s));
    http::async_read_header(stream_, buffer_, *parser_, beast::bind_front_handler(&Conn::OnHeader, shared_from_this()));
  }

  void OnHeader(beast::error_code ec, std::size_t) {
    if (ec) return OnReadError(ec);
    busy_ = true;
    first_ = false;
    began_ = Clock::now();
    const auto& m = parser_->get();
    log_method_ = m.method();
    const std::string target(m.target());
    log_path_ = target.substr(0, target.find('?'));  // never the query string
    log_who_ = log_game_ = "-";
    Lowest().expires_after(std::chrono::seconds(impl_.settings.header_timeout_s));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Conn::OnRead, shared_from_this()));
  }

  void OnReadError(beast::error_code ec) {
    if (ec == http::error::body_limit) {
      return Send(Error(http::status::payload_too_large, "the body is over " + std::to_string(impl_.settings.max_body_bytes) +
                                                             " bytes"), true);
    }
    if (ec == http::error::header_limit) {
      return Send(Error(http::status::request_header_fields_too_large, "the header is over " +
                                                                           std::to_string(impl_.settings.max_header_bytes) +
                                                                           " bytes"), true);
    }
    if (ec == beast::error::timeout && busy_) return Send(Error(http::status::request_timeout, "the request came too slowly"), true);
    Close();
  }

  void OnRead(beast::error_code ec, std::size_t) {
    if (ec) return OnReadError(ec);
    auto& m = parser_->get();
    keep_alive_ = m.keep_alive() && !impl_.stopping;
    version_ = m.version();
    const std::string client = impl_.ClientAddress(client_, m);  // behind a trusted proxy: the forwarded client
    log_client_ = client;
    if (!impl_.RateOk(client)) {
      Response r = Error(http::status::too_many_requests, "more than " + std::to_string(impl_.settings.requests_per_minute) +
                                                              " requests a minute from this address");
      r.headers.push_back({"Retry-After", "60"});
      return Send(std::move(r), false);
    }
    Request rq;
    rq.method = m.method();
    rq.target = std::string(m.target());
    const size_t qm = rq.target.find('?');
    rq.path = rq.target.substr(0, qm);
    rq.query = qm == std::string::npos ? "" : rq.target.substr(qm + 1);
    rq.body = std::move(m.body());
    rq.authorization = std::string(m[http::field::authorization]);
    rq.idempotency_key = std::string(m["Idempotency-Key"]);
    rq.last_event_id = std::string(m["Last-Event-ID"]);
    rq.client = client;  // behind a trusted proxy: the forwarded client
    if (impl_.access) {
      // Who asked, for the access log: the session's person (or GA), the game.
      if (auto who = impl_.SessionOf(rq)) {
        log_who_ = who->ga ? "GA" : who->person;
        if (!who->game.empty()) log_game_ = who->game;
      }
      const auto parts = Split(rq.path);
      if (parts.size() >= 3 && parts[0] == "api" && parts[1] == "games") log_game_ = parts[2];
    }
    Lowest().expires_never();  // the handler may take a while (a turn's adjudication)
    if (rq.method == http::verb::get && IsFeed(rq)) return StartFeed(rq);
    auto self = shared_from_this();
    // The I/O loop stays alive until this request is answered, even while
    // the desk stops (an acknowledged order is always answered).
    auto work = std::make_shared<net::executor_work_guard<net::io_context::executor_type>>(impl_.ioc.get_executor());
    impl_.Handle(std::move(rq), [self, work](Response r) {
      net::post(self->stream_.get_executor(), [self, work, r = std::move(r)]() mutable {
        self->Send(std::move(r), false);
        work->reset();
      });
    });
  }

  // On every answer: the page's policy, never framed, no referrer, no
  // sniffing; with TLS, browsers are told to come back over TLS only.
  std::vector<std::pair<std::string, std::string>> SecurityHeaders() const {
    std::vector<std::pair<std::string, std::string>> h = {{"Content-Security-Policy", impl_.policy},
                                                          {"X-Frame-Options", "DENY"},
                                                          {"Referrer-Policy", "no-referrer"},
                                                          {"X-Content-Type-Options", "nosniff"}};
    if (kTls) h.push_back({"Strict-Transport-Security", "max-age=31536000"});
    return h;
  }

  void Send(Response r, bool close) {
    auto res = std::make_shared<http::response<http::string_body>>(r.status, version_ ? version_ : 11);
    res->set(http::field::server, "adjutant-desk");
    res->set(http::field::content_type, r.type);
    res->set(http::field::cache_control, "no-store");
    for (const auto& [k, v] : SecurityHeaders()) res->set(k, v);
    for (const auto& [k, v] : r.headers) res->set(k, v);
    res->keep_alive(keep_alive_ && !close && !impl_.stopping);
    res->body() = std::move(r.body);
    res->prepare_payload();
    Lowest().expires_after(std::chrono::seconds(impl_.settings.header_timeout_s));
    http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
      self->impl_.Log(self->log_client_.empty() ? self->client_ : self->log_client_, self->log_who_, self->log_game_, self->log_method_, self->log_path_,
                      res->result_int(), res->body().size(), self->began_);
      if (ec || !res->keep_alive()) return self->Close();
      self->Read();
    });
  }

  // Closes the connection (with TLS, after its close_notify, under the
  // header's deadline).
  void Close() {
    if (closing_) return;
    closing_ = true;
    if constexpr (kTls) {
      if (handshaken_) {
        Lowest().expires_after(std::chrono::seconds(impl_.settings.header_timeout_s));
        stream_.async_shutdown([self = shared_from_this()](beast::error_code) { self->CloseSocket(); });
        return;
      }
    }
    CloseSocket();
  }
  void CloseSocket() {
    beast::error_code ec;
    Lowest().socket().shutdown(tcp::socket::shutdown_send, ec);
    Lowest().close();
  }

  // ---- the GA's live feed: GET /api/games/GAME/feed (server-sent events) -------
  bool IsFeed(const Request& rq) const {
    auto p = Split(rq.path);
    return p.size() == 4 && p[0] == "api" && p[1] == "games" && p[3] == "feed";
  }

  void StartFeed(const Request& rq) {
    auto s = impl_.SessionOf(rq);
    if (!s) return Send(Error(http::status::unauthorized, "not logged in, or the session has expired"), false);
    if (!s->ga) return Send(Error(http::status::forbidden, "the GA's only"), false);
    feed_game_ = Split(rq.path)[2];
    if (!ledger::CheckName("game", feed_game_).ok()) return Send(Error(http::status::not_found, "no such game"), false);
    auto q = Query(rq.query);
    feed_next_ = 1;
    const std::string from = !rq.last_event_id.empty() ? rq.last_event_id : q.count("after") ? q.at("after") : "";
    if (!from.empty()) {
      try {
        feed_next_ = std::stoull(from) + 1;
      } catch (...) {
        return Send(Error(http::status::bad_request, "after: not a sequence number"), false);
      }
    }
    feed_session_.authorization = rq.authorization;  // checked again on every poll
    std::string h = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n"
                    "Server: adjutant-desk\r\n";
    for (const auto& [k, v] : SecurityHeaders()) h += k + ": " + v + "\r\n";
    auto head = std::make_shared<std::string>(h + "\r\n");
    net::async_write(stream_, net::buffer(*head), [self = shared_from_this(), head](beast::error_code ec, std::size_t) {
      self->impl_.Log(self->log_client_.empty() ? self->client_ : self->log_client_, self->log_who_, self->log_game_, self->log_method_, self->log_path_, 200, 0,
                      self->began_);
      if (ec) return self->Close();
      self->feed_timer_.emplace(self->stream_.get_executor());
      self->Poll();
    });
  }

  void Poll() {
    if (impl_.stopping) return Close();
    // The session again, on every poll: logged out, expired or revoked, the feed ends.
    if (auto s = impl_.SessionOf(feed_session_); !s || !s->ga) return Close();
    // Read what is new on the worker pool; write it from here.
    auto self = shared_from_this();
    net::post(impl_.pool, [self] {
      std::string chunk;
      uint64_t next = self->feed_next_;
      auto branch = self->impl_.db.Current(self->feed_game_);
      if (branch.ok()) {
        (void)self->impl_.db.Read(self->feed_game_, *branch, next, UINT64_MAX, [&](const ledger::EventView& e) {
          auto j = schema::ToJson("Event", e.bytes.data());
          chunk += "id: " + std::to_string(e.seq) + "\ndata: " + (j.ok() ? *j : "{}") + "\n\n";
          next = e.seq + 1;
          return chunk.size() > 256 * 1024 ? Status::Corruption("enough for one write") : Status::Ok();
        });
      }
      if (chunk.empty()) chunk = ": waiting\n\n";  // a comment: keeps proxies and clients awake
      net::post(self->stream_.get_executor(), [self, chunk = std::make_shared<std::string>(std::move(chunk)), next] {
        self->feed_next_ = next;
        net::async_write(self->stream_, net::buffer(*chunk), [self, chunk](beast::error_code ec, std::size_t) {
          if (ec) return self->Close();
          self->feed_timer_->expires_after(std::chrono::milliseconds(250));
          self->feed_timer_->async_wait([self](beast::error_code ec2) {
            if (ec2) return self->Close();
            self->Poll();
          });
        });
      });
    });
  }

  Stream stream_;
  Desk::Impl& impl_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string client_;
  std::string log_client_;  // the client the access log names: the forwarded one behind a trusted proxy
  bool keep_alive_ = true, busy_ = false, first_ = true, closing_ = false, handshaken_ = false;
  unsigned version_ = 11;
  std::string feed_game_;
  Request feed_session_;  // the feed's Authorization, for SessionOf
  uint64_t feed_next_ = 1;
  std::optional<net::steady_timer> feed_timer_;
  // The access log's line for the request in hand.
  Clock::time_point began_ = Clock::now();
  http::verb log_method_ = http::verb::unknown;
  std::string log_path_ = "-", log_who_ = "-", log_game_ = "-";
};

}  // namespace

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

namespace {

void Accept(Desk::Impl& impl, std::shared_ptr<std::vector<std::weak_ptr<ConnBase>>> conns) {
  impl.acceptor.async_accept(net::make_strand(impl.ioc), [&impl, conns](beast::error_code ec, tcp::socket socket) {
    if (impl.stopping) return;
    if (!ec) {
      beast::error_code aec;
      const auto ep = socket.remote_endpoint(aec);
      const std::string client = aec ? "?" : ep.address().to_string();
      const auto admit = impl.AddConnection(client);
      if (admit != Desk::Impl::Admit::kOk) {
        // Over a limit: a short answer (in plain HTTP only: a TLS client
        // could not read it), then closed; the access log has a line.
        impl.Log(client, "-", "-", http::verb::unknown, "-", 503, 0, Clock::now());
        if (!impl.tls) {
          const std::string body = admit == Desk::Impl::Admit::kTooMany
                                       ? "{\"error\": \"too many connections open\"}\n"
                                       : "{\"error\": \"too many connections open from your address (limit " +
                                             std::to_string(impl.settings.max_connections_per_address) + ")\"}\n";
          const std::string busy =
              "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
              "Retry-After: 5\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
          beast::error_code wec;
          net::write(socket, net::buffer(busy), wec);
        }
        beast::error_code cec;
        socket.close(cec);
      } else {
        std::shared_ptr<ConnBase> c;
        if (impl.tls) {
          auto t = std::make_shared<Conn<beast::ssl_stream<beast::tcp_stream>>>(std::move(socket), client, impl, *impl.tls);
          t->Start();
          c = t;
        } else {
          auto t = std::make_shared<Conn<beast::tcp_stream>>(std::move(socket), client, impl);
          t->Start();
          c = t;
        }
        std::erase_if(*conns, [](const auto& w) { return w.expired(); });
        conns->push_back(c);
      }
    }
    Accept(impl, conns);
  });
}

}  // namespace

Result<std::unique_ptr<Desk>> Desk::Start(ledger::Ledger& db, const Settings& settings, Hooks hooks) {
  if (sodium_init() < 0) return Status::IOError("libsodium failed to initialise");
  auto impl = std::make_unique<Impl>(db, settings, std::move(hooks));
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
  raw->close_idle = [raw, conns] {
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

void Desk::Sequence(const std::string& game, std::function<void()> fn) {
  Impl* raw = impl_.get();
  if (game.empty()) net::post(raw->pool, std::move(fn));
  else net::post(raw->StrandOf(game), std::move(fn));
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
