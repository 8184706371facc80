#include "schema/draft.h"

#include "schema/codec.h"
#include "schema/event_generated.h"

namespace adjutant {

static_assert(static_cast<uint8_t>(ActorKind::kAdjudicator) == fb::ActorKind_Adjudicator);
static_assert(static_cast<uint8_t>(ActorKind::kGameAdministrator) == fb::ActorKind_GameAdministrator);
static_assert(static_cast<uint8_t>(ActorKind::kPlayer) == fb::ActorKind_Player);

void BuildEventBuffer(flatbuffers::FlatBufferBuilder& fbb, std::string_view game, std::string_view branch,
                      uint64_t seq, const Draft& d, std::string_view idem) {
  fbb.Clear();
  auto g = fbb.CreateString(game.data(), game.size());
  auto b = fbb.CreateString(branch.data(), branch.size());
  auto actor = fb::CreateActor(fbb, static_cast<fb::ActorKind>(d.actor.kind),
                               d.actor.person.empty() ? 0 : fbb.CreateString(d.actor.person),
                               d.actor.role.empty() ? 0 : fbb.CreateString(d.actor.role));
  auto rs = d.ruleset.empty() ? 0 : fbb.CreateString(d.ruleset);
  auto ik = idem.empty() ? 0 : fbb.CreateString(idem.data(), idem.size());
  PayloadRef p = d.payload(fbb);
  fb::Turn turn(d.at.turn.major, d.at.turn.minor, d.at.turn.step);
  auto ev = fb::CreateEvent(fbb, g, b, seq, &turn, d.at.phase, actor, rs, d.rules_version, schema::SchemaHash(), ik,
                            static_cast<fb::Payload>(p.type), flatbuffers::Offset<void>(p.offset));
  fb::FinishEventBuffer(fbb, ev);
}

}  // namespace adjutant
