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
  bool repeat = false;  // may be given more than once (Args::All)
};

struct CommandSpec {
  std::string name;
  std::string usage;  // after "adjutant NAME "
  std::string summary;
  std::vector<OptionSpec> options;
  size_t positional_min = 0;
  size_t positional_max = 0;
  // Its line in `adjutant --help`: one sentence; empty: the summary's first.
  std::string brief = {};
};

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;  // options with a value (a repeated one: its last)
  std::map<std::string, std::vector<std::string>> all;  // every value of a repeatable option, in order
  std::map<std::string, bool> flags;
  bool help = false;

  bool Flag(const std::string& name) const { return flags.count(name) != 0; }
  std::optional<std::string> Value(const std::string& name) const;
  std::string ValueOr(const std::string& name, std::string fallback) const;
  std::vector<std::string> All(const std::string& name) const;
};

Result<Args> Parse(const CommandSpec& spec, const std::vector<std::string>& argv);
std::string HelpText(const CommandSpec& spec);
// What `adjutant --help` says of a command: its brief, else its summary's
// first sentence.
std::string Brief(const CommandSpec& spec);

}  // namespace adjutant::cli
