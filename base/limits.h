// Every bound the edges of Adjutant enforce, in one place. A value past a
// limit is refused with a message naming the limit, never truncated.
#pragma once

#include <cstddef>
#include <cstdint>

namespace adjutant::limits {

inline constexpr size_t kNameBytesMax = 64;              // game, branch, person ids
inline constexpr size_t kScenarioFileBytesMax = 8 << 20; // scenario JSON
inline constexpr size_t kOrderFileBytesMax = 1 << 20;    // one order file
inline constexpr size_t kScriptFileBytesMax = 1 << 20;   // scripted dice file
inline constexpr size_t kEventBytesMax = 1 << 20;        // one stored event
inline constexpr size_t kEventsPerBatchMax = 100'000;    // one phase or submission
inline constexpr size_t kIdempotencyKeyBytesMax = 128;
inline constexpr uint32_t kDiceSidesMax = 1'000'000;
inline constexpr uint32_t kDicePerRollMax = 1'000;

}  // namespace adjutant::limits
