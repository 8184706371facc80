// The sow ruleset through its driver: the calendar, orders and their
// precedence, each phase's rules, directives and their consequences, and
// the worked examples that need more than one turn.
#include <catch2/catch.hpp>

#include "ledger/ledger.h"
#include "rules/sow/calendar.h"
#include "schema/event_generated.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;

namespace {

// Britain and France at war; Spain allied to France. London and Portsmouth
// are ports; Paris inland; Brest a French port; Kingston an off-map colony.
std::string Scenario(const std::string& start = "{\"major\": 1805, \"minor\": 1, \"step\": 1}",
                     const std::string& season_kind = "War") {
  return R"({
  "name": "test 1805", "rulesets": ["sow"], "start": )" + start + R"(,
  "players": [
    {"person": "george", "roles": ["BR.monarch"]},
    {"person": "pitt", "roles": ["BR.prime"]},
    {"person": "rose", "roles": ["BR.treasury"]},
    {"person": "castlereagh", "roles": ["BR.war"]},
    {"person": "barham", "roles": ["BR.naval"]},
    {"person": "napoleon", "roles": ["FR.monarch"]},
    {"person": "godoy", "roles": ["SP.prime"]}
  ],
  "sow": {
    "season_kind": ")" + season_kind + R"(",
    "states": [
      {"id": "BR", "name": "Great Britain", "nation": "Britain", "treasury_cc": 2000000, "manpower": 60000},
      {"id": "FR", "name": "France", "nation": "France", "treasury_cc": 3000000, "manpower": 150000},
      {"id": "SP", "name": "Spain", "nation": "Spain", "treasury_cc": 500000, "manpower": 40000}
    ],
    "cities": [
      {"name": "London", "nation": "Britain", "controller": "BR", "level": 5, "kind": "Port", "square": {"x": 10, "y": 10}, "sea_area": "ECH", "dockyards": 2},
      {"name": "Portsmouth", "nation": "Britain", "controller": "BR", "level": 3, "kind": "Port", "square": {"x": 9, "y": 12}, "sea_area": "ECH", "dockyards": 1, "fort_level": 2, "fort_start": 3, "batteries": 1, "batteries_damaged": 1},
      {"name": "Kingston", "nation": "Britain", "controller": "BR", "level": 2, "kind": "OffMapPort"},
      {"name": "Paris", "nation": "France", "controller": "FR", "level": 5, "kind": "Inland", "square": {"x": 20, "y": 20}},
      {"name": "Brest", "nation": "France", "controller": "FR", "level": 3, "kind": "Port", "square": {"x": 12, "y": 22}, "sea_area": "BIS", "dockyards": 2},
      {"name": "Madrid", "nation": "Spain", "controller": "SP", "level": 4, "kind": "Inland", "square": {"x": 14, "y": 40}}
    ],
    "units": [
      {"id": "BR-IN-1", "state": "BR", "type": "IN", "men": 3000, "square": {"x": 10, "y": 10}, "city": "London"},
      {"id": "FR-LC-1", "state": "FR", "type": "LC", "men": 1100, "batteries": 1, "square": {"x": 20, "y": 20}, "city": "Paris"},
      {"id": "FR-IN-1", "state": "FR", "type": "IN", "men": 4000, "square": {"x": 20, "y": 20}, "city": "Paris"}
    ],
    "ships": [
      {"id": "BR1SL", "state": "BR", "type": "SL", "crew": 600, "marines": 150, "base": "London", "location": "London", "in_port": true},
      {"id": "BR2SL", "state": "BR", "type": "SL", "crew": 600, "marines": 150, "base": "Portsmouth", "location": "Brest", "coastal": true, "mission": "IgnoreCommerce"},
      {"id": "FR1FR", "state": "FR", "type": "FR", "crew": 450, "marines": 50, "frigates": 2, "base": "Brest", "location": "Brest", "in_port": true}
    ],
    "relations": [{"a": "BR", "b": "FR", "relation": "War"}, {"a": "BR", "b": "SP", "relation": "War"},
                  {"a": "FR", "b": "SP", "relation": "Alliance"}],
    "trade": [{"nation": "France", "partner": "Britain", "share_bp": 2000}]
  }
})";
}

struct Game {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  explicit Game(const std::string& scenario = Scenario()) {
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    REQUIRE(CreateSowGame(*db, "g", scenario).ok());
  }
  NwolState State() { return Nwol(*db, "g"); }
  replay::SubmitReport Orders(const std::string& person, const std::vector<std::string>& items) {
    auto r = Order(*db, "g", person, OrderFile(items));
    REQUIRE(r.ok());
    return *r;
  }
  void Turn(int n = 1) { REQUIRE(Turns(*db, "g", n).ok()); }
  int64_t Balance(const std::string& st) { return State().states.at(st).treasury_cc; }
};

// The statement line of `state` for `item` and `subject` this turn.
const P::StatementLine* LineFor(const P::TreasuryState& s, const std::string& state, const std::string& item,
                                const std::string& subject) {
  for (const auto& l : s.states.at(state).statement) {
    if (l.item == item && l.subject == subject) return &l;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the NWOL calendar: 15 campaign turns, the season's end, a peace turn", "[sow][calendar]") {
  Game g;
  REQUIRE(Directive(*g.db, "g", "SetSeasonKind", R"({"year": 1805, "season": 2, "kind": "Peace"})").ok());
  g.Turn(15);
  auto s = g.State();
  // The 15th campaign turn ran with its season's end (no orders between).
  CHECK(s.turn == Turn{1805, 1, rules::sow::kSeasonEndStep});
  g.Turn(1);
  s = g.State();
  CHECK(s.turn == Turn{1805, 2, rules::sow::kSeasonEndStep});  // the peace turn and its season's end
  CHECK(s.season_kind == P::SeasonKind::Peace);
  g.Turn(1);
  s = g.State();
  // The peace carries on into Autumn: one peace turn, then its end.
  CHECK(s.turn == Turn{1805, 3, rules::sow::kSeasonEndStep});
  CHECK(s.season_kind == P::SeasonKind::Peace);
  CHECK(rules::sow::TurnName(Turn{1805, 3, 0}, s.season_kind) == "Autumn 1805, peace turn");
}

TEST_CASE("the GA may end a campaign early", "[sow][calendar]") {
  Game g;
  g.Turn(3);
  REQUIRE(Directive(*g.db, "g", "EndCampaign", "{}").ok());
  g.Turn(1);
  auto s = g.State();
  CHECK(s.turn == Turn{1805, 1, rules::sow::kSeasonEndStep});
  g.Turn(1);
  CHECK(g.State().turn == Turn{1805, 2, 1});  // the next campaign
}

TEST_CASE("SOW 2.2, 2.3, 2.5: income of inland cities, ports, colonies, and a blockaded port", "[sow][income]") {
  Game g;
  REQUIRE(Directive(*g.db, "g", "DeclareBlockade", R"({"by": "BR", "against": "FR", "notice": "HMG declares ..."})").ok());
  g.Turn();
  auto s = g.State();
  CHECK(LineFor(s, "FR", "income", "Paris")->amount_cc == 15 * 5 * 100);      // inland 15 × level
  CHECK(LineFor(s, "BR", "income", "London")->amount_cc == 18 * 5 * 100);     // on-map port 18 × level
  CHECK(LineFor(s, "BR", "income", "Kingston")->amount_cc == 21 * 2 * 100);   // off-map 21 × level
  // Brest, France's only on-map port, is blockaded by BR2SL: half its
  // income is lost (5000 × (1/1)²), less the embargo-free trade.
  const auto* brest = LineFor(s, "FR", "income", "Brest");
  REQUIRE(brest);
  CHECK(brest->amount_cc == 18 * 3 * 100 / 2);
  CHECK_THAT(brest->detail, Catch::Contains("blockaded (2.5)"));
  // SOW 2.8: half of the lost trade shifts to the ports of other nations.
  const auto* shifted = LineFor(s, "SP", "displaced trade", "FR");
  CHECK(shifted == nullptr);  // Spain holds no port
  CHECK(LineFor(s, "BR", "displaced trade", "FR") != nullptr);
}

TEST_CASE("SOW 2.5: a blockade needs a state at war", "[sow][directives]") {
  Game g;
  auto r = Directive(*g.db, "g", "DeclareBlockade", R"({"by": "FR", "against": "SP"})");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.status().message(), Catch::Contains("SOW 2.5"));
  auto e = Directive(*g.db, "g", "DeclareEmbargo", R"({"by": "FR", "against": "SP"})");
  CHECK_THAT(e.status().message(), Catch::Contains("SOW 2.6"));
}

TEST_CASE("SOW 5.2: upkeep lines of the light cavalry brigade with its battery", "[sow][upkeep]") {
  Game g;
  g.Turn();
  auto s = g.State();
  CHECK(LineFor(s, "FR", "upkeep", "FR-LC-1")->amount_cc == -2000);  // 1100 men + battery: 20 Cr
  CHECK(LineFor(s, "BR", "upkeep", "BR1SL")->amount_cc == -300);     // SL in base harbour (5.4)
  CHECK(LineFor(s, "BR", "upkeep", "BR2SL")->amount_cc == -800);     // SL sailing
  CHECK(LineFor(s, "FR", "upkeep", "FR1FR")->amount_cc == -200);     // 2 frigates in base, 1 each
}

TEST_CASE("orders: who may give them, and which stands", "[sow][orders]") {
  Game g;
  auto buy = [](int supplies, int stores) {
    return OrderItem("BR", "BuySuppliesOrder", R"({"city": "London", "supplies": )" + std::to_string(supplies) +
                                                   R"(, "stores": )" + std::to_string(stores) + "}");
  };
  SECTION("a later order from the same role replaces the earlier; a junior one cannot replace a senior one") {
    auto a = g.Orders("rose", {buy(1, 0)});
    auto b = g.Orders("rose", {buy(2, 0)});
    CHECK(a.orders[0].status == "stands");
    CHECK(b.orders[0].status == "stands");
    auto pm = g.Orders("pitt", {buy(3, 0)});
    CHECK(pm.orders[0].status == "stands");
    auto late = g.Orders("rose", {buy(4, 0)});
    CHECK(late.orders[0].status == "superseded");
    auto s = g.State();
    REQUIRE(s.orders.size() == 1);
    CHECK(s.orders.begin()->second.person == "pitt");
    g.Turn();
    // The PM's 3 supplies were bought.
    CHECK(g.State().cities.at("London").supplies == 3);
  }
  SECTION("the War Minister buys supplies, the Naval Minister stores, neither the other") {
    // SOW 6.1: who may buy supplies and stores.
    CHECK(g.Orders("castlereagh", {buy(1, 0)}).orders[0].status == "stands");
    auto r = g.Orders("castlereagh", {OrderItem("BR", "BuySuppliesOrder", R"({"city": "Portsmouth", "stores": 4})")});
    CHECK(r.orders[0].status == "rejected");
    CHECK(r.orders[0].rule == "SOW 2.1");
    CHECK(g.Orders("barham", {OrderItem("BR", "BuySuppliesOrder", R"({"city": "Portsmouth", "stores": 4})")})
              .orders[0].status == "stands");
    CHECK(g.Orders("barham", {OrderItem("BR", "TransferOrder", R"({"to_state": "SP", "amount_cc": 100})")})
              .orders[0].status == "rejected");
  }
  SECTION("a person gives orders only for states whose roles he holds") {
    auto r = g.Orders("napoleon", {buy(1, 0)});
    CHECK(r.orders[0].status == "rejected");
    CHECK_THAT(r.orders[0].reason, Catch::Contains("napoleon holds no role of BR"));
    auto named = g.Orders("rose", {OrderItem("BR", "TransferOrder", R"({"to_state": "SP", "amount_cc": 100})", "BR.prime")});
    CHECK(named.orders[0].status == "rejected");
    CHECK_THAT(named.orders[0].reason, Catch::Contains("does not hold the role BR.prime"));
  }
  SECTION("rejected and superseded orders stay in the log with who sent them") {
    g.Orders("rose", {buy(1, 0)});
    g.Orders("pitt", {buy(2, 0)});
    g.Orders("napoleon", {buy(1, 0)});
    std::vector<std::string> who;
    REQUIRE(g.db->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                   if (auto* o = e.event()->payload_as_OrderSubmitted()) who.push_back(o->person()->str());
                   return Status::Ok();
                 }).ok());
    CHECK(who == std::vector<std::string>{"rose", "pitt", "napoleon"});
  }
}

TEST_CASE("orders break rules: recorded as rejected, nothing else changes", "[sow][orders]") {
  Game g;
  int64_t before = g.Balance("BR");
  auto r = g.Orders("rose", {
      OrderItem("BR", "BuildUnitOrder", R"({"city": "London", "type": "IN", "men": 4500, "id": "BR-IN-9"})"),   // 4.7
      OrderItem("BR", "BuildUnitOrder", R"({"city": "Paris", "type": "IN", "men": 1000, "id": "BR-IN-8"})"),    // 4.3
      OrderItem("BR", "BuildShipOrder", R"({"port": "Kingston", "type": "SL", "id": "BR9SL"})"),               // 4.3
      OrderItem("BR", "TransferOrder", R"({"to_state": "SP", "amount_cc": 999999999})"),                       // 2.1
      OrderItem("BR", "BuySuppliesOrder", R"({"city": "Kingston", "stores": 10})"),                            // 6.6
      OrderItem("BR", "RepairOrder", R"({"city": "London", "what": "Fort"})"),                                 // 7.1
  });
  CHECK(r.orders[1].status == "rejected");
  CHECK(r.orders[1].rule == "SOW 4.3");
  CHECK(r.orders[2].rule == "SOW 4.3");
  CHECK(r.orders[4].rule == "SOW 6.6");
  CHECK(r.orders[5].rule == "SOW 7.1");
  g.Turn();
  auto s = g.State();
  // 4.7 and 2.1 are found when the orders run.
  std::vector<std::string> rules;
  for (const auto& x : s.states.at("BR").refused) rules.push_back(x.rule);
  CHECK(rules == std::vector<std::string>{"SOW 4.3", "SOW 4.3", "SOW 6.6", "SOW 7.1", "SOW 4.7", "SOW 2.1"});
  CHECK(s.builds.empty());
  CHECK(s.states.at("SP").treasury_cc == 500000 + LineFor(s, "SP", "income", "Madrid")->amount_cc);
  for (const auto& l : s.states.at("BR").statement) CHECK(l.order_seq == 0);
  CHECK(g.Balance("BR") != before);  // income and upkeep still ran
}

TEST_CASE("SOW 4.4, 4.6: funds for the build and 15 turns of upkeep — builds per city", "[sow][orders]") {
  Game g;
  // A poor state: a 4000-man infantry costs its price + 15 × 24 Cr upkeep.
  REQUIRE(Directive(*g.db, "g", "CorrectTreasury", R"({"state": "SP", "amount_cc": -490000})").ok());
  auto r = g.Orders("godoy", {OrderItem("SP", "BuildUnitOrder", R"({"city": "Madrid", "type": "IN", "men": 4000, "id": "SP-IN-1"})")});
  CHECK(r.orders[0].status == "stands");
  g.Turn();
  auto s = g.State();
  REQUIRE(s.states.at("SP").refused.size() == 1);
  CHECK(s.states.at("SP").refused[0].rule == "SOW 4.4");
  // Level 5 London takes 14 builds at once; the 15th is refused.
  std::vector<std::string> items;
  for (int i = 0; i < 15; ++i) {
    items.push_back(OrderItem("BR", "BuildUnitOrder",
                              R"({"city": "London", "type": "MI", "men": 100, "id": "BR-MI-)" + std::to_string(i) + R"("})"));
  }
  g.Orders("rose", items);
  g.Turn();
  s = g.State();
  CHECK(s.builds.size() == 0);  // militia build in one war turn
  int militia = 0;
  for (const auto& [id, u] : s.units) militia += u.type == P::UnitType::MI;
  CHECK(militia == 14);
  REQUIRE(s.states.at("BR").refused.size() == 1);
  CHECK(s.states.at("BR").refused[0].rule == "SOW 4.6");
  CHECK(s.cities.at("London").militia_pool == 7500 - 1400);  // SOW 3.2
}

TEST_CASE("SOW 4.2 (adjudicated): the medium cavalry built in Paris across campaigns", "[sow][worked-example]") {
  for (const std::string summer : {"War", "Peace"}) {
    DYNAMIC_SECTION("Summer 1796 is a " << summer << " season") {
      Game g(Scenario("{\"major\": 1796, \"minor\": 1, \"step\": 8}"));
      REQUIRE(Directive(*g.db, "g", "SetSeasonKind", R"({"year": 1796, "season": 2, "kind": ")" + summer + "\"}").ok());
      g.Orders("napoleon", {OrderItem("FR", "BuildUnitOrder", R"({"city": "Paris", "type": "MC", "men": 1000, "id": "FR-MC-1"})")});
      g.Turn(4);  // turns 8, 9, 10, 11
      // The GA ends the campaign after turn 11: turn 12 never begins.
      REQUIRE(Directive(*g.db, "g", "EndCampaign", "{}").ok());
      g.Turn(1);
      auto s = g.State();
      CHECK(s.turn == Turn{1796, 1, rules::sow::kSeasonEndStep});
      REQUIRE(s.builds.count("FR-MC-1"));
      CHECK(s.builds.at("FR-MC-1").done == 4);  // "underway for 4 turns"
      g.Turn(1);
      s = g.State();
      if (summer == "War") {
        CHECK(s.turn == Turn{1796, 2, 1});
        CHECK(s.builds.at("FR-MC-1").done == 5);
        g.Turn(1);
        s = g.State();
        CHECK(s.turn == Turn{1796, 2, 2});  // "completed at the end of turn 2"
      } else {
        CHECK(s.turn == Turn{1796, 2, rules::sow::kSeasonEndStep});  // the peace turn and its end
      }
      CHECK(s.builds.empty());
      CHECK(s.units.count("FR-MC-1") == 1);
    }
  }
}

TEST_CASE("SOW 3.5: men of a destroyed unit return at the season's end — a storm loses a crew", "[sow][directives]") {
  Game g;
  REQUIRE(Directive(*g.db, "g", "DestroyUnit", R"({"unit": "FR-IN-1", "men_remaining": 1500})").ok());
  REQUIRE(Directive(*g.db, "g", "LoseShip", R"({"ship": "BR1SL", "storm": true})").ok());
  auto bad = Directive(*g.db, "g", "LoseShip", R"({"ship": "BR2SL", "storm": true, "crew_returning": 10})");
  CHECK_THAT(bad.status().message(), Catch::Contains("SOW 3.5"));
  auto s = g.State();
  CHECK(s.units.count("FR-IN-1") == 0);
  CHECK(s.states.at("FR").men_lost == 2500);
  CHECK(s.states.at("BR").men_lost == 750);
  REQUIRE(s.returns.size() == 1);
  REQUIRE(Directive(*g.db, "g", "EndCampaign", "{}").ok());
  g.Turn(1);
  s = g.State();
  CHECK(s.returns.empty());
  bool returned = false;
  for (const auto& m : s.states.at("FR").manpower_lines) returned |= m.item == "Return" && m.men == 1500;
  CHECK(returned);
}

TEST_CASE("SOW 6.5: standing orders buy each war turn and lapse when the city is captured", "[sow][orders]") {
  Game g;
  g.Orders("castlereagh", {OrderItem("BR", "StandingSupplyOrder", R"({"city": "Portsmouth", "supplies": 2})")});
  g.Turn(2);
  auto s = g.State();
  CHECK(s.cities.at("Portsmouth").supplies == 4);
  REQUIRE(Directive(*g.db, "g", "SetCityControl", R"({"city": "Portsmouth", "controller": "FR"})").ok());
  s = g.State();
  CHECK(s.standing.empty());
  g.Turn(1);
  CHECK(g.State().cities.at("Portsmouth").supplies == 4);
}

TEST_CASE("SOW 7.1: a battery repaired over the season — never a fort above its start", "[sow][orders]") {
  Game g;
  g.Orders("rose", {OrderItem("BR", "RepairOrder", R"({"city": "Portsmouth", "what": "Battery"})"),
                    OrderItem("BR", "RepairOrder", R"({"city": "Portsmouth", "what": "Fort"})")});
  g.Turn(1);
  auto s = g.State();
  CHECK(LineFor(s, "BR", "repair", "Portsmouth") != nullptr);
  CHECK(s.repairs.size() == 2);
  REQUIRE(Directive(*g.db, "g", "EndCampaign", "{}").ok());
  g.Turn(1);
  s = g.State();
  CHECK(s.repairs.empty());
  CHECK(s.cities.at("Portsmouth").fort_level == 3);
  CHECK(s.cities.at("Portsmouth").batteries == 2);
  CHECK(s.cities.at("Portsmouth").batteries_damaged == 0);
}

TEST_CASE("orders wait while a turn is part-way through", "[sow][orders]") {
  Game g;
  REQUIRE(replay::Adjudicate(*g.db, "g", "main", replay::AdjudicateMode::kPhase).ok());
  auto r = Order(*g.db, "g", "rose", OrderFile({OrderItem("BR", "TransferOrder", R"({"to_state": "SP", "amount_cc": 1})")}));
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == Status::Code::kConflict);
  CHECK_THAT(r.status().message(), Catch::Contains("is being adjudicated"));
}

TEST_CASE("SOW 3.1 and PATE 2.7: a new ship of the line takes 750 men, 600 crew and 150 Marines", "[sow][orders]") {
  Game g;
  int64_t pool = g.State().states.at("BR").manpower;
  auto r = g.Orders("rose", {OrderItem("BR", "BuildShipOrder", R"({"port": "London", "type": "SL", "id": "BR9SL"})")});
  REQUIRE(r.orders[0].status == "stands");
  g.Turn();
  auto s = g.State();
  CHECK(s.states.at("BR").manpower == pool - 750);
  REQUIRE(s.builds.count("BR9SL"));
  CHECK(s.builds.at("BR9SL").ship.crew == 600);
  CHECK(s.builds.at("BR9SL").ship.marines == 150);
  // Crew added later stops at the complement: BR1SL is full.
  g.Orders("rose", {OrderItem("BR", "ReinforceOrder", R"({"unit": "BR1SL", "men": 10})")});
  g.Turn();
  s = g.State();
  REQUIRE(s.states.at("BR").refused.size() == 1);
  CHECK_THAT(s.states.at("BR").refused[0].reason, Catch::Contains("at most 0 more crew (PATE 2.7)"));
}

TEST_CASE("SOW 3.5, PATE 1.2: a ship the GA moves goes to a port's harbour or coastal waters, or to sea", "[sow][directive]") {
  Game g;
  auto move = [&](const std::string& body) { return Directive(*g.db, "g", "MoveShip", body); };
  auto both = move(R"({"ship": "BR1SL", "location": "Portsmouth", "in_port": true, "coastal": true})");
  REQUIRE_FALSE(both.ok());
  CHECK_THAT(both.status().message(), Catch::Contains("not both"));
  auto neither = move(R"({"ship": "BR1SL", "location": "Portsmouth"})");
  REQUIRE_FALSE(neither.ok());
  CHECK_THAT(neither.status().message(), Catch::Contains("the harbour (in_port) or the coastal waters"));
  auto inland = move(R"({"ship": "BR1SL", "location": "Paris", "in_port": true})");
  REQUIRE_FALSE(inland.ok());
  CHECK_THAT(inland.status().message(), Catch::Contains("inland city"));
  auto at_sea_in_port = move(R"({"ship": "BR1SL", "location": "ECH", "coastal": true})");
  REQUIRE_FALSE(at_sea_in_port.ok());
  CHECK_THAT(at_sea_in_port.status().message(), Catch::Contains("at sea, neither in_port nor coastal"));
  REQUIRE(move(R"({"ship": "BR1SL", "location": "ECH"})").ok());
  auto s = g.State();
  CHECK(s.ships.at("BR1SL").location == "ECH");
  CHECK(s.ships.at("BR1SL").tactical == 1);  // at sea: in a tactical area (rules version 4)
  REQUIRE(move(R"({"ship": "BR1SL", "location": "Portsmouth", "coastal": true})").ok());
  CHECK(g.State().ships.at("BR1SL").tactical == 0);
}
