// The PATE phases (3.3–3.10, 6, 7, 8) run on the small test scenario
// (support/pate_game.h) with dice fixed by purpose, so each rule's effect
// is exact: repair, supply, movement and its refusals, pursuit, the
// Atlantic, contacts, and a harbour battle.
#include <catch2/catch.hpp>

#include "ledger/ledger.h"
#include "projections/roster.h"
#include "projections/visibility.h"
#include "replay/driver.h"
#include "rules/pate/phases.h"
#include "rules/pate/tables.h"
#include "rules/sow/calendar.h"
#include "schema/event_generated.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;
namespace pate = adjutant::rules::pate;
namespace sow = adjutant::rules::sow;

namespace {

// Dice that answer by purpose ("purpose|subject" first, then "purpose"),
// else `fallback`: every rule's roll can be set apart from the others.
class FixedDice final : public rules::DiceSource {
 public:
  std::map<std::string, uint32_t> values;
  uint32_t fallback = 1;
  std::vector<rules::Roll> made;
  Result<rules::Roll> Next(const rules::RollRequest& req) override {
    uint32_t v = fallback;
    if (auto it = values.find(req.purpose + "|" + req.subject); it != values.end()) v = it->second;
    else if (auto it2 = values.find(req.purpose); it2 != values.end()) v = it2->second;
    rules::Roll r;
    r.request = req;
    r.results.assign(req.count, std::min(v, req.sides));
    made.push_back(r);
    return r;
  }
};

struct Game {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  FixedDice dice;
  std::vector<Draft> last;  // the last phase's events
  Game() {
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    auto st = CreateNwolGame(*db, "g", PateScenario());
    INFO(st.message());
    REQUIRE(st.ok());
    dice.values["storm"] = 100;             // no storms unless a test asks
    dice.values["lose second move"] = 100;  // both moves made
  }
  void Orders(const std::string& person, const std::string& ship, const std::string& fields) {
    auto r = Order(*db, "g", person,
                   OrderFile({PateItem("ShipOrders", "{\"ship\": \"" + ship + "\"" + (fields.empty() ? "" : ", " + fields) + "}")}));
    INFO((r.ok() ? std::string() : r.status().message()));
    REQUIRE(r.ok());
    INFO(r->orders.at(0).reason);
    REQUIRE(r->orders.at(0).status == "stands");
  }
  // Runs one PATE phase on the state at the head; returns the state after
  // (the treasury, and the fleet's ships).
  NwolState Run(uint16_t phase, P::SeasonKind kind = P::SeasonKind::War) {
    auto w = replay::Fold(*db, "g", "main");
    REQUIRE(w.ok());
    rules::PhaseWriter pw("g", "main", w->head.seq, std::move(w->projections));
    auto map = pate::NavalMap::Load(*pw.naval_map());
    REQUIRE(map.ok());
    TurnPhase at{pw.treasury().turn, phase};
    auto st = pate::RunPhase(pw, at, *map, dice, kind);
    INFO(st.message());
    REQUIRE(st.ok());
    NwolState after = NwolStateOf(pw.treasury(), pw.fleet());
    auto drafts = pw.TakeDrafts();
    if (!drafts.empty()) REQUIRE(db->Append("g", "main", w->head.seq, drafts).ok());
    return after;
  }
  // Every MoveFailed in the log: "SHIP RULE: reason".
  std::vector<std::string> Failures() {
    std::vector<std::string> out;
    REQUIRE(db->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
      if (auto* pe = e.event()->payload_as_PateEvent()) {
        if (auto* f = pe->body_as_MoveFailed()) out.push_back(f->ship()->str() + " " + f->rule()->str() + ": " + f->reason()->str());
      }
      return Status::Ok();
    }).ok());
    return out;
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> Observations(fb::ObservationKind kind) {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    REQUIRE(db->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
      auto* pe = e.event()->payload_as_PateEvent();
      auto* o = pe ? pe->body_as_Observed() : nullptr;
      if (o && o->kind() == kind) {
        std::vector<std::string> seen;
        if (o->seen()) for (const auto* s : *o->seen()) seen.push_back(s->str());
        out.emplace_back(o->observer()->str(), seen);
      }
      return Status::Ok();
    }).ok());
    return out;
  }
};

// The d100 roll that gives sea area `area` the wind `from`/`strength`.
uint32_t WindRoll(Game& g, const std::string& area, fb::Compass from, fb::WindStrength strength) {
  auto w = replay::Fold(*g.db, "g", "main");
  REQUIRE(w.ok());
  rules::PhaseWriter pw("g", "main", w->head.seq, std::move(w->projections));
  auto map = pate::NavalMap::Load(*pw.naval_map());
  REQUIRE(map.ok());
  int acc = 0;
  for (const auto& wind : map->Area(area)->winds) {
    acc += wind.chance_pct;
    if (static_cast<int>(wind.from) == from && wind.strength == strength) return static_cast<uint32_t>(acc);
  }
  FAIL("no such wind in " << area);
  return 0;
}

}  // namespace

TEST_CASE("PATE 3.3: repairs — an allied yard up to its capacity, a point of rigging elsewhere", "[pate][pate-phases]") {
  Game g;
  auto s = g.Run(sow::kRepair);
  // Portsmouth has one yard: BR1FL (first by id) repairs a hull point and all rigging.
  CHECK(s.ships.at("BR1FL").hull == 1);
  CHECK(s.ships.at("BR1FL").rigging == 0);
  // BR1SL finds the yard full: her hull damage stays.
  CHECK(s.ships.at("BR1SL").hull == 1);
  // At sea: one point of rigging.
  CHECK(s.ships.at("BR2SL").rigging == 1);
}

TEST_CASE("PATE 3.3: a ship ordered to sail out is not repaired in the yard", "[pate][pate-phases]") {
  Game g;
  g.Orders("nelson", "BR1FL", R"("sea1": "ECH")");
  auto s = g.Run(sow::kRepair);
  CHECK(s.ships.at("BR1FL").hull == 2);     // no hull repair
  CHECK(s.ships.at("BR1FL").rigging == 2);  // one rigging point, as at sea
  // BR1SL follows BR1FL: the orders copied to her sail her out too (4.2).
  CHECK(s.ships.at("BR1SL").hull == 1);
}

TEST_CASE("PATE 3.4: stores used, loaded to the order and unloaded", "[pate][pate-phases]") {
  Game g;
  g.Orders("nelson", "BR1FL", R"("stores": 24)");
  g.Orders("collingwood", "BR1SL", R"("detach": true, "stores": 5)");
  auto before = g.Run(sow::kRepair);
  int port = before.cities.at("Portsmouth").stores;
  REQUIRE(port == 40);
  auto s = g.Run(sow::kSupply);
  // In harbour the port feeds her (1), then she loads 14 to reach 24.
  CHECK(s.ships.at("BR1FL").stores == 24);
  // BR1SL unloads her surplus down to 5.
  CHECK(s.ships.at("BR1SL").stores == 5);
  // The transports in harbour eat from the port too.
  CHECK(s.ships.at("BR1TR").stores == 5);
  CHECK(s.ships.at("BR2TR").stores == 10);
  // 40 − 1 − 14 (BR1FL) − 1 + 15 (BR1SL) − 1 (BR1TR) − 1 (BR2TR) = 37.
  CHECK(s.cities.at("Portsmouth").stores == 37);
  // At sea: one store a turn.
  CHECK(s.ships.at("BR2SL").stores == 11);
}

TEST_CASE("PATE 6.2, 6.5: to an adjacent sea area, then into a port on it", "[pate][pate-phases]") {
  Game g;
  g.Orders("nelson", "BR2SL", R"("sea1": "NOS", "port": "London", "harbour": true)");
  auto s = g.Run(sow::kMovement);
  CHECK(s.ships.at("BR2SL").location == "London");
  CHECK(s.ships.at("BR2SL").in_port);
  CHECK(s.winds.count("ECH"));  // every area's wind was rolled
}

TEST_CASE("PATE 6.2: a move to a sea area that is not adjacent is refused", "[pate][pate-phases]") {
  // Since rules version pate=3 when the order is received (the ship keeps
  // her standing orders); pate=2 took it and failed the move when sailing
  // (a MoveFailed, refused-route-6.2-v2.json).
  Game g;
  auto r = Order(*g.db, "g", "nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "WMD"})")}));
  REQUIRE(r.ok());
  CHECK(r->orders.at(0).status == "rejected");
  CHECK(r->orders.at(0).rule == "PATE 6.2");
  CHECK(r->orders.at(0).reason == "sea1: WMD is not next to ECH; next to ECH: NOS, BIS and WAP");
  auto s = g.Run(sow::kMovement);
  CHECK(s.ships.at("BR2SL").location == "ECH");
  CHECK(g.Failures().empty());
}

TEST_CASE("PATE 6.6: no sailing out of port upwind into heavy winds", "[pate][pate-phases]") {
  // Toulon opens to the south.
  Game g;
  g.Orders("villeneuve", "FR3SL", R"("sea1": "WMD")");
  g.dice.values["wind|WMD"] = WindRoll(g, "WMD", fb::Compass_S, fb::WindStrength_Heavy);
  auto s = g.Run(sow::kMovement);
  CHECK(s.ships.at("FR3SL").location == "Toulon");
  auto f = g.Failures();
  REQUIRE(f.size() == 1);
  CHECK(f[0].rfind("FR3SL PATE 6.6:", 0) == 0);
  // With the wind heavy from the north she sails.
  Game h;
  h.Orders("villeneuve", "FR3SL", R"("sea1": "WMD")");
  h.dice.values["wind|WMD"] = WindRoll(h, "WMD", fb::Compass_N, fb::WindStrength_Heavy);
  CHECK(h.Run(sow::kMovement).ships.at("FR3SL").location == "WMD");
}

TEST_CASE("PATE 6.4: no leaving the harbour with hostile ships off the coast", "[pate][pate-phases]") {
  Game g;
  g.Orders("villeneuve", "FR1SL", R"("sea1": "ECH")");  // BR5SL lies off Brest
  auto s = g.Run(sow::kMovement);
  CHECK(s.ships.at("FR1SL").location == "Brest");
  auto f = g.Failures();
  REQUIRE(f.size() == 1);
  CHECK(f[0].rfind("FR1SL PATE 6.4:", 0) == 0);
}

TEST_CASE("PATE 6.6: a failed roll keeps the ships where they are", "[pate][pate-phases]") {
  Game g;
  g.Orders("nelson", "BR2SL", R"("sea1": "BIS")");
  g.dice.values["move: step 3"] = 100;  // no chance below 100% succeeds on 100
  g.dice.values["wind|ECH"] = WindRoll(g, "ECH", fb::Compass_N, fb::WindStrength_Light);  // BIS is south: 90%
  auto s = g.Run(sow::kMovement);
  CHECK(s.ships.at("BR2SL").location == "ECH");
}

TEST_CASE("PATE 6.10: a pursuer follows the enemy she is in contact with", "[pate][pate-phases]") {
  Game g;
  // FR1FR and BR2SL share ECH's tactical area 1.
  g.Orders("villeneuve", "FR1FR", R"("sea1": "BIS")");
  g.Orders("nelson", "BR2SL", R"("contact": "Pursue", "sea1": "NOS")");
  auto s = g.Run(sow::kMovement);
  CHECK(s.ships.at("FR1FR").location == "BIS");
  CHECK(s.ships.at("BR2SL").location == "BIS");  // her own orders abandoned
  CHECK(s.ships.at("BR2SL").tactical == s.ships.at("FR1FR").tactical);
}

TEST_CASE("PATE 6.10: a pursuit order with a range ignores other numbers", "[pate][pate-phases]") {
  Game g;
  g.Orders("villeneuve", "FR1FR", R"("sea1": "BIS")");
  g.Orders("nelson", "BR2SL", R"("contact": "Pursue", "min_ships": 2, "max_ships": 5)");  // 1 ship: not pursued
  auto s = g.Run(sow::kMovement);
  CHECK(s.ships.at("FR1FR").location == "BIS");
  CHECK(s.ships.at("BR2SL").location == "ECH");
}

TEST_CASE("PATE 6.11: crossing the Atlantic, and arriving", "[pate][pate-phases]") {
  Game g;
  g.Orders("nelson", "BR4SL", R"("sea1": "SWA")");  // IBC is on Europe's Atlantic edge, SWA on America's
  g.dice.values["Atlantic crossing"] = 2;              // 3–4 turns: the second, 4
  auto s = g.Run(sow::kMovement);
  CHECK(s.ships.at("BR4SL").location == "SWA");
  CHECK(s.ships.at("BR4SL").crossing_turns == 3);   // this turn counts
  CHECK_FALSE(s.ships.at("BR4SL").on_map());
  // BR3SL began two turns from IBC: one more turn, then she arrives.
  CHECK(s.ships.at("BR3SL").crossing_turns == 1);
  s = g.Run(sow::kMovement);
  CHECK(s.ships.at("BR3SL").crossing_turns == 0);
  CHECK(s.ships.at("BR3SL").location == "IBC");
  CHECK(s.ships.at("BR3SL").tactical >= 1);
  CHECK(s.ships.at("BR4SL").crossing_turns == 2);
}

TEST_CASE("PATE 5.1: ships in contact report each other — 5.2 frigates sense more", "[pate][pate-phases]") {
  // PATE 3.10: the intelligence phase.
  Game g;
  g.Run(sow::kIntelligence);
  auto contacts = g.Observations(fb::ObservationKind_Contact);
  auto saw = [&](const std::string& who, const std::string& what) {
    for (const auto& [o, seen] : contacts) {
      if (o == who && std::find(seen.begin(), seen.end(), what) != seen.end()) return true;
    }
    return false;
  };
  CHECK(saw("BR2SL", "FR1FR"));  // ECH, tactical area 1
  CHECK(saw("FR1FR", "BR2SL"));
  CHECK(saw("BR5SL", "FR1SL"));  // Brest: coastal waters and harbour are one port
  CHECK_FALSE(saw("BR2SL", "FR1SL"));
  // 5.2: FR1FR, at sea in ECH, senses the British in Portsmouth (BR1FL, BR1SL,
  // BR1TR) and off Brest (BR5SL) — not BR2SL, in contact; BR1FR in BIS has
  // no enemy in her area or its ports.
  std::map<std::string, int> sighted;
  for (const auto& [o, seen] : g.Observations(fb::ObservationKind_FrigateSighting)) {
    CHECK(o == "FR1FR");
    CHECK(seen.empty());  // approximate: no names
    sighted[o]++;
  }
  CHECK(sighted["FR1FR"] == 2);
}

TEST_CASE("PATE 7.1: ships offshore ordered into the harbour fight there", "[pate][pate-phases]") {
  // PATE 3.7: the combat phase decides who fights in a port.
  Game g;
  g.Orders("nelson", "BR5SL", R"("port": "Brest", "harbour": true, "engage": "Close")");
  g.Run(sow::kCombat);
  auto battles = g.Observations(fb::ObservationKind_Battle);
  std::set<std::string> fought;
  for (const auto& [o, seen] : battles) fought.insert(o);
  CHECK(fought.count("BR5SL"));
  CHECK(fought.count("FR1SL"));
  CHECK(fought.count("FR2SL"));
  bool battle_roll = false;
  for (const auto& r : g.dice.made) battle_roll = battle_roll || r.request.rule.rfind("PATE 7", 0) == 0;
  CHECK(battle_roll);
}

TEST_CASE("PATE 7.1: ships in harbour and ships offshore that seek no battle do not fight", "[pate][pate-phases]") {
  // PATE 3.7: the combat phase decides who fights in a port.
  Game g;
  g.Run(sow::kCombat);
  CHECK(g.Observations(fb::ObservationKind_Battle).empty());
}

TEST_CASE("PATE 9: a transport group loads a unit and supplies over the two amphibious phases", "[pate][pate-phases]") {
  // PATE 3.6: loading begins in the initial amphibious phase.
  Game g;
  g.Orders("troubridge", "BR1TR", R"("amphibious": [{"unit": "BR1IN"}, {"supplies": 15}, {"supplies": 6}])");
  auto s = g.Run(sow::kLanding);
  // Begun, not done: 3,000 men and 15 supplies (1,500 spaces) fill 4,500 of
  // 5,000; six more supplies would need 600.
  REQUIRE(s.ships.at("BR1TR").loading.size() == 2);
  CHECK(s.units.at("BR1IN").city == "Portsmouth");
  auto f = g.Failures();
  REQUIRE(f.size() == 1);
  CHECK(f[0].rfind("BR1TR PATE 9: BR1TR has room for 5 supplies", 0) == 0);
  s = g.Run(sow::kLanded);
  CHECK(s.ships.at("BR1TR").loading.empty());
  CHECK(s.units.at("BR1IN").aboard == "BR1TR");
  CHECK(s.units.at("BR1IN").city.empty());
  CHECK(s.ships.at("BR1TR").cargo_units == std::vector<std::string>{"BR1IN"});
  CHECK(s.ships.at("BR1TR").cargo_supplies == 15);
  CHECK(s.cities.at("Portsmouth").supplies == 5);
}

TEST_CASE("PATE 9: loading one turn, unloading the next, through the driver", "[pate][pate-phases]") {
  // PATE 3.9: what was begun is finished, or fails, in the final amphibious phase.
  Game g;
  g.Orders("troubridge", "BR1TR", R"("amphibious": [{"unit": "BR1IN"}, {"supplies": 15}])");
  REQUIRE(Turns(*g.db, "g", 1).ok());
  auto s = Nwol(*g.db, "g");
  REQUIRE(s.units.at("BR1IN").aboard == "BR1TR");
  // Turn 2: the unit and some supplies go ashore again.
  g.Orders("troubridge", "BR1TR", R"("amphibious": [{"unload": true, "unit": "BR1IN"}, {"unload": true, "supplies": 10}])");
  REQUIRE(Turns(*g.db, "g", 1).ok());
  s = Nwol(*g.db, "g");
  CHECK(s.units.at("BR1IN").aboard.empty());
  CHECK(s.units.at("BR1IN").city == "Portsmouth");
  CHECK(s.ships.at("BR1TR").cargo_units.empty());
  CHECK(s.ships.at("BR1TR").cargo_supplies == 5);
}

TEST_CASE("PATE 9 with SOW 3.5, 4.9 (sow=13): a unit the GA lands, or one disbanded aboard in port, leaves the transport's hold", "[pate][pate-phases]") {
  // The hold lists exactly the units aboard her (tests/support's invariants
  // check it over random histories; moved-ashore-3.5 shows a unit destroyed).
  Game g;
  g.Orders("troubridge", "BR1TR", R"("amphibious": [{"unit": "BR1IN"}])");
  REQUIRE(Turns(*g.db, "g", 1).ok());
  auto s = Nwol(*g.db, "g");
  REQUIRE(s.units.at("BR1IN").aboard == "BR1TR");
  REQUIRE(s.ships.at("BR1TR").cargo_units == std::vector<std::string>{"BR1IN"});
  SECTION("the GA's MoveUnit lands it") {
    auto d = Directive(*g.db, "g", "MoveUnit", R"({"unit": "BR1IN", "square": {"x": 10, "y": 10}, "city": "London"})");
    INFO(d.status().message());
    REQUIRE(d.ok());
    s = Nwol(*g.db, "g");
    CHECK(s.units.at("BR1IN").aboard.empty());
    CHECK(s.units.at("BR1IN").city == "London");
    CHECK(s.ships.at("BR1TR").cargo_units.empty());
  }
  SECTION("disbanded aboard, in Portsmouth") {
    auto r = Order(*g.db, "g", "pitt", OrderFile({OrderItem("BR", "DisbandOrder", R"({"unit": "BR1IN"})")}));
    INFO((r.ok() ? std::string() : r.status().message()));
    REQUIRE(r.ok());
    REQUIRE(Turns(*g.db, "g", 1).ok());
    s = Nwol(*g.db, "g");
    CHECK_FALSE(s.units.count("BR1IN"));
    CHECK(s.ships.at("BR1TR").cargo_units.empty());
  }
}

TEST_CASE("PATE 9: a transport that sails before the final amphibious phase leaves the troops ashore", "[pate][pate-phases]") {
  // PATE 3.9: what was begun is finished, or fails, in the final amphibious phase.
  Game g;
  g.Orders("troubridge", "BR1TR", R"("sea1": "ECH", "amphibious": [{"unit": "BR1IN"}])");
  g.Run(sow::kLanding);
  auto s = g.Run(sow::kMovement);
  REQUIRE(s.ships.at("BR1TR").location == "ECH");
  s = g.Run(sow::kLanded);
  CHECK(s.units.at("BR1IN").city == "Portsmouth");
  CHECK(s.units.at("BR1IN").aboard.empty());
  CHECK(s.ships.at("BR1TR").loading.empty());
}

TEST_CASE("PATE 9: only friends' units, in the port, and only in a port", "[pate][pate-phases]") {
  // PATE 3.6: loading begins in the initial amphibious phase.
  Game g;
  g.Orders("troubridge", "BR1TR", R"("amphibious": [{"unit": "FR1IN"}, {"unload": true, "unit": "BR1IN"}, {"unload": true, "supplies": 1}])");
  auto s = g.Run(sow::kLanding);
  CHECK(s.ships.at("BR1TR").loading.empty());
  auto f = g.Failures();
  REQUIRE(f.size() == 3);
  CHECK(f[0].find("FR1IN belongs to FR") != std::string::npos);
  CHECK(f[1].find("BR1IN is not aboard BR1TR") != std::string::npos);
  CHECK(f[2].find("carries only 0 supplies") != std::string::npos);
}

TEST_CASE("PATE 2.8: the nearer her base, the likelier a ship starts a campaign on station", "[pate][pate-phases]") {
  CHECK(pate::OnStationPct(0) == 90);
  CHECK(pate::OnStationPct(1) == 75);
  CHECK(pate::OnStationPct(5) == 15);
  CHECK(pate::OnStationPct(9) == 10);
  CHECK(pate::StoresOnStation(1) == 20);
  CHECK(pate::StoresOnStation(3) == 12);
  CHECK(pate::StoresOnStation(10) == 8);
}

TEST_CASE("PATE 2.8: when a campaign opens, ships away from base are placed on station or at base", "[pate][pate-phases]") {
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  auto& db = **l;
  std::string sc = PateScenario();
  auto swap = [&](const std::string& a, const std::string& b) {
    auto at = sc.find(a);
    REQUIRE(at != std::string::npos);
    sc.replace(at, a.size(), b);
  };
  swap(R"("step": 1})", R"("step": 0})");
  swap(R"("season_kind": "War")", R"("season_kind": "Peace")");
  REQUIRE(CreateNwolGame(db, "g", sc).ok());
  REQUIRE(Directive(db, "g", "SetSeasonKind", R"({"year": 1805, "season": 2, "kind": "War"})").ok());
  REQUIRE(Turns(db, "g", 1).ok());  // the peace turn and the season's end
  auto before = Nwol(db, "g");
  REQUIRE(Turns(db, "g", 1).ok());  // Summer 1805, turn 1: the campaign opens
  auto after = Nwol(db, "g");
  REQUIRE(after.turn == Turn{1805, 2, 1});
  int placed = 0;
  std::set<std::string> rolled;
  REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
    auto* d = e.event()->payload_as_DieRolled();
    if (d && d->purpose()->str() == "campaign start: on station") rolled.insert(d->subject()->str());
    return Status::Ok();
  }).ok());
  for (const auto& [id, sh] : before.ships) {
    if (!sh.on_map() || sh.location == sh.base) continue;
    INFO(id);
    CHECK(rolled.count(id));  // every ship away from base rolled
    ++placed;
  }
  CHECK(placed > 0);
  for (const auto& id : rolled) {
    REQUIRE(before.ships.count(id));
    // The repair phase places her; later phases of the turn may move her.
    CHECK(before.ships.at(id).location != before.ships.at(id).base);
  }
  // No attachment chain came of it.
  for (const auto& [id, sh] : after.ships) {
    if (!sh.attached_to.empty()) CHECK(after.ships.at(sh.attached_to).attached_to.empty());
  }
}

namespace {

// The test scenario with a British garrison at Kingston (off the land map),
// French troops landed there, and a French ship in its harbour.
std::string KingstonScenario() {
  std::string sc = PateScenario();
  auto add_after = [&](const std::string& anchor, const std::string& text) {
    auto at = sc.find(anchor);
    REQUIRE(at != std::string::npos);
    sc.insert(at + anchor.size(), text);
  };
  add_after(R"("units": [)", R"(
      {"id": "BR2IN", "state": "BR", "type": "IN", "men": 500, "city": "Kingston"},
      {"id": "FR2IN", "state": "FR", "type": "IN", "men": 3000, "city": "Kingston"},)");
  add_after(R"("ships": [)", R"(
      {"id": "FR5SL", "state": "FR", "type": "SL", "crew": 600, "marines": 150, "base": "Brest", "location": "Kingston", "in_port": true, "name": "Achille", "stores": 20},)");
  return sc;
}

}  // namespace

TEST_CASE("PATE 10: troops landed at an off-map port fight its garrison", "[pate][pate-phases]") {
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  auto& db = **l;
  auto st = CreateNwolGame(db, "g", KingstonScenario());
  INFO(st.message());
  REQUIRE(st.ok());
  int64_t men = MenLedger(Treasury(db, "g"), Fleet(db, "g"));
  auto w = replay::Fold(db, "g", "main");
  REQUIRE(w.ok());
  rules::PhaseWriter pw("g", "main", w->head.seq, std::move(w->projections));
  auto map = pate::NavalMap::Load(*pw.naval_map());
  REQUIRE(map.ok());
  FixedDice dice;  // every die a 1: 3000 × 4 against 500 × 4
  REQUIRE(pate::RunPhase(pw, {pw.treasury().turn, sow::kLanded}, *map, dice, P::SeasonKind::War).ok());
  const auto& s = pw.treasury();
  CHECK(s.cities.at("Kingston").controller == "FR");
  CHECK_FALSE(s.units.count("BR2IN"));
  CHECK(s.units.at("FR2IN").men == 3000 - 125);  // a quarter of the 500 beaten
  REQUIRE_FALSE(s.returns.empty());
  CHECK(s.returns.back().men == 125);            // a quarter of the garrison comes back (SOW 3.5)
  CHECK(MenLedger(s, pw.fleet()) == men);
  bool told = false;
  for (const auto& r : dice.made) told = told || r.request.rule == "PATE 10";
  CHECK(told);
}

TEST_CASE("PATE 10: a garrison with the odds holds its port", "[pate][pate-phases]") {
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  auto& db = **l;
  std::string sc = KingstonScenario();
  sc.replace(sc.find(R"("men": 3000, "city": "Kingston")"), 31, R"("men": 400, "city": "Kingston")");
  REQUIRE(CreateNwolGame(db, "g", sc).ok());
  auto w = replay::Fold(db, "g", "main");
  REQUIRE(w.ok());
  rules::PhaseWriter pw("g", "main", w->head.seq, std::move(w->projections));
  auto map = pate::NavalMap::Load(*pw.naval_map());
  REQUIRE(map.ok());
  FixedDice dice;
  REQUIRE(pate::RunPhase(pw, {pw.treasury().turn, sow::kLanded}, *map, dice, P::SeasonKind::War).ok());
  CHECK(pw.treasury().cities.at("Kingston").controller == "BR");
  CHECK_FALSE(pw.treasury().units.count("FR2IN"));
  CHECK(pw.treasury().units.at("BR2IN").men == 400);  // 500 less a quarter of 400
}

namespace {

// A game made from `scenario` whose intelligence phase (PATE 5) has run: the
// visibility view it leaves, and whether a person's reports include what
// `observer` saw.
struct Intelligence {
  P::VisibilityState vis;
  std::map<std::string, projections::Ship> ships;
  P::RosterState roster;
  bool SeenBy(const std::string& person, const std::string& observer) const {
    auto through = P::ShipsSeenThrough(roster, ships, vis, person);
    return std::find(through.begin(), through.end(), observer) != through.end();
  }
};

Intelligence AfterIntelligence(const std::string& scenario) {
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  auto& db = **l;
  REQUIRE(CreateNwolGame(db, "g", scenario).ok());
  auto w = replay::Fold(db, "g", "main");
  REQUIRE(w.ok());
  rules::PhaseWriter pw("g", "main", w->head.seq, std::move(w->projections));
  auto map = pate::NavalMap::Load(*pw.naval_map());
  REQUIRE(map.ok());
  FixedDice dice;
  REQUIRE(pate::RunPhase(pw, {pw.treasury().turn, sow::kIntelligence}, *map, dice, P::SeasonKind::War).ok());
  Intelligence out;
  out.ships = pw.fleet().ships;
  out.roster = pw.roster().state();
  for (const auto& proj : pw.TakeProjections()) {
    if (auto* v = dynamic_cast<const P::Visibility*>(proj.get())) out.vis = v->state();
  }
  return out;
}

}  // namespace

TEST_CASE("PATE 5.3: an off-map port's garrison reports ships in port to its Naval Minister", "[pate][pate-phases]") {
  Intelligence in = AfterIntelligence(KingstonScenario());
  auto obs = in.vis.by_ship.find("garrison of Kingston");
  REQUIRE(obs != in.vis.by_ship.end());
  CHECK(obs->second.at(0).seen == std::vector<std::string>{"FR5SL"});
  // Britain's Naval Minister hears of it; France's and Nelson do not.
  CHECK(in.SeenBy("barham", "garrison of Kingston"));
  CHECK_FALSE(in.SeenBy("decres", "garrison of Kingston"));
  CHECK_FALSE(in.SeenBy("nelson", "garrison of Kingston"));
}

TEST_CASE("PATE 5.3: land units in an on-map port's square report the other states' ships there to their Naval Minister", "[pate][pate-phases]") {
  // Since rules version pate=3 (land-units-5.3.json and its -v2 twin show
  // the version's gate).
  std::string sc = PateScenario();
  const std::string anchor = R"("ships": [)";
  sc.insert(sc.find(anchor) + anchor.size(), R"(
      {"id": "FR5SL", "state": "FR", "type": "SL", "crew": 600, "marines": 150, "base": "Brest", "location": "Portsmouth", "coastal": true, "name": "Achille", "stores": 20},)");
  Intelligence in = AfterIntelligence(sc);
  auto obs = in.vis.by_ship.find("land units of BR at Portsmouth");
  REQUIRE(obs != in.vis.by_ship.end());
  CHECK(obs->second.at(0).seen == std::vector<std::string>{"FR5SL"});  // Britain's own ships are not reported
  CHECK(in.vis.by_ship.count("land units of FR at Portsmouth") == 0);  // no French unit is there
  CHECK(in.SeenBy("barham", "land units of BR at Portsmouth"));
  CHECK_FALSE(in.SeenBy("decres", "land units of BR at Portsmouth"));
  CHECK_FALSE(in.SeenBy("nelson", "land units of BR at Portsmouth"));
}
