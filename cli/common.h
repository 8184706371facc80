// What every `adjutant` command shares: its context, output, and the
// small readers of files and options.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <memory>
#include <string>
#include <string_view>

#include "base/turn.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "ledger/ledger.h"
#include "ops/ops.h"

namespace flatbuffers { class FlatBufferBuilder; }
namespace adjutant::projections { class Roster; }
namespace adjutant::mail { struct Settings; }
namespace adjutant::signing { class SigningKey; }

namespace adjutant::cli {

struct Context {
  std::string db;
  Args args;
  // Not 0: the exit code of a failure that may pass if tried again (an I/O
  // error, a busy database): `mail-in --stdin` gives 75, EX_TEMPFAIL, so the
  // mail server that piped the message keeps it and delivers it again.
  int temp_fail_code = 0;
  // Issue 23: the GA's secret key for games that sign their tree heads
  // (LoadSigner: --signing-key FILE; through the order desk, the desk's).
  std::shared_ptr<const signing::SigningKey> signer;
};

using Handler = std::function<Status(Context&)>;

struct Command {
  CommandSpec spec;
  Handler run;
};

void Out(const std::string& s);
void Line(const std::string& s);

// Renders a finished report buffer of `table` as one JSON line.
Status PrintJson(std::string_view table, flatbuffers::FlatBufferBuilder& fbb);

// A drawing for --svg PATH: written to PATH, or to stdout when PATH is "-"
// (the report's text is then left out: the output is the SVG alone).
// `what` names it in an error. Sets *to_stdout.
Status WriteSvg(const std::string& path, const std::string& svg, const std::string& what, bool* to_stdout);

Result<std::string> ReadFile(const std::string& path, size_t limit);

// An open database: the command's own, or the one a server (adjutant serve)
// holds open and lends to the commands it runs (RunShared).
class DbRef {
 public:
  explicit DbRef(std::unique_ptr<ledger::Ledger> owned) : owned_(std::move(owned)), db_(owned_.get()) {}
  explicit DbRef(ledger::Ledger* borrowed) : db_(borrowed) {}
  ledger::Ledger& operator*() const { return *db_; }
  ledger::Ledger* operator->() const { return db_; }

 private:
  std::unique_ptr<ledger::Ledger> owned_;
  ledger::Ledger* db_;
};
// Only `create` (adjutant new) makes a database where there is none: any
// other command on a missing --db says so and creates nothing.
Result<DbRef> OpenDb(const Context& c, bool write, bool create = false);

// Runs one command against `shared` (already open) with its output and
// errors captured instead of printed (see commands.h RunShared).
struct Capture {
  ledger::Ledger* shared = nullptr;
  std::string out;
  const Inputs* inputs = nullptr;  // what it reads instead of files (ReadFile, ReadPassword)
};
// The capture of the command running on this thread, if any.
Capture*& CurrentCapture();
// The mail settings of the order desk (serve --mail-settings), set once at
// its start: what a command it runs for a client mails with (`mail-in
// --stdin` piped by the MTA while the desk holds the database) — never a
// settings file the client names, which the desk does not read.
std::shared_ptr<const mail::Settings>& DeskMailSettings();

// The command line's own run (Run): what its command read, kept so that a
// command refused by a busy database can be sent, with those bytes, to the
// order desk that holds it (cli/socket.h).
struct ClientRecord {
  std::map<std::string, std::string> files;  // by the name given ("-": standard input)
  std::optional<std::string> password;       // from $ADJUTANT_PASSWORD or the terminal
  std::set<std::string> made;                // files the command made before it was refused (a new salt file)
  bool busy = false;                         // OpenDb was refused: another process holds the database
  bool printed = false;                      // something was printed (then the command is not sent)
};
ClientRecord*& CurrentRecord();

// Whether the file a command names is there to read (under a capture: sent).
bool InputExists(const std::string& path);
// Whether the command line made that file for this command (under a capture:
// as the client said; else as `made_here` says).
bool InputMade(const std::string& path, bool made_here);

// --branch B, else the game's current branch (main unless the GA made a
// corrected branch current), else main.
std::string BranchArg(const Context& c, const std::string& game);

Result<uint64_t> U64Option(const Args& a, const std::string& name, uint64_t fallback);

// "1805.1.3" (the start of turn 3: before its orders) or "1805.1.3.9"
// (before phase 9 of it); a y1820 turn is "1820.3" (1820.3.0).
using ops::ParseTurnPhase;
using ops::kTurnPhaseForms;

// The GA's operations (ops/ops.h) run from the command line: the database
// opened as OpenDb does, when the operation needs it; the output printed as
// it comes. RunOp returns the operation's status (its output is printed).
ops::Env CliEnv(const Context& c);
template <typename Rq>
Status RunOp(const Context& c, ops::Answer (*op)(const ops::Env&, const Rq&), const Rq& rq) {
  ops::Answer a = op(CliEnv(c), rq);
  if (!a.out.empty()) Out(a.out);
  return a.status;
}
// An option's value, if given.
inline ops::Opt Opt(const Args& a, const std::string& name) { return a.Value(name); }

// Reads a JSON document of schema table `table` from FILE (limited to
// `limit` bytes); errors name the file, line and column.
Result<std::vector<uint8_t>> ReadDocument(const std::string& path, std::string_view table, size_t limit);

inline const Actor kGa{ActorKind::kGameAdministrator, "", ""};
inline const OptionSpec kJson{"json", "", "print JSON (one line) instead of text"};
inline const OptionSpec kNow{"now", "T", "the time taken as now (UTC, e.g. 2026-12-06T20:00Z; default: this machine's clock)"};
// --now T, else the clock (seconds since 1970 UTC).
Result<int64_t> NowOption(const Args& a);
inline const OptionSpec kBranch{"branch", "B", "the branch (default: the game's current branch: main, until a correction makes another current)"};
inline const OptionSpec kKey{"key", "K", "idempotency key: a retry with the same key records nothing new"};
inline const OptionSpec kSigningKey{"signing-key", "FILE",
                                    "the GA's secret key that signs the game's tree heads (a file `adjutant keygen` "
                                    "wrote, mode 600; never stored in the database)"};
// Reads --signing-key FILE into c.signer (a command run through the order
// desk without one takes the desk's own, `adjutant serve --signing-key`).
Status LoadSigner(Context& c);
// The key `adjutant serve --signing-key` holds, for commands sent to it.
std::shared_ptr<const signing::SigningKey>& DeskSigner();
inline const OptionSpec kPasswordFile{"password-file", "FILE", "read the password from the first line of FILE"};

// A person's password (cli/play.cc): --password-file, else
// $ADJUTANT_PASSWORD, else a prompt at the terminal.
Result<std::string> ReadPassword(const Args& a, const std::string& prompt);
// Ok if `pw` is the password the GA set for `person`; one answer for an
// unknown person and a wrong password.
Status CheckPassword(const projections::Roster& roster, const std::string& game, const std::string& person,
                     const std::string& pw);

// The commands of each file, for the table in commands.cc.
std::vector<Command> GameCommands();     // cli/cmd_game.cc: new, games, fork, branches, rules-versions
std::vector<Command> HistoryCommands();  // cli/cmd_history.cc: log, verify, digest, stats
std::vector<Command> RerunCommands();    // cli/cmd_rerun.cc: replay, diff, audit, conform
std::vector<Command> GaCommands();       // cli/cmd_ga.cc: roll, ruling
std::vector<Command> PlayCommands();    // cli/play.cc
std::vector<Command> ReportCommands();  // cli/report.cc
std::vector<Command> MapCommands();     // cli/map.cc
std::vector<Command> ServeCommands();   // cli/serve.cc
std::vector<Command> BackupCommands();  // cli/backup.cc
std::vector<Command> MailCommands();    // cli/mail.cc

}  // namespace adjutant::cli
