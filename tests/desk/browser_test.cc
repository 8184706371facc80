// The order desk's web page in a real browser: Debian's chromium, headless,
// driven over the DevTools protocol (tests/support/browser.h). A ship's
// commander logs in, fills the ship order form (PATE 4), submits it, sees
// his order standing and draws his positions report; the order is in the
// log. scripts/test.sh installs chromium.
#include <catch2/catch.hpp>
#include <sodium.h>

#include "support/build_paths.h"
#include "cli/commands.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "support/browser.h"
#include "support/desk_client.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Browser;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;

// The 1805 game on a desk whose GA password is the-ga-secret (nelson's
// password nelson-1805), and a browser on its page logged in as the GA with
// the game named in his forms.
struct GaDesk {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  std::unique_ptr<desk::Desk> desk;
  GaDesk() {
    REQUIRE(sodium_init() >= 0);
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    REQUIRE(testing::CreateNwolGame(*db, "nwol", Slurp(F + "/scenarios/nwol-1805.json")).ok());
    REQUIRE(replay::SetPassword(*db, "nwol", "main", "nelson", testing::CheapPasswordHash("nelson-1805")).ok());
    desk::Settings s;
    s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
    auto started = testing::StartDesk(*db, s);
    REQUIRE(started.ok());
    desk = std::move(started).value();
  }
  ~GaDesk() {
    desk->Stop();
    desk->Wait();
  }
  void LogInAsGa(Browser& b) {
    b.Send("Page.navigate", "{\"url\": \"http://127.0.0.1:" + std::to_string(desk->port()) + "/\"}");
    REQUIRE(b.Until("document.readyState === 'complete' && !!document.getElementById('ga-login-btn')"));
    b.Eval("document.getElementById('ga-password').value = 'the-ga-secret'; document.getElementById('ga-login-btn').click(); true");
    REQUIRE(b.Until("!document.getElementById('ga').classList.contains('hidden')"));
    b.Eval("document.getElementById('ga-game').value = 'nwol'; true");
  }
};

}  // namespace

TEST_CASE("desk in a browser: a commander logs in, fills the ship order form, submits it, sees it standing and "
          "draws his positions — the Treasury minister builds a unit from his form",
          "[desk][browser]") {
  REQUIRE(sodium_init() >= 0);
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  std::unique_ptr<ledger::Ledger> db = std::move(l).value();
  REQUIRE(testing::CreateNwolGame(*db, "nwol", Slurp(F + "/scenarios/nwol-1805.json")).ok());
  REQUIRE(replay::SetPassword(*db, "nwol", "main", "nelson", testing::CheapPasswordHash("nelson-1805")).ok());
  REQUIRE(replay::SetPassword(*db, "nwol", "main", "pitt", testing::CheapPasswordHash("pitt-1805")).ok());
  auto started = testing::StartDesk(*db, desk::Settings{});
  REQUIRE(started.ok());
  std::unique_ptr<desk::Desk> desk = std::move(started).value();
  {
    Browser b(dir.Sub("chromium"));
    b.Send("Page.navigate", "{\"url\": \"http://127.0.0.1:" + std::to_string(desk->port()) + "/\"}");
    REQUIRE(b.Until("document.readyState === 'complete' && !!document.getElementById('login-btn')"));
    // Log in.
    b.Eval("document.getElementById('game').value = 'nwol'; document.getElementById('person').value = 'nelson';"
           "document.getElementById('password').value = 'nelson-1805'; document.getElementById('login-btn').click(); true");
    REQUIRE(b.Until("!document.getElementById('player').classList.contains('hidden')"));
    // The ship form lists his ship (PATE 4: his own ships only).
    REQUIRE(b.Until("!document.getElementById('ship-form').classList.contains('hidden') && "
                    "document.getElementById('sf-ship').options.length === 1"));
    CHECK(b.Eval("document.getElementById('sf-ship').value") == "\"BR1FL\"");
    CHECK(b.Eval("document.getElementById('treasury-form').classList.contains('hidden')") == "true");
    // The reminder (issue 20): no deadline yet, no orders of his yet.
    REQUIRE(b.Until("document.getElementById('reminder').textContent.includes('Orders now go to turn 1805.1.1')"));
    // The turn in words and the phase next (issue 21).
    CHECK(b.Eval("document.getElementById('reminder').textContent.includes("
                 "'Orders now go to turn 1805.1.1 (Spring 1805, turn 1); the next phase to adjudicate is ')") == "true");
    CHECK(b.Eval("document.getElementById('reminder').textContent.includes('No deadline is set')") == "true");
    CHECK(b.Eval("document.getElementById('reminder').textContent.includes('You have given no orders yet')") == "true");
    // Fill in movement, contact and combat; add it to the order file; submit.
    b.Eval("const f = id => document.getElementById(id);"
           "f('sf-sea1').value = 'SOA'; f('sf-contact').value = 'Pursue'; f('sf-gauge').value = 'Windward';"
           "f('sf-engage').value = 'Close'; f('sf-line').value = 'BreakLine'; f('sf-aim').value = 'Hull';"
           "f('order-text').value = '{\"orders\": []}'; f('sf-add').click(); f('submit-btn').click(); true");
    REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('recorded for turn')"));
    CHECK(b.Eval("document.getElementById('submitted').textContent.includes('BR1FL: stands')") == "true");
    // Evade unticks and locks "join allies" (PATE 4.6: a ship that evades may
    // not join allies; an order giving both is refused on receipt), so the
    // form's order stands.
    b.Eval("{ const f = id => document.getElementById(id); f('sf-contact').value = 'Evade';"
           "f('sf-contact').dispatchEvent(new Event('change')); } true");
    CHECK(b.Eval("document.getElementById('sf-allies').checked") == "false");
    CHECK(b.Eval("document.getElementById('sf-allies').disabled") == "true");
    b.Eval("{ const f = id => document.getElementById(id); f('order-text').value = '{\"orders\": []}';"
           "f('submitted').textContent = ''; f('sf-add').click(); f('submit-btn').click(); } true");
    REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('recorded for turn')"));
    CHECK(b.Eval("document.getElementById('submitted').textContent.includes('BR1FL: stands')") == "true");
    // Issue 20: the same order typed in the text form; the forms do not write over it.
    b.Eval("{ const f = id => document.getElementById(id); f('submitted').textContent = '';"
           "f('order-text').value = 'BR1FL orders move SOA contact evade no-join-allies gauge windward engage close line break-line aim hull'; f('sf-add').click(); } true");
    REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('is in the text form')"));
    CHECK(b.Eval("document.getElementById('order-text').value") ==
          "\"BR1FL orders move SOA contact evade no-join-allies gauge windward engage close line break-line aim hull\"");
    b.Eval("{ const f = id => document.getElementById(id); f('submitted').textContent = ''; f('submit-btn').click(); } true");
    REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('recorded for turn')"));
    CHECK(b.Eval("document.getElementById('submitted').textContent.includes('BR1FL: stands')") == "true");
    // The GA sets a deadline; his orders as they stand, and the reminder
    // with the deadline and his one order standing (the second replaced the first).
    std::string out, err;
    REQUIRE(cli::RunShared(*db, {"schedule", "nwol", "set", "--deadline", "2099-01-01T12:00Z"}, &out, &err) == 0);
    b.Eval("document.getElementById('orders-btn').click(); true");
    REQUIRE(b.Until("document.getElementById('orders').textContent.includes('BR1FL: stands')"));
    REQUIRE(b.Until("document.getElementById('reminder').textContent.includes('They close at 2099-01-01')"));
    CHECK(b.Eval("document.getElementById('reminder').textContent.includes('d ') && "
                 "document.getElementById('reminder').textContent.includes('m left')") == "true");
    CHECK(b.Eval("document.getElementById('reminder').textContent.includes('You have 1 order standing')") == "true");
    // His positions, drawn on the naval map.
    b.Eval("document.getElementById('kind').value = 'positions'; document.getElementById('svg-btn').click(); true");
    REQUIRE(b.Until("!!document.querySelector('#drawing svg')"));
    // Log out; the Treasury minister logs in on the same page: his form, not the ship form.
    b.Eval("document.getElementById('logout-btn').click(); true");
    REQUIRE(b.Until("!document.getElementById('login').classList.contains('hidden')"));
    b.Eval("document.getElementById('game').value = 'nwol'; document.getElementById('person').value = 'pitt';"
           "document.getElementById('password').value = 'pitt-1805'; document.getElementById('login-btn').click(); true");
    REQUIRE(b.Until("!document.getElementById('treasury-form').classList.contains('hidden')"));
    REQUIRE(b.Until("document.getElementById('tf-city').options.length > 1"));  // his cities, picked
    CHECK(b.Eval("document.getElementById('ship-form').classList.contains('hidden')") == "true");
    // A unit type is chosen from the schema's list (SOW 3.1), not typed.
    CHECK(b.Eval("[...document.getElementById('tf-type').options].map(o => o.value).join(',')") ==
          "\"IN,LI,MI,LC,MC,HC,LA,MA,HA,SA,AQ,CQ,FL,SL,FR,TR\"");
    // (A block of its own: the page's global scope already holds the `f` declared above.)
    b.Eval("{ const f = id => document.getElementById(id);"
           "f('tf-kind').value = 'BuildUnitOrder'; f('tf-city').value = 'London'; f('tf-type').value = 'HC';"
           "f('tf-men').value = '500'; f('tf-id').value = 'BR-HC-9';"
           "f('order-text').value = '{\"orders\": []}'; f('submitted').textContent = ''; f('tf-add').click();"
           "f('submit-btn').click(); } true");
    REQUIRE(b.Until("document.getElementById('submitted').textContent !== ''"));
    const std::string submitted = b.Eval("document.getElementById('submitted').textContent");
    INFO(submitted);
    CHECK(b.Eval("document.getElementById('submitted').textContent.includes('recorded for turn')") == "true");
  }
  // The order the form built is in the log, from nelson, as the schema has it.
  std::string recorded, treasury;
  std::vector<std::string> bodies;  // nelson's orders' bodies, in order (not when each was received: a second apart)
  REQUIRE(db->Read("nwol", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                if (const auto* o = e.event()->payload_as_OrderSubmitted()) {
                  (o->person()->str() == "nelson" ? recorded : treasury) = *schema::ToJson("Event", e.bytes.data());
                  if (o->person()->str() == "nelson") {
                    const size_t from = recorded.find("\"body_type\""), to = recorded.find(",\"received_at\"");
                    CHECK(to != std::string::npos);  // the desk's orders carry when they were received
                    bodies.push_back(recorded.substr(from, to - from));
                  }
                }
                return Status::Ok();
              }).ok());
  // The order typed in the text form is the one the form built before it (issue 20).
  REQUIRE(bodies.size() >= 3);
  CHECK(bodies[bodies.size() - 1] == bodies[bodies.size() - 2]);
  CHECK_THAT(recorded, Catch::Contains("\"person\": \"nelson\"") && Catch::Contains("\"ship\": \"BR1FL\"") &&
                           Catch::Contains("\"sea1\": \"SOA\"") && Catch::Contains("\"line\": \"BreakLine\""));
  CHECK_THAT(treasury, Catch::Contains("\"person\": \"pitt\"") && Catch::Contains("\"body_type\": \"BuildUnitOrder\"") &&
                           Catch::Contains("\"type\": \"HC\"") && Catch::Contains("\"men\": 500") &&
                           Catch::Contains("\"city\": \"London\""));
  desk->Stop();
  desk->Wait();
}

TEST_CASE("desk in a browser: the GA's status panel shows who owes orders, and draws itself again when the live feed "
          "brings a player's orders",
          "[desk][browser][status]") {
  GaDesk g;
  std::unique_ptr<desk::Desk>& desk = g.desk;
  {
    Browser b(g.dir.Sub("chromium"));
    g.LogInAsGa(b);
    b.Eval("document.getElementById('status-btn').click(); true");
    // Drawn from the JSON: the lines and the table of persons, no JSON.
    REQUIRE(b.Until("!!document.getElementById('st-owing')"));
    CHECK(b.Eval("document.getElementById('st-next').textContent.startsWith('next to adjudicate: ')") == "true");
    CHECK(b.Eval("document.getElementById('st-orders').textContent.startsWith('orders go to 1805.1.1')") == "true");
    CHECK(b.Eval("document.getElementById('st-deadline').textContent.startsWith('deadline: ')") == "true");
    CHECK(b.Eval("document.getElementById('st-last').textContent") != "\"\"");
    CHECK(b.Eval("document.getElementById('st-owing').textContent.includes('nelson')") == "true");
    CHECK(b.Eval("[...document.querySelectorAll('#st-persons tr')].some(r => r.cells[0].textContent === 'nelson' && "
                 "r.cells[1].textContent.includes('BR1FL.commander') && r.cells[2].textContent === '0')") == "true");
    CHECK(b.Eval("document.getElementById('ga-status').textContent.includes('{')") == "false");
    REQUIRE(b.Until("document.getElementById('st-live').textContent.includes('following')"));
    // nelson orders his ship (elsewhere): the feed brings it, the panel is drawn again unasked.
    const std::string token =
        testing::TokenOf(testing::HttpCall(desk->port(), "POST", "/api/login",
                                           R"({"game": "nwol", "person": "nelson", "password": "nelson-1805"})")
                             .body);
    auto order = testing::HttpCall(desk->port(), "POST", "/api/games/nwol/orders",
                                   R"({"orders": [{"body_type": "PateOrder", "body": {"body_type": "ShipOrders", "body": )"
                                   R"({"ship": "BR1FL", "sea1": "SOA"}}}]})",
                                   token);
    INFO(order.body);
    REQUIRE(order.status == 200);
    CHECK(b.Until("!document.getElementById('st-owing').textContent.includes('nelson')"));
    CHECK(b.Eval("[...document.querySelectorAll('#st-persons tr')].some(r => r.cells[0].textContent === 'nelson' && "
                 "r.cells[2].textContent === '1' && r.cells[3].textContent === '1' && r.cells[6].textContent === '0' && "
                 "r.cells[7].textContent !== '-' && r.cells[8].textContent.endsWith(' UTC'))") ==
          "true");
    // Logging out ends the following.
    b.Eval("document.getElementById('ga-logout-btn').click(); true");
    REQUIRE(b.Until("!document.getElementById('login').classList.contains('hidden')"));
    CHECK(b.Eval("document.getElementById('st-live').textContent") == "\"\"");
  }
  desk->Stop();
  desk->Wait();
}

TEST_CASE("desk in a browser: the GA's forms — adjudication asked and confirmed and a password reset and a player's orders "
          "entered for him and a deadline set — each answered in words",
          "[desk][browser][ga-forms]") {
  GaDesk g;
  std::unique_ptr<desk::Desk>& desk = g.desk;
  std::unique_ptr<ledger::Ledger>& db = g.db;
  const auto head = [&] {
    auto h = db->HeadOf("nwol", "main");
    REQUIRE(h.ok());
    return h->seq;
  };
  {
    Browser b(g.dir.Sub("chromium"));
    g.LogInAsGa(b);

    // A password reset: the old one no longer logs him in, the new one does.
    b.Eval("document.getElementById('pw-person').value = 'nelson'; document.getElementById('pw-new').value = 'trafalgar-21';"
           "document.getElementById('pw-btn').click(); true");
    REQUIRE(b.Until("document.getElementById('pw-out').textContent.startsWith('Password set for nelson')"));
    CHECK(b.Eval("document.getElementById('pw-new').value") == "\"\"");
    CHECK(testing::HttpCall(desk->port(), "POST", "/api/login",
                            R"({"game": "nwol", "person": "nelson", "password": "trafalgar-21"})")
              .status == 200);

    // His orders, sent by other means, entered for him in the text form.
    const uint64_t mark = head();
    b.Eval("document.getElementById('of-person').value = 'nelson';"
           "document.getElementById('of-text').value = 'BR1FL orders move SOA';"
           "document.getElementById('of-btn').click(); true");
    const bool entered = b.Until("document.getElementById('of-out').textContent.startsWith('Entered for nelson')");
    INFO(b.Eval("document.getElementById('of-out').textContent"));
    REQUIRE(entered);
    CHECK(b.Eval("document.getElementById('of-out').textContent.includes('stands')") == "true");
    bool by_ga = false;
    REQUIRE(db->Read("nwol", "main", mark + 1, UINT64_MAX, [&](const ledger::EventView& v) {
                if (v.event()->payload_as_OrderSubmitted()) {
                  by_ga = v.event()->actor()->kind() == fb::ActorKind_GameAdministrator;
                }
                return Status::Ok();
              }).ok());
    CHECK(by_ga);
    // One not his: refused, in words, nothing recorded.
    const uint64_t kept = head();
    b.Eval("document.getElementById('of-text').value = 'FR1FR orders move NOS';"
           "document.getElementById('of-btn').click(); true");
    REQUIRE(b.Until("document.getElementById('of-out').textContent.startsWith('refused: ')"));
    CHECK(head() == kept);

    // A deadline set through the schedule form.
    b.Eval("document.getElementById('sc-action').value = 'set'; document.getElementById('sc-deadline').value = '+3d';"
           "document.getElementById('sc-btn').click(); true");
    REQUIRE(b.Until("document.getElementById('sc-out').textContent.length > 0"));
    CHECK(b.Eval("document.getElementById('sc-out').classList.contains('err')") == "false");
    CHECK(b.Eval("document.getElementById('sc-out').textContent.includes('deadline')") == "true");

    // Adjudication: asked first, naming the phase; cancelled, nothing runs.
    const uint64_t before = head();
    b.Eval("document.getElementById('adj-phase-btn').click(); true");
    REQUIRE(b.Until("!document.getElementById('adj-confirm').classList.contains('hidden')"));
    CHECK(b.Eval("/^Adjudicate .+ \\(1805\\.1\\.1\\.\\d+\\)\\? /.test(document.getElementById('adj-what').textContent)") == "true");
    CHECK(b.Eval("document.getElementById('adj-what').textContent.includes('No orders yet from: ')") == "true");
    b.Eval("document.getElementById('adj-no').click(); true");
    CHECK(b.Until("document.getElementById('adj-confirm').classList.contains('hidden')"));
    CHECK(head() == before);
    // Asked again and confirmed: that phase runs, told in words.
    b.Eval("document.getElementById('adj-phase-btn').click(); true");
    REQUIRE(b.Until("!document.getElementById('adj-confirm').classList.contains('hidden')"));
    b.Eval("document.getElementById('adj-yes').click(); true");
    REQUIRE(b.Until("document.getElementById('adj-out').textContent.includes('(events ')"));
    CHECK(b.Eval("document.getElementById('adj-out').textContent.includes('{')") == "false");
    CHECK(head() > before);
  }
  desk->Stop();
  desk->Wait();
}
