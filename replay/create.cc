#include "replay/create.h"

#include <string>

#include "schema/scenario_generated.h"
#include "schema/values.h"

namespace adjutant::replay {

Result<const rules::GameKind*> KindOfScenario(const fb::Scenario& sc) {
  std::vector<std::string> rulesets;
  if (sc.rulesets()) for (const auto* r : *sc.rulesets()) rulesets.push_back(r->str());
  if (const rules::GameKind* k = rules::KindFor(rulesets)) return k;
  std::string known;
  for (std::string_view r : rules::KnownRulesets()) known += (known.empty() ? "" : ", ") + std::string(r);
  std::string named;
  for (const auto& r : rulesets) named += (named.empty() ? "" : ", ") + r;
  return Status::InvalidArgument("rulesets: no kind of game plays " + named + " together (known rulesets: " + known + ")");
}

Result<GameStart> PrepareGame(const fb::Scenario& sc, std::optional<std::vector<uint8_t>> map, bool* map_error) {
  GameStart g;
  *map_error = false;
  if (auto* st = sc.start()) g.at.turn = schema::TurnOf(st);
  auto kind = KindOfScenario(sc);
  if (!kind.ok()) return kind.status();
  ADJ_RETURN_IF_ERROR((*kind)->Prepare(sc, std::move(map), &g, map_error));
  return g;
}

}  // namespace adjutant::replay
