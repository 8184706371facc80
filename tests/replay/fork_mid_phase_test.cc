// A fork by sequence number (`adjutant fork --from BRANCH@SEQ`) inside an
// adjudicated phase is refused on every kind of game: the branch would hold
// half a phase, which no adjudication can take up and every audit would
// report as differing. The refusal names the phase and the two points on
// either side of it, and appends nothing; those two points are accepted.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ledger/ledger.h"
#include "replay/audit.h"
#include "replay/fork.h"
#include "schema/event_generated.h"
#include "support/kinds.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

struct Span {
  uint64_t started = 0, completed = 0;
  uint16_t phase = 0;
};

// The phases as the log records them, read here independently of PhaseAround.
std::vector<Span> PhasesOf(ledger::Ledger& db) {
  std::vector<Span> out;
  REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
              const auto type = e.event()->payload_type();
              if (type == fb::Payload_PhaseStarted) out.push_back({e.seq, 0, e.event()->phase()});
              if (type == fb::Payload_PhaseCompleted) out.back().completed = e.seq;
              return Status::Ok();
            }).ok());
  return out;
}

}  // namespace

TEST_CASE("fork --from BRANCH@SEQ inside an adjudicated phase is refused, naming the phase and the points around "
          "it, on every kind of game",
          "[fork][matrix]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      INFO(g.status.message());
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const std::vector<Span> phases = PhasesOf(db);
      REQUIRE(phases.size() >= 2);
      auto head = db.HeadOf("g", "main");
      REQUIRE(head.ok());

      // PhaseAround on every seq of the branch agrees with the log's own phases.
      size_t p = 0;
      for (uint64_t seq = 1; seq <= head->seq; ++seq) {
        while (p < phases.size() && phases[p].completed <= seq) ++p;
        const bool inside = p < phases.size() && phases[p].started <= seq && seq < phases[p].completed;
        auto around = replay::PhaseAround(db, "g", "main", seq);
        INFO("seq " << seq);
        REQUIRE(around.ok());
        REQUIRE(around->has_value() == inside);
        if (inside) {
          CHECK((*around)->started == phases[p].started);
          CHECK((*around)->completed == phases[p].completed);
          CHECK((*around)->at.phase == phases[p].phase);
        }
      }

      // Through the CLI: refused inside the first and the last phase, at
      // its first event, its middle and its last before the completion.
      int n = 0;
      for (const Span& ph : {phases.front(), phases.back()}) {
        ++n;
        auto branches = db.Branches("g");
        REQUIRE(branches.ok());
        for (uint64_t seq : {ph.started, (ph.started + ph.completed) / 2, ph.completed - 1}) {
          INFO("fork at main@" << seq << ", inside the phase at " << ph.started << "-" << ph.completed);
          CliRun r = Cli(db, {"fork", "g", "--from", "main@" + std::to_string(seq), "--name", "half"});
          CHECK(r.code == 2);
          CHECK(r.err.find("inside phase " + std::to_string(ph.phase)) != std::string::npos);
          CHECK(r.err.find("main@" + std::to_string(ph.started - 1)) != std::string::npos);
          CHECK(r.err.find("main@" + std::to_string(ph.completed) + ")") != std::string::npos);
          CHECK_FALSE(db.Branch("g", "half").ok());
          auto after = db.Branches("g");
          REQUIRE(after.ok());
          CHECK(after->size() == branches->size());
          auto h = db.HeadOf("g", "main");
          REQUIRE(h.ok());
          CHECK(h->seq == head->seq);
        }
        // Either side of the phase is a whole history: accepted, and every
        // adjudicated turn the fork holds audits identical.
        for (uint64_t seq : {ph.started - 1, ph.completed}) {
          const std::string name = "whole" + std::to_string(n) + "-" + std::to_string(seq);
          CliRun r = Cli(db, {"fork", "g", "--from", "main@" + std::to_string(seq), "--name", name});
          INFO(r.err);
          REQUIRE(r.code == 0);
          auto turns = replay::AdjudicatedTurns(db, "g", name);
          REQUIRE(turns.ok());
          for (const Turn& t : *turns) {
            auto a = replay::AuditTurn(db, "g", name, t);
            REQUIRE(a.ok());
            INFO(name << " turn " << t.ToString() << ": " << a->reason);
            CHECK(a->identical);
          }
        }
      }
    }
  }
}
