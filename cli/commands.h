// The `adjutant` command: dispatch and every subcommand.
#pragma once

#include <string>
#include <vector>

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

}  // namespace adjutant::cli
