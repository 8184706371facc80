// `replay`/`diff --view V` and `report fleet` fold only what they read
// (issue 18): each kind names the projections a view's rows come from
// (rules/kind.h ViewProjections), and folding those alone gives exactly the
// rows a fold of everything gives — for every view of every kind of game
// (the kinds of tests/support/kinds.cc, generated), at the head and midway.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "ledger/ledger.h"
#include "projections/projection.h"
#include "replay/driver.h"
#include "replay/views.h"
#include "rules/kind.h"
#include "support/kinds.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

std::set<std::string> NamesIn(const replay::World& w) {
  std::set<std::string> out;
  for (const auto& p : w.projections) out.emplace(p->name());
  return out;
}

}  // namespace

TEST_CASE("views: --view V folds only the projections V reads, with the rows of a full fold, on every kind",
          "[history][views]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      TempDir dir;
      auto db = ledger::Ledger::Open(dir.Sub("db"));
      REQUIRE(db.ok());
      auto played = Play(**db, dir.path(), kind, {});
      INFO((played.ok() ? "" : played.status().message()));
      REQUIRE(played.ok());
      std::set<std::string> every;
      for (const auto& p : rules::AllKindProjections()) every.emplace(p->name());
      const rules::GameKind* k = nullptr;
      size_t narrower = 0;
      for (const uint64_t upto : {played->head / 2, played->head}) {
        auto all = replay::Fold(**db, "g", "main", upto);
        REQUIRE(all.ok());
        k = all->kind();
        REQUIRE(k != nullptr);
        for (const std::string& view : replay::ViewNames()) {
          INFO("view " << view << " up to seq " << upto);
          auto w = replay::FoldView(**db, "g", "main", view, upto);
          REQUIRE(w.ok());
          CHECK(replay::Flatten(*w, view) == replay::Flatten(*all, view));
          const auto wanted = replay::ProjectionsOfView(view);
          const std::set<std::string> folded = NamesIn(*w);
          if (wanted.empty()) {
            CHECK(folded == every);
          } else {
            CHECK(folded == std::set<std::string>(wanted.begin(), wanted.end()));
            CHECK(folded.count("summary") == 1);  // the kind is read from it
          }
          const auto own = k->ViewNames();
          if (std::find(own.begin(), own.end(), view) != own.end() && folded.size() < every.size()) ++narrower;
        }
      }
      // A kind that names its views' projections folds less for each of them.
      if (!k->ViewProjections(k->ViewNames().front()).empty()) CHECK(narrower == 2 * k->ViewNames().size());
      // The command line: `replay --view V` prints the lines of V a full
      // `replay` prints, for each of the kind's views.
      const std::string to = kind.turns.back().turn.ToString();
      CliRun full = Cli(**db, {"replay", "g", "--to", to});
      REQUIRE(full.code == 0);
      for (std::string_view view : k->ViewNames()) {
        CliRun one = Cli(**db, {"replay", "g", "--to", to, "--view", std::string(view)});
        REQUIRE(one.code == 0);
        std::string expected;
        for (const auto& line : Lines(full.out)) {
          if (line.rfind("views of ", 0) == 0 || line.rfind(std::string(view) + "  ", 0) == 0) expected += line + "\n";
        }
        CHECK(one.out == expected);
        CliRun diff = Cli(**db, {"diff", "g", "main", "main", "--view", std::string(view)});
        CHECK(diff.code == 0);
      }
    }
  }
}

TEST_CASE("views: the NWOL fleet is folded without the treasury or the visibility view", "[history][views][fleet]") {
  const auto fleet = replay::ProjectionsOfView("fleet");
  CHECK(fleet == std::vector<std::string>{"summary", "fleet"});
  CHECK(replay::ProjectionsOfView("visibility") == std::vector<std::string>{"summary", "visibility"});
  CHECK(replay::ProjectionsOfView("roster") == std::vector<std::string>{"summary", "roster"});
  CHECK(replay::ProjectionsOfView("troops") == std::vector<std::string>{"summary", "battle"});
}
