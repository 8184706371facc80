#include "rules/phase_writer.h"

#include <cassert>

#include "base/merkle.h"
#include "projections/navalmap.h"
#include "projections/battle.h"
#include "projections/y1820.h"
#include "schema/event_generated.h"

namespace adjutant::rules {

PhaseWriter::PhaseWriter(std::string game, std::string branch, uint64_t head_seq,
                         std::vector<std::unique_ptr<projections::Projection>> projections)
    : game_(std::move(game)), branch_(std::move(branch)), head_seq_(head_seq), projections_(std::move(projections)) {
  for (const auto& p : projections_) {
    if (auto* t = dynamic_cast<const projections::Treasury*>(p.get())) treasury_ = t;
    if (auto* f = dynamic_cast<const projections::Fleet*>(p.get())) fleet_ = f;
    if (auto* r = dynamic_cast<const projections::Roster*>(p.get())) roster_ = r;
    if (auto* y = dynamic_cast<const projections::Y1820*>(p.get())) y1820_ = y;
    if (auto* b = dynamic_cast<const projections::Battle*>(p.get())) battle_ = b;
  }
}

void PhaseWriter::Emit(Draft draft) {
  draft.ruleset = ruleset_;
  draft.rules_version = ruleset_.empty() ? 0 : tags_.Of(ruleset_);
  flatbuffers::FlatBufferBuilder fbb(512);
  BuildEventBuffer(fbb, game_, branch_, head_seq_ + 1, draft);
  ++head_seq_;
  if (keep_leaves_) leaves_.push_back(merkle::LeafHash({fbb.GetBufferPointer(), fbb.GetSize()}));
  // The builder's buffer is aligned for FlatBuffers reads.
  projections::Input in{head_seq_, flatbuffers::GetRoot<fb::Event>(fbb.GetBufferPointer()),
                        {fbb.GetBufferPointer(), fbb.GetSize()}};
  // In an audit under other versions the draft keeps the recorded tag, but
  // is folded as the version the rules ran under would fold it (I17).
  if (!(versions_ == tags_) && !draft.ruleset.empty()) {
    const uint32_t run = versions_.Of(draft.ruleset);
    if (run != 0 && run != draft.rules_version) in.run_version = run;
  }
  for (auto& p : projections_) p->Apply(in);
  drafts_.push_back(std::move(draft));
}

std::vector<std::pair<std::string, Hash128>> PhaseWriter::Digests() const {
  std::vector<std::pair<std::string, Hash128>> out;
  for (const auto& p : projections_) {
    if (p->applies()) out.emplace_back(std::string(p->name()), p->Digest());
  }
  return out;
}

std::vector<uint32_t> PhaseWriter::Versions() const {
  std::vector<uint32_t> out;
  for (const auto& p : projections_) {
    if (p->applies()) out.push_back(p->version());
  }
  return out;
}

const projections::TreasuryState& PhaseWriter::treasury() const {
  if (treasury_) return treasury_->state();
  assert(false && "PhaseWriter needs the treasury projection");
  static const projections::TreasuryState kEmpty;
  return kEmpty;
}

const projections::FleetState& PhaseWriter::fleet() const {
  if (fleet_) return fleet_->state();
  assert(false && "PhaseWriter needs the fleet projection");
  static const projections::FleetState kEmpty;
  return kEmpty;
}

const projections::Roster& PhaseWriter::roster() const {
  if (roster_) return *roster_;
  assert(false && "PhaseWriter needs the roster projection");
  static const projections::Roster kEmpty;
  return kEmpty;
}

const projections::Y1820State& PhaseWriter::y1820() const {
  if (y1820_) return y1820_->state();
  assert(false && "PhaseWriter needs the y1820 projection");
  static const projections::Y1820State kEmpty;
  return kEmpty;
}

const projections::BattleState& PhaseWriter::battle() const {
  if (battle_) return battle_->state();
  assert(false && "PhaseWriter needs the battle projection");
  static const projections::BattleState kEmpty;
  return kEmpty;
}

const fb::NavalMap* PhaseWriter::naval_map() const {
  for (const auto& p : projections_) {
    if (auto* m = dynamic_cast<const projections::NavalMapView*>(p.get())) return m->map();
  }
  return nullptr;
}

}  // namespace adjutant::rules
