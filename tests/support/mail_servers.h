// Real mail servers for a test (issue 20): Debian's Postfix (submission with
// STARTTLS and SASL) and Dovecot (IMAP with STARTTLS, LMTP delivery),
// configured by tests/mail/servers.sh into a temporary directory on
// loopback with free ports, stopped when the object goes. Users are
// USER@example.test, logging in as USER. The servers are reached at
// 127.0.0.2 (MAIL_HOST): Dovecot takes a client on its own address as
// secure and would not insist on STARTTLS there.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mail/mail.h"
#include "projections/roster.h"
#include "support/kinds.h"
#include "support/temp_dir.h"

namespace adjutant::testing {

class MailServers {
 public:
  // `users`: (name, password).
  explicit MailServers(const std::vector<std::pair<std::string, std::string>>& users);
  ~MailServers();
  MailServers(const MailServers&) = delete;
  MailServers& operator=(const MailServers&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }  // the script's output when it failed
  uint16_t smtp_port() const { return smtp_port_; }
  uint16_t imap_port() const { return imap_port_; }
  const std::string& ca_file() const { return ca_; }
  const std::string& host() const { return host_; }
  std::string Address(const std::string& user) const { return user + "@example.test"; }
  // Settings for USER's account: SMTP and IMAP on loopback, this CA.
  mail::Settings SettingsFor(const std::string& user, const std::string& password) const;
  const std::string& dir() const { return dir_.path(); }

 private:
  TempDir dir_;
  std::string error_, ca_, host_;
  uint16_t smtp_port_ = 0, imap_port_ = 0;
};

// A mailbox for each person of a game who holds roles — box1, box2, ... in
// the order of their names, each with the password USER-pass — and the
// GA's, "ga" (first of `users`).
struct Mailboxes {
  std::map<std::string, std::string> box_of;               // person -> mailbox user
  std::vector<std::pair<std::string, std::string>> users;  // (user, password), for MailServers
  static std::string PasswordOf(const std::string& user) { return user + "-pass"; }
};
Mailboxes MailboxesFor(const std::map<std::string, projections::Person>& persons);

// Game "g" of `kind` played (PlayedGame); real mail servers with a mailbox
// for each person holding roles and the GA's; each such person given his
// mailbox's address (replay::SetMailAddress) after the turns played.
struct MailedGame {
  PlayedGame game;
  Mailboxes boxes;
  std::unique_ptr<MailServers> servers;
  Status status;  // REQUIRE(status.ok()) first (it says what failed: the play, the servers, an address)
  explicit MailedGame(const GameKind& kind);
  ledger::Ledger& db() { return *game; }
  const std::map<std::string, std::string>& box_of() const { return boxes.box_of; }
  // The settings of the GA's account; of mailbox `user`'s.
  mail::Settings Ga() const { return Of("ga"); }
  mail::Settings Of(const std::string& user) const { return servers->SettingsFor(user, Mailboxes::PasswordOf(user)); }
};

// The messages of the settings' IMAP folder once `n` have arrived (delivery
// is asynchronous: looked at a bounded number of times, 200 ms apart; no
// timing is asserted), or as many as came.
Result<std::vector<mail::Incoming>> AwaitMail(const mail::Settings& s, size_t n);

}  // namespace adjutant::testing
