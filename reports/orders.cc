// `adjutant report orders` (issue 20): what became of a player's orders for
// a turn (or a battle's move) — each as it was received (stands, replaced,
// withdrawn, refused with its rule) — and, for each role of his that had
// none standing, what its book does in their place (rules/kind.h
// OrdersNotGiven: PATE 4.11, SOW 6.5, Y1.3, D12.2). Every kind of game, one
// builder: the orders from the log (replay/orders.h), the rest from the
// game folded to the moment the turn's orders closed.
#include <flatbuffers/flatbuffers.h>

#include <map>
#include <optional>
#include <set>

#include "base/utc.h"
#include "ledger/ledger.h"
#include "projections/battle.h"
#include "projections/roster.h"
#include "replay/orders.h"
#include "reports/common.h"
#include "reports/order_outcomes.h"
#include "rules/order_text.h"
#include "rules/kind.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "schema/values.h"

namespace adjutant::reports {

std::string OrderLineOf(std::string_view event, const std::vector<std::string_view>& rulesets) {
  if (event.empty()) return "";
  const auto* o = flatbuffers::GetRoot<fb::Event>(event.data())->payload_as_OrderSubmitted();
  if (!o || o->body_type() == fb::OrderBody_NONE) return "";
  if (auto line = rules::PrintOrderLine(static_cast<uint8_t>(o->body_type()), o->body(), rulesets); line.ok()) {
    return *line;
  }
  const char* table = fb::EnumNameOrderBody(o->body_type());
  flatbuffers::FlatBufferBuilder f;
  f.Finish(flatbuffers::Offset<flatbuffers::Table>(schema::CopyTable(f, table, o->body())));
  auto body = schema::ToJson(table, f.GetBufferPointer());
  return std::string(table) + " " + (body.ok() ? *body : "");
}

namespace {

struct Row {
  const replay::GivenOrder* g;
  std::string received, reason;
};

Row RowOf(const replay::GivenOrder& g) {
  Row r{&g, "stands", ""};
  auto list = [](const std::vector<uint64_t>& seqs) {
    std::string s;
    for (uint64_t x : seqs) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
  };
  switch (g.fate) {
    case replay::OrderFate::kRefused:
      r.received = "refused";
      r.reason = g.reason;
      break;
    case replay::OrderFate::kSuperseded:
      r.received = "superseded";
      r.reason = "replaced by order " + std::to_string(g.by_seq);
      break;
    case replay::OrderFate::kWithdrawn:
      r.received = "withdrawn";
      r.reason = "withdrawn by order " + std::to_string(g.by_seq);
      break;
    case replay::OrderFate::kStands:
      if (g.withdrawal) {
        r.received = "withdrawal";
        r.reason = g.withdraws.empty() ? "" : "withdrew order " + list(g.withdraws);
      }
      break;
  }
  return r;
}

Status OrdersOfTurn(Ctx& c, const std::string& game, const rules::GameKind* kind, replay::World head, Turn turn,
                    std::optional<Turn> instead);

}  // namespace

Status OrdersReport(Ctx& c, const std::string& game) {
  ledger::Ledger& db = c.db;
  const std::string& branch = c.branch;
  const std::string& person = c.rq.player;
  if (person.empty()) return Status::InvalidArgument("report orders: --player P: whose orders?");
  auto head = replay::Fold(db, game, branch);
  if (!head.ok()) return head.status();
  const rules::GameKind* kind = head->kind();
  if (!kind) return Status::InvalidArgument("game '" + game + "' is of no kind this adjutant plays");
  // The turn: as asked, else the last begun (whose orders have closed),
  // else the coming one — and the coming one too when the last begun took
  // none (a season's end: the calendar, SOW 4.2).
  Turn turn;
  std::optional<Turn> instead;
  if (const auto& t = c.rq.turn) {
    auto parsed = Turn::Parse(*t);
    if (!parsed) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
    turn = *parsed;
  } else if (const auto& m = c.rq.move) {
    auto n = ParseU64(*m);
    if (!n || *n == 0 || *n > 100000) return Status::InvalidArgument("--move: '" + *m + "' is not a move number");
    turn = projections::DogMove(static_cast<int32_t>(*n));
  } else {
    const rules::Progress p = kind->ProgressOf(head->projections);
    auto coming = kind->OrderPosition(head->projections);
    if (coming.ok()) instead = coming->turn;
    if (p.phase_done > 0) {
      turn = p.turn;
    } else if (coming.ok()) {
      turn = coming->turn;
    } else {
      return Status::InvalidArgument("report orders: game '" + game + "' has taken no orders yet (" +
                                     coming.status().message() + ")");
    }
  }
  return OrdersOfTurn(c, game, kind, std::move(head).value(), turn, instead);
}

namespace {

// The report of `turn`; or, when that turn took no orders and the report
// was not asked for a turn, of `instead`.
Status OrdersOfTurn(Ctx& c, const std::string& game, const rules::GameKind* kind, replay::World head, Turn turn,
                    std::optional<Turn> instead) {
  ledger::Ledger& db = c.db;
  const std::string& branch = c.branch;
  const std::string& person = c.rq.player;
  // The game as the turn's orders closed: just before its first phase (or
  // now, while they are still open).
  auto begun = db.SeekTurn(game, branch, TurnPhase{turn, 1});
  if (!begun.ok()) return begun.status();
  bool open = true;
  uint64_t close = UINT64_MAX;
  if (begun->has_value()) {
    // The index finds the first event at or after the turn's first phase:
    // the turn has begun only if that event is in it.
    ADJ_RETURN_IF_ERROR(db.Read(game, branch, **begun, **begun, [&](const ledger::EventView& e) {
      const fb::Turn* et = e.event()->turn();
      open = !(et && schema::TurnOf(et) == turn);
      return Status::Ok();
    }));
    close = **begun - 1;
  }
  replay::World closed;
  if (open) {
    closed = std::move(head);
    close = closed.head.seq;
  } else {
    auto w = replay::Fold(db, game, branch, close);
    if (!w.ok()) return w.status();
    closed = std::move(w).value();
  }
  auto at = kind->OrderPosition(closed.projections);
  if ((!at.ok() || at->turn != turn) && instead && *instead != turn) {
    auto now = replay::Fold(db, game, branch);
    if (!now.ok()) return now.status();
    return OrdersOfTurn(c, game, kind, std::move(now).value(), *instead, std::nullopt);
  }
  if (!at.ok() || at->turn != turn) {
    return Status::InvalidArgument("report orders: game '" + game + "' takes no orders for turn " + turn.ToString() +
                                   (open && at.ok() ? " yet (orders now go to " + at->turn.ToString() + ")" : ""));
  }
  const projections::Person* who = closed.roster().Find(person);
  if (!who) return Status::NotFound("game '" + game + "' has no person '" + person + "'");
  // Every order of the turn (whose slots stood decides what went without),
  // up to the turn's end (refusals made when it was adjudicated count).
  replay::OrdersQuery q;
  q.with_events = true;
  if (!open) {
    auto end = EndOfTurn(db, game, branch, turn);
    if (!end.ok()) return end.status();
    q.until = *end;
  }
  auto given = replay::OrdersGiven(db, game, branch, *at, q);
  if (!given.ok()) return given.status();
  const std::vector<std::string_view> rulesets = kind->Rulesets();
  std::set<std::string> stood, roles_stood;
  std::vector<Row> rows;
  for (const replay::GivenOrder& g : given->orders) {
    const bool stands = g.fate == replay::OrderFate::kStands && !g.withdrawal;
    if (stands) stood.insert(g.slot);
    if (g.person != person) continue;
    if (stands) roles_stood.insert(g.role);
    rows.push_back(RowOf(g));
  }
  // How his orders that stood were carried out: the turn's events from its
  // first phase to its end (none while the orders are open).
  std::map<uint64_t, std::vector<OrderOutcome>> outcomes;
  if (!open) {
    std::vector<OrderAsked> his;
    for (const Row& r : rows) {
      if (r.g->fate == replay::OrderFate::kStands && !r.g->withdrawal) his.push_back({r.g->seq, &r.g->event, r.g->slot});
    }
    auto found = OutcomesOf(db, game, branch, close + 1, q.until, his);
    if (!found.ok()) return found.status();
    outcomes = std::move(found).value();
  }
  auto outcomes_of = [&](uint64_t seq) -> const std::vector<OrderOutcome>& {
    static const std::vector<OrderOutcome> kNone;
    auto it = outcomes.find(seq);
    return it == outcomes.end() ? kNone : it->second;
  };
  const std::vector<std::string> roles(who->roles.begin(), who->roles.end());
  const std::vector<rules::MissingOrders> missing = kind->OrdersNotGiven(closed.projections, roles, stood, roles_stood);
  auto next = kind->Next(closed.projections);
  const std::string turn_name = next.ok() && next->at.turn == turn ? next->turn_name : turn.ToString();

  if (c.json()) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::OrderReportRow>> out;
    for (const Row& r : rows) {
      const replay::GivenOrder& g = *r.g;
      std::vector<flatbuffers::Offset<fb::OrderOutcomeRow>> done;
      for (const OrderOutcome& o : outcomes_of(g.seq)) {
        done.push_back(fb::CreateOrderOutcomeRowDirect(f, o.seq, o.what.c_str(), o.rule.c_str(), o.failed));
      }
      out.push_back(fb::CreateOrderReportRowDirect(f, g.seq, g.role.c_str(), g.slot.c_str(),
                                                   OrderLineOf(g.event, rulesets).c_str(), r.received.c_str(),
                                                   g.rule.c_str(), r.reason.c_str(), g.by_seq, &done, g.by_ga,
                                                   g.received_at));
    }
    std::vector<flatbuffers::Offset<fb::MissingOrdersRow>> none;
    for (const auto& m : missing) {
      none.push_back(fb::CreateMissingOrdersRowDirect(f, m.role.c_str(), m.slot.c_str(), m.rule.c_str(), m.text.c_str()));
    }
    std::vector<flatbuffers::Offset<flatbuffers::String>> held;
    for (const auto& r : roles) held.push_back(f.CreateString(r));
    f.Finish(fb::CreateOrdersReportDirect(f, game.c_str(), branch.c_str(), person.c_str(), turn.ToString().c_str(),
                                          turn_name.c_str(), &out, &none, &held,
                                          flatbuffers::Offset<fb::ReportHead>(c.HeadJson(f))));
    return c.PrintJson("OrdersReport", f);
  }
  c.Line("Orders of " + person + " for " + turn_name + " (" + turn.ToString() + "), " + game + "/" + branch +
         (open ? " — still open: as they stand now" : ""));
  // Issue 20: roles come and go; the report says whose orders these were.
  std::string held;
  for (const auto& r : roles) held += (held.empty() ? "" : ", ") + r;
  c.Line("  roles: " + (held.empty() ? std::string("none") : held) + (open ? "" : " (as the orders closed)"));
  if (rows.empty()) c.Line("  none given");
  for (const Row& r : rows) {
    const replay::GivenOrder& g = *r.g;
    std::string line = "  #" + std::to_string(g.seq) + " for " + g.slot;
    if (!g.role.empty()) line += " as " + g.role;
    if (g.by_ga) line += " (entered by the GA for you)";
    if (g.received_at) line += ", received " + FormatUtc(g.received_at);
    line += ": " + r.received;
    if (!g.rule.empty()) line += " (" + g.rule + ")";
    if (!r.reason.empty()) line += ": " + r.reason;
    c.Line(line);
    const std::string text = OrderLineOf(g.event, rulesets);
    if (!text.empty() && !g.withdrawal) c.Line("      " + text);
    // How it was carried out.
    if (!open && g.fate == replay::OrderFate::kStands && !g.withdrawal) {
      const auto& done = outcomes_of(g.seq);
      if (done.empty()) c.Line("      = nothing of it is on the record for this turn");
      for (const OrderOutcome& o : done) {
        c.Line(std::string("      ") + (o.failed ? "! failed: " : "= ") + o.what + (o.rule.empty() ? "" : " (" + o.rule + ")"));
      }
    }
  }
  if (!missing.empty()) {
    c.Line(open ? "No order of yours stands yet for (if none does when the orders close):" : "No order of yours stood for:");
    for (const auto& m : missing) {
      std::string line = "  " + (m.slot.empty() ? m.role : m.slot + " (" + m.role + ")") + ": ";
      if (!m.rule.empty()) line += m.rule + ": ";
      c.Line(line + m.text);
    }
  }
  return Status::Ok();
}

}  // namespace

}  // namespace adjutant::reports
