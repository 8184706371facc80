// `adjutant`: dispatch, help, Run and RunShared. The commands live by family
// in cli/cmd_*.cc, play.cc, report.cc, map.cc, serve.cc, backup.cc and mail.cc.
#include "cli/commands.h"

#include <sodium.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "cli/args.h"
#include "cli/common.h"
#include "cli/socket.h"
#include "ledger/ledger.h"

namespace adjutant::cli {
namespace {

constexpr const char* kVersion = "adjutant 0.1.0";

// The order `adjutant --help` lists the commands of cmd_*.cc in; one not
// named here follows them.
const char* const kHelpOrder[] = {"new",   "log",      "verify", "digest", "tree", "conform", "rules-versions", "audit", "replay",
                                  "diff",  "fork",     "branches", "games", "status", "stats", "roll", "ruling"};

std::vector<Command> Commands() {
  std::vector<Command> all;
  for (auto* family : {GameCommands, HistoryCommands, RerunCommands, GaCommands}) {
    for (auto& c : family()) all.push_back(std::move(c));
  }
  auto rank = [](const std::string& name) {
    return std::find(std::begin(kHelpOrder), std::end(kHelpOrder), name) - std::begin(kHelpOrder);
  };
  std::stable_sort(all.begin(), all.end(),
                   [&](const Command& x, const Command& y) { return rank(x.spec.name) < rank(y.spec.name); });
  return all;
}

std::vector<Command> AllCommands() {
  std::vector<Command> all = Commands();
  for (auto& c : PlayCommands()) all.push_back(std::move(c));
  for (auto& c : ReportCommands()) all.push_back(std::move(c));
  for (auto& c : MapCommands()) all.push_back(std::move(c));
  for (auto& c : ServeCommands()) all.push_back(std::move(c));
  for (auto& c : BackupCommands()) all.push_back(std::move(c));
  for (auto& c : MailCommands()) all.push_back(std::move(c));
  return all;
}

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\n') {
      ++i;
      continue;
    }
    const size_t end = std::min(text.find_first_of(" \n", i), text.size());
    out.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return out;
}

std::string MainHelp(const std::vector<Command>& cmds) {
  std::string h =
      "usage: adjutant [--db DIR] COMMAND [ARGS]\n\n"
      "Adjutant keeps play-by-email wargames as a hash-chained ledger of events.\n"
      "The database is DIR, else $ADJUTANT_DB, else ./adjutant-data.\n"
      "While the order desk (adjutant serve) holds the database, a command that writes is sent to it through\n"
      "DIR/adjutant.sock and carried out there, with the files and password this command read; serve, backup\n"
      "and restore do not run through it. --no-server (before COMMAND) opens the database directly instead;\n"
      "--server-wait S (before COMMAND) waits S seconds at most for the desk's answer (default " +
      std::to_string(kDefaultServerWaitS) + ").\n"
      "\ncommands:\n";
  // Each command's name in full, its brief (else its summary's first
  // sentence) beside it, wrapped under itself at kWidth columns.
  constexpr size_t kWidth = 100;
  size_t name_width = 0;
  for (const auto& c : cmds) name_width = std::max(name_width, c.spec.name.size());
  const size_t indent = 2 + name_width + 2;
  for (const auto& c : cmds) {
    std::string line = "  " + c.spec.name + std::string(indent - 2 - c.spec.name.size(), ' ');
    size_t used = indent;
    for (const std::string& word : Words(Brief(c.spec))) {
      if (used > indent && used + 1 + word.size() > kWidth) {
        h += line + "\n";
        line = std::string(indent, ' ');
        used = indent;
      }
      if (used > indent) {
        line += ' ';
        ++used;
      }
      line += word;
      used += word.size();
    }
    h += line + "\n";
  }
  h += "\n'adjutant COMMAND --help' describes a command.\n";
  return h;
}

// Commands that never run through the order desk: they would serve, copy
// or replace the database it holds, or use none.
// mail-out sends on the network for minutes at worst: never on a game's
// sequencer (`adjutant serve --mail-settings` mails by itself, off it).
const char* const kNotThroughDesk[] = {"serve", "backup", "restore", "conform", "map", "mail-out"};

bool ThroughDesk(const std::string& name) {
  return std::find(std::begin(kNotThroughDesk), std::end(kNotThroughDesk), name) == std::end(kNotThroughDesk);
}

// A command refused as busy, sent to the order desk that holds the database
// with what it read; prints the desk's answer and returns its exit status.
int SendToDesk(const Context& ctx, const Command& cmd, const std::vector<std::string>& argv, const ClientRecord& record,
               const Status& busy, std::chrono::seconds wait) {
  const std::string prefix = "adjutant " + cmd.spec.name + ": ";
  auto fail = [&](const std::string& why) {
    std::fprintf(stderr, "%s%s%s\n", prefix.c_str(), busy.message().c_str(), why.c_str());
    return busy.exit_code();
  };
  if (record.printed) return fail("");
  if (!ThroughDesk(cmd.spec.name)) {
    if (busy.message().find("adjutant serve") != std::string::npos) return fail("");  // it says what to do
    return fail("; if it is the order desk (adjutant serve), stop the order desk first: " + cmd.spec.name +
                " does not run through it");
  }
  SocketRequest rq{argv, record.files, record.password, record.made};
  auto answer = AskServer(SocketPath(ctx.db), rq, wait);
  if (!answer.ok()) return fail(" (" + answer.status().message() + ")");
  std::fwrite(answer->out.data(), 1, answer->out.size(), stdout);
  std::fflush(stdout);
  if (!answer->err.empty()) {
    if (answer->err.rfind(prefix.substr(0, prefix.size() - 2), 0) == 0) std::fprintf(stderr, "%s\n", answer->err.c_str());
    else std::fprintf(stderr, "%s%s\n", prefix.c_str(), answer->err.c_str());
  }
  return answer->code;
}

}  // namespace

Result<std::string> DeskCommandGame(const std::vector<std::string>& argv) {
  if (argv.empty()) return Status::InvalidArgument("an empty request");
  const auto cmds = AllCommands();
  const Command* cmd = nullptr;
  for (const auto& c : cmds) if (c.spec.name == argv[0]) cmd = &c;
  if (cmd == nullptr) return Status::InvalidArgument("adjutant: unknown command '" + argv[0] + "'");
  if (!ThroughDesk(argv[0])) {
    return Status::InvalidArgument("adjutant " + argv[0] + ": not through the order desk: stop the desk (adjutant "
                                   "serve) to run it");
  }
  auto args = Parse(cmd->spec, std::vector<std::string>(argv.begin() + 1, argv.end()));
  if (!args.ok()) return std::string();  // the command says what is wrong, on no game's sequencer
  const size_t at = cmd->spec.name == "report" ? 1 : 0;  // report KIND GAME
  return args->positional.size() > at ? args->positional[at] : std::string();
}

int RunShared(ledger::Ledger& db, const std::vector<std::string>& argv, std::string* out, std::string* err,
              const std::string& in) {
  Inputs inputs;
  inputs.files["-"] = in;
  return RunShared(db, argv, out, err, inputs);
}

int RunShared(ledger::Ledger& db, const std::vector<std::string>& argv, std::string* out, std::string* err,
              const Inputs& inputs) {
  Capture capture;
  capture.shared = &db;
  capture.inputs = &inputs;
  Capture* before = CurrentCapture();
  CurrentCapture() = &capture;
  auto cmds = AllCommands();
  int code = 0;
  const Command* cmd = nullptr;
  for (const auto& c : cmds) if (!argv.empty() && c.spec.name == argv[0]) cmd = &c;
  if (cmd == nullptr) {
    *err = "adjutant: unknown command '" + (argv.empty() ? std::string() : argv[0]) + "'";
    code = 2;
  } else if (auto args = Parse(cmd->spec, std::vector<std::string>(argv.begin() + 1, argv.end())); !args.ok()) {
    *err = args.status().message();
    code = 2;
  } else if (args->help) {
    capture.out = HelpText(cmd->spec);  // no command runs (it would without its arguments)
  } else {
    Context ctx;
    ctx.db = db.dir();
    ctx.args = std::move(args).value();
    Status st = cmd->run(ctx);
    if (!st.ok()) {
      *err = st.message();
      code = st.exit_code();
    }
  }
  CurrentCapture() = before;
  *out = std::move(capture.out);
  return code;
}

int Run(const std::vector<std::string>& argv) {
  if (sodium_init() < 0) {
    std::fprintf(stderr, "adjutant: libsodium failed to initialise\n");
    return 5;
  }
  auto cmds = AllCommands();
  Context ctx;
  const char* env = std::getenv("ADJUTANT_DB");
  ctx.db = env && *env ? env : std::string(ledger::kDefaultDir);
  size_t i = 0;
  bool no_server = false;
  std::chrono::seconds server_wait(kDefaultServerWaitS);
  while (i < argv.size()) {
    if (argv[i] == "--no-server") {
      no_server = true;
      ++i;
    } else if (argv[i] == "--server-wait" || argv[i].rfind("--server-wait=", 0) == 0) {
      std::string v;
      if (argv[i] == "--server-wait") {
        if (i + 1 >= argv.size()) {
          std::fprintf(stderr, "adjutant: --server-wait needs a number of seconds\n");
          return 2;
        }
        v = argv[i + 1];
        i += 2;
      } else {
        v = argv[i].substr(14);
        ++i;
      }
      char* end = nullptr;
      errno = 0;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || errno != 0 || n < 1 || n > 86400) {
        std::fprintf(stderr, "adjutant: --server-wait: '%s' is not a number of seconds from 1 to 86400\n", v.c_str());
        return 2;
      }
      server_wait = std::chrono::seconds(n);
    } else if (argv[i] == "--db") {
      if (i + 1 >= argv.size()) {
        std::fprintf(stderr, "adjutant: --db needs a directory\n");
        return 2;
      }
      ctx.db = argv[i + 1];
      i += 2;
    } else if (argv[i].rfind("--db=", 0) == 0) {
      ctx.db = argv[i].substr(5);
      ++i;
    } else {
      break;
    }
  }
  if (i >= argv.size() || argv[i] == "--help" || argv[i] == "-h" || argv[i] == "help") {
    Out(MainHelp(cmds));
    return i >= argv.size() ? 2 : 0;
  }
  if (argv[i] == "--version") {
    Line(kVersion);
    return 0;
  }
  const Command* cmd = nullptr;
  for (const auto& c : cmds) if (c.spec.name == argv[i]) cmd = &c;
  if (cmd == nullptr) {
    std::fprintf(stderr, "adjutant: unknown command '%s' (see adjutant --help)\n", argv[i].c_str());
    return 2;
  }
  auto args = Parse(cmd->spec, std::vector<std::string>(argv.begin() + static_cast<long>(i) + 1, argv.end()));
  if (!args.ok()) {
    std::fprintf(stderr, "%s\n", args.status().message().c_str());
    return 2;
  }
  if (args->help) {
    Out(HelpText(cmd->spec));
    return 0;
  }
  ctx.args = std::move(args).value();
  // What the command reads is kept: refused because the order desk holds the
  // database, it is sent there with it.
  ClientRecord record;
  if (!no_server) CurrentRecord() = &record;
  Status st = cmd->run(ctx);
  CurrentRecord() = nullptr;
  std::fflush(stdout);
  if (!st.ok() && st.code() == Status::Code::kBusy && record.busy) {
    const int code = SendToDesk(ctx, *cmd, std::vector<std::string>(argv.begin() + static_cast<long>(i), argv.end()),
                                record, st, server_wait);
    return ctx.temp_fail_code != 0 && code == 5 ? ctx.temp_fail_code : code;
  }
  if (!st.ok()) {
    // One prefix: messages that already name the command keep theirs.
    const std::string prefix = "adjutant " + cmd->spec.name;
    if (st.message().rfind(prefix, 0) == 0) std::fprintf(stderr, "%s\n", st.message().c_str());
    else std::fprintf(stderr, "%s: %s\n", prefix.c_str(), st.message().c_str());
    if (ctx.temp_fail_code != 0 && (st.code() == Status::Code::kIOError || st.code() == Status::Code::kBusy)) {
      return ctx.temp_fail_code;
    }
    return st.exit_code();
  }
  return 0;
}

}  // namespace adjutant::cli
