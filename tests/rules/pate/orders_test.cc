// PATE orders (section 4, and 2.3, 2.6, 2.7, 3.5, 6.11 where orders are
// refused): the book's examples as tests named by rule, the precedence of
// commander over deputy, the Naval Minister's appointments, attachment.
#include <catch2/catch.hpp>

#include "ledger/ledger.h"
#include "projections/roster.h"
#include "replay/driver.h"
#include "rules/pate/orders.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;
namespace pate = adjutant::rules::pate;

namespace {

struct Game {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  Game() {
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    auto st = CreateNwolGame(*db, "g", PateScenario());
    INFO(st.message());
    REQUIRE(st.ok());
  }
  P::TreasuryState State() { return Treasury(*db, "g"); }
  replay::SubmitReport Orders(const std::string& person, const std::vector<std::string>& items) {
    auto r = Order(*db, "g", person, OrderFile(items));
    INFO((r.ok() ? "" : r.status().message()));
    REQUIRE(r.ok());
    return *r;
  }
  std::set<std::string> RolesOf(const std::string& person) {
    auto w = replay::Fold(*db, "g", "main");
    REQUIRE(w.ok());
    return w->roster().Find(person)->roles;
  }
};

std::string Ship(const std::string& id, const std::string& more = "") {
  return "{\"ship\": \"" + id + "\"" + (more.empty() ? "" : ", " + more) + "}";
}

std::vector<int> Applies(uint8_t lo, uint8_t hi) {
  std::vector<int> out;
  for (int n = 1; n <= 12; ++n) {
    if (pate::ContactApplies(lo, hi, n)) out.push_back(n);
  }
  return out;
}

}  // namespace

TEST_CASE("PATE 4.6: pursue or evade, minimum 2 and maximum 10", "[pate][pate-orders]") {
  CHECK(Applies(2, 10) == std::vector<int>{2, 3, 4, 5, 6, 7, 8, 9, 10});
  CHECK_FALSE(pate::ContactApplies(2, 10, 1));
  CHECK_FALSE(pate::ContactApplies(2, 10, 11));
}

TEST_CASE("PATE 4.6: minimum 10 and maximum 2 — the example wins over the text", "[pate][pate-orders]") {
  // The book's example: 1 or 2 ships, or 10 or 11, but not 3 or 9.
  CHECK(Applies(10, 2) == std::vector<int>{1, 2, 10, 11, 12});
  CHECK_FALSE(pate::ContactApplies(10, 2, 3));
  CHECK_FALSE(pate::ContactApplies(10, 2, 9));
}

TEST_CASE("PATE 4.6: only a minimum, only a maximum, neither", "[pate][pate-orders]") {
  CHECK(Applies(0, 0).size() == 12);
  CHECK(Applies(4, 0) == std::vector<int>{4, 5, 6, 7, 8, 9, 10, 11, 12});
  CHECK(Applies(0, 3) == std::vector<int>{1, 2, 3});
}

TEST_CASE("PATE 4.11: the default orders", "[pate][pate-orders]") {
  pate::ShipOrders d = pate::DefaultOrders("BR5SL");
  CHECK_FALSE(d.moves());
  CHECK(d.attach_to.empty());
  CHECK_FALSE(d.detach);
  CHECK(d.stores == -1);                         // no loading or unloading
  CHECK(d.amphibious.empty());
  CHECK(d.contact == pate::Contact::Accept);     // accept contact
  CHECK(d.join_allies);                          // join allies
  CHECK(d.engage == pate::Engage::Accept);       // accept combat
  CHECK_FALSE(d.windward);                       // leeward gauge
  CHECK_FALSE(d.break_line);                     // line ahead
  CHECK_FALSE(d.aim_hull);                       // fire at rigging
  CHECK(d.order_seq == 0);
}

TEST_CASE("PATE 4.1: the commander's last order stands, else the deputy's last", "[pate][pate-orders]") {
  Game g;
  auto a = g.Orders("collingwood", {PateItem("ShipOrders", Ship("BR1FL", R"("sea1": "ECH")"))});
  REQUIRE(a.orders.at(0).status == "stands");
  auto b = g.Orders("nelson", {PateItem("ShipOrders", Ship("BR1FL", R"("sea1": "ECH", "sea2": "BIS")"))});
  REQUIRE(b.orders.at(0).status == "stands");
  // The deputy's later order does not replace the commander's.
  auto c = g.Orders("collingwood", {PateItem("ShipOrders", Ship("BR1FL", R"("stores": 24)"))});
  CHECK(c.orders.at(0).status == "superseded");
  auto standing = pate::StandingShipOrders(g.State());
  REQUIRE(standing.size() == 1);
  CHECK(standing.begin()->second.sea2 == "BIS");
  CHECK(standing.begin()->first == b.orders.at(0).seq);
  // The commander's later order replaces his earlier one.
  auto d = g.Orders("nelson", {PateItem("ShipOrders", Ship("BR1FL", R"("sea1": "ECH", "sea2": "NOS")"))});
  CHECK(d.orders.at(0).status == "stands");
  standing = pate::StandingShipOrders(g.State());
  REQUIRE(standing.size() == 1);
  CHECK(standing.begin()->second.sea2 == "NOS");
}

TEST_CASE("PATE 2.3: orders only from a ship's commander or deputy", "[pate][pate-orders]") {
  Game g;
  auto r = g.Orders("hardy", {PateItem("ShipOrders", Ship("BR1FL"))});
  CHECK(r.orders.at(0).status == "rejected");
  CHECK(r.orders.at(0).rule == "PATE 4.1");
  // Another state's ship, even from a commander of ours.
  r = g.Orders("nelson", {PateItem("ShipOrders", Ship("FR1SL"))});
  CHECK(r.orders.at(0).status == "rejected");
  // A named role the person holds but which may not order this ship.
  r = g.Orders("nelson", {PateItem("ShipOrders", Ship("BR1SL"), "BR1FL.commander")});
  CHECK(r.orders.at(0).status == "rejected");
  CHECK(r.orders.at(0).reason.find("may not give this order") != std::string::npos);
  CHECK(pate::StandingShipOrders(g.State()).empty());
}

TEST_CASE("PATE 2.3: the Naval Minister names commanders and deputies, at once", "[pate][pate-orders]") {
  Game g;
  // Not his to give.
  auto r = g.Orders("nelson", {PateItem("AppointOrder", R"({"ship": "BR1FL", "commander": "hardy"})")});
  CHECK(r.orders.at(0).status == "rejected");
  r = g.Orders("barham", {PateItem("AppointOrder", R"({"ship": "BR1FL", "commander": "nobody"})")});
  CHECK(r.orders.at(0).status == "rejected");
  CHECK(r.orders.at(0).rule == "PATE 2.3");
  // Another state's ship.
  r = g.Orders("barham", {PateItem("AppointOrder", R"({"ship": "FR1SL", "commander": "hardy"})")});
  CHECK(r.orders.at(0).status == "rejected");
  r = g.Orders("barham", {PateItem("AppointOrder", R"({"ship": "BR1FL", "commander": "hardy", "deputy": "nelson"})")});
  REQUIRE(r.orders.at(0).status == "stands");
  CHECK(g.RolesOf("hardy").count("BR1FL.commander"));
  CHECK(g.RolesOf("nelson").count("BR1FL.deputy"));
  CHECK_FALSE(g.RolesOf("nelson").count("BR1FL.commander"));
  CHECK_FALSE(g.RolesOf("collingwood").count("BR1FL.deputy"));
  // The new commander orders her this very turn; the old deputy no longer can.
  CHECK(g.Orders("hardy", {PateItem("ShipOrders", Ship("BR1FL"))}).orders.at(0).status == "stands");
  CHECK(g.Orders("collingwood", {PateItem("ShipOrders", Ship("BR1FL"))}).orders.at(0).status == "rejected");
}

TEST_CASE("PATE 6.11: ships crossing the Atlantic refuse orders", "[pate][pate-orders]") {
  Game g;
  auto r = g.Orders("barham", {PateItem("AppointOrder", R"({"ship": "BR3SL", "commander": "hardy"})")});
  REQUIRE(r.orders.at(0).status == "stands");
  r = g.Orders("hardy", {PateItem("ShipOrders", Ship("BR3SL", R"("sea1": "IBC")"))});
  CHECK(r.orders.at(0).status == "rejected");
  CHECK(r.orders.at(0).rule == "PATE 6.11");
}

TEST_CASE("PATE 4.5, 3.4, 4.9: what an order form may say", "[pate][pate-orders]") {
  Game g;
  auto reason = [&](const std::string& person, const std::string& body) {
    auto r = g.Orders(person, {PateItem("ShipOrders", body)});
    return r.orders.at(0).status == "rejected" ? r.orders.at(0).rule + ": " + r.orders.at(0).reason : "";
  };
  CHECK(reason("nelson", Ship("BR2SL", R"("sea1": "XYZ")")) ==
        "PATE 1.4: sea1: there is no sea area 'XYZ' (use its three-letter code)");  // nothing near it
  CHECK(reason("nelson", Ship("BR2SL", R"("port": "Atlantis")")) == "PATE 1.4: port: there is no port 'Atlantis' (check the spelling)");
  // pate=4 (PATE 1.4): the place the player most likely meant — a port by its
  // name, an area by its code or its name.
  CHECK(reason("nelson", Ship("BR2SL", R"("sea1": "Bay of Biscy")")) ==
        "PATE 1.4: sea1: there is no sea area 'Bay of Biscy' (use its three-letter code); did you mean BIS (Bay of Biscay)?");
  CHECK(reason("nelson", Ship("BR2SL", R"("sea1": "ECH", "sea2": "north sea")")) ==
        "PATE 1.4: sea2: there is no sea area 'north sea' (use its three-letter code); did you mean NOS (North Sea)?");
  CHECK(reason("nelson", Ship("BR2SL", R"("sea1": "BIS", "port": "Rochfort")")) ==
        "PATE 1.4: port: there is no port 'Rochfort' (check the spelling); did you mean 'Rochefort'?");
  CHECK(reason("nelson", Ship("BR2SL", R"("sea2": "BIS")")).find("PATE 4.5") == 0);
  CHECK(reason("nelson", Ship("BR2SL", R"("port": "Brest", "any_enemy_port": true)")).find("PATE 4.5") == 0);
  CHECK(reason("nelson", Ship("BR2SL", R"("stores": 25)")).find("PATE 3.4") == 0);
  CHECK(reason("nelson", Ship("BR2SL", R"("amphibious": [{"supplies": 5}])")).find("PATE 4.9") == 0);
  CHECK(reason("nelson", Ship("BR2SL", R"("sea1": "BIS", "port": "Rochefort", "stores": 24)")).empty());
  // pate=3 (PATE 6.2, 6.4, 4.6): the route and Evade with Join Allies too, every fault in one refusal.
  // pate=4 (PATE 6.2): and where she could go instead.
  CHECK(reason("nelson", Ship("BR2SL", R"("sea1": "BIS", "port": "Brest")")) ==
        "PATE 6.2: port: Brest is not entered from BIS; from BIS a ship enters Bilbao, Bordeaux and Rochefort");
  CHECK(reason("nelson", Ship("BR2SL", R"("sea1": "TYR")")) == "PATE 6.2: sea1: TYR is not next to ECH; next to ECH: NOS, BIS and WAP");
  CHECK(reason("nelson", Ship("BR1FL", R"("sea1": "NOS", "contact": "Evade", "stores": 25)")) ==
        "PATE 6.4, PATE 4.6, PATE 3.4: 3 faults: sea1: Portsmouth opens only on ECH, not NOS (PATE 6.4); a ship that "
        "evades may not join allies: with Evade, set join_allies to false (it is true unless given) (PATE 4.6); BR1FL can carry 0 to 24 stores "
        "(PATE 3.4)");
}

TEST_CASE("PATE 4.4: attaching — same place, no chains, across states", "[pate][pate-orders]") {
  Game g;
  auto rule = [&](const std::string& person, const std::string& body) {
    auto r = g.Orders(person, {PateItem("ShipOrders", body)});
    return r.orders.at(0).status == "rejected" ? r.orders.at(0).rule : "stands";
  };
  CHECK(rule("nelson", Ship("BR2SL", R"("attach_to": "BR2SL")")) == "PATE 4.4");        // herself
  CHECK(rule("nelson", Ship("BR2SL", R"("attach_to": "BR1FL")")) == "PATE 4.4");        // elsewhere
  CHECK(rule("nelson", Ship("BR2SL", R"("attach_to": "FR1FR")")) == "stands");          // another state's, same place
  // BR1SL is attached to BR1FL: nothing may attach to BR1SL (4.4's example).
  auto r = g.Orders("barham", {PateItem("AppointOrder", R"({"ship": "BR1TR", "commander": "hardy"})")});
  REQUIRE(r.orders.at(0).status == "stands");
  CHECK(rule("hardy", Ship("BR1TR", R"("attach_to": "BR1SL")")) == "PATE 4.4");
  CHECK(rule("hardy", Ship("BR1TR", R"("attach_to": "BR1FL")")) == "stands");
}

TEST_CASE("PATE 4.2: orders copied to attached ships — a transport's amphibious orders excepted", "[pate][pate-orders]") {
  P::FleetState s;
  auto add = [&](const std::string& id, P::ShipType t, const std::string& leader) {
    P::Ship sh;
    sh.id = id;
    sh.state = "BR";
    sh.type = t;
    sh.location = "Portsmouth";
    sh.in_port = true;
    sh.attached_to = leader;
    s.ships[id] = sh;
  };
  add("BR2SL", P::ShipType::SL, "");
  add("BR5SL", P::ShipType::SL, "BR2SL");
  add("BR8SL", P::ShipType::SL, "BR2SL");
  add("BR9SL", P::ShipType::SL, "BR2SL");
  add("BR4TR", P::ShipType::TR, "BR2SL");
  add("BR6SL", P::ShipType::SL, "");
  std::map<uint64_t, pate::ShipOrders> standing;
  auto order = [&](uint64_t seq, const std::string& ship) -> pate::ShipOrders& {
    standing[seq] = pate::DefaultOrders(ship);
    standing[seq].order_seq = seq;
    return standing[seq];
  };
  order(10, "BR2SL").sea1 = "ECH";
  order(11, "BR5SL").sea1 = "NOS";            // replaced by BR2SL's (still attached)
  order(12, "BR8SL").detach = true;           // detaches: its own orders stand
  standing[12].sea1 = "BIS";
  order(13, "BR4TR").amphibious = {pate::Amphibious{true, "", 10}};
  auto out = pate::CarriedOut(s, standing);
  CHECK(out.at("BR2SL").sea1 == "ECH");
  CHECK(out.at("BR5SL").sea1 == "ECH");
  CHECK(out.at("BR5SL").copied_from == "BR2SL");
  CHECK(out.at("BR5SL").attach_to == "BR2SL");
  CHECK(out.at("BR8SL").sea1 == "BIS");
  CHECK(out.at("BR8SL").attach_to.empty());
  CHECK(out.at("BR9SL").sea1 == "ECH");       // sent nothing: BR2SL's orders
  CHECK(out.at("BR4TR").sea1 == "ECH");
  REQUIRE(out.at("BR4TR").amphibious.size() == 1);  // its own amphibious orders stay
  CHECK(out.at("BR6SL").order_seq == 0);     // nothing sent: defaults (4.11)
  CHECK_FALSE(out.at("BR6SL").moves());
  // A transport leader's amphibious orders are not copied to its followers.
  s.ships["BR5SL"].attached_to = "BR4TR";
  s.ships["BR4TR"].attached_to = "";
  auto out2 = pate::CarriedOut(s, standing);
  CHECK(out2.at("BR5SL").copied_from == "BR4TR");
  CHECK(out2.at("BR5SL").amphibious.empty());
}

TEST_CASE("PATE 4.4: attachment never forms a chain, whatever the order of the orders", "[pate][pate-orders]") {
  P::FleetState s;
  for (const char* id : {"SP1SL", "SP2SL", "SP3SL"}) {
    P::Ship sh;
    sh.id = id;
    sh.state = "SP";
    sh.location = "Cadiz";
    sh.in_port = true;
    s.ships[id] = sh;
  }
  s.ships["SP2SL"].attached_to = "SP3SL";
  std::map<uint64_t, pate::ShipOrders> standing;
  standing[5] = pate::DefaultOrders("SP1SL");
  standing[5].attach_to = "SP2SL";  // SP2SL follows SP3SL: refused
  auto refused = pate::AttachmentRefusals(s, standing);
  REQUIRE(refused.count(5));
  CHECK(refused.at(5).rule == "PATE 4.4");
  // Had SP2SL detached first, the attachment is allowed.
  standing[4] = pate::DefaultOrders("SP2SL");
  standing[4].detach = true;
  CHECK(pate::AttachmentRefusals(s, standing).empty());
  auto out = pate::CarriedOut(s, standing);
  CHECK(out.at("SP1SL").attach_to == "SP2SL");
  CHECK(out.at("SP2SL").attach_to.empty());
  // A leader may not attach to another while ships follow it.
  std::map<uint64_t, pate::ShipOrders> lead;
  lead[7] = pate::DefaultOrders("SP3SL");
  lead[7].attach_to = "SP1SL";
  CHECK(pate::AttachmentRefusals(s, lead).count(7));
}

TEST_CASE("NWOL intake: written orders are recorded for the GA and refused as orders", "[pate][pate-orders]") {
  Game g;
  auto r = g.Orders("nelson", {R"({"body_type": "WrittenOrder", "body": {"text": "Engage the enemy more closely"}})"});
  CHECK(r.orders.at(0).status == "rejected");
  CHECK(r.orders.at(0).rule == "SOW 2.1");
  CHECK(r.orders.at(0).reason.find("for the GA to read") != std::string::npos);
}

TEST_CASE("PATE 7.8, 2.6 (rules version 8): the numbers spoken for are those standing orders name and posts hold",
          "[pate][pate-orders]") {
  Game g;
  const P::Roster none;  // no persons: only the standing orders count
  CHECK(pate::SpokenForNumbers(g.State(), none).empty());
  REQUIRE(g.Orders("nelson", {PateItem("ShipOrders", Ship("BR1FL", R"("sea1": "ECH")"))}).orders.at(0).status ==
          "stands");
  CHECK(pate::SpokenForNumbers(g.State(), none) == std::set<std::string>{"BR1FL"});
  // The posts: each commander's and deputy's ship, and no other role
  // (BR.naval, BR.prime name states, not ships).
  auto w = replay::Fold(*g.db, "g", "main");
  REQUIRE(w.ok());
  const std::set<std::string> posts{"BR1FL", "BR1FR", "BR1SL", "BR1TR", "BR2SL", "BR4SL", "BR5SL",
                                    "FR1FR", "FR1SL", "FR2SL", "FR3SL", "SP1SL"};
  CHECK(pate::SpokenForNumbers(g.State(), w->roster()) == posts);
  // The posts by number, each with its holder, for a refusal to name
  // (SOW 4.1's build, PATE 2.5's division): a state's offices are none.
  const auto held = P::ShipPosts(w->roster());
  std::set<std::string> numbers;
  for (const auto& [ship, list] : held) numbers.insert(ship);
  CHECK(numbers == posts);
  CHECK_FALSE(held.count("BR"));
  REQUIRE(held.at("SP1SL").size() == 1);
  CHECK(held.at("SP1SL").front().role == "SP1SL.commander");
  CHECK(P::PostsHeld({{"rudolf", "XX1SL.commander"}, {"otto", "XX1SL.deputy"}}) ==
        "rudolf holds XX1SL.commander and otto holds XX1SL.deputy");
}
