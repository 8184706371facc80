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
// Prints one JSON line: injected, detected at the right seq, by kind.
// Exits 1 if any injection went undetected or misplaced.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "base/scratch.h"
#include "ledger/ledger.h"
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

std::string StateOf(const replay::World& w) {
  std::string s;
  for (const auto& p : w.projections) s += std::string(p->name()) + ":" + p->Encode() + ";";
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 300;
  uint64_t seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else {
      std::fprintf(stderr, "usage: adjutant_corruption [--rounds N] [--seed S]\n");
      return 2;
    }
  }
  auto root = ScratchDir("adjutant-corruption-");
  if (!root.ok()) return 2;
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
