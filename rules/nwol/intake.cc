#include "rules/nwol/intake.h"

#include "rules/intake.h"

#include <algorithm>
#include <optional>

#include "rules/pate/orders.h"
#include "rules/sow/orders.h"
#include "rules/sow/outcomes.h"
#include "rules/sow/tables.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"

namespace adjutant::rules::nwol {

namespace {

// Who may give an order and where it goes, for either ruleset.
struct Claim {
  const char* ruleset = "";
  std::string state, slot;
  std::vector<std::pair<std::string, int>> roles;  // full role names, with rank
  const char* role_rule = "SOW 2.1";               // the rule naming who may order
  bool immediate = false;
};

Claim SowClaim(const projections::TreasuryState& s, const fb::SowOrder& o) {
  Claim c{sow::kRuleset, o.state()->str(), sow::SlotOf(s, o), {}, "SOW 2.1", false};
  for (const auto& suffix : sow::EntitledRoles(o)) c.roles.emplace_back(c.state + "." + suffix, sow::RoleRank(suffix));
  return c;
}

Claim PateClaim(const projections::TreasuryState& s, const projections::FleetState& fleet, const fb::PateOrder& o) {
  pate::Claim pc = pate::ClaimOf(s, fleet, o);
  bool ship_orders = o.body_type() == fb::PateOrderBody_ShipOrders || o.body_type() == fb::PateOrderBody_TransferCrewOrder;
  return Claim{pate::kRuleset, pc.state, pc.slot, pc.roles, ship_orders ? "PATE 4.1" : "PATE 2.3",
               pc.immediate};
}

// PATE 2.3: an appointment takes effect when the Naval Minister's order is
// received, so the new commander can order the ship this very turn.
void Appoint(PhaseWriter& w, const TurnPhase& at, const fb::AppointOrder& a, uint64_t order_seq) {
  Draft d;
  d.at = at;
  std::string ship = a.ship()->str();
  std::string commander = a.commander() ? a.commander()->str() : "";
  std::string deputy = a.deputy() ? a.deputy()->str() : "";
  d.payload = [=](flatbuffers::FlatBufferBuilder& f) {
    auto x = fb::CreateCommandAssignedDirect(f, ship.c_str(), commander.c_str(), deputy.c_str(), order_seq);
    auto e = fb::CreatePateEvent(f, fb::PateEventBody_CommandAssigned, x.Union());
    return PayloadRef{fb::Payload_PateEvent, e.o};
  };
  w.Emit(std::move(d));
}

struct RoleChoice {
  std::string role;
  std::optional<std::pair<std::string, std::string>> refusal;  // rule, reason
};

// SOW 2.1, PATE 2.3, 4.1: the role an item is given under — as named, else
// the person's most senior entitled one — or why he may not give it.
RoleChoice ChooseRole(const Claim& claim, const projections::Person* who, const std::string& person,
                      const fb::OrderItem& item) {
  RoleChoice c;
  auto entitled = [&](const std::string& r) {
    return std::any_of(claim.roles.begin(), claim.roles.end(), [&](const auto& e) { return e.first == r; });
  };
  if (item.role() && item.role()->size()) {
    c.role = item.role()->str();
    if (!who || !who->roles.count(c.role)) {
      c.refusal = {claim.role_rule, person + " does not hold the role " + c.role};
    } else if (!entitled(c.role)) {
      c.refusal = {claim.role_rule, c.role + " may not give this order"};
    }
    return c;
  }
  for (const auto& [r, rank] : claim.roles) {
    if (who && who->roles.count(r)) {
      c.role = r;
      return c;
    }
  }
  std::string list;
  for (const auto& [r, rank] : claim.roles) list += (list.empty() ? "" : ", ") + r;
  c.refusal = {claim.role_rule, claim.state.empty() ? std::string("the order names no ship, port or state of this game")
                                                    : person + " holds no role of " + claim.state +
                                                          " entitled to give this order (" + list + ")"};
  return c;
}

}  // namespace

bool MayGive(const projections::TreasuryState& s, const projections::FleetState& fleet, const projections::Roster& roster,
             const std::string& person, const fb::OrderItem& item) {
  std::optional<Claim> claim;
  if (const fb::SowOrder* so = item.body_as_SowOrder()) claim = SowClaim(s, *so);
  if (const fb::PateOrder* po = item.body_as_PateOrder()) claim = PateClaim(s, fleet, *po);
  if (!claim) return true;  // a written order for the GA: anyone may write one
  return !ChooseRole(*claim, roster.Find(person), person, item).refusal.has_value();
}

void Submit(PhaseWriter& w, const TurnPhase& at, const projections::Roster& roster, const pate::NavalMap* map,
            const std::string& person, const std::vector<const fb::OrderItem*>& items) {
  sow::Outcomes out(w, at);
  // Rules version pate=2: each item is checked against the roster as the
  // items before it left it (an appointment takes effect when received,
  // PATE 2.3, so a file reads as the same orders sent one by one); version
  // 1 read the roster once per file.
  const bool live_roster = w.rules_versions().Of(pate::kRuleset) >= 2;
  // The item being judged: its claim (who may give it, where it goes).
  std::optional<Claim> claim;
  OrderJudge judge;
  judge.arrives = [&](const PhaseWriter& now, const fb::OrderItem& item) {
    OrderJudgement j;
    const projections::Person* found = (live_roster ? now.roster() : roster).Find(person);
    const std::optional<projections::Person> sender = found ? std::optional(*found) : std::nullopt;
    const projections::Person* who = sender ? &*sender : nullptr;
    const fb::SowOrder* so = item.body_as_SowOrder();
    const fb::PateOrder* po = item.body_as_PateOrder();
    const auto& s = now.treasury();
    const auto& fleet = now.fleet();
    claim.reset();
    if (so) claim = SowClaim(s, *so);
    if (po) claim = PateClaim(s, fleet, *po);
    if (!claim) {
      // Written orders belong to no book.
      j.role = "";
      j.ruleset = "";
      j.rule = "SOW 2.1";
      j.reason = "written orders are for the GA to read; they are not adjudicated";
      return j;
    }
    j.ruleset = claim->ruleset;
    j.slot = claim->slot;
    // The role: as named, else the person's most senior entitled role.
    RoleChoice choice = ChooseRole(*claim, who, person, item);
    j.role = choice.role;
    if (so && so->body_type() == fb::SowOrderBody_BuySuppliesOrder && !choice.role.empty() &&
        now.rules_versions().Of(sow::kRuleset) >= sow::kPurchaseSlotVersion) {
      j.slot = sow::BuyerSlot(j.slot, choice.role);
    }
    std::optional<std::pair<std::string, std::string>> refusal = choice.refusal;  // rule, reason
    if (!refusal && so) {
      if (auto r = sow::CheckAtSubmission(s, fleet, roster, *so, at.turn, now.rules_versions().Of(sow::kRuleset))) {
        refusal = {r->rule, r->reason};
      }
    }
    if (!refusal && po) {
      if (auto r = pate::CheckAtSubmission(s, fleet, map, *po, now.rules_versions().Of(pate::kRuleset))) refusal = {r->rule, r->reason};
      if (auto* a = po->body_as_AppointOrder(); a && !refusal) {
        for (const auto* p : {a->commander(), a->deputy()}) {
          if (p && p->size() && !roster.Find(p->str())) {
            refusal = {"PATE 2.3", "there is no person '" + p->str() + "' in this game"};
          }
        }
      }
    }
    if (refusal) {
      j.rule = refusal->first;
      j.reason = refusal->second;
    }
    j.carried_out = claim->immediate;
    return j;
  };
  // Precedence: the most senior entitled role's last order stands.
  judge.recorded = [&](const PhaseWriter& now, const fb::OrderItem&, uint64_t seq, OrderJudgement& j) {
    if (j.carried_out) return;
    auto rank_of = [&](const std::string& r) {
      for (const auto& [name, rank] : claim->roles) if (name == r) return rank;
      return 0;
    };
    const int rank = rank_of(*j.role);
    for (const auto& [other_seq, pending] : now.treasury().orders) {
      if (other_seq == seq || pending.slot != j.slot) continue;
      if (rank >= rank_of(pending.role)) {
        j.replaces = other_seq;
      } else {
        j.stands_behind = other_seq;
      }
      break;  // at most one order stands per slot
    }
  };
  judge.carry_out = [&](PhaseWriter& now, const fb::OrderItem& item, uint64_t seq) {
    Appoint(now, at, *item.body_as_PateOrder()->body_as_AppointOrder(), seq);
  };
  // Issue 20: a player withdraws his own order standing for a slot this
  // turn; the book's defaults then apply (PATE 4.11; SOW: nothing built,
  // bought or sent). An appointment, carried out when received (PATE 2.3),
  // is not withdrawn: a new one replaces it.
  judge.withdraws = [&](const PhaseWriter& now, const std::string& who, const std::string& slot,
                        std::vector<uint64_t>* orders) {
    OrderJudgement j;
    for (const auto& [seq, pending] : now.treasury().orders) {
      if (pending.slot != slot || pending.person != who) continue;
      const auto* o = flatbuffers::GetRoot<fb::Event>(pending.event.data())->payload_as_OrderSubmitted();
      const fb::PateOrder* po = o ? o->body_as_PateOrder() : nullptr;
      if (po && pate::ClaimOf(now.treasury(), now.fleet(), *po).immediate) {
        j.rule = "PATE 2.3";
        j.reason = "order " + std::to_string(seq) + " was carried out when it was received; give another in its place";
        orders->clear();
        return j;
      }
      j.role = pending.role;
      j.ruleset = po ? pate::kRuleset : sow::kRuleset;
      orders->push_back(seq);
    }
    if (orders->empty()) {
      // The slot's book: a ship's orders and the Naval Minister's are PATE's (4.1, 2.3).
      const size_t a = slot.find('/'), b = slot.find('/', a == std::string::npos ? a : a + 1);
      const std::string what = a == std::string::npos ? "" : slot.substr(a + 1, b == std::string::npos ? b : b - a - 1);
      const bool ship = what == "ship" || what == "crew";
      const bool naval = what == "appoint" || what == "activate" || what == "stores";
      j.rule = ship ? "PATE 4.1" : naval ? "PATE 2.3" : "SOW 2.1";
      j.ruleset = ship || naval ? pate::kRuleset : sow::kRuleset;
      j.reason = "you have no order standing for '" + slot + "' this turn";
    }
    return j;
  };
  // Refusals are SOW's outcome (SOW 2.1), whichever book the order is in.
  judge.reject = [&](PhaseWriter&, uint64_t seq, const std::string& rule, const std::string& reason) {
    out.Rejected(seq, rule, reason);
  };
  IntakeOrders(w, at, OrderSender{person, "", sow::kRuleset}, items, judge);
}

}  // namespace adjutant::rules::nwol
