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

#include "base/limits.h"
#include "cli/common.h"
#include "projections/roster.h"
#include "replay/correct.h"
#include "replay/dice_commit.h"
#include "replay/driver.h"
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

const OptionSpec kKey{"key", "K", "idempotency key: a retry with the same key records nothing new"};

// ---- order -------------------------------------------------------------------
Status CmdOrder(Context& c) {
  const std::string& game = c.args.positional[0];
  const std::string& file = c.args.positional[1];
  std::string branch = BranchArg(c, game);
  auto person = c.args.Value("as");
  if (!person) return Status::InvalidArgument("adjutant order: --as PERSON is required");
  auto doc = ReadDocument(file, "OrderFile", limits::kOrderFileBytesMax);
  if (!doc.ok()) return doc.status();
  auto pw = ReadPassword(c.args, "password for " + *person + ": ");
  if (!pw.ok()) return pw.status();
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  {
    auto world = replay::Fold(**db, game, branch);
    if (!world.ok()) return world.status();
    ADJ_RETURN_IF_ERROR(CheckPassword(world->roster(), game, *person, *pw));
  }
  auto rep = replay::SubmitOrders(**db, game, branch, *person, *doc, c.args.ValueOr("key", ""));
  if (!rep.ok()) return rep.status();
  if (c.args.Flag("json")) {
    auto j = replay::SubmitSummaryJson(game, branch, *rep);
    if (!j.ok()) return j.status();
    Line(*j);
    return Status::Ok();
  }
  Line(std::string(rep->append.replayed ? "already recorded" : "recorded") + " " + std::to_string(rep->orders.size()) +
       (rep->orders.size() == 1 ? " order" : " orders") + " from " + *person + " for turn " + rep->at.turn.ToString() + " of " + game + "/" + branch + ":");
  for (const auto& o : rep->orders) {
    std::string line = "  #" + std::to_string(o.seq) + " " + o.slot + ": " + o.status;
    if (!o.rule.empty()) line += " (" + o.rule + ")";
    if (!o.reason.empty()) line += ": " + o.reason;
    Line(line);
  }
  return Status::Ok();
}

// ---- password ------------------------------------------------------------------
Status CmdPassword(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto person = c.args.Value("person");
  if (!person) return Status::InvalidArgument("adjutant password: --person P is required");
  ADJ_RETURN_IF_ERROR(schema::CheckText("--person", *person, schema::TextRule::kName));
  auto pw = ReadPassword(c.args, "new password for " + *person + ": ");
  if (!pw.ok()) return pw.status();
  if (pw->size() < 8) return Status::InvalidArgument("a password needs at least 8 characters");
  char hash[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(hash, pw->c_str(), pw->size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                        crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
    return Status::IOError("out of memory while hashing the password");
  }
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  auto r = replay::SetPassword(**db, game, branch, *person, hash);
  if (!r.ok()) return r.status();
  Line("password set for " + *person + " in " + game + "/" + branch + " (only its hash is recorded)  [seq " +
       std::to_string(r->first_seq) + "]");
  return Status::Ok();
}

// ---- directive -----------------------------------------------------------------
Status CmdDirective(Context& c) {
  const std::string& game = c.args.positional[0];
  const std::string& file = c.args.positional[1];
  std::string branch = BranchArg(c, game);
  auto doc = ReadDocument(file, "DirectiveFile", limits::kOrderFileBytesMax);
  if (!doc.ok()) return doc.status();
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  auto r = replay::RecordDirective(**db, game, branch, *doc, c.args.ValueOr("key", ""));
  if (!r.ok()) return Status(r.status().code() == Status::Code::kInvalidArgument
                                 ? Status::InvalidArgument((file == "-" ? "stdin" : file) + ": " + r.status().message())
                                 : r.status());
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), branch.c_str(), r->first_seq, r->last_seq,
                                             r->head_hash.Hex().c_str(), r->replayed));
    return PrintJson("AppendSummary", fbb);
  }
  Line(std::string(r->replayed ? "already recorded" : "recorded") + " directive from " + file + " on " + game + "/" +
       branch + "  [seq " + std::to_string(r->first_seq) + ".." + std::to_string(r->last_seq) + "]");
  return Status::Ok();
}

// ---- correct ----------------------------------------------------------------------
Status CmdCorrect(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto at = c.args.Value("at");
  auto file = c.args.Value("directive");
  if (!at || !file) return Status::InvalidArgument("adjutant correct: --at TURN[.PHASE] and --directive FILE are required");
  std::optional<TurnPhase> point = ParseTurnPhase(*at);
  if (!point) return Status::InvalidArgument("--at: '" + *at + "' is not " + kTurnPhaseForms);
  // --leave-out SEQ[,SEQ...]: the old branch's later directives not given again.
  std::vector<uint64_t> leave_out;
  if (auto lo = c.args.Value("leave-out")) {
    size_t at_ = 0;
    while (at_ <= lo->size()) {
      size_t comma = lo->find(',', at_);
      std::string item = lo->substr(at_, comma == std::string::npos ? std::string::npos : comma - at_);
      auto q = ParseU64(item);
      if (!q || *q == 0) return Status::InvalidArgument("--leave-out: '" + item + "' is not a sequence number (SEQ[,SEQ...])");
      leave_out.push_back(*q);
      if (comma == std::string::npos) break;
      at_ = comma + 1;
    }
  }
  auto doc = ReadDocument(*file, "DirectiveFile", limits::kOrderFileBytesMax);
  if (!doc.ok()) return doc.status();
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  std::string name = c.args.ValueOr("name", "");
  if (name.empty()) {
    auto bs = (*db)->Branches(game);
    if (!bs.ok()) return bs.status();
    for (int n = 1; name.empty(); ++n) {
      std::string candidate = branch + "-corrected" + (n > 1 ? "-" + std::to_string(n) : "");
      bool taken = false;
      for (const auto& b : *bs) taken = taken || b.name == candidate;
      if (!taken) name = candidate;
    }
  }
  auto r = replay::Correct(**db, game, branch, *point, *doc, name, leave_out);
  if (!r.ok()) {
    const std::string& m = r.status().message();
    return r.status().code() == Status::Code::kInvalidArgument && m.rfind("--leave-out", 0) != 0
               ? Status::InvalidArgument((*file == "-" ? "stdin" : *file) + ": " + m)
               : r.status();
  }
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    auto h = (*db)->HeadOf(game, name);
    if (!h.ok()) return h.status();
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), name.c_str(), r->fork_seq + 1, r->head,
                                             h->hash.Hex().c_str(), false, nullptr,
                                             r->directives_carried.empty() ? nullptr : &r->directives_carried,
                                             r->directives_left_out.empty() ? nullptr : &r->directives_left_out));
    return PrintJson("AppendSummary", fbb);
  }
  Line("corrected " + game + ": branch " + name + " leaves " + branch + " after seq " + std::to_string(r->fork_seq) +
       ", with the correction from " + *file + "; " + std::to_string(r->inputs) + " later order(s) and password(s) " +
       "given again, " + std::to_string(r->phases) + " phase(s) adjudicated again; head " + std::to_string(r->head) +
       ". " + branch + " is unchanged.");
  auto seqs = [](const std::vector<uint64_t>& v) {
    std::string out;
    for (uint64_t q : v) out += (out.empty() ? "" : ", ") + std::to_string(q);
    return out;
  };
  if (!r->directives_carried.empty()) {
    Line("given again: the GA's later directives on " + branch + " (seq " + seqs(r->directives_carried) + ")");
  }
  if (!r->directives_left_out.empty()) {
    Line("left out: the GA's later directives on " + branch + " (seq " + seqs(r->directives_left_out) + "); see `adjutant log " +
         game + " --branch " + branch + " --kind Directive`");
  }
  return Status::Ok();
}

// ---- committed dice ---------------------------------------------------------------

// A salt file's first line, hex; "-": the standard input's (the desk passes
// the salt of its request's body this way).
Result<std::string> ReadSaltFile(const std::string& path) {
  const std::string name = path == "-" ? "standard input" : path;
  auto text = ReadFile(path, 4096);
  if (!text.ok()) {
    if (path == "-") return text.status();
    return Status::NotFound(path + ": cannot open the salt file");
  }
  std::string line = text->substr(0, text->find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (!replay::CommitmentOf(line).ok()) return Status::InvalidArgument(name + ": line 1: a salt is 32 to 128 hex digits");
  return line;
}

Status RecordDice(Context& c, bool reveal) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto t = c.args.Value("turn");
  auto file = c.args.Value("salt-file");
  if (!t || !file) return Status::InvalidArgument("--turn T and --salt-file F are required");
  auto turn = Turn::Parse(*t);
  if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
  bool fresh = false;
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
    fresh = true;
  }
  fresh = InputMade(*file, fresh);
  auto salt = ReadSaltFile(*file);
  if (!salt.ok()) return salt.status();
  auto commitment = replay::CommitmentOf(*salt);
  if (!commitment.ok()) return commitment.status();
  flatbuffers::FlatBufferBuilder f;
  fb::Turn ft(turn->major, turn->minor, turn->step);
  flatbuffers::Offset<void> body;
  if (reveal) body = fb::CreateRevealDiceDirect(f, &ft, salt->c_str()).Union();
  else body = fb::CreateCommitDiceDirect(f, &ft, commitment->c_str()).Union();
  std::string reason = reveal ? "the dice salt of turn " + turn->ToString() + " revealed"
                              : "the GA commits to the dice of turn " + turn->ToString();
  f.Finish(fb::CreateDirectiveFile(f, f.CreateString(reason), reveal ? fb::DirectiveBody_RevealDice : fb::DirectiveBody_CommitDice,
                                   body));
  std::vector<uint8_t> doc(f.GetBufferPointer(), f.GetBufferPointer() + f.GetSize());
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  auto r = replay::RecordDirective(**db, game, branch, doc, c.args.ValueOr("key", ""));
  if (!r.ok()) return r.status();
  if (reveal) {
    Line("revealed the dice salt of turn " + turn->ToString() + " on " + game + "/" + branch + "  [seq " +
         std::to_string(r->first_seq) + "]; anyone can check it with `adjutant verify " + game + " --turn " +
         turn->ToString() + " --dice`");
  } else {
    Line(*commitment);
    Line("committed to the dice of turn " + turn->ToString() + " on " + game + "/" + branch + "  [seq " +
         std::to_string(r->first_seq) + "]; " +
         (*file == "-" ? std::string("the salt is the one given: keep it secret, adjudicate the turn with it")
                       : "the salt is in " + *file + (fresh ? " (new)" : "") +
                             ": keep it secret, adjudicate the turn with --dice-salt-file " + *file) +
         ", then reveal it");
  }
  return Status::Ok();
}

Status CmdDiceCommit(Context& c) { return RecordDice(c, false); }
Status CmdDiceReveal(Context& c) { return RecordDice(c, true); }

// ---- adjudicate ------------------------------------------------------------------
Status CmdAdjudicate(Context& c) {
  const std::string& game = c.args.positional[0];
  std::string branch = BranchArg(c, game);
  auto turns = U64Option(c.args, "turns", 1);
  if (!turns.ok()) return turns.status();
  if (c.args.Flag("phase") && c.args.Value("turns")) {
    return Status::InvalidArgument("adjutant adjudicate: --phase and --turns exclude each other");
  }
  if (*turns < 1 || *turns > 1000) return Status::InvalidArgument("--turns: must be 1..1000");
  std::optional<std::string> salt;
  if (auto f = c.args.Value("dice-salt-file")) {
    auto text = ReadSaltFile(*f);
    if (!text.ok()) return text.status();
    salt = *text;
  }
  auto db = OpenDb(c, true);
  if (!db.ok()) return db.status();
  // --rules-version: the GA adopts other rules versions from this phase on.
  std::optional<rules::RulesVersions> adopt;
  if (auto v = c.args.Value("rules-version")) {
    auto world = replay::Fold(**db, game, branch);
    if (!world.ok()) return world.status();
    auto parsed = rules::ParseRulesVersions(*v, replay::GameVersions(replay::SummaryOf(*world)));
    if (!parsed.ok()) return Status::InvalidArgument("--rules-version: " + parsed.status().message());
    adopt = *parsed;
  }
  const std::string key = c.args.ValueOr("key", "");
  if (!key.empty() && *turns != 1) return Status::InvalidArgument("--key: makes one phase or one turn safe to retry, not --turns " + std::to_string(*turns));
  auto r = replay::Adjudicate(**db, game, branch,
                              c.args.Flag("phase") ? replay::AdjudicateMode::kPhase : replay::AdjudicateMode::kTurn,
                              static_cast<int>(*turns), salt, nullptr, adopt ? &*adopt : nullptr, key);
  if (!r.ok()) return r.status();
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::PhaseSummary>> rows;
    for (const auto& p : *r) {
      fb::Turn t(p.at.turn.major, p.at.turn.minor, p.at.turn.step);
      rows.push_back(fb::CreatePhaseSummaryDirect(fbb, &t, p.at.phase, p.name.c_str(), p.turn_name.c_str(),
                                                  p.first_seq, p.last_seq, static_cast<uint32_t>(p.rejected),
                                                  p.replayed));
    }
    fbb.Finish(fb::CreateAdjudicateSummaryDirect(fbb, game.c_str(), branch.c_str(), &rows));
    return PrintJson("AdjudicateSummary", fbb);
  }
  std::string current;
  for (const auto& p : *r) {
    if (p.turn_name != current) {
      current = p.turn_name;
      Line(current + ":");
    }
    std::string line = "  " + p.name + "  seq " + std::to_string(p.first_seq) + ".." + std::to_string(p.last_seq);
    if (p.replayed) line += "  (already adjudicated under key " + key + ": nothing new recorded)";
    if (p.rejected) line += "  (" + std::to_string(p.rejected) + (p.rejected == 1 ? " order" : " orders") + " rejected)";
    Line(line);
  }
  return Status::Ok();
}

}  // namespace

std::vector<Command> PlayCommands() {
  return {
      {{"order", "GAME FILE --as PERSON [--branch B] [--password-file FILE] [--key K] [--json]",
        "Record PERSON's orders for the coming turn.\n"
        "FILE is JSON in the schema's OrderFile form (- reads it from standard input). The password comes from --password-file, $ADJUTANT_PASSWORD or a prompt.\n"
        "Items are a minister's SowOrder (transfers, builds, supplies, repairs...) or a PateOrder: a ship's order form\n"
        "(ShipOrders, from her commander or deputy; the commander's last stands), or the Naval Minister's AppointOrder,\n"
        "ActivationOrder, MoveStoresOrder, and TransferCrewOrder. Each order is checked: an order that breaks a rule is\n"
        "recorded as rejected, with the rule and the reason.",
        {{"as", "PERSON", "the person giving the orders"}, kBranch, kPasswordFile, kKey, kJson}, 2, 2},
       CmdOrder},
      {{"adjudicate", "GAME [--branch B] [--turns N | --phase] [--rules-version V] [--key K] [--json]",
        "Adjudicate the rest of the current turn, N turns, or one phase.\n"
        "A turn's phases are income, upkeep, the orders and construction; in a game with a naval map, then\n"
        "repair, supply, the initial amphibious phase, combat, movement, the final amphibious phase and\n"
        "intelligence (PATE 3.2). A season's end brings manpower growth and attrition, men returning and\n"
        "repairs. Each phase is one batch of events, every die roll among them.\n"
        "A game runs under the rules versions its last phase ran under (new games: the newest; see\n"
        "`adjutant rules-versions`); --rules-version adopts others from this phase on.\n"
        "--key K makes a retry safe: a phase (or turn) already adjudicated under K is answered, not run again;\n"
        "a turn a crash cut short is finished.",
        {kBranch, {"turns", "N", "adjudicate N turns (default 1)"}, {"phase", "", "adjudicate one phase only"},
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
        {kBranch, {"turn", "T", "the turn (over)"}, {"salt-file", "F", "the salt committed to (- reads it from standard input)"}, kKey}, 1, 1},
       CmdDiceReveal},
      {{"correct", "GAME --at TURN[.PHASE] --directive FILE [--branch B] [--name NEW] [--leave-out SEQ[,SEQ...]] [--json]",
        "Correct history without rewriting it.\n"
        "Forks the branch just before TURN (or phase PHASE of it), records the GA's correction (a\n"
        "DirectiveFile) there, then gives the new branch every later order, password and GA directive of the\n"
        "old one at the turn and phase it was given, adjudicating the turns again in between with the same dice,\n"
        "up to where the old branch stands. --leave-out names later directives (their seqs on the old branch,\n"
        "see `log --kind Directive`) not to give again, e.g. the erroneous one the correction replaces.\n"
        "Dice commitments and reveals are carried like other directives (a commitment is the GA's promise for\n"
        "its turn: the turn is played again with the same committed dice, so its salt must have been revealed);\n"
        "leaving a commitment out leaves its reveal out too, and the turn is rolled with the branch's dice.\n"
        "The answer lists the directives given again and those left out. The old branch stays as it was;\n"
        "`branches` shows both.",
        {{"at", "TURN[.PHASE]", "the faulty point"}, {"directive", "FILE", "the correction (DirectiveFile JSON)"}, kBranch,
         {"name", "NEW", "the corrected branch's name (default BRANCH-corrected)"},
         {"leave-out", "SEQ[,SEQ...]", "the old branch's later directives not to give again"}, kJson},
        1, 1},
       CmdCorrect},
      {{"password", "GAME --person P [--branch B] [--password-file FILE]",
        "Set a person's password (the GA's job). Only a libsodium hash of it is recorded.",
        {{"person", "P", "the person"}, kBranch, kPasswordFile}, 1, 1},
       CmdPassword},
  };
}

}  // namespace adjutant::cli
