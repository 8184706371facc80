// PATE invariants as properties over random games: the small scenario of
// support/pate_game.h with random order forms for every ship, whole turns
// adjudicated through the driver (economy and naval phases, counter dice
// from a random seed).
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <regex>
#include <set>

#include "cli/report_common.h"
#include "ledger/ledger.h"
#include "projections/roster.h"
#include "replay/audit.h"
#include "replay/driver.h"
#include "rules/pate/map.h"
#include "schema/event_generated.h"
#include "rules/sow/economy.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;

namespace {

const std::vector<std::pair<std::string, std::string>> kCommanders = {
    {"BR1FL", "nelson"}, {"BR2SL", "nelson"},     {"BR1FR", "nelson"},     {"BR4SL", "nelson"},
    {"BR5SL", "nelson"}, {"BR1SL", "collingwood"}, {"FR1SL", "villeneuve"}, {"FR2SL", "villeneuve"},
    {"FR1FR", "villeneuve"}, {"FR3SL", "villeneuve"}, {"SP1SL", "gravina"}, {"BR1TR", "troubridge"}};
const std::vector<std::string> kAreas = {"ECH", "NOS", "BIS", "WAP", "IBC", "SOA", "WMD", "SWA", "XYZ"};
const std::vector<std::string> kPorts = {"", "", "Portsmouth", "Brest", "London", "Cadiz", "Gibraltar", "Toulon"};

template <class T>
const T& OneOf(const std::vector<T>& v) {
  return v[*rc::gen::inRange<size_t>(0, v.size())];
}

std::string RandomOrders(const std::string& ship) {
  std::string f = "{\"ship\": \"" + ship + "\"";
  auto add = [&](const std::string& kv) { f += ", " + kv; };
  if (*rc::gen::inRange(0, 3) > 0) add("\"sea1\": \"" + OneOf(kAreas) + "\"");
  if (*rc::gen::inRange(0, 3) == 0) add("\"sea2\": \"" + OneOf(kAreas) + "\"");
  if (const auto& port = OneOf(kPorts); !port.empty()) add("\"port\": \"" + port + "\"");
  if (*rc::gen::inRange(0, 2)) add("\"harbour\": true");
  add("\"contact\": \"" + OneOf(std::vector<std::string>{"Accept", "Pursue", "Evade"}) + "\"");
  if (*rc::gen::inRange(0, 3) == 0) add("\"min_ships\": " + std::to_string(*rc::gen::inRange(0, 4)));
  if (*rc::gen::inRange(0, 3) == 0) add("\"max_ships\": " + std::to_string(*rc::gen::inRange(0, 4)));
  add("\"engage\": \"" + OneOf(std::vector<std::string>{"Accept", "Close", "Evade"}) + "\"");
  if (*rc::gen::inRange(0, 2)) add("\"line\": \"BreakLine\"");
  if (*rc::gen::inRange(0, 2)) add("\"aim\": \"Hull\"");
  if (*rc::gen::inRange(0, 2)) add("\"gauge\": \"Windward\"");
  add("\"stores\": " + std::to_string(*rc::gen::inRange(-1, 25)));
  if (*rc::gen::inRange(0, 4) == 0) add("\"attach_to\": \"" + OneOf(kCommanders).first + "\"");
  if (*rc::gen::inRange(0, 6) == 0) add("\"detach\": true");
  if (ship == "BR1TR" && *rc::gen::inRange(0, 2)) {
    bool unload = *rc::gen::inRange(0, 2);
    add(std::string("\"amphibious\": [") + (*rc::gen::inRange(0, 2) ? "{\"unit\": \"BR1IN\"" : "{\"supplies\": 5") +
        (unload ? ", \"unload\": true}]" : "}]"));
  }
  return f + "}";
}

// Plays `turns` turns of random orders, calling `check` on the opening state
// and after every turn; returns the log's head hash.
Hash128 Play(ledger::Ledger& db, uint64_t seed, const std::vector<std::vector<std::pair<std::string, std::string>>>& turns,
             const std::function<void(const P::TreasuryState&)>& check) {
  RC_ASSERT(CreateNwolGame(db, "g", PateScenario(), seed).ok());
  check(Treasury(db, "g"));
  for (const auto& orders : turns) {
    for (const auto& [person, json] : orders) {
      auto r = Order(db, "g", person, OrderFile({PateItem("ShipOrders", json)}));
      RC_ASSERT(r.ok());
    }
    auto t = replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn);
    RC_ASSERT(t.ok());
    check(Treasury(db, "g"));
  }
  return db.HeadOf("g", "main")->hash;
}

}  // namespace

TEST_CASE("PATE invariants hold over random games", "[pate][property]") {
  rc::prop("one place per ship, damage 0..5 and hull 5 sunk, stores, crews, no chains, men conserved, no report "
           "leaks, audits identical, determinism", [] {
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    std::vector<std::vector<std::pair<std::string, std::string>>> turns(*rc::gen::inRange(1, 4));
    for (auto& orders : turns) {
      for (const auto& [ship, person] : kCommanders) {
        if (*rc::gen::inRange(0, 4) > 0) orders.emplace_back(person, RandomOrders(ship));
      }
    }
    RC_LOG() << "seed " << seed << "\n";
    for (const auto& orders : turns) {
      RC_LOG() << "turn:\n";
      for (const auto& [person, json] : orders) RC_LOG() << "  " << person << " " << json << "\n";
    }
    TempDir dir;
    auto a = ledger::Ledger::Open(dir.Sub("a"));
    RC_ASSERT(a.ok());
    auto check = [&](const P::TreasuryState& s) {
      for (const auto& [id, sh] : s.ships) {
        // A ship is in exactly one place: a port (harbour or coastal waters)
        // or one tactical area of a sea area, or crossing the Atlantic.
        bool port = s.cities.count(sh.location) > 0;
        RC_ASSERT(!(sh.in_port && sh.coastal));
        if (sh.crossing_turns == 0 && sh.active) {
          RC_ASSERT(port == (sh.in_port || sh.coastal));
          if (!port) RC_ASSERT(sh.tactical >= 1 && sh.tactical <= 4);
        }
        // Damage within 0..5; a ship afloat has hull below 5 (hull 5 is sunk).
        RC_ASSERT(sh.hull <= 4);
        RC_ASSERT(sh.rigging <= 5);
        // Stores never negative (nor wrapped), within what she carries.
        RC_ASSERT(sh.stores <= 24 + (sh.type == P::ShipType::TR ? sh.capacity / 20 : 0));
        // Crews within the limits (PATE 2.7).
        auto full = rules::sow::FullComplement(static_cast<fb::SowShipType>(sh.type), sh.frigates, sh.capacity);
        RC_ASSERT(sh.crew >= 0);
        RC_ASSERT(sh.marines >= 0);
        if (sh.type != P::ShipType::TR) {
          RC_ASSERT(sh.crew <= full.crew);
          RC_ASSERT(sh.marines <= full.marines);
        }
        // Attachment never forms a chain (PATE 4.4).
        if (!sh.attached_to.empty()) {
          auto l = s.ships.find(sh.attached_to);
          RC_ASSERT(l != s.ships.end());
          RC_ASSERT(l->second.attached_to.empty());
        }
      }
      for (const auto& [name, c] : s.cities) RC_ASSERT(c.stores >= 0);
    };
    int64_t opening = -1;
    Hash128 first = Play(**a, seed, turns, [&](const P::TreasuryState& s) {
      check(s);
      // Men: nobody appears or vanishes unrecorded (storms, battles, prizes).
      if (opening < 0) opening = MenLedger(s);
      RC_ASSERT(MenLedger(s) == opening);
    });
    // What the random games exercised (printed with -s).
    bool moved = false, fought = false, taken = false;
    RC_ASSERT((*a)->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                    if (auto* pe = e.event()->payload_as_PateEvent()) {
                      moved |= pe->body_type() == fb::PateEventBody_ShipMoved;
                      taken |= pe->body_type() == fb::PateEventBody_ShipCaptured || pe->body_type() == fb::PateEventBody_ShipSunk;
                      if (auto* o = pe->body_as_Observed()) fought |= o->kind() == fb::ObservationKind_Battle;
                    }
                    return Status::Ok();
                  }).ok());
    RC_CLASSIFY(moved, "a ship moved");
    RC_CLASSIFY(fought, "a battle was fought");
    RC_CLASSIFY(taken, "a ship was taken or sunk");
    // A player's reports name no ship or unit outside what his ships saw
    // (DESIGN inv. 8): every id in the text, JSON-free, and the SVG of every
    // person, every turn, is one of his ships, an id his ships' observations
    // of that turn name, or the ship one of his follows — worked out here
    // from the log itself, not from the view the reports use.
    const std::regex id_form("\\b[A-Z]{2}[1-9][0-9]*[A-Z]{2}\\b");
    for (size_t k = 0; k < turns.size(); ++k) {
      const Turn turn{1805, 1, static_cast<int32_t>(k + 1)};
      auto end = cli::EndOfTurn(**a, "g", "main", turn);
      RC_ASSERT(end.ok());
      struct Seen { std::string observer, state; std::vector<std::string> ids; };
      std::vector<Seen> seen;
      RC_ASSERT((*a)->Read("g", "main", 1, *end, [&](const ledger::EventView& e) {
                      const fb::Turn* t = e.event()->turn();
                      auto* pe = e.event()->payload_as_PateEvent();
                      auto* o = pe ? pe->body_as_Observed() : nullptr;
                      if (!o || !t || Turn{t->major(), t->minor(), t->step()} != turn) return Status::Ok();
                      Seen x{o->observer()->str(), o->state() ? o->state()->str() : "", {}};
                      if (o->seen()) for (const auto* id : *o->seen()) x.ids.push_back(id->str());
                      seen.push_back(std::move(x));
                      return Status::Ok();
                    }).ok());
      auto then = replay::Fold(**a, "g", "main", *end);
      RC_ASSERT(then.ok());
      const P::TreasuryState ts = then->treasury().state();
      const P::RosterState roster = then->roster().state();
      for (const auto& [person, pr] : roster.persons) {
        std::set<std::string> mine, allowed;
        std::set<std::string> naval;
        for (const auto& role : pr.roles) {
          size_t dot = role.rfind('.');
          std::string who = role.substr(0, dot), post = role.substr(dot + 1);
          if (post == "commander" || post == "deputy") mine.insert(who);
          if (post == "naval") naval.insert(who);
        }
        for (const auto& [id, sh] : ts.ships) if (naval.count(sh.state)) mine.insert(id);
        for (const auto& x : seen) {
          std::string prefix = x.observer.substr(0, 2);
          if (naval.count(x.state) || (x.state.empty() && naval.count(prefix) && !ts.ships.count(x.observer))) {
            mine.insert(x.observer);
          }
        }
        allowed = mine;
        for (const auto& x : seen) {
          if (mine.count(x.observer)) allowed.insert(x.ids.begin(), x.ids.end());
        }
        for (const auto& id : mine) {
          auto sh = ts.ships.find(id);
          if (sh != ts.ships.end() && !sh->second.attached_to.empty()) allowed.insert(sh->second.attached_to);
        }
        auto fresh = replay::Fold(**a, "g", "main", *end);
        RC_ASSERT(fresh.ok());
        auto text = cli::RenderPlayerReports(std::move(fresh).value(), *end, "g", "main", person, turn);
        RC_ASSERT(text.ok());
        for (const std::string* doc : {&text->events, &text->positions, &text->svg}) {
          for (std::sregex_iterator it(doc->begin(), doc->end(), id_form), stop; it != stop; ++it) {
            if (!allowed.count(it->str())) {
              RC_LOG() << person << " is shown " << it->str() << " in turn " << turn.ToString() << "\n";
              RC_FAIL("a report names a ship or unit its reader's ships did not see");
            }
          }
        }
      }
    }
    // Audit: every turn adjudicated again gives the log's events, byte for byte.
    for (size_t k = 0; k < turns.size(); ++k) {
      auto audit = replay::AuditTurn(**a, "g", "main", Turn{1805, 1, static_cast<int32_t>(k + 1)});
      RC_ASSERT(audit.ok());
      if (!audit->identical) RC_LOG() << "audit parts at seq " << audit->seq << ": " << audit->reason << "\n";
      RC_ASSERT(audit->identical);
    }
    // The same game, orders and dice give the same events, byte for byte.
    auto b = ledger::Ledger::Open(dir.Sub("b"));
    RC_ASSERT(b.ok());
    Hash128 second = Play(**b, seed, turns, [](const P::TreasuryState&) {});
    RC_ASSERT(first == second);
  });
}
