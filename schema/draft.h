// A draft event: what a caller (the ledger itself, a ruleset, the CLI)
// hands to the ledger to append. The ledger fills game, branch, seq,
// schema hash and idempotency key; the payload is built straight into the
// event's own FlatBufferBuilder, so nothing is copied or re-serialized.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/turn.h"

namespace flatbuffers { class FlatBufferBuilder; }

namespace adjutant {

// Mirrors fb::ActorKind (checked in schema/draft.cc).
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

// Builds the Event a draft becomes once appended at `seq` of game/branch,
// exactly as the ledger stores it (the ledger calls this too).
void BuildEventBuffer(flatbuffers::FlatBufferBuilder& fbb, std::string_view game, std::string_view branch,
                      uint64_t seq, const Draft& draft, std::string_view idempotency_key = {});

}  // namespace adjutant
