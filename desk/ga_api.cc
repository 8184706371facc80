// The order desk's GA requests (desk.h): POST /api/ga/run and its list of
// typed operations, directives and corrections.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>

#include "base/utc.h"
#include "desk/internal.h"
#include "ledger/ledger.h"
#include "ops/ops.h"
#include "replay/driver.h"
#include "reports/reports.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::desk {

namespace {

using T = ParamType;
const GaParam kGameParam{"GAME", T::kGame};
const GaParam kBranchOpt{"branch", T::kBranch};

}  // namespace

// The operations the GA may ask for through POST /api/ga/run, each with the
// exact parameters it takes there and their types: views, checks and the
// GA's own acts, and no parameter that names a file on the server. Options
// keep the command line's names, so the args a GA writes read the same.
const std::map<std::string, GaOperation>& GaOperations() {
  static const std::map<std::string, GaOperation> ops = {
      {"games", {{}, 0, {}, {"json"}}},
      {"log", {{kGameParam}, 1, {kBranchOpt, {"from", T::kCount}, {"to", T::kCount}, {"turn", T::kTurn}, {"kind", T::kWord}},
               {"json"}}},
      {"verify", {{kGameParam}, 0, {kBranchOpt, {"turn", T::kTurn}, {"digest", T::kHex}}, {"all", "dice", "json"}}},
      {"digest", {{kGameParam}, 1, {kBranchOpt, {"turn", T::kTurn}}, {"json"}}},
      {"audit", {{kGameParam}, 1, {kBranchOpt, {"turn", T::kTurn}, {"rules-version", T::kRulesVersion}}, {"all", "json"}}},
      {"replay", {{kGameParam}, 1, {{"to", T::kTurn}, kBranchOpt, {"view", T::kWord}}, {"json"}}},
      {"diff", {{kGameParam, {"A", T::kBranch}, {"B", T::kBranch}}, 3, {{"turn", T::kTurn}, {"view", T::kWord}}, {"json"}}},
      // --make-current changes which branch the game's writes go to: on its sequencer.
      {"branches", {{kGameParam}, 1, {{"make-current", T::kBranch}}, {"json"}, true}},
      {"stats", {{kGameParam}, 1, {kBranchOpt, {"at", T::kCount}}, {"json"}}},
      {"report", {{{"KIND", T::kReportKind}, kGameParam}, 2,
                  {{"state", T::kWord}, {"player", T::kWord}, {"nation", T::kWord}, {"side", T::kWord}, {"move", T::kCount},
                   {"turn", T::kTurn}, kBranchOpt},
                  {"public", "json"}}},
      {"rules-versions", {{kGameParam}, 0, {kBranchOpt}, {"json"}}},
      {"status", {{kGameParam}, 1, {kBranchOpt, {"now", T::kText}}, {"json"}}},
      // The deadlines: shown, changed, or the scheduler's step run now (the desk's clock, or --now).
      {"schedule", {{kGameParam, {"ACTION", T::kWord}}, 1,
                    {kBranchOpt, {"deadline", T::kText}, {"after", T::kWord}, {"by", T::kWord}, {"reason", T::kText},
                     {"key", T::kKey}, {"now", T::kText}},
                    {"weekly", "json"}, true}},
      {"fork", {{kGameParam}, 1, {{"from", T::kBranchAt}, {"at", T::kTurn}, kBranchOpt, {"name", T::kBranch}},
                {"with-orders", "reseed", "json"}, true}},
      {"ruling", {{kGameParam}, 1, {kBranchOpt, {"reason", T::kText}, {"text", T::kText}, {"key", T::kKey}}, {"json"}, true}},
      {"roll", {{kGameParam}, 1,
                {kBranchOpt, {"purpose", T::kText}, {"rule", T::kText}, {"sides", T::kCount}, {"count", T::kCount},
                 {"subject", T::kText}, {"key", T::kKey}},
                {"json"}, true, "script", "--script"}},
      {"dice-commit", {{kGameParam}, 1, {kBranchOpt, {"turn", T::kTurn}, {"key", T::kKey}}, {}, true, "salt", "--salt-file", true}},
      {"dice-reveal", {{kGameParam}, 1, {kBranchOpt, {"turn", T::kTurn}, {"key", T::kKey}}, {}, true, "salt", "--salt-file", true}},
      {"adjudicate", {{kGameParam}, 1,
                      {kBranchOpt, {"turns", T::kCount}, {"rules-version", T::kRulesVersion}, {"key", T::kKey},
                       {"expect", T::kTurn}},
                      {"phase", "json"}, true, "salt", "--dice-salt-file"}},
  };
  return ops;
}

namespace {

bool AllOf(const std::string& v, size_t max, const char* extra) {
  if (v.empty() || v.size() > max) return false;
  for (char c : v) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && !std::strchr(extra, c)) return false;
  }
  return true;
}

// "" if `v` is a value of type `t`, else what one is (the value is not
// repeated: it may be a path the asker hoped to have read).
std::string NotA(ParamType t, const std::string& v) {
  switch (t) {
    case T::kGame: return ledger::CheckName("game", v).ok() ? "" : "a game's name (letters, digits, - _ .)";
    case T::kBranch: return ledger::CheckName("branch", v).ok() ? "" : "a branch's name (letters, digits, - _ .)";
    case T::kBranchAt: {
      const size_t at = v.find('@');
      const bool ok = at != std::string::npos && ledger::CheckName("branch", v.substr(0, at)).ok() &&
                      (v.substr(at + 1) == "head" || (AllOf(v.substr(at + 1), 19, "") &&
                                                          v.find_first_not_of("0123456789", at + 1) == std::string::npos));
      return ok ? "" : "BRANCH@SEQ or BRANCH@head";
    }
    case T::kTurn:
      return AllOf(v, 32, ".") && v.find_first_not_of("0123456789.") == std::string::npos
                 ? ""
                 : "a turn (e.g. 1805.1.3, or TURN.PHASE)";
    case T::kCount:
      return AllOf(v, 19, "") && v.find_first_not_of("0123456789") == std::string::npos ? "" : "a whole number";
    case T::kWord: return SafeWord(v) ? "" : "a word (letters, digits, - _ ., at most 64)";
    case T::kKey: return AllOf(v, 128, "._:@+-") ? "" : "an idempotency key (letters, digits, . _ : @ + -, at most 128)";
    case T::kHex:
      return AllOf(v, 128, "") && v.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos ? "" : "hex digits";
    case T::kRulesVersion: return AllOf(v, 128, "_.=,-") ? "" : "RULESET=VERSION (letters, digits, = , _ . -)";
    case T::kText: {
      bool ok = !v.empty() && v.size() <= 4096;
      for (unsigned char c : v) ok = ok && (c >= 0x20 || c == '\n' || c == '\t') && c != 0x7f;
      return ok ? "" : "text (1 to 4096 bytes, no control characters)";
    }
    case T::kReportKind:
      return reports::KindNamed(v) ? "" : "a report: orders, treasury, fleet, events, positions, map, nation or battle";
  }
  return "a value";
}

std::string Known(const GaOperation& op) {
  std::string allowed;
  for (const auto& o : op.values) allowed += (allowed.empty() ? "--" : ", --") + o.name;
  for (const auto& o : op.flags) allowed += (allowed.empty() ? "--" : ", --") + o;
  return allowed.empty() ? "none" : allowed;
}

// The request read onto its operation, every word checked: the operation
// is in the list, each option is one of its own with a value of its type,
// the positionals are as many as it takes and of their types, and the
// body's script or salt is one it takes. Any failure: the message (400).
Result<GaCall> ReadGaCall(const fb::DeskRun& d) {
  std::vector<std::string> argv;
  if (d.args()) for (const auto* a : *d.args()) argv.push_back(a->str());
  const auto& ops = GaOperations();
  auto it = argv.empty() ? ops.end() : ops.find(argv[0]);
  if (it == ops.end()) {
    std::string known;
    for (const auto& [name, op] : ops) known += (known.empty() ? "" : ", ") + name;
    return Status::InvalidArgument("args[0]: the desk runs " + known);
  }
  const GaOperation& op = it->second;
  GaCall call;
  call.op = argv[0];
  // One that writes runs on the sequencer of the game named first (Handle).
  if (op.writes && (argv.size() < 2 || argv[1].rfind("-", 0) == 0)) {
    return Status::InvalidArgument("args[1]: " + call.op + " takes its game first, before any option");
  }
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    const std::string at = "args[" + std::to_string(i) + "]: ";
    if (a == "-h" || (a.size() > 2 && a.rfind("--", 0) == 0)) {
      const size_t eq = a.find('=');
      const std::string name = a == "-h" ? "help" : a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      auto v = std::find_if(op.values.begin(), op.values.end(), [&](const GaParam& p) { return p.name == name; });
      if (v != op.values.end()) {
        std::string value;
        if (eq != std::string::npos) {
          value = a.substr(eq + 1);
        } else if (i + 1 < argv.size()) {
          value = argv[++i];  // its value, whatever it looks like
        } else {
          return Status::InvalidArgument(at + "--" + name + ": needs a value (" + NotA(v->type, "") + ")");
        }
        if (std::string what = NotA(v->type, value); !what.empty()) {
          return Status::InvalidArgument("args[" + std::to_string(i) + "]: --" + name + ": not " + what);
        }
        call.values.emplace_back(name, value);
        continue;
      }
      if (op.flags.count(name)) {
        if (eq != std::string::npos) return Status::InvalidArgument(at + "--" + name + ": takes no value");
        call.flags.insert(name);
        continue;
      }
      const std::string why = RefusedBecause(name);
      return Status::InvalidArgument(at + "--" + name + ": not an option the desk runs " + call.op + " with" +
                                     (why.empty() ? "" : " (" + why + ")") + "; it takes " + Known(op));
    }
    if (call.positionals.size() >= op.positionals.size()) {
      return Status::InvalidArgument(at + "unexpected argument '" + a.substr(0, 64) + "' (" + call.op + " takes " +
                                     std::to_string(op.positionals.size()) + " before its options)");
    }
    const GaParam& p = op.positionals[call.positionals.size()];
    if (std::string what = NotA(p.type, a); !what.empty()) return Status::InvalidArgument(at + p.name + ": not " + what);
    call.positionals.push_back(a);
  }
  if (call.positionals.size() < op.required) {
    return Status::InvalidArgument("args: " + call.op + " needs " + op.positionals[call.positionals.size()].name);
  }
  // The body's dice script or salt: the operation's standard input.
  for (const auto& [field, value] : {std::pair<std::string, const flatbuffers::String*>{"script", d.script()},
                                     std::pair<std::string, const flatbuffers::String*>{"salt", d.salt()}}) {
    if (!value) continue;
    if (op.field != field) {
      return Status::InvalidArgument(field + ": " + call.op + " takes no " + field +
                                     (field == "script" ? " (roll does)" : " (adjudicate, dice-commit and dice-reveal do)"));
    }
    call.in = value->str();
    call.has_field = true;
  }
  if (op.field_required && !call.has_field) {
    return Status::InvalidArgument(op.field + ": " + call.op + " needs the turn's secret salt (32 to 128 hex digits)");
  }
  return call;
}

}  // namespace

// Why an option the command line knows is not run through the desk.
std::string RefusedBecause(const std::string& option) {
  if (option == "script") return "it names a file on the server: send the dice values in the request's \"script\" field";
  if (option == "salt-file" || option == "dice-salt-file") {
    return "it names a file on the server: send the salt in the request's \"salt\" field";
  }
  if (option == "svg" || option == "keep") return "it names a file on the server";
  if (option == "as" || option == "password-file") return "the GA reads a player's reports with --player";
  if (option == "help") return "the desk runs commands, not their help";
  return "";
}

// An operation's answer (DeskRunResult): its exit code (0 ok, 2 bad input,
// 3 corruption, 4 conflict, 5 I/O), output and error.
Response Desk::Impl::RunResult(int code, std::string out, const std::string& err) {
  // Bounded (--max-answer-bytes): the output cut, saying so; the exit
  // code stands (a command that wrote has written).
  if (out.size() > settings.max_answer_bytes) {
    const size_t more = out.size() - settings.max_answer_bytes;
    out.resize(settings.max_answer_bytes);
    out += "\n[" + std::to_string(more) + " bytes more: an answer holds at most max-answer-bytes " +
           std::to_string(settings.max_answer_bytes) + "; narrow the command, e.g. log --from SEQ --to SEQ or --turn T]\n";
  }
  flatbuffers::FlatBufferBuilder f;
  f.Finish(fb::CreateDeskRunResultDirect(f, code, out.c_str(), err.c_str()));
  Response r = Json(JsonOf("DeskRunResult", f));
  if (code != 0) {
    r.status = code == 3   ? http::status::internal_server_error
               : code == 4 ? http::status::conflict
               : code == 5 ? http::status::service_unavailable  // a full disk, say: ask again later
                           : http::status::bad_request;
  }
  return r;
}

namespace {

// Each operation of GaOperations but report, called as the ops library's
// typed function (ops/ops.h) with the request filled from the checked
// values: no command line is written, and none is run.
using GaCallFn = std::function<ops::Answer(const ops::Env&, const GaCall&)>;
// A call's time: its --now (a UTC time, as the command line reads it), else
// the desk's clock.
Result<int64_t> NowOf(const GaCall& c) {
  if (auto t = c.Value("now")) {
    auto v = ParseUtc(*t);
    if (!v) return Status::InvalidArgument("--now: '" + *t + "' is not a UTC time (e.g. 2026-12-06T20:00Z)");
    return *v;
  }
  return c.now;
}

const std::map<std::string, GaCallFn>& GaCalls() {
  static const std::map<std::string, GaCallFn> calls = {
      {"games", [](const ops::Env& env, const GaCall& c) {
         ops::GamesRequest r;
         r.json = c.Flag("json");
         return ops::Games(env, r);
       }},
      {"log", [](const ops::Env& env, const GaCall& c) {
         ops::LogRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.from = c.Value("from");
         r.to = c.Value("to");
         r.turn = c.Value("turn");
         r.kind = c.Value("kind");
         r.json = c.Flag("json");
         return ops::Log(env, r);
       }},
      {"verify", [](const ops::Env& env, const GaCall& c) {
         ops::VerifyRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.all = c.Flag("all");
         r.turn = c.Value("turn");
         r.digest = c.Value("digest");
         r.dice = c.Flag("dice");
         r.json = c.Flag("json");
         return ops::Verify(env, r);
       }},
      {"digest", [](const ops::Env& env, const GaCall& c) {
         ops::DigestRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.turn = c.Value("turn");
         r.json = c.Flag("json");
         return ops::Digest(env, r);
       }},
      {"audit", [](const ops::Env& env, const GaCall& c) {
         ops::AuditRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.turn = c.Value("turn");
         r.all = c.Flag("all");
         r.rules_version = c.Value("rules-version");
         r.json = c.Flag("json");
         return ops::Audit(env, r);
       }},
      {"replay", [](const ops::Env& env, const GaCall& c) {
         ops::ReplayRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.to = c.Value("to");
         r.view = c.Value("view");
         r.json = c.Flag("json");
         return ops::Replay(env, r);
       }},
      {"diff", [](const ops::Env& env, const GaCall& c) {
         ops::DiffRequest r;
         r.game = c.positionals[0];
         r.a = c.positionals[1];
         r.b = c.positionals[2];
         r.turn = c.Value("turn");
         r.view = c.Value("view");
         r.json = c.Flag("json");
         return ops::Diff(env, r);
       }},
      {"branches", [](const ops::Env& env, const GaCall& c) {
         ops::BranchesRequest r;
         r.game = c.positionals[0];
         r.make_current = c.Value("make-current");
         r.json = c.Flag("json");
         return ops::Branches(env, r);
       }},
      {"stats", [](const ops::Env& env, const GaCall& c) {
         ops::StatsRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.at = c.Value("at");
         r.json = c.Flag("json");
         return ops::Stats(env, r);
       }},
      {"rules-versions", [](const ops::Env& env, const GaCall& c) {
         ops::RulesVersionsRequest r;
         if (!c.positionals.empty()) r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.json = c.Flag("json");
         return ops::RulesVersions(env, r);
       }},
      {"status", [](const ops::Env& env, const GaCall& c) {
         ops::StatusRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         auto now = NowOf(c);
         if (!now.ok()) return ops::Answer{now.status(), ""};
         r.now = *now;
         r.json = c.Flag("json");
         return ops::GameStatus(env, r);
       }},
      {"schedule", [](const ops::Env& env, const GaCall& c) {
         ops::ScheduleRequest r;
         r.game = c.positionals[0];
         if (c.positionals.size() > 1) r.action = c.positionals[1];
         r.branch = c.Value("branch");
         r.deadline = c.Value("deadline");
         r.weekly = c.Flag("weekly");
         r.after = c.Value("after");
         r.by = c.Value("by");
         r.reason = c.Value("reason");
         r.key = c.Value("key");
         auto now = NowOf(c);
         if (!now.ok()) return ops::Answer{now.status(), ""};
         r.now = *now;
         r.json = c.Flag("json");
         return ops::Schedule(env, r);
       }},
      {"fork", [](const ops::Env& env, const GaCall& c) {
         ops::ForkRequest r;
         r.game = c.positionals[0];
         r.from = c.Value("from");
         r.at = c.Value("at");
         r.branch = c.Value("branch");
         r.name = c.Value("name");
         r.with_orders = c.Flag("with-orders");
         r.reseed = c.Flag("reseed");
         r.json = c.Flag("json");
         return ops::Fork(env, r);
       }},
      {"ruling", [](const ops::Env& env, const GaCall& c) {
         ops::RulingRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.reason = c.Value("reason");
         r.text = c.Value("text");
         r.key = c.Value("key");
         r.json = c.Flag("json");
         return ops::Ruling(env, r);
       }},
      {"roll", [](const ops::Env& env, const GaCall& c) {
         ops::RollRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.purpose = c.Value("purpose");
         r.rule = c.Value("rule");
         r.subject = c.Value("subject");
         r.sides = c.Value("sides");
         r.count = c.Value("count");
         if (c.has_field) r.script = c.in;  // the request's "script": the values themselves
         r.key = c.Value("key");
         r.json = c.Flag("json");
         return ops::Roll(env, r);
       }},
      {"dice-commit", [](const ops::Env& env, const GaCall& c) {
         ops::DiceRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.turn = c.Value("turn");
         r.salt = c.in;  // the request's "salt" (required: ReadGaCall)
         r.key = c.Value("key");
         return ops::DiceCommit(env, r);
       }},
      {"dice-reveal", [](const ops::Env& env, const GaCall& c) {
         ops::DiceRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.turn = c.Value("turn");
         r.salt = c.in;
         r.key = c.Value("key");
         return ops::DiceReveal(env, r);
       }},
      {"adjudicate", [](const ops::Env& env, const GaCall& c) {
         ops::AdjudicateRequest r;
         r.game = c.positionals[0];
         r.branch = c.Value("branch");
         r.turns = c.Value("turns");
         r.phase = c.Flag("phase");
         r.rules_version = c.Value("rules-version");
         if (c.has_field) r.salt = c.in;
         r.key = c.Value("key");
         r.expect = c.Value("expect");
         r.json = c.Flag("json");
         return ops::Adjudicate(env, r);
       }},
  };
  return calls;
}

}  // namespace

// An operation's typed answer, as the desk gives every operation's.
Response Desk::Impl::Answered(const ops::Answer& a) {
  return RunResult(a.exit_code(), a.out, a.status.ok() ? std::string() : a.status.message());
}

// POST /api/ga/run: the request read onto one of GaOperations and checked
// (ReadGaCall) before anything runs. A report is built by the reports
// library for the GA's viewer; every other operation is the ops library's
// typed function of its name (GaCalls), with the body's script or salt as
// a value of its request.
Response Desk::Impl::GaRun(const Request& rq) {
  auto doc = schema::ParseJson("DeskRun", rq.body, "run");
  if (!doc.ok()) return Error(http::status::bad_request, doc.status().message());
  auto call = ReadGaCall(*flatbuffers::GetRoot<fb::DeskRun>(doc->data()));
  if (!call.ok()) return Error(http::status::bad_request, call.status().message());
  call->now = WallNow(settings);
  if (call->op == "report") return GaReport(*call);
  auto fn = GaCalls().find(call->op);
  if (fn == GaCalls().end()) return Error(http::status::internal_server_error, call->op + ": listed but not callable");
  ops::Env env = ops::On(db);
  env.signer = settings.signer;  // issue 23: adjudicate of a game that signs its tree heads
  return Answered(fn->second(env, *call));
}

// The report operation: the reports library, for the GA (who reads every
// report; a player's with --player).
Response Desk::Impl::GaReport(const GaCall& call) {
  reports::Request rq;
  rq.kind = *reports::KindNamed(call.positionals[0]);
  rq.game = call.positionals[1];
  rq.branch = call.Value("branch").value_or("");
  rq.turn = call.Value("turn");
  rq.move = call.Value("move");
  rq.state = call.Value("state").value_or("");
  rq.player = call.Value("player").value_or("");
  rq.nation = call.Value("nation").value_or("");
  rq.side = call.Value("side").value_or("");
  rq.public_only = call.flags.count("public") != 0;
  rq.format = call.flags.count("json") ? reports::Format::kJson : reports::Format::kText;
  auto report = reports::Build(db, reports::Ga(), rq);
  if (!report.ok()) return RunResult(report.status().exit_code(), "", report.status().message());
  return RunResult(0, std::move(report->body), "");
}

// GET /api/games/G/status[?branch=B]: where the game stands and who owes
// orders (ops::GameStatus), its StatusReport JSON as `adjutant status
// --json` prints it; a refusal is the DeskError of its status.
Response Desk::Impl::GameStatus(const std::string& game, const std::map<std::string, std::string>& q) {
  ops::StatusRequest r;
  r.game = game;
  if (q.count("branch")) {
    if (!ledger::CheckName("branch", q.at("branch")).ok()) return Error(http::status::bad_request, "branch: not a branch name");
    r.branch = q.at("branch");
  }
  r.now = WallNow(settings);
  r.json = true;
  ops::Answer a = ops::GameStatus(ops::On(db), r);
  if (!a.status.ok()) return Error(StatusOf(a.status), a.status.message());
  Response res;
  res.body = std::move(a.out);  // one JSON line
  return res;
}

// POST /api/games/G/adjudicate: a phase or the rest of the turn, as JSON.
Response Desk::Impl::Adjudicate(const std::string& game, const Request& rq, bool phase,
                                const std::optional<std::string>& expect) {
  ops::AdjudicateRequest r;
  r.game = game;
  r.phase = phase;
  r.expect = expect;
  if (!rq.idempotency_key.empty()) r.key = rq.idempotency_key;
  r.json = true;
  ops::Env env = ops::On(db);
  env.warm = &warm;  // the phase starts from the world the submissions kept warm
  env.signer = settings.signer;
  return Answered(ops::Adjudicate(env, r));
}

// POST /api/games/G/directives: the body is the GA's DirectiveFile (checked
// first), recorded on the game's current branch.
Response Desk::Impl::Directive(const std::string& game, const Request& rq) {
  auto doc = schema::ParseJson("DirectiveFile", rq.body, "directive");
  if (!doc.ok()) return Error(http::status::bad_request, doc.status().message());
  ops::DirectiveRequest r;
  r.game = game;
  r.doc = std::move(doc).value();
  if (!rq.idempotency_key.empty()) r.key = rq.idempotency_key;
  return Answered(ops::Directive(ops::On(db), r));
}

// POST /api/games/G/correct?at=TURN[&name=BRANCH][&leave_out=SEQ,...][&format=text]: the
// body is the correction (a DirectiveFile); the new branch leaves the old
// one before `at` and is given its later orders, passwords and directives
// again, but for those `leave_out` names (their seqs on the old branch).
Response Desk::Impl::Correct(const std::string& game, const Request& rq) {
  const auto q = Query(rq.query);
  if (!q.count("at") || !SafeWord(q.at("at"))) return Error(http::status::bad_request, "at: the faulty turn, e.g. ?at=1805.1.2");
  if (q.count("name") && !ledger::CheckName("branch", q.at("name")).ok()) {
    return Error(http::status::bad_request, "name: not a branch name");
  }
  ops::CorrectRequest r;
  if (q.count("leave_out")) {
    auto seqs = ops::ParseSeqList("leave_out", q.at("leave_out"));
    if (!seqs.ok()) return Error(http::status::bad_request, seqs.status().message());
    r.leave_out = std::move(seqs).value();
  }
  auto doc = schema::ParseJson("DirectiveFile", rq.body, "directive");
  if (!doc.ok()) return Error(http::status::bad_request, doc.status().message());
  r.game = game;
  r.at = q.at("at");
  r.doc = std::move(doc).value();
  if (q.count("name")) r.name = q.at("name");
  // &format=text: the answer's out in words (the GA's page); else JSON.
  r.json = !(q.count("format") && q.at("format") == "text");
  ops::Env env = ops::On(db);
  env.signer = settings.signer;
  ops::Answer a = ops::Correct(env, r);
  // A seq that is not a later directive of the branch: named as the desk's field.
  const std::string flag = "--leave-out";
  if (!a.status.ok() && a.status.message().rfind(flag, 0) == 0) {
    a.status = Status::InvalidArgument("leave_out" + a.status.message().substr(flag.size()));
  }
  return Answered(a);
}

// POST /api/games/G/passwords: the hash recorded as the GA's SetPassword
// on the game's current branch, then every session of the person ended (a
// reset is most often for a password another learnt).
Response Desk::Impl::SetPassword(const std::string& game, const std::string& person, const std::string& hash) {
  auto branch = db.Current(game);
  if (!branch.ok()) return Error(StatusOf(branch.status()), branch.status().message());
  auto r = replay::SetPassword(db, game, *branch, person, hash);
  if (!r.ok()) return Error(StatusOf(r.status()), r.status().message());
  const size_t ended = RevokeSessions(game, person);
  return Json("{\"person\": " + JsonString(person) + ", \"branch\": " + JsonString(*branch) +
              ", \"seq\": " + std::to_string(r->first_seq) + ", \"sessions_ended\": " + std::to_string(ended) + "}");
}

int64_t WallNow(const Settings& s) {
  if (s.now) return s.now();
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace adjutant::desk
