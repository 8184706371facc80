// NWOL games (sow + pate) for tests: a small scenario on the bundled naval
// map (fixtures/maps/nwol-waters.json), created as `adjutant new --map`
// creates one, and helpers for PATE order files.
#pragma once

#include <string>

#include "ledger/ledger.h"

namespace adjutant::testing {

// The small scenario: BR, FR and SP at war (FR and SP allied) in the
// Channel, Biscay and off Cadiz, with commanders for most ships.
std::string PateScenario();

// Creates `game` from scenario JSON on the bundled naval map.
Status CreateNwolGame(ledger::Ledger& db, const std::string& game, const std::string& scenario_json,
                      uint64_t seed = 1805);

// Records a GA's PateDirective of `kind` (CombineTransports, ...).
Result<ledger::AppendResult> PateDirective(ledger::Ledger& db, const std::string& game, const std::string& kind,
                                           const std::string& body_json);

// A PateOrder item: {"body_type":"PateOrder","body":{"body_type":KIND,"body":BODY}}.
std::string PateItem(const std::string& kind, const std::string& body_json, const std::string& role = "");

}  // namespace adjutant::testing
