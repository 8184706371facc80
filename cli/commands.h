// The `adjutant` command: dispatch and every subcommand.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"

namespace adjutant::ledger { class Ledger; }

namespace adjutant::cli {

// Runs `adjutant ARGS...` (argv without the program name); writes to
// stdout/stderr and returns the process exit status: 0 ok, 2 bad input or
// not found, 3 corruption or a failed verify, 4 conflict, 5 I/O or busy.
int Run(const std::vector<std::string>& argv);

// Runs `adjutant ARGS...` against a database the caller holds open (the
// order desk's), on this thread, with what it would print captured: `out`
// gets its output, `err` its error message. Returns the exit status as Run.
// Commands that read a file or a password read them as Run would.
int RunShared(ledger::Ledger& db, const std::vector<std::string>& argv, std::string* out, std::string* err,
              const std::string& in = "");

// What a command run by RunShared reads instead of files: it never opens a
// file itself, so no request can make a server read one.
struct Inputs {
  std::map<std::string, std::string> files;  // by the name the command was given ("-": its standard input)
  std::optional<std::string> password;       // a password read by the client ($ADJUTANT_PASSWORD, its terminal)
  std::set<std::string> made;                // files among `files` the client made for this command (a new salt)
};
int RunShared(ledger::Ledger& db, const std::vector<std::string>& argv, std::string* out, std::string* err,
              const Inputs& inputs);

// A command the running desk received over its socket (cli/socket.h): the
// game whose sequencer is to run it ("" for none), or why it does not run
// through the desk (serve, backup, restore and the commands that use no
// database: stop the desk to run those).
Result<std::string> DeskCommandGame(const std::vector<std::string>& argv);

}  // namespace adjutant::cli
