#include "cli/commands.h"

#include <sodium.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <sstream>

#include "base/limits.h"
#include "base/scratch.h"
#include "cli/args.h"
#include "cli/common.h"
#include "cli/report_common.h"
#include "cli/render.h"
#include "ledger/ledger.h"
#include "projections/summary.h"
#include "replay/audit.h"
#include "replay/conform.h"
#include "replay/dice_commit.h"
#include "replay/digest.h"
#include "replay/fork.h"
#include "replay/views.h"
#include "replay/driver.h"
#include "replay/create.h"
#include "replay/rebuild.h"
#include "rules/dice.h"
#include "rules/events.h"
#include "schema/pate_generated.h"
#include "schema/codec.h"
#include "schema/text.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::cli {
namespace {

constexpr const char* kVersion = "adjutant 0.1.0";

// ---- new ---------------------------------------------------------------------
Status CmdNew(Context& c) {
  const std::string& game = c.args.positional[0];
  ADJ_RETURN_IF_ERROR(ledger::CheckName("game", game));
  auto path = c.args.Value("scenario");
  if (!path) return Status::InvalidArgument("adjutant new: --scenario FILE is required");
  auto text = ReadFile(*path, limits::kScenarioFileBytesMax);
  if (!text.ok()) return text.status();
  auto buf = schema::ParseJson("Scenario", *text, *path);
  if (!buf.ok()) return buf.status();
  auto* sc = flatbuffers::GetRoot<fb::Scenario>(buf->data());
  if (sc->name()->size() == 0) return Status::InvalidArgument(*path + ": field 'name' is empty");
  if (sc->rulesets()) {
    for (flatbuffers::uoffset_t i = 0; i < sc->rulesets()->size(); ++i) {
      std::string r = sc->rulesets()->Get(i)->str();
      const auto known = rules::KnownRulesets();
      if (std::find(known.begin(), known.end(), r) == known.end()) {
        std::string names;
        for (std::string_view k : known) names += (names.empty() ? "" : ", ") + std::string(k);
        return Status::InvalidArgument(*path + ": rulesets[" + std::to_string(i) + "]: unknown ruleset '" + r +
                                       "' (known: " + names + ")");
      }
    }
  }
  if (sc->players()) {
    for (flatbuffers::uoffset_t i = 0; i < sc->players()->size(); ++i) {
      auto st = ledger::CheckName("person", sc->players()->Get(i)->person()->string_view());
      if (!st.ok()) return Status::InvalidArgument(*path + ": players[" + std::to_string(i) + "].person: " + st.message());
    }
  }
  auto seed = U64Option(c.args, "seed", 0);
  if (!seed.ok()) return seed.status();
  uint64_t s = *seed;
  if (!c.args.Value("seed")) randombytes_buf(&s, sizeof s);
  // The checks, the start of the calendar and the map recorded with the game.
  auto kind = replay::KindOfScenario(*sc);
  if (!kind.ok()) return Status::InvalidArgument(*path + ": " + kind.status().message());
  auto map_path = c.args.Value("map");
  std::optional<std::vector<uint8_t>> map_doc;
  if (map_path && (*kind)->MapTable().empty()) {
    map_doc.emplace();  // the kind refuses it, naming why
  } else if (map_path) {
    auto doc = ReadDocument(*map_path, std::string((*kind)->MapTable()), limits::kScenarioFileBytesMax);
    if (!doc.ok()) return doc.status();
    map_doc = std::move(doc).value();
  }
  bool map_error = false;
  auto start = replay::PrepareGame(*sc, std::move(map_doc), &map_error);
  if (!start.ok()) {
    if (map_error) return Status::InvalidArgument(*map_path + ": " + start.status().message());
    return Status::InvalidArgument(*path + ": " + start.status().message() + (map_path ? " (" + *map_path + ")" : ""));
  }
  TurnPhase at = start->at;
  std::vector<Draft> more = std::move(start->more);
  auto db = OpenDb(c, true, /*create=*/true);
  if (!db.ok()) return db.status();
  auto head = (*db)->CreateGame(game, s, *buf, at, kGa, more);
  if (!head.ok()) return head.status();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), "main", 1, head->seq, head->hash.Hex().c_str(), false));
    return PrintJson("AppendSummary", fbb);
  }
  Line("created game " + game + " (" + sc->name()->str() + "), seed " + std::to_string(s) +
       (more.empty() ? "" : ", with the " + std::string((*kind)->MapNoun()) + " " + *c.args.Value("map")) +
       ", in " + c.db);
  return Status::Ok();
}

// ---- log ---------------------------------------------------------------------
Status CmdLog(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto from = U64Option(c.args, "from", 1);
  if (!from.ok()) return from.status();
  auto to = U64Option(c.args, "to", UINT64_MAX);
  if (!to.ok()) return to.status();
  std::string kind;
  if (auto k = c.args.Value("kind"); k && !KnownKind(*k, &kind)) {
    return Status::InvalidArgument("--kind: no event kind '" + *k + "' (kinds: " + KnownKinds() + ")");
  }
  std::optional<Turn> turn;
  if (auto t = c.args.Value("turn")) {
    turn = Turn::Parse(*t);
    if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (MAJOR[.MINOR[.STEP]], e.g. 1805.2.3)");
  }
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  uint64_t lo = *from, hi = *to;
  if (turn) {
    auto start = (*db)->SeekTurn(game, branch, TurnPhase{*turn, 0});
    if (!start.ok()) return start.status();
    if (!start->has_value()) return Status::Ok();  // nothing that late
    lo = std::max(lo, **start);
  }
  bool json = c.args.Flag("json");
  std::string out;
  Status st = (*db)->Read(game, branch, lo, hi, [&](const ledger::EventView& e) {
    const fb::Turn* t = e.event()->turn();
    if (turn) {
      Turn et = t ? Turn{t->major(), t->minor(), t->step()} : Turn{};
      if (et != *turn) return Status::NotFound("");  // past the turn: stop
    }
    if (!kind.empty() && KindName(e) != kind && DisplayKind(e) != kind) return Status::Ok();
    if (json) {
      auto j = schema::ToJson("Event", e.bytes.data());
      if (!j.ok()) return Status::Corruption("seq " + std::to_string(e.seq) + ": " + j.status().message());
      out += *j;
    } else {
      out += EventLine(e);
    }
    out += '\n';
    if (out.size() > (1 << 16)) { Out(out); out.clear(); }
    return Status::Ok();
  });
  Out(out);
  if (st.code() == Status::Code::kNotFound && st.message().empty()) return Status::Ok();
  return st;
}

// ---- verify ------------------------------------------------------------------
// A turn's digest, checked against the one the GA published (issue 5).
Status VerifyDigest(Context& c, ledger::Ledger& db, const std::string& game, const std::string& digest) {
  auto t = c.args.Value("turn");
  if (!t) return Status::InvalidArgument("adjutant verify: --digest D needs --turn T, the turn it was taken after");
  auto turn = Turn::Parse(*t);
  if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
  std::string branch = BranchArg(c, game);
  auto d = replay::DigestTurn(db, game, branch, *turn);
  if (!d.ok()) return d.status();
  bool same = sodium_memcmp(d->hex.data(), digest.data(), std::min(d->hex.size(), digest.size())) == 0 &&
              d->hex.size() == digest.size();
  if (!same) {
    return Status::Corruption(game + "/" + branch + ": the log up to the end of turn " + t->c_str() +
                              " (seq " + std::to_string(d->last_seq) + ") no longer matches digest " + digest);
  }
  Line("verify " + game + "/" + branch + ": turn " + turn->ToString() + " matches its digest (" +
       std::to_string(d->events) + " events up to seq " + std::to_string(d->last_seq) + ")");
  return Status::Ok();
}

Status CmdVerify(Context& c) {
  const std::string& game = c.args.positional[0];
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  if (auto digest = c.args.Value("digest")) return VerifyDigest(c, **db, game, *digest);
  if (c.args.Flag("dice")) {
    auto t = c.args.Value("turn");
    auto turn = t ? Turn::Parse(*t) : std::nullopt;
    if (!turn) return Status::InvalidArgument("adjutant verify: --dice needs --turn T");
    std::string branch = BranchArg(c, game);
    auto check = replay::VerifyTurnDice(**db, game, branch, *turn);
    if (!check.ok()) return check.status();
    if (!check->ok) {
      return Status::Corruption(game + "/" + branch + ": turn " + turn->ToString() + "'s dice: " + check->reason +
                                (check->bad_seq ? " (seq " + std::to_string(check->bad_seq) + ")" : ""));
    }
    Line("verify " + game + "/" + branch + ": turn " + turn->ToString() + "'s revealed salt matches its commitment, and " +
         std::to_string(check->rolls) + " roll(s) of the turn are what the seed and salts give");
    return Status::Ok();
  }
  if (c.args.Value("turn")) return Status::InvalidArgument("adjutant verify: --turn goes with --digest D or --dice");
  std::vector<std::string> branches;
  if (c.args.Flag("all")) {
    if (c.args.Value("branch")) return Status::InvalidArgument("adjutant verify: --all and --branch exclude each other");
    auto bs = (*db)->Branches(game);
    if (!bs.ok()) return bs.status();
    for (const auto& b : *bs) branches.push_back(b.name);
  } else {
    branches.push_back(BranchArg(c, game));
  }
  bool all_ok = true;
  std::string first_failure;
  for (const auto& branch : branches) {
    auto rep = (*db)->Verify(game, branch);
    if (!rep.ok()) return rep.status();
    if (c.args.Flag("json")) {
      flatbuffers::FlatBufferBuilder fbb;
      fbb.Finish(fb::CreateVerifyResultDirect(fbb, game.c_str(), branch.c_str(), rep->ok, rep->events,
                                              rep->head.seq, rep->head.hash.Hex().c_str(), rep->bad_seq,
                                              rep->reason.c_str()));
      ADJ_RETURN_IF_ERROR(PrintJson("VerifyResult", fbb));
    } else if (rep->ok) {
      Line("verify " + game + "/" + branch + ": ok, " + std::to_string(rep->events) + " events, head " +
           std::to_string(rep->head.seq) + " " + rep->head.hash.Hex());
    }
    if (!rep->ok) {
      all_ok = false;
      if (first_failure.empty()) {
        first_failure = "verify " + game + "/" + branch + ": FAILED at seq " + std::to_string(rep->bad_seq) + ": " +
                        rep->reason;
      }
    }
  }
  if (!all_ok) return Status::Corruption(first_failure);
  // Every branch is whole again (say, the GA put a table file back from a
  // copy): the damage once found no longer stops the game's reads.
  if (c.args.Flag("all") && (*db)->DamageOf(game)) {
    (*db)->ClearDamage(game);
    if (!c.args.Flag("json")) Line("verify " + game + ": every branch verifies; the damage recorded earlier is cleared");
  }
  return Status::Ok();
}

// ---- digest ------------------------------------------------------------------
Status CmdDigest(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto t = c.args.Value("turn");
  if (!t) return Status::InvalidArgument("adjutant digest: --turn T is required");
  auto turn = Turn::Parse(*t);
  if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  auto d = replay::DigestTurn(**db, game, branch, *turn);
  if (!d.ok()) return d.status();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder f;
    fb::Turn ft(turn->major, turn->minor, turn->step);
    f.Finish(fb::CreateTurnDigestResultDirect(f, game.c_str(), branch.c_str(), &ft, d->last_seq, d->events, d->hex.c_str()));
    return PrintJson("TurnDigestResult", f);
  }
  Line(d->hex);
  Line("turn " + turn->ToString() + " of " + game + "/" + branch + ": BLAKE2b-256 of " + std::to_string(d->events) +
       " events up to seq " + std::to_string(d->last_seq) + "; check it later with `adjutant verify " + game +
       " --turn " + turn->ToString() + " --digest " + d->hex + "`");
  return Status::Ok();
}

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
  auto w = replay::Fold(**db, game, branch, *upto);
  if (!w.ok()) return w.status();
  auto rows = replay::Flatten(*w);
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
    auto w = replay::Fold(**db, game, names[i], *upto);
    if (!w.ok()) return w.status();
    views[i] = replay::Flatten(*w);
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

// ---- fork / branches ---------------------------------------------------------
Status CmdFork(Context& c) {
  const std::string& game = c.args.positional[0];
  auto from = c.args.Value("from");
  auto at_turn = c.args.Value("at");
  auto name = c.args.Value("name");
  if (from.has_value() == at_turn.has_value()) {
    return Status::InvalidArgument("adjutant fork: give --from BRANCH@SEQ or --at TURN[.PHASE] (with --branch B)");
  }
  if (!name) return Status::InvalidArgument("adjutant fork: --name NEW is required");
  if (from && (c.args.Value("branch") || c.args.Flag("with-orders"))) {
    return Status::InvalidArgument("adjutant fork: --branch and --with-orders go with --at");
  }
  std::string parent = from ? *from : BranchArg(c, game);
  std::optional<uint64_t> at;
  std::optional<TurnPhase> point;
  if (at_turn) {
    point = ParseTurnPhase(*at_turn);
    if (!point) return Status::InvalidArgument("--at: '" + *at_turn + "' is not " + kTurnPhaseForms);
  }
  if (from) {
  if (auto pos = from->find('@'); pos != std::string::npos) {
    parent = from->substr(0, pos);
    std::string seq = from->substr(pos + 1);
    if (seq != "head") {
      at = ParseU64(seq);
      if (!at) return Status::InvalidArgument("--from: '" + seq + "' is not a sequence number (BRANCH@SEQ or BRANCH@head)");
    }
  }
  }
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  if (point) {
    auto p = replay::ForkPoint(**db, game, parent, *point);
    if (!p.ok()) return p.status();
    at = *p;
  }
  if (!at) {
    auto h = (*db)->HeadOf(game, parent);
    if (!h.ok()) return h.status();
    at = h->seq;
  }
  std::optional<uint64_t> salt;
  if (c.args.Flag("reseed")) {
    uint64_t s;
    randombytes_buf(&s, sizeof s);
    salt = s;
  }
  auto b = (*db)->Fork(game, parent, *at, *name, salt, kGa);
  if (!b.ok()) return b.status();
  size_t carried = 0;
  if (c.args.Flag("with-orders")) {
    auto n = replay::CarryOrders(**db, game, parent, *name, *at, point->turn);
    if (!n.ok()) return n.status();
    carried = *n;
  }
  if (c.args.Flag("json")) {
    auto h = (*db)->HeadOf(game, *name);
    if (!h.ok()) return h.status();
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), name->c_str(), h->seq, h->seq,
                                             h->hash.Hex().c_str(), false));
    return PrintJson("AppendSummary", fbb);
  }
  Line("forked " + game + "/" + *name + " from " + parent + "@" + std::to_string(*at) +
       (point ? " (before " + (point->phase ? "phase " + std::to_string(point->phase) + " of " : std::string()) +
                    "turn " + point->turn.ToString() + ")"
              : "") +
       (salt ? " with reseeded dice" : " with the same dice") +
       (c.args.Flag("with-orders") ? ", " + std::to_string(carried) + " order(s) of that turn carried over" : ""));
  return Status::Ok();
}

Status CmdBranches(Context& c) {
  const std::string& game = c.args.positional[0];
  auto make_current = c.args.Value("make-current");
  auto db = OpenDb(c, make_current.has_value());
  if (!db.ok()) return db.status();
  if (make_current) {
    ADJ_RETURN_IF_ERROR((*db)->SetCurrent(game, *make_current));
    Line(game + ": commands now use branch " + *make_current + " when none is named");
  }
  auto current = (*db)->Current(game);
  if (!current.ok()) return current.status();
  auto bs = (*db)->Branches(game);
  if (!bs.ok()) return bs.status();
  std::vector<ledger::Head> heads;
  for (const auto& b : *bs) {
    auto h = (*db)->HeadOf(game, b.name);
    if (!h.ok()) return h.status();
    heads.push_back(*h);
  }
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::BranchSummary>> rows;
    for (size_t i = 0; i < bs->size(); ++i) {
      const auto& b = (*bs)[i];
      rows.push_back(fb::CreateBranchSummaryDirect(fbb, b.name.c_str(), b.parent.c_str(), b.fork_seq, heads[i].seq,
                                                   heads[i].hash.Hex().c_str(), b.dice_salt));
    }
    fbb.Finish(fb::CreateBranchListDirect(fbb, game.c_str(), &rows));
    return PrintJson("BranchList", fbb);
  }
  // A tree: children under their parent, in creation order.
  std::function<void(const std::string&, const std::string&)> walk = [&](const std::string& parent,
                                                                          const std::string& indent) {
    std::vector<size_t> kids;
    for (size_t i = 0; i < bs->size(); ++i) if ((*bs)[i].parent == parent) kids.push_back(i);
    for (size_t k = 0; k < kids.size(); ++k) {
      const auto& b = (*bs)[kids[k]];
      bool last = k + 1 == kids.size();
      std::string line = indent + (parent.empty() ? "" : (last ? "└─ " : "├─ ")) + b.name;
      if (!parent.empty()) line += "  from " + b.parent + "@" + std::to_string(b.fork_seq);
      line += "  head " + std::to_string(heads[kids[k]].seq) + " " + heads[kids[k]].hash.Short();
      if (b.name == *current) line += "  (current)";
      Line(line);
      walk(b.name, parent.empty() ? indent : indent + (last ? "   " : "│  "));
    }
  };
  walk("", "");
  return Status::Ok();
}

// ---- rules-versions ----------------------------------------------------------
Status CmdRulesVersions(Context& c) {
  std::string game, branch;
  rules::RulesVersions in_use;
  if (!c.args.positional.empty()) {
    game = c.args.positional[0];
    branch = BranchArg(c, game);
    auto db = OpenDb(c, false);
    if (!db.ok()) return db.status();
    auto world = replay::Fold(**db, game, branch);
    if (!world.ok()) return world.status();
    in_use = replay::GameVersions(replay::SummaryOf(*world));
    // Only the rulesets the game plays are in use by it.
    const auto& plays = replay::SummaryOf(*world).rulesets;
    for (std::string_view r : rules::VersionedRulesets()) {
      if (std::find(plays.begin(), plays.end(), r) == plays.end()) in_use.Set(r, 0);
    }
  }
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::RulesVersionRow>> rows;
  for (const auto& v : rules::KnownVersions()) {
    const std::string ruleset(v.ruleset), rules(v.rules), change(v.change);
    const bool latest = rules::LatestVersion(v.ruleset) == v.version;
    const bool used = !game.empty() && in_use.Of(v.ruleset) == v.version;
    if (c.args.Flag("json")) {
      rows.push_back(fb::CreateRulesVersionRowDirect(fbb, ruleset.c_str(), v.version, rules.c_str(), change.c_str(),
                                                     latest, used));
    } else {
      Line(ruleset + "=" + std::to_string(v.version) + (latest ? "  newest" : "") + (used ? "  in use by " + game + "/" + branch : "") +
           "\n    " + rules + ": " + change);
    }
  }
  if (c.args.Flag("json")) {
    fbb.Finish(fb::CreateRulesVersionsReportDirect(fbb, game.empty() ? nullptr : game.c_str(),
                                                   branch.empty() ? nullptr : branch.c_str(), &rows));
    return PrintJson("RulesVersionsReport", fbb);
  }
  return Status::Ok();
}

// ---- games / stats -----------------------------------------------------------
Status CmdGames(Context& c) {
  auto db = OpenDb(c, false);
  if (!db.ok()) {
    if (db.status().code() == Status::Code::kNotFound && !c.args.Flag("json")) {
      Line("no games in " + c.db);
      return Status::Ok();
    }
    if (db.status().code() != Status::Code::kNotFound) return db.status();
  }
  std::vector<ledger::GameInfo> games;
  if (db.ok()) {
    auto g = (*db)->Games();
    if (!g.ok()) return g.status();
    games = *g;
  }
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::GameSummary>> rows;
  for (const auto& g : games) {
    auto bs = (*db)->Branches(g.name);
    if (!bs.ok()) return bs.status();
    auto h = (*db)->HeadOf(g.name, "main");
    if (!h.ok()) return h.status();
    if (c.args.Flag("json")) {
      rows.push_back(fb::CreateGameSummaryDirect(fbb, g.name.c_str(), g.seed, static_cast<uint32_t>(bs->size()), h->seq));
    } else {
      Line(g.name + "  " + std::to_string(bs->size()) + " branch" + (bs->size() == 1 ? "" : "es") + ", main at seq " +
           std::to_string(h->seq));
    }
  }
  if (c.args.Flag("json")) {
    fbb.Finish(fb::CreateGameListDirect(fbb, &rows));
    return PrintJson("GameList", fbb);
  }
  if (games.empty()) Line("no games in " + c.db);
  return Status::Ok();
}

Status CmdStats(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto at = U64Option(c.args, "at", UINT64_MAX);
  if (!at.ok()) return at.status();
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  projections::Summary summary;
  projections::Projection* ps[] = {&summary};
  auto r = replay::Rebuild(**db, game, branch, *at, ps);
  if (!r.ok()) return r.status();
  const auto& s = summary.state();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::KindTally>> kinds;
    for (const auto& [k, t] : s.by_kind) kinds.push_back(fb::CreateKindTallyDirect(fbb, k.c_str(), t.events, t.bytes));
    std::vector<flatbuffers::Offset<fb::TurnTally>> turns;
    for (const auto& [turn, t] : s.by_turn) {
      fb::Turn ft(turn.major, turn.minor, turn.step);
      turns.push_back(fb::CreateTurnTally(fbb, &ft, t.events, t.bytes));
    }
    std::vector<flatbuffers::Offset<flatbuffers::String>> rs;
    for (const auto& x : s.rulesets) rs.push_back(fbb.CreateString(x));
    fbb.Finish(fb::CreateStatsReportDirect(fbb, game.c_str(), branch.c_str(), s.scenario_name.c_str(), &rs, s.seed,
                                           s.dice_salt, s.total.events, s.total.bytes, &kinds, &turns, s.dice_rolled,
                                           s.dice_scripted, summary.Digest().Hex().c_str()));
    return PrintJson("StatsReport", fbb);
  }
  Line(game + "/" + branch + ": " + std::to_string(s.total.events) + " events, " + std::to_string(s.total.bytes) +
       " bytes; scenario \"" + s.scenario_name + "\"; seed " + std::to_string(s.seed) + ", dice salt " +
       std::to_string(s.dice_salt));
  Line("dice rolled: " + std::to_string(s.dice_rolled) + " (" + std::to_string(s.dice_scripted) + " scripted)");
  Line("by kind:");
  for (const auto& [k, t] : s.by_kind) {
    Line("  " + k + std::string(k.size() < 18 ? 18 - k.size() : 1, ' ') + std::to_string(t.events) + " events, " +
         std::to_string(t.bytes) + " bytes");
  }
  Line("by turn:");
  for (const auto& [turn, t] : s.by_turn) {
    std::string ts = turn.ToString();
    Line("  " + ts + std::string(ts.size() < 18 ? 18 - ts.size() : 1, ' ') + std::to_string(t.events) + " events, " +
         std::to_string(t.bytes) + " bytes");
  }
  Line("summary digest " + summary.Digest().Hex());
  return Status::Ok();
}

// ---- roll / ruling: GA actions recorded as events ---------------------------
Status AppendAndReport(Context& c, ledger::Ledger& db, const std::string& game, const std::string& branch,
                       uint64_t head, std::vector<Draft> drafts, const std::vector<uint32_t>& results,
                       const std::string& text, uint64_t fingerprint) {
  auto key = c.args.ValueOr("key", "");
  auto r = db.Append(game, branch, head, drafts, key, fingerprint);
  if (!r.ok()) return r.status();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), branch.c_str(), r->first_seq, r->last_seq,
                                             r->head_hash.Hex().c_str(), r->replayed, &results));
    return PrintJson("AppendSummary", fbb);
  }
  Line(text + "  [seq " + std::to_string(r->first_seq) + "]");
  return Status::Ok();
}

// A retry under an idempotency key already used: answer with what was
// recorded then (a roll is not rolled again), or refuse a different request
// under the same key. Returns true when it answered.
// A retry under an idempotency key already used for the same request:
// answers with what was recorded then (a roll is not rolled again).
// Returns true when it answered; kConflict if the key served another request.
Result<bool> AnswerRetry(Context& c, ledger::Ledger& db, const std::string& game, const std::string& branch,
                         uint64_t fingerprint) {
  auto key = c.args.Value("key");
  if (!key) return false;
  // The commands that answer retries this way are the GA's (roll, ruling, ...).
  auto prior = replay::PriorRequest(db, game, branch, ledger::IdempotencyOwner(ActorKind::kGameAdministrator, ""),
                                    *key, fingerprint);
  if (!prior.ok()) return prior.status();
  if (!prior->has_value()) return false;
  const ledger::AppendResult& orig = **prior;
  std::vector<uint32_t> results;
  std::string line;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, orig.first_seq, orig.first_seq, [&](const ledger::EventView& e) {
    if (auto* d = e.event()->payload_as_DieRolled()) results.assign(d->results()->begin(), d->results()->end());
    line = EventLine(e);
    return Status::Ok();
  }));
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), branch.c_str(), orig.first_seq, orig.last_seq,
                                             orig.head_hash.Hex().c_str(), true, &results));
    ADJ_RETURN_IF_ERROR(PrintJson("AppendSummary", fbb));
  } else {
    Line("already recorded under --key " + *key + ":");
    Line(line);
  }
  return true;
}

Status CmdRoll(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  rules::RollRequest req;
  req.purpose = c.args.ValueOr("purpose", "");
  req.rule = c.args.ValueOr("rule", "");
  req.subject = c.args.ValueOr("subject", "");
  auto sides = U64Option(c.args, "sides", 6);
  if (!sides.ok()) return sides.status();
  auto count = U64Option(c.args, "count", 1);
  if (!count.ok()) return count.status();
  if (*sides > limits::kDiceSidesMax || *count > limits::kDicePerRollMax) {
    return Status::InvalidArgument("adjutant roll: at most " + std::to_string(limits::kDicePerRollMax) + " dice of at most " +
                                   std::to_string(limits::kDiceSidesMax) + " sides");
  }
  req.sides = static_cast<uint32_t>(*sides);
  req.count = static_cast<uint32_t>(*count);
  ADJ_RETURN_IF_ERROR(rules::CheckRollRequest(req));
  ADJ_RETURN_IF_ERROR(schema::CheckText("--purpose", req.purpose, schema::TextRule::kName));
  ADJ_RETURN_IF_ERROR(schema::CheckText("--rule", req.rule, schema::TextRule::kName));
  ADJ_RETURN_IF_ERROR(schema::CheckText("--subject", req.subject, schema::TextRule::kName));
  std::optional<rules::ScriptedDice> scripted;
  if (auto path = c.args.Value("script")) {
    auto text = ReadFile(*path, limits::kScriptFileBytesMax);
    if (!text.ok()) return text.status();
    auto sd = rules::ScriptedDice::Parse(*text, *path);
    if (!sd.ok()) return sd.status();
    scripted = std::move(sd).value();
  }
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  auto game_info = (*db)->Game(game);
  if (!game_info.ok()) return game_info.status();
  auto b = (*db)->Branch(game, branch);
  if (!b.ok()) return b.status();
  const uint64_t fingerprint = replay::RequestFingerprint(
      "roll", branch, "GA",
      req.purpose + '\0' + req.rule + '\0' + req.subject + '\0' + std::to_string(req.sides) + '\0' +
          std::to_string(req.count) + (scripted ? "\0scripted" : ""));
  auto retry = AnswerRetry(c, **db, game, branch, fingerprint);
  if (!retry.ok()) return retry.status();
  if (*retry) return Status::Ok();
  auto head = (*db)->HeadOf(game, branch);
  if (!head.ok()) return head.status();
  req.at = head->at;
  Result<rules::Roll> roll = Status::InvalidArgument("no dice");
  if (scripted) {
    roll = scripted->Next(req);
  } else {
    // Continue this stream where the log leaves it in the current phase.
    rules::CounterDice dice(game_info->seed, b->dice_salt);
    auto start = (*db)->SeekTurn(game, branch, req.at);
    if (!start.ok()) return start.status();
    if (start->has_value()) {
      ADJ_RETURN_IF_ERROR((*db)->Read(game, branch, **start, head->seq, [&](const ledger::EventView& e) {
        auto* d = e.event()->payload_as_DieRolled();
        if (d && !d->scripted() && d->purpose()->string_view() == req.purpose &&
            (d->subject() ? d->subject()->string_view() : "") == req.subject) {
          dice.Skip(req.at, req.subject, req.purpose, d->results() ? d->results()->size() : 0);
        }
        return Status::Ok();
      }));
    }
    roll = dice.Next(req);
  }
  if (!roll.ok()) return roll.status();
  std::string text = "rolled " + std::to_string(req.count) + "d" + std::to_string(req.sides) + " for " + req.purpose +
                     " (" + req.rule + "):";
  for (size_t i = 0; i < roll->results.size(); ++i) text += (i ? " + " : " ") + std::to_string(roll->results[i]);
  if (roll->results.size() > 1) text += " = " + std::to_string(roll->total());
  return AppendAndReport(c, **db, game, branch, head->seq, {rules::DieRolledDraft(*roll, kGa)}, roll->results, text,
                         fingerprint);
}

Status CmdRuling(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto reason = c.args.Value("reason");
  auto text = c.args.Value("text");
  if (!reason || reason->empty()) return Status::InvalidArgument("adjutant ruling: --reason R is required");
  if (!text || text->empty()) return Status::InvalidArgument("adjutant ruling: --text T is required");
  ADJ_RETURN_IF_ERROR(schema::CheckText("--reason", *reason, schema::TextRule::kFreeText));
  ADJ_RETURN_IF_ERROR(schema::CheckText("--text", *text, schema::TextRule::kFreeText));
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  const uint64_t fingerprint = replay::RequestFingerprint("ruling", branch, "GA", *reason + '\0' + *text);
  auto retry = AnswerRetry(c, **db, game, branch, fingerprint);
  if (!retry.ok()) return retry.status();
  if (*retry) return Status::Ok();
  auto head = (*db)->HeadOf(game, branch);
  if (!head.ok()) return head.status();
  return AppendAndReport(c, **db, game, branch, head->seq, {rules::RulingDraft(head->at, kGa, *reason, *text)}, {},
                         "recorded ruling on " + game + "/" + branch, fingerprint);
}

// ---- the table ---------------------------------------------------------------

std::vector<Command> Commands() {
  return {
      {{"new", "GAME --scenario FILE [--map FILE] [--seed N]",
        "Create a game from a scenario (JSON in the schema's Scenario form).\n"
        "With --map, the naval map (a NavalMap document) is checked against the scenario and recorded\n"
        "with the game.",
        {{"scenario", "FILE", "the scenario JSON"}, {"map", "FILE", "the naval map JSON (ruleset pate)"},
         {"seed", "N", "the game's dice seed (default: random)"}, kJson},
        1, 1},
       CmdNew},
      {{"log", "GAME [--branch B] [--from SEQ] [--to SEQ] [--turn T] [--kind K] [--json]",
        "Print a branch's events, as readable lines or as JSON lines in the schema's form.",
        {kBranch, {"from", "SEQ", "first sequence number"}, {"to", "SEQ", "last sequence number"},
         {"turn", "T", "only turn T (MAJOR[.MINOR[.STEP]]), found through the turn index"},
         {"kind", "K", "only events of kind K (e.g. DieRolled)"}, kJson},
        1, 1},
       CmdLog},
      {{"verify", "GAME [--branch B | --all] [--turn T --digest D] [--json]",
        "Check a branch's events: verifier, chain, gaps and fork points.\n"
        "Runs the FlatBuffers verifier on every event, recomputes every chain link, checks that sequence\n"
        "numbers have no gaps and that every fork point matches its parent. Exit 0 if sound; 3 naming\n"
        "the first bad sequence number otherwise. With --turn T --digest D: checks that the log up to the\n"
        "end of turn T still has the digest D the GA published (`adjutant digest`). With --turn T --dice:\n"
        "checks the revealed dice salt against the commitment and recomputes every roll of turn T.",
        {kBranch, {"all", "", "verify every branch of the game"}, {"turn", "T", "with --digest: the turn it was taken after"},
         {"digest", "D", "a turn digest (64 hex digits) to check"},
         {"dice", "", "with --turn: check the revealed dice salt and every roll of the turn"}, kJson},
        1, 1},
       CmdVerify},
      {{"digest", "GAME --turn T [--branch B] [--json]",
        "Print the digest of a branch's log up to the end of turn T, for the GA to publish.\n"
        "BLAKE2b-256 (libsodium) of every event's sequence number and bytes up to the last event of T;\n"
        "anyone who keeps it can check later that the history is unchanged with `adjutant verify --digest`.",
        {kBranch, {"turn", "T", "the turn (it must be over)"}, kJson}, 1, 1},
       CmdDigest},
      {{"conform", "FILE|DIR...",
        "Run conformance cases (JSON ConformanceCase documents; fixtures/conformance/README.md).\n"
        "Each case is a small game played from nothing in a scratch database — its scenario, orders,\n"
        "directives and adjudications, with scripted dice where rolls matter — and its views compared with\n"
        "the values it expects. Ends with `N passed, N failed`; exit 3 if any failed (a case that cannot be\n"
        "played, e.g. its dice run out, fails with the reason and the others still run).",
        {{"keep", "DIR", "keep each case's database: DIR itself for one case, else DIR/<case name>; inspect it\n"
                         "with `adjutant --db DIR log case`"}}, 1, 1000},
       CmdConform},
      {{"rules-versions", "[GAME [--branch B]] [--json]",
        "Every version of every ruleset, what each changed, and the ones GAME runs under.\n"
        "Events record the version they were adjudicated under; a game keeps its versions until the GA adopts\n"
        "others with `adjudicate --rules-version`, and `audit --rules-version` shows what another would change.",
        {kBranch, kJson}, 0, 1},
       CmdRulesVersions},
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
      {{"fork", "GAME (--from BRANCH@SEQ | --at TURN[.PHASE] [--branch B] [--with-orders]) --name NEW [--reseed]",
        "Start a branch that continues a branch's history after SEQ (or @head), or from the start of turn\n"
        "TURN (before its orders) or of phase PHASE of it. Nothing is copied, except that --with-orders\n"
        "records again on the new branch the orders the parent received for TURN after that point.\n"
        "The new branch rolls the same dice as its parent (a counterfactual with the same luck) unless\n"
        "--reseed.",
        {{"from", "BRANCH@SEQ", "where the branch leaves its parent"},
         {"at", "TURN[.PHASE]", "leave the parent (--branch, default main) before this turn or phase"}, kBranch,
         {"with-orders", "", "with --at: carry over the parent's orders of that turn recorded after the point"},
         {"name", "NEW", "the new branch's name"}, {"reseed", "", "give the branch a fresh random dice salt"}, kJson},
        1, 1},
       CmdFork},
      {{"branches", "GAME [--make-current B] [--json]",
        "Show a game's branches as a tree with their fork points and heads, marking the current one\n"
        "(the branch commands use when none is named: main, or a corrected branch). --make-current B makes\n"
        "B the current branch; no branch is changed by it.",
        {{"make-current", "B", "make B the game's current branch"}, kJson}, 1, 1},
       CmdBranches},
      {{"games", "[--json]", "List the games in the database.", {kJson}, 0, 0}, CmdGames},
      {{"stats", "GAME [--branch B] [--at SEQ] [--json]",
        "Events per kind and per turn, their sizes, and the dice rolled.\n"
        "The summary projection, rebuilt from the log at the head or as it stood after event SEQ.",
        {kBranch, {"at", "SEQ", "as of this sequence number (default: the head)"}, kJson}, 1, 1},
       CmdStats},
      {{"roll", "GAME --purpose P --rule R [--sides N] [--count C] [--subject S] [--script FILE] [--key K]",
        "Roll dice for a GA's ruling at the branch's current turn and phase, and record the roll.\n"
        "Counter-based from the game's seed and the branch's salt, or taken from a script file of values.",
        {kBranch, {"purpose", "P", "what the roll decides"}, {"rule", "R", "the rule it serves, e.g. \"PATE 8.1\""},
         {"sides", "N", "sides of each die (default 6)"}, {"count", "C", "number of dice (default 1)"},
         {"subject", "S", "what the roll is about (a ship, a province)"},
         {"script", "FILE", "take the values from FILE (whitespace-separated, # comments; - reads standard input)"},
         {"key", "K", "idempotency key: a retry with the same key records nothing new"}, kJson},
        1, 1},
       CmdRoll},
      {{"ruling", "GAME --reason R --text T [--branch B] [--key K]", "Record a GA's written ruling as a directive.",
        {kBranch, {"reason", "R", "why the ruling is made"}, {"text", "T", "the ruling"},
         {"key", "K", "idempotency key"}, kJson},
        1, 1},
       CmdRuling},
  };
}

std::vector<Command> AllCommands() {
  std::vector<Command> all = Commands();
  for (auto& c : PlayCommands()) all.push_back(std::move(c));
  for (auto& c : ReportCommands()) all.push_back(std::move(c));
  for (auto& c : MapCommands()) all.push_back(std::move(c));
  for (auto& c : ServeCommands()) all.push_back(std::move(c));
  for (auto& c : BackupCommands()) all.push_back(std::move(c));
  return all;
}

std::string MainHelp(const std::vector<Command>& cmds) {
  std::string h =
      "usage: adjutant [--db DIR] COMMAND [ARGS]\n\n"
      "Adjutant keeps play-by-email wargames as a hash-chained ledger of events.\n"
      "The database is DIR, else $ADJUTANT_DB, else ./adjutant-data.\n\ncommands:\n";
  for (const auto& c : cmds) {
    std::string left = "  " + c.spec.name;
    left.resize(14, ' ');
    h += left + c.spec.summary.substr(0, c.spec.summary.find('\n')) + "\n";
  }
  h += "\n'adjutant COMMAND --help' describes a command.\n";
  return h;
}

}  // namespace

int RunShared(ledger::Ledger& db, const std::vector<std::string>& argv, std::string* out, std::string* err,
              const std::string& in) {
  Capture capture;
  capture.shared = &db;
  capture.in = &in;
  Capture* before = CurrentCapture();
  CurrentCapture() = &capture;
  auto cmds = AllCommands();
  int code = 0;
  const Command* cmd = nullptr;
  for (const auto& c : cmds) if (!argv.empty() && c.spec.name == argv[0]) cmd = &c;
  if (cmd == nullptr) {
    *err = "adjutant: unknown command '" + (argv.empty() ? std::string() : argv[0]) + "'";
    code = 2;
  } else if (auto args = Parse(cmd->spec, std::vector<std::string>(argv.begin() + 1, argv.end())); !args.ok()) {
    *err = args.status().message();
    code = 2;
  } else if (args->help) {
    capture.out = HelpText(cmd->spec);  // no command runs (it would without its arguments)
  } else {
    Context ctx;
    ctx.db = db.dir();
    ctx.args = std::move(args).value();
    Status st = cmd->run(ctx);
    if (!st.ok()) {
      *err = st.message();
      code = st.exit_code();
    }
  }
  CurrentCapture() = before;
  *out = std::move(capture.out);
  return code;
}

int Run(const std::vector<std::string>& argv) {
  if (sodium_init() < 0) {
    std::fprintf(stderr, "adjutant: libsodium failed to initialise\n");
    return 5;
  }
  auto cmds = AllCommands();
  Context ctx;
  const char* env = std::getenv("ADJUTANT_DB");
  ctx.db = env && *env ? env : std::string(ledger::kDefaultDir);
  size_t i = 0;
  while (i < argv.size()) {
    if (argv[i] == "--db") {
      if (i + 1 >= argv.size()) {
        std::fprintf(stderr, "adjutant: --db needs a directory\n");
        return 2;
      }
      ctx.db = argv[i + 1];
      i += 2;
    } else if (argv[i].rfind("--db=", 0) == 0) {
      ctx.db = argv[i].substr(5);
      ++i;
    } else {
      break;
    }
  }
  if (i >= argv.size() || argv[i] == "--help" || argv[i] == "-h" || argv[i] == "help") {
    Out(MainHelp(cmds));
    return i >= argv.size() ? 2 : 0;
  }
  if (argv[i] == "--version") {
    Line(kVersion);
    return 0;
  }
  const Command* cmd = nullptr;
  for (const auto& c : cmds) if (c.spec.name == argv[i]) cmd = &c;
  if (cmd == nullptr) {
    std::fprintf(stderr, "adjutant: unknown command '%s' (see adjutant --help)\n", argv[i].c_str());
    return 2;
  }
  auto args = Parse(cmd->spec, std::vector<std::string>(argv.begin() + static_cast<long>(i) + 1, argv.end()));
  if (!args.ok()) {
    std::fprintf(stderr, "%s\n", args.status().message().c_str());
    return 2;
  }
  if (args->help) {
    Out(HelpText(cmd->spec));
    return 0;
  }
  ctx.args = std::move(args).value();
  Status st = cmd->run(ctx);
  std::fflush(stdout);
  if (!st.ok()) {
    // One prefix: messages that already name the command keep theirs.
    const std::string prefix = "adjutant " + cmd->spec.name;
    if (st.message().rfind(prefix, 0) == 0) std::fprintf(stderr, "%s\n", st.message().c_str());
    else std::fprintf(stderr, "%s: %s\n", prefix.c_str(), st.message().c_str());
    return st.exit_code();
  }
  return 0;
}

}  // namespace adjutant::cli
