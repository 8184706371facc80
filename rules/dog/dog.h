// The dog ruleset (Death or Glory tactical battles): a battle is a game of
// its own whose turns are moves (D12). This part: the calendar, a side's
// orders (each unit's intention for the coming move, checked against the
// charts), and the checks of a battle scenario. Section numbers are
// rules/dog/RULES.md's.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/turn.h"
#include "projections/battle.h"
#include "rules/dice.h"
#include "rules/phase_writer.h"

namespace adjutant::fb {
struct Scenario;
struct OrderItem;
struct DogIntent;
struct DogDirective;
}  // namespace adjutant::fb

namespace adjutant::rules::dog {

inline constexpr std::string_view kRuleset = "dog";
// Version 2 (rules/versions.cc): flanks, rear, cover and secure flanks in
// morale tests; movement and fire in control tests; control results binding
// from the next move; retire, battery refacing, re-forming, single ranks,
// shaken squares; commanders riding with a unit and their deaths tested.
inline constexpr uint32_t kFlanksVersion = 2;
// Version 3 (rules/versions.cc, issue 19): friends falling back (D6.5) or
// retiring (D11.6) within 150 mm bring a D5.4 test as a rout does; D7.11
// counts every routing unit within 150 mm, of either side; a wood on a slope
// takes both D3 reductions (a share of the rate the other leaves).
inline constexpr uint32_t kRetreatsVersion = 3;
// Version 4 (rules/versions.cc): a unit charged this move that loses the
// round of melee its charger won tests morale (D5.3) as a unit being
// charged: attacked from the rear (D7.8), by cavalry (D7.9, D7.16),
// receiving a charge (D7.15), as its D5.1 test does (version 3: none of them).
inline constexpr uint32_t kChargedLoserVersion = 4;
// Version 5 (rules/versions.cc): D6.5 whatever the test: a unit shaken
// before movement (step 0, a commander's death) makes no charge and no
// advance this move; a unit defending (charged this move) that is shaken
// after movement (the melee round it lost, casualties, friends retreating)
// falls back 50 mm unless in square (version 4: only at a charge's
// declaration); a square does not charge by order (version 4: it did).
inline constexpr uint32_t kShakenEffectsVersion = 5;
// Version 6 (rules/versions.cc): D3: a unit that starts its move inside a
// wood, a building or a slope has not entered it: no building deduction, no
// cohesion penalty for it again (version 5 charged both on every move that
// began inside, as if it had just come in).
inline constexpr uint32_t kStartsInsideVersion = 6;
// Version 7 (rules/versions.cc): D2: a unit walks its path in steps of
// 5 mm rounded to the nearest mm and pays each step's exact length (version
// 6 cut each step toward zero and paid its length cut to whole mm: a move
// at an angle went up to 12% beyond its allowance and bent off its line).
inline constexpr uint32_t kExactStepsVersion = 7;
// Version 7: D5, D13: a charge reaches when the charger's block ends within
// kContactMm of its target's block, from whatever side (version 6 measured
// from the charger's front centre to the target's front centre, allowing the
// target's depth: a deep column or square met from the front counted as
// reached from 100 mm and more short of it).
inline constexpr uint32_t kContactBlocksVersion = 7;
// Version 7: D5 (reading): a unit charged this move that holds (not shaken or
// broken by its test) and makes no charge of its own moves before the other
// units, so its charger goes in at where it then stands (version 6: all in id
// order: a target before its charger walked away, one after it was caught).
inline constexpr uint32_t kTargetsMoveFirstVersion = 7;
// Version 7: D11: a unit bound to stand keeps what does not advance it — a
// formation change, a refacing; only its path and its charge are refused
// (version 6 refused the whole intention).
inline constexpr uint32_t kStandKeepsFormationVersion = 7;
// Version 7: D2.10: a unit ordered to a new facing walks its path with it,
// so the units in its way are judged by the block it ends the move as
// (version 6 judged them by the block it began with, then turned it).
inline constexpr uint32_t kWalkFacingVersion = 7;
// Version 8: D5.4: a unit that went back this move (D6.5, D11.6) tests for
// the friends retreating in the same wave as its own going back - the others
// that went back and the units that broke earlier in the move - so two shaken
// defenders side by side test for each other; one a test of the wave sends
// back starts the next wave from where it then stands (version 7 skipped
// every unit of the wave as a tester).
inline constexpr uint32_t kWaveTestsVersion = 8;
// Version 9: D7.8, D7.9/D7.16, D7.15, D7.18: a unit a charge reached this
// move (contact, D13) is still being charged, and a charger that reached its
// target still charging, for every morale test it takes after the charges:
// the round of melee it lost (D5.3), its casualties (D5.5, D5.7) and friends
// retreating (D5.4) - from the rear when a charger set out behind where it
// stands as it tests, by cavalry, a charge received (British), charging
// cavalry (version 8: D5.3 alone, and there only a loser against the unit
// that charged it; the casualty and D5.4 tests of a unit charged, and every
// later test of a charger, had none of them). A charge that fell short is over.
inline constexpr uint32_t kChargeContextVersion = 9;
// Version 9: D7.14 (a reading of "to the rear"): a unit is supported by a
// formed friend within 150 mm in its rear arc (D12.8, beyond 135 degrees of
// its facing, from the units' centres); version 8 counted any friend behind
// its front line, so a friend on a flank a little behind it counted toward
// secure flanks (D7.13) and gave support too.
inline constexpr uint32_t kSupportFromRearVersion = 9;
// Version 10: D2.10: a unit turns where it stands (a new facing with no path,
// or a path whose first step is barred, a refacing battery, one bound to
// stand) only if the block it turns into overlaps no other unit; else it
// keeps its facing, stopped by the unit in the way (version 9 turned it into
// the other's block).
inline constexpr uint32_t kTurnClearVersion = 10;

// D12: where a side's orders for the coming move are recorded.
TurnPhase OrderPosition(const projections::BattleState& s);

inline constexpr uint16_t kMovePhase = 1;  // D12.1: one phase a move

// D12.1: the next move to adjudicate; nullopt once the battle has ended.
struct NextMove {
  TurnPhase at;
  int32_t move = 0;
};
std::optional<NextMove> Next(const projections::BattleState& s);

// D12.4: adjudicates a move into `w` (the driver adds PhaseStarted and
// PhaseCompleted): control results and routs bind intentions, formation
// changes, charges declared and tested, movement, fire (D14), melee (D13),
// morale, rout moves, control, fatigue (D15), the end of the battle.
Status RunMove(PhaseWriter& w, const NextMove& next, DiceSource& dice);

// The side a person gives orders for: his "<SIDE>.general" role.
std::optional<std::string> SideOf(const projections::BattleState& s, const std::set<std::string>& roles,
                                  const std::string& asked_role);

// Why an intention can never stand (a unit of another side, a formation the
// charts do not allow, a point off the table …): {rule, reason}, or nullopt.
// `version` is the dog rules version the game runs under (rules/versions.cc).
std::optional<std::pair<std::string, std::string>> Refusal(const projections::BattleState& s, const std::string& side,
                                                           const fb::DogIntent& i, uint32_t version = kFlanksVersion);

// Records one order file of `side` (its general `person`): an OrderSubmitted
// for each intention, refused at once (OrderRejected) when it can never
// stand; a later intention for a unit replaces the earlier one.
void Submit(PhaseWriter& w, const TurnPhase& at, const std::string& person, const std::string& role,
            const std::string& side, const std::vector<const fb::OrderItem*>& items);

// A GA's DogDirective, checked (the battle projection folds it): a unit put
// on the table elsewhere (a correction), a commander killed (his rating and
// control no longer count).
Status CheckDirective(const projections::BattleState& s, const fb::DogDirective& d);

// D0: a battle scenario, checked before a game is made of it.
Status CheckScenario(const fb::Scenario& sc);

// D12 (ASSUMED): the frontage of a unit in mm when the scenario gives none:
// infantry in line 0.6 mm a file (three ranks; two for the British), in
// column of divisions 60, column of march 20, square a side of a quarter of
// its files; skirmishers in a loose line 2 mm a man; cavalry in line 1 mm a
// file of two ranks, in column 30; a battery 20 mm a gun (20 men a gun).
int Frontage(const projections::DogUnitState& u);
inline constexpr int kMenPerGun = 20;        // D12 (ASSUMED): a battery's strength is 20 men a gun
inline constexpr int kMmPerFileTenths = 6;   // D12 (ASSUMED): 0.6 m (mm of table) a file of infantry

// D3: linear features (crossed) as against areas (entered).
bool IsLinear(uint8_t terrain_kind);

}  // namespace adjutant::rules::dog
