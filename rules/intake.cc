#include "rules/intake.h"

#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"

namespace adjutant::rules {

PayloadBuilder OrderSubmittedPayload(std::string person, std::string role, std::string slot, const fb::OrderItem* item) {
  return [person = std::move(person), role = std::move(role), slot = std::move(slot), item](flatbuffers::FlatBufferBuilder& f) {
    flatbuffers::Offset<void> body;
    if (item->body_type() != fb::OrderBody_NONE) {
      body = flatbuffers::Offset<void>(schema::CopyTable(f, fb::EnumNameOrderBody(item->body_type()), item->body()));
    }
    auto o = fb::CreateOrderSubmittedDirect(f, person.c_str(), role.c_str(), slot.c_str(), item->body_type(), body);
    return PayloadRef{fb::Payload_OrderSubmitted, o.o};
  };
}

PayloadBuilder OrderRejectedPayload(uint64_t order_seq, std::string rule, std::string reason) {
  return [order_seq, rule = std::move(rule), reason = std::move(reason)](flatbuffers::FlatBufferBuilder& f) {
    return PayloadRef{fb::Payload_OrderRejected, fb::CreateOrderRejectedDirect(f, order_seq, rule.c_str(), reason.c_str()).o};
  };
}

PayloadBuilder OrderSupersededPayload(uint64_t order_seq, uint64_t by_seq) {
  return [order_seq, by_seq](flatbuffers::FlatBufferBuilder& f) {
    return PayloadRef{fb::Payload_OrderSuperseded, fb::CreateOrderSuperseded(f, order_seq, by_seq).o};
  };
}

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
    d.payload = OrderSubmittedPayload(from.person, from.role, j.slot, item);
    w.Emit(std::move(d));
    const uint64_t seq = w.head_seq();
    if (!j.rule.empty()) {
      Draft r = tagged(Draft{});
      r.payload = OrderRejectedPayload(seq, j.rule, j.reason);
      w.Emit(std::move(r));
    } else if (j.replaces) {
      Draft s = tagged(Draft{});
      s.payload = OrderSupersededPayload(*j.replaces, seq);
      w.Emit(std::move(s));
    }
  }
}

}  // namespace adjutant::rules
