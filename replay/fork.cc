#include "replay/fork.h"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>

#include "rules/kind.h"

#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/values.h"

namespace adjutant::replay {

Result<uint64_t> ForkPoint(ledger::Ledger& db, std::string_view game, std::string_view branch, const TurnPhase& at) {
  auto first = db.SeekTurn(game, branch, at);
  if (!first.ok()) return first.status();
  if (!first->has_value()) {
    // The point the branch has reached but not begun: its head.
    auto w = Fold(db, game, branch);
    if (!w.ok()) return w.status();
    if (const rules::GameKind* kind = w->kind()) {
      // The coming turn's orders window, or its next phase.
      auto orders = kind->OrderPosition(w->projections);
      if (orders.ok() && orders->turn == at.turn && at.phase == 0) return w->head.seq;
      auto next = kind->Next(w->projections);
      if (next.ok() && next->at == at) return w->head.seq;
    }
    return Status::NotFound(std::string(game) + "/" + std::string(branch) + " has not reached turn " +
                            at.turn.ToString() + (at.phase ? " phase " + std::to_string(at.phase) : ""));
  }
  if (**first > 1) return **first - 1;
  // The first turn's start: after the game's creation (GameCreated and the
  // naval map recorded with it), before anything given at that turn.
  uint64_t created = 0;
  bool past = false;
  auto w = Fold(db, game, branch, 1);
  if (!w.ok()) return w.status();
  const rules::GameKind* kind = w->kind();
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, 1, **first + 7, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    past = past || (ev.payload_type() != fb::Payload_GameCreated && !(kind && kind->PartOfCreation(ev)));
    if (!past) created = e.seq;
    return Status::Ok();
  }));
  if (created == 0) return Status::Corruption(std::string(game) + "/" + std::string(branch) + " does not begin with GameCreated");
  return created;
}

Result<std::optional<PhaseSpan>> PhaseAround(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                             uint64_t seq) {
  // Forward from seq+1 to the next phase boundary: a PhaseCompleted first
  // means seq is inside its phase; a PhaseStarted first (or the head) means
  // it is not. Between phases lie only orders and directives.
  std::optional<PhaseSpan> span;
  bool boundary = false;
  Status s = db.Read(game, branch, seq + 1, UINT64_MAX, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    if (ev.payload_type() == fb::Payload_PhaseCompleted) {
      const fb::Turn* t = ev.turn();
      span = PhaseSpan{.completed = e.seq,
                       .at = TurnPhase{schema::TurnOf(t), ev.phase()}};
    }
    boundary = ev.payload_type() == fb::Payload_PhaseCompleted || ev.payload_type() == fb::Payload_PhaseStarted;
    return boundary ? Status::NotFound("") : Status::Ok();  // the boundary: stop
  });
  if (!boundary && !s.ok()) return s;
  if (!span) return std::optional<PhaseSpan>();
  // Its start: the last PhaseStarted of that turn and phase at or before seq.
  auto first = db.SeekTurn(game, branch, span->at);
  if (!first.ok()) return first.status();
  const uint64_t from = first->value_or(1);
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, std::min(from, seq), seq, [&](const ledger::EventView& e) {
    if (e.event()->payload_type() == fb::Payload_PhaseStarted) span->started = e.seq;
    return Status::Ok();
  }));
  if (span->started == 0) {
    return Status::Corruption(std::string(game) + "/" + std::string(branch) + ": the phase completed at seq " +
                              std::to_string(span->completed) + " has no PhaseStarted at or before seq " +
                              std::to_string(seq));
  }
  return span;
}

std::vector<uint8_t> OrderFileOf(const fb::OrderSubmitted& o) {
  flatbuffers::FlatBufferBuilder f;
  flatbuffers::Offset<void> body;
  if (o.body_type() != fb::OrderBody_NONE) {
    body = flatbuffers::Offset<void>(schema::CopyTable(f, fb::EnumNameOrderBody(o.body_type()), o.body()));
  }
  auto item = fb::CreateOrderItem(f, o.role() ? f.CreateString(o.role()->str()) : 0, o.body_type(), body);
  f.Finish(fb::CreateOrderFile(f, f.CreateVector(std::vector{item})));
  return std::vector<uint8_t>(f.GetBufferPointer(), f.GetBufferPointer() + f.GetSize());
}

std::vector<uint8_t> JoinOrderFiles(const std::vector<std::vector<uint8_t>>& one_item_files) {
  if (one_item_files.size() == 1) return one_item_files.front();
  flatbuffers::FlatBufferBuilder f;
  std::vector<flatbuffers::Offset<fb::OrderItem>> items;
  for (const auto& one : one_item_files) {
    const auto* item = flatbuffers::GetRoot<fb::OrderFile>(one.data())->orders()->Get(0);
    items.push_back(flatbuffers::Offset<fb::OrderItem>(schema::CopyTable(f, "OrderItem", item)));
  }
  f.Finish(fb::CreateOrderFile(f, f.CreateVector(items)));
  return std::vector<uint8_t>(f.GetBufferPointer(), f.GetBufferPointer() + f.GetSize());
}

bool EnteredByGa(const fb::Event& ev) {
  return ev.actor() && ev.actor()->kind() == fb::ActorKind_GameAdministrator;
}

void OrderRun::Add(uint64_t seq, const fb::Event& ev, const fb::OrderSubmitted& o) {
  if (seqs.empty()) {
    by_ga = EnteredByGa(ev);
    received_at = o.received_at();
  }
  items.push_back(OrderFileOf(o));
  seqs.push_back(seq);
  withdrawal.push_back(o.body_type() == fb::OrderBody_Withdrawal);
}

bool OrderRun::Ends(const fb::Event& ev, const fb::OrderSubmitted& o, bool files_replace) const {
  if (!seqs.empty() && (EnteredByGa(ev) != by_ga || o.received_at() != received_at)) return true;
  return files_replace && !withdrawal.empty() && (withdrawal.back() || o.body_type() == fb::OrderBody_Withdrawal);
}

std::optional<OrderRun> OrderRun::CutAt(const fb::OrderSuperseded& s, bool files_replace) {
  if (!files_replace) return std::nullopt;
  auto old = std::find(seqs.begin(), seqs.end(), s.order_seq());
  auto by = std::find(seqs.begin(), seqs.end(), s.by_seq());
  if (old == seqs.end() || by == seqs.end() || by <= old || by == seqs.begin()) return std::nullopt;
  const size_t at = static_cast<size_t>(by - seqs.begin());
  if (withdrawal[at]) return std::nullopt;  // a withdrawal takes orders back within its own file
  OrderRun rest;
  rest.by_ga = by_ga;
  rest.received_at = received_at;
  rest.items.assign(std::make_move_iterator(items.begin() + at), std::make_move_iterator(items.end()));
  rest.seqs.assign(seqs.begin() + at, seqs.end());
  rest.withdrawal.assign(withdrawal.begin() + at, withdrawal.end());
  items.resize(at);
  seqs.resize(at);
  withdrawal.resize(at);
  return rest;
}

Result<size_t> CarryOrders(ledger::Ledger& db, std::string_view game, std::string_view from, std::string_view to,
                           uint64_t after_seq, const Turn& t, size_t* files) {
  // The parent's orders of T's window, as recorded (copied out: the
  // submissions below append to the ledger), file by file (OrderRun).
  auto created = Fold(db, game, from, 1, {"summary"});
  if (!created.ok()) return created.status();
  const bool files_replace = created->kind() && created->kind()->FilesReplace();
  struct Sent {
    std::string person;
    OrderRun run;
  };
  std::vector<Sent> sent;
  size_t orders = 0;
  bool continues = false;  // the last event was part of the last person's submission
  auto end = db.SeekTurn(game, from, TurnPhase{t, 1});
  if (!end.ok()) return end.status();
  const uint64_t last = end->has_value() ? **end - 1 : UINT64_MAX;
  ADJ_RETURN_IF_ERROR(db.Read(game, from, after_seq + 1, last, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    const fb::Turn* et = ev.turn();
    const auto type = ev.payload_type();
    if (const auto* sp = ev.payload_as_OrderSuperseded()) {
      if (continues && !sent.empty()) {
        if (auto rest = sent.back().run.CutAt(*sp, files_replace)) sent.push_back({sent.back().person, std::move(*rest)});
      }
      return Status::Ok();
    }
    if (type == fb::Payload_OrderRejected) return Status::Ok();
    const auto* o = ev.payload_as_OrderSubmitted();
    if (!o || !et || schema::TurnOf(et) != t || ev.phase() != 0) {
      continues = false;
      return Status::Ok();
    }
    const std::string person = o->person()->str();
    if (!continues || sent.empty() || sent.back().person != person || sent.back().run.Ends(ev, *o, files_replace)) {
      sent.push_back({person, {}});
    }
    sent.back().run.Add(e.seq, ev, *o);
    ++orders;
    continues = true;
    return Status::Ok();
  }));
  for (const auto& s : sent) {
    auto r = SubmitOrders(db, game, to, s.person, JoinOrderFiles(s.run.items),
                          {.entered_by_ga = s.run.by_ga, .received_at = s.run.received_at});
    if (!r.ok()) return r.status();
  }
  if (files) *files = sent.size();
  return orders;
}

}  // namespace adjutant::replay
