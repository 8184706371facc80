// Issue 20, players come and go, on every kind of game: `adjutant role`
// gives a player's roles to a newcomer from the coming turn (an AssignRole
// directive, recorded with who held the role before), after which the
// newcomer may order under them and the old holder may not, the status
// shows the roles as they stand, the log says it in words, a withdrawn role
// is vacant, a correction carries the change over, and every bad request is
// refused with one message and nothing appended.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "ledger/ledger.h"
#include "projections/roster.h"
#include "replay/driver.h"
#include "replay/roles.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "support/kinds.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

uint64_t Head(ledger::Ledger& db, const std::string& branch = "main") {
  auto h = db.HeadOf("g", branch);
  REQUIRE(h.ok());
  return h->seq;
}

std::set<std::string> RolesOf(ledger::Ledger& db, const std::string& person, const std::string& branch = "main") {
  auto w = replay::Fold(db, "g", branch);
  REQUIRE(w.ok());
  const projections::Person* p = w->roster().Find(person);
  return p ? p->roles : std::set<std::string>{};
}

// The AssignRole directives of the branch, in order.
std::vector<std::pair<std::string, std::vector<std::string>>> Recorded(ledger::Ledger& db, const std::string& branch) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  REQUIRE(db.Read("g", branch, 1, UINT64_MAX, [&](const ledger::EventView& v) {
              const auto* d = v.event()->payload_as_Directive();
              if (const auto* a = d ? d->body_as_AssignRole() : nullptr) {
                std::vector<std::string> from;
                if (a->taken_from()) for (const auto* n : *a->taken_from()) from.push_back(n->str());
                out.emplace_back(a->person()->str() + (a->withdraw() ? " -" : " +") + a->role()->str(), from);
              }
              return Status::Ok();
            }).ok());
  return out;
}

}  // namespace

TEST_CASE("issue 20: players come and go, on every kind — roles given to a newcomer from the coming turn, the old "
          "holder refused his orders, a withdrawn role vacant, a correction carrying it over, bad requests refused",
          "[roles]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      REQUIRE(!kind.turns.back().orders.empty());
      const std::string person = kind.turns.back().orders.front().first;
      const std::string json = kind.turns.back().orders.front().second;
      auto doc = schema::ParseJson("OrderFile", json, "orders.json");
      REQUIRE(doc.ok());
      const std::set<std::string> his = RolesOf(db, person);
      REQUIRE(!his.empty());
      const std::string coming = kind.coming.ToString();
      {
        auto w = replay::Fold(db, "g", "main");
        REQUIRE(w.ok());
        // Before: the orders are his to give, not the newcomer's.
        CHECK_FALSE(replay::FirstNotHis(*w, person, *doc).has_value());
      }

      // Bad requests: one message each, nothing appended.
      const std::string role = *his.begin();
      const uint64_t before = Head(db);
      const std::string past = kind.turns.back().turn.ToString();
      struct Bad {
        std::vector<std::string> args;
        std::string says;
      };
      std::ofstream(g.dir.Sub("pw")) << "newcomer-secret\n";
      const std::vector<Bad> bad = {
          {{"role", "g", "--person", "newcomer", "--give", "NOBODY.nothing"}, "no such role in game 'g'"},
          {{"role", "g", "--person", "newcomer", "--give", "nodot"}, "HOLDER.TITLE"},
          {{"role", "g", "--person", "newcomer", "--give", role, "--from-turn", past}, "what is past stands"},
          {{"role", "g", "--person", "newcomer", "--give", role, "--from-turn", "not-a-turn"}, "--from-turn 'not-a-turn'"},
          {{"role", "g", "--person", "newcomer", "--withdraw", role}, "newcomer does not hold " + role + " (held by " + person},
          {{"role", "g", "--person", person, "--give", role}, person + " holds " + role + " already"},
          {{"role", "g", "--person", "newcomer", "--give", role, "--withdraw", role}, "not both"},
          {{"role", "g", "--give", role}, "--person P is required"},
          {{"role", "g", "--person", person, "--withdraw", role, "--password-file", g.dir.Sub("pw")}, "not one withdrawn"},
          {{"role", "g", "--person", "new\x01comer", "--give", role}, "--person"},
      };
      for (const auto& b : bad) {
        auto r = Cli(db, b.args);
        INFO(b.args.back() << " " << r.out << r.err);
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Catch::Contains(b.says));
        CHECK(Head(db) == before);
      }

      // Every role of his goes to the newcomer, from the coming turn.
      bool first = true;
      for (const auto& r : his) {
        std::vector<std::string> args = {"role", "g", "--person", "newcomer", "--give", r};
        if (first) args.insert(args.end(), {"--password-file", g.dir.Sub("pw")});
        auto out = Cli(db, args);
        INFO(out.out << out.err);
        REQUIRE(out.code == 0);
        CHECK_THAT(out.out, Catch::Contains(r + " given to newcomer in g/main from turn " + coming + " (it was " + person + "'s)"));
        if (first) CHECK_THAT(out.out, Catch::Contains("password set for newcomer"));
        first = false;
      }
      CHECK(RolesOf(db, "newcomer") == his);
      CHECK(RolesOf(db, person).empty());
      {
        auto w = replay::Fold(db, "g", "main");
        REQUIRE(w.ok());
        CHECK(!w->roster().Find("newcomer")->pwhash.empty());
        // His orders are now the newcomer's to give.
        CHECK(replay::FirstNotHis(*w, person, *doc).has_value());
        CHECK_FALSE(replay::FirstNotHis(*w, "newcomer", *doc).has_value());
      }
      auto sub = replay::SubmitOrders(db, "g", "main", "newcomer", *doc);
      INFO(sub.status().message());
      REQUIRE(sub.ok());
      // His report of the coming turn's orders says whose they are now.
      std::string joined;
      for (const auto& r : his) joined += (joined.empty() ? "" : ", ") + r;
      auto report = Cli(db, {"report", "orders", "g", "--player", "newcomer", "--turn", coming});
      INFO(report.out << report.err);
      REQUIRE(report.code == 0);
      CHECK_THAT(report.out, Catch::Contains("roles: " + joined + "\n"));
      CHECK_THAT(report.out, Catch::Contains("#" + std::to_string(sub->append.first_seq)));
      auto gone = Cli(db, {"report", "orders", "g", "--player", person, "--turn", coming});
      REQUIRE(gone.code == 0);
      CHECK_THAT(gone.out, Catch::Contains("roles: none"));
      // The roles as they stand: the status view, the role listing, the log.
      auto status = Cli(db, {"status", "g"});
      INFO(status.out << status.err);
      REQUIRE(status.code == 0);
      CHECK_THAT(status.out, Catch::Contains("  newcomer [" + joined + "]: "));
      CHECK_THAT(status.out, !Catch::Contains("  " + person + " ["));
      auto listing = Cli(db, {"role", "g"});
      REQUIRE(listing.code == 0);
      CHECK_THAT(listing.out, Catch::Contains(role + "  newcomer"));
      auto log = Cli(db, {"log", "g", "--kind", "Directive"});
      REQUIRE(log.code == 0);
      CHECK_THAT(log.out, Catch::Contains(role + " given to newcomer from turn " + coming + " (taken from " + person + ")"));

      // Withdrawn: vacant, and given back.
      auto w1 = Cli(db, {"role", "g", "--person", "newcomer", "--withdraw", role});
      INFO(w1.err);
      REQUIRE(w1.code == 0);
      CHECK_THAT(w1.out, Catch::Contains("it is vacant"));
      CHECK_THAT(Cli(db, {"role", "g"}).out, Catch::Contains(role + "  (vacant)"));
      auto back = Cli(db, {"role", "g", "--person", person, "--give", role});
      REQUIRE(back.code == 0);
      CHECK_THAT(back.out, Catch::Contains("(it was vacant)"));
      CHECK(RolesOf(db, person) == std::set<std::string>{role});

      // A directive file says the same (its taken_from is Adjutant's to fill).
      std::ofstream(g.dir.Sub("assign.json"))
          << R"({"reason": "Nelson recalled", "body_type": "AssignRole", "body": {"person": "newcomer", "role": ")" << role
          << R"(", "from_turn": {"major": )" << kind.coming.major << R"(, "minor": )" << kind.coming.minor
          << R"(, "step": )" << kind.coming.step << R"(}, "taken_from": ["a-liar"]}})";
      auto dir = Cli(db, {"directive", "g", g.dir.Sub("assign.json")});
      INFO(dir.out << dir.err);
      REQUIRE(dir.code == 0);
      auto rec = Recorded(db, "main");
      REQUIRE(!rec.empty());
      CHECK(rec.back().first == "newcomer +" + role);
      CHECK(rec.back().second == std::vector<std::string>{person});
      CHECK(RolesOf(db, "newcomer") == his);

      // A correction before the changes carries them over; one cannot be the correction.
      std::ofstream(g.dir.Sub("correction.json")) << kind.correction;
      const std::string at = kind.turns.back().turn.ToString();
      auto bad_fix = Cli(db, {"correct", "g", "--at", at, "--directive", g.dir.Sub("assign.json")});
      CHECK(bad_fix.code == 2);
      CHECK_THAT(bad_fix.err, Catch::Contains("not as a correction"));
      auto fix = Cli(db, {"correct", "g", "--at", at, "--directive", g.dir.Sub("correction.json"), "--name", "fixed"});
      INFO(fix.out << fix.err);
      REQUIRE(fix.code == 0);
      CHECK(RolesOf(db, "newcomer", "fixed") == his);
      CHECK(RolesOf(db, person, "fixed").empty());
      CHECK(Recorded(db, "fixed").size() == Recorded(db, "main").size());
    }
  }
}

TEST_CASE("issue 20: on every kind — a role given for a later turn waits (the old holder still orders) and takes "
          "effect as that turn's orders open — recorded by the adjudicator with who held it then — audited and "
          "carried by a correction",
          "[roles][pending]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const std::string person = kind.turns.back().orders.front().first;
      const std::set<std::string> his = RolesOf(db, person);
      REQUIRE(!his.empty());
      const std::string role = *his.begin();
      const std::string coming = kind.coming.ToString();
      auto after = TurnAfterComing(kind);
      REQUIRE(after.ok());
      const std::string next = after->ToString();
      REQUIRE(next != coming);

      const uint64_t before = Head(db);
      auto given = Cli(db, {"role", "g", "--person", "newcomer", "--give", role, "--from-turn", next});
      INFO(given.out << given.err);
      REQUIRE(given.code == 0);
      CHECK_THAT(given.out, Catch::Contains("waits until that turn's orders open"));
      CHECK(Head(db) == before + 1);
      // Waiting: nothing changed hands yet.
      CHECK(RolesOf(db, person) == his);
      CHECK(RolesOf(db, "newcomer").empty());
      auto listed = Cli(db, {"role", "g"});
      CHECK_THAT(listed.out, Catch::Contains("from turn " + next + ": " + role + " given to newcomer  (waiting; seq " +
                                             std::to_string(before + 1) + ")"));
      CHECK_THAT(Cli(db, {"log", "g", "--kind", "Directive"}).out, Catch::Contains("it waits until that turn's orders open"));
      // The same change again, and one for a past turn: refused, nothing appended.
      auto twice = Cli(db, {"role", "g", "--person", "newcomer", "--give", role, "--from-turn", next});
      CHECK(twice.code == 2);
      CHECK_THAT(twice.err, Catch::Contains("given for turn " + next + " already"));
      auto past = Cli(db, {"role", "g", "--person", "newcomer", "--give", role, "--from-turn",
                           kind.turns.back().turn.ToString()});
      CHECK(past.code == 2);
      CHECK(Head(db) == before + 1);
      // The old holder still orders for the coming turn.
      {
        auto w = replay::Fold(db, "g", "main");
        REQUIRE(w.ok());
        auto doc = schema::ParseJson("OrderFile", kind.turns.back().orders.front().second, "orders.json");
        REQUIRE(doc.ok());
        CHECK_FALSE(replay::FirstNotHis(*w, person, *doc).has_value());
      }

      // The coming turn adjudicated: the change takes effect as the next one's orders open.
      const uint64_t mark = Head(db);
      auto adj = Cli(db, {"adjudicate", "g"});
      INFO(adj.out << adj.err);
      REQUIRE(adj.code == 0);
      CHECK(RolesOf(db, "newcomer").count(role) == 1);
      CHECK(RolesOf(db, person).count(role) == 0);
      int recorded = 0;
      REQUIRE(db.Read("g", "main", mark + 1, UINT64_MAX, [&](const ledger::EventView& v) {
                  const auto* d = v.event()->payload_as_Directive();
                  if (const auto* a = d ? d->body_as_AssignRole() : nullptr) {
                    ++recorded;
                    CHECK(v.event()->actor()->kind() == fb::ActorKind_Adjudicator);
                    CHECK(a->person()->str() == "newcomer");
                    REQUIRE(a->taken_from());
                    REQUIRE(a->taken_from()->size() == 1);
                    CHECK(a->taken_from()->Get(0)->str() == person);
                  }
                  return Status::Ok();
                }).ok());
      CHECK(recorded == 1);
      CHECK_THAT(Cli(db, {"role", "g"}).out, !Catch::Contains("waiting"));
      // Nothing more is due: another adjudication records none again.
      auto audit = Cli(db, {"audit", "g", "--all"});
      INFO(audit.out << audit.err);
      CHECK(audit.code == 0);

      // A correction before the change gives it again; it takes effect there once.
      std::ofstream(g.dir.Sub("correction.json")) << kind.correction;
      INFO(Cli(db, {"log", "g", "--kind", "Directive"}).out);
      auto fix = Cli(db, {"correct", "g", "--at", kind.turns.back().turn.ToString(), "--directive",
                          g.dir.Sub("correction.json"), "--name", "fixed"});
      INFO(fix.out << fix.err);
      REQUIRE(fix.code == 0);
      CHECK(RolesOf(db, "newcomer", "fixed").count(role) == 1);
      CHECK(RolesOf(db, person, "fixed").count(role) == 0);
      CHECK(Recorded(db, "fixed").size() == Recorded(db, "main").size());
    }
  }
}
