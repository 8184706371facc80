// Rebuilding projections from the log at any sequence number, starting
// from the nearest snapshot at or below it (ARCHITECTURE I6, I11: snapshots are a
// cache — with or without them the digests are the same).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "base/status.h"
#include "ledger/ledger.h"
#include "projections/projection.h"

namespace adjutant::replay {

struct RebuildOptions {
  bool use_snapshots = true;
  uint64_t snapshot_every = 0;  // write a snapshot at each multiple of N (0: never; a read-only ledger never does)
  // Also write one at the last event folded, when the fold folded any (the
  // driver asks for it at the end of each turn: a game of few events a turn
  // would otherwise fold from far back, or from event 1, until its first
  // multiple of snapshot_every, issue 22).
  bool snapshot_at_end = false;
};

struct RebuildStats {
  uint64_t start_seq = 0;  // the snapshot the fold started from (0: from zero)
  uint64_t events_folded = 0;
  uint64_t snapshots_written = 0;
};

// Folds one event into each of `projections` that has not folded it yet
// (the step every fold takes: Rebuild, and WarmWorlds bringing a kept world
// forward).
void FoldEvent(std::span<projections::Projection* const> projections, const ledger::EventView& e);

// Writes each of `projections` as a snapshot at event `seq` (chain hash
// `hash`): a cache, so the first that cannot be written (a full disk) ends
// the attempt and is not an error. How many were written.
size_t PutSnapshots(ledger::Ledger& ledger, std::string_view game, std::string_view branch,
                    std::span<projections::Projection* const> projections, uint64_t seq, const Hash128& hash);

// Folds `projections` (reset first) over events 1..upto of the branch;
// upto beyond the head means the head.
Result<RebuildStats> Rebuild(ledger::Ledger& ledger, std::string_view game, std::string_view branch,
                             uint64_t upto, std::span<projections::Projection* const> projections,
                             const RebuildOptions& opts = {});

}  // namespace adjutant::replay
