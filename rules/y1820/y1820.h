// The y1820 ruleset (the 1820–1840 grand-strategy game): its calendar, its
// one adjudication phase a turn, the intake of a nation's orders, the GA's
// directives and the checks of a scenario and map. Rules are pure: state
// (the y1820 projection, through the PhaseWriter), orders and dice in,
// events out. Section numbers Y1…Y15 are rules/y1820/RULES.md's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/turn.h"
#include "projections/y1820.h"
#include "rules/dice.h"
#include "rules/phase_writer.h"

namespace adjutant::fb {
struct Scenario;
struct Y1820Map;
struct Y1820Directive;
struct OrderItem;
}  // namespace adjutant::fb

namespace adjutant::rules::y1820 {

inline constexpr std::string_view kRuleset = "y1820";
inline constexpr uint16_t kTurnPhase = 1;  // Y1.3: one phase a turn

struct NextPhase {
  TurnPhase at;
  int32_t index = 0;      // 0 = Pre-1820, 1 … 252 (1840.12)
  std::string name;       // "deployment" (turn 0) or "turn"
  std::string turn_name;  // "1820.3 (turn 3)"
};

// Y1: the next phase to adjudicate; nullopt once the game has ended.
std::optional<NextPhase> Next(const projections::Y1820State& s);
// Where orders and directives for the coming turn are recorded.
TurnPhase OrderPosition(const projections::Y1820State& s);

// Runs the phase into `w` (outcomes only; the driver adds PhaseStarted and
// PhaseCompleted).
Status RunPhase(PhaseWriter& w, const NextPhase& next, DiceSource& dice);

// Records one order file of `nation` (its ruler `person`): an OrderSubmitted
// for each order, refused at once (OrderRejected naming the section) when it
// can never stand; a nation's new file supersedes what it sent before for
// the same turn.
void Submit(PhaseWriter& w, const TurnPhase& at, const std::string& person, const std::string& role,
            const std::string& nation, const std::vector<const fb::OrderItem*>& items);

// A GA directive: refused (nothing appended) when it breaks a rule; else its
// consequences.
Status CheckDirective(const projections::Y1820State& s, const fb::Y1820Directive& d);
void DirectiveConsequences(PhaseWriter& w, const TurnPhase& at, const fb::Y1820Directive& d);

// The province map recorded with the game's creation (a finished Y1820Map buffer).
Draft MapDefinedDraft(const TurnPhase& at, std::vector<uint8_t> map_buffer);

// A map and a scenario, checked before a game is made of them.
Status CheckMap(const fb::Y1820Map& m);
Status CheckScenario(const fb::Scenario& sc, const fb::Y1820Map* m);

// The nation a person orders for: the prefix of his "<NATION>.ruler" role.
std::optional<std::string> NationOf(const projections::Y1820State& s, const std::set<std::string>& roles,
                                    const std::string& asked_role);

}  // namespace adjutant::rules::y1820
