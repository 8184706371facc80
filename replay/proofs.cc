#include "replay/proofs.h"

#include <algorithm>
#include <set>

#include <flatbuffers/flatbuffers.h>

#include "ledger/tree.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "schema/values.h"

namespace adjutant::replay {

namespace {

using schema::TurnOf;

using schema::Str;

}  // namespace

Result<std::optional<std::pair<uint64_t, uint64_t>>> TurnSeqs(ledger::Ledger& db, const std::string& game,
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

namespace {

using Head = SignedHead;

Head HeadFrom(const ledger::EventView& e) {
  const fb::Event& ev = *e.event();
  const fb::TreeHead* th = ev.payload_as_TreeHead();
  auto hex = [](const flatbuffers::Vector<uint8_t>* v) {
    return v ? signing::Hex({v->data(), v->size()}) : std::string();
  };
  return Head{e.seq, Str(ev.branch()), TurnPhase{TurnOf(ev.turn()), ev.phase()}, th->size(), hex(th->root()),
              hex(th->public_key()), hex(th->signature())};
}

// The last TreeHead before seq `before` and at or after seq `floor` (read
// backwards in widening windows).
Result<std::optional<Head>> HeadBefore(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                       uint64_t before, uint64_t floor = 1) {
  uint64_t width = 64;
  uint64_t to = before - 1;
  while (to >= floor && to >= 1) {
    const uint64_t from = to >= floor + width ? to - width + 1 : floor;
    std::optional<Head> found;
    ADJ_RETURN_IF_ERROR(db.Read(game, branch, from, to, [&](const ledger::EventView& e) {
      if (e.event()->payload_type() == fb::Payload_TreeHead) found = HeadFrom(e);
      return Status::Ok();
    }));
    if (found) return found;
    if (from <= floor) break;
    to = from - 1;
    width *= 2;
  }
  return std::optional<Head>();
}

}  // namespace

Result<std::optional<SignedHead>> HeadCovering(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                               const std::optional<Turn>& turn) {
  uint64_t end = 0, floor = 1;
  if (turn) {
    // Only the turn's own events: a turn signed by no head (before the game
    // adopted a key) is not searched back to the game's start.
    auto range = TurnSeqs(db, game, branch, *turn);
    if (!range.ok()) return range.status();
    if (!range->has_value()) return std::optional<SignedHead>();
    floor = (*range)->first;
    end = (*range)->second;
  } else {
    auto head = db.HeadOf(game, branch);
    if (!head.ok()) return head.status();
    end = head->seq;
  }
  auto h = HeadBefore(db, game, branch, end + 1, floor);
  if (!h.ok()) return h.status();
  if (turn && h->has_value() && (*h)->at.turn != *turn) return std::optional<SignedHead>();  // none of its own
  return *h;
}

Result<std::vector<uint8_t>> BuildReportProof(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                              const std::string& person, const Turn& turn,
                                              const std::vector<uint64_t>& seqs_asked, const ProofShape& shape) {
  const std::optional<uint64_t>& since = shape.since;
  auto range = TurnSeqs(db, game, branch, turn);
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
  // The events, as stored (those the head covers).
  std::set<uint64_t> wanted;
  for (uint64_t s : seqs_asked) {
    if (s >= 1 && s <= head->size) wanted.insert(s);
  }
  std::vector<uint64_t> seqs(wanted.begin(), wanted.end());
  std::vector<std::vector<uint8_t>> bytes;
  if (!seqs.empty()) {
    ADJ_RETURN_IF_ERROR(db.Read(game, branch, seqs.front(), seqs.back(), [&](const ledger::EventView& e) {
      if (wanted.count(e.seq)) bytes.emplace_back(e.bytes.begin(), e.bytes.end());
      return Status::Ok();
    }));
  }
  if (bytes.size() != seqs.size()) return Status::Corruption(where + ": an event to prove was not read");
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
  // The dice's public inputs: the game's seed, the salt of the branch that
  // wrote the head (and the turn's rolls).
  auto info = db.Game(game);
  if (!info.ok()) return info.status();
  auto writer = db.Branch(game, head->branch);
  if (!writer.ok()) return writer.status();
  flatbuffers::FlatBufferBuilder f;
  std::vector<flatbuffers::Offset<fb::ProvenEvent>> events;
  for (size_t i = 0; i < seqs.size(); ++i) {
    events.push_back(shape.raw_events ? fb::CreateProvenEventDirect(f, seqs[i], nullptr, &bytes[i])
                                      : fb::CreateProvenEventDirect(f, seqs[i], signing::Hex(bytes[i]).c_str()));
  }
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
  const auto report_o = f.CreateString(shape.report);
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
  rb.add_dice_seed(info->seed);
  rb.add_dice_salt(writer->dice_salt);
  rb.add_report(report_o);
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

// What a proven event says that the checks use: a counter-based roll the
// adjudicator made, a dice commitment or reveal, a key adopted.
Status ReadProvenEvent(uint64_t seq, const std::vector<uint8_t>& bytes, const std::string& field, ReportProofData* d) {
  if (!schema::VerifyEventBuffer(bytes.data(), bytes.size())) {
    return Status::InvalidArgument(field + ".event: not an Event (it fails the FlatBuffers verifier)");
  }
  const fb::Event& ev = *flatbuffers::GetRoot<fb::Event>(bytes.data());
  if (const fb::DieRolled* r = ev.payload_as_DieRolled()) {
    const bool adjudicator = !ev.actor() || ev.actor()->kind() == fb::ActorKind_Adjudicator;
    if (!r->scripted() && adjudicator) {
      ProvenRoll roll;
      roll.seq = seq;
      roll.branch = Str(ev.branch());
      roll.at = TurnPhase{TurnOf(ev.turn()), ev.phase()};
      roll.subject = Str(r->subject());
      roll.purpose = Str(r->purpose());
      roll.index = r->index();
      roll.sides = r->sides();
      if (r->results()) roll.results.assign(r->results()->begin(), r->results()->end());
      d->rolls.push_back(std::move(roll));
    }
  } else if (const fb::Directive* dir = ev.payload_as_Directive()) {
    if (const fb::CommitDice* c = dir->body_as_CommitDice()) {
      d->commitments[TurnOf(c->turn())] = {seq, Str(c->commitment())};
    } else if (const fb::RevealDice* rv = dir->body_as_RevealDice()) {
      d->reveals[TurnOf(rv->turn())] = {seq, Str(rv->salt())};
    } else if (const fb::SigningKey* k = dir->body_as_SigningKey()) {
      signing::PublicKey key{};
      if (k->public_key()->size() == key.size()) {
        std::copy(k->public_key()->begin(), k->public_key()->end(), key.begin());
        d->key_changes.emplace_back(seq, key);
      }
    }
  }
  return Status::Ok();
}

}  // namespace

std::optional<std::vector<uint8_t>> ProvenEventBytes(const fb::ProvenEvent& e) {
  if (e.bytes() && e.bytes()->size() > 0) {
    if (e.event() && e.event()->size() > 0) return std::nullopt;  // one of the two, not both
    return std::vector<uint8_t>(e.bytes()->begin(), e.bytes()->end());
  }
  return signing::BytesFromHex(e.event() ? e.event()->string_view() : std::string_view());
}

Result<ReportProofData> ReportProofFrom(const fb::ReportProof& p) {
  if (Str(p.format()) != "adjutant-report-proof-v1") {
    return Status::InvalidArgument("format: '" + Str(p.format()) + "' is not adjutant-report-proof-v1");
  }
  ReportProofData d;
  d.game = Str(p.game());
  d.branch = Str(p.branch());
  d.person = Str(p.person());
  d.report = Str(p.report());
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
      auto bytes = ProvenEventBytes(*e);
      if (!bytes || bytes->empty()) {
        return Status::InvalidArgument("events[" + std::to_string(i) + "]: neither `event` (hex) nor `bytes` holds one");
      }
      ADJ_RETURN_IF_ERROR(ReadProvenEvent(e->seq(), *bytes, "events[" + std::to_string(i) + "]", &d));
      d.events.emplace_back(e->seq(), std::move(*bytes));
    }
  }
  ADJ_RETURN_IF_ERROR(HashList(p.proof(), "proof", &d.proof));
  d.previous_size = p.previous_size();
  if (d.previous_size > 0) ADJ_RETURN_IF_ERROR(HexField(p.previous_root(), "previous_root", &d.previous_root));
  ADJ_RETURN_IF_ERROR(HashList(p.consistency(), "consistency", &d.consistency));
  d.dice_seed = p.dice_seed();
  d.dice_salt = p.dice_salt();
  return d;
}

}  // namespace adjutant::replay
