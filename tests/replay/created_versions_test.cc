// `new --rules-version` on every kind of game (tests/support/kinds.h): the
// versions GameCreated pins are the game's from its first event, so the
// orders given before its first phase are judged under them and every phase
// runs under them — the same game as one whose GA adopted them at its first
// phase (`adjudicate --rules-version`), event for event.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "ledger/ledger.h"
#include "rules/versions.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "support/kinds.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

struct Stamped {
  fb::Payload type = fb::Payload_NONE;
  std::string ruleset;
  uint32_t version = 0;
  std::string outcome;  // the event's JSON without its seq, versions and hashes
};

std::vector<Stamped> Events(ledger::Ledger& db) {
  static const std::regex drop(R"re("(\w*seq|branch|idempotency_key|rules_version|schema_hash)": ("[^"]*"|\d+),?)re");
  std::vector<Stamped> out;
  REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                Stamped s;
                s.type = e.event()->payload_type();
                s.ruleset = e.event()->ruleset() ? e.event()->ruleset()->str() : "";
                s.version = e.event()->rules_version();
                auto j = schema::ToJson("Event", e.bytes.data());
                REQUIRE(j.ok());
                s.outcome = std::regex_replace(*j, drop, "");
                out.push_back(std::move(s));
                return Status::Ok();
              }).ok());
  return out;
}

// The line of `rules-versions GAME` for `ruleset`=`version`, or "".
std::string LineOf(const std::string& listing, const std::string& ruleset, uint32_t version) {
  std::istringstream in(listing);
  const std::string head = ruleset + "=" + std::to_string(version) + " ";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(head, 0) == 0) return line;
  }
  return "";
}

}  // namespace

TEST_CASE("new --rules-version: every kind of game is played under the versions it was created with, from its first "
          "event", "[versions][cli][matrix]") {
  for (const GameKind& k : GameKinds()) {
    DYNAMIC_SECTION(k.name << " created under " << k.older_versions) {
      // Pinned, before any phase: `rules-versions` has the game on them.
      PlayOptions pin, adopt;
      pin.created_under = k.older_versions;
      adopt.versions = &k.older;
      PlayedGame pinned(k, pin);
      REQUIRE(pinned.status.ok());
      PlayedGame adopted(k, adopt);
      REQUIRE(adopted.status.ok());
      const auto a = Events(*pinned), b = Events(*adopted);
      // GameCreated holds the versions of the kind's versioned rulesets.
      REQUIRE(!a.empty());
      CHECK(a[0].type == fb::Payload_GameCreated);
      size_t pins = 0;
      for (const auto& [ruleset, version] : k.older.all()) {
        if (a[0].outcome.find("{\"ruleset\": \"" + ruleset + "\",\"version\": " + std::to_string(version) + "}") !=
            std::string::npos) {
          ++pins;
        }
      }
      CHECK(pins == static_cast<size_t>(std::count(k.older_versions.begin(), k.older_versions.end(), '=')));
      // Every event a ruleset wrote, the first turn's orders among them, ran
      // under the pinned version; the game adopted at its first phase took
      // its orders under the newest.
      size_t stamped = 0;
      for (const Stamped& e : a) {
        if (e.ruleset.empty()) continue;
        INFO(e.outcome);
        CHECK(e.version == k.older.Of(e.ruleset));
        ++stamped;
      }
      CHECK(stamped > 0);
      // Event for event the same game as the one adopted at its first phase
      // (the phases' digests aside: the summary counts GameCreated's bytes).
      REQUIRE(a.size() == b.size());
      for (size_t i = 1; i < a.size(); ++i) {
        if (a[i].type == fb::Payload_PhaseCompleted) continue;
        INFO("event " << i + 1);
        CHECK(a[i].outcome == b[i].outcome);
      }
      CliRun listing = Cli(*pinned, {"rules-versions", "g"});
      REQUIRE(listing.code == 0);
      for (const auto& [ruleset, version] : k.older.all()) {
        if (a[0].outcome.find("\"ruleset\": \"" + ruleset + "\"") == std::string::npos) continue;
        INFO(listing.out);
        CHECK_THAT(LineOf(listing.out, ruleset, version), Catch::Contains("in use by g/main"));
      }
    }
  }
}

// (That the first orders are judged under the pinned versions is shown by
// the conformance cases: each with a rules_version creates its game so, and
// those whose orders an older version judges otherwise fail with the pin
// ignored, build-spoken-4.1-v11 among them.)
TEST_CASE("new --rules-version: the command, rules-versions and the log tell the pinned versions before any phase",
          "[versions][cli]") {
  for (const GameKind& k : GameKinds()) {
    DYNAMIC_SECTION(k.name) {
      TempDir dir;
      auto db = ledger::Ledger::Open(dir.Sub("db"));
      REQUIRE(db.ok());
      PlayOptions pin;
      pin.created_under = k.older_versions;
      auto made = Create(**db, dir.path(), k, pin);
      INFO((made.ok() ? made->err : made.status().message()));
      REQUIRE(made.ok());
      CHECK_THAT(made->out, Catch::Contains("played under rules versions " + k.older_versions + " until"));
      CliRun listing = Cli(**db, {"rules-versions", "g"});
      for (const auto& [ruleset, version] : k.older.all()) {
        if (k.older_versions.find(ruleset + "=") == std::string::npos) continue;
        INFO(listing.out);
        CHECK_THAT(LineOf(listing.out, ruleset, version), Catch::Contains("in use by g/main"));
      }
      CliRun log = Cli(**db, {"log", "g"});
      CHECK_THAT(log.out, Catch::Contains("rules versions "));
    }
  }
}

TEST_CASE("new --rules-version: a version the game cannot run under is refused, and no game is made", "[versions][cli]") {
  const GameKind& nwol = GameKinds().front();
  REQUIRE(nwol.name == "nwol");
  TempDir dir;
  auto db = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(db.ok());
  const std::string scenario = dir.Sub("s.json");
  std::ofstream(scenario) << nwol.scenario_json;
  const std::string map = dir.Sub("m.json");
  std::ofstream(map) << nwol.map_json;
  const std::string past = std::to_string(rules::LatestVersion("pate") + 1);
  std::vector<std::pair<std::string, std::string>> bad = {
      {"dog=3", "'dog' is not a ruleset of this game (kind nwol: sow, pate)"},
      {"sow=1,y1820=2", "'y1820' is not a ruleset of this game"},
      {"pate=" + past, "rules version 'pate=" + past + "' is not known"},
      {"x", "'x' is not a version number"},
  };
  // A bare number one of the game's rulesets has and the other lacks: the
  // newer one's newest (while the two newest differ, as they do now).
  const uint32_t sow = rules::LatestVersion("sow"), pate = rules::LatestVersion("pate");
  if (sow != pate) {
    const std::string lacking = sow > pate ? "pate" : "sow", n = std::to_string(std::max(sow, pate));
    bad.emplace_back(n, lacking + " has no version " + n + " (its newest is " + std::to_string(std::min(sow, pate)) + ")");
  }
  for (const auto& [spec, why] : bad) {
    CliRun r = Cli(**db, {"new", "g", "--scenario", scenario, "--map", map, "--rules-version", spec});
    INFO(spec << ": " << r.err);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("adjutant new: --rules-version: ") && Catch::Contains(why));
    auto games = (*db)->Games();
    REQUIRE(games.ok());
    CHECK(games->empty());
  }
  // A bare number every ruleset of the game has pins each of them to it.
  CliRun ok = Cli(**db, {"new", "g", "--scenario", scenario, "--map", map, "--rules-version", "11"});
  INFO(ok.err);
  REQUIRE(ok.code == 0);
  CHECK_THAT(ok.out, Catch::Contains("played under rules versions sow=11,pate=11"));
}
