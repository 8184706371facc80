// Sow games for tests: a scenario from JSON text, orders and directives
// from JSON text, and read-backs of the treasury state — all through the
// same driver the CLI uses.
#pragma once

#include <string>
#include <vector>

#include "ledger/ledger.h"
#include "projections/fleet.h"
#include "projections/treasury.h"
#include "replay/driver.h"

namespace adjutant::testing {

// Creates `game` from scenario JSON (the schema's Scenario form).
Status CreateSowGame(ledger::Ledger& db, const std::string& game, const std::string& scenario_json);

// Records an order file (JSON) from `person` (no password check: the CLI's job).
Result<replay::SubmitReport> Order(ledger::Ledger& db, const std::string& game, const std::string& person,
                                   const std::string& order_file_json, const std::string& branch = "main");

// One SowOrder item for an order file: {"body_type":"SowOrder","body":{"state":..,"body_type":KIND,"body":BODY}}.
std::string OrderItem(const std::string& state, const std::string& kind, const std::string& body_json,
                      const std::string& role = "");
std::string OrderFile(const std::vector<std::string>& items);

// Records a directive (DirectiveFile JSON with a SowDirective of `kind`).
Result<ledger::AppendResult> Directive(ledger::Ledger& db, const std::string& game, const std::string& kind,
                                       const std::string& body_json, const std::string& branch = "main");

// The treasury state folded to the head.
projections::TreasuryState Treasury(ledger::Ledger& db, const std::string& game, const std::string& branch = "main");
// The fleet (the ships) folded to the head.
projections::FleetState Fleet(ledger::Ledger& db, const std::string& game, const std::string& branch = "main");

// The treasury with the fleet's ships beside it, for tests that look at
// both books' state at once (the ships are the fleet projection's).
struct NwolState : projections::TreasuryState {
  std::map<std::string, projections::Ship> ships;
};
NwolState NwolStateOf(const projections::TreasuryState& t, const projections::FleetState& f);
NwolState Nwol(ledger::Ledger& db, const std::string& game, const std::string& branch = "main");

// Every man the game holds, counted with what left it and what grew into it
// (constant over any game: SOW 3 and PATE 3.4, 7, 8 record every loss).
int64_t MenLedger(const projections::TreasuryState& s, const projections::FleetState& fleet);
int64_t MenLedger(const NwolState& s);

// Adjudicates whole turns.
Status Turns(ledger::Ledger& db, const std::string& game, int turns, const std::string& branch = "main");

}  // namespace adjutant::testing
