// The GA's PATE directives: combining and dividing transport groups (2.5),
// seizing inactive ships in a taken port (2.6); a directive that breaks the
// rules is refused and changes nothing.
#include <catch2/catch.hpp>

#include "ledger/ledger.h"
#include "projections/roster.h"
#include "replay/driver.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;

namespace {

struct Game : NwolDb {
  // The refusal's message, after checking that nothing was appended.
  std::string Refused(const std::string& kind, const std::string& body) {
    uint64_t head = db->HeadOf("g", "main")->seq;
    auto r = PateDirective(*db, "g", kind, body);
    CHECK_FALSE(r.ok());
    CHECK(db->HeadOf("g", "main")->seq == head);
    return r.ok() ? "" : r.status().message();
  }
};

}  // namespace

TEST_CASE("PATE 2.5: transport groups in contact combine, within 20,000", "[pate][pate-directives]") {
  Game g;
  auto before = Nwol(*g.db, "g");
  int64_t men = MenLedger(before);
  REQUIRE(PateDirective(*g.db, "g", "CombineTransports", R"({"into": "BR1TR", "from": ["BR2TR"]})").ok());
  auto s = Nwol(*g.db, "g");
  CHECK_FALSE(s.ships.count("BR2TR"));
  CHECK(s.ships.at("BR1TR").capacity == 8000);
  CHECK(s.ships.at("BR1TR").crew == 800);
  CHECK(s.ships.at("BR1TR").stores == 15);
  CHECK(MenLedger(s) == men);
}

TEST_CASE("PATE 2.5: combining is refused across states, out of contact, or over 20,000", "[pate][pate-directives]") {
  Game g;
  CHECK_THAT(g.Refused("CombineTransports", R"({"into": "BR1TR", "from": ["BR1SL"]})"), Catch::Contains("no transport group 'BR1SL'"));
  CHECK_THAT(g.Refused("CombineTransports", R"({"into": "BR1TR", "from": []})"), Catch::Contains("name the transport groups"));
  CHECK_THAT(g.Refused("CombineTransports", R"({"into": "BR1TR", "from": ["BR2TR", "BR2TR"]})"), Catch::Contains("named twice"));
  // Divide BR2TR, move nothing: BR1TR and a new group out of contact? All are in
  // Portsmouth; divide BR1TR to make a group, then try to exceed 20,000.
  REQUIRE(PateDirective(*g.db, "g", "DivideTransport", R"({"ship": "BR1TR", "new_id": "BR3TR", "capacity": 2000})").ok());
  CHECK(PateDirective(*g.db, "g", "CombineTransports", R"({"into": "BR1TR", "from": ["BR2TR", "BR3TR"]})").ok());
}

TEST_CASE("PATE 2.5: a transport group divides, each part at least 2,000", "[pate][pate-directives]") {
  Game g;
  auto r = PateDirective(*g.db, "g", "DivideTransport", R"({"ship": "BR1TR", "new_id": "BR3TR", "capacity": 2000})");
  INFO((r.ok() ? "" : r.status().message()));
  REQUIRE(r.ok());
  auto s = Nwol(*g.db, "g");
  CHECK(s.ships.at("BR1TR").capacity == 3000);
  CHECK(s.ships.at("BR3TR").capacity == 2000);
  CHECK(s.ships.at("BR3TR").crew == 200);
  CHECK(s.ships.at("BR1TR").crew == 300);
  CHECK(s.ships.at("BR3TR").stores == 2);
  CHECK(s.ships.at("BR1TR").stores == 3);
  CHECK(s.ships.at("BR3TR").location == "Portsmouth");
  CHECK(s.ships.at("BR3TR").in_port);
  // Her commander commands the new group too (2.3).
  auto w = replay::Fold(*g.db, "g", "main");
  REQUIRE(w.ok());
  CHECK(w->roster().Find("troubridge")->roles.count("BR3TR.commander"));
}

TEST_CASE("PATE 2.5: dividing is refused below 2,000 or with a bad id", "[pate][pate-directives]") {
  Game g;
  CHECK_THAT(g.Refused("DivideTransport", R"({"ship": "BR1TR", "new_id": "BR3TR", "capacity": 1999})"), Catch::Contains("at least 2000"));
  CHECK_THAT(g.Refused("DivideTransport", R"({"ship": "BR1TR", "new_id": "BR3TR", "capacity": 3001})"), Catch::Contains("at least 2000"));
  CHECK_THAT(g.Refused("DivideTransport", R"({"ship": "BR1TR", "new_id": "BR2TR", "capacity": 2000})"), Catch::Contains("already in use"));
  CHECK_THAT(g.Refused("DivideTransport", R"({"ship": "BR1TR", "new_id": "FR9TR", "capacity": 2000})"), Catch::Contains("PATE 2.4"));
  CHECK_THAT(g.Refused("DivideTransport", R"({"ship": "BR1SL", "new_id": "BR3TR", "capacity": 2000})"), Catch::Contains("no transport group"));
}

TEST_CASE("PATE 2.6: inactive ships in a taken port are captured or destroyed", "[pate][pate-directives]") {
  Game g;
  // Toulon is French and unentered: nothing to seize yet.
  CHECK_THAT(g.Refused("SeizeInactive", R"({"ship": "FR4SL", "by": "BR"})"), Catch::Contains("neither taken"));
  CHECK_THAT(g.Refused("SeizeInactive", R"({"ship": "FR1SL", "by": "BR"})"), Catch::Contains("is active"));
  REQUIRE(Directive(*g.db, "g", "SetCityControl", R"({"city": "Toulon", "controller": "BR"})").ok());
  REQUIRE(PateDirective(*g.db, "g", "SeizeInactive", R"({"ship": "FR4SL", "by": "BR"})").ok());
  auto s = Nwol(*g.db, "g");
  CHECK_FALSE(s.ships.count("FR4SL"));
  REQUIRE(s.ships.count("BR6SL"));  // the lowest free number of a British SL
  CHECK(s.ships.at("BR6SL").state == "BR");
  CHECK(s.ships.at("BR6SL").name == "Intrepide");
  CHECK(s.ships.at("BR6SL").attached_to.empty());
}
