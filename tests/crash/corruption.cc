// adjutant_corruption: damage written through RocksDB into a ledger of
// thousands of events — random bit flips, truncations, swapped records,
// records spliced from elsewhere in the log, records deleted — one at a
// time, each undone before the next. After each: `verify` must report the
// damage at the right sequence number (100% detected), and reading the game
// (a full fold, as every command does) must fail with a clear corruption
// error naming that sequence number — never crash or answer wrongly.
//
//   adjutant_corruption [--rounds N] [--seed S]
//
// --on-disk: damage the files themselves, as a failing disk does, one file
// of a copy of the ledger directory per round: a write-ahead log, the
// MANIFEST, a table file (events, snapshots, any column family), CURRENT,
// the OPTIONS file or the acknowledged heads — a bit flipped, the file cut
// short, 4 KiB zeroed, or the file gone. The copy is then opened as the
// commands open it, read-only and then read-write. Each round must end
// "refused" (the open or verify reports the damage) or "whole" (verify
// passes, the branch ends at the acknowledged head with its hash, and a
// full fold gives the undamaged state). A round where history came back
// shorter or different without a word ("silent") fails the run. Each round
// opens the copy in a process of its own (this program again, with
// --open-damaged): a few bit flips in a table file stop RocksDB itself (an
// assertion of Debian's build, in its block reader) — the process dies
// before it has read or written anything, loudly; such a round is counted
// "crashed", named on stderr, and does not fail the run.
//
// Prints one JSON line: injected, detected at the right seq, by kind.
// Exits 1 if any injection went undetected or misplaced.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstring>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "support/build_paths.h"
#include "base/scratch.h"
#include "ledger/ledger.h"
#include "projections/battle.h"
#include "projections/y1820.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "support/pate_game.h"
#include "support/raw_db.h"

namespace {

using namespace adjutant;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A ledger of a few thousand events: the bundled NWOL game (sow and pate,
// fixtures/scenarios/nwol-1805.json on the naval map) adjudicated for
// `turns` turns — every phase's rolls and outcomes.
Status Build(const std::string& dir, int turns, uint64_t* events) {
  auto opened = ledger::Ledger::Open(dir);
  if (!opened.ok()) return opened.status();
  ledger::Ledger& db = **opened;
  ADJ_RETURN_IF_ERROR(testing::CreateNwolGame(db, "big", Slurp(std::string(ADJUTANT_FIXTURES) + "/scenarios/nwol-1805.json")));
  for (int t = 0; t < turns; ++t) {
    auto r = replay::Adjudicate(db, "big", "main", replay::AdjudicateMode::kTurn);
    if (!r.ok()) return r.status();
  }
  auto h = db.HeadOf("big", "main");
  if (!h.ok()) return h.status();
  *events = h->seq;
  return Status::Ok();
}

// Where the ledger keeps its files, by kind of damage target.
std::string TargetKind(const std::string& name) {
  if (name.size() > 4 && name.substr(name.size() - 4) == ".log") return "wal";
  if (name.size() > 4 && name.substr(name.size() - 4) == ".sst") return "table";
  if (name.rfind("MANIFEST-", 0) == 0) return "manifest";
  if (name.rfind("OPTIONS-", 0) == 0) return "options";
  if (name == "CURRENT") return "current";
  if (name == "adjutant-heads") return "heads";
  return "";
}

std::string StateOf(const replay::World& w);

// One round of --on-disk: "refused", "whole" or "silent: why".
std::string OpenDamaged(const std::string& dir, const ledger::Head& acked, const std::string& before) {
  for (bool read_only : {true, false}) {
    auto db = ledger::Ledger::Open(dir, ledger::OpenOptions{.read_only = read_only, .create_if_missing = false});
    if (!db.ok()) {
      if (db.status().code() == Status::Code::kNotFound) return "silent: the open says there is no database (" + db.status().message() + ")";
      return "refused";
    }
    auto rep = (*db)->Verify("big", "main");
    if (!rep.ok() || !rep->ok) return "refused";
    if (rep->head.seq != acked.seq || !(rep->head.hash == acked.hash)) {
      return "silent: verify passes at seq " + std::to_string(rep->head.seq) + ", acknowledged " + std::to_string(acked.seq);
    }
    auto w = replay::Fold(**db, "big", "main");
    if (!w.ok()) {
      if (w.status().code() == Status::Code::kCorruption) return "refused";
      return "silent: the fold fails without naming damage (" + w.status().message() + ")";
    }
    if (StateOf(*w) != before) return "silent: the fold gives another state";
  }
  return "whole";
}

// What the state and head an undamaged copy must show: written once, read
// by each round's process.
void WriteExpected(const std::string& path, const ledger::Head& acked, const std::string& before) {
  std::ofstream(path, std::ios::binary) << acked.seq << " " << acked.hash.Hex() << "\n" << before;
}

// --open-damaged DIR EXPECTED: one round's check, in this process; prints
// its outcome.
int OpenDamagedMain(const std::string& dir, const std::string& expected) {
  const std::string text = Slurp(expected);
  const size_t nl = text.find('\n');
  if (nl == std::string::npos) return 2;
  std::istringstream head(text.substr(0, nl));
  ledger::Head acked;
  std::string hex;
  head >> acked.seq >> hex;
  if (hex.size() != 32) return 2;
  acked.hash.hi = std::strtoull(hex.substr(0, 16).c_str(), nullptr, 16);  // Hex(): hi then lo, big-endian
  acked.hash.lo = std::strtoull(hex.substr(16).c_str(), nullptr, 16);
  const std::string before = text.substr(nl + 1);
  const std::string outcome = OpenDamaged(dir, acked, before);
  std::printf("%s\n", outcome.c_str());
  return 0;
}

// One round's outcome from a process of its own: "crashed: ..." when it
// died by a signal.
std::string OpenDamagedApart(const std::string& dir, const std::string& expected) {
  int out[2];
  if (pipe(out) != 0) return "silent: cannot make a pipe";
  const std::string err_path = dir + ".err";
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    std::FILE* err = std::freopen(err_path.c_str(), "w", stderr);
    (void)err;
    execl("/proc/self/exe", "adjutant_corruption", "--open-damaged", dir.c_str(), expected.c_str(), nullptr);
    _exit(127);
  }
  close(out[1]);
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = read(out[0], buf, sizeof buf)) > 0;) got.append(buf, static_cast<size_t>(n));
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) {
    std::string why = Slurp(err_path);
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    if (const size_t at = why.rfind('\n'); at != std::string::npos) why = why.substr(at + 1);
    return "crashed: " + std::string(strsignal(WTERMSIG(status))) + (why.empty() ? "" : " (" + why + ")");
  }
  while (!got.empty() && got.back() == '\n') got.pop_back();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got.empty()) {
    return "silent: the round's process exited " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  return got;
}

int OnDisk(const std::string& root, int rounds, uint64_t seed) {
  namespace fs = std::filesystem;
  const std::string base = root + "/base";
  uint64_t events = 0;
  // Two turns in table files (the database reopened flushes its log), a
  // third and the snapshots of a fold in the write-ahead log.
  if (Status st = Build(base, 2, &events); !st.ok()) {
    std::fprintf(stderr, "adjutant_corruption: building the ledger: %s\n", st.message().c_str());
    return 2;
  }
  ledger::Head acked;
  std::string before;
  {
    auto db = ledger::Ledger::Open(base);
    if (!db.ok()) return 2;
    if (!replay::Adjudicate(**db, "big", "main", replay::AdjudicateMode::kTurn).ok()) return 2;
    auto w = replay::Fold(**db, "big", "main");
    if (!w.ok()) return 2;
    before = StateOf(*w);
    acked = *(*db)->HeadOf("big", "main");
  }
  std::vector<std::string> targets;
  for (const auto& e : fs::directory_iterator(base)) {
    if (e.is_regular_file() && !TargetKind(e.path().filename().string()).empty()) targets.push_back(e.path().filename().string());
  }
  std::sort(targets.begin(), targets.end());
  const std::string expected = root + "/expected";
  WriteExpected(expected, acked, before);
  std::fprintf(stderr, "adjutant_corruption --on-disk: seed %" PRIu64 ", %" PRIu64 " events acknowledged, %zu files, %d rounds\n",
               seed, acked.seq, targets.size(), rounds);
  std::mt19937_64 rng(seed);
  // kind of file → injected, refused, whole, crashed
  std::map<std::string, std::array<int, 4>> by_target;
  std::map<std::string, int> by_damage;
  int silent = 0;
  const std::string work = root + "/work";
  for (int r = 0; r < rounds; ++r) {
    std::error_code ec;
    fs::remove_all(work, ec);
    fs::copy(base, work, fs::copy_options::recursive, ec);
    if (ec) return 2;
    // The write-ahead log and the table files hold the history: they are
    // damaged most often (a kind first, then a file of that kind).
    static const std::vector<std::string> kWeighted = {"wal", "wal", "wal", "table", "table", "table",
                                                       "manifest", "manifest", "current", "heads", "options"};
    std::vector<std::string> of_kind;
    while (of_kind.empty()) {
      const std::string& want = kWeighted[rng() % kWeighted.size()];
      for (const auto& t : targets) {
        if (TargetKind(t) == want) of_kind.push_back(t);
      }
    }
    const std::string name = of_kind[rng() % of_kind.size()];
    const std::string path = work + "/" + name;
    const uint64_t size = fs::file_size(path);
    std::string damage;
    switch (size == 0 ? 3 : rng() % 4) {
      case 0: {
        damage = "bit flip";
        testing::FlipByte(path, rng() % size, static_cast<uint8_t>(1u << (rng() % 8)));
        break;
      }
      case 1:
        damage = "cut short";
        fs::resize_file(path, rng() % size);
        break;
      case 2: {
        damage = "4 KiB zeroed";
        const uint64_t at = (rng() % size) & ~uint64_t{4095};
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(at));
        const std::string zeros(static_cast<size_t>(std::min<uint64_t>(4096, size - at)), '\0');
        f.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
        break;
      }
      default:
        damage = "file gone";
        fs::remove(path);
        break;
    }
    const std::string kind = TargetKind(name);
    auto& tally = by_target[kind];
    tally[0]++;
    by_damage[damage]++;
    const std::string outcome = OpenDamagedApart(work, expected);
    if (outcome == "refused") tally[1]++;
    else if (outcome == "whole") tally[2]++;
    else if (outcome.rfind("crashed", 0) == 0) {
      tally[3]++;
      std::fprintf(stderr, "adjutant_corruption --on-disk: %s of %s (%" PRIu64 " bytes): %s\n", damage.c_str(),
                   name.c_str(), size, outcome.c_str());
    } else {
      silent++;
      std::fprintf(stderr, "adjutant_corruption --on-disk: %s of %s (%" PRIu64 " bytes): %s\n", damage.c_str(),
                   name.c_str(), size, outcome.c_str());
    }
  }
  std::string kinds, damages;
  for (const auto& [k, v] : by_target) {
    kinds += std::string(kinds.empty() ? "" : ", ") + "\"" + k + "\": {\"injected\": " + std::to_string(v[0]) +
             ", \"refused\": " + std::to_string(v[1]) + ", \"whole\": " + std::to_string(v[2]) +
             ", \"crashed\": " + std::to_string(v[3]) + "}";
  }
  for (const auto& [k, v] : by_damage) damages += std::string(damages.empty() ? "" : ", ") + "\"" + k + "\": " + std::to_string(v);
  std::printf("{\"corruption_on_disk\": {\"seed\": %" PRIu64 ", \"acknowledged_events\": %" PRIu64
              ", \"rounds\": %d, \"silent\": %d, \"by_file\": {%s}, \"by_damage\": {%s}}}\n",
              seed, acked.seq, rounds, silent, kinds.c_str(), damages.c_str());
  std::error_code ec;
  if (silent == 0) fs::remove_all(root, ec);
  return silent == 0 ? 0 : 1;
}

std::string StateOf(const replay::World& w) {
  std::string s;
  for (const auto& p : w.projections) s += std::string(p->name()) + ":" + p->Encode() + ";";
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 300;
  bool on_disk = false;
  uint64_t seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--on-disk") on_disk = true;
    else if (a == "--open-damaged" && i + 2 < argc) return OpenDamagedMain(argv[i + 1], argv[i + 2]);
    else {
      std::fprintf(stderr, "usage: adjutant_corruption [--on-disk] [--rounds N] [--seed S]\n");
      return 2;
    }
  }
  auto root = ScratchDir("adjutant-corruption-");
  if (!root.ok()) return 2;
  if (on_disk) return OnDisk(*root, rounds, seed);
  const std::string dir = *root + "/db";
  uint64_t events = 0;
  if (Status st = Build(dir, 3, &events); !st.ok()) {
    std::fprintf(stderr, "adjutant_corruption: building the ledger: %s\n", st.message().c_str());
    return 2;
  }
  uint64_t branch_id = 0;
  std::string before;  // the game's state, undamaged
  {
    auto db = ledger::Ledger::Open(dir);
    branch_id = (*db)->Branch("big", "main")->id;
    before = StateOf(*replay::Fold(**db, "big", "main"));
  }
  std::fprintf(stderr, "adjutant_corruption: seed %" PRIu64 ", %" PRIu64 " events on the branch, %d rounds\n", seed, events, rounds);
  std::mt19937_64 rng(seed);
  std::map<std::string, std::pair<int, int>> by_kind;  // kind → injected, detected at the right seq
  int undetected = 0;
  for (int r = 0; r < rounds; ++r) {
    const uint64_t seq = 2 + rng() % (events - 1);  // 2..events (seq 1 is checked the same way; keep it readable)
    const std::string original = testing::ReadEventRecord(dir, branch_id, seq);
    std::string kind;
    uint64_t expect = seq;
    uint64_t other = 0;
    switch (rng() % 5) {
      case 0: {
        kind = "bit flip";
        const size_t byte = rng() % original.size();
        const int bit = static_cast<int>(rng() % 8);
        testing::MutateEventRecord(dir, branch_id, seq, [&](std::string& v) { v[byte] = static_cast<char>(v[byte] ^ (1 << bit)); });
        break;
      }
      case 1: {
        kind = "truncation";
        const size_t keep = rng() % original.size();
        testing::MutateEventRecord(dir, branch_id, seq, [&](std::string& v) { v.resize(keep); });
        break;
      }
      case 2: {
        kind = "swap";
        do other = 2 + rng() % (events - 1);
        while (other == seq);
        testing::SwapEventRecords(dir, branch_id, seq, other);
        expect = std::min(seq, other);
        break;
      }
      case 3: {
        kind = "splice";
        do other = 2 + rng() % (events - 1);
        while (other == seq);
        const std::string from = testing::ReadEventRecord(dir, branch_id, other);
        testing::MutateEventRecord(dir, branch_id, seq, [&](std::string& v) { v = from; });
        break;
      }
      default:
        kind = "deletion";
        testing::DeleteEventRecord(dir, branch_id, seq);
        break;
    }
    by_kind[kind].first++;
    bool right = false;
    {
      auto db = ledger::Ledger::Open(dir, ledger::OpenOptions{.read_only = true});
      if (db.ok()) {
        auto rep = (*db)->Verify("big", "main");
        right = rep.ok() && !rep->ok && rep->bad_seq == expect;
        if (!right) {
          std::fprintf(stderr, "  verify: %s\n", !rep.ok() ? rep.status().message().c_str()
                                                 : rep->ok ? "ok (not detected)"
                                                           : ("seq " + std::to_string(rep->bad_seq) + ": " + rep->reason).c_str());
        }
        // Reading the game (every command folds it) either refuses it with a
        // corruption error, or — from a snapshot taken before the damage —
        // gives exactly the state it gave before: never a wrong one.
        auto w = replay::Fold(**db, "big", "main");
        if (w.ok() ? StateOf(*w) != before : w.status().code() != Status::Code::kCorruption) {
          std::fprintf(stderr, "  fold: %s\n", w.ok() ? "a different state" : w.status().message().c_str());
          right = false;
        }
      }
    }
    if (right) by_kind[kind].second++;
    else {
      undetected++;
      std::fprintf(stderr, "adjutant_corruption: %s at seq %" PRIu64 " (other %" PRIu64 ") not reported at seq %" PRIu64 "\n",
                   kind.c_str(), seq, other, expect);
    }
    // Undo it.
    if (kind == "swap") {
      testing::SwapEventRecords(dir, branch_id, seq, other);
    } else {
      testing::PutEventRecord(dir, branch_id, seq, original);
    }
    // The finding is remembered for the game (Ledger::DamageOf) until a GA
    // clears it: as he would once the damage is mended.
    if (auto db = ledger::Ledger::Open(dir, ledger::OpenOptions{.read_only = true}); db.ok()) (*db)->ClearDamage("big");
  }
  std::string kinds;
  int injected = 0, detected = 0;
  for (const auto& [k, v] : by_kind) {
    kinds += std::string(kinds.empty() ? "" : ", ") + "\"" + k + "\": [" + std::to_string(v.first) + ", " + std::to_string(v.second) + "]";
    injected += v.first;
    detected += v.second;
  }
  std::printf("{\"corruption\": {\"seed\": %" PRIu64 ", \"events\": %" PRIu64 ", \"injected\": %d, \"detected\": %d, \"by_kind\": {%s}}}\n",
              seed, events, injected, detected, kinds.c_str());
  std::error_code ec;
  if (undetected == 0) std::filesystem::remove_all(*root, ec);
  return undetected == 0 ? 0 : 1;
}
