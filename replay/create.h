// A new game: its scenario (and map) checked by the kind of game its
// rulesets name, and the events recorded with GameCreated.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/turn.h"
#include "rules/kind.h"

namespace adjutant::fb { struct Scenario; }

namespace adjutant::replay {

using rules::GameStart;

// The kind of game a scenario's rulesets name (rules/kind.h); an error
// naming the rulesets there are when none plays them.
Result<const rules::GameKind*> KindOfScenario(const fb::Scenario& sc);

Result<GameStart> PrepareGame(const fb::Scenario& sc, std::optional<std::vector<uint8_t>> map, bool* map_error);

}  // namespace adjutant::replay
