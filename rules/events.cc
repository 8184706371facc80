#include "rules/events.h"

#include "schema/event_generated.h"

namespace adjutant::rules {

Draft RulingDraft(const TurnPhase& at, const Actor& ga, std::string reason, std::string text) {
  Draft d;
  d.at = at;
  d.actor = ga;
  d.payload = [reason = std::move(reason), text = std::move(text)](flatbuffers::FlatBufferBuilder& fbb) {
    auto r = fbb.CreateString(reason);
    auto body = fb::CreateRuling(fbb, fbb.CreateString(text));
    auto dir = fb::CreateDirective(fbb, r, fb::DirectiveBody_Ruling, body.Union());
    return PayloadRef{fb::Payload_Directive, dir.o};
  };
  return d;
}

Draft PhaseStartedDraft(const TurnPhase& at, std::string name) {
  Draft d;
  d.at = at;
  d.payload = [name = std::move(name)](flatbuffers::FlatBufferBuilder& fbb) {
    auto p = fb::CreatePhaseStarted(fbb, fbb.CreateString(name));
    return PayloadRef{fb::Payload_PhaseStarted, p.o};
  };
  return d;
}

Draft PhaseCompletedDraft(const TurnPhase& at, std::string name,
                          std::vector<std::pair<std::string, Hash128>> digests, std::vector<uint32_t> versions) {
  Draft d;
  d.at = at;
  d.payload = [name = std::move(name), digests = std::move(digests),
               versions = std::move(versions)](flatbuffers::FlatBufferBuilder& fbb) {
    std::vector<flatbuffers::Offset<fb::ProjectionDigest>> ds;
    for (size_t i = 0; i < digests.size(); ++i) {
      fb::Hash128 fh(digests[i].second.hi, digests[i].second.lo);
      ds.push_back(fb::CreateProjectionDigest(fbb, fbb.CreateString(digests[i].first), &fh,
                                              i < versions.size() ? versions[i] : 0));
    }
    auto p = fb::CreatePhaseCompleted(fbb, fbb.CreateString(name), fbb.CreateVector(ds));
    return PayloadRef{fb::Payload_PhaseCompleted, p.o};
  };
  return d;
}

}  // namespace adjutant::rules
