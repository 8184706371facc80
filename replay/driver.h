// The adjudication driver, shared by every ruleset: folds the projections
// to a branch's head, asks the ruleset for the next phase, runs it, and
// appends the phase's events — PhaseStarted, the outcomes, PhaseCompleted
// with every projection's digest — in one synced batch. Also the intake of
// orders, GA directives and passwords, each one batch or nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/signing.h"
#include "ledger/ledger.h"
#include "projections/projection.h"
#include "rules/dice.h"
#include "rules/kind.h"
#include "rules/phase_writer.h"
#include "rules/versions.h"

namespace adjutant::projections { class Treasury; class Fleet; class Roster; struct SummaryState; struct Y1820State; struct BattleState; }

namespace adjutant::replay {

class WarmWorlds;  // replay/warm.h

// Every projection folded to the head of a branch.
struct World {
  rules::State projections;
  ledger::Head head;
  // The kind of game (rules/kind.h); nullptr for a branch without events.
  const rules::GameKind* kind() const { return rules::KindOf(projections); }
  const projections::Treasury& treasury() const;
  const projections::Fleet& fleet() const;
  const projections::Roster& roster() const;
  const projections::Y1820State& y1820() const;
  const projections::BattleState& battle() const;
};

// The next phase of a game, whatever its kind.
using GamePhase = rules::KindPhase;

// The phase to adjudicate next; an error naming why there is none (a game
// without a ruleset to adjudicate, or one that has ended).
Result<GamePhase> NextPhaseOf(const World& w);
// Where orders and directives given now are recorded (the coming turn's
// orders window), when the game takes them.
Result<TurnPhase> OrderPositionOf(const World& w);
// Where a branch stands: the last turn begun and the phases of it done.
rules::Progress ProgressOf(const World& w);

// The ledger summary of a folded world (seed, salts, dice commitments).
const projections::SummaryState& SummaryOf(const World& w);

// The rules versions a game goes on under: each ruleset's last recorded
// version (GameCreated's pins, `new --rules-version`, before any phase),
// the newest for a ruleset with none yet (rules/versions.h).
rules::RulesVersions GameVersions(const projections::SummaryState& s);

// Snapshots are written every this many events by writable callers.
inline constexpr uint64_t kSnapshotEvery = 1000;

// Folds every projection up to `upto` (default: the head).
Result<World> Fold(ledger::Ledger& db, std::string_view game, std::string_view branch, uint64_t upto = UINT64_MAX);
// Folds only the projections named in `only` (by name(); empty: every one).
// The World then holds those alone: ask it only for what was folded (a
// missing projection reads as an empty one).
Result<World> Fold(ledger::Ledger& db, std::string_view game, std::string_view branch, uint64_t upto,
                   const std::vector<std::string>& only);

struct PhaseReport {
  TurnPhase at;
  std::string name;      // "income", "season-end", ...
  std::string turn_name; // "Spring 1805, turn 1"
  uint64_t first_seq = 0, last_seq = 0;
  size_t rejected = 0;   // orders refused in the phase
  bool last_of_turn = false;
  bool replayed = false; // a retry of a request already recorded: nothing appended
};

enum class AdjudicateMode { kPhase, kTurn };

// The branch's dice: counter-based from the game's seed and the branch's salt.
Result<rules::CounterDice> BranchDice(ledger::Ledger& db, std::string_view game, std::string_view branch);

// Emits phase `next` into `w` — PhaseStarted, the kind's outcomes (rolling
// `dice`), PhaseCompleted with every projection's digest — without
// appending: adjudication appends them, an audit compares them.
Status RunPhaseInto(rules::PhaseWriter& w, const GamePhase& next, rules::DiceSource& dice);

// Runs one phase, or the rest of the current turn and `turns - 1` more
// whole turns (a season's end, which takes no orders, runs with the turn
// before it).
// `dice_salt` (hex) is the GA's secret salt for turns whose dice he
// committed to (replay/dice_commit.h). `dice`, when given, replaces the
// branch's dice (scripted dice for conformance cases). `versions`, when
// given, are rules versions the GA adopts from this phase on (recorded in
// every event, so later phases keep them); else the game's own.
// `idempotency_key` makes a retry safe (a GA whose answer was lost): it is
// recorded with the batch that ends the request — the phase, or the last
// phase of the turn — so a retry after that answers the first result
// (replayed) and a retry after a crash in the middle of a turn runs only
// the rest of it. A key needs `turns` == 1. `warm`, when given (the desk's),
// holds the world each phase starts from; else one is kept for this call.
// `signer`: the GA's secret key, for a game that signs its tree heads
// (replay/heads.h): each phase's batch then ends with its TreeHead; such a
// game is not adjudicated without it (nothing appended).
Result<std::vector<PhaseReport>> Adjudicate(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                            AdjudicateMode mode, int turns = 1,
                                            const std::optional<std::string>& dice_salt = std::nullopt,
                                            rules::DiceSource* dice = nullptr,
                                            const rules::RulesVersions* versions = nullptr,
                                            std::string_view idempotency_key = {}, WarmWorlds* warm = nullptr,
                                            const signing::SigningKey* signer = nullptr);

struct OrderOutcome {
  uint64_t seq = 0;
  std::string slot;
  std::string status;  // "stands", "rejected", "superseded", "withdrawn"; a withdrawal: "withdrawal"
  std::string rule, reason;
};

struct SubmitReport {
  ledger::AppendResult append;
  TurnPhase at;
  std::vector<OrderOutcome> orders;
};

struct SubmitOptions {
  // The submitter's retry key: a retry of a submission already recorded is
  // answered first, nothing appended.
  std::string_view idempotency_key = {};
  // The order desk's: a file holding an item `person` may not give
  // (FirstNotHis) records nothing: *not_his is set to its index and an
  // InvalidArgument returned — from the same fold the submission makes.
  std::optional<size_t>* not_his = nullptr;
  // The GA enters the file on `person`'s behalf (orders the player sent him
  // by other means): judged as the person's, each event's actor is the GA
  // (with the person and role it was for), and the retry key is the GA's.
  bool entered_by_ga = false;
  // When the orders reached Adjutant (seconds since 1970 UTC), written on
  // each OrderSubmitted; 0: not known. Not part of a retry's fingerprint.
  int64_t received_at = 0;
  // The order desk's warm worlds (replay/warm.h): the submission starts
  // from the game kept there, brought to the head, not from a snapshot.
  WarmWorlds* warm = nullptr;
};

// Records an order file (a verified OrderFile buffer) from `person`, whose
// password the caller has checked. One batch: every OrderSubmitted with its
// OrderRejected or OrderSuperseded.
Result<SubmitReport> SubmitOrders(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                  const std::string& person, const std::vector<uint8_t>& order_file,
                                  const SubmitOptions& options = {});

// The answer to a submission as JSON in the schema's SubmitSummary form
// (`adjutant order --json` and the desk give the same).
Result<std::string> SubmitSummaryJson(std::string_view game, std::string_view branch, const SubmitReport& rep);

// The order desk's check, made before anything is recorded: the first item
// of an order file (a verified OrderFile buffer) that `person` may not give —
// a ship, ministry or unit not his, whether or not it exists (SOW 2.1, PATE
// 2.3, 4.1; D12.2; Y1.3: a ruler orders for his own nation) — else nullopt.
std::optional<size_t> FirstNotHis(const World& world, const std::string& person, const std::vector<uint8_t>& order_file);

// Records a GA directive (a verified DirectiveFile buffer) and its
// consequences. A directive that breaks a rule is refused; nothing is
// appended. Orders and directives are judged under the game's rules
// versions (GameVersions: those its last phase ran under, else those it was
// created under, else the newest).
Result<ledger::AppendResult> RecordDirective(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                             const std::vector<uint8_t>& directive_file,
                                             std::string_view idempotency_key = {});

// Records that the deadline of `turn` passed (the scheduler of `adjutant
// serve`, replay/schedule.h; a correction carrying it over). A
// DeadlineFired in a directive file is refused: only the scheduler fires.
Result<ledger::AppendResult> RecordDeadlineFired(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                                 const Turn& turn, int64_t deadline, int64_t fired_at,
                                                 std::string_view idempotency_key = {});

// Idempotent retries of requests whose events depend on a moving state
// (orders checked against it, fresh dice): the request is identified by a
// fingerprint of its kind, branch, sender and bytes, stored with the key.
uint64_t RequestFingerprint(std::string_view kind, std::string_view branch, const std::string& who,
                            std::string_view request);
// The original result of a request already recorded under `key`; nullopt
// for a new key; kConflict when the key was used for another request.
// Keys are their owner's (ledger::IdempotencyOwner): another's is another key.
Result<std::optional<ledger::AppendResult>> PriorRequest(ledger::Ledger& db, std::string_view game,
                                                         std::string_view branch, std::string_view owner,
                                                         std::string_view key, uint64_t fingerprint);

// Records the hash (crypto_pwhash_str) of a person's new password.
Result<ledger::AppendResult> SetPassword(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                         const std::string& person, const std::string& pwhash);

}  // namespace adjutant::replay
