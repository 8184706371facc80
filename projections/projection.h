// A projection is a pure fold (state, event) → state. Its digest is
// XXH3-128 over a canonical encoding of the state (never over memory
// layout), and that same encoding is its snapshot: Decode(Encode()) must
// give a state with the same digest (ARCHITECTURE I6).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/hash.h"
#include "base/status.h"

namespace adjutant::fb { struct Event; }

namespace adjutant::projections {

// One event as a projection sees it: its sequence number, the verified
// envelope and the event's bytes as stored (without the chain hash).
struct Input {
  uint64_t seq = 0;
  const fb::Event* event = nullptr;
  std::span<const uint8_t> bytes;  // the event as stored (8-byte aligned)
  // The version of the event's ruleset the rules ran under when they made
  // it, where that differs from the version it records: an audit under other
  // versions keeps the recorded tags (so only outcomes differ) but must fold
  // what it re-runs as the version it runs would (ARCHITECTURE I17). 0: the
  // recorded tag.
  uint32_t run_version = 0;
};

// The rules version a projection folds an event by: the version it was made
// under (see Input::run_version), else the one it records.
uint32_t FoldVersionOf(const Input& in);

class Projection {
 public:
  virtual ~Projection() = default;
  // Stable name; also the snapshot key. Bump the version when the encoding
  // changes, so older snapshots are ignored rather than misread.
  virtual std::string_view name() const = 0;
  virtual uint32_t version() const = 0;
  virtual void Reset() = 0;
  virtual void Apply(const Input& in) = 0;
  // Canonical encoding of the state.
  virtual std::string Encode() const = 0;
  virtual Status Decode(std::string_view bytes) = 0;
  // A copy of this projection, state and all (replay::WarmWorlds hands out
  // copies of the worlds it keeps warm).
  virtual std::unique_ptr<Projection> Clone() const = 0;
  // The sequence number of the last event folded (0: none).
  virtual uint64_t last_seq() const = 0;
  // Whether the game has what this projection folds (a y1820 projection in
  // an NWOL game does not): those that do not are left out of every
  // PhaseCompleted's digests, so adding a ruleset changes no recorded game.
  virtual bool applies() const { return true; }

  Hash128 Digest() const { return Digest128(Encode()); }
  // Snapshot key: name ‖ "@" ‖ version.
  std::string SnapshotName() const;
};

// Every projection a game has, in a fixed order (their digests go into
// PhaseCompleted in this order).
std::vector<std::unique_ptr<Projection>> AllProjections();

// What every projection with a state struct shares: the state, Reset and
// last_seq. The state's canonical encoding is listed once, in a Visit()
// next to the projection (projections/archive.h), and used by Encode and
// Decode there.
template <class State>
class Fold : public Projection {
 public:
  void Reset() override { s_ = {}; }
  uint64_t last_seq() const override { return s_.last_seq; }
  const State& state() const { return s_; }

 protected:
  State s_;
};

}  // namespace adjutant::projections
