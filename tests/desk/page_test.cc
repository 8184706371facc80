// Issue 21: the order desk's page as its players use it, in a real browser
// (tests/support/browser.h) at a phone's width (390 px) and a desk's (1280
// px): the Treasury minister's money goes in crowns and is recorded in
// hundredths once; an order added again for the same slot replaces the one
// in the draft; the draft is shown as the rule book writes it; a new login
// starts from a clean page and his submission is not refused for what the
// last person left; his orders are listed in words; nothing scrolls
// sideways and a drawing fits the page. Each page is saved as a screenshot
// under build/tests/output/page/ (or $ADJUTANT_TEST_OUTPUT) to be looked at.
// The order forms of every kind of player — a Naval Minister's (NWOL), a
// y1820 ruler's, a Death or Glory general's — filled as a player fills them
// (only the fields shown for the kind chosen): what each writes is
// submitted, and the log holds exactly the orders meant.
#include <catch2/catch.hpp>
#include <sodium.h>

#include <cctype>
#include <algorithm>
#include <filesystem>

#include "support/build_paths.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "rules/y1820/tables.h"
#include "schema/codec.h"
#include "schema/dog_generated.h"
#include "schema/event_generated.h"
#include "support/browser.h"
#include "support/desk_client.h"
#include "support/kinds.h"
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

// A desk with one game: "nwol" (NWOL 1805: passwords PERSON-1805 for nelson,
// pitt and barham, the Naval Minister), "europe" (y1820, Europe 1820:
// richelieu-1820, France's ruler) or "talavera" (Death or Glory:
// wellesley-1809 and victor-1809).
struct PageDesk {
  testing::TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  std::unique_ptr<desk::Desk> desk;
  std::string game;
  explicit PageDesk(std::string which = "nwol") : game(std::move(which)) {
    REQUIRE(sodium_init() >= 0);
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    if (game == "nwol") {
      REQUIRE(testing::CreateNwolGame(*db, "nwol", testing::Slurp(F + "/scenarios/nwol-1805.json")).ok());
      for (const char* p : {"nelson", "pitt", "barham"}) {
        REQUIRE(replay::SetPassword(*db, "nwol", "main", p, testing::CheapPasswordHash(std::string(p) + "-1805")).ok());
      }
    } else if (game == "europe") {
      testing::CliRun made = testing::Cli(*db, {"new", "europe", "--scenario", F + "/y1820/europe-1820.json", "--map",
                                                F + "/y1820/europe-1820.map.json", "--seed", "1820"});
      INFO(made.out << made.err);
      REQUIRE(made.code == 0);
      REQUIRE(replay::SetPassword(*db, "europe", "main", "richelieu", testing::CheapPasswordHash("richelieu-1820")).ok());
    } else {
      REQUIRE(game == "talavera");
      REQUIRE(testing::CreateTalavera(*db).ok());
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
    REQUIRE(db->Read(game, "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                  const auto* o = e.event()->payload_as_OrderSubmitted();
                  if (o && o->person()->str() == person) out.push_back(*schema::ToJson("Event", e.bytes.data()));
                  return Status::Ok();
                }).ok());
    return out;
  }
};

void LogIn(Browser& b, const std::string& person, const std::string& game = "nwol", const std::string& password = "") {
  b.Eval("{ const f = id => document.getElementById(id); f('game').value = " + testing::JsQuote(game) +
         "; f('person').value = " + testing::JsQuote(person) + "; f('password').value = " +
         testing::JsQuote(password.empty() ? person + "-1805" : password) + "; f('login-btn').click(); } true");
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
  // ... and laid out no wider than the screen (a phone zooms a wider page out to fit it).
  CHECK(b.Eval("String(Math.max(window.innerWidth, document.documentElement.scrollWidth))") ==
        "\"" + std::to_string(s.width) + "\"");
  CHECK(b.Eval("[...document.querySelectorAll('body *')].filter(e => e.offsetParent !== null && "
               "e.getBoundingClientRect().right > window.innerWidth + 0.5).map(e => e.id || e.tagName).join(' ')") == "\"\"");
}

// Fills a form's fields as a player does, in order: each one shown (a field
// the kind of order chosen does not take is hidden), its value one it
// offers (a select has the option), then 'change' as a user's pick sends.
void Fill(Browser& b, const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string js =
      "{ const set = (id, v) => { const e = document.getElementById(id);"
      "if (e.offsetParent === null) throw new Error(id + ' is not shown');"
      "e.value = v; if (e.value !== v) throw new Error(id + ' offers no ' + v);"
      "e.dispatchEvent(new Event('input')); e.dispatchEvent(new Event('change')); };";
  for (const auto& [id, value] : fields) js += "set(" + testing::JsQuote(id) + ", " + testing::JsQuote(value) + ");";
  b.Eval(js + "} true");
}

void Click(Browser& b, const std::string& id) { b.Eval("document.getElementById(" + testing::JsQuote(id) + ").click(); true"); }

// The option values of a select, comma-separated, as a JSON string.
std::string Options(Browser& b, const std::string& id) {
  return b.Eval("[...document.getElementById(" + testing::JsQuote(id) + ").options].map(o => o.value).filter(v => v).join(',')");
}

bool Shown(Browser& b, const std::string& id) {
  return b.Eval("document.getElementById(" + testing::JsQuote(id) + ").offsetParent !== null") == "true";
}

// Names comma-separated, as the JSON string Eval answers for a join(',').
std::string Quoted(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return "\"" + s + "\"";
}

// JSON without the white space between its tokens (a string's own kept).
std::string Flat(const std::string& json) {
  std::string out;
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < json.size()) out += json[++i];
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
      out += c;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      out += c;
    }
  }
  return out;
}

// The order an OrderSubmitted event records, flat: from its body_type to the
// end of its body — every field of it, so a field the form wrote wrong or
// one it should not have written shows.
std::string OrderOf(const std::string& event_json) {
  const std::string flat = Flat(event_json);
  const size_t payload = flat.find("\"payload\":{");
  const size_t from = flat.find("\"body_type\":", payload);
  const size_t to = flat.find(",\"received_at\":", from);
  if (payload == std::string::npos || from == std::string::npos || to == std::string::npos) return flat;
  return flat.substr(from, to - from);
}

// Submits the order file as the page holds it: `n` orders, each standing.
void SubmitStanding(Browser& b, int n) {
  Click(b, "submit-btn");
  REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('recorded for turn')"));
  INFO(b.Eval("document.getElementById('submitted').textContent"));
  CHECK(b.Eval("String(document.getElementById('submitted').textContent.split('\\n').filter(l => l.endsWith(': stands')).length)") ==
        "\"" + std::to_string(n) + "\"");
  CHECK(b.Eval("document.getElementById('submitted').textContent.includes('rejected')") == "false");
}

// The draft read back by the server as a submission would read it, without a refusal.
void PreviewReads(Browser& b, const std::string& words) {
  INFO(b.Eval("document.getElementById('draft-text').textContent"));
  REQUIRE(b.Until("document.getElementById('draft-text').textContent.includes(" + testing::JsQuote(words) + ")"));
  CHECK(b.Eval("document.getElementById('draft-text').textContent.startsWith('This file would be refused')") == "false");
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
        // Repairs in one city (SOW 7.1): each battery is a repair of its own
        // (sow=8) and the fort rises once a season: two battery repairs and
        // the fort's stand side by side; the fort's again replaces the fort's.
        const std::string repairs = "String(JSON.parse(document.getElementById('order-text').value).orders"
                                    ".filter(o => o.body.body_type === 'RepairOrder').length)";
        b.Eval("{ const f = id => document.getElementById(id); f('tf-kind').value = 'RepairOrder';"
               "f('tf-kind').dispatchEvent(new Event('change')); f('tf-city').value = 'London'; f('tf-what').value = 'Battery';"
               "f('tf-add').click(); f('tf-add').click(); f('tf-what').value = 'Fort'; f('tf-add').click(); } true");
        CHECK(b.Eval(repairs) == "\"3\"");
        CHECK(b.Eval("document.getElementById('submitted').textContent.includes('Replaced')") == "false");
        b.Eval("{ document.getElementById('tf-add').click(); } true");
        REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('Replaced the order for the fort repair at London')"));
        CHECK(b.Eval(repairs) == "\"3\"");
        b.Eval("{ document.getElementById('clear-btn').click(); } true");
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

TEST_CASE("desk page: the Naval Minister's form appoints, reactivates, moves and buys stores as PATE and SOW take them",
          "[desk][browser][page]") {
  for (const Screen& screen : kScreens) {
    DYNAMIC_SECTION(screen.name) {
      PageDesk d;
      const std::string shots = testing::TestOutputDir(std::string("page/") + screen.name);
      {
        Browser b(d.dir.Sub("chromium"));
        b.Viewport(screen.width, screen.height, screen.mobile);
        b.Open(d.Url());
        LogIn(b, "barham");
        REQUIRE(b.Until("!document.getElementById('naval-form').classList.contains('hidden')"));
        REQUIRE(b.Until("document.getElementById('nf-ship').options.length > 1"));
        // His form alone: he commands no ship and keeps no treasury.
        for (const char* other : {"ship-form", "treasury-form", "ruler-form", "dog-form"}) {
          CHECK(b.Eval(std::string("document.getElementById('") + other + "').classList.contains('hidden')") == "true");
        }
        // Every ship of his state (PATE 2.3), none of another's; the ports of the naval map.
        CHECK(b.Eval("[...document.getElementById('nf-ship').options].every(o => o.value.startsWith('BR'))") == "true");
        CHECK(b.Eval("[...document.getElementById('nf-ship').options].some(o => o.value === 'BR15SL')") == "true");
        CHECK(b.Eval("[...document.getElementById('nf-from').options].some(o => o.value === 'Portsmouth')") == "true");
        // An appointment takes a ship and persons, not ports or stores.
        CHECK(Shown(b, "nf-commander"));
        CHECK_FALSE(Shown(b, "nf-from"));
        CHECK_FALSE(Shown(b, "nf-stores"));
        Fill(b, {{"nf-kind", "AppointOrder"}, {"nf-ship", "BR14SL"}, {"nf-commander", "calder"}});
        CHECK(b.Eval("document.getElementById('nf-where').textContent") == "\"Portsmouth (harbour), commander -, deputy -\"");
        Click(b, "nf-add");
        // Stores moved: 10, then 12 in their place (the same two ports: one order).
        Fill(b, {{"nf-kind", "MoveStoresOrder"}, {"nf-from", "Portsmouth"}, {"nf-to", "Plymouth"}, {"nf-stores", "10"}});
        CHECK_FALSE(Shown(b, "nf-ship"));
        Click(b, "nf-add");
        Fill(b, {{"nf-stores", "12"}});
        Click(b, "nf-add");
        REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('Replaced the order for stores from Portsmouth to Plymouth')"));
        Fill(b, {{"nf-kind", "Reactivate"}, {"nf-ship", "BR15SL"}});
        Click(b, "nf-add");
        Fill(b, {{"nf-kind", "BuySuppliesOrder"}, {"nf-port", "Plymouth"}, {"nf-stores", "40"}});
        Click(b, "nf-add");
        CHECK(b.Eval("String(JSON.parse(document.getElementById('order-text').value).orders.length)") == "\"4\"");
        PreviewReads(b, "Portsmouth send-stores 12 to Plymouth");
        Fits(b, screen, "the Naval Minister's page");
        b.Screenshot(shots + "/naval.png");
        SubmitStanding(b, 4);
      }
      // The log: the four orders, each exactly as meant.
      std::vector<std::string> got;
      for (const auto& e : d.OrdersOf("barham")) got.push_back(OrderOf(e));
      const std::vector<std::string> meant = {
          R"("body_type":"PateOrder","body":{"body_type":"AppointOrder","body":{"ship":"BR14SL","commander":"calder"}})",
          R"("body_type":"PateOrder","body":{"body_type":"MoveStoresOrder","body":{"from":"Portsmouth","to":"Plymouth","stores":12}})",
          R"("body_type":"PateOrder","body":{"body_type":"ActivationOrder","body":{"ship":"BR15SL","active":true}})",
          R"("body_type":"SowOrder","body":{"state":"BR","body_type":"BuySuppliesOrder","body":{"city":"Plymouth","supplies":0,"stores":40}})",
      };
      CHECK(got == meant);
      CHECK(std::filesystem::file_size(shots + "/naval.png") > 1000);
    }
  }
}

TEST_CASE("desk page: a y1820 ruler's form deploys at turn 0, then moves, builds and raises a fleet, as Y1820Order takes them",
          "[desk][browser][page]") {
  for (const Screen& screen : kScreens) {
    DYNAMIC_SECTION(screen.name) {
      PageDesk d("europe");
      const std::string shots = testing::TestOutputDir(std::string("page/") + screen.name);
      {
        Browser b(d.dir.Sub("chromium"));
        b.Viewport(screen.width, screen.height, screen.mobile);
        b.Open(d.Url());
        LogIn(b, "richelieu", "europe", "richelieu-1820");
        REQUIRE(b.Until("!document.getElementById('ruler-form').classList.contains('hidden')"));
        REQUIRE(b.Until("document.getElementById('yf-nation').options.length > 0"));
        // The book's names, as rules/y1820/tables.h has them.
        std::vector<std::string> improvements, techs, reforms, treaties;
        for (const auto& i : rules::y1820::kImprovements) improvements.emplace_back(i.id);
        for (const auto& t : rules::y1820::kTechs) techs.emplace_back(t.id);
        for (const auto& r : rules::y1820::kReforms) reforms.emplace_back(r.id);
        for (const auto& t : rules::y1820::kTreatyKinds) treaties.emplace_back(t);
        CHECK(b.Eval("Y1820_IMPROVEMENTS.join(',')") == Quoted(improvements));
        CHECK(b.Eval("Y1820_TECHS.join(',')") == Quoted(techs));
        CHECK(b.Eval("Y1820_REFORMS.join(',')") == Quoted(reforms));
        CHECK(b.Eval("Y1820_TREATIES.join(',')") == Quoted(treaties));
        CHECK(Options(b, "yf-improvement") == Quoted(improvements));
        CHECK(Options(b, "yf-tech") == Quoted(techs));  // France knows none yet
        // Provinces by number and name: France's own for a deployment; any for a march.
        CHECK(Options(b, "yf-province") == "\"10,11,12,13,14,15,16,17,18,19,20,21\"");
        CHECK(b.Eval("[...document.getElementById('yf-province').options].find(o => o.value === '14').textContent") == "\"14 Paris\"");
        CHECK(b.Eval("document.getElementById('yf-to').options.length > 60") == "true");
        // The other nations, not France.
        CHECK(Options(b, "yf-nation") == "\"AUS,GBR,NED,OTT,PRU,RUS,SPA\"");
        // A deployment takes a province and numbers; not a technology or a nation.
        CHECK(Shown(b, "yf-armies"));
        CHECK_FALSE(Shown(b, "yf-tech"));
        CHECK_FALSE(Shown(b, "yf-nation"));
        CHECK_FALSE(Shown(b, "yf-from"));

        // Turn 0: deployments (3 armies at 16, then 4 in their place), research, a reform, rally points, a war.
        Fill(b, {{"yf-kind", "Y1820Deploy"}, {"yf-province", "16"}, {"yf-armies", "3"}});
        Click(b, "yf-add");
        Fill(b, {{"yf-armies", "4"}});
        Click(b, "yf-add");
        REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('Replaced the order for Y1820Deploy 16')"));
        Fill(b, {{"yf-province", "19"}, {"yf-armies", "2"}});
        Click(b, "yf-add");
        Fill(b, {{"yf-kind", "Y1820Research"}, {"yf-tech", "Railroads"}});
        CHECK_FALSE(Shown(b, "yf-province"));
        Click(b, "yf-add");
        Fill(b, {{"yf-kind", "Y1820Reform"}, {"yf-reform", "Nationalism"}});
        Click(b, "yf-add");
        Fill(b, {{"yf-kind", "Y1820RallyPoints"}, {"yf-rally1", "16"}, {"yf-rally2", "20"}});
        Click(b, "yf-add");
        Fill(b, {{"yf-kind", "Y1820DeclareWar"}, {"yf-nation", "NED"}});
        Click(b, "yf-add");
        CHECK(b.Eval("String(JSON.parse(document.getElementById('order-text').value).orders.length)") == "\"6\"");
        PreviewReads(b, "research Railroads");
        Fits(b, screen, "the ruler's page at turn 0");
        b.Screenshot(shots + "/ruler-turn0.png");
        SubmitStanding(b, 6);

        // The GA adjudicates turn 0; the ruler's page, opened again, gives turn 1's orders.
        const std::string ga = testing::TokenOf(
            testing::HttpCall(d.desk->port(), "POST", "/api/ga/login", R"({"password": "the-ga-secret"})").body);
        testing::HttpReply adj = testing::HttpCall(d.desk->port(), "POST", "/api/games/europe/adjudicate", R"({"mode": "turn"})",
                                                   ga, {{"Idempotency-Key", "europe-turn-0"}});
        INFO(adj.body);
        REQUIRE(adj.status == 200);
        LogOut(b);
        LogIn(b, "richelieu", "europe", "richelieu-1820");
        REQUIRE(b.Until("document.getElementById('yf-nation').options.length > 0"));
        CHECK(b.Eval("document.getElementById('order-text').value") == "\"{\\\"orders\\\": []}\"");
        Fill(b, {{"yf-kind", "Y1820Move"}, {"yf-from", "16"}, {"yf-to", "15"}, {"yf-armies", "2"}});
        CHECK_FALSE(Shown(b, "yf-province"));
        Click(b, "yf-add");
        Fill(b, {{"yf-kind", "Y1820Build"}, {"yf-province", "16"}, {"yf-improvement", "Fortifications"}});
        CHECK_FALSE(Shown(b, "yf-armies"));
        Click(b, "yf-add");
        Fill(b, {{"yf-kind", "Y1820RaiseFleet"}, {"yf-port", "12"}});
        Click(b, "yf-add");
        PreviewReads(b, "Fortifications");
        Fits(b, screen, "the ruler's page at turn 1");
        b.Screenshot(shots + "/ruler-turn1.png");
        SubmitStanding(b, 3);
      }
      std::vector<std::string> got;
      for (const auto& e : d.OrdersOf("richelieu")) got.push_back(OrderOf(e));
      const std::vector<std::string> meant = {
          R"("body_type":"Y1820Order","body":{"body_type":"Y1820Deploy","body":{"province":16,"armies":4,"fleets":0}})",
          R"("body_type":"Y1820Order","body":{"body_type":"Y1820Deploy","body":{"province":19,"armies":2,"fleets":0}})",
          R"("body_type":"Y1820Order","body":{"body_type":"Y1820Research","body":{"tech":"Railroads"}})",
          R"("body_type":"Y1820Order","body":{"body_type":"Y1820Reform","body":{"reform":"Nationalism"}})",
          R"("body_type":"Y1820Order","body":{"body_type":"Y1820RallyPoints","body":{"provinces":[16,20]}})",
          R"("body_type":"Y1820Order","body":{"body_type":"Y1820DeclareWar","body":{"nation":"NED"}})",
          R"("body_type":"Y1820Order","body":{"body_type":"Y1820Move","body":{"from":16,"to":15,"armies":2}})",
          R"("body_type":"Y1820Order","body":{"body_type":"Y1820Build","body":{"province":16,"improvement":"Fortifications"}})",
          R"("body_type":"Y1820Order","body":{"body_type":"Y1820RaiseFleet","body":{"port":12}})",
      };
      CHECK(got == meant);
      for (const char* png : {"ruler-turn0.png", "ruler-turn1.png"}) CHECK(std::filesystem::file_size(shots + "/" + png) > 1000);
    }
  }
}

TEST_CASE("desk page: a Death or Glory general's form moves, charges, forms and holds his units as DogIntent takes them",
          "[desk][browser][page]") {
  for (const Screen& screen : kScreens) {
    DYNAMIC_SECTION(screen.name) {
      PageDesk d("talavera");
      const std::string shots = testing::TestOutputDir(std::string("page/") + screen.name);
      {
        Browser b(d.dir.Sub("chromium"));
        b.Viewport(screen.width, screen.height, screen.mobile);
        b.Open(d.Url());
        LogIn(b, "wellesley", "talavera", "wellesley-1809");
        REQUIRE(b.Until("!document.getElementById('dog-form').classList.contains('hidden')"));
        REQUIRE(b.Until("document.getElementById('df-target').options.length > 0"));
        // The formations are the schema's.
        std::vector<std::string> formations;
        for (const char* const* f = fb::EnumNamesDogFormation(); *f; ++f) formations.emplace_back(*f);
        CHECK(b.Eval("DOG_FORMATIONS.map(f => f[0]).join(',')") == Quoted(formations));
        // His units; the enemy's to charge, none of his own.
        CHECK(Options(b, "df-unit") == "\"BR-23LD,BR-29,BR-48-1,BR-60-5,BR-66-2,BR-DET-1,BR-RA\"");
        CHECK(b.Eval("[...document.getElementById('df-target').options].every(o => o.value.startsWith('FR-'))") == "true");
        CHECK(b.Eval("String(document.getElementById('df-target').options.length)") == "\"10\"");
        // A battery limbers or unlimbers; a battalion takes the other formations.
        Fill(b, {{"df-unit", "BR-RA"}});
        CHECK(Options(b, "df-formation") == "\"Limbered,Unlimbered\"");
        Fill(b, {{"df-unit", "BR-29"}});
        CHECK(Options(b, "df-formation") == "\"ColumnOfMarch,ColumnOfDivisions,Line,Square,Skirmish\"");
        CHECK(b.Eval("document.getElementById('df-where').textContent") ==
              "\"Line at (560, 440) mm facing 180\\u00b0, 600 men, formed, fresh\"");
        // Holding takes no point and no enemy.
        CHECK_FALSE(Shown(b, "df-x"));
        CHECK_FALSE(Shown(b, "df-target"));
        // BR-29 into column and forward (to 600, 520, then 620, 520 in its place), facing 170°.
        Fill(b, {{"df-does", "move"}, {"df-x", "600"}, {"df-y", "520"}, {"df-formation", "ColumnOfDivisions"}, {"df-face", "170"}});
        Click(b, "df-add");
        Fill(b, {{"df-x", "620"}});
        Click(b, "df-add");
        REQUIRE(b.Until("document.getElementById('submitted').textContent.includes('Replaced the order for unit BR-29')"));
        Fill(b, {{"df-unit", "BR-23LD"}, {"df-does", "charge"}, {"df-target", "FR-2H"}});
        CHECK_FALSE(Shown(b, "df-x"));
        Click(b, "df-add");
        Fill(b, {{"df-unit", "BR-RA"}, {"df-does", "stand"}, {"df-formation", "Limbered"}});
        Click(b, "df-add");
        Fill(b, {{"df-unit", "BR-48-1"}, {"df-does", "hold"}});
        Click(b, "df-add");
        CHECK(b.Eval("String(JSON.parse(document.getElementById('order-text').value).orders.length)") == "\"4\"");
        PreviewReads(b, "BR-23LD");
        Fits(b, screen, "the general's page");
        b.Screenshot(shots + "/general.png");
        SubmitStanding(b, 4);
      }
      std::vector<std::string> got;
      for (const auto& e : d.OrdersOf("wellesley")) got.push_back(OrderOf(e));
      const std::vector<std::string> meant = {
          R"("body_type":"DogOrder","body":{"body_type":"DogIntent","body":{"unit":"BR-29","formation":"ColumnOfDivisions","change_formation":true,"face":170,"path":[{"x":620,"y":520}],"hold":false,"reform":false}})",
          R"("body_type":"DogOrder","body":{"body_type":"DogIntent","body":{"unit":"BR-23LD","formation":"ColumnOfMarch","change_formation":false,"face":-1,"charge":"FR-2H","hold":false,"reform":false}})",
          R"("body_type":"DogOrder","body":{"body_type":"DogIntent","body":{"unit":"BR-RA","formation":"Limbered","change_formation":true,"face":-1,"hold":false,"reform":false}})",
          R"("body_type":"DogOrder","body":{"body_type":"DogIntent","body":{"unit":"BR-48-1","formation":"ColumnOfMarch","change_formation":false,"face":-1,"hold":true,"reform":false}})",
      };
      CHECK(got == meant);
      CHECK(std::filesystem::file_size(shots + "/general.png") > 1000);
    }
  }
}

namespace {

// Keyboard and screen-reader basics of the page as it is now: every control
// shown has a name a screen reader reads (its label, its own text or an
// aria-label), no tabindex above 0, and Tab walks the controls shown in the
// order the page lists them. Returns what is wrong ("" for nothing).
std::string Accessible(Browser& b) {
  const std::string named = b.Eval(R"((() => {
    const bad = [];
    for (const e of document.querySelectorAll('input, select, textarea, button')) {
      if (e.offsetParent === null || e.type === 'hidden') continue;
      const name = (e.tagName === 'BUTTON' ? e.textContent : '') || e.getAttribute('aria-label') ||
                   [...(e.labels || [])].map(l => l.textContent).join(' ');
      if (!name.trim()) bad.push('no name: ' + (e.id || e.outerHTML.slice(0, 60)));
    }
    for (const e of document.querySelectorAll('[tabindex]')) {
      if (+e.getAttribute('tabindex') > 0) bad.push('tabindex above 0: ' + (e.id || e.tagName));
    }
    return bad.join(' | ');
  })())");
  if (named != "\"\"") return named;
  // The controls shown, in the page's order, once the page has settled (the
  // forms fill themselves after a login: the same list twice, 300 ms apart);
  // then Tab from the top, one press each.
  const std::string list = R"([...document.querySelectorAll('a[href], input, select, textarea, button')]
      .filter(e => e.offsetParent !== null && !e.disabled && e.type !== 'hidden').map(e => e.id || e.tagName).join(' '))";
  std::string order = b.Eval(list);
  for (int tries = 0; tries < 50; ++tries) {
    b.Eval("new Promise(r => setTimeout(() => r(true), 300))");
    const std::string again = b.Eval(list);
    if (again == order) break;
    order = again;
  }
  b.Eval("document.activeElement && document.activeElement.blur(); window.getSelection().removeAllRanges(); true");
  std::string walked;
  const size_t n = std::count(order.begin(), order.end(), ' ') + 1;
  for (size_t i = 0; i < n; ++i) {
    for (const char* type : {"keyDown", "keyUp"}) {
      b.Send("Input.dispatchKeyEvent", std::string("{\"type\": \"") + type +
                                           "\", \"key\": \"Tab\", \"code\": \"Tab\", \"windowsVirtualKeyCode\": 9}");
    }
    const std::string at = b.Eval("document.activeElement.id || document.activeElement.tagName");
    walked += (walked.empty() ? "" : " ") + at.substr(1, at.size() - 2);
  }
  if ("\"" + walked + "\"" != order) return "Tab walks " + walked + "\nthe page lists " + order;
  return "";
}

}  // namespace

TEST_CASE("desk page: every control shown has a name a screen reader reads, and Tab walks them in the page's order, "
          "for every kind of player and the GA",
          "[desk][browser][page]") {
  struct Who {
    const char* game;
    const char* person;
    const char* password;  // "" for the GA
  };
  const Who whos[] = {{"nwol", "nelson", "nelson-1805"},        {"nwol", "pitt", "pitt-1805"},
                      {"nwol", "barham", "barham-1805"},        {"europe", "richelieu", "richelieu-1820"},
                      {"talavera", "wellesley", "wellesley-1809"}, {"nwol", "", ""}};
  for (const Screen& screen : kScreens) {
    for (const Who& who : whos) {
      DYNAMIC_SECTION(screen.name << " " << who.game << " " << (*who.person ? who.person : "the GA")) {
        PageDesk d(who.game);
        Browser b(d.dir.Sub("chromium"));
        b.Viewport(screen.width, screen.height, screen.mobile);
        b.Open(d.Url());
        INFO("the login page");
        CHECK(Accessible(b) == "");
        if (*who.person) {
          LogIn(b, who.person, who.game, who.password);
          REQUIRE(b.Until("document.querySelectorAll('#player select option').length > 0"));
        } else {
          b.Eval("document.getElementById('ga-password').value = 'the-ga-secret'; document.getElementById('ga-login-btn').click(); true");
          REQUIRE(b.Until("!document.getElementById('ga').classList.contains('hidden')"));
        }
        INFO("logged in");
        CHECK(Accessible(b) == "");
      }
    }
  }
}

TEST_CASE("desk page: the GA's forms on every kind of game at a phone's width and a desk's — a password reset, a "
          "player's orders entered for him, a deadline set, a phase adjudicated once confirmed, the status as a table",
          "[desk][browser][page][ga-forms]") {
  struct Kind {
    const char* game;
    const char* person;
    const char* orders;  // in his book's text form
  };
  const Kind kinds[] = {{"nwol", "nelson", "BR1FL orders move SOA"},
                        {"europe", "richelieu", "research Railroads"},
                        {"talavera", "wellesley", "BR-29 orders hold"}};
  for (const Screen& screen : kScreens) {
    for (const Kind& k : kinds) {
      DYNAMIC_SECTION(screen.name << " " << k.game) {
        PageDesk d(k.game);
        const auto head = [&] {
          auto h = d.db->HeadOf(d.game, "main");
          REQUIRE(h.ok());
          return h->seq;
        };
        const std::string shots = testing::TestOutputDir(std::string("page/") + screen.name);
        Browser b(d.dir.Sub("chromium"));
        b.Viewport(screen.width, screen.height, screen.mobile);
        b.Open(d.Url());
        b.Eval("document.getElementById('ga-password').value = 'the-ga-secret'; document.getElementById('ga-login-btn').click(); true");
        REQUIRE(b.Until("!document.getElementById('ga').classList.contains('hidden')"));
        Fill(b, {{"ga-game", k.game}});

        // His password reset: the new one logs him in.
        Fill(b, {{"pw-person", k.person}, {"pw-new", "a-new-secret-21"}});
        Click(b, "pw-btn");
        REQUIRE(b.Until("document.getElementById('pw-out').textContent.startsWith('Password set for " + std::string(k.person) + "')"));
        CHECK(testing::HttpCall(d.desk->port(), "POST", "/api/login",
                                std::string(R"({"game": ")") + k.game + R"(", "person": ")" + k.person +
                                    R"(", "password": "a-new-secret-21"})")
                  .status == 200);

        // His orders, sent by other means, entered for him: recorded as the GA's, standing.
        const uint64_t mark = head();
        Fill(b, {{"of-person", k.person}, {"of-text", k.orders}});
        Click(b, "of-btn");
        const bool entered = b.Until("document.getElementById('of-out').textContent.startsWith('Entered for ')");
        INFO(b.Eval("document.getElementById('of-out').textContent"));
        REQUIRE(entered);
        CHECK(b.Eval("document.getElementById('of-out').textContent.includes('stands')") == "true");
        int by_ga = 0;
        REQUIRE(d.db->Read(d.game, "main", mark + 1, UINT64_MAX, [&](const ledger::EventView& v) {
                      const auto* o = v.event()->payload_as_OrderSubmitted();
                      if (o && o->person()->str() == k.person) by_ga += v.event()->actor()->kind() == fb::ActorKind_GameAdministrator;
                      return Status::Ok();
                    }).ok());
        CHECK(by_ga == 1);

        // A deadline set through the schedule form.
        Fill(b, {{"sc-action", "set"}, {"sc-deadline", "+3d"}});
        Click(b, "sc-btn");
        REQUIRE(b.Until("document.getElementById('sc-out').textContent.length > 0"));
        CHECK(b.Eval("document.getElementById('sc-out').classList.contains('err')") == "false");

        // The status, as a table; the page fits.
        Click(b, "status-btn");
        REQUIRE(b.Until("!!document.getElementById('st-persons')"));
        CHECK(b.Eval("document.getElementById('st-persons').tagName") == "\"TABLE\"");
        CHECK(b.Eval("document.getElementById('ga-status').textContent.includes('{')") == "false");
        Fits(b, screen, std::string("the GA's page on ") + k.game);
        b.Screenshot(shots + "/ga-" + k.game + ".png");

        // Adjudication: asked first, cancelled (nothing runs), asked again and confirmed.
        const uint64_t before = head();
        Click(b, "adj-phase-btn");
        REQUIRE(b.Until("!document.getElementById('adj-confirm').classList.contains('hidden')"));
        CHECK(b.Eval("document.getElementById('adj-what').textContent.startsWith('Adjudicate ')") == "true");
        Click(b, "adj-no");
        CHECK(b.Until("document.getElementById('adj-confirm').classList.contains('hidden')"));
        CHECK(head() == before);
        Click(b, "adj-phase-btn");
        REQUIRE(b.Until("!document.getElementById('adj-confirm').classList.contains('hidden')"));
        Click(b, "adj-yes");
        const bool done = b.Until("document.getElementById('adj-out').textContent.includes('(events ')");
        INFO(b.Eval("document.getElementById('adj-out').textContent"));
        REQUIRE(done);
        CHECK(b.Eval("document.getElementById('adj-out').textContent.includes('{')") == "false");
        CHECK(head() > before);
      }
    }
  }
}
