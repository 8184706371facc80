// A projection is a pure fold (state, event) → state. Its digest is
// XXH3-128 over a canonical encoding of the state (never over memory
// layout), and that same encoding is its snapshot: Decode(Encode()) must
// give a state with the same digest (DESIGN inv. 6).
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
};

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
  // The sequence number of the last event folded (0: none).
  virtual uint64_t last_seq() const = 0;

  Hash128 Digest() const { return Digest128(Encode()); }
  // Snapshot key: name ‖ "@" ‖ version.
  std::string SnapshotName() const;
};

// Every projection a game has, in a fixed order (their digests go into
// PhaseCompleted in this order).
std::vector<std::unique_ptr<Projection>> AllProjections();

// Helpers for canonical encodings: fixed-width little-endian integers and
// length-prefixed strings; a Reader that fails cleanly on short input.
class Writer {
 public:
  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U32(uint32_t v);
  void U64(uint64_t v);
  void I32(int32_t v) { U32(static_cast<uint32_t>(v)); }
  void Str(std::string_view s);
  std::string Take() { return std::move(out_); }
 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool U8(uint8_t* v);
  bool U32(uint32_t* v);
  bool U64(uint64_t* v);
  bool I32(int32_t* v);
  bool Str(std::string* s);
  bool done() const { return in_.empty(); }
 private:
  std::string_view in_;
};

}  // namespace adjutant::projections
