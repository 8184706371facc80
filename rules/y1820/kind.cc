#include "rules/y1820/kind.h"

#include <algorithm>

#include "projections/roster.h"
#include "projections/y1820.h"
#include "rules/events.h"
#include "rules/y1820/formulas.h"
#include "rules/y1820/y1820.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/y1820_generated.h"
#include "schema/values.h"

namespace adjutant::rules::y1820 {

namespace P = projections;

namespace {

class Y1820Kind final : public GameKind {
 public:
  std::string_view name() const override { return "y1820"; }
  bool Plays(std::span<const std::string> rulesets) const override {
    return NamesRuleset(rulesets, kRuleset);
  }
  std::vector<std::string_view> Rulesets() const override { return {kRuleset}; }

  std::string_view MapNoun() const override { return "province map"; }
  std::string_view MapTable() const override { return "Y1820Map"; }
  Status Prepare(const fb::Scenario& sc, std::optional<std::vector<uint8_t>> map, GameStart* g,
                 bool* map_error) const override {
    // Y0: the province map, recorded with the game; the calendar starts at turn 0 (Y1.1).
    g->at = TurnPhase{P::Y1820Turn(0), 0};
    const fb::Y1820Map* m = map ? flatbuffers::GetRoot<fb::Y1820Map>(map->data()) : nullptr;
    if (m) {
      if (auto st = CheckMap(*m); !st.ok()) {
        *map_error = true;
        return st;
      }
    }
    ADJ_RETURN_IF_ERROR(CheckScenario(sc, m));
    g->more.push_back(MapDefinedDraft(g->at, std::move(*map)));
    return Status::Ok();
  }
  // Each nation has a ruler, who gives its orders (Y1.3; RULES.md "The game").
  std::vector<Office> Offices(const fb::Scenario& sc) const override {
    Office ruler{"ruler", "nation", "Y1.3", std::set<std::string>{}};
    if (sc.y1820() && sc.y1820()->nations()) {
      for (const auto* n : *sc.y1820()->nations()) ruler.holders->insert(schema::Str(n->id()));
    }
    return {ruler};
  }
  Result<std::string> DescribeMap(const std::vector<uint8_t>& doc) const override {
    // Y0: a y1820 province map.
    const auto* m = flatbuffers::GetRoot<fb::Y1820Map>(doc.data());
    ADJ_RETURN_IF_ERROR(CheckMap(*m));
    int populous = 0, coastal = 0, kinds[3] = {0, 0, 0};
    for (const auto* p : *m->provinces()) {
      populous += p->populous();
      coastal += p->coastal();
    }
    if (m->borders()) {
      for (const auto* b : *m->borders()) {
        std::string k = b->kind() ? b->kind()->str() : "land";
        kinds[k == "mountain" ? 1 : k == "water" ? 2 : 0]++;
      }
    }
    return "a sound province map: " + std::to_string(m->provinces()->size()) + " provinces (" +
           std::to_string(populous) + " populous, " + std::to_string(coastal) + " coastal), " + std::to_string(kinds[0]) +
           " land borders, " + std::to_string(kinds[1]) + " mountain and " + std::to_string(kinds[2]) +
           " water crossings, " + std::to_string(m->seas() ? m->seas()->size() : 0) + " sea zones";
  }
  bool PartOfCreation(const fb::Event& e) const override {
    const auto* ye = e.payload_as_Y1820Event();
    return ye && ye->body_type() == fb::Y1820EventBody_Y1820MapDefined;
  }

  Result<KindPhase> Next(const State& st) const override {
    const auto& ys = Get<P::Y1820>(st).state();
    auto next = y1820::Next(ys);
    if (!next) {
      return Status::InvalidArgument("the game has ended (Y1.4: " + (ys.end_reason.empty() ? std::string("no turns left")
                                                                                      : ys.end_reason) +
                                     (ys.winner.empty() ? std::string() : ", " + ys.winner + " wins") +
                                     "): there is nothing left to adjudicate");
    }
    if (!ys.has_map) return Status::Corruption("a y1820 game without its province map");
    return KindPhase{next->at, next->name, next->turn_name, true};
  }
  bool Ended(const State& st) const override { return Get<P::Y1820>(st).state().ended; }
  Result<TurnPhase> OrderPosition(const State& st) const override {
    const auto& ys = Get<P::Y1820>(st).state();
    if (ys.ended) return Status::InvalidArgument("the game has ended (Y1.4): it takes no more orders");
    return y1820::OrderPosition(ys);
  }
  TurnPhase DirectivePosition(const State& st) const override { return y1820::OrderPosition(Get<P::Y1820>(st).state()); }
  Progress ProgressOf(const State& st) const override {
    // Y1.3: one phase a turn.
    const auto& ys = Get<P::Y1820>(st).state();
    if (ys.turns_done == 0) return {P::Y1820Turn(0), 0};
    return {P::Y1820Turn(ys.turns_done - 1), kTurnPhase};
  }
  bool TurnOver(const State& st, const Turn& t) const override {
    const auto& ys = Get<P::Y1820>(st).state();
    return ys.turns_done > 0 && P::Y1820Turn(ys.turns_done - 1) == t;
  }
  Result<DiceWindow> DiceWindowOf(const State& st) const override {
    // One phase a turn: the coming turn has not begun; the last is done.
    const auto& ys = Get<P::Y1820>(st).state();
    return DiceWindow{P::Y1820Turn(ys.turns_done), false, P::Y1820Turn(std::max(0, ys.turns_done - 1)), ys.turns_done > 0};
  }

  Status RunPhase(PhaseWriter& w, const KindPhase& phase, DiceSource& dice) const override {
    auto next = y1820::Next(w.y1820());
    if (!next || next->at != phase.at) return Status::Corruption("the y1820 phase asked for is not the game's next");
    return EmitPhase(w, phase, kRuleset, [&] { return y1820::RunPhase(w, *next, dice); });
  }

  std::optional<size_t> FirstNotHis(const State& st, const std::string& person,
                                    const std::vector<const fb::OrderItem*>& items) const override {
    const P::Person* p = Get<P::Roster>(st).Find(person);
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string asked = items[i]->role() ? items[i]->role()->str() : "";
      if (!p || !NationOf(Get<P::Y1820>(st).state(), p->roles, asked)) return i;
    }
    return std::nullopt;
  }
  Status CheckSender(const State& st, const std::string& game, const std::string& person,
                     const std::vector<const fb::OrderItem*>& items) const override {
    // Y1.3: a new file replaces the nation's orders of the turn as a whole;
    // a withdrawal (issue 20) takes them back, and goes alone.
    if (items.size() > 1) {
      for (size_t i = 0; i < items.size(); ++i) {
        if (items[i]->body_type() == fb::OrderBody_Withdrawal) {
          return Status::InvalidArgument("orders[" + std::to_string(i) +
                                         "]: Y1.3: a withdrawal is sent alone (a new file of orders replaces the "
                                         "nation's earlier orders of the turn anyway)");
        }
      }
    }
    // Y1.3: a nation's ruler orders for it.
    std::string asked = items.front()->role() ? items.front()->role()->str() : "";
    const P::Person* p = Get<P::Roster>(st).Find(person);
    if (!p || !NationOf(Get<P::Y1820>(st).state(), p->roles, asked)) {
      return Status::InvalidArgument(person + " is the ruler of no nation of game '" + game + "'" +
                                     (asked.empty() ? "" : " as " + asked) +
                                     " (Y1.3: a nation's orders come from its ruler, role NATION.ruler)");
    }
    return Status::Ok();
  }
  bool FilesReplace() const override { return true; }  // Y1.3 (rules/y1820/intake.cc replaces_file)
  Status Submit(PhaseWriter& w, const TurnPhase& at, const std::string& person,
                const std::vector<const fb::OrderItem*>& items) const override {
    std::string asked = items.front()->role() ? items.front()->role()->str() : "";
    auto nation = NationOf(w.y1820(), w.roster().Find(person)->roles, asked);
    if (!nation) return Status::InvalidArgument(person + " is the ruler of no nation");
    y1820::Submit(w, at, person, *nation + ".ruler", *nation, items);
    return Status::Ok();
  }

  // Issue 20 (reading, RULES.md): a nation whose ruler sent nothing does
  // nothing that needs an order; what comes every turn comes all the same.
  std::vector<MissingOrders> OrdersNotGiven(const State& st, std::span<const std::string> roles,
                                            const std::set<std::string>& stood,
                                            const std::set<std::string>&) const override {
    const auto& ys = Get<P::Y1820>(st).state();
    std::vector<MissingOrders> out;
    for (const std::string& role : roles) {
      const auto parsed = P::Role::Parse(role);
      if (!parsed || parsed->title != "ruler") continue;
      const std::string& nation = parsed->holder;
      if (!ys.nations.count(nation) || stood.count(nation)) continue;
      if (ys.turns_done == 0) {
        out.push_back({role, nation, "Y1.1", "no deployment: its armies stood in the capital and its fleets docked at "
                                             "the capital's port"});
      } else {
        out.push_back({role, nation, "Y1.3", "no orders: its armies and fleets stayed where they were and nothing was "
                                             "built, traded, reformed or declared; its research went on with the "
                                             "project already chosen (Y10), and what every turn brings came as usual"});
      }
    }
    return out;
  }

  Status CheckDirective(const State& st, const std::string& game, const fb::DirectiveFile& file,
                        const RulesVersions&) const override {
    switch (file.body_type()) {
      case fb::DirectiveBody_Ruling:
      case fb::DirectiveBody_Y1820Directive:
        break;
      default:
        return Status::InvalidArgument(std::string(fb::EnumNameDirectiveBody(file.body_type())) + ": game '" + game +
                                       "' plays y1820: it takes the GA's rulings and Y1820Directives");
    }
    if (const auto* yd = file.body_as_Y1820Directive()) return y1820::CheckDirective(Get<P::Y1820>(st).state(), *yd);
    return Status::Ok();
  }
  Status RecordDirective(PhaseWriter& w, const TurnPhase& at, Draft d, const fb::DirectiveFile& file) const override {
    const fb::Y1820Directive* yd = file.body_as_Y1820Directive();
    const auto book = w.Under(yd ? kRuleset : "");
    w.Emit(std::move(d));
    if (yd) DirectiveConsequences(w, at, *yd);
    return Status::Ok();
  }

  void Flatten(const State& st, const PutRow& put) const override {
    // The y1820 views: game (calendar, end), provinces, seas, nations.
    const auto& s = Get<P::Y1820>(st).state();
    put("game", "y1820", "turns_done", std::to_string(s.turns_done));
    put("game", "y1820", "ended", s.ended ? s.end_reason + (s.winner.empty() ? "" : " " + s.winner) : "no");
    for (const auto& [id, d] : s.defs) {
      const P::Y1820Province* p = s.Province(id);
      const std::string e = std::to_string(id);
      put("provinces", e, "owner", p->owner.empty() ? (p->npc.empty() ? "-" : "npc " + p->npc) : p->owner);
      std::string armies = CountsRow(p->armies);
      if (p->garrison) armies += (armies.empty() ? "" : ",") + std::string("neutral:") + std::to_string(p->garrison);
      put("provinces", e, "armies", armies);
      put("provinces", e, "fleets", CountsRow(p->fleets));
      put("provinces", e, "improvements", JoinRow(std::vector<std::string>(p->improvements.begin(), p->improvements.end())));
      put("provinces", e, "epidemic", p->epidemic ? "yes" : "no");
    }
    for (const auto& [id, by] : s.sea_fleets) put("seas", id, "fleets", CountsRow(by));
    for (const auto& [id, n] : s.nations) {
      put("nations", id, "government", n.government);
      put("nations", id, "capital",
          std::to_string(n.capital) + (n.original_capital ? " (for " + std::to_string(n.original_capital) + ")" : ""));
      put("nations", id, "eliminated", n.eliminated ? "yes" : "no");
      put("nations", id, "provinces", std::to_string(ProvincesOf(s, id)));
      put("nations", id, "armies", std::to_string(s.ArmiesOf(id)));
      put("nations", id, "fleets", std::to_string(s.FleetsOf(id)));
      put("nations", id, "army_limit", std::to_string(ArmyLimitOf(s, id).total));
      put("nations", id, "research", n.research.empty() ? "-" : n.research + " " + std::to_string(n.progress));
      put("nations", id, "techs", JoinRow(std::vector<std::string>(n.techs.begin(), n.techs.end())));
      put("nations", id, "reforms", JoinRow(std::vector<std::string>(n.reforms.begin(), n.reforms.end())));
      put("nations", id, "reform", n.reform.empty() ? "-" : n.reform);
      put("nations", id, "rally_points", IntsRow(n.rally_points));
      put("nations", id, "domination_turns", std::to_string(n.domination_turns));
      std::vector<std::string> wars, treaties;
      for (const auto& [a, b] : s.wars) {
        if (a == id) wars.push_back(b);
        if (b == id) wars.push_back(a);
      }
      for (const auto& [a, b, k] : s.treaties) {
        if (a == id) treaties.push_back(k + " " + b);
        if (b == id) treaties.push_back(k + " " + a);
      }
      put("nations", id, "wars", JoinRow(wars));
      put("nations", id, "treaties", JoinRow(treaties));
    }
  }
  std::vector<std::string_view> ViewNames() const override { return {"game", "provinces", "seas", "nations"}; }
  std::vector<std::string_view> ViewProjections(std::string_view) const override { return {"y1820"}; }
};

}  // namespace

const GameKind& Kind() {
  static const Y1820Kind kind;
  return kind;
}

}  // namespace adjutant::rules::y1820
