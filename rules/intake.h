// Order intake written once for every kind of game (rules/kind.h): each
// item of an order file becomes its OrderSubmitted, followed by its
// OrderRejected when the kind's judge refuses it, or by the OrderSuperseded
// of the standing order it replaces — the last word stands.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/turn.h"
#include "rules/phase_writer.h"

namespace adjutant::fb { struct OrderItem; }

namespace adjutant::rules {

// A kind's judgement of one order, made as the order arrives (after the
// items before it in the file).
struct OrderJudgement {
  std::string slot;                  // what it is for: a ship, a side ("" none)
  std::string rule, reason;          // a refusal, when `rule` is set
  std::optional<uint64_t> replaces;  // the standing order it replaces
};

struct OrderSender {
  std::string person, role;
  std::string ruleset;  // stamped, with its version, on every event
};

using OrderJudge = std::function<OrderJudgement(const PhaseWriter& w, const fb::OrderItem& item)>;

// The payloads of the intake's three events, built once for every kind.
PayloadBuilder OrderSubmittedPayload(std::string person, std::string role, std::string slot, const fb::OrderItem* item);
PayloadBuilder OrderRejectedPayload(uint64_t order_seq, std::string rule, std::string reason);
PayloadBuilder OrderSupersededPayload(uint64_t order_seq, uint64_t by_seq);

// Emits the file's events at `at`.
void IntakeOrders(PhaseWriter& w, const TurnPhase& at, const OrderSender& from,
                  const std::vector<const fb::OrderItem*>& items, const OrderJudge& judge);

}  // namespace adjutant::rules
