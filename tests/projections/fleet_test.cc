// The fleet projection (projections/fleet.h): the ships of an NWOL game,
// moved out of the treasury (issue 18). The fleet holds exactly what the
// treasury held of them (the treasury@4 digests a release recorded are
// rebuilt from treasury@7 and fleet@1), it follows movement, building and
// loss, the treasury no longer encodes a ship, the fleet is no part of a
// y1820 or dog game's digests, and a game recorded before the split still
// audits identical.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "projections/archive.h"
#include "projections/fleet.h"
#include "projections/treasury.h"
#include "replay/audit.h"
#include "replay/driver.h"
#include "schema/event_generated.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"

// The treasury@4 encoding, field for field as projections/treasury.cc listed
// it before the split (and lists it still, less the ships): rebuilt here to
// compare with the digests a release recorded.
namespace adjutant::projections {
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
template <class A> void Visit(A& a, Ship& s) {
  a(s.id, s.state, s.type, s.crew, s.frigates, s.capacity, s.base, s.location, s.in_port, s.coastal, s.active,
    s.mission, s.crewed_on, s.name, s.marines, s.quality, s.morale, s.experience, s.stores, s.hull, s.rigging,
    s.tactical, s.attached_to, s.crossing_turns, s.reactivating, s.windward, s.start_location, s.moved_on,
    s.cargo_units, s.cargo_supplies, s.loading);
}
}  // namespace adjutant::projections

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;

namespace {

const std::string F = ADJUTANT_FIXTURES;

// The treasury has no ships of its own any more.
template <class T>
concept HasShips = requires(const T& t) { t.ships; };
static_assert(!HasShips<P::TreasuryState>, "the ships are the fleet's (projections/fleet.h)");
static_assert(HasShips<P::FleetState>);

// What treasury@4 encoded: treasury@5's fields with the fleet's ships
// between the units and the relations (treasury@7's, less what 6 and 7 added).
std::string TreasuryV4(const P::Treasury& treasury, const P::FleetState& f) {
  P::TreasuryState copy = treasury.state();
  P::Enc head;
  head(copy.active, copy.last_seq, copy.turn, copy.phase_done, copy.season_kind, copy.season_of_kind,
       copy.campaign_ended, copy.season_plan, copy.states, copy.cities, copy.units);
  std::string prefix = head.Take();
  std::string now = treasury.Encode();
  REQUIRE(now.compare(0, prefix.size(), prefix) == 0);
  // treasury@6 added the cities an enemy entered, last, and what a repair
  // paid (a field of each repair under way: none in the release's game);
  // treasury@7 the same cities as sow=11 counts them, after them.
  P::Enc entered;
  entered(copy.enemy_entered, copy.enemy_entered_named);
  const std::string suffix = entered.Take();
  REQUIRE(now.size() >= prefix.size() + suffix.size());
  REQUIRE(now.compare(now.size() - suffix.size(), suffix.size(), suffix) == 0);
  now.resize(now.size() - suffix.size());
  REQUIRE(copy.repairs.empty());
  P::Enc ships;
  auto fleet = f.ships;
  ships(fleet);
  return prefix + ships.Take() + now.substr(prefix.size());
}

std::string CopyOfReleasedDb(const TempDir& dir) {
  const std::string db = dir.Sub("db");
  std::filesystem::copy(F + "/released-db/db", db, std::filesystem::copy_options::recursive);
  return db;
}

struct Recorded {
  uint64_t seq = 0;
  std::map<std::string, std::pair<Hash128, uint32_t>> digests;  // projection → digest, version
};

// Every PhaseCompleted of a branch with its digests.
std::vector<Recorded> Completions(ledger::Ledger& db, const std::string& game, const std::string& branch) {
  std::vector<Recorded> out;
  REQUIRE(db.Read(game, branch, 1, UINT64_MAX, [&](const ledger::EventView& e) {
    const auto* pc = e.event()->payload_as_PhaseCompleted();
    if (!pc || !pc->digests()) return Status::Ok();
    Recorded r{e.seq, {}};
    for (const auto* d : *pc->digests()) {
      r.digests[d->projection()->str()] = {Hash128{d->digest()->hi(), d->digest()->lo()}, d->version()};
    }
    out.push_back(std::move(r));
    return Status::Ok();
  }).ok());
  return out;
}

}  // namespace

TEST_CASE("fleet: a release's treasury@4 digests are rebuilt from treasury@7 and the fleet's ships",
          "[fleet][treasury][released]") {
  TempDir dir;
  auto db = ledger::Ledger::Open(CopyOfReleasedDb(dir));
  REQUIRE(db.ok());
  size_t checked = 0;
  for (const char* branch : {"main", "whatif"}) {
    for (const Recorded& r : Completions(**db, "nwol", branch)) {
      INFO(branch << " PhaseCompleted at seq " << r.seq);
      auto it = r.digests.find("treasury");
      REQUIRE(it != r.digests.end());
      REQUIRE(it->second.second == 4);         // recorded before the split
      CHECK_FALSE(r.digests.count("fleet"));   // no fleet then
      // The state the digests were taken of: every event before the PhaseCompleted.
      auto w = replay::Fold(**db, "nwol", branch, r.seq - 1);
      REQUIRE(w.ok());
      const P::FleetState& f = w->fleet().state();
      REQUIRE_FALSE(f.ships.empty());
      CHECK(Digest128(TreasuryV4(w->treasury(), f)) == it->second.first);
      // The treasury alone is not what was recorded: the ships are no longer in it.
      CHECK_FALSE(w->treasury().Digest() == it->second.first);
      ++checked;
    }
  }
  CHECK(checked >= 4);
}

TEST_CASE("fleet: the treasury's encoding holds no ship — the fleet's does", "[fleet][treasury]") {
  NwolDb g;
  auto w = replay::Fold(*g.db, "g", "main");
  REQUIRE(w.ok());
  const P::FleetState& f = w->fleet().state();
  REQUIRE(f.ships.count("BR1FL"));
  const std::string name = f.ships.at("BR1FL").name;
  REQUIRE_FALSE(name.empty());
  CHECK(w->fleet().Encode().find(name) != std::string::npos);
  CHECK(w->treasury().Encode().find(name) == std::string::npos);
  CHECK(w->treasury().version() == 7);
  CHECK(w->fleet().version() == 1);
  CHECK(w->fleet().applies());
}

TEST_CASE("fleet: after a turn the pate rules adjudicated, every ship is where her last ShipMoved put her",
          "[fleet][pate]") {
  NwolDb g;
  const P::FleetState opening = Fleet(*g.db, "g");
  auto r = Order(*g.db, "g", "nelson",
                 OrderFile({PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "NOS", "port": "London", "harbour": true})"),
                            PateItem("ShipOrders", R"({"ship": "BR4SL", "sea1": "NOS"})")}));
  REQUIRE(r.ok());
  REQUIRE(Turns(*g.db, "g", 1).ok());
  struct Move { std::string location; uint8_t tactical; bool harbour, coastal; uint8_t crossing; };
  std::map<std::string, Move> last;
  REQUIRE(g.db->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
    const auto* pe = e.event()->payload_as_PateEvent();
    if (const auto* m = pe ? pe->body_as_ShipMoved() : nullptr) {
      last[m->ship()->str()] = {m->location()->str(), m->tactical(), m->part() == fb::PortPart_Harbour,
                                m->part() == fb::PortPart_Coastal, m->crossing_turns()};
    }
    return Status::Ok();
  }).ok());
  REQUIRE_FALSE(last.empty());
  const P::FleetState f = Fleet(*g.db, "g");
  for (const auto& [id, sh] : f.ships) {
    INFO(id);
    auto m = last.find(id);
    if (m == last.end()) {
      REQUIRE(opening.ships.count(id));
      CHECK(sh.location == opening.ships.at(id).location);
      continue;
    }
    CHECK(sh.location == m->second.location);
    CHECK(sh.tactical == m->second.tactical);
    CHECK(sh.in_port == m->second.harbour);
    CHECK(sh.coastal == m->second.coastal);
    CHECK(sh.crossing_turns == m->second.crossing);
  }
  bool moved = false;
  for (const auto& [id, m] : last) moved = moved || (opening.ships.count(id) && opening.ships.at(id).location != m.location);
  CHECK(moved);
}

TEST_CASE("fleet: a ship SOW builds joins the fleet when her build completes", "[fleet][sow]") {
  NwolDb g;
  auto r = Order(*g.db, "g", "pitt",
                 OrderFile({OrderItem("BR", "BuildShipOrder",
                                      R"({"port": "Portsmouth", "type": "TR", "capacity": 2000, "id": "BR9TR"})")}));
  REQUIRE(r.ok());
  INFO(r->orders.at(0).reason);
  REQUIRE(r->orders.at(0).status == "stands");
  bool built = false;
  for (int turn = 0; turn < 6 && !built; ++turn) {
    REQUIRE(Turns(*g.db, "g", 1).ok());
    auto w = replay::Fold(*g.db, "g", "main");
    REQUIRE(w.ok());
    const P::TreasuryState& t = w->treasury().state();
    const P::FleetState& f = w->fleet().state();
    built = f.ships.count("BR9TR") > 0;
    // Being built she is the treasury's build and the fleet's record; built, a ship of the fleet.
    CHECK(built != (t.builds.count("BR9TR") > 0));
    CHECK(built != (f.building.count("BR9TR") > 0));
    if (built) {
      const P::Ship& sh = f.ships.at("BR9TR");
      CHECK(sh.state == "BR");
      CHECK(sh.type == P::ShipType::TR);
      CHECK(sh.capacity == 2000);
      CHECK(sh.location == "Portsmouth");
    }
  }
  CHECK(built);
}

TEST_CASE("fleet: a ship lost leaves the fleet, her troops the treasury, her followers follow none", "[fleet][sow]") {
  NwolDb g;
  REQUIRE(Fleet(*g.db, "g").ships.count("BR1FL"));
  std::set<std::string> followers;
  for (const auto& [id, sh] : Fleet(*g.db, "g").ships) if (sh.attached_to == "BR1FL") followers.insert(id);
  REQUIRE(Directive(*g.db, "g", "LoseShip", R"({"ship": "BR1FL", "crew_returning": 0})").ok());
  const NwolState s = Nwol(*g.db, "g");
  CHECK_FALSE(s.ships.count("BR1FL"));
  for (const auto& id : followers) CHECK(s.ships.at(id).attached_to.empty());
  for (const auto& [id, u] : s.units) CHECK(u.aboard != "BR1FL");
}

TEST_CASE("fleet: no part of a y1820 or a dog game's digests — treasury@7 and fleet@1 in an NWOL game's",
          "[fleet][history]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  struct Game { std::string name; std::vector<std::string> create; bool nwol; };
  const std::vector<Game> games = {
      {"nwol", {"--scenario", F + "/scenarios/nwol-1805.json", "--map", F + "/maps/nwol-waters.json", "--seed", "1805"}, true},
      {"europe", {"--scenario", F + "/y1820/europe-1820.json", "--map", F + "/y1820/europe-1820.map.json", "--seed", "1820"}, false},
      {"talavera", {"--scenario", F + "/dog/talavera-brigade.json", "--seed", "1809"}, false},
  };
  for (const Game& g : games) {
    std::vector<std::string> args = {"--db", db, "new", g.name};
    args.insert(args.end(), g.create.begin(), g.create.end());
    Run made = Adjutant(args);
    INFO(made.err);
    REQUIRE(made.code == 0);
    Run adj = Adjutant({"--db", db, "adjudicate", g.name, "--phase"});
    INFO(adj.err);
    REQUIRE(adj.code == 0);
  }
  auto l = ledger::Ledger::Open(db);
  REQUIRE(l.ok());
  for (const Game& g : games) {
    INFO(g.name);
    auto done = Completions(**l, g.name, "main");
    REQUIRE_FALSE(done.empty());
    for (const Recorded& r : done) {
      CHECK(r.digests.count("fleet") == (g.nwol ? 1u : 0u));
      if (g.nwol) {
        CHECK(r.digests.at("fleet").second == 1);
        CHECK(r.digests.at("treasury").second == 7);
      }
    }
  }
}

TEST_CASE("fleet: a game recorded before the split audits identical, its treasury@4 digests not compared",
          "[fleet][released][audit]") {
  TempDir dir;
  auto db = ledger::Ledger::Open(CopyOfReleasedDb(dir));
  REQUIRE(db.ok());
  for (const char* branch : {"main", "whatif"}) {
    auto turns = replay::AdjudicatedTurns(**db, "nwol", branch);
    REQUIRE(turns.ok());
    REQUIRE_FALSE(turns->empty());
    for (const Turn& t : *turns) {
      auto r = replay::AuditTurn(**db, "nwol", branch, t);
      REQUIRE(r.ok());
      INFO(branch << " " << t.ToString() << ": " << r->reason << " at " << r->seq << "\nrecorded " << r->recorded
                  << "\nproduced " << r->produced);
      CHECK(r->identical);
      CHECK(r->views_not_compared >= r->phases);  // the treasury's, at every phase
    }
  }
}

TEST_CASE("fleet: a ship her state removes leaves the fleet — the treasury notes it on that state's statement",
          "[fleet][treasury][sow]") {
  NwolDb g;
  auto r = Order(*g.db, "g", "pitt", OrderFile({OrderItem("BR", "RemoveShipOrder", R"({"ship": "BR1TR"})")}));
  REQUIRE(r.ok());
  INFO(r->orders.at(0).reason);
  REQUIRE(r->orders.at(0).status == "stands");
  REQUIRE(Turns(*g.db, "g", 1).ok());
  const NwolState s = Nwol(*g.db, "g");
  CHECK_FALSE(s.ships.count("BR1TR"));
  const auto& notes = s.states.at("BR").notes;
  CHECK(std::find(notes.begin(), notes.end(), "BR1TR removed from the game (SOW 4.10)") != notes.end());
}
