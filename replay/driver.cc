#include "replay/driver.h"

#include "schema/reports_generated.h"

#include <functional>
#include <map>

#include "base/hash.h"
#include "projections/roster.h"
#include "projections/summary.h"
#include "replay/dice_commit.h"
#include "projections/treasury.h"
#include "projections/battle.h"
#include "projections/y1820.h"
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
#include "rules/dog/dog.h"
#include "rules/y1820/y1820.h"
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
const projections::Y1820State& World::y1820() const { return Find<projections::Y1820>(projections).state(); }
bool World::is_y1820() const { return y1820().active; }
const projections::BattleState& World::battle() const { return Find<projections::Battle>(projections).state(); }
bool World::is_dog() const { return battle().active; }

Result<GamePhase> NextPhaseOf(const World& w) {
  GamePhase g;
  if (w.is_y1820()) {
    const auto& ys = w.y1820();
    auto next = rules::y1820::Next(ys);
    if (!next) {
      return Status::InvalidArgument("the game has ended (Y1.4: " + (ys.end_reason.empty() ? std::string("no turns left")
                                                                                      : ys.end_reason) +
                                     (ys.winner.empty() ? std::string() : ", " + ys.winner + " wins") +
                                     "): there is nothing left to adjudicate");
    }
    if (!ys.has_map) return Status::Corruption("a y1820 game without its province map");
    g.y1820 = true;
    g.y = *next;
    g.at = next->at;
    g.name = next->name;
    g.turn_name = next->turn_name;
    return g;
  }
  if (w.is_dog()) {
    const auto& b = w.battle();
    auto next = rules::dog::Next(b);
    if (!next) {
      return Status::InvalidArgument("the battle has ended (" + (b.end_reason.empty() ? std::string("its last move") : b.end_reason) +
                                     (b.winner.empty() ? std::string() : ", the " + b.winner + " side wins") +
                                     "): there is nothing left to adjudicate");
    }
    g.dog = true;
    g.move = *next;
    g.at = next->at;
    g.name = "move";
    g.turn_name = "move " + std::to_string(next->move) + " of " + std::to_string(b.max_moves);
    return g;
  }
  const auto& ts = w.treasury().state();
  if (!ts.active) {
    return Status::InvalidArgument("the game has no ruleset to adjudicate yet (its scenario has no sow or y1820 section)");
  }
  g.sow = sow::Next(ts);
  g.at = g.sow.at;
  g.name = g.sow.name;
  g.turn_name = sow::TurnName(g.sow.at.turn, g.sow.season_kind);
  g.last_of_turn = g.sow.last_of_turn;
  return g;
}

Result<TurnPhase> OrderPositionOf(const World& w) {
  if (w.is_dog()) {
    if (w.battle().ended) return Status::InvalidArgument("the battle has ended: it takes no more orders");
    return rules::dog::OrderPosition(w.battle());
  }
  if (w.is_y1820()) {
    if (w.y1820().ended) return Status::InvalidArgument("the game has ended (Y1.4): it takes no more orders");
    return rules::y1820::OrderPosition(w.y1820());
  }
  const auto& ts = w.treasury().state();
  if (!ts.active) return Status::InvalidArgument("the game takes no orders yet");
  return sow::OrderPosition(ts);
}

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

Status RunPhaseInto(rules::PhaseWriter& w, const GamePhase& next, rules::DiceSource& dice) {
  if (!next.y1820 && !next.dog) return RunPhaseInto(w, next.sow, dice);
  const std::string_view ruleset = next.dog ? rules::dog::kRuleset : rules::y1820::kRuleset;
  auto tag = [&](Draft d) {
    d.ruleset = std::string(ruleset);
    d.rules_version = w.tag_versions().Of(ruleset);
    d.actor = kAdjudicator;
    return d;
  };
  w.Emit(tag(rules::PhaseStartedDraft(next.at, next.name)));
  if (next.dog) {
    ADJ_RETURN_IF_ERROR(rules::dog::RunMove(w, next.move, dice));
  } else {
    ADJ_RETURN_IF_ERROR(rules::y1820::RunPhase(w, next.y, dice));
  }
  w.Emit(tag(rules::PhaseCompletedDraft(next.at, next.name, w.Digests(), w.Versions())));
  return Status::Ok();
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

// `key` (with `fingerprint`) is recorded with the batch when it ends the
// request: always in phase mode (`key_on_last_only` false), else only on
// the last phase of the turn.
Result<PhaseReport> RunOnePhase(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                const std::optional<std::string>& dice_salt, rules::DiceSource* given,
                                const rules::RulesVersions* adopt, std::string_view key = {},
                                uint64_t fingerprint = 0, bool key_on_last_only = false) {
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
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
  ADJ_RETURN_IF_ERROR(RunPhaseInto(w, *next, given ? *given : static_cast<rules::DiceSource&>(*dice)));
  auto drafts = w.TakeDrafts();
  const bool keyed = !key.empty() && (!key_on_last_only || next->last_of_turn);
  auto r = db.Append(game, branch, world->head.seq, drafts, keyed ? key : std::string_view{}, keyed ? fingerprint : 0);
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
      if (ev->turn()) report.at.turn = Turn{ev->turn()->major(), ev->turn()->minor(), ev->turn()->step()};
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
                                            std::string_view idempotency_key) {
  if (!idempotency_key.empty() && turns != 1) {
    return Status::InvalidArgument("an idempotency key makes one phase or one turn safe to retry, not " +
                                   std::to_string(turns) + " turns");
  }
  const uint64_t fingerprint =
      RequestFingerprint("adjudicate", branch, "GA", mode == AdjudicateMode::kPhase ? "phase" : "turn");
  auto prior = PriorRequest(db, game, branch, ledger::IdempotencyOwner(ActorKind::kGameAdministrator, ""),
                            idempotency_key, fingerprint);
  if (!prior.ok()) return prior.status();
  std::vector<PhaseReport> out;
  if (mode == AdjudicateMode::kPhase) {
    auto r = prior->has_value() ? ReplayedPhase(db, game, branch, **prior)
                                : RunOnePhase(db, game, branch, dice_salt, dice, versions, idempotency_key, fingerprint);
    if (!r.ok()) return r.status();
    out.push_back(*r);
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
      auto r = RunOnePhase(db, game, branch, dice_salt, dice, versions, idempotency_key, fingerprint, true);
      if (!r.ok()) return r.status();
      out.push_back(*r);
      if (r->last_of_turn) break;
    }
    // A season's end takes no orders: it runs with the turn before it.
    auto world = Fold(db, game, branch);
    if (!world.ok()) return world.status();
    if (world->is_y1820() || world->is_dog()) {
      if (world->y1820().ended || world->battle().ended) break;  // nothing after the end
      continue;
    }
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

namespace {

// One submission through a ruleset's intake: its events in one batch, then
// what became of each order, read back from the log.
Result<SubmitReport> SubmitThrough(ledger::Ledger& db, std::string_view game, std::string_view branch, World& world,
                                   std::string_view idempotency_key, uint64_t fingerprint,
                                   const std::function<void(rules::PhaseWriter&)>& intake) {
  uint64_t head = world.head.seq;
  const rules::RulesVersions versions = GameVersions(SummaryOf(world));
  rules::PhaseWriter w(std::string(game), std::string(branch), head, std::move(world.projections));
  w.set_rules_versions(versions);
  intake(w);
  auto drafts = w.TakeDrafts();
  auto r = db.Append(game, branch, head, drafts, idempotency_key, fingerprint);
  if (!r.ok()) return r.status();
  SubmitReport rep;
  rep.append = *r;
  ADJ_RETURN_IF_ERROR(ReadOutcomes(db, game, branch, &rep));
  return rep;
}

}  // namespace

std::optional<size_t> FirstNotHis(const World& world, const std::string& person, const std::vector<uint8_t>& order_file) {
  const auto* file = flatbuffers::GetRoot<fb::OrderFile>(order_file.data());
  const size_t n = file->orders() ? file->orders()->size() : 0;
  const projections::Person* p = world.roster().Find(person);
  if (!p) return n ? std::optional<size_t>(0) : std::nullopt;
  for (size_t i = 0; i < n; ++i) {
    const fb::OrderItem* item = file->orders()->Get(static_cast<flatbuffers::uoffset_t>(i));
    const std::string asked = item->role() ? item->role()->str() : "";
    bool his = true;
    if (world.is_dog()) {
      auto side = rules::dog::SideOf(world.battle(), p->roles, asked);
      const fb::DogOrder* d = item->body_as_DogOrder();
      const fb::DogIntent* intent = d ? d->body_as_DogIntent() : nullptr;
      const projections::DogUnitState* u = intent ? world.battle().Unit(intent->unit()->str()) : nullptr;
      his = side && (!intent || (u && u->side == *side));
    } else if (world.is_y1820()) {
      his = rules::y1820::NationOf(world.y1820(), p->roles, asked).has_value();
    } else {
      his = rules::nwol::MayGive(world.treasury().state(), world.roster(), person, *item,
                                 GameVersions(SummaryOf(world)));
    }
    if (!his) return i;
  }
  return std::nullopt;
}

Result<SubmitReport> SubmitOrders(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                  const std::string& person, const std::vector<uint8_t>& order_file,
                                  std::string_view idempotency_key, std::optional<size_t>* not_his) {
  uint64_t fingerprint = RequestFingerprint("orders", branch, person, Bytes(order_file));
  auto prior = PriorRequest(db, game, branch, ledger::IdempotencyOwner(ActorKind::kPlayer, person), idempotency_key,
                            fingerprint);
  if (!prior.ok()) return prior.status();
  if (prior->has_value()) {
    SubmitReport rep;
    rep.append = **prior;
    ADJ_RETURN_IF_ERROR(ReadOutcomes(db, game, branch, &rep));
    return rep;
  }
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
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
  auto at = OrderPositionOf(*world);
  if (!at.ok()) return at.status();
  const auto* file = flatbuffers::GetRoot<fb::OrderFile>(order_file.data());
  std::vector<const fb::OrderItem*> items;
  if (file->orders()) for (const auto* i : *file->orders()) items.push_back(i);
  if (items.empty()) return Status::InvalidArgument("the order file holds no orders");
  if (world->is_dog()) {
    // D12: a side's general gives its units' intentions.
    std::string asked = items.front()->role() ? items.front()->role()->str() : "";
    auto side = rules::dog::SideOf(world->battle(), world->roster().Find(person)->roles, asked);
    if (!side) {
      return Status::InvalidArgument(person + " is the general of no side of battle '" + std::string(game) + "'" +
                                     (asked.empty() ? "" : " as " + asked) + " (D12: a side's orders come from its "
                                     "general, role SIDE.general)");
    }
    std::string role = *side + ".general";
    return SubmitThrough(db, game, branch, *world, idempotency_key, fingerprint, [&](rules::PhaseWriter& w) {
      rules::dog::Submit(w, *at, person, role, *side, items);
    });
  }
  if (world->is_y1820()) {
    // Y1.3: a nation's ruler orders for it.
    std::string asked = items.front()->role() ? items.front()->role()->str() : "";
    auto nation = rules::y1820::NationOf(world->y1820(), world->roster().Find(person)->roles, asked);
    if (!nation) {
      return Status::InvalidArgument(person + " is the ruler of no nation of game '" + std::string(game) + "'" +
                                     (asked.empty() ? "" : " as " + asked) + " (Y1.3: a nation's orders come from "
                                     "its ruler, role NATION.ruler)");
    }
    std::string role = *nation + ".ruler";
    return SubmitThrough(db, game, branch, *world, idempotency_key, fingerprint, [&](rules::PhaseWriter& w) {
      rules::y1820::Submit(w, *at, person, role, *nation, items);
    });
  }
  for (const auto* i : items) {
    if (i->body_type() == fb::OrderBody_Y1820Order || i->body_type() == fb::OrderBody_DogOrder) {
      return Status::InvalidArgument(std::string(fb::EnumNameOrderBody(i->body_type())) + ": game '" + std::string(game) +
                                     "' plays sow and pate");
    }
  }
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

// A y1820 game's directives: rulings, dice commitments and the y1820 ones.
Result<ledger::AppendResult> RecordY1820Directive(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                                  World& world, const std::vector<uint8_t>& directive_file,
                                                  std::string_view idempotency_key, uint64_t fingerprint) {
  const auto* file = flatbuffers::GetRoot<fb::DirectiveFile>(directive_file.data());
  const auto& ys = world.y1820();
  switch (file->body_type()) {
    case fb::DirectiveBody_SetPassword:
      return Status::InvalidArgument("passwords are set with `adjutant password`, which records only their hash");
    case fb::DirectiveBody_SowDirective:
    case fb::DirectiveBody_PateDirective:
      return Status::InvalidArgument(std::string(fb::EnumNameDirectiveBody(file->body_type())) + ": game '" +
                                     std::string(game) + "' plays y1820, not sow and pate");
    default:
      break;
  }
  const fb::Y1820Directive* yd = file->body_as_Y1820Directive();
  if (yd) ADJ_RETURN_IF_ERROR(rules::y1820::CheckDirective(ys, *yd));
  const fb::CommitDice* commit = file->body_as_CommitDice();
  const fb::RevealDice* reveal = file->body_as_RevealDice();
  if (commit || reveal) {
    // One phase a turn: the coming turn has not begun; the last is done.
    Turn next_turn = projections::Y1820Turn(ys.turns_done);
    Turn current = projections::Y1820Turn(std::max(0, ys.turns_done - 1));
    const fb::Turn* ft = commit ? commit->turn() : reveal->turn();
    if (!ft) return Status::InvalidArgument("turn: which turn's dice?");
    Turn t{ft->major(), ft->minor(), ft->step()};
    ADJ_RETURN_IF_ERROR(CheckDiceDirective(SummaryOf(world), next_turn, false, current, ys.turns_done > 0, t,
                                           reveal != nullptr,
                                           commit ? commit->commitment()->str() : reveal->salt()->str()));
  }
  TurnPhase at = rules::y1820::OrderPosition(ys);
  uint64_t head = world.head.seq;
  const rules::RulesVersions versions = GameVersions(SummaryOf(world));
  rules::PhaseWriter w(std::string(game), std::string(branch), head, std::move(world.projections));
  w.set_rules_versions(versions);
  Draft d = DirectiveDraft(&directive_file, at);
  if (yd) {
    d.ruleset = std::string(rules::y1820::kRuleset);
    d.rules_version = versions.y1820;
  }
  w.Emit(std::move(d));
  if (yd) rules::y1820::DirectiveConsequences(w, at, *yd);
  auto drafts = w.TakeDrafts();
  return db.Append(game, branch, head, drafts, idempotency_key, fingerprint);
}

}  // namespace

Result<ledger::AppendResult> RecordDirective(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                             const std::vector<uint8_t>& directive_file,
                                             std::string_view idempotency_key) {
  uint64_t fingerprint = RequestFingerprint("directive", branch, "GA", Bytes(directive_file));
  auto prior = PriorRequest(db, game, branch, ledger::IdempotencyOwner(ActorKind::kGameAdministrator, ""),
                            idempotency_key, fingerprint);
  if (!prior.ok()) return prior.status();
  if (prior->has_value()) return **prior;
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  const auto* file = flatbuffers::GetRoot<fb::DirectiveFile>(directive_file.data());
  if (world->is_y1820()) return RecordY1820Directive(db, game, branch, *world, directive_file, idempotency_key, fingerprint);
  if (world->is_dog()) {
    if (file->body_type() != fb::DirectiveBody_Ruling && file->body_type() != fb::DirectiveBody_DogDirective) {
      return Status::InvalidArgument(std::string(fb::EnumNameDirectiveBody(file->body_type())) +
                                     ": a battle takes the GA's rulings and DogDirectives");
    }
    if (const auto* dd = file->body_as_DogDirective()) ADJ_RETURN_IF_ERROR(rules::dog::CheckDirective(world->battle(), *dd));
  }
  if (!world->is_dog() && file->body_as_DogDirective()) {
    return Status::InvalidArgument("DogDirective: game '" + std::string(game) + "' is not a Death or Glory battle");
  }
  const auto& ts = world->treasury().state();
  if (file->body_as_Y1820Directive()) {
    return Status::InvalidArgument("Y1820Directive: game '" + std::string(game) + "' does not play the y1820 ruleset");
  }
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
  TurnPhase at = world->is_dog() ? rules::dog::OrderPosition(world->battle())
                 : ts.active      ? sow::DirectivePosition(ts)
                                  : world->head.at;
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
  Draft d = DirectiveDraft(&directive_file, at);
  if (sd || pd) d = Tagged(std::move(d), w.tag_versions(), pd != nullptr);
  if (file->body_as_DogDirective()) {
    d.ruleset = std::string(rules::dog::kRuleset);
    d.rules_version = versions.Of(rules::dog::kRuleset);
  }
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
  d.at = world->is_y1820() ? rules::y1820::OrderPosition(world->y1820())
         : world->is_dog() ? rules::dog::OrderPosition(world->battle())
         : ts.active       ? sow::DirectivePosition(ts)
                           : world->head.at;
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
