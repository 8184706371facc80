// The reports (below cli/ and desk/, above replay/ and projections/): what a
// minister, a player or the GA reads, built from the projections as they
// stood at any turn of any branch, for a typed viewer and a typed request.
// Both front ends call Build: `adjutant report` (cli/report.cc) prints what
// it returns, the order desk (desk/player_api.cc, desk/ga_api.cc) answers
// with it. Build checks what the viewer may see (MayRead) before it reads
// anything, so the one check protects both.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/turn.h"

namespace adjutant::ledger { class Ledger; }
namespace adjutant::replay { struct World; }

namespace adjutant::reports {

// Who reads: the GA (every report), or a person with his roles as the
// game's roster stands now (a ship given to him a moment ago is his).
struct Viewer {
  bool ga = false;
  std::string person;
  std::vector<std::string> roles;  // "BR.treasury", "FRA.ruler", "french.general", "BR1FL.commander", ...
};
Viewer Ga();
// `person`'s viewer: his roles in the roster of `branch` as it stands now.
// NotFound if the game has no such person.
Result<Viewer> PersonNow(ledger::Ledger& db, const std::string& game, const std::string& branch,
                         const std::string& person);

enum class Kind { kTreasury, kFleet, kEvents, kPositions, kMap, kNation, kBattle, kOrders, kChoices };
std::optional<Kind> KindNamed(std::string_view name);  // "treasury", ...
const char* NameOf(Kind k);

enum class Format {
  kText,  // the report in words
  kJson,  // one JSON line (schema/reports.fbs)
  kSvg,   // the drawing alone (positions, map, battle)
};

struct Request {
  Kind kind = Kind::kTreasury;
  std::string game;
  std::string branch;                // empty: the game's current branch
  std::optional<std::string> turn;   // as it stood at the end of this turn (not battle)
  std::optional<std::string> move;   // battle: at the end of this move; orders: for this move
  // Whose report; empty: the viewer's own (from his roles), or all for the GA
  // where that means something (fleet, battle).
  std::string state;                 // treasury (required for the GA), fleet (a filter)
  std::string player;                // events, positions, orders
  std::string nation;                // nation
  std::string side;                  // battle
  bool public_only = false;          // nation: only what every player may see
  Format format = Format::kText;
  bool drawing_too = false;          // positions, map, battle: the drawing as well (Report::svg)
};

struct Report {
  std::string body;  // kText: its lines; kJson: one line; kSvg: the drawing
  std::string svg;   // with drawing_too: the drawing
};

// The request with the viewer's own state, player, nation or side filled in
// where it names none (a person's treasury is his state's, and so on).
Request ForViewer(const Viewer& v, Request rq);

// Ok if `v` may read the report `rq` asks for (after ForViewer): the GA
// everything; a person his own ships' events and positions, his state's
// treasury (Finance or Prime Minister), his nation (its ruler), his side's
// battle (its general), and the public y1820 map; nobody else's, and never
// the GA's fleet; his own orders, whatever the kind of game. Otherwise
// InvalidArgument, naming what was refused.
Status MayRead(const Viewer& v, const Request& rq);

// The report, once MayRead allows it (ForViewer applied first; a field
// that does not apply to the kind, --state of a battle say, is refused); with
// `not_yours`, set when MayRead refused it (the desk answers 403). Errors
// name the option at fault as `adjutant report` spells it (--state, --turn).
Result<Report> Build(ledger::Ledger& db, const Viewer& v, const Request& rq, bool* not_yours = nullptr);

// The sequence number after which turn `t` was complete (the last event
// before the next turn), or UINT64_MAX while it is the current one.
Result<uint64_t> EndOfTurn(ledger::Ledger& db, const std::string& game, const std::string& branch, const Turn& t);

// A player's two reports of `turn` and his map, from a world folded to the
// end of that turn (`as_of`), exactly as the commands render them.
struct PlayerReportText {
  std::string events, positions, svg;
};
Result<PlayerReportText> RenderPlayerReports(replay::World world, uint64_t as_of, const std::string& game,
                                             const std::string& branch, const std::string& person, const Turn& turn);

// The order an OrderSubmitted event (its stored bytes) holds, in the text
// form of its game's books (rules/order_text.h) — what the orders report and
// the desk's list of a player's orders show; an order the text form cannot
// write as its table's name and JSON; "" for another event.
std::string OrderLineOf(std::string_view event, const std::vector<std::string_view>& rulesets);

}  // namespace adjutant::reports
