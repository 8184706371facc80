// POST /api/ga/run is a list of typed operations (desk/ga_api.cc
// GaOperations): the desk reads a request's args onto one of them and
// checks every value against its parameter's type before anything runs. An
// operation not in the list, a parameter it does not take, a value of the
// wrong type and a path-like value are each refused with 400 naming the
// word at fault, and nothing is appended to the ledger; the report
// operation is the reports library's.
#include <catch2/catch.hpp>
#include <sodium.h>

#include "support/build_paths.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "support/desk_client.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;

namespace {

const std::string F = ADJUTANT_FIXTURES;

struct Served {
  testing::TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  std::unique_ptr<desk::Desk> desk;
  std::string ga;
  Served() {
    REQUIRE(sodium_init() >= 0);
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    REQUIRE(testing::CreateNwolGame(*db, "nwol", testing::Slurp(F + "/scenarios/nwol-1805.json")).ok());
    desk::Settings s;
    s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
    auto d = testing::StartDesk(*db, s);
    REQUIRE(d.ok());
    desk = std::move(d).value();
    auto r = testing::HttpCall(desk->port(), "POST", "/api/ga/login", R"({"password": "the-ga-secret"})", "");
    REQUIRE(r.status == 200);
    ga = testing::TokenOf(r.body);
  }
  ~Served() {
    desk->Stop();
    desk->Wait();
  }
  testing::HttpReply Run(const std::string& args) {
    auto r = testing::HttpCall(desk->port(), "POST", "/api/ga/run", R"({"args": [)" + args + "]}", ga);
    REQUIRE(r.status != 0);
    return r;
  }
  // Every branch's head: nothing appended, no branch made.
  std::string Heads() {
    auto bs = db->Branches("nwol");
    REQUIRE(bs.ok());
    std::string out;
    for (const auto& b : *bs) {
      auto h = db->HeadOf("nwol", b.name);
      REQUIRE(h.ok());
      out += b.name + "@" + std::to_string(h->seq) + " ";
    }
    return out;
  }
};

}  // namespace

TEST_CASE("desk GA run: an operation not in the list, an unknown parameter, a parameter of the wrong type and a "
          "path-like value are refused with 400 naming it, and nothing is appended",
          "[desk][ga-run]") {
  Served s;
  const std::string before = s.Heads();
  struct Case {
    std::string args, says;
  };
  const std::vector<Case> cases = {
      // Not in the list: the desk never runs them, whatever follows.
      {R"("backup", "--to", "/tmp/x")", "args[0]: the desk runs"},
      {R"("directive", "nwol", "/etc/passwd")", "args[0]: the desk runs"},
      {R"("set-password", "nwol", "nelson")", "args[0]: the desk runs"},
      {R"("correct", "nwol", "--at", "1805.1.1", "--directive", "/etc/passwd")", "args[0]: the desk runs"},
      {R"("ADJUDICATE", "nwol")", "args[0]: the desk runs"},
      // Parameters the operation does not take.
      {R"("ruling", "nwol", "--reason", "r", "--text", "t", "--bogus", "x")", "args[6]: --bogus: not an option the desk runs ruling with"},
      {R"("adjudicate", "nwol", "--db", "/tmp/another")", "args[2]: --db: not an option the desk runs adjudicate with"},
      {R"("fork", "nwol", "--at", "1805.1.1", "--name", "b", "--json=yes")", "args[6]: --json: takes no value"},
      {R"("log", "nwol", "main")", "args[2]: unexpected argument 'main'"},
      // Values of the wrong type.
      {R"("adjudicate", "nwol", "--turns", "two")", "args[3]: --turns: not a whole number"},
      {R"("roll", "nwol", "--purpose", "p", "--rule", "r", "--count", "-2")", "args[7]: --count: not a whole number"},
      {R"("fork", "nwol", "--from", "main@last", "--name", "b")", "args[3]: --from: not BRANCH@SEQ"},
      {R"("report", "treasure", "nwol", "--state", "BR")", "args[1]: KIND: not a report"},
      {R"("ruling", "nwol", "--reason", "", "--text", "t")", "args[3]: --reason: not text"},
      {R"("audit", "nwol", "--turn", "last")", "args[3]: --turn: not a turn"},
      // Path-like values, in every kind of parameter that could carry one.
      {R"("fork", "nwol", "--at", "1805.1.1", "--name", "../../tmp/evil")", "args[5]: --name: not a branch's name"},
      {R"("ruling", "../nwol", "--reason", "r", "--text", "t")", "args[1]: GAME: not a game's name"},
      {R"("log", "/etc/passwd")", "args[1]: GAME: not a game's name"},
      {R"("report", "treasury", "nwol", "--state", "/etc/passwd")", "args[4]: --state: not a word"},
      {R"("adjudicate", "nwol", "--key", "/tmp/k")", "args[3]: --key: not an idempotency key"},
      {R"("replay", "nwol", "--to", "/etc")", "args[3]: --to: not a turn"},
      {R"("dice-commit", "nwol", "--turn", "1805.1.1", "--branch=../main")", "args[4]: --branch: not a branch's name"},
      {R"("audit", "nwol", "--all", "--rules-version", "sow=/etc/passwd")", "args[4]: --rules-version: not RULESET=VERSION"},
  };
  for (const Case& c : cases) {
    auto r = s.Run(c.args);
    INFO(c.args << " -> " << r.status << " " << r.body);
    CHECK(r.status == 400);
    CHECK_THAT(r.body, Catch::Contains(c.says));
    CHECK_THAT(r.body, !Catch::Contains("/etc/passwd") && !Catch::Contains("root:"));
    CHECK(s.Heads() == before);
  }
  // "ruling ../nwol" above is refused before it reaches a sequencer, as the
  // rest: the desk answers every one of them, and a good operation still runs.
  auto ruling = s.Run(R"("ruling", "nwol", "--reason", "weather", "--text", "a calm at sea")");
  INFO(ruling.body);
  CHECK(ruling.status == 200);
  CHECK(s.Heads() != before);
}

TEST_CASE("desk GA run: the report operation is the reports library's, for the GA's viewer", "[desk][ga-run]") {
  Served s;
  auto treasury = s.Run(R"("report", "treasury", "nwol", "--state", "FR", "--json")");
  INFO(treasury.body);
  CHECK(treasury.status == 200);
  CHECK_THAT(treasury.body, Catch::Contains(R"(\"state\": \"FR\")"));
  auto fleet = s.Run(R"("report", "fleet", "nwol")");
  CHECK(fleet.status == 200);
  CHECK_THAT(fleet.body, Catch::Contains("Fleet report: nwol/main"));
  auto events = s.Run(R"("report", "events", "nwol", "--player", "nelson")");
  CHECK(events.status == 200);
  CHECK_THAT(events.body, Catch::Contains("Events report for nelson"));
  // The library's own checks: a field that does not apply, a person that is not there.
  auto foreign = s.Run(R"("report", "battle", "nwol", "--state", "BR")");
  CHECK(foreign.status == 400);
  CHECK_THAT(foreign.body, Catch::Contains("report battle: --state does not apply to it"));
  auto nobody = s.Run(R"("report", "events", "nwol", "--player", "nobody")");
  CHECK(nobody.status == 400);
  CHECK_THAT(nobody.body, Catch::Contains("--player: no person 'nobody'"));
}
