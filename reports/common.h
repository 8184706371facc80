// What the report builders share (reports/sow.cc: treasury and fleet;
// reports/pate.cc: a player's two PATE reports; reports/y1820.cc: map and
// nation; reports/dog.cc: battle). Private to reports/.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/turn.h"
#include "replay/driver.h"
#include "replay/proofs.h"
#include "reports/reports.h"

namespace flatbuffers { class FlatBufferBuilder; }
namespace adjutant::projections { struct Ship; }

namespace adjutant::reports {

// One report being built: the database, the request (ForViewer applied, the
// branch resolved) and what it renders.
struct Ctx {
  ledger::Ledger& db;
  const Request& rq;
  bool viewer_ga = true;  // the GA reads (else the person rq.player, say, himself)
  std::string branch;
  std::string out;  // Report::body
  std::string svg;  // Report::svg (drawing_too)
  // Issue 23: the signed head that covers the report, in a game that signs
  // its heads, and the person whose proof of it he may ask for.
  std::optional<replay::SignedHead> head;
  std::string proof_person;
  std::string proof_turn;
  // The report's own proof (a ReportProof flatbuffer; empty: none):
  // reports/footer.h.
  std::vector<uint8_t> proof;

  bool json() const { return rq.format == Format::kJson; }
  // Draws the picture: the answer itself (kSvg: true, the rest is skipped)
  // or besides it (drawing_too: false, the report goes on).
  bool wants_drawing() const { return rq.format == Format::kSvg || rq.drawing_too; }
  bool Draw(std::string picture) {
    if (rq.format == Format::kSvg) {
      out = std::move(picture);
      return true;
    }
    svg = std::move(picture);
    return false;
  }
  void Line(const std::string& s) { out += s + "\n"; }
  // A finished buffer of `table` as one JSON line.
  Status PrintJson(std::string_view table, flatbuffers::FlatBufferBuilder& fbb);
  // The report's `head` field (an Offset<fb::ReportHead>'s value; 0 without one).
  uint32_t HeadJson(flatbuffers::FlatBufferBuilder& fbb) const;
  // Where his proof of the report is, in words.
  std::string ProofHint() const;
};

// The world folded to the end of rq.turn (or the head): the projections named
// in `only` (by name), or every one.
Result<replay::World> WorldAt(Ctx& c, const std::string& game, uint64_t* upto, const std::vector<std::string>& only = {});

// What the economy's reports start from: the game folded to the end of
// rq.turn (or the head), refused for a game without the economy's state.
struct Folded {
  replay::World world;
  uint64_t upto = 0;
};
Result<Folded> FoldForReport(Ctx& c, const std::string& game, const char* what,
                             const std::vector<std::string>& only = {});

// The builders, one per kind (MayRead has allowed them).
Status TreasuryReport(Ctx& c, const std::string& game);
Status FleetReport(Ctx& c, const std::string& game);
Status EventsReport(Ctx& c, const std::string& game);
Status PositionsReport(Ctx& c, const std::string& game);
Status MapReport(Ctx& c, const std::string& game);
Status NationReport(Ctx& c, const std::string& game);
Status BattleReport(Ctx& c, const std::string& game);
Status OrdersReport(Ctx& c, const std::string& game);
Status ChoicesReport(Ctx& c, const std::string& game);

// Where a ship is, in the positions report's words (PATE 1.2, 6.11, 2.6):
// "inactive", "crossing the Atlantic", "harbour", "coastal waters" (her
// location a port: `at_port`), "at sea". Also what report choices says.
std::string PositionWords(const projections::Ship& sh, bool at_port);

// Text made safe for SVG/XML (&, <, >, ").
std::string Xml(const std::string& s);

}  // namespace adjutant::reports
