// Map documents: the GA checks a naval map before putting it in a scenario.
#include "base/limits.h"
#include "cli/common.h"
#include "rules/pate/map.h"
#include "schema/pate_generated.h"

namespace adjutant::cli {
namespace {

Status CmdMap(Context& c) {
  const std::string& file = c.args.positional[0];
  auto doc = ReadDocument(file, "NavalMap", limits::kScenarioFileBytesMax);
  if (!doc.ok()) return doc.status();
  auto m = rules::pate::NavalMap::Load(*flatbuffers::GetRoot<fb::NavalMap>(doc->data()));
  if (!m.ok()) return Status::InvalidArgument(file + ": " + m.status().message());
  int areas[2] = {0, 0}, edge[2] = {0, 0}, ports[2] = {0, 0}, straits = 0;
  for (const auto& [code, a] : m->areas()) {
    areas[static_cast<int>(a.map)]++;
    edge[static_cast<int>(a.map)] += a.atlantic;
  }
  for (const auto& [name, p] : m->ports()) {
    ports[static_cast<int>(m->Area(p.sea_area)->map)]++;
    straits += !p.strait_area.empty();
  }
  Line(file + ": a sound map: Europe " + std::to_string(areas[0]) + " sea areas (" + std::to_string(edge[0]) +
       " on the Atlantic edge) and " + std::to_string(ports[0]) + " ports; America " + std::to_string(areas[1]) +
       " sea areas (" + std::to_string(edge[1]) + " on the edge) and " + std::to_string(ports[1]) + " ports; " +
       std::to_string(straits) + " strait ports");
  return Status::Ok();
}

}  // namespace

std::vector<Command> MapCommands() {
  return {
      {{"map", "FILE", "Check a naval map against the rules of PATE 1 and 6.\n"
                       "FILE is JSON in the schema's NavalMap form. Every neighbour must exist and see the area back, winds sum to 100 per area, strait ports\n"
                       "join adjacent areas, and each map has an Atlantic edge.",
        {}, 1, 1},
       CmdMap},
  };
}

}  // namespace adjutant::cli
