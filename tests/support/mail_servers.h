// Real mail servers for a test (issue 20): Debian's Postfix (submission with
// STARTTLS and SASL) and Dovecot (IMAP with STARTTLS, LMTP delivery),
// configured by tests/mail/servers.sh into a temporary directory on
// loopback with free ports, stopped when the object goes. Users are
// USER@example.test, logging in as USER. The servers are reached at
// 127.0.0.2 (MAIL_HOST): Dovecot takes a client on its own address as
// secure and would not insist on STARTTLS there.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mail/mail.h"
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

// The messages of the settings' IMAP folder once `n` have arrived (delivery
// is asynchronous: looked at a bounded number of times, 200 ms apart; no
// timing is asserted), or as many as came.
Result<std::vector<mail::Incoming>> AwaitMail(const mail::Settings& s, size_t n);

}  // namespace adjutant::testing
