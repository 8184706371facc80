// `adjutant report`: the command line's reports, a thin front on the reports
// library (reports/reports.h): its options read into a typed request, the
// GA's viewer (or, with --as, the person's own after his password), the
// answer printed (and drawn with --svg).
#include <optional>
#include <string>
#include <vector>

#include "cli/common.h"
#include "cli/report_common.h"
#include "replay/driver.h"
#include "reports/reports.h"

namespace adjutant::cli {
namespace {

Status CmdReport(Context& c) {
  const std::string& kind = c.args.positional[0];
  const std::string& game = c.args.positional[1];
  bool player = kind == "events" || kind == "positions" || kind == "orders" || kind == "choices";
  bool y1820 = kind == "map" || kind == "nation";
  // Each report's own options; another's is refused rather than ignored.
  if (kind == "battle") {
    for (const char* o : {"state", "player", "as", "password-file", "nation", "turn"}) {
      if (c.args.Value(o)) return Status::InvalidArgument("report battle: --" + std::string(o) + " does not apply to it");
    }
    if (c.args.Flag("public")) return Status::InvalidArgument("report battle: --public does not apply to it");
  } else {
    for (const char* o : {"side", "move"}) {
      if (kind == "orders" && std::string(o) == "move") continue;  // a battle's move
      if (c.args.Value(o)) return Status::InvalidArgument("report " + kind + ": --" + std::string(o) + " does not apply to it");
    }
    if (!player && !y1820 && kind != "treasury" && kind != "fleet") {
      return Status::InvalidArgument("adjutant report: no report '" + kind +
                                     "' (reports: treasury, fleet, events, positions; y1820: map, nation; dog: battle; "
                                     "every kind: orders, choices)");
    }
  }
  if (y1820) {
    std::vector<std::string> not_here = {"state", "player", "as", "password-file"};
    if (kind == "nation") not_here.push_back("svg");
    if (kind == "map") not_here.insert(not_here.end(), {"nation"});
    for (const auto& o : not_here) {
      if (c.args.Value(o)) return Status::InvalidArgument("report " + kind + ": --" + o + " does not apply to it");
    }
    if (kind == "map" && c.args.Flag("public")) return Status::InvalidArgument("report map: --public does not apply to it (the map is public)");
  } else if (kind != "battle") {
    if (c.args.Flag("public")) return Status::InvalidArgument("report " + kind + ": --public does not apply to it");
    if (c.args.Value("nation")) return Status::InvalidArgument("report " + kind + ": --nation does not apply to it");
    std::vector<std::string> foreign = {"state"};
    if (!player) foreign = {"player", "as", "password-file", "svg"};
    if (kind == "events" || kind == "orders" || kind == "choices") foreign.push_back("svg");
    if (kind == "choices") foreign.push_back("turn");  // what his forms offer now
    for (const auto& o : foreign) {
      if (c.args.Value(o)) return Status::InvalidArgument("report " + kind + ": --" + o + " does not apply to it");
    }
  }
  auto as = c.args.Value("as");
  if (player && c.args.Value("player").has_value() == as.has_value()) {
    return Status::InvalidArgument("report " + kind + ": give --player P (the GA) or --as P (the player)");
  }
  if (kind == "treasury" && !c.args.Value("state")) {
    return Status::InvalidArgument("adjutant report treasury: --state S is required");
  }
  if (kind == "nation" && !c.args.Value("nation")) {
    return Status::InvalidArgument("adjutant report nation: --nation N is required");
  }

  reports::Request rq;
  rq.kind = *reports::KindNamed(kind);
  rq.game = game;
  rq.branch = BranchArg(c, game);
  rq.turn = c.args.Value("turn");
  rq.move = c.args.Value("move");
  rq.state = c.args.ValueOr("state", "");
  rq.player = c.args.ValueOr("player", as.value_or(""));
  rq.nation = c.args.ValueOr("nation", "");
  rq.side = c.args.ValueOr("side", "");
  rq.public_only = c.args.Flag("public");
  rq.format = c.args.Flag("json") ? reports::Format::kJson : reports::Format::kText;
  const auto svg_path = c.args.Value("svg");
  if (svg_path && *svg_path == "-") rq.format = reports::Format::kSvg;  // the drawing alone on the output
  else if (svg_path) rq.drawing_too = true;

  reports::Viewer viewer = reports::Ga();
  std::optional<DbRef> db;
  if (as) {
    // As `adjutant order --as` does, against the password as it is now,
    // before anything of the game is looked at; then his reports as he
    // himself may read them.
    auto pw = ReadPassword(c.args, "password for " + *as + ": ");
    if (!pw.ok()) return pw.status();
    auto opened = OpenDb(c, false);
    if (!opened.ok()) return opened.status();
    db.emplace(std::move(opened).value());
    auto now = replay::Fold(**db, game, rq.branch);
    if (!now.ok()) return now.status();
    ADJ_RETURN_IF_ERROR(CheckPassword(now->roster(), game, *as, *pw));
    auto person = reports::PersonNow(**db, game, rq.branch, *as);
    if (!person.ok()) return person.status();
    viewer = std::move(person).value();
  } else {
    auto opened = OpenDb(c, false);
    if (!opened.ok()) return opened.status();
    db.emplace(std::move(opened).value());
  }
  auto report = reports::Build(**db, viewer, rq);
  if (!report.ok()) return report.status();
  if (rq.drawing_too) {
    bool to_stdout = false;
    ADJ_RETURN_IF_ERROR(WriteSvg(*svg_path, report->svg, kind == "battle" ? "the battle" : "the map", &to_stdout));
  }
  Out(report->body);
  return Status::Ok();
}

}  // namespace

std::vector<Command> ReportCommands() {
  return {
      {{"report", "treasury|fleet|events|positions|map|nation|battle|orders|choices GAME [--state S | --player P | --as P | --nation N | --side S] [--turn T | --move M] [--branch B] [--json] [--svg FILE]",
        "Print a report, now or as it stood at the end of a turn.\n"
        "treasury: a state's Treasury Ministry report (--state required): balance, the turn's statement\n"
        "line by line, manpower, militia and transport pools, men returning, builds in progress, standing\n"
        "orders and refused orders. fleet: the GA's view of every ship (or of --state's) with its\n"
        "location, base, commander, ratings and damage (PATE 2.2-2.4).\n"
        "events and positions: a player's two reports (PATE 3.11), from what his ships observed (PATE 5)\n"
        "and his own ships only: the ships he commands or is deputy of, and all his state's if he is its\n"
        "Naval Minister. events: everything his ships observed in turn T (default: the last turn anything\n"
        "was observed in). positions: his ships at the end of the turn with what each saw; --svg FILE\n"
        "also draws them on the naval map. --player P is the GA's view of P's reports; --as P is P\n"
        "himself, with his password (--password-file, $ADJUTANT_PASSWORD or a prompt, as for orders).\n"
        "map and nation (y1820 games): map: every province's owner, capital, improvements, armies and\n"
        "fleets, and the fleets at sea; --svg FILE draws it (provinces coloured by owner). nation: --nation\n"
        "N's government, capital, provinces, army limit and spawn points, reforms, technologies, wars and\n"
        "treaties, announcements; and what only its ruler sees (research, the reform pursued, its orders\n"
        "standing for the coming turn) unless --public.\n"
        "battle (dog): every unit's position, facing, formation, cohesion, fatigue, strength, casualties and\n"
        "the moves a control result binds it for, at the end of --move M (default: now); --side S is that\n"
        "side's report, with its units' intentions for the coming move; --svg FILE draws the table.\n"
        "orders (every kind of game): what became of a player's orders for turn T (a battle: --move M;\n"
        "default: the last turn adjudicated, else (or after a season's end) the coming one): each as received (stands, superseded,\n"
        "withdrawn, refused with its rule), and for each role of his with no order standing what the book\n"
        "does in their place (PATE 4.11 default orders, SOW 6.5 standing orders, Y1.3, D12.2).\n"
        "choices (every kind of game): what a player's order forms may offer him now (the order desk's pickers):\n"
        "his ships with the sea areas each may sail to first and the ships she may attach to (PATE 4.4, 6.2-6.4,\n"
        "6.11), the naval map's areas with those next to each and the ports entered from each, its ports with\n"
        "the areas each opens on, the states, his state's cities; y1820: the provinces; dog: his side's units.",
        {{"state", "S", "the state (e.g. BR)"}, {"player", "P", "events, positions, orders, choices: the GA reads P's reports"},
         {"as", "P", "events, positions, orders, choices: P reads his own reports (password needed)"}, kPasswordFile,
         {"turn", "T", "as it stood at the end of this turn (YEAR.SEASON.TURN)"},
         {"svg", "FILE", "positions, map: also write the map to FILE (SVG)"},
         {"nation", "N", "nation: the nation (y1820), e.g. FRA"},
         {"public", "", "nation: only what every player may see"},
         {"side", "S", "battle: the side's report (with its own units' orders)"},
         {"move", "M", "battle: as it stood at the end of move M; orders: the orders for move M"}, kBranch, kJson},
        2, 2},
       CmdReport},
  };
}

}  // namespace adjutant::cli
