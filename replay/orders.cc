// The orders given for the coming turn, with their fate (replay/orders.h).
#include "replay/orders.h"

#include <algorithm>
#include <map>

#include "ledger/ledger.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::replay {

Result<GivenOrders> OrdersGiven(const ledger::Ledger& db, std::string_view game, std::string_view branch,
                                const TurnPhase& at, const OrdersQuery& q) {
  GivenOrders out;
  auto from = db.SeekTurn(game, branch, at);
  if (!from.ok()) return from.status();
  if (!from->has_value()) return out;  // nothing recorded for it yet
  // Each order by its seq (the page's, when limited); a refusal or a
  // replacement comes after the order it names.
  std::map<uint64_t, GivenOrder> given;
  const uint64_t first = q.after < UINT64_MAX ? std::max(**from, q.after + 1) : UINT64_MAX;
  if (first > q.until) return out;
  Status st = db.Read(game, branch, first, q.until, [&](const ledger::EventView& e) {
    const fb::Event* ev = e.event();
    if (const auto* o = ev->payload_as_OrderSubmitted()) {
      const fb::Turn* t = ev->turn();
      if (!t || TurnPhase{schema::TurnOf(t), ev->phase()} != at) return Status::Ok();  // another window's
      if (q.person && o->person()->str() != *q.person) return Status::Ok();
      if (given.size() >= q.limit) {  // past the page: only whether there is more
        if (out.next_after == 0) out.next_after = given.rbegin()->first;
        return Status::Ok();
      }
      GivenOrder g;
      g.seq = e.seq;
      g.person = o->person()->str();
      g.role = o->role() ? o->role()->str() : "";
      g.slot = o->slot() ? o->slot()->str() : "";
      g.withdrawal = o->body_type() == fb::OrderBody_Withdrawal;
      g.by_ga = ev->actor() && ev->actor()->kind() == fb::ActorKind_GameAdministrator;
      g.received_at = o->received_at();
      if (q.with_events) g.event.assign(reinterpret_cast<const char*>(e.bytes.data()), e.bytes.size());
      given.emplace(e.seq, std::move(g));
    } else if (const auto* rj = ev->payload_as_OrderRejected()) {
      if (auto it = given.find(rj->order_seq()); it != given.end()) {
        it->second.fate = OrderFate::kRefused;
        it->second.refused = true;
        it->second.rule = rj->rule() ? rj->rule()->str() : "";
        it->second.reason = rj->reason()->str();
      }
    } else if (const auto* sp = ev->payload_as_OrderSuperseded()) {
      auto by = given.find(sp->by_seq());
      const bool withdrawn = by != given.end() && by->second.withdrawal;
      if (withdrawn) by->second.withdraws.push_back(sp->order_seq());
      if (auto it = given.find(sp->order_seq()); it != given.end()) {
        it->second.fate = withdrawn ? OrderFate::kWithdrawn : OrderFate::kSuperseded;
        it->second.superseded = true;
        it->second.by_seq = sp->by_seq();
      }
    }
    return Status::Ok();
  });
  if (!st.ok()) return st;
  out.orders.reserve(given.size());
  for (auto& [seq, g] : given) out.orders.push_back(std::move(g));
  return out;
}

}  // namespace adjutant::replay
