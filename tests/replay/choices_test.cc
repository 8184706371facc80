// `report choices` (issue 21): what a person's order forms may offer him.
// On every kind of game of the registry: every person holding roles gets an
// answer of his kind, naming only ships he commands, and someone of each
// kind gets something to choose from; another person may not read his. On
// the NWOL game: the offer agrees with the rules — every first sea area
// offered to a ship is taken when ordered, every other area of the map is
// refused under the movement rules (PATE 6.2, 6.4, 6.11), and every ship
// offered to attach to is taken (4.4).
#include <catch2/catch.hpp>

#include <set>

#include "ledger/ledger.h"
#include "projections/roster.h"
#include "replay/driver.h"
#include "reports/reports.h"
#include "schema/codec.h"
#include "schema/reports_generated.h"
#include "support/kinds.h"
#include "support/pate_game.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

std::vector<uint8_t> ChoicesOf(ledger::Ledger& db, const std::string& person) {
  CliRun r = Cli(db, {"report", "choices", "g", "--player", person, "--json"});
  INFO(person << ": " << r.err);
  REQUIRE(r.code == 0);
  auto bytes = schema::ParseJson("OrderChoices", r.out, "choices");
  INFO(r.out);
  REQUIRE(bytes.ok());
  return *bytes;
}

const fb::OrderChoices* Root(const std::vector<uint8_t>& b) { return flatbuffers::GetRoot<fb::OrderChoices>(b.data()); }

template <typename V>
size_t Size(const V* v) {
  return v ? v->size() : 0;
}

std::string ShipOrder(const std::string& ship, const std::string& more) {
  return R"({"orders": [)" +
         PateItem("ShipOrders", R"({"ship": ")" + ship + "\", " + more + "}") + "]}";
}

}  // namespace

TEST_CASE("report choices, on every kind of game: an answer of its kind for each person, only his ships, something "
          "to choose for someone, nobody else's to read",
          "[choices]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      auto w = replay::Fold(db, "g", "main");
      REQUIRE(w.ok());
      size_t offered = 0, persons = 0;
      std::string first;
      for (const auto& [person, p] : w->roster().persons()) {
        if (p.roles.empty()) continue;
        ++persons;
        if (first.empty()) first = person;
        const auto bytes = ChoicesOf(db, person);
        const fb::OrderChoices* c = Root(bytes);
        CHECK(c->kind()->str() == kind.name);
        CHECK(c->person()->str() == person);
        if (c->ships()) {
          for (const auto* s : *c->ships()) {
            INFO(person << " offered " << s->id()->str());
            CHECK((p.roles.count(s->id()->str() + ".commander") + p.roles.count(s->id()->str() + ".deputy")) == 1);
          }
        }
        offered += Size(c->ships()) + Size(c->cities()) + Size(c->provinces()) + Size(c->units());
        // The text form says the same.
        CliRun text = Cli(db, {"report", "choices", "g", "--player", person});
        REQUIRE(text.code == 0);
        CHECK_THAT(text.out, Catch::StartsWith("What the order forms offer " + person));
      }
      REQUIRE(persons > 0);
      CHECK((offered > 0) == kind.offers_choices);
      // A player reads his own, not another's.
      reports::Viewer v;
      v.person = "someone-else";
      reports::Request rq;
      rq.kind = reports::Kind::kChoices;
      rq.game = "g";
      rq.player = first;
      CHECK_FALSE(reports::MayRead(v, rq).ok());
      v.person = first;
      CHECK(reports::MayRead(v, rq).ok());
      // Options that do not apply are refused, naming them.
      CliRun turn = Cli(db, {"report", "choices", "g", "--player", first, "--turn", kind.coming.ToString()});
      CHECK(turn.code == 2);
      CHECK_THAT(turn.err, Catch::Contains("--turn"));
      CliRun nobody = Cli(db, {"report", "choices", "g"});
      CHECK(nobody.code == 2);
    }
  }
}

TEST_CASE("report choices agrees with the rules: every first sea area offered is taken, every other refused "
          "(PATE 6.2, 6.4, 6.11), every ship offered to attach to is taken (4.4)",
          "[choices][pate]") {
  NwolDb n;
  ledger::Ledger& db = *n.db;
  auto w = replay::Fold(db, "g", "main");
  REQUIRE(w.ok());
  size_t ships = 0, taken = 0, refused = 0, attached = 0;
  for (const auto& [person, p] : w->roster().persons()) {
    const auto bytes = ChoicesOf(db, person);
    const fb::OrderChoices* c = Root(bytes);
    if (!c->ships()) continue;
    REQUIRE(c->areas());
    for (const auto* s : *c->ships()) {
      ++ships;
      const std::string id = s->id()->str();
      std::set<std::string> offered;
      if (s->sea1()) for (const auto* a : *s->sea1()) offered.insert(a->str());
      for (const auto* area : *c->areas()) {
        const std::string code = area->code()->str();
        if (s->location()->str() == code) continue;  // staying put is no leg
        auto file = schema::ParseJson("OrderFile", ShipOrder(id, "\"sea1\": \"" + code + "\""), "orders");
        REQUIRE(file.ok());
        auto r = replay::SubmitOrders(db, "g", "main", person, *file);
        INFO(person << " orders " << id << " (" << s->location()->str() << ", " << s->position()->str() << ") to " << code);
        REQUIRE(r.ok());
        REQUIRE(r->orders.size() == 1);
        const auto& o = r->orders[0];
        INFO(o.status << " " << o.rule << ": " << o.reason);
        if (offered.count(code)) {
          CHECK(o.status == "stands");
          taken++;
        } else {
          CHECK(o.status == "rejected");
          CHECK((o.rule.find("PATE 6.2") != std::string::npos || o.rule.find("PATE 6.4") != std::string::npos ||
                 o.rule.find("PATE 6.11") != std::string::npos));
          refused++;
        }
      }
      if (s->attach()) {
        for (const auto* t : *s->attach()) {
          auto file = schema::ParseJson("OrderFile", ShipOrder(id, "\"attach_to\": \"" + t->str() + "\""), "orders");
          REQUIRE(file.ok());
          auto r = replay::SubmitOrders(db, "g", "main", person, *file);
          REQUIRE(r.ok());
          INFO(id << " attaches to " << t->str() << ": " << r->orders.at(0).rule << " " << r->orders.at(0).reason);
          CHECK(r->orders.at(0).status == "stands");
          attached++;
        }
      }
    }
  }
  // The scenario's commanders have ships at sea and in port: both kinds of first leg were tried.
  CHECK(ships >= 3);
  CHECK(taken > 0);
  CHECK(refused > 0);
  INFO("attach offers tried: " << attached);
}
