#include "reports/packet.h"

#include <algorithm>

#include "projections/battle.h"
#include "projections/summary.h"
#include "replay/driver.h"
#include "replay/proofs.h"
#include "reports/sources.h"
#include "schema/codec.h"
#include "reports/common.h"
#include "reports/reports.h"
#include "rules/kind.h"
#include "rules/sow/calendar.h"

namespace adjutant::reports {
namespace {

bool Has(const std::vector<std::string_view>& rulesets, std::string_view r) {
  return std::find(rulesets.begin(), rulesets.end(), r) != rulesets.end();
}

}  // namespace

std::string HtmlOf(const std::string& text) {
  return "<!DOCTYPE html><html><body><pre>" + Xml(text) + "</pre></body></html>";
}

std::string Packet::Text() const {
  std::string out;
  for (const Part& p : parts) {
    if (!out.empty()) out += "\n";
    out += p.text;
  }
  return out;
}

Result<Packet> TurnPacket(ledger::Ledger& db, const std::string& game, const std::string& branch,
                          const std::string& person, const Turn& turn) {
  auto viewer = PersonNow(db, game, branch, person);
  if (!viewer.ok()) return viewer.status();
  auto world = replay::Fold(db, game, branch, UINT64_MAX, {"summary"});
  if (!world.ok()) return world.status();
  const rules::GameKind* kind = world->kind();
  if (!kind) return Status::NotFound("no game '" + game + "' (branch " + branch + ")");
  const std::vector<std::string_view> rulesets = kind->Rulesets();
  const bool battle = Has(rulesets, "dog");
  // The reports of the books the game plays, his orders first.
  std::vector<Kind> kinds;
  const bool season_end = Has(rulesets, "sow") && rules::sow::IsSeasonEnd(turn);  // takes no orders (SOW 4.2)
  if (!season_end) kinds.push_back(Kind::kOrders);
  if (Has(rulesets, "pate")) {
    kinds.push_back(Kind::kEvents);
    kinds.push_back(Kind::kPositions);
  }
  if (Has(rulesets, "sow")) kinds.push_back(Kind::kTreasury);
  if (Has(rulesets, "y1820")) {
    kinds.push_back(Kind::kNation);
    kinds.push_back(Kind::kMap);
  }
  if (battle) kinds.push_back(Kind::kBattle);
  Packet out;
  for (Kind k : kinds) {
    Request rq;
    rq.kind = k;
    rq.game = game;
    rq.branch = branch;
    if (battle) {
      rq.move = std::to_string(turn.minor);
    } else {
      rq.turn = turn.ToString();
    }
    rq.drawing_too = k == Kind::kPositions || k == Kind::kMap || k == Kind::kBattle;
    bool not_yours = false;
    auto r = Build(db, *viewer, rq, &not_yours);
    if (not_yours) continue;  // not his to read (no treasury, no nation, no side of his)
    if (!r.ok()) return r.status();
    out.parts.push_back({NameOf(k), r->body});
    if (!r->svg.empty()) out.drawings.emplace_back(std::string(NameOf(k)) + ".svg", r->svg);
    rq.drawing_too = false;
    rq.format = Format::kJson;
    auto j = Build(db, *viewer, rq);
    if (!j.ok()) return j.status();
    out.json.emplace_back(std::string(NameOf(k)) + ".json", j->body);
  }
  // Issue 23: in a game that signs its tree heads, his report proof of the
  // turn (`adjutant verify-report proof.json --previous LAST`): his events
  // under the turn's signed head, and the history's consistency with the
  // head before. A turn without a head (its key adopted later) has none.
  if (!replay::SummaryOf(*world).signing_key.empty()) {
    auto proof = ReportProofOf(db, game, branch, person, turn);
    if (proof.ok()) {
      auto json = schema::ToJson("ReportProof", proof->data());
      if (!json.ok()) return json.status();
      out.json.emplace_back("proof.json", *json);
    } else if (proof.status().code() != Status::Code::kNotFound) {
      return proof.status();
    }
  }
  return out;
}

}  // namespace adjutant::reports
