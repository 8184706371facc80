// The `adjutant` command: dispatch and every subcommand.
#pragma once

#include <string>
#include <vector>

namespace adjutant::cli {

// Runs `adjutant ARGS...` (argv without the program name); writes to
// stdout/stderr and returns the process exit status: 0 ok, 2 bad input or
// not found, 3 corruption or a failed verify, 4 conflict, 5 I/O or busy.
int Run(const std::vector<std::string>& argv);

}  // namespace adjutant::cli
