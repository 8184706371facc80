// What a player's reports of a turn were built from (issue 23): the events
// his report proof proves under the turn's signed head (replay/proofs.h),
// and nothing of anyone else's (docs/PROOFS.md "What a proof holds"):
//  - every kind: the orders he gave for the turn and what became of each
//    (OrderSubmitted naming him; OrderRejected, OrderSuperseded naming one);
//    the dice and key directives recorded in the turn (CommitDice,
//    RevealDice, SigningKey: public), and the commitment to the turn's own
//    dice wherever it was recorded;
//  - pate: the Observed events his events report shows (PATE 2.3, 3.11: the
//    observations of the ships that report to him, projections::ViewOf),
//    the events of those ships (their `ship` field names one: moved, failed,
//    rated, sunk, taken, ...), the rolls about them (a DieRolled whose
//    subject is one), and the weather of the sea areas they were in during
//    the turn (where it began and ended, where each move took them): the
//    WindSet events and the wind and storm rolls there (PATE 1.4, 8); and
//    the rolls about a battle one of them fought (evasion, closing, the
//    line, battery damage, the captor: PATE 7.4-7.8; with his Observed,
//    which tells the battle and its rolls);
//  - sow: the events of a state whose treasury he reads (X.treasury,
//    X.prime: their `state` field names it, or they name its build, unit,
//    ship or a repair it pays for), and the seasons' start and end;
//  - y1820: the events of the nation he rules (X.ruler) — those that name it
//    as a party (its `nation`, a combat's attacker or defender, the nations a
//    province passed from and to, a treaty's or a trade's sides, a war's
//    target, the victor) — the rounds of a battle fought in a province his
//    nation held as the turn began or ended, whoever fought them (a third
//    nation defending it, Y9.1), and the two dice of each combat round he
//    has (Y9.4: rolled just before it);
//  - dog: for a side he commands (X.general), the move's events his battle
//    report tells (every DogEvent but the other sides' refused intentions)
//    and the move's rolls.
//  - any kind: the rolls about whatever he holds a role of (a DieRolled
//    whose subject is the X of one of his roles "X.what": a kind added later
//    gets that much without a rule of its own).
// His roles are taken as they stand now, as reports::MayRead takes them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/turn.h"
#include "replay/proofs.h"

namespace adjutant::ledger { class Ledger; }

namespace adjutant::reports {

// Which of those: the parts of a player's turn one report of his was built
// from (SourcesFor), or all of them (his proof of the turn).
enum SourcePart : unsigned {
  kSourceOrders = 1u << 0,    // his orders and their fates
  kSourcePublic = 1u << 1,    // the dice and key directives, the turn's commitment
  kSourceObserved = 1u << 2,  // pate: what his ships observed
  kSourceShips = 1u << 3,     // pate: his ships' events and rolls, their weather
  kSourceStates = 1u << 4,    // sow: his states' events
  kSourceNations = 1u << 5,   // y1820: his nation's events
  kSourceBattle = 1u << 6,    // dog: his side's move
  kSourceHeld = 1u << 7,      // any kind: rolls about what he holds a role of
  kSourceAll = 0xffu,
};
struct SourceScope {
  unsigned parts = kSourceAll;
  // Only this party of his (a state, a nation, a side: the one report's);
  // empty: every one he holds.
  std::string party;
};

// The seqs, rising.
Result<std::vector<uint64_t>> SourcesOf(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                        const std::string& person, const Turn& turn, const SourceScope& scope = {});

// His report proof of `turn` (a ReportProof flatbuffer): SourcesOf under the
// turn's signed head, as replay::BuildReportProof makes it.
Result<std::vector<uint8_t>> ReportProofOf(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                           const std::string& person, const Turn& turn, const SourceScope& scope = {},
                                           const replay::ProofShape& shape = {});

}  // namespace adjutant::reports
