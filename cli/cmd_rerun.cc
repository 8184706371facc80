// The history rebuilt: replay and diff (views at a point), audit
// (re-adjudication), conform (cases played from nothing).
#include <algorithm>
#include <filesystem>

#include "base/limits.h"
#include "base/scratch.h"
#include "cli/common.h"
#include "ops/ops.h"
#include "replay/conform.h"
#include "schema/inputs_generated.h"

namespace adjutant::cli {
namespace {

// ---- replay / diff (views at a point): ops/rerun.cc -----------------------------
Status CmdReplay(Context& c) {
  ops::ReplayRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.to = Opt(c.args, "to");
  rq.view = Opt(c.args, "view");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Replay, rq);
}

Status CmdDiff(Context& c) {
  ops::DiffRequest rq;
  rq.game = c.args.positional[0];
  rq.a = c.args.positional[1];
  rq.b = c.args.positional[2];
  rq.turn = Opt(c.args, "turn");
  rq.view = Opt(c.args, "view");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Diff, rq);
}

// ---- conform -----------------------------------------------------------------

Status CmdConform(Context& c) {
  std::vector<std::string> files;
  for (const auto& arg : c.args.positional) {
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::string> found;
      for (const auto& e : std::filesystem::recursive_directory_iterator(arg, ec)) {
        if (e.is_regular_file() && e.path().extension() == ".json") found.push_back(e.path().string());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) return Status::InvalidArgument("adjutant conform: no case files found");
  const std::optional<std::string> keep = c.args.Value("keep");
  size_t passed = 0, failed = 0;
  for (const auto& file : files) {
    auto doc = ReadDocument(file, "ConformanceCase", limits::kScenarioFileBytesMax);
    if (!doc.ok()) return doc.status();
    auto scratch = ScratchDir("adjutant-conform-");
    if (!scratch.ok()) return Status::IOError(file + ": " + scratch.status().message());
    auto r = replay::RunCase(*flatbuffers::GetRoot<fb::ConformanceCase>(doc->data()), *scratch + "/db");
    std::error_code ec;
    if (keep) {
      // The case's database (game "case"), for `adjutant --db DIR log case`.
      const std::string to = files.size() == 1 ? *keep : *keep + "/" + std::filesystem::path(file).stem().string();
      std::filesystem::remove_all(to, ec);
      std::filesystem::create_directories(std::filesystem::path(to).parent_path(), ec);
      std::filesystem::rename(*scratch + "/db", to, ec);
      if (ec) return Status::IOError("--keep: cannot move the case's database to " + to + ": " + ec.message());
    }
    std::filesystem::remove_all(*scratch, ec);
    if (!r.ok()) {
      // A case that cannot be played (e.g. its dice run out) fails; the others still run.
      ++failed;
      Line("FAILED  " + file + ": " + r.status().message());
      continue;
    }
    std::string rules;
    for (const auto& rule : r->rules) rules += (rules.empty() ? "" : ", ") + rule;
    if (r->passed()) {
      ++passed;
      Line("passed  " + r->name + (rules.empty() ? "" : "  [" + rules + "]"));
    } else {
      ++failed;
      Line("FAILED  " + r->name + (rules.empty() ? "" : "  [" + rules + "]") + "  (" + file + ")");
      for (const auto& d : r->differences) Line("          " + d);
    }
  }
  Line(std::to_string(passed) + " passed, " + std::to_string(failed) + " failed");
  if (failed) return Status::Corruption(std::to_string(failed) + " case(s) failed");
  return Status::Ok();
}

// ---- audit: ops/rerun.cc ---------------------------------------------------------
Status CmdAudit(Context& c) {
  ops::AuditRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.turn = Opt(c.args, "turn");
  rq.all = c.args.Flag("all");
  rq.rules_version = Opt(c.args, "rules-version");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Audit, rq);
}

}  // namespace

std::vector<Command> RerunCommands() {
  return {
      {{"conform", "FILE|DIR...",
        "Run conformance cases (JSON ConformanceCase documents; fixtures/conformance/README.md).\n"
        "Each case is a small game played from nothing in a scratch database — its scenario, orders,\n"
        "directives and adjudications, with scripted dice where rolls matter — and its views compared with\n"
        "the values it expects. Ends with `N passed, N failed`; exit 3 if any failed (a case that cannot be\n"
        "played, e.g. its dice run out, fails with the reason and the others still run).",
        {{"keep", "DIR", "keep each case's database: DIR itself for one case, else DIR/<case name>; inspect it\n"
                         "with `adjutant --db DIR log case`"}}, 1, 1000,
        "Run conformance cases (JSON documents; fixtures/conformance/README.md)."},
       CmdConform},
      {{"audit", "GAME [--branch B] (--turn T | --all) [--rules-version V] [--json]",
        "Re-adjudicate past turns and compare them with the log.\n"
        "For each phase of turn T, the state before it is rebuilt, the phase is adjudicated again from the\n"
        "orders and directives recorded before it with the branch's dice, and every event is compared byte\n"
        "for byte with the one recorded (PhaseCompleted carries every view's digest, so the views are\n"
        "compared too). Prints `turn T: N events, identical`, or where they part: the sequence number, the\n"
        "recorded and the produced event as JSON, and the rule. Exit 0 if every turn matched, 3 otherwise.\n"
        "Each phase runs under the rules versions it recorded; with --rules-version V, under V instead: the\n"
        "first difference is the first event version V would adjudicate differently.",
        {kBranch, {"turn", "T", "the turn to audit (YEAR.SEASON.TURN)"}, {"all", "", "audit every adjudicated turn"},
         {"rules-version", "V", "re-adjudicate under RULESET=N[,RULESET=N] (or N: every ruleset that has it)"}, kJson},
        1, 1},
       CmdAudit},
      {{"replay", "GAME --to TURN[.PHASE] [--branch B] [--view V] [--json]",
        "Print every view of a branch as it stood at the end of a turn, or of one phase of it.\n"
        "Views: treasury (states), cities, units, fleet (ships), roster (persons and roles), visibility\n"
        "(what each ship observed); one line per entity and field.",
        {{"to", "TURN[.PHASE]", "the turn (YEAR.SEASON.TURN) or a phase of it"}, kBranch,
         {"view", "V", "only this view"}, kJson},
        1, 1,
        "Print every view of a branch as it stood at the end of a turn or of a phase."},
       CmdReplay},
      {{"diff", "GAME A B [--turn T[.PHASE]] [--view V] [--json]",
        "Where two branches differ: the first sequence number at which their logs part, and every field\n"
        "of every view that differs at the end of turn T (default: at their heads), as `A | B`.",
        {{"turn", "T[.PHASE]", "compare the views at the end of this turn or phase"}, {"view", "V", "only this view"},
         kJson},
        3, 3,
        "Where two branches differ: where their logs part and each view field that differs."},
       CmdDiff},
  };
}

}  // namespace adjutant::cli
