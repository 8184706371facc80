#include "rules/dog/kind.h"

#include <algorithm>

#include "projections/battle.h"
#include "projections/roster.h"
#include "rules/dog/dog.h"
#include "rules/events.h"
#include "schema/dog_generated.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/values.h"

namespace adjutant::rules::dog {

namespace P = projections;

namespace {

const P::BattleState& BattleOf(const State& st) { return Get<P::Battle>(st).state(); }

// The side whose general `person` is (asking as `asked`, if given).
std::optional<std::string> SideOfPerson(const State& st, const std::string& person, const std::string& asked) {
  const P::Person* p = Get<P::Roster>(st).Find(person);
  if (!p) return std::nullopt;
  return SideOf(BattleOf(st), p->roles, asked);
}

class DogKind final : public GameKind {
 public:
  std::string_view name() const override { return "dog"; }
  bool Plays(std::span<const std::string> rulesets) const override {
    return NamesRuleset(rulesets, kRuleset);
  }
  std::vector<std::string_view> Rulesets() const override { return {kRuleset}; }

  std::string_view MapTable() const override { return ""; }
  Status Prepare(const fb::Scenario& sc, std::optional<std::vector<uint8_t>> map, GameStart* g,
                 bool* map_error) const override {
    // D12: move 0 is the battle as it stands before the first move.
    if (map) {
      *map_error = true;
      return Status::InvalidArgument("a battle's table and terrain are in its scenario (dog); it takes no --map");
    }
    g->at = TurnPhase{P::DogMove(0), 0};
    return CheckScenario(sc);
  }
  // D12.2: each side's general gives its units' intentions.
  std::vector<Office> Offices(const fb::Scenario& sc) const override {
    Office general{"general", "side", "D12.2", std::set<std::string>{}};
    if (sc.dog() && sc.dog()->sides()) for (const auto* s : *sc.dog()->sides()) general.holders->insert(schema::Str(s));
    return {general};
  }

  // D12.1: a battle's turns are its moves (turn 1.M), one phase a move.
  Result<KindPhase> Next(const State& st) const override {
    const auto& b = BattleOf(st);
    auto next = dog::Next(b);
    if (!next) {
      return Status::InvalidArgument("the battle has ended (" + (b.end_reason.empty() ? std::string("its last move") : b.end_reason) +
                                     (b.winner.empty() ? std::string() : ", the " + b.winner + " side wins") +
                                     "): there is nothing left to adjudicate");
    }
    return KindPhase{next->at, "move", "move " + std::to_string(next->move) + " of " + std::to_string(b.max_moves), true};
  }
  bool Ended(const State& st) const override { return BattleOf(st).ended; }
  Result<TurnPhase> OrderPosition(const State& st) const override {
    if (BattleOf(st).ended) return Status::InvalidArgument("the battle has ended: it takes no more orders");
    return dog::OrderPosition(BattleOf(st));
  }
  TurnPhase DirectivePosition(const State& st) const override { return dog::OrderPosition(BattleOf(st)); }
  Progress ProgressOf(const State& st) const override {
    const int32_t done = BattleOf(st).moves_done;
    return {P::DogMove(done), static_cast<uint16_t>(done > 0 ? kMovePhase : 0)};
  }
  bool TurnOver(const State& st, const Turn& t) const override {
    const int32_t done = BattleOf(st).moves_done;
    return done > 0 && P::DogMove(done) == t;
  }
  Result<DiceWindow> DiceWindowOf(const State& st) const override {
    // One phase a move: the coming move has not begun; the last is done.
    const int32_t done = BattleOf(st).moves_done;
    return DiceWindow{P::DogMove(done + 1), false, P::DogMove(done), done > 0};
  }

  Status RunPhase(PhaseWriter& w, const KindPhase& phase, DiceSource& dice) const override {
    auto next = dog::Next(w.battle());
    if (!next || next->at != phase.at) return Status::Corruption("the move asked for is not the battle's next");
    return EmitPhase(w, phase, kRuleset, [&] { return RunMove(w, *next, dice); });
  }

  std::optional<size_t> FirstNotHis(const State& st, const std::string& person,
                                    const std::vector<const fb::OrderItem*>& items) const override {
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string asked = items[i]->role() ? items[i]->role()->str() : "";
      auto side = SideOfPerson(st, person, asked);
      const fb::DogOrder* d = items[i]->body_as_DogOrder();
      const fb::DogIntent* intent = d ? d->body_as_DogIntent() : nullptr;
      const P::DogUnitState* u = intent ? BattleOf(st).Unit(intent->unit()->str()) : nullptr;
      if (!side || (intent && !(u && u->side == *side))) return i;
    }
    return std::nullopt;
  }
  Status CheckSender(const State& st, const std::string& game, const std::string& person,
                     const std::vector<const fb::OrderItem*>& items) const override {
    // D12: a side's general gives its units' intentions.
    std::string asked = items.front()->role() ? items.front()->role()->str() : "";
    if (!SideOfPerson(st, person, asked)) {
      return Status::InvalidArgument(person + " is the general of no side of battle '" + game + "'" +
                                     (asked.empty() ? "" : " as " + asked) +
                                     " (D12: a side's orders come from its general, role SIDE.general)");
    }
    return Status::Ok();
  }
  Status Submit(PhaseWriter& w, const TurnPhase& at, const std::string& person,
                const std::vector<const fb::OrderItem*>& items) const override {
    std::string asked = items.front()->role() ? items.front()->role()->str() : "";
    const P::Person* p = w.roster().Find(person);
    auto side = p ? SideOf(w.battle(), p->roles, asked) : std::nullopt;
    if (!side) return Status::InvalidArgument(person + " is the general of no side");
    dog::Submit(w, at, person, *side + ".general", *side, items);
    return Status::Ok();
  }

  // Issue 20 (reading, RULES.md D12.2): a side whose general sent no
  // intentions for a move stands: its units neither change formation nor
  // move of their own accord; what binds them (control results, routs) acts.
  std::vector<MissingOrders> OrdersNotGiven(const State& st, std::span<const std::string> roles,
                                            const std::set<std::string>& stood,
                                            const std::set<std::string>&) const override {
    std::vector<MissingOrders> out;
    for (const std::string& role : roles) {
      const auto parsed = P::Role::Parse(role);
      if (!parsed || parsed->title != "general") continue;
      const std::string& side = parsed->holder;
      if (!SideOf(BattleOf(st), {role}, role) || stood.count(side)) continue;
      out.push_back({role, side, "D12.2", "no intentions for the move: its units stood — no formation change and no "
                                          "move of their own; control results and routs still bound them (D12.4)"});
    }
    return out;
  }

  Status CheckDirective(const State& st, const std::string& game, const fb::DirectiveFile& file,
                        const RulesVersions&) const override {
    if (file.body_type() != fb::DirectiveBody_Ruling && file.body_type() != fb::DirectiveBody_DogDirective) {
      return Status::InvalidArgument(std::string(fb::EnumNameDirectiveBody(file.body_type())) + ": battle '" + game +
                                     "' takes the GA's rulings and DogDirectives");
    }
    if (const auto* dd = file.body_as_DogDirective()) return dog::CheckDirective(BattleOf(st), *dd);
    return Status::Ok();
  }
  Status RecordDirective(PhaseWriter& w, const TurnPhase&, Draft d, const fb::DirectiveFile& file) const override {
    const auto book = w.Under(file.body_as_DogDirective() ? kRuleset : "");
    w.Emit(std::move(d));
    return Status::Ok();
  }

  void Flatten(const State& st, const PutRow& put) const override {
    // The dog views: battle (the move reached, the end) and troops (every unit).
    const auto& s = BattleOf(st);
    put("battle", "battle", "moves_done", std::to_string(s.moves_done));
    put("battle", "battle", "ended", s.ended ? s.end_reason + (s.winner.empty() ? "" : ", " + s.winner + " wins") : "no");
    for (const auto& [id, u] : s.units) {
      put("troops", id, "where", std::to_string(u.x) + "," + std::to_string(u.y) + " facing " + std::to_string(u.facing));
      put("troops", id, "formation",
          std::string(fb::EnumNameDogFormation(static_cast<fb::DogFormation>(u.formation))) +
              (u.changing_to >= 0 ? std::string(" forming ") +
                                        fb::EnumNameDogFormation(static_cast<fb::DogFormation>(u.changing_to)) + " " +
                                        std::to_string(u.change_done) + "/" + std::to_string(u.change_time)
                                  : ""));
      put("troops", id, "state",
          std::string(fb::EnumNameDogCohesion(static_cast<fb::DogCohesion>(u.cohesion))) + ", " +
              fb::EnumNameDogFatigue(static_cast<fb::DogFatigue>(u.fatigue)) + (u.shaken ? ", shaken" : "") +
              (u.routing ? ", routing" : "") + (u.gone ? ", gone" : ""));
      put("troops", id, "strength", std::to_string(u.strength) + " of " + std::to_string(u.start_strength));
      put("troops", id, "bound", u.bound.empty() ? "-" : u.bound + " " + std::to_string(u.bound_moves));
    }
  }
  std::vector<std::string_view> ViewNames() const override { return {"battle", "troops"}; }
  std::vector<std::string_view> ViewProjections(std::string_view) const override { return {"battle"}; }
};

}  // namespace

const GameKind& Kind() {
  static const DogKind kind;
  return kind;
}

}  // namespace adjutant::rules::dog
