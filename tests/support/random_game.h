// Random games for property tests: event specs drawn with rapidcheck
// generators (so failures shrink and print their seed), turned into drafts,
// and checked field by field against what the ledger gives back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ledger/ledger.h"

namespace adjutant::fb { struct Event; }

namespace adjutant::testing {

struct EventSpec {
  enum class Kind { kRoll, kRuling, kPhaseStarted, kPhaseCompleted, kOrder, kRejected };
  Kind kind = Kind::kRoll;
  TurnPhase at;
  Actor actor;
  std::string text;              // purpose, ruling text, phase name, order text
  uint32_t sides = 6;
  std::vector<uint32_t> values;  // dice results; digest halves; order seqs
};

// A minimal valid Scenario buffer.
std::vector<uint8_t> MinimalScenario(const std::string& name);

// Creates `game` with a minimal scenario at turn 1.1.0.
Result<ledger::Head> CreateTestGame(ledger::Ledger& db, const std::string& game, uint64_t seed = 7);

// Inside a rapidcheck property: a batch of 1..max_events specs whose turns
// and phases start at `*cursor` and never go back; advances the cursor.
std::vector<EventSpec> GenBatch(TurnPhase* cursor, int max_events = 8);

// A deterministic batch (for fixtures and benchmarks of tests).
std::vector<EventSpec> FixedBatch(TurnPhase* cursor, int n, uint32_t salt);

Draft ToDraft(const EventSpec& spec);
std::vector<Draft> ToDrafts(const std::vector<EventSpec>& specs);

// Empty when `e` holds exactly what `spec` asked for; else what differs.
std::string Mismatch(const EventSpec& spec, const fb::Event& e);

}  // namespace adjutant::testing
