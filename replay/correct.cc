#include "replay/correct.h"
#include "replay/heads.h"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <map>
#include <set>

#include "projections/summary.h"
#include "replay/dice_commit.h"
#include "replay/driver.h"
#include "replay/fork.h"
#include "replay/mail.h"
#include "rules/kind.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/values.h"

namespace adjutant::replay {

namespace {

// One input of the old branch, as it was given.
struct Input {
  TurnPhase at;
  enum Kind { kOrder, kPassword, kDirective, kFired, kMailAddress } kind = kOrder;
  std::string person;          // orders, passwords
  std::string pwhash;          // passwords
  OrderRun run;                // orders: one file of them (replay/fork.h)
  std::vector<uint8_t> directive;  // directives: the DirectiveFile as the GA gave it
  uint64_t seq = 0;            // directives: its seq on the old branch
  Turn fired_turn;             // a deadline fired: its turn, deadline and time
  int64_t fired_deadline = 0, fired_at = 0;
  std::string address;         // a mail address given (replay/mail.h)
};

using rules::Progress;

// A run of the old branch's phases after the point rolled with one dice
// salt: that of the branch that wrote them (a branch forked with new dice
// rolls its own from its fork point on, its parent's below it). The
// corrected branch plays each again with the same salt: one segment a
// branch, each forked from the one before as the first phase of its run
// comes up. `from` is none for the branch's own salt after the last phase
// played (the phases the game goes on to).
struct DiceSegment {
  std::optional<TurnPhase> from;
  uint64_t salt = 0;
  std::string writer;  // the branch whose dice they are
  std::string name;    // the corrected segment's branch
};

// A recorded directive as the DirectiveFile the GA gave.
std::vector<uint8_t> DirectiveFileOf(const fb::Directive& d) {
  flatbuffers::FlatBufferBuilder f;
  flatbuffers::Offset<void> body;
  if (d.body_type() != fb::DirectiveBody_NONE) {
    body = flatbuffers::Offset<void>(schema::CopyTable(f, fb::EnumNameDirectiveBody(d.body_type()), d.body()));
  }
  auto reason = f.CreateString(d.reason() ? d.reason()->str() : "");
  f.Finish(fb::CreateDirectiveFile(f, reason, d.body_type(), body));
  return std::vector<uint8_t>(f.GetBufferPointer(), f.GetBufferPointer() + f.GetSize());
}

using schema::TurnOf;


// Has the branch reached the position an input was given at: the orders
// window of its turn (phase 0), or the end of its phase?
Result<bool> Reached(const World& w, const TurnPhase& at, bool* past) {
  *past = false;
  const Progress p = ProgressOf(w);
  if (at.phase == 0) {
    auto window = OrderPositionOf(w);
    if (window.ok() && window->turn == at.turn) return true;
    if (p.turn == at.turn && p.phase_done == 0) return true;
  } else if (p.turn == at.turn && p.phase_done == at.phase) {
    return true;
  }
  *past = at.turn < p.turn || (at.turn == p.turn && at.phase < p.phase_done);
  return false;
}

// An input of the old branch in words, for a message.
std::string Described(const Input& in, std::string_view branch) {
  auto seq = [&](uint64_t q) { return "seq " + std::to_string(q) + " on " + std::string(branch); };
  switch (in.kind) {
    case Input::kOrder:
      return in.person + "'s orders (" + (in.run.seqs.empty() ? std::string("none") : seq(in.run.seqs.front())) + ")";
    case Input::kPassword: return in.person + "'s password";
    case Input::kMailAddress: return in.person + "'s mail address";
    case Input::kFired: return "the deadline that fired for turn " + in.fired_turn.ToString();
    case Input::kDirective: return "the GA's directive (" + seq(in.seq) + ")";
  }
  return "an input";
}

// `s` with `note` added to its message.
Status Noted(const Status& s, const std::string& note) {
  const std::string m = s.message() + note;
  switch (s.code()) {
    case Status::Code::kNotFound: return Status::NotFound(m);
    case Status::Code::kAlreadyExists: return Status::AlreadyExists(m);
    case Status::Code::kConflict: return Status::Conflict(m);
    case Status::Code::kCorruption: return Status::Corruption(m);
    case Status::Code::kIOError: return Status::IOError(m);
    case Status::Code::kBusy: return Status::Busy(m);
    default: return Status::InvalidArgument(m);
  }
}

// The correction and every later input on the new branch, the phases
// between adjudicated again; then the new branch made current.
// `segments` (at least one, the last named as the GA asked): the first is
// already forked from the old branch at the point.
Status ReplayOnto(ledger::Ledger& db, std::string_view game, std::string_view branch,
                  const std::vector<DiceSegment>& segments, const std::vector<uint8_t>& directive_file,
                  const std::vector<Input>& inputs, const Progress& old_state, const signing::SigningKey* signer,
                  CorrectReport* out, std::string* cur);

}  // namespace

Result<CorrectReport> Correct(ledger::Ledger& db, std::string_view game, std::string_view branch, const TurnPhase& at,
                              const std::vector<uint8_t>& directive_file, std::string_view new_branch,
                              const std::vector<uint64_t>& leave_out, const signing::SigningKey* signer) {
  CorrectReport rep;
  rep.branch = std::string(new_branch);
  auto point = ForkPoint(db, game, branch, at);
  if (!point.ok()) return point.status();
  rep.fork_seq = *point;
  // The old branch's inputs after the point, and where it stands.
  std::vector<Input> inputs;
  std::set<uint64_t> directive_seqs;          // the later directives (not passwords)
  std::map<uint64_t, Turn> commits, reveals;  // later dice directives: seq -> turn
  std::set<Turn> readjudicated;               // turns with a phase after the point
  bool continues = false;  // the last event was part of the last order input
  std::vector<std::pair<TurnPhase, std::string>> phase_writers;  // each phase after the point, and who wrote it
  auto created = Fold(db, game, branch, 1, {"summary"});
  if (!created.ok()) return created.status();
  const bool files_replace = created->kind() && created->kind()->FilesReplace();
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, *point + 1, UINT64_MAX, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    Input in;
    const fb::Turn* t = ev.turn();
    in.at = TurnPhase{schema::TurnOf(t), ev.phase()};
    if (ev.payload_type() == fb::Payload_PhaseStarted) {
      readjudicated.insert(in.at.turn);
      phase_writers.emplace_back(in.at, ev.branch() ? ev.branch()->str() : std::string(branch));
    }
    if (const auto* sp = ev.payload_as_OrderSuperseded()) {
      // Made again with its order; in a kind whose files replace, it shows
      // where a file began (OrderRun::CutAt).
      if (continues && !inputs.empty() && inputs.back().kind == Input::kOrder) {
        if (auto rest = inputs.back().run.CutAt(*sp, files_replace)) {
          Input next = inputs.back();
          next.run = std::move(*rest);
          inputs.push_back(std::move(next));
        }
      }
      return Status::Ok();
    }
    if (ev.payload_type() == fb::Payload_OrderRejected) {
      return Status::Ok();  // an order's outcome: made again with it
    }
    if (const auto* o = ev.payload_as_OrderSubmitted()) {
      // Consecutive orders of one person at one position are given again
      // as one file: the same events, one batch.
      if (continues && !inputs.empty() && inputs.back().kind == Input::kOrder &&
          inputs.back().person == o->person()->str() && inputs.back().at == in.at &&
          !inputs.back().run.Ends(ev, *o, files_replace)) {
        inputs.back().run.Add(e.seq, ev, *o);
        return Status::Ok();
      }
      continues = true;
      in.kind = Input::kOrder;
      in.person = o->person()->str();
      in.run.Add(e.seq, ev, *o);
      inputs.push_back(std::move(in));
      return Status::Ok();
    }
    continues = false;
    if (const auto* d = ev.payload_as_Directive()) {
      if (const auto* pw = d->body_as_SetPassword()) {
        in.kind = Input::kPassword;
        in.person = pw->person()->str();
        in.pwhash = pw->pwhash()->str();
      } else if (const auto* a = d->body_as_SetMailAddress()) {
        // An address stays given.
        in.kind = Input::kMailAddress;
        in.person = a->person()->str();
        in.address = a->address() ? a->address()->str() : "";
      } else if (d->body_type() == fb::DirectiveBody_MailSent || d->body_type() == fb::DirectiveBody_MailFailed ||
                 d->body_type() == fb::DirectiveBody_MailReceived) {
        // What the old branch's mail did is its own: the corrected branch's
        // reports go out again (they may differ), under its own name.
        return Status::Ok();
      } else if (d->body_as_AssignRole() && ev.actor() && ev.actor()->kind() == fb::ActorKind_Adjudicator) {
        // A change the GA gave for a later turn, recorded again as that
        // turn's orders opened: the corrected branch records its own when
        // they open there (RecordRolesDue), from the GA's change given again.
        return Status::Ok();
      } else if (const auto* f = d->body_as_DeadlineFired()) {
        // A deadline that fired stays fired: the schedule goes on from it.
        in.kind = Input::kFired;
        in.fired_turn = TurnOf(f->turn());
        in.fired_deadline = f->deadline();
        in.fired_at = f->fired_at();
      } else {
        // The GA's later directives are given again at their positions,
        // like the players' orders, unless he leaves them out (below).
        in.kind = Input::kDirective;
        in.seq = e.seq;
        in.directive = DirectiveFileOf(*d);
        directive_seqs.insert(e.seq);
        if (const auto* c = d->body_as_CommitDice()) commits[e.seq] = TurnOf(c->turn());
        if (const auto* r = d->body_as_RevealDice()) reveals[e.seq] = TurnOf(r->turn());
      }
    } else {
      return Status::Ok();  // adjudication's own events are made again below
    }
    inputs.push_back(std::move(in));
    return Status::Ok();
  }));
  // The directives left out: each one named must be a later directive of
  // the old branch; a commitment left out takes its turn's reveal with it.
  std::set<uint64_t> left(leave_out.begin(), leave_out.end());
  for (uint64_t q : left) {
    if (!directive_seqs.count(q)) {
      return Status::InvalidArgument("--leave-out: seq " + std::to_string(q) + " is not one of " + std::string(game) +
                                     "/" + std::string(branch) + "'s directives after seq " + std::to_string(*point) +
                                     " (see `adjutant log " + std::string(game) + " --kind Directive`)");
    }
  }
  std::set<Turn> uncommitted;
  for (const auto& [q, t] : commits) {
    if (left.count(q)) uncommitted.insert(t);
  }
  for (const auto& [q, t] : reveals) {
    if (uncommitted.count(t)) left.insert(q);
  }
  std::vector<Input> kept;
  for (Input& in : inputs) {
    if (in.kind == Input::kDirective) {
      (left.count(in.seq) ? rep.directives_left_out : rep.directives_carried).push_back(in.seq);
      if (left.count(in.seq)) continue;
    }
    kept.push_back(std::move(in));
  }
  inputs = std::move(kept);
  // The correction must hold at the point: checked before anything is written.
  {
    auto then = Fold(db, game, branch, *point);
    if (!then.ok()) return then.status();
    const auto* file = flatbuffers::GetRoot<fb::DirectiveFile>(directive_file.data());
    if (file->body_type() == fb::DirectiveBody_SetPassword) {
      return Status::InvalidArgument("a correction is a directive of the rules, not a password");
    } else if (file->body_type() == fb::DirectiveBody_SetMailAddress || file->body_type() == fb::DirectiveBody_MailSent ||
               file->body_type() == fb::DirectiveBody_MailFailed || file->body_type() == fb::DirectiveBody_MailReceived) {
      return Status::InvalidArgument(std::string(fb::EnumNameDirectiveBody(file->body_type())) +
                                     ": mail is the branch's own (`adjutant mail-address`, `adjutant mail-out`), not a correction");
    } else if (file->body_type() == fb::DirectiveBody_AssignRole) {
      return Status::InvalidArgument("AssignRole: roles change hands on the branch itself, from its coming turn "
                                     "(`adjutant role`), not as a correction");
    } else if (file->body_type() == fb::DirectiveBody_Schedule || file->body_type() == fb::DirectiveBody_DeadlineFired) {
      return Status::InvalidArgument(std::string(fb::EnumNameDirectiveBody(file->body_type())) +
                                     ": the schedule is set on the branch itself (`adjutant schedule`), not as a correction");
    } else if (file->body_type() == fb::DirectiveBody_CommitDice || file->body_type() == fb::DirectiveBody_RevealDice) {
      return Status::InvalidArgument(std::string(fb::EnumNameDirectiveBody(file->body_type())) +
                                     ": dice commitments are made on the branch itself, not as corrections");
    }
    const rules::GameKind* kind = then->kind();
    if (!kind) return Status::InvalidArgument("the game has no kind to check the correction against");
    ADJ_RETURN_IF_ERROR(kind->CheckDirective(then->projections, std::string(game), *file,
                                             rules::GameVersionsOf(then->projections)));
  }
  auto old = Fold(db, game, branch);
  if (!old.ok()) return old.status();
  const Progress old_state = ProgressOf(*old);
  // A committed turn played again is rolled with its committed dice: its
  // salt must be revealed (on this branch or another) — else nothing is
  // written, and the GA reveals it first or leaves the commitment out.
  for (const Turn& t : readjudicated) {
    if (!SummaryOf(*old).dice_commitments.count(t) || uncommitted.count(t)) continue;
    auto salt = RevealedSalt(db, game, SummaryOf(*old), t);
    if (!salt.ok()) return salt.status();
    if (!salt->has_value()) {
      return Status::InvalidArgument("turn " + t.ToString() + "'s dice are committed and its salt is not revealed: the "
                                     "corrected branch cannot play it again with the same dice (reveal the salt first, "
                                     "or leave the commitment out with --leave-out)");
    }
  }
  // Issue 23: a game that signs its tree heads is corrected only with its
  // key: the key in force at the point and at the head (checked before
  // anything is written).
  {
    auto then = Fold(db, game, branch, *point, {"summary"});
    if (!then.ok()) return then.status();
    ADJ_RETURN_IF_ERROR(CheckSigner(game, SummaryOf(*then), signer));
    ADJ_RETURN_IF_ERROR(CheckSigner(game, SummaryOf(*old), signer));
  }
  // The dice of each phase played again: the salt it was rolled with on the
  // old branch, by runs; then the old branch's own for what comes after.
  // A branch that was forked with new dice below its head, corrected at a
  // turn before that fork, so plays the turns before it with its parent's
  // dice and the rest with its own, as they were played.
  std::vector<DiceSegment> segments;
  auto own = db.Branch(game, branch);
  if (!own.ok()) return own.status();
  {
    std::map<std::string, uint64_t> salts;
    for (const auto& [at, writer] : phase_writers) {
      if (!salts.count(writer)) {
        auto w = db.Branch(game, writer);
        if (!w.ok()) return w.status();
        salts[writer] = w->dice_salt;
      }
      if (segments.empty() || segments.back().salt != salts[writer]) segments.push_back({at, salts[writer], writer, ""});
    }
    if (segments.empty() || segments.back().salt != own->dice_salt) {
      segments.push_back({std::nullopt, own->dice_salt, std::string(branch), ""});
    }
    // The last takes the GA's name; those before it, that name and -part1,
    // -part2, ... All are free, or nothing is written.
    for (size_t i = 0; i < segments.size(); ++i) {
      DiceSegment& s = segments[i];
      const bool last = i + 1 == segments.size();
      s.name = std::string(new_branch) + (last ? "" : "-part" + std::to_string(i + 1));
      ADJ_RETURN_IF_ERROR(ledger::CheckName("branch", s.name));
      auto taken = db.Branch(game, s.name);
      if (taken.ok()) {
        return Status::AlreadyExists(
            "game '" + std::string(game) + "' already has a branch '" + s.name + "'" +
            (last ? std::string()
                  : " (" + std::string(branch) + " was forked with new dice after the point: the corrected turns "
                    "rolled with the dice of " + s.writer + " are played again on " + s.name + "; choose another name)"));
      }
      if (taken.status().code() != Status::Code::kNotFound) return taken.status();
    }
  }
  // The corrected branch (its first segment), the correction first.
  const std::optional<uint64_t> first_salt =
      segments.front().salt == own->dice_salt ? std::nullopt : std::optional(segments.front().salt);
  ADJ_RETURN_IF_ERROR(
      db.Fork(game, branch, *point, segments.front().name, first_salt, Actor{ActorKind::kGameAdministrator, "", ""})
          .status());
  // Nothing is ever removed from the log: if the replay fails from here on
  // (a later order the correction made impossible, a full disk), the new
  // branch stays as far as it got, the game's current branch unchanged —
  // and the message says so.
  std::string cur = segments.front().name;
  Status st = ReplayOnto(db, game, branch, segments, directive_file, inputs, old_state, signer, &rep, &cur);
  if (!st.ok()) {
    return Noted(st, " (the correction stopped: branch '" + cur + "' was left as far as it got; the game's "
                     "current branch is still '" + std::string(branch) + "'; to go on from where it stopped: `adjutant "
                     "branches " + std::string(game) + " --make-current " + cur + "`)");
  }
  return rep;
}

namespace {

Status ReplayOnto(ledger::Ledger& db, std::string_view game, std::string_view branch,
                  const std::vector<DiceSegment>& segments, const std::vector<uint8_t>& directive_file,
                  const std::vector<Input>& inputs, const Progress& old_state, const signing::SigningKey* signer,
                  CorrectReport* out, std::string* cur) {
  CorrectReport& rep = *out;
  std::string& new_branch = *cur;  // the segment being played
  size_t segment = 0;
  // The next segment forked from this one's head, with its dice.
  auto next_segment = [&](size_t to) -> Status {
    auto head = db.HeadOf(game, new_branch);
    if (!head.ok()) return head.status();
    auto made = db.Fork(game, new_branch, head->seq, segments[to].name,
                        segments[to].salt == segments[segment].salt ? std::nullopt : std::optional(segments[to].salt),
                        Actor{ActorKind::kGameAdministrator, "", ""});
    if (!made.ok()) return made.status();
    rep.segments.push_back({new_branch, segments[segment].writer});
    segment = to;
    new_branch = segments[to].name;
    return Status::Ok();
  };
  auto fix = RecordDirective(db, game, new_branch, directive_file);
  if (!fix.ok()) return fix.status();
  // Every later input at its position, the phases between adjudicated again.
  auto advance_to = [&](const TurnPhase& target, bool final, const std::string& what) -> Status {
    for (;;) {
      auto w = Fold(db, game, new_branch);
      if (!w.ok()) return w.status();
      const Progress now = ProgressOf(*w);
      bool past = false;
      if (final) {
        if (now.turn == old_state.turn && now.phase_done == old_state.phase_done) return Status::Ok();
        // An old branch standing in a turn's orders window (through a
        // directive there the GA left out, say): that window reached is as far.
        if (old_state.phase_done == 0) {
          bool beyond = false;
          auto reached = Reached(*w, target, &beyond);
          if (reached.ok() && *reached) return Status::Ok();
        }
        past = old_state.turn < now.turn;
      } else {
        auto reached = Reached(*w, target, &past);
        if (!reached.ok()) return reached.status();
        if (*reached) return Status::Ok();
      }
      if (past) {
        return Status::Conflict("the corrected branch went past turn " + target.turn.ToString() + " phase " +
                                std::to_string(target.phase) + " (it stands at " + now.turn.ToString() + " phase " +
                                std::to_string(now.phase_done) + ") before " + what + " could be given there");
      }
      // The phase's dice: a segment whose run begins at or before it.
      if (const rules::GameKind* kind = w->kind()) {
        auto next = kind->Next(w->projections);
        size_t to = segment;
        while (next.ok() && to + 1 < segments.size() && segments[to + 1].from && *segments[to + 1].from <= next->at) ++to;
        if (to != segment) ADJ_RETURN_IF_ERROR(next_segment(to));
      }
      auto r = Adjudicate(db, game, new_branch, AdjudicateMode::kPhase, 1, std::nullopt, nullptr, nullptr, {}, nullptr,
                          signer);
      if (!r.ok()) return r.status();
      rep.phases++;
    }
  };
  for (const Input& in : inputs) {
    ADJ_RETURN_IF_ERROR(advance_to(in.at, false, Described(in, branch)));
    switch (in.kind) {
      case Input::kOrder: {
        auto r = SubmitOrders(db, game, new_branch, in.person, JoinOrderFiles(in.run.items),
                              {.entered_by_ga = in.run.by_ga, .received_at = in.run.received_at});
        if (!r.ok()) return r.status();
        break;
      }
      case Input::kPassword: {
        auto r = SetPassword(db, game, new_branch, in.person, in.pwhash);
        if (!r.ok()) return r.status();
        break;
      }
      case Input::kMailAddress: {
        auto r = SetMailAddress(db, game, new_branch, in.person, in.address);
        if (!r.ok()) return r.status();
        continue;
      }
      case Input::kFired: {
        auto r = RecordDeadlineFired(db, game, new_branch, in.fired_turn, in.fired_deadline, in.fired_at);
        if (!r.ok()) return r.status();
        continue;
      }
      case Input::kDirective: {
        auto r = RecordDirective(db, game, new_branch, in.directive);
        if (!r.ok()) {
          return Noted(r.status(), " (the GA's directive of seq " + std::to_string(in.seq) + " on " + std::string(branch) +
                                       ", given again: leave it out with --leave-out " + std::to_string(in.seq) + ")");
        }
        continue;  // not counted with the orders and passwords
      }
    }
    rep.inputs += in.kind == Input::kOrder ? in.run.items.size() : 1;
  }
  ADJ_RETURN_IF_ERROR(
      advance_to(TurnPhase{old_state.turn, old_state.phase_done}, true, "the end of " + std::string(branch) + "'s history"));
  // The game goes on with the old branch's own dice, under the GA's name.
  if (segment + 1 < segments.size()) ADJ_RETURN_IF_ERROR(next_segment(segments.size() - 1));
  auto head = db.HeadOf(game, new_branch);
  if (!head.ok()) return head.status();
  rep.head = head->seq;
  // The game goes on from the corrected branch.
  return db.SetCurrent(game, new_branch);
}

}  // namespace

}  // namespace adjutant::replay
