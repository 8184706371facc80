// A game and its branches: new, games, fork, branches, rules-versions (the
// work of all but new: ops/).
#include <sodium.h>


#include "base/limits.h"
#include "base/signing.h"
#include "cli/common.h"
#include "ledger/ledger.h"
#include "projections/summary.h"
#include "replay/create.h"
#include "rules/kind.h"
#include "replay/driver.h"
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
  // --rules-version: the game's rulesets pinned from its first event; the
  // events recorded with GameCreated (a map) carry them too.
  replay::VersionPins pins;
  if (auto spec = c.args.Value("rules-version")) {
    auto v = replay::PinVersions(**kind, *spec);
    if (!v.ok()) return Status::InvalidArgument("adjutant new: --rules-version: " + v.status().message());
    pins = std::move(v).value();
    replay::StampPinned(more, pins);
  }
  // Issue 23: --signing-key: the game's tree heads are signed by that key.
  ADJ_RETURN_IF_ERROR(LoadSigner(c));
  signing::PublicKey pk{};
  if (c.signer) pk = c.signer->public_key();
  auto db = OpenDb(c, true, /*create=*/true);
  if (!db.ok()) return db.status();
  auto head = (*db)->CreateGame(game, s, *buf, at, kGa, more,
                                c.signer ? std::span<const uint8_t>(pk) : std::span<const uint8_t>(), pins);
  if (!head.ok()) return head.status();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), "main", 1, head->seq, head->hash.Hex().c_str(), false));
    return PrintJson("AppendSummary", fbb);
  }
  Line("created game " + game + " (" + sc->name()->str() + "), seed " + std::to_string(s) +
       (more.empty() ? "" : ", with the " + std::string((*kind)->MapNoun()) + " " + *c.args.Value("map")) +
       ", in " + c.db);
  if (c.signer) Line("its tree heads are signed by key " + signing::Hex(pk) + " (`adjutant heads " + game + "`)");
  if (!pins.empty()) {
    std::string list;
    for (const auto& [ruleset, version] : pins) list += (list.empty() ? "" : ",") + ruleset + "=" + std::to_string(version);
    Line("played under rules versions " + list + " until adopting others (`adjutant rules-versions " + game + "`)");
  }
  return Status::Ok();
}

// ---- keygen, adopt-key (issue 23) -----------------------------------------------
Status CmdKeygen(Context& c) {
  const std::string& path = c.args.positional[0];
  auto key = signing::SigningKey::Generate();
  if (!key.ok()) return key.status();
  ADJ_RETURN_IF_ERROR(key->Save(path));
  const std::string pk = signing::Hex(key->public_key());
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateKeyResultDirect(fbb, path.c_str(), pk.c_str()));
    return PrintJson("KeyResult", fbb);
  }
  Line("wrote signing key " + path + " (mode 600: keep it secret, and keep a copy; a lost key signs no more heads)");
  Line("public key " + pk);
  return Status::Ok();
}

Status CmdAdoptKey(Context& c) {
  if (!c.args.Value("signing-key")) return Status::InvalidArgument("adjutant adopt-key: --signing-key FILE is required");
  ADJ_RETURN_IF_ERROR(LoadSigner(c));
  const signing::PublicKey pk = c.signer->public_key();
  flatbuffers::FlatBufferBuilder f;
  auto body = fb::CreateSigningKey(f, f.CreateVector(pk.data(), pk.size()));
  f.Finish(fb::CreateDirectiveFile(f, f.CreateString("the GA adopts signing key " + signing::Hex(pk)),
                                   fb::DirectiveBody_SigningKey, body.Union()));
  ops::DirectiveRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.doc.assign(f.GetBufferPointer(), f.GetBufferPointer() + f.GetSize());
  rq.from = "--signing-key " + *c.args.Value("signing-key");
  rq.key = Opt(c.args, "key");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Directive, rq);
}

// ---- fork, branches, rules-versions, games: ops/acts.cc, ops/history.cc ----------
Status CmdFork(Context& c) {
  ops::ForkRequest rq;
  rq.game = c.args.positional[0];
  rq.from = Opt(c.args, "from");
  rq.at = Opt(c.args, "at");
  rq.branch = Opt(c.args, "branch");
  rq.name = Opt(c.args, "name");
  rq.with_orders = c.args.Flag("with-orders");
  rq.reseed = c.args.Flag("reseed");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Fork, rq);
}

Status CmdBranches(Context& c) {
  ops::BranchesRequest rq;
  rq.game = c.args.positional[0];
  rq.make_current = Opt(c.args, "make-current");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Branches, rq);
}

Status CmdRulesVersions(Context& c) {
  ops::RulesVersionsRequest rq;
  if (!c.args.positional.empty()) rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::RulesVersions, rq);
}

Status CmdGames(Context& c) {
  ops::GamesRequest rq;
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Games, rq);
}

}  // namespace

std::vector<Command> GameCommands() {
  return {
      {{"new", "GAME --scenario FILE [--map FILE] [--seed N] [--signing-key FILE] [--rules-version V]",
        "Create a game from a scenario (JSON in the schema's Scenario form).\n"
        "With --map, the naval map (a NavalMap document) is checked against the scenario and recorded\n"
        "with the game. With --signing-key (`adjutant keygen`), GameCreated holds its public key and every\n"
        "phase's end records a signed tree head (`adjutant heads`); adjudicating then needs the key.\n"
        "With --rules-version, GameCreated pins the version of each of the game's rulesets: orders are judged and\n"
        "phases run under them until the GA adopts others (`adjudicate --rules-version`).",
        {{"scenario", "FILE", "the scenario JSON"}, {"map", "FILE", "the naval map JSON (ruleset pate)"},
         {"seed", "N", "the game's dice seed (default: random)"}, kSigningKey,
         {"rules-version", "V", "play under these rules versions from the start, orders before the first phase too "
                                "(\"pate=10\", \"sow=11,pate=10\", or a bare \"2\" for every ruleset; `adjutant "
                                "rules-versions`); default: the newest, until the first phase"},
         kJson},
        1, 1},
       CmdNew},
      {{"keygen", "FILE [--json]",
        "Make a signing key for a game's tree heads (issue 23) and write it to FILE.\n"
        "An Ed25519 key (libsodium): FILE holds its secret, one line of 64 hex digits, mode 600, and is never\n"
        "overwritten. The public key is printed: give it to the players. `new --signing-key FILE` creates a game\n"
        "whose heads it signs, `adopt-key` gives it to a game under way; `adjudicate`, `correct` and `serve` then\n"
        "need --signing-key FILE for that game. The database never holds the secret.",
        {kJson}, 1, 1},
       CmdKeygen},
      {{"adopt-key", "GAME --signing-key FILE [--branch B] [--key K] [--json]",
        "The game's tree heads are signed from its next phase on by the key in FILE (`adjutant keygen`).\n"
        "Recorded as a SigningKey directive holding the public key alone; a later adopt-key replaces the key.\n"
        "Every phase's end then records a TreeHead (see `adjutant heads`).",
        {kSigningKey, kBranch, kKey, kJson}, 1, 1,
        "Sign the game's tree heads with the key in FILE from its next phase on."},
       CmdAdoptKey},
      {{"rules-versions", "[GAME [--branch B]] [--json]",
        "Every version of every ruleset, what each changed, and the ones GAME runs under.\n"
        "Events record the version they were adjudicated under; a game keeps its versions (before its first phase,\n"
        "those `new --rules-version` pinned, else the newest) until the GA adopts others with `adjudicate\n"
        "--rules-version`, and `audit --rules-version` shows what another would change.",
        {kBranch, kJson}, 0, 1},
       CmdRulesVersions},
      {{"fork", "GAME (--from BRANCH@SEQ | --at TURN[.PHASE] [--branch B] [--with-orders]) --name NEW [--reseed]",
        "Start a branch that continues a branch's history after SEQ (or @head), or from the start of turn\n"
        "TURN (before its orders) or of phase PHASE of it. Nothing is copied, except that --with-orders\n"
        "records again on the new branch the orders the parent received for TURN after that point.\n"
        "The new branch rolls the same dice as its parent (a counterfactual with the same luck) unless\n"
        "--reseed. A SEQ inside an adjudicated phase is refused: the message names the points before and\n"
        "after that phase.",
        {{"from", "BRANCH@SEQ", "where the branch leaves its parent (between phases)"},
         {"at", "TURN[.PHASE]", "leave the parent (--branch, default main) before this turn or phase"}, kBranch,
         {"with-orders", "", "with --at: carry over the parent's orders of that turn recorded after the point"},
         {"name", "NEW", "the new branch's name"}, {"reseed", "", "give the branch a fresh random dice salt"}, kJson},
        1, 1,
        "Start a branch that continues a branch's history from an event, a turn or a phase."},
       CmdFork},
      {{"branches", "GAME [--make-current B] [--json]",
        "Show a game's branches as a tree with their fork points and heads, marking the current one\n"
        "(the branch commands use when none is named: main, or a corrected branch). --make-current B makes\n"
        "B the current branch; no branch is changed by it.",
        {{"make-current", "B", "make B the game's current branch"}, kJson}, 1, 1,
        "Show a game's branches as a tree with their fork points and heads."},
       CmdBranches},
      {{"games", "[--json]", "List the games in the database.", {kJson}, 0, 0}, CmdGames},
  };
}

}  // namespace adjutant::cli
