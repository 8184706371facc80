#include "rules/phase_writer.h"

#include <cassert>

#include "projections/navalmap.h"
#include "schema/event_generated.h"

namespace adjutant::rules {

PhaseWriter::PhaseWriter(std::string game, std::string branch, uint64_t head_seq,
                         std::vector<std::unique_ptr<projections::Projection>> projections)
    : game_(std::move(game)), branch_(std::move(branch)), head_seq_(head_seq), projections_(std::move(projections)) {
  for (const auto& p : projections_) {
    if (auto* t = dynamic_cast<const projections::Treasury*>(p.get())) treasury_ = t;
    if (auto* r = dynamic_cast<const projections::Roster*>(p.get())) roster_ = r;
  }
}

void PhaseWriter::Emit(Draft draft) {
  flatbuffers::FlatBufferBuilder fbb(512);
  BuildEventBuffer(fbb, game_, branch_, head_seq_ + 1, draft);
  ++head_seq_;
  // The builder's buffer is aligned for FlatBuffers reads.
  projections::Input in{head_seq_, flatbuffers::GetRoot<fb::Event>(fbb.GetBufferPointer()),
                        {fbb.GetBufferPointer(), fbb.GetSize()}};
  for (auto& p : projections_) p->Apply(in);
  drafts_.push_back(std::move(draft));
}

std::vector<std::pair<std::string, Hash128>> PhaseWriter::Digests() const {
  std::vector<std::pair<std::string, Hash128>> out;
  for (const auto& p : projections_) out.emplace_back(std::string(p->name()), p->Digest());
  return out;
}

std::vector<uint32_t> PhaseWriter::Versions() const {
  std::vector<uint32_t> out;
  for (const auto& p : projections_) out.push_back(p->version());
  return out;
}

const projections::TreasuryState& PhaseWriter::treasury() const {
  if (treasury_) return treasury_->state();
  assert(false && "PhaseWriter needs the treasury projection");
  static const projections::TreasuryState kEmpty;
  return kEmpty;
}

const projections::Roster& PhaseWriter::roster() const {
  if (roster_) return *roster_;
  assert(false && "PhaseWriter needs the roster projection");
  static const projections::Roster kEmpty;
  return kEmpty;
}

const fb::NavalMap* PhaseWriter::naval_map() const {
  for (const auto& p : projections_) {
    if (auto* m = dynamic_cast<const projections::NavalMapView*>(p.get())) return m->map();
  }
  return nullptr;
}

}  // namespace adjutant::rules
