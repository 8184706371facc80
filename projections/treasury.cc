#include "projections/treasury.h"

#include "projections/archive.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::projections {

static_assert(static_cast<int>(UnitType::CQ) == fb::SowUnitType_CQ);
static_assert(static_cast<int>(ShipType::TR) == fb::SowShipType_TR);
static_assert(static_cast<int>(CityKind::OffMapPort) == fb::SowCityKind_OffMapPort);
static_assert(static_cast<int>(SeasonKind::Truce) == fb::SeasonKind_Truce);
static_assert(static_cast<int>(Relation::Alliance) == fb::Relation_Alliance);
static_assert(static_cast<int>(Mission::IgnoreCommerce) == fb::ShipMission_IgnoreCommerce);
static_assert(static_cast<int>(RepairKind::Fort) == fb::RepairKind_Fort);

// ---- canonical encoding ------------------------------------------------------
template <class A> void Visit(A& a, Square& q) { a(q.x, q.y); }
template <class A> void Visit(A& a, StatementLine& l) {
  a(l.turn, l.phase, l.amount_cc, l.rule, l.item, l.subject, l.detail, l.order_seq);
}
template <class A> void Visit(A& a, ManpowerEntry& l) { a(l.turn, l.pool, l.city, l.men, l.rule, l.item, l.subject); }
template <class A> void Visit(A& a, Refused& r) { a(r.order_seq, r.slot, r.rule, r.reason); }
template <class A> void Visit(A& a, StateAcct& s) {
  a(s.id, s.name, s.nation, s.opening_cc, s.treasury_cc, s.credits_cc, s.debits_cc, s.opening_men, s.manpower,
    s.men_growth, s.men_lost, s.statement, s.manpower_lines, s.refused, s.notes);
}
template <class A> void Visit(A& a, City& c) {
  a(c.name, c.nation, c.controller, c.level, c.kind, c.square, c.sea_area, c.dockyards, c.fort_level, c.fort_start,
    c.batteries, c.batteries_damaged, c.batteries_destroyed, c.militia_pool, c.transport_pool, c.besieged,
    c.enemy_this_campaign, c.supplies, c.stores);
}
template <class A> void Visit(A& a, Unit& u) {
  a(u.id, u.state, u.type, u.men, u.batteries, u.active, u.square, u.city, u.raised_in, u.aboard);
}
template <class A> void Visit(A& a, CargoOp& c) { a(c.port, c.unit, c.unload, c.supplies, c.order_seq); }
// A ship being built (Build::ship); the fleet (projections/fleet.cc) lists
// the same fields for the ships afloat.
template <class A> void Visit(A& a, Ship& s) {
  a(s.id, s.state, s.type, s.crew, s.frigates, s.capacity, s.base, s.location, s.in_port, s.coastal, s.active,
    s.mission, s.crewed_on, s.name, s.marines, s.quality, s.morale, s.experience, s.stores, s.hull, s.rigging,
    s.tactical, s.attached_to, s.crossing_turns, s.reactivating, s.windward, s.start_location, s.moved_on,
    s.cargo_units, s.cargo_supplies, s.loading);
}
template <class A> void Visit(A& a, Wind& w) { a(w.from, w.strength); }
template <class A> void Visit(A& a, Build& b) {
  a(b.id, b.state, b.city, b.is_ship, b.unit, b.ship, b.war_turns, b.done, b.started, b.order_seq);
}
template <class A> void Visit(A& a, Return& r) {
  a(r.state, r.pool, r.city, r.men, r.due_year, r.due_season, r.rule, r.subject);
}
template <class A> void Visit(A& a, StandingOrder& s) { a(s.supplies, s.forward_to, s.forward, s.order_seq); }
template <class A> void Visit(A& a, Repair& r) { a(r.city, r.state, r.what, r.started, r.paid_cc); }
template <class A> void Visit(A& a, PendingOrder& o) { a(o.slot, o.person, o.role, o.event); }
template <class A> void Visit(A& a, TreasuryState& s) {
  a(s.active, s.last_seq, s.turn, s.phase_done, s.season_kind, s.season_of_kind, s.campaign_ended, s.season_plan, s.states, s.cities,
    s.units, s.relations, s.blockades, s.embargoes, s.trade_bp, s.builds, s.returns, s.standing, s.repairs,
    s.orders, s.piracy, s.winds, s.naval, s.started, s.enemy_entered, s.enemy_entered_named);
}

std::string Treasury::Encode() const { return EncodeState(s_); }

Status Treasury::Decode(std::string_view bytes) { return DecodeState(bytes, &s_, name()); }

// ---- queries -----------------------------------------------------------------
Relation TreasuryState::RelationOf(const std::string& a, const std::string& b) const {
  auto key = a < b ? std::make_pair(a, b) : std::make_pair(b, a);
  auto it = relations.find(key);
  return it == relations.end() ? Relation::Neutral : it->second;
}

const StateAcct* TreasuryState::State(const std::string& id) const {
  auto it = states.find(id);
  return it == states.end() ? nullptr : &it->second;
}

// ---- the fold ----------------------------------------------------------------
namespace {

using schema::Str;

// SOW 7.1: unit `u`, where it now stands, has entered each city whose
// controller is at war with its state and that it is in: as sow 8-10 read
// it (enemy_entered), every city on its square (an off-map port has none)
// or named as its city; as sow 11 reads it (enemy_entered_named), the city
// it names, else every city on its square.
void MarkEnemyEntry(TreasuryState& s, const Unit& u) {
  if (!u.aboard.empty()) return;
  for (const auto& [name, c] : s.cities) {
    const bool on_square = c.kind != CityKind::OffMapPort && u.square == c.square;
    const bool there = u.city == name || on_square;
    if (there && u.state != c.controller &&
        s.RelationOf(u.state, c.controller) == Relation::War) {
      s.enemy_entered.insert(name);
      if (u.city.empty() ? on_square : u.city == name) s.enemy_entered_named.insert(name);
    }
  }
}

// SOW 7.1: every unit standing in a city at war with its controller has
// been in it this campaign (at the scenario's start, when a war is declared
// over it, and when a new campaign begins with it still there).
void MarkEnemiesPresent(TreasuryState& s) {
  for (const auto& [id, u] : s.units) MarkEnemyEntry(s, u);
}

// SOW 7.1: a city changing hands has had an enemy in it.
void ChangeController(TreasuryState& s, City& c, const std::string& to) {
  if (c.controller != to) {
    s.enemy_entered.insert(c.name);
    s.enemy_entered_named.insert(c.name);
  }
  c.controller = to;
}
Square Sq(const fb::Square* q) { return q ? Square{q->x(), q->y()} : Square{}; }
Turn TurnOf(const fb::Event& e) { return schema::TurnOf(e.turn()); }

void LoadScenario(TreasuryState& s, const fb::SowScenario& sc) {
  s.active = true;
  s.season_kind = static_cast<SeasonKind>(sc.season_kind());
  s.piracy = sc.piracy();
  if (sc.states()) {
    for (const auto* d : *sc.states()) {
      StateAcct a;
      a.id = d->id()->str();
      a.name = Str(d->name());
      a.nation = d->nation()->str();
      a.opening_cc = a.treasury_cc = d->treasury_cc();
      a.opening_men = a.manpower = d->manpower();
      s.states[a.id] = std::move(a);
    }
  }
  if (sc.cities()) {
    for (const auto* d : *sc.cities()) {
      City c;
      c.name = d->name()->str();
      c.nation = d->nation()->str();
      c.controller = d->controller()->str();
      c.level = d->level();
      c.kind = static_cast<CityKind>(d->kind());
      c.square = Sq(d->square());
      c.sea_area = Str(d->sea_area());
      c.dockyards = d->dockyards();
      c.fort_level = d->fort_level();
      c.fort_start = d->fort_start();
      c.batteries = d->batteries();
      c.batteries_damaged = d->batteries_damaged();
      c.batteries_destroyed = d->batteries_destroyed();
      c.militia_pool = d->militia_pool();
      c.transport_pool = d->transport_pool();
      c.besieged = d->besieged();
      c.supplies = d->supplies();
      c.stores = d->stores();
      s.cities[c.name] = std::move(c);
    }
  }
  if (sc.units()) for (const auto* d : *sc.units()) s.units[d->id()->str()] = UnitFromDef(*d);
  if (sc.relations()) {
    for (const auto* r : *sc.relations()) {
      std::string a = r->a()->str(), b = r->b()->str();
      s.relations[a < b ? std::make_pair(a, b) : std::make_pair(b, a)] = static_cast<Relation>(r->relation());
    }
  }
  if (sc.trade()) {
    for (const auto* t : *sc.trade()) s.trade_bp[{t->nation()->str(), t->partner()->str()}] = t->share_bp();
  }
  MarkEnemiesPresent(s);
}

// `version`: the sow rules version the directive was recorded under (its
// consequences for a lost or moved ship changed in version 4, for a moved
// unit aboard in version 13).
void ApplyDirective(TreasuryState& s, const fb::SowDirective& d, uint32_t version) {
  switch (d.body_type()) {
    case fb::SowDirectiveBody_SetSeasonKind: {
      auto* x = d.body_as_SetSeasonKind();
      s.season_plan[{x->year(), x->season()}] = static_cast<SeasonKind>(x->kind());
      break;
    }
    case fb::SowDirectiveBody_EndCampaign:
      s.campaign_ended = true;
      break;
    case fb::SowDirectiveBody_SetRelation: {
      auto* x = d.body_as_SetRelation();
      std::string a = x->a()->str(), b = x->b()->str();
      s.relations[a < b ? std::make_pair(a, b) : std::make_pair(b, a)] = static_cast<Relation>(x->relation());
      MarkEnemiesPresent(s);
      break;
    }
    case fb::SowDirectiveBody_DeclareBlockade: {
      auto* x = d.body_as_DeclareBlockade();
      auto key = std::make_pair(x->by()->str(), x->against()->str());
      if (x->lift()) s.blockades.erase(key); else s.blockades.insert(key);
      break;
    }
    case fb::SowDirectiveBody_DeclareEmbargo: {
      auto* x = d.body_as_DeclareEmbargo();
      auto key = std::make_pair(x->by()->str(), x->against()->str());
      if (x->lift()) s.embargoes.erase(key); else s.embargoes.insert(key);
      break;
    }
    case fb::SowDirectiveBody_SetCityControl: {
      auto* x = d.body_as_SetCityControl();
      auto it = s.cities.find(x->city()->str());
      if (it != s.cities.end()) ChangeController(s, it->second, x->controller()->str());
      break;
    }
    case fb::SowDirectiveBody_SetSiege: {
      auto* x = d.body_as_SetSiege();
      auto it = s.cities.find(x->city()->str());
      if (it != s.cities.end()) it->second.besieged = x->besieged();
      break;
    }
    case fb::SowDirectiveBody_PlaceUnit: {
      Unit u = UnitFromDef(*d.body_as_PlaceUnit()->unit());
      s.units[u.id] = u;
      MarkEnemyEntry(s, u);
      break;
    }
    case fb::SowDirectiveBody_MoveUnit: {
      auto* x = d.body_as_MoveUnit();
      auto it = s.units.find(x->unit()->str());
      if (it != s.units.end()) {
        it->second.square = Sq(x->square());
        it->second.city = Str(x->city());
        it->second.active = x->active();
        if (version >= kMoveUnitLandsVersion) it->second.aboard.clear();
        MarkEnemyEntry(s, it->second);
      }
      break;
    }
    case fb::SowDirectiveBody_DestroyUnit:
      s.units.erase(d.body_as_DestroyUnit()->unit()->str());
      break;
    // A ship moved by the GA is the fleet's (projections/fleet.cc).
    case fb::SowDirectiveBody_MoveShip:
      break;
    case fb::SowDirectiveBody_LoseShip: {
      // The ship is the fleet's; the troops aboard are lost with her (PATE 9).
      std::string id = d.body_as_LoseShip()->ship()->str();
      if (version >= 4) std::erase_if(s.units, [&](const auto& kv) { return kv.second.aboard == id; });
      break;
    }
    case fb::SowDirectiveBody_SetFortState: {
      auto* x = d.body_as_SetFortState();
      auto it = s.cities.find(x->city()->str());
      if (it != s.cities.end()) {
        it->second.fort_level = x->fort_level();
        it->second.batteries = x->batteries();
        it->second.batteries_damaged = x->batteries_damaged();
        it->second.batteries_destroyed = x->batteries_destroyed();
      }
      break;
    }
    case fb::SowDirectiveBody_EnemyInCity: {
      auto it = s.cities.find(d.body_as_EnemyInCity()->city()->str());
      if (it != s.cities.end()) it->second.enemy_this_campaign = true;
      break;
    }
    // Corrections reach the state as the TreasuryLine / ManpowerLine the
    // rules record beside them, so every balance stays a sum of its lines.
    case fb::SowDirectiveBody_CorrectTreasury:
    case fb::SowDirectiveBody_CorrectManpower:
    case fb::SowDirectiveBody_NONE:
      break;
  }
}

void ApplyManpower(TreasuryState& s, const fb::ManpowerLine& m, const Turn& turn) {
  auto st = s.states.find(m.state()->str());
  if (st == s.states.end()) return;
  std::string pool = m.pool()->str();
  if (pool == "national") {
    st->second.manpower += m.men();
  } else {
    auto c = s.cities.find(Str(m.city()));
    if (c != s.cities.end()) {
      if (pool == "militia") c->second.militia_pool += static_cast<int32_t>(m.men());
      if (pool == "transport") c->second.transport_pool += static_cast<int32_t>(m.men());
    }
  }
  if (pool == "national") {
    switch (m.item()) {
      case fb::ManpowerItem_Growth:
      case fb::ManpowerItem_Correction: st->second.men_growth += m.men(); break;
      case fb::ManpowerItem_Attrition:
      case fb::ManpowerItem_Lost: st->second.men_lost -= m.men(); break;
      default: break;
    }
  }
  if (m.item() == fb::ManpowerItem_Return) {
    // The pending return this line pays out.
    for (auto it = s.returns.begin(); it != s.returns.end(); ++it) {
      if (it->state == m.state()->str() && it->pool == pool && it->city == Str(m.city()) &&
          it->subject == Str(m.subject()) && it->men == m.men()) {
        s.returns.erase(it);
        break;
      }
    }
  }
  st->second.manpower_lines.push_back(
      {turn, pool, Str(m.city()), m.men(), m.rule()->str(), fb::EnumNameManpowerItem(m.item()), Str(m.subject())});
}

void Note(TreasuryState& s, const std::string& state, std::string text) {
  auto it = s.states.find(state);
  if (it != s.states.end()) it->second.notes.push_back(std::move(text));
}

std::string OwnerOf(const TreasuryState& s, const std::string& id) {
  if (auto u = s.units.find(id); u != s.units.end()) return u->second.state;
  if (auto b = s.builds.find(id); b != s.builds.end()) return b->second.state;
  return "";
}

// `version`: the sow rules version the outcome was recorded under (a ship
// removed takes the units aboard with her since version 5, SOW 4.10).
void ApplyOutcome(TreasuryState& s, const fb::SowEvent& e, const Turn& turn, uint16_t phase, uint32_t version) {
  switch (e.body_type()) {
    case fb::SowEventBody_TreasuryLine: {
      auto* x = e.body_as_TreasuryLine();
      auto st = s.states.find(x->state()->str());
      if (st == s.states.end()) break;
      auto& a = st->second;
      a.treasury_cc += x->amount_cc();
      if (x->amount_cc() >= 0) a.credits_cc += x->amount_cc(); else a.debits_cc -= x->amount_cc();
      a.statement.push_back({turn, phase, x->amount_cc(), x->rule()->str(), x->item()->str(), Str(x->subject()),
                             Str(x->detail()), x->order_seq()});
      break;
    }
    case fb::SowEventBody_ManpowerLine:
      ApplyManpower(s, *e.body_as_ManpowerLine(), turn);
      break;
    case fb::SowEventBody_MenLost: {
      auto* x = e.body_as_MenLost();
      auto st = s.states.find(x->state()->str());
      if (st != s.states.end()) st->second.men_lost += x->men();
      Note(s, x->state()->str(), std::to_string(x->men()) + " men of " + Str(x->subject()) + " lost (" + x->rule()->str() + ")");
      break;
    }
    case fb::SowEventBody_ReturnScheduled: {
      auto* x = e.body_as_ReturnScheduled();
      s.returns.push_back({x->state()->str(), x->pool()->str(), Str(x->city()), x->men(), x->due_year(),
                           x->due_season(), x->rule()->str(), Str(x->subject())});
      break;
    }
    case fb::SowEventBody_BuildStarted: {
      auto* x = e.body_as_BuildStarted();
      Build b;
      b.id = x->build_id()->str();
      b.state = x->state()->str();
      b.city = x->city()->str();
      b.is_ship = x->ship() != nullptr;
      if (x->unit()) b.unit = UnitFromDef(*x->unit());
      if (x->ship()) b.ship = ShipFromDef(*x->ship());
      b.war_turns = x->war_turns();
      b.started = turn;
      b.order_seq = x->order_seq();
      s.builds[b.id] = std::move(b);
      break;
    }
    case fb::SowEventBody_BuildProgressed: {
      auto* x = e.body_as_BuildProgressed();
      auto it = s.builds.find(x->build_id()->str());
      if (it != s.builds.end()) it->second.done = x->war_turns_done();
      break;
    }
    case fb::SowEventBody_BuildCompleted: {
      auto it = s.builds.find(e.body_as_BuildCompleted()->build_id()->str());
      if (it == s.builds.end()) break;
      Note(s, it->second.state, it->second.id + " completed in " + it->second.city + " (SOW 4.1)");
      // The fleet makes the finished ship from its own record of the build.
      if (!it->second.is_ship) s.units[it->second.unit.id] = it->second.unit;
      s.builds.erase(it);
      break;
    }
    case fb::SowEventBody_UnitReinforced: {
      auto* x = e.body_as_UnitReinforced();
      auto it = s.units.find(x->unit()->str());
      if (it != s.units.end()) {
        it->second.men += x->men();
        it->second.batteries = static_cast<uint8_t>(it->second.batteries + x->batteries());
      }
      break;
    }
    case fb::SowEventBody_ShipCrewed:  // the fleet's
      break;
    case fb::SowEventBody_UnitDisbanded: {
      auto* x = e.body_as_UnitDisbanded();
      std::string id = x->unit()->str();
      Note(s, OwnerOf(s, id), id + " disbanded: " + std::to_string(x->men_returning()) + " men to return, " +
                                  std::to_string(x->men_lost()) + " lost, " + std::to_string(x->vp_penalty()) +
                                  " VP penalty (SOW 4.9)");
      s.units.erase(id);
      break;
    }
    case fb::SowEventBody_ShipRemoved: {
      // The ship is the fleet's; the note goes to the state whose order
      // removed her (its slot is "state/remove/ship", SOW 4.10).
      auto* x = e.body_as_ShipRemoved();
      std::string id = x->ship()->str(), owner;
      if (auto o = s.orders.find(x->order_seq()); o != s.orders.end()) {
        owner = o->second.slot.substr(0, o->second.slot.find('/'));
      }
      Note(s, owner, id + " removed from the game (SOW 4.10)");
      // Version 5: the units aboard are lost with her (their men are
      // recorded lost beside this event).
      if (version >= 5) std::erase_if(s.units, [&](const auto& kv) { return kv.second.aboard == id; });
      break;
    }
    case fb::SowEventBody_SuppliesBought: {
      auto* x = e.body_as_SuppliesBought();
      auto it = s.cities.find(x->city()->str());
      if (it != s.cities.end()) {
        it->second.supplies += x->supplies();
        it->second.stores += x->stores();
      }
      break;
    }
    case fb::SowEventBody_StandingOrderSet: {
      auto* x = e.body_as_StandingOrderSet();
      s.standing[{x->state()->str(), x->city()->str()}] = {x->supplies(), Str(x->forward_to()), x->forward(),
                                                             x->order_seq()};
      break;
    }
    case fb::SowEventBody_StandingOrderCancelled: {
      auto* x = e.body_as_StandingOrderCancelled();
      s.standing.erase({x->state()->str(), x->city()->str()});
      Note(s, x->state()->str(), "standing order at " + x->city()->str() + " cancelled: " + Str(x->reason()) + " (" +
                                     Str(x->rule()) + ")");
      break;
    }
    case fb::SowEventBody_RepairStarted: {
      auto* x = e.body_as_RepairStarted();
      s.repairs.push_back({x->city()->str(), x->state()->str(), static_cast<RepairKind>(x->what()), turn, x->paid_cc()});
      break;
    }
    case fb::SowEventBody_RepairCompleted: {
      auto* x = e.body_as_RepairCompleted();
      auto what = static_cast<RepairKind>(x->what());
      for (auto it = s.repairs.begin(); it != s.repairs.end(); ++it) {
        if (it->city == x->city()->str() && it->what == what) { s.repairs.erase(it); break; }
      }
      auto c = s.cities.find(x->city()->str());
      if (c == s.cities.end()) break;
      Note(s, c->second.controller, std::string(what == RepairKind::Fort ? "fort" : "coastal battery") + " of " +
                                        c->second.name + " repaired (SOW 7.1)");
      if (what == RepairKind::Fort) {
        c->second.fort_level++;
      } else if (c->second.batteries_damaged > 0) {
        c->second.batteries_damaged--;
        c->second.batteries++;
      } else if (c->second.batteries_destroyed > 0) {
        c->second.batteries_destroyed--;
        c->second.batteries++;
      }
      break;
    }
    case fb::SowEventBody_RepairCancelled: {
      auto* x = e.body_as_RepairCancelled();
      auto what = static_cast<RepairKind>(x->what());
      Note(s, x->state()->str(), "repair at " + x->city()->str() + " cancelled: " + Str(x->reason()) + " (SOW 7.1)");
      for (auto it = s.repairs.begin(); it != s.repairs.end(); ++it) {
        if (it->city == x->city()->str() && it->what == what) { s.repairs.erase(it); break; }
      }
      break;
    }
    case fb::SowEventBody_SeasonStarted: {
      auto* x = e.body_as_SeasonStarted();
      s.season_kind = static_cast<SeasonKind>(x->kind());
      s.season_of_kind = {x->year(), x->season()};
      break;
    }
    case fb::SowEventBody_SeasonEnded:
      s.campaign_ended = false;
      for (auto& [name, c] : s.cities) c.enemy_this_campaign = false;
      s.enemy_entered.clear();
      s.enemy_entered_named.clear();
      MarkEnemiesPresent(s);
      break;
    case fb::SowEventBody_NONE:
      break;
  }
}

}  // namespace

Unit UnitFromDef(const fb::SowUnitDef& d) {
  Unit u;
  u.id = d.id()->str();
  u.state = d.state()->str();
  u.type = static_cast<UnitType>(d.type());
  u.men = d.men();
  u.batteries = d.batteries();
  u.active = d.active();
  u.square = Sq(d.square());
  u.city = Str(d.city());
  u.raised_in = Str(d.raised_in());
  return u;
}

Ship ShipFromDef(const fb::SowShipDef& d) {
  Ship s;
  s.id = d.id()->str();
  s.state = d.state()->str();
  s.type = static_cast<ShipType>(d.type());
  s.crew = d.crew();
  s.frigates = d.frigates();
  s.capacity = d.capacity();
  s.base = Str(d.base());
  s.location = Str(d.location());
  s.in_port = d.in_port();
  s.coastal = d.coastal();
  s.active = d.active();
  s.mission = static_cast<Mission>(d.mission());
  s.name = Str(d.name());
  s.marines = d.marines();
  s.quality = d.quality();
  s.morale = d.morale();
  s.experience = d.experience();
  s.stores = d.stores();
  s.hull = d.hull();
  s.rigging = d.rigging();
  s.tactical = d.tactical();
  if (!s.in_port && !s.coastal && s.tactical == 0) s.tactical = 1;  // PATE 1.2: at sea, in some tactical area
  s.attached_to = Str(d.attached_to());
  s.crossing_turns = d.crossing_turns();
  return s;
}

namespace {

// PATE outcomes that change a unit, a city or the winds. What they do to
// ships is the fleet's (projections/fleet.cc).
void ApplyPate(TreasuryState& s, const fb::PateEvent& e) {
  // The troops aboard ship `id` are lost with her (PATE 9).
  auto lose_aboard = [&](const std::string& id) {
    std::erase_if(s.units, [&](const auto& kv) { return kv.second.aboard == id; });
  };
  switch (e.body_type()) {
    case fb::PateEventBody_ShipRated: {
      auto* x = e.body_as_ShipRated();
      if (x->port() && x->port_stores() != 0) {
        auto c = s.cities.find(x->port()->str());
        if (c != s.cities.end()) c->second.stores -= x->port_stores();
      }
      break;
    }
    case fb::PateEventBody_MapDefined:
      s.naval = true;
      break;
    case fb::PateEventBody_UnitLosses: {
      auto* x = e.body_as_UnitLosses();
      auto u = s.units.find(x->unit()->str());
      if (u == s.units.end()) break;
      if (x->destroyed()) s.units.erase(u);
      else u->second.men -= x->men_lost() + x->men_returning();
      break;
    }
    case fb::PateEventBody_BatteriesDamaged: {
      // PATE 7.7: intact batteries damaged in battle, to be repaired (SOW 7.1).
      auto* x = e.body_as_BatteriesDamaged();
      auto c = s.cities.find(x->city()->str());
      if (c == s.cities.end()) break;
      uint8_t n = std::min(x->damaged(), c->second.batteries);
      c->second.batteries = static_cast<uint8_t>(c->second.batteries - n);
      c->second.batteries_damaged = static_cast<uint8_t>(std::min(255, c->second.batteries_damaged + n));
      Note(s, c->second.controller, std::to_string(n) + " coastal batter" + (n == 1 ? "y" : "ies") + " of " +
                                        c->second.name + " damaged in " + Str(x->battle()) + " (PATE 7.7)");
      break;
    }
    case fb::PateEventBody_PortTaken: {
      auto* x = e.body_as_PortTaken();
      auto c = s.cities.find(x->port()->str());
      if (c != s.cities.end()) ChangeController(s, c->second, x->by()->str());
      break;
    }
    case fb::PateEventBody_TransportsCombined: {
      // The troops aboard the groups combined are aboard the one they join.
      auto* x = e.body_as_TransportsCombined();
      if (!x->from()) break;
      std::string into = x->into()->str();
      for (const auto* id : *x->from()) {
        for (auto& [uid, u] : s.units) {
          if (u.aboard == id->str()) u.aboard = into;
        }
      }
      break;
    }
    case fb::PateEventBody_CargoMoved: {
      auto* x = e.body_as_CargoMoved();
      if (!x->done() || (x->failed() && x->failed()->size())) break;
      std::string port = x->port()->str(), unit = Str(x->unit());
      auto city = s.cities.find(port);
      if (!unit.empty()) {
        auto u = s.units.find(unit);
        if (u == s.units.end()) break;
        if (x->unload()) {
          u->second.aboard.clear();
          u->second.city = port;
          if (city != s.cities.end()) u->second.square = city->second.square;
          MarkEnemyEntry(s, u->second);
        } else {
          u->second.aboard = x->ship()->str();
          u->second.city.clear();
        }
      }
      if (x->supplies() > 0 && city != s.cities.end()) city->second.supplies -= x->unload() ? -x->supplies() : x->supplies();
      break;
    }
    case fb::PateEventBody_StoresMoved: {
      auto* x = e.body_as_StoresMoved();
      auto from = s.cities.find(x->from()->str()), to = s.cities.find(x->to()->str());
      if (from != s.cities.end()) from->second.stores -= x->stores();
      if (to != s.cities.end()) to->second.stores += x->stores();
      break;
    }
    case fb::PateEventBody_ShipSunk:
      lose_aboard(e.body_as_ShipSunk()->ship()->str());
      break;
    case fb::PateEventBody_ShipCaptured:  // PATE 9: the troops aboard are taken
      lose_aboard(e.body_as_ShipCaptured()->ship()->str());
      break;
    case fb::PateEventBody_WindSet: {
      auto* x = e.body_as_WindSet();
      s.winds[x->area()->str()] = Wind{x->from(), x->strength()};
      break;
    }
    default:
      break;
  }
}

}  // namespace

void Treasury::Apply(const Input& in) {
  const fb::Event& e = *in.event;
  s_.last_seq = in.seq;
  if (e.payload_type() == fb::Payload_GameCreated) {
    const fb::Scenario* sc = e.payload_as_GameCreated()->scenario();
    s_.turn = TurnOf(e);
    s_.started = s_.turn;
    s_.season_of_kind = {s_.turn.major, s_.turn.minor};
    if (sc && sc->sow()) LoadScenario(s_, *sc->sow());
    return;
  }
  if (!s_.active) return;
  Turn turn = TurnOf(e);
  if (s_.turn < turn) {
    // A new turn: its statement starts empty.
    s_.turn = turn;
    s_.phase_done = 0;
    s_.orders.clear();  // orders stand for one turn
    for (auto& [id, a] : s_.states) {
      a.statement.clear();
      a.manpower_lines.clear();
      a.refused.clear();
      a.notes.clear();
    }
  }
  switch (e.payload_type()) {
    case fb::Payload_PhaseCompleted:
      s_.phase_done = e.phase();
      break;
    case fb::Payload_Directive:
      if (auto* d = e.payload_as_Directive()->body_as_SowDirective()) ApplyDirective(s_, *d, FoldVersionOf(in));
      break;
    case fb::Payload_SowEvent:
      ApplyOutcome(s_, *e.payload_as_SowEvent(), turn, e.phase(), FoldVersionOf(in));
      break;
    case fb::Payload_PateEvent:
      ApplyPate(s_, *e.payload_as_PateEvent());
      break;
    case fb::Payload_OrderSubmitted: {
      auto* o = e.payload_as_OrderSubmitted();
      if (o->body_type() != fb::OrderBody_SowOrder && o->body_type() != fb::OrderBody_PateOrder) break;
      s_.orders[in.seq] = {Str(o->slot()), o->person()->str(), Str(o->role()), std::vector<uint8_t>(in.bytes.begin(), in.bytes.end())};
      break;
    }
    case fb::Payload_OrderSuperseded:
      s_.orders.erase(e.payload_as_OrderSuperseded()->order_seq());
      break;
    case fb::Payload_OrderRejected: {
      // The refusal goes on the statement of the state the order was for.
      auto* r = e.payload_as_OrderRejected();
      auto it = s_.orders.find(r->order_seq());
      std::string state, slot;
      if (it != s_.orders.end()) {
        slot = it->second.slot;
        state = slot.substr(0, slot.find('/'));
        s_.orders.erase(it);
      } else {
        // A standing order refused again (SOW 6.5): "state/standing/city".
        for (const auto& [key, so] : s_.standing) {
          if (so.order_seq == r->order_seq()) { state = key.first; slot = key.first + "/standing/" + key.second; }
        }
      }
      auto st = s_.states.find(state);
      if (st != s_.states.end()) {
        st->second.refused.push_back({r->order_seq(), slot, Str(r->rule()), r->reason()->str()});
      }
      break;
    }
    default:
      break;
  }
}

}  // namespace adjutant::projections
