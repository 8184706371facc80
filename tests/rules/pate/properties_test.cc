// PATE invariants as properties over random games: the small scenario of
// support/pate_game.h with random order forms for every ship, whole turns
// adjudicated through the driver (economy and naval phases, counter dice
// from a random seed).
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include "ledger/ledger.h"
#include "replay/audit.h"
#include "replay/driver.h"
#include "rules/pate/map.h"
#include "schema/event_generated.h"
#include "support/nwol_invariants.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;

namespace {

// Plays `turns` turns of random orders, calling `check` on the opening state
// and after every turn; returns the log's head hash.
Hash128 Play(ledger::Ledger& db, uint64_t seed, const std::vector<std::vector<std::pair<std::string, std::string>>>& turns,
             const std::function<void(const NwolState&)>& check) {
  RC_ASSERT(CreateNwolGame(db, "g", PateScenario(), seed).ok());
  check(Nwol(db, "g"));
  for (const auto& orders : turns) {
    for (const auto& [person, json] : orders) {
      auto r = Order(db, "g", person, OrderFile({PateItem("ShipOrders", json)}));
      RC_ASSERT(r.ok());
    }
    auto t = replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn);
    RC_ASSERT(t.ok());
    check(Nwol(db, "g"));
  }
  return db.HeadOf("g", "main")->hash;
}

}  // namespace

TEST_CASE("PATE invariants hold over random games", "[pate][property]") {
  // PATE 1.2 (a ship is in exactly one place), DESIGN inv. 8 (a report names only what his ships saw): rules/pate/RULES.md cites this property for both.
  rc::prop("one place per ship, damage 0..5 and hull 5 sunk, stores, crews, no chains, men conserved, no report "
           "leaks, audits identical, determinism", [] {
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    std::vector<std::vector<std::pair<std::string, std::string>>> turns(*rc::gen::inRange(1, 4));
    for (auto& orders : turns) {
      for (const auto& [ship, person] : ShipCommanders()) {
        if (*rc::gen::inRange(0, 4) > 0) orders.emplace_back(person, RandomShipOrders(ship));
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
    auto check = [](const NwolState& s) {
      if (std::string broken = ShipInvariantBroken(s); !broken.empty()) RC_FAIL(broken);
    };
    int64_t opening = -1;
    Hash128 first = Play(**a, seed, turns, [&](const NwolState& s) {
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
    // (DESIGN inv. 8), any person, any turn.
    for (size_t k = 0; k < turns.size(); ++k) {
      auto leak = ReportLeak(**a, "g", "main", Turn{1805, 1, static_cast<int32_t>(k + 1)});
      RC_ASSERT(leak.ok());
      if (!leak->empty()) RC_FAIL(*leak);
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
    Hash128 second = Play(**b, seed, turns, [](const NwolState&) {});
    RC_ASSERT(first == second);
  });
}
