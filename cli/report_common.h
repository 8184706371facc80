// What the report commands share (cli/report.cc: treasury and fleet;
// cli/report_pate.cc: a player's two PATE reports): the game folded to the
// end of a turn, and the player's reports as text for tests.
#pragma once

#include <string>

#include "base/status.h"
#include "base/turn.h"
#include "cli/common.h"
#include "replay/driver.h"

namespace adjutant::cli {

// The sequence number after which turn `t` was complete (the last event
// before the next turn), or UINT64_MAX while it is the current one.
Result<uint64_t> EndOfTurn(ledger::Ledger& db, const std::string& game, const std::string& branch, const Turn& t);

// The world folded to the end of --turn T (or the head).
Result<replay::World> WorldAt(Context& c, ledger::Ledger& db, const std::string& game, const std::string& branch,
                              uint64_t* upto);

// What the reports start from: the game folded to the end of --turn T (or
// the head), refused for a game without the economy's state.
struct Folded {
  replay::World world;
  uint64_t upto = 0;
};
Result<Folded> FoldForReport(Context& c, const std::string& game, const std::string& branch, const char* what);

// `adjutant report battle` (dog, cli/report_dog.cc).
Status BattleReport(Context& c, const std::string& game);

// `adjutant report map|nation` (y1820, cli/report_y1820.cc).
Status Y1820Report(Context& c, const std::string& kind, const std::string& game);

// `adjutant report events|positions` (PATE 3.11).
Status EventsReport(Context& c, const std::string& game);
Status PositionsReport(Context& c, const std::string& game);

// A player's two reports of `turn` and his map, from a world folded to the
// end of that turn (`as_of`), exactly as the commands render them.
struct PlayerReportText {
  std::string events, positions, svg;
};
Result<PlayerReportText> RenderPlayerReports(replay::World world, uint64_t as_of, const std::string& game,
                                             const std::string& branch, const std::string& person, const Turn& turn);

}  // namespace adjutant::cli
