#include "reports/sources.h"

#include <algorithm>
#include <map>
#include <set>

#include "projections/battle.h"
#include "projections/roster.h"
#include "projections/summary.h"
#include "projections/treasury.h"
#include "projections/visibility.h"
#include "projections/y1820.h"
#include "replay/driver.h"
#include "replay/proofs.h"
#include "reports/reflect.h"
#include "reports/reports.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::reports {

namespace {

namespace P = projections;

using schema::TurnOf;

using schema::Str;

// y1820: the fields of its events that name a nation party to them (the
// schema's y1820.fbs; a field of another type under the same name, an
// army's `from` province, names none).
constexpr std::string_view kY1820Parties[] = {"nation", "attacker", "defender", "from", "to",    "a",
                                              "b",      "by",       "other",    "target", "winner"};

// The parties his roles name (roles "X.what").
std::set<std::string> PartiesOf(const Viewer& v, std::initializer_list<std::string_view> whats) {
  std::set<std::string> out;
  for (const std::string& role : v.roles) {
    const auto parsed = P::Role::Parse(role);
    if (!parsed) continue;
    if (std::find(whats.begin(), whats.end(), parsed->title) != whats.end()) out.insert(parsed->holder);
  }
  return out;
}

// The commitment to turn `turn`'s dice: the last CommitDice for it before
// seq `before` (read backwards in widening windows); 0 for none.
Result<uint64_t> CommitmentBefore(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                  const Turn& turn, uint64_t before) {
  uint64_t width = 256;
  for (uint64_t to = before - 1; to >= 1;) {
    const uint64_t from = to > width ? to - width + 1 : 1;
    uint64_t found = 0;
    ADJ_RETURN_IF_ERROR(db.Read(game, branch, from, to, [&](const ledger::EventView& e) {
      const fb::Directive* d = e.event()->payload_as_Directive();
      const fb::CommitDice* c = d ? d->body_as_CommitDice() : nullptr;
      if (c && TurnOf(c->turn()) == turn) found = e.seq;
      return Status::Ok();
    }));
    if (found != 0 || from == 1) return found;
    to = from - 1;
    width *= 2;
  }
  return uint64_t{0};
}

}  // namespace

Result<std::vector<uint64_t>> SourcesOf(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                        const std::string& person, const Turn& turn, const SourceScope& scope) {
  auto range = replay::TurnSeqs(db, game, branch, turn);
  if (!range.ok()) return range.status();
  std::vector<uint64_t> out;
  if (!range->has_value()) return out;
  const auto [first, last] = **range;
  auto viewer = PersonNow(db, game, branch, person);
  if (!viewer.ok()) return viewer.status();
  const auto wants = [&](unsigned part) { return (scope.parts & part) != 0; };
  // His parties of a kind, those the scope asks for (one, or all).
  const auto scoped = [&](unsigned part, std::set<std::string> parties) {
    if (!wants(part)) return std::set<std::string>();
    if (!scope.party.empty()) {
      const bool his = parties.count(scope.party) > 0;
      parties.clear();
      if (his) parties.insert(scope.party);
    }
    return parties;
  };
  const std::set<std::string> states = scoped(kSourceStates, PartiesOf(*viewer, {"treasury", "prime"}));
  const std::set<std::string> nations = scoped(kSourceNations, PartiesOf(*viewer, {"ruler"}));
  const std::set<std::string> sides = scoped(kSourceBattle, PartiesOf(*viewer, {"general"}));
  // Whatever he holds a role of (the X of his roles "X.what": a ship he
  // commands, the nation he rules, a kind's own pieces): a roll about it is his.
  std::set<std::string> all_held;
  for (const std::string& role : viewer->roles) {
    const auto parsed = P::Role::Parse(role);
    all_held.insert(parsed ? parsed->holder : role);
  }
  const std::set<std::string> held = scoped(kSourceHeld, all_held);
  // The game at the turn's end, as his reports of it are rendered.
  auto world = replay::Fold(db, game, branch, last);
  if (!world.ok()) return world.status();
  // pate: the ships that report to him and what they observed (PATE 2.3).
  std::set<std::string> ships;
  std::set<uint64_t> observed;
  for (const auto& p : world->projections) {
    const auto* vis = dynamic_cast<const P::Visibility*>(p.get());
    if (vis == nullptr || !(wants(kSourceShips) || wants(kSourceObserved))) continue;
    const P::PlayerView view = P::ViewOf(world->roster().state(), world->fleet().state().ships, vis->state(), person, turn);
    if (wants(kSourceShips)) ships.insert(view.ships.begin(), view.ships.end());
    if (!wants(kSourceObserved)) continue;
    for (const auto& [ship, obs] : view.observations) {
      for (const P::Observation& o : obs) observed.insert(o.seq);
    }
  }
  // pate: the sea areas his ships were in during the turn (where it began,
  // where it ended, and where each move took them, below): the wind and the
  // storms there (PATE 1.4, 8) were theirs.
  std::set<std::string> areas;
  if (!ships.empty()) {
    auto before = replay::Fold(db, game, branch, first - 1, {"fleet"});
    if (!before.ok()) return before.status();
    for (const replay::World* w : {&*world, &*before}) {
      for (const std::string& id : ships) {
        if (auto it = w->fleet().state().ships.find(id); it != w->fleet().state().ships.end()) {
          areas.insert(it->second.location);
        }
      }
    }
  }
  // sow: whose are the builds, units, ships and repairs the turn's events
  // name without a state (SOW 4, 5.2, 6.3, 7.1): as they stood before the
  // turn or after it (a build started or a unit disbanded in it).
  std::map<std::string, std::string> build_of, unit_of, ship_of;
  std::multimap<std::string, std::string> repairs_of;  // city -> the states repairing there
  if (!states.empty()) {
    auto before = replay::Fold(db, game, branch, first - 1, {"treasury", "fleet"});
    if (!before.ok()) return before.status();
    for (const replay::World* w : {&*before, &*world}) {
      const P::TreasuryState& t = w->treasury().state();
      for (const auto& [id, b] : t.builds) build_of.emplace(id, b.state);
      for (const auto& [id, u] : t.units) unit_of.emplace(id, u.state);
      for (const P::Repair& r : t.repairs) repairs_of.emplace(r.city, r.state);
      for (const auto& [id, sh] : w->fleet().state().ships) ship_of.emplace(id, sh.state);
    }
  }
  // y1820: the provinces his nations held as the turn began or as it ended:
  // a battle fought in one was fought on his ground, whoever fought it (a
  // third nation's armies defending it, Y9.1 version 6), and his reports
  // tell how it was lost or held.
  std::set<int32_t> his_ground;
  if (!nations.empty() && world->y1820().active) {
    auto before = replay::Fold(db, game, branch, first - 1, {"y1820"});
    if (!before.ok()) return before.status();
    for (const replay::World* w : {&*before, &*world}) {
      for (const auto& [id, p] : w->y1820().provinces) {
        if (nations.count(p.owner)) his_ground.insert(id);
      }
    }
  }
  std::vector<std::pair<uint64_t, std::string>> weather;  // (seq, area): wind and storm rolls, WindSet
  // pate: the rolls about a battle as a whole (evasion, closing, the line,
  // battery damage, the captor: PATE 7.4-7.8), and the battles he saw fought.
  std::vector<std::pair<uint64_t, std::string>> battle_rolls;
  std::set<std::string> battles;
  // dog: whether he commands a side of the battle.
  const P::BattleState& battle = world->battle();
  const bool general = std::any_of(battle.sides.begin(), battle.sides.end(),
                                   [&](const std::string& s) { return sides.count(s) > 0; });
  std::set<uint64_t> orders;
  std::set<uint64_t> picked;
  bool committed = false;
  // y1820: the rolls since the last other event (a combat round's two dice
  // come just before it, Y9.4).
  std::vector<uint64_t> rolls_before;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, first, last, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    auto take = [&] { picked.insert(e.seq); };
    std::vector<uint64_t> just_rolled;
    if (ev.payload_type() != fb::Payload_DieRolled) just_rolled.swap(rolls_before);
    switch (ev.payload_type()) {
      case fb::Payload_OrderSubmitted:
        if (wants(kSourceOrders) && TurnOf(ev.turn()) == turn &&
            Str(ev.payload_as_OrderSubmitted()->person()) == person) {
          orders.insert(e.seq);
          take();
        }
        return Status::Ok();
      case fb::Payload_OrderRejected:
        if (orders.count(ev.payload_as_OrderRejected()->order_seq())) take();
        return Status::Ok();
      case fb::Payload_OrderSuperseded:
        if (orders.count(ev.payload_as_OrderSuperseded()->order_seq())) take();
        return Status::Ok();
      case fb::Payload_Directive: {
        const fb::Directive* d = ev.payload_as_Directive();
        if (!wants(kSourcePublic)) return Status::Ok();
        if (const fb::CommitDice* c = d->body_as_CommitDice()) {
          committed = committed || TurnOf(c->turn()) == turn;
          take();
        } else if (d->body_as_RevealDice() || d->body_as_SigningKey()) {
          take();
        }
        return Status::Ok();
      }
      case fb::Payload_DieRolled: {
        if (TurnOf(ev.turn()) != turn) return Status::Ok();
        const std::string subject = Str(ev.payload_as_DieRolled()->subject());
        if (ships.count(subject) || held.count(subject) || general) take();
        else if (subject.rfind("battle ", 0) == 0) battle_rolls.emplace_back(e.seq, subject);
        else weather.emplace_back(e.seq, subject);
        rolls_before.push_back(e.seq);
        return Status::Ok();
      }
      default:
        break;
    }
    if (TurnOf(ev.turn()) != turn) return Status::Ok();
    const flatbuffers::Table* body = nullptr;
    const reflection::Object* o = EventBody(ev, &body);
    if (o == nullptr) return Status::Ok();
    switch (ev.payload_type()) {
      case fb::Payload_PateEvent:
        if (ShortName(*o) == "Observed") {
          if (!observed.count(e.seq)) break;
          take();
          // A battle his ship fought in (PATE 7): its observation's text
          // begins with the battle's id, the subject of its rolls.
          const fb::Observed* ob = ev.payload_as_PateEvent()->body_as_Observed();
          if (ob && ob->kind() == fb::ObservationKind_Battle && ob->text()) {
            const std::string text = ob->text()->str();
            if (const size_t colon = text.find(": "); colon != std::string::npos) battles.insert(text.substr(0, colon));
          }
        } else if (auto ship = StringField(*body, *o, "ship"); ship && ships.count(*ship)) {
          take();
          if (auto to = StringField(*body, *o, "location"); to && ShortName(*o) == "ShipMoved") areas.insert(*to);
        } else if (ShortName(*o) == "WindSet") {
          if (auto area = StringField(*body, *o, "area")) weather.emplace_back(e.seq, *area);
        }
        break;
      case fb::Payload_SowEvent: {
        if (states.empty()) break;
        if (auto state = StringField(*body, *o, "state")) {
          if (states.count(*state)) take();
          if (auto id = StringField(*body, *o, "build_id")) build_of.emplace(*id, *state);  // BuildStarted
          break;
        }
        // An event that names no state: its build's, unit's, ship's or
        // repair's; the seasons (SOW 2) are every state's.
        const std::string_view what = ShortName(*o);
        auto owned = [&](const char* field, const std::map<std::string, std::string>& of) {
          auto id = StringField(*body, *o, field);
          auto it = id ? of.find(*id) : of.end();
          return it != of.end() && states.count(it->second) > 0;
        };
        bool his = what == "SeasonStarted" || what == "SeasonEnded" || owned("build_id", build_of) ||
                   owned("unit", unit_of) || owned("ship", ship_of);
        if (auto city = StringField(*body, *o, "city"); city && !his) {
          auto [lo, hi] = repairs_of.equal_range(*city);
          his = std::any_of(lo, hi, [&](const auto& r) { return states.count(r.second) > 0; });
        }
        if (his) take();
        break;
      }
      case fb::Payload_Y1820Event: {
        // Any party it names (its nation, attacker or defender, the nations a
        // province passed from and to, a treaty's or a trade's two sides, the
        // target of a war, the victor): his, if one is his nation; and a
        // battle's rounds on his ground.
        const auto* round = ev.payload_as_Y1820Event()->body_as_Y1820CombatRound();
        const bool his = std::any_of(std::begin(kY1820Parties), std::end(kY1820Parties), [&](std::string_view field) {
          auto party = StringField(*body, *o, field);
          return party && nations.count(*party) > 0;
        }) || (round && round->province() != 0 && his_ground.count(round->province()) > 0);
        if (!his) break;
        take();
        // A combat round he fought, or fought on his ground: its two dice, rolled just before it.
        if (round) picked.insert(just_rolled.begin(), just_rolled.end());
        break;
      }
      case fb::Payload_DogEvent: {
        if (!general) break;
        if (const auto* r = ev.payload_as_DogEvent()->body_as_DogIntentRefused()) {
          const P::DogUnitState* u = battle.Unit(Str(r->unit()));
          if (u && !sides.count(u->side)) break;  // the other side's own
        }
        take();
        break;
      }
      default:
        break;
    }
    return Status::Ok();
  }));
  for (const auto& [seq, area] : weather) {
    if (areas.count(area)) picked.insert(seq);
  }
  for (const auto& [seq, battle] : battle_rolls) {
    if (battles.count(battle)) picked.insert(seq);
  }
  // The commitment to this turn's dice, recorded before it began.
  if (wants(kSourcePublic) && !committed && replay::SummaryOf(*world).dice_commitments.count(turn)) {
    auto c = CommitmentBefore(db, game, branch, turn, first);
    if (!c.ok()) return c.status();
    if (*c != 0) picked.insert(*c);
  }
  out.assign(picked.begin(), picked.end());
  return out;
}

Result<std::vector<uint8_t>> ReportProofOf(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                           const std::string& person, const Turn& turn, const SourceScope& scope,
                                           const replay::ProofShape& shape) {
  auto seqs = SourcesOf(db, game, branch, person, turn, scope);
  if (!seqs.ok()) return seqs.status();
  return replay::BuildReportProof(db, game, branch, person, turn, *seqs, shape);
}

}  // namespace adjutant::reports
