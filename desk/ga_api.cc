// The order desk's GA requests (desk.h): POST /api/ga/run and its allowlist,
// directives and corrections.
#include "desk/internal.h"
#include "ledger/ledger.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::desk {

// Commands the GA may run through POST /api/ga/run, each with the exact
// options it may take there: views, checks and the GA's own acts, and no
// option that names a file on the server. A dice script or a salt travels in
// the request's body ("script", "salt") and reaches the command as its
// standard input (its FILE option given as "-").
// (GaCommand: desk/internal.h.)

const std::map<std::string, GaCommand>& GaCommands() {
  static const std::map<std::string, GaCommand> commands = {
      {"games", {{}, {"json"}}},
      {"log", {{"branch", "from", "to", "turn", "kind"}, {"json"}}},
      {"verify", {{"branch", "turn", "digest"}, {"all", "dice", "json"}}},
      {"digest", {{"branch", "turn"}, {"json"}}},
      {"audit", {{"branch", "turn", "rules-version"}, {"all", "json"}}},
      {"replay", {{"to", "branch", "view"}, {"json"}}},
      {"diff", {{"turn", "view"}, {"json"}}},
      {"branches", {{"make-current"}, {"json"}}},
      {"stats", {{"branch", "at"}, {"json"}}},
      {"report", {{"state", "player", "nation", "side", "move", "turn", "branch"}, {"public", "json"}}},
      {"rules-versions", {{"branch"}, {"json"}}},
      {"fork", {{"from", "at", "branch", "name"}, {"with-orders", "reseed", "json"}, true}},
      {"ruling", {{"branch", "reason", "text", "key"}, {"json"}, true}},
      {"roll", {{"branch", "purpose", "rule", "sides", "count", "subject", "key"}, {"json"}, true, "script", "--script"}},
      {"dice-commit", {{"branch", "turn", "key"}, {}, true, "salt", "--salt-file", true}},
      {"dice-reveal", {{"branch", "turn", "key"}, {}, true, "salt", "--salt-file", true}},
      {"adjudicate", {{"branch", "turns", "rules-version", "key"}, {"phase", "json"}, true, "salt", "--dice-salt-file"}},
  };
  return commands;
}

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

Response Desk::Impl::Run(const std::vector<std::string>& argv, const std::string& in) {
  std::string out, err;
  const int code = hooks.run(db, argv, in, &out, &err);
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

// POST /api/ga/run: every option checked against the command's allowlist
// (GaCommands) before anything runs, exactly as the command line will read
// them (cli/args.cc: "--NAME[=VALUE]", a value option takes the next word).
Response Desk::Impl::GaRun(const Request& rq) {
  auto doc = schema::ParseJson("DeskRun", rq.body, "run");
  if (!doc.ok()) return Error(http::status::bad_request, doc.status().message());
  const auto* d = flatbuffers::GetRoot<fb::DeskRun>(doc->data());
  std::vector<std::string> argv;
  if (d->args()) for (const auto* a : *d->args()) argv.push_back(a->str());
  const auto& commands = GaCommands();
  auto it = argv.empty() ? commands.end() : commands.find(argv[0]);
  if (it == commands.end()) {
    std::string known;
    for (const auto& [name, c] : commands) known += (known.empty() ? "" : ", ") + name;
    return Error(http::status::bad_request, "args[0]: the desk runs " + known);
  }
  const GaCommand& cmd = it->second;
  // A command that writes runs on the sequencer of the game named first (Handle).
  if (cmd.writes && (argv.size() < 2 || argv[1].rfind("-", 0) == 0)) {
    return Error(http::status::bad_request, "args[1]: " + argv[0] + " takes its game first, before any option");
  }
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    std::string name;
    if (a == "-h") {
      name = "help";
    } else if (a.size() > 2 && a.rfind("--", 0) == 0) {
      name = a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2);
      const bool inline_value = a.find('=') != std::string::npos;
      if (cmd.values.count(name)) {
        if (!inline_value) ++i;  // its value, whatever it looks like
        continue;
      }
      if (cmd.flags.count(name)) continue;
    } else {
      continue;  // a positional argument: a game, a branch, a report's kind
    }
    std::string allowed;
    for (const auto& o : cmd.values) allowed += (allowed.empty() ? "--" : ", --") + o;
    for (const auto& o : cmd.flags) allowed += (allowed.empty() ? "--" : ", --") + o;
    const std::string why = RefusedBecause(name);
    return Error(http::status::bad_request,
                 "args[" + std::to_string(i) + "]: --" + name + ": not an option the desk runs " + argv[0] + " with" +
                     (why.empty() ? "" : " (" + why + ")") + "; it takes " + (allowed.empty() ? "none" : allowed));
  }
  // The body's dice script or salt: the command's standard input.
  std::string in;
  for (const auto& [field, value] : {std::pair<std::string, const flatbuffers::String*>{"script", d->script()},
                                     std::pair<std::string, const flatbuffers::String*>{"salt", d->salt()}}) {
    if (!value) continue;
    if (cmd.field != field) {
      return Error(http::status::bad_request, field + ": " + argv[0] + " takes no " + field +
                                                  (field == "script" ? " (roll does)" : " (adjudicate, dice-commit and dice-reveal do)"));
    }
    in = value->str();
    argv.insert(argv.end(), {cmd.field_option, "-"});
  }
  if (cmd.field_required && !(cmd.field == "salt" ? d->salt() : d->script())) {
    return Error(http::status::bad_request, cmd.field + ": " + argv[0] + " needs the turn's secret salt (32 to 128 hex digits)");
  }
  return Run(argv, in);
}

// A GA's directive file (checked first), given as the standard input of
// the command that reads it ("-"): `adjutant directive` records it, and
// `adjutant correct` forks before `at` and records it there.
Response Desk::Impl::WithDirective(const Request& rq, const std::function<std::vector<std::string>(const std::string&)>& argv_of) {
  auto doc = schema::ParseJson("DirectiveFile", rq.body, "directive");
  if (!doc.ok()) return Error(http::status::bad_request, doc.status().message());
  return Run(argv_of("-"), rq.body);
}

Response Desk::Impl::Directive(const std::string& game, const Request& rq) {
  return WithDirective(rq, [&](const std::string& file) {
    std::vector<std::string> argv = {"directive", game, file};
    if (!rq.idempotency_key.empty()) argv.insert(argv.end(), {"--key", rq.idempotency_key});
    return argv;
  });
}

Response Desk::Impl::Correct(const std::string& game, const Request& rq) {
  const auto q = Query(rq.query);
  if (!q.count("at") || !SafeWord(q.at("at"))) return Error(http::status::bad_request, "at: the faulty turn, e.g. ?at=1805.1.2");
  if (q.count("name") && !ledger::CheckName("branch", q.at("name")).ok()) {
    return Error(http::status::bad_request, "name: not a branch name");
  }
  return WithDirective(rq, [&](const std::string& file) {
    std::vector<std::string> argv = {"correct", game, "--at", q.at("at"), "--directive", file, "--json"};
    if (q.count("name")) argv.insert(argv.end(), {"--name", q.at("name")});
    return argv;
  });
}

}  // namespace adjutant::desk
