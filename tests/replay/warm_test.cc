// Issue 22: the order desk keeps each game's world warm (replay/warm.h)
// and brings it forward by the events appended since. Whatever the traffic —
// orders through the warm world or past it, phases adjudicated, branches
// forked and played on — the world it hands out is the cold fold of the
// branch, digest for digest, on every kind of game; and what it hands out is
// a copy, which the caller may change without changing what it keeps.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ledger/ledger.h"
#include "replay/driver.h"
#include "replay/audit.h"
#include "replay/warm.h"
#include "schema/codec.h"
#include "support/kinds.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

// The warm world of `branch` against a cold fold: same head, same views,
// same digests.
void SameAsCold(ledger::Ledger& db, replay::WarmWorlds& warm, const std::string& branch) {
  auto w = warm.Fold(db, "g", branch);
  INFO((w.ok() ? "" : w.status().message()));
  REQUIRE(w.ok());
  auto c = replay::Fold(db, "g", branch);
  REQUIRE(c.ok());
  CHECK(w->head.seq == c->head.seq);
  CHECK(w->head.hash == c->head.hash);
  REQUIRE(w->projections.size() == c->projections.size());
  for (size_t i = 0; i < c->projections.size(); ++i) {
    INFO("view " << c->projections[i]->name() << " on " << branch << " at " << c->head.seq);
    CHECK(w->projections[i]->name() == c->projections[i]->name());
    CHECK(w->projections[i]->last_seq() == c->projections[i]->last_seq());
    CHECK(w->projections[i]->Digest() == c->projections[i]->Digest());
  }
}

}  // namespace

TEST_CASE("issue 22: a warm world is the cold fold, digest for digest, after random traffic on every kind of game",
          "[replay][warm][matrix]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      INFO(g.status.message());
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      replay::WarmWorlds warm(2);  // fewer than the branches made below: some are evicted
      std::mt19937_64 rng(22);
      std::vector<std::pair<std::string, std::string>> files;  // (person, OrderFile JSON) of every turn played
      for (const TurnPlan& plan : kind.turns) {
        for (const auto& o : plan.orders) files.push_back(o);
      }
      REQUIRE_FALSE(files.empty());
      std::vector<std::string> branches = {"main"};
      std::string branch = "main";
      SameAsCold(db, warm, branch);
      size_t submitted = 0, adjudicated = 0, forked = 0;
      for (int step = 0; step < 40; ++step) {
        INFO("step " << step << " on " << branch);
        const int what = static_cast<int>(rng() % 10);
        if (what < 4) {
          // Orders, through the warm world or past it (another client, the
          // command line): either way what it keeps must follow the log.
          const auto& [person, json] = files[rng() % files.size()];
          auto file = schema::ParseJson("OrderFile", json, "orders");
          REQUIRE(file.ok());
          replay::SubmitOptions opts;
          if (rng() % 2) opts.warm = &warm;
          if (replay::SubmitOrders(db, "g", branch, person, *file, opts).ok()) ++submitted;
        } else if (what < 7) {
          // A phase or the rest of a turn, from the kept world (the desk's
          // way) or from a cold fold: the audit below re-runs every phase
          // from cold folds and must find the same events.
          const auto mode = rng() % 3 ? replay::AdjudicateMode::kPhase : replay::AdjudicateMode::kTurn;
          replay::WarmWorlds* kept = rng() % 2 ? &warm : nullptr;
          if (replay::Adjudicate(db, "g", branch, mode, 1, std::nullopt, nullptr, nullptr, {}, kept).ok()) {
            ++adjudicated;
          }
        } else if (what < 8) {
          // A branch forked a little below the head, played on from then.
          auto head = db.HeadOf("g", branch);
          REQUIRE(head.ok());
          const uint64_t at = head->seq > 3 ? head->seq - rng() % 3 : head->seq;
          const std::string name = "b" + std::to_string(step);
          if (db.Fork("g", branch, at, name, rng(), Actor{ActorKind::kGameAdministrator, "", ""}).ok()) {
            branches.push_back(name);
            ++forked;
          }
          branch = branches[rng() % branches.size()];
        } else if (what < 9) {
          branch = branches[rng() % branches.size()];
        } else {
          // What the warm worlds hand out is the caller's: changing it
          // changes nothing they keep.
          auto w = warm.Fold(db, "g", branch);
          REQUIRE(w.ok());
          for (auto& p : w->projections) p->Reset();
        }
        SameAsCold(db, warm, branch);
      }
      for (const std::string& b : branches) SameAsCold(db, warm, b);
      // Main's turns, adjudicated from kept worlds and cold folds in turn,
      // audit identical: every phase re-run from a cold fold makes the same
      // events. The forks are not audited: one taken a seq or two below the
      // head can cut a phase in two, and an audit rightly reports the
      // phase it holds cut short.
      auto turns = replay::AdjudicatedTurns(db, "g", "main");
      REQUIRE(turns.ok());
      for (const Turn& t : *turns) {
        auto a = replay::AuditTurn(db, "g", "main", t);
        REQUIRE(a.ok());
        INFO("main turn " << t.ToString() << ": " << a->reason);
        CHECK(a->identical);
      }
      CHECK(submitted > 0);
      CHECK(adjudicated > 0);
      CHECK(forked > 0);
      const auto stats = warm.stats();
      CHECK(stats.warm > 0);
      CHECK(stats.events_applied > 0);  // brought forward, not folded again
    }
  }
}
