// The race (RULES.md here) — a kind of game that exists only in the tests —
// played through the same command line a GA uses, in process (the
// `adjutant` binary does not know it): created, ordered, adjudicated,
// audited under its own older version, forked, digested and corrected, and
// its conformance case run, with no line of Adjutant changed for it.
#include <catch2/catch.hpp>

#include <flatbuffers/flatbuffers.h>

#include <fstream>

#include "cli/commands.h"
#include "ledger/ledger.h"
#include "replay/conform.h"
#include "replay/driver.h"
#include "replay/views.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"
#include "support/kinds.h"
#include "support/race/race.h"
#include "support/temp_dir.h"

namespace adjutant {
namespace {

struct Race {
  testing::TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  Race() {
    testing::RegisterRace();
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    Write("race.json", testing::RaceScenarioJson());
    REQUIRE(Cli({"new", "r", "--scenario", dir.Sub("race.json"), "--seed", "7"}).code == 0);
  }
  struct Out {
    int code;
    std::string out, err;
  };
  Out Cli(const std::vector<std::string>& argv) {
    auto r = testing::Cli(*db, argv);
    return Out{r.code, r.out, r.err};
  }
  void Write(const std::string& name, const std::string& text) { std::ofstream(dir.Sub(name)) << text; }
  // A player's orders, as the order desk records them (his own only).
  Out Order(const std::string& person, const std::string& side, const std::string& text) {
    auto buf = schema::ParseJson("OrderFile", testing::RaceOrderJson(side, text), "o.json");
    REQUIRE(buf.ok());
    std::optional<size_t> not_his;
    auto rep = replay::SubmitOrders(*db, "r", "main", person, *buf, {.not_his = &not_his});
    Out o{rep.ok() ? 0 : 2, "", rep.ok() ? "" : rep.status().message()};
    if (rep.ok()) for (const auto& x : rep->orders) o.out += x.status + " " + x.rule + " " + x.reason + "\n";
    return o;
  }
  std::string View(const std::string& entity, const std::string& field, const std::string& branch = "main") {
    auto w = replay::Fold(*db, "r", branch);
    REQUIRE(w.ok());
    auto rows = replay::Flatten(*w);
    auto it = rows.find({"race", entity, field});
    return it == rows.end() ? "" : it->second;
  }
};

TEST_CASE("race: a fifth kind plugs in from its own folder: created, ordered, adjudicated, shown", "[kind][race]") {
  Race r;
  // RACE 1: two runners, each played by one person (ann holds red.runner, not blue).
  // RACE 2: the runner's own lane; a word the rules do not know is refused on record.
  auto bad = r.Order("ann", "blue", "advance");
  CHECK(bad.code != 0);
  auto fly = r.Order("ann", "red", "fly");
  REQUIRE(fly.code == 0);
  CHECK(fly.out.find("RACE 2") != std::string::npos);
  REQUIRE(r.Order("ann", "red", "advance").code == 0);
  REQUIRE(r.Order("bob", "blue", "rest").code == 0);
  auto adj = r.Cli({"adjudicate", "r"});
  REQUIRE(adj.code == 0);
  CHECK(r.View("race", "turns_done") == "1");
  const int red = std::stoi(r.View("red", "square"));
  const int blue = std::stoi(r.View("blue", "square"));
  CHECK(red >= 1);
  CHECK(red <= 6);   // one d6 (RACE 2)
  CHECK(blue >= 1);
  CHECK(blue <= 3);  // a walk, under version 2 (RACE 2.1)
  // The views list the kind's own view, and `replay --view race` shows it.
  const auto& names = replay::ViewNames();
  CHECK(std::find(names.begin(), names.end(), "race") != names.end());
  auto shown = r.Cli({"replay", "r", "--to", "1.1", "--view", "race"});
  INFO(shown.err);
  REQUIRE(shown.code == 0);
  CHECK(shown.out.find("square") != std::string::npos);
  // Eight turns at most (RACE 3): the race ends and takes nothing more.
  for (int i = 0; i < 8; ++i) r.Cli({"adjudicate", "r"});
  CHECK(r.View("race", "ended") != "no");
  CHECK(r.Cli({"adjudicate", "r"}).code != 0);
}

TEST_CASE("race: the history tools work on the fifth kind: audit (and under its version 1), fork, digest, correct",
          "[kind][race]") {
  Race r;
  REQUIRE(r.Order("ann", "red", "advance").code == 0);
  REQUIRE(r.Order("bob", "blue", "rest").code == 0);
  REQUIRE(r.Cli({"adjudicate", "r", "--key", "t1"}).code == 0);
  REQUIRE(r.Order("ann", "red", "rest").code == 0);
  REQUIRE(r.Cli({"adjudicate", "r", "--phase"}).code == 0);
  auto audit = r.Cli({"audit", "r", "--all"});
  INFO(audit.out + audit.err);
  CHECK(audit.code == 0);
  // Version 1 has no walk: the audit under it names the first roll that differs.
  auto v1 = r.Cli({"audit", "r", "--all", "--rules-version", "race=1"});
  CHECK(v1.code == 3);
  CHECK(v1.out.find("RACE 2.1") != std::string::npos);
  // Digest of the finished turn 1.1 and the fork at the coming turn.
  auto digest = r.Cli({"digest", "r", "--turn", "1.1"});
  CHECK(digest.code == 0);
  auto fork = r.Cli({"fork", "r", "--at", "1.3", "--name", "ahead"});
  CHECK(fork.code == 0);
  CHECK(r.View("race", "turns_done", "ahead") == "2");
  // A correction at turn 1.2 plays the later turn again onto the new branch.
  r.Write("ruling.json", R"({"reason": "a false start", "body_type": "Ruling", "body": {"text": "ann was held"}})");
  auto fix = r.Cli({"correct", "r", "--at", "1.2", "--directive", r.dir.Sub("ruling.json"), "--name", "fixed"});
  CHECK(fix.code == 0);
  CHECK(r.View("race", "turns_done", "fixed") == "2");
}

TEST_CASE("race: the conformance runner plays a case of the fifth kind", "[kind][race][conform]") {
  testing::RegisterRace();
  const std::string json = std::string(R"({
  "name": "RACE 2, 2.1: an advance rolls 1d6, a rest walks 1d3 under version 2",
  "rules": ["RACE 2", "RACE 2.1"],
  "scenario": )") + testing::RaceScenarioJson() + R"(,
  "dice": [2, 5],
  "steps": [
    { "person": "ann", "orders": { "orders": [ { "role": "red.runner", "body_type": "WrittenOrder", "body": { "text": "advance" } } ] } },
    { "person": "bob", "orders": { "orders": [ { "role": "blue.runner", "body_type": "WrittenOrder", "body": { "text": "fly" } } ] } },
    { "adjudicate": "turn" }
  ],
  "expect": [
    { "view": "race", "entity": "red", "field": "square", "value": "5" },
    { "view": "race", "entity": "blue", "field": "square", "value": "2" },
    { "view": "race", "entity": "race", "field": "turns_done", "value": "1" }
  ],
  "expect_events": [ { "kind": "OrderRejected", "contains": ["RACE 2"], "count": 1 } ]
})";
  auto buf = schema::ParseJson("ConformanceCase", json, "race.json");
  REQUIRE(buf.ok());
  testing::TempDir dir;
  auto res = replay::RunCase(*flatbuffers::GetRoot<fb::ConformanceCase>(buf->data()), dir.Sub("db"));
  REQUIRE(res.ok());
  INFO((res->differences.empty() ? std::string() : res->differences.front()));
  CHECK(res->passed());
}

}  // namespace
}  // namespace adjutant
