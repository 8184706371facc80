// Mail's records on the ledger (issue 20): the address the GA gives a
// person, and each message the GA's mail server took (MailSent) or did not
// (MailFailed, with when to try again). Sending is ops/mail.h's; this is
// only what is recorded and how it reads back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "base/turn.h"
#include "ledger/ledger.h"
#include "projections/mail.h"

namespace adjutant::replay {

struct World;

const projections::MailState& MailOf(const World& w);

// An address a GA may give: user@domain, at most 254 characters, no space,
// angle bracket, quote, comma or control character. Empty clears it.
Status CheckMailAddress(std::string_view address);

// The GA gives `person` the address (empty: none; his mail stops). The
// person must be of the game.
Result<ledger::AppendResult> SetMailAddress(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                            const std::string& person, const std::string& address);

// One message's fate at the server.
struct MailRecord {
  std::string person, address, purpose;  // purpose: "reports", "reply", "reminder"
  Turn turn;
  std::string message_id, subject, body_hash, digest;
  uint32_t attempt = 1;
  int64_t at = 0;          // sent or failed at (seconds since 1970 UTC)
  std::string error;       // failed: the server's answer
  int64_t retry_at = 0;    // failed: not before
};

// Records that the server took the message. Idempotent: the same message
// (person, purpose, turn, message id) recorded again answers the first record.
Result<ledger::AppendResult> RecordMailSent(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                            const MailRecord& m);
// Whether that message (person, purpose, turn, message id) was recorded sent.
Result<bool> MailSentBefore(ledger::Ledger& db, std::string_view game, std::string_view branch, const MailRecord& m);
// Records that it did not (attempt `m.attempt`; tried again from `m.retry_at`).
Result<ledger::AppendResult> RecordMailFailed(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                              const MailRecord& m);

// A message read from the GA's mailbox (mail in): what it named and whether
// its orders went in.
struct ReceivedRecord {
  std::string message_id, from, person, subject, body_hash;
  bool accepted = false;
  std::string reason;
  int64_t at = 0;
};
// Records it. Idempotent by its Message-ID: a message read again answers
// the first record (`*first` set false).
Result<ledger::AppendResult> RecordMailReceived(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                                const ReceivedRecord& r, bool* first = nullptr);
// Whether the message with this id was recorded as received; whether the
// reply with this id went out (MailSent, purpose "reply", whose message_id
// is the reply's own).
Result<bool> MailReceivedBefore(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                const std::string& reply_message_id);
Result<bool> ReplySentBefore(ledger::Ledger& db, std::string_view game, std::string_view branch,
                             const std::string& reply_message_id);

// The wait before attempt `attempt + 1` after `attempt` failed: one minute,
// doubling, at most an hour.
int64_t MailBackoff(uint32_t attempt);

}  // namespace adjutant::replay
