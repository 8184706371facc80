#include "support/pate_game.h"
#include "support/build_paths.h"

#include <fstream>
#include <stdexcept>
#include <sstream>

#include "replay/driver.h"
#include "rules/pate/map.h"
#include "schema/codec.h"
#include "schema/pate_generated.h"
#include "schema/scenario_generated.h"
#include "schema/values.h"

namespace adjutant::testing {

std::string PateScenario() {
  return R"({
  "name": "pate test", "rulesets": ["sow", "pate"], "start": {"major": 1805, "minor": 1, "step": 1},
  "players": [
    {"person": "barham", "roles": ["BR.naval"]},
    {"person": "pitt", "roles": ["BR.prime"]},
    {"person": "nelson", "roles": ["BR1FL.commander", "BR2SL.commander", "BR1FR.commander", "BR4SL.commander", "BR5SL.commander"]},
    {"person": "collingwood", "roles": ["BR1FL.deputy", "BR1SL.commander"]},
    {"person": "hardy", "roles": []},
    {"person": "troubridge", "roles": ["BR1TR.commander"]},
    {"person": "decres", "roles": ["FR.naval"]},
    {"person": "villeneuve", "roles": ["FR1SL.commander", "FR2SL.commander", "FR1FR.commander", "FR3SL.commander"]},
    {"person": "gravina", "roles": ["SP1SL.commander"]}
  ],
  "sow": {
    "season_kind": "War",
    "states": [
      {"id": "BR", "name": "Great Britain", "nation": "Britain", "treasury_cc": 2000000, "manpower": 60000},
      {"id": "FR", "name": "France", "nation": "France", "treasury_cc": 3000000, "manpower": 150000},
      {"id": "SP", "name": "Spain", "nation": "Spain", "treasury_cc": 500000, "manpower": 40000}
    ],
    "cities": [
      {"name": "London", "nation": "Britain", "controller": "BR", "level": 5, "kind": "Port", "square": {"x": 10, "y": 10}, "sea_area": "NOS", "dockyards": 3, "stores": 100},
      {"name": "Portsmouth", "nation": "Britain", "controller": "BR", "level": 3, "kind": "Port", "square": {"x": 9, "y": 12}, "sea_area": "ECH", "dockyards": 1, "batteries": 2, "stores": 40, "supplies": 20},
      {"name": "Gibraltar", "nation": "Britain", "controller": "BR", "level": 1, "kind": "Port", "square": {"x": 10, "y": 50}, "sea_area": "WMD", "dockyards": 1, "stores": 10},
      {"name": "Kingston", "nation": "Britain", "controller": "BR", "level": 2, "kind": "OffMapPort", "sea_area": "WCA"},
      {"name": "Paris", "nation": "France", "controller": "FR", "level": 5, "kind": "Inland", "square": {"x": 20, "y": 20}},
      {"name": "Brest", "nation": "France", "controller": "FR", "level": 3, "kind": "Port", "square": {"x": 12, "y": 22}, "sea_area": "ECH", "dockyards": 2, "batteries": 2, "stores": 30},
      {"name": "Toulon", "nation": "France", "controller": "FR", "level": 3, "kind": "Port", "square": {"x": 25, "y": 45}, "sea_area": "WMD", "dockyards": 2, "stores": 30},
      {"name": "Madrid", "nation": "Spain", "controller": "SP", "level": 4, "kind": "Inland", "square": {"x": 14, "y": 40}},
      {"name": "Cadiz", "nation": "Spain", "controller": "SP", "level": 3, "kind": "Port", "square": {"x": 11, "y": 49}, "sea_area": "SOA", "dockyards": 1, "stores": 20}
    ],
    "units": [
      {"id": "BR1IN", "state": "BR", "type": "IN", "men": 3000, "square": {"x": 9, "y": 12}, "city": "Portsmouth"},
      {"id": "FR1IN", "state": "FR", "type": "IN", "men": 4000, "square": {"x": 12, "y": 22}, "city": "Brest"}
    ],
    "ships": [
      {"id": "BR1FL", "state": "BR", "type": "FL", "crew": 800, "marines": 200, "base": "Portsmouth", "location": "Portsmouth", "in_port": true, "name": "Victory", "quality": "VeryGood", "stores": 10, "hull": 2, "rigging": 3},
      {"id": "BR1SL", "state": "BR", "type": "SL", "crew": 600, "marines": 150, "base": "Portsmouth", "location": "Portsmouth", "in_port": true, "name": "Mars", "attached_to": "BR1FL", "stores": 20, "hull": 1},
      {"id": "BR2SL", "state": "BR", "type": "SL", "crew": 600, "marines": 150, "base": "Portsmouth", "location": "ECH", "name": "Colossus", "stores": 12, "rigging": 2},
      {"id": "BR1FR", "state": "BR", "type": "FR", "crew": 225, "marines": 25, "base": "Portsmouth", "location": "BIS", "name": "Euryalus", "mission": "Patrol", "stores": 12},
      {"id": "BR1TR", "state": "BR", "type": "TR", "crew": 500, "capacity": 5000, "base": "Portsmouth", "location": "Portsmouth", "in_port": true, "stores": 5},
      {"id": "BR2TR", "state": "BR", "type": "TR", "crew": 300, "capacity": 3000, "base": "Portsmouth", "location": "Portsmouth", "in_port": true, "stores": 10},
      {"id": "BR3SL", "state": "BR", "type": "SL", "crew": 600, "marines": 150, "base": "Portsmouth", "location": "IBC", "name": "Bellerophon", "crossing_turns": 2, "stores": 15},
      {"id": "BR4SL", "state": "BR", "type": "SL", "crew": 600, "marines": 150, "base": "Portsmouth", "location": "IBC", "name": "Defence", "stores": 20},
      {"id": "BR5SL", "state": "BR", "type": "SL", "crew": 600, "marines": 150, "base": "Portsmouth", "location": "Brest", "coastal": true, "name": "Orion", "stores": 20},
      {"id": "FR1SL", "state": "FR", "type": "SL", "crew": 600, "marines": 150, "base": "Brest", "location": "Brest", "in_port": true, "name": "Neptune", "stores": 20},
      {"id": "FR2SL", "state": "FR", "type": "SL", "crew": 600, "marines": 150, "base": "Brest", "location": "Brest", "in_port": true, "name": "Pluton", "stores": 20},
      {"id": "FR1FR", "state": "FR", "type": "FR", "crew": 225, "marines": 25, "base": "Brest", "location": "ECH", "name": "Hortense", "stores": 8},
      {"id": "FR3SL", "state": "FR", "type": "SL", "crew": 600, "marines": 150, "base": "Toulon", "location": "Toulon", "coastal": true, "name": "Algesiras", "stores": 3},
      {"id": "FR4SL", "state": "FR", "type": "SL", "crew": 0, "base": "Toulon", "location": "Toulon", "in_port": true, "name": "Intrepide", "active": false},
      {"id": "SP1SL", "state": "SP", "type": "SL", "crew": 600, "marines": 150, "base": "Cadiz", "location": "Cadiz", "in_port": true, "name": "Argonauta", "stores": 24}
    ],
    "relations": [{"a": "BR", "b": "FR", "relation": "War"}, {"a": "BR", "b": "SP", "relation": "War"},
                  {"a": "FR", "b": "SP", "relation": "Alliance"}]
  }
})";
}

Status CreateNwolGame(ledger::Ledger& db, const std::string& game, const std::string& json, uint64_t seed) {
  auto buf = schema::ParseJson("Scenario", json, "scenario");
  if (!buf.ok()) return buf.status();
  auto* sc = flatbuffers::GetRoot<fb::Scenario>(buf->data());
  std::ifstream in(std::string(ADJUTANT_FIXTURES) + "/maps/nwol-waters.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto map_buf = schema::ParseJson("NavalMap", ss.str(), "nwol-waters.json");
  if (!map_buf.ok()) return map_buf.status();
  auto map = rules::pate::NavalMap::Load(*flatbuffers::GetRoot<fb::NavalMap>(map_buf->data()));
  if (!map.ok()) return map.status();
  ADJ_RETURN_IF_ERROR(rules::pate::CheckScenarioAgainstMap(*sc, *map));
  TurnPhase at;
  if (sc->start()) at.turn = schema::TurnOf(sc->start());
  std::vector<Draft> more;
  more.push_back(rules::pate::MapDefinedDraft(at, std::move(map_buf).value()));
  auto h = db.CreateGame(game, seed, *buf, at, Actor{ActorKind::kGameAdministrator, "", ""}, more);
  return h.ok() ? Status::Ok() : h.status();
}

Result<ledger::AppendResult> PateDirective(ledger::Ledger& db, const std::string& game, const std::string& kind,
                                           const std::string& body) {
  std::string json = "{\"reason\": \"test\", \"body_type\": \"PateDirective\", \"body\": {\"body_type\": \"" + kind +
                     "\", \"body\": " + body + "}}";
  auto buf = schema::ParseJson("DirectiveFile", json, "directive");
  if (!buf.ok()) return buf.status();
  return replay::RecordDirective(db, game, "main", *buf);
}

NwolDb::NwolDb(uint64_t seed, const std::string& scenario) {
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  if (!l.ok()) throw std::runtime_error(l.status().message());
  db = std::move(l).value();
  Status st = CreateNwolGame(*db, "g", scenario, seed);
  if (!st.ok()) throw std::runtime_error("the test scenario: " + st.message());
}

std::string PateItem(const std::string& kind, const std::string& body, const std::string& role) {
  std::string r = role.empty() ? "" : "\"role\": \"" + role + "\", ";
  return "{" + r + "\"body_type\": \"PateOrder\", \"body\": {\"body_type\": \"" + kind + "\", \"body\": " + body + "}}";
}

}  // namespace adjutant::testing
