// The history rebuilt: replay and diff (views at a point), audit
// (re-adjudication), conform (cases played from nothing).
#include <algorithm>
#include <filesystem>

#include "base/limits.h"
#include "base/scratch.h"
#include "cli/common.h"
#include "cli/report_common.h"
#include "ledger/ledger.h"
#include "replay/audit.h"
#include "replay/conform.h"
#include "replay/driver.h"
#include "replay/views.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::cli {
namespace {

// ---- replay / diff (views at a point) ------------------------------------------


// The last event of turn T (or of phase P of it), or the head.
Result<uint64_t> EndOf(ledger::Ledger& db, const std::string& game, const std::string& branch,
                       const std::optional<TurnPhase>& point) {
  if (!point) return UINT64_MAX;
  if (point->phase == 0) return EndOfTurn(db, game, branch, point->turn);
  auto next = db.SeekTurn(game, branch, TurnPhase{point->turn, static_cast<uint16_t>(point->phase + 1)});
  if (!next.ok()) return next.status();
  auto end_of_turn = EndOfTurn(db, game, branch, point->turn);
  if (!end_of_turn.ok()) return end_of_turn.status();
  return next->has_value() ? std::min(**next - 1, *end_of_turn) : *end_of_turn;
}

Result<std::optional<std::string>> ViewFilter(Context& c) {
  auto v = c.args.Value("view");
  if (!v) return std::optional<std::string>();
  const auto& names = replay::ViewNames();
  if (std::find(names.begin(), names.end(), *v) == names.end()) {
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("--view: no view '" + *v + "' (views: " + all + ")");
  }
  return std::optional<std::string>(*v);
}

Status CmdReplay(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto to = c.args.Value("to");
  if (!to) return Status::InvalidArgument("adjutant replay: --to TURN[.PHASE] is required");
  auto point = ParseTurnPhase(*to);
  if (!point) return Status::InvalidArgument("--to: '" + *to + "' is not " + kTurnPhaseForms);
  auto only = ViewFilter(c);
  if (!only.ok()) return only.status();
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  auto upto = EndOf(**db, game, branch, point);
  if (!upto.ok()) return upto.status();
  // --view V folds what V needs (replay::ProjectionsOfView), not every view.
  auto w = *only ? replay::FoldView(**db, game, branch, **only, *upto) : replay::Fold(**db, game, branch, *upto);
  if (!w.ok()) return w.status();
  auto rows = replay::Flatten(*w, only->value_or(""));
  uint64_t as_of = std::min(*upto, w->head.seq);
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::ViewRow>> out;
    for (const auto& [k, v] : rows) {
      if (*only && std::get<0>(k) != **only) continue;
      out.push_back(fb::CreateViewRowDirect(f, std::get<0>(k).c_str(), std::get<1>(k).c_str(), std::get<2>(k).c_str(),
                                            v.c_str(), nullptr));
    }
    f.Finish(fb::CreateViewsReportDirect(f, game.c_str(), branch.c_str(), as_of, 0, &out));
    return PrintJson("ViewsReport", f);
  }
  Line("views of " + game + "/" + branch + " at the end of " + (point->phase ? "phase " + std::to_string(point->phase) + " of " : "") +
       "turn " + point->turn.ToString() + " (as of seq " + std::to_string(as_of) + ")");
  for (const auto& [k, v] : rows) {
    if (*only && std::get<0>(k) != **only) continue;
    Line(std::get<0>(k) + "  " + std::get<1>(k) + "  " + std::get<2>(k) + ": " + v);
  }
  return Status::Ok();
}

Status CmdDiff(Context& c) {
  const std::string& game = c.args.positional[0];
  const std::string& a = c.args.positional[1];
  const std::string& b = c.args.positional[2];
  auto only = ViewFilter(c);
  if (!only.ok()) return only.status();
  std::optional<TurnPhase> point;
  if (auto t = c.args.Value("turn")) {
    point = ParseTurnPhase(*t);
    if (!point) return Status::InvalidArgument("--turn: '" + *t + "' is not " + kTurnPhaseForms);
  }
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  std::map<replay::ViewKey, std::string> views[2];
  const std::string names[2] = {a, b};
  for (int i = 0; i < 2; ++i) {
    auto upto = EndOf(**db, game, names[i], point);
    if (!upto.ok()) return upto.status();
    auto w = *only ? replay::FoldView(**db, game, names[i], **only, *upto) : replay::Fold(**db, game, names[i], *upto);
    if (!w.ok()) return w.status();
    views[i] = replay::Flatten(*w, only->value_or(""));
  }
  auto parted = replay::FirstParting(**db, game, a, b);
  if (!parted.ok()) return parted.status();
  auto diffs = replay::Compare(views[0], views[1]);
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::ViewRow>> out;
    for (const auto& d : diffs) {
      if (*only && std::get<0>(d.key) != **only) continue;
      out.push_back(fb::CreateViewRowDirect(f, std::get<0>(d.key).c_str(), std::get<1>(d.key).c_str(),
                                            std::get<2>(d.key).c_str(), d.a.c_str(), d.b.c_str()));
    }
    f.Finish(fb::CreateViewsReportDirect(f, game.c_str(), (a + ".." + b).c_str(), 0, *parted, &out));
    return PrintJson("ViewsReport", f);
  }
  Line(*parted ? game + ": " + a + " and " + b + " part at seq " + std::to_string(*parted)
               : game + ": " + a + " and " + b + " hold the same events");
  size_t shown = 0;
  for (const auto& d : diffs) {
    if (*only && std::get<0>(d.key) != **only) continue;
    ++shown;
    Line(std::get<0>(d.key) + "  " + std::get<1>(d.key) + "  " + std::get<2>(d.key) + ": " +
         (d.a.empty() ? "(none)" : d.a) + "  |  " + (d.b.empty() ? "(none)" : d.b));
  }
  if (shown == 0) Line("the views are the same" + std::string(point ? " at the end of " + point->turn.ToString() : ""));
  return Status::Ok();
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

// ---- audit -------------------------------------------------------------------
Status CmdAudit(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  std::vector<Turn> turns;
  if (c.args.Flag("all")) {
    if (c.args.Value("turn")) return Status::InvalidArgument("adjutant audit: --all and --turn exclude each other");
    auto all = replay::AdjudicatedTurns(**db, game, branch);
    if (!all.ok()) return all.status();
    turns = *all;
    if (turns.empty()) return Status::NotFound("game '" + game + "/" + branch + "' has no adjudicated turn to audit");
  } else if (auto t = c.args.Value("turn")) {
    auto turn = Turn::Parse(*t);
    if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
    turns.push_back(*turn);
  } else {
    return Status::InvalidArgument("adjutant audit: give --turn T or --all");
  }
  // --rules-version: re-adjudicate under other versions than those recorded.
  rules::RulesVersions under;
  std::string under_text;
  if (auto v = c.args.Value("rules-version")) {
    auto parsed = rules::ParseRulesVersions(*v, rules::RulesVersions{});
    if (!parsed.ok()) return Status::InvalidArgument("--rules-version: " + parsed.status().message());
    under = *parsed;
    for (std::string_view r : rules::VersionedRulesets()) {
      if (under.Of(r)) under_text += (under_text.empty() ? "" : ",") + std::string(r) + "=" + std::to_string(under.Of(r));
    }
  }
  const std::string suffix = under_text.empty() ? "" : " under " + under_text;
  std::string first_difference;
  for (const Turn& t : turns) {
    auto r = replay::AuditTurn(**db, game, branch, t, under);
    if (!r.ok()) return r.status();
    if (c.args.Flag("json")) {
      flatbuffers::FlatBufferBuilder f;
      fb::Turn ft(t.major, t.minor, t.step);
      f.Finish(fb::CreateAuditTurnResultDirect(f, game.c_str(), branch.c_str(), &ft, static_cast<uint32_t>(r->phases),
                                               static_cast<uint32_t>(r->events), r->identical, r->seq,
                                               r->recorded.c_str(), r->produced.c_str(), r->rule.c_str(),
                                               r->reason.c_str(), under_text.empty() ? nullptr : under_text.c_str()));
      ADJ_RETURN_IF_ERROR(PrintJson("AuditTurnResult", f));
    } else if (r->identical) {
      Line("turn " + t.ToString() + ": " + std::to_string(r->events) + " events, identical" + suffix +
           (r->views_not_compared ? " (" + std::to_string(r->views_not_compared) +
                                        " view digests recorded by another version of a view not compared)"
                                  : ""));
    } else {
      Line("turn " + t.ToString() + ": differs" + suffix + " at seq " + std::to_string(r->seq) + ": " + r->reason +
           (r->rule.empty() ? "" : " (" + r->rule + ")"));
      Line("  recorded: " + (r->recorded.empty() ? std::string("(nothing)") : r->recorded));
      Line("  produced: " + (r->produced.empty() ? std::string("(nothing)") : r->produced));
    }
    if (!r->identical && first_difference.empty()) {
      first_difference = game + "/" + branch + ": turn " + t.ToString() + " differs" + suffix + " at seq " +
                         std::to_string(r->seq);
    }
  }
  if (!first_difference.empty()) return Status::Corruption(first_difference);
  return Status::Ok();
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
                         "with `adjutant --db DIR log case`"}}, 1, 1000},
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
        1, 1},
       CmdReplay},
      {{"diff", "GAME A B [--turn T[.PHASE]] [--view V] [--json]",
        "Where two branches differ: the first sequence number at which their logs part, and every field\n"
        "of every view that differs at the end of turn T (default: at their heads), as `A | B`.",
        {{"turn", "T[.PHASE]", "compare the views at the end of this turn or phase"}, {"view", "V", "only this view"},
         kJson},
        3, 3},
       CmdDiff},
  };
}

}  // namespace adjutant::cli
