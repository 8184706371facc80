// adjutant_crash_loop: kill the process mid-write, again and again, and
// prove that nothing acknowledged is lost and nothing half-written is left.
//
// A workload plays a battle (the bundled Talavera scenario): for each move
// both generals' orders are submitted (each file one synced batch, with an
// idempotency key) and the move is adjudicated (one synced batch). Each
// step the ledger acknowledges is written to an acknowledgement file
// (fsync'd) before the next begins. The workload runs in a child process;
// the parent kills it with SIGKILL at a random moment, then opens the
// database and checks:
//   - verify passes (the chain, the envelopes, no gaps);
//   - every acknowledged step is there, whole: a submission's batch has all
//     its orders, an adjudicated move its PhaseCompleted;
//   - nothing unacknowledged is half there: every move with outcome events
//     ends with its PhaseCompleted, every submission batch is whole;
// then starts the workload again, which carries on from where the log
// stands (retries are answered from the idempotency keys; a move already
// adjudicated is not adjudicated again). When the workload has finished,
// its log must be identical — the same head hash — to an uninterrupted run
// of the same workload (same orders, same dice).
//
// With --via cli every step is an `adjutant` process (order with
// --password-file and --key, adjudicate --phase --key) and the kill takes
// the whole process group: the command line's own path to the ledger.
// With --via desk the workload starts `adjutant serve` and is its client:
// the generals log in and POST their orders, the GA logs in and POSTs the
// adjudication, each with an Idempotency-Key; a step is acknowledged only
// on its 200. The kill takes the server mid-request (and the client with
// it); the next run starts a new server and retries the unacknowledged.
//
//   adjutant_crash_loop [--kills N] [--seed S] [--moves M] [--via library|cli|desk]
//
// Prints one JSON line: kills, steps acknowledged, checks made, the
// head hash of both runs. Exits 1 on any failed check.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sodium.h>

#include "support/build_paths.h"
#include "base/scratch.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "projections/battle.h"
#include "projections/y1820.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/scenario_generated.h"
#include "support/desk_client.h"

namespace {

using namespace adjutant;
namespace fs = std::filesystem;

const std::string kGame = "talavera";
// When every order of the workload is received (order --now, serve --now).
const std::string kReceived = "2026-12-06T19:00Z";
const std::string kGaPassword = "the-crash-loop-ga";
int failures = 0;
std::string via = "library";

// Starts `adjutant ARGS...` (its output to `out`, else /dev/null); its pid.
pid_t SpawnAdjutant(const std::vector<std::string>& args, const std::string& out = "") {
  std::vector<std::string> all = {ADJUTANT_BIN};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int null = open("/dev/null", O_WRONLY);
  const int to = out.empty() ? null : open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (to >= 0) dup2(to, 1);
  if (null >= 0) dup2(null, 2);
  execv(ADJUTANT_BIN, argv.data());
  _exit(127);
}

// Runs `adjutant ARGS...` and waits: its exit status (-1 if it could not run).
int RunAdjutant(const std::vector<std::string>& args) {
  const pid_t pid = SpawnAdjutant(args);
  if (pid < 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

void Fail(const std::string& what) {
  std::fprintf(stderr, "adjutant_crash_loop: FAILED: %s\n", what.c_str());
  failures++;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Step {
  int move = 0;
  std::string person, side;  // a submission; empty person: the adjudication of `move`
  std::string key() const { return kGame + "-m" + std::to_string(move) + "-" + (person.empty() ? "adjudicate" : side); }
  std::string name() const { return person.empty() ? "adjudicate move " + std::to_string(move) : key(); }
};

std::vector<Step> Script(int moves) {
  std::vector<Step> s;
  for (int m = 1; m <= moves; ++m) {
    s.push_back({m, "wellesley", "British"});
    s.push_back({m, "victor", "French"});
    s.push_back({m, "", ""});
  }
  return s;
}

// The orders of a side for a move: the bundled ones for moves 1-3, then
// every unit holding.
std::string OrdersFor(int move, const std::string& side, const std::vector<std::string>& units) {
  if (move <= 3) {
    return Slurp(std::string(ADJUTANT_FIXTURES) + "/orders/dog-talavera/m" + std::to_string(move) + "-" + side +
                 ".orders.json");
  }
  std::string items;
  for (const auto& u : units) {
    items += std::string(items.empty() ? "" : ",") +
             R"({"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": ")" + u + R"(", "hold": true}}})";
  }
  return "{\"orders\": [" + items + "]}";
}

Status Create(const std::string& dir) {
  auto db = ledger::Ledger::Open(dir);
  if (!db.ok()) return db.status();
  auto buf = schema::ParseJson("Scenario", Slurp(std::string(ADJUTANT_FIXTURES) + "/dog/talavera-brigade.json"), "scenario");
  if (!buf.ok()) return buf.status();
  bool map_error = false;
  auto start = replay::PrepareGame(*flatbuffers::GetRoot<fb::Scenario>(buf->data()), std::nullopt, &map_error);
  if (!start.ok()) return start.status();
  auto h = (*db)->CreateGame(kGame, 1809, *buf, start->at, Actor{ActorKind::kGameAdministrator, "", ""}, start->more);
  if (!h.ok()) return h.status();
  // The generals' passwords (the command line asks for them).
  // One hash a person for every database made (a hash is salted): the logs
  // of the reference and the killed runs must be the same.
  static std::map<std::string, std::string> hashes;
  for (const char* p : {"wellesley", "victor"}) {
    const std::string pw = std::string(p) + "-1809";
    if (!hashes.count(p)) {
      char hash[crypto_pwhash_STRBYTES];
      if (crypto_pwhash_str(hash, pw.c_str(), pw.size(), crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN) != 0) {
        return Status::IOError("hashing a password");
      }
      hashes[p] = hash;
    }
    auto r = replay::SetPassword(**db, kGame, "main", p, hashes[p]);
    if (!r.ok()) return r.status();
    std::ofstream(dir + ".pw-" + p) << pw << "\n";
  }
  std::ofstream(dir + ".pw-ga") << kGaPassword << "\n";
  return Status::Ok();
}

// Each side's units, from the database opened read-only (for a workload
// whose writes go through other processes).
bool UnitsBySide(const std::string& dir, std::map<std::string, std::vector<std::string>>* units) {
  auto db = ledger::Ledger::Open(dir, ledger::OpenOptions{.read_only = true});
  if (!db.ok()) return false;
  auto world = replay::Fold(**db, kGame, "main");
  if (!world.ok()) return false;
  for (const auto& [id, u] : world->battle().units) (*units)[u.side].push_back(id);
  return true;
}

// The workload: every step not yet in the log, in order; each acknowledged
// step appended to `ack_file` (fsync'd) before the next. Returns 0 when the
// script is done.
// The same steps as processes of the command line.
int CliWorkload(const std::string& dir, const std::string& ack_file, int moves) {
  const int ack = open(ack_file.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (ack < 0) return 3;
  std::mt19937 lose(static_cast<unsigned>(getpid()));
  std::map<std::string, std::vector<std::string>> units;
  if (!UnitsBySide(dir, &units)) return 3;
  for (const Step& s : Script(moves)) {
    if (s.person.empty()) {
      // The key answers a retry of a move already adjudicated (now and then
      // the first answer is lost and the GA runs it again).
      for (int tries = lose() % 3 == 0 ? 2 : 1; tries > 0; --tries) {
        if (RunAdjutant({"--db", dir, "adjudicate", kGame, "--phase", "--key", s.key()}) != 0) return 3;
      }
    } else {
      const std::string file = dir + "." + s.key() + ".orders.json";
      std::ofstream(file) << OrdersFor(s.move, s.side, units[s.side]);
      // Received at one time in every run: the log is the uninterrupted run's, byte for byte.
      if (RunAdjutant({"--db", dir, "order", kGame, file, "--as", s.person, "--password-file", dir + ".pw-" + s.person,
                       "--key", s.key(), "--now", kReceived}) != 0) {
        return 3;
      }
    }
    const std::string line = s.name() + "\n";
    if (write(ack, line.data(), line.size()) != static_cast<ssize_t>(line.size()) || fdatasync(ack) != 0) return 3;
  }
  close(ack);
  return 0;
}

// The same steps through the order desk: `adjutant serve` started in this
// process group, this process its client.
int DeskWorkload(const std::string& dir, const std::string& ack_file, int moves) {
  const int ack = open(ack_file.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (ack < 0) return 3;
  std::map<std::string, std::vector<std::string>> units;
  if (!UnitsBySide(dir, &units)) return 3;
  const std::string out = dir + ".serve.out";
  const pid_t server = SpawnAdjutant({"--db", dir, "serve", "--listen", "127.0.0.1:0", "--ga-password-file",
                                      dir + ".pw-ga", "--rate", "1000000", "--now", kReceived},
                                     out);
  if (server < 0) return 3;
  uint16_t port = 0;
  for (int i = 0; i < 2000 && !port; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const std::string said = Slurp(out);
    const auto at = said.find("http://127.0.0.1:");
    if (at != std::string::npos) port = static_cast<uint16_t>(std::atoi(said.c_str() + at + 17));
  }
  if (!port) return 3;
  auto login = [&](const std::string& path, const std::string& body) {
    return testing::TokenOf(testing::HttpCall(port, "POST", path, body).body);
  };
  std::map<std::string, std::string> token;
  token[""] = login("/api/ga/login", "{\"password\": \"" + kGaPassword + "\"}");
  for (const char* p : {"wellesley", "victor"}) {
    token[p] = login("/api/login", std::string("{\"game\": \"") + kGame + "\", \"person\": \"" + p +
                                       "\", \"password\": \"" + p + "-1809\"}");
  }
  for (const auto& [who, t] : token) {
    if (t.empty()) {
      std::fprintf(stderr, "workload: %s could not log in\n", who.empty() ? "the GA" : who.c_str());
      return 3;
    }
  }
  // Now and then an answer is lost (the client asks again, with the same
  // key): a step must never be recorded twice.
  std::mt19937 lose(static_cast<unsigned>(getpid()));
  for (const Step& s : Script(moves)) {
    testing::HttpReply r;
    for (int tries = lose() % 3 == 0 ? 2 : 1; tries > 0; --tries) {
      if (s.person.empty()) {
        r = testing::HttpCall(port, "POST", "/api/games/" + kGame + "/adjudicate", "{\"mode\": \"phase\"}", token[""],
                              {{"Idempotency-Key", s.key()}});
        if (r.status == 200 && r.body.find("\"code\": 0") == std::string::npos) r.status = 500;  // the command failed
      } else {
        r = testing::HttpCall(port, "POST", "/api/games/" + kGame + "/orders", OrdersFor(s.move, s.side, units[s.side]),
                              token[s.person], {{"Idempotency-Key", s.key()}});
      }
    }
    if (r.status != 200) {
      std::fprintf(stderr, "workload: %s: %d %s%s\n", s.name().c_str(), r.status, r.error.c_str(), r.body.c_str());
      return 3;
    }
    const std::string line = s.name() + "\n";
    if (write(ack, line.data(), line.size()) != static_cast<ssize_t>(line.size()) || fdatasync(ack) != 0) return 3;
  }
  close(ack);
  // Done: stop the server gracefully and wait for it (it holds the database).
  kill(server, SIGTERM);
  int status = 0;
  waitpid(server, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 3;
}

int Workload(const std::string& dir, const std::string& ack_file, int moves) {
  if (via == "cli") return CliWorkload(dir, ack_file, moves);
  if (via == "desk") return DeskWorkload(dir, ack_file, moves);
  auto opened = ledger::Ledger::Open(dir);
  if (!opened.ok()) {
    std::fprintf(stderr, "workload: %s\n", opened.status().message().c_str());
    return 3;
  }
  ledger::Ledger& db = **opened;
  const int ack = open(ack_file.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (ack < 0) return 3;
  auto world = replay::Fold(db, kGame, "main");
  if (!world.ok()) return 3;
  std::map<std::string, std::vector<std::string>> units;
  for (const auto& [id, u] : world->battle().units) units[u.side].push_back(id);
  for (const Step& s : Script(moves)) {
    if (s.person.empty()) {
      auto w = replay::Fold(db, kGame, "main");
      if (!w.ok()) return 3;
      if (w->battle().moves_done < s.move) {
        auto r = replay::Adjudicate(db, kGame, "main", replay::AdjudicateMode::kPhase);
        if (!r.ok()) {
          std::fprintf(stderr, "workload: %s: %s\n", s.name().c_str(), r.status().message().c_str());
          return 3;
        }
      }
    } else {
      auto buf = schema::ParseJson("OrderFile", OrdersFor(s.move, s.side, units[s.side]), "orders");
      if (!buf.ok()) return 3;
      auto r = replay::SubmitOrders(db, kGame, "main", s.person, *buf, {.idempotency_key = s.key()});
      if (!r.ok()) {
        std::fprintf(stderr, "workload: %s: %s\n", s.name().c_str(), r.status().message().c_str());
        return 3;
      }
    }
    // Acknowledged: the batch is synced. Say so, durably, before going on.
    const std::string line = s.name() + "\n";
    if (write(ack, line.data(), line.size()) != static_cast<ssize_t>(line.size()) || fdatasync(ack) != 0) return 3;
  }
  close(ack);
  return 0;
}

// What the parent checks after every kill.
void Check(const std::string& dir, const std::string& ack_file, uint64_t* checks) {
  auto opened = ledger::Ledger::Open(dir);
  if (!opened.ok()) return Fail("reopen after a kill: " + opened.status().message());
  ledger::Ledger& db = **opened;
  auto v = db.Verify(kGame, "main");
  if (!v.ok() || !v->ok) return Fail("verify after a kill: " + (v.ok() ? v->reason : v.status().message()));
  (*checks)++;
  // What is in the log: OrderSubmitted per batch (by idempotency key: the
  // recorded seq range), PhaseCompleted per move, outcome events per move.
  std::map<int32_t, int> outcomes, completed;
  std::map<uint64_t, bool> submitted;  // seq → OrderSubmitted
  Status st = db.Read(kGame, "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
    const fb::Event* ev = e.event();
    const int32_t move = ev->turn() ? ev->turn()->minor() : 0;
    if (ev->payload_type() == fb::Payload_DogEvent) outcomes[move]++;
    if (ev->payload_type() == fb::Payload_PhaseCompleted) completed[move]++;
    if (ev->payload_type() == fb::Payload_OrderSubmitted) submitted[e.seq] = true;
    return Status::Ok();
  });
  if (!st.ok()) return Fail("read after a kill: " + st.message());
  // Nothing half there: a move with outcome events has its PhaseCompleted.
  for (const auto& [move, n] : outcomes) {
    if (!completed.count(move)) Fail("move " + std::to_string(move) + " has outcome events but no PhaseCompleted");
  }
  (*checks)++;
  // Every acknowledged step is there, whole.
  std::istringstream acks(Slurp(ack_file));
  std::string line;
  while (std::getline(acks, line)) {
    (*checks)++;
    if (line.rfind("adjudicate move ", 0) == 0) {
      const int move = std::stoi(line.substr(16));
      if (!completed.count(move)) Fail("acknowledged " + line + " but the move is not in the log");
      continue;
    }
    // The key is its sender's: the British general's or the French one's.
    const std::string owner =
        ledger::IdempotencyOwner(ActorKind::kPlayer, line.find("British") != std::string::npos ? "wellesley" : "victor");
    auto found = db.FindIdempotent(kGame, owner, line);
    if (!found.ok() || !found->has_value()) {
      Fail("acknowledged " + line + " but its batch is not in the log");
      continue;
    }
    const auto& res = (*found)->result;
    uint64_t orders = 0;
    for (uint64_t s = res.first_seq; s <= res.last_seq; ++s) orders += submitted.count(s);
    const uint64_t want = line.find("British") != std::string::npos ? 7 : 10;  // the bundled files' sizes (moves 1-3)
    const int move = std::stoi(line.substr(kGame.size() + 2));
    if (move <= 3 && orders != want) Fail("acknowledged " + line + " has " + std::to_string(orders) + " orders, not " + std::to_string(want));
  }
}

Result<Hash128> HeadOf(const std::string& dir) {
  auto opened = ledger::Ledger::Open(dir);
  if (!opened.ok()) return opened.status();
  auto h = (*opened)->HeadOf(kGame, "main");
  if (!h.ok()) return h.status();
  return h->hash;
}

}  // namespace

int main(int argc, char** argv) {
  int kills = 200, moves = 4;
  uint64_t seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--kills" && i + 1 < argc) kills = std::max(1, std::atoi(argv[++i]));
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--moves" && i + 1 < argc) moves = std::clamp(std::atoi(argv[++i]), 1, 12);
    else if (a == "--via" && i + 1 < argc && std::set<std::string>{"library", "cli", "desk"}.count(argv[i + 1])) {
      via = argv[++i];
    } else {
      std::fprintf(stderr, "usage: adjutant_crash_loop [--kills N] [--seed S] [--moves M] [--via library|cli|desk]\n");
      return 2;
    }
  }
  if (sodium_init() < 0) return 2;
  auto root = ScratchDir("adjutant-crash-");
  if (!root.ok()) return 2;
  std::fprintf(stderr, "adjutant_crash_loop: seed %" PRIu64 ", %d kills, %d moves, in %s\n", seed, kills, moves, root->c_str());
  // The reference: the same workload, never interrupted.
  const std::string ref = *root + "/reference", dir = *root + "/killed", ack = *root + "/acks";
  if (!Create(ref).ok() || !Create(dir).ok()) return 2;
  if (Workload(ref, *root + "/ref-acks", moves) != 0) {
    std::fprintf(stderr, "adjutant_crash_loop: the uninterrupted run failed\n");
    return 1;
  }
  // How long a whole run takes: kills land anywhere in it.
  const auto t0 = std::chrono::steady_clock::now();
  {
    const std::string timing = *root + "/timing";
    if (!Create(timing).ok() || Workload(timing, *root + "/timing-acks", moves) != 0) return 2;
  }
  const auto whole_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
  std::mt19937_64 rng(seed);
  uint64_t checks = 0;
  int done_kills = 0, runs = 0;
  bool finished = false;
  for (int k = 0; !finished && failures == 0; ++k) {
    const pid_t pid = fork();
    if (pid < 0) return 2;
    if (pid == 0) {
      setpgid(0, 0);  // its own process group: the kill takes its `adjutant` processes too
      _exit(Workload(dir, ack, moves));
    }
    setpgid(pid, pid);
    runs++;
    int status = 0;
    if (k < kills) {
      // Somewhere in the time the steps left would take.
      std::istringstream acked(Slurp(ack));
      int64_t steps_done = 0;
      for (std::string l; std::getline(acked, l);) steps_done++;
      const int64_t steps = static_cast<int64_t>(Script(moves).size());
      const int64_t left_us = std::max<int64_t>(1000, whole_us * std::max<int64_t>(1, steps - steps_done) / steps);
      const auto delay = std::chrono::microseconds(static_cast<int64_t>(rng() % static_cast<uint64_t>(left_us)));
      std::this_thread::sleep_for(delay);
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      // Its `adjutant` processes are dying too: wait until none is left (the
      // database's lock goes with the last).
      for (int i = 0; i < 5000 && kill(-pid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      if (WIFSIGNALED(status)) done_kills++;
      else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) finished = true;  // it finished first
      else Fail("the workload failed on its own (exit " + std::to_string(WEXITSTATUS(status)) + ")");
      Check(dir, ack, &checks);
      // Start again from an empty game now and then, for kills early in a run.
      if (finished && k + 1 < kills) {
        fs::remove_all(dir);
        fs::remove(ack);
        if (!Create(dir).ok()) return 2;
        finished = false;
      }
    } else {
      waitpid(pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) Fail("the last, uninterrupted run failed");
      Check(dir, ack, &checks);
      finished = true;
    }
  }
  auto a = HeadOf(ref), b = HeadOf(dir);
  const bool same = a.ok() && b.ok() && *a == *b;
  if (!same) Fail("the log after the kills differs from the uninterrupted run's");
  // Every move adjudicated exactly once (a retried adjudication is answered, not run again).
  for (const std::string& d : {ref, dir}) {
    auto db = ledger::Ledger::Open(d, ledger::OpenOptions{.read_only = true});
    auto w = db.ok() ? replay::Fold(**db, kGame, "main") : Result<replay::World>(db.status());
    if (!w.ok() || w->battle().moves_done != moves) {
      Fail(d + ": " + (w.ok() ? std::to_string(w->battle().moves_done) : w.status().message()) + " moves adjudicated, not " +
           std::to_string(moves));
    }
  }
  std::printf("{\"crash_loop\": {\"via\": \"%s\", \"seed\": %" PRIu64 ", \"kills\": %d, \"runs\": %d, \"checks\": %" PRIu64
              ", \"moves\": %d, \"same_as_uninterrupted\": %s, \"failures\": %d}}\n",
              via.c_str(), seed, done_kills, runs, checks, moves, same ? "true" : "false", failures);
  std::error_code ec;
  if (failures == 0) fs::remove_all(*root, ec);
  return failures == 0 ? 0 : 1;
}
