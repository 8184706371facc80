// The visibility view (PATE 5, 3.11; DESIGN inv. 8): every ship's
// observations folded from Observed events, and which of them reach whom
// (PATE 2.3) — a commander or deputy through his ships, a Naval Minister
// through all his state's, nobody through a ship not his.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "ledger/ledger.h"
#include "projections/fleet.h"
#include "projections/visibility.h"
#include "replay/driver.h"
#include "schema/event_generated.h"
#include "support/pate_game.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;
namespace P = adjutant::projections;

namespace {

using Body = std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)>;

Draft PateDraft(const TurnPhase& at, fb::PateEventBody type, Body body) {
  Draft d;
  d.at = at;
  d.ruleset = "pate";
  d.rules_version = 1;
  d.payload = [type, body](flatbuffers::FlatBufferBuilder& f) {
    auto b = body(f);
    auto e = fb::CreatePateEvent(f, type, b);
    return PayloadRef{fb::Payload_PateEvent, e.o};
  };
  return d;
}

struct Seen {
  std::string observer;
  fb::ObservationKind kind = fb::ObservationKind_Contact;
  std::string location;
  std::vector<std::string> seen;
  int count = 0;
  bool windward = false, harbour = false;
  std::string text, rule = "PATE 5.1";
};

Draft ObservedDraft(const TurnPhase& at, const Seen& s) {
  return PateDraft(at, fb::PateEventBody_Observed, [s](flatbuffers::FlatBufferBuilder& f) {
    auto observer = f.CreateString(s.observer), location = f.CreateString(s.location);
    auto seen = f.CreateVectorOfStrings(s.seen);
    auto text = f.CreateString(s.text), rule = f.CreateString(s.rule);
    return fb::CreateObserved(f, observer, s.kind, location, seen, s.count, s.windward, s.harbour, text, rule)
        .Union();
  });
}

Draft AssignedDraft(const TurnPhase& at, const std::string& ship, const std::string& commander,
                    const std::string& deputy) {
  return PateDraft(at, fb::PateEventBody_CommandAssigned, [=](flatbuffers::FlatBufferBuilder& f) {
    return fb::CreateCommandAssignedDirect(f, ship.c_str(), commander.c_str(), deputy.c_str(), 0).Union();
  });
}

const TurnPhase kT1Combat{{1805, 1, 1}, 8};
const TurnPhase kT1Intel{{1805, 1, 1}, 11};
const TurnPhase kT2Combat{{1805, 1, 2}, 8};

struct Game {
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;
  Game() {
    auto l = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(l.ok());
    db = std::move(l).value();
    auto st = CreateNwolGame(*db, "g", PateScenario());
    INFO(st.message());
    REQUIRE(st.ok());
  }
  void Append(std::vector<Draft> drafts) {
    auto h = db->HeadOf("g", "main");
    REQUIRE(h.ok());
    auto r = db->Append("g", "main", h->seq, drafts);
    INFO((r.ok() ? "" : r.status().message()));
    REQUIRE(r.ok());
  }
  replay::World World() {
    auto w = replay::Fold(*db, "g", "main");
    REQUIRE(w.ok());
    return std::move(w).value();
  }
  static const P::Visibility& Vis(const replay::World& w) {
    const P::Visibility* found = nullptr;
    for (const auto& p : w.projections) {
      if (auto* v = dynamic_cast<const P::Visibility*>(p.get())) found = v;
    }
    REQUIRE(found != nullptr);  // registered in AllProjections()
    return *found;
  }
  P::PlayerView View(const std::string& person, const Turn& t) {
    auto w = World();
    return P::ViewOf(w.roster().state(), w.fleet().state().ships, Vis(w).state(), person, t);
  }
  // The observers whose observations of turn `t` reach `person`.
  std::vector<std::string> Observers(const std::string& person, const Turn& t) {
    std::vector<std::string> out;
    for (const auto& [ship, obs] : View(person, t).observations) out.push_back(ship);
    return out;
  }
};

// One observation by each of five ships: nelson's BR2SL and BR1FR,
// collingwood's BR1SL, the commander-less BR1TR, and villeneuve's FR1FR.
void ObserveTurnOne(Game& g) {
  g.Append({ObservedDraft(kT1Combat, {"BR2SL", fb::ObservationKind_Contact, "ECH", {"FR1FR"}, 0, true, false, "", "PATE 5.1"}),
            ObservedDraft(kT1Combat, {"FR1FR", fb::ObservationKind_Contact, "ECH", {"BR2SL"}, 0, false, false, "", "PATE 5.1"}),
            ObservedDraft(kT1Intel, {"BR1FR", fb::ObservationKind_FrigateSighting, "BIS", {}, 3, false, false, "", "PATE 5.2"}),
            ObservedDraft(kT1Intel, {"BR1SL", fb::ObservationKind_Intelligence, "Portsmouth", {"SP1SL"}, 1, false, false, "", "PATE 5.4"}),
            ObservedDraft(kT1Intel, {"BR1TR", fb::ObservationKind_Event, "Portsmouth", {}, 0, false, false, "a gale in the Channel", "PATE 8"})});
}

}  // namespace

TEST_CASE("PATE 5: the visibility view keeps each ship's observations of the latest turn, with their phase", "[pate][visibility]") {
  Game g;
  ObserveTurnOne(g);
  auto h1 = g.db->HeadOf("g", "main");
  REQUIRE(h1.ok());
  const uint64_t end_of_one = h1->seq;
  g.Append({ObservedDraft(kT2Combat, {"BR2SL", fb::ObservationKind_Contact, "BIS", {"FR1SL", "FR2SL"}, 0, false, false, "", "PATE 5.1"})});

  // Folded to the end of turn 1 (what a report of turn 1 reads): all five
  // ships' observations of that turn.
  auto then = replay::Fold(*g.db, "g", "main", end_of_one);
  REQUIRE(then.ok());
  const P::VisibilityState& t1 = Game::Vis(*then).state();
  REQUIRE(t1.by_ship.size() == 5);
  CHECK(t1.last_turn == Turn{1805, 1, 1});
  const auto& first = t1.by_ship.at("BR2SL");
  REQUIRE(first.size() == 1);
  CHECK(first[0].turn == Turn{1805, 1, 1});
  CHECK(first[0].phase == 8);
  CHECK(first[0].kind == P::ObservationKind::Contact);
  CHECK(first[0].location == "ECH");
  CHECK(first[0].seen == std::vector<std::string>{"FR1FR"});
  CHECK(first[0].windward);
  const auto& sighting = t1.by_ship.at("BR1FR").at(0);
  CHECK(sighting.kind == P::ObservationKind::FrigateSighting);
  CHECK(sighting.seen.empty());
  CHECK(sighting.count == 3);
  CHECK(sighting.rule == "PATE 5.2");
  CHECK(t1.by_ship.at("BR1TR").at(0).text == "a gale in the Channel");

  // At the head: turn 2's first observation retired turn 1's (version 2:
  // the state grows with the game's size, not its age, issue 22).
  auto w = g.World();
  const P::VisibilityState& s = Game::Vis(w).state();
  REQUIRE(s.by_ship.size() == 1);
  const auto& br2sl = s.by_ship.at("BR2SL");
  REQUIRE(br2sl.size() == 1);
  CHECK(br2sl[0].turn == Turn{1805, 1, 2});
  CHECK(br2sl[0].seen == std::vector<std::string>{"FR1SL", "FR2SL"});
  CHECK(br2sl[0].seq > first[0].seq);
  CHECK(s.any);
  CHECK(s.last_turn == Turn{1805, 1, 2});
  CHECK(Game::Vis(w).Encode().size() < Game::Vis(*then).Encode().size());

  // A fold: one event at a time from zero gives the same digest, and the
  // canonical encoding is its own snapshot (DESIGN inv. 6).
  P::Visibility one;
  REQUIRE(g.db->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
               one.Apply({e.seq, e.event(), e.bytes});
               return Status::Ok();
             }).ok());
  CHECK(one.Digest() == Game::Vis(w).Digest());
  P::Visibility back;
  REQUIRE(back.Decode(one.Encode()).ok());
  CHECK(back.Digest() == one.Digest());
  CHECK(back.state().by_ship.at("BR2SL").at(0).seen == br2sl[0].seen);
  std::string damaged = one.Encode();
  damaged.resize(damaged.size() - 3);
  CHECK_FALSE(back.Decode(damaged).ok());
  CHECK(std::string(one.SnapshotName()) == "visibility@2");
}

TEST_CASE("PATE 2.3: a commander sees through his ships, a Naval Minister through all his state's", "[pate][visibility]") {
  Game g;
  ObserveTurnOne(g);
  const Turn t1{1805, 1, 1};
  auto has = [](const std::vector<std::string>& ships, const std::string& id) {
    return std::find(ships.begin(), ships.end(), id) != ships.end();
  };
  // nelson commands BR1FL, BR2SL and BR1FR (and more of the scenario's),
  // not BR1SL, BR1TR or BR3SL: two of his observed something.
  auto nelson_ships = g.View("nelson", t1).ships;
  for (const char* id : {"BR1FL", "BR2SL", "BR1FR"}) CHECK(has(nelson_ships, id));
  for (const char* id : {"BR1SL", "BR1TR", "BR3SL", "FR1FR"}) CHECK_FALSE(has(nelson_ships, id));
  CHECK(g.Observers("nelson", t1) == std::vector<std::string>{"BR1FR", "BR2SL"});
  // collingwood: deputy of BR1FL, commander of BR1SL.
  CHECK(g.View("collingwood", t1).ships == std::vector<std::string>{"BR1FL", "BR1SL"});
  CHECK(g.Observers("collingwood", t1) == std::vector<std::string>{"BR1SL"});
  // barham, BR.naval: every British ship, with or without a commander.
  std::vector<std::string> british;
  auto world = g.World();
  for (const auto& [id, sh] : world.fleet().state().ships) if (sh.state == "BR") british.push_back(id);
  REQUIRE(british.size() >= 6);
  CHECK(g.View("barham", t1).ships == british);
  CHECK(g.Observers("barham", t1) == std::vector<std::string>{"BR1FR", "BR1SL", "BR1TR", "BR2SL"});
  CHECK(g.Observers("decres", t1) == std::vector<std::string>{"FR1FR"});
  CHECK(g.Observers("villeneuve", t1) == std::vector<std::string>{"FR1FR"});
  // Persons with no ship, and strangers, see nothing; pitt (BR.prime) is
  // not the Naval Minister.
  for (const char* nobody : {"hardy", "pitt", "gravina", "stranger"}) {
    INFO(nobody);
    CHECK(g.Observers(nobody, t1).empty());
  }
  CHECK(g.View("hardy", t1).ships.empty());
  // What a person may be shown: his ships and what they named, nothing else.
  auto nelson = g.View("nelson", t1);
  std::set<std::string> known(nelson_ships.begin(), nelson_ships.end());
  known.insert("FR1FR");
  CHECK(nelson.known_ids == known);
  CHECK(g.View("collingwood", t1).known_ids == std::set<std::string>{"BR1FL", "BR1SL", "SP1SL"});
  // Another turn's observations are not this turn's.
  CHECK(g.Observers("nelson", Turn{1805, 1, 2}).empty());
}

TEST_CASE("PATE 2.3: when a post moves, the ship's observations go with it", "[pate][visibility]") {
  Game g;
  ObserveTurnOne(g);
  const Turn t1{1805, 1, 1};
  REQUIRE(g.Observers("nelson", t1) == std::vector<std::string>{"BR1FR", "BR2SL"});
  // BR2SL's command passes to hardy (as the Naval Minister's AppointOrder
  // records it); nelson keeps BR1FR.
  g.Append({AssignedDraft(kT1Intel, "BR2SL", "hardy", "")});
  CHECK(g.Observers("nelson", t1) == std::vector<std::string>{"BR1FR"});
  CHECK(g.View("nelson", t1).known_ids.count("FR1FR") == 0);
  CHECK(g.Observers("hardy", t1) == std::vector<std::string>{"BR2SL"});
  CHECK(g.Observers("barham", t1).size() == 4);  // the minister's view is the state's
  // A deputy's post moves the same way.
  g.Append({AssignedDraft(kT1Intel, "BR1SL", "", "hardy")});
  CHECK(g.Observers("hardy", t1) == std::vector<std::string>{"BR1SL", "BR2SL"});
  CHECK(g.Observers("collingwood", t1) == std::vector<std::string>{"BR1SL"});  // still its commander
}

TEST_CASE("PATE 2.2, 2.3: a ship no longer afloat still reports to its posts and its state's minister", "[pate][visibility]") {
  CHECK(P::StateOfShipId("BR1FL") == "BR");
  CHECK(P::StateOfShipId("FR23SL") == "FR");
  CHECK(P::StateOfShipId("NE4TR") == "NE");
  CHECK(P::StateOfShipId("BRSL").empty());
  CHECK(P::StateOfShipId("BR1").empty());
  CHECK(P::StateOfShipId("1FL").empty());
  Game g;
  // BR9SL is not in the fleet (sunk or taken this turn), but she observed.
  g.Append({ObservedDraft(kT1Combat, {"BR9SL", fb::ObservationKind_Battle, "BIS", {"FR1SL"}, 0, false, false,
                                      "BR9SL struck to FR1SL", "PATE 7.8"})});
  const Turn t1{1805, 1, 1};
  CHECK(g.Observers("barham", t1) == std::vector<std::string>{"BR9SL"});
  CHECK(g.Observers("decres", t1).empty());
  CHECK(g.Observers("nelson", t1).empty());
  g.Append({AssignedDraft(kT1Combat, "BR9SL", "nelson", "")});
  CHECK(g.Observers("nelson", t1) == std::vector<std::string>{"BR9SL"});
}
