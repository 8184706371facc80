// The visibility view (ruleset pate): what each ship observed in the
// latest turn any ship observed something in — contacts (PATE 5.1), frigates' sightings (5.2), land units seen
// from ports (5.3), intelligence (5.4), and the battles and events it
// witnessed — folded from the Observed events the pate phases emit. A
// ship's commander, deputy and Naval Minister see through it (2.3), and a
// player's two reports (3.11) are rendered from this view and his own
// ships only (ARCHITECTURE I8): `ViewOf` is the one door to it.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/turn.h"
#include "projections/projection.h"
#include "projections/roster.h"
#include "projections/treasury.h"

namespace adjutant::projections {

// Mirrors fb::ObservationKind (checked in visibility.cc).
enum class ObservationKind : uint8_t { Contact, FrigateSighting, LandUnits, Intelligence, Battle, Event, Garrison };

// One Observed event, as its observer made it.
struct Observation {
  Turn turn;
  uint16_t phase = 0;
  uint64_t seq = 0;  // the Observed event's sequence number
  ObservationKind kind = ObservationKind::Contact;
  std::string location;           // a sea area's code or a port's name
  std::vector<std::string> seen;  // exact ids; empty where only `count` is known
  int32_t count = 0;
  bool windward = false;          // 5.1: the enemy is to windward
  bool harbour = false;           // 5.1: the enemy is in the harbour
  std::string text, rule;
};

struct VisibilityState {
  uint64_t last_seq = 0;
  // Every observing ship's observations of `last_turn`, in log order. Only
  // that turn's are kept (version 2): a report of an earlier turn folds the
  // game to that turn's end (reports/sow.cc WorldAt), so the history lives
  // in the log, reached by its turn index, and the snapshot every fold
  // decodes grows with the game's size, not its age (issue 22).
  std::map<std::string, std::vector<Observation>> by_ship;
  // Observers that are not ships (an off-map port's garrison, PATE 5.3) and
  // the state each reports to.
  std::map<std::string, std::string> observer_state;
  Turn last_turn;          // the latest turn any ship observed something in
  bool any = false;        // whether any ship has
};

class Visibility final : public Fold<VisibilityState> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<Visibility>(*this); }
  std::string_view name() const override { return "visibility"; }
  // 1: every turn's observations; 2: the latest turn's only.
  uint32_t version() const override { return 2; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;
};

// The state a ship belongs to by its id (PATE 2.2: state, number, type —
// "BR1FL" → "BR"); "" if the id is not of that form.
std::string StateOfShipId(const std::string& id);

// PATE 2.3: the ships whose reports reach `person`, sorted by id: those
// whose SHIP.commander or SHIP.deputy role he holds (afloat or not: a ship
// sunk or taken this turn still reports what she saw before), and every
// ship of each state S whose Naval Minister (S.naval) he is — the state's
// ships afloat (`ships`, the treasury's) and, for ships no longer afloat,
// the observers whose id names S.
std::vector<std::string> ShipsSeenThrough(const RosterState& roster, const std::map<std::string, Ship>& ships,
                                          const VisibilityState& visibility, const std::string& person);

// What one person may be shown for one turn: his ships, their observations
// of that turn, and every ship id he may read in a report (his ships,
// those his ships' observations name, and the ships his are attached to).
struct PlayerView {
  std::string person;
  Turn turn;
  std::vector<std::string> ships;  // ShipsSeenThrough
  std::map<std::string, std::vector<Observation>> observations;  // his ships' of `turn`, in log order
  std::set<std::string> known_ids;
};

PlayerView ViewOf(const RosterState& roster, const std::map<std::string, Ship>& ships,
                  const VisibilityState& visibility, const std::string& person, const Turn& turn);

}  // namespace adjutant::projections
