// A kind of game: the one owner of "which kind of game is this, and what
// happens next" (docs/ARCHITECTURE.md, "Game kinds"). Each kind — the NWOL
// game (sow + pate, rules/nwol/), the 1820–1840 game (rules/y1820/), a Death
// or Glory battle (rules/dog/) — implements this interface in its own
// folder; the registry (rules/kinds.cc) picks one from the rulesets its
// scenario names, the single source of truth. replay/, cli/ and desk/ ask
// the kind; they never name one.
//
// Every method is a pure function of the folded projections (and, for the
// ones that emit, of the orders and dice given): no I/O, no clock.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/turn.h"
#include "projections/projection.h"
#include "rules/dice.h"
#include "rules/phase_writer.h"
#include "rules/versions.h"

namespace adjutant::fb {
struct Event;
struct Scenario;
struct OrderItem;
struct DirectiveFile;
}  // namespace adjutant::fb

namespace adjutant::projections { struct SummaryState; }

namespace adjutant::rules {

// The projections of a game folded to some event.
using State = std::vector<std::unique_ptr<projections::Projection>>;

// The projection of type T in a folded state (every State holds one of each).
template <class T>
const T& Get(const State& s) {
  for (const auto& p : s) {
    if (auto* t = dynamic_cast<const T*>(p.get())) return *t;
  }
  static const T kEmpty;
  return kEmpty;
}

// The next phase of a game.
struct KindPhase {
  TurnPhase at;
  std::string name;       // "income", "move", "turn", ...
  std::string turn_name;  // "Spring 1805, turn 1", "move 3 of 12"
  bool last_of_turn = true;
};

// Where a game stands: the last turn begun and how many of its phases are
// done (correct, fork and digest compare positions with it).
struct Progress {
  Turn turn;
  uint16_t phase_done = 0;
  friend bool operator==(const Progress&, const Progress&) = default;
};

// What the dice directives check a turn against (replay/dice_commit.h).
struct DiceWindow {
  Turn next_turn;          // the turn orders are given for now
  bool next_begun = false; // some of its phases are already adjudicated
  Turn current;            // the last turn begun
  bool current_done = false;
};

// Emits a view row (view, entity, field, value): `adjutant replay`/`diff`.
using PutRow = std::function<void(const char* view, const std::string& entity, const char* field,
                                  const std::string& value)>;

// A new game's start: where its calendar begins, and the events recorded
// after GameCreated in its batch (the game's map).
struct GameStart {
  TurnPhase at;
  std::vector<Draft> more;
};

// What a player is told of a role of his that had no order standing for a
// turn (issue 20): what its book does in their place.
struct MissingOrders {
  std::string role;  // his role
  std::string slot;  // what got no order: a ship, a ministry, a nation, a side
  std::string rule;  // the book's rule for it, e.g. "PATE 4.11"
  std::string text;  // what happened (or happens) in their place
};

// An office a player may hold in a game of the kind: a role is
// "HOLDER.office" (projections::Role) — BR.naval, BR1FL.commander,
// AAA.ruler, British.general.
struct Office {
  std::string name;                // "naval"
  std::string holder_noun;         // what holds it: "state", "ship", "nation", "side"
  std::string rule;                // the book's rule that makes it, e.g. "SOW 2.1"
  // The scenario's ids that hold it; nullopt when the scenario lists none
  // to check against (an NWOL scenario without its `sow` opening position).
  std::optional<std::set<std::string>> holders;
};

class GameKind {
 public:
  virtual ~GameKind() = default;

  // The kind's name ("nwol", "y1820", "dog") and whether a scenario naming
  // these rulesets is a game of this kind.
  virtual std::string_view name() const = 0;
  virtual bool Plays(std::span<const std::string> rulesets) const = 0;
  // The rulesets a scenario of this kind may name, and those that number
  // their versions (rules/versions.h).
  virtual std::vector<std::string_view> Rulesets() const = 0;
  // The versions of a ruleset this kind defines outside the books' table
  // (rules/versions.cc): registered with the kind.
  virtual std::span<const VersionNote> Versions() const { return {}; }

  // Projections this kind adds to the common set (projections/projection.h
  // AllProjections); each must say applies() false in other kinds' games.
  virtual std::vector<std::unique_ptr<projections::Projection>> ExtraProjections() const { return {}; }

  // ---- creation ----
  // The schema table a game of this kind takes as its map (`create --map`);
  // "" for a kind that takes none.
  virtual std::string_view MapTable() const = 0;
  virtual std::string_view MapNoun() const { return "map"; }  // "the naval map"
  // Checks a scenario and its map (a verified MapTable() buffer, if given)
  // and gives the game's start; `*map_error` says the map is at fault.
  virtual Status Prepare(const fb::Scenario& sc, std::optional<std::vector<uint8_t>> map, GameStart* start,
                         bool* map_error) const = 0;
  // The offices of a game of this scenario (a verified buffer, asked before
  // Prepare checks it: ids may be missing or odd): every role a scenario's players are given must be one of them (`adjutant
  // new` refuses any other, replay/create.cc), so a mistyped role is not
  // silently a role that nothing answers to.
  virtual std::vector<Office> Offices(const fb::Scenario& sc) const = 0;
  // Checks a map document alone (a verified MapTable() buffer, `adjutant
  // map`) and describes it in a line.
  virtual Result<std::string> DescribeMap(const std::vector<uint8_t>&) const {
    return Status::InvalidArgument("a game of this kind takes no map");
  }
  // Whether a recorded event belongs to the game's creation (recorded in
  // GameCreated's batch, before anything given at the first turn).
  virtual bool PartOfCreation(const fb::Event&) const { return false; }

  // ---- the calendar ----
  // The phase to adjudicate next; an error naming why there is none (the
  // game has ended, or has nothing to adjudicate yet).
  virtual Result<KindPhase> Next(const State& s) const = 0;
  virtual bool Ended(const State& s) const = 0;
  // Where orders given now are recorded (the coming turn's orders window).
  virtual Result<TurnPhase> OrderPosition(const State& s) const = 0;
  // Where GA directives and passwords given now are recorded.
  virtual TurnPhase DirectivePosition(const State& s) const = 0;
  virtual Progress ProgressOf(const State& s) const = 0;
  // Whether turn `t` is over (its last phase adjudicated) in state `s`,
  // whose last begun turn is `t`.
  virtual bool TurnOver(const State& s, const Turn& t) const = 0;
  // After a turn's last phase, a phase that takes no orders and runs with
  // the turn before it (the NWOL season's end), if one comes next.
  virtual bool NextRunsWithTurnBefore(const State&) const { return false; }
  // An error when the game's dice cannot be committed to (no turns yet).
  virtual Result<DiceWindow> DiceWindowOf(const State& s) const = 0;

  // ---- adjudication ----
  // Emits phase `next` into `w`: PhaseStarted, the outcomes (rolling
  // `dice`), PhaseCompleted with every projection's digest.
  virtual Status RunPhase(PhaseWriter& w, const KindPhase& next, DiceSource& dice) const = 0;

  // ---- orders ----
  // The first item `person` may not give (not his ship, nation, side...),
  // whether or not it exists; nullopt when every item is his.
  virtual std::optional<size_t> FirstNotHis(const State& s, const std::string& person,
                                            const std::vector<const fb::OrderItem*>& items) const = 0;
  // Checks who gives the orders (before anything is emitted): an error is
  // a refusal of the whole file.
  virtual Status CheckSender(const State& s, const std::string& game, const std::string& person,
                             const std::vector<const fb::OrderItem*>& items) const = 0;
  // Whether a new order file from a sender replaces what he sent before
  // for the turn, as a whole (y1820, Y1.3) — so that orders given again
  // (correct, fork --with-orders) go in file by file as they were sent.
  virtual bool FilesReplace() const { return false; }
  // Emits the orders' events — OrderSubmitted, then OrderRejected or
  // OrderSuperseded — at `at`, through IntakeOrders (rules/intake.h) with
  // the kind's OrderJudge.
  virtual Status Submit(PhaseWriter& w, const TurnPhase& at, const std::string& person,
                        const std::vector<const fb::OrderItem*>& items) const = 0;

  // For each of `roles` (one person's) that had no order standing for the
  // turn whose orders window `s` holds (the state as it closed): what the
  // book does in their place. `stood`: the slots with an order standing
  // (anyone's); `roles_stood`: the roles with an order of theirs standing.
  // Default: each role without an order standing, with no rule.
  virtual std::vector<MissingOrders> OrdersNotGiven(const State& s, std::span<const std::string> roles,
                                                    const std::set<std::string>& stood,
                                                    const std::set<std::string>& roles_stood) const;

  // ---- GA directives ----
  // Checks a directive against the state (nothing emitted): bodies of other
  // kinds, a rule it breaks. Dice and password directives are the driver's.
  // `versions`: the rules versions it is judged under (the game's; a
  // conformance case's own, replay/conform.cc).
  virtual Status CheckDirective(const State& s, const std::string& game, const fb::DirectiveFile& d,
                                const RulesVersions& versions) const = 0;
  // Emits the directive's event (`directive`, as the driver built it: the
  // kind puts the writer Under its ruleset, which Emit stamps) and its
  // consequences.
  virtual Status RecordDirective(PhaseWriter& w, const TurnPhase& at, Draft directive,
                                 const fb::DirectiveFile& d) const = 0;

  // ---- views ----
  // The kind's rows of `adjutant replay` / `diff` (the roster's are common),
  // and the names of its views.
  virtual void Flatten(const State& s, const PutRow& put) const = 0;
  virtual std::vector<std::string_view> ViewNames() const = 0;
  // The projections (by name()) the rows of view `view` come from, so that
  // `replay`/`diff --view V` fold only those (with the summary, which names
  // the kind). Empty: every projection (the default).
  virtual std::vector<std::string_view> ViewProjections(std::string_view view) const {
    (void)view;
    return {};
  }
};

// A phase as a kind whose phases are all one ruleset's writes it:
// PhaseStarted, the outcomes `outcomes` emits, PhaseCompleted with every
// projection's digest — both from the adjudicator; the whole phase is
// under `ruleset` (PhaseWriter::Under), which Emit stamps with its version.
Status EmitPhase(PhaseWriter& w, const KindPhase& phase, std::string_view ruleset,
                 const std::function<Status()>& outcomes);

// The rules versions a game goes on under: each ruleset's last recorded
// version, the newest for a ruleset with none yet (rules/versions.h).
RulesVersions GameVersionsOf(const State& s);
RulesVersions GameVersionsOf(const projections::SummaryState& summary);

// Text of view rows: "a,b,c"; "name:count,..."; "1,2,3".
std::string JoinRow(const std::vector<std::string>& xs);
std::string CountsRow(const std::map<std::string, int32_t>& m);
std::string IntsRow(const std::vector<int32_t>& v);

// Whether a scenario's rulesets name `ruleset` (a kind that plays one book
// alone asks this in Plays).
bool NamesRuleset(std::span<const std::string> rulesets, std::string_view ruleset);

// The kinds there are, in registry order (rules/kinds.cc).
std::span<const GameKind* const> AllKinds();
// The kind of that name ("nwol", "y1820", ...); nullptr for none.
const GameKind* KindNamed(std::string_view name);
// The kind a scenario's rulesets name; nullptr for none.
const GameKind* KindFor(std::span<const std::string> rulesets);
// The kind of a folded game (from its GameCreated's rulesets, as the
// summary projection holds them); nullptr before GameCreated or for none.
const GameKind* KindOf(const State& s);
// Every projection a game may have: the common set and each kind's own.
State AllKindProjections();
// Every ruleset some kind plays.
std::vector<std::string_view> KnownRulesets();

// Adds a kind to the registry (a kind built outside rules/, e.g. the test
// suite's; the three books' kinds are listed in rules/kinds.cc). Not
// thread-safe: call before any game is folded.
void RegisterKind(const GameKind* kind);

}  // namespace adjutant::rules
