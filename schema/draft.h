// A draft event: what a caller (the ledger itself, a ruleset, the CLI)
// hands to the ledger to append. The ledger fills game, branch, seq,
// schema hash and idempotency key; the payload is built straight into the
// event's own FlatBufferBuilder, so nothing is copied or re-serialized.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "base/turn.h"

namespace flatbuffers { class FlatBufferBuilder; }

namespace adjutant {

// Mirrors fb::ActorKind (checked in ledger/ledger.cc).
enum class ActorKind : uint8_t { kAdjudicator = 0, kGameAdministrator = 1, kPlayer = 2 };

struct Actor {
  ActorKind kind = ActorKind::kAdjudicator;
  std::string person;
  std::string role;
};

// A payload built into the event's builder: the union type (an fb::Payload
// value) and the table's offset.
struct PayloadRef {
  uint8_t type = 0;
  uint32_t offset = 0;
};
using PayloadBuilder = std::function<PayloadRef(flatbuffers::FlatBufferBuilder&)>;

struct Draft {
  TurnPhase at;
  Actor actor;
  std::string ruleset;  // "" for ledger-level events
  uint32_t rules_version = 0;
  PayloadBuilder payload;
};

}  // namespace adjutant
