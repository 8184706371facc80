// GA actions recorded as events: roll, ruling (their work: ops/acts.cc).
#include "base/limits.h"
#include "cli/common.h"
#include "ops/ops.h"

namespace adjutant::cli {
namespace {

Status CmdRoll(Context& c) {
  ops::RollRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.purpose = Opt(c.args, "purpose");
  rq.rule = Opt(c.args, "rule");
  rq.subject = Opt(c.args, "subject");
  rq.sides = Opt(c.args, "sides");
  rq.count = Opt(c.args, "count");
  if (auto path = c.args.Value("script")) {
    auto text = ReadFile(*path, limits::kScriptFileBytesMax);
    if (!text.ok()) return text.status();
    rq.script = std::move(text).value();
    rq.script_from = *path;
  }
  rq.key = Opt(c.args, "key");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Roll, rq);
}

Status CmdRuling(Context& c) {
  ops::RulingRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.reason = Opt(c.args, "reason");
  rq.text = Opt(c.args, "text");
  rq.key = Opt(c.args, "key");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Ruling, rq);
}

}  // namespace

std::vector<Command> GaCommands() {
  return {
      {{"roll", "GAME --purpose P --rule R [--sides N] [--count C] [--subject S] [--script FILE] [--key K]",
        "Roll dice for a GA's ruling at the branch's current turn and phase, and record the roll.\n"
        "Counter-based from the game's seed and the branch's salt, or taken from a script file of values.",
        {kBranch, {"purpose", "P", "what the roll decides"}, {"rule", "R", "the rule it serves, e.g. \"PATE 8.1\""},
         {"sides", "N", "sides of each die (default 6)"}, {"count", "C", "number of dice (default 1)"},
         {"subject", "S", "what the roll is about (a ship, a province)"},
         {"script", "FILE", "take the values from FILE (whitespace-separated, # comments; - reads standard input)"},
         {"key", "K", "idempotency key: a retry with the same key records nothing new"}, kJson},
        1, 1,
        "Roll dice for a GA's ruling at the current turn and phase, and record the roll."},
       CmdRoll},
      {{"ruling", "GAME --reason R --text T [--branch B] [--key K]", "Record a GA's written ruling as a directive.",
        {kBranch, {"reason", "R", "why the ruling is made"}, {"text", "T", "the ruling"},
         {"key", "K", "idempotency key"}, kJson},
        1, 1},
       CmdRuling},
  };
}

}  // namespace adjutant::cli
