// End to end: the built `adjutant` binary, its outputs and every error path.
#include <catch2/catch.hpp>

#include <filesystem>

#include <fstream>
#include <set>
#include <sstream>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "schema/codec.h"
#include "support/raw_db.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Adjutant;
using adjutant::testing::Lines;
using adjutant::testing::Run;

namespace {

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

const std::string kScenario = std::string(ADJUTANT_FIXTURES) + "/scenarios/trafalgar.json";

struct Fixture {
  adjutant::testing::TempDir dir;
  std::string db = dir.Sub("db");
  Run Do(std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    return Adjutant(args);
  }
  // The ledger's event count on a branch, read directly.
  uint64_t Head(const std::string& branch = "main") {
    auto l = ledger::Ledger::Open(db, {.read_only = true});
    REQUIRE(l.ok());
    auto h = (*l)->HeadOf("trafalgar", branch);
    REQUIRE(h.ok());
    return h->seq;
  }
};

}  // namespace

TEST_CASE("help and usage errors", "[cli]") {
  auto r = Adjutant({"--help"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("usage: adjutant [--db DIR] COMMAND"));
  for (const char* cmd : {"new", "log", "verify", "fork", "branches", "games", "stats", "roll", "ruling"}) {
    auto h = Adjutant({cmd, "--help"});
    INFO(cmd);
    CHECK(h.code == 0);
    CHECK_THAT(h.out, Catch::StartsWith(std::string("usage: adjutant [--db DIR] ") + cmd));
  }
  CHECK(Adjutant({}).code == 2);
  auto unknown = Adjutant({"frobnicate"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err == "adjutant: unknown command 'frobnicate' (see adjutant --help)\n");
  auto opt = Adjutant({"log", "g", "--colour"});
  CHECK(opt.code == 2);
  CHECK(opt.err == "adjutant log: unknown option --colour (see adjutant log --help)\n");
  auto missing = Adjutant({"log"});
  CHECK(missing.code == 2);
  CHECK_THAT(missing.err, Catch::Contains("missing argument"));
  auto extra = Adjutant({"verify", "a", "b"});
  CHECK_THAT(extra.err, Catch::Contains("unexpected argument 'b'"));
  CHECK(Adjutant({"log", "g", "--from"}).err == "adjutant log: --from needs a value SEQ (see adjutant log --help)\n");
  CHECK(Adjutant({"--version"}).out == "adjutant 0.1.0\n");
}

// Every command `adjutant --help` lists, read from its own list: its name in
// full (each one's own --help answers to it), a whole sentence beside it,
// every line within 100 columns.
TEST_CASE("adjutant --help names every command in full with a sentence beside it", "[cli]") {
  const auto r = Adjutant({"--help"});
  REQUIRE(r.code == 0);
  const auto at = r.out.find("\ncommands:\n");
  REQUIRE(at != std::string::npos);
  std::istringstream in(r.out.substr(at + 11));
  std::vector<std::pair<std::string, std::string>> listed;  // name, its brief
  std::set<size_t> columns;                                 // where each brief starts
  for (std::string line; std::getline(in, line) && !line.empty();) {
    INFO(line);
    CHECK(line.size() <= 100);
    REQUIRE(line.starts_with("  "));
    if (line[2] == ' ') {  // the brief goes on under itself
      REQUIRE_FALSE(listed.empty());
      columns.insert(line.find_first_not_of(' '));
      listed.back().second += " " + line.substr(line.find_first_not_of(' '));
      continue;
    }
    const auto end = line.find(' ', 2);
    REQUIRE(end != std::string::npos);
    const auto text = line.find_first_not_of(' ', end);
    REQUIRE(text != std::string::npos);
    listed.emplace_back(line.substr(2, end - 2), line.substr(text));
    columns.insert(text);
  }
  CHECK(listed.size() >= 40);
  for (const auto& [name, brief] : listed) {
    INFO(name << ": " << brief);
    CHECK(brief.ends_with("."));
    CHECK(r.out.find("  " + name + " ") != std::string::npos);
    const auto h = Adjutant({name, "--help"});
    CHECK(h.code == 0);
    CHECK_THAT(h.out, Catch::StartsWith("usage: adjutant [--db DIR] " + name + " "));
  }
  CHECK(columns.size() == 1);  // every brief in one column
}

TEST_CASE("a game's life through the CLI", "[cli]") {
  Fixture f;
  auto none = f.Do({"games"});
  CHECK(none.code == 0);
  CHECK_THAT(none.out, Catch::Contains("no games in"));

  auto created = f.Do({"new", "trafalgar", "--scenario", kScenario, "--seed", "1805"});
  REQUIRE(created.code == 0);
  CHECK(created.out == "created game trafalgar (The Trafalgar campaign, 1805), seed 1805, in " + f.db + "\n");
  CHECK(created.err.empty());

  auto roll = f.Do({"roll", "trafalgar", "--purpose", "weather", "--rule", "GA ruling", "--count", "2"});
  REQUIRE(roll.code == 0);
  CHECK_THAT(roll.out, Catch::StartsWith("rolled 2d6 for weather (GA ruling): "));
  CHECK_THAT(roll.out, Catch::EndsWith("[seq 2]\n"));
  auto ruling = f.Do({"ruling", "trafalgar", "--reason", "gale", "--text", "BR1FL stays in port"});
  REQUIRE(ruling.code == 0);

  SECTION("log as text and as JSON in the schema's form") {
    auto log = f.Do({"log", "trafalgar"});
    REQUIRE(log.code == 0);
    auto lines = Lines(log.out);
    REQUIRE(lines.size() == 3);
    CHECK_THAT(lines[0], Catch::Contains("GameCreated") && Catch::Contains("seed 1805"));
    CHECK_THAT(lines[1], Catch::Contains("DieRolled") && Catch::Contains("for weather (GA ruling)"));
    CHECK_THAT(lines[2], Catch::Contains("\"BR1FL stays in port\" because \"gale\""));
    auto json = f.Do({"log", "trafalgar", "--json"});
    auto jl = Lines(json.out);
    REQUIRE(jl.size() == 3);
    for (const auto& l : jl) {
      // Every line parses back through the schema: the JSON is the schema's.
      auto back = schema::ParseJson("Event", l, "log line");
      INFO(l);
      CHECK(back.ok());
    }
    CHECK_THAT(jl[1], Catch::Contains("\"payload_type\": \"DieRolled\"") && Catch::Contains("\"seq\": 2"));
    auto kind = f.Do({"log", "trafalgar", "--kind", "directive"});
    CHECK(Lines(kind.out).size() == 1);
    auto range = f.Do({"log", "trafalgar", "--from", "2", "--to", "2"});
    CHECK(Lines(range.out).size() == 1);
    auto turn = f.Do({"log", "trafalgar", "--turn", "1805.1.1"});
    CHECK(Lines(turn.out).size() == 3);
    auto later = f.Do({"log", "trafalgar", "--turn", "1806"});
    CHECK(later.code == 0);
    CHECK(later.out.empty());
  }

  SECTION("fork, branches, verify every branch") {
    auto fork = f.Do({"fork", "trafalgar", "--from", "main@2", "--name", "whatif", "--reseed"});
    REQUIRE(fork.code == 0);
    CHECK(fork.out == "forked trafalgar/whatif from main@2 with reseeded dice\n");
    REQUIRE(f.Do({"roll", "trafalgar", "--branch", "whatif", "--purpose", "weather", "--rule", "GA ruling"}).code == 0);
    auto tree = f.Do({"branches", "trafalgar"});
    auto tl = Lines(tree.out);
    REQUIRE(tl.size() == 2);
    CHECK_THAT(tl[0], Catch::StartsWith("main  head 3 "));
    CHECK_THAT(tl[1], Catch::StartsWith("└─ whatif  from main@2  head 4 "));
    auto json = f.Do({"branches", "trafalgar", "--json"});
    CHECK_THAT(json.out, Catch::Contains("\"name\": \"whatif\",\"parent\": \"main\",\"fork_seq\": 2,\"head_seq\": 4"));
    auto v = f.Do({"verify", "trafalgar", "--all"});
    CHECK(v.code == 0);
    auto vl = Lines(v.out);
    REQUIRE(vl.size() == 2);
    CHECK_THAT(vl[0], Catch::StartsWith("verify trafalgar/main: ok, 3 events, head 3 "));
    CHECK_THAT(vl[1], Catch::StartsWith("verify trafalgar/whatif: ok, 4 events, head 4 "));
    auto head = f.Do({"fork", "trafalgar", "--from", "whatif@head", "--name", "deeper", "--json"});
    CHECK(head.code == 0);
    CHECK_THAT(head.out, Catch::Contains("\"branch\": \"deeper\",\"first_seq\": 5"));
  }

  SECTION("stats and games") {
    auto s = f.Do({"stats", "trafalgar", "--json"});
    REQUIRE(s.code == 0);
    CHECK_THAT(s.out, Catch::Contains("\"events\": 3") && Catch::Contains("\"dice_rolled\": 2") &&
                          Catch::Contains("\"rulesets\": [\"sow\",\"pate\"]"));
    auto then = f.Do({"stats", "trafalgar", "--at", "1", "--json"});
    CHECK_THAT(then.out, Catch::Contains("\"events\": 1,") && Catch::Contains("\"dice_rolled\": 0"));
    auto text = f.Do({"stats", "trafalgar"});
    CHECK_THAT(text.out, Catch::Contains("DieRolled") && Catch::Contains("1805.1.1"));
    auto g = f.Do({"games", "--json"});
    CHECK(g.out == "{\"games\": [{\"name\": \"trafalgar\",\"seed\": 1805,\"branches\": 1,\"head_seq\": 3}]}\n");
  }

  SECTION("a repeated roll with the same --key records nothing new") {
    auto a = f.Do({"roll", "trafalgar", "--purpose", "wind", "--rule", "PATE 5.1", "--sides", "8", "--key", "k1", "--json"});
    REQUIRE(a.code == 0);
    auto b = f.Do({"roll", "trafalgar", "--purpose", "wind", "--rule", "PATE 5.1", "--sides", "8", "--key", "k1", "--json"});
    REQUIRE(b.code == 0);
    CHECK_THAT(b.out, Catch::Contains("\"replayed\": true"));
    // The retry answers with the dice first recorded, not new ones.
    CHECK(a.out.substr(a.out.find("\"results\"")) == b.out.substr(b.out.find("\"results\"")));
    CHECK(f.Head() == 4);
    auto text = f.Do({"roll", "trafalgar", "--purpose", "wind", "--rule", "PATE 5.1", "--sides", "8", "--key", "k1"});
    CHECK_THAT(text.out, Catch::StartsWith("already recorded under --key k1:\n      4  "));
    CHECK(f.Do({"ruling", "trafalgar", "--reason", "r", "--text", "t", "--key", "k2"}).code == 0);
    REQUIRE(f.Do({"roll", "trafalgar", "--purpose", "x", "--rule", "R"}).code == 0);
    CHECK(f.Do({"ruling", "trafalgar", "--reason", "r", "--text", "t", "--key", "k2"}).code == 0);
    CHECK(f.Head() == 6);
    auto c = f.Do({"roll", "trafalgar", "--purpose", "storm", "--rule", "PATE 8.1", "--key", "k1"});
    CHECK(c.code == 4);
    CHECK_THAT(c.err, Catch::Contains("idempotency key 'k1' was already used"));
  }

  SECTION("the next roll in the same phase continues the stream") {
    auto a = f.Do({"log", "trafalgar", "--kind", "DieRolled", "--json"});
    REQUIRE(f.Do({"roll", "trafalgar", "--purpose", "weather", "--rule", "GA ruling"}).code == 0);
    auto b = f.Do({"log", "trafalgar", "--kind", "DieRolled", "--json"});
    CHECK_THAT(b.out, Catch::Contains("\"index\": 2"));
  }

  SECTION("scripted rolls are recorded as scripted; bad scripts change nothing") {
    Write(f.dir.Sub("rolls.txt"), "4 # by hand\n");
    auto s = f.Do({"roll", "trafalgar", "--purpose", "boarding", "--rule", "PATE 7.9", "--script", f.dir.Sub("rolls.txt")});
    REQUIRE(s.code == 0);
    CHECK_THAT(s.out, Catch::Contains(": 4  [seq 4]"));
    CHECK_THAT(f.Do({"log", "trafalgar", "--from", "4"}).out, Catch::Contains("[scripted]"));
    Write(f.dir.Sub("bad.txt"), "3\n9\n");
    auto bad = f.Do({"roll", "trafalgar", "--purpose", "x", "--rule", "R", "--count", "2", "--script", f.dir.Sub("bad.txt")});
    CHECK(bad.code == 2);
    CHECK(bad.err == "adjutant roll: " + f.dir.Sub("bad.txt") + ":2: 9 is not a d6 result (roll 'x', R)\n");
    CHECK(f.Head() == 4);
  }

  SECTION("errors name what is wrong and append nothing") {
    auto again = f.Do({"new", "trafalgar", "--scenario", kScenario});
    CHECK(again.code == 2);
    CHECK_THAT(again.err, Catch::Contains("game 'trafalgar' already exists"));
    CHECK(f.Do({"log", "nosuch"}).err == "adjutant log: no game 'nosuch' in " + f.db + "\n");
    CHECK_THAT(f.Do({"log", "trafalgar", "--branch", "nope"}).err, Catch::Contains("has no branch 'nope'"));
    CHECK_THAT(f.Do({"log", "trafalgar", "--kind", "Boarding"}).err, Catch::Contains("no event kind 'Boarding' (kinds: GameCreated"));
    CHECK_THAT(f.Do({"log", "trafalgar", "--turn", "18o5"}).err, Catch::Contains("--turn: '18o5' is not a turn"));
    CHECK_THAT(f.Do({"log", "trafalgar", "--from", "x"}).err, Catch::Contains("--from: 'x' is not a whole number"));
    CHECK_THAT(f.Do({"fork", "trafalgar", "--from", "main@9", "--name", "x"}).err, Catch::Contains("its events are 1..3"));
    CHECK_THAT(f.Do({"fork", "trafalgar", "--from", "main@two", "--name", "x"}).err, Catch::Contains("is not a sequence number"));
    CHECK_THAT(f.Do({"fork", "trafalgar", "--from", "main", "--name", "bad name"}).err, Catch::Contains("branch name 'bad name'"));
    CHECK_THAT(f.Do({"roll", "trafalgar", "--rule", "R"}).err, Catch::Contains("a roll needs a purpose"));
    CHECK_THAT(f.Do({"roll", "trafalgar", "--purpose", "p", "--rule", "R", "--sides", "1"}).err,
               Catch::Contains("sides must be 2.."));
    CHECK_THAT(f.Do({"ruling", "trafalgar", "--text", "t"}).err, Catch::Contains("--reason R is required"));
    CHECK(f.Do({"verify", "trafalgar", "--all", "--branch", "main"}).code == 2);
    CHECK(f.Head() == 3);
  }

  SECTION("damage is reported by verify with its sequence number") {
    uint64_t id;
    {
      auto l = ledger::Ledger::Open(f.db, {.read_only = true});
      id = (*l)->Branch("trafalgar", "main")->id;
    }
    REQUIRE(adjutant::testing::MutateEventRecord(f.db, id, 2, [](std::string& v) { v[v.size() - 3] ^= 0x20; }));
    auto v = f.Do({"verify", "trafalgar"});
    CHECK(v.code == 3);
    CHECK_THAT(v.err, Catch::StartsWith("adjutant verify: verify trafalgar/main: FAILED at seq 2: "));
    auto j = f.Do({"verify", "trafalgar", "--json"});
    CHECK(j.code == 3);
    CHECK_THAT(j.out, Catch::Contains("\"ok\": false") && Catch::Contains("\"bad_seq\": 2"));
  }

  SECTION("a database held by another process") {
    auto held = ledger::Ledger::Open(f.db);
    REQUIRE(held.ok());
    auto w = f.Do({"roll", "trafalgar", "--purpose", "p", "--rule", "R"});
    CHECK(w.code == 5);
    CHECK_THAT(w.err, Catch::Contains("is in use by another adjutant process"));
    auto r = f.Do({"log", "trafalgar"});  // readers still read
    CHECK(r.code == 0);
    CHECK(Lines(r.out).size() == 3);
  }
}

TEST_CASE("bad scenarios are refused with file, line and field", "[cli]") {
  Fixture f;
  std::string path = f.dir.Sub("bad.json");
  SECTION("malformed JSON") {
    Write(path, "{\n  \"name\": \"x\",\n  \"rulesets\": [\"sow\"\n}\n");
    auto r = f.Do({"new", "g", "--scenario", path});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("adjutant new: " + path + ":4:"));
  }
  SECTION("an unknown field") {
    Write(path, "{\n  \"name\": \"x\",\n  \"turns\": 3\n}\n");
    auto r = f.Do({"new", "g", "--scenario", path});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains(path + ":3:") && Catch::Contains("turns"));
  }
  SECTION("a missing required field") {
    Write(path, "{ \"description\": \"no name\" }\n");
    auto r = f.Do({"new", "g", "--scenario", path});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("name"));
  }
  SECTION("an unknown ruleset") {
    Write(path, "{ \"name\": \"x\", \"rulesets\": [\"sow\", \"chess\"] }\n");
    auto r = f.Do({"new", "g", "--scenario", path});
    CHECK(r.err == "adjutant new: " + path + ": rulesets[1]: unknown ruleset 'chess' (known: sow, pate, y1820, dog)\n");
  }
  SECTION("a bad person id") {
    Write(path, "{ \"name\": \"x\", \"players\": [{\"person\": \"lord nelson\"}] }\n");
    auto r = f.Do({"new", "g", "--scenario", path});
    CHECK_THAT(r.err, Catch::Contains(path + ": players[0].person: person name 'lord nelson'"));
  }
  SECTION("a missing file") {
    auto r = f.Do({"new", "g", "--scenario", f.dir.Sub("nope.json")});
    CHECK(r.err == "adjutant new: " + f.dir.Sub("nope.json") + ": cannot open file\n");
  }
  SECTION("a bad game name, or no --scenario") {
    CHECK_THAT(f.Do({"new", "a/b", "--scenario", kScenario}).err, Catch::Contains("game name 'a/b'"));
    CHECK_THAT(f.Do({"new", "g"}).err, Catch::Contains("--scenario FILE is required"));
  }
  // Nothing was created by any of them.
  auto games = f.Do({"games", "--json"});
  CHECK(games.out == "{\"games\": []}\n");
}

TEST_CASE("the database comes from --db, else ADJUTANT_DB, else ./adjutant-data", "[cli]") {
  adjutant::testing::TempDir dir;
  std::string db = dir.Sub("envdb");
  auto c = Adjutant({"new", "g", "--scenario", kScenario, "--seed", "1"}, {"ADJUTANT_DB=" + db});
  REQUIRE(c.code == 0);
  CHECK_THAT(c.out, Catch::EndsWith("in " + db + "\n"));
  auto listed = Adjutant({"--db", db, "games"});
  CHECK_THAT(listed.out, Catch::StartsWith("g  1 branch, main at seq 1"));
  auto missing = Adjutant({"--db", dir.Sub("nothing"), "log", "g"});
  CHECK(missing.code == 2);
  CHECK_THAT(missing.err, Catch::Contains("no database at " + dir.Sub("nothing")));
  // A command that writes, or the desk, on a mistyped --db says so and makes
  // no empty database there; only `new` creates one.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"adjudicate", "g"}, {"serve", "--listen", "127.0.0.1:0"}, {"fork", "g", "--at", "1805.1.1", "--name", "b"}}) {
    std::vector<std::string> all = {"--db", dir.Sub("typo")};
    all.insert(all.end(), args.begin(), args.end());
    auto r = Adjutant(all);
    INFO(args[0] << ": " << r.err);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("no database at " + dir.Sub("typo")));
    CHECK_FALSE(std::filesystem::exists(dir.Sub("typo")));
  }
}
