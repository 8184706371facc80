// NWOL games (sow + pate) for tests: a small scenario on the bundled naval
// map (fixtures/maps/nwol-waters.json), created as `adjutant new --map`
// creates one, and helpers for PATE order files.
#pragma once

#include <string>

#include <memory>

#include "ledger/ledger.h"
#include "support/temp_dir.h"

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

// A scratch database holding game "g", made from `scenario` on the bundled
// naval map with dice seed `seed`.
struct NwolDb {
  explicit NwolDb(uint64_t seed = 1805, const std::string& scenario = PateScenario());
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
};

// A PateOrder item: {"body_type":"PateOrder","body":{"body_type":KIND,"body":BODY}}.
std::string PateItem(const std::string& kind, const std::string& body_json, const std::string& role = "");

}  // namespace adjutant::testing
