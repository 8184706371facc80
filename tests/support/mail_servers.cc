#include "support/mail_servers.h"
#include "support/build_paths.h"

#include "replay/driver.h"
#include "replay/mail.h"

#include <sys/wait.h>

#include <array>
#include <chrono>
#include <thread>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace adjutant::testing {
namespace {

// Runs a shell command; its output (stdout and stderr) and exit status.
std::pair<int, std::string> Shell(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

std::string Script() { return std::string(ADJUTANT_SOURCE_DIR) + "/tests/mail/servers.sh"; }

}  // namespace

MailServers::MailServers(const std::vector<std::pair<std::string, std::string>>& users) {
  std::string cmd = "bash '" + Script() + "' start '" + dir_.Sub("servers") + "'";
  for (const auto& [u, p] : users) cmd += " '" + u + ":" + p + "'";
  auto [code, out] = Shell(cmd);
  if (code != 0) {
    error_ = "tests/mail/servers.sh start failed (" + std::to_string(code) + "):\n" + out;
    return;
  }
  std::ifstream env(dir_.Sub("servers") + "/env");
  std::string line;
  while (std::getline(env, line)) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string k = line.substr(0, eq), v = line.substr(eq + 1);
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'')) v = v.substr(1, v.size() - 2);
    if (k == "SMTP_PORT") smtp_port_ = static_cast<uint16_t>(std::stoi(v));
    if (k == "IMAP_PORT") imap_port_ = static_cast<uint16_t>(std::stoi(v));
    if (k == "MAIL_CA") ca_ = v;
    if (k == "MAIL_HOST") host_ = v;
  }
  if (!smtp_port_ || !imap_port_ || ca_.empty() || host_.empty()) error_ = "tests/mail/servers.sh wrote no usable env:\n" + out;
}

MailServers::~MailServers() { Shell("bash '" + Script() + "' stop '" + dir_.Sub("servers") + "'"); }

mail::Settings MailServers::SettingsFor(const std::string& user, const std::string& password) const {
  mail::Settings s;
  s.path = "(test settings for " + user + ")";
  s.from_address = Address(user);
  s.from_name = "Test " + user;
  s.smtp = {host_, smtp_port_, user, password, mail::Tls::kStartTls};
  s.imap = {host_, imap_port_, user, password, mail::Tls::kStartTls};
  s.ca_file = ca_;
  s.timeout_seconds = 20;
  return s;
}

Mailboxes MailboxesFor(const std::map<std::string, projections::Person>& persons) {
  Mailboxes m;
  m.users.emplace_back("ga", Mailboxes::PasswordOf("ga"));
  for (const auto& [person, p] : persons) {
    if (p.roles.empty()) continue;
    const std::string box = "box" + std::to_string(m.box_of.size() + 1);
    m.box_of[person] = box;
    m.users.emplace_back(box, Mailboxes::PasswordOf(box));
  }
  return m;
}

MailedGame::MailedGame(const GameKind& kind) : game(kind) {
  status = game.status;
  if (!status.ok()) return;
  auto w = replay::Fold(*game, "g", "main");
  if (!w.ok()) {
    status = w.status();
    return;
  }
  boxes = MailboxesFor(w->roster().persons());
  servers = std::make_unique<MailServers>(boxes.users);
  if (!servers->ok()) {
    status = Status::IOError("the mail servers did not start: " + servers->error());
    return;
  }
  for (const auto& [person, box] : boxes.box_of) {
    auto r = replay::SetMailAddress(*game, "g", "main", person, servers->Address(box));
    if (!r.ok()) {
      status = r.status();
      return;
    }
  }
}

Result<std::vector<mail::Incoming>> AwaitMail(const mail::Settings& s, size_t n) {
  std::vector<mail::Incoming> got;
  for (int i = 0; i < 150; ++i) {
    auto f = mail::Fetch(s, false);
    if (!f.ok()) return f.status();
    got = std::move(f).value();
    if (got.size() >= n) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return got;
}

}  // namespace adjutant::testing
