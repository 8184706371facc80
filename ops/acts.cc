// The GA's acts (ops.h): fork, ruling, roll, dice-commit, dice-reveal,
// adjudicate, directive, correct. Each records its events in one batch or
// nothing; none opens a file.
#include <sodium.h>

#include <flatbuffers/flatbuffers.h>

#include "base/limits.h"
#include "ops/internal.h"
#include "base/signing.h"
#include "ops/render.h"
#include "replay/correct.h"
#include "replay/dice_commit.h"
#include "replay/driver.h"
#include "replay/fork.h"
#include "replay/warm.h"
#include "rules/dice.h"
#include "rules/events.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"
#include "schema/text.h"

namespace adjutant::ops {
namespace {

Status DoFork(const Env& env, const ForkRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  auto from = rq.from;
  auto at_turn = rq.at;
  auto name = rq.name;
  if (from.has_value() == at_turn.has_value()) {
    return Status::InvalidArgument("adjutant fork: give --from BRANCH@SEQ or --at TURN[.PHASE] (with --branch B)");
  }
  if (!name) return Status::InvalidArgument("adjutant fork: --name NEW is required");
  if (from && (rq.branch || rq.with_orders)) {
    return Status::InvalidArgument("adjutant fork: --branch and --with-orders go with --at");
  }
  std::string parent = from ? *from : BranchOf(env, rq.branch, game);
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
  auto db = env.open(true);
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
  } else if (!point) {
    // A seq given by hand may fall inside an adjudicated phase: the branch
    // would hold half of it, which no adjudication or audit can take up.
    auto inside = replay::PhaseAround(**db, game, parent, *at);
    if (!inside.ok()) return inside.status();
    if (*inside) {
      const replay::PhaseSpan& ph = **inside;
      return Status::InvalidArgument(
          "--from: " + parent + "@" + std::to_string(*at) + " is inside phase " + std::to_string(ph.at.phase) +
          " of turn " + ph.at.turn.ToString() + " (seqs " + std::to_string(ph.started) + "-" +
          std::to_string(ph.completed) + "); fork before it (" + parent + "@" + std::to_string(ph.started - 1) +
          ") or after it (" + parent + "@" + std::to_string(ph.completed) + ")");
    }
  }
  std::optional<uint64_t> salt;
  if (rq.reseed) {
    uint64_t s;
    randombytes_buf(&s, sizeof s);
    salt = s;
  }
  auto b = (*db)->Fork(game, parent, *at, *name, salt, kGa);
  if (!b.ok()) return b.status();
  size_t carried = 0;
  if (rq.with_orders) {
    auto n = replay::CarryOrders(**db, game, parent, *name, *at, point->turn);
    if (!n.ok()) return n.status();
    carried = *n;
  }
  if (rq.json) {
    auto h = (*db)->HeadOf(game, *name);
    if (!h.ok()) return h.status();
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), name->c_str(), h->seq, h->seq,
                                             h->hash.Hex().c_str(), false));
    return p.Json("AppendSummary", fbb);
  }
  p.Line("forked " + game + "/" + *name + " from " + parent + "@" + std::to_string(*at) +
       (point ? " (before " + (point->phase ? "phase " + std::to_string(point->phase) + " of " : std::string()) +
                    "turn " + point->turn.ToString() + ")"
              : "") +
       (salt ? " with reseeded dice" : " with the same dice") +
       (rq.with_orders ? ", " + std::to_string(carried) + " order(s) of that turn carried over" : ""));
  return Status::Ok();
}

// ---- roll / ruling: GA actions recorded as events ---------------------------
Status AppendAndReport(Printer& p, const Opt& key_given, bool json, ledger::Ledger& db, const std::string& game, const std::string& branch,
                       uint64_t head, std::vector<Draft> drafts, const std::vector<uint32_t>& results,
                       const std::string& text, uint64_t fingerprint) {
  auto key = key_given.value_or("");
  auto r = db.Append(game, branch, head, drafts, key, fingerprint);
  if (!r.ok()) return r.status();
  if (json) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), branch.c_str(), r->first_seq, r->last_seq,
                                             r->head_hash.Hex().c_str(), r->replayed, &results));
    return p.Json("AppendSummary", fbb);
  }
  p.Line(text + "  [seq " + std::to_string(r->first_seq) + "]");
  return Status::Ok();
}

// A retry under an idempotency key already used: answer with what was
// recorded then (a roll is not rolled again), or refuse a different request
// under the same key. Returns true when it answered.
// A retry under an idempotency key already used for the same request:
// answers with what was recorded then (a roll is not rolled again).
// Returns true when it answered; kConflict if the key served another request.
Result<bool> AnswerRetry(Printer& p, const Opt& key, bool json, ledger::Ledger& db, const std::string& game, const std::string& branch,
                         uint64_t fingerprint) {
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
  if (json) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), branch.c_str(), orig.first_seq, orig.last_seq,
                                             orig.head_hash.Hex().c_str(), true, &results));
    ADJ_RETURN_IF_ERROR(p.Json("AppendSummary", fbb));
  } else {
    p.Line("already recorded under --key " + *key + ":");
    p.Line(line);
  }
  return true;
}

Status DoRoll(const Env& env, const RollRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  rules::RollRequest req;
  req.purpose = rq.purpose.value_or("");
  req.rule = rq.rule.value_or("");
  req.subject = rq.subject.value_or("");
  auto sides = Count("sides", rq.sides, 6);
  if (!sides.ok()) return sides.status();
  auto count = Count("count", rq.count, 1);
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
  if (rq.script) {
    if (rq.script->size() > limits::kScriptFileBytesMax) {
      return Status::InvalidArgument((rq.script_from == "-" ? std::string("standard input") : rq.script_from) +
                                     " is over the limit of " + std::to_string(limits::kScriptFileBytesMax) + " bytes");
    }
    auto sd = rules::ScriptedDice::Parse(*rq.script, rq.script_from);
    if (!sd.ok()) return sd.status();
    scripted = std::move(sd).value();
  }
  auto db = env.open(true);
  if (!db.ok()) return db.status();
  auto game_info = (*db)->Game(game);
  if (!game_info.ok()) return game_info.status();
  auto b = (*db)->Branch(game, branch);
  if (!b.ok()) return b.status();
  const uint64_t fingerprint = replay::RequestFingerprint(
      "roll", branch, "GA",
      req.purpose + '\0' + req.rule + '\0' + req.subject + '\0' + std::to_string(req.sides) + '\0' +
          std::to_string(req.count) + (scripted ? "\0scripted" : ""));
  auto retry = AnswerRetry(p, rq.key, rq.json, **db, game, branch, fingerprint);
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
  return AppendAndReport(p, rq.key, rq.json, **db, game, branch, head->seq, {rules::DieRolledDraft(*roll, kGa)}, roll->results, text,
                         fingerprint);
}

Status DoRuling(const Env& env, const RulingRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  auto reason = rq.reason;
  auto text = rq.text;
  if (!reason || reason->empty()) return Status::InvalidArgument("adjutant ruling: --reason R is required");
  if (!text || text->empty()) return Status::InvalidArgument("adjutant ruling: --text T is required");
  ADJ_RETURN_IF_ERROR(schema::CheckText("--reason", *reason, schema::TextRule::kFreeText));
  ADJ_RETURN_IF_ERROR(schema::CheckText("--text", *text, schema::TextRule::kFreeText));
  auto db = env.open(true);
  if (!db.ok()) return db.status();
  const uint64_t fingerprint = replay::RequestFingerprint("ruling", branch, "GA", *reason + '\0' + *text);
  auto retry = AnswerRetry(p, rq.key, rq.json, **db, game, branch, fingerprint);
  if (!retry.ok()) return retry.status();
  if (*retry) return Status::Ok();
  auto head = (*db)->HeadOf(game, branch);
  if (!head.ok()) return head.status();
  return AppendAndReport(p, rq.key, rq.json, **db, game, branch, head->seq, {rules::RulingDraft(head->at, kGa, *reason, *text)}, {},
                         "recorded ruling on " + game + "/" + branch, fingerprint);
}

// ---- directive -----------------------------------------------------------------
Status DoDirective(const Env& env, const DirectiveRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  const std::string& file = rq.from;
  std::string branch = BranchOf(env, rq.branch, game);
  auto db = env.open(true);
  if (!db.ok()) return db.status();
  auto r = replay::RecordDirective(**db, game, branch, rq.doc, rq.key.value_or(""));
  if (!r.ok()) return Status(r.status().code() == Status::Code::kInvalidArgument
                                 ? Status::InvalidArgument((file == "-" ? "stdin" : file) + ": " + r.status().message())
                                 : r.status());
  if (rq.json) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), branch.c_str(), r->first_seq, r->last_seq,
                                             r->head_hash.Hex().c_str(), r->replayed));
    return p.Json("AppendSummary", fbb);
  }
  p.Line(std::string(r->replayed ? "already recorded" : "recorded") + " directive from " + file + " on " + game + "/" +
       branch + "  [seq " + std::to_string(r->first_seq) + ".." + std::to_string(r->last_seq) + "]");
  return Status::Ok();
}

// ---- correct ----------------------------------------------------------------------
Status DoCorrect(const Env& env, const CorrectRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  auto at = rq.at;
  const std::string* file = &rq.from;
  if (!at) return Status::InvalidArgument("adjutant correct: --at TURN[.PHASE] and --directive FILE are required");
  std::optional<TurnPhase> point = ParseTurnPhase(*at);
  if (!point) return Status::InvalidArgument("--at: '" + *at + "' is not " + kTurnPhaseForms);
  const std::vector<uint64_t>& leave_out = rq.leave_out;  // the old branch's later directives not given again
  auto db = env.open(true);
  if (!db.ok()) return db.status();
  std::string name = rq.name.value_or("");
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
  auto r = replay::Correct(**db, game, branch, *point, rq.doc, name, leave_out, env.signer.get());
  if (!r.ok()) {
    const std::string& m = r.status().message();
    return r.status().code() == Status::Code::kInvalidArgument && m.rfind("--leave-out", 0) != 0
               ? Status::InvalidArgument((*file == "-" ? "stdin" : *file) + ": " + m)
               : r.status();
  }
  if (rq.json) {
    flatbuffers::FlatBufferBuilder fbb;
    auto h = (*db)->HeadOf(game, name);
    if (!h.ok()) return h.status();
    fbb.Finish(fb::CreateAppendSummaryDirect(fbb, game.c_str(), name.c_str(), r->fork_seq + 1, r->head,
                                             h->hash.Hex().c_str(), false, nullptr,
                                             r->directives_carried.empty() ? nullptr : &r->directives_carried,
                                             r->directives_left_out.empty() ? nullptr : &r->directives_left_out));
    return p.Json("AppendSummary", fbb);
  }
  p.Line("corrected " + game + ": branch " + name + " leaves " + branch + " after seq " + std::to_string(r->fork_seq) +
       ", with the correction from " + *file + "; " + std::to_string(r->inputs) + " later order(s) and password(s) " +
       "given again, " + std::to_string(r->phases) + " phase(s) adjudicated again; head " + std::to_string(r->head) +
       ". " + branch + " is unchanged.");
  auto seqs = [](const std::vector<uint64_t>& v) {
    std::string out;
    for (uint64_t q : v) out += (out.empty() ? "" : ", ") + std::to_string(q);
    return out;
  };
  if (!r->segments.empty()) {
    // The old branch took new dice after the point: each run of turns
    // rolled again with the dice it was first rolled with.
    std::string runs;
    for (const auto& s : r->segments) runs += s.branch + " (the dice of " + s.dice_of + "), then ";
    p.Line("dice: " + branch + " was forked with new dice after the point, so the corrected turns were played on " +
           runs + name + " (the dice of " + branch + "), each with the dice it was first rolled with");
  }
  if (!r->directives_carried.empty()) {
    p.Line("given again: the GA's later directives on " + branch + " (seq " + seqs(r->directives_carried) + ")");
  }
  if (!r->directives_left_out.empty()) {
    p.Line("left out: the GA's later directives on " + branch + " (seq " + seqs(r->directives_left_out) + "); see `adjutant log " +
         game + " --branch " + branch + " --kind Directive`");
  }
  return Status::Ok();
}

// ---- committed dice ---------------------------------------------------------------

Status RecordDice(const Env& env, const DiceRequest& rq, Printer& p, bool reveal) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  auto t = rq.turn;
  const std::string* file = &rq.salt_from;
  if (!t || !rq.salt) return Status::InvalidArgument("--turn T and --salt-file F are required");
  auto turn = TurnOption("--turn", *t);
  if (!turn.ok()) return turn.status();
  const bool fresh = rq.fresh;
  auto salt = SaltOf(*rq.salt, *file);
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
  auto db = env.open(true);
  if (!db.ok()) return db.status();
  auto r = replay::RecordDirective(**db, game, branch, doc, rq.key.value_or(""));
  if (!r.ok()) return r.status();
  if (reveal) {
    p.Line("revealed the dice salt of turn " + turn->ToString() + " on " + game + "/" + branch + "  [seq " +
         std::to_string(r->first_seq) + "]; anyone can check it with `adjutant verify " + game + " --turn " +
         turn->ToString() + " --dice`");
  } else {
    p.Line(*commitment);
    p.Line("committed to the dice of turn " + turn->ToString() + " on " + game + "/" + branch + "  [seq " +
         std::to_string(r->first_seq) + "]; " +
         (*file == "-" ? std::string("the salt is the one given: keep it secret, adjudicate the turn with it")
                       : "the salt is in " + *file + (fresh ? " (new)" : "") +
                             ": keep it secret, adjudicate the turn with --dice-salt-file " + *file) +
         ", then reveal it");
  }
  return Status::Ok();
}



// ---- adjudicate ------------------------------------------------------------------
Status DoAdjudicate(const Env& env, const AdjudicateRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  auto turns = Count("turns", rq.turns, 1);
  if (!turns.ok()) return turns.status();
  if (rq.phase && rq.turns) {
    return Status::InvalidArgument("adjutant adjudicate: --phase and --turns exclude each other");
  }
  if (*turns < 1 || *turns > 1000) return Status::InvalidArgument("--turns: must be 1..1000");
  std::optional<std::string> salt;
  if (rq.salt) {
    auto text = SaltOf(*rq.salt, rq.salt_from);
    if (!text.ok()) return text.status();
    salt = *text;
  }
  auto db = env.open(true);
  if (!db.ok()) return db.status();
  // --rules-version: the GA adopts other rules versions from this phase on.
  std::optional<rules::RulesVersions> adopt;
  if (auto v = rq.rules_version) {
    auto world = replay::Fold(**db, game, branch);
    if (!world.ok()) return world.status();
    auto parsed = rules::ParseRulesVersions(*v, replay::GameVersions(replay::SummaryOf(*world)));
    if (!parsed.ok()) return Status::InvalidArgument("--rules-version: " + parsed.status().message());
    adopt = *parsed;
  }
  // --expect: the phase the GA confirmed is still the next (on the desk,
  // this runs on the game's sequencer: nothing adjudicates in between).
  if (rq.expect) {
    auto want = ParseTurnPhase(*rq.expect);
    if (!want) return Status::InvalidArgument("--expect: '" + *rq.expect + "' is not " + kTurnPhaseForms);
    auto world = env.warm ? env.warm->Fold(**db, game, branch) : replay::Fold(**db, game, branch);
    if (!world.ok()) return world.status();
    auto next = replay::NextPhaseOf(*world);
    if (!next.ok()) return Status::Conflict("--expect " + *rq.expect + ": nothing is left to adjudicate (" + next.status().message() + ")");
    if (next->at != *want) {
      return Status::Conflict("--expect " + *rq.expect + ": the game has moved on — the next phase is " + next->name + " of " +
                              next->turn_name + " (" + TurnPhaseText(next->at) + "); nothing was adjudicated: look again");
    }
  }
  const std::string key = rq.key.value_or("");
  if (!key.empty() && *turns != 1) return Status::InvalidArgument("--key: makes one phase or one turn safe to retry, not --turns " + std::to_string(*turns));
  auto r = replay::Adjudicate(**db, game, branch,
                              rq.phase ? replay::AdjudicateMode::kPhase : replay::AdjudicateMode::kTurn,
                              static_cast<int>(*turns), salt, nullptr, adopt ? &*adopt : nullptr, key, env.warm,
                              env.signer.get());
  if (!r.ok()) return r.status();
  if (rq.json) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::PhaseSummary>> rows;
    for (const auto& ph : *r) {
      fb::Turn t(ph.at.turn.major, ph.at.turn.minor, ph.at.turn.step);
      rows.push_back(fb::CreatePhaseSummaryDirect(fbb, &t, ph.at.phase, ph.name.c_str(), ph.turn_name.c_str(),
                                                  ph.first_seq, ph.last_seq, static_cast<uint32_t>(ph.rejected),
                                                  ph.replayed));
    }
    fbb.Finish(fb::CreateAdjudicateSummaryDirect(fbb, game.c_str(), branch.c_str(), &rows));
    return p.Json("AdjudicateSummary", fbb);
  }
  std::string current;
  for (const auto& ph : *r) {
    if (ph.turn_name != current) {
      current = ph.turn_name;
      p.Line(current + ":");
    }
    std::string line = "  " + ph.name + "  seq " + std::to_string(ph.first_seq) + ".." + std::to_string(ph.last_seq);
    if (ph.replayed) line += "  (already adjudicated under key " + key + ": nothing new recorded)";
    if (ph.rejected) line += "  (" + std::to_string(ph.rejected) + (ph.rejected == 1 ? " order" : " orders") + " rejected)";
    p.Line(line);
  }
  return Status::Ok();
}

}  // namespace

Answer Fork(const Env& env, const ForkRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoFork(env, rq, p); });
}
Answer Ruling(const Env& env, const RulingRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoRuling(env, rq, p); });
}
Answer Roll(const Env& env, const RollRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoRoll(env, rq, p); });
}
Answer Adjudicate(const Env& env, const AdjudicateRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoAdjudicate(env, rq, p); });
}
Answer Directive(const Env& env, const DirectiveRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoDirective(env, rq, p); });
}
Answer Correct(const Env& env, const CorrectRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoCorrect(env, rq, p); });
}
Answer DiceCommit(const Env& env, const DiceRequest& rq) {
  return Answering(env, [&](Printer& p) { return RecordDice(env, rq, p, false); });
}
Answer DiceReveal(const Env& env, const DiceRequest& rq) {
  return Answering(env, [&](Printer& p) { return RecordDice(env, rq, p, true); });
}

}  // namespace adjutant::ops
