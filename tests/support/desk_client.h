// What tests, the desk benchmark and the crash loop share to talk to the
// order desk: start one on a database (commands run through
// cli::RunShared, as `adjutant serve` does), make one HTTP/1.1 request on a
// fresh loopback connection, and hash a password cheaply. Boost stays in
// desk_client.cc.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include <atomic>

#include "desk/desk.h"
#include "desk/scheduler.h"

namespace adjutant::ledger { class Ledger; }

namespace adjutant::testing {

struct HttpReply {
  int status = 0;     // 0: no answer (`error` says why: refused, reset, timed out)
  std::string body;
  std::string type;   // Content-Type
  std::string error;
  std::map<std::string, std::string> headers;  // every header, by lower-case name
};

using Headers = std::vector<std::pair<std::string, std::string>>;

// `method` is "GET", "POST", ... One connection a call (Connection: close);
// never throws: a failed exchange is status 0 with `error` set.
HttpReply HttpCall(uint16_t port, const std::string& method, const std::string& target, const std::string& body = "",
                   const std::string& token = "", const Headers& headers = {}, int timeout_ms = 60000);
// The same from the loopback address `from` (e.g. 127.0.0.2: all of
// 127.0.0.0/8 is loopback on Linux), to play a second client address.
// Headers are added, not set: one may come twice (X-Forwarded-For).
HttpReply HttpCallFrom(const std::string& from, uint16_t port, const std::string& method, const std::string& target,
                       const std::string& body = "", const std::string& token = "", const Headers& headers = {},
                       int timeout_ms = 60000);

// The token in a login's answer ("" if there is none).
std::string TokenOf(const std::string& login_body);

// libsodium's password hash at its cheapest cost (tests only).
std::string CheapPasswordHash(const std::string& password);

// The Talavera battle (fixtures/dog/talavera-brigade.json, seed 1809) created
// as `game`; with `passwords`, its generals' passwords PERSON-1809 (wellesley,
// victor), cheaply hashed.
Status CreateTalavera(ledger::Ledger& db, const std::string& game = "talavera", bool passwords = true);

// A desk on `db` (listening on 127.0.0.1, port 0 unless `s.listen` says
// otherwise) whose commands run through cli::RunShared.
Result<std::unique_ptr<desk::Desk>> StartDesk(ledger::Ledger& db, desk::Settings s);

// A desk and its scheduler (`adjutant serve`) on `db`, both on the test's
// clock, which starts at `now`; the scheduler's passes are the test's alone
// (scheduler->RunOnce()). With `mail`: its mail settings (serve
// --mail-settings). Stopped when it goes.
struct ScheduledDesk {
  std::atomic<int64_t> clock;
  std::unique_ptr<desk::Desk> desk;
  std::unique_ptr<desk::Scheduler> scheduler;
  Status status;  // the desk's start: REQUIRE(status.ok()) before using it
  ScheduledDesk(ledger::Ledger& db, int64_t now, std::shared_ptr<const mail::Settings> mail = nullptr);
  ~ScheduledDesk();
  ScheduledDesk(const ScheduledDesk&) = delete;
  ScheduledDesk& operator=(const ScheduledDesk&) = delete;
};

}  // namespace adjutant::testing
