#include "replay/proofs.h"

#include <algorithm>
#include <set>

#include <flatbuffers/flatbuffers.h>

#include "ledger/tree.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::replay {

namespace {

Turn TurnOf(const fb::Turn* t) { return t ? Turn{t->major(), t->minor(), t->step()} : Turn{}; }

std::string Str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

// The seqs [first, last] of `turn` on the branch (its orders, its phases and
// their heads); nullopt when it has none.
Result<std::optional<std::pair<uint64_t, uint64_t>>> TurnRange(ledger::Ledger& db, const std::string& game,
                                                               const std::string& branch, const Turn& turn) {
  auto first = db.SeekTurn(game, branch, TurnPhase{turn, 0});
  if (!first.ok()) return first.status();
  if (!first->has_value()) return std::optional<std::pair<uint64_t, uint64_t>>();
  auto next = db.SeekTurn(game, branch, TurnPhase{Turn{turn.major, turn.minor, turn.step + 1}, 0});
  if (!next.ok()) return next.status();
  auto head = db.HeadOf(game, branch);
  if (!head.ok()) return head.status();
  const uint64_t last = next->has_value() ? **next - 1 : head->seq;
  return std::optional<std::pair<uint64_t, uint64_t>>(std::make_pair(**first, last));
}

struct Head {
  uint64_t seq = 0;
  std::string branch;  // as signed: the branch that wrote it
  TurnPhase at;
  uint64_t size = 0;
  std::string root, public_key, signature;  // hex
};

Head HeadFrom(const ledger::EventView& e) {
  const fb::Event& ev = *e.event();
  const fb::TreeHead* th = ev.payload_as_TreeHead();
  auto hex = [](const flatbuffers::Vector<uint8_t>* v) {
    return v ? signing::Hex({v->data(), v->size()}) : std::string();
  };
  return Head{e.seq, Str(ev.branch()), TurnPhase{TurnOf(ev.turn()), ev.phase()}, th->size(), hex(th->root()),
              hex(th->public_key()), hex(th->signature())};
}

// The last TreeHead before seq `before` (read backwards in widening windows).
Result<std::optional<Head>> HeadBefore(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                       uint64_t before) {
  uint64_t width = 64;
  uint64_t to = before - 1;
  while (to >= 1) {
    const uint64_t from = to > width ? to - width + 1 : 1;
    std::optional<Head> found;
    ADJ_RETURN_IF_ERROR(db.Read(game, branch, from, to, [&](const ledger::EventView& e) {
      if (e.event()->payload_type() == fb::Payload_TreeHead) found = HeadFrom(e);
      return Status::Ok();
    }));
    if (found) return found;
    if (from == 1) break;
    to = from - 1;
    width *= 2;
  }
  return std::optional<Head>();
}

}  // namespace

Result<std::vector<PersonEvent>> PersonsEventsOf(ledger::Ledger& db, const std::string& game,
                                                 const std::string& branch, const std::string& person,
                                                 const Turn& turn) {
  auto range = TurnRange(db, game, branch, turn);
  if (!range.ok()) return range.status();
  std::vector<PersonEvent> out;
  if (!range->has_value()) return out;
  std::set<uint64_t> his;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, (*range)->first, (*range)->second, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    if (TurnOf(ev.turn()) != turn) return Status::Ok();
    const auto* o = ev.payload_as_OrderSubmitted();
    const auto* r = ev.payload_as_OrderRejected();
    const auto* sp = ev.payload_as_OrderSuperseded();
    if (o && o->person()->str() == person) his.insert(e.seq);
    if ((o && his.count(e.seq)) || (r && his.count(r->order_seq())) || (sp && his.count(sp->order_seq()))) {
      out.push_back({e.seq, std::vector<uint8_t>(e.bytes.begin(), e.bytes.end())});
    }
    return Status::Ok();
  }));
  return out;
}

Result<std::vector<uint8_t>> BuildReportProof(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                              const std::string& person, const Turn& turn,
                                              std::optional<uint64_t> since) {
  auto range = TurnRange(db, game, branch, turn);
  if (!range.ok()) return range.status();
  const std::string where = "turn " + turn.ToString() + " of " + game + "/" + branch;
  if (!range->has_value()) return Status::NotFound(where + " has not begun");
  // The turn's last signed head: the end of its last phase.
  std::optional<Head> head;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, (*range)->first, (*range)->second, [&](const ledger::EventView& e) {
    if (e.event()->payload_type() == fb::Payload_TreeHead && TurnOf(e.event()->turn()) == turn) head = HeadFrom(e);
    return Status::Ok();
  }));
  if (!head) {
    return Status::NotFound(where + " has no signed tree head (the game signs none — `adjutant adopt-key` — or the "
                                    "turn is not adjudicated)");
  }
  auto before = HeadBefore(db, game, branch, (*range)->first);
  if (!before.ok()) return before.status();
  if (since) {
    if (*since == 0 || *since > head->size) {
      return Status::InvalidArgument("--since: " + std::to_string(*since) + " is not a tree size within 1-" +
                                     std::to_string(head->size) + " (the size of a head you hold)");
    }
    auto root = ledger::TreeRoot(db, game, branch, *since);
    if (!root.ok()) return root.status();
    *before = Head{};
    (*before)->size = *since;
    (*before)->root = merkle::Hex(*root);
  }
  auto his = PersonsEventsOf(db, game, branch, person, turn);
  if (!his.ok()) return his.status();
  std::erase_if(*his, [&](const PersonEvent& e) { return e.seq > head->size; });
  std::vector<uint64_t> seqs;
  for (const PersonEvent& e : *his) seqs.push_back(e.seq);
  std::vector<merkle::Hash> proof;
  if (!seqs.empty()) {
    auto p = ledger::TreeMultiProof(db, game, branch, seqs, head->size);
    if (!p.ok()) return p.status();
    proof = std::move(*p);
  }
  std::vector<merkle::Hash> consistency;
  if (*before) {
    auto c = ledger::TreeConsistency(db, game, branch, (*before)->size, head->size);
    if (!c.ok()) return c.status();
    consistency = std::move(*c);
  }
  // The events themselves, as stored.
  flatbuffers::FlatBufferBuilder f;
  std::vector<flatbuffers::Offset<fb::ProvenEvent>> events;
  for (const PersonEvent& e : *his) events.push_back(fb::CreateProvenEventDirect(f, e.seq, signing::Hex(e.bytes).c_str()));
  auto hexes = [&](const std::vector<merkle::Hash>& hs) {
    std::vector<flatbuffers::Offset<flatbuffers::String>> v;
    for (const auto& h : hs) v.push_back(f.CreateString(merkle::Hex(h)));
    return f.CreateVector(v);
  };
  const auto proof_v = hexes(proof);
  const auto consistency_v = hexes(consistency);
  fb::Turn ft(turn.major, turn.minor, turn.step);
  fb::Turn ht(head->at.turn.major, head->at.turn.minor, head->at.turn.step);
  const auto format = f.CreateString("adjutant-report-proof-v1");
  const auto g = f.CreateString(game);
  const auto pn = f.CreateString(person);
  const auto br = f.CreateString(head->branch);
  const auto root = f.CreateString(head->root);
  const auto pk = f.CreateString(head->public_key);
  const auto sig = f.CreateString(head->signature);
  const auto ev = f.CreateVector(events);
  const auto prev_root = f.CreateString(*before ? (*before)->root : std::string());
  fb::ReportProofBuilder rb(f);
  rb.add_format(format);
  rb.add_game(g);
  rb.add_person(pn);
  rb.add_turn(&ft);
  rb.add_branch(br);
  rb.add_head_turn(&ht);
  rb.add_head_phase(head->at.phase);
  rb.add_head_seq(head->seq);
  rb.add_size(head->size);
  rb.add_root(root);
  rb.add_public_key(pk);
  rb.add_signature(sig);
  rb.add_events(ev);
  rb.add_proof(proof_v);
  rb.add_previous_size(*before ? (*before)->size : 0);
  rb.add_previous_root(prev_root);
  rb.add_consistency(consistency_v);
  f.Finish(rb.Finish());
  return std::vector<uint8_t>(f.GetBufferPointer(), f.GetBufferPointer() + f.GetSize());
}

namespace {

template <size_t N>
Status HexField(const flatbuffers::String* s, const std::string& field, std::array<uint8_t, N>* out) {
  auto v = signing::FromHex<N>(s ? s->string_view() : std::string_view());
  if (!v) return Status::InvalidArgument(field + ": not " + std::to_string(2 * N) + " hex digits");
  *out = *v;
  return Status::Ok();
}

Status HashList(const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>* v, const std::string& field,
                std::vector<merkle::Hash>* out) {
  if (!v) return Status::Ok();
  for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) {
    merkle::Hash h;
    ADJ_RETURN_IF_ERROR(HexField(v->Get(i), field + "[" + std::to_string(i) + "]", &h));
    out->push_back(h);
  }
  return Status::Ok();
}

}  // namespace

Result<ReportProofData> ReportProofFrom(const fb::ReportProof& p) {
  if (Str(p.format()) != "adjutant-report-proof-v1") {
    return Status::InvalidArgument("format: '" + Str(p.format()) + "' is not adjutant-report-proof-v1");
  }
  ReportProofData d;
  d.game = Str(p.game());
  d.branch = Str(p.branch());
  d.person = Str(p.person());
  d.turn = TurnOf(p.turn());
  d.head_at = TurnPhase{TurnOf(p.head_turn()), p.head_phase()};
  d.head_seq = p.head_seq();
  d.size = p.size();
  ADJ_RETURN_IF_ERROR(HexField(p.root(), "root", &d.root));
  ADJ_RETURN_IF_ERROR(HexField(p.public_key(), "public_key", &d.public_key));
  ADJ_RETURN_IF_ERROR(HexField(p.signature(), "signature", &d.signature));
  if (p.events()) {
    for (flatbuffers::uoffset_t i = 0; i < p.events()->size(); ++i) {
      const fb::ProvenEvent* e = p.events()->Get(i);
      auto bytes = signing::BytesFromHex(e->event() ? e->event()->string_view() : std::string_view());
      if (!bytes || bytes->empty()) return Status::InvalidArgument("events[" + std::to_string(i) + "].event: not hex bytes");
      d.events.emplace_back(e->seq(), std::move(*bytes));
    }
  }
  ADJ_RETURN_IF_ERROR(HashList(p.proof(), "proof", &d.proof));
  d.previous_size = p.previous_size();
  if (d.previous_size > 0) ADJ_RETURN_IF_ERROR(HexField(p.previous_root(), "previous_root", &d.previous_root));
  ADJ_RETURN_IF_ERROR(HashList(p.consistency(), "consistency", &d.consistency));
  return d;
}

}  // namespace adjutant::replay
