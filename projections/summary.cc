#include "projections/summary.h"

#include "projections/archive.h"
#include "base/signing.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::projections {

void Summary::Apply(const Input& in) {
  const fb::Event& e = *in.event;
  s_.last_seq = in.seq;
  if (const fb::Turn* t = e.turn()) s_.last_at.turn = schema::TurnOf(t);
  s_.last_at.phase = e.phase();
  Tally add{1, in.bytes.size()};
  auto bump = [&](Tally& t) { t.events += add.events; t.bytes += add.bytes; };
  bump(s_.total);
  bump(s_.by_kind[fb::EnumNamePayload(e.payload_type())]);
  bump(s_.by_turn[s_.last_at.turn]);
  // Every event a ruleset writes names the version it was written under.
  if (e.ruleset() && e.ruleset()->size() > 0 && e.rules_version() > 0) {
    s_.rules_versions[e.ruleset()->str()] = e.rules_version();
  }
  switch (e.payload_type()) {
    case fb::Payload_GameCreated: {
      auto* g = e.payload_as_GameCreated();
      s_.seed = g->seed();
      s_.signing_key = g->signing_key() && g->signing_key()->size() == 32
                           ? signing::Hex({g->signing_key()->data(), g->signing_key()->size()})
                           : "";
      if (const fb::Scenario* sc = g->scenario()) {
        s_.scenario_name = sc->name()->str();
        s_.rulesets.clear();
        if (sc->rulesets()) {
          for (auto* r : *sc->rulesets()) s_.rulesets.push_back(r->str());
        }
      }
      // `new --rules-version`: the game is played under these from here.
      if (g->rules_versions()) {
        for (const fb::RulesVersionPin* pin : *g->rules_versions()) {
          if (pin->version() > 0) s_.rules_versions[pin->ruleset()->str()] = pin->version();
        }
      }
      break;
    }
    case fb::Payload_Directive: {
      const auto* d = e.payload_as_Directive();
      if (const auto* c = d->body_as_CommitDice(); c && c->turn()) {
        s_.dice_commitments[schema::TurnOf(c->turn())] = c->commitment()->str();
      }
      if (const auto* k = d->body_as_SigningKey(); k && k->public_key()->size() == 32) {
        s_.signing_key = signing::Hex({k->public_key()->data(), k->public_key()->size()});
      }
      if (const auto* r = d->body_as_RevealDice(); r && r->turn()) {
        s_.dice_revealed[schema::TurnOf(r->turn())] = r->salt()->str();
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

template <class A> void Visit(A& a, Tally& t) { a(t.events, t.bytes); }
template <class A> void Visit(A& a, SummaryState& s) {
  a(s.last_seq, s.last_at, s.seed, s.dice_salt, s.scenario_name, s.rulesets, s.total, s.by_kind, s.by_turn,
    s.dice_rolled, s.dice_scripted, s.dice_commitments, s.dice_revealed, s.rules_versions);
}

std::string Summary::Encode() const {
  std::string out = EncodeState(s_);
  if (!s_.signing_key.empty()) out += EncodeState(s_.signing_key);
  return out;
}

Status Summary::Decode(std::string_view bytes) {
  SummaryState s;
  Dec d(bytes);
  d(s);
  if (d.read_ok() && d.more()) d(s.signing_key);
  if (!d.ok()) return Status::Corruption(std::string(name()) + " snapshot is damaged");
  s_ = std::move(s);
  return Status::Ok();
}

}  // namespace adjutant::projections
