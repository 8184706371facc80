// The GA's operations as typed library calls (below cli/ and desk/, above
// reports/ and replay/): the views and checks of the history (games, log,
// verify, digest, stats, audit, replay, diff, branches, rules-versions) and
// the GA's acts (fork, ruling, roll, dice-commit, dice-reveal, adjudicate,
// directive, correct) and a backup of the database in use. Each takes a typed request and answers with its exit
// status and what it prints: text lines, or one JSON line per result with
// `json`. The command line (cli/cmd_*.cc, cli/play.cc) reads its argv onto
// the request and prints the answer; the order desk (desk/ga_api.cc) fills
// the same request from its checked parameters. No request names a file: a
// directive, a dice script or a salt travels as its bytes, and a name given
// with them (`from`) is only shown in the answer, never opened.
//
// A value whose reading has a message of its own (a turn, a count, a rules
// version) is carried as the text given and read here, so that both front
// ends refuse it with the same words.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/turn.h"

namespace adjutant::ledger { class Ledger; }
namespace adjutant::replay { class WarmWorlds; }
namespace adjutant::mail { struct Settings; }
namespace adjutant::signing { class SigningKey; }

namespace adjutant::ops {

// Where an operation finds its database and puts its output. `open(write)`
// is called where the operation needs the database (the command line opens
// it then, as it always did; the desk lends the one it holds); `print`, if
// set, takes the output as it is produced (the command line prints it at
// once), else it is collected in Answer::out.
struct Env {
  std::function<Result<std::shared_ptr<ledger::Ledger>>(bool write)> open;
  std::function<void(const std::string&)> print;
  std::string dir;  // the database's directory, as named in messages ("no games in DIR")
  // The worlds the caller keeps warm (the desk's: replay/warm.h): when set,
  // an adjudication starts from the kept world instead of a cold fold.
  replay::WarmWorlds* warm = nullptr;
  // Issue 23: the GA's secret key, for games that sign their tree heads
  // (replay/heads.h): adjudications and corrections of such a game need it.
  std::shared_ptr<const signing::SigningKey> signer;
};
// The database `db`, held open by the caller (the order desk, tests).
Env On(ledger::Ledger& db);

struct Answer {
  Status status;    // Ok, or why not (after any output: a failed verify still prints what it checked)
  std::string out;  // the text lines, or the JSON line(s) (empty if Env::print took them)
  int exit_code() const { return status.exit_code(); }  // 0 ok, 2 bad input, 3 corruption, 4 conflict, 5 I/O
};

// Every request: the game, and its branch (none: the game's current branch:
// main until a correction makes another current).
using Opt = std::optional<std::string>;

struct GamesRequest { bool json = false; };
struct LogRequest {
  std::string game; Opt branch;
  Opt from, to;   // sequence numbers
  Opt turn;       // only turn T (MAJOR[.MINOR[.STEP]])
  Opt kind;       // only events of this kind
  bool json = false;
};
struct VerifyRequest {
  std::string game; Opt branch;
  bool all = false;   // every branch
  Opt turn, digest;   // a turn's digest to check (both)
  bool dice = false;  // with turn: its revealed salt and rolls
  bool json = false;
};
struct DigestRequest { std::string game; Opt branch; Opt turn; bool json = false; };
struct TreeRequest {
  std::string game; Opt branch;
  Opt size;   // the tree of the first SIZE events (default: all)
  Opt prove;  // SEQ[,SEQ...]: one proof that these events are in it
  Opt since;  // N: the proof that it extends the tree of the first N
  bool mend = false;  // make the kept nodes that differ from the events again
  bool json = false;
};
// Issue 23: every signed tree head of a branch, each checked.
struct HeadsRequest { std::string game; Opt branch; bool json = false; };
// Issue 23: a player's report proof of a turn (one JSON line, a ReportProof).
struct ProofRequest { std::string game; Opt branch; Opt person; Opt turn; Opt since; };
// Issue 23: report proofs checked offline: `docs` (and `previous`) verified
// ReportProof buffers, those one file holds (reports/footer.h: a proof, a
// report, a whole packet); `file`, `previous_file` name them in messages.
// Each of `docs` is checked against the one of `previous` that proves the
// same report, else the whole turn's, else its first.
struct VerifyReportRequest {
  std::vector<std::vector<uint8_t>> docs;
  // Per doc (when given): what is wrong with the listing of its events above
  // a text block ("" nothing; nullopt: a JSON doc, no listing); a fault
  // fails that block's "listing" check.
  std::vector<std::optional<std::string>> listings;
  std::string file = "-";
  std::vector<std::vector<uint8_t>> previous;
  std::string previous_file;
  bool json = false;
};
struct StatsRequest { std::string game; Opt branch; Opt at; bool json = false; };
struct AuditRequest {
  std::string game; Opt branch;
  Opt turn; bool all = false;
  Opt rules_version;  // RULESET=N[,RULESET=N] or N
  bool json = false;
};
struct ReplayRequest { std::string game; Opt branch; Opt to; Opt view; bool json = false; };
struct DiffRequest { std::string game, a, b; Opt turn; Opt view; bool json = false; };
struct BranchesRequest { std::string game; Opt make_current; bool json = false; };
struct RulesVersionsRequest { Opt game; Opt branch; bool json = false; };  // no game: the versions alone
// Where a game stands and who has given orders for the coming turn (or move).
// `now`: the front end's clock (seconds since 1970 UTC), for the time left.
struct StatusRequest { std::string game; Opt branch; int64_t now = 0; bool json = false; };
// The schedule of deadlines (issue 20). No action: show it. "set" (deadline,
// and weekly or after for the deadlines that follow), "extend" (by), "pause",
// "resume" (deadline optional), "clear"; "run": the scheduler's step at `now`
// (replay::RunSchedule: fire a deadline that has passed, adjudicate its turn
// once). A deadline is a UTC time
// ("2026-12-06T20:00Z") or "+DURATION" from `now`; durations "3d", "36h",
// "1w", "2d12h". A deadline not after `now` is refused.
struct ScheduleRequest {
  std::string game; Opt branch;
  Opt action;
  Opt deadline;
  bool weekly = false;  // then every week on the deadline's weekday and time
  Opt after;            // then DURATION after each turn closes
  Opt by;               // extend by DURATION
  Opt reason;
  Opt key;
  int64_t now = 0;
  bool json = false;
};
// Issue 20, mail: the GA gives a person an address (`clear`: none).
struct MailAddressRequest {
  std::string game; Opt branch;
  std::string person;
  Opt address;
  bool clear = false;
};
// Mails each person with an address the reports of every turn over since
// the last his server took (and since his address was given), one message
// a turn, in turn order; a failure is recorded and tried again after its
// backoff. `settings`: the GA's mail account (mail/mail.h), loaded by the
// front end; `dry_run`: only list what is due (no settings needed).
struct MailOutRequest {
  std::string game; Opt branch;
  const mail::Settings* settings = nullptr;
  int64_t now = 0;
  bool dry_run = false;
  bool json = false;
  // Runs the recording of a round's outcomes (MailSent, MailFailed) where
  // the game's writes are sequenced (the desk: its game's sequencer), so the
  // sending itself — slow, on the network — holds up no one. Empty: at once.
  std::function<Status(const std::function<Status()>&)> in_sequence;
};
// Issue 20, mail in: orders mailed to the game's address. Each message
// names its game and person and gives his password, then the orders (text
// form, or an attached OrderFile JSON); they are recorded as if he had
// given them (`adjutant order`), the message as MailReceived (accepted or
// refused, why), and he gets a reply threaded to it listing each order's
// fate. The Message-ID is the idempotency key: a message read twice
// records nothing new. `raw`: messages as they came (piped from the MTA);
// empty: the unseen messages of the settings' IMAP folder, marked seen
// once handled.
struct MailInRequest {
  const mail::Settings* settings = nullptr;
  std::vector<std::string> raw;
  bool from_imap = false;
  int64_t now = 0;
  bool json = false;
  // As MailOutRequest::in_sequence, for the game the message names.
  std::function<Status(const std::string& game, const std::function<Status()>&)> in_sequence;
};
struct ForkRequest {
  std::string game;
  Opt from;     // BRANCH@SEQ or BRANCH@head
  Opt at;       // TURN[.PHASE] of `branch`
  Opt branch;
  Opt name;     // the new branch
  bool with_orders = false, reseed = false, json = false;
};
struct RulingRequest { std::string game; Opt branch; Opt reason, text; Opt key; bool json = false; };
struct RollRequest {
  std::string game; Opt branch;
  Opt purpose, rule, subject;
  Opt sides, count;
  Opt script;             // the values (whitespace-separated, # comments), not a file
  std::string script_from = "-";  // shown in the script's error messages
  Opt key;
  bool json = false;
};
struct DiceRequest {
  std::string game; Opt branch;
  Opt turn;
  Opt salt;               // the salt's text (its first line, hex)
  std::string salt_from = "-";  // "-": given with the request; else the file it was read from (shown)
  bool fresh = false;     // that file was made for this commitment (shown)
  Opt key;
};
struct AdjudicateRequest {
  std::string game; Opt branch;
  Opt turns; bool phase = false;
  Opt rules_version;
  Opt salt; std::string salt_from = "-";  // the turn's committed dice salt, if any
  Opt key;
  // The phase the GA confirmed (TurnPhaseText of NextPhaseOf, as `status`
  // shows it): refused as a conflict if the game has moved on since.
  Opt expect;
  bool json = false;
};
struct DirectiveRequest {
  std::string game; Opt branch;
  std::vector<uint8_t> doc;  // a DirectiveFile, parsed and verified (schema::ParseJson)
  std::string from = "-";    // where it came from ("-": the request), shown
  Opt key;
  bool json = false;
};
struct CorrectRequest {
  std::string game; Opt branch;
  Opt at;                          // TURN[.PHASE]: the faulty point
  std::vector<uint8_t> doc;        // the correction, a verified DirectiveFile
  std::string from = "-";
  Opt name;                        // the new branch (default BRANCH-corrected[-N])
  std::vector<uint64_t> leave_out; // the old branch's later directives not given again
  bool json = false;
};

// A backup into `to`, a directory the caller chose (the order desk: its own
// --backup-dir, never a request's); with `list`, the backups there.
struct BackupRequest {
  Opt to;
  Opt keep;  // then keep only this many newest backups
  bool list = false, json = false;
};

Answer Games(const Env& env, const GamesRequest& rq);
Answer Log(const Env& env, const LogRequest& rq);
Answer Verify(const Env& env, const VerifyRequest& rq);
Answer Digest(const Env& env, const DigestRequest& rq);
Answer Tree(const Env& env, const TreeRequest& rq);
// Exit 3 (corruption) when a head does not hold.
Answer Heads(const Env& env, const HeadsRequest& rq);
Answer Proof(const Env& env, const ProofRequest& rq);
// Opens no database. Exit 3 when a check fails, 2 when a file is malformed.
Answer VerifyReport(const Env& env, const VerifyReportRequest& rq);
Answer Stats(const Env& env, const StatsRequest& rq);
Answer Audit(const Env& env, const AuditRequest& rq);
Answer Replay(const Env& env, const ReplayRequest& rq);
Answer Diff(const Env& env, const DiffRequest& rq);
Answer Branches(const Env& env, const BranchesRequest& rq);
Answer RulesVersions(const Env& env, const RulesVersionsRequest& rq);
Answer GameStatus(const Env& env, const StatusRequest& rq);
Answer Schedule(const Env& env, const ScheduleRequest& rq);
Answer Fork(const Env& env, const ForkRequest& rq);
Answer MailAddress(const Env& env, const MailAddressRequest& rq);
Answer MailOut(const Env& env, const MailOutRequest& rq);
Answer MailIn(const Env& env, const MailInRequest& rq);
Answer Ruling(const Env& env, const RulingRequest& rq);
Answer Roll(const Env& env, const RollRequest& rq);
Answer DiceCommit(const Env& env, const DiceRequest& rq);
Answer DiceReveal(const Env& env, const DiceRequest& rq);
Answer Adjudicate(const Env& env, const AdjudicateRequest& rq);
Answer Directive(const Env& env, const DirectiveRequest& rq);
Answer Correct(const Env& env, const CorrectRequest& rq);
Answer Backup(const Env& env, const BackupRequest& rq);

// Readers both front ends share.
// "SEQ[,SEQ...]": sequence numbers (each > 0); a bad one is refused naming
// `field` ("--leave-out", "leave_out") and the item.
Result<std::vector<uint64_t>> ParseSeqList(const std::string& field, const std::string& text);
// "1805.1.3" (the start of turn 3) or "1805.1.3.9" (before phase 9 of it).
std::optional<TurnPhase> ParseTurnPhase(const std::string& s);
// A phase's position in the form ParseTurnPhase reads: TURN.PHASE with the
// turn's three parts (1805.1.3.9; 1820.3.0.1).
std::string TurnPhaseText(const TurnPhase& at);
inline const char* kTurnPhaseForms =
    "TURN or TURN.PHASE (e.g. 1805.1.3 or 1805.1.3.9; 1820.3 or 1820.3.0.1 in a y1820 game)";
// A turn given as `--turn` (or `field`): the message names it.
Result<Turn> TurnOption(const std::string& field, const std::string& text);
// A salt's text: its first line, trimmed, 32 to 128 hex digits; `from`
// names it in the message ("-": standard input).
Result<std::string> SaltOf(const std::string& text, const std::string& from);

}  // namespace adjutant::ops
