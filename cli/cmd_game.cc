// A game and its branches: new, games, fork, branches, rules-versions.
#include <sodium.h>

#include <functional>

#include "base/limits.h"
#include "cli/common.h"
#include "ledger/ledger.h"
#include "projections/summary.h"
#include "replay/create.h"
#include "rules/kind.h"
#include "replay/driver.h"
#include "replay/fork.h"
#include "replay/views.h"
#include "rules/dice.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::cli {
namespace {


// ---- new ---------------------------------------------------------------------
Status CmdNew(Context& c) {
  const std::string& game = c.args.positional[0];
  ADJ_RETURN_IF_ERROR(ledger::CheckName("game", game));
  auto path = c.args.Value("scenario");
  if (!path) return Status::InvalidArgument("adjutant new: --scenario FILE is required");
  auto text = ReadFile(*path, limits::kScenarioFileBytesMax);
  if (!text.ok()) return text.status();
  auto buf = schema::ParseJson("Scenario", *text, *path);
  if (!buf.ok()) return buf.status();
  auto* sc = flatbuffers::GetRoot<fb::Scenario>(buf->data());
  if (sc->name()->size() == 0) return Status::InvalidArgument(*path + ": field 'name' is empty");
  if (sc->rulesets()) {
    for (flatbuffers::uoffset_t i = 0; i < sc->rulesets()->size(); ++i) {
      std::string r = sc->rulesets()->Get(i)->str();
      const auto known = rules::KnownRulesets();
      if (std::find(known.begin(), known.end(), r) == known.end()) {
        std::string names;
        for (std::string_view k : known) names += (names.empty() ? "" : ", ") + std::string(k);
        return Status::InvalidArgument(*path + ": rulesets[" + std::to_string(i) + "]: unknown ruleset '" + r +
                                       "' (known: " + names + ")");
      }
    }
  }
  if (sc->players()) {
    for (flatbuffers::uoffset_t i = 0; i < sc->players()->size(); ++i) {
      auto st = ledger::CheckName("person", sc->players()->Get(i)->person()->string_view());
      if (!st.ok()) return Status::InvalidArgument(*path + ": players[" + std::to_string(i) + "].person: " + st.message());
    }
  }
  auto seed = U64Option(c.args, "seed", 0);
  if (!seed.ok()) return seed.status();
  uint64_t s = *seed;
  if (!c.args.Value("seed")) randombytes_buf(&s, sizeof s);
  // The checks, the start of the calendar and the map recorded with the game.
  auto kind = replay::KindOfScenario(*sc);
  if (!kind.ok()) return Status::InvalidArgument(*path + ": " + kind.status().message());
  auto map_path = c.args.Value("map");
  std::optional<std::vector<uint8_t>> map_doc;
  if (map_path && (*kind)->MapTable().empty()) {
    map_doc.emplace();  // the kind refuses it, naming why
  } else if (map_path) {
    auto doc = ReadDocument(*map_path, std::string((*kind)->MapTable()), limits::kScenarioFileBytesMax);
    if (!doc.ok()) return doc.status();
    map_doc = std::move(doc).value();
  }
  bool map_error = false;
  auto start = replay::PrepareGame(*sc, std::move(map_doc), &map_error);
  if (!start.ok()) {
    if (map_error) return Status::InvalidArgument(*map_path + ": " + start.status().message());
    return Status::InvalidArgument(*path + ": " + start.status().message() + (map_path ? " (" + *map_path + ")" : ""));
  }
  TurnPhase at = start->at;
  std::vector<Draft> more = std::move(start->more);
  auto db = OpenDb(c, true, /*create=*/true);
  if (!db.ok()) return db.status();
  auto head = (*db)->CreateGame(game, s, *buf, at, kGa, more);
  if (!head.ok()) return head.status();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), "main", 1, head->seq, head->hash.Hex().c_str(), false));
    return PrintJson("AppendSummary", fbb);
  }
  Line("created game " + game + " (" + sc->name()->str() + "), seed " + std::to_string(s) +
       (more.empty() ? "" : ", with the " + std::string((*kind)->MapNoun()) + " " + *c.args.Value("map")) +
       ", in " + c.db);
  return Status::Ok();
}

// ---- fork / branches ---------------------------------------------------------
Status CmdFork(Context& c) {
  const std::string& game = c.args.positional[0];
  auto from = c.args.Value("from");
  auto at_turn = c.args.Value("at");
  auto name = c.args.Value("name");
  if (from.has_value() == at_turn.has_value()) {
    return Status::InvalidArgument("adjutant fork: give --from BRANCH@SEQ or --at TURN[.PHASE] (with --branch B)");
  }
  if (!name) return Status::InvalidArgument("adjutant fork: --name NEW is required");
  if (from && (c.args.Value("branch") || c.args.Flag("with-orders"))) {
    return Status::InvalidArgument("adjutant fork: --branch and --with-orders go with --at");
  }
  std::string parent = from ? *from : BranchArg(c, game);
  std::optional<uint64_t> at;
  std::optional<TurnPhase> point;
  if (at_turn) {
    point = ParseTurnPhase(*at_turn);
    if (!point) return Status::InvalidArgument("--at: '" + *at_turn + "' is not " + kTurnPhaseForms);
  }
  if (from) {
  if (auto pos = from->find('@'); pos != std::string::npos) {
    parent = from->substr(0, pos);
    std::string seq = from->substr(pos + 1);
    if (seq != "head") {
      at = ParseU64(seq);
      if (!at) return Status::InvalidArgument("--from: '" + seq + "' is not a sequence number (BRANCH@SEQ or BRANCH@head)");
    }
  }
  }
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  if (point) {
    auto p = replay::ForkPoint(**db, game, parent, *point);
    if (!p.ok()) return p.status();
    at = *p;
  }
  if (!at) {
    auto h = (*db)->HeadOf(game, parent);
    if (!h.ok()) return h.status();
    at = h->seq;
  }
  std::optional<uint64_t> salt;
  if (c.args.Flag("reseed")) {
    uint64_t s;
    randombytes_buf(&s, sizeof s);
    salt = s;
  }
  auto b = (*db)->Fork(game, parent, *at, *name, salt, kGa);
  if (!b.ok()) return b.status();
  size_t carried = 0;
  if (c.args.Flag("with-orders")) {
    auto n = replay::CarryOrders(**db, game, parent, *name, *at, point->turn);
    if (!n.ok()) return n.status();
    carried = *n;
  }
  if (c.args.Flag("json")) {
    auto h = (*db)->HeadOf(game, *name);
    if (!h.ok()) return h.status();
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), name->c_str(), h->seq, h->seq,
                                             h->hash.Hex().c_str(), false));
    return PrintJson("AppendSummary", fbb);
  }
  Line("forked " + game + "/" + *name + " from " + parent + "@" + std::to_string(*at) +
       (point ? " (before " + (point->phase ? "phase " + std::to_string(point->phase) + " of " : std::string()) +
                    "turn " + point->turn.ToString() + ")"
              : "") +
       (salt ? " with reseeded dice" : " with the same dice") +
       (c.args.Flag("with-orders") ? ", " + std::to_string(carried) + " order(s) of that turn carried over" : ""));
  return Status::Ok();
}

Status CmdBranches(Context& c) {
  const std::string& game = c.args.positional[0];
  auto make_current = c.args.Value("make-current");
  auto db = OpenDb(c, make_current.has_value());
  if (!db.ok()) return db.status();
  if (make_current) {
    ADJ_RETURN_IF_ERROR((*db)->SetCurrent(game, *make_current));
    Line(game + ": commands now use branch " + *make_current + " when none is named");
  }
  auto current = (*db)->Current(game);
  if (!current.ok()) return current.status();
  auto bs = (*db)->Branches(game);
  if (!bs.ok()) return bs.status();
  std::vector<ledger::Head> heads;
  for (const auto& b : *bs) {
    auto h = (*db)->HeadOf(game, b.name);
    if (!h.ok()) return h.status();
    heads.push_back(*h);
  }
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::BranchSummary>> rows;
    for (size_t i = 0; i < bs->size(); ++i) {
      const auto& b = (*bs)[i];
      rows.push_back(fb::CreateBranchSummaryDirect(fbb, b.name.c_str(), b.parent.c_str(), b.fork_seq, heads[i].seq,
                                                   heads[i].hash.Hex().c_str(), b.dice_salt));
    }
    fbb.Finish(fb::CreateBranchListDirect(fbb, game.c_str(), &rows));
    return PrintJson("BranchList", fbb);
  }
  // A tree: children under their parent, in creation order.
  std::function<void(const std::string&, const std::string&)> walk = [&](const std::string& parent,
                                                                          const std::string& indent) {
    std::vector<size_t> kids;
    for (size_t i = 0; i < bs->size(); ++i) if ((*bs)[i].parent == parent) kids.push_back(i);
    for (size_t k = 0; k < kids.size(); ++k) {
      const auto& b = (*bs)[kids[k]];
      bool last = k + 1 == kids.size();
      std::string line = indent + (parent.empty() ? "" : (last ? "└─ " : "├─ ")) + b.name;
      if (!parent.empty()) line += "  from " + b.parent + "@" + std::to_string(b.fork_seq);
      line += "  head " + std::to_string(heads[kids[k]].seq) + " " + heads[kids[k]].hash.Short();
      if (b.name == *current) line += "  (current)";
      Line(line);
      walk(b.name, parent.empty() ? indent : indent + (last ? "   " : "│  "));
    }
  };
  walk("", "");
  return Status::Ok();
}

// ---- rules-versions ----------------------------------------------------------
Status CmdRulesVersions(Context& c) {
  std::string game, branch;
  rules::RulesVersions in_use;
  if (!c.args.positional.empty()) {
    game = c.args.positional[0];
    branch = BranchArg(c, game);
    auto db = OpenDb(c, false);
    if (!db.ok()) return db.status();
    auto world = replay::Fold(**db, game, branch);
    if (!world.ok()) return world.status();
    in_use = replay::GameVersions(replay::SummaryOf(*world));
    // Only the rulesets the game plays are in use by it.
    const auto& plays = replay::SummaryOf(*world).rulesets;
    for (std::string_view r : rules::VersionedRulesets()) {
      if (std::find(plays.begin(), plays.end(), r) == plays.end()) in_use.Set(r, 0);
    }
  }
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::RulesVersionRow>> rows;
  for (const auto& v : rules::KnownVersions()) {
    const std::string ruleset(v.ruleset), rules(v.rules), change(v.change);
    const bool latest = rules::LatestVersion(v.ruleset) == v.version;
    const bool used = !game.empty() && in_use.Of(v.ruleset) == v.version;
    if (c.args.Flag("json")) {
      rows.push_back(fb::CreateRulesVersionRowDirect(fbb, ruleset.c_str(), v.version, rules.c_str(), change.c_str(),
                                                     latest, used));
    } else {
      Line(ruleset + "=" + std::to_string(v.version) + (latest ? "  newest" : "") + (used ? "  in use by " + game + "/" + branch : "") +
           "\n    " + rules + ": " + change);
    }
  }
  if (c.args.Flag("json")) {
    fbb.Finish(fb::CreateRulesVersionsReportDirect(fbb, game.empty() ? nullptr : game.c_str(),
                                                   branch.empty() ? nullptr : branch.c_str(), &rows));
    return PrintJson("RulesVersionsReport", fbb);
  }
  return Status::Ok();
}

// ---- games / stats -----------------------------------------------------------
Status CmdGames(Context& c) {
  auto db = OpenDb(c, false);
  if (!db.ok()) {
    if (db.status().code() == Status::Code::kNotFound && !c.args.Flag("json")) {
      Line("no games in " + c.db);
      return Status::Ok();
    }
    if (db.status().code() != Status::Code::kNotFound) return db.status();
  }
  std::vector<ledger::GameInfo> games;
  if (db.ok()) {
    auto g = (*db)->Games();
    if (!g.ok()) return g.status();
    games = *g;
  }
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::GameSummary>> rows;
  for (const auto& g : games) {
    auto bs = (*db)->Branches(g.name);
    if (!bs.ok()) return bs.status();
    auto h = (*db)->HeadOf(g.name, "main");
    if (!h.ok()) return h.status();
    if (c.args.Flag("json")) {
      rows.push_back(fb::CreateGameSummaryDirect(fbb, g.name.c_str(), g.seed, static_cast<uint32_t>(bs->size()), h->seq));
    } else {
      Line(g.name + "  " + std::to_string(bs->size()) + " branch" + (bs->size() == 1 ? "" : "es") + ", main at seq " +
           std::to_string(h->seq));
    }
  }
  if (c.args.Flag("json")) {
    fbb.Finish(fb::CreateGameListDirect(fbb, &rows));
    return PrintJson("GameList", fbb);
  }
  if (games.empty()) Line("no games in " + c.db);
  return Status::Ok();
}

}  // namespace

std::vector<Command> GameCommands() {
  return {
      {{"new", "GAME --scenario FILE [--map FILE] [--seed N]",
        "Create a game from a scenario (JSON in the schema's Scenario form).\n"
        "With --map, the naval map (a NavalMap document) is checked against the scenario and recorded\n"
        "with the game.",
        {{"scenario", "FILE", "the scenario JSON"}, {"map", "FILE", "the naval map JSON (ruleset pate)"},
         {"seed", "N", "the game's dice seed (default: random)"}, kJson},
        1, 1},
       CmdNew},
      {{"rules-versions", "[GAME [--branch B]] [--json]",
        "Every version of every ruleset, what each changed, and the ones GAME runs under.\n"
        "Events record the version they were adjudicated under; a game keeps its versions until the GA adopts\n"
        "others with `adjudicate --rules-version`, and `audit --rules-version` shows what another would change.",
        {kBranch, kJson}, 0, 1},
       CmdRulesVersions},
      {{"fork", "GAME (--from BRANCH@SEQ | --at TURN[.PHASE] [--branch B] [--with-orders]) --name NEW [--reseed]",
        "Start a branch that continues a branch's history after SEQ (or @head), or from the start of turn\n"
        "TURN (before its orders) or of phase PHASE of it. Nothing is copied, except that --with-orders\n"
        "records again on the new branch the orders the parent received for TURN after that point.\n"
        "The new branch rolls the same dice as its parent (a counterfactual with the same luck) unless\n"
        "--reseed.",
        {{"from", "BRANCH@SEQ", "where the branch leaves its parent"},
         {"at", "TURN[.PHASE]", "leave the parent (--branch, default main) before this turn or phase"}, kBranch,
         {"with-orders", "", "with --at: carry over the parent's orders of that turn recorded after the point"},
         {"name", "NEW", "the new branch's name"}, {"reseed", "", "give the branch a fresh random dice salt"}, kJson},
        1, 1},
       CmdFork},
      {{"branches", "GAME [--make-current B] [--json]",
        "Show a game's branches as a tree with their fork points and heads, marking the current one\n"
        "(the branch commands use when none is named: main, or a corrected branch). --make-current B makes\n"
        "B the current branch; no branch is changed by it.",
        {{"make-current", "B", "make B the game's current branch"}, kJson}, 1, 1},
       CmdBranches},
      {{"games", "[--json]", "List the games in the database.", {kJson}, 0, 0}, CmdGames},
  };
}

}  // namespace adjutant::cli
