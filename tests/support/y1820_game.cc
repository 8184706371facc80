#include "support/y1820_game.h"
#include "support/build_paths.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "replay/create.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/scenario_generated.h"

namespace adjutant::testing {

namespace {
std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

std::string ToyMap() {
  return R"({"name": "toy",
  "provinces": [
    {"id": 1, "name": "Alpha", "coastal": true, "seas": ["S1"], "x": 100, "y": 100},
    {"id": 2, "name": "Beta", "x": 200, "y": 100},
    {"id": 3, "name": "Gamma", "x": 300, "y": 100},
    {"id": 4, "name": "Delta", "coastal": true, "seas": ["S1", "S2"], "x": 300, "y": 200},
    {"id": 5, "name": "Neutralia", "x": 200, "y": 200},
    {"id": 6, "name": "Mons", "x": 250, "y": 20}],
  "borders": [{"a": 1, "b": 2}, {"a": 2, "b": 3}, {"a": 3, "b": 4}, {"a": 2, "b": 5}, {"a": 2, "b": 6, "kind": "mountain"},
              {"a": 4, "b": 6}, {"a": 1, "b": 4, "kind": "water"}],
  "seas": [{"id": "S1", "name": "First Sea", "neighbours": ["S2"]}, {"id": "S2", "name": "Second Sea", "neighbours": ["S1"]}]})";
}

std::string ToyScenario(const std::string& gov_a, const std::string& gov_b, bool random_events, const std::string& extra) {
  return R"({"name": "toy", "rulesets": ["y1820"],
  "players": [{"person": "alice", "roles": ["AAA.ruler"]}, {"person": "bob", "roles": ["BBB.ruler"]}],
  "y1820": {"nations": [
      {"id": "AAA", "name": "Aland", "government": ")" + gov_a + R"(", "capital": 1, "provinces": [1, 2], "armies": 3, "fleets": 1},
      {"id": "BBB", "name": "Bland", "government": ")" + gov_b + R"(", "capital": 3, "provinces": [3, 4, 6], "armies": 2}],
    "neutrals": [5], "random_events": )" + (random_events ? "true" : "false") + (extra.empty() ? "" : ", " + extra) + "}}";
}

std::string EuropeMap() { return Slurp(std::string(ADJUTANT_FIXTURES) + "/y1820/europe-1820.map.json"); }
std::string EuropeScenario() { return Slurp(std::string(ADJUTANT_FIXTURES) + "/y1820/europe-1820.json"); }

Y1820Db::Y1820Db(const std::string& scenario_json, const std::string& map_json, uint64_t seed) {
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  if (!l.ok()) throw std::runtime_error(l.status().message());
  db = std::move(l).value();
  auto buf = schema::ParseJson("Scenario", scenario_json, "scenario");
  if (!buf.ok()) throw std::runtime_error(buf.status().message());
  auto map = schema::ParseJson("Y1820Map", map_json, "map");
  if (!map.ok()) throw std::runtime_error(map.status().message());
  bool map_error = false;
  auto start = replay::PrepareGame(*flatbuffers::GetRoot<fb::Scenario>(buf->data()), std::move(map).value(), &map_error);
  if (!start.ok()) throw std::runtime_error("the test scenario: " + start.status().message());
  auto h = db->CreateGame("g", seed, *buf, start->at, Actor{ActorKind::kGameAdministrator, "", ""}, start->more);
  if (!h.ok()) throw std::runtime_error(h.status().message());
}

std::string Y1820Db::Item(const std::string& kind, const std::string& body) {
  return R"({"body_type": "Y1820Order", "body": {"body_type": ")" + kind + R"(", "body": )" + body + "}}";
}

Status Y1820Db::Orders(const std::string& person, const std::vector<std::string>& items) {
  std::string json = "{\"orders\": [";
  for (size_t i = 0; i < items.size(); ++i) json += (i ? ", " : "") + items[i];
  json += "]}";
  auto buf = schema::ParseJson("OrderFile", json, "orders");
  if (!buf.ok()) return buf.status();
  auto r = replay::SubmitOrders(*db, "g", "main", person, *buf);
  return r.ok() ? Status::Ok() : r.status();
}

Status Y1820Db::Directive(const std::string& kind, const std::string& body) {
  std::string json = R"({"reason": "test", "body_type": "Y1820Directive", "body": {"body_type": ")" + kind +
                     R"(", "body": )" + body + "}}";
  auto buf = schema::ParseJson("DirectiveFile", json, "directive");
  if (!buf.ok()) return buf.status();
  auto r = replay::RecordDirective(*db, "g", "main", *buf);
  return r.ok() ? Status::Ok() : r.status();
}

Status Y1820Db::Adjudicate(int turns, const std::string& dice) {
  if (dice.empty()) {
    auto r = replay::Adjudicate(*db, "g", "main", replay::AdjudicateMode::kTurn, turns);
    return r.ok() ? Status::Ok() : r.status();
  }
  auto scripted = rules::ScriptedDice::Parse(dice, "dice");
  if (!scripted.ok()) return scripted.status();
  auto r = replay::Adjudicate(*db, "g", "main", replay::AdjudicateMode::kTurn, turns, std::nullopt, &*scripted);
  if (r.ok() && scripted->remaining() != 0) return Status::InvalidArgument("scripted dice left over");
  return r.ok() ? Status::Ok() : r.status();
}

projections::Y1820State Y1820Db::State() const {
  auto w = replay::Fold(*db, "g", "main");
  if (!w.ok()) throw std::runtime_error(w.status().message());
  return w->y1820();
}

std::vector<std::string> Y1820Db::Events(const std::string& kind) const {
  std::vector<std::string> out;
  Status st = db->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
    if (schema::EventKind(*e.event()) != kind) return Status::Ok();
    auto j = schema::ToJson("Event", e.bytes.data());
    if (j.ok()) out.push_back(*j);
    return Status::Ok();
  });
  if (!st.ok()) throw std::runtime_error(st.message());
  return out;
}

}  // namespace adjutant::testing
