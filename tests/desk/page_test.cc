// Issue 21: the order desk's page as its players use it, in a real browser
// (tests/support/browser.h) at a phone's width (390 px) and a desk's (1280
// px): the Treasury minister's money goes in crowns and is recorded in
// hundredths once; an order added again for the same slot replaces the one
// in the draft; the draft is shown as the rule book writes it; a new login
// starts from a clean page and his submission is not refused for what the
// last person left; his orders are listed in words; nothing scrolls
// sideways and a drawing fits the page. Each page is saved as a screenshot
// under build/tests/output/page/ (or $ADJUTANT_TEST_OUTPUT) to be looked at.
#include <catch2/catch.hpp>
#include <sodium.h>

#include <filesystem>

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

namespace {

const std::string F = ADJUTANT_FIXTURES;

struct Screen {
  const char* name;
  int width, height;
  bool mobile;
};
constexpr Screen kScreens[] = {{"phone", 390, 844, true}, {"desk", 1280, 900, false}};

struct PageDesk {
  testing::TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  std::unique_ptr<desk::Desk> desk;
  PageDesk() {
    REQUIRE(sodium_init() >= 0);
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    REQUIRE(testing::CreateNwolGame(*db, "nwol", testing::Slurp(F + "/scenarios/nwol-1805.json")).ok());
    for (const char* p : {"nelson", "pitt"}) {
      REQUIRE(replay::SetPassword(*db, "nwol", "main", p, testing::CheapPasswordHash(std::string(p) + "-1805")).ok());
    }
    desk::Settings s;
    s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
    auto started = testing::StartDesk(*db, s);
    REQUIRE(started.ok());
    desk = std::move(started).value();
  }
  ~PageDesk() {
    desk->Stop();
    desk->Wait();
  }
  std::string Url() const { return "http://127.0.0.1:" + std::to_string(desk->port()) + "/"; }
  // The OrderSubmitted events of `person`, as JSON.
  std::vector<std::string> OrdersOf(const std::string& person) {
    std::vector<std::string> out;
    REQUIRE(db->Read("nwol", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                  const auto* o = e.event()->payload_as_OrderSubmitted();
                  if (o && o->person()->str() == person) out.push_back(*schema::ToJson("Event", e.bytes.data()));
                  return Status::Ok();
                }).ok());
    return out;
  }
};

void LogIn(Browser& b, const std::string& person) {
  b.Eval("{ const f = id => document.getElementById(id); f('game').value = 'nwol'; f('person').value = " +
         testing::JsQuote(person) + "; f('password').value = " + testing::JsQuote(person + "-1805") +
         "; f('login-btn').click(); } true");
  REQUIRE(b.Until("!document.getElementById('player').classList.contains('hidden')"));
  REQUIRE(b.Until("document.getElementById('reminder').textContent.includes('Orders now go to turn')"));
}

void LogOut(Browser& b, const char* button = "logout-btn") {
  b.Eval(std::string("document.getElementById('") + button + "').click(); true");
  REQUIRE(b.Until("!document.getElementById('login').classList.contains('hidden')"));
}

// Nothing wider than the screen: no sideways scrolling, on this page as it is now.
void Fits(Browser& b, const Screen& s, const std::string& what) {
  INFO(s.name << ": " << what);
  CHECK(b.Eval("document.documentElement.scrollWidth <= window.innerWidth") == "true");
  CHECK(b.Eval("[...document.querySelectorAll('body *')].filter(e => e.offsetParent !== null && "
               "e.getBoundingClientRect().right > window.innerWidth + 0.5).map(e => e.id || e.tagName).join(' ')") == "\"\"");
}

}  // namespace

TEST_CASE("desk page at a phone's width and a desk's: money in crowns, a draft replaced and shown as the book writes "
          "it, a clean page for each login, standing orders in words, nothing wider than the screen",
          "[desk][browser][page]") {
  for (const Screen& screen : kScreens) {
    DYNAMIC_SECTION(screen.name) {
      PageDesk d;
      const std::string shots = testing::TestOutputDir(std::string("page/") + screen.name);
      {
        Browser b(d.dir.Sub("chromium"));
        b.Viewport(screen.width, screen.height, screen.mobile);
        b.Open(d.Url());
        Fits(b, screen, "the login page");
        b.Screenshot(shots + "/login.png");

        // The Treasury minister transfers money: 250 crowns, then 300 in
        // its place — the file holds the one order, the second, as his book
        // writes it.
        LogIn(b, "pitt");
        REQUIRE(b.Until("!document.getElementById('treasury-form').classList.contains('hidden')"));
        // Picked, not typed: the states of the game (not his own) and his state's cities.
        REQUIRE(b.Until("document.getElementById('tf-to').options.length > 1"));
        CHECK(b.Eval("document.getElementById('tf-to').tagName") == "\"SELECT\"");
        CHECK(b.Eval("[...document.getElementById('tf-to').options].map(o => o.value).join(',')") ==
              "\",AU,DK,FR,NA,OT,PO,PR,RU,SP,SW\"");
        CHECK(b.Eval("[...document.getElementById('tf-to').options].some(o => o.value === 'BR')") == "false");
        CHECK(b.Eval("[...document.getElementById('tf-to').options].some(o => o.value === 'PO')") == "true");
        CHECK(b.Eval("[...document.getElementById('tf-city').options].some(o => o.value === 'London')") == "true");
        CHECK(b.Eval("[...document.getElementById('tf-city').options].some(o => o.value === 'Paris')") == "false");
        b.Eval("{ const f = id => document.getElementById(id); f('tf-kind').value = 'TransferOrder'; f('tf-to').value = 'PO';"
               "f('tf-amount').value = '250'; f('tf-add').click(); } true");
        REQUIRE(b.Until("document.getElementById('draft-text').textContent.includes('PO')"));
        b.Eval("{ const f = id => document.getElementById(id); f('tf-amount').value = '300.5'; f('tf-add').click(); } true");
        REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('Replaced the order')"));
        CHECK(b.Eval("String(JSON.parse(document.getElementById('order-text').value).orders.length)") == "\"1\"");
        CHECK(b.Eval("String(JSON.parse(document.getElementById('order-text').value).orders[0].body.body.amount_cc)") == "\"30050\"");
        REQUIRE(b.Until("document.getElementById('draft-text').textContent.includes('300.5')"));
        INFO(b.Eval("document.getElementById('draft-text').textContent"));
        CHECK(b.Eval("String(document.getElementById('draft-text').textContent.split('\\n').filter(l => l.includes('transfer')).length)") ==
              "\"1\"");
        // A mistake typed by hand: the preview says what a submission would.
        b.Eval("{ const f = document.getElementById('order-text'); f.value = 'BR transfre 10 to PO';"
               "f.dispatchEvent(new Event('input')); } true");
        REQUIRE(b.Until("document.getElementById('draft-text').textContent.startsWith('This file would be refused')"));
        CHECK(b.Eval("document.getElementById('draft-text').textContent.includes(\"did you mean 'transfer'\")") == "true");
        // Back to the form's order, and sent: recorded once, the file empty again.
        b.Eval("{ const f = id => document.getElementById(id); f('clear-btn').click(); f('tf-add').click(); "
               "f('submit-btn').click(); } true");
        REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('recorded for turn')"));
        CHECK(b.Eval("document.getElementById('order-text').value") == "\"{\\\"orders\\\": []}\"");
        REQUIRE(b.Until("document.getElementById('orders').textContent.includes('300.5')"));
        Fits(b, screen, "the Treasury minister's page");
        b.Screenshot(shots + "/treasury.png");

        // Another person logs in on the same page: nothing of pitt's is on
        // it, and his own submission goes through.
        LogOut(b);
        LogIn(b, "nelson");
        REQUIRE(b.Until("document.getElementById('sf-ship').options.length === 1"));
        CHECK(b.Eval("document.getElementById('order-text').value") == "\"{\\\"orders\\\": []}\"");
        CHECK(b.Eval("document.getElementById('tf-amount').value") == "\"\"");
        CHECK(b.Eval("document.getElementById('tf-to').value") == "\"\"");
        CHECK(b.Eval("document.getElementById('submitted').textContent") == "\"\"");
        REQUIRE(b.Until("document.getElementById('orders').textContent === 'none given yet'"));
        CHECK(b.Eval("document.body.textContent.includes('300.5')") == "false");
        // The ship form's pickers: the first sea areas the rules let her name
        // from where she is, then those next to it, then the ports entered from the last.
        const std::string choices =
            "(async () => { const r = await fetch('/api/games/nwol/reports?kind=choices&format=json', "
            "{headers: {Authorization: 'Bearer ' + token}}); return r.json(); })()";
        CHECK(b.Eval("(async () => { const c = await " + choices + "; const s = c.ships.find(x => x.id === 'BR1FL');"
                     "return [...document.getElementById('sf-sea1').options].map(o => o.value).filter(v => v).join(',') === "
                     "s.sea1.join(',') && s.sea1.includes('SOA'); })()") == "true");
        b.Eval("{ const f = id => document.getElementById(id); f('sf-sea1').value = 'SOA'; f('sf-sea1').dispatchEvent(new Event('change')); } true");
        CHECK(b.Eval("(async () => { const c = await " + choices + "; const a = c.areas.find(x => x.code === 'SOA');"
                     "const got = id => [...document.getElementById(id).options].map(o => o.value).filter(v => v).join(',');"
                     "return got('sf-sea2') === a.next.join(',') && got('sf-port') === (a.ports || []).join(',') && a.next.length > 0; })()") ==
              "true");
        CHECK(b.Eval("['sf-sea1', 'sf-sea2', 'sf-port', 'sf-attach'].every(id => document.getElementById(id).tagName === 'SELECT')") == "true");
        b.Eval("{ const f = id => document.getElementById(id); f('sf-contact').value = 'Pursue';"
               "f('sf-add').click(); f('submit-btn').click(); } true");
        REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('BR1FL: stands')"));
        // His standing order, in the words of his book.
        REQUIRE(b.Until("document.getElementById('orders').textContent.includes('BR1FL orders move SOA contact pursue')"));
        // His positions drawn, fitted to the page.
        b.Eval("document.getElementById('kind').value = 'positions'; document.getElementById('svg-btn').click(); true");
        REQUIRE(b.Until("!!document.querySelector('#drawing svg')"));
        CHECK(b.Eval("document.querySelector('#drawing svg').getBoundingClientRect().width <= "
                     "document.getElementById('drawing').clientWidth + 0.5") == "true");
        Fits(b, screen, "the commander's page with his drawing");
        b.Screenshot(shots + "/commander.png");

        // The GA's page, and then the login page again: clean.
        LogOut(b);
        b.Eval("document.getElementById('ga-password').value = 'the-ga-secret'; document.getElementById('ga-login-btn').click(); true");
        REQUIRE(b.Until("!document.getElementById('ga').classList.contains('hidden')"));
        b.Eval("document.getElementById('ga-game').value = 'nwol'; document.getElementById('status-btn').click(); true");
        REQUIRE(b.Until("!!document.getElementById('st-persons')"));
        Fits(b, screen, "the GA's page");
        b.Screenshot(shots + "/ga.png");
        LogOut(b, "ga-logout-btn");
        CHECK(b.Eval("document.getElementById('ga-password').value") == "\"\"");
        CHECK(b.Eval("document.getElementById('ga-game').value") == "\"\"");
      }
      // The log: pitt's one transfer, 300.5 crowns recorded as 30050 hundredths.
      const auto pitt = d.OrdersOf("pitt");
      REQUIRE(pitt.size() == 1);
      CHECK_THAT(pitt[0], Catch::Contains("\"body_type\": \"TransferOrder\"") && Catch::Contains("\"amount_cc\": 30050") &&
                              Catch::Contains("\"to_state\": \"PO\""));
      const auto nelson = d.OrdersOf("nelson");
      REQUIRE(nelson.size() == 1);
      CHECK_THAT(nelson[0], Catch::Contains("\"sea1\": \"SOA\""));
      for (const char* png : {"login.png", "treasury.png", "commander.png", "ga.png"}) {
        CHECK(std::filesystem::file_size(shots + "/" + png) > 1000);
      }
    }
  }
}
