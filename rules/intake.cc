#include "rules/intake.h"

#include <algorithm>
#include <set>

#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"

namespace adjutant::rules {

PayloadBuilder OrderSubmittedPayload(std::string person, std::string role, std::string slot, const fb::OrderItem* item,
                                     int64_t received_at) {
  return [person = std::move(person), role = std::move(role), slot = std::move(slot), item,
          received_at](flatbuffers::FlatBufferBuilder& f) {
    flatbuffers::Offset<void> body;
    if (item->body_type() != fb::OrderBody_NONE) {
      body = flatbuffers::Offset<void>(schema::CopyTable(f, fb::EnumNameOrderBody(item->body_type()), item->body()));
    }
    auto o = fb::CreateOrderSubmittedDirect(f, person.c_str(), role.c_str(), slot.c_str(), item->body_type(), body,
                                            received_at);
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
  auto at_turn = [&] {
    Draft d;
    d.at = at;
    return d;
  };
  const bool orders_something = std::any_of(items.begin(), items.end(), [](const fb::OrderItem* i) {
    return i->body_type() != fb::OrderBody_Withdrawal;
  });
  const std::vector<uint64_t> earlier =
      judge.replaces_file && orders_something ? judge.replaces_file(w) : std::vector<uint64_t>{};
  std::set<uint64_t> withdrawn;  // by a withdrawal of this file
  uint64_t first = 0;            // the file's first order (not a withdrawal)
  auto refuse = [&](uint64_t seq, const std::string& rule, const std::string& reason) {
    if (judge.reject) {
      judge.reject(w, seq, rule, reason);
    } else {
      const auto sender_book = w.Under(from.ruleset);
      Draft r = at_turn();
      r.payload = OrderRejectedPayload(seq, rule, reason);
      w.Emit(std::move(r));
    }
  };
  for (const fb::OrderItem* item : items) {
    if (const fb::Withdrawal* wd = item->body_as_Withdrawal()) {
      const std::string slot = wd->slot()->str();
      std::vector<uint64_t> orders;
      OrderJudgement j;
      if (judge.withdraws) {
        j = judge.withdraws(w, from.person, slot, &orders);
      } else {
        j.rule = from.ruleset;
        j.reason = "an order of this game is not withdrawn: give another in its place";
      }
      if (j.rule.empty() && orders.empty()) {
        j.rule = from.ruleset;
        j.reason = "you have no order standing for '" + slot + "' this turn";
      }
      const auto book = w.Under(j.ruleset.value_or(from.ruleset));
      Draft d = at_turn();
      d.actor = Actor{ActorKind::kPlayer, from.person, j.role.value_or(from.role)};
      d.payload = OrderSubmittedPayload(from.person, j.role.value_or(from.role), slot, item, w.received_at());
      w.Emit(std::move(d));
      const uint64_t seq = w.head_seq();
      if (!j.rule.empty()) {
        refuse(seq, j.rule, j.reason);
        continue;
      }
      for (uint64_t old : orders) {
        Draft s = at_turn();
        s.payload = OrderSupersededPayload(old, seq);
        w.Emit(std::move(s));
        withdrawn.insert(old);
      }
      continue;
    }
    OrderJudgement j = judge.arrives(w, *item);
    const std::string ruleset = j.ruleset.value_or(from.ruleset);
    const std::string role = j.role.value_or(from.role);
    const auto book = w.Under(ruleset);
    Draft d = at_turn();
    d.actor = Actor{ActorKind::kPlayer, from.person, role};
    d.payload = OrderSubmittedPayload(from.person, role, j.slot, item, w.received_at());
    w.Emit(std::move(d));
    const uint64_t seq = w.head_seq();
    if (!first) first = seq;
    if (j.rule.empty() && judge.recorded) judge.recorded(w, *item, seq, j);
    if (!j.rule.empty()) {
      refuse(seq, j.rule, j.reason);
    } else if (j.carried_out) {
      judge.carry_out(w, *item, seq);
    } else if (j.replaces || j.stands_behind) {
      Draft s = at_turn();
      s.payload = j.replaces ? OrderSupersededPayload(*j.replaces, seq) : OrderSupersededPayload(seq, *j.stands_behind);
      w.Emit(std::move(s));
    }
  }
  const auto sender_book = w.Under(from.ruleset);
  for (uint64_t old : earlier) {
    if (withdrawn.count(old)) continue;  // withdrawn in this file
    Draft s = at_turn();
    s.payload = OrderSupersededPayload(old, first);
    w.Emit(std::move(s));
  }
}

}  // namespace adjutant::rules
