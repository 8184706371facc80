// The desk's GA operations are the ops library's typed functions (ops/ops.h),
// not command lines: every operation of POST /api/ga/run and the endpoints
// /api/games/G/{adjudicate,directives,correct} answer exactly what the
// `adjutant` command of the same name answers on a twin database, and the
// desk has no way to run a command line at all (it takes no command hook, and
// the include-layers check forbids desk/ to reach cli/). The correct
// endpoint's leave_out names the later directives not given again; a bad one
// is a 400 naming the field, with nothing appended. No request makes the server read or write a file it names.
#include <catch2/catch.hpp>
#include <sodium.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "cli/commands.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "ops/ops.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "support/desk_client.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;

namespace {

const char* kRuling = R"({"reason": "a ruling", "body_type": "Ruling", "body": {"text": "the blockade stands"}})";
const char* kLater = R"({"reason": "a later ruling", "body_type": "Ruling", "body": {"text": "the wind was fair"}})";
const std::string kSalt = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

// Game "g" played to the orders of turn 3, with one order, a blockade and a
// ruling recorded in turn 2's orders window.
struct Played {
  uint64_t order = 0, blockade = 0, ruling = 0;
  void Make(ledger::Ledger& db) {
    REQUIRE(testing::CreateNwolGame(db, "g", testing::PateScenario(), 21).ok());
    REQUIRE(testing::Turns(db, "g", 1).ok());
    auto o = testing::Order(db, "g", "villeneuve",
                            testing::OrderFile({testing::PateItem("ShipOrders", R"({"ship": "FR1FR", "sea1": "NOS"})")}));
    REQUIRE(o.ok());
    order = o->orders.at(0).seq;
    auto d = testing::Directive(db, "g", "DeclareBlockade", R"({"by": "BR", "against": "FR"})");
    REQUIRE(d.ok());
    blockade = d->first_seq;
    auto doc = schema::ParseJson("DirectiveFile", kLater, "later");
    REQUIRE(doc.ok());
    auto r = replay::RecordDirective(db, "g", "main", *doc, "");
    REQUIRE(r.ok());
    ruling = r->first_seq;
    REQUIRE(testing::Turns(db, "g", 1).ok());
  }
};

// What an answer of the desk or the command line said.
struct Said {
  int code = -1;
  std::string out, err;
};

// Two databases played alike: the desk serves `served`, the command line
// (cli::RunShared, as `adjutant` runs a command) works on `twin`.
struct Twin {
  testing::TempDir dir;
  std::unique_ptr<ledger::Ledger> served, twin;
  Played game, game2;
  std::unique_ptr<desk::Desk> desk;
  std::string ga;

  Twin() {
    REQUIRE(sodium_init() >= 0);
    auto a = ledger::Ledger::Open(dir.Sub("served"));
    REQUIRE(a.ok());
    served = std::move(a).value();
    auto b = ledger::Ledger::Open(dir.Sub("twin"));
    REQUIRE(b.ok());
    twin = std::move(b).value();
    game.Make(*served);
    game2.Make(*twin);
    REQUIRE(game.blockade == game2.blockade);
    desk::Settings s;
    s.listen = "127.0.0.1:0";
    s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
    s.backup_dir = dir.Sub("backups");
    auto d = desk::Desk::Start(*served, s);
    REQUIRE(d.ok());
    desk = std::move(d).value();
    auto r = testing::HttpCall(desk->port(), "POST", "/api/ga/login", R"({"password": "the-ga-secret"})");
    REQUIRE(r.status == 200);
    ga = testing::TokenOf(r.body);
  }
  ~Twin() {
    desk->Stop();
    desk->Wait();
  }

  // A JSON string's value starting at `at` (its opening quote); `at` ends past it.
  static std::string JsonText(const std::string& j, size_t& at) {
    std::string v;
    REQUIRE(j.at(at) == '"');
    for (++at; at < j.size() && j[at] != '"'; ++at) {
      if (j[at] != '\\') {
        v += j[at];
        continue;
      }
      const char e = j.at(++at);
      if (e == 'n') v += '\n';
      else if (e == 't') v += '\t';
      else if (e == 'r') v += '\r';
      else if (e == 'b') v += '\b';
      else if (e == 'f') v += '\f';
      else if (e == 'u') {
        const unsigned c = std::stoul(j.substr(at + 1, 4), nullptr, 16);
        at += 4;
        if (c < 0x80) {
          v += static_cast<char>(c);
        } else if (c < 0x800) {
          v += static_cast<char>(0xc0 | (c >> 6));
          v += static_cast<char>(0x80 | (c & 0x3f));
        } else {
          v += static_cast<char>(0xe0 | (c >> 12));
          v += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
          v += static_cast<char>(0x80 | (c & 0x3f));
        }
      } else {
        v += e;
      }
    }
    ++at;
    return v;
  }
  // The desk's DeskRunResult: {"code": N, "out": "...", "err": "..."}.
  static Said Read(const testing::HttpReply& r) {
    INFO(r.status << " " << r.body);
    Said s;
    const std::string& j = r.body;
    const size_t code = j.find("\"code\": "), out = j.find("\"out\": "), err = j.find("\"err\": ");
    REQUIRE(code != std::string::npos);
    REQUIRE(out != std::string::npos);
    REQUIRE(err != std::string::npos);
    s.code = std::stoi(j.substr(code + 8));
    size_t at = out + 7;
    s.out = JsonText(j, at);
    at = err + 7;
    s.err = JsonText(j, at);
    return s;
  }
  Said AtDesk(const std::string& path, const std::string& body, const std::string& key = "") {
    testing::Headers h;
    if (!key.empty()) h.push_back({"Idempotency-Key", key});
    return Read(testing::HttpCall(desk->port(), "POST", path, body, ga, h));
  }
  Said Cli(const std::vector<std::string>& argv, const std::string& in = "") {
    Said s;
    s.code = cli::RunShared(*twin, argv, &s.out, &s.err, in);
    return s;
  }
  // Every branch's head on the served database.
  std::string Heads() {
    auto bs = served->Branches("g");
    REQUIRE(bs.ok());
    std::string out;
    for (const auto& b : *bs) out += b.name + "@" + std::to_string(served->HeadOf("g", b.name)->seq) + " ";
    return out;
  }
};

std::string Quoted(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "\"" : ", \"") + w + "\"";
  return out;
}

void Same(const Said& desk, const Said& cli, const std::string& what) {
  INFO(what << "\n desk: " << desk.code << " " << desk.out << " | " << desk.err << "\n cli:  " << cli.code << " "
            << cli.out << " | " << cli.err);
  CHECK(desk.code == cli.code);
  CHECK(desk.out == cli.out);
  CHECK(desk.err == cli.err);
}

}  // namespace

TEST_CASE("desk GA operations: each answers what the adjutant command answers, and none runs a command line",
          "[desk][ga-ops]") {
  Twin t;
  // Every operation of POST /api/ga/run but report (the reports library's,
  // tests/desk/ga_run_test.cc), reads and writes alike, in an order that
  // keeps the two databases alike; some are refused (the same way).
  struct Run {
    std::vector<std::string> args;
    std::string script{}, salt{};
  };
  const std::vector<Run> runs = {
      {{"games", "--json"}},
      {{"games"}},
      {{"log", "g", "--from", "1", "--to", "6"}},
      {{"log", "g", "--kind", "Directive", "--json"}},
      {{"log", "g", "--turn", "1.2.3.4.5"}},  // not a turn: the same refusal
      {{"verify", "g", "--all"}},
      {{"verify", "g", "--json"}},
      {{"digest", "g", "--turn", "1805.1.1", "--json"}},
      {{"digest", "g", "--turn", "1805.1.2"}},
      {{"verify", "g", "--turn", "1805.1.1", "--digest", "00ff"}},
      {{"audit", "g", "--turn", "1805.1.1"}},
      {{"audit", "g", "--all", "--json"}},
      {{"replay", "g", "--to", "1805.1.2", "--view", "roster"}},
      {{"stats", "g", "--json"}},
      {{"stats", "g", "--at", "9"}},
      {{"rules-versions", "g", "--json"}},
      {{"rules-versions"}},
      {{"branches", "g"}},
      {{"status", "g", "--now", "2030-01-01T00:00Z"}},
      {{"status", "g", "--branch", "main", "--json", "--now", "2030-01-01T00:00Z"}},
      {{"schedule", "g", "set", "--deadline", "2030-01-06T20:00Z", "--weekly", "--now", "2030-01-01T00:00Z", "--key", "s1"}},
      {{"schedule", "g", "--json", "--now", "2030-01-02T00:00Z"}},
      {{"schedule", "g", "extend", "--by", "2d12h", "--now", "2030-01-02T00:00Z"}},
      {{"schedule", "g", "set", "--deadline", "2029-01-06T20:00Z", "--now", "2030-01-01T00:00Z"}},  // past: refused alike
      {{"ruling", "g", "--reason", "weather", "--text", "the fog lifts", "--key", "r1", "--json"}},
      {{"ruling", "g", "--reason", "weather", "--text", "the fog lifts", "--key", "r1"}},  // a retry: answered again
      {{"roll", "g", "--purpose", "weather", "--rule", "GA", "--count", "2", "--key", "k1", "--json"}},
      {{"roll", "g", "--purpose", "gale", "--rule", "GA", "--sides", "6"}, "3 # the die"},
      {{"roll", "g", "--purpose", "gale", "--rule", "GA"}, "9"},  // a 9 on a d6: refused alike
      {{"dice-commit", "g", "--turn", "1805.1.4"}, "", kSalt},
      {{"dice-reveal", "g", "--turn", "1805.1.4"}, "", kSalt},  // not over yet: refused alike
      {{"dice-commit", "g", "--turn", "1805.1.5"}, "", "not hex"},
      {{"fork", "g", "--from", "main@head", "--name", "f1", "--json"}},
      {{"fork", "g", "--at", "1805.1.2", "--name", "f2", "--with-orders"}},
      {{"diff", "g", "main", "f2", "--json"}},
      {{"adjudicate", "g", "--phase", "--json"}},
      {{"adjudicate", "g", "--phase", "--key", "a1"}},
      {{"branches", "g", "--make-current", "f1", "--json"}},
      {{"branches", "g", "--make-current", "main"}},
  };
  size_t done = 0;
  for (const auto& r : runs) {
    std::string body = R"({"args": [)" + Quoted(r.args) + "]";
    if (!r.script.empty()) body += R"(, "script": ")" + r.script + "\"";
    if (!r.salt.empty()) body += R"(, "salt": ")" + r.salt + "\"";
    body += "}";
    std::vector<std::string> argv = r.args;
    std::string in;
    if (!r.script.empty()) argv.insert(argv.end(), {"--script", "-"}), in = r.script;
    if (!r.salt.empty()) {
      argv.insert(argv.end(), {r.args[0] == "adjudicate" ? "--dice-salt-file" : "--salt-file", "-"});
      in = r.salt;
    }
    const Said cli = t.Cli(argv, in);
    Same(t.AtDesk("/api/ga/run", body), cli, body);
    if (cli.code == 0) ++done;
  }
  CHECK(done == 33);  // the others are refused (alike): a bad turn, digest, die, reveal, salt and a past deadline
  // The endpoints: a phase adjudicated (with a key), a directive, a correction.
  Same(t.AtDesk("/api/games/g/adjudicate", R"({"mode": "phase"})", "p1"),
       t.Cli({"adjudicate", "g", "--json", "--phase", "--key", "p1"}), "adjudicate");
  Same(t.AtDesk("/api/games/g/adjudicate", R"({"mode": "phase"})", "p1"),
       t.Cli({"adjudicate", "g", "--json", "--phase", "--key", "p1"}), "adjudicate again under its key");
  Same(t.AtDesk("/api/games/g/directives", kRuling), t.Cli({"directive", "g", "-"}, kRuling), "directive");
  Same(t.AtDesk("/api/games/g/directives", kRuling, "d1"), t.Cli({"directive", "g", "-", "--key", "d1"}, kRuling),
       "directive with a key");
  const Said left = t.Cli({"correct", "g", "--at", "1805.1.2", "--directive", "-", "--json", "--name", "c2",
                           "--leave-out", std::to_string(t.game.blockade)},
                          kRuling);
  CHECK(left.code == 0);
  Same(t.AtDesk("/api/games/g/correct?at=1805.1.2&name=c2&leave_out=" + std::to_string(t.game.blockade), kRuling), left,
       "correct with leave_out");
  Same(t.AtDesk("/api/games/g/correct?at=1805.1.2&name=c1", kRuling),
       t.Cli({"correct", "g", "--at", "1805.1.2", "--directive", "-", "--json", "--name", "c1"}, kRuling),
       "correct, from the branch the last one made current");
  Same(t.AtDesk("/api/games/g/correct?at=1805.1.2&name=c3", kRuling),
       t.Cli({"correct", "g", "--at", "1805.1.2", "--directive", "-", "--json", "--name", "c3"}, kRuling),
       "correct from the current branch");
  // The two logs are still alike: every answer above was the same act.
  Same(t.AtDesk("/api/ga/run", R"({"args": ["branches", "g", "--json"]})"), t.Cli({"branches", "g", "--json"}),
       "the branches at the end");
  // A backup into the server's own directory, and the list of them.
  const Said backup = t.AtDesk("/api/ga/backup", "");
  CHECK(backup.code == 0);
  CHECK_THAT(backup.out, Catch::StartsWith("{\"dir\": \"" + t.dir.Sub("backups") + "\""));
  const Said backups = Twin::Read(testing::HttpCall(t.desk->port(), "GET", "/api/ga/backups", "", t.ga));
  CHECK(backups.code == 0);
  CHECK_THAT(backups.out, Catch::Contains("\"id\": 1"));
}

TEST_CASE("ops: the library's typed calls answer with the exit status and the text or JSON, on a database held open",
          "[ops][ga-ops]") {
  testing::TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  Played g;
  g.Make(**l);
  const ops::Env env = ops::On(**l);
  ops::CorrectRequest rq;
  rq.game = "g";
  rq.at = "1805.1.2";
  auto doc = schema::ParseJson("DirectiveFile", kRuling, "ruling");
  REQUIRE(doc.ok());
  rq.doc = *doc;
  rq.name = "fixed";
  rq.leave_out = {g.blockade};
  ops::Answer a = ops::Correct(env, rq);
  INFO(a.status.message());
  REQUIRE(a.exit_code() == 0);
  CHECK_THAT(a.out, Catch::StartsWith("corrected g: branch fixed leaves main after seq ") &&
                        Catch::Contains(", with the correction from -; ") &&
                        Catch::EndsWith("\ngiven again: the GA's later directives on main (seq " + std::to_string(g.ruling) +
                                        ")\nleft out: the GA's later directives on main (seq " + std::to_string(g.blockade) +
                                        "); see `adjutant log g --branch main --kind Directive`\n"));
  CHECK(*(*l)->Current("g") == "fixed");
  // A refusal: its exit status and message, nothing printed.
  ops::DigestRequest d;
  d.game = "g";
  d.turn = "1805.x";
  ops::Answer bad = ops::Digest(env, d);
  CHECK(bad.exit_code() == 2);
  CHECK(bad.out.empty());
  CHECK(bad.status.message() == "--turn: '1805.x' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
  // JSON when asked.
  d.turn = "1805.1.1";
  d.json = true;
  ops::Answer j = ops::Digest(env, d);
  CHECK(j.exit_code() == 0);
  CHECK_THAT(j.out, Catch::StartsWith("{") && Catch::Contains("\"game\": \"g\"") && Catch::EndsWith("}\n"));
}

TEST_CASE("desk correct: leave_out leaves the named directive out and carries the others — a bad one is a 400 naming "
          "it, with nothing appended",
          "[desk][ga-ops][correct]") {
  Twin t;
  auto fixed = t.AtDesk("/api/games/g/correct?at=1805.1.2&name=fixed&leave_out=" + std::to_string(t.game.blockade), kRuling);
  INFO(fixed.err);
  REQUIRE(fixed.code == 0);
  CHECK_THAT(fixed.out, Catch::Contains("\"carried\": [") && Catch::Contains(std::to_string(t.game.ruling)));
  // regex_search, not a Matches(".*…"): std::regex recurses once a character.
  CHECK(std::regex_search(fixed.out, std::regex("\"left_out\": \\[\\s*" + std::to_string(t.game.blockade) + "\\s*\\]")));
  // On the new branch: the ruling given again, the blockade not.
  int blockades = 0, later = 0;
  auto fork = t.served->Branch("g", "fixed");
  REQUIRE(fork.ok());
  REQUIRE(t.served->Read("g", "fixed", fork->fork_seq + 1, UINT64_MAX, [&](const ledger::EventView& e) {
                    const auto* d = e.event()->payload_as_Directive();
                    if (d && d->body_as_SowDirective() &&
                        d->body_as_SowDirective()->body_type() == fb::SowDirectiveBody_DeclareBlockade) {
                      ++blockades;
                    }
                    if (d && d->reason() && d->reason()->str() == "a later ruling") ++later;
                    return Status::Ok();
                  }).ok());
  CHECK(blockades == 0);
  CHECK(later == 1);

  const std::string before = t.Heads();
  struct Bad {
    std::string leave_out, says;
  };
  for (const Bad& b : std::vector<Bad>{
           {"x", "leave_out: 'x' is not a sequence number"},
           {"0", "leave_out: '0' is not a sequence number"},
           {"", "leave_out: '' is not a sequence number"},
           {std::to_string(t.game.blockade) + ",", "leave_out: '' is not a sequence number"},
           {"%2Fetc%2Fpasswd", "leave_out: '/etc/passwd' is not a sequence number"},
           {std::to_string(t.game.order), "leave_out: seq " + std::to_string(t.game.order) + " is not one of g/"},
           {"999999", "leave_out: seq 999999 is not one of g/"},
       }) {
    auto r = testing::HttpCall(t.desk->port(), "POST", "/api/games/g/correct?at=1805.1.2&name=bad&leave_out=" + b.leave_out,
                               kRuling, t.ga);
    INFO(b.leave_out << ": " << r.body);
    CHECK(r.status == 400);
    CHECK_THAT(r.body, Catch::Contains(b.says));
    CHECK(t.Heads() == before);
  }
}

TEST_CASE("desk GA operations: no request makes the server read or write a file it names", "[desk][ga-ops]") {
  Twin t;
  // A valid directive and a valid salt in files on the server, and a path
  // where nothing is: a request naming them must neither use nor make them.
  const std::string directive = t.dir.Sub("directive.json"), salt = t.dir.Sub("salt"), none = t.dir.Sub("none");
  std::ofstream(directive) << kRuling;
  std::ofstream(salt) << kSalt << "\n";
  const std::string before = t.Heads();
  struct Ask {
    std::string path, body;
  };
  const std::vector<Ask> asks = {
      // The endpoints: the file's name where a directive, a name or seqs go.
      {"/api/games/g/directives", "\"" + directive + "\""},
      {"/api/games/g/directives?file=" + directive, ""},
      {"/api/games/g/correct?at=1805.1.2&directive=" + directive, ""},
      {"/api/games/g/correct?at=1805.1.2&name=" + none, kRuling},
      {"/api/games/g/correct?at=1805.1.2&leave_out=" + directive, kRuling},
      {"/api/games/g/adjudicate", R"({"mode": ")" + salt + "\"}"},
      // The operations that took files on the command line.
      {"/api/ga/run", R"({"args": ["roll", "g", "--purpose", "p", "--rule", "r", "--script", ")" + directive + "\"]}"},
      {"/api/ga/run", R"({"args": ["dice-commit", "g", "--turn", "1805.1.4", "--salt-file", ")" + none + "\"]}"},
      {"/api/ga/run", R"({"args": ["dice-reveal", "g", "--turn", "1805.1.4", "--salt-file", ")" + salt + "\"]}"},
      {"/api/ga/run", R"({"args": ["adjudicate", "g", "--dice-salt-file", ")" + salt + "\"]}"},
      {"/api/ga/run", R"({"args": ["correct", "g", "--at", "1805.1.2", "--directive", ")" + directive + "\"]}"},
      {"/api/ga/run", R"({"args": ["directive", "g", ")" + directive + "\"]}"},
      {"/api/ga/run", R"({"args": ["dice-commit", "g", "--turn", "1805.1.4"], "salt": ")" + salt + "\"}"},
      {"/api/ga/run", R"({"args": ["roll", "g", "--purpose", "p", "--rule", "r"], "script": ")" + directive + "\"}"},
  };
  for (const Ask& a : asks) {
    auto r = testing::HttpCall(t.desk->port(), "POST", a.path, a.body, t.ga);
    INFO(a.path << " " << a.body << " -> " << r.status << " " << r.body);
    CHECK(r.status == 400);
    CHECK(t.Heads() == before);
    CHECK_FALSE(std::filesystem::exists(none));
  }
}
