// Mail (issue 20): each person's address, as the GA set it, and where his
// mail stands — the last turn whose reports the GA's mail server took, and
// the failures since (how many, the last error, when to try again). Folds
// the SetMailAddress, MailSent and MailFailed directives; applies (and so
// has a digest in PhaseCompleted) only in a game where mail was used, so no
// earlier game changes. Times are data; nothing here reads a clock.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/turn.h"
#include "projections/projection.h"

namespace adjutant::projections {

struct MailBox {
  std::string address;      // "": none (his mail stops)
  uint64_t since_seq = 0;   // the SetMailAddress that set it: turns over after it are his to receive
  bool any_sent = false;
  Turn last_turn;           // the last turn whose reports were sent (any_sent)
  uint64_t last_sent_seq = 0;
  uint32_t failures = 0;    // failed attempts at the turn after last_turn, since the last success
  Turn failing_turn;
  int64_t retry_at = 0;     // not before (seconds since 1970 UTC)
  std::string last_error;
  uint32_t sent = 0;        // messages sent to him in all
};

struct MailState {
  uint64_t last_seq = 0;
  bool active = false;  // a mail directive was ever recorded
  std::map<std::string, MailBox> boxes;
  uint32_t received = 0, refused = 0;  // messages read from the mailbox, and of them refused
};

class Mail final : public Fold<MailState> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<Mail>(*this); }
  std::string_view name() const override { return "mail"; }
  uint32_t version() const override { return 1; }
  bool applies() const override { return s_.active; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;
};

}  // namespace adjutant::projections
