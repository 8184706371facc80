#include "support/sow_game.h"

#include <stdexcept>

#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::testing {

Status CreateSowGame(ledger::Ledger& db, const std::string& game, const std::string& json) {
  auto buf = schema::ParseJson("Scenario", json, "scenario");
  if (!buf.ok()) return buf.status();
  auto* sc = flatbuffers::GetRoot<fb::Scenario>(buf->data());
  TurnPhase at;
  if (sc->start()) at.turn = schema::TurnOf(sc->start());
  auto h = db.CreateGame(game, 1805, *buf, at, Actor{ActorKind::kGameAdministrator, "", ""});
  return h.ok() ? Status::Ok() : h.status();
}

Result<replay::SubmitReport> Order(ledger::Ledger& db, const std::string& game, const std::string& person,
                                   const std::string& json, const std::string& branch) {
  auto buf = schema::ParseJson("OrderFile", json, "orders");
  if (!buf.ok()) return buf.status();
  return replay::SubmitOrders(db, game, branch, person, *buf);
}

std::string OrderItem(const std::string& state, const std::string& kind, const std::string& body,
                      const std::string& role) {
  std::string r = role.empty() ? "" : "\"role\": \"" + role + "\", ";
  return "{" + r + "\"body_type\": \"SowOrder\", \"body\": {\"state\": \"" + state + "\", \"body_type\": \"" + kind +
         "\", \"body\": " + body + "}}";
}

std::string OrderFile(const std::vector<std::string>& items) {
  std::string s = "{\"orders\": [";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
  return s + "]}";
}

Result<ledger::AppendResult> Directive(ledger::Ledger& db, const std::string& game, const std::string& kind,
                                       const std::string& body, const std::string& branch) {
  std::string json = "{\"reason\": \"test\", \"body_type\": \"SowDirective\", \"body\": {\"body_type\": \"" + kind +
                     "\", \"body\": " + body + "}}";
  auto buf = schema::ParseJson("DirectiveFile", json, "directive");
  if (!buf.ok()) return buf.status();
  return replay::RecordDirective(db, game, branch, *buf);
}

projections::TreasuryState Treasury(ledger::Ledger& db, const std::string& game, const std::string& branch) {
  auto w = replay::Fold(db, game, branch);
  if (!w.ok()) throw std::runtime_error(w.status().message());
  return w->treasury().state();
}

projections::FleetState Fleet(ledger::Ledger& db, const std::string& game, const std::string& branch) {
  auto w = replay::Fold(db, game, branch);
  if (!w.ok()) throw std::runtime_error(w.status().message());
  return w->fleet().state();
}

NwolState NwolStateOf(const projections::TreasuryState& t, const projections::FleetState& f) {
  NwolState s;
  static_cast<projections::TreasuryState&>(s) = t;
  s.ships = f.ships;
  return s;
}

NwolState Nwol(ledger::Ledger& db, const std::string& game, const std::string& branch) {
  auto w = replay::Fold(db, game, branch);
  if (!w.ok()) throw std::runtime_error(w.status().message());
  return NwolStateOf(w->treasury().state(), w->fleet().state());
}

int64_t MenLedger(const NwolState& s) {
  projections::FleetState fleet;
  fleet.ships = s.ships;
  return MenLedger(s, fleet);
}

int64_t MenLedger(const projections::TreasuryState& s, const projections::FleetState& fleet) {
  int64_t total = 0;
  for (const auto& [id, a] : s.states) total += a.manpower + a.men_lost - a.men_growth;
  for (const auto& [n, c] : s.cities) total += c.militia_pool;
  for (const auto& [id, u] : s.units) total += u.men;
  for (const auto& [id, sh] : fleet.ships) total += sh.men();
  for (const auto& [id, b] : s.builds) total += b.is_ship ? b.ship.men() : b.unit.men;
  for (const auto& r : s.returns) if (r.pool != "transport") total += r.men;
  return total;
}

Status Turns(ledger::Ledger& db, const std::string& game, int turns, const std::string& branch) {
  auto r = replay::Adjudicate(db, game, branch, replay::AdjudicateMode::kTurn, turns);
  return r.ok() ? Status::Ok() : r.status();
}

}  // namespace adjutant::testing
