// Forking at a turn (issue 5): the branch point just before turn T (its
// orders included in what follows) or before phase P of T, and the orders
// recorded after that point, carried over to the new branch on request.
#pragma once

#include <string>
#include <string_view>

#include "base/turn.h"
#include "ledger/ledger.h"

namespace adjutant::fb { struct OrderSubmitted; }

namespace adjutant::replay {

// The last sequence number before the first event of `at` (turn T, phase P;
// phase 0 is T's orders) on `branch`. NotFound if the branch has not reached it.
Result<uint64_t> ForkPoint(ledger::Ledger& db, std::string_view game, std::string_view branch, const TurnPhase& at);

// A recorded order given again: an OrderFile of that one item (person and
// role as recorded), and one file of several such items, in order.
std::vector<uint8_t> OrderFileOf(const fb::OrderSubmitted& o);
std::vector<uint8_t> JoinOrderFiles(const std::vector<std::vector<uint8_t>>& one_item_files);

// Records on `to` every order `from` recorded for turn `t`'s orders window
// after `after_seq`, each as its sender gave it (person, role, body), through
// the intake of `to` — so they stand, are superseded or are refused there as
// that branch's state says; consecutive orders of one sender go in as one
// file (the same events, one synced batch). Returns how many were carried.
Result<size_t> CarryOrders(ledger::Ledger& db, std::string_view game, std::string_view from, std::string_view to,
                           uint64_t after_seq, const Turn& t);

}  // namespace adjutant::replay
