#include "projections/mail.h"

#include "projections/archive.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::projections {

template <class A> void Visit(A& a, MailBox& b) {
  a(b.address, b.since_seq, b.any_sent, b.last_turn, b.last_sent_seq, b.failures, b.failing_turn, b.retry_at,
    b.last_error, b.sent);
}
template <class A> void Visit(A& a, MailState& s) { a(s.last_seq, s.active, s.boxes, s.received, s.refused); }

namespace {
using schema::TurnOf;
using schema::Str;
}  // namespace

void Mail::Apply(const Input& in) {
  s_.last_seq = in.seq;
  const fb::Directive* d = in.event->payload_as_Directive();
  if (!d) return;
  if (const auto* a = d->body_as_SetMailAddress()) {
    s_.active = true;
    MailBox& b = s_.boxes[Str(a->person())];
    b.address = Str(a->address());
    b.since_seq = in.seq;
    b.failures = 0;
    b.retry_at = 0;
    b.last_error.clear();
  } else if (const auto* m = d->body_as_MailSent()) {
    s_.active = true;
    // Only reports move a box on; a reply to mailed orders is on the log alone.
    if (Str(m->purpose()) != "reports") return;
    MailBox& b = s_.boxes[Str(m->person())];
    const Turn t = TurnOf(m->turn());
    if (!b.any_sent || b.last_turn < t) b.last_turn = t;
    b.any_sent = true;
    b.last_sent_seq = in.seq;
    b.failures = 0;
    b.retry_at = 0;
    b.last_error.clear();
    b.sent++;
  } else if (const auto* f = d->body_as_MailFailed()) {
    s_.active = true;
    if (Str(f->purpose()) != "reports") return;
    MailBox& b = s_.boxes[Str(f->person())];
    b.failures = f->attempt();
    b.failing_turn = TurnOf(f->turn());
    b.retry_at = f->retry_at();
    b.last_error = Str(f->error());
  } else if (const auto* r = d->body_as_MailReceived()) {
    s_.active = true;
    s_.received++;
    if (!r->accepted()) s_.refused++;
  }
}

std::string Mail::Encode() const { return EncodeState(s_); }

Status Mail::Decode(std::string_view bytes) { return DecodeState(bytes, &s_, name()); }

}  // namespace adjutant::projections
