// Playing a game: orders from players, the GA's directives and passwords,
// and the adjudication of phases and turns.
#include <sodium.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "rules/order_text.h"
#include "base/limits.h"
#include "cli/common.h"
#include "projections/roster.h"
#include "replay/dice_commit.h"
#include "replay/driver.h"
#include "replay/roles.h"
#include "schema/codec.h"
#include "schema/text.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::cli {

// The password: --password-file, else $ADJUTANT_PASSWORD, else a prompt at
// the terminal (never an argument, which other users could read).
// "-" as the file: the first line of the standard input. Under the order
// desk (RunShared), only what the client sent: never the desk's own
// environment or terminal.
Result<std::string> ReadPassword(const Args& a, const std::string& prompt) {
  std::string pw;
  Capture* cap = CurrentCapture();
  if (auto f = a.Value("password-file")) {
    if (*f != "-" && !InputExists(*f)) return Status::InvalidArgument(*f + ": cannot open the password file");
    auto text = ReadFile(*f, 64 << 10);
    if (!text.ok()) return text.status();
    pw = text->substr(0, text->find('\n'));
  } else if (cap) {
    if (!cap->inputs || !cap->inputs->password) {
      return Status::InvalidArgument("no password: give --password-file FILE (the order desk reads no terminal and "
                                     "no environment of its own)");
    }
    pw = *cap->inputs->password;
  } else if (const char* env = std::getenv("ADJUTANT_PASSWORD"); env && *env) {
    pw = env;
    if (ClientRecord* r = CurrentRecord()) r->password = pw;
  } else if (isatty(STDIN_FILENO)) {
    std::fprintf(stderr, "%s", prompt.c_str());
    termios old{};
    tcgetattr(STDIN_FILENO, &old);
    termios quiet = old;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    std::getline(std::cin, pw);
    tcsetattr(STDIN_FILENO, TCSANOW, &old);
    std::fprintf(stderr, "\n");
    if (ClientRecord* r = CurrentRecord()) r->password = pw;
  } else {
    return Status::InvalidArgument("no password: give --password-file FILE, set ADJUTANT_PASSWORD, or run at a terminal");
  }
  if (!pw.empty() && pw.back() == '\r') pw.pop_back();
  if (pw.empty()) return Status::InvalidArgument("the password is empty");
  return pw;
}

Status CheckPassword(const projections::Roster& roster, const std::string& game, const std::string& person,
                     const std::string& pw) {
  const projections::Person* p = roster.Find(person);
  // One answer for an unknown person and a wrong password: neither tells
  // a stranger which persons exist.
  if (p == nullptr || p->pwhash.empty() ||
      crypto_pwhash_str_verify(p->pwhash.c_str(), pw.c_str(), pw.size()) != 0) {
    return Status::InvalidArgument("wrong person or password for game '" + game + "'");
  }
  return Status::Ok();
}

namespace {


// ---- order -------------------------------------------------------------------
Status CmdOrder(Context& c) {
  const std::string& game = c.args.positional[0];
  const std::string& file = c.args.positional[1];
  std::string branch = BranchArg(c, game);
  // --as: the player himself (his password); --for: the GA enters orders the
  // person sent him by other means, recorded as entered by the GA.
  auto as = c.args.Value("as");
  auto for_person = c.args.Value("for");
  if (as && for_person) return Status::InvalidArgument("adjutant order: --as or --for, not both");
  if (!as && !for_person) {
    return Status::InvalidArgument("adjutant order: --as PERSON (his orders, with his password) or --for PERSON (the GA "
                                   "enters them on his behalf) is required");
  }
  if (for_person && c.args.Value("password-file")) {
    return Status::InvalidArgument("--password-file: the GA enters orders --for a person without the person's password");
  }
  const std::string person = as ? *as : *for_person;
  if (person.empty()) return Status::InvalidArgument(std::string(as ? "--as" : "--for") + ": a person's name");
  ADJ_RETURN_IF_ERROR(schema::CheckText(as ? "--as" : "--for", person, schema::TextRule::kName));
  // The JSON form or the text form (rules/order_text.h), read with the
  // words of the game's rule books.
  auto text = ReadFile(file, limits::kOrderFileBytesMax);
  if (!text.ok()) return text.status();
  std::string pw;
  if (as) {
    auto read = ReadPassword(c.args, "password for " + person + ": ");
    if (!read.ok()) return read.status();
    pw = *read;
  }
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  Result<std::vector<uint8_t>> doc = Status::NotFound("no orders read");
  {
    auto world = replay::Fold(**db, game, branch);
    if (!world.ok()) return world.status();
    std::vector<std::string_view> rulesets;
    if (world->kind() != nullptr) rulesets = world->kind()->Rulesets();
    // The GA names the person: one he did not mean is told before his file
    // is read (a player's --as is told nothing of who exists; his password
    // is checked below, whatever the file holds).
    if (for_person && !world->roster().Find(person)) {
      return Status::InvalidArgument("--for: there is no person '" + person + "' in game '" + game + "'");
    }
    doc = rules::ParseOrderDocument(*text, file == "-" ? "stdin" : file, rulesets);
    if (!doc.ok()) return doc.status();
    if (as) ADJ_RETURN_IF_ERROR(CheckPassword(world->roster(), game, person, pw));
  }
  std::optional<size_t> not_his;
  auto now = NowOption(c.args);
  if (!now.ok()) return now.status();
  const std::string key = c.args.ValueOr("key", "");
  auto rep = replay::SubmitOrders(**db, game, branch, person, *doc,
                                  {.idempotency_key = key,
                                   .not_his = for_person ? &not_his : nullptr,
                                   .entered_by_ga = for_person.has_value(),
                                   .received_at = *now});
  if (not_his) {
    return Status::InvalidArgument(file + ": order " + std::to_string(*not_his + 1) + ": not " + person +
                                   "'s to give (a person orders only his own ships, ministries, nation or units, under "
                                   "roles he holds)");
  }
  if (!rep.ok()) return rep.status();
  if (c.args.Flag("json")) {
    auto j = replay::SubmitSummaryJson(game, branch, *rep);
    if (!j.ok()) return j.status();
    Line(*j);
    return Status::Ok();
  }
  Line(std::string(rep->append.replayed ? "already recorded" : "recorded") + " " + std::to_string(rep->orders.size()) +
       (rep->orders.size() == 1 ? " order" : " orders") + (as ? " from " : " entered by the GA for ") + person +
       " for turn " + rep->at.turn.ToString() + " of " + game + "/" + branch + ":");
  for (const auto& o : rep->orders) {
    std::string line = "  #" + std::to_string(o.seq) + " " + o.slot + ": " + o.status;
    if (!o.rule.empty()) line += " (" + o.rule + ")";
    if (!o.reason.empty()) line += ": " + o.reason;
    Line(line);
  }
  return Status::Ok();
}

// ---- read-orders -------------------------------------------------------------
Status CmdReadOrders(Context& c) {
  const std::string& game = c.args.positional[0];
  const std::string& file = c.args.positional[1];
  std::string branch = BranchArg(c, game);
  auto text = ReadFile(file, limits::kOrderFileBytesMax);
  if (!text.ok()) return text.status();
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  auto world = replay::Fold(**db, game, branch);
  if (!world.ok()) return world.status();
  if (world->kind() == nullptr) return Status::NotFound("no game '" + game + "' (branch " + branch + ")");
  const auto rulesets = world->kind()->Rulesets();
  auto doc = rules::ParseOrderDocument(*text, file == "-" ? "stdin" : file, rulesets);
  if (!doc.ok()) return doc.status();
  if (c.args.Flag("json")) {
    auto j = schema::ToJson("OrderFile", doc->data());
    if (!j.ok()) return j.status();
    Line(*j);
    return Status::Ok();
  }
  auto printed = rules::PrintOrderText(doc->data(), rulesets);
  if (!printed.ok()) return printed.status();
  Out(*printed);
  return Status::Ok();
}

// ---- password ------------------------------------------------------------------
// A new password hashed: only its libsodium hash is recorded.
Result<std::string> HashNewPassword(const std::string& pw) {
  if (pw.size() < 8) return Status::InvalidArgument("a password needs at least 8 characters");
  char hash[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(hash, pw.c_str(), pw.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                        crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
    return Status::IOError("out of memory while hashing the password");
  }
  return std::string(hash);
}

// A new password read (ReadPassword) and hashed.
Result<std::string> NewPasswordHash(const Args& a, const std::string& prompt) {
  auto pw = ReadPassword(a, prompt);
  if (!pw.ok()) return pw.status();
  return HashNewPassword(*pw);
}

Status CmdPassword(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto person = c.args.Value("person");
  if (!person) return Status::InvalidArgument("adjutant password: --person P is required");
  ADJ_RETURN_IF_ERROR(schema::CheckText("--person", *person, schema::TextRule::kName));
  // Read before the database is opened (a client of the desk sends it with
  // the command), but a person the GA did not mean is told before anything
  // is said of the password.
  auto pw = ReadPassword(c.args, "new password for " + *person + ": ");
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  {
    auto world = replay::Fold(**db, game, branch);
    if (!world.ok()) return world.status();
    if (!world->roster().Find(*person)) {
      return Status::InvalidArgument("--person: there is no person '" + *person + "' in game '" + game + "'");
    }
  }
  if (!pw.ok()) return pw.status();
  auto hash = HashNewPassword(*pw);
  if (!hash.ok()) return hash.status();
  auto r = replay::SetPassword(**db, game, branch, *person, *hash);
  if (!r.ok()) return r.status();
  Line("password set for " + *person + " in " + game + "/" + branch + " (only its hash is recorded)  [seq " +
       std::to_string(r->first_seq) + "]");
  return Status::Ok();
}

// ---- role (issue 20: players come and go) ----------------------------------------
Status CmdRole(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto give = c.args.Value("give");
  auto withdraw = c.args.Value("withdraw");
  auto person = c.args.Value("person");
  if (!give && !withdraw) {
    if (person || c.args.Value("from-turn") || c.args.Value("password-file") || c.args.Value("reason")) {
      return Status::InvalidArgument("adjutant role: --give ROLE or --withdraw ROLE says what changes");
    }
    auto db = OpenDb(c, false);
    if (!db.ok()) return db.status();
    auto roles = replay::RolesAsTheyStand(**db, game, branch);
    if (!roles.ok()) return roles.status();
    for (const auto& r : *roles) {
      std::string who;
      for (const auto& h : r.holders) who += (who.empty() ? "" : ", ") + h;
      Line(r.role + "  " + (who.empty() ? "(vacant)" : who));
    }
    auto pending = replay::RoleChangesPending(**db, game, branch);
    if (!pending.ok()) return pending.status();
    for (const auto& q : *pending) {
      Line("from turn " + q.from_turn.ToString() + ": " + q.role + (q.withdraw ? " withdrawn from " : " given to ") +
           q.person + "  (waiting; seq " + std::to_string(q.seq) + ")");
    }
    return Status::Ok();
  }
  if (give && withdraw) return Status::InvalidArgument("adjutant role: --give or --withdraw, not both");
  if (!person) return Status::InvalidArgument("adjutant role: --person P is required (who takes the role, or loses it)");
  ADJ_RETURN_IF_ERROR(schema::CheckText("--person", *person, schema::TextRule::kName));
  replay::RoleChange rc;
  rc.person = *person;
  rc.role = give ? *give : *withdraw;
  rc.withdraw = withdraw.has_value();
  if (auto t = c.args.Value("from-turn")) {
    auto turn = Turn::Parse(*t);
    if (!turn) return Status::InvalidArgument("--from-turn '" + *t + "': a turn, e.g. 1805.1");
    rc.from_turn = *turn;
  }
  rc.reason = c.args.ValueOr("reason", "");
  if (c.args.Value("password-file")) {
    if (rc.withdraw) return Status::InvalidArgument("--password-file: a password goes with a role given, not one withdrawn");
    auto hash = NewPasswordHash(c.args, "");
    if (!hash.ok()) return hash.status();
    rc.pwhash = *hash;
  }
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  auto r = replay::ChangeRole(**db, game, branch, rc);
  if (!r.ok()) return r.status();
  std::string before;
  for (const auto& h : r->before) before += (before.empty() ? "" : ", ") + h;
  if (r->pending) {
    Line(rc.role + (rc.withdraw ? " to be withdrawn from " : " to be given to ") + rc.person + " in " + game + "/" +
         branch + " from turn " + r->from_turn.ToString() +
         ": it waits until that turn's orders open (then taken from whoever holds it)  [seq " +
         std::to_string(r->append.first_seq) + "]");
    if (!rc.pwhash.empty()) Line("password set for " + rc.person + " (only its hash is recorded)");
    return Status::Ok();
  }
  if (rc.withdraw) {
    Line(rc.role + " withdrawn from " + rc.person + " in " + game + "/" + branch + " from turn " + r->from_turn.ToString() +
         "; it is vacant  [seq " + std::to_string(r->append.first_seq) + "]");
  } else {
    Line(rc.role + " given to " + rc.person + " in " + game + "/" + branch + " from turn " + r->from_turn.ToString() +
         (before.empty() ? " (it was vacant)" : " (it was " + before + "'s)") + "  [seq " +
         std::to_string(r->append.first_seq) + "]");
    if (!rc.pwhash.empty()) {
      Line("password set for " + rc.person + " (only its hash is recorded)");
    } else if (!r->password) {
      Line(rc.person + " has no password yet: `adjutant password " + game + " --person " + rc.person + "`");
    }
  }
  return Status::Ok();
}

// ---- directive, correct, dice-commit, dice-reveal, adjudicate: ops/acts.cc ---------
// Each reads its argv and the files it names onto the operation's request.
Status CmdDirective(Context& c) {
  ops::DirectiveRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.from = c.args.positional[1];
  auto doc = ReadDocument(rq.from, "DirectiveFile", limits::kOrderFileBytesMax);
  if (!doc.ok()) return doc.status();
  rq.doc = std::move(doc).value();
  rq.key = Opt(c.args, "key");
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Directive, rq);
}

Status CmdSchedule(Context& c) {
  ops::ScheduleRequest rq;
  rq.game = c.args.positional[0];
  if (c.args.positional.size() > 1) rq.action = c.args.positional[1];
  rq.branch = Opt(c.args, "branch");
  rq.deadline = Opt(c.args, "deadline");
  rq.weekly = c.args.Flag("weekly");
  rq.after = Opt(c.args, "after");
  rq.by = Opt(c.args, "by");
  rq.reason = Opt(c.args, "reason");
  rq.key = Opt(c.args, "key");
  auto now = NowOption(c.args);
  if (!now.ok()) return now.status();
  rq.now = *now;
  rq.json = c.args.Flag("json");
  return RunOp(c, ops::Schedule, rq);
}

Status CmdCorrect(Context& c) {
  ops::CorrectRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.at = Opt(c.args, "at");
  auto file = c.args.Value("directive");
  if (!rq.at || !file) return Status::InvalidArgument("adjutant correct: --at TURN[.PHASE] and --directive FILE are required");
  if (!ParseTurnPhase(*rq.at)) return Status::InvalidArgument("--at: '" + *rq.at + "' is not " + kTurnPhaseForms);
  if (auto lo = c.args.Value("leave-out")) {
    auto seqs = ops::ParseSeqList("--leave-out", *lo);
    if (!seqs.ok()) return seqs.status();
    rq.leave_out = std::move(seqs).value();
  }
  auto doc = ReadDocument(*file, "DirectiveFile", limits::kOrderFileBytesMax);
  if (!doc.ok()) return doc.status();
  rq.doc = std::move(doc).value();
  rq.from = *file;
  rq.name = Opt(c.args, "name");
  rq.json = c.args.Flag("json");
  ADJ_RETURN_IF_ERROR(LoadSigner(c));
  return RunOp(c, ops::Correct, rq);
}

// A salt file's text; "-": the standard input's.
Result<std::string> ReadSaltFile(const std::string& path) {
  auto text = ReadFile(path, 4096);
  if (!text.ok()) {
    if (path == "-") return text.status();
    return Status::NotFound(path + ": cannot open the salt file");
  }
  return text;
}

Status RecordDice(Context& c, bool reveal) {
  ops::DiceRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.turn = Opt(c.args, "turn");
  auto file = c.args.Value("salt-file");
  if (!rq.turn || !file) return Status::InvalidArgument("--turn T and --salt-file F are required");
  auto turn = ops::TurnOption("--turn", *rq.turn);
  if (!turn.ok()) return turn.status();
  if (!reveal && *file != "-" && !InputExists(*file)) {
    if (CurrentCapture()) {
      return Status::InvalidArgument("--salt-file " + *file + ": the order desk writes no file (the adjutant "
                                     "command makes a new salt file and sends it)");
    }
    // A new salt, kept by the GA alone until he reveals it.
    std::ofstream out(*file, std::ios::trunc);
    out << replay::NewSalt() << "\n";
    out.close();
    if (!out) return Status::IOError(*file + ": cannot write the salt");
    ::chmod(file->c_str(), 0600);
    rq.fresh = true;
  }
  rq.fresh = InputMade(*file, rq.fresh);
  auto salt = ReadSaltFile(*file);
  if (!salt.ok()) return salt.status();
  rq.salt = std::move(salt).value();
  rq.salt_from = *file;
  rq.key = Opt(c.args, "key");
  return RunOp(c, reveal ? ops::DiceReveal : ops::DiceCommit, rq);
}

Status CmdDiceCommit(Context& c) { return RecordDice(c, false); }
Status CmdDiceReveal(Context& c) { return RecordDice(c, true); }

Status CmdAdjudicate(Context& c) {
  ops::AdjudicateRequest rq;
  rq.game = c.args.positional[0];
  rq.branch = Opt(c.args, "branch");
  rq.turns = Opt(c.args, "turns");
  rq.phase = c.args.Flag("phase");
  if (auto f = c.args.Value("dice-salt-file")) {
    auto text = ReadSaltFile(*f);
    if (!text.ok()) return text.status();
    rq.salt = std::move(text).value();
    rq.salt_from = *f;
  }
  rq.expect = Opt(c.args, "expect");
  rq.rules_version = Opt(c.args, "rules-version");
  rq.key = Opt(c.args, "key");
  rq.json = c.args.Flag("json");
  ADJ_RETURN_IF_ERROR(LoadSigner(c));
  return RunOp(c, ops::Adjudicate, rq);
}

}  // namespace

std::vector<Command> PlayCommands() {
  return {
      {{"order", "GAME FILE (--as PERSON | --for PERSON) [--branch B] [--password-file FILE] [--key K] [--now T] [--json]",
        "Record PERSON's orders for the coming turn.\n"
        "--as: the person's own (his password). --for: orders he sent the GA by other means, entered by the GA\n"
        "on his behalf without his password; judged as his, and recorded as entered by the GA (`log` shows\n"
        "\"GA for PERSON\", his orders report says so).\n"
        "FILE is the text form (one order a line: rules/RULESET/README.md) or JSON in the schema's OrderFile form;\n"
        "- reads it from standard input. `adjutant read-orders` shows what a file says without recording it.\n"
        "The password comes from --password-file, $ADJUTANT_PASSWORD or a prompt.\n"
        "Items are a minister's SowOrder (transfers, builds, supplies, repairs...) or a PateOrder: a ship's order form\n"
        "(ShipOrders, from her commander or deputy; the commander's last stands), or the Naval Minister's AppointOrder,\n"
        "ActivationOrder, MoveStoresOrder, and TransferCrewOrder. Each order is checked: an order that breaks a rule is\n"
        "recorded as rejected, with the rule and the reason.\n"
        "Each order records when it was received (this machine's clock, or --now): `status` and his orders report show it.",
        {{"as", "PERSON", "the person giving the orders"},
         {"for", "PERSON", "the GA enters them on PERSON's behalf"}, kBranch, kPasswordFile, kKey, kNow, kJson},
        2, 2},
       CmdOrder},
      {{"read-orders", "GAME FILE [--branch B] [--json]",
        "Read an order file the way `order` reads it, record nothing, and print it back.\n"
        "FILE is the text form or JSON (- reads standard input); the answer is the orders in the text form, one a line,\n"
        "with the game's words (or, with --json, the schema's JSON). A mistake is named by file, line, column and word.\n"
        "Whether each order is allowed is the rules' to say when it is submitted.",
        {kBranch, kJson}, 2, 2},
       CmdReadOrders},
      {{"adjudicate", "GAME [--branch B] [--turns N | --phase] [--rules-version V] [--key K] [--expect TURN.PHASE] [--signing-key FILE] [--json]",
        "Adjudicate the rest of the current turn, N turns, or one phase.\n"
        "A turn's phases are income, upkeep, the orders and construction; in a game with a naval map, then\n"
        "repair, supply, the initial amphibious phase, combat, movement, the final amphibious phase and\n"
        "intelligence (PATE 3.2). A season's end brings manpower growth and attrition, men returning and\n"
        "repairs. Each phase is one batch of events, every die roll among them.\n"
        "A game runs under the rules versions its last phase ran under (new games: the newest; see\n"
        "`adjutant rules-versions`); --rules-version adopts others from this phase on.\n"
        "--key K makes a retry safe: a phase (or turn) already adjudicated under K is answered, not run again;\n"
        "a turn a crash cut short is finished.\n"
        "--expect TURN.PHASE runs only if that is still the next phase (`status` shows it): a confirmation\n"
        "that cannot run a phase the GA did not see, if the scheduler or another GA command moved on.\n"
        "A game that signs its tree heads (`adjutant keygen`, `new --signing-key`, `adopt-key`) is adjudicated\n"
        "only with its key: each phase then ends with a TreeHead, the Merkle root of every event so far signed by\n"
        "it (docs/PROOFS.md).",
        {kBranch, kSigningKey, {"expect", "TURN.PHASE", "the phase the GA confirmed; refused (exit 4) if the game moved on"}, {"turns", "N", "adjudicate N turns (default 1)"}, {"phase", "", "adjudicate one phase only"},
         {"dice-salt-file", "F", "the GA's secret salt for a turn whose dice he committed to (- : standard input)"},
         {"rules-version", "V", "adopt rules versions from now on: RULESET=N[,RULESET=N] or N (every ruleset that has it)"},
         kKey, kJson},
        1, 1},
       CmdAdjudicate},
      {{"directive", "GAME FILE [--branch B] [--key K] [--json]",
        "Record a GA directive and its consequences.\n"
        "FILE is JSON in the schema's DirectiveFile form (- reads it from standard input): a reason and a body. Declare war or peace, blockades and embargoes, capture a city, place, move or\n"
        "destroy a unit, move or lose a ship, set a siege, correct a value (SowDirective); combine or divide transport\n"
        "groups, seize inactive ships in a taken port (PateDirective). A directive that breaks a rule is refused and\n"
        "nothing is recorded. Nothing is rewritten.",
        {kBranch, kKey, kJson}, 2, 2},
       CmdDirective},
      {{"schedule", "GAME [set|extend|pause|resume|clear|run] [--deadline T] [--weekly | --after D] [--by D] [--reason R] [--branch B] [--key K] [--now T] [--json]",
        "Show or change the game's deadlines; `adjutant serve` adjudicates each turn when its deadline passes.\n"
        "Without an action: the deadline of the turn (or move) orders now go to, the time left, how the next\n"
        "deadlines follow and the last one fired. set --deadline T: the coming turn's orders close at T (a UTC\n"
        "time such as 2026-12-06T20:00Z, or +DURATION from now such as +3d); with --weekly the next deadlines fall\n"
        "on the same weekday and time each week, with --after D a time D after each turn closes (3d, 36h, 1w2d),\n"
        "else there is one deadline. extend --by D moves the deadline in force; pause stops deadlines firing;\n"
        "resume starts them again (with --deadline: a new one); clear removes the schedule. Each change is a\n"
        "recorded GA directive. A turn the GA adjudicates himself keeps the rule going: the next deadline is\n"
        "the rule's next after the one in force. run: what `adjutant serve` does at each tick, now (or at\n"
        "--now T): a deadline that has passed fires (DeadlineFired, with the time) and its turn is adjudicated,\n"
        "each under an idempotency key, so a run repeated after a crash neither skips nor doubles a turn.",
        {{"deadline", "T", "set, resume: when the coming turn's orders close (UTC time or +DURATION)"},
         {"weekly", "", "set: then every week on the deadline's weekday and time"},
         {"after", "D", "set: then D after each turn closes"},
         {"by", "D", "extend: how much later"},
         {"reason", "R", "the reason recorded with the directive (default: the action)"},
         kBranch, kKey, kNow, kJson},
        1, 2,
        "Show or change the game's deadlines, by which `adjutant serve` adjudicates."},
       CmdSchedule},
      {{"dice-commit", "GAME --turn T --salt-file F [--branch B] [--key K]",
        "Commit to the dice of a turn before it is adjudicated (the GA).\n"
        "Records BLAKE2b-256 of the salt in F (a new random salt is written to F if it does not exist);\n"
        "the turn's rolls then also derive from the salt, so the turn is adjudicated with\n"
        "--dice-salt-file F. Publish the commitment; reveal the salt after the turn with dice-reveal.",
        {kBranch, {"turn", "T", "the turn (not yet begun)"}, {"salt-file", "F", "the secret salt (hex; - reads it from standard input)"}, kKey}, 1, 1},
       CmdDiceCommit},
      {{"dice-reveal", "GAME --turn T --salt-file F [--branch B] [--key K]",
        "Reveal a turn's dice salt once the turn is over; `verify --turn T --dice` then checks the\n"
        "commitment and recomputes every roll of the turn.",
        {kBranch, {"turn", "T", "the turn (over)"}, {"salt-file", "F", "the salt committed to (- reads it from standard input)"}, kKey}, 1, 1,
        "Reveal a turn's dice salt once it is over, so that anyone can recompute its rolls."},
       CmdDiceReveal},
      {{"correct", "GAME --at TURN[.PHASE] --directive FILE [--branch B] [--name NEW] [--leave-out SEQ[,SEQ...]] [--signing-key FILE] [--json]",
        "Correct history without rewriting it.\n"
        "Forks the branch just before TURN (or phase PHASE of it), records the GA's correction (a\n"
        "DirectiveFile) there, then gives the new branch every later order, password and GA directive of the\n"
        "old one at the turn and phase it was given, adjudicating the turns again in between with the same dice,\n"
        "up to where the old branch stands. --leave-out names later directives (their seqs on the old branch,\n"
        "see `log --kind Directive`) not to give again, e.g. the erroneous one the correction replaces.\n"
        "Dice commitments and reveals are carried like other directives (a commitment is the GA's promise for\n"
        "its turn: the turn is played again with the same committed dice, so its salt must have been revealed);\n"
        "leaving a commitment out leaves its reveal out too, and the turn is rolled with the branch's dice.\n"
        "Each turn is rolled with the dice it was first rolled with: a branch forked with new dice\n"
        "(fork --reseed) after the point is corrected in parts, NEW-part1 (-part2, ...) with its parent's\n"
        "dice for the turns below its fork point, then NEW with its own.\n"
        "The answer lists the directives given again and those left out. The old branch stays as it was;\n"
        "`branches` shows both. A game that signs its tree heads is corrected only with its key (--signing-key):\n"
        "the new branch's phases record heads of their own.",
        {{"at", "TURN[.PHASE]", "the faulty point"}, {"directive", "FILE", "the correction (DirectiveFile JSON)"}, kBranch, kSigningKey,
         {"name", "NEW", "the corrected branch's name (default BRANCH-corrected)"},
         {"leave-out", "SEQ[,SEQ...]", "the old branch's later directives not to give again"}, kJson},
        1, 1},
       CmdCorrect},
      {{"password", "GAME --person P [--branch B] [--password-file FILE]",
        "Set a person's password (the GA's job). Only a libsodium hash of it is recorded.",
        {{"person", "P", "the person"}, kBranch, kPasswordFile}, 1, 1},
       CmdPassword},
      {{"role", "GAME [--person P (--give ROLE | --withdraw ROLE) [--from-turn T] [--password-file FILE]]",
        "Players come and go: the GA gives a role (a ministry, a nation, a ship's command, a side) to a person —\n"
        "a replacement takes it from whoever held it — or withdraws it, leaving it vacant. Recorded as an\n"
        "AssignRole directive; the change governs the coming turn's orders (the default), or a later turn's\n"
        "(--from-turn T): such a change waits and takes effect as T's orders open, from whoever holds the role\n"
        "then. Orders the old holder gave before it stand as they were judged; from then on only the new\n"
        "holder orders under the role, reads its reports and gets its mail, and the order desk ends the\n"
        "sessions of whoever the change took the role from. --password-file sets the new holder's password.\n"
        "Without --give or --withdraw: each role of the game and who holds it, then the changes waiting.",
        {{"person", "P", "who takes the role, or loses it"},
         {"give", "ROLE", "the role given, HOLDER.TITLE (e.g. BR.naval, AAA.ruler, British.general)"},
         {"withdraw", "ROLE", "the role taken back"},
         {"from-turn", "TURN", "the turn the change governs first: the coming turn (the default) or a later one"},
         {"reason", "TEXT", "the directive's reason (default: what changed)"},
         kBranch, kPasswordFile},
        1, 1,
        "Give a role (a ministry, a nation, a command, a side) to a person, or withdraw it."},
       CmdRole},
  };
}

}  // namespace adjutant::cli
