#include "replay/driver.h"

#include "replay/warm.h"
#include "replay/heads.h"
#include "ledger/tree.h"
#include "replay/roles.h"
#include "replay/schedule.h"

#include "schema/reports_generated.h"

#include <algorithm>
#include <functional>
#include <map>

#include "base/hash.h"
#include "projections/roster.h"
#include "projections/summary.h"
#include "replay/dice_commit.h"
#include "projections/fleet.h"
#include "projections/treasury.h"
#include "projections/battle.h"
#include "projections/y1820.h"
#include "replay/rebuild.h"
#include "rules/events.h"
#include "rules/phase_writer.h"
#include "rules/dice.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/values.h"

namespace adjutant::replay {

namespace {

const Actor kGa{ActorKind::kGameAdministrator, "", ""};

}  // namespace

const projections::SummaryState& SummaryOf(const World& w) { return rules::Get<projections::Summary>(w.projections).state(); }

rules::RulesVersions GameVersions(const projections::SummaryState& s) { return rules::GameVersionsOf(s); }

const projections::Treasury& World::treasury() const { return rules::Get<projections::Treasury>(projections); }
const projections::Fleet& World::fleet() const { return rules::Get<projections::Fleet>(projections); }
const projections::Roster& World::roster() const { return rules::Get<projections::Roster>(projections); }
const projections::Y1820State& World::y1820() const { return rules::Get<projections::Y1820>(projections).state(); }
const projections::BattleState& World::battle() const { return rules::Get<projections::Battle>(projections).state(); }

namespace {

Result<const rules::GameKind*> KindIn(const rules::State& s) {
  const rules::GameKind* k = rules::KindOf(s);
  if (!k) return Status::InvalidArgument("the game has no kind: its scenario names rulesets no kind of game plays");
  return k;
}

}  // namespace

Result<GamePhase> NextPhaseOf(const World& w) {
  auto k = KindIn(w.projections);
  if (!k.ok()) return k.status();
  return (*k)->Next(w.projections);
}

Result<TurnPhase> OrderPositionOf(const World& w) {
  auto k = KindIn(w.projections);
  if (!k.ok()) return k.status();
  return (*k)->OrderPosition(w.projections);
}

rules::Progress ProgressOf(const World& w) {
  const rules::GameKind* k = w.kind();
  return k ? k->ProgressOf(w.projections) : rules::Progress{};
}

Result<World> Fold(ledger::Ledger& db, std::string_view game, std::string_view branch, uint64_t upto) {
  return Fold(db, game, branch, upto, {});
}

namespace {

Result<World> FoldWith(ledger::Ledger& db, std::string_view game, std::string_view branch, uint64_t upto,
                       const std::vector<std::string>& only, bool snapshot_at_end) {
  World w;
  auto head = db.HeadOf(game, branch);
  if (!head.ok()) return head.status();
  w.head = *head;
  w.projections = rules::AllKindProjections();
  if (!only.empty()) {
    std::erase_if(w.projections, [&](const std::unique_ptr<projections::Projection>& p) {
      return std::find(only.begin(), only.end(), p->name()) == only.end();
    });
  }
  std::vector<projections::Projection*> ps;
  for (auto& p : w.projections) ps.push_back(p.get());
  RebuildOptions opts;
  opts.snapshot_every = kSnapshotEvery;  // the ledger skips writing when read-only
  opts.snapshot_at_end = snapshot_at_end;
  auto r = Rebuild(db, game, branch, upto, ps, opts);
  if (!r.ok()) return r.status();
  return w;
}

}  // namespace

Result<World> Fold(ledger::Ledger& db, std::string_view game, std::string_view branch, uint64_t upto,
                   const std::vector<std::string>& only) {
  return FoldWith(db, game, branch, upto, only, false);
}

Result<rules::CounterDice> BranchDice(ledger::Ledger& db, std::string_view game, std::string_view branch) {
  auto info = db.Game(game);
  if (!info.ok()) return info.status();
  auto b = db.Branch(game, branch);
  if (!b.ok()) return b.status();
  return rules::CounterDice(info->seed, b->dice_salt);
}

Status RunPhaseInto(rules::PhaseWriter& w, const GamePhase& next, rules::DiceSource& dice) {
  auto k = KindIn(w.state());
  if (!k.ok()) return k.status();
  return (*k)->RunPhase(w, next, dice);
}

namespace {

// `key` (with `fingerprint`) is recorded with the batch when it ends the
// request: always in phase mode (`key_on_last_only` false), else only on
// the last phase of the turn. `warm` carries the world from one phase to the
// next within one request: each phase's fold is the last one's world with
// the events since applied (replay/warm.h), not a decode of the last
// snapshot.
Result<PhaseReport> RunOnePhase(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                WarmWorlds& warm, const std::optional<std::string>& dice_salt,
                                rules::DiceSource* given, const rules::RulesVersions* adopt,
                                const signing::SigningKey* signer, std::string_view key = {},
                                uint64_t fingerprint = 0, bool key_on_last_only = false) {
  auto world = warm.Fold(db, game, branch);
  if (!world.ok()) return world.status();
  // Issue 23: a game that signs its heads is adjudicated only with its key.
  ADJ_RETURN_IF_ERROR(CheckSigner(game, SummaryOf(*world), signer));
  const bool signs = SigningKeyOf(SummaryOf(*world)).has_value();
  auto next = NextPhaseOf(*world);
  if (!next.ok()) return next.status();
  PhaseReport report;
  report.at = next->at;
  report.name = next->name;
  report.turn_name = next->turn_name;
  report.last_of_turn = next->last_of_turn;
  auto dice = TurnDice(db, game, branch, SummaryOf(*world), next->at.turn, dice_salt);
  if (!dice.ok()) return dice.status();
  const rules::RulesVersions versions = adopt ? *adopt : GameVersions(SummaryOf(*world));
  rules::PhaseWriter w(std::string(game), std::string(branch), world->head.seq, std::move(world->projections));
  w.set_rules_versions(versions);
  const bool keyed = !key.empty() && (!key_on_last_only || next->last_of_turn);
  // Issue 23: the head is made from the leaves the writer hashes as it
  // emits, unless the batch carries a key (which its events then hold).
  w.set_keep_leaf_hashes(signs && !keyed);
  ADJ_RETURN_IF_ERROR(RunPhaseInto(w, *next, given ? *given : static_cast<rules::DiceSource&>(*dice)));
  auto drafts = w.TakeDrafts();
  std::vector<merkle::Hash> leaves;
  std::vector<ledger::Ledger::TreeNode> head_nodes;
  if (signs) {
    auto head = keyed ? TreeHeadDraft(db, game, branch, world->head.seq, drafts, key, *signer)
                      : TreeHeadDraft(db, game, branch, world->head.seq, drafts.back().at, w.leaf_hashes(), *signer);
    if (!head.ok()) return head.status();
    if (!keyed) leaves = w.leaf_hashes();
    drafts.push_back(std::move(head->draft));
    head_nodes = std::move(head->nodes);
  }
  auto r = db.Append(game, branch, world->head.seq, drafts, keyed ? key : std::string_view{}, keyed ? fingerprint : 0);
  if (!r.ok()) return r.status();
  report.first_seq = r->first_seq;
  report.last_seq = r->last_seq;
  if (next->last_of_turn && !db.read_only()) {
    // Issue 22: every projection's snapshot at the turn's end, so that the
    // next turn's folds (each order file, each phase, each report of this
    // turn) start here, whatever the kind's events a turn.
    // A cache: the phase is recorded, so a fold that fails here is not this
    // request's failure (the next request's fold meets what it met).
    if (auto after = warm.Fold(db, game, branch); after.ok() && after->head.seq == r->last_seq) {
      std::vector<projections::Projection*> ps;
      for (const auto& p : after->projections) ps.push_back(p.get());
      (void)PutSnapshots(db, game, branch, ps, after->head.seq, after->head.hash);
    } else {
      (void)FoldWith(db, game, branch, r->last_seq, {}, true);
    }
  }
  // Count the rejections this phase recorded; and, for a head made from the
  // writer's leaves, check that they are the events' as stored (a guard: a
  // head over other bytes would be signed for good).
  size_t at = 0;
  bool leaves_differ = false;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, r->first_seq, r->last_seq, [&](const ledger::EventView& e) {
    if (e.event()->payload_type() == fb::Payload_OrderRejected) report.rejected++;
    if (at < leaves.size() && ledger::EventLeaf(e) != leaves[at]) leaves_differ = true;
    at++;
    return Status::Ok();
  }));
  if (leaves_differ) {
    return Status::Corruption("the tree head signed after seq " + std::to_string(r->last_seq - 1) + " of " +
                            std::string(game) + "/" + std::string(branch) +
                            " was made from events other than those stored (`adjutant heads` shows it)");
  }
  // The tree's nodes over the phase, kept now that its events are (a
  // cache: unsynced, and one that fails to be written is made again).
  if (!head_nodes.empty()) (void)db.PutTreeNodes(game, branch, head_nodes);
  return report;
}

// The answer to a retried adjudication: the phase its key was recorded with.
Result<PhaseReport> ReplayedPhase(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                  const ledger::AppendResult& prior) {
  PhaseReport report;
  report.replayed = true;
  report.first_seq = prior.first_seq;
  report.last_seq = prior.last_seq;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, prior.first_seq, prior.last_seq, [&](const ledger::EventView& e) {
    const fb::Event* ev = e.event();
    if (const auto* p = ev->payload_as_PhaseStarted()) {
      report.name = p->name()->str();
      if (ev->turn()) report.at.turn = schema::TurnOf(ev->turn());
      report.at.phase = ev->phase();
      report.turn_name = "turn " + report.at.turn.ToString();
    }
    if (ev->payload_type() == fb::Payload_OrderRejected) report.rejected++;
    return Status::Ok();
  }));
  return report;
}

}  // namespace

Result<std::vector<PhaseReport>> Adjudicate(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                            AdjudicateMode mode, int turns, const std::optional<std::string>& dice_salt,
                                            rules::DiceSource* dice, const rules::RulesVersions* versions,
                                            std::string_view idempotency_key, WarmWorlds* kept,
                                            const signing::SigningKey* signer) {
  if (!idempotency_key.empty() && turns != 1) {
    return Status::InvalidArgument("an idempotency key makes one phase or one turn safe to retry, not " +
                                   std::to_string(turns) + " turns");
  }
  const uint64_t fingerprint =
      RequestFingerprint("adjudicate", branch, "GA", mode == AdjudicateMode::kPhase ? "phase" : "turn");
  auto prior = PriorRequest(db, game, branch, ledger::IdempotencyOwner(ActorKind::kGameAdministrator, ""),
                            idempotency_key, fingerprint);
  if (!prior.ok()) return prior.status();
  WarmWorlds local(1);
  WarmWorlds& warm = kept ? *kept : local;
  // Issue 23: a game that signs its heads is adjudicated only with its key,
  // checked before anything is recorded (from the world the first phase
  // then starts from: one fold, not a fold of the summary beside it).
  if (!prior->has_value()) {
    ADJ_RETURN_IF_ERROR(
        warm.Read(db, game, branch, [&](const World& now) { return CheckSigner(game, SummaryOf(now), signer); }));
  }
  // Issue 20: role changes due for the turn about to be adjudicated (a fork
  // at its start, or a crash, left them unrecorded) take effect first.
  if (!prior->has_value()) {
    auto due = RecordRolesDue(db, game, branch);
    if (!due.ok()) return due.status();
  }
  std::vector<PhaseReport> out;
  if (mode == AdjudicateMode::kPhase) {
    auto r = prior->has_value()
                 ? ReplayedPhase(db, game, branch, **prior)
                 : RunOnePhase(db, game, branch, warm, dice_salt, dice, versions, signer, idempotency_key, fingerprint);
    if (!r.ok()) return r.status();
    out.push_back(*r);
    auto due = RecordRolesDue(db, game, branch);  // issue 20: as in a turn's end below
    if (!due.ok()) return due.status();
    return out;
  }
  for (int t = 0; t < turns; ++t) {
    if (prior->has_value()) {
      // Retried after the turn's last phase: answer it; a season's end that
      // a crash kept from following it still runs below.
      auto r = ReplayedPhase(db, game, branch, **prior);
      if (!r.ok()) return r.status();
      out.push_back(*r);
    }
    while (!prior->has_value()) {
      auto r = RunOnePhase(db, game, branch, warm, dice_salt, dice, versions, signer, idempotency_key, fingerprint, true);
      if (!r.ok()) return r.status();
      out.push_back(*r);
      if (r->last_of_turn) break;
    }
    // A season's end takes no orders: it runs with the turn before it.
    auto world = warm.Fold(db, game, branch);
    if (!world.ok()) return world.status();
    const rules::GameKind* kind = world->kind();
    if (!kind || kind->Ended(world->projections)) break;  // nothing after the end
    if (kind->NextRunsWithTurnBefore(world->projections)) {
      auto r = RunOnePhase(db, game, branch, warm, dice_salt, dice, versions, signer);
      if (!r.ok()) return r.status();
      out.push_back(*r);
    }
  }
  // Issue 20: role changes given for the turn whose orders open now.
  auto due = RecordRolesDue(db, game, branch);
  if (!due.ok()) return due.status();
  return out;
}

Result<std::string> SubmitSummaryJson(std::string_view game, std::string_view branch, const SubmitReport& rep) {
  flatbuffers::FlatBufferBuilder f;
  std::vector<flatbuffers::Offset<fb::OrderResult>> rows;
  for (const auto& o : rep.orders) {
    rows.push_back(fb::CreateOrderResultDirect(f, o.seq, o.slot.c_str(), o.status.c_str(), o.rule.c_str(),
                                               o.reason.c_str()));
  }
  fb::Turn t(rep.at.turn.major, rep.at.turn.minor, rep.at.turn.step);
  f.Finish(fb::CreateSubmitSummaryDirect(f, std::string(game).c_str(), std::string(branch).c_str(), &t,
                                         rep.append.first_seq, rep.append.last_seq, rep.append.replayed, &rows));
  return schema::ToJson("SubmitSummary", f.GetBufferPointer());
}

uint64_t RequestFingerprint(std::string_view kind, std::string_view branch, const std::string& who,
                            std::string_view request) {
  std::string key(kind);
  key.push_back('\0');
  key.append(branch).push_back('\0');
  key.append(who).push_back('\0');
  key.append(request);
  uint64_t h = Hash64(key);
  return h == 0 ? 1 : h;  // 0 means "derive from the events"
}

Result<std::optional<ledger::AppendResult>> PriorRequest(ledger::Ledger& db, std::string_view game,
                                                         std::string_view branch, std::string_view owner,
                                                         std::string_view key, uint64_t fingerprint) {
  if (key.empty()) return std::optional<ledger::AppendResult>();
  auto prior = db.FindIdempotent(game, owner, key);
  if (!prior.ok()) return prior.status();
  if (!prior->has_value()) return std::optional<ledger::AppendResult>();
  auto b = db.Branch(game, branch);
  if (!b.ok()) return b.status();
  if ((*prior)->branch_id != b->id || (*prior)->fingerprint != fingerprint) {
    return Status::Conflict("idempotency key '" + std::string(key) + "' was already used for a different request (seq " +
                            std::to_string((*prior)->result.first_seq) + ")");
  }
  return std::optional<ledger::AppendResult>((*prior)->result);
}

namespace {

std::string_view Bytes(const std::vector<uint8_t>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size()};
}

// What became of each order of a submission, read back from the log.
Status ReadOutcomes(ledger::Ledger& db, std::string_view game, std::string_view branch, SubmitReport* rep) {
  std::map<uint64_t, size_t> index;
  return db.Read(game, branch, rep->append.first_seq, rep->append.last_seq, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    if (const fb::Turn* t = ev.turn()) rep->at = TurnPhase{schema::TurnOf(t), ev.phase()};
    if (auto* o = ev.payload_as_OrderSubmitted()) {
      index[e.seq] = rep->orders.size();
      const bool withdrawal = o->body_type() == fb::OrderBody_Withdrawal;
      rep->orders.push_back({e.seq, o->slot() ? o->slot()->str() : "", withdrawal ? "withdrawal" : "stands", "", ""});
    } else if (auto* rj = ev.payload_as_OrderRejected()) {
      if (index.count(rj->order_seq())) {
        auto& oo = rep->orders[index[rj->order_seq()]];
        oo.status = "rejected";
        oo.rule = rj->rule() ? rj->rule()->str() : "";
        oo.reason = rj->reason()->str();
      }
    } else if (auto* sp = ev.payload_as_OrderSuperseded()) {
      // By a withdrawal of this batch: withdrawn, and the withdrawal says what it withdrew.
      const bool by_withdrawal = index.count(sp->by_seq()) && rep->orders[index[sp->by_seq()]].status == "withdrawal";
      if (by_withdrawal) {
        std::string& said = rep->orders[index[sp->by_seq()]].reason;
        said += (said.empty() ? "withdraws order " : ", order ") + std::to_string(sp->order_seq());
      }
      if (index.count(sp->order_seq())) {
        auto& oo = rep->orders[index[sp->order_seq()]];
        oo.status = by_withdrawal ? "withdrawn" : "superseded";
        oo.reason = by_withdrawal ? "withdrawn by order " + std::to_string(sp->by_seq())
                                  : "order " + std::to_string(sp->by_seq()) + " stands in its place";
      } else if (!by_withdrawal && index.count(sp->by_seq())) {
        rep->orders[index[sp->by_seq()]].reason = "replaces order " + std::to_string(sp->order_seq());
      }
    }
    return Status::Ok();
  });
}

}  // namespace

namespace {

std::vector<const fb::OrderItem*> ItemsOf(const std::vector<uint8_t>& order_file) {
  const auto* file = flatbuffers::GetRoot<fb::OrderFile>(order_file.data());
  std::vector<const fb::OrderItem*> items;
  if (file->orders()) for (const auto* i : *file->orders()) items.push_back(i);
  return items;
}

}  // namespace

std::optional<size_t> FirstNotHis(const World& world, const std::string& person, const std::vector<uint8_t>& order_file) {
  const std::vector<const fb::OrderItem*> items = ItemsOf(order_file);
  const rules::GameKind* kind = world.kind();
  if (!world.roster().Find(person) || !kind) return items.empty() ? std::nullopt : std::optional<size_t>(0);
  return kind->FirstNotHis(world.projections, person, items);
}

Result<SubmitReport> SubmitOrders(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                  const std::string& person, const std::vector<uint8_t>& order_file,
                                  const SubmitOptions& options) {
  const std::string_view idempotency_key = options.idempotency_key;
  std::optional<size_t>* const not_his = options.not_his;
  const bool entered_by_ga = options.entered_by_ga;
  uint64_t fingerprint =
      RequestFingerprint(entered_by_ga ? "orders entered by the GA" : "orders", branch, person, Bytes(order_file));
  auto prior = PriorRequest(db, game, branch,
                            entered_by_ga ? ledger::IdempotencyOwner(ActorKind::kGameAdministrator, "")
                                          : ledger::IdempotencyOwner(ActorKind::kPlayer, person),
                            idempotency_key, fingerprint);
  if (!prior.ok()) return prior.status();
  if (prior->has_value()) {
    SubmitReport rep;
    rep.append = **prior;
    ADJ_RETURN_IF_ERROR(ReadOutcomes(db, game, branch, &rep));
    return rep;
  }
  auto fold = [&] { return options.warm ? options.warm->Fold(db, game, branch) : Fold(db, game, branch); };
  auto world = fold();
  if (!world.ok()) return world.status();
  // Issue 20: role changes due for this turn take effect before it is judged
  // who may give these orders (a crash after the turn's end left them due).
  if (auto due = RecordRolesDue(db, game, branch, *world); !due.ok()) {
    return due.status();
  } else if (*due > 0) {
    world = fold();
    if (!world.ok()) return world.status();
  }
  if (not_his) {
    *not_his = FirstNotHis(*world, person, order_file);
    if (not_his->has_value()) {
      return Status::InvalidArgument("orders[" + std::to_string(**not_his) + "]: you may order only your own "
                                     "ships, ministries, nation or units, under roles you hold");
    }
  }
  if (!world->roster().Find(person)) {
    return Status::InvalidArgument("there is no person '" + person + "' in game '" + std::string(game) + "'");
  }
  auto kind = KindIn(world->projections);
  if (!kind.ok()) return kind.status();
  auto at = (*kind)->OrderPosition(world->projections);
  if (!at.ok()) return at.status();
  const std::vector<const fb::OrderItem*> items = ItemsOf(order_file);
  if (items.empty()) return Status::InvalidArgument("the order file holds no orders");
  ADJ_RETURN_IF_ERROR((*kind)->CheckSender(world->projections, std::string(game), person, items));
  // One batch: every order's events, then what became of each, read back.
  uint64_t head = world->head.seq;
  const rules::RulesVersions versions = GameVersions(SummaryOf(*world));
  rules::PhaseWriter w(std::string(game), std::string(branch), head, std::move(world->projections));
  w.set_rules_versions(versions);
  w.set_received_at(options.received_at);
  ADJ_RETURN_IF_ERROR((*kind)->Submit(w, *at, person, items));
  auto drafts = w.TakeDrafts();
  if (entered_by_ga) {
    // Whose orders they are stays in each OrderSubmitted (and the actor's
    // person and role); who entered them is the actor's kind.
    for (Draft& d : drafts) {
      if (d.actor.kind == ActorKind::kPlayer) d.actor.kind = ActorKind::kGameAdministrator;
    }
  }
  auto r = db.Append(game, branch, head, drafts, idempotency_key, fingerprint);
  if (!r.ok()) return r.status();
  SubmitReport rep;
  rep.append = *r;
  ADJ_RETURN_IF_ERROR(ReadOutcomes(db, game, branch, &rep));
  return rep;
}

namespace {

// The directive itself, as the GA gave it.
Draft DirectiveDraft(const std::vector<uint8_t>* buf, const TurnPhase& at) {
  Draft d;
  d.at = at;
  d.actor = kGa;
  d.payload = [buf](flatbuffers::FlatBufferBuilder& f) {
    const auto* df = flatbuffers::GetRoot<fb::DirectiveFile>(buf->data());
    flatbuffers::Offset<void> body;
    if (df->body_type() != fb::DirectiveBody_NONE) {
      const char* table = fb::EnumNameDirectiveBody(df->body_type());
      body = flatbuffers::Offset<void>(schema::CopyTable(f, table, df->body()));
    }
    auto x = fb::CreateDirective(f, f.CreateString(df->reason()->str()), df->body_type(), body);
    return PayloadRef{fb::Payload_Directive, x.o};
  };
  return d;
}

}  // namespace

namespace {

// A directive file recorded: the GA's (checked), or the scheduler's
// DeadlineFired (`fired`: the only way one is recorded).
Result<ledger::AppendResult> RecordDirectiveFile(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                                 const std::vector<uint8_t>& directive_file,
                                                 std::string_view idempotency_key, bool fired) {
  uint64_t fingerprint = RequestFingerprint("directive", branch, "GA", Bytes(directive_file));
  auto prior = PriorRequest(db, game, branch, ledger::IdempotencyOwner(ActorKind::kGameAdministrator, ""),
                            idempotency_key, fingerprint);
  if (!prior.ok()) return prior.status();
  if (prior->has_value()) return **prior;
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  auto kind = KindIn(world->projections);
  if (!kind.ok()) return kind.status();
  const rules::RulesVersions versions = GameVersions(SummaryOf(*world));
  const auto* file = flatbuffers::GetRoot<fb::DirectiveFile>(directive_file.data());
  if (file->body_type() == fb::DirectiveBody_SetPassword) {
    return Status::InvalidArgument("passwords are set with `adjutant password`, which records only their hash");
  }
  switch (file->body_type()) {
    case fb::DirectiveBody_SetMailAddress:
      return Status::InvalidArgument("SetMailAddress: mail addresses are set with `adjutant mail-address`");
    case fb::DirectiveBody_MailSent:
    case fb::DirectiveBody_MailFailed:
    case fb::DirectiveBody_MailReceived:
      return Status::InvalidArgument(std::string(fb::EnumNameDirectiveBody(file->body_type())) +
                                     ": recorded by Adjutant as it sends and reads mail, not given as a directive");
    default:
      break;
  }
  if (file->body_type() == fb::DirectiveBody_DeadlineFired && !fired) {
    return Status::InvalidArgument("DeadlineFired: recorded by the scheduler of `adjutant serve` when a deadline passes, "
                                   "not given as a directive");
  }
  // The schedule is every kind's (replay/schedule.h).
  const fb::Schedule* schedule = file->body_as_Schedule();
  if (schedule) ADJ_RETURN_IF_ERROR(CheckSchedule(*world, *schedule));
  // So are its roles (replay/roles.h).
  const fb::AssignRole* assign = file->body_as_AssignRole();
  // And its signing key (replay/heads.h): an Ed25519 public key.
  const fb::SigningKey* signing_key = file->body_as_SigningKey();
  if (signing_key && signing_key->public_key()->size() != 32) {
    return Status::InvalidArgument("SigningKey.public_key: an Ed25519 public key is 32 bytes, not " +
                                   std::to_string(signing_key->public_key()->size()));
  }
  if (assign) ADJ_RETURN_IF_ERROR(CheckAssignRole(db, game, branch, *world, *assign));
  // Dice commitments are every kind's (replay/dice_commit.h); the rest the kind checks.
  const fb::CommitDice* commit = file->body_as_CommitDice();
  const fb::RevealDice* reveal = file->body_as_RevealDice();
  if (fired) {
    // The scheduler's: nothing of the rules to check.
  } else if (commit || reveal) {
    auto window = (*kind)->DiceWindowOf(world->projections);
    if (!window.ok()) return window.status();
    const fb::Turn* ft = commit ? commit->turn() : reveal->turn();
    if (!ft) return Status::InvalidArgument("turn: which turn's dice?");
    Turn t = schema::TurnOf(ft);
    ADJ_RETURN_IF_ERROR(CheckDiceDirective(SummaryOf(*world), window->next_turn, window->next_begun, window->current,
                                           window->current_done, t, reveal != nullptr,
                                           commit ? commit->commitment()->str() : reveal->salt()->str()));
  } else if (!schedule && !assign && !signing_key) {
    ADJ_RETURN_IF_ERROR((*kind)->CheckDirective(world->projections, std::string(game), *file, versions));
  }
  const TurnPhase at = (*kind)->DirectivePosition(world->projections);
  // An AssignRole is recorded with who held the role before (the roster now).
  std::optional<Draft> role_draft;
  if (assign) role_draft = AssignRoleDraft(*world, *file, at);
  uint64_t head = world->head.seq;
  rules::PhaseWriter w(std::string(game), std::string(branch), head, std::move(world->projections));
  w.set_rules_versions(versions);
  Draft d = role_draft ? std::move(*role_draft) : DirectiveDraft(&directive_file, at);
  if (commit || reveal || schedule || assign || signing_key || fired) {
    w.Emit(std::move(d));
  } else {
    ADJ_RETURN_IF_ERROR((*kind)->RecordDirective(w, at, std::move(d), *file));
  }
  auto drafts = w.TakeDrafts();
  return db.Append(game, branch, head, drafts, idempotency_key, fingerprint);
}

}  // namespace

Result<ledger::AppendResult> RecordDirective(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                             const std::vector<uint8_t>& directive_file,
                                             std::string_view idempotency_key) {
  return RecordDirectiveFile(db, game, branch, directive_file, idempotency_key, false);
}

Result<ledger::AppendResult> RecordDeadlineFired(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                                 const Turn& turn, int64_t deadline, int64_t fired_at,
                                                 std::string_view idempotency_key) {
  flatbuffers::FlatBufferBuilder f;
  fb::Turn ft(turn.major, turn.minor, turn.step);
  auto body = fb::CreateDeadlineFired(f, &ft, deadline, fired_at);
  f.Finish(fb::CreateDirectiveFile(f, f.CreateString("the deadline passed"), fb::DirectiveBody_DeadlineFired, body.Union()));
  const std::vector<uint8_t> file(f.GetBufferPointer(), f.GetBufferPointer() + f.GetSize());
  return RecordDirectiveFile(db, game, branch, file, idempotency_key, true);
}

Result<ledger::AppendResult> SetPassword(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                         const std::string& person, const std::string& pwhash) {
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  if (!world->roster().Find(person)) {
    return Status::InvalidArgument("there is no person '" + person + "' in game '" + std::string(game) + "'");
  }
  const rules::GameKind* kind = world->kind();
  Draft d;
  d.at = kind ? kind->DirectivePosition(world->projections) : world->head.at;
  d.actor = kGa;
  d.payload = [person, pwhash](flatbuffers::FlatBufferBuilder& f) {
    auto body = fb::CreateSetPasswordDirect(f, person.c_str(), pwhash.c_str());
    auto x = fb::CreateDirective(f, f.CreateString("password set by the GA"), fb::DirectiveBody_SetPassword,
                                 body.Union());
    return PayloadRef{fb::Payload_Directive, x.o};
  };
  return db.Append(game, branch, world->head.seq, std::vector<Draft>{std::move(d)});
}

}  // namespace adjutant::replay
