#include "cli/args.h"

namespace adjutant::cli {

std::optional<std::string> Args::Value(const std::string& name) const {
  auto it = values.find(name);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Args::All(const std::string& name) const {
  auto it = all.find(name);
  return it == all.end() ? std::vector<std::string>{} : it->second;
}

std::string Args::ValueOr(const std::string& name, std::string fallback) const {
  auto v = Value(name);
  return v ? *v : fallback;
}

Result<Args> Parse(const CommandSpec& spec, const std::vector<std::string>& argv) {
  Args a;
  auto fail = [&](const std::string& m) {
    return Status::InvalidArgument("adjutant " + spec.name + ": " + m + " (see adjutant " + spec.name + " --help)");
  };
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& s = argv[i];
    if (s == "--help" || s == "-h") { a.help = true; return a; }
    if (s.size() > 2 && s.rfind("--", 0) == 0) {
      std::string name = s.substr(2), value;
      bool inline_value = false;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inline_value = true;
      }
      const OptionSpec* o = nullptr;
      for (const auto& c : spec.options) if (c.name == name) o = &c;
      if (o == nullptr) return fail("unknown option --" + name);
      if (o->value.empty()) {
        if (inline_value) return fail("--" + name + " takes no value");
        a.flags[name] = true;
        continue;
      }
      if (!inline_value) {
        if (i + 1 >= argv.size()) return fail("--" + name + " needs a value " + o->value);
        value = argv[++i];
      }
      if (a.values.count(name) && !o->repeat) return fail("--" + name + " given twice");
      if (o->repeat) a.all[name].push_back(value);
      a.values[name] = value;
      continue;
    }
    a.positional.push_back(s);
  }
  if (a.positional.size() < spec.positional_min) return fail("missing argument: usage: adjutant " + spec.name + " " + spec.usage);
  if (a.positional.size() > spec.positional_max) return fail("unexpected argument '" + a.positional[spec.positional_max] + "'");
  return a;
}

std::string Brief(const CommandSpec& spec) {
  if (!spec.brief.empty()) return spec.brief;
  // The summary's first sentence: up to the first full stop that ends a line
  // or has a space after it.
  for (size_t i = spec.summary.find('.'); i != std::string::npos; i = spec.summary.find('.', i + 1)) {
    if (i + 1 == spec.summary.size() || spec.summary[i + 1] == ' ' || spec.summary[i + 1] == '\n') {
      return spec.summary.substr(0, i + 1);
    }
  }
  return spec.summary;
}

std::string HelpText(const CommandSpec& spec) {
  std::string h = "usage: adjutant [--db DIR] " + spec.name + " " + spec.usage + "\n\n" + spec.summary + "\n";
  if (!spec.options.empty()) {
    h += "\noptions:\n";
    for (const auto& o : spec.options) {
      std::string left = "  --" + o.name + (o.value.empty() ? "" : " " + o.value);
      if (left.size() < 26) left.resize(26, ' '); else left += "  ";
      h += left + o.help + "\n";
    }
  }
  h += "  --help                  show this help\n";
  return h;
}

}  // namespace adjutant::cli
