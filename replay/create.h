// A new game: its scenario (and map) checked by the kind of game its
// rulesets name, and the events recorded with GameCreated.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
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

// `new --rules-version SPEC` (and a conformance case's rules_version): the
// version of each ruleset of a game of `kind` that numbers its versions,
// for GameCreated to pin (ledger::Ledger::CreateGame). SPEC is adjudicate's
// form ("sow=1,pate=1", or a bare "2"); it may name only the game's
// rulesets, and a bare number must be a version of every one of them.
using VersionPins = std::vector<std::pair<std::string, uint32_t>>;
Result<VersionPins> PinVersions(const rules::GameKind& kind, std::string_view spec);
// The events recorded with GameCreated (a map) carry the pinned versions.
void StampPinned(std::span<Draft> more, const VersionPins& pins);

}  // namespace adjutant::replay
