// Order intake written once for every kind of game (rules/kind.h): each
// item of an order file becomes its OrderSubmitted, followed by its
// OrderRejected when the kind's judge refuses it, by the outcome of an
// order carried out when received, or by the OrderSuperseded that settles
// its precedence — the last word stands, unless the kind says otherwise.
//
// The kind supplies its judge (OrderJudge): what an order is for and who
// gives it, whether it is refused, and which order it replaces. The judge
// is asked as the order arrives and, if the kind needs to see the order in
// the state, once more after its OrderSubmitted is folded. Everything else
// — which events, in which order, stamped how — is written here.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/turn.h"
#include "rules/phase_writer.h"

namespace adjutant::fb { struct OrderItem; }

namespace adjutant::rules {

// A kind's judgement of one order.
struct OrderJudgement {
  std::string slot;                      // what it is for: a ship, a side ("" none)
  std::optional<std::string> role;       // the role it is given under; none: the sender's
  std::optional<std::string> ruleset;    // the book it belongs to, for a kind playing several
                                         // (NWOL: sow or pate, "" a written order); none: the sender's
  std::string rule, reason;              // a refusal, when `rule` is set
  std::optional<uint64_t> replaces;      // the standing order it replaces (superseded by this one)
  std::optional<uint64_t> stands_behind; // the standing order that keeps its place: this one is
                                         // superseded by it (NWOL: a more senior role's order)
  bool carried_out = false;              // carried out when received: OrderJudge::carry_out records
                                         // its outcome, and no precedence applies (PATE 2.3)
};

struct OrderJudge {
  // Asked as the order arrives, before its OrderSubmitted: the state holds
  // the file's items before it. Required.
  std::function<OrderJudgement(const PhaseWriter& w, const fb::OrderItem& item)> arrives;
  // Optional: asked after its OrderSubmitted is folded (the state holds the
  // order itself; `seq` is its event), for an order `arrives` did not
  // refuse — to refuse it, or to settle precedence, against that state.
  std::function<void(const PhaseWriter& w, const fb::OrderItem& item, uint64_t seq, OrderJudgement& j)> recorded;
  // Required when `arrives` marks an order carried_out: records its outcome.
  std::function<void(PhaseWriter& w, const fb::OrderItem& item, uint64_t seq)> carry_out;
  // Optional: how a refusal is recorded. Default: an OrderRejected
  // (OrderRejectedPayload) in the sender's ruleset.
  std::function<void(PhaseWriter& w, uint64_t seq, const std::string& rule, const std::string& reason)> reject;
  // Optional whole-file precedence (y1820, Y1.3): the standing orders a new
  // file from this sender replaces, asked before its first item. After its
  // last item each is superseded by the file's first order.
  std::function<std::vector<uint64_t>(const PhaseWriter& w)> replaces_file;
  // Optional (issue 20): a Withdrawal (schema/ledger_events.fbs) from
  // `person` for `slot`: the orders of his it withdraws (his own, given for
  // the coming turn and standing), put in `orders`, with the judgement of
  // the withdrawal itself — its role and ruleset (those of the orders it
  // withdraws), or a refusal (`rule`) when there is nothing of his to
  // withdraw there or the book lets no order be withdrawn. Absent: every
  // withdrawal is refused under the sender's ruleset.
  std::function<OrderJudgement(const PhaseWriter& w, const std::string& person, const std::string& slot,
                               std::vector<uint64_t>* orders)>
      withdraws;
};

struct OrderSender {
  std::string person, role;
  std::string ruleset;  // stamped, with its version, on every event (unless a judgement names another)
};

// The payloads of the intake's three events, built once for every kind.
PayloadBuilder OrderSubmittedPayload(std::string person, std::string role, std::string slot, const fb::OrderItem* item,
                                     int64_t received_at);
PayloadBuilder OrderRejectedPayload(uint64_t order_seq, std::string rule, std::string reason);
PayloadBuilder OrderSupersededPayload(uint64_t order_seq, uint64_t by_seq);

// Emits the file's events at `at`: per item, its OrderSubmitted, then its
// refusal, or its outcome (carried_out), or the OrderSuperseded of the order
// it replaces (or stands behind) — for a Withdrawal, the OrderSuperseded of
// each order it withdraws (OrderJudge::withdraws); then, with
// replaces_file, the earlier file's OrderSuperseded events (a file of
// withdrawals alone replaces nothing: it orders nothing). The drafts read the items when built: their
// buffer must outlive the append.
void IntakeOrders(PhaseWriter& w, const TurnPhase& at, const OrderSender& from,
                  const std::vector<const fb::OrderItem*>& items, const OrderJudge& judge);

}  // namespace adjutant::rules
