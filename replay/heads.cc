#include "replay/heads.h"

#include <flatbuffers/flatbuffers.h>

#include "ledger/tree.h"
#include "projections/summary.h"
#include "rules/kind.h"
#include "replay/driver.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::replay {

std::optional<signing::PublicKey> SigningKeyOf(const projections::SummaryState& s) {
  if (s.signing_key.empty()) return std::nullopt;
  return signing::FromHex<32>(s.signing_key);
}

Status CheckSigner(std::string_view game, const projections::SummaryState& s, const signing::SigningKey* signer) {
  if (s.signing_key.empty()) return Status::Ok();
  if (!signer) {
    return Status::InvalidArgument("game '" + std::string(game) + "' signs its tree heads with key " + s.signing_key +
                                   ": give its secret key (--signing-key FILE)");
  }
  const std::string given = signing::Hex(signer->public_key());
  if (given != s.signing_key) {
    return Status::InvalidArgument("the signing key given is " + given + "; game '" + std::string(game) +
                                   "' signs its tree heads with " + s.signing_key);
  }
  return Status::Ok();
}

Result<HeadDraft> TreeHeadDraft(ledger::Ledger& db, std::string_view game, std::string_view branch, uint64_t head_seq,
                            std::span<const Draft> drafts, std::string_view idempotency_key,
                            const signing::SigningKey& signer) {
  if (drafts.empty()) return Status::InvalidArgument("a tree head closes a phase: no events to close");
  std::vector<merkle::Hash> leaves;
  leaves.reserve(drafts.size());
  flatbuffers::FlatBufferBuilder fbb(512);
  for (size_t i = 0; i < drafts.size(); ++i) {
    BuildEventBuffer(fbb, game, branch, head_seq + 1 + i, drafts[i], idempotency_key);
    leaves.push_back(merkle::LeafHash({fbb.GetBufferPointer(), fbb.GetSize()}));
  }
  return TreeHeadDraft(db, game, branch, head_seq, drafts.back().at, leaves, signer);
}

Result<HeadDraft> TreeHeadDraft(ledger::Ledger& db, std::string_view game, std::string_view branch, uint64_t head_seq,
                            const TurnPhase& at, std::span<const merkle::Hash> leaves,
                            const signing::SigningKey& signer) {
  if (leaves.empty()) return Status::InvalidArgument("a tree head closes a phase: no events to close");
  auto made = ledger::TreeRootWith(db, game, branch, head_seq, leaves);
  if (!made.ok()) return made.status();
  const merkle::Hash* root = &made->root;
  TreeHeadFields h{std::string(game), std::string(branch), at, head_seq + leaves.size(), *root};
  const signing::Signature sig = signer.Sign(TreeHeadMessage(h));
  Draft d;
  d.at = h.at;
  d.payload = [size = h.size, root = *root, pk = signer.public_key(), sig](flatbuffers::FlatBufferBuilder& f) {
    auto r = f.CreateVector(root.data(), root.size());
    auto k = f.CreateVector(pk.data(), pk.size());
    auto s = f.CreateVector(sig.data(), sig.size());
    return PayloadRef{fb::Payload_TreeHead, fb::CreateTreeHead(f, size, r, k, s).o};
  };
  return HeadDraft{std::move(d), std::move(made->nodes)};
}

namespace {

template <size_t N>
std::optional<std::array<uint8_t, N>> Exactly(const flatbuffers::Vector<uint8_t>* v) {
  if (!v || v->size() != N) return std::nullopt;
  std::array<uint8_t, N> out;
  std::copy(v->begin(), v->end(), out.begin());
  return out;
}

}  // namespace

Result<std::vector<HeadCheck>> CheckHeads(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                          uint64_t from, uint64_t to, HeadRoots roots) {
  std::vector<HeadCheck> out;
  uint64_t last_completed = 0, prev_seq = 0;
  const bool from_events = roots == HeadRoots::kFromEvents;
  merkle::Frontier frontier;  // from_events: the tree of every event before this one
  // The event before the first head (its PhaseCompleted?), or every event.
  const uint64_t read_from = from_events ? 1 : from > 1 ? from - 1 : 1;
  // The key in force: the summary view folded once to where the read
  // starts, then given each event read (GameCreated, SigningKey).
  projections::Summary summary;
  if (read_from > 1) {
    auto then = Fold(db, game, branch, read_from - 1, {"summary"});
    if (!then.ok()) return then.status();
    summary = rules::Get<projections::Summary>(then->projections);
  }
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, read_from, to, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    const std::optional<signing::PublicKey> in_force = SigningKeyOf(summary.state());  // after the event before
    summary.Apply(projections::Input{e.seq, &ev, e.bytes});
    if (ev.payload_type() == fb::Payload_PhaseCompleted) last_completed = e.seq;
    const auto* th = ev.payload_as_TreeHead();
    const uint64_t before = prev_seq;
    prev_seq = e.seq;
    const merkle::Hash events_root = from_events && th ? frontier.Root() : merkle::Hash{};
    if (from_events) frontier.Append(ledger::EventLeaf(e));
    if (!th || e.seq < from) return Status::Ok();
    HeadCheck c;
    c.seq = e.seq;
    c.head.game = std::string(game);
    c.head.branch = ev.branch()->str();  // below a fork point: the parent's
    if (const fb::Turn* t = ev.turn()) c.head.at.turn = schema::TurnOf(t);
    c.head.at.phase = ev.phase();
    c.head.size = th->size();
    auto root = Exactly<32>(th->root());
    auto pk = Exactly<32>(th->public_key());
    auto sig = Exactly<64>(th->signature());
    if (root) c.head.root = *root;
    if (pk) c.public_key = *pk;
    if (sig) c.signature = *sig;
    auto problem = [&]() -> std::string {
      if (!root || !pk || !sig) return "malformed: root, key or signature of the wrong length";
      if (before != e.seq - 1 || last_completed != e.seq - 1 || th->size() != e.seq - 1) {
        return "not right after its phase's PhaseCompleted (size " + std::to_string(th->size()) + ")";
      }
      if (!in_force) return "the game had no signing key there";
      if (*in_force != *pk) return "signed by key " + signing::Hex(*pk) + ", not the key in force " + signing::Hex(*in_force);
      auto made = from_events ? Result<merkle::Hash>(events_root) : ledger::TreeRoot(db, game, branch, th->size());
      if (!made.ok()) return "the tree's root could not be made: " + made.status().message();
      if (*made != *root) return "its root is not the tree's over the events as stored (" + merkle::Hex(*made) + ")";
      if (!VerifyTreeHead(c.head, *pk, *sig)) return "the signature does not verify";
      return "";
    }();
    c.problem = std::move(problem);
    out.push_back(std::move(c));
    return Status::Ok();
  }));
  return out;
}

}  // namespace adjutant::replay
