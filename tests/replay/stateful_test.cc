// Random histories of one NWOL game (sow + pate, support/pate_game.h's small
// scenario) as a rapidcheck state machine (issue 5): orders valid and not
// from any person, GA directives the rules accept and refuse, adjudication
// by phase or by turn, forks at past turns and phases (with the orders of
// the turn or without, the same dice or new ones) that the game continues
// on, and corrections at past turns that become the game's current branch.
// After every command, on the branch the game is on:
//  - every branch's chain verifies;
//  - rebuilding every projection from event 1 gives the digests each phase
//    recorded as it ran, and the encodings a fold from snapshots gives;
//  - every adjudicated turn audits identical;
//  - the last complete turn, forked before it and played again from the
//    same orders and dice, gives the same events after the fork point (less
//    their branch name and the one-event shift of the fork's own event) and
//    the same views;
//  - ships, money and men keep the rulesets' invariants, refused orders
//    have no effect, and no player's report names what his ships did not see.
// And each command's own: a refused submission, directive or correction
// writes nothing; a correction makes its branch the game's current one.
//
// Known problems these properties find are kept out of the histories
// until they are fixed, each where it is kept out ("Known problem") and
// counted in the distribution the test prints. None is kept out now: the
// three issue 5 left (a fork at the first turn's start, a correction that
// changes the calendar, a correction below a fork point with new dice)
// are fixed, and the histories give them (each classified).
//
// A failure prints rapidcheck's seed and the RC_PARAMS that replays the
// smallest failing history (shrinking stops after kTimeBudget); rerun it
// alone with, e.g.,
//   RC_PARAMS="seed=1234" build/tests/adjutant_tests "[stateful]"
// or RC_PARAMS="reproduce=..." as printed (add noshrink=1 to skip
// shrinking). The bounds below hold whatever RC_PARAMS says, so that CI on
// two cores (and under ASan) stays quick.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <chrono>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "ledger/ledger.h"
#include "projections/projection.h"
#include "replay/audit.h"
#include "replay/correct.h"
#include "replay/driver.h"
#include "replay/fork.h"
#include "replay/rebuild.h"
#include "replay/views.h"
#include "rules/sow/calendar.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "support/nwol_invariants.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"
#include "schema/values.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;
namespace sow = adjutant::rules::sow;

namespace {

// Bounds of one history, and of the search.
constexpr int kHistories = 12;        // rapidcheck's max_success
constexpr double kLengthScale = 0.3;  // of rapidcheck's size (0..100): a history has up to 31 commands
constexpr int kValueSize = 100;       // the size commands draw their values at, whatever the history's
constexpr int kAdjudicationsMax = 8;  // adjudicate commands per history (a phase or a turn each)
constexpr int kForksMax = 3;
constexpr int kCorrectionsMax = 2;
constexpr uint64_t kSnapshotEvery = 61;  // snapshots written this often by the checks (a cache the folds then use)
// Each try at shrinking a failure plays a whole history with every check:
// past this much time in all, the tries stop (see the property).
constexpr auto kTimeBudget = std::chrono::minutes(5);

const Actor kGa{ActorKind::kGameAdministrator, "", ""};
const char* kGame = "g";

int Pick(int n) { return *rc::gen::inRange(0, n); }

std::vector<uint8_t> Buffer(const char* table, const std::string& json) {
  auto buf = schema::ParseJson(table, json, "generated");
  if (!buf.ok()) RC_FAIL("the test made a bad " + std::string(table) + ": " + buf.status().message() + "\n" + json);
  return *buf;
}

struct Game;
bool StandsInAWindowByDirective(Game& g);

// ---- the game under test, and its checks ----------------------------------------

// One event's chain hash: it commits to every event up to it, so it keys
// what a check found about that history, on whichever branch it is read.
Hash128 HashAt(ledger::Ledger& db, const std::string& branch, uint64_t seq) {
  Hash128 h;
  RC_ASSERT(db.Read(kGame, branch, seq, seq, [&](const ledger::EventView& e) {
                h = e.hash;
                return Status::Ok();
              }).ok());
  return h;
}

std::string Key(const Hash128& h) { return std::to_string(h.hi) + ":" + std::to_string(h.lo); }

struct Game {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  std::string current = "main";  // the branch the game is on
  int made = 0;                  // branches made, for their names
  int64_t men = 0;               // every man of the opening (SOW 3, PATE 3.4)
  // What earlier checks found true, by the chain hash of the history they
  // read (the log is append-only: the same hash, the same history).
  std::set<std::string> audited, replayed, leak_free, acted;

  explicit Game(uint64_t seed) {
    auto opened = ledger::Ledger::Open(dir.Sub("db"));
    RC_ASSERT(opened.ok());
    db = std::move(opened).value();
    RC_ASSERT(CreateNwolGame(*db, kGame, PateScenario(), seed).ok());
    men = MenLedger(Nwol(*db, kGame));
  }

  std::string NewName(const char* prefix) { return prefix + std::to_string(++made); }
  uint64_t Head(const std::string& branch) { return db->HeadOf(kGame, branch)->seq; }
  size_t BranchCount() { return db->Branches(kGame)->size(); }

  // The turns of the current branch with their last event so far, and
  // whether all their phases ran.
  struct TurnSpan {
    Turn turn;
    uint64_t first = 0, last = 0;  // first: the turn's first event (its orders window)
    bool complete = false;
  };
  std::vector<TurnSpan> Turns() {
    std::vector<TurnSpan> out;
    auto turns = replay::AdjudicatedTurns(*db, kGame, current);
    RC_ASSERT(turns.ok());
    for (const Turn& t : *turns) {
      TurnSpan s{t};
      auto first = db->SeekTurn(kGame, current, TurnPhase{t, 0});
      RC_ASSERT(first.ok() && first->has_value());
      s.first = **first;
      // Events are in turn order: the first of another turn ends this one.
      Status read = db->Read(kGame, current, s.first, UINT64_MAX, [&](const ledger::EventView& e) {
        const fb::Turn* et = e.event()->turn();
        if (!et || schema::TurnOf(et) != t) return Status::NotFound("the next turn");
        s.last = e.seq;
        if (e.event()->payload_type() == fb::Payload_PhaseCompleted &&
            e.event()->phase() == sow::LastPhaseOf(t, true)) {
          s.complete = true;
        }
        return Status::Ok();
      });
      RC_ASSERT(read.ok() || read.code() == Status::Code::kNotFound);
      out.push_back(s);
    }
    return out;
  }

  void CheckAll() {
    CheckChains();
    CheckRebuild();
    CheckInvariants();
    std::vector<TurnSpan> turns = Turns();
    CheckAudits(turns);
    CheckRefusals();
    CheckLeaks(turns);
    CheckForkReplay(turns);
  }

  // Every branch's chain verifies (ledger inv. 2, 7), and the current one is known.
  void CheckChains() {
    auto branches = db->Branches(kGame);
    RC_ASSERT(branches.ok());
    for (const auto& b : *branches) {
      auto v = db->Verify(kGame, b.name);
      RC_ASSERT(v.ok());
      if (!v->ok)
        RC_FAIL("branch " + b.name + " does not verify at seq " + std::to_string(v->bad_seq) + ": " + v->reason);
    }
  }

  // DESIGN inv. 6: a fold from event 1 gives, at each PhaseCompleted, the
  // digests the phase recorded as it ran, and at the head the encodings of
  // a fold that starts from snapshots (written here often, so the folds of
  // the commands and checks that follow start from them too).
  void CheckRebuild() {
    auto zero = P::AllProjections();
    std::vector<P::Projection*> all;
    for (auto& p : zero) all.push_back(p.get());
    for (auto* p : all) p->Reset();
    std::string bad;
    Status read = db->Read(kGame, current, 1, UINT64_MAX, [&](const ledger::EventView& e) {
      if (auto* pc = e.event()->payload_as_PhaseCompleted()) {
        // The projections this game has (a y1820 one has no part in an NWOL game).
        std::vector<P::Projection*> ps;
        for (auto* p : all) if (p->applies()) ps.push_back(p);
        if (!pc->digests() || pc->digests()->size() != ps.size()) {
          bad = "PhaseCompleted at seq " + std::to_string(e.seq) + " of " + current +
                " records another number of digests";
          return Status::Conflict(bad);
        }
        for (size_t i = 0; i < ps.size(); ++i) {
          const auto* d = pc->digests()->Get(i);
          Hash128 now = ps[i]->Digest();
          if (d->projection()->str() != ps[i]->name() || d->digest()->hi() != now.hi || d->digest()->lo() != now.lo) {
            bad = "PhaseCompleted at seq " + std::to_string(e.seq) + " of " + current + " records " +
                  d->projection()->str() + "'s digest otherwise than a fold from event 1 gives";
            return Status::Conflict(bad);
          }
        }
      }
      P::Input in{e.seq, e.event(), e.bytes};
      for (auto* p : all) p->Apply(in);
      return Status::Ok();
    });
    if (!bad.empty()) RC_FAIL(bad);
    const std::vector<P::Projection*>& ps = all;
    RC_ASSERT(read.ok());
    auto with_snapshots = P::AllProjections();
    std::vector<P::Projection*> qs;
    for (auto& p : with_snapshots) qs.push_back(p.get());
    RC_ASSERT(
        replay::Rebuild(*db, kGame, current, UINT64_MAX, qs, {.use_snapshots = true, .snapshot_every = kSnapshotEvery})
            .ok());
    auto folded = replay::Fold(*db, kGame, current);
    RC_ASSERT(folded.ok());
    auto fresh = P::AllProjections();
    std::vector<P::Projection*> rs;
    for (auto& p : fresh) rs.push_back(p.get());
    RC_ASSERT(replay::Rebuild(*db, kGame, current, UINT64_MAX, rs, {.use_snapshots = false}).ok());
    for (size_t i = 0; i < ps.size(); ++i) {
      const std::string name(ps[i]->name());
      if (ps[i]->Encode() != rs[i]->Encode()) RC_FAIL(name + ": folding event by event and Rebuild from zero differ");
      if (qs[i]->Encode() != rs[i]->Encode()) RC_FAIL(name + ": Rebuild from snapshots differs from Rebuild from zero");
      if (folded->projections[i]->Encode() != rs[i]->Encode()) RC_FAIL(name + ": Fold differs from Rebuild from zero");
    }
  }

  // Ships in one place and within their ratings (PATE), money (SOW 2) and
  // men (SOW 3, PATE 3.4, 7, 8) all accounted for.
  void CheckInvariants() {
    const NwolState s = Nwol(*db, kGame, current);
    if (std::string broken = ShipInvariantBroken(s); !broken.empty()) RC_FAIL(current + ": " + broken);
    if (std::string broken = MoneyBroken(s); !broken.empty()) RC_FAIL(current + ": " + broken);
    if (MenLedger(s) != men) {
      RC_FAIL(current + ": the game counts " + std::to_string(MenLedger(s)) + " men, the opening " +
              std::to_string(men));
    }
  }

  // Every adjudicated turn of the current branch audits identical.
  void CheckAudits(const std::vector<TurnSpan>& turns) {
    for (const auto& t : turns) {
      std::string key = Key(HashAt(*db, current, t.last));
      if (audited.count(key)) continue;
      auto a = replay::AuditTurn(*db, kGame, current, t.turn);
      if (!a.ok()) RC_FAIL("audit of " + t.turn.ToString() + " on " + current + ": " + a.status().message());
      if (!a->identical) {
        RC_FAIL("turn " + t.turn.ToString() + " of " + current + " audits different at seq " + std::to_string(a->seq) +
                " (" + a->reason + ")\nrecorded: " + a->recorded + "\nproduced: " + a->produced);
      }
      audited.insert(key);
    }
  }

  // A refused order has no effect: within each phase, and within each
  // stretch of submissions between phases, no outcome names an order
  // refused there.
  void CheckRefusals() {
    std::vector<std::pair<uint64_t, uint64_t>> stretches;
    uint64_t from = 1;
    RC_ASSERT(db->Read(kGame, current, 1, UINT64_MAX, [&](const ledger::EventView& e) {
                  auto kind = e.event()->payload_type();
                  if (kind == fb::Payload_PhaseStarted || kind == fb::Payload_PhaseCompleted) {
                    uint64_t to = kind == fb::Payload_PhaseStarted ? e.seq - 1 : e.seq;
                    if (to >= from) stretches.emplace_back(from, to);
                    from = to + 1;
                  }
                  return Status::Ok();
                }).ok());
    stretches.emplace_back(from, Head(current));
    for (const auto& [a, b] : stretches) {
      if (b < a) continue;
      std::string key = Key(HashAt(*db, current, b)) + "/" + std::to_string(a);
      if (acted.count(key)) continue;
      auto r = RefusedOrderActed(*db, kGame, current, a, b);
      RC_ASSERT(r.ok());
      if (!r->empty()) RC_FAIL(*r);
      acted.insert(key);
    }
  }

  // DESIGN inv. 8, for every complete turn of the current branch.
  void CheckLeaks(const std::vector<TurnSpan>& turns) {
    for (const auto& t : turns) {
      if (!t.complete) continue;
      std::string key = Key(HashAt(*db, current, t.last));
      if (leak_free.count(key)) continue;
      auto leak = ReportLeak(*db, kGame, current, t.turn);
      if (!leak.ok()) RC_FAIL("reports of " + t.turn.ToString() + " on " + current + ": " + leak.status().message());
      if (!leak->empty()) RC_FAIL(*leak);
      leak_free.insert(key);
    }
  }

  // One event as JSON, with what a fork changes taken out: the branch's
  // name, and every sequence number after the fork point one less (the fork
  // holds its BranchForked event there). PhaseCompleted's digests cover
  // sequence numbers too: CheckRebuild holds them to the fork's own events.
  static std::string Normalized(const ledger::EventView& e, uint64_t point, bool shifted) {
    static const std::regex kBranch("\"branch\": \"[^\"]*\",?");
    static const std::regex kSeq("\"(seq|order_seq|by_seq)\": ([0-9]+)");
    static const std::regex kDigests("\"digests\": \\[[^\\]]*\\],?");
    auto json = schema::ToJson("Event", e.bytes.data());
    if (!json.ok()) return "(not readable: " + json.status().message() + ")";
    std::string s = std::regex_replace(*json, kBranch, "");
    s = std::regex_replace(s, kDigests, "");
    std::string out;
    auto last = s.cbegin();
    for (std::sregex_iterator it(s.begin(), s.end(), kSeq), end; it != end; ++it) {
      uint64_t v = std::stoull((*it)[2].str());
      if (shifted && v > point) v -= 1;
      out.append(last, (*it)[0].first).append("\"" + (*it)[1].str() + "\": " + std::to_string(v));
      last = (*it)[0].second;
    }
    return out.append(last, s.cend());
  }

  // The last complete turn of the current branch, forked before it and
  // played again: the same orders (carried over) and the same dice give the
  // same events and views. When the GA gave directives during the turn, or
  // the branch itself was forked inside it, the fork is made after the last
  // of those, before the next phase, and needs no orders.
  void CheckForkReplay(const std::vector<TurnSpan>& turns) {
    const TurnSpan* t = nullptr;
    for (const auto& s : turns)
      if (s.complete) t = &s;
    if (!t) return;
    std::string key = Key(HashAt(*db, current, t->last));
    if (replayed.count(key)) return;
    // What was given between the turn's phases, and the phase it follows.
    bool in_phase = false, only_orders = true;
    int after = -1;
    RC_ASSERT(db->Read(kGame, current, t->first, t->last, [&](const ledger::EventView& e) {
                  const fb::Event& ev = *e.event();
                  auto kind = ev.payload_type();
                  if (kind == fb::Payload_PhaseStarted) in_phase = true;
                  bool input = !in_phase;
                  if (kind == fb::Payload_PhaseCompleted) in_phase = false;
                  if (!input) return Status::Ok();
                  bool order = kind == fb::Payload_OrderSubmitted || kind == fb::Payload_OrderRejected ||
                               kind == fb::Payload_OrderSuperseded ||
                               (kind == fb::Payload_PateEvent &&
                                ev.payload_as_PateEvent()->body_type() == fb::PateEventBody_CommandAssigned);
                  if (!order || ev.phase() != 0) {
                    only_orders = false;
                    after = std::max<int>(after, ev.phase());
                  }
                  return Status::Ok();
                }).ok());
    const uint16_t last_phase = sow::LastPhaseOf(t->turn, true);
    const uint16_t from_phase = only_orders ? 0 : static_cast<uint16_t>(after + 1);
    if (from_phase > last_phase) return;
    auto point = replay::ForkPoint(*db, kGame, current, TurnPhase{t->turn, from_phase});
    RC_ASSERT(point.ok());
    // The same dice: those of the branch that wrote the events after the
    // point, which is an ancestor's when the current branch forked later.
    std::string writer;
    RC_ASSERT(db->Read(kGame, current, *point + 1, *point + 1, [&](const ledger::EventView& e) {
                  writer = e.event()->branch()->str();
                  return Status::Ok();
                }).ok());
    auto written_by = db->Branch(kGame, writer);
    RC_ASSERT(written_by.ok());
    const std::string again = NewName("x");
    RC_ASSERT(db->Fork(kGame, current, *point, again, written_by->dice_salt, kGa).ok());
    if (from_phase == 0) RC_ASSERT(replay::CarryOrders(*db, kGame, current, again, *point, t->turn).ok());
    for (int p = std::max<int>(from_phase, 1); p <= last_phase; ++p) {
      auto r = replay::Adjudicate(*db, kGame, again, replay::AdjudicateMode::kPhase);
      if (!r.ok()) RC_FAIL("playing " + t->turn.ToString() + " again on " + again + ": " + r.status().message());
    }
    // Event for event, after the fork point.
    std::vector<std::string> was, now;
    RC_ASSERT(db->Read(kGame, current, *point + 1, t->last, [&](const ledger::EventView& e) {
                  was.push_back(Normalized(e, *point, false));
                  return Status::Ok();
                }).ok());
    RC_ASSERT(db->Read(kGame, again, *point + 2, UINT64_MAX, [&](const ledger::EventView& e) {
                  now.push_back(Normalized(e, *point, true));
                  return Status::Ok();
                }).ok());
    for (size_t i = 0; i < std::max(was.size(), now.size()); ++i) {
      const std::string a = i < was.size() ? was[i] : "(none)", b = i < now.size() ? now[i] : "(none)";
      if (a != b) {
        RC_FAIL("turn " + t->turn.ToString() + " of " + current + " played again from phase " +
                std::to_string(from_phase) + " on " + again + " parts at seq " + std::to_string(*point + 1 + i) +
                " of " + current + "\nthere: " + a + "\nagain: " + b);
      }
    }
    auto x = replay::Fold(*db, kGame, current, t->last);
    auto y = replay::Fold(*db, kGame, again);
    RC_ASSERT(x.ok() && y.ok());
    for (const auto& d : replay::Compare(replay::Flatten(*x), replay::Flatten(*y))) {
      RC_FAIL("turn " + t->turn.ToString() + " played again on " + again + ": " + std::get<0>(d.key) + " " +
              std::get<1>(d.key) + " " + std::get<2>(d.key) + " is '" + d.a + "' there, '" + d.b + "' again");
    }
    replayed.insert(key);
  }
};

// Since the last phase ran, the branch holds a GA directive and no order.
bool StandsInAWindowByDirective(Game& g) {
  bool directive = false, order = false;
  RC_ASSERT(g.db->Read(kGame, g.current, 1, UINT64_MAX,
                       [&](const ledger::EventView& e) {
                         auto kind = e.event()->payload_type();
                         if (kind == fb::Payload_PhaseCompleted) directive = order = false;
                         directive |= kind == fb::Payload_Directive;
                         order |= kind == fb::Payload_OrderSubmitted;
                         return Status::Ok();
                       })
                .ok());
  return directive && !order;
}

// Some event after `point` of the current branch was rolled with other dice
// than the current branch's: written by an ancestor forked from with a new salt.
bool OtherDiceAfter(Game& g, uint64_t point) {
  std::set<std::string> writers;
  RC_ASSERT(g.db->Read(kGame, g.current, point + 1, UINT64_MAX,
                       [&](const ledger::EventView& e) {
                         writers.insert(e.event()->branch()->str());
                         return Status::Ok();
                       })
                .ok());
  const uint64_t salt = g.db->Branch(kGame, g.current)->dice_salt;
  for (const auto& w : writers) {
    if (g.db->Branch(kGame, w)->dice_salt != salt) return true;
  }
  return false;
}

// ---- the commands ---------------------------------------------------------------

// The model is a budget: what the rules do with each command is the real
// game's to say, and the checks judge it.
struct Budget {
  int adjudications = 0, forks = 0, corrections = 0;
};

using Command = rc::state::Command<Budget, Game>;

struct SubmitOrders final : Command {
  std::string person = Pick(12) ? OneOf(PersonNames()) : "nobody";
  std::string file = [this] {
    std::vector<std::string> items;
    for (int n = *rc::gen::inRange(1, 4); n > 0; --n) items.push_back(RandomOrderItem(person));
    return OrderFile(items);
  }();

  void run(const Budget&, Game& g) const override {
    const uint64_t head = g.Head(g.current);
    auto r = replay::SubmitOrders(*g.db, kGame, g.current, person, Buffer("OrderFile", file));
    if (!r.ok()) {
      // Nobody of the game, or orders while a turn is part-way: refused whole.
      RC_ASSERT(r.status().code() == Status::Code::kInvalidArgument || r.status().code() == Status::Code::kConflict);
      RC_ASSERT(g.Head(g.current) == head);
      return;
    }
    RC_ASSERT(r->append.first_seq == head + 1);
    RC_ASSERT(g.Head(g.current) == r->append.last_seq);
    for (const auto& o : r->orders)
      RC_ASSERT(o.status == "stands" || o.status == "rejected" || o.status == "superseded");
  }
  void show(std::ostream& os) const override { os << "orders from " << person << ": " << file; }
};

struct GiveDirective final : Command {
  std::string file = RandomDirectiveFile();

  void run(const Budget&, Game& g) const override {
    const uint64_t head = g.Head(g.current);
    const size_t branches = g.BranchCount();
    auto r = replay::RecordDirective(*g.db, kGame, g.current, Buffer("DirectiveFile", file));
    if (file.find("\"MoveShip\"") != std::string::npos) {
      RC_CLASSIFY(r.ok() && file.find("\"in_port\": false, \"coastal\": false") != std::string::npos,
                  "a ship the GA put at sea");
    }
    if (!r.ok()) {
      // DESIGN inv. 9: a refused directive appends nothing.
      RC_ASSERT(g.Head(g.current) == head);
      RC_ASSERT(g.BranchCount() == branches);
      return;
    }
    RC_ASSERT(r->first_seq == head + 1);
    RC_ASSERT(g.Head(g.current) == r->last_seq);
  }
  void show(std::ostream& os) const override { os << "directive " << file; }
};

struct Adjudicate final : Command {
  bool whole_turn = Pick(3) > 0;

  void checkPreconditions(const Budget& m) const override { RC_PRE(m.adjudications < kAdjudicationsMax); }
  void apply(Budget& m) const override { m.adjudications++; }
  void run(const Budget&, Game& g) const override {
    const uint64_t head = g.Head(g.current);
    auto r = replay::Adjudicate(*g.db, kGame, g.current,
                                whole_turn ? replay::AdjudicateMode::kTurn : replay::AdjudicateMode::kPhase);
    if (!r.ok()) RC_FAIL("adjudicate on " + g.current + ": " + r.status().message());
    RC_ASSERT(!r->empty());
    RC_ASSERT(r->front().first_seq == head + 1);
    for (size_t i = 1; i < r->size(); ++i) RC_ASSERT((*r)[i].first_seq == (*r)[i - 1].last_seq + 1);
    RC_ASSERT(g.Head(g.current) == r->back().last_seq);
  }
  void show(std::ostream& os) const override { os << "adjudicate a " << (whole_turn ? "turn" : "phase"); }
};

struct ForkAndContinue final : Command {
  size_t turn = *rc::gen::arbitrary<size_t>();
  int phase = Pick(12);
  bool with_orders = Pick(2);
  std::optional<uint64_t> salt = Pick(3) ? std::nullopt : std::optional<uint64_t>(*rc::gen::arbitrary<uint64_t>());

  void checkPreconditions(const Budget& m) const override { RC_PRE(m.forks < kForksMax); }
  void apply(Budget& m) const override { m.forks++; }
  void run(const Budget&, Game& g) const override {
    auto turns = replay::AdjudicatedTurns(*g.db, kGame, g.current);
    RC_ASSERT(turns.ok());
    if (turns->empty()) return;  // no past turn to fork at yet
    const Turn t = (*turns)[turn % turns->size()];
    const uint16_t at = with_orders ? 0 : static_cast<uint16_t>(phase % (sow::LastPhaseOf(t, true) + 1));
    auto point = replay::ForkPoint(*g.db, kGame, g.current, TurnPhase{t, at});
    if (!point.ok()) {
      RC_ASSERT(point.status().code() == Status::Code::kNotFound);  // a phase not reached yet
      return;
    }
    // Before the first turn's orders the point is just after the game's
    // creation (once a known problem: ForkPoint answered 0, where no branch
    // can fork).
    RC_ASSERT(*point > 0);
    RC_CLASSIFY(t == turns->front() && at == 0, "fork at the first turn's start");
    const std::string name = g.NewName("f");
    auto b = g.db->Fork(kGame, g.current, *point, name, salt, kGa);
    if (!b.ok()) RC_FAIL("fork " + name + " at " + std::to_string(*point) + ": " + b.status().message());
    if (at == 0 && with_orders) {
      auto carried = replay::CarryOrders(*g.db, kGame, g.current, name, *point, t);
      if (!carried.ok())
        RC_FAIL("carrying the orders of " + t.ToString() + " to " + name + ": " + carried.status().message());
    }
    g.current = name;
  }
  void show(std::ostream& os) const override {
    // Everything the command holds is shown: the test tells histories apart by it.
    os << "fork at past turn #" << turn << (with_orders ? " with its orders" : " phase #" + std::to_string(phase))
       << (salt ? " reseeded with " + std::to_string(*salt) : "") << ", and continue there";
  }
};

struct CorrectPastTurn final : Command {
  size_t turn = *rc::gen::arbitrary<size_t>();
  std::string file =
      Pick(2) ? R"({"reason": "test", "body_type": "Ruling", "body": {"text": "corrected"}})" : RandomDirectiveFile();

  void checkPreconditions(const Budget& m) const override { RC_PRE(m.corrections < kCorrectionsMax); }
  void apply(Budget& m) const override { m.corrections++; }
  void run(const Budget&, Game& g) const override {
    auto turns = replay::AdjudicatedTurns(*g.db, kGame, g.current);
    RC_ASSERT(turns.ok());
    if (turns->empty()) return;
    const Turn t = (*turns)[turn % turns->size()];
    auto point = replay::ForkPoint(*g.db, kGame, g.current, TurnPhase{t, 0});
    RC_ASSERT(point.ok());
    RC_ASSERT(*point > 0);  // the first turn's is just after the game's creation (see ForkAndContinue)
    // A correction that changes the calendar (EndCampaign, SetSeasonKind)
    // was once kept out (issue 5): the corrected branch could pass the old
    // one's position. It now stops where a later input cannot be given, and
    // says so (below).
    const bool calendar =
        file.find("\"EndCampaign\"") != std::string::npos || file.find("\"SetSeasonKind\"") != std::string::npos;
    RC_CLASSIFY(calendar, "correction changing the calendar");
    // (A branch standing in a turn's orders window through a directive
    // alone was once a known problem: the GA's later directives were not
    // given again. They are now, at their positions: such corrections are given.)
    RC_CLASSIFY(StandsInAWindowByDirective(g), "correction after a directive in the next orders window");
    // A correction below a fork point where the branch took new dice was
    // once kept out (issue 5): the corrected turns were played with the
    // branch's dice, not those they were rolled with. Each is now played
    // again with its own, on a branch of its own (replay/correct.h
    // CorrectReport::segments): the checks below and after the command
    // (audit, a ruling changes no view) judge it.
    RC_CLASSIFY(OtherDiceAfter(g, *point), "correction across a reseeded fork point");
    const std::string name = g.NewName("c");
    const size_t branches = g.BranchCount();
    const uint64_t head = g.Head(g.current);
    const std::string was = *g.db->Current(kGame);
    const auto before = replay::Flatten(*replay::Fold(*g.db, kGame, g.current));
    auto r = replay::Correct(*g.db, kGame, g.current, TurnPhase{t, 0}, Buffer("DirectiveFile", file), name);
    if (!r.ok()) {
      RC_LOG() << "correction refused: " << r.status().message() << "\n";
      RC_ASSERT(g.Head(g.current) == head);
      RC_ASSERT(*g.db->Current(kGame) == was);
      // A correction refused before its branch was forked writes nothing.
      // One that the replay stopped (a later directive or order it made
      // impossible) leaves its branch as far as it got, as replay/correct.cc
      // says and its message tells the GA; the game's current branch and
      // the corrected one are untouched either way.
      std::smatch left;
      const std::string message = r.status().message();
      if (std::regex_search(message, left,
                            std::regex("the correction stopped: branch '(" + name + "(-part[0-9]+)?)' was left as far as it got"))) {
        RC_CLASSIFY(true, "correction stopped by a later input it made impossible");
        // The branch it stopped on, and the segments before it (one a dice).
        RC_ASSERT(g.BranchCount() > branches);
        RC_ASSERT(g.db->Branch(kGame, left[1].str()).ok());
      } else {
        RC_ASSERT(g.BranchCount() == branches);
      }
      return;
    }
    RC_ASSERT(r->branch == name);
    RC_ASSERT(*g.db->Current(kGame) == name);
    RC_ASSERT(g.BranchCount() == branches + 1 + r->segments.size());
    RC_CLASSIFY(true, "a correction made");
    RC_CLASSIFY(!r->segments.empty(), "a correction played in dice segments");
    // A ruling changes no view: with every later order given again and no
    // later directive left out, the corrected game stands where the old did.
    if (file.find("\"Ruling\"") != std::string::npos && r->directives_left_out.empty()) {
      auto after = replay::Flatten(*replay::Fold(*g.db, kGame, name));
      for (const auto& d : replay::Compare(before, after)) {
        RC_FAIL("corrected by a ruling at " + t.ToString() + ", " + std::get<0>(d.key) + " " + std::get<1>(d.key) +
                " " + std::get<2>(d.key) + " is '" + d.b + "', was '" + d.a + "'");
      }
    }
    g.current = name;
  }
  void show(std::ostream& os) const override { os << "correct past turn #" << turn << " with " << file; }
};

// Each command, then every check.
template <class C>
struct Checked final : Command {
  C command;
  void checkPreconditions(const Budget& m) const override { command.checkPreconditions(m); }
  void apply(Budget& m) const override { command.apply(m); }
  void run(const Budget& m, Game& g) const override {
    command.run(m, g);
    g.CheckAll();
  }
  void show(std::ostream& os) const override { command.show(os); }
};

template <class C>
rc::Gen<std::shared_ptr<const Command>> Make() {
  return rc::gen::exec([] { return std::shared_ptr<const Command>(std::make_shared<const Checked<C>>()); });
}

// rc::prop, bounded: rapidcheck/catch.h's rc::prop takes its parameters
// from RC_PARAMS (100 cases by default, too many histories for CI); here
// the seed, any reproduce string and max_size still come from RC_PARAMS,
// the number of histories (at most) and their length are this test's.
template <class Testable>
void BoundedProp(const std::string& description, Testable&& testable) {
  using namespace rc::detail;
  SECTION(description) {
    TestParams params = configuration().testParams;
    params.maxSuccess = std::min(params.maxSuccess, kHistories);
    const TestMetadata meta{"replay/stateful: " + description, description};
    const auto result = checkTestable(std::forward<Testable>(testable), meta, params);
    std::ostringstream ss;
    printResultMessage(result, ss);
    if (result.template is<SuccessResult>()) {
      std::cout << "- " << description << "\n" << ss.str() << "\n";
      SUCCEED();
    } else {
      std::string again;
      if (result.template is<FailureResult>()) {
        Configuration c = configuration();
        c.testParams = params;
        c.reproduce = {{meta.id, result.template get<FailureResult>().reproduce}};
        again = configToMinimalString(c);
      }
      INFO(ss.str() << "\nrapidcheck seed " << params.seed << "; this history alone: RC_PARAMS=\"" << again << "\"\n");
      FAIL();
    }
  }
}

}  // namespace

TEST_CASE("replay stateful: random NWOL histories keep every invariant after every command",
          "[replay][stateful][property]") {
  const auto deadline = std::chrono::steady_clock::now() + kTimeBudget;
  std::map<std::string, rc::detail::CaseResult> failing;  // histories seen failing, as shown
  BoundedProp(
      "orders, directives, adjudication, forks and corrections; chain, rebuild, audit, fork-and-replay, "
      "conservation, refusals, report leaks after each",
      [deadline, &failing] {
        const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
        // rc::state::check, with the history's length scaled down apart from the
        // size its commands draw their values at (rapidcheck scales ranges by it).
        const auto history = *rc::gen::scale(kLengthScale, rc::state::gen::commands(Budget{}, [](const Budget&) {
                                               return rc::gen::resize(
                                                   kValueSize, rc::gen::weightedOneOf<std::shared_ptr<const Command>>({
                                                                   {4, Make<SubmitOrders>()},
                                                                   {2, Make<GiveDirective>()},
                                                                   {4, Make<Adjudicate>()},
                                                                   {1, Make<ForkAndContinue>()},
                                                                   {1, Make<CorrectPastTurn>()},
                                                               }));
                                             }));
        std::ostringstream shown;
        shown << seed;
        for (const auto& c : history) c->show(shown << "\n");
        // Past the time budget (in practice only while shrinking) a history is
        // not played: one seen failing fails as it did, any other passes, and
        // rapidcheck soon reports the smallest failing history found so far.
        if (std::chrono::steady_clock::now() > deadline) {
          auto seen = failing.find(shown.str());
          if (seen != failing.end()) throw seen->second;
          RC_SUCCEED("past the test's time budget");
        }
        RC_LOG() << "game seed " << seed << "\n";
        try {
          Game g(seed);
          g.CheckAll();
          rc::state::runAll(history, Budget{}, g);
          // What the histories exercised (printed by the test).
          RC_CLASSIFY(g.current != "main", "ended on a fork or a correction");
          RC_CLASSIFY(g.Turns().size() >= 2, "two turns or more");
        } catch (const rc::detail::CaseResult& r) {
          if (r.type == rc::detail::CaseResult::Type::Failure) failing.emplace(shown.str(), r);
          throw;
        } catch (const std::exception& e) {
          failing.emplace(shown.str(), rc::detail::CaseResult(rc::detail::CaseResult::Type::Failure, e.what()));
          throw;
        }
      });
}
