// Command-line parsing for `adjutant`: each command declares its options,
// and anything else is refused with a message naming the option.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"

namespace adjutant::cli {

struct OptionSpec {
  std::string name;   // without dashes: "branch"
  std::string value;  // placeholder ("B"); empty for a flag
  std::string help;
};

struct CommandSpec {
  std::string name;
  std::string usage;  // after "adjutant NAME "
  std::string summary;
  std::vector<OptionSpec> options;
  size_t positional_min = 0;
  size_t positional_max = 0;
};

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;  // options with a value
  std::map<std::string, bool> flags;
  bool help = false;

  bool Flag(const std::string& name) const { return flags.count(name) != 0; }
  std::optional<std::string> Value(const std::string& name) const;
  std::string ValueOr(const std::string& name, std::string fallback) const;
};

Result<Args> Parse(const CommandSpec& spec, const std::vector<std::string>& argv);
std::string HelpText(const CommandSpec& spec);

}  // namespace adjutant::cli
