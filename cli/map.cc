// Map documents: the GA checks a naval map (sow/pate) or a province map
// (y1820) before putting it in a scenario.
#include "base/limits.h"
#include "cli/common.h"
#include "rules/pate/map.h"
#include "rules/y1820/y1820.h"
#include "schema/pate_generated.h"
#include "schema/y1820_generated.h"

namespace adjutant::cli {
namespace {

// Y0: a y1820 province map.
Status ProvinceMap(const std::string& file) {
  auto doc = ReadDocument(file, "Y1820Map", limits::kScenarioFileBytesMax);
  if (!doc.ok()) return doc.status();
  const auto* m = flatbuffers::GetRoot<fb::Y1820Map>(doc->data());
  if (auto st = rules::y1820::CheckMap(*m); !st.ok()) return Status::InvalidArgument(file + ": " + st.message());
  int populous = 0, coastal = 0, kinds[3] = {0, 0, 0};
  for (const auto* p : *m->provinces()) {
    populous += p->populous();
    coastal += p->coastal();
  }
  if (m->borders()) {
    for (const auto* b : *m->borders()) {
      std::string k = b->kind() ? b->kind()->str() : "land";
      kinds[k == "mountain" ? 1 : k == "water" ? 2 : 0]++;
    }
  }
  Line(file + ": a sound province map: " + std::to_string(m->provinces()->size()) + " provinces (" +
       std::to_string(populous) + " populous, " + std::to_string(coastal) + " coastal), " + std::to_string(kinds[0]) +
       " land borders, " + std::to_string(kinds[1]) + " mountain and " + std::to_string(kinds[2]) + " water crossings, " +
       std::to_string(m->seas() ? m->seas()->size() : 0) + " sea zones");
  return Status::Ok();
}

Status CmdMap(Context& c) {
  const std::string& file = c.args.positional[0];
  if (c.args.Flag("y1820")) return ProvinceMap(file);
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
      {{"map", "FILE [--y1820]", "Check a naval map against the rules of PATE 1 and 6.\n"
                       "FILE is JSON in the schema's NavalMap form. Every neighbour must exist and see the area back, winds sum to 100 per area, strait ports\n"
                       "join adjacent areas, and each map has an Atlantic edge.\n"
                       "With --y1820, FILE is a province map (Y1820Map, rules/y1820/RULES.md Y0): provinces numbered once, coastal\n"
                       "exactly when touching a sea zone, borders between two provinces of the map (land, mountain or water), sea zones\n"
                       "listing each other back.",
        {{"y1820", "", "FILE is a y1820 province map"}}, 1, 1},
       CmdMap},
  };
}

}  // namespace adjutant::cli
