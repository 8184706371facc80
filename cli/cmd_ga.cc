// GA actions recorded as events: roll, ruling.
#include "base/limits.h"
#include "cli/common.h"
#include "cli/render.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "rules/dice.h"
#include "rules/events.h"
#include "schema/text.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::cli {
namespace {

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
        1, 1},
       CmdRoll},
      {{"ruling", "GAME --reason R --text T [--branch B] [--key K]", "Record a GA's written ruling as a directive.",
        {kBranch, {"reason", "R", "why the ruling is made"}, {"text", "T", "the ruling"},
         {"key", "K", "idempotency key"}, kJson},
        1, 1},
       CmdRuling},
  };
}

}  // namespace adjutant::cli
