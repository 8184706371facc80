// A Death or Glory battle's state (ruleset dog): the table and its terrain,
// every unit's position, facing, formation, cohesion, fatigue, strength and
// casualties, the formation change under way, the moves a control result
// binds it for, the commanders, the move reached, and each unit's intention
// standing for the coming move. A pure fold of GameCreated, DogEvent and dog
// orders; the battle view (reports/dog.cc) renders it. Inactive (left out of
// every PhaseCompleted's digests) in games without the dog ruleset.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/turn.h"
#include "projections/projection.h"

namespace adjutant::projections {

struct DogXY {
  int32_t x = 0, y = 0;
  friend bool operator==(const DogXY&, const DogXY&) = default;
};

struct DogTerrainState {
  std::string id;
  uint8_t kind = 0;            // fb::DogTerrainKind
  std::vector<DogXY> points;
  int32_t uphill = 0;
  friend bool operator==(const DogTerrainState&, const DogTerrainState&) = default;
};

struct DogUnitState {
  std::string side, name, commander;
  uint8_t nation = 0, arm = 0, cls = 0, formation = 0, cohesion = 0, fatigue = 0;  // fb enums
  int32_t strength = 0, start_strength = 0;  // men
  int32_t x = 0, y = 0, facing = 0, frontage = 0;
  int32_t morale = 0, control = 0;
  bool shaken = false, routing = false, gone = false;  // gone: off the table or destroyed
  int16_t changing_to = -1;                    // D1: the formation it is changing to (-1: none)
  int32_t change_done = 0, change_time = 0;    // quarters of a move
  std::string bound;                           // D11: "pursue", "stand", "retire", "" (follows orders)
  int32_t bound_moves = 0;                     // the moves after the one it was set in that it binds
  int32_t bound_set_in = 0;                    // the move the control test that set it was taken in
  int32_t reform_done = 0, reform_time = 0;    // D1.8, D1.9: quarters of a re-forming (0, 0: none under way)
  int32_t ranks = 0;                           // foot in line: 0 the nation's (2 British, 3 others), 1 a single rank
  std::vector<int32_t> melee_wins;             // the moves it won a round of melee in
  std::string melee_with;                      // D13: the unit it last fought a round with,
  int32_t melee_move = 0, melee_round = 0;     // in which move, and which round of that melee
  friend bool operator==(const DogUnitState&, const DogUnitState&) = default;
};

struct DogCommanderState {
  std::string side, name;
  int32_t rating = 0, control = 0, x = 0, y = 0;
  bool lost = false;
  bool tests_due = false;  // killed: the D5.6 and D8.2 tests are to be taken at the start of the next move
  std::string with;        // D12.7: the unit he rides with (he moves with it); "" none
  friend bool operator==(const DogCommanderState&, const DogCommanderState&) = default;
};

// A unit's intention standing for the coming move (schema DogIntent).
struct DogIntentState {
  uint64_t seq = 0;
  std::string side;
  bool change_formation = false;
  uint8_t formation = 0;
  int32_t face = -1;
  std::vector<DogXY> path;
  std::string charge;
  bool hold = false;
  bool reform = false;
  friend bool operator==(const DogIntentState&, const DogIntentState&) = default;
};

struct DogDisplaced {
  std::string unit;
  DogIntentState intent;
  friend bool operator==(const DogDisplaced&, const DogDisplaced&) = default;
};

struct BattleState {
  uint64_t last_seq = 0;
  bool active = false;
  int32_t width = 0, height = 0, max_moves = 0;
  std::vector<std::string> sides;
  std::vector<DogTerrainState> terrain;
  std::map<std::string, DogCommanderState> commanders;
  std::map<std::string, DogUnitState> units;
  int32_t moves_done = 0;
  bool ended = false;
  std::string end_reason, winner;
  std::map<std::string, DogIntentState> intents;  // unit → its intention for the coming move
  // An intention displaced by a newer one not yet accepted, by the newer one's
  // seq: a refused order (OrderRejected) gives it back (dog version 2).
  std::map<uint64_t, DogDisplaced> displaced;
  friend bool operator==(const BattleState&, const BattleState&) = default;

  const DogUnitState* Unit(const std::string& id) const;
};

class Battle final : public Fold<BattleState> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<Battle>(*this); }
  std::string_view name() const override { return "battle"; }
  uint32_t version() const override { return 2; }
  bool applies() const override { return s_.active; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;
};

// D12: the move coordinates: move m of a battle is Turn{1, m, 0} (move 0:
// the battle as it stands before the first move).
Turn DogMove(int32_t m);

}  // namespace adjutant::projections
