// A player's packet for one turn (issue 20, mail): every report of the turn
// that is his to read, in words, with their drawings and their JSON — what
// a message to him after the turn carries. Built with reports::Build for
// his viewer, so MayRead decides, as at the desk: nothing he may not see.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "base/turn.h"

namespace adjutant::ledger { class Ledger; }

namespace adjutant::reports {

struct Packet {
  struct Part {
    std::string name;   // "orders", "events", ...
    std::string text;   // the report in words
  };
  std::vector<Part> parts;
  // (file name, bytes): the drawings ("positions.svg") and each report as
  // JSON ("orders.json"); in a game that signs its tree heads, his report
  // proof of the turn too ("proof.json", replay/proofs.h).
  std::vector<std::pair<std::string, std::string>> drawings, json;
  std::string Text() const;  // the parts, one after another
};

// A text as an HTML page showing it as it is (a message's HTML part).
std::string HtmlOf(const std::string& text);

// `person`'s reports of `turn` (a battle: its move) on `branch`, as his
// roles stand now.
Result<Packet> TurnPacket(ledger::Ledger& db, const std::string& game, const std::string& branch,
                          const std::string& person, const Turn& turn);

}  // namespace adjutant::reports
