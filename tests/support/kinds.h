// The kinds of game the history matrix (tests/replay/history_matrix_test.cc)
// runs every history tool on: one row each — how a small game of the kind is
// made and what its turns and phases look like — and one way to play any of
// them, by phase or by turn, with or without idempotency keys. A new kind is
// one more row of GameKinds() (kinds.cc).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/signing.h"
#include "base/turn.h"
#include "ledger/ledger.h"
#include "rules/dice.h"
#include "rules/versions.h"
#include "support/temp_dir.h"

namespace adjutant::testing {

// One turn of a kind's small game: the players' orders for it (person and
// OrderFile JSON, each recorded as sent, before the turn is adjudicated) and,
// after them, the GA's directive for it ("" for none: DirectiveFile JSON).
struct TurnPlan {
  Turn turn;
  std::vector<std::pair<std::string, std::string>> orders;
  std::string directive;
};

struct GameKind {
  std::string name;
  std::string scenario_json;  // the scenario (Scenario JSON), given to `adjutant new`
  std::string map_json;       // its map, "" for none (`new --map`)
  uint64_t seed = 1;
  // The turns played, in order; the last has a GA directive (the "later
  // directive" a correction at the last turn carries) and orders.
  std::vector<TurnPlan> turns;
  uint16_t phases_per_turn = 1;  // every turn played has this many phases
  uint16_t fork_phase = 1;       // a phase of the last turn to fork at: the phases before it lie below the point
  Turn coming;                   // the turn after the last played: its orders window is the branch's head
  std::string correction;        // a DirectiveFile that changes no view (a ruling), for `correct`
  bool takes_dice_commitments = true;  // `dice-commit` is refused (exit 2) where not
  std::string older_versions;    // `--rules-version` for an audit under an older version (or the only one)
  // `--rules-version` the game is played under from its first phase to
  // match an audit under older_versions (a RulesVersions value).
  rules::RulesVersions older;
  // Issue 20: the kind lets a player withdraw an order (rules/intake.h
  // OrderJudge::withdraws); one that does not refuses it under its ruleset.
  bool withdraws = true;
  // Issue 20: what its books do for orders not given cites their rule
  // (GameKind::OrdersNotGiven); the default says so with no rule.
  bool cites_missing = true;
  // Issue 20: the orders report tells how its orders were carried out
  // (reports/order_outcomes.cc links its order kinds to their events).
  bool tells_outcomes = true;
  // Issue 21: `report choices` has something of the kind's to offer its
  // order forms (ships, cities, provinces, units); a kind with no such
  // pickers answers with empty lists.
  bool offers_choices = true;
};

// Every kind: "nwol" (sow + pate), "y1820", "dog" (a Death or Glory battle).
const std::vector<GameKind>& GameKinds();

// How a game is played.
struct PlayOptions {
  bool by_phase = false;  // `adjudicate --phase` until each turn is over, else `adjudicate` (a turn)
  bool keyed = false;     // every adjudication with its own idempotency key (`--key`)
  const rules::RulesVersions* versions = nullptr;  // adopted from the first phase on
  std::string created_under;  // `new --rules-version` ("" none): pinned from GameCreated on
  std::optional<std::string> first_turn_salt;      // the first turn's dice committed to this salt
  bool reveal_first_turn = false;                  // ... and revealed once that turn is over (RevealDice)
  rules::DiceSource* last_turn_dice = nullptr;     // the last turn rolled with these dice, not the branch's
  // Issue 23: the game is created with this key (`new --signing-key`, its
  // file written under the test's directory) and adjudicated with it.
  const signing::SigningKey* signer = nullptr;
};

// Issue 23: a signing key made from a fixed seed (32 bytes of `b`), and
// the options that create and adjudicate a game with it.
signing::SigningKey TestKey(uint8_t b);
PlayOptions SignedWith(const signing::SigningKey& key);

struct Played {
  uint64_t later_directive_seq = 0;  // the last turn's directive
  uint64_t head = 0;
};

// `adjutant ARGS` against the open database, in this process (cli::RunShared).
struct CliRun {
  int code = -1;
  std::string out, err;
};
CliRun Cli(ledger::Ledger& db, const std::vector<std::string>& args);

// `adjutant new` of game "g" of `kind` in `db` (its files written under
// `dir`; the options' signer and created_under), and what it said.
Result<CliRun> Create(ledger::Ledger& db, const std::string& dir, const GameKind& kind, const PlayOptions& options);

// Creates game "g" of `kind` in `db` (Create) and plays every turn of its
// plan on main.
Result<Played> Play(ledger::Ledger& db, const std::string& dir, const GameKind& kind, const PlayOptions& options);

// Game "g" of `kind` in a scratch database of its own, played through its
// plan (Play): what the matrices over every kind start from.
struct PlayedGame {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  Status status;  // the open's and Play's outcome: REQUIRE(g.status.ok()) before using db
  explicit PlayedGame(const GameKind& kind, const PlayOptions& options = {});
  ledger::Ledger& operator*() { return *db; }
};

// The turn orders go to once the coming turn is adjudicated: a game of the
// kind played to its plan's end, then one turn more, in a scratch database.
Result<Turn> TurnAfterComing(const GameKind& kind);

}  // namespace adjutant::testing
