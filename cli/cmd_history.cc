// The log as recorded: log, verify, digest, stats.
#include <sodium.h>

#include <algorithm>

#include "cli/common.h"
#include "cli/render.h"
#include "ledger/ledger.h"
#include "projections/summary.h"
#include "replay/digest.h"
#include "replay/dice_commit.h"
#include "replay/rebuild.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::cli {
namespace {

// ---- log ---------------------------------------------------------------------
Status CmdLog(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto from = U64Option(c.args, "from", 1);
  if (!from.ok()) return from.status();
  auto to = U64Option(c.args, "to", UINT64_MAX);
  if (!to.ok()) return to.status();
  std::string kind;
  if (auto k = c.args.Value("kind"); k && !KnownKind(*k, &kind)) {
    return Status::InvalidArgument("--kind: no event kind '" + *k + "' (kinds: " + KnownKinds() + ")");
  }
  std::optional<Turn> turn;
  if (auto t = c.args.Value("turn")) {
    turn = Turn::Parse(*t);
    if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (MAJOR[.MINOR[.STEP]], e.g. 1805.2.3)");
  }
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  uint64_t lo = *from, hi = *to;
  if (turn) {
    auto start = (*db)->SeekTurn(game, branch, TurnPhase{*turn, 0});
    if (!start.ok()) return start.status();
    if (!start->has_value()) return Status::Ok();  // nothing that late
    lo = std::max(lo, **start);
  }
  bool json = c.args.Flag("json");
  std::string out;
  Status st = (*db)->Read(game, branch, lo, hi, [&](const ledger::EventView& e) {
    const fb::Turn* t = e.event()->turn();
    if (turn) {
      Turn et = t ? Turn{t->major(), t->minor(), t->step()} : Turn{};
      if (et != *turn) return Status::NotFound("");  // past the turn: stop
    }
    if (!kind.empty() && KindName(e) != kind && DisplayKind(e) != kind) return Status::Ok();
    if (json) {
      auto j = schema::ToJson("Event", e.bytes.data());
      if (!j.ok()) return Status::Corruption("seq " + std::to_string(e.seq) + ": " + j.status().message());
      out += *j;
    } else {
      out += EventLine(e);
    }
    out += '\n';
    if (out.size() > (1 << 16)) { Out(out); out.clear(); }
    return Status::Ok();
  });
  Out(out);
  if (st.code() == Status::Code::kNotFound && st.message().empty()) return Status::Ok();
  return st;
}

// ---- verify ------------------------------------------------------------------
// A turn's digest, checked against the one the GA published (issue 5).
Status VerifyDigest(Context& c, ledger::Ledger& db, const std::string& game, const std::string& digest) {
  auto t = c.args.Value("turn");
  if (!t) return Status::InvalidArgument("adjutant verify: --digest D needs --turn T, the turn it was taken after");
  auto turn = Turn::Parse(*t);
  if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
  std::string branch = BranchArg(c, game);
  auto d = replay::DigestTurn(db, game, branch, *turn);
  if (!d.ok()) return d.status();
  bool same = sodium_memcmp(d->hex.data(), digest.data(), std::min(d->hex.size(), digest.size())) == 0 &&
              d->hex.size() == digest.size();
  if (!same) {
    return Status::Corruption(game + "/" + branch + ": the log up to the end of turn " + t->c_str() +
                              " (seq " + std::to_string(d->last_seq) + ") no longer matches digest " + digest);
  }
  Line("verify " + game + "/" + branch + ": turn " + turn->ToString() + " matches its digest (" +
       std::to_string(d->events) + " events up to seq " + std::to_string(d->last_seq) + ")");
  return Status::Ok();
}

Status CmdVerify(Context& c) {
  const std::string& game = c.args.positional[0];
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  if (auto digest = c.args.Value("digest")) return VerifyDigest(c, **db, game, *digest);
  if (c.args.Flag("dice")) {
    auto t = c.args.Value("turn");
    auto turn = t ? Turn::Parse(*t) : std::nullopt;
    if (!turn) return Status::InvalidArgument("adjutant verify: --dice needs --turn T");
    std::string branch = BranchArg(c, game);
    auto check = replay::VerifyTurnDice(**db, game, branch, *turn);
    if (!check.ok()) return check.status();
    if (!check->ok) {
      return Status::Corruption(game + "/" + branch + ": turn " + turn->ToString() + "'s dice: " + check->reason +
                                (check->bad_seq ? " (seq " + std::to_string(check->bad_seq) + ")" : ""));
    }
    Line("verify " + game + "/" + branch + ": turn " + turn->ToString() + "'s revealed salt matches its commitment, and " +
         std::to_string(check->rolls) + " roll(s) of the turn are what the seed and salts give");
    return Status::Ok();
  }
  if (c.args.Value("turn")) return Status::InvalidArgument("adjutant verify: --turn goes with --digest D or --dice");
  std::vector<std::string> branches;
  if (c.args.Flag("all")) {
    if (c.args.Value("branch")) return Status::InvalidArgument("adjutant verify: --all and --branch exclude each other");
    auto bs = (*db)->Branches(game);
    if (!bs.ok()) return bs.status();
    for (const auto& b : *bs) branches.push_back(b.name);
  } else {
    branches.push_back(BranchArg(c, game));
  }
  bool all_ok = true;
  std::string first_failure;
  for (const auto& branch : branches) {
    auto rep = (*db)->Verify(game, branch);
    if (!rep.ok()) return rep.status();
    if (c.args.Flag("json")) {
      flatbuffers::FlatBufferBuilder fbb;
      fbb.Finish(fb::CreateVerifyResultDirect(fbb, game.c_str(), branch.c_str(), rep->ok, rep->events,
                                              rep->head.seq, rep->head.hash.Hex().c_str(), rep->bad_seq,
                                              rep->reason.c_str()));
      ADJ_RETURN_IF_ERROR(PrintJson("VerifyResult", fbb));
    } else if (rep->ok) {
      Line("verify " + game + "/" + branch + ": ok, " + std::to_string(rep->events) + " events, head " +
           std::to_string(rep->head.seq) + " " + rep->head.hash.Hex());
    }
    if (!rep->ok) {
      all_ok = false;
      if (first_failure.empty()) {
        first_failure = "verify " + game + "/" + branch + ": FAILED at seq " + std::to_string(rep->bad_seq) + ": " +
                        rep->reason;
      }
    }
  }
  if (!all_ok) return Status::Corruption(first_failure);
  // Every branch is whole again (say, the GA put a table file back from a
  // copy): the damage once found no longer stops the game's reads.
  if (c.args.Flag("all") && (*db)->DamageOf(game)) {
    (*db)->ClearDamage(game);
    if (!c.args.Flag("json")) Line("verify " + game + ": every branch verifies; the damage recorded earlier is cleared");
  }
  return Status::Ok();
}

// ---- digest ------------------------------------------------------------------
Status CmdDigest(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto t = c.args.Value("turn");
  if (!t) return Status::InvalidArgument("adjutant digest: --turn T is required");
  auto turn = Turn::Parse(*t);
  if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  auto d = replay::DigestTurn(**db, game, branch, *turn);
  if (!d.ok()) return d.status();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder f;
    fb::Turn ft(turn->major, turn->minor, turn->step);
    f.Finish(fb::CreateTurnDigestResultDirect(f, game.c_str(), branch.c_str(), &ft, d->last_seq, d->events, d->hex.c_str()));
    return PrintJson("TurnDigestResult", f);
  }
  Line(d->hex);
  Line("turn " + turn->ToString() + " of " + game + "/" + branch + ": BLAKE2b-256 of " + std::to_string(d->events) +
       " events up to seq " + std::to_string(d->last_seq) + "; check it later with `adjutant verify " + game +
       " --turn " + turn->ToString() + " --digest " + d->hex + "`");
  return Status::Ok();
}

Status CmdStats(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto at = U64Option(c.args, "at", UINT64_MAX);
  if (!at.ok()) return at.status();
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  projections::Summary summary;
  projections::Projection* ps[] = {&summary};
  auto r = replay::Rebuild(**db, game, branch, *at, ps);
  if (!r.ok()) return r.status();
  const auto& s = summary.state();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::KindTally>> kinds;
    for (const auto& [k, t] : s.by_kind) kinds.push_back(fb::CreateKindTallyDirect(fbb, k.c_str(), t.events, t.bytes));
    std::vector<flatbuffers::Offset<fb::TurnTally>> turns;
    for (const auto& [turn, t] : s.by_turn) {
      fb::Turn ft(turn.major, turn.minor, turn.step);
      turns.push_back(fb::CreateTurnTally(fbb, &ft, t.events, t.bytes));
    }
    std::vector<flatbuffers::Offset<flatbuffers::String>> rs;
    for (const auto& x : s.rulesets) rs.push_back(fbb.CreateString(x));
    fbb.Finish(fb::CreateStatsReportDirect(fbb, game.c_str(), branch.c_str(), s.scenario_name.c_str(), &rs, s.seed,
                                           s.dice_salt, s.total.events, s.total.bytes, &kinds, &turns, s.dice_rolled,
                                           s.dice_scripted, summary.Digest().Hex().c_str()));
    return PrintJson("StatsReport", fbb);
  }
  Line(game + "/" + branch + ": " + std::to_string(s.total.events) + " events, " + std::to_string(s.total.bytes) +
       " bytes; scenario \"" + s.scenario_name + "\"; seed " + std::to_string(s.seed) + ", dice salt " +
       std::to_string(s.dice_salt));
  Line("dice rolled: " + std::to_string(s.dice_rolled) + " (" + std::to_string(s.dice_scripted) + " scripted)");
  Line("by kind:");
  for (const auto& [k, t] : s.by_kind) {
    Line("  " + k + std::string(k.size() < 18 ? 18 - k.size() : 1, ' ') + std::to_string(t.events) + " events, " +
         std::to_string(t.bytes) + " bytes");
  }
  Line("by turn:");
  for (const auto& [turn, t] : s.by_turn) {
    std::string ts = turn.ToString();
    Line("  " + ts + std::string(ts.size() < 18 ? 18 - ts.size() : 1, ' ') + std::to_string(t.events) + " events, " +
         std::to_string(t.bytes) + " bytes");
  }
  Line("summary digest " + summary.Digest().Hex());
  return Status::Ok();
}

}  // namespace

std::vector<Command> HistoryCommands() {
  return {
      {{"log", "GAME [--branch B] [--from SEQ] [--to SEQ] [--turn T] [--kind K] [--json]",
        "Print a branch's events, as readable lines or as JSON lines in the schema's form.",
        {kBranch, {"from", "SEQ", "first sequence number"}, {"to", "SEQ", "last sequence number"},
         {"turn", "T", "only turn T (MAJOR[.MINOR[.STEP]]), found through the turn index"},
         {"kind", "K", "only events of kind K (e.g. DieRolled)"}, kJson},
        1, 1},
       CmdLog},
      {{"verify", "GAME [--branch B | --all] [--turn T --digest D] [--json]",
        "Check a branch's events: verifier, chain, gaps and fork points.\n"
        "Runs the FlatBuffers verifier on every event, recomputes every chain link, checks that sequence\n"
        "numbers have no gaps and that every fork point matches its parent. Exit 0 if sound; 3 naming\n"
        "the first bad sequence number otherwise. With --turn T --digest D: checks that the log up to the\n"
        "end of turn T still has the digest D the GA published (`adjutant digest`). With --turn T --dice:\n"
        "checks the revealed dice salt against the commitment and recomputes every roll of turn T.",
        {kBranch, {"all", "", "verify every branch of the game"}, {"turn", "T", "with --digest: the turn it was taken after"},
         {"digest", "D", "a turn digest (64 hex digits) to check"},
         {"dice", "", "with --turn: check the revealed dice salt and every roll of the turn"}, kJson},
        1, 1},
       CmdVerify},
      {{"digest", "GAME --turn T [--branch B] [--json]",
        "Print the digest of a branch's log up to the end of turn T, for the GA to publish.\n"
        "BLAKE2b-256 (libsodium) of every event's sequence number and bytes up to the last event of T;\n"
        "anyone who keeps it can check later that the history is unchanged with `adjutant verify --digest`.",
        {kBranch, {"turn", "T", "the turn (it must be over)"}, kJson}, 1, 1},
       CmdDigest},
      {{"stats", "GAME [--branch B] [--at SEQ] [--json]",
        "Events per kind and per turn, their sizes, and the dice rolled.\n"
        "The summary projection, rebuilt from the log at the head or as it stood after event SEQ.",
        {kBranch, {"at", "SEQ", "as of this sequence number (default: the head)"}, kJson}, 1, 1},
       CmdStats},
  };
}

}  // namespace adjutant::cli
