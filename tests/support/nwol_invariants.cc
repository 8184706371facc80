#include "support/nwol_invariants.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "cli/report_common.h"
#include "projections/roster.h"
#include "replay/driver.h"
#include "reports/reports.h"
#include "rules/sow/calendar.h"
#include "rules/sow/economy.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "schema/values.h"

namespace adjutant::testing {

namespace P = projections;

// ---- random orders and directives ------------------------------------------------

const std::vector<std::pair<std::string, std::string>>& ShipCommanders() {
  static const std::vector<std::pair<std::string, std::string>> kCommanders = {
      {"BR1FL", "nelson"},     {"BR2SL", "nelson"},      {"BR1FR", "nelson"},     {"BR4SL", "nelson"},
      {"BR5SL", "nelson"},     {"BR1SL", "collingwood"}, {"FR1SL", "villeneuve"}, {"FR2SL", "villeneuve"},
      {"FR1FR", "villeneuve"}, {"FR3SL", "villeneuve"},  {"SP1SL", "gravina"},    {"BR1TR", "troubridge"}};
  return kCommanders;
}

const std::vector<std::string>& SeaAreaNames() {
  static const std::vector<std::string> kAreas = {"ECH", "NOS", "BIS", "WAP", "IBC", "SOA", "WMD", "SWA", "XYZ"};
  return kAreas;
}

const std::vector<std::string>& PortNames() {
  static const std::vector<std::string> kPorts = {"",       "",      "Portsmouth", "Brest",
                                                  "London", "Cadiz", "Gibraltar",  "Toulon"};
  return kPorts;
}

std::string RandomShipOrders(const std::string& ship) {
  std::string f = "{\"ship\": \"" + ship + "\"";
  auto add = [&](const std::string& kv) { f += ", " + kv; };
  if (*rc::gen::inRange(0, 3) > 0) add("\"sea1\": \"" + OneOf(SeaAreaNames()) + "\"");
  if (*rc::gen::inRange(0, 3) == 0) add("\"sea2\": \"" + OneOf(SeaAreaNames()) + "\"");
  if (const auto& port = OneOf(PortNames()); !port.empty()) add("\"port\": \"" + port + "\"");
  if (*rc::gen::inRange(0, 2)) add("\"harbour\": true");
  add("\"contact\": \"" + OneOf(std::vector<std::string>{"Accept", "Pursue", "Evade"}) + "\"");
  if (*rc::gen::inRange(0, 3) == 0) add("\"min_ships\": " + std::to_string(*rc::gen::inRange(0, 4)));
  if (*rc::gen::inRange(0, 3) == 0) add("\"max_ships\": " + std::to_string(*rc::gen::inRange(0, 4)));
  add("\"engage\": \"" + OneOf(std::vector<std::string>{"Accept", "Close", "Evade"}) + "\"");
  if (*rc::gen::inRange(0, 2)) add("\"line\": \"BreakLine\"");
  if (*rc::gen::inRange(0, 2)) add("\"aim\": \"Hull\"");
  if (*rc::gen::inRange(0, 2)) add("\"gauge\": \"Windward\"");
  add("\"stores\": " + std::to_string(*rc::gen::inRange(-1, 25)));
  if (*rc::gen::inRange(0, 4) == 0) add("\"attach_to\": \"" + OneOf(ShipCommanders()).first + "\"");
  if (*rc::gen::inRange(0, 6) == 0) add("\"detach\": true");
  if (ship == "BR1TR" && *rc::gen::inRange(0, 2)) {
    bool unload = *rc::gen::inRange(0, 2);
    add(std::string("\"amphibious\": [") + (*rc::gen::inRange(0, 2) ? "{\"unit\": \"BR1IN\"" : "{\"supplies\": 5") +
        (unload ? ", \"unload\": true}]" : "}]"));
  }
  return f + "}";
}

namespace {

int Pick(int n) { return *rc::gen::inRange(0, n); }
int64_t Range(int64_t lo, int64_t hi) { return *rc::gen::inRange(lo, hi); }
// JSON values, and an object of them.
std::string Q(const std::string& s) { return "\"" + s + "\""; }
std::string N(int64_t v) { return std::to_string(v); }
std::string B(bool b) { return b ? "true" : "false"; }
std::string Obj(std::initializer_list<std::pair<const char*, std::string>> fields) {
  std::string s;
  for (const auto& [key, value] : fields) s += (s.empty() ? "{" : ", ") + Q(key) + ": " + value;
  return s + "}";
}

const std::vector<std::string> kPersonsOfScenario = {"barham",     "pitt",   "nelson",     "collingwood", "hardy",
                                                     "troubridge", "decres", "villeneuve", "gravina"};
const std::vector<std::string> kShipsOfScenario = {"BR1FL", "BR1SL", "BR2SL", "BR1FR", "BR1TR", "BR2TR",
                                                   "BR3SL", "BR4SL", "BR5SL", "FR1SL", "FR2SL", "FR1FR",
                                                   "FR3SL", "FR4SL", "SP1SL", "XX9SL"};
const std::vector<std::string> kStates = {"BR", "FR", "SP", "XX"};
const std::vector<std::string> kCities = {"London", "Portsmouth", "Gibraltar", "Kingston", "Paris",
                                          "Brest",  "Toulon",     "Madrid",    "Cadiz",    "Atlantis"};
const std::vector<std::string> kRoles = {"BR.prime",     "BR.naval",        "FR.naval",        "BR1FL.commander",
                                         "BR1FL.deputy", "BR1SL.commander", "FR1SL.commander", "BR.treasury"};

std::string Ship() { return Q(OneOf(kShipsOfScenario)); }
std::string City() { return Q(OneOf(kCities)); }

// A minister's order for `state` (SOW 4, 6, 7).
std::string SowItem(const std::string& state) {
  const std::string id = Q(state + N(Pick(9) + 1) + OneOf(std::vector<std::string>{"IN", "SL", "TR", "FR"}));
  switch (Pick(8)) {
    case 0:
      return OrderItem(state, "TransferOrder",
                       Obj({{"to_state", Q(OneOf(kStates))}, {"amount_cc", N(Range(-100, 3000000))}}));
    case 1:
      return OrderItem(state, "BuildUnitOrder",
                       Obj({{"city", City()}, {"type", Q("IN")}, {"men", N(Range(0, 4000))}, {"id", id}}));
    case 2:
      return OrderItem(state, "BuildShipOrder",
                       Obj({{"port", City()},
                            {"type", Q(OneOf(std::vector<std::string>{"SL", "FR", "TR"}))},
                            {"capacity", N(Pick(6000))},
                            {"id", id}}));
    case 3:
      return OrderItem(state, "ReinforceOrder",
                       Obj({{"unit", Pick(2) ? Q("BR1IN") : Ship()}, {"men", N(Range(-10, 3000))}}));
    case 4:
      return OrderItem(state, "BuySuppliesOrder",
                       Obj({{"city", City()}, {"supplies", N(Pick(2) * Pick(20))}, {"stores", N(Pick(60))}}));
    case 5: return OrderItem(state, "StandingSupplyOrder", Obj({{"city", City()}, {"supplies", N(Pick(6))}}));
    case 6: return OrderItem(state, "RemoveShipOrder", Obj({{"ship", Ship()}}));
    default: return OrderItem(state, "RepairOrder", Obj({{"city", City()}, {"what", Q(Pick(2) ? "Fort" : "Battery")}}));
  }
}

// A Naval Minister's order (PATE 2.3, 2.6, 2.7, 3.5).
std::string PateMinisterItem() {
  switch (Pick(4)) {
    case 0:
      return PateItem("AppointOrder", Obj({{"ship", Ship()},
                                           {"commander", Q(Pick(4) ? OneOf(kPersonsOfScenario) : "nobody")},
                                           {"deputy", Q(Pick(2) ? "" : OneOf(kPersonsOfScenario))}}));
    case 1: return PateItem("ActivationOrder", Obj({{"ship", Ship()}, {"active", B(Pick(2))}}));
    case 2: return PateItem("MoveStoresOrder", Obj({{"from", City()}, {"to", City()}, {"stores", N(Range(-5, 60))}}));
    default:
      return PateItem("TransferCrewOrder", Obj({{"from", Ship()}, {"to", Ship()}, {"crew", N(Range(-10, 400))}}));
  }
}

std::string Directive(const char* ruleset, const std::string& kind, const std::string& body) {
  return Obj(
      {{"reason", Q("test")}, {"body_type", Q(ruleset)}, {"body", Obj({{"body_type", Q(kind)}, {"body", body}})}});
}

}  // namespace

const std::vector<std::string>& PersonNames() { return kPersonsOfScenario; }
const std::vector<std::string>& ShipIds() { return kShipsOfScenario; }

std::string RandomOrderItem(const std::string& person) {
  std::string item;
  switch (Pick(6)) {
    case 0:
    case 1:
    case 2: {
      // Mostly a ship he commands, now and then another.
      std::string ship = OneOf(kShipsOfScenario);
      for (const auto& [s, commander] : ShipCommanders())
        if (commander == person && Pick(3)) ship = s;
      item = PateItem("ShipOrders", RandomShipOrders(ship));
      break;
    }
    case 3: item = PateMinisterItem(); break;
    case 4: item = SowItem(OneOf(kStates)); break;
    default: item = R"({"body_type": "WrittenOrder", "body": {"text": "Engage the enemy more closely"}})"; break;
  }
  if (Pick(6) == 0) item = "{\"role\": " + Q(OneOf(kRoles)) + ", " + item.substr(1);
  return item;
}

std::string RandomDirectiveFile() {
  auto sow = [](const std::string& kind, const std::string& body) { return Directive("SowDirective", kind, body); };
  auto pate = [](const std::string& kind, const std::string& body) { return Directive("PateDirective", kind, body); };
  const std::string a = Q(OneOf(kStates)), b = Q(OneOf(kStates));
  switch (Pick(17)) {
    case 0:
      return sow(
          "SetRelation",
          Obj({{"a", a}, {"b", b}, {"relation", Q(OneOf(std::vector<std::string>{"Neutral", "War", "Alliance"}))}}));
    case 1: return sow("DeclareBlockade", Obj({{"by", a}, {"against", b}, {"lift", B(Pick(3) == 0)}}));
    case 2: return sow("DeclareEmbargo", Obj({{"by", a}, {"against", b}, {"lift", B(Pick(3) == 0)}}));
    case 3: return sow("SetCityControl", Obj({{"city", City()}, {"controller", a}}));
    case 4: return sow("SetSiege", Obj({{"city", City()}, {"besieged", B(Pick(2))}}));
    case 5:
      return sow("DestroyUnit", Obj({{"unit", Q(Pick(3) ? "BR1IN" : "FR1IN")}, {"men_remaining", N(Pick(3000))}}));
    case 6:
      return sow("LoseShip",
                 Obj({{"ship", Ship()}, {"crew_returning", N(Pick(2) * Pick(300))}, {"storm", B(Pick(2))}}));
    case 7: {
      // The GA's MoveShip anywhere: a port (its harbour or its coast, or
      // neither or both: refused), a sea area of the map (in a tactical
      // area there since sow=4, PATE 1.2; "XYZ" is none: refused), or any
      // city of kCities (ports among them; inland Paris and Madrid, and
      // Atlantis, no city at all, refused). Once a known problem (issue 5):
      // the directive was not checked against the map, and the GA moved
      // ships into ports only.
      const int where = Pick(3);
      const std::string to = where == 0   ? OneOf(std::vector<std::string>{"Portsmouth", "London", "Brest", "Cadiz", "Toulon"})
                             : where == 1 ? OneOf(SeaAreaNames())
                                          : OneOf(kCities);
      // In a port mostly one of the two, elsewhere mostly neither.
      bool in_port = Pick(4) == 0, coastal = Pick(4) == 0;
      if (where == 0 && Pick(4) != 0) {
        in_port = Pick(2);
        coastal = !in_port;
      }
      return sow("MoveShip",
                 Obj({{"ship", Ship()}, {"location", Q(to)}, {"in_port", B(in_port)}, {"coastal", B(coastal)}}));
    }
    case 8: return sow("EndCampaign", "{}");
    case 9: return sow("CorrectTreasury", Obj({{"state", a}, {"amount_cc", N(Range(-5000, 5000))}}));
    case 10: return sow("CorrectManpower", Obj({{"state", a}, {"men", N(Range(-500, 500))}}));
    case 11:
      return sow("SetSeasonKind",
                 Obj({{"year", N(1805)}, {"season", N(Pick(4) + 1)}, {"kind", Q(Pick(2) ? "Peace" : "War")}}));
    case 12:
      return pate("CombineTransports", Obj({{"into", Pick(2) ? Q("BR1TR") : Ship()},
                                            {"from", "[" + (Pick(2) ? Q("BR2TR") : Ship()) + "]"}}));
    case 13:
      return pate("DivideTransport",
                  Obj({{"ship", Q(Pick(2) ? "BR1TR" : "BR2TR")},
                       {"new_id", Q(OneOf(std::vector<std::string>{"BR3TR", "BR9TR", "BR2TR", "FR9TR"}))},
                       {"capacity", N(Range(1500, 4000))}}));
    case 14:
      return pate("SeizeInactive",
                  Obj({{"ship", Pick(2) ? Q("FR4SL") : Ship()}, {"by", a}, {"destroy", B(Pick(3) == 0)}}));
    case 15:  // a landing, or a march: the unit may be aboard a transport
      return sow("MoveUnit", Obj({{"unit", Q(Pick(3) ? "BR1IN" : "FR1IN")},
                                  {"square", Obj({{"x", N(Range(0, 40))}, {"y", N(Range(0, 40))}})},
                                  {"city", Q(OneOf(std::vector<std::string>{"Portsmouth", "London", "Brest"}))}}));
    default: return R"({"reason": "test", "body_type": "Ruling", "body": {"text": "the GA rules"}})";
  }
}

// ---- invariants -------------------------------------------------------------------

std::string ShipInvariantBroken(const NwolState& s) {
  for (const auto& [id, sh] : s.ships) {
    auto broken = [&](const std::string& what) { return "ship " + id + ": " + what; };
    // A ship is in exactly one place: a port (harbour or coastal waters) or
    // one tactical area of a sea area, or crossing the Atlantic.
    bool port = s.cities.count(sh.location) > 0;
    if (sh.in_port && sh.coastal) return broken("both in harbour and in coastal waters");
    if (sh.crossing_turns == 0 && sh.active) {
      if (port != (sh.in_port || sh.coastal)) return broken("at " + sh.location + " neither in a port nor at sea");
      if (!port && (sh.tactical < 1 || sh.tactical > 4)) {
        return broken("at sea in tactical area " + std::to_string(sh.tactical));
      }
    }
    // Damage within 0..5; a ship afloat has hull below 5 (hull 5 is sunk).
    if (sh.hull > 4) return broken("afloat with hull damage " + std::to_string(sh.hull));
    if (sh.rigging > 5) return broken("rigging damage " + std::to_string(sh.rigging));
    // Stores never negative (nor wrapped), within what she carries.
    if (sh.stores > 24 + (sh.type == P::ShipType::TR ? sh.capacity / 20 : 0)) {
      return broken("carries " + std::to_string(sh.stores) + " stores");
    }
    // Crews within the limits (PATE 2.7).
    auto full = rules::sow::FullComplement(static_cast<fb::SowShipType>(sh.type), sh.frigates, sh.capacity);
    if (sh.crew < 0 || sh.marines < 0) return broken("a negative crew or Marines");
    if (sh.type != P::ShipType::TR && (sh.crew > full.crew || sh.marines > full.marines)) {
      return broken("crew " + std::to_string(sh.crew) + " and " + std::to_string(sh.marines) +
                    " Marines over her full complement");
    }
    // Attachment never forms a chain (PATE 4.4).
    if (!sh.attached_to.empty()) {
      auto l = s.ships.find(sh.attached_to);
      if (l == s.ships.end()) return broken("attached to " + sh.attached_to + ", who is not in the game");
      if (!l->second.attached_to.empty()) {
        return broken("attached to " + sh.attached_to + ", herself attached to " + l->second.attached_to);
      }
    }
  }
  // PATE 9: a unit aboard is in the hold of a transport of the game.
  for (const auto& [id, u] : s.units) {
    if (u.aboard.empty()) continue;
    auto sh = s.ships.find(u.aboard);
    if (sh == s.ships.end()) return "unit " + id + ": aboard " + u.aboard + ", who is not in the game";
    if (std::find(sh->second.cargo_units.begin(), sh->second.cargo_units.end(), id) == sh->second.cargo_units.end()) {
      return "unit " + id + ": aboard " + u.aboard + ", whose hold does not list her";
    }
  }
  // And a hold lists only units aboard her (sow=13: a unit the GA moves or
  // destroys, or one disbanded, leaves it).
  for (const auto& [id, sh] : s.ships) {
    for (const auto& uid : sh.cargo_units) {
      auto u = s.units.find(uid);
      if (u == s.units.end() || u->second.aboard != id) {
        return "ship " + id + ": her hold lists " + uid + ", who is " +
               (u == s.units.end() ? std::string("not in the game") : "not aboard her");
      }
    }
  }
  for (const auto& [name, c] : s.cities) {
    if (c.stores < 0) return "port " + name + " holds " + std::to_string(c.stores) + " stores";
  }
  return "";
}

std::string MoneyBroken(const P::TreasuryState& s) {
  for (const auto& [id, a] : s.states) {
    if (a.treasury_cc != a.opening_cc + a.credits_cc - a.debits_cc) {
      return "state " + id + ": balance " + std::to_string(a.treasury_cc) + " cc is not its opening " +
             std::to_string(a.opening_cc) + " + credits " + std::to_string(a.credits_cc) + " - charges " +
             std::to_string(a.debits_cc);
    }
  }
  return "";
}

namespace {
// The line of `doc` holding position `at`.
std::string LineAround(const std::string& doc, size_t at) {
  const size_t b = doc.rfind('\n', at);
  const size_t e = doc.find('\n', at);
  return doc.substr(b == std::string::npos ? 0 : b + 1, (e == std::string::npos ? doc.size() : e) - (b == std::string::npos ? 0 : b + 1));
}
}  // namespace

Result<std::string> ReportLeak(ledger::Ledger& db, const std::string& game, const std::string& branch,
                               const Turn& turn) {
  static const std::regex kIdForm("\\b[A-Z]{2}[1-9][0-9]*[A-Z]{2}\\b");
  auto end = cli::EndOfTurn(db, game, branch, turn);
  if (!end.ok()) return end.status();
  // Every observation of the turn, from the log.
  struct Seen {
    std::string observer, state;
    std::vector<std::string> ids;
  };
  std::vector<Seen> seen;
  // The ships each ship attached to during the turn (PATE 4.4: in the same
  // place, so seen), though she may have left it by the turn's end.
  std::map<std::string, std::set<std::string>> attached, written;
  // The ship each ship was attached to as the turn began (PATE 4.2: she
  // follows its orders, and his orders report says so, though she may have
  // lost sight of it since): his own order attached her in her presence.
  std::map<std::string, std::string> attached_before;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, 1, *end, [&](const ledger::EventView& e) {
    const fb::Turn* t = e.event()->turn();
    auto* pe = e.event()->payload_as_PateEvent();
    if (auto* a = pe ? pe->body_as_ShipAttached() : nullptr; a && t) {
      const std::string to = a->to() ? a->to()->str() : "";
      if (schema::TurnOf(t) < turn) attached_before[a->ship()->str()] = to;
      if (schema::TurnOf(t) == turn && !to.empty()) attached[a->ship()->str()].insert(to);
    }
    // The ids a person wrote in his own orders of the turn: told back to
    // him, they are his own words (an outcome "BR1IN is not in Brest").
    if (auto* o = e.event()->payload_as_OrderSubmitted(); o && t && schema::TurnOf(t) == turn) {
      auto j = schema::ToJson("Event", e.bytes.data());
      if (j.ok()) {
        for (std::sregex_iterator it(j->begin(), j->end(), kIdForm), stop; it != stop; ++it) {
          written[o->person()->str()].insert(it->str());
        }
      }
    }
    // A land unit a transport of his loads or unloads (PATE 4.9: in the port with her).
    if (auto* c = pe ? pe->body_as_CargoMoved() : nullptr; c && t && schema::TurnOf(t) == turn) {
      if (c->unit() && !c->unit()->str().empty()) attached[c->ship()->str()].insert(c->unit()->str());
    }
    auto* o = pe ? pe->body_as_Observed() : nullptr;
    if (!o || !t || schema::TurnOf(t) != turn) return Status::Ok();
    Seen x{o->observer()->str(), o->state() ? o->state()->str() : "", {}};
    if (o->seen())
      for (const auto* id : *o->seen()) x.ids.push_back(id->str());
    seen.push_back(std::move(x));
    return Status::Ok();
  }));
  auto then = replay::Fold(db, game, branch, *end);
  if (!then.ok()) return then.status();
  const P::FleetState ts = then->fleet().state();
  const P::RosterState roster = then->roster().state();
  for (const auto& [person, pr] : roster.persons) {
    // His ships: those he commands, all his state's if he is its Naval
    // Minister (with those of them no longer afloat that reported).
    std::set<std::string> mine, naval;
    for (const auto& role : pr.roles) {
      size_t dot = role.rfind('.');
      std::string who = role.substr(0, dot), post = role.substr(dot + 1);
      if (post == "commander" || post == "deputy") mine.insert(who);
      if (post == "naval") naval.insert(who);
    }
    for (const auto& [id, sh] : ts.ships)
      if (naval.count(sh.state)) mine.insert(id);
    for (const auto& x : seen) {
      std::string prefix = x.observer.substr(0, 2);
      if (naval.count(x.state) || (x.state.empty() && naval.count(prefix) && !ts.ships.count(x.observer))) {
        mine.insert(x.observer);
      }
    }
    std::set<std::string> allowed = mine;
    for (const auto& x : seen) {
      if (mine.count(x.observer)) allowed.insert(x.ids.begin(), x.ids.end());
    }
    for (const auto& id : mine) {
      auto sh = ts.ships.find(id);
      if (sh != ts.ships.end() && !sh->second.attached_to.empty()) allowed.insert(sh->second.attached_to);
      if (auto at = attached.find(id); at != attached.end()) allowed.insert(at->second.begin(), at->second.end());
      if (auto at = attached_before.find(id); at != attached_before.end() && !at->second.empty()) allowed.insert(at->second);
    }
    auto fresh = replay::Fold(db, game, branch, *end);
    if (!fresh.ok()) return fresh.status();
    auto text = cli::RenderPlayerReports(std::move(fresh).value(), *end, game, branch, person, turn);
    if (!text.ok()) return text.status();
    // Issue 20: his orders report — how each order was carried out, and what
    // stood in for orders not given (his own orders' words are his, not told).
    // A season's end takes no orders (the calendar, SOW 4.2): none to report.
    std::string told;
    if (!rules::sow::IsSeasonEnd(turn)) {
      reports::Request rq;
      rq.kind = reports::Kind::kOrders;
      rq.game = game;
      rq.branch = branch;
      rq.player = person;
      rq.turn = turn.ToString();
      rq.format = reports::Format::kJson;
      reports::Viewer viewer;
      viewer.person = person;
      auto orders = reports::Build(db, viewer, rq);
      if (!orders.ok()) return Status::InvalidArgument("report orders for " + person + ": " + orders.status().message());
      static const std::regex kTold("\"(what|text)\": \"((\\\\.|[^\"\\\\])*)\"");
      for (std::sregex_iterator it(orders->body.begin(), orders->body.end(), kTold), stop; it != stop; ++it) {
        told += (*it)[2].str() + "\n";
      }
    }
    for (const std::string* doc : {&text->events, &text->positions, &text->svg, &told}) {
      for (std::sregex_iterator it(doc->begin(), doc->end(), kIdForm), stop; it != stop; ++it) {
        if (doc == &told && written[person].count(it->str())) continue;
        if (!allowed.count(it->str())) {
          return person + " is shown " + it->str() + " in turn " + turn.ToString() + " of " + branch +
                 ", which his ships did not see" + (doc == &told ? " (in his orders report: " + LineAround(*doc, it->position()) + ")" : "");
        }
      }
    }
  }
  return std::string();
}

Result<std::string> RefusedOrderActed(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                      uint64_t from, uint64_t to) {
  static const std::regex kOrderSeq("\"order_seq\": ([0-9]+)");
  std::set<uint64_t> refused;
  std::vector<std::pair<uint64_t, uint64_t>> acted;  // (order, event)
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, from, to, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    if (auto* r = ev.payload_as_OrderRejected()) {
      refused.insert(r->order_seq());
      return Status::Ok();
    }
    if (ev.payload_type() == fb::Payload_OrderSuperseded) return Status::Ok();
    // Any outcome that names an order, whatever its kind.
    auto json = schema::ToJson("Event", e.bytes.data());
    if (!json.ok()) return json.status();
    for (std::sregex_iterator it(json->begin(), json->end(), kOrderSeq), stop; it != stop; ++it) {
      uint64_t order = std::stoull((*it)[1].str());
      if (order != 0) acted.emplace_back(order, e.seq);
    }
    return Status::Ok();
  }));
  for (const auto& [order, seq] : acted) {
    if (refused.count(order)) {
      return "event " + std::to_string(seq) + " of " + branch + " carries out order " + std::to_string(order) +
             ", which was refused";
    }
  }
  return std::string();
}

}  // namespace adjutant::testing
