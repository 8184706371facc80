#include "projections/summary.h"

#include "schema/event_generated.h"

namespace adjutant::projections {

void Summary::Apply(const Input& in) {
  const fb::Event& e = *in.event;
  s_.last_seq = in.seq;
  if (const fb::Turn* t = e.turn()) s_.last_at.turn = {t->major(), t->minor(), t->step()};
  s_.last_at.phase = e.phase();
  Tally add{1, in.bytes.size()};
  auto bump = [&](Tally& t) { t.events += add.events; t.bytes += add.bytes; };
  bump(s_.total);
  bump(s_.by_kind[fb::EnumNamePayload(e.payload_type())]);
  bump(s_.by_turn[s_.last_at.turn]);
  switch (e.payload_type()) {
    case fb::Payload_GameCreated: {
      auto* g = e.payload_as_GameCreated();
      s_.seed = g->seed();
      if (const fb::Scenario* sc = g->scenario()) {
        s_.scenario_name = sc->name()->str();
        s_.rulesets.clear();
        if (sc->rulesets()) {
          for (auto* r : *sc->rulesets()) s_.rulesets.push_back(r->str());
        }
      }
      break;
    }
    case fb::Payload_BranchForked:
      s_.dice_salt = e.payload_as_BranchForked()->dice_salt();
      break;
    case fb::Payload_DieRolled: {
      auto* d = e.payload_as_DieRolled();
      uint64_t n = d->results() ? d->results()->size() : 0;
      s_.dice_rolled += n;
      if (d->scripted()) s_.dice_scripted += n;
      break;
    }
    default:
      break;
  }
}

std::string Summary::Encode() const {
  Writer w;
  w.U64(s_.last_seq);
  w.I32(s_.last_at.turn.major);
  w.I32(s_.last_at.turn.minor);
  w.I32(s_.last_at.turn.step);
  w.U32(s_.last_at.phase);
  w.U64(s_.seed);
  w.U64(s_.dice_salt);
  w.Str(s_.scenario_name);
  w.U32(static_cast<uint32_t>(s_.rulesets.size()));
  for (const auto& r : s_.rulesets) w.Str(r);
  w.U64(s_.total.events);
  w.U64(s_.total.bytes);
  w.U32(static_cast<uint32_t>(s_.by_kind.size()));
  for (const auto& [k, t] : s_.by_kind) { w.Str(k); w.U64(t.events); w.U64(t.bytes); }
  w.U32(static_cast<uint32_t>(s_.by_turn.size()));
  for (const auto& [turn, t] : s_.by_turn) {
    w.I32(turn.major); w.I32(turn.minor); w.I32(turn.step);
    w.U64(t.events); w.U64(t.bytes);
  }
  w.U64(s_.dice_rolled);
  w.U64(s_.dice_scripted);
  return w.Take();
}

Status Summary::Decode(std::string_view bytes) {
  Reader r(bytes);
  SummaryState s;
  uint32_t phase = 0, n = 0;
  bool ok = r.U64(&s.last_seq) && r.I32(&s.last_at.turn.major) && r.I32(&s.last_at.turn.minor) &&
            r.I32(&s.last_at.turn.step) && r.U32(&phase) && r.U64(&s.seed) && r.U64(&s.dice_salt) &&
            r.Str(&s.scenario_name) && r.U32(&n);
  s.last_at.phase = static_cast<uint16_t>(phase);
  for (uint32_t i = 0; ok && i < n; ++i) {
    s.rulesets.emplace_back();
    ok = r.Str(&s.rulesets.back());
  }
  ok = ok && r.U64(&s.total.events) && r.U64(&s.total.bytes) && r.U32(&n);
  for (uint32_t i = 0; ok && i < n; ++i) {
    std::string k;
    Tally t;
    ok = r.Str(&k) && r.U64(&t.events) && r.U64(&t.bytes);
    s.by_kind[k] = t;
  }
  ok = ok && r.U32(&n);
  for (uint32_t i = 0; ok && i < n; ++i) {
    Turn turn;
    Tally t;
    ok = r.I32(&turn.major) && r.I32(&turn.minor) && r.I32(&turn.step) && r.U64(&t.events) && r.U64(&t.bytes);
    s.by_turn[turn] = t;
  }
  ok = ok && r.U64(&s.dice_rolled) && r.U64(&s.dice_scripted) && r.done();
  if (!ok) return Status::Corruption("summary snapshot is damaged");
  s_ = std::move(s);
  return Status::Ok();
}

}  // namespace adjutant::projections
