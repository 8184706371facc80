// The order desk's HTTP side (desk.h): the helpers every answer uses, the
// limits on connections and requests, the client's address behind a trusted
// proxy, and the TLS context (one connection: desk/conn.cc).
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sodium.h>

#include <cstdio>
#include <ctime>
#include <filesystem>

#include "desk/internal.h"
#include "desk/pages.h"
#include "ledger/ledger.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::desk {

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

Desk::Impl::Admit Desk::Impl::AddConnection(const std::string& address) {
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

void Desk::Impl::DropConnection(const std::string& address) {
  {
    std::lock_guard<std::mutex> lock(conn_mu);
    auto it = per_address.find(address);
    if (it != per_address.end() && --it->second == 0) per_address.erase(it);
  }
  connections--;
}

// One line of the access log: never a password, a token, a body or a
// query string (only the path).
void Desk::Impl::Log(const std::string& client, const std::string& who, const std::string& game, http::verb method,
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

bool Desk::Impl::RateOk(const std::string& client) {
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

// An address as 16 bytes (IPv4 as IPv4-mapped IPv6). `with_port`: as a
// proxy may write it in X-Forwarded-For, "[v6]:port" or "v4:port" too.
std::optional<net::ip::address_v6::bytes_type> Desk::Impl::AddressBytes(std::string_view text, bool with_port) {
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

std::string Desk::Impl::AddressText(const net::ip::address_v6::bytes_type& b) {
  const net::ip::address_v6 a(b);
  return a.is_v4_mapped() ? net::ip::make_address_v4(net::ip::v4_mapped, a).to_string() : a.to_string();
}

bool Desk::Impl::Trusted(const net::ip::address_v6::bytes_type& a) const {
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
std::string Desk::Impl::ClientAddress(const std::string& peer, const http::request<http::string_body>& m) const {
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

}  // namespace adjutant::desk
