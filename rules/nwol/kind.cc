#include "rules/nwol/kind.h"

#include <algorithm>
#include <set>

#include "base/money.h"
#include "projections/fleet.h"
#include "projections/navalmap.h"
#include "projections/roster.h"
#include "projections/treasury.h"
#include "projections/visibility.h"
#include "rules/events.h"
#include "rules/nwol/intake.h"
#include "rules/pate/directives.h"
#include "projections/summary.h"
#include "rules/pate/map.h"
#include "rules/pate/orders.h"
#include "rules/pate/phases.h"
#include "rules/sow/calendar.h"
#include "rules/sow/directives.h"
#include "rules/sow/orders.h"
#include "rules/sow/outcomes.h"
#include "rules/sow/phases.h"
#include "rules/sow/scenario.h"
#include "schema/pate_generated.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/sow_generated.h"
#include "schema/values.h"

namespace adjutant::rules::nwol {

namespace P = projections;

namespace {

const Actor kAdjudicator{ActorKind::kAdjudicator, "", ""};

const P::TreasuryState& TreasuryOf(const State& st) { return Get<P::Treasury>(st).state(); }
const P::FleetState& FleetOf(const State& st) { return Get<P::Fleet>(st).state(); }

// The book an NWOL phase or directive is under: PATE's naval phases and
// directives, SOW's the rest.
std::string_view BookOf(bool pate) { return pate ? pate::kRuleset : sow::kRuleset; }

class NwolKind final : public GameKind {
 public:
  std::string_view name() const override { return "nwol"; }
  // The NWOL game is played with sow, pate or both (a scenario naming
  // neither has nothing to adjudicate yet, and is one too).
  bool Plays(std::span<const std::string> rulesets) const override {
    return std::all_of(rulesets.begin(), rulesets.end(),
                       [](const std::string& r) { return r == sow::kRuleset || r == pate::kRuleset; });
  }
  std::vector<std::string_view> Rulesets() const override { return {sow::kRuleset, pate::kRuleset}; }

  std::string_view MapNoun() const override { return "naval map"; }
  std::string_view MapTable() const override { return "NavalMap"; }
  Status Prepare(const fb::Scenario& sc, std::optional<std::vector<uint8_t>> map, GameStart* g,
                 bool* map_error) const override {
    std::set<std::string> map_areas;
    if (map) {
      // The naval map, recorded with the game (PATE 1).
      auto loaded = pate::NavalMap::Load(*flatbuffers::GetRoot<fb::NavalMap>(map->data()));
      if (!loaded.ok()) {
        *map_error = true;
        return loaded.status();
      }
      ADJ_RETURN_IF_ERROR(pate::CheckScenarioAgainstMap(sc, *loaded));
      for (const auto& [code, area] : loaded->areas()) map_areas.insert(code);
      g->more.push_back(pate::MapDefinedDraft(g->at, std::move(*map)));
    }
    return sow::CheckScenario(sc, map_areas);
  }
  // A state's monarch and ministers (SOW 2.1; the Foreign Minister's notice,
  // SOW 2.5) and a ship's commander and deputy (PATE 2.3).
  std::vector<Office> Offices(const fb::Scenario& sc) const override {
    std::optional<std::set<std::string>> states, ships;
    if (const auto* sow = sc.sow()) {
      states.emplace();
      ships.emplace();
      if (sow->states()) for (const auto* s : *sow->states()) states->insert(schema::Str(s->id()));
      if (sow->ships()) for (const auto* s : *sow->ships()) ships->insert(schema::Str(s->id()));
    }
    std::vector<Office> out;
    for (const char* office : {"monarch", "prime", "treasury", "war", "naval"}) out.push_back({office, "state", "SOW 2.1", states});
    out.push_back({"foreign", "state", "SOW 2.5", states});
    for (const char* office : {"commander", "deputy"}) out.push_back({office, "ship", "PATE 2.3", ships});
    return out;
  }
  Result<std::string> DescribeMap(const std::vector<uint8_t>& doc) const override {
    // PATE 1 and 6: a naval map.
    auto m = pate::NavalMap::Load(*flatbuffers::GetRoot<fb::NavalMap>(doc.data()));
    if (!m.ok()) return m.status();
    int areas[2] = {0, 0}, edge[2] = {0, 0}, ports[2] = {0, 0}, straits = 0;
    for (const auto& [code, a] : m->areas()) {
      areas[static_cast<int>(a.map)]++;
      edge[static_cast<int>(a.map)] += a.atlantic;
    }
    for (const auto& [name, p] : m->ports()) {
      ports[static_cast<int>(m->Area(p.sea_area)->map)]++;
      straits += !p.strait_area.empty();
    }
    return "a sound map: Europe " + std::to_string(areas[0]) + " sea areas (" + std::to_string(edge[0]) +
           " on the Atlantic edge) and " + std::to_string(ports[0]) + " ports; America " + std::to_string(areas[1]) +
           " sea areas (" + std::to_string(edge[1]) + " on the edge) and " + std::to_string(ports[1]) + " ports; " +
           std::to_string(straits) + " strait ports";
  }
  bool PartOfCreation(const fb::Event& e) const override {
    const auto* pe = e.payload_as_PateEvent();
    return pe && pe->body_type() == fb::PateEventBody_MapDefined;
  }

  Result<KindPhase> Next(const State& st) const override {
    const auto& ts = TreasuryOf(st);
    if (!ts.active) {
      return Status::InvalidArgument("the game has no ruleset to adjudicate yet (its scenario has no sow or y1820 section)");
    }
    sow::NextPhase n = sow::Next(ts);
    return KindPhase{n.at, n.name, sow::TurnName(n.at.turn, n.season_kind), n.last_of_turn};
  }
  bool Ended(const State&) const override { return false; }
  Result<TurnPhase> OrderPosition(const State& st) const override {
    const auto& ts = TreasuryOf(st);
    if (!ts.active) return Status::InvalidArgument("the game takes no orders yet");
    return sow::OrderPosition(ts);
  }
  TurnPhase DirectivePosition(const State& st) const override {
    const auto& ts = TreasuryOf(st);
    return ts.active ? sow::DirectivePosition(ts) : Get<P::Summary>(st).state().last_at;
  }
  Progress ProgressOf(const State& st) const override {
    const auto& ts = TreasuryOf(st);
    return {ts.turn, ts.phase_done};
  }
  bool TurnOver(const State& st, const Turn& t) const override {
    const auto& ts = TreasuryOf(st);
    return ts.active && ts.turn == t && ts.phase_done >= sow::LastPhaseOf(ts, t);
  }
  // SOW 1.2: a season's end takes no orders; it runs with the turn before it.
  bool NextRunsWithTurnBefore(const State& st) const override {
    const auto& ts = TreasuryOf(st);
    if (!ts.active) return false;
    return sow::IsSeasonEnd(sow::Next(ts).at.turn) && !sow::IsSeasonEnd(ts.turn);
  }
  Result<DiceWindow> DiceWindowOf(const State& st) const override {
    const auto& ts = TreasuryOf(st);
    if (!ts.active) return Status::InvalidArgument("dice are committed to in games with turns (a sow scenario)");
    const bool done = ts.phase_done >= sow::LastPhaseOf(ts, ts.turn);
    return DiceWindow{done ? sow::Next(ts).at.turn : ts.turn, !done && ts.phase_done > 0, ts.turn, done};
  }

  Status RunPhase(PhaseWriter& w, const KindPhase& phase, DiceSource& dice) const override {
    const sow::NextPhase next = sow::Next(w.treasury());
    if (next.at != phase.at) return Status::Corruption("the phase asked for is not the game's next");
    const bool naval_phase = !sow::IsSeasonEnd(next.at.turn) && next.at.phase >= sow::kRepair;
    const auto book = w.Under(BookOf(naval_phase));
    Draft started = PhaseStartedDraft(next.at, next.name);
    started.actor = kAdjudicator;
    w.Emit(std::move(started));
    if (naval_phase) {
      // PATE 3.2: the naval phases, with the branch's dice.
      const fb::NavalMap* doc = w.naval_map();
      if (!doc) return Status::Corruption("a naval phase in a game without a naval map");
      auto map = pate::NavalMap::Load(*doc);
      if (!map.ok()) return map.status();
      ADJ_RETURN_IF_ERROR(pate::RunPhase(w, next.at, *map, dice, next.season_kind));
    } else {
      sow::Outcomes out(w, next.at);
      sow::RunPhase(out, next);
    }
    Draft done = PhaseCompletedDraft(next.at, next.name, w.Digests(), w.Versions());
    w.Emit(std::move(done));
    return Status::Ok();
  }

  std::optional<size_t> FirstNotHis(const State& st, const std::string& person,
                                    const std::vector<const fb::OrderItem*>& items) const override {
    const auto& roster = Get<P::Roster>(st);
    for (size_t i = 0; i < items.size(); ++i) {
      if (!roster.Find(person) || !MayGive(TreasuryOf(st), FleetOf(st), roster, person, *items[i])) return i;
    }
    return std::nullopt;
  }
  Status CheckSender(const State&, const std::string& game, const std::string&,
                     const std::vector<const fb::OrderItem*>& items) const override {
    for (const auto* i : items) {
      if (i->body_type() == fb::OrderBody_Y1820Order || i->body_type() == fb::OrderBody_DogOrder) {
        return Status::InvalidArgument(std::string(fb::EnumNameOrderBody(i->body_type())) + ": game '" + game +
                                       "' plays sow and pate");
      }
    }
    return Status::Ok();
  }
  Status Submit(PhaseWriter& w, const TurnPhase& at, const std::string& person,
                const std::vector<const fb::OrderItem*>& items) const override {
    const P::Roster roster = w.roster();
    std::optional<pate::NavalMap> map;
    if (const fb::NavalMap* doc = w.naval_map()) {
      auto loaded = pate::NavalMap::Load(*doc);
      if (!loaded.ok()) return loaded.status();
      map = std::move(loaded).value();
    }
    nwol::Submit(w, at, roster, map ? &*map : nullptr, person, items);
    return Status::Ok();
  }

  // Issue 20: a ship with no order of her own follows the ship she is
  // attached to (PATE 4.2), else takes the default orders (PATE 4.11; in
  // peace and truce she may go back to her base, 6.12); a minister who sent
  // none leaves his state's standing supply orders standing (SOW 6.5).
  std::vector<MissingOrders> OrdersNotGiven(const State& st, std::span<const std::string> roles,
                                            const std::set<std::string>& stood,
                                            const std::set<std::string>& roles_stood) const override {
    const auto& ts = TreasuryOf(st);
    const auto& fleet = FleetOf(st);
    std::vector<MissingOrders> out;
    if (!ts.active) return out;
    const P::SeasonKind season = sow::Next(ts).season_kind;  // the coming turn's
    for (const std::string& role : roles) {
      const auto parsed = P::Role::Parse(role);
      if (!parsed) continue;
      const std::string &who = parsed->holder, &as = parsed->title;
      if (as == "commander" || as == "deputy") {
        auto ship = fleet.ships.find(who);
        // Off the map (inactive, crossing the Atlantic): she takes no orders (PATE 2.6, 6.11).
        if (ship == fleet.ships.end() || !ship->second.on_map()) continue;
        if (stood.count(ship->second.state + "/ship/" + who)) continue;
        const std::string& leader = ship->second.attached_to;
        auto lead = leader.empty() ? fleet.ships.end() : fleet.ships.find(leader);
        if (lead != fleet.ships.end() && stood.count(lead->second.state + "/ship/" + leader)) {
          out.push_back({role, who, "PATE 4.2", "no orders of her own: she followed the orders of " + leader +
                                                    ", the ship she is attached to"});
        } else if (season != P::SeasonKind::War) {
          out.push_back({role, who, "PATE 6.12",
                         "no orders: in a peace or truce turn she stays, or may go back to her base"});
        } else {
          out.push_back({role, who, "PATE 4.11",
                         "no orders: the default orders — she stays where she is, keeps her attachment, loads and "
                         "unloads nothing, accepts contact and combat, joins allies, takes the leeward gauge, keeps "
                         "line ahead and fires at rigging"});
        }
        continue;
      }
      if (sow::RoleRank(as) == 0 || roles_stood.count(role)) continue;
      int standing = 0;
      for (const auto& [key, order] : ts.standing) standing += key.first == who;
      std::string text = "no order of yours stood for the turn: nothing was built, bought, repaired or sent on your word";
      if (standing) text += "; " + who + "'s " + std::to_string(standing) + " standing supply order" +
                            (standing == 1 ? "" : "s") + " stood";
      out.push_back({role, who, standing ? "SOW 6.5" : "SOW 2.1", text});
    }
    return out;
  }

  Status CheckDirective(const State& st, const std::string& game, const fb::DirectiveFile& file,
                        const RulesVersions& versions) const override {
    const auto& ts = TreasuryOf(st);
    switch (file.body_type()) {
      case fb::DirectiveBody_Ruling:
        return Status::Ok();
      case fb::DirectiveBody_SowDirective:
        break;
      case fb::DirectiveBody_PateDirective:
        return pate::CheckDirective(ts, FleetOf(st), Get<P::Roster>(st), *file.body_as_PateDirective(), versions.Of("pate"));
      default:
        return Status::InvalidArgument(std::string(fb::EnumNameDirectiveBody(file.body_type())) + ": game '" + game +
                                       "' plays sow and pate: it takes the GA's rulings, SowDirectives and PateDirectives");
    }
    const fb::SowDirective* sd = file.body_as_SowDirective();
    ADJ_RETURN_IF_ERROR(sow::CheckDirective(ts, FleetOf(st), *sd));
    // A ship the GA puts at sea goes to a sea area of the game's naval map.
    if (const auto* mv = sd->body_as_MoveShip(); mv && !ts.cities.count(mv->location()->str())) {
      if (const fb::NavalMap* doc = Get<P::NavalMapView>(st).map()) {
        auto map = pate::NavalMap::Load(*doc);
        if (!map.ok()) return map.status();
        if (!map->Area(mv->location()->str())) {
          return Status::InvalidArgument("location: '" + mv->location()->str() +
                                         "' is neither a port nor a sea area of the game's naval map");
        }
      }
    }
    return Status::Ok();
  }
  Status RecordDirective(PhaseWriter& w, const TurnPhase& at, Draft d, const fb::DirectiveFile& file) const override {
    const fb::SowDirective* sd = file.body_as_SowDirective();
    const fb::PateDirective* pd = file.body_as_PateDirective();
    const P::TreasuryState before = w.treasury();
    const P::FleetState fleet_before = w.fleet();
    const auto book = w.Under(sd || pd ? BookOf(pd != nullptr) : "");
    w.Emit(std::move(d));
    if (sd) {
      sow::Outcomes out(w, at);
      sow::DirectiveConsequences(out, before, fleet_before, *sd, file.reason()->str());
    }
    if (pd) pate::DirectiveConsequences(w, at, *pd);
    return Status::Ok();
  }

  void Flatten(const State& st, const PutRow& put) const override {
    const P::TreasuryState& s = TreasuryOf(st);
    put("treasury", "game", "turn", s.turn.ToString());
    put("treasury", "game", "phase_done", std::to_string(s.phase_done));
    for (const auto& [id, a] : s.states) {
      put("treasury", id, "balance", FormatCc(a.treasury_cc));
      put("treasury", id, "manpower", std::to_string(a.manpower));
      put("treasury", id, "men_lost", std::to_string(a.men_lost));
    }
    for (const auto& [name, c] : s.cities) {
      put("cities", name, "controller", c.controller);
      put("cities", name, "supplies", std::to_string(c.supplies));
      put("cities", name, "stores", std::to_string(c.stores));
      put("cities", name, "batteries",
          std::to_string(c.batteries) + "/" + std::to_string(c.batteries_damaged) + " damaged");
    }
    for (const auto& [id, u] : s.units) {
      put("units", id, "state", u.state);
      put("units", id, "men", std::to_string(u.men));
      put("units", id, "where", u.aboard.empty() ? u.city : "aboard " + u.aboard);
    }
    for (const auto& [id, sh] : FleetOf(st).ships) {
      std::string where =
          sh.location + (sh.in_port ? " harbour" : sh.coastal ? " coastal" : " area " + std::to_string(sh.tactical));
      if (sh.crossing_turns) where = "Atlantic to " + sh.location;
      if (!sh.active) where += " (inactive)";
      put("fleet", id, "state", sh.state);
      put("fleet", id, "where", where);
      put("fleet", id, "damage", "hull " + std::to_string(sh.hull) + ", rigging " + std::to_string(sh.rigging));
      put("fleet", id, "men", std::to_string(sh.crew) + " crew, " + std::to_string(sh.marines) + " marines");
      put("fleet", id, "stores", std::to_string(sh.stores));
      put("fleet", id, "experience", std::to_string(sh.experience));
      put("fleet", id, "mission", fb::EnumNameShipMission(static_cast<fb::ShipMission>(sh.mission)));
      put("fleet", id, "attached_to", sh.attached_to);
      if (!sh.cargo_units.empty() || sh.cargo_supplies) {
        put("fleet", id, "cargo", JoinRow(sh.cargo_units) + " + " + std::to_string(sh.cargo_supplies) + " supplies");
      }
    }
    for (const auto& [observer, obs] : Get<P::Visibility>(st).state().by_ship) {
      put("visibility", observer, "observations",
          std::to_string(obs.size()) + (obs.empty() ? "" : ", last in " + obs.back().turn.ToString()));
    }
  }
  std::vector<std::string_view> ViewNames() const override {
    return {"treasury", "cities", "units", "fleet", "visibility"};
  }
  std::vector<std::string_view> ViewProjections(std::string_view view) const override {
    if (view == "fleet") return {"fleet"};
    if (view == "visibility") return {"visibility"};
    return {"treasury"};  // treasury, cities, units
  }
};

}  // namespace

const GameKind& Kind() {
  static const NwolKind kind;
  return kind;
}

}  // namespace adjutant::rules::nwol
