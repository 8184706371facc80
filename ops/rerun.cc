// The history rebuilt (ops.h): replay and diff (views at a point), audit
// (re-adjudication).
#include <algorithm>

#include <flatbuffers/flatbuffers.h>

#include "ops/internal.h"
#include "replay/audit.h"
#include "replay/driver.h"
#include "replay/views.h"
#include "reports/reports.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::ops {
namespace {

using reports::EndOfTurn;

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

Result<std::optional<std::string>> ViewFilter(const Opt& v) {
  if (!v) return std::optional<std::string>();
  const auto& names = replay::ViewNames();
  if (std::find(names.begin(), names.end(), *v) == names.end()) {
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("--view: no view '" + *v + "' (views: " + all + ")");
  }
  return std::optional<std::string>(*v);
}

Status DoReplay(const Env& env, const ReplayRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  auto to = rq.to;
  if (!to) return Status::InvalidArgument("adjutant replay: --to TURN[.PHASE] is required");
  auto point = ParseTurnPhase(*to);
  if (!point) return Status::InvalidArgument("--to: '" + *to + "' is not " + kTurnPhaseForms);
  auto only = ViewFilter(rq.view);
  if (!only.ok()) return only.status();
  auto db = env.open(false);
  if (!db.ok()) return db.status();
  auto upto = EndOf(**db, game, branch, point);
  if (!upto.ok()) return upto.status();
  // --view V folds what V needs (replay::ProjectionsOfView), not every view.
  auto w = *only ? replay::FoldView(**db, game, branch, **only, *upto) : replay::Fold(**db, game, branch, *upto);
  if (!w.ok()) return w.status();
  auto rows = replay::Flatten(*w, only->value_or(""));
  uint64_t as_of = std::min(*upto, w->head.seq);
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::ViewRow>> out;
    for (const auto& [k, v] : rows) {
      if (*only && std::get<0>(k) != **only) continue;
      out.push_back(fb::CreateViewRowDirect(f, std::get<0>(k).c_str(), std::get<1>(k).c_str(), std::get<2>(k).c_str(),
                                            v.c_str(), nullptr));
    }
    f.Finish(fb::CreateViewsReportDirect(f, game.c_str(), branch.c_str(), as_of, 0, &out));
    return p.Json("ViewsReport", f);
  }
  p.Line("views of " + game + "/" + branch + " at the end of " + (point->phase ? "phase " + std::to_string(point->phase) + " of " : "") +
       "turn " + point->turn.ToString() + " (as of seq " + std::to_string(as_of) + ")");
  for (const auto& [k, v] : rows) {
    if (*only && std::get<0>(k) != **only) continue;
    p.Line(std::get<0>(k) + "  " + std::get<1>(k) + "  " + std::get<2>(k) + ": " + v);
  }
  return Status::Ok();
}

Status DoDiff(const Env& env, const DiffRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  const std::string& a = rq.a;
  const std::string& b = rq.b;
  auto only = ViewFilter(rq.view);
  if (!only.ok()) return only.status();
  std::optional<TurnPhase> point;
  if (auto t = rq.turn) {
    point = ParseTurnPhase(*t);
    if (!point) return Status::InvalidArgument("--turn: '" + *t + "' is not " + kTurnPhaseForms);
  }
  auto db = env.open(false);
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
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::ViewRow>> out;
    for (const auto& d : diffs) {
      if (*only && std::get<0>(d.key) != **only) continue;
      out.push_back(fb::CreateViewRowDirect(f, std::get<0>(d.key).c_str(), std::get<1>(d.key).c_str(),
                                            std::get<2>(d.key).c_str(), d.a.c_str(), d.b.c_str()));
    }
    f.Finish(fb::CreateViewsReportDirect(f, game.c_str(), (a + ".." + b).c_str(), 0, *parted, &out));
    return p.Json("ViewsReport", f);
  }
  p.Line(*parted ? game + ": " + a + " and " + b + " part at seq " + std::to_string(*parted)
               : game + ": " + a + " and " + b + " hold the same events");
  size_t shown = 0;
  for (const auto& d : diffs) {
    if (*only && std::get<0>(d.key) != **only) continue;
    ++shown;
    p.Line(std::get<0>(d.key) + "  " + std::get<1>(d.key) + "  " + std::get<2>(d.key) + ": " +
         (d.a.empty() ? "(none)" : d.a) + "  |  " + (d.b.empty() ? "(none)" : d.b));
  }
  if (shown == 0) p.Line("the views are the same" + std::string(point ? " at the end of " + point->turn.ToString() : ""));
  return Status::Ok();
}

// ---- audit -------------------------------------------------------------------
Status DoAudit(const Env& env, const AuditRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  auto db = env.open(false);
  if (!db.ok()) return db.status();
  std::vector<Turn> turns;
  if (rq.all) {
    if (rq.turn) return Status::InvalidArgument("adjutant audit: --all and --turn exclude each other");
    auto all = replay::AdjudicatedTurns(**db, game, branch);
    if (!all.ok()) return all.status();
    turns = *all;
    if (turns.empty()) return Status::NotFound("game '" + game + "/" + branch + "' has no adjudicated turn to audit");
  } else if (auto t = rq.turn) {
    auto turn = Turn::Parse(*t);
    if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
    turns.push_back(*turn);
  } else {
    return Status::InvalidArgument("adjutant audit: give --turn T or --all");
  }
  // --rules-version: re-adjudicate under other versions than those recorded.
  rules::RulesVersions under;
  std::string under_text;
  if (auto v = rq.rules_version) {
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
    if (rq.json) {
      flatbuffers::FlatBufferBuilder f;
      fb::Turn ft(t.major, t.minor, t.step);
      f.Finish(fb::CreateAuditTurnResultDirect(f, game.c_str(), branch.c_str(), &ft, static_cast<uint32_t>(r->phases),
                                               static_cast<uint32_t>(r->events), r->identical, r->seq,
                                               r->recorded.c_str(), r->produced.c_str(), r->rule.c_str(),
                                               r->reason.c_str(), under_text.empty() ? nullptr : under_text.c_str(),
                                               static_cast<uint32_t>(r->heads)));
      ADJ_RETURN_IF_ERROR(p.Json("AuditTurnResult", f));
    } else if (r->identical) {
      p.Line("turn " + t.ToString() + ": " + std::to_string(r->events) + " events, identical" + suffix +
           (r->heads ? ", " + std::to_string(r->heads) + " signed tree head" + (r->heads == 1 ? "" : "s") + " hold" +
                           (r->heads == 1 ? "s" : "")
                     : "") +
           (r->views_not_compared ? " (" + std::to_string(r->views_not_compared) +
                                        " view digests recorded by another version of a view not compared)"
                                  : ""));
    } else {
      p.Line("turn " + t.ToString() + ": differs" + suffix + " at seq " + std::to_string(r->seq) + ": " + r->reason +
           (r->rule.empty() ? "" : " (" + r->rule + ")"));
      p.Line("  recorded: " + (r->recorded.empty() ? std::string("(nothing)") : r->recorded));
      p.Line("  produced: " + (r->produced.empty() ? std::string("(nothing)") : r->produced));
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

Answer Audit(const Env& env, const AuditRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoAudit(env, rq, p); });
}
Answer Replay(const Env& env, const ReplayRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoReplay(env, rq, p); });
}
Answer Diff(const Env& env, const DiffRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoDiff(env, rq, p); });
}

}  // namespace adjutant::ops
