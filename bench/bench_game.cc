// adjutant_bench_game: a full-size NWOL game (bench/nwol_generator.h)
// played through the library — every player's orders submitted with
// replay::SubmitOrders, every phase adjudicated with replay::Adjudicate —
// then replayed, audited, forked and diffed. Prints one JSON line per figure
// on stdout and nothing else there; progress goes to stderr.
// bench/README.md says how to run it and what every figure means.
//
//   1. turn      — per turn: orders generated for every player and
//                  submitted (timed), then the turn's 11 phases adjudicated
//                  (timed, phase by phase). Target: < 1 s a campaign turn.
//   2. replay    — every projection rebuilt from event 1 without snapshots,
//                  against a raw RocksDB scan of the same event records.
//   3. audit     — replay::AuditTurn of turn 2 and of the last campaign
//                  turn; both must be identical. Target: the last ≤ 2× turn 2.
//   4. fork/diff — a branch before the last turn (its orders carried over,
//                  new dice), that turn adjudicated there, and the two
//                  branches' views compared.
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "support/build_paths.h"
#include "bench/common.h"
#include "bench/nwol_generator.h"
#include "bench/spawner.h"
#include "ledger/format.h"
#include "ledger/ledger.h"
#include "ledger/tree.h"
#include "projections/projection.h"
#include "projections/roster.h"
#include "projections/treasury.h"
#include "projections/fleet.h"
#include "replay/audit.h"
#include "replay/create.h"
#include "rules/kind.h"
#include "rules/y1820/tables.h"
#include "schema/codec.h"
#include "schema/scenario_generated.h"
#include "projections/battle.h"
#include "projections/y1820.h"
#include "replay/driver.h"
#include "replay/fork.h"
#include "replay/heads.h"
#include "rules/phase_writer.h"
#include "base/signing.h"
#include "replay/rebuild.h"
#include "replay/views.h"
#include "rules/pate/map.h"
#include "rules/sow/calendar.h"
#include "schema/pate_generated.h"

namespace adjutant::bench {

const char* const kProgram = "adjutant_bench_game";

namespace {

namespace sow = rules::sow;

constexpr int kCampaignTurnsMax = 15;   // SOW 4.2: a war season
constexpr int kMinTurns = 2;            // the audit compares turn 2 with the last
constexpr int kQuickTurns = 3;
constexpr double kQuickScale = 0.1;     // ~31 ships, ~150 land units
constexpr uint64_t kDefaultSeed = 1805;
constexpr int32_t kFirstYear = 1805;    // the scenario's first turn is 1805.1.1
constexpr int kRounds = 3;              // replay and fold: each figure is its best of three
constexpr int kAuditRounds = 5;         // audits: short, and their ratio is a target
constexpr size_t kRawBatchRecords = 10'000;

// The targets, as the issue states them.
constexpr double kTurnSecondsMax = 1.0;  // a full campaign turn, on one core
constexpr double kAuditRatioMax = 2.0;   // audit of the last turn vs turn 2: O(that turn)
constexpr double kFlatRatioMax = 1.25;   // the last campaign turn vs turn 2, each figure (issue 22)
constexpr double kReplayRatioMin = 0.6;  // replay of every projection from event 1 vs a raw scan (issue 22)
constexpr double kVerifyRatioMin = 0.7;  // verify vs a raw scan (issue 22)
constexpr int kMaxYears = 20;            // --years
constexpr int kY1820TurnsMax = 300;      // more than the 1820-1840 calendar holds: it ends the game (Y1.4)
constexpr int kDogMoves = 12;            // the long mode's battle

constexpr std::string_view kGame = "nwol";
constexpr std::string_view kMain = ledger::kMainBranch;
constexpr std::string_view kFork = "whatif";
const Actor kGa{ActorKind::kGameAdministrator, "", ""};

// A wall and CPU stopwatch.
struct Timer {
  Clock::time_point t0 = Clock::now();
  double cpu0 = CpuSeconds();
  double wall() const { return SecondsSince(t0); }
  double cpu() const { return CpuSeconds() - cpu0; }
};


// ---- configuration ------------------------------------------------------------

struct Config {
  int turns = kCampaignTurnsMax;  // campaign turns; a season's end and a peace turn follow
  int years = 0;                  // a long campaign: years from 1805 (0: one season and a peace turn)
  uint64_t seed = kDefaultSeed;
  double scale = 1.0;
  std::string mode = "full";
  std::string dir;
  bool remove_dir = true;  // only a directory this run made is removed
};

void PrintUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: adjutant_bench_game [--quick] [--years N] [--turns N] [--seed N] [--dir DIR]\n"
               "  --quick     a small game (a tenth of the fleets and armies) of %d turns: a smoke run\n"
               "  --turns N   campaign turns to play, %d..%d (default %d; fewer: the GA ends the campaign);\n"
               "              a season's end and a peace turn follow\n"
               "  --years N   a long campaign: N years from 1805 (1..%d), each a war season of --turns turns\n"
               "              in spring and autumn and a peace turn in summer and winter, every season ended\n"
               "  --seed N    the seed of the scenario, the orders and the dice (default %" PRIu64 ")\n"
               "  --dir DIR   keep the databases and the scenario in DIR (created; must not hold them yet;\n"
               "              default: a fresh directory under /tmp, removed at the end)\n"
               "  --help      this text\n"
               "Prints one JSON line per figure on stdout; progress on stderr. See bench/README.md.\n",
               kQuickTurns, kMinTurns, kCampaignTurnsMax, kCampaignTurnsMax, kMaxYears, kDefaultSeed);
}

[[noreturn]] void Usage(const std::string& why) {
  std::fprintf(stderr, "adjutant_bench_game: %s\n", why.c_str());
  PrintUsage(stderr);
  std::exit(2);
}

Config ParseArgs(int argc, char** argv) {
  Config cfg;
  bool quick = false, turns_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) Usage(std::string(a) + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      PrintUsage(stdout);
      std::exit(0);
    } else if (a == "--quick") {
      quick = true;
    } else if (a == "--turns") {
      std::string_view v = value();
      auto n = ParseU64(v);
      if (!n || *n < kMinTurns || *n > kCampaignTurnsMax) {
        Usage("--turns: '" + std::string(v) + "' is not a whole number from " + std::to_string(kMinTurns) + " to " +
              std::to_string(kCampaignTurnsMax));
      }
      cfg.turns = static_cast<int>(*n);
      turns_given = true;
    } else if (a == "--years") {
      std::string_view v = value();
      auto n = ParseU64(v);
      if (!n || *n < 1 || *n > kMaxYears) {
        Usage("--years: '" + std::string(v) + "' is not a whole number from 1 to " + std::to_string(kMaxYears));
      }
      cfg.years = static_cast<int>(*n);
    } else if (a == "--seed") {
      std::string_view v = value();
      auto n = ParseU64(v);
      if (!n) Usage("--seed: '" + std::string(v) + "' is not a whole number");
      cfg.seed = *n;
    } else if (a == "--dir") {
      std::string_view v = value();
      if (v.empty()) Usage("--dir needs a directory");
      cfg.dir = std::string(v);
      cfg.remove_dir = false;
    } else {
      Usage("unknown argument '" + std::string(a) + "'");
    }
  }
  if (quick) {
    cfg.scale = kQuickScale;
    cfg.mode = "quick";
    if (!turns_given && cfg.years == 0) cfg.turns = kQuickTurns;
  }
  if (cfg.years > 0) cfg.mode += "+years";
  return cfg;
}

// What a run writes under its working directory (common.h WorkDir).
class GameDir : public WorkDir {
 public:
  explicit GameDir(Config& cfg)
      : WorkDir(cfg.dir, cfg.remove_dir, "adjutant-bench-game-", {"ledger", "raw", "scenario.json"}) {}
  std::string ledger_dir() const { return path("ledger"); }
  std::string raw_dir() const { return path("raw"); }
  // The generated scenario, for `adjutant new --scenario` (and a reader).
  std::string scenario_file() const { return path("scenario.json"); }
};

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  if (!in) Die("reading " + path, Status::IOError(std::strerror(errno)));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ---- 1. playing the game ----------------------------------------------------------

struct PhaseTime {
  std::string name;
  double seconds = 0;
  uint64_t events = 0;
};

struct TurnFigure {
  Turn turn;
  std::string name;
  bool campaign = true;
  size_t submissions = 0, orders = 0, ship_orders = 0, meant_invalid = 0;
  size_t stands = 0, rejected = 0, superseded = 0;
  uint64_t order_events = 0;
  double submit_s = 0, submit_cpu_s = 0;
  std::vector<PhaseTime> phases;
  uint64_t events = 0;  // appended by the phases
  size_t refused_at_adjudication = 0;
  double adjudicate_s = 0, adjudicate_cpu_s = 0;
  double tree_s = 0;  // each phase's signed tree head (issue 23), outside adjudicate_s
};

// Submits every player's orders for the turn at the orders window.
void SubmitTurn(ledger::Ledger& db, const NwolOptions& opts, const rules::pate::NavalMap& map, TurnFigure* f) {
  auto world = Must(replay::Fold(db, kGame, kMain), "folding the game before its orders");
  TurnOrders orders = Must(GenerateOrders(opts, world.treasury().state(), world.fleet().state(), world.roster(), map), "generating orders");
  f->submissions = orders.submissions.size();
  f->orders = orders.orders;
  f->ship_orders = orders.ship_orders;
  f->meant_invalid = orders.meant_invalid;
  Timer t;
  for (const Submission& s : orders.submissions) {
    auto rep = Must(replay::SubmitOrders(db, kGame, kMain, s.person, s.file), "submitting the orders of " + s.person);
    f->order_events += rep.append.last_seq - rep.append.first_seq + 1;
    for (const auto& o : rep.orders) {
      if (o.status == "stands") f->stands++;
      else if (o.status == "rejected") f->rejected++;
      else f->superseded++;
    }
  }
  f->submit_s = t.wall();
  f->submit_cpu_s = t.cpu();
}

// Runs phases one at a time until the turn's last (or the one phase of a
// season's end), timing each.
void AdjudicateTurn(ledger::Ledger& db, std::string_view game, std::string_view branch, TurnFigure* f) {
  Timer t;
  double tree_cpu = 0, apart = 0, apart_cpu = 0;
  static const signing::SigningKey kKey = signing::SigningKey::FromSeed(std::array<uint8_t, 32>{18, 5});
  std::vector<ledger::Ledger::TreeNode> head_nodes;
  while (true) {
    // Issue 23: what the signed head of this phase costs — exactly the
    // driver's TreeHeadDraft over the phase's events (built again as the
    // ledger stores them, hashed, the root made from the kept nodes and
    // those leaves, signed) — timed apart from the adjudication. The phase
    // is run here once more, only to have its events; that run is timed
    // out of both figures.
    {
      Timer rt;
      auto world = Must(replay::Fold(db, game, branch), "folding for the head");
      auto next = Must(replay::NextPhaseOf(world), "the next phase");
      auto dice = Must(replay::BranchDice(db, game, branch), "the branch's dice");
      const rules::RulesVersions versions = replay::GameVersions(replay::SummaryOf(world));
      const uint64_t head = world.head.seq;
      rules::PhaseWriter w(std::string(game), std::string(branch), head, std::move(world.projections));
      w.set_rules_versions(versions);
      Must(replay::RunPhaseInto(w, next, dice), "running the phase for its head");
      const std::vector<Draft> drafts = w.TakeDrafts();
      std::vector<std::vector<uint8_t>> events;  // as the ledger will store them
      flatbuffers::FlatBufferBuilder fbb(512);
      for (size_t i = 0; i < drafts.size(); ++i) {
        BuildEventBuffer(fbb, game, branch, head + 1 + i, drafts[i]);
        events.emplace_back(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
      }
      apart += rt.wall();
      apart_cpu += rt.cpu();
      // What the driver adds: the leaf hash of each event as the writer
      // emits it (rules::PhaseWriter::set_keep_leaf_hashes), then the root
      // from the kept nodes and those leaves, and the signature.
      Timer tt;
      std::vector<merkle::Hash> leaves;
      leaves.reserve(events.size());
      for (const auto& e : events) leaves.push_back(merkle::LeafHash(e));
      auto signed_head = Must(replay::TreeHeadDraft(db, game, branch, head, drafts.back().at, leaves, kKey), "the signed head");
      f->tree_s += tt.wall();
      tree_cpu += tt.cpu();
      // Kept by the driver once the phase is appended (below): timed then.
      head_nodes = std::move(signed_head.nodes);
    }
    Timer pt;
    auto reps = Must(replay::Adjudicate(db, game, branch, replay::AdjudicateMode::kPhase), "adjudicating");
    const double phase_s = pt.wall();
    {
      Timer kt;
      (void)db.PutTreeNodes(game, branch, head_nodes);
      f->tree_s += kt.wall();
      tree_cpu += kt.cpu();
    }
    const replay::PhaseReport& r = reps.at(0);
    f->phases.push_back({r.name, phase_s, r.last_seq - r.first_seq + 1});
    f->events += r.last_seq - r.first_seq + 1;
    f->refused_at_adjudication += r.rejected;
    f->turn = r.at.turn;
    f->name = r.turn_name;
    if (r.last_of_turn) break;
  }
  f->adjudicate_s = t.wall() - f->tree_s - apart;
  f->adjudicate_cpu_s = t.cpu() - tree_cpu - apart_cpu;
}

void PrintTurn(const TurnFigure& f) {
  JsonLine line("turn");
  line.Str("turn", f.turn.ToString()).Str("name", f.name).Int("submissions", f.submissions).Int("orders", f.orders)
      .Int("ship_orders", f.ship_orders).Int("orders_stand", f.stands).Int("orders_refused", f.rejected)
      .Int("orders_superseded", f.superseded).Int("meant_invalid", f.meant_invalid)
      .Int("order_events", f.order_events).Num("submit_seconds", f.submit_s, 3)
      .Num("submit_cpu_seconds", f.submit_cpu_s, 3)
      .Num("submit_ms_per_file", f.submissions ? 1000 * f.submit_s / f.submissions : 0, 2)
      .Int("phases", f.phases.size()).Int("events", f.events)
      .Int("refused_at_adjudication", f.refused_at_adjudication).Num("adjudicate_seconds", f.adjudicate_s, 3)
      .Num("adjudicate_cpu_seconds", f.adjudicate_cpu_s, 3)
      .Num("tree_head_seconds", f.tree_s, 4)
      .Num("tree_head_ratio", f.adjudicate_s > 0 ? f.tree_s / f.adjudicate_s : 0, 4);
  for (const PhaseTime& p : f.phases) line.Num(p.name + "_ms", 1000 * p.seconds, 1);
  if (f.phases.size() == 1) {  // a season's end: no orders, no target
    line.Str("target", "none (the season's end runs with the turn before it)").Print();
    return;
  }
  line.Str("target", "a full turn (4 sow + 7 pate phases) adjudicated in < 1 s on one core")
      .Bool("meets_target", f.adjudicate_s < kTurnSecondsMax).Print();
}

struct Game {
  std::vector<TurnFigure> turns;   // campaign turns, then the season's end, then the peace turn
  Turn last_campaign_turn, peace_turn;
  uint64_t events = 0;
};

Game Play(const Config& cfg, const GameDir& wd) {
  Game g;
  NwolOptions opts;
  opts.seed = cfg.seed;
  opts.scale = cfg.scale;
  std::string map_json = ReadText(std::string(ADJUTANT_FIXTURES) + "/maps/nwol-waters.json");
  Timer gen;
  NwolScenario sc = Must(GenerateScenario(opts, map_json), "generating the scenario");
  Must(CheckAsNew(sc), "the generated scenario fails the checks of `adjutant new`");
  double gen_s = gen.wall();
  {
    std::ofstream out(wd.scenario_file());
    out << sc.json;
    if (!out) Die("writing " + wd.scenario_file(), Status::IOError(std::strerror(errno)));
  }
  auto map = Must(rules::pate::NavalMap::Load(*flatbuffers::GetRoot<fb::NavalMap>(sc.map.data())), "the naval map");
  auto db = Must(ledger::Ledger::Open(wd.ledger_dir()), "opening the ledger");
  Timer create;
  (void)Must(CreateGame(*db, kGame, sc, cfg.seed), "creating the game");
  for (const Directive& d : Must(OpeningDirectives(), "the opening directives")) {
    (void)Must(replay::RecordDirective(*db, kGame, kMain, d.file), "directive " + d.what);
  }
  JsonLine("game").Str("scenario", wd.scenario_file()).Int("seed", cfg.seed).Num("scale", cfg.scale, 2)
      .Int("states", sc.states).Int("cities", sc.cities).Int("ports", sc.ports).Int("land_units", sc.units)
      .Int("ships", sc.ships).Int("persons", sc.persons).Int("scenario_bytes", sc.json.size())
      .Num("generate_seconds", gen_s, 3).Num("create_seconds", create.wall(), 3).Str("target", "none").Print();
  Progress("%zu states, %zu cities (%zu ports), %zu land units, %zu ships, %zu persons; %d campaign turns",
           sc.states, sc.cities, sc.ports, sc.units, sc.ships, sc.persons, cfg.turns);

  if (cfg.years > 0) {
    // A steady game: each state builds only to its opening numbers, so the
    // game keeps its size and only its age grows (what the figures compare).
    auto w = Must(replay::Fold(*db, kGame, kMain), "folding the opening");
    for (const auto& [id, u] : w.treasury().state().units) opts.unit_cap[u.state]++;
    for (const auto& [id, sh] : w.fleet().state().ships) opts.ship_cap[sh.state]++;
    // The GA's calendar, set before the first turn (SOW 4.2): war in spring
    // and autumn, peace in summer and winter (summer 1805 is the opening's).
    for (int32_t y = kFirstYear; y < kFirstYear + cfg.years; ++y) {
      for (int32_t season = 1; season <= 4; ++season) {
        if (y == kFirstYear && season <= 2) continue;
        auto d = Must(SeasonKindDirective(y, season, season % 2 == 1 ? "War" : "Peace"), "a SetSeasonKind directive");
        (void)Must(replay::RecordDirective(*db, kGame, kMain, d.file), "directive " + d.what);
      }
    }
  }
  // One season and its peace turn, or the years asked for.
  const Turn stop = cfg.years > 0 ? Turn{kFirstYear + cfg.years, 1, 0} : Turn{kFirstYear, 2, sow::kSeasonEndStep};
  while (true) {
    auto world = Must(replay::Fold(*db, kGame, kMain, UINT64_MAX, {"treasury"}), "folding the calendar");
    const projections::TreasuryState& s = world.treasury().state();
    const sow::NextPhase next = sow::Next(s);
    const Turn t = next.at.turn;
    if (!(t < stop)) break;
    const bool campaign = t.step >= 1 && t.step <= kCampaignTurnsMax;
    if (campaign && t.step > cfg.turns && !s.campaign_ended) {
      auto end = Must(EndCampaignDirective(), "the EndCampaign directive");
      (void)Must(replay::RecordDirective(*db, kGame, kMain, end.file), "directive EndCampaign");
      continue;
    }
    TurnFigure f;
    f.campaign = campaign;
    if (!sow::IsSeasonEnd(t)) SubmitTurn(*db, opts, map, &f);
    AdjudicateTurn(*db, kGame, kMain, &f);
    Progress("%s: %zu files, %zu orders (%zu refused) submitted in %.2f s; %zu phases, %" PRIu64
             " events adjudicated in %.3f s",
             f.turn.ToString().c_str(), f.submissions, f.orders, f.rejected, f.submit_s, f.phases.size(), f.events,
             f.adjudicate_s);
    PrintTurn(f);
    if (campaign) g.last_campaign_turn = f.turn;
    if (t.step == 0) g.peace_turn = f.turn;
    g.turns.push_back(std::move(f));
  }

  // The campaign's turns summed up: the target, turn by turn.
  double worst = 0, total = 0, cpu_worst = 0, tree = 0;
  std::string worst_turn;
  bool all = true;
  size_t campaign = 0;
  for (const TurnFigure& f : g.turns) {
    if (!f.campaign) continue;
    ++campaign;
    total += f.adjudicate_s;
    tree += f.tree_s;
    cpu_worst = std::max(cpu_worst, f.adjudicate_cpu_s);
    if (f.adjudicate_s >= worst) worst = f.adjudicate_s, worst_turn = f.turn.ToString();
    all = all && f.adjudicate_s < kTurnSecondsMax;
  }
  g.events = Must(db->HeadOf(kGame, kMain), "head").seq;
  JsonLine("turns").Int("campaign_turns", campaign).Int("events", g.events)
      .Num("adjudicate_seconds_total", total, 3).Num("adjudicate_seconds_max", worst, 3)
      .Str("slowest_turn", worst_turn).Num("adjudicate_cpu_seconds_max", cpu_worst, 3)
      .Str("target", "every campaign turn adjudicated in < 1 s on one core").Bool("meets_target", all).Print();
  // Issue 23: recording a signed tree head at every phase's end (its root
  // and its signature) adds at most 5% to adjudicating the turn.
  JsonLine("tree").Num("tree_head_seconds_total", tree, 4).Num("adjudicate_seconds_total", total, 3)
      .Num("ratio", total > 0 ? tree / total : 0, 4).Str("target", "<= 0.05 of adjudicating (issue 23)")
      .Bool("meets_target", total > 0 && tree / total <= 0.05).Print();
  return g;
}

// ---- 2. replay --------------------------------------------------------------------

// The raw baseline: a plain RocksDB database with the ledger's own options
// holding exactly the main branch's event records under their keys
// (ledger/format.h), as bench/bench_ledger.cc builds it.
std::unique_ptr<rocksdb::DB> OpenRaw(const std::string& dir, bool read_only) {
  rocksdb::Options o;
  o.create_if_missing = !read_only;
  o.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  o.keep_log_file_num = 4;
  rocksdb::DB* db = nullptr;
  auto s = read_only ? rocksdb::DB::OpenForReadOnly(o, dir, &db) : rocksdb::DB::Open(o, dir, &db);
  if (!s.ok()) Die("opening raw RocksDB at " + dir, s);
  return std::unique_ptr<rocksdb::DB>(db);
}

rocksdb::ReadOptions ScanOptions() {  // the ledger's own, for Read and Verify
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  ro.readahead_size = 256 << 10;
  return ro;
}

void CopyToRaw(const GameDir& wd) {
  ledger::OpenOptions ro;
  ro.read_only = true;
  auto db = Must(ledger::Ledger::Open(wd.ledger_dir(), ro), "opening the ledger read-only");
  uint64_t branch_id = Must(db->Branch(kGame, kMain), "branch").id;
  auto raw = OpenRaw(wd.raw_dir(), false);
  rocksdb::WriteBatch batch;
  auto flush = [&] {
    auto s = raw->Write(rocksdb::WriteOptions(), &batch);
    if (!s.ok()) Die("raw write", s);
    batch.Clear();
  };
  Must(db->Read(kGame, kMain, 1, UINT64_MAX, [&](const ledger::EventView& e) {
         std::string value(ledger::format::kRecordHeaderBytes, '\0');
         e.hash.ToBytes(reinterpret_cast<uint8_t*>(value.data()));
         value.append(reinterpret_cast<const char*>(e.bytes.data()), e.bytes.size());
         (void)batch.Put(ledger::format::EventKey(branch_id, e.seq), value);
         if (batch.Count() >= kRawBatchRecords) flush();
         return Status::Ok();
       }),
       "copying the events to raw RocksDB");
  flush();
  auto s = raw->FlushWAL(true);
  if (!s.ok()) Die("raw flush", s);
}

// Bytes of table files per column family of a settled database (its WAL
// retired), read through RocksDB's own accounting.
std::map<std::string, uint64_t> TableBytes(const std::string& dir) {
  std::vector<std::string> names;
  auto s = rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &names);
  if (!s.ok()) Die("listing the column families of " + dir, s);
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (const std::string& n : names) cfs.emplace_back(n, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  rocksdb::DBOptions o;
  o.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  s = rocksdb::DB::OpenForReadOnly(o, dir, cfs, &handles, &db);
  if (!s.ok()) Die("opening " + dir + " read-only", s);
  std::map<std::string, uint64_t> out;
  for (size_t i = 0; i < handles.size(); ++i) {
    uint64_t v = 0;
    (void)db->GetIntProperty(handles[i], "rocksdb.total-sst-files-size", &v);
    out[names[i]] = v;
    (void)db->DestroyColumnFamilyHandle(handles[i]);
  }
  delete db;
  return out;
}

// What the game costs on disk: the ledger's table files by column family
// against raw RocksDB holding the same event records. Snapshots are a
// cache, thinned as they are written (ledger.h OpenOptions).
void PrintDisk(const GameDir& wd, uint64_t events) {
  const auto ledger = TableBytes(wd.ledger_dir());
  const auto raw = TableBytes(wd.raw_dir());
  uint64_t ledger_total = 0, raw_total = 0;
  for (const auto& [n, b] : ledger) ledger_total += b;
  for (const auto& [n, b] : raw) raw_total += b;
  auto at = [](const std::map<std::string, uint64_t>& m, const char* k) { return m.count(k) ? m.at(k) : 0; };
  JsonLine("disk").Str("game", std::string(kGame)).Int("events", events)
      .Int("raw_bytes", raw_total).Int("ledger_bytes", ledger_total)
      .Int("events_bytes", at(ledger, ledger::format::kCfEvents))
      .Int("snapshots_bytes", at(ledger, ledger::format::kCfSnapshots))
      .Num("ratio_vs_raw", raw_total ? static_cast<double>(ledger_total) / static_cast<double>(raw_total) : 0.0, 2)
      .Str("target", "context: table files after the game, settled; snapshots thinned as written").Print();
}

volatile uint64_t g_scan_sink = 0;

uint64_t ScanRaw(rocksdb::DB& raw, uint64_t* bytes) {
  std::unique_ptr<rocksdb::Iterator> it(raw.NewIterator(ScanOptions()));
  uint64_t n = 0, size_sum = 0, byte_sum = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto v = it->value();
    size_sum += v.size();
    byte_sum += static_cast<uint8_t>(v[v.size() - 1]);
    ++n;
  }
  if (!it->status().ok()) Die("raw scan", it->status());
  g_scan_sink = byte_sum;
  *bytes = size_sum;
  return n;
}

uint64_t RebuildAll(ledger::Ledger& db) {
  auto ps = projections::AllProjections();
  std::vector<projections::Projection*> raw;
  for (auto& p : ps) raw.push_back(p.get());
  replay::RebuildOptions opts;
  opts.use_snapshots = false;  // the fold from event 1 is what is measured
  return Must(replay::Rebuild(db, kGame, kMain, UINT64_MAX, raw, opts), "rebuild").events_folded;
}

struct Best {
  uint64_t events = 0;
  double seconds = 0, cpu_seconds = 0;
  double rate() const { return events / seconds; }
};

// What `adjutant verify GAME` does for the branch (ops/history.cc): the
// chain, the verifier and the envelopes over every event, and, `with_tree`,
// the kept Merkle nodes (this game keeps them: its heads are signed) made
// again from the leaves hashed on the same scan. Returns the events verified.
uint64_t VerifyAll(ledger::Ledger& db, bool with_tree, uint64_t* nodes_checked) {
  if (!with_tree) {
    auto rep = Must(db.Verify(kGame, kMain), "verify");
    if (!rep.ok) Die("verify", Status::Corruption("seq " + std::to_string(rep.bad_seq) + ": " + rep.reason));
    return rep.events;
  }
  auto v = Must(ledger::VerifyWithTree(db, kGame, kMain), "verify");
  if (!v.report.ok) Die("verify", Status::Corruption("seq " + std::to_string(v.report.bad_seq) + ": " + v.report.reason));
  if (!v.tree) Die("verify", Status::Corruption("the game keeps no Merkle tree node (its heads are signed)"));
  const auto nodes = Must(v.tree->Check(db, kGame, kMain), "checking the kept tree nodes");
  if (!nodes.wrong.empty()) Die("verify", Status::Corruption("a kept tree node differs from the events"));
  *nodes_checked = nodes.checked;
  return v.report.events;
}

template <typename F>
void TimeBest(Best* best, F&& f) {
  Timer t;
  uint64_t events = f();
  double s = t.wall();
  if (best->events == 0 || s < best->seconds) *best = {events, s, t.cpu()};
}

void BenchReplay(const GameDir& wd, ledger::Ledger& db, uint64_t events) {
  auto raw = OpenRaw(wd.raw_dir(), true);
  uint64_t value_bytes = 0;
  Best raw_f, rebuild_f, verify_f, tree_f;
  uint64_t nodes_checked = 0;
  for (int round = 1; round <= kRounds; ++round) {
    Progress("round %d/%d: raw scan, rebuild and verify of %" PRIu64 " events", round, kRounds, events);
    TimeBest(&raw_f, [&] { return ScanRaw(*raw, &value_bytes); });
    TimeBest(&rebuild_f, [&] { return RebuildAll(db); });
    TimeBest(&verify_f, [&] { return VerifyAll(db, false, &nodes_checked); });
    TimeBest(&tree_f, [&] { return VerifyAll(db, true, &nodes_checked); });
  }
  if (raw_f.events != events || rebuild_f.events != events || verify_f.events != events || tree_f.events != events) {
    Die("replay", Status::Corruption("read " + std::to_string(raw_f.events) + " raw, " +
                                     std::to_string(rebuild_f.events) + " folded and " +
                                     std::to_string(verify_f.events) + " verified events, expected " +
                                     std::to_string(events)));
  }
  JsonLine("replay").Str("impl", "raw_rocksdb").Int("events", raw_f.events).Int("rounds", kRounds)
      .Num("seconds", raw_f.seconds, 3).Num("cpu_seconds", raw_f.cpu_seconds, 3).Num("events_per_s", raw_f.rate(), 0)
      .Num("value_mib", value_bytes / 1048576.0, 2).Num("mean_record_bytes", double(value_bytes) / events, 1)
      .Str("target", "baseline: iterating the same event records").Print();
  JsonLine("replay").Str("impl", "ledger+all_projections").Int("events", rebuild_f.events).Int("rounds", kRounds)
      .Int("projections", projections::AllProjections().size()).Num("seconds", rebuild_f.seconds, 3)
      .Num("cpu_seconds", rebuild_f.cpu_seconds, 3).Num("events_per_s", rebuild_f.rate(), 0)
      .Num("ratio_vs_raw", rebuild_f.rate() / raw_f.rate(), 3)
      .Num("cpu_ratio_vs_raw", raw_f.cpu_seconds / rebuild_f.cpu_seconds, 3)
      .Str("target", ">=0.6x raw (issue 22; every projection rebuilt from event 1, no snapshots)")
      .Bool("meets_target", rebuild_f.rate() / raw_f.rate() >= kReplayRatioMin).Print();
  JsonLine("verify").Str("impl", "ledger_verify").Int("events", verify_f.events).Int("rounds", kRounds)
      .Num("seconds", verify_f.seconds, 3).Num("cpu_seconds", verify_f.cpu_seconds, 3)
      .Num("events_per_s", verify_f.rate(), 0).Num("ratio_vs_raw", verify_f.rate() / raw_f.rate(), 3)
      .Num("cpu_ratio_vs_raw", raw_f.cpu_seconds / verify_f.cpu_seconds, 3)
      .Str("target", ">=0.7x raw (issue 22: the chain, the verifier and the envelopes of every event)")
      .Bool("meets_target", verify_f.rate() / raw_f.rate() >= kVerifyRatioMin).Print();
  JsonLine("verify").Str("impl", "ledger_verify+kept_tree_nodes").Int("events", tree_f.events)
      .Int("tree_nodes_checked", nodes_checked).Int("rounds", kRounds).Num("seconds", tree_f.seconds, 3)
      .Num("cpu_seconds", tree_f.cpu_seconds, 3).Num("events_per_s", tree_f.rate(), 0)
      .Num("ratio_vs_raw", tree_f.rate() / raw_f.rate(), 3)
      .Num("ratio_vs_verify", tree_f.rate() / verify_f.rate(), 3)
      .Str("target", "none (context: `adjutant verify` of a game whose heads are signed also hashes every "
                     "event for its Merkle leaf, SHA-256, on the same scan, and checks each kept node)").Print();
}

// ---- 3. audit ---------------------------------------------------------------------

// The last event of turn `t` (the one before the next turn's first).
uint64_t EndOfTurn(ledger::Ledger& db, std::string_view game, const Turn& t) {
  auto next = Must(db.SeekTurn(game, kMain, TurnPhase{Turn{t.major, t.minor, t.step + 1}, 0}), "seeking a turn");
  if (!next) return Must(db.HeadOf(game, kMain), "head").seq;
  return *next - 1;
}

// What every fold of an audit (and of an adjudication or a submission)
// starts with: the projections as they stood at the end of turn `t`,
// decoded from the nearest snapshot and folded on from there. Context for
// the audit's ratio: the size of each projection's encoding then.
struct FoldFigure {
  double ms = 0, cpu_ms = 0;
  size_t largest_bytes = 0;  // the largest projection's encoding (its snapshot)
  std::string largest;
};

FoldFigure BenchFold(ledger::Ledger& db, std::string_view game, const Turn& t) {
  uint64_t upto = EndOfTurn(db, game, t);
  Best best;  // `events` counts the rounds timed
  replay::RebuildStats stats;
  std::vector<std::pair<std::string, size_t>> sizes;
  for (int round = 1; round <= kRounds; ++round) {
    auto ps = projections::AllProjections();
    std::vector<projections::Projection*> raw;
    for (auto& p : ps) raw.push_back(p.get());
    Timer timer;
    stats = Must(replay::Rebuild(db, game, kMain, upto, raw, replay::RebuildOptions{}), "fold from a snapshot");
    double sec = timer.wall();
    if (best.events == 0 || sec < best.seconds) best = {best.events + 1, sec, timer.cpu()};
    sizes.clear();
    for (auto& p : ps) sizes.emplace_back(std::string(p->name()), p->Encode().size());
  }
  JsonLine line("fold");
  line.Str("game", std::string(game)).Str("turn", t.ToString()).Int("seq", upto).Int("snapshot_seq", stats.start_seq)
      .Int("events_folded", stats.events_folded).Int("rounds", kRounds).Num("ms", 1000 * best.seconds, 2)
      .Num("cpu_ms", 1000 * best.cpu_seconds, 2);
  FoldFigure fig{1000 * best.seconds, 1000 * best.cpu_seconds, 0, ""};
  for (const auto& [name, bytes] : sizes) {
    line.Int(name + "_bytes", bytes);
    if (bytes > fig.largest_bytes) fig.largest_bytes = bytes, fig.largest = name;
  }
  line.Str("target", "none (context for the audit: every phase audited starts with such a fold)").Print();
  return fig;
}

// A fold's peak memory: in a fresh child (bench/spawner.h), the game folded
// to `upto` from the nearest snapshot, every projection, as a report does.
void FoldChild(const std::string& dir, const std::string& game, uint64_t upto, ChildReport* rep) {
  ledger::OpenOptions ro;
  ro.read_only = true;
  auto db = ledger::Ledger::Open(dir, ro);
  if (!db.ok()) {
    std::snprintf(rep->error, sizeof rep->error, "%s", db.status().message().c_str());
    return;
  }
  auto t0 = Clock::now();
  auto w = replay::Fold(**db, game, kMain, upto);
  if (!w.ok()) {
    std::snprintf(rep->error, sizeof rep->error, "%s", w.status().message().c_str());
    return;
  }
  rep->seconds = SecondsSince(t0);
  rep->events = std::min(upto, w->head.seq);
  rep->ok = 1;
}

struct AuditFigure {
  Best best;
  replay::AuditResult result;
};

// One audit of turn `t`, kept in `fig` if it is the fastest yet; a turn that
// is not identical ends the run (exit 1), with both events.
void AuditOnce(ledger::Ledger& db, std::string_view game, const Turn& t, AuditFigure* fig) {
  Timer timer;
  auto r = Must(replay::AuditTurn(db, game, kMain, t), "auditing turn " + t.ToString());
  double s = timer.wall();
  if (!r.identical) {
    std::fprintf(stderr,
                 "adjutant_bench_game: AUDIT FAILED: turn %s is not identical: seq %" PRIu64 " (%s; rule %s)\n"
                 "  recorded: %s\n  produced: %s\n",
                 t.ToString().c_str(), r.seq, r.reason.c_str(), r.rule.c_str(), r.recorded.c_str(), r.produced.c_str());
    std::exit(1);
  }
  if (fig->best.events == 0 || s < fig->best.seconds) fig->best = {r.events, s, timer.cpu()};
  fig->result = r;
}

void PrintAudit(std::string_view game, const Turn& t, const AuditFigure& f) {
  JsonLine("audit").Str("game", std::string(game)).Str("turn", t.ToString()).Int("phases", f.result.phases).Int("events", f.result.events)
      .Bool("identical", f.result.identical).Int("views_not_compared", f.result.views_not_compared)
      .Int("rounds", kAuditRounds).Num("seconds", f.best.seconds, 3).Num("cpu_seconds", f.best.cpu_seconds, 3)
      .Str("target", "identical").Bool("meets_target", f.result.identical).Print();
}

// The audit of `late` over that of `early` (its wall-time ratio).
double BenchAudit(ledger::Ledger& db, std::string_view game, const Turn& early, const Turn& late) {
  AuditFigure a, b;
  for (int round = 1; round <= kAuditRounds; ++round) {
    Progress("round %d/%d: audit of turns %s and %s", round, kAuditRounds, early.ToString().c_str(),
             late.ToString().c_str());
    AuditOnce(db, game, early, &a);
    AuditOnce(db, game, late, &b);
  }
  PrintAudit(game, early, a);
  PrintAudit(game, late, b);
  double ratio = b.best.seconds / a.best.seconds;
  JsonLine("audit_ratio").Str("game", std::string(game)).Str("turn", late.ToString()).Str("vs_turn", early.ToString())
      .Num("seconds", b.best.seconds, 3).Num("vs_seconds", a.best.seconds, 3)
      .Num("events_ratio", double(b.result.events) / a.result.events, 3)
      .Num("cpu_ratio", b.best.cpu_seconds / a.best.cpu_seconds, 3).Num("ratio", ratio, 3)
      .Str("target", "audit of the last campaign turn <= 2x audit of turn 2 (O(that turn), thanks to snapshots)")
      .Bool("meets_target", ratio <= kAuditRatioMax).Print();
  return ratio;
}

const TurnFigure& FigureOf(const Game& g, const Turn& t) {
  for (const TurnFigure& f : g.turns) {
    if (f.turn == t) return f;
  }
  Die("figures", Status::NotFound("no figures of turn " + t.ToString()));
}

// One turn's costs, for the flat figures: as played (submission and
// adjudication), a fold to its end (from the nearest snapshot) and that
// fold's peak memory in a fresh child.
// A turn's submission and adjudication measured again, so that neither
// figure is one sample of a millisecond or two on a shared machine: the
// turn forked at its start (before its orders) kRounds times with the
// parent's dice, its orders carried onto each fork as their senders gave
// them (replay::CarryOrders: the intake a submission goes through, one
// synced batch a file, after one read of the parent's orders of the turn)
// and the turn adjudicated there as it was played (AdjudicateTurn); each
// figure its fastest.
struct Rerun {
  double submit_s = 0;
  size_t files = 0;
  double adjudicate_s = 0;
  uint64_t events = 0;
};

// The three points a game is measured at, in order; they name the forks of
// RerunTurn (two points may be the same turn under --quick).
constexpr const char* kPointNames[3] = {"early", "middle", "last"};

Rerun RerunTurn(ledger::Ledger& db, std::string_view game, const Turn& t, std::string_view point) {
  Rerun best;
  const uint64_t at = Must(replay::ForkPoint(db, game, kMain, TurnPhase{t, 0}), "the start of turn " + t.ToString());
  for (int round = 1; round <= kRounds; ++round) {
    const std::string name = "rerun-" + std::string(point) + "-" + std::to_string(round);
    (void)Must(db.Fork(game, kMain, at, name, std::nullopt, kGa), "forking for a rerun of " + t.ToString());
    size_t files = 0;
    Timer st;
    (void)Must(replay::CarryOrders(db, game, kMain, name, at, t, &files), "carrying the orders of " + t.ToString());
    const double submit_s = st.wall();
    TurnFigure f;
    AdjudicateTurn(db, game, name, &f);
    if (round == 1 || submit_s < best.submit_s) best.submit_s = submit_s, best.files = files;
    if (round == 1 || f.adjudicate_s < best.adjudicate_s) best.adjudicate_s = f.adjudicate_s, best.events = f.events;
  }
  return best;
}

struct Point {
  Turn turn;
  const TurnFigure* played = nullptr;
  Rerun rerun;  // the figures the ratios use
  FoldFigure fold;
  ChildReport memory;
  double submit_ms_per_file() const { return rerun.files ? 1000 * rerun.submit_s / rerun.files : 0.0; }
  double played_submit_ms_per_file() const {
    return played->submissions ? 1000 * played->submit_s / played->submissions : 0.0;
  }
  double adjudicate_us_per_event() const { return rerun.events ? 1e6 * rerun.adjudicate_s / rerun.events : 0.0; }
  long fold_growth_kib() const { return memory.max_rss_kib - memory.baseline_kib; }
};

// The fold and its memory (read-only work); RerunTurn fills `rerun`.
Point Measure(ledger::Ledger& db, Spawner& spawner, const GameDir& wd, std::string_view game, const Game& g,
              const Turn& t) {
  Point p;
  p.turn = t;
  p.played = &FigureOf(g, t);
  p.fold = BenchFold(db, game, t);
  p.memory = spawner.Run(wd.ledger_dir(), std::string(game), EndOfTurn(db, game, t));
  return p;
}

// Issue 22: the last turn against turn 2, figure by figure — the cost of a
// turn must not grow with the game's age — and against the middle turn:
// a fold starts from the nearest snapshot (every replay::kSnapshotEvery
// events), so in a game of few events a turn, turn 2 (no snapshot yet, a
// few events to fold) is cheaper than any later turn; middle and last
// alike tell a bounded cost from a growing one.
void PrintFlat(std::string_view game, const Point& early, const Point& mid, const Point& late, double audit_ratio) {
  auto ratio = [](double x, double y) { return y > 0 ? x / y : 0.0; };
  const double submit = ratio(late.submit_ms_per_file(), early.submit_ms_per_file());
  // Adjudicating a turn, as issue 22 asks: a phase's cost is mostly fixed
  // (every view's digest, the kind's pass over the game's pieces), so per
  // event a turn of fewer events looks dearer; that ratio is context.
  const double adjudicate = ratio(late.rerun.adjudicate_s, early.rerun.adjudicate_s);
  const double adjudicate_per_event = ratio(late.adjudicate_us_per_event(), early.adjudicate_us_per_event());
  const double fold = ratio(late.fold.ms, early.fold.ms);
  const double snapshot = ratio(double(late.fold.largest_bytes), double(early.fold.largest_bytes));
  const double memory = ratio(double(late.fold_growth_kib()), double(early.fold_growth_kib()));
  const bool meets = submit <= kFlatRatioMax && adjudicate <= kFlatRatioMax && fold <= kFlatRatioMax &&
                     snapshot <= kFlatRatioMax && memory <= kFlatRatioMax && audit_ratio <= kFlatRatioMax;
  JsonLine line("flat");
  line.Str("game", std::string(game)).Str("turn", late.turn.ToString()).Str("mid_turn", mid.turn.ToString())
      .Str("vs_turn", early.turn.ToString());
  for (const auto& [key, p] : {std::pair<const char*, const Point*>{"", &late}, {"mid_", &mid}, {"vs_", &early}}) {
    const std::string k = key;
    line.Int(k + "seq", p->memory.events).Num(k + "submit_ms_per_file", p->submit_ms_per_file(), 3)
        .Int(k + "submit_files", p->rerun.files)
        .Num(k + "played_submit_ms_per_file", p->played_submit_ms_per_file(), 3)
        .Num(k + "adjudicate_seconds", p->rerun.adjudicate_s, 5).Int(k + "adjudicate_events", p->rerun.events)
        .Num(k + "played_adjudicate_seconds", p->played->adjudicate_s, 5)
        .Num(k + "adjudicate_us_per_event", p->adjudicate_us_per_event(), 2).Num(k + "fold_ms", p->fold.ms, 2)
        .Str(k + "largest_snapshot", p->fold.largest).Int(k + "largest_snapshot_bytes", p->fold.largest_bytes)
        .Int(k + "fold_growth_kib", p->fold_growth_kib());
  }
  line.Num("submit_ratio", submit, 3).Num("adjudicate_ratio", adjudicate, 3)
      .Num("adjudicate_per_event_ratio", adjudicate_per_event, 3).Num("audit_ratio", audit_ratio, 3)
      .Num("fold_ratio", fold, 3).Num("snapshot_ratio", snapshot, 3).Num("fold_memory_ratio", memory, 3)
      .Num("submit_ratio_vs_mid", ratio(late.submit_ms_per_file(), mid.submit_ms_per_file()), 3)
      .Num("adjudicate_ratio_vs_mid", ratio(late.rerun.adjudicate_s, mid.rerun.adjudicate_s), 3)
      .Num("adjudicate_per_event_ratio_vs_mid",
           ratio(late.adjudicate_us_per_event(), mid.adjudicate_us_per_event()), 3)
      .Num("fold_ratio_vs_mid", ratio(late.fold.ms, mid.fold.ms), 3)
      .Num("snapshot_ratio_vs_mid", ratio(double(late.fold.largest_bytes), double(mid.fold.largest_bytes)), 3)
      .Num("fold_memory_ratio_vs_mid", ratio(double(late.fold_growth_kib()), double(mid.fold_growth_kib())), 3)
      .Str("target", "the last turn <= 1.25x turn 2 in each: submission per file, adjudicating the turn, audit, "
                     "fold, largest snapshot, a fold's peak memory")
      .Bool("meets_target", meets).Print();
}

// ---- 4. fork and diff ------------------------------------------------------------------

void BenchFork(ledger::Ledger& db, const Config& cfg, const Turn& at_turn) {
  Timer fork_t;
  uint64_t at = Must(replay::ForkPoint(db, kGame, kMain, TurnPhase{at_turn, 0}), "fork point");
  // Fresh dice for the branch, drawn from the seed so that runs repeat.
  uint64_t salt = cfg.seed * 0x2545f4914f6cdd1dULL + 1;
  (void)Must(db.Fork(kGame, kMain, at, kFork, salt, kGa), "fork");
  double fork_s = fork_t.wall();
  Timer carry_t;
  size_t carried = Must(replay::CarryOrders(db, kGame, kMain, kFork, at, at_turn), "carrying the orders over");
  double carry_s = carry_t.wall();
  TurnFigure f;
  AdjudicateTurn(db, kGame, kFork, &f);
  JsonLine("fork").Str("branch", std::string(kFork)).Str("at_turn", at_turn.ToString()).Int("fork_seq", at)
      .Num("fork_ms", 1000 * fork_s, 3).Int("orders_carried", carried).Num("carry_seconds", carry_s, 3)
      .Int("phases", f.phases.size()).Int("events", f.events).Num("adjudicate_seconds", f.adjudicate_s, 3)
      .Str("target", "none (fork --at TURN --with-orders --reseed, then the turn adjudicated on the branch)").Print();

  Timer views_t;
  std::map<replay::ViewKey, std::string> views[2];
  const std::string_view names[2] = {kMain, kFork};
  for (int i = 0; i < 2; ++i) {
    auto w = Must(replay::Fold(db, kGame, names[i]), "folding a branch for its views");
    views[i] = replay::Flatten(w);
  }
  double views_s = views_t.wall();
  Timer compare_t;
  auto diffs = replay::Compare(views[0], views[1]);
  double compare_s = compare_t.wall();
  Timer parting_t;
  uint64_t parted = Must(replay::FirstParting(db, kGame, kMain, kFork), "first parting");
  double parting_s = parting_t.wall();
  std::map<std::string, size_t> by_view;
  for (const auto& d : diffs) by_view[std::get<0>(d.key)]++;
  JsonLine line("diff");
  line.Str("a", std::string(kMain)).Str("b", std::string(kFork)).Int("rows_a", views[0].size())
      .Int("rows_b", views[1].size()).Int("differences", diffs.size());
  for (const auto& [view, n] : by_view) line.Int("differ_" + view, n);
  line.Int("parting_seq", parted).Num("views_seconds", views_s, 3).Num("compare_seconds", compare_s, 3)
      .Num("first_parting_seconds", parting_s, 3).Num("seconds", views_s + compare_s + parting_s, 3)
      .Str("target", "none (what `adjutant diff GAME main whatif` does)").Print();
  if (parted != at + 1) {
    Die("diff", Status::Corruption("the branches part at seq " + std::to_string(parted) + ", not at the fork point " +
                                   std::to_string(at + 1)));
  }
}

// ---- 5. the other kinds: a whole 1820-1840 game and a 12-move battle ------------

// A kind's game from its fixtures, played to its end or to `max_turns`
// turns (moves), every turn's orders submitted as the players would.
struct KindPlan {
  std::string game;      // its name in the ledger
  std::string scenario;  // fixture path (Scenario JSON)
  std::string map;       // fixture path of its map, "" for none
  uint64_t seed = 1;
  int max_turns = 0;
  // The order files of the `i`th turn played (from 0): person and OrderFile JSON.
  std::vector<std::pair<std::string, std::string>> (*orders)(const replay::World& w, int i) = nullptr;
};

void CreateFromFixtures(ledger::Ledger& db, const KindPlan& k) {
  auto sc = Must(schema::ParseJson("Scenario", ReadText(k.scenario), k.scenario), "the scenario " + k.scenario);
  const auto* root = flatbuffers::GetRoot<fb::Scenario>(sc.data());
  const rules::GameKind* kind = Must(replay::KindOfScenario(*root), "the kind of " + k.scenario);
  std::optional<std::vector<uint8_t>> map;
  if (!k.map.empty()) {
    map = Must(schema::ParseJson(std::string(kind->MapTable()), ReadText(k.map), k.map), "the map " + k.map);
  }
  bool map_error = false;
  auto start = Must(replay::PrepareGame(*root, std::move(map), &map_error), "preparing " + k.game);
  (void)Must(db.CreateGame(k.game, k.seed, sc, start.at, kGa, start.more), "creating " + k.game);
}

// The persons holding a role that ends in `post` (".ruler", ".general").
std::vector<std::string> Holders(const replay::World& w, std::string_view post) {
  std::vector<std::string> out;
  for (const auto& [name, p] : w.roster().persons()) {
    for (const auto& role : p.roles) {
      if (role.size() > post.size() && role.compare(role.size() - post.size(), post.size(), post) == 0) {
        out.push_back(name);
        break;
      }
    }
  }
  return out;
}

// Y10: every ruler researches a technology each turn, drawn in turn from
// the table (one already known, or whose prerequisite is not, is refused
// and recorded so: a refusal is part of a real turn too).
std::vector<std::pair<std::string, std::string>> Y1820Orders(const replay::World& w, int i) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto rulers = Holders(w, ".ruler");
  constexpr size_t kN = std::size(rules::y1820::kTechs);
  for (size_t r = 0; r < rulers.size(); ++r) {
    const auto& tech = rules::y1820::kTechs[(static_cast<size_t>(i) + r) % kN];
    std::string item = R"({"body_type": "Y1820Order", "body": {"body_type": "Y1820Research", "body": {"tech": ")" +
                       std::string(tech.id) + R"("}}})";
    out.emplace_back(rulers[r], "{\"orders\": [" + item + "]}");
  }
  return out;
}

// D12: the Talavera brigades' orders of fixtures/orders/dog-talavera for the
// first three moves, then the third's again each move (intents to where the
// units stand: they hold).
std::vector<std::pair<std::string, std::string>> DogOrders(const replay::World&, int i) {
  const std::string dir = std::string(ADJUTANT_FIXTURES) + "/orders/dog-talavera/";
  const std::string m = std::to_string(std::min(i + 1, 3));
  return {{"victor", ReadText(dir + "m" + m + "-French.orders.json")},
          {"wellesley", ReadText(dir + "m" + m + "-British.orders.json")}};
}

void BenchKind(ledger::Ledger& db, Spawner& spawner, const GameDir& wd, const KindPlan& k) {
  CreateFromFixtures(db, k);
  Game g;
  for (int i = 0; i < k.max_turns; ++i) {
    auto w = Must(replay::Fold(db, k.game, kMain), "folding " + k.game);
    const rules::GameKind* kind = w.kind();
    if (!kind || kind->Ended(w.projections)) break;
    TurnFigure f;
    Timer t;
    for (const auto& [person, json] : k.orders(w, i)) {
      auto file = Must(schema::ParseJson("OrderFile", json, person), "the orders of " + person);
      auto rep = Must(replay::SubmitOrders(db, k.game, kMain, person, file), "submitting the orders of " + person);
      f.submissions++;
      f.orders += rep.orders.size();
      f.order_events += rep.append.last_seq - rep.append.first_seq + 1;
      for (const auto& o : rep.orders) {
        if (o.status == "stands") f.stands++;
        else if (o.status == "rejected") f.rejected++;
        else f.superseded++;
      }
    }
    f.submit_s = t.wall();
    f.submit_cpu_s = t.cpu();
    AdjudicateTurn(db, k.game, kMain, &f);
    g.turns.push_back(std::move(f));
  }
  if (g.turns.size() < 3) Die(k.game, Status::Corruption("fewer than three turns played"));
  const Turn second = g.turns[1].turn, last = g.turns.back().turn;
  g.events = Must(db.HeadOf(k.game, kMain), "head").seq;
  double adjudicate = 0, submit = 0;
  for (const TurnFigure& f : g.turns) adjudicate += f.adjudicate_s, submit += f.submit_s;
  JsonLine("kind").Str("game", k.game).Str("scenario", k.scenario).Int("turns", g.turns.size())
      .Str("first_turn", g.turns.front().name).Str("last_turn", g.turns.back().name).Int("events", g.events)
      .Num("submit_seconds", submit, 3).Num("adjudicate_seconds", adjudicate, 3)
      .Str("target", "none (the game played to its end, or to the turns asked)").Print();
  Progress("%s: %zu turns, %" PRIu64 " events; submitted in %.2f s, adjudicated in %.2f s", k.game.c_str(),
           g.turns.size(), g.events, submit, adjudicate);
  const Turn mid = g.turns[g.turns.size() / 2].turn;
  Point pe = Measure(db, spawner, wd, k.game, g, second);
  Point pm = Measure(db, spawner, wd, k.game, g, mid);
  Point pl = Measure(db, spawner, wd, k.game, g, last);
  double audit_ratio = BenchAudit(db, k.game, second, last);
  Point* const points[] = {&pe, &pm, &pl};
  for (size_t i = 0; i < 3; ++i) {
    Progress("%s: turn %s submitted and adjudicated again on %d forks", k.game.c_str(),
             points[i]->turn.ToString().c_str(), kRounds);
    points[i]->rerun = RerunTurn(db, k.game, points[i]->turn, kPointNames[i]);
  }
  PrintFlat(k.game, pe, pm, pl, audit_ratio);
}

// ---- the run ------------------------------------------------------------------------

int Run(int argc, char** argv) {
  Config cfg = ParseArgs(argc, argv);
  Spawner spawner(FoldChild);  // before anything grows this process or starts a thread
  Timer total;
  GameDir wd(cfg);
  Progress("mode %s, seed %" PRIu64 ", %d campaign turns; databases under %s", cfg.mode.c_str(), cfg.seed, cfg.turns,
           cfg.dir.c_str());
  Game g = Play(cfg, wd);

  Progress("copying %" PRIu64 " event records to raw RocksDB (untimed)", g.events);
  CopyToRaw(wd);
  // Settle both stores (a read-write open flushes the memtables and retires
  // the WAL) and read them read-only: no compaction left over from the game
  // competes with the scans.
  (void)OpenRaw(wd.raw_dir(), false);
  (void)Must(ledger::Ledger::Open(wd.ledger_dir()), "settling the ledger");
  PrintDisk(wd, g.events);
  std::array<Point, 3> flat;  // turn 2, the middle and the last campaign turn
  double audit_ratio = 0;
  {
    ledger::OpenOptions ro;
    ro.read_only = true;
    auto db = Must(ledger::Ledger::Open(wd.ledger_dir(), ro), "opening the ledger read-only");
    BenchReplay(wd, *db, g.events);
    const Turn second{kFirstYear, 1, 2};
    // The middle campaign turn of the game (in the turns played).
    std::vector<Turn> campaign;
    for (const TurnFigure& f : g.turns) if (f.campaign) campaign.push_back(f.turn);
    const Turn mid = campaign[campaign.size() / 2];
    flat = {Measure(*db, spawner, wd, kGame, g, second), Measure(*db, spawner, wd, kGame, g, mid),
            Measure(*db, spawner, wd, kGame, g, g.last_campaign_turn)};
    audit_ratio = BenchAudit(*db, kGame, second, g.last_campaign_turn);
  }
  {
    auto db = Must(ledger::Ledger::Open(wd.ledger_dir()), "opening the ledger");
    for (size_t i = 0; i < flat.size(); ++i) {
      Progress("turn %s submitted and adjudicated again on %d forks", flat[i].turn.ToString().c_str(), kRounds);
      flat[i].rerun = RerunTurn(*db, kGame, flat[i].turn, kPointNames[i]);
    }
    PrintFlat(kGame, flat[0], flat[1], flat[2], audit_ratio);
    Progress("fork before %s, adjudicated again with new dice, and diff", g.peace_turn.ToString().c_str());
    BenchFork(*db, cfg, g.peace_turn);
  }
  if (cfg.years > 0) {
    auto db = Must(ledger::Ledger::Open(wd.ledger_dir()), "opening the ledger");
    const std::string f = ADJUTANT_FIXTURES;
    Progress("the 1820-1840 game, to its end");
    BenchKind(*db, spawner, wd, {"y1820", f + "/y1820/europe-1820.json", f + "/y1820/europe-1820.map.json", 1820,
                                 kY1820TurnsMax, Y1820Orders});
    Progress("a Death or Glory battle of %d moves", kDogMoves);
    BenchKind(*db, spawner, wd, {"dog", f + "/dog/talavera-brigade.json", "", 1809, kDogMoves, DogOrders});
  }
  JsonLine("done").Str("mode", cfg.mode).Int("seed", cfg.seed).Int("campaign_turns", cfg.turns)
      .Int("events", g.events).Int("cores", std::thread::hardware_concurrency()).Str("dir", cfg.dir)
      .Bool("dir_removed", cfg.remove_dir).Num("seconds", total.wall(), 1).Str("target", "none").Print();
  return 0;
}

}  // namespace
}  // namespace adjutant::bench

int main(int argc, char** argv) { return adjutant::bench::Run(argc, argv); }
