// Mail in and out (issue 20): the GA's mail account, read from a settings
// file; messages composed, sent by SMTP submission and read over IMAP —
// all through VMime (Debian's libvmime), never hand-written MIME or SMTP.
// Only TLS connections: STARTTLS on the submission and IMAP ports (the
// default) or TLS from the first byte (smtps/imaps), the server's
// certificate checked against the settings' CA file (default: the system's
// bundle) and its name against the host. Knows nothing of games or the
// ledger; VMime stays inside mail.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"

namespace adjutant::mail {

enum class Tls { kStartTls, kImplicit };

// One server of the GA's account.
struct Endpoint {
  std::string host;  // empty: not configured
  uint16_t port = 0;
  std::string user, password;
  Tls tls = Tls::kStartTls;
};

struct Settings {
  std::string path;  // the file they were read from
  std::string from_address, from_name;
  Endpoint smtp;  // outbound: submission (587, STARTTLS) or smtps (465)
  Endpoint imap;  // inbound: IMAP (143, STARTTLS) or imaps (993); may be unset
  std::string imap_folder = "INBOX";
  std::string ca_file = "/etc/ssl/certs/ca-certificates.crt";
  uint32_t timeout_seconds = 30;
  bool holds_password = false;  // a password is written in the file itself
  // Reminders: each player with an address and a role who has given no
  // orders for the coming turn is mailed this long before its deadline
  // (seconds, longest first; empty: no reminders).
  std::vector<int64_t> remind_before;
};

// The settings file: `key = value` lines, `#` comments. Keys:
//   from = Name <address>            (or a bare address)
//   smtp.host, smtp.port, smtp.user, smtp.password, smtp.tls (starttls | tls)
//   imap.host, imap.port, imap.user, imap.password, imap.tls, imap.folder
//   ca_file, timeout
//   remind = 24h, 2h   (reminders this long before each deadline)
// `*.password_file = PATH` reads the password from its first line instead.
// An unknown key, a missing value or a bad port is refused naming the file,
// line and key.
Result<Settings> ParseSettings(std::string_view text, const std::string& path);
// Reads PATH. A file that holds a password and that group or others may
// read is refused ("chmod 600").
Result<Settings> LoadSettings(const std::string& path);
// The example file, for `--help` and the README.
std::string_view ExampleSettings();

struct Attachment {
  std::string name;        // file name
  std::string media_type;  // "image/svg+xml", "application/json"
  std::string bytes;
};

struct Outgoing {
  std::string to_address, to_name;
  std::string subject;
  std::string text;  // UTF-8, the body (text/plain)
  std::string html;  // optional HTML alternative of `text`
  std::vector<Attachment> attachments;
  std::string message_id;               // "left@right" (no angle brackets); empty: VMime makes one
  std::vector<std::string> references;  // the thread: root first; the last is In-Reply-To
  std::vector<std::pair<std::string, std::string>> headers;  // extra fields, e.g. X-Adjutant-Digest
};

// The message as it goes on the wire (RFC 5322, MIME), from the settings' sender.
Result<std::string> Compose(const Settings& s, const Outgoing& m);
// Sends each message over one SMTP connection; `sent[i]` is the status of
// message i (a refused recipient fails that message alone). The result is
// not OK when no connection could be made (then no message was sent).
Status Send(const Settings& s, const std::vector<Outgoing>& messages, std::vector<Status>* sent);

struct Incoming {
  uint64_t uid = 0;  // IMAP UID in the folder (0: not from IMAP)
  std::string message_id, in_reply_to;  // without angle brackets
  std::string from_address, from_name, subject;
  std::string text;  // the first text/plain part, UTF-8, lines ending in LF (else the first text part)
  std::vector<Attachment> attachments;
  std::vector<std::pair<std::string, std::string>> headers;  // every field, as sent
  std::string error;  // Fetch: why the message could not be read (the rest is empty)
  // A field's value ("" if absent), case-insensitive.
  std::string Header(std::string_view name) const;
};

// Reads a message as it came (from IMAP, or piped from the MTA).
Result<Incoming> Parse(std::string_view raw);

// The messages of the settings' IMAP folder, by UID, oldest first; `unseen`:
// only those not yet marked \Seen. Reading marks nothing.
Result<std::vector<Incoming>> Fetch(const Settings& s, bool unseen);
// Marks the messages of `uids` \Seen in the settings' IMAP folder.
Status MarkSeen(const Settings& s, const std::vector<uint64_t>& uids);

}  // namespace adjutant::mail
