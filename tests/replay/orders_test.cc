// replay::OrdersGiven (replay/orders.h): the orders given for the coming
// turn with their fate, read once for `adjutant status` and the desk's
// GET /api/games/G/orders — each order's seq, person, role, slot and fate
// as the submission itself reported it (stands; refused, with the rule and
// reason; superseded, by the order that replaced it), and one person's
// orders a page at a time.
#include <catch2/catch.hpp>

#include "ledger/ledger.h"
#include "replay/driver.h"
#include "replay/orders.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;

TEST_CASE("replay::OrdersGiven: the coming turn's orders with their fate, as each submission reported it, and a "
          "person's a page at a time",
          "[status][orders-given]") {
  testing::NwolDb g;
  ledger::Ledger& db = *g.db;
  auto world = replay::Fold(db, "g", "main");
  REQUIRE(world.ok());
  auto at = replay::OrderPositionOf(*world);
  REQUIRE(at.ok());
  auto none = replay::OrdersGiven(db, "g", "main", *at);
  REQUIRE(none.ok());
  CHECK(none->orders.empty());
  // Three submissions: an order that will be replaced; one refused on
  // receipt (PATE 4.6: evade and join allies) and its replacement; another
  // person's order.
  std::vector<replay::OrderOutcome> sent;
  for (const auto& [person, body] : std::vector<std::pair<std::string, std::string>>{
           {"villeneuve", R"({"ship": "FR1FR", "sea1": "NOS"})"},
           {"villeneuve", R"({"ship": "FR1FR", "sea1": "NOS", "contact": "Evade", "join_allies": true})"},
           {"villeneuve", R"({"ship": "FR1FR", "sea1": "NOS", "contact": "Accept"})"},
       }) {
    auto r = testing::Order(db, "g", person, testing::OrderFile({testing::PateItem("ShipOrders", body)}));
    INFO(r.status().message());
    REQUIRE(r.ok());
    for (const auto& o : r->orders) sent.push_back(o);
  }
  REQUIRE(sent.size() == 3);
  auto all = replay::OrdersGiven(db, "g", "main", *at);
  REQUIRE(all.ok());
  REQUIRE(all->orders.size() == 3);
  CHECK(all->next_after == 0);
  for (size_t i = 0; i < 3; ++i) {
    const replay::GivenOrder& o = all->orders[i];
    INFO(i << ": " << sent[i].status << " " << sent[i].reason);
    CHECK(o.seq == sent[i].seq);
    CHECK(o.person == "villeneuve");
    CHECK(o.slot == sent[i].slot);
    CHECK(o.event.empty());  // only with_events
  }
  // The first stood on receipt and was replaced later, by the third.
  CHECK(all->orders[0].fate == replay::OrderFate::kSuperseded);
  CHECK(all->orders[0].superseded);
  CHECK(all->orders[0].by_seq == sent[2].seq);
  // The second was refused on receipt, with the rule and reason it was given.
  REQUIRE(sent[1].status == "rejected");
  CHECK(all->orders[1].fate == replay::OrderFate::kRefused);
  CHECK(all->orders[1].refused);
  CHECK(all->orders[1].rule == sent[1].rule);
  CHECK(all->orders[1].reason == sent[1].reason);
  CHECK(all->orders[2].fate == replay::OrderFate::kStands);
  CHECK_FALSE(all->orders[2].refused);
  CHECK_FALSE(all->orders[2].superseded);
  // One person's, a page of one at a time, with the events' bytes.
  replay::OrdersQuery q;
  q.person = "villeneuve";
  q.limit = 1;
  q.with_events = true;
  std::vector<uint64_t> pages;
  for (int i = 0; i < 5; ++i) {
    auto page = replay::OrdersGiven(db, "g", "main", *at, q);
    REQUIRE(page.ok());
    REQUIRE(page->orders.size() == 1);
    CHECK_FALSE(page->orders[0].event.empty());
    pages.push_back(page->orders[0].seq);
    if (page->next_after == 0) break;
    CHECK(page->next_after == page->orders[0].seq);
    q.after = page->next_after;
  }
  CHECK(pages == std::vector<uint64_t>{sent[0].seq, sent[1].seq, sent[2].seq});
  // Another person's: none.
  q.person = "nelson";
  q.after = 0;
  auto his = replay::OrdersGiven(db, "g", "main", *at, q);
  REQUIRE(his.ok());
  CHECK(his->orders.empty());
}
