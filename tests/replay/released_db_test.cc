// A database written by the previous release (fixtures/released-db/, made by
// scripts/make_release_fixture.sh with that release's binary; its README says
// which) must stay readable by the current code: on a copy of it, every
// branch verifies, every turn of every branch audits identical, every view
// and report folds, every finished turn's digest is the one the release gave,
// the dice commitment still checks, a player's password set by the release
// still logs in, and every game goes on (one more phase adjudicated).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "support/build_paths.h"
#include "replay/views.h"
#include "rules/kind.h"
#include "support/run.h"
#include "support/temp_dir.h"

using adjutant::testing::Adjutant;
using adjutant::testing::Lines;
using adjutant::testing::Run;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;
const std::string kFixture = F + "/released-db";

// The fixture's database copied into `dir` (never used in place: a read-write
// open would change the checked-in files).
std::string CopyOfFixture(const TempDir& dir) {
  namespace fs = std::filesystem;
  const std::string db = dir.Sub("db");
  REQUIRE(fs::is_directory(kFixture + "/db"));
  // Complete as checked in: the acknowledged heads the release wrote (I10),
  // no damage recorded, no RocksDB info logs.
  REQUIRE(fs::is_regular_file(kFixture + "/db/adjutant-heads"));
  REQUIRE(fs::is_regular_file(kFixture + "/db/CURRENT"));
  CHECK_FALSE(fs::exists(kFixture + "/db/adjutant-damage"));
  CHECK_FALSE(fs::exists(kFixture + "/db/LOG"));
  fs::copy(kFixture + "/db", db, fs::copy_options::recursive);
  return db;
}

std::string Describe(const std::vector<std::string>& args, const Run& r) {
  std::string s = "adjutant";
  for (const auto& a : args) s += " " + a;
  return s + "\nexit " + std::to_string(r.code) + "\nstdout: " + r.out.substr(0, 4000) + "\nstderr: " + r.err;
}

// Runs `adjutant --db DB args...` and requires exit 0.
Run Ok(const std::string& db, std::vector<std::string> args) {
  args.insert(args.begin(), {"--db", db});
  Run r = Adjutant(args);
  INFO(Describe(args, r));
  REQUIRE(r.code == 0);
  return r;
}

// The same, but a failure is reported and the test goes on (every branch's
// audit is shown, not only the first that differs).
Run Checked(const std::string& db, std::vector<std::string> args) {
  args.insert(args.begin(), {"--db", db});
  Run r = Adjutant(args);
  INFO(Describe(args, r));
  CHECK(r.code == 0);
  return r;
}

std::vector<std::string> Names(const std::string& json) {
  std::vector<std::string> out;
  static const std::regex name("\"name\": \"([^\"]+)\"");
  for (std::sregex_iterator it(json.begin(), json.end(), name), end; it != end; ++it) out.push_back((*it)[1]);
  return out;
}

struct Digest {
  std::string game, branch, turn, digest;
};

// digests.txt: "GAME BRANCH TURN DIGEST" per finished turn, as the release gave them.
std::vector<Digest> RecordedDigests() {
  std::ifstream in(kFixture + "/digests.txt");
  REQUIRE(in);
  std::vector<Digest> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream l(line);
    Digest d;
    REQUIRE(static_cast<bool>(l >> d.game >> d.branch >> d.turn >> d.digest));
    out.push_back(d);
  }
  return out;
}

}  // namespace

TEST_CASE("released database: every branch verifies and every turn audits identical", "[released][replay][audit]") {
  TempDir dir;
  const std::string db = CopyOfFixture(dir);
  const auto games = Names(Ok(db, {"games", "--json"}).out);
  REQUIRE(games == std::vector<std::string>{"europe", "nwol", "talavera"});
  size_t turns = 0;
  for (const auto& g : games) {
    Ok(db, {"verify", g, "--all"});
    for (const auto& b : Names(Ok(db, {"branches", g, "--json"}).out)) {
      Run a = Checked(db, {"audit", g, "--branch", b, "--all"});
      for (const auto& line : Lines(a.out)) {
        if (line.rfind("turn ", 0) != 0) continue;  // the lines under a difference
        INFO(g << "/" << b << ": " << line);
        CHECK(line.find("identical") != std::string::npos);
        ++turns;
      }
    }
  }
  CHECK(turns >= 7);  // nwol main 2, whatif 1, europe 2, talavera 2
}

TEST_CASE("released database: every finished turn's digest is the one the release gave", "[released][replay][digest]") {
  TempDir dir;
  const std::string db = CopyOfFixture(dir);
  const auto recorded = RecordedDigests();
  REQUIRE(recorded.size() >= 6);
  for (const auto& d : recorded) {
    INFO(d.game << "/" << d.branch << " " << d.turn);
    Run r = Ok(db, {"digest", d.game, "--branch", d.branch, "--turn", d.turn, "--json"});
    CHECK(r.out.find("\"" + d.digest + "\"") != std::string::npos);
    Ok(db, {"verify", d.game, "--branch", d.branch, "--turn", d.turn, "--digest", d.digest});
  }
  // The dice of europe 1820.1 were committed, used and revealed by the release.
  Ok(db, {"verify", "europe", "--turn", "1820.1", "--dice"});
}

// The views of the kinds the fixture's games are (the roster's and each
// kind's own: rules/kind.h) — not those of kinds only the tests register.
std::vector<std::string> FixtureViews() {
  std::vector<std::string> views = {"roster"};
  for (const std::vector<std::string>& rulesets :
       {std::vector<std::string>{"sow", "pate"}, std::vector<std::string>{"y1820"}, std::vector<std::string>{"dog"}}) {
    const adjutant::rules::GameKind* k = adjutant::rules::KindFor(rulesets);
    REQUIRE(k != nullptr);
    for (std::string_view v : k->ViewNames()) views.emplace_back(v);
  }
  return views;
}

TEST_CASE("released database: every view, report and stats folds", "[released][replay][views]") {
  TempDir dir;
  const std::string db = CopyOfFixture(dir);
  struct At {
    std::string game, branch, to;
  };
  const std::vector<At> points = {
      {"nwol", "main", "1805.1.1"},   {"nwol", "whatif", "1805.1.1"}, {"europe", "main", "1820.0"},
      {"europe", "main", "1820.1"},   {"talavera", "main", "1.1"},    {"talavera", "main", "1.2"},
  };
  std::set<std::string> views_with_lines;
  for (const auto& p : points) {
    Run all = Ok(db, {"replay", p.game, "--branch", p.branch, "--to", p.to});
    CHECK(Lines(all.out).size() > 1);
    Ok(db, {"replay", p.game, "--branch", p.branch, "--to", p.to, "--json"});
    for (const auto& v : FixtureViews()) {
      Run r = Ok(db, {"replay", p.game, "--branch", p.branch, "--to", p.to, "--view", v});
      if (Lines(r.out).size() > 1) views_with_lines.insert(v);
    }
  }
  // Every view is shown by some game of the fixture.
  for (const auto& v : FixtureViews()) {
    INFO("view " << v);
    CHECK(views_with_lines.count(v) == 1);
  }
  // Turn 1805.1.2 of nwol/main stands after two phases adjudicated by phase.
  Ok(db, {"replay", "nwol", "--to", "1805.1.2.1"});
  Ok(db, {"replay", "nwol", "--to", "1805.1.2.2"});
  Ok(db, {"diff", "nwol", "main", "whatif"});
  Ok(db, {"diff", "nwol", "main", "whatif", "--turn", "1805.1.1"});

  // Every kind of report each game has.
  for (const std::string s : {"BR", "FR", "SP"}) {
    Ok(db, {"report", "treasury", "nwol", "--state", s, "--turn", "1805.1.1"});
  }
  Ok(db, {"report", "fleet", "nwol", "--turn", "1805.1.1"});
  Ok(db, {"report", "fleet", "nwol", "--branch", "whatif"});
  Ok(db, {"report", "events", "nwol", "--player", "nelson", "--turn", "1805.1.1"});
  Ok(db, {"report", "positions", "nwol", "--player", "barham", "--turn", "1805.1.1", "--svg", dir.Sub("pos.svg")});
  // A password the release set still logs in (scripts/make_release_fixture.sh: "PERSON-password").
  {
    std::ofstream(dir.Sub("nelson.pw")) << "nelson-password\n";
  }
  Ok(db, {"report", "positions", "nwol", "--as", "nelson", "--password-file", dir.Sub("nelson.pw"), "--json"});
  Ok(db, {"report", "map", "europe", "--turn", "1820.1", "--svg", dir.Sub("map.svg")});
  for (const std::string n : {"FRA", "GBR", "AUS"}) {
    Ok(db, {"report", "nation", "europe", "--nation", n});
    Ok(db, {"report", "nation", "europe", "--nation", n, "--public", "--turn", "1820.0"});
  }
  Ok(db, {"report", "battle", "talavera", "--svg", dir.Sub("battle.svg")});
  for (const std::string side : {"British", "French"}) {
    Ok(db, {"report", "battle", "talavera", "--side", side, "--move", "1"});
    Ok(db, {"report", "battle", "talavera", "--side", side, "--json"});
  }
  for (const std::string g : {"nwol", "europe", "talavera"}) {
    Ok(db, {"stats", g});
    Ok(db, {"stats", g, "--json"});
    Ok(db, {"log", g, "--json"});
  }
  Ok(db, {"stats", "nwol", "--branch", "whatif"});
}

TEST_CASE("released database: every game goes on under the current code", "[released][replay][adjudicate]") {
  TempDir dir;
  const std::string db = CopyOfFixture(dir);
  // A player whose password the release set sends orders (the roster's hashes read).
  {
    std::ofstream(dir.Sub("wellesley.pw")) << "wellesley-password\n";
  }
  Ok(db, {"order", "talavera", F + "/orders/dog-talavera/m3-British.orders.json", "--as", "wellesley",
          "--password-file", dir.Sub("wellesley.pw"), "--key", "released-db-m3-British"});
  // One more phase of every game: nwol's turn 1805.1.2 (two of its phases
  // stood), europe's 1820.2 (its orders stood), talavera's move 1.3.
  for (const std::string g : {"nwol", "europe", "talavera"}) {
    Ok(db, {"adjudicate", g, "--phase"});
    Ok(db, {"verify", g, "--all"});
  }
  // The branch forked by the release goes on too.
  Ok(db, {"adjudicate", "nwol", "--branch", "whatif", "--phase"});
  Ok(db, {"verify", "nwol", "--all"});
  // The move the current code adjudicated audits identical beside the release's.
  Run a = Ok(db, {"audit", "talavera", "--all"});
  CHECK(Lines(a.out).size() == 3);
  for (const auto& line : Lines(a.out)) {
    INFO(line);
    CHECK(line.find("identical") != std::string::npos);
  }
  Ok(db, {"audit", "europe", "--turn", "1820.2"});
}
