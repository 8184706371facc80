// Runs the built `adjutant` binary and captures what it printed.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace adjutant::testing {

struct Run {
  int code = -1;
  std::string out, err;
};

// Runs the binary with `args`; `env` entries ("K=V") are added to the
// inherited environment, less any ADJUTANT_DB and ADJUTANT_PASSWORD.
Run Adjutant(const std::vector<std::string>& args, const std::vector<std::string>& env = {});
// The same with `input` as its standard input (else /dev/null).
Run AdjutantWithInput(const std::vector<std::string>& args, const std::optional<std::string>& input,
                      const std::vector<std::string>& env = {});
// The same run from the directory `cwd` (relative paths in `args` are its).
Run AdjutantFrom(const std::string& cwd, const std::vector<std::string>& args,
                 const std::optional<std::string>& input = std::nullopt, const std::vector<std::string>& env = {});

std::vector<std::string> Lines(const std::string& s);
std::string Slurp(const std::string& path);

}  // namespace adjutant::testing
