// The history matrix (issue 18): every history tool on every kind of game
// (tests/support/kinds.h), with the turns adjudicated phase by phase and as
// turns, with and without idempotency keys — generated, not hand-listed:
// kinds × tools × {by phase, by turn} × {keyed, not}. Each cell checks the
// right answer, worked out independently of the tool (the events read back,
// a BLAKE2b of its own, the same game played again under other versions),
// not just an exit status. The tools are driven through the CLI in this
// process (cli::RunShared), as the GA and the desk drive them.
#include <catch2/catch.hpp>

#include <sodium.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <map>
#include <regex>
#include <set>

#include "ledger/ledger.h"
#include "replay/audit.h"
#include "replay/dice_commit.h"
#include "replay/driver.h"
#include "replay/views.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "support/kinds.h"
#include "rules/kind.h"
#include "support/race/race.h"
#include "support/temp_dir.h"
#include "schema/values.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

// ---- the recorded game of a cell --------------------------------------------

struct Cell {
  const GameKind* kind = nullptr;
  bool by_phase = false, keyed = false;
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  Played played;
  int keys = 0;  // keys used by the cell's own adjudications

  const TurnPlan& last() const { return kind->turns.back(); }
  const TurnPlan& first() const { return kind->turns.front(); }
  CliRun Adj(const std::vector<std::string>& args) { return Cli(*db, args); }
  // The GA gives the last turn's directive again on a branch (a fork
  // carries the players' orders, not his directives).
  void GiveDirective(const std::string& branch) {
    const std::string file = dir.Sub("directive-" + branch + ".json");
    std::ofstream(file) << last().directive;
    CliRun r = Adj({"directive", "g", file, "--branch", branch});
    INFO(r.err);
    REQUIRE(r.code == 0);
  }
  // Adjudicates the rest of the branch's current turn as the cell plays.
  void FinishTurn(const std::string& branch) {
    for (;;) {
      const std::string key = keyed ? "cell-" + branch + "-" + std::to_string(++keys) : "";
      auto r = replay::Adjudicate(*db, "g", branch, by_phase ? replay::AdjudicateMode::kPhase : replay::AdjudicateMode::kTurn,
                                  1, std::nullopt, nullptr, nullptr, key);
      INFO((r.ok() ? "" : r.status().message()));
      REQUIRE(r.ok());
      if (!by_phase || r->back().last_of_turn) return;
    }
  }
};

// Each (kind, by phase, keyed) game is played once and copied for each cell.
struct Template {
  TempDir dir;
  Played played;
};

std::unique_ptr<Cell> Recorded(const GameKind& kind, bool by_phase, bool keyed) {
  static std::map<std::tuple<std::string, bool, bool>, std::unique_ptr<Template>> made;
  auto& t = made[{kind.name, by_phase, keyed}];
  if (!t) {
    t = std::make_unique<Template>();
    auto l = ledger::Ledger::Open(t->dir.Sub("db"));
    REQUIRE(l.ok());
    PlayOptions o;
    o.by_phase = by_phase;
    o.keyed = keyed;
    auto p = Play(**l, t->dir.path(), kind, o);
    INFO((p.ok() ? "" : p.status().message()));
    REQUIRE(p.ok());
    t->played = *p;
  }
  auto c = std::make_unique<Cell>();
  c->kind = &kind;
  c->by_phase = by_phase;
  c->keyed = keyed;
  c->played = t->played;
  std::filesystem::copy(t->dir.Sub("db"), c->dir.Sub("db"), std::filesystem::copy_options::recursive);
  auto l = ledger::Ledger::Open(c->dir.Sub("db"));
  REQUIRE(l.ok());
  c->db = std::move(l).value();
  return c;
}

// ---- reading the log back ------------------------------------------------------

struct Ev {
  uint64_t seq = 0;
  TurnPhase at;
  fb::Payload type = fb::Payload_NONE;
  std::string json;
};

std::vector<Ev> Events(ledger::Ledger& db, const std::string& branch, uint64_t from = 1, uint64_t to = UINT64_MAX) {
  std::vector<Ev> out;
  REQUIRE(db.Read("g", branch, from, to, [&](const ledger::EventView& e) {
                Ev ev;
                ev.seq = e.seq;
                const fb::Turn* t = e.event()->turn();
                ev.at = TurnPhase{schema::TurnOf(t), e.event()->phase()};
                ev.type = e.event()->payload_type();
                auto j = schema::ToJson("Event", e.bytes.data());
                REQUIRE(j.ok());
                ev.json = *j;
                out.push_back(std::move(ev));
                return Status::Ok();
              }).ok());
  return out;
}

// An event's JSON without what differs between branches and runs that made
// the same outcome: its seq and every seq it names, its branch, its key, its
// version tag and schema hash.
std::string Outcome(const std::string& json) {
  static const std::regex drop(R"re("(\w*seq|branch|idempotency_key|rules_version|schema_hash)": ("[^"]*"|\d+),?)re");
  return std::regex_replace(json, drop, "");
}

// The seq just before the first event of `at` on main (a fork point).
uint64_t PointBefore(ledger::Ledger& db, const TurnPhase& at) {
  for (const Ev& e : Events(db, "main")) {
    if (e.at.turn == at.turn && e.at.phase >= at.phase) return e.seq - 1;
    if (at.turn < e.at.turn) return e.seq - 1;
  }
  FAIL("main never reaches " << at.turn.ToString() << " phase " << at.phase);
  return 0;
}

// The events of the phases of turn `t` (PhaseStarted to PhaseCompleted).
std::vector<Ev> PhaseEvents(const std::vector<Ev>& all, const Turn& t) {
  std::vector<Ev> out;
  bool in = false;
  for (const Ev& e : all) {
    if (e.at.turn != t) continue;
    if (e.type == fb::Payload_PhaseStarted) in = true;
    if (in) out.push_back(e);
    if (e.type == fb::Payload_PhaseCompleted) in = false;
  }
  return out;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

size_t Count(const std::vector<Ev>& evs, fb::Payload type) {
  return std::count_if(evs.begin(), evs.end(), [&](const Ev& e) { return e.type == type; });
}

std::vector<std::string> Outcomes(const std::vector<Ev>& evs) {
  std::vector<std::string> out;
  for (const Ev& e : evs) {
    if (e.type != fb::Payload_PhaseCompleted) out.push_back(Outcome(e.json));
  }
  return out;
}

// The numbers a JSON answer gives for `field`, in order.
// Top-level fields only: an event quoted inside a string has its newlines escaped.
std::vector<uint64_t> Numbers(const std::string& json, const std::string& field) {
  std::vector<uint64_t> out;
  std::regex re("\"" + field + "\": (\\d+)");
  for (std::sregex_iterator it(json.begin(), json.end(), re), end; it != end; ++it) out.push_back(std::stoull((*it)[1]));
  return out;
}
std::vector<uint64_t> List(const std::string& json, const std::string& field) {
  std::vector<uint64_t> out;
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + field + "\": \\[([^\\]]*)\\]"))) return out;
  std::string inner = m[1];
  std::regex num("\\d+");
  for (std::sregex_iterator it(inner.begin(), inner.end(), num), end; it != end; ++it) out.push_back(std::stoull(it->str()));
  return out;
}

std::map<replay::ViewKey, std::string> Views(ledger::Ledger& db, const std::string& branch, uint64_t upto = UINT64_MAX) {
  auto w = replay::Fold(db, "g", branch, upto);
  REQUIRE(w.ok());
  return replay::Flatten(*w);
}

void SameViews(const std::map<replay::ViewKey, std::string>& a, const std::map<replay::ViewKey, std::string>& b) {
  auto diffs = replay::Compare(a, b);
  for (const auto& d : diffs) {
    UNSCOPED_INFO(std::get<0>(d.key) << " " << std::get<1>(d.key) << " " << std::get<2>(d.key) << ": " << d.a << " | " << d.b);
  }
  CHECK(diffs.empty());
}

// Where a branch stands: the turn and phase of its last PhaseStarted, and
// how many phases it adjudicated.
std::pair<TurnPhase, size_t> Progress(ledger::Ledger& db, const std::string& branch) {
  TurnPhase last;
  size_t phases = 0;
  for (const Ev& e : Events(db, branch)) {
    if (e.type == fb::Payload_PhaseStarted) {
      last = e.at;
      ++phases;
    }
  }
  return {last, phases};
}

std::string Blake2b(ledger::Ledger& db, uint64_t last) {
  REQUIRE(sodium_init() >= 0);
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, crypto_generichash_BYTES);
  REQUIRE(db.Read("g", "main", 1, last, [&](const ledger::EventView& e) {
                std::array<unsigned char, 8> seq{};
                for (int i = 0; i < 8; ++i) seq[i] = static_cast<unsigned char>(e.seq >> (8 * i));
                crypto_generichash_update(&st, seq.data(), seq.size());
                crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(e.bytes.data()), e.bytes.size());
                return Status::Ok();
              }).ok());
  std::array<unsigned char, crypto_generichash_BYTES> out{};
  crypto_generichash_final(&st, out.data(), out.size());
  std::array<char, crypto_generichash_BYTES * 2 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), out.data(), out.size());
  return hex.data();
}

size_t Rows(const std::string& json) {
  size_t n = 0;
  for (size_t at = json.find("\"view\": "); at != std::string::npos; at = json.find("\"view\": ", at + 1)) ++n;
  return n;
}

std::string TurnArg(const Turn& t) { return t.ToString(); }
std::string PhaseArg(const Turn& t, uint16_t phase) { return t.ToString() + "." + std::to_string(phase); }

// The branch's dice with the first roll asked for one pip higher: the
// deliberately broken kind.
class OneRollOff final : public rules::DiceSource {
 public:
  explicit OneRollOff(ledger::Ledger& db) : db_(db) {}
  Result<rules::Roll> Next(const rules::RollRequest& req) override {
    if (!dice_) {
      auto d = replay::BranchDice(db_, "g", "main");
      if (!d.ok()) return d.status();
      dice_ = *d;
    }
    auto r = dice_->Next(req);
    if (r.ok() && !done_ && !r->results.empty()) {
      r->results[0] = r->results[0] % req.sides + 1;
      done_ = true;
    }
    return r;
  }
  bool done_ = false;

 private:
  ledger::Ledger& db_;
  std::optional<rules::CounterDice> dice_;
};

// ---- the tools -------------------------------------------------------------------

struct Tool {
  std::string name;
  std::function<void(const GameKind&, bool by_phase, bool keyed)> run;
};

void AuditAll(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  CliRun r = c->Adj({"audit", "g", "--all", "--json"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  const auto all = Events(*c->db, "main");
  std::vector<uint64_t> phases = Numbers(r.out, "phases"), events = Numbers(r.out, "events");
  REQUIRE(phases.size() == k.turns.size());
  REQUIRE(events.size() == k.turns.size());
  for (size_t i = 0; i < k.turns.size(); ++i) {
    const auto recorded = PhaseEvents(all, k.turns[i].turn);
    CHECK(phases[i] == k.phases_per_turn);
    CHECK(Count(recorded, fb::Payload_PhaseStarted) == k.phases_per_turn);
    CHECK(events[i] == recorded.size());
  }
  CHECK_THAT(r.out, !Catch::Contains("\"identical\": false"));
  if (keyed) {  // the keys really are in the log the audit reproduced
    CHECK_THAT(all.back().json, Catch::Contains("\"idempotency_key\": \"ga-" + k.name));
  }
}

void AuditOlder(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  // The same game played under the older versions from its first phase:
  // the first event of a phase where it parts from the recorded one is the
  // first an audit under those versions must report.
  TempDir dir;
  auto other = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(other.ok());
  PlayOptions o;
  o.by_phase = by_phase;
  o.keyed = keyed;
  o.versions = &k.older;
  REQUIRE(Play(**other, dir.path(), k, o).ok());
  const auto a = Events(*c->db, "main"), b = Events(**other, "main");
  std::map<uint64_t, std::string> theirs;
  for (const Ev& e : b) theirs[e.seq] = Outcome(e.json);
  uint64_t parted = 0;
  Turn parted_turn;
  for (const TurnPlan& t : k.turns) {
    for (const Ev& e : PhaseEvents(a, t.turn)) {
      if (e.type == fb::Payload_PhaseCompleted) continue;  // digests of views folded under other tags
      if (!theirs.count(e.seq) || theirs.at(e.seq) != Outcome(e.json)) {
        parted = e.seq;
        parted_turn = t.turn;
        break;
      }
    }
    if (parted) break;
  }
  CliRun r = c->Adj({"audit", "g", "--all", "--rules-version", k.older_versions});
  INFO(r.out << r.err << "\nthe game under " << k.older_versions << " parts at seq " << parted);
  if (!parted) {
    CHECK(r.code == 0);
    CHECK_THAT(r.out, !Catch::Contains("differs"));
  } else {
    CHECK(r.code == 3);
    CHECK_THAT(r.out, Catch::Contains("turn " + parted_turn.ToString() + ": differs under ") &&
                          Catch::Contains(" at seq " + std::to_string(parted) + ":"));
    for (const TurnPlan& t : k.turns) {  // the turns before it are identical
      if (t.turn == parted_turn) break;
      CHECK_THAT(r.out, Catch::Contains("turn " + t.turn.ToString() + ": ") && !Catch::Contains("turn " + t.turn.ToString() + ": differs"));
    }
  }
}

// A fork at `at` on main, each way: with and without the turn's orders, the
// same dice or new ones. Checks the fork's head and state, then plays the
// rest of the turn on it: with the same dice and orders, the same outcomes.
void ForkAt(Cell& c, const TurnPhase& at) {
  const uint64_t point = PointBefore(*c.db, at);
  const auto main_events = Events(*c.db, "main");
  size_t orders = 0;  // orders of the turn above the point
  for (const Ev& e : main_events) {
    if (e.seq > point && e.type == fb::Payload_OrderSubmitted && e.at == TurnPhase{at.turn, 0}) ++orders;
  }
  if (at.phase > 0) REQUIRE(orders == 0);  // a phase's fork point lies after its turn's orders
  const auto parent_views = Views(*c.db, "main", point);
  for (bool with_orders : {false, true}) {
    for (bool reseed : {false, true}) {
      const std::string name = std::string("f") + (with_orders ? "-orders" : "") + (reseed ? "-reseeded" : "");
      INFO("fork " << name);
      {
        std::vector<std::string> args = {"fork", "g", "--at", at.phase ? PhaseArg(at.turn, at.phase) : TurnArg(at.turn),
                                         "--name", name, "--json"};
        if (with_orders) args.push_back("--with-orders");
        if (reseed) args.push_back("--reseed");
        CliRun r = c.Adj(args);
        INFO(r.out << r.err);
        REQUIRE(r.code == 0);
        const auto fork = Events(*c.db, name, point + 1);
        REQUIRE_FALSE(fork.empty());
        CHECK(fork.front().seq == point + 1);
        CHECK(fork.front().type == fb::Payload_BranchForked);
        CHECK(Count(fork, fb::Payload_OrderSubmitted) == (with_orders ? orders : 0));
        CHECK(Numbers(r.out, "last_seq") == std::vector<uint64_t>{fork.back().seq});
        CHECK((c.db->Branch("g", name)->dice_salt == c.db->Branch("g", "main")->dice_salt) == !reseed);
        // The fork's state is its parent's at the point.
        SameViews(parent_views, Views(*c.db, name, point + 1));
        // Played on: the rest of the turn — with the GA's directive of the
        // window given again when the point is before it.
        if (at.phase == 0 && with_orders) c.GiveDirective(name);
        c.FinishTurn(name);
        const auto played = PhaseEvents(Events(*c.db, name, point + 1), at.turn);
        const auto original = PhaseEvents(Events(*c.db, "main", point + 1), at.turn);
        CHECK(Count(played, fb::Payload_PhaseStarted) == Count(original, fb::Payload_PhaseStarted));
        if (!reseed && (with_orders || orders == 0)) {
          CHECK(Outcomes(played) == Outcomes(original));  // the same game
          SameViews(Views(*c.db, "main"), Views(*c.db, name));
        }
        CliRun audit = c.Adj({"audit", "g", "--branch", name, "--all"});
        INFO(audit.out << audit.err);
        CHECK(audit.code == 0);
      }
    }
  }
}

void ForkTurn(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  ForkAt(*c, TurnPhase{c->last().turn, 0});
}

void ForkPhase(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  ForkAt(*c, TurnPhase{c->last().turn, k.fork_phase});
}

void ForkComing(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  CliRun r = c->Adj({"fork", "g", "--at", TurnArg(k.coming), "--name", "next", "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(c->db->HeadOf("g", "next")->seq == c->played.head + 1);
  SameViews(Views(*c->db, "main"), Views(*c->db, "next"));
}

void Correct(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  const std::string file = c->dir.Sub("correction.json");
  std::ofstream(file) << k.correction;
  const std::string at = TurnArg(c->last().turn);
  const uint64_t later = c->played.later_directive_seq;
  REQUIRE(later != 0);
  const auto old = Progress(*c->db, "main");
  // Every later order and directive carried: a ruling changes nothing.
  CliRun r = c->Adj({"correct", "g", "--at", at, "--directive", file, "--name", "c", "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(List(r.out, "carried") == std::vector<uint64_t>{later});
  CHECK(List(r.out, "left_out").empty());
  CHECK(Progress(*c->db, "c") == old);
  SameViews(Views(*c->db, "main"), Views(*c->db, "c"));
  const std::string directive = [&] {
    for (const Ev& e : Events(*c->db, "main", later, later)) return Outcome(e.json);
    return std::string();
  }();
  const uint64_t point = PointBefore(*c->db, TurnPhase{c->last().turn, 0});
  auto holds = [&](const std::string& branch) {
    for (const Ev& e : Events(*c->db, branch, point + 1)) {
      if (Outcome(e.json) == directive) return true;
    }
    return false;
  };
  CHECK(holds("c"));
  size_t orders_then = 0, orders_now = 0;
  for (const Ev& e : Events(*c->db, "main", point + 1)) orders_then += e.type == fb::Payload_OrderSubmitted;
  for (const Ev& e : Events(*c->db, "c", point + 1)) orders_now += e.type == fb::Payload_OrderSubmitted;
  CHECK(orders_now == orders_then);
  CliRun audit = c->Adj({"audit", "g", "--branch", "c", "--all"});
  INFO(audit.out << audit.err);
  CHECK(audit.code == 0);
  // The later directive left out: not on the corrected branch, which still
  // gets as far as the old one.
  CliRun left = c->Adj({"correct", "g", "--branch", "main", "--at", at, "--directive", file, "--name", "c2",
                        "--leave-out", std::to_string(later), "--json"});
  INFO(left.out << left.err);
  REQUIRE(left.code == 0);
  CHECK(List(left.out, "carried").empty());
  CHECK(List(left.out, "left_out") == std::vector<uint64_t>{later});
  CHECK_FALSE(holds("c2"));
  CHECK(Progress(*c->db, "c2") == old);
}

// A branch forked with new dice, corrected at a turn below its fork point
// (issue 5's last known problem): the turns below the fork point are played
// again with the dice they were first rolled with (main's), on a branch of
// their own, and the rest with the fork's own, on the branch the GA named.
// A ruling changes nothing: every phase rolls and ends as it did.
void CorrectBelowNewDice(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  CliRun fork = c->Adj({"fork", "g", "--at", TurnArg(c->last().turn), "--name", "f", "--with-orders", "--reseed"});
  INFO(fork.out << fork.err);
  REQUIRE(fork.code == 0);
  c->GiveDirective("f");
  c->FinishTurn("f");
  const std::string file = c->dir.Sub("correction.json");
  std::ofstream(file) << k.correction;
  CliRun r = c->Adj({"correct", "g", "--branch", "f", "--at", TurnArg(c->first().turn), "--directive", file,
                     "--name", "c"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(*c->db->Current("g") == "c");
  CHECK(Progress(*c->db, "c") == Progress(*c->db, "f"));
  SameViews(Views(*c->db, "f"), Views(*c->db, "c"));
  const std::vector<Ev> was = Events(*c->db, "f"), now = Events(*c->db, "c");
  CHECK(Count(PhaseEvents(now, c->last().turn), fb::Payload_DieRolled) > 0);  // the fork's own dice are rolled
  for (const TurnPlan& t : k.turns) {
    INFO("turn " << t.turn.ToString());
    CHECK(Outcomes(PhaseEvents(now, t.turn)) == Outcomes(PhaseEvents(was, t.turn)));
  }
  CliRun audit = c->Adj({"audit", "g", "--branch", "c", "--all"});
  INFO(audit.out << audit.err);
  CHECK(audit.code == 0);
  // The turns below f's fork point on a branch of their own with main's dice.
  CHECK_THAT(r.out, Catch::Contains("played on c-part1 (the dice of main), then c (the dice of f)"));
  auto part = c->db->Branch("g", "c-part1");
  auto corrected = c->db->Branch("g", "c");
  REQUIRE(part.ok());
  REQUIRE(corrected.ok());
  CHECK(part->parent == "f");
  CHECK(corrected->parent == "c-part1");
  CHECK(part->dice_salt == c->db->Branch("g", "main")->dice_salt);
  CHECK(corrected->dice_salt == c->db->Branch("g", "f")->dice_salt);
}

void Diff(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  const uint64_t point = PointBefore(*c->db, TurnPhase{c->last().turn, 0});
  REQUIRE(c->Adj({"fork", "g", "--at", TurnArg(c->last().turn), "--name", "f", "--with-orders"}).code == 0);
  c->GiveDirective("f");
  c->FinishTurn("f");
  CliRun r = c->Adj({"diff", "g", "main", "f", "--json"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(Numbers(r.out, "parted_at") == std::vector<uint64_t>{point + 1});
  // The same orders and dice: the same views.
  CHECK_THAT(r.out, !Catch::Contains("\"view\""));
  // Against a branch where the GA changed something: the rows that differ, and only those.
  REQUIRE(c->Adj({"fork", "g", "--at", PhaseArg(c->first().turn, 1), "--name", "early"}).code == 0);
  const uint64_t early = PointBefore(*c->db, TurnPhase{c->first().turn, 1});
  CliRun e = c->Adj({"diff", "g", "main", "early", "--json"});
  CHECK(e.code == 0);
  CHECK(Numbers(e.out, "parted_at") == std::vector<uint64_t>{early + 1});
  const auto expected = replay::Compare(Views(*c->db, "main"), Views(*c->db, "early"));
  CHECK(Rows(e.out) == expected.size());
  CHECK(expected.size() > 0);
}

void Replay(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  for (const TurnPlan& t : k.turns) {
    // The end of turn t: the last event before the next turn's first.
    uint64_t end = 0;
    for (const Ev& e : Events(*c->db, "main")) {
      if (!(t.turn < e.at.turn)) end = e.seq;
    }
    CliRun r = c->Adj({"replay", "g", "--to", TurnArg(t.turn), "--json"});
    INFO(t.turn.ToString() << r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(Numbers(r.out, "as_of") == std::vector<uint64_t>{end});
    const auto views = Views(*c->db, "main", end);
    CHECK(Rows(r.out) == views.size());
    for (const auto& [key, value] : views) {
      const std::string entity = "\"entity\": \"" + std::get<1>(key) + "\"";
      if (r.out.find(entity) == std::string::npos) {
        FAIL_CHECK("no row " << entity);
        break;
      }
    }
  }
}

// digest --turn T and verify --digest: the digest is BLAKE2b-256 over every
// event up to the end of T (seq, then bytes), computed here on its own.
void DigestOf(Cell& c, const Turn& t, uint64_t end) {
  CliRun r = c.Adj({"digest", "g", "--turn", TurnArg(t), "--json"});
  INFO(t.ToString() << r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(Numbers(r.out, "last_seq") == std::vector<uint64_t>{end});
  CHECK(Numbers(r.out, "events") == std::vector<uint64_t>{end});
  const std::string hex = Blake2b(*c.db, end);
  CHECK_THAT(r.out, Catch::Contains("\"digest\": \"" + hex + "\""));
  CHECK(c.Adj({"verify", "g", "--turn", TurnArg(t), "--digest", hex}).code == 0);
  std::string wrong = hex;
  wrong[7] = wrong[7] == '0' ? '1' : '0';
  CHECK(c.Adj({"verify", "g", "--turn", TurnArg(t), "--digest", wrong}).code == 3);
}

void DigestPast(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  DigestOf(*c, c->first().turn, PointBefore(*c->db, TurnPhase{k.turns[1].turn, 0}));
}

void DigestLast(const GameKind& k, bool by_phase, bool keyed) {
  auto c = Recorded(k, by_phase, keyed);
  DigestOf(*c, c->last().turn, c->played.head);
}

// dice-commit before the first turn, adjudicated with the salt; dice-reveal
// after; verify --dice recomputes every roll; the audit uses the salt — on
// main and on a branch forked after the reveal at a point before it.
void Dice(const GameKind& k, bool by_phase, bool keyed) {
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  auto& db = **l;
  const std::string salt = "d1ce" + std::string(60, '5');
  const std::string salt_file = dir.Sub("salt");
  std::ofstream(salt_file) << salt << "\n";
  const Turn t = k.turns.front().turn;
  if (!k.takes_dice_commitments) {
    PlayOptions o;
    o.by_phase = by_phase;
    o.keyed = keyed;
    REQUIRE(Play(db, dir.path(), k, o).ok());
    const uint64_t head = db.HeadOf("g", "main")->seq;
    CliRun r = Cli(db, {"dice-commit", "g", "--turn", TurnArg(k.coming), "--salt-file", salt_file});
    CHECK(r.code == 2);
    CHECK(db.HeadOf("g", "main")->seq == head);
    return;
  }
  PlayOptions o;
  o.by_phase = by_phase;
  o.keyed = keyed;
  o.first_turn_salt = salt;
  auto p = Play(db, dir.path(), k, o);
  INFO((p.ok() ? "" : p.status().message()));
  REQUIRE(p.ok());
  CHECK(Cli(db, {"verify", "g", "--turn", TurnArg(t), "--dice"}).code == 2);  // not revealed yet
  CHECK(Cli(db, {"audit", "g", "--turn", TurnArg(t)}).code == 4);            // nor audited
  CliRun reveal = Cli(db, {"dice-reveal", "g", "--turn", TurnArg(t), "--salt-file", salt_file});
  INFO(reveal.err);
  REQUIRE(reveal.code == 0);
  size_t rolls = 0;  // the adjudicator's rolls of the turn
  for (const Ev& e : PhaseEvents(Events(db, "main"), t)) rolls += e.type == fb::Payload_DieRolled;
  for (const std::string branch : {"main", "f"}) {
    if (branch == "f") {  // forked after the reveal, at a point before it
      REQUIRE(Cli(db, {"fork", "g", "--at", TurnArg(k.turns[1].turn), "--name", "f"}).code == 0);
    }
    CliRun v = Cli(db, {"verify", "g", "--branch", branch, "--turn", TurnArg(t), "--dice"});
    INFO(branch << v.out << v.err);
    CHECK(v.code == 0);
    CHECK_THAT(v.out, Catch::Contains(std::to_string(rolls) + " roll(s)"));
    CliRun a = Cli(db, {"audit", "g", "--branch", branch, "--all"});
    INFO(a.out << a.err);
    CHECK(a.code == 0);
  }
}

// A deliberately broken kind: the last turn rolled with one die changed.
// The audit must name exactly the seq of that roll, in every kind.
void Broken(const GameKind& k, bool by_phase, bool keyed) {
  TempDir dir;
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  auto& db = **l;
  OneRollOff off(db);  // the branch's dice, one roll changed
  PlayOptions o;
  o.by_phase = by_phase;
  o.keyed = keyed;
  o.last_turn_dice = &off;
  REQUIRE(Play(db, dir.path(), k, o).ok());
  REQUIRE(off.done_);  // the last turn rolls at least one die
  uint64_t changed = 0;
  for (const Ev& e : PhaseEvents(Events(db, "main"), k.turns.back().turn)) {
    if (e.type == fb::Payload_DieRolled) {
      changed = e.seq;
      break;
    }
  }
  REQUIRE(changed != 0);
  CliRun r = Cli(db, {"audit", "g", "--all", "--json"});
  INFO(r.out << r.err);
  CHECK(r.code == 3);
  // One turn differs, the last, at the changed roll; the turns before are identical.
  std::vector<uint64_t> seqs = Numbers(r.out, "seq");
  seqs.erase(std::remove(seqs.begin(), seqs.end(), 0), seqs.end());
  CHECK(seqs == std::vector<uint64_t>{changed});
  CHECK(Count(r.out, "\"identical\": true") == k.turns.size() - 1);
  CHECK(Count(r.out, "\"identical\": false") == 1);
  CHECK_THAT(r.out, Catch::Contains("\"reason\": \"the event differs\""));
}

const std::vector<Tool>& Tools() {
  static const std::vector<Tool> tools = {
      {"audit --all", AuditAll},
      {"audit under an older rules version", AuditOlder},
      {"fork --at a turn", ForkTurn},
      {"fork --at a phase", ForkPhase},
      {"fork --at the coming turn", ForkComing},
      {"correct", Correct},
      {"correct below a fork with new dice", CorrectBelowNewDice},
      {"diff", Diff},
      {"replay", Replay},
      {"digest of a past turn", DigestPast},
      {"digest of the last turn", DigestLast},
      {"dice commit / reveal / verify --dice", Dice},
      {"audit of a deliberately broken kind", Broken},
  };
  return tools;
}

}  // namespace

TEST_CASE("history matrix: every history tool on every kind of game, by phase and by turn, with and without keys",
          "[history][matrix]") {
  const auto& kinds = GameKinds();
  const auto& tools = Tools();
  const size_t kind = GENERATE_COPY(range(size_t{0}, kinds.size()));
  const size_t tool = GENERATE_COPY(range(size_t{0}, tools.size()));
  const bool by_phase = GENERATE(false, true);
  const bool keyed = GENERATE(false, true);
  const GameKind& k = kinds[kind];
  const Tool& t = tools[tool];
  DYNAMIC_SECTION(k.name << " | " << t.name << " | " << (by_phase ? "by phase" : "by turn") << " | "
                         << (keyed ? "--key" : "no key")) {
    t.run(k, by_phase, keyed);
  }
}

TEST_CASE("history matrix: the kind table is whole", "[history][matrix]") {
  std::set<std::string> names;
  for (const GameKind& k : GameKinds()) {
    INFO(k.name);
    CHECK(names.insert(k.name).second);
    REQUIRE(k.turns.size() >= 2);
    CHECK_FALSE(k.turns.back().directive.empty());
    CHECK_FALSE(k.turns.back().orders.empty());
    CHECK(k.fork_phase >= 1);
    CHECK(k.fork_phase <= k.phases_per_turn);
    CHECK(k.turns.back().turn < k.coming);
  }
  // Every kind of game the registry has (rules/kind.h), the test-only race included, has its row.
  for (const rules::GameKind* k : rules::AllKinds()) CHECK(names.count(std::string(k->name())));
}
