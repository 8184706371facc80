#include "replay/driver.h"

#include <map>

#include "base/hash.h"
#include "projections/roster.h"
#include "projections/summary.h"
#include "replay/dice_commit.h"
#include "projections/treasury.h"
#include "replay/rebuild.h"
#include "rules/events.h"
#include "rules/phase_writer.h"
#include "rules/nwol/intake.h"
#include "rules/dice.h"
#include "rules/pate/directives.h"
#include "rules/pate/map.h"
#include "rules/pate/orders.h"
#include "rules/pate/phases.h"
#include "rules/sow/calendar.h"
#include "rules/sow/directives.h"
#include "rules/sow/orders.h"
#include "rules/sow/phases.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"

namespace adjutant::replay {

namespace sow = rules::sow;

namespace {

template <class T>
const T& Find(const std::vector<std::unique_ptr<projections::Projection>>& ps) {
  for (const auto& p : ps) {
    if (auto* t = dynamic_cast<const T*>(p.get())) return *t;
  }
  assert(false && "projection missing from AllProjections()");
  static const T kEmpty;
  return kEmpty;
}

const Actor kAdjudicator{ActorKind::kAdjudicator, "", ""};
const Actor kGa{ActorKind::kGameAdministrator, "", ""};

Draft Tagged(Draft d, const rules::RulesVersions& v, bool pate = false) {
  d.ruleset = pate ? rules::pate::kRuleset : sow::kRuleset;
  d.rules_version = v.Of(d.ruleset);
  return d;
}

}  // namespace

const projections::SummaryState& SummaryOf(const World& w) { return Find<projections::Summary>(w.projections).state(); }

rules::RulesVersions GameVersions(const projections::SummaryState& s) {
  rules::RulesVersions v = rules::LatestVersions();
  for (const auto& [ruleset, version] : s.rules_versions) v.Set(ruleset, version);
  return v;
}

const projections::Treasury& World::treasury() const { return Find<projections::Treasury>(projections); }
const projections::Roster& World::roster() const { return Find<projections::Roster>(projections); }

Result<World> Fold(ledger::Ledger& db, std::string_view game, std::string_view branch, uint64_t upto) {
  World w;
  auto head = db.HeadOf(game, branch);
  if (!head.ok()) return head.status();
  w.head = *head;
  w.projections = projections::AllProjections();
  std::vector<projections::Projection*> ps;
  for (auto& p : w.projections) ps.push_back(p.get());
  RebuildOptions opts;
  opts.snapshot_every = kSnapshotEvery;  // the ledger skips writing when read-only
  auto r = Rebuild(db, game, branch, upto, ps, opts);
  if (!r.ok()) return r.status();
  return w;
}

Result<rules::CounterDice> BranchDice(ledger::Ledger& db, std::string_view game, std::string_view branch) {
  auto info = db.Game(game);
  if (!info.ok()) return info.status();
  auto b = db.Branch(game, branch);
  if (!b.ok()) return b.status();
  return rules::CounterDice(info->seed, b->dice_salt);
}

Status RunPhaseInto(rules::PhaseWriter& w, const rules::sow::NextPhase& next, rules::DiceSource& dice) {
  bool naval_phase = !sow::IsSeasonEnd(next.at.turn) && next.at.phase >= sow::kRepair;
  Draft started = Tagged(rules::PhaseStartedDraft(next.at, next.name), w.tag_versions(), naval_phase);
  started.actor = kAdjudicator;
  w.Emit(std::move(started));
  if (naval_phase) {
    // PATE 3.2: the naval phases, with the branch's dice.
    const fb::NavalMap* doc = w.naval_map();
    if (!doc) return Status::Corruption("a naval phase in a game without a naval map");
    auto map = rules::pate::NavalMap::Load(*doc);
    if (!map.ok()) return map.status();
    ADJ_RETURN_IF_ERROR(rules::pate::RunPhase(w, next.at, *map, dice, next.season_kind));
  } else {
    sow::Outcomes out(w, next.at);
    sow::RunPhase(out, next);
  }
  Draft done = Tagged(rules::PhaseCompletedDraft(next.at, next.name, w.Digests(), w.Versions()), w.tag_versions(),
                      naval_phase);
  w.Emit(std::move(done));
  return Status::Ok();
}

namespace {

Result<PhaseReport> RunOnePhase(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                const std::optional<std::string>& dice_salt, rules::DiceSource* given,
                                const rules::RulesVersions* adopt) {
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  const auto& ts = world->treasury().state();
  if (!ts.active) {
    return Status::InvalidArgument("game '" + std::string(game) + "' has no ruleset to adjudicate yet (its scenario "
                                   "has no sow section)");
  }
  sow::NextPhase next = sow::Next(ts);
  PhaseReport report;
  report.at = next.at;
  report.name = next.name;
  report.turn_name = sow::TurnName(next.at.turn, next.season_kind);
  report.last_of_turn = next.last_of_turn;
  auto dice = TurnDice(db, game, branch, SummaryOf(*world), next.at.turn, dice_salt);
  if (!dice.ok()) return dice.status();
  const rules::RulesVersions versions = adopt ? *adopt : GameVersions(SummaryOf(*world));
  rules::PhaseWriter w(std::string(game), std::string(branch), world->head.seq, std::move(world->projections));
  w.set_rules_versions(versions);
  ADJ_RETURN_IF_ERROR(RunPhaseInto(w, next, given ? *given : static_cast<rules::DiceSource&>(*dice)));
  auto drafts = w.TakeDrafts();
  auto r = db.Append(game, branch, world->head.seq, drafts);
  if (!r.ok()) return r.status();
  report.first_seq = r->first_seq;
  report.last_seq = r->last_seq;
  // Count the rejections this phase recorded.
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, r->first_seq, r->last_seq, [&](const ledger::EventView& e) {
    if (e.event()->payload_type() == fb::Payload_OrderRejected) report.rejected++;
    return Status::Ok();
  }));
  return report;
}

}  // namespace

Result<std::vector<PhaseReport>> Adjudicate(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                            AdjudicateMode mode, int turns, const std::optional<std::string>& dice_salt,
                                            rules::DiceSource* dice, const rules::RulesVersions* versions) {
  std::vector<PhaseReport> out;
  if (mode == AdjudicateMode::kPhase) {
    auto r = RunOnePhase(db, game, branch, dice_salt, dice, versions);
    if (!r.ok()) return r.status();
    out.push_back(*r);
    return out;
  }
  for (int t = 0; t < turns; ++t) {
    while (true) {
      auto r = RunOnePhase(db, game, branch, dice_salt, dice, versions);
      if (!r.ok()) return r.status();
      out.push_back(*r);
      if (r->last_of_turn) break;
    }
    // A season's end takes no orders: it runs with the turn before it.
    auto world = Fold(db, game, branch);
    if (!world.ok()) return world.status();
    const auto& ts = world->treasury().state();
    sow::NextPhase n = sow::Next(ts);
    if (sow::IsSeasonEnd(n.at.turn) && !sow::IsSeasonEnd(ts.turn)) {
      auto r = RunOnePhase(db, game, branch, dice_salt, dice, versions);
      if (!r.ok()) return r.status();
      out.push_back(*r);
    }
  }
  return out;
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
                                                         std::string_view branch, std::string_view key,
                                                         uint64_t fingerprint) {
  if (key.empty()) return std::optional<ledger::AppendResult>();
  auto prior = db.FindIdempotent(game, key);
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
    if (const fb::Turn* t = ev.turn()) rep->at = TurnPhase{{t->major(), t->minor(), t->step()}, ev.phase()};
    if (auto* o = ev.payload_as_OrderSubmitted()) {
      index[e.seq] = rep->orders.size();
      rep->orders.push_back({e.seq, o->slot() ? o->slot()->str() : "", "stands", "", ""});
    } else if (auto* rj = ev.payload_as_OrderRejected()) {
      if (index.count(rj->order_seq())) {
        auto& oo = rep->orders[index[rj->order_seq()]];
        oo.status = "rejected";
        oo.rule = rj->rule() ? rj->rule()->str() : "";
        oo.reason = rj->reason()->str();
      }
    } else if (auto* sp = ev.payload_as_OrderSuperseded()) {
      if (index.count(sp->order_seq())) {
        auto& oo = rep->orders[index[sp->order_seq()]];
        oo.status = "superseded";
        oo.reason = "order " + std::to_string(sp->by_seq()) + " stands in its place";
      } else if (index.count(sp->by_seq())) {
        rep->orders[index[sp->by_seq()]].reason = "replaces order " + std::to_string(sp->order_seq());
      }
    }
    return Status::Ok();
  });
}

}  // namespace

Result<SubmitReport> SubmitOrders(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                  const std::string& person, const std::vector<uint8_t>& order_file,
                                  std::string_view idempotency_key) {
  uint64_t fingerprint = RequestFingerprint("orders", branch, person, Bytes(order_file));
  auto prior = PriorRequest(db, game, branch, idempotency_key, fingerprint);
  if (!prior.ok()) return prior.status();
  if (prior->has_value()) {
    SubmitReport rep;
    rep.append = **prior;
    ADJ_RETURN_IF_ERROR(ReadOutcomes(db, game, branch, &rep));
    return rep;
  }
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  const auto& ts = world->treasury().state();
  if (!ts.active) return Status::InvalidArgument("game '" + std::string(game) + "' takes no orders yet");
  if (!world->roster().Find(person)) {
    return Status::InvalidArgument("there is no person '" + person + "' in game '" + std::string(game) + "'");
  }
  auto at = sow::OrderPosition(ts);
  if (!at.ok()) return at.status();
  const auto* file = flatbuffers::GetRoot<fb::OrderFile>(order_file.data());
  std::vector<const fb::OrderItem*> items;
  if (file->orders()) for (const auto* i : *file->orders()) items.push_back(i);
  if (items.empty()) return Status::InvalidArgument("the order file holds no orders");
  const projections::Roster roster = world->roster();
  uint64_t head = world->head.seq;
  const rules::RulesVersions versions = GameVersions(SummaryOf(*world));
  rules::PhaseWriter w(std::string(game), std::string(branch), head, std::move(world->projections));
  w.set_rules_versions(versions);
  std::optional<rules::pate::NavalMap> map;
  if (const fb::NavalMap* doc = w.naval_map()) {
    auto loaded = rules::pate::NavalMap::Load(*doc);
    if (!loaded.ok()) return loaded.status();
    map = std::move(loaded).value();
  }
  rules::nwol::Submit(w, *at, roster, map ? &*map : nullptr, person, items);
  auto drafts = w.TakeDrafts();
  auto r = db.Append(game, branch, head, drafts, idempotency_key, fingerprint);
  if (!r.ok()) return r.status();
  SubmitReport rep;
  rep.append = *r;
  ADJ_RETURN_IF_ERROR(ReadOutcomes(db, game, branch, &rep));
  return rep;
}

Result<ledger::AppendResult> RecordDirective(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                             const std::vector<uint8_t>& directive_file,
                                             std::string_view idempotency_key) {
  uint64_t fingerprint = RequestFingerprint("directive", branch, "GA", Bytes(directive_file));
  auto prior = PriorRequest(db, game, branch, idempotency_key, fingerprint);
  if (!prior.ok()) return prior.status();
  if (prior->has_value()) return **prior;
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  const auto& ts = world->treasury().state();
  const auto* file = flatbuffers::GetRoot<fb::DirectiveFile>(directive_file.data());
  const fb::SowDirective* sd = file->body_as_SowDirective();
  if (file->body_type() == fb::DirectiveBody_SetPassword) {
    return Status::InvalidArgument("passwords are set with `adjutant password`, which records only their hash");
  }
  const fb::PateDirective* pd = file->body_as_PateDirective();
  if (sd) ADJ_RETURN_IF_ERROR(sow::CheckDirective(ts, *sd));
  const fb::CommitDice* commit = file->body_as_CommitDice();
  const fb::RevealDice* reveal = file->body_as_RevealDice();
  if (commit || reveal) {
    if (!ts.active) return Status::InvalidArgument("dice are committed to in games with turns (a sow scenario)");
    bool done = ts.phase_done >= sow::LastPhaseOf(ts, ts.turn);
    Turn next_turn = done ? sow::Next(ts).at.turn : ts.turn;
    bool next_begun = !done && ts.phase_done > 0;
    const fb::Turn* ft = commit ? commit->turn() : reveal->turn();
    if (!ft) return Status::InvalidArgument("turn: which turn's dice?");
    Turn t{ft->major(), ft->minor(), ft->step()};
    ADJ_RETURN_IF_ERROR(CheckDiceDirective(SummaryOf(*world), next_turn, next_begun, ts.turn, done, t, reveal != nullptr,
                                           commit ? commit->commitment()->str() : reveal->salt()->str()));
  }
  if (pd) ADJ_RETURN_IF_ERROR(rules::pate::CheckDirective(ts, *pd));
  TurnPhase at = ts.active ? sow::DirectivePosition(ts) : world->head.at;
  const projections::TreasuryState before = ts;
  uint64_t head = world->head.seq;
  const rules::RulesVersions versions = GameVersions(SummaryOf(*world));
  rules::PhaseWriter w(std::string(game), std::string(branch), head, std::move(world->projections));
  w.set_rules_versions(versions);
  // A ship the GA puts at sea goes to a sea area of the game's naval map.
  if (const auto* mv = sd ? sd->body_as_MoveShip() : nullptr; mv && !before.cities.count(mv->location()->str())) {
    if (const fb::NavalMap* doc = w.naval_map()) {
      auto map = rules::pate::NavalMap::Load(*doc);
      if (!map.ok()) return map.status();
      if (!map->Area(mv->location()->str())) {
        return Status::InvalidArgument("location: '" + mv->location()->str() + "' is neither a port nor a sea area of the "
                                       "game's naval map");
      }
    }
  }
  Draft d;
  d.at = at;
  d.actor = kGa;
  if (sd || pd) d = Tagged(std::move(d), w.tag_versions(), pd != nullptr);
  const std::vector<uint8_t>* buf = &directive_file;
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
  w.Emit(std::move(d));
  if (sd) {
    sow::Outcomes out(w, at);
    sow::DirectiveConsequences(out, before, *sd, file->reason()->str());
  }
  if (pd) rules::pate::DirectiveConsequences(w, at, *pd);
  auto drafts = w.TakeDrafts();
  return db.Append(game, branch, head, drafts, idempotency_key, fingerprint);
}

Result<ledger::AppendResult> SetPassword(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                         const std::string& person, const std::string& pwhash) {
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  if (!world->roster().Find(person)) {
    return Status::InvalidArgument("there is no person '" + person + "' in game '" + std::string(game) + "'");
  }
  const auto& ts = world->treasury().state();
  Draft d;
  d.at = ts.active ? sow::DirectivePosition(ts) : world->head.at;
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
