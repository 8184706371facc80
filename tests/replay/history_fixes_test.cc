// History tools that misfired (issue 18), each proved here on the case that
// showed it: an audit of a turn adjudicated with --key; an audit under an
// older dog rules version; a correction that dropped the GA's later
// directives; a fork that did not see its parent's dice reveal; a
// correction below a fork point with new dice that rolled the turns below
// it with the fork's dice (found by the stateful property).
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <tuple>

#include "ledger/ledger.h"
#include "replay/audit.h"
#include "replay/correct.h"
#include "replay/dice_commit.h"
#include "replay/driver.h"
#include "replay/fork.h"
#include "replay/views.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "support/kinds.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"
#include "schema/values.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

// The branch's dice, but the first roll asked for comes up one pip higher
// (wrapping): a phase adjudicated with it holds one roll the branch's dice
// would not have made.
class OneRollOff final : public rules::DiceSource {
 public:
  explicit OneRollOff(rules::CounterDice dice) : dice_(std::move(dice)) {}
  Result<rules::Roll> Next(const rules::RollRequest& req) override {
    auto r = dice_.Next(req);
    if (r.ok() && !done_ && !r->results.empty()) {
      r->results[0] = r->results[0] % req.sides + 1;
      done_ = true;
    }
    return r;
  }
  bool done() const { return done_; }

 private:
  rules::CounterDice dice_;
  bool done_ = false;
};

std::vector<uint8_t> Buf(const std::string& type, const std::string& json) {
  auto b = schema::ParseJson(type, json, type);
  REQUIRE(b.ok());
  return *b;
}

std::string DiceJson(const std::string& kind, const Turn& t, const std::string& field, const std::string& value) {
  return "{\"reason\": \"dice\", \"body_type\": \"" + kind + "\", \"body\": {\"turn\": {\"major\": " +
         std::to_string(t.major) + ", \"minor\": " + std::to_string(t.minor) + ", \"step\": " + std::to_string(t.step) +
         "}, \"" + field + "\": \"" + value + "\"}}";
}

// The seq of the first roll the adjudicator made in turn `t` of a branch.
uint64_t FirstRoll(ledger::Ledger& db, const std::string& branch, const Turn& t) {
  uint64_t first = 0;
  REQUIRE(db.Read("g", branch, 1, UINT64_MAX, [&](const ledger::EventView& e) {
                const fb::Turn* et = e.event()->turn();
                if (!first && e.event()->payload_type() == fb::Payload_DieRolled && et &&
                    schema::TurnOf(et) == t) {
                  first = e.seq;
                }
                return Status::Ok();
              }).ok());
  return first;
}

}  // namespace

TEST_CASE("audit: a turn adjudicated with --key audits identical, phase by phase or as a turn", "[history][audit][idempotency]") {
  NwolDb g(5);
  const Turn t1{1805, 1, 1}, t2{1805, 1, 2};
  REQUIRE(Order(*g.db, "g", "nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "NOS"})")})).ok());
  // Turn 1 phase by phase, each phase under its own key.
  for (int i = 1;; ++i) {
    auto r = replay::Adjudicate(*g.db, "g", "main", replay::AdjudicateMode::kPhase, 1, std::nullopt, nullptr, nullptr,
                                "p-" + std::to_string(i));
    REQUIRE(r.ok());
    if (r->back().last_of_turn) break;
  }
  // Turn 2 as a turn, under one key (recorded with its last phase).
  REQUIRE(replay::Adjudicate(*g.db, "g", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr, "t-2").ok());
  for (const Turn& t : {t1, t2}) {
    auto a = replay::AuditTurn(*g.db, "g", "main", t);
    REQUIRE(a.ok());
    INFO(t.ToString() << ": " << a->reason << " at seq " << a->seq << "\nrecorded " << a->recorded << "\nproduced "
                      << a->produced);
    CHECK(a->identical);
    CHECK(a->phases == 11);
  }
  // The CLI's audit --all: identical, exit 0 (it was 3: the recorded key was not in the re-run).
  for (const Turn& t : {t1, t2}) {
    CliRun one = Cli(*g.db, {"audit", "g", "--turn", t.ToString()});
    INFO(one.out << one.err);
    CHECK(one.code == 0);
    CHECK_THAT(one.out, Catch::Contains("turn " + t.ToString() + ": ") && Catch::Contains(" events, identical"));
  }
  CliRun all = Cli(*g.db, {"audit", "g", "--all"});
  CHECK(all.code == 0);
  CHECK_THAT(all.out, Catch::Contains("turn 1805.1.1: ") && Catch::Contains("turn 1805.1.2: ") &&
                          !Catch::Contains("differs"));
}

TEST_CASE("audit: the key does not hide a changed outcome of a keyed turn", "[history][audit][idempotency]") {
  for (auto mode : {replay::AdjudicateMode::kPhase, replay::AdjudicateMode::kTurn}) {
    NwolDb g(5);
    auto dice = replay::BranchDice(*g.db, "g", "main");
    REQUIRE(dice.ok());
    OneRollOff off(*dice);
    for (int i = 1;; ++i) {
      auto r = replay::Adjudicate(*g.db, "g", "main", mode, 1, std::nullopt, &off, nullptr, "k-" + std::to_string(i));
      REQUIRE(r.ok());
      if (r->back().last_of_turn) break;
    }
    REQUIRE(off.done());
    auto a = replay::AuditTurn(*g.db, "g", "main", Turn{1805, 1, 1});
    REQUIRE(a.ok());
    CHECK_FALSE(a->identical);
    CHECK(a->seq == FirstRoll(*g.db, "main", Turn{1805, 1, 1}));
    CHECK(a->reason == "the event differs");
  }
}

TEST_CASE("audit --rules-version dog=1 re-runs a battle under version 1, not the version recorded",
          "[history][audit][versions][dog]") {
  const GameKind& dog = GameKinds().at(2);
  REQUIRE(dog.name == "dog");
  // The battle as recorded (dog=2), and the same battle played under dog=1
  // from its first move: where they part is where version 1 adjudicates
  // otherwise — the first difference an audit under dog=1 must report. That
  // may be a move's end, whose events are the same but whose state is not
  // (version 1 does not carry a commander with the unit he rides with): the
  // audit must fold what it re-runs as version 1 (ARCHITECTURE I17).
  TempDir dir;
  auto recorded = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(recorded.ok());
  auto played = Play(**recorded, dir.path(), dog, {});
  INFO((played.ok() ? "" : played.status().message()));
  REQUIRE(played.ok());
  TempDir dir1;
  auto under1 = ledger::Ledger::Open(dir1.Sub("db"));
  REQUIRE(under1.ok());
  PlayOptions v1;
  v1.versions = &dog.older;
  REQUIRE(Play(**under1, dir1.path(), dog, v1).ok());
  uint64_t parted = 0;
  Turn parted_turn;
  std::map<uint64_t, std::string> a, b;
  auto collect = [](ledger::Ledger& db, std::map<uint64_t, std::string>* out) {
    REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                  // A phase's end: its views' digests, but for the summary's,
                  // which records the versions in use (an audit keeps the tags).
                  if (const auto* pc = e.event()->payload_as_PhaseCompleted()) {
                    std::string s = pc->name()->str();
                    for (const auto* d : *pc->digests()) {
                      if (d->projection()->str() == "summary") continue;
                      s += " " + d->projection()->str() + "@" + std::to_string(d->version()) + ":" +
                           std::to_string(d->digest()->hi()) + "." + std::to_string(d->digest()->lo());
                    }
                    (*out)[e.seq] = s;
                    return Status::Ok();
                  }
                  auto j = schema::ToJson("Event", e.bytes.data());
                  REQUIRE(j.ok());
                  std::string s = *j;
                  for (const std::string key : {"\"rules_version\": ", "\"schema_hash\": "}) {
                    for (size_t at = s.find(key); at != std::string::npos; at = s.find(key, at)) {
                      s.erase(at, s.find_first_of(",}\n", at) - at);
                    }
                  }
                  (*out)[e.seq] = s;
                  return Status::Ok();
                }).ok());
  };
  collect(**recorded, &a);
  collect(**under1, &b);
  for (const auto& [seq, json] : a) {
    if (!b.count(seq) || b.at(seq) != json) {
      parted = seq;
      break;
    }
  }
  REQUIRE(parted != 0);  // version 1 adjudicates this battle otherwise
  REQUIRE((*recorded)->Read("g", "main", parted, parted, [&](const ledger::EventView& e) {
                        parted_turn = schema::TurnOf(e.event()->turn());
                        return Status::Ok();
                      }).ok());
  // Under the version recorded: identical. Under dog=1: the first difference, exactly.
  CHECK(Cli(**recorded, {"audit", "g", "--all"}).code == 0);
  CliRun under = Cli(**recorded, {"audit", "g", "--all", "--rules-version", "dog=1"});
  CHECK(under.code == 3);
  CHECK_THAT(under.out, Catch::Contains("turn " + parted_turn.ToString() + ": differs under dog=1 at seq " +
                                        std::to_string(parted) + ":"));
  auto direct = replay::AuditTurn(**recorded, "g", "main", parted_turn, dog.older);
  REQUIRE(direct.ok());
  CHECK_FALSE(direct->identical);
  CHECK(direct->seq == parted);
  // The produced event keeps the recorded version tag: only the outcome differs.
  CHECK_THAT(direct->produced, Catch::Contains("\"rules_version\": " + std::to_string(rules::LatestVersion("dog"))));
}

TEST_CASE("audit --rules-version dog=1 folds what it re-runs as version 1 (a commander left behind)",
          "[history][audit][versions][dog]") {
  // One battalion with its brigadier marches 100 mm; nothing else happens.
  // Versions 1 and 2 make the same event (DogMoved), but version 2 carries
  // the brigadier with the battalion (D12.7) and version 1 leaves him: the
  // state the move leaves differs. An audit under dog=1 must say so at the
  // move's end — with the battle's digest a game played under dog=1 records.
  TempDir dir;
  const std::string sc = dir.Sub("two.json");
  std::ofstream(sc) << R"({"name": "Two battalions", "rulesets": ["dog"],
    "players": [{"person": "wellesley", "roles": ["British.general"]}, {"person": "victor", "roles": ["French.general"]}],
    "dog": {"width": 1800, "height": 1200, "sides": ["British", "French"], "moves": 4,
      "commanders": [
        {"id": "BR-STEWART", "side": "British", "name": "Stewart", "rating": 10, "control": 1, "x": 560, "y": 300},
        {"id": "FR-RUFFIN", "side": "French", "name": "Ruffin", "rating": 10, "control": 1, "x": 1500, "y": 1100}],
      "units": [
        {"id": "BR-29", "side": "British", "name": "29th Foot", "nation": "British", "arm": "Infantry", "class": "Veteran",
         "formation": "Line", "cohesion": "Formed", "fatigue": "Fresh", "strength": 600, "x": 560, "y": 300, "facing": 180,
         "frontage": 0, "morale": 8, "control": 3, "commander": "BR-STEWART"},
        {"id": "FR-24L-1", "side": "French", "name": "24e Ligne", "nation": "French", "arm": "Infantry", "class": "Line",
         "formation": "ColumnOfDivisions", "cohesion": "Formed", "fatigue": "Fresh", "strength": 600, "x": 1500, "y": 1100,
         "facing": 0, "frontage": 0, "morale": 7, "control": 2, "commander": "FR-RUFFIN"}]}})";
  const std::string orders = dir.Sub("br.json");
  std::ofstream(orders) << R"({"orders": [{"body_type": "DogOrder", "body": {"body_type": "DogIntent",
    "body": {"unit": "BR-29", "path": [{"x": 560, "y": 400}]}}}]})";
  // The move's end: the battle's digest, and the seq.
  auto play = [&](const std::string& db, const std::vector<std::string>& adjudicate_extra) {
    REQUIRE(Adjutant({"--db", db, "new", "g", "--scenario", sc, "--seed", "5"}).code == 0);
    REQUIRE(AdjutantWithInput({"--db", db, "password", "g", "--person", "wellesley", "--password-file", "-"},
                              "pw-wellesley-1\n").code == 0);
    REQUIRE(Adjutant({"--db", db, "order", "g", orders, "--as", "wellesley"}, {"ADJUTANT_PASSWORD=pw-wellesley-1"}).code == 0);
    std::vector<std::string> adj = {"--db", db, "adjudicate", "g"};
    adj.insert(adj.end(), adjudicate_extra.begin(), adjudicate_extra.end());
    Run r = Adjutant(adj);
    INFO(r.err);
    REQUIRE(r.code == 0);
    auto l = ledger::Ledger::Open(db);
    REQUIRE(l.ok());
    std::pair<uint64_t, std::string> end{0, ""};
    std::vector<std::string> moved;
    REQUIRE((*l)->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                  if (const auto* pc = e.event()->payload_as_PhaseCompleted()) {
                    for (const auto* d : *pc->digests()) {
                      if (d->projection()->str() == "battle") end = {e.seq, std::to_string(d->digest()->hi())};
                    }
                  } else if (e.event()->payload_type() == fb::Payload_DogEvent) {
                    auto j = schema::ToJson("Event", e.bytes.data());
                    REQUIRE(j.ok());
                    moved.push_back(j->substr(j->find("\"payload_type\"")));
                  }
                  return Status::Ok();
                }).ok());
    return std::make_tuple(end.first, end.second, moved);
  };
  const auto [end2, battle2, events2] = play(dir.Sub("v2"), {});
  const auto [end1, battle1, events1] = play(dir.Sub("v1"), {"--rules-version", "dog=1"});
  REQUIRE(events2.size() == 1);
  REQUIRE(events1 == events2);  // the same march, event for event
  REQUIRE(end1 == end2);
  REQUIRE(battle1 != battle2);  // ... but not the same state after it

  Run same = Adjutant({"--db", dir.Sub("v2"), "audit", "g", "--all"});
  CHECK(same.code == 0);
  Run under = Adjutant({"--db", dir.Sub("v2"), "audit", "g", "--all", "--rules-version", "dog=1"});
  CHECK(under.code == 3);
  CHECK_THAT(under.out, Catch::Contains("differs under dog=1 at seq " + std::to_string(end2) +
                                        ": the state the phase leaves differs (battle)"));
  // The state it re-ran to is the one version 1 leaves.
  CHECK_THAT(under.out, Catch::Contains("\"projection\": \"battle\",\"digest\": {\"hi\": " + battle1 + ","));
  // And the other way: a game played under dog=1 audits identical under
  // its own version, and differs under dog=2 at the same place.
  CHECK(Adjutant({"--db", dir.Sub("v1"), "audit", "g", "--all"}).code == 0);
  Run over = Adjutant({"--db", dir.Sub("v1"), "audit", "g", "--all", "--rules-version", "dog=2"});
  CHECK(over.code == 3);
  CHECK_THAT(over.out, Catch::Contains("at seq " + std::to_string(end1) + ": the state the phase leaves differs (battle)"));
}

namespace {

const char* kRuling = R"({"reason": "a ruling", "body_type": "Ruling", "body": {"text": "the blockade stands"}})";

// Turn 1 played; in turn 2's window a player's orders and the GA's
// blockade, then turn 2 played.
struct Blockade : NwolDb {
  uint64_t blockade = 0, order = 0;
  Blockade() : NwolDb(21) {
    REQUIRE(Turns(*db, "g", 1).ok());
    auto o = Order(*db, "g", "villeneuve", OrderFile({PateItem("ShipOrders", R"({"ship": "FR1FR", "sea1": "NOS"})")}));
    REQUIRE(o.ok());
    order = o->orders.at(0).seq;
    auto d = Directive(*db, "g", "DeclareBlockade", R"({"by": "BR", "against": "FR"})");
    REQUIRE(d.ok());
    blockade = d->first_seq;
    REQUIRE(Turns(*db, "g", 1).ok());
  }
  // The DeclareBlockade directives a branch holds after seq `after`.
  int Blockades(const std::string& branch, uint64_t after) {
    int n = 0;
    REQUIRE(db->Read("g", branch, after + 1, UINT64_MAX, [&](const ledger::EventView& e) {
                  const auto* d = e.event()->payload_as_Directive();
                  const auto* sd = d ? d->body_as_SowDirective() : nullptr;
                  if (sd && sd->body_type() == fb::SowDirectiveBody_DeclareBlockade) ++n;
                  return Status::Ok();
                }).ok());
    return n;
  }
};

}  // namespace

TEST_CASE("correct: the GA's later directives are carried at their positions — --leave-out leaves out those named",
          "[history][correct]") {
  Blockade g;
  const TurnPhase at{Turn{1805, 1, 2}, 0};
  auto carried = replay::Correct(*g.db, "g", "main", at, Buf("DirectiveFile", kRuling), "carried");
  INFO((carried.ok() ? "" : carried.status().message()));
  REQUIRE(carried.ok());
  CHECK(carried->directives_carried == std::vector<uint64_t>{g.blockade});
  CHECK(carried->directives_left_out.empty());
  CHECK(g.Blockades("carried", carried->fork_seq) == 1);
  // At its position: turn 2's orders window, before turn 2 was adjudicated again.
  const auto fixed = Treasury(*g.db, "g", "carried"), old = Treasury(*g.db, "g", "main");
  CHECK(fixed.turn == old.turn);
  CHECK(fixed.phase_done == old.phase_done);
  // A ruling changes nothing: with the blockade carried, the corrected game is the old one.
  auto a = replay::Flatten(*replay::Fold(*g.db, "g", "main"));
  auto b = replay::Flatten(*replay::Fold(*g.db, "g", "carried"));
  auto diffs = replay::Compare(a, b);
  for (const auto& d : diffs) UNSCOPED_INFO(std::get<0>(d.key) << " " << std::get<1>(d.key) << " " << std::get<2>(d.key) << ": " << d.a << " | " << d.b);
  CHECK(diffs.empty());
  auto audit = replay::AuditTurn(*g.db, "g", "carried", Turn{1805, 1, 2});
  REQUIRE(audit.ok());
  CHECK(audit->identical);

  // Left out by name: the corrected branch has no blockade.
  auto left = replay::Correct(*g.db, "g", "main", at, Buf("DirectiveFile", kRuling), "left", {g.blockade});
  REQUIRE(left.ok());
  CHECK(left->directives_carried.empty());
  CHECK(left->directives_left_out == std::vector<uint64_t>{g.blockade});
  CHECK(g.Blockades("left", left->fork_seq) == 0);
  CHECK(Treasury(*g.db, "g", "left").phase_done == old.phase_done);

  // A seq that is not a later directive (an order; a seq before the point;
  // none at all) is refused, and nothing is written.
  const size_t branches = g.db->Branches("g")->size();
  const uint64_t head = g.db->HeadOf("g", "main")->seq;
  for (uint64_t bad : {g.order, uint64_t{1}, head + 100}) {
    auto r = replay::Correct(*g.db, "g", "main", at, Buf("DirectiveFile", kRuling), "bad", {g.blockade, bad});
    INFO(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Status::Code::kInvalidArgument);
    CHECK_THAT(r.status().message(), Catch::Contains("--leave-out: seq " + std::to_string(bad)));
    CHECK(g.db->Branches("g")->size() == branches);
    CHECK(g.db->HeadOf("g", "main")->seq == head);
  }
  CHECK(*g.db->Current("g") == "left");  // the last correction made
}

TEST_CASE("correct: a branch forked with new dice, corrected below its fork point, rolls each turn as it was rolled",
          "[history][correct][dice]") {
  Blockade g;
  const Turn t1{1805, 1, 1}, t2{1805, 1, 2};
  // f: main forked after turn 2's orders and directive, with new dice, and turn 2 played there.
  auto point = replay::ForkPoint(*g.db, "g", "main", TurnPhase{t2, 1});
  REQUIRE(point.ok());
  REQUIRE(g.db->Fork("g", "main", *point, "f", uint64_t{77}, Actor{ActorKind::kGameAdministrator, "", ""}).ok());
  REQUIRE(replay::Adjudicate(*g.db, "g", "f", replay::AdjudicateMode::kTurn, 1).ok());
  const uint64_t main_salt = g.db->Branch("g", "main")->dice_salt;
  REQUIRE(main_salt != 77);

  // A part's name taken: refused before anything is written, naming it.
  REQUIRE(g.db->Fork("g", "main", 2, "c-part1", std::nullopt, Actor{ActorKind::kGameAdministrator, "", ""}).ok());
  const size_t branches = g.db->Branches("g")->size();
  auto taken = replay::Correct(*g.db, "g", "f", TurnPhase{t1, 0}, Buf("DirectiveFile", kRuling), "c");
  REQUIRE_FALSE(taken.ok());
  CHECK(taken.status().code() == Status::Code::kAlreadyExists);
  CHECK_THAT(taken.status().message(), Catch::Contains("already has a branch 'c-part1'") &&
                                           Catch::Contains("rolled with the dice of main") &&
                                           Catch::Contains("choose another name"));
  CHECK(g.db->Branches("g")->size() == branches);
  CHECK(g.db->Branch("g", "c").status().code() == Status::Code::kNotFound);

  auto r = replay::Correct(*g.db, "g", "f", TurnPhase{t1, 0}, Buf("DirectiveFile", kRuling), "d");
  INFO((r.ok() ? "" : r.status().message()));
  REQUIRE(r.ok());
  REQUIRE(r->segments.size() == 1);
  CHECK(r->segments[0].branch == "d-part1");
  CHECK(r->segments[0].dice_of == "main");
  CHECK(g.db->Branches("g")->size() == branches + 2);
  CHECK(g.db->Branch("g", "d-part1")->dice_salt == main_salt);
  CHECK(g.db->Branch("g", "d-part1")->parent == "f");
  CHECK(g.db->Branch("g", "d")->dice_salt == 77);
  CHECK(g.db->Branch("g", "d")->parent == "d-part1");
  CHECK(*g.db->Current("g") == "d");
  // A ruling changes nothing: turn 1 rolled with main's dice, turn 2 with f's.
  auto diffs = replay::Compare(replay::Flatten(*replay::Fold(*g.db, "g", "f")),
                               replay::Flatten(*replay::Fold(*g.db, "g", "d")));
  for (const auto& d : diffs) UNSCOPED_INFO(std::get<0>(d.key) << " " << std::get<1>(d.key) << " " << std::get<2>(d.key) << ": " << d.a << " | " << d.b);
  CHECK(diffs.empty());
  for (const Turn& t : {t1, t2}) {
    auto audit = replay::AuditTurn(*g.db, "g", "d", t);
    REQUIRE(audit.ok());
    CHECK(audit->identical);
  }
  // The turn after is rolled with f's dice on d, as it would be on f.
  REQUIRE(replay::Adjudicate(*g.db, "g", "f", replay::AdjudicateMode::kTurn, 1).ok());
  REQUIRE(replay::Adjudicate(*g.db, "g", "d", replay::AdjudicateMode::kTurn, 1).ok());
  CHECK(replay::Compare(replay::Flatten(*replay::Fold(*g.db, "g", "f")),
                        replay::Flatten(*replay::Fold(*g.db, "g", "d"))).empty());
}

TEST_CASE("adjutant correct --leave-out: the answer names what was carried and what was left out", "[history][correct][cli]") {
  Blockade g;
  std::ofstream(g.dir.Sub("ruling.json")) << kRuling;
  CliRun text = Cli(*g.db, {"correct", "g", "--at", "1805.1.2", "--directive", g.dir.Sub("ruling.json"), "--name", "a"});
  INFO(text.err);
  CHECK(text.code == 0);
  CHECK_THAT(text.out, Catch::Contains("given again: the GA's later directives on main (seq " + std::to_string(g.blockade) + ")"));
  CliRun json = Cli(*g.db, {"correct", "g", "--at", "1805.1.2", "--directive", g.dir.Sub("ruling.json"), "--name", "b",
                            "--branch", "main", "--leave-out", std::to_string(g.blockade), "--json"});
  CHECK(json.code == 0);
  CHECK(std::regex_search(json.out, std::regex("\"left_out\": \\[\\s*" + std::to_string(g.blockade) + "\\s*\\]")));
  CHECK_THAT(json.out, !Catch::Contains("\"carried\""));
  const uint64_t head = g.db->HeadOf("g", "main")->seq;
  CliRun bad = Cli(*g.db, {"correct", "g", "--at", "1805.1.2", "--directive", g.dir.Sub("ruling.json"), "--name", "c",
                           "--branch", "main", "--leave-out", std::to_string(g.order)});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::StartsWith("--leave-out: seq " + std::to_string(g.order) + " is not one of g/main's directives"));
  CliRun junk = Cli(*g.db, {"correct", "g", "--at", "1805.1.2", "--directive", g.dir.Sub("ruling.json"), "--name", "c",
                            "--branch", "main", "--leave-out", "7,x"});
  CHECK(junk.code == 2);
  CHECK_THAT(junk.err, Catch::Contains("--leave-out: 'x' is not a sequence number"));
  CHECK(g.db->Branches("g")->size() == 3);  // main, a, b
  CHECK(g.db->HeadOf("g", "main")->seq == head);
}

TEST_CASE("fork: a turn whose salt main revealed is audited and verified on a branch forked before the reveal",
          "[history][dice-commit][fork]") {
  NwolDb g(9);
  const Turn t1{1805, 1, 1}, t2{1805, 1, 2};
  const std::string salt = "5a1e" + std::string(60, '3');
  REQUIRE(replay::RecordDirective(*g.db, "g", "main", Buf("DirectiveFile", DiceJson("CommitDice", t1, "commitment",
                                                                                  *replay::CommitmentOf(salt))))
              .ok());
  REQUIRE(replay::Adjudicate(*g.db, "g", "main", replay::AdjudicateMode::kTurn, 1, salt).ok());
  REQUIRE(Order(*g.db, "g", "nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "NOS"})")})).ok());
  REQUIRE(replay::Adjudicate(*g.db, "g", "main", replay::AdjudicateMode::kTurn).ok());
  auto reveal = replay::RecordDirective(*g.db, "g", "main", Buf("DirectiveFile", DiceJson("RevealDice", t1, "salt", salt)));
  REQUIRE(reveal.ok());
  // Forked after the reveal was recorded, at a point before it (turn 2).
  CliRun fork = Cli(*g.db, {"fork", "g", "--at", t2.ToString(), "--name", "f", "--with-orders"});
  INFO(fork.err);
  REQUIRE(fork.code == 0);
  REQUIRE(g.db->Branch("g", "f")->id != 0);
  auto check = replay::VerifyTurnDice(*g.db, "g", "f", t1);
  INFO((check.ok() ? "" : check.status().message()));
  REQUIRE(check.ok());
  CHECK(check->ok);
  CHECK(check->rolls > 30);
  auto audit = replay::AuditTurn(*g.db, "g", "f", t1);
  INFO((audit.ok() ? "" : audit.status().message()));
  REQUIRE(audit.ok());
  CHECK(audit->identical);
  CHECK(Cli(*g.db, {"verify", "g", "--branch", "f", "--turn", t1.ToString(), "--dice"}).code == 0);
  CHECK(Cli(*g.db, {"audit", "g", "--branch", "f", "--all"}).code == 0);
  // The fork plays on; its turn 2 audits identical too.
  REQUIRE(replay::Adjudicate(*g.db, "g", "f", replay::AdjudicateMode::kTurn).ok());
  CHECK(Cli(*g.db, {"audit", "g", "--branch", "f", "--all"}).code == 0);
  // A salt that matches no commitment of the branch is not taken from elsewhere.
  NwolDb other(9);
  const std::string salt2 = "5a1e" + std::string(60, '4');
  REQUIRE(replay::RecordDirective(*other.db, "g", "main", Buf("DirectiveFile", DiceJson("CommitDice", t1, "commitment",
                                                                                      *replay::CommitmentOf(salt2))))
              .ok());
  REQUIRE(replay::Adjudicate(*other.db, "g", "main", replay::AdjudicateMode::kTurn, 1, salt2).ok());
  auto w = replay::Fold(*other.db, "g", "main");
  REQUIRE(w.ok());
  auto none = replay::RevealedSalt(*other.db, "g", replay::SummaryOf(*w), t1);
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());
}

TEST_CASE("correct: the GA's dice commitment and reveal after the point are carried — one left out takes its reveal",
          "[history][correct][dice-commit]") {
  NwolDb g(31);
  const Turn t2{1805, 1, 2};
  const std::string salt = "c0de" + std::string(60, '9');
  REQUIRE(Turns(*g.db, "g", 1).ok());
  REQUIRE(Order(*g.db, "g", "nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "NOS"})")})).ok());
  auto commit = replay::RecordDirective(*g.db, "g", "main", Buf("DirectiveFile", DiceJson("CommitDice", t2, "commitment",
                                                                                        *replay::CommitmentOf(salt))));
  REQUIRE(commit.ok());
  REQUIRE(replay::Adjudicate(*g.db, "g", "main", replay::AdjudicateMode::kTurn, 1, salt).ok());
  const TurnPhase at{t2, 0};
  // Not revealed: the corrected branch could not roll turn 2 with the same
  // dice — refused, nothing written.
  const size_t branches = g.db->Branches("g")->size();
  auto hidden = replay::Correct(*g.db, "g", "main", at, Buf("DirectiveFile", kRuling), "hidden");
  REQUIRE_FALSE(hidden.ok());
  CHECK(hidden.status().code() == Status::Code::kInvalidArgument);
  CHECK_THAT(hidden.status().message(), Catch::Contains("salt is not revealed"));
  CHECK(g.db->Branches("g")->size() == branches);
  auto reveal = replay::RecordDirective(*g.db, "g", "main", Buf("DirectiveFile", DiceJson("RevealDice", t2, "salt", salt)));
  REQUIRE(reveal.ok());
  // Revealed: both carried; turn 2 played again with the committed dice.
  auto carried = replay::Correct(*g.db, "g", "main", at, Buf("DirectiveFile", kRuling), "carried");
  INFO((carried.ok() ? "" : carried.status().message()));
  REQUIRE(carried.ok());
  CHECK(carried->directives_carried == std::vector<uint64_t>{commit->first_seq, reveal->first_seq});
  auto check = replay::VerifyTurnDice(*g.db, "g", "carried", t2);
  REQUIRE(check.ok());
  CHECK(check->ok);
  CHECK(check->rolls > 30);
  CHECK(replay::AuditTurn(*g.db, "g", "carried", t2)->identical);
  CHECK(replay::Compare(replay::Flatten(*replay::Fold(*g.db, "g", "main")),
                        replay::Flatten(*replay::Fold(*g.db, "g", "carried")))
            .empty());
  // The commitment left out: its reveal goes with it, and turn 2 is rolled
  // with the branch's own dice.
  auto plain = replay::Correct(*g.db, "g", "main", at, Buf("DirectiveFile", kRuling), "plain", {commit->first_seq});
  INFO((plain.ok() ? "" : plain.status().message()));
  REQUIRE(plain.ok());
  CHECK(plain->directives_carried.empty());
  CHECK(plain->directives_left_out == std::vector<uint64_t>{commit->first_seq, reveal->first_seq});
  auto w = replay::Fold(*g.db, "g", "plain");
  REQUIRE(w.ok());
  CHECK_FALSE(replay::SummaryOf(*w).dice_commitments.count(t2));
  CHECK(replay::AuditTurn(*g.db, "g", "plain", t2)->identical);
  // As far as the old branch: turn 3's orders window (where main stands
  // through the reveal alone).
  auto window = [&](const std::string& branch) { return *replay::OrderPositionOf(*replay::Fold(*g.db, "g", branch)); };
  CHECK(window("plain") == window("main"));
  CHECK(window("plain") == TurnPhase{Turn{1805, 1, 3}, 0});
}
