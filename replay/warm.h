// Worlds kept warm (issue 22): the order desk holds a game's database open
// for days, and every request used to fold the game again from the nearest
// snapshot — read and decode every projection's snapshot, then fold the
// events since. WarmWorlds keeps each (game, branch) it has folded, and
// brings it to the head by folding only the events appended since, read
// from the log like any fold reads them: a request costs the work of the
// events it did not see, plus a copy of the state.
//
// A kept world is used only while the event it was folded to is still in
// the branch with the same chain hash (as a snapshot is, ARCHITECTURE I11);
// otherwise it is dropped and the branch folded cold. It is therefore
// always what replay::Fold gives at the head, digest for digest
// (tests/replay/warm_test.cc checks it after random traffic on every kind).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "replay/driver.h"

namespace adjutant::replay {

// A copy of a world: every projection cloned.
World Copy(const World& w);

class WarmWorlds {
 public:
  // At most `keep` worlds are kept; the least recently used goes first.
  explicit WarmWorlds(size_t keep = 64) : keep_(keep == 0 ? 1 : keep) {}
  WarmWorlds(const WarmWorlds&) = delete;
  WarmWorlds& operator=(const WarmWorlds&) = delete;

  // Every projection of (game, branch) at its head: a copy of the kept
  // world brought forward, or a cold fold (then kept). Thread-safe.
  Result<World> Fold(ledger::Ledger& db, std::string_view game, std::string_view branch);
  // The same world at the head, lent to `read` instead of copied: it runs
  // under this object's lock, so it must be short (a look at the summary).
  Status Read(ledger::Ledger& db, std::string_view game, std::string_view branch,
              const std::function<Status(const World&)>& read);

  struct Stats {
    uint64_t warm = 0;            // answered from a kept world
    uint64_t cold = 0;            // folded from the nearest snapshot
    uint64_t dropped = 0;         // kept worlds found stale (their event gone or changed)
    uint64_t events_applied = 0;  // folded into kept worlds to bring them forward
  };
  Stats stats() const;

 private:
  struct Entry {
    World world;
    uint64_t used = 0;
  };
  const size_t keep_;
  mutable std::mutex mu_;
  std::map<std::pair<std::string, std::string>, Entry> kept_;
  uint64_t clock_ = 0;
  Stats stats_;
};

}  // namespace adjutant::replay
