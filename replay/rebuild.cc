#include "replay/rebuild.h"

#include <algorithm>

namespace adjutant::replay {

void FoldEvent(std::span<projections::Projection* const> projections, const ledger::EventView& e) {
  projections::Input in{e.seq, e.event(), e.bytes};
  for (projections::Projection* p : projections) {
    if (e.seq > p->last_seq()) p->Apply(in);
  }
}

size_t PutSnapshots(ledger::Ledger& ledger, std::string_view game, std::string_view branch,
                    std::span<projections::Projection* const> projections, uint64_t seq, const Hash128& hash) {
  // One write for them all (Ledger::PutSnapshots): all or none.
  std::vector<std::string> names, encoded;
  names.reserve(projections.size());
  encoded.reserve(projections.size());
  std::vector<ledger::Ledger::SnapshotPut> puts;
  for (projections::Projection* p : projections) {
    names.push_back(p->SnapshotName());
    encoded.push_back(p->Encode());
  }
  for (size_t i = 0; i < projections.size(); ++i) puts.push_back({names[i], encoded[i]});
  return ledger.PutSnapshots(game, branch, seq, puts, &hash).ok() ? projections.size() : 0;
}

Result<RebuildStats> Rebuild(ledger::Ledger& ledger, std::string_view game, std::string_view branch,
                             uint64_t upto, std::span<projections::Projection* const> projections,
                             const RebuildOptions& opts) {
  RebuildStats stats;
  uint64_t start = UINT64_MAX;
  for (projections::Projection* p : projections) {
    p->Reset();
    if (opts.use_snapshots) {
      auto snap = ledger.FindSnapshot(game, branch, p->SnapshotName(), upto);
      if (!snap.ok()) return snap.status();
      if (snap->has_value()) {
        // A snapshot that does not decode is a cache miss, not an error (ARCHITECTURE I11).
        if (!p->Decode((*snap)->bytes).ok() || p->last_seq() != (*snap)->seq) p->Reset();
      }
    }
    start = std::min(start, p->last_seq());
  }
  if (projections.empty()) start = 0;
  stats.start_seq = start;
  bool snapshots_ok = true;
  auto snapshot = [&](uint64_t seq, const Hash128& hash) {
    // One that cannot be written does not fail the fold; no more are tried in it.
    const size_t written = PutSnapshots(ledger, game, branch, projections, seq, hash);
    stats.snapshots_written += written;
    snapshots_ok = written == projections.size();
  };
  uint64_t last_seq = 0, last_snapshot = 0;
  Hash128 last_hash;
  ADJ_RETURN_IF_ERROR(ledger.Read(game, branch, start + 1, upto, [&](const ledger::EventView& e) {
    FoldEvent(projections, e);
    ++stats.events_folded;
    last_seq = e.seq;
    last_hash = e.hash;
    if (opts.snapshot_every != 0 && e.seq % opts.snapshot_every == 0 && !ledger.read_only() && snapshots_ok) {
      snapshot(e.seq, e.hash);
      last_snapshot = e.seq;
    }
    return Status::Ok();
  }));
  if (opts.snapshot_at_end && last_seq != 0 && last_seq != last_snapshot && !ledger.read_only() && snapshots_ok) {
    snapshot(last_seq, last_hash);
  }
  return stats;
}

}  // namespace adjutant::replay
