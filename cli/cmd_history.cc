// The log as recorded: log, verify, digest, stats (their work: ops/history.cc), and status (ops/status.cc).
#include "base/limits.h"
#include "cli/common.h"
#include "ops/ops.h"
#include "reports/footer.h"

namespace adjutant::cli {
namespace {

// Each reads its argv onto the operation's request (ops/ops.h) and prints its answer.
Status CmdLog(Context& c) {
  ops::LogRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.from = Opt(c.args, "from");
  rq.to = Opt(c.args, "to");
  rq.turn = Opt(c.args, "turn");
  rq.kind = Opt(c.args, "kind");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Log, rq);
}

Status CmdVerify(Context& c) {
  ops::VerifyRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.all = c.args.Flag("all");
  rq.turn = Opt(c.args, "turn");
  rq.digest = Opt(c.args, "digest");
  rq.dice = c.args.Flag("dice");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Verify, rq);
}

Status CmdDigest(Context& c) {
  ops::DigestRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.turn = Opt(c.args, "turn");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Digest, rq);
}

Status CmdTree(Context& c) {
  ops::TreeRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.size = Opt(c.args, "size");
  rq.prove = Opt(c.args, "prove");
  rq.since = Opt(c.args, "since");
  rq.mend = c.args.Flag("mend");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Tree, rq);
}

Status CmdHeads(Context& c) {
  ops::HeadsRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Heads, rq);
}

Status CmdProof(Context& c) {
  ops::ProofRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.person = Opt(c.args, "player");
  rq.turn = Opt(c.args, "turn");
  rq.since = Opt(c.args, "since");
  return RunOp(c, ops::Proof, rq);
}

Status CmdVerifyReport(Context& c) {
  ops::VerifyReportRequest rq;
  rq.file = c.args.positional[0];
  // A proof file, a report's JSON or a text report (reports/footer.h).
  // The file's blocks are each checked, its listings too (one at fault
  // fails that block's "listing" check, and the others are still told);
  // the previous file's listing at fault fails it whole.
  auto read = [](const std::string& path,
                 std::vector<std::optional<std::string>>* listings) -> Result<std::vector<std::vector<uint8_t>>> {
    constexpr size_t kReportFileBytesMax = 16 << 20;  // a report, a whole packet or a proof
    auto text = ReadFile(path, kReportFileBytesMax);
    if (!text.ok()) return text.status();
    return reports::ProofsInDocument(*text, path == "-" ? "stdin" : path, listings);
  };
  auto doc = read(rq.file, &rq.listings);
  if (!doc.ok()) return doc.status();
  rq.docs = std::move(doc).value();
  if (auto prev = c.args.Value("previous")) {
    auto pd = read(*prev, nullptr);
    if (!pd.ok()) return pd.status();
    rq.previous = std::move(pd).value();
    rq.previous_file = *prev;
  }
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::VerifyReport, rq);
}

Status CmdStats(Context& c) {
  ops::StatsRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.at = Opt(c.args, "at");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Stats, rq);
}

Status CmdStatus(Context& c) {
  ops::StatusRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  auto now = NowOption(c.args);
  if (!now.ok()) return now.status();
  rq.now = *now;
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::GameStatus, rq);
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
      {{"tree", "GAME [--branch B] [--size N] [--prove SEQ[,SEQ...]] [--since M] [--mend] [--json]",
        "Print the root of the Merkle tree over a branch's first N events (default: all), with proofs.\n"
        "RFC 9162's tree (SHA-256); leaf i is event seq i+1 as stored. --prove: one proof that\n"
        "those events are in it, revealing only hashes of the others; --since M: the proof that it extends\n"
        "the tree of the first M events (nothing before M was changed). docs/PROOFS.md gives the format.\n"
        "The tree's upper nodes are kept as a cache; `adjutant verify` checks every kept node against the\n"
        "events, and --mend makes those that differ again from the events (nothing else is written).",
        {kBranch, {"size", "N", "the tree of the first N events"},
         {"prove", "SEQ[,SEQ...]", "the events to prove in it"},
         {"since", "M", "prove that it extends the tree of the first M events"},
         {"mend", "", "make again every kept node that differs from the events"}, kJson},
        1, 1,
        "Print the Merkle root over a branch's first N events (default: all), with proofs."},
       CmdTree},
      {{"heads", "GAME [--branch B] [--json]",
        "List a branch's signed tree heads, each checked against the events as stored.\n"
        "A game with a signing key (`adjutant keygen`, `new --signing-key`, `adopt-key`) records one after every\n"
        "phase: the Merkle root of every event up to the phase's end (as `tree --size` prints it), signed with\n"
        "the GA's key. Each head must follow its phase's PhaseCompleted, name the tree's root over the events as\n"
        "stored, carry the key in force there, and verify under it. Exit 3 if any does not.",
        {kBranch, kJson}, 1, 1},
       CmdHeads},
      {{"proof", "GAME --player P --turn T [--since N] [--branch B]",
        "Print P's report proof of turn T (one JSON line, the schema's ReportProof; docs/PROOFS.md).\n"
        "What P needs to check offline, with `adjutant verify-report`, that the events his reports of the turn\n"
        "were built from - his orders and what became of each, his ships' sightings, moves and weather, his\n"
        "state's treasury, his nation, his side's battle, the rolls among them (docs/PROOFS.md) - are in the\n"
        "history the GA signed at the turn's end, that this history extends the one signed at the end of the turn\n"
        "before (nothing was rewritten), and that the rolls are the dice's. It carries those events, the signed\n"
        "head, one multi-leaf proof, one consistency proof and the dice's public inputs: hashes of other events,\n"
        "never the events. Needs a game that signs its tree heads (`adjutant keygen`). --since N: the consistency\n"
        "proof starts from the tree of N events (the size of the head of the last proof P holds, if he skipped\n"
        "turns).",
        {kBranch, {"player", "P", "the person whose proof it is"}, {"turn", "T", "the turn (it must be over)"},
         {"since", "N", "prove consistency from the tree of N events (default: the head before the turn's)"}}, 1, 1,
        "Print P's report proof of turn T (the schema's ReportProof; docs/PROOFS.md)."},
       CmdProof},
      {{"verify-report", "FILE [--previous FILE] [--json]",
        "Check a report proof with nothing but the file: FILE is a proof (`adjutant proof`), a report's JSON (its\n"
        "head.report_proof) or a text report as mailed or printed (the block at its foot). Checked: the head's\n"
        "Ed25519 signature, every event's inclusion under the signed root, every roll recomputed from the\n"
        "dice's inputs, and - with --previous, the proof of the player's previous report - that the tree of its\n"
        "head is a prefix of this one: the history only grew (a head signed by a newer key holds if the proof\n"
        "proves the SigningKey directive that adopted it). A committed turn's rolls wait for its salt: the\n"
        "check says \"pending\" until a proof carries the RevealDice (the next turn's, checked with --previous\n"
        "this one). Opens no database.\n"
        "Exit 3 naming the first check that fails, 2 if a file is not a report proof.",
        {{"previous", "FILE", "the proof (or report) before this one, whose head this one must extend"}, kJson}, 1, 1,
        "Check a report proof, a report's JSON or a text report with nothing but the file."},
       CmdVerifyReport},
      {{"stats", "GAME [--branch B] [--at SEQ] [--json]",
        "Events per kind and per turn, their sizes, and the dice rolled.\n"
        "The summary projection, rebuilt from the log at the head or as it stood after event SEQ.",
        {kBranch, {"at", "SEQ", "as of this sequence number (default: the head)"}, kJson}, 1, 1},
       CmdStats},
      {{"status", "GAME [--branch B] [--now T] [--json]",
        "Where a game stands and who owes orders.\n"
        "The phase to adjudicate next, the turn (or move) orders now go to and its deadline (`adjutant schedule`)\n"
        "with the time left, each person holding roles with the orders he has given for it (how many stand,\n"
        "were refused on receipt or superseded), those who have given none, and the last finished turn with its\n"
        "digest. Works on every kind of game.",
        {kBranch, kNow, kJson}, 1, 1},
       CmdStatus},
  };
}

}  // namespace adjutant::cli
