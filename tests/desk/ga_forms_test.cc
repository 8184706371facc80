// Issue 20, the GA while the server runs, at the order desk, on every kind
// of game — the requests behind the GA's forms:
// - POST /api/games/G/passwords: a person's password set or reset; the old
//   one stops working, the person's sessions end (a bystander's do not), the
//   new one logs in; bad requests refused with nothing appended;
// - POST /api/games/G/orders?for=P: orders a player sent by other means,
//   entered by the GA — his to see in his own list, recorded as the GA's;
//   another's slot, no `for`, or a player naming another refused;
// - POST /api/games/G/adjudicate with "expect": the phase the status's
//   next_at names runs; a stale confirmation is a 409 with nothing appended;
// - POST /api/games/G/correct?format=text: the answer in words.
#include <catch2/catch.hpp>

#include <sodium.h>

#include "desk/desk.h"
#include "ledger/ledger.h"
#include "projections/roster.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "support/desk_client.h"
#include "support/kinds.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

std::string LoginBody(const std::string& person, const std::string& password) {
  return R"({"game": "g", "person": ")" + person + R"(", "password": ")" + password + R"("})";
}

uint64_t Head(ledger::Ledger& db) {
  auto h = db.HeadOf("g", "main");
  REQUIRE(h.ok());
  return h->seq;
}

}  // namespace

TEST_CASE("desk GA forms: on every kind — passwords set and reset and orders entered for a player and adjudication "
          "confirmed by its phase and a correction answered in words — bad requests change nothing",
          "[desk][ga-forms]") {
  REQUIRE(sodium_init() >= 0);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const std::string person = kind.turns.back().orders.front().first;
      const std::string orders = kind.turns.back().orders.front().second;
      std::string other;
      bool other_may_not = false;  // the orders are not his to give (y1820: a ruler's orders name no nation)
      {
        auto w = replay::Fold(db, "g", "main");
        REQUIRE(w.ok());
        auto doc = schema::ParseJson("OrderFile", orders, "orders");
        REQUIRE(doc.ok());
        for (const auto& [name, p] : w->roster().persons()) {
          if (name == person || p.roles.empty() || (!other.empty() && other_may_not)) continue;
          other = name;
          other_may_not = replay::FirstNotHis(*w, name, *doc).has_value();
        }
      }
      REQUIRE(!other.empty());
      for (const std::string& p : {person, other}) {
        REQUIRE(replay::SetPassword(db, "g", "main", p, CheapPasswordHash(p + "-secret")).ok());
      }
      desk::Settings s;
      s.ga_pwhash = CheapPasswordHash("the-ga-secret");
      auto d = StartDesk(db, s);
      REQUIRE(d.ok());
      std::unique_ptr<desk::Desk> desk = std::move(d).value();
      const uint16_t port = desk->port();
      auto login = [&](const std::string& path, const std::string& body) {
        auto r = HttpCall(port, "POST", path, body);
        INFO(r.body);
        REQUIRE(r.status == 200);
        return TokenOf(r.body);
      };
      auto me = [&](const std::string& token) { return HttpCall(port, "GET", "/api/me", "", token).status; };
      const std::string ga = login("/api/ga/login", R"({"password": "the-ga-secret"})");
      const std::string his1 = login("/api/login", LoginBody(person, person + "-secret"));
      const std::string his2 = login("/api/login", LoginBody(person, person + "-secret"));
      const std::string bystander = login("/api/login", LoginBody(other, other + "-secret"));

      // ---- passwords ----
      uint64_t head = Head(db);
      struct Bad {
        std::string body, token;
        int status;
        std::string says;
      };
      const std::vector<Bad> bad_passwords = {
          {R"({"person": ")" + person + R"(", "password": "short"})", ga, 400, "8 to 1024"},
          {R"({"password": "long-enough-1"})", ga, 400, "person"},
          {R"({"person": "nobody", "password": "long-enough-1"})", ga, 400, "no person 'nobody'"},
          {R"({"person": ")" + person + R"(", "password": "long-enough-1", "extra": 1})", ga, 400, ""},
          {"not json", ga, 400, ""},
          {R"({"person": ")" + person + R"(", "password": "long-enough-1"})", bystander, 403, "GA"},
          {R"({"person": ")" + person + R"(", "password": "long-enough-1"})", "", 401, ""},
      };
      for (const Bad& b : bad_passwords) {
        auto r = HttpCall(port, "POST", "/api/games/g/passwords", b.body, b.token);
        INFO(b.body << " -> " << r.status << " " << r.body);
        CHECK(r.status == b.status);
        CHECK_THAT(r.body, Catch::Contains(b.says));
        CHECK(Head(db) == head);
      }
      CHECK(me(his1) == 200);
      auto set = HttpCall(port, "POST", "/api/games/g/passwords",
                          R"({"person": ")" + person + R"(", "password": "a-new-secret"})", ga);
      INFO(set.body);
      REQUIRE(set.status == 200);
      CHECK_THAT(set.body, Catch::Contains("\"sessions_ended\": 2"));
      CHECK(Head(db) == head + 1);
      CHECK(me(his1) == 401);
      CHECK(me(his2) == 401);
      CHECK(me(bystander) == 200);
      CHECK(me(ga) == 200);
      const std::string his = login("/api/login", LoginBody(person, "a-new-secret"));
      CHECK(HttpCall(port, "POST", "/api/login", LoginBody(person, person + "-secret")).status == 401);

      // ---- orders entered for a player ----
      head = Head(db);
      const std::vector<Bad> bad_entries = {
          {orders, ga, 400, "for:"},                           // no ?for
          {"{\"orders\": [", ga, 400, "orders"},              // unreadable
      };
      for (const Bad& b : bad_entries) {
        auto r = HttpCall(port, "POST", "/api/games/g/orders", b.body, b.token);
        INFO(r.status << " " << r.body);
        CHECK(r.status == b.status);
        CHECK_THAT(r.body, Catch::Contains(b.says));
      }
      if (other_may_not) {
        auto not_his = HttpCall(port, "POST", "/api/games/g/orders?for=" + other, orders, ga);
        INFO(not_his.body);
        CHECK(not_his.status == 400);
        CHECK_THAT(not_his.body, Catch::Contains("not " + other + "'s to give"));
      }
      auto nobody = HttpCall(port, "POST", "/api/games/g/orders?for=nobody", orders, ga);
      CHECK(nobody.status == 400);
      // A player naming another gives nothing for him.
      auto posing = HttpCall(port, "POST", "/api/games/g/orders?for=" + person, orders, bystander);
      CHECK(posing.status == 403);
      CHECK(Head(db) == head);
      auto entered = HttpCall(port, "POST", "/api/games/g/orders?for=" + person, orders, ga, {{"Idempotency-Key", "fax-7"}});
      INFO(entered.body);
      REQUIRE(entered.status == 200);
      const uint64_t after_entry = Head(db);
      CHECK(after_entry > head);
      // The same key again: answered, nothing new.
      auto retry = HttpCall(port, "POST", "/api/games/g/orders?for=" + person, orders, ga, {{"Idempotency-Key", "fax-7"}});
      CHECK(retry.status == 200);
      CHECK(Head(db) == after_entry);
      int by_ga = 0;
      REQUIRE(db.Read("g", "main", head + 1, UINT64_MAX, [&](const ledger::EventView& v) {
                  if (const auto* o = v.event()->payload_as_OrderSubmitted()) {
                    CHECK(o->person()->str() == person);
                    CHECK(v.event()->actor()->kind() == fb::ActorKind_GameAdministrator);
                    ++by_ga;
                  }
                  return Status::Ok();
                }).ok());
      CHECK(by_ga > 0);
      // His own list shows them; his report says who entered them.
      auto list = HttpCall(port, "GET", "/api/games/g/orders", "", his);
      INFO(list.body);
      CHECK(list.status == 200);
      CHECK_THAT(list.body, Catch::Contains("\"seq\": " + std::to_string(head + 1)));
      auto report = HttpCall(port, "GET", "/api/games/g/reports?kind=orders&turn=" + kind.coming.ToString(), "", his);
      CHECK_THAT(report.body, Catch::Contains("(entered by the GA for you)"));

      // ---- adjudication confirmed by its phase ----
      auto st = HttpCall(port, "GET", "/api/games/g/status", "", ga);
      REQUIRE(st.status == 200);
      auto doc = schema::ParseJson("StatusReport", st.body, "status");
      REQUIRE(doc.ok());
      const std::string next = flatbuffers::GetRoot<fb::StatusReport>(doc->data())->next_at()->str();
      REQUIRE(!next.empty());
      head = Head(db);
      auto garbled = HttpCall(port, "POST", "/api/games/g/adjudicate", R"({"mode": "phase", "expect": "soon"})", ga);
      CHECK(garbled.status == 400);
      auto stale = HttpCall(port, "POST", "/api/games/g/adjudicate",
                            R"({"mode": "phase", "expect": ")" + next + R"(1"})", ga);  // phase N becomes N1
      INFO(stale.body);
      CHECK(stale.status == 409);
      CHECK_THAT(stale.body, Catch::Contains("moved on"));
      CHECK(Head(db) == head);
      auto ran = HttpCall(port, "POST", "/api/games/g/adjudicate", R"({"mode": "phase", "expect": ")" + next + R"("})", ga,
                          {{"Idempotency-Key", "confirm-1"}});
      INFO(ran.body);
      CHECK(ran.status == 200);
      CHECK(Head(db) > head);
      // The same confirmation, a new click (another key): stale now.
      head = Head(db);
      auto again = HttpCall(port, "POST", "/api/games/g/adjudicate", R"({"mode": "phase", "expect": ")" + next + R"("})",
                            ga, {{"Idempotency-Key", "confirm-2"}});
      CHECK(again.status == 409);
      CHECK(Head(db) == head);

      // ---- a correction answered in words ----
      auto fix = HttpCall(port, "POST", "/api/games/g/correct?format=text&name=fixed&at=" + kind.turns.back().turn.ToString(),
                          kind.correction, ga);
      INFO(fix.body);
      CHECK(fix.status == 200);
      // Words, not a JSON document inside the answer's out.
      CHECK_THAT(fix.body, Catch::Contains("\"out\": \""));
      CHECK_THAT(fix.body, !Catch::Contains("\"out\": \"{"));
      CHECK_THAT(fix.body, Catch::Contains("fixed"));
      CHECK_THAT(fix.body, Catch::Contains("main is unchanged"));
      desk->Stop();
      desk->Wait();
    }
  }
}
