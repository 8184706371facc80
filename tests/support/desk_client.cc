#include "support/desk_client.h"
#include "support/build_paths.h"

#include <sodium.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <fstream>
#include <sstream>
#include <chrono>

#include "ledger/ledger.h"
#include "replay/create.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/scenario_generated.h"

namespace adjutant::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

HttpReply HttpCall(uint16_t port, const std::string& method, const std::string& target, const std::string& body,
                   const std::string& token, const Headers& headers, int timeout_ms) {
  return HttpCallFrom("", port, method, target, body, token, headers, timeout_ms);
}

HttpReply HttpCallFrom(const std::string& from, uint16_t port, const std::string& method, const std::string& target,
                       const std::string& body, const std::string& token, const Headers& headers, int timeout_ms) {
  HttpReply out;
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  if (!from.empty()) {
    beast::error_code bec;
    stream.socket().open(net::ip::tcp::v4(), bec);
    if (!bec) stream.socket().bind(net::ip::tcp::endpoint(net::ip::make_address(from, bec), 0), bec);
    if (bec) {
      out.error = "bind " + from + ": " + bec.message();
      return out;
    }
  }
  stream.expires_after(std::chrono::milliseconds(timeout_ms));
  http::request<http::string_body> rq(http::string_to_verb(method), target, 11);
  rq.set(http::field::host, "127.0.0.1");
  rq.keep_alive(false);
  if (!token.empty()) rq.set(http::field::authorization, "Bearer " + token);
  for (const auto& [k, v] : headers) rq.insert(k, v);
  rq.body() = body;
  rq.prepare_payload();
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  beast::error_code ec;
  // Asynchronous calls so that the deadline applies to each.
  stream.async_connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port), [&](beast::error_code e) {
    if (e) {
      ec = e;
      return;
    }
    http::async_write(stream, rq, [&](beast::error_code e2, size_t) {
      if (e2) {
        ec = e2;
        return;
      }
      http::async_read(stream, buf, res, [&](beast::error_code e3, size_t) { ec = e3; });
    });
  });
  ioc.run();
  if (ec) {
    out.error = ec.message();
    return out;
  }
  out.status = static_cast<int>(res.result_int());
  out.body = res.body();
  out.type = std::string(res[http::field::content_type]);
  for (const auto& f : res) {
    std::string name(f.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.headers[name] = std::string(f.value());
  }
  return out;
}

std::string TokenOf(const std::string& login_body) {
  const auto at = login_body.find("\"token\": \"");
  return at == std::string::npos ? "" : login_body.substr(at + 10, 64);
}

std::string CheapPasswordHash(const std::string& password) {
  char h[crypto_pwhash_STRBYTES];
  if (sodium_init() < 0 || crypto_pwhash_str(h, password.c_str(), password.size(), crypto_pwhash_OPSLIMIT_MIN,
                                             crypto_pwhash_MEMLIMIT_MIN) != 0) {
    return "";
  }
  return h;
}

Result<std::unique_ptr<desk::Desk>> StartDesk(ledger::Ledger& db, desk::Settings s) {
  if (s.listen == desk::Settings{}.listen) s.listen = "127.0.0.1:0";
  return desk::Desk::Start(db, s);
}

ScheduledDesk::ScheduledDesk(ledger::Ledger& db, int64_t now, std::shared_ptr<const mail::Settings> mail) : clock(now) {
  desk::Settings s;
  s.listen = "127.0.0.1:0";
  s.now = [this] { return clock.load(); };
  auto d = StartDesk(db, s);
  if (!d.ok()) {
    status = d.status();
    return;
  }
  desk = std::move(d).value();
  desk::SchedulerSettings ss;
  ss.background = false;  // a pass of its own would leave the game unchanged for the test's
  ss.now = [this] { return clock.load(); };
  ss.mail = std::move(mail);
  scheduler = desk::Scheduler::Start(db, *desk, ss);
}

ScheduledDesk::~ScheduledDesk() {
  if (scheduler) scheduler->Stop();
  if (desk) {
    desk->Stop();
    desk->Wait();
  }
}

Status CreateTalavera(ledger::Ledger& db, const std::string& game, bool passwords) {
  std::ifstream in(std::string(ADJUTANT_FIXTURES) + "/dog/talavera-brigade.json", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  auto buf = schema::ParseJson("Scenario", text.str(), "talavera-brigade.json");
  if (!buf.ok()) return buf.status();
  bool map_error = false;
  auto start = replay::PrepareGame(*flatbuffers::GetRoot<fb::Scenario>(buf->data()), std::nullopt, &map_error);
  if (!start.ok()) return start.status();
  auto created = db.CreateGame(game, 1809, *buf, start->at, Actor{ActorKind::kGameAdministrator, "", ""}, start->more);
  if (!created.ok()) return created.status();
  for (const char* p : {"wellesley", "victor"}) {
    if (!passwords) break;
    auto set = replay::SetPassword(db, game, "main", p, CheapPasswordHash(std::string(p) + "-1809"));
    if (!set.ok()) return set.status();
  }
  return Status::Ok();
}

}  // namespace adjutant::testing
