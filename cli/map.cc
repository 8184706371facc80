// Map documents: the GA checks a game's map (a naval map for the NWOL game,
// a province map for y1820) before putting it in a scenario; the kind of
// game checks and describes it (rules/kind.h DescribeMap).
#include "base/limits.h"
#include "cli/common.h"
#include "rules/kind.h"

namespace adjutant::cli {
namespace {

Status CmdMap(Context& c) {
  const std::string& file = c.args.positional[0];
  std::string name = c.args.Value("kind").value_or("nwol");
  if (c.args.Flag("y1820")) name = "y1820";  // the older spelling
  const rules::GameKind* kind = rules::KindNamed(name);
  if (!kind || kind->MapTable().empty()) {
    std::string with;
    for (const rules::GameKind* k : rules::AllKinds()) {
      if (!k->MapTable().empty()) with += (with.empty() ? "" : ", ") + std::string(k->name());
    }
    return Status::InvalidArgument("--kind: '" + name + "' is no kind of game with a map (" + with + ")");
  }
  auto doc = ReadDocument(file, std::string(kind->MapTable()), limits::kScenarioFileBytesMax);
  if (!doc.ok()) return doc.status();
  auto line = kind->DescribeMap(*doc);
  if (!line.ok()) return Status::InvalidArgument(file + ": " + line.status().message());
  Line(file + ": " + *line);
  return Status::Ok();
}

}  // namespace

std::vector<Command> MapCommands() {
  return {
      {{"map", "FILE [--kind K | --y1820]", "Check a game's map: by default (--kind nwol) a naval map against the rules of PATE 1 and 6.\n"
                       "FILE is JSON in the schema's NavalMap form. Every neighbour must exist and see the area back, winds sum to 100 per area, strait ports\n"
                       "join adjacent areas, and each map has an Atlantic edge.\n"
                       "With --y1820, FILE is a province map (Y1820Map, rules/y1820/RULES.md Y0): provinces numbered once, coastal\n"
                       "exactly when touching a sea zone, borders between two provinces of the map (land, mountain or water), sea zones\n"
                       "listing each other back.",
        {{"kind", "K", "the kind of game whose map FILE is (nwol, y1820)"}, {"y1820", "", "FILE is a y1820 province map (--kind y1820)"}}, 1, 1,
        "Check a game's map against the rules (by default a naval map: PATE 1 and 6)."},
       CmdMap},
  };
}

}  // namespace adjutant::cli
