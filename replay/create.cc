#include "replay/create.h"

#include <set>
#include <string>

#include "projections/battle.h"
#include "projections/y1820.h"
#include "rules/dog/dog.h"
#include "rules/pate/map.h"
#include "rules/sow/scenario.h"
#include "rules/y1820/y1820.h"
#include "schema/event_generated.h"
#include "schema/pate_generated.h"

namespace adjutant::replay {

bool IsY1820Scenario(const fb::Scenario& sc) {
  if (sc.rulesets()) {
    for (const auto* r : *sc.rulesets()) if (r->str() == "y1820") return true;
  }
  return false;
}

bool IsDogScenario(const fb::Scenario& sc) {
  if (sc.rulesets()) {
    for (const auto* r : *sc.rulesets()) if (r->str() == "dog") return true;
  }
  return false;
}

Result<GameStart> PrepareGame(const fb::Scenario& sc, std::optional<std::vector<uint8_t>> map, bool* map_error) {
  GameStart g;
  *map_error = false;
  if (auto* st = sc.start()) g.at.turn = {st->major(), st->minor(), st->step()};
  if (IsDogScenario(sc)) {
    // D12: move 0 is the battle as it stands before the first move.
    if (map) {
      *map_error = true;
      return Status::InvalidArgument("a battle's table and terrain are in its scenario (dog); it takes no --map");
    }
    g.at = TurnPhase{projections::DogMove(0), 0};
    ADJ_RETURN_IF_ERROR(rules::dog::CheckScenario(sc));
    return g;
  }
  if (IsY1820Scenario(sc)) {
    // Y0: the province map, recorded with the game; the calendar starts at turn 0 (Y1.1).
    g.y1820 = true;
    g.at = TurnPhase{projections::Y1820Turn(0), 0};
    const fb::Y1820Map* m = map ? flatbuffers::GetRoot<fb::Y1820Map>(map->data()) : nullptr;
    if (m) {
      if (auto st = rules::y1820::CheckMap(*m); !st.ok()) {
        *map_error = true;
        return st;
      }
    }
    ADJ_RETURN_IF_ERROR(rules::y1820::CheckScenario(sc, m));
    g.more.push_back(rules::y1820::MapDefinedDraft(g.at, std::move(*map)));
    return g;
  }
  std::set<std::string> map_areas;
  if (map) {
    // The naval map, recorded with the game (PATE 1).
    auto loaded = rules::pate::NavalMap::Load(*flatbuffers::GetRoot<fb::NavalMap>(map->data()));
    if (!loaded.ok()) {
      *map_error = true;
      return loaded.status();
    }
    ADJ_RETURN_IF_ERROR(rules::pate::CheckScenarioAgainstMap(sc, *loaded));
    for (const auto& [code, area] : loaded->areas()) map_areas.insert(code);
    g.more.push_back(rules::pate::MapDefinedDraft(g.at, std::move(*map)));
  }
  ADJ_RETURN_IF_ERROR(rules::sow::CheckScenario(sc, map_areas));
  return g;
}

}  // namespace adjutant::replay
