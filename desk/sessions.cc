// The order desk's logins and sessions (desk.h): tokens kept under a hash,
// the login backoff per (client address, account) pair, revocation, and a
// person's roles as the roster stands now.
#include <sodium.h>

#include <set>

#include "desk/internal.h"
#include "reports/reports.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::desk {

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

// Ends every session of `game` (of `person` only, when given): their
// tokens are refused from now on. The number ended.
size_t Desk::Impl::RevokeSessions(const std::string& game, const std::string& person) {
  std::lock_guard<std::mutex> lock(mu);
  return std::erase_if(sessions, [&](const auto& kv) {
    return !kv.second.ga && kv.second.game == game && (person.empty() || kv.second.person == person);
  });
}

uint64_t Desk::Impl::HeadSeqOf(const std::string& game) {
  auto branch = db.Current(game);
  if (!branch.ok()) return 0;
  auto head = db.HeadOf(game, *branch);
  return head.ok() ? head->seq : 0;
}

void Desk::Impl::EndSessionsOfRolesTaken(const std::string& game, uint64_t after) {
  auto branch = db.Current(game);
  if (!branch.ok()) return;
  auto head = db.HeadOf(game, *branch);
  if (!head.ok() || head->seq <= after) return;
  std::set<std::string> losers;
  Status st = db.Read(game, *branch, after + 1, head->seq, [&](const ledger::EventView& v) {
    const auto* d = v.event()->payload_as_Directive();
    const auto* a = d ? d->body_as_AssignRole() : nullptr;
    if (a && a->taken_from()) for (const auto* n : *a->taken_from()) losers.insert(n->str());
    return Status::Ok();
  });
  if (!st.ok()) {
    // A damaged read: end every session of the game rather than keep one
    // that should have ended.
    RevokeSessions(game, "");
    return;
  }
  for (const auto& p : losers) RevokeSessions(game, p);
}

// A login's pair: its address and the account named (whether it exists or
// not, so the answers tell nothing). Lengths keep the parts apart.
std::string Desk::Impl::LoginKey(const std::string& client, const std::string& game, const std::string& person, bool ga) {
  if (ga) return client + "\nGA";
  return client + "\n" + std::to_string(game.size()) + ":" + game + person;
}

// Before a login's work: the 429 if the pair must wait (or has a login
// being checked); else the pair is marked busy until LoginEnd.
std::optional<Response> Desk::Impl::LoginBegin(const std::string& key) {
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
void Desk::Impl::LoginEnd(const std::string& key, bool ok) {
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

std::optional<Session> Desk::Impl::SessionOf(const Request& rq) {
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

Response Desk::Impl::NewSession(Session s) {
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

Response Desk::Impl::Login(const Request& rq) {
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
    auto world = branch.ok() ? warm.Fold(db, game, *branch) : Result<replay::World>(branch.status());
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

Response Desk::Impl::GaLogin(const Request& rq) {
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

// A person's roles as the game's roster stands now (reports::PersonNow): a
// ship given to him after he logged in is his at once (PATE 2.3), as the
// order check has it.
std::vector<std::string> Desk::Impl::RolesNow(const Session& s) {
  auto branch = db.Current(s.game);
  if (!branch.ok()) return {};
  auto viewer = reports::PersonNow(db, s.game, *branch, s.person);
  return viewer.ok() ? viewer->roles : std::vector<std::string>{};
}

}  // namespace adjutant::desk
