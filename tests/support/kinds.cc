#include "support/kinds.h"
#include "support/build_paths.h"

#include "support/race/race.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/commands.h"
#include "projections/battle.h"
#include "projections/y1820.h"
#include "replay/dice_commit.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/y1820_game.h"

namespace adjutant::testing {

namespace {

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string F = ADJUTANT_FIXTURES;

std::string Ruling(const std::string& text) {
  return R"({"reason": "a ruling", "body_type": "Ruling", "body": {"text": ")" + text + R"("}})";
}

GameKind Nwol() {
  GameKind k;
  k.name = "nwol";
  k.scenario_json = PateScenario();
  k.map_json = Read(F + "/maps/nwol-waters.json");
  k.seed = 21;
  k.turns = {
      {Turn{1805, 1, 1}, {{"nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "NOS"})")})}}, ""},
      {Turn{1805, 1, 2},
       {{"villeneuve", OrderFile({PateItem("ShipOrders", R"({"ship": "FR1FR", "sea1": "NOS"})")})},
        {"nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "ECH", "sea2": "BIS"})")})}},
       R"({"reason": "HMG", "body_type": "SowDirective", "body": {"body_type": "DeclareBlockade", "body": {"by": "BR", "against": "FR"}}})"},
  };
  k.phases_per_turn = 11;  // SOW 1-6 and PATE 3.2 with a naval map
  k.fork_phase = 4;
  k.coming = Turn{1805, 1, 3};
  k.correction = Ruling("the blockade stands as declared");
  k.older_versions = "sow=1,pate=1";
  k.older = rules::LatestVersions();
  k.older.Set("sow", 1);
  k.older.Set("pate", 1);
  return k;
}

GameKind Y1820() {
  GameKind k;
  k.name = "y1820";
  k.scenario_json = ToyScenario("republic", "republic", /*random_events=*/true);
  k.map_json = ToyMap();
  k.seed = 1820;
  auto item = [](const std::string& kind, const std::string& body) { return Y1820Db::Item(kind, body); };
  k.turns = {
      {projections::Y1820Turn(0), {{"alice", OrderFile({item("Y1820Research", R"({"tech": "Railroads"})")})}}, ""},
      {projections::Y1820Turn(1),
       {{"bob", OrderFile({item("Y1820Research", R"({"tech": "Epidemiology"})")})}},
       R"({"reason": "plague", "body_type": "Y1820Directive", "body": {"body_type": "Y1820StartEpidemic", "body": {"province": 5}}})"},
  };
  k.phases_per_turn = 1;  // Y1.3
  k.fork_phase = 1;
  k.coming = projections::Y1820Turn(2);
  k.correction = Ruling("the epidemic stands");
  k.older_versions = "y1820=1";  // before version 2's calendar end (Y1.4)
  k.older = rules::LatestVersions();
  k.older.Set("y1820", 1);
  return k;
}

GameKind Dog() {
  GameKind k;
  k.name = "dog";
  k.scenario_json = Read(F + "/dog/talavera-brigade.json");
  k.seed = 1809;
  const std::string o = F + "/orders/dog-talavera/";
  for (int m = 1; m <= 3; ++m) {
    TurnPlan t;
    t.turn = projections::DogMove(m);
    t.orders = {{"victor", Read(o + "m" + std::to_string(m) + "-French.orders.json")},
                {"wellesley", Read(o + "m" + std::to_string(m) + "-British.orders.json")}};
    k.turns.push_back(std::move(t));
  }
  k.turns.back().directive =
      R"({"reason": "a round shot", "body_type": "DogDirective", "body": {"body_type": "DogCommanderKilled", "body": {"commander": "BR-HILL"}}})";
  k.phases_per_turn = 1;  // D12.1: one phase a move
  k.fork_phase = 1;
  k.coming = projections::DogMove(4);
  k.correction = Ruling("General Hill's fate stands");
  // dog=1, not dog=2: these three moves come out the same under dog=2 to 5
  // (issue 19's changes and versions 4's and 5's touch no test they take:
  // seen with k.older set to dog=4, the audit parts nowhere), so only dog=1 makes
  // the audit part from the recorded game and checks where.
  k.older_versions = "dog=1";
  k.older = rules::LatestVersions();
  k.older.Set("dog", 1);
  return k;
}

// The test suite's own kind (tests/support/race/RULES.md).
GameKind Race() {
  RegisterRace();
  GameKind k;
  k.name = "race";
  k.scenario_json = RaceScenarioJson();
  k.seed = 42;
  for (int n = 1; n <= 3; ++n) {
    TurnPlan t;
    t.turn = Turn{1, n, 0};
    t.orders = {{"ann", RaceOrderJson("red", "advance")}, {"bob", RaceOrderJson("blue", n == 2 ? "advance" : "rest")}};
    k.turns.push_back(std::move(t));
  }
  k.turns.back().directive = Ruling("bob's lane was wet");
  k.phases_per_turn = 1;  // RACE 1
  k.fork_phase = 1;
  k.coming = Turn{1, 4, 0};
  k.correction = Ruling("the wet lane stands");
  k.older_versions = "race=1";
  k.older = rules::LatestVersions();
  k.older.Set("race", 1);
  // A kind added later that says nothing of either: a withdrawal is refused
  // under its ruleset, and a missing order is told with no rule.
  k.withdraws = false;
  k.offers_choices = false;  // its orders are written: nothing to pick
  k.cites_missing = false;
  k.tells_outcomes = false;
  return k;
}

Result<std::vector<uint8_t>> Parsed(const std::string& type, const std::string& json) {
  return schema::ParseJson(type, json, type);
}

}  // namespace

const std::vector<GameKind>& GameKinds() {
  static const std::vector<GameKind> kinds = {Nwol(), Y1820(), Dog(), Race()};
  return kinds;
}

CliRun Cli(ledger::Ledger& db, const std::vector<std::string>& args) {
  CliRun r;
  // As the command line sends a command to the desk: with the bytes of the
  // files it names (RunShared opens none itself).
  cli::Inputs inputs;
  for (size_t i = 1; i < args.size(); ++i) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(args[i], ec)) {
      std::ifstream f(args[i], std::ios::binary);
      std::ostringstream b;
      b << f.rdbuf();
      inputs.files[args[i]] = b.str();
    }
  }
  r.code = cli::RunShared(db, args, &r.out, &r.err, inputs);
  return r;
}

PlayedGame::PlayedGame(const GameKind& kind, const PlayOptions& options) {
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  if (!l.ok()) {
    status = l.status();
    return;
  }
  db = std::move(l).value();
  auto played = Play(*db, dir.path(), kind, options);
  status = played.ok() ? Status::Ok() : played.status();
}

Result<Turn> TurnAfterComing(const GameKind& kind) {
  PlayedGame twin(kind);
  if (!twin.status.ok()) return twin.status;
  auto adj = replay::Adjudicate(*twin, "g", "main", replay::AdjudicateMode::kTurn);
  if (!adj.ok()) return adj.status();
  auto w = replay::Fold(*twin, "g", "main");
  if (!w.ok()) return w.status();
  auto at = replay::OrderPositionOf(*w);
  if (!at.ok()) return at.status();
  return at->turn;
}

signing::SigningKey TestKey(uint8_t b) {
  std::array<uint8_t, 32> seed;
  seed.fill(b);
  return signing::SigningKey::FromSeed(seed);
}

PlayOptions SignedWith(const signing::SigningKey& key) {
  PlayOptions o;
  o.signer = &key;
  return o;
}

namespace {

// A CommitDice or RevealDice directive for turn `t`, recorded on main.
Status RecordDice(ledger::Ledger& db, const GameKind& kind, const Turn& t, const std::string& body,
                  const std::string& field, const std::string& value) {
  auto buf = Parsed("DirectiveFile", R"({"reason": "dice", "body_type": ")" + body + R"(", "body": {"turn": {"major": )" +
                                         std::to_string(t.major) + ", \"minor\": " + std::to_string(t.minor) +
                                         ", \"step\": " + std::to_string(t.step) + "}, \"" + field + "\": \"" + value +
                                         "\"}}");
  if (!buf.ok()) return buf.status();
  auto r = replay::RecordDirective(db, "g", "main", *buf);
  if (!r.ok()) return Status::InvalidArgument(kind.name + ": " + body + ": " + r.status().message());
  return Status::Ok();
}

}  // namespace

Result<CliRun> Create(ledger::Ledger& db, const std::string& dir, const GameKind& kind, const PlayOptions& o) {
  const std::string scenario = dir + "/" + kind.name + ".scenario.json";
  std::ofstream(scenario) << kind.scenario_json;
  std::vector<std::string> args = {"new", "g", "--scenario", scenario, "--seed", std::to_string(kind.seed)};
  if (!kind.map_json.empty()) {
    const std::string map = dir + "/" + kind.name + ".map.json";
    std::ofstream(map) << kind.map_json;
    args.insert(args.end(), {"--map", map});
  }
  if (o.signer) {
    const std::string key = dir + "/" + kind.name + ".key";
    std::filesystem::remove(key);
    ADJ_RETURN_IF_ERROR(o.signer->Save(key));
    args.insert(args.end(), {"--signing-key", key});
  }
  if (!o.created_under.empty()) args.insert(args.end(), {"--rules-version", o.created_under});
  CliRun made = Cli(db, args);
  if (made.code != 0) return Status::InvalidArgument(kind.name + ": adjutant new: " + made.err);
  return made;
}

Result<Played> Play(ledger::Ledger& db, const std::string& dir, const GameKind& kind, const PlayOptions& o) {
  auto made = Create(db, dir, kind, o);
  if (!made.ok()) return made.status();
  Played played;
  int key = 0;
  for (size_t i = 0; i < kind.turns.size(); ++i) {
    const TurnPlan& plan = kind.turns[i];
    const bool first = i == 0, last = i + 1 == kind.turns.size();
    for (const auto& [person, file] : plan.orders) {
      auto r = Order(db, "g", person, file);
      if (!r.ok()) return Status::InvalidArgument(kind.name + ": " + person + "'s orders: " + r.status().message());
    }
    if (!plan.directive.empty()) {
      auto buf = Parsed("DirectiveFile", plan.directive);
      if (!buf.ok()) return buf.status();
      auto r = replay::RecordDirective(db, "g", "main", *buf);
      if (!r.ok()) return Status::InvalidArgument(kind.name + ": the directive: " + r.status().message());
      if (last) played.later_directive_seq = r->first_seq;
    }
    std::optional<std::string> salt;
    if (first && o.first_turn_salt) {
      salt = o.first_turn_salt;
      auto c = replay::CommitmentOf(*salt);
      if (!c.ok()) return c.status();
      ADJ_RETURN_IF_ERROR(RecordDice(db, kind, plan.turn, "CommitDice", "commitment", *c));
    }
    rules::DiceSource* dice = last ? o.last_turn_dice : nullptr;
    const rules::RulesVersions* versions = o.versions;
    for (bool over = false; !over;) {
      const std::string k = o.keyed ? "ga-" + kind.name + "-" + std::to_string(++key) : "";
      auto r = replay::Adjudicate(db, "g", "main", o.by_phase ? replay::AdjudicateMode::kPhase : replay::AdjudicateMode::kTurn,
                                  1, salt, dice, versions, k, nullptr, o.signer);
      if (!r.ok()) return Status::InvalidArgument(kind.name + ": adjudicating " + plan.turn.ToString() + ": " + r.status().message());
      if (r->empty()) return Status::InvalidArgument(kind.name + ": adjudicating " + plan.turn.ToString() + ": nothing ran");
      for (const auto& p : *r) {
        if (p.at.turn != plan.turn) {
          return Status::InvalidArgument(kind.name + ": adjudicated turn " + p.at.turn.ToString() + ", the plan says " +
                                         plan.turn.ToString());
        }
      }
      over = !o.by_phase || r->back().last_of_turn;
    }
    if (first && o.first_turn_salt && o.reveal_first_turn) {
      ADJ_RETURN_IF_ERROR(RecordDice(db, kind, plan.turn, "RevealDice", "salt", *salt));
    }
  }
  auto h = db.HeadOf("g", "main");
  if (!h.ok()) return h.status();
  played.head = h->seq;
  return played;
}

}  // namespace adjutant::testing
