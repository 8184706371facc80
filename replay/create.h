// What a game is created with, whatever its rulesets: the checks `adjutant
// new` and the conformance runner apply to a scenario and its map, the
// position the calendar starts at, and the events recorded with
// GameCreated (the naval map of a sow/pate game, the province map of a
// y1820 one; a dog battle carries its table in the scenario).
#pragma once

#include <optional>
#include <vector>

#include "base/status.h"
#include "base/turn.h"
#include "schema/draft.h"

namespace adjutant::fb { struct Scenario; }

namespace adjutant::replay {

struct GameStart {
  TurnPhase at;
  std::vector<Draft> more;  // recorded after GameCreated, in its batch
  bool y1820 = false;
};

bool IsY1820Scenario(const fb::Scenario& sc);
bool IsDogScenario(const fb::Scenario& sc);

// `map` is a finished buffer: a Y1820Map for a y1820 scenario, else a
// NavalMap (or none). Errors name the field; the caller adds the file.
// `map_error` is set when the fault is the map's rather than the scenario's.
Result<GameStart> PrepareGame(const fb::Scenario& sc, std::optional<std::vector<uint8_t>> map, bool* map_error);

}  // namespace adjutant::replay
