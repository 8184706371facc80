// Issue 20: how each order of a turn was carried out, for the orders report.
// An order's outcomes are the events of the turn it was for that it caused
// (their `order_seq`) or that befell what it was for — its ship, unit or
// build, its nation — as the table in order_outcomes.cc lists them, order
// kind by event kind. Only such events are told, so a player reads of his
// orders no more than his own ships, units and ministries knew.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"

namespace adjutant::ledger { class Ledger; }

namespace adjutant::reports {

struct OrderOutcome {
  uint64_t seq = 0;   // the event
  std::string what;   // "ship moved: location BIS, part Sea"
  std::string rule;   // the event's rule ("" if it names none)
  bool failed = false;
};

// One order whose outcomes are asked for: its OrderSubmitted (as stored) and
// the slot it stood in.
struct OrderAsked {
  uint64_t seq = 0;
  const std::string* event = nullptr;  // the OrderSubmitted event's bytes
  std::string slot;
};

// The outcomes of `orders` among the events [first, last] of game/branch
// (the turn's adjudication), by order seq, each in log order.
Result<std::map<uint64_t, std::vector<OrderOutcome>>> OutcomesOf(ledger::Ledger& db, const std::string& game,
                                                                 const std::string& branch, uint64_t first,
                                                                 uint64_t last, const std::vector<OrderAsked>& orders);

// The (order table, event table) pairs the table links by their fields, for
// the tests: every order kind of every ruleset has at least one.
std::vector<std::pair<std::string, std::string>> OutcomeLinks();

}  // namespace adjutant::reports
