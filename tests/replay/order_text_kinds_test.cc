// Issue 20: the text order form on every kind of game (tests/support/kinds.h).
// `read-orders` prints each of a kind's order files in the text form and
// reads it back to the same JSON; the same orders sent as text to one twin
// game and as JSON to the other leave the turn they are for ending in the
// same views.
#include <catch2/catch.hpp>

#include <fstream>

#include "ledger/ledger.h"
#include "replay/driver.h"
#include "rules/order_text.h"
#include "schema/codec.h"
#include "support/kinds.h"

using namespace adjutant;
using namespace adjutant::testing;

TEST_CASE("issue 20: orders in the text form on every kind of game — read-orders prints and reads them, and the turn "
          "ends as with the JSON form",
          "[order-text][kinds]") {
  for (const auto& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame a(kind), b(kind);
      REQUIRE(a.status.ok());
      REQUIRE(b.status.ok());
      auto world = replay::Fold(*b, "g", "main");
      REQUIRE(world.ok());
      REQUIRE(world->kind() != nullptr);
      const auto rulesets = world->kind()->Rulesets();
      const auto& plan = kind.turns.back();
      REQUIRE_FALSE(plan.orders.empty());
      size_t n = 0;
      for (const auto& [person, json] : plan.orders) {
        INFO(person << ": " << json);
        const std::string jpath = a.dir.Sub("orders" + std::to_string(n) + ".json");
        const std::string tpath = a.dir.Sub("orders" + std::to_string(n++) + ".txt");
        std::ofstream(jpath) << json;
        CliRun text = Cli(*a, {"read-orders", "g", jpath});
        INFO(text.err);
        REQUIRE(text.code == 0);
        REQUIRE_FALSE(text.out.empty());
        CHECK(text.out.front() != '{');
        std::ofstream(tpath) << text.out;
        auto jbuf = schema::ParseJson("OrderFile", json, "json");
        REQUIRE(jbuf.ok());
        CliRun back = Cli(*a, {"read-orders", "g", tpath, "--json"});
        REQUIRE(back.code == 0);
        CHECK(back.out == *schema::ToJson("OrderFile", jbuf->data()) + "\n");
        auto tbuf = rules::ParseOrderDocument(text.out, "text", rulesets);
        REQUIRE(tbuf.ok());
        CHECK(*tbuf == *jbuf);
        REQUIRE(replay::SubmitOrders(*a, "g", "main", person, *jbuf).ok());
        REQUIRE(replay::SubmitOrders(*b, "g", "main", person, *tbuf).ok());
      }
      // A mistake: one message naming the file, line and word; nothing read.
      const std::string bad = a.dir.Sub("bad.txt");
      std::ofstream(bad) << "\n\"unclosed\n";
      CliRun refused = Cli(*a, {"read-orders", "g", bad});
      CHECK(refused.code != 0);
      CHECK_THAT(refused.err, Catch::Contains("bad.txt:2:1: a quoted word is not closed"));
      REQUIRE(Cli(*a, {"adjudicate", "g"}).code == 0);
      REQUIRE(Cli(*b, {"adjudicate", "g"}).code == 0);
      CliRun ra = Cli(*a, {"replay", "g", "--to", kind.coming.ToString()});
      CliRun rb = Cli(*b, {"replay", "g", "--to", kind.coming.ToString()});
      INFO(ra.err);
      REQUIRE(ra.code == 0);
      REQUIRE(rb.code == 0);
      // The rows, not the heading's "as of seq N".
      CHECK(ra.out.substr(ra.out.find('\n') + 1) == rb.out.substr(rb.out.find('\n') + 1));
      CHECK(Cli(*a, {"log", "g", "--kind", "OrderSubmitted", "--json"}).out ==
            Cli(*b, {"log", "g", "--kind", "OrderSubmitted", "--json"}).out);
    }
  }
}
