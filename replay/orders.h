// The orders given for the coming turn (or move), with their fate: what
// `adjutant status` counts per person (ops/status.cc) and what the order
// desk shows a player of his own (desk/player_api.cc, GET /api/games/G/
// orders) — read once, here, the same way for both. Read from the log: the
// OrderSubmitted events from where the orders window of `at` opens
// (Ledger::SeekTurn) to the head, each with the OrderRejected and
// OrderSuperseded events that name it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/turn.h"

namespace adjutant::ledger { class Ledger; }

namespace adjutant::replay {

enum class OrderFate { kStands, kRefused, kSuperseded, kWithdrawn };

struct GivenOrder {
  uint64_t seq = 0;                    // its OrderSubmitted's sequence number
  std::string person, role, slot;      // who gave it, as which role, for what (a ship, a ministry)
  OrderFate fate = OrderFate::kStands;  // the last that befell it
  bool refused = false;                // an OrderRejected names it (on receipt, or later)
  std::string rule, reason;            // the (last) refusal's rule and reason
  bool superseded = false;             // an OrderSuperseded names it (kWithdrawn too)
  uint64_t by_seq = 0;                 // the order that replaced (or withdrew) it
  bool withdrawal = false;             // it is a Withdrawal: it withdraws his orders for `slot`
  std::vector<uint64_t> withdraws;     // a withdrawal: the orders it withdrew
  std::string event;                   // its OrderSubmitted event's bytes (OrdersQuery::with_events)
  bool by_ga = false;                  // the GA entered it on the person's behalf (its actor is the GA)
  int64_t received_at = 0;             // when it reached Adjutant (seconds since 1970 UTC; 0: not known)
};

struct OrdersQuery {
  std::optional<std::string> person;  // one person's orders only
  uint64_t after = 0;                 // only orders after this sequence number
  size_t limit = SIZE_MAX;            // at most this many (in seq order)
  bool with_events = false;           // keep each order's event bytes
  uint64_t until = UINT64_MAX;        // read no further than this sequence number (a past turn's end)
};

struct GivenOrders {
  std::vector<GivenOrder> orders;  // in seq order
  uint64_t next_after = 0;         // more matched past `limit`: the last order's seq (the next page's `after`); else 0
};

// The orders given for the orders window at `at` (replay::OrderPositionOf,
// or a past turn's, as it stood when that turn began) on `branch`, as `q`
// selects them: the OrderSubmitted events recorded at `at`, each with what
// befell it up to `q.until` (a refusal when the turn was adjudicated too).
Result<GivenOrders> OrdersGiven(const ledger::Ledger& db, std::string_view game, std::string_view branch,
                                const TurnPhase& at, const OrdersQuery& q = {});

}  // namespace adjutant::replay
