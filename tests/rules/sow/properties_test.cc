// Invariants of the sow ruleset as rapidcheck properties over random games:
// random positions, random valid and invalid orders and GA directives, many
// turns. Money and manpower are conserved, no accepted order overdraws a
// treasury or breaks a limit, a refused order has no effect, a refused
// directive appends nothing, and rebuilding from zero gives the digests the
// phases recorded as they ran.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <map>

#include "ledger/ledger.h"
#include "projections/treasury.h"
#include "replay/driver.h"
#include "replay/rebuild.h"
#include "rules/sow/calendar.h"
#include "rules/sow/economy.h"
#include "schema/event_generated.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;
namespace sow = adjutant::rules::sow;

namespace {

const char* kUnitTypes[] = {"IN", "LI", "MI", "LC", "MC", "HC", "LA", "MA", "HA", "SA", "AQ", "CQ"};
const char* kShipTypes[] = {"FL", "SL", "FR", "TR"};
const char* kKinds[] = {"Inland", "Port", "OffMapPort"};
const char* kMissions[] = {"None", "Raid", "Convoy", "Patrol", "IgnoreCommerce"};
const char* kRelations[] = {"Neutral", "War", "Alliance"};

int Pick(int n) { return *rc::gen::inRange(0, n); }
std::string Sq() { return "{\"x\": " + std::to_string(Pick(25)) + ", \"y\": " + std::to_string(Pick(25)) + "}"; }

struct Names {
  int states = 0;
  std::vector<std::string> cities, units, ships;
};

// A random position: 2–4 states (two may share a nation), their cities,
// units within the 4.7 sizes, ships with their 3.1 crews, relations, trade.
std::string RandomScenario(Names* n) {
  n->states = *rc::gen::inRange(2, 5);
  bool shared_nation = *rc::gen::arbitrary<bool>();
  std::string states, cities, units, ships, relations, trade, players;
  for (int i = 0; i < n->states; ++i) {
    std::string id = "S" + std::to_string(i);
    std::string nation = "N" + std::to_string(shared_nation && i == 1 ? 0 : i);
    states += (i ? "," : "") + std::string("{\"id\": \"") + id + "\", \"nation\": \"" + nation +
              "\", \"treasury_cc\": " + std::to_string(*rc::gen::inRange(0, 300000)) +
              ", \"manpower\": " + std::to_string(*rc::gen::inRange(0, 60000)) + "}";
    players += (i ? "," : "") + std::string("{\"person\": \"p") + std::to_string(i) + "\", \"roles\": [\"" + id +
               ".monarch\"]}";
    for (int c = *rc::gen::inRange(1, 4); c > 0; --c) {
      std::string name = "C" + std::to_string(n->cities.size());
      n->cities.push_back(name);
      int kind = Pick(3);
      int start = Pick(4);
      // Mostly the state's own nation; now and then an occupied city.
      std::string cn = Pick(5) == 0 ? "N" + std::to_string(Pick(n->states)) : nation;
      cities += (cities.empty() ? "" : ",") + std::string("{\"name\": \"") + name + "\", \"nation\": \"" + cn +
                "\", \"controller\": \"" + id + "\", \"level\": " + std::to_string(*rc::gen::inRange(1, 6)) +
                ", \"kind\": \"" + kKinds[kind] + "\", \"square\": " + Sq() +
                (kind ? ", \"sea_area\": \"A" + std::to_string(Pick(2)) + "\"" : "") +
                (kind == 1 ? ", \"dockyards\": " + std::to_string(Pick(3)) : "") +
                ", \"fort_start\": " + std::to_string(start) + ", \"fort_level\": " + std::to_string(Pick(start + 1)) +
                ", \"batteries_damaged\": " + std::to_string(Pick(2)) +
                ", \"militia_pool\": " + std::to_string(*rc::gen::inRange(0, 7501)) + "}";
    }
    for (int u = Pick(4); u > 0; --u) {
      int t = Pick(12);
      auto lim = sow::UnitSizeLimit(static_cast<fb::SowUnitType>(t));
      std::string uid = id + "-U" + std::to_string(n->units.size());
      n->units.push_back(uid);
      units += (units.empty() ? "" : ",") + std::string("{\"id\": \"") + uid + "\", \"state\": \"" + id +
               "\", \"type\": \"" + kUnitTypes[t] + "\", \"men\": " +
               std::to_string(*rc::gen::inRange<int64_t>(0, lim.max_men + 1)) + ", \"batteries\": " +
               std::to_string(Pick(lim.max_batteries + 1)) + ", \"active\": " + (Pick(3) ? "true" : "false") +
               ", \"square\": " + Sq() + "}";
    }
    for (int s = Pick(4); s > 0; --s) {
      int t = Pick(4);
      int frigates = t == 2 ? *rc::gen::inRange(1, 4) : 1;
      int capacity = t == 3 ? *rc::gen::inRange(1000, 8001) : 0;
      auto full = sow::FullComplement(static_cast<fb::SowShipType>(t), frigates, capacity);
      int64_t crew = full.crew;
      std::string sid = id + std::to_string(n->ships.size() + 1) + kShipTypes[t];
      n->ships.push_back(sid);
      std::string where = Pick(2) ? n->cities.back() : "A" + std::to_string(Pick(2));
      ships += (ships.empty() ? "" : ",") + std::string("{\"id\": \"") + sid + "\", \"state\": \"" + id +
               "\", \"type\": \"" + kShipTypes[t] + "\", \"crew\": " + std::to_string(crew) +
               ", \"marines\": " + std::to_string(Pick(static_cast<int>(full.marines) + 1)) +
               ", \"frigates\": " + std::to_string(frigates) + ", \"capacity\": " + std::to_string(capacity) +
               ", \"base\": \"" + n->cities.back() + "\", \"location\": \"" + where + "\", \"in_port\": " +
               (Pick(2) ? "true" : "false") + ", \"coastal\": " + (Pick(2) ? "true" : "false") +
               ", \"mission\": \"" + kMissions[Pick(5)] + "\"}";
    }
  }
  for (int a = 0; a < n->states; ++a) {
    for (int b = a + 1; b < n->states; ++b) {
      relations += (relations.empty() ? "" : ",") + std::string("{\"a\": \"S") + std::to_string(a) + "\", \"b\": \"S" +
                   std::to_string(b) + "\", \"relation\": \"" + kRelations[Pick(3)] + "\"}";
      trade += (trade.empty() ? "" : ",") + std::string("{\"nation\": \"N") + std::to_string(a) + "\", \"partner\": \"N" +
               std::to_string(b) + "\", \"share_bp\": " + std::to_string(Pick(5001)) + "}";
    }
  }
  return "{\"name\": \"random\", \"rulesets\": [\"sow\"], \"start\": {\"major\": 1800, \"minor\": " +
         std::to_string(*rc::gen::inRange(1, 5)) + ", \"step\": " + std::to_string(*rc::gen::inRange(1, 15)) +
         "}, \"players\": [" + players + "], \"sow\": {\"season_kind\": \"" + (Pick(4) ? "War" : "Peace") +
         "\", \"states\": [" + states + "], \"cities\": [" + cities + "], \"units\": [" + units + "], \"ships\": [" +
         ships + "], \"relations\": [" + relations + "], \"trade\": [" + trade + "]}}";
}

template <class T>
const T& Any(const std::vector<T>& v, const T& fallback) { return v.empty() ? fallback : v[Pick(static_cast<int>(v.size()))]; }

// A random order, as likely invalid as valid.
std::string RandomOrder(const Names& n, int state, int serial) {
  std::string st = "S" + std::to_string(state);
  std::string city = Any(n.cities, std::string("Nowhere"));
  std::string id = st + "-N" + std::to_string(serial);
  switch (Pick(9)) {
    case 0:
      return OrderItem(st, "TransferOrder", "{\"to_state\": \"S" + std::to_string(Pick(n.states)) +
                                                "\", \"amount_cc\": " + std::to_string(*rc::gen::inRange(-100, 400000)) + "}");
    case 1:
      return OrderItem(st, "BuildUnitOrder", "{\"city\": \"" + city + "\", \"type\": \"" + kUnitTypes[Pick(12)] +
                                                 "\", \"men\": " + std::to_string(*rc::gen::inRange(0, 5000)) +
                                                 ", \"batteries\": " + std::to_string(Pick(5)) + ", \"id\": \"" + id + "\"}");
    case 2:
      return OrderItem(st, "BuildShipOrder", "{\"port\": \"" + city + "\", \"type\": \"" + kShipTypes[Pick(4)] +
                                                 "\", \"frigates\": " + std::to_string(Pick(3)) + ", \"capacity\": " +
                                                 std::to_string(*rc::gen::inRange(0, 9000)) + ", \"id\": \"" + id + "\"}");
    case 3:
      return OrderItem(st, "ReinforceOrder", "{\"unit\": \"" + (Pick(2) ? Any(n.units, id) : Any(n.ships, id)) +
                                                 "\", \"men\": " + std::to_string(*rc::gen::inRange(-10, 3000)) +
                                                 ", \"batteries\": " + std::to_string(Pick(3)) + "}");
    case 4:
      return OrderItem(st, "DisbandOrder", "{\"unit\": \"" + Any(n.units, id) + "\"}");
    case 5:
      return OrderItem(st, "RemoveShipOrder", "{\"ship\": \"" + Any(n.ships, id) + "\"}");
    case 6:
      return OrderItem(st, "BuySuppliesOrder", "{\"city\": \"" + city + "\", \"supplies\": " + std::to_string(Pick(30)) +
                                                   ", \"stores\": " + std::to_string(Pick(80)) + "}");
    case 7:
      return OrderItem(st, "StandingSupplyOrder", "{\"city\": \"" + city + "\", \"supplies\": " + std::to_string(Pick(8)) + "}");
    default:
      return OrderItem(st, "RepairOrder", "{\"city\": \"" + city + "\", \"what\": \"" + (Pick(2) ? "Fort" : "Battery") + "\"}");
  }
}

// A random GA directive, which the rules may refuse.
std::pair<std::string, std::string> RandomDirective(const Names& n, const NwolState& s) {
  std::string a = "S" + std::to_string(Pick(n.states)), b = "S" + std::to_string(Pick(n.states));
  std::string unit = Any(n.units, std::string("none")), ship = Any(n.ships, std::string("none"));
  int32_t men = s.units.count(unit) ? s.units.at(unit).men : 0;
  int64_t crew = s.ships.count(ship) ? s.ships.at(ship).men() : 0;
  switch (Pick(10)) {
    case 0: return {"SetRelation", "{\"a\": \"" + a + "\", \"b\": \"" + b + "\", \"relation\": \"" + kRelations[Pick(3)] + "\"}"};
    case 1: return {"DeclareBlockade", "{\"by\": \"" + a + "\", \"against\": \"" + b + "\", \"lift\": " + (Pick(3) ? "false" : "true") + "}"};
    case 2: return {"DeclareEmbargo", "{\"by\": \"" + a + "\", \"against\": \"" + b + "\", \"lift\": " + (Pick(3) ? "false" : "true") + "}"};
    case 3: return {"SetCityControl", "{\"city\": \"" + Any(n.cities, std::string("x")) + "\", \"controller\": \"" + a + "\"}"};
    case 4: return {"DestroyUnit", "{\"unit\": \"" + unit + "\", \"men_remaining\": " + std::to_string(men ? Pick(men + 1) : 0) + "}"};
    case 5: return {"LoseShip", "{\"ship\": \"" + ship + "\", \"crew_returning\": " + std::to_string(crew ? Pick(static_cast<int>(crew) + 1) : 0) + "}"};
    case 6: return {"MoveShip", "{\"ship\": \"" + ship + "\", \"location\": \"" + Any(n.cities, std::string("A0")) +
                                    "\", \"coastal\": true, \"mission\": \"" + kMissions[Pick(5)] + "\"}"};
    case 7: return {"EndCampaign", "{}"};
    case 8: return {"CorrectTreasury", "{\"state\": \"" + a + "\", \"amount_cc\": " + std::to_string(*rc::gen::inRange(-5000, 5000)) + "}"};
    default: return {"SetSeasonKind", "{\"year\": " + std::to_string(s.turn.major + 1) + ", \"season\": 1, \"kind\": \"" +
                                        (Pick(2) ? "Peace" : "War") + "\"}"};
  }
}


}  // namespace

TEST_CASE("sow invariants hold over random games", "[sow][property]") {
  rc::prop("conservation, limits, refusals without effect, rebuild == incremental", [] {
    TempDir dir;
    auto opened = ledger::Ledger::Open(dir.Sub("db"));
    RC_ASSERT(opened.ok());
    auto& db = **opened;
    Names names;
    std::string scenario = RandomScenario(&names);
    RC_ASSERT(CreateSowGame(db, "g", scenario).ok());
    const NwolState opening = Nwol(db, "g");
    const int64_t men_at_start = MenLedger(opening);
    int serial = 0;
    bool built = false, any_refused = false, season_ended = false;
    for (int turn = *rc::gen::inRange(1, 9); turn > 0; --turn) {
      // Orders from every state (the monarch may give any).
      NwolState s = Nwol(db, "g");
      if (sow::OrderPosition(s).ok()) {
        for (int st = 0; st < names.states; ++st) {
          std::vector<std::string> items;
          for (int k = Pick(4); k > 0; --k) items.push_back(RandomOrder(names, st, serial++));
          if (items.empty()) continue;
          auto r = Order(db, "g", "p" + std::to_string(st), OrderFile(items));
          RC_ASSERT(r.ok());
        }
      }
      // Now and then a GA directive; a refused one appends nothing.
      if (Pick(3) == 0) {
        s = Nwol(db, "g");
        auto [kind, body] = RandomDirective(names, s);
        uint64_t head = db.HeadOf("g", "main")->seq;
        auto r = Directive(db, "g", kind, body);
        if (!r.ok()) RC_ASSERT(db.HeadOf("g", "main")->seq == head);
      }
      // Adjudicate the turn phase by phase, checking as it goes.
      do {
        NwolState before = Nwol(db, "g");
        auto ph = replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kPhase);
        RC_ASSERT(ph.ok());
        const auto& rep = ph->front();
        NwolState after = Nwol(db, "g");
        // Money: every balance is its opening plus its lines.
        for (const auto& [id, a] : after.states) {
          RC_ASSERT(a.treasury_cc == a.opening_cc + a.credits_cc - a.debits_cc);
        }
        // Manpower: nobody appears or vanishes unrecorded.
        RC_ASSERT(MenLedger(after) == men_at_start);
        if (rep.at.phase == sow::kOrders && !sow::IsSeasonEnd(rep.at.turn)) {
          // No accepted order overdraws a treasury.
          for (const auto& [id, a] : after.states) {
            RC_ASSERT(a.treasury_cc >= std::min<int64_t>(before.states.at(id).treasury_cc, 0));
          }
        }
        // Limits: builds per city (4.6), dockyards (4.6), sizes (4.7).
        std::map<std::string, int> units_building, ships_building;
        for (const auto& [id, b] : after.builds) {
          if (b.is_ship && b.ship.type != P::ShipType::TR) ships_building[b.city]++;
          if (!b.is_ship) units_building[b.city]++;
        }
        for (const auto& [city, n] : units_building) RC_ASSERT(n <= sow::CityBuildLimit(after.cities.at(city).level));
        for (const auto& [city, n] : ships_building) RC_ASSERT(n <= after.cities.at(city).dockyards);
        for (const auto& [id, u] : after.units) {
          RC_ASSERT(sow::WithinSizeLimit(static_cast<fb::SowUnitType>(u.type), u.men, u.batteries));
        }
        // A refused order has no effect: no outcome names it.
        std::set<uint64_t> refused;
        std::vector<uint64_t> acted;
        RC_ASSERT(db.Read("g", "main", rep.first_seq, rep.last_seq, [&](const ledger::EventView& e) {
                    const fb::Event& ev = *e.event();
                    if (auto* r = ev.payload_as_OrderRejected()) refused.insert(r->order_seq());
                    if (auto* se = ev.payload_as_SowEvent()) {
                      if (auto* l = se->body_as_TreasuryLine()) acted.push_back(l->order_seq());
                      if (auto* l = se->body_as_ManpowerLine()) acted.push_back(l->order_seq());
                      if (auto* l = se->body_as_BuildStarted()) acted.push_back(l->order_seq());
                      if (auto* l = se->body_as_SuppliesBought()) acted.push_back(l->order_seq());
                    }
                    return Status::Ok();
                  }).ok());
        for (uint64_t seq : acted) RC_ASSERT(seq == 0 || !refused.count(seq));
        built |= !after.builds.empty();
        any_refused |= !refused.empty();
        season_ended |= sow::IsSeasonEnd(rep.at.turn);
      } while (Treasury(db, "g").phase_done != sow::LastPhaseOf(Treasury(db, "g"), Treasury(db, "g").turn));
    }
    // Rebuild from zero == the digests recorded as the phases ran.
    std::vector<std::pair<std::string, Hash128>> recorded;
    uint64_t completed_at = 0;
    RC_ASSERT(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                if (auto* pc = e.event()->payload_as_PhaseCompleted()) {
                  recorded.clear();
                  for (const auto* d : *pc->digests()) {
                    recorded.emplace_back(d->projection()->str(), Hash128{d->digest()->hi(), d->digest()->lo()});
                  }
                  completed_at = e.seq;
                }
                return Status::Ok();
              }).ok());
    RC_ASSERT(completed_at > 0);
    // What the random games exercised (printed with -s).
    RC_CLASSIFY(built, "an order built something");
    RC_CLASSIFY(any_refused, "an order was refused");
    RC_CLASSIFY(season_ended, "a season ended");
    auto fresh = P::AllProjections();
    std::vector<P::Projection*> ps;
    for (auto& p : fresh) ps.push_back(p.get());
    RC_ASSERT(replay::Rebuild(db, "g", "main", completed_at - 1, ps, {.use_snapshots = false}).ok());
    // The projections this game has (the y1820 one has no part in it).
    std::erase_if(ps, [](const P::Projection* p) { return !p->applies(); });
    RC_ASSERT(recorded.size() == ps.size());
    for (size_t i = 0; i < ps.size(); ++i) {
      RC_ASSERT(recorded[i].first == std::string(ps[i]->name()));
      RC_ASSERT(recorded[i].second == ps[i]->Digest());
    }
  });
}
