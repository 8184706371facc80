#include "projections/roles_due.h"

#include <algorithm>

#include "projections/archive.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::projections {

template <class A> void Visit(A& a, PendingRole& p) { a(p.seq, p.from_turn, p.person, p.role, p.withdraw); }
template <class A> void Visit(A& a, RolesDueState& s) { a(s.last_seq, s.active, s.pending); }

namespace {
using schema::TurnOf;
}  // namespace

bool TakesEffectNow(const fb::Event& e, const fb::AssignRole& a) {
  return !a.from_turn() || TurnOf(a.from_turn()) <= TurnOf(e.turn());
}

void RolesDue::Apply(const Input& in) {
  s_.last_seq = in.seq;
  const fb::Directive* d = in.event->payload_as_Directive();
  const fb::AssignRole* a = d ? d->body_as_AssignRole() : nullptr;
  if (!a) return;
  PendingRole p{in.seq, TurnOf(a->from_turn()), a->person()->str(), a->role()->str(), a->withdraw()};
  if (!TakesEffectNow(*in.event, *a)) {
    s_.active = true;
    s_.pending.push_back(std::move(p));
    return;
  }
  // Recorded again as its turn's orders opened: no longer waiting.
  auto it = std::find_if(s_.pending.begin(), s_.pending.end(), [&](const PendingRole& q) {
    return q.from_turn == p.from_turn && q.person == p.person && q.role == p.role && q.withdraw == p.withdraw;
  });
  if (it != s_.pending.end()) s_.pending.erase(it);
}

std::string RolesDue::Encode() const { return EncodeState(s_); }

Status RolesDue::Decode(std::string_view bytes) { return DecodeState(bytes, &s_, name()); }

}  // namespace adjutant::projections
