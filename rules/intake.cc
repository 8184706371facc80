#include "rules/intake.h"

#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"

namespace adjutant::rules {

void IntakeOrders(PhaseWriter& w, const TurnPhase& at, const OrderSender& from,
                  const std::vector<const fb::OrderItem*>& items, const OrderJudge& judge) {
  auto tagged = [&](Draft d) {
    d.at = at;
    d.ruleset = from.ruleset;
    d.rules_version = w.tag_versions().Of(from.ruleset);
    return d;
  };
  for (const fb::OrderItem* item : items) {
    const OrderJudgement j = judge(w, *item);
    Draft d = tagged(Draft{});
    d.actor = Actor{ActorKind::kPlayer, from.person, from.role};
    d.payload = [person = from.person, role = from.role, slot = j.slot, item](flatbuffers::FlatBufferBuilder& f) {
      flatbuffers::Offset<void> body;
      if (item->body_type() != fb::OrderBody_NONE) {
        body = flatbuffers::Offset<void>(schema::CopyTable(f, fb::EnumNameOrderBody(item->body_type()), item->body()));
      }
      auto o = fb::CreateOrderSubmittedDirect(f, person.c_str(), role.c_str(), slot.c_str(), item->body_type(), body);
      return PayloadRef{fb::Payload_OrderSubmitted, o.o};
    };
    w.Emit(std::move(d));
    const uint64_t seq = w.head_seq();
    if (!j.rule.empty()) {
      Draft r = tagged(Draft{});
      r.payload = [seq, rule = j.rule, reason = j.reason](flatbuffers::FlatBufferBuilder& f) {
        return PayloadRef{fb::Payload_OrderRejected, fb::CreateOrderRejectedDirect(f, seq, rule.c_str(), reason.c_str()).o};
      };
      w.Emit(std::move(r));
    } else if (j.replaces) {
      Draft s = tagged(Draft{});
      s.payload = [old = *j.replaces, seq](flatbuffers::FlatBufferBuilder& f) {
        return PayloadRef{fb::Payload_OrderSuperseded, fb::CreateOrderSuperseded(f, old, seq).o};
      };
      w.Emit(std::move(s));
    }
  }
}

}  // namespace adjutant::rules
