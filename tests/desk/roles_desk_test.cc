// Issue 20, players come and go, at the order desk, on every kind of game:
// when the GA gives a player's role to another — by a command through the
// desk (Desk::Command, as `adjutant serve` runs what comes through its socket) or by
// POST /api/games/G/directives — the old holder's sessions end at once,
// another player's do not, and the newcomer logs in with the password he
// was given and is told the role is his.
#include <catch2/catch.hpp>

#include <fstream>
#include <future>
#include <set>

#include <sodium.h>

#include "cli/commands.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "projections/roster.h"
#include "replay/driver.h"
#include "support/desk_client.h"
#include "support/kinds.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

std::string LoginBody(const std::string& person, const std::string& password) {
  return R"({"game": "g", "person": ")" + person + R"(", "password": ")" + password + R"("})";
}

}  // namespace

TEST_CASE("desk roles: on every kind, the GA gives a player's role to another — through the desk's command way in, "
          "or POST directives — and the old holder's sessions end at once, the newcomer's login shows it his",
          "[roles][desk]") {
  REQUIRE(sodium_init() >= 0);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const std::string person = kind.turns.back().orders.front().first;
      std::set<std::string> his;
      std::string other;
      {
        auto w = replay::Fold(db, "g", "main");
        REQUIRE(w.ok());
        his = w->roster().Find(person)->roles;
        for (const auto& [name, p] : w->roster().persons()) {
          if (name != person && !p.roles.empty()) other = name;
        }
      }
      REQUIRE(!his.empty());
      REQUIRE(!other.empty());
      for (const std::string& p : {person, other}) {
        REQUIRE(replay::SetPassword(db, "g", "main", p, CheapPasswordHash(p + "-secret")).ok());
      }
      desk::Settings s;
      s.ga_pwhash = CheapPasswordHash("the-ga-secret");
      auto d = StartDesk(db, s);
      REQUIRE(d.ok());
      std::unique_ptr<desk::Desk> desk = std::move(d).value();
      auto login = [&](const std::string& path, const std::string& body) {
        auto r = HttpCall(desk->port(), "POST", path, body);
        INFO(r.body);
        REQUIRE(r.status == 200);
        return TokenOf(r.body);
      };
      auto me = [&](const std::string& token) { return HttpCall(desk->port(), "GET", "/api/me", "", token); };
      const std::string ga = login("/api/ga/login", R"({"password": "the-ga-secret"})");
      const std::string old1 = login("/api/login", LoginBody(person, person + "-secret"));
      const std::string old2 = login("/api/login", LoginBody(person, person + "-secret"));
      const std::string bystander = login("/api/login", LoginBody(other, other + "-secret"));
      REQUIRE(me(old1).status == 200);

      // The first role, by a command on the game's sequencer, as serve runs
      // what comes through its socket.
      const std::string first = *his.begin();
      std::ofstream(g.dir.Sub("pw")) << "newcomer-secret\n";
      cli::Inputs inputs;
      inputs.files[g.dir.Sub("pw")] = "newcomer-secret\n";
      std::promise<std::pair<int, std::string>> done;
      int ran = -1;
      std::string out, err;
      desk->Command(
          "g",
          [&] {
            ran = cli::RunShared(db, {"role", "g", "--person", "newcomer", "--give", first, "--password-file", g.dir.Sub("pw")},
                                 &out, &err, inputs);
          },
          [&] { done.set_value({ran, out + err}); });
      auto [code, said] = done.get_future().get();
      INFO(said);
      REQUIRE(code == 0);
      // Both of his sessions ended; the bystander's and the GA's did not.
      for (const auto& t : {old1, old2}) {
        auto r = me(t);
        CHECK(r.status == 401);
      }
      CHECK(me(bystander).status == 200);
      CHECK(HttpCall(desk->port(), "GET", "/api/games/g/status", "", ga).status == 200);
      // The newcomer logs in with the password given with the role.
      const std::string fresh = login("/api/login", LoginBody("newcomer", "newcomer-secret"));
      auto r = me(fresh);
      INFO(r.body);
      REQUIRE(r.status == 200);
      CHECK_THAT(r.body, Catch::Contains(first));

      // The DirectiveFile the GA posts: `role` to the newcomer (or withdrawn from him) from the coming turn.
      auto assign = [&](const std::string& role, bool withdraw) {
        return R"({"reason": "replaced", "body_type": "AssignRole", "body": {"person": "newcomer", "role": ")" + role +
               R"(", "withdraw": )" + (withdraw ? "true" : "false") + R"(, "from_turn": {"major": )" +
               std::to_string(kind.coming.major) + R"(, "minor": )" + std::to_string(kind.coming.minor) +
               R"(, "step": )" + std::to_string(kind.coming.step) + "}}}";
      };
      // He logs in again (he may hold more roles); the next role goes by a
      // directive the GA posts: his new session ends too.
      if (his.size() > 1) {
        const std::string again = login("/api/login", LoginBody(person, person + "-secret"));
        const std::string second = *std::next(his.begin());
        auto posted = HttpCall(desk->port(), "POST", "/api/games/g/directives", assign(second, false), ga);
        INFO(posted.body);
        REQUIRE(posted.status == 200);
        CHECK(me(again).status == 401);
        CHECK(me(bystander).status == 200);
      } else {
        // Withdrawn by a posted directive: the newcomer's session ends.
        auto posted = HttpCall(desk->port(), "POST", "/api/games/g/directives", assign(first, true), ga);
        INFO(posted.body);
        REQUIRE(posted.status == 200);
        CHECK(me(fresh).status == 401);
        CHECK(me(bystander).status == 200);
      }
      // A refused directive changes nothing and ends nobody's session.
      const std::string keep = login("/api/login", LoginBody("newcomer", "newcomer-secret"));
      auto refused = HttpCall(desk->port(), "POST", "/api/games/g/directives",
                              R"({"reason": "x", "body_type": "AssignRole", "body": {"person": "newcomer", "role": "NOBODY.nothing"}})",
                              ga);
      CHECK(refused.status == 400);
      CHECK_THAT(refused.body, Catch::Contains("no such role"));
      CHECK(me(keep).status == 200);
      desk->Stop();
      desk->Wait();
    }
  }
}

TEST_CASE("desk roles: on every kind — a role given for a later turn leaves the old holder's session working until "
          "an adjudication opens that turn's orders — then it ends before the GA hears the answer",
          "[roles][desk][pending]") {
  REQUIRE(sodium_init() >= 0);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const std::string person = kind.turns.back().orders.front().first;
      std::string role;
      {
        auto w = replay::Fold(db, "g", "main");
        REQUIRE(w.ok());
        role = *w->roster().Find(person)->roles.begin();
      }
      auto after = TurnAfterComing(kind);
      REQUIRE(after.ok());
      const Turn next = *after;
      REQUIRE(replay::SetPassword(db, "g", "main", person, CheapPasswordHash(person + "-secret")).ok());
      desk::Settings s;
      s.ga_pwhash = CheapPasswordHash("the-ga-secret");
      auto d = StartDesk(db, s);
      REQUIRE(d.ok());
      std::unique_ptr<desk::Desk> desk = std::move(d).value();
      auto login = [&](const std::string& path, const std::string& body) {
        auto r = HttpCall(desk->port(), "POST", path, body);
        INFO(r.body);
        REQUIRE(r.status == 200);
        return TokenOf(r.body);
      };
      auto me = [&](const std::string& token) { return HttpCall(desk->port(), "GET", "/api/me", "", token).status; };
      const std::string ga = login("/api/ga/login", R"({"password": "the-ga-secret"})");
      const std::string his = login("/api/login", LoginBody(person, person + "-secret"));
      auto posted = HttpCall(desk->port(), "POST", "/api/games/g/directives",
                             R"({"reason": "he leaves after this turn", "body_type": "AssignRole", "body": {"person": )"
                             R"("newcomer", "role": ")" + role + R"(", "from_turn": {"major": )" +
                                 std::to_string(next.major) + R"(, "minor": )" + std::to_string(next.minor) +
                                 R"(, "step": )" + std::to_string(next.step) + "}}}",
                             ga);
      INFO(posted.body);
      REQUIRE(posted.status == 200);
      CHECK(me(his) == 200);  // waiting: his still
      auto adj = HttpCall(desk->port(), "POST", "/api/games/g/adjudicate", R"({"mode": "turn"})", ga);
      INFO(adj.body);
      REQUIRE(adj.status == 200);
      CHECK(me(his) == 401);
      CHECK(me(ga) == 200);
      desk->Stop();
      desk->Wait();
    }
  }
}
