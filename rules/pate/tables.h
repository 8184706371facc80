// The numbers of the PATE turn outside combat (combat's are in
// combat_tables.h): movement under wind and damage (6.6–6.8), storms (8),
// supply (3.4, 3.5), detection (5.2–5.4), reactivation (2.6). Where the book
// names a number it is cited; the rest are this project's readings, marked
// ASSUMED and explained in RULES.md. Chances are percentages rolled on a d100
// (success when the die is at most the chance).
#pragma once

#include <array>
#include <cstdint>

namespace adjutant::rules::pate {

// PATE 6.6 (ASSUMED numbers): the chance to make a move by how the course
// lies to the wind — [downwind, across, upwind][light, moderate, heavy].
enum class Course : uint8_t { Downwind, Across, Upwind };
inline constexpr std::array<std::array<int, 3>, 3> kMovePct = {{
    {{90, 100, 100}},  // downwind
    {{85, 95, 85}},    // across the wind
    {{60, 75, 40}},    // upwind (never into heavy winds out of or into a port)
}};
// PATE 6.6 (ASSUMED): each point of rigging damage costs a ship moving alone
// this much of its chance.
inline constexpr int kMovePctPerRigging = 10;
// PATE 6.7 (ASSUMED): a ship is "damaged" for moving with others at this much
// rigging or hull damage; damaged ships stay when their group moves.
inline constexpr int kDamagedAt = 3;
// PATE 6.6 (ASSUMED): the chance that ships which made their first move lose
// the second.
inline constexpr int kLoseSecondMovePct = 15;

// PATE 6.8 (ASSUMED): the tactical areas of every sea area.
inline constexpr int kTacticalAreas = 4;

// PATE 8 (cut off in our copy; ASSUMED): the chance of a storm in a sea area
// after the winds shift, by strength (light, moderate, heavy); each ship at
// sea or in coastal waters there rolls a d6: 1–3 nothing, 4–5 one point of
// rigging, 6 one of rigging and one of hull; every point of damage costs 5%
// of her crew.
inline constexpr std::array<int, 3> kStormPct = {0, 3, 15};
inline constexpr int kStormCrewLossPctPerPoint = 5;

// PATE 3.4: the most stores a ship carries; a transport carries one more for
// every 20 of capacity; a port reprovisions at most 2 × its yard capacity.
inline constexpr int kStoresCarried = 24;
inline constexpr int kTransportCapacityPerStore = 20;
inline constexpr int kReprovisionPerYard = 2;
// PATE 3.4 (ASSUMED): a ship without stores loses this share of her crew each
// turn (the book: "suffer crew loss").
inline constexpr int kNoStoresCrewLossPct = 5;
// PATE 3.5: the most stores a port sends in one turn.
inline constexpr int kStoresMovedMax = 60;
// PATE 3.5 (rules version 3): the land route joins two ports on the land map
// at most this many strategic squares apart (Chebyshev, as SOW counts them).
inline constexpr int kStoresLandRouteSquares = 10;

// PATE 2.6: campaign turns to reactivate an inactive ship.
inline constexpr int kReactivationTurns = 4;

// PATE 2.7: the fewest crew a ship keeps after a transfer (frigates: per
// frigate of the group).
inline constexpr int kCrewKeptShip = 70;
inline constexpr int kCrewKeptFrigate = 40;

// PATE 5.2 (ASSUMED): a frigate's chance to detect enemy ships in her sea area
// (or in a port on it) when patrolling or raiding, and otherwise.
inline constexpr int kFrigateDetectPctActive = 60;
inline constexpr int kFrigateDetectPctOther = 35;
// PATE 5.3 (ASSUMED): the chance to report land units in the port's
// strategic square outside its tactical square.
inline constexpr int kLandUnitsNearbyPct = 50;
// PATE 5.4 (ASSUMED): an intelligence report's count is one less on a d6 roll
// of 1, one more on a 6, right otherwise.

// PATE 6.12 (ASSUMED): on a peace or truce turn a ship ends at the place
// ordered with this chance, else at her base (where she fills her stores).
inline constexpr int kPeaceOnStationPct = 50;

// PATE 9 (cut off; ASSUMED): cargo space — a land unit takes one space per
// man, a GITM supply 100 (the book's sample: SP16IN and 15 supplies in a
// 5,000 transport group); crew above capacity / 10 and stores above 24 take
// their space too (2.7, 3.4).
inline constexpr int kSpacePerSupply = 100;

// PATE 2.8 (ASSUMED): when a campaign opens, a ship away from her base is
// placed on station with 90% less 15% per move between station and base
// (never below 10%), else at her base with full stores; on station she has
// 24 stores less 4 per move (never below 8, never full).
inline constexpr int kStationPctNear = 90;
inline constexpr int kStationPctPerMove = 15;
inline constexpr int kStationPctMin = 10;
inline constexpr int kStationStoresPerMove = 4;
inline constexpr int kStationStoresMin = 8;
constexpr int OnStationPct(int moves) {
  int pct = kStationPctNear - kStationPctPerMove * moves;
  return pct < kStationPctMin ? kStationPctMin : pct;
}
constexpr int StoresOnStation(int moves) {
  int stores = kStoresCarried - kStationStoresPerMove * (moves < 1 ? 1 : moves);
  return stores < kStationStoresMin ? kStationStoresMin : stores;
}

// PATE 10 (cut off; ASSUMED): a battle for an off-map port. Each side's
// score is its men × (d6 + 3), the garrison's raised 25% per level of the
// port's fort; the higher wins, a tie holds the port. The loser's units are
// destroyed, a quarter of their men coming back at the season's end (SOW
// 3.5); the winner loses a quarter of the loser's men, never more than half
// its own.
inline constexpr int kPortBattleDieBase = 3;
inline constexpr int kGarrisonFortPct = 25;
inline constexpr int kBattleSurvivorsPct = 25;
inline constexpr int kWinnerLossPct = 25;

// PATE 7.8 (ASSUMED): the captor puts aboard a prize a quarter of the prize's
// full crew, never leaving herself fewer than kCrewKeptShip.
inline constexpr int kPrizeCrewPct = 25;

// Rules version 5, each gate by its rule:
// PATE 7.1: the sides of a battle are drawn around the first ship (by id) that
// has an enemy in the place, not around the first ship there (version 4: a
// first ship neutral to both left two states at war unfought).
inline constexpr uint32_t kSidesFromEnemiesVersion = 5;
// PATE 6.4: a ship in the harbour ordered out to sea while hostile ships are
// off the coast comes out at the start of the combat phase, the wind
// permitting (6.6), fighting if they give battle, then sails (version 4: only
// a ship ordered to Close or Pursue came out; the others stayed in).
inline constexpr uint32_t kSortieVersion = 5;
// PATE 2.1: "ships" are not transports: hostile transport groups off the coast
// or in a port do not bar 6.4's leaving, 6.6's shifts and upwind moves or
// 6.8's entering the harbour (version 4 counted them as ships).
inline constexpr uint32_t kTransportsNotShipsVersion = 5;
// PATE 7.8, 4.5: a ship already in her first sea area when the movement
// begins (fled there from a port battle, 7.8) has carried out her first move
// and makes her second (version 4: she made neither).
inline constexpr uint32_t kFledFirstMoveVersion = 5;
// PATE 6.9, 6.10: pursuers reaching at sea the ships they followed take a
// side of the wind as a group arriving there does (version 4: neither side
// held the gauge, so the battle had none).
inline constexpr uint32_t kPursuitGaugeVersion = 5;
// PATE 7.8, 7.4: a ship escaping or evading a battle at sea goes to one of
// the other tactical areas, each as likely (a d3 over them; version 4 rolled
// a d4 and took the next area for her own, which so came up half the time).
inline constexpr uint32_t kEscapeAreaVersion = 5;
// PATE 6.3 with 5.2: a strait port stays connected to its own sea area only
// "for sighting": a frigate in the strait's other area does not sight the
// ships in it (version 4 let her).
inline constexpr uint32_t kStraitSightingVersion = 5;
// PATE 7.2, 7.6: a broken line (one side through, or both breaking) makes a
// battle more decisive whoever wins (Battle::broken_line_decides; version 4:
// only a winner that broke through).
inline constexpr uint32_t kDecisiveLineVersion = 5;

// Rules version 6: PATE 6.11 with 6.8, 6.9: ships of one state arriving from
// the Atlantic in one sea area on one turn arrive together, in one tactical
// area, and meet the enemies there as a group moving in does, taking a side
// of the wind by their course (west onto the American map, east onto the
// European) and the wind, joining allied ships there under 4.11's default
// orders, which crossing ships carry (version 5 drew a tactical area for each ship and
// gave the arrivals the leeward side whatever the wind, without the met
// enemies seeing them: the gauge went to neither side or to the enemy).
inline constexpr uint32_t kArrivalEncounterVersion = 6;

// Rules version 7: PATE 6.4 with 7.1, 6.6: a ship in a port's coastal waters
// ordered into its harbour while hostile ships (2.1: not transports) are off
// the coast goes in during the combat phase, after the battles there (she
// offers them battle first; if she is still in the coastal waters, did not
// seek to evade a battle then not fought, 4.6, 7.4, no hostile ship is in the
// harbour, and the wind permits her with enemies present, 6.6);
// version 6 moved her in only to fight a hostile ship in the harbour, so while
// hostile ships stayed off the coast she never got in (the movement phase
// refuses a shift with enemies present, 6.6).
inline constexpr uint32_t kInboundVersion = 7;
// SOW 4.8 (sow rules version 5) with PATE 7.1, 6.4: a ship that added crew
// this turn does not move between harbour and coastal waters in the combat
// phase either - neither to fight nor to sail out or in past hostile ships
// (version 6 moved her then, though the movement phase holds her).
inline constexpr uint32_t kCrewedStayVersion = 7;

// Rules version 8: PATE 7.8, 2.6 with 4.1, 2.3: a prize's number is the lowest
// of her type that is available - no ship or build holds it (nor, as 2.6
// always had it, a land unit: a unit's id is free text), no order standing
// this turn names it and no person holds a post on it (SpokenForNumbers,
// LowestFreeShipId); version 7 gave her the number
// of a ship sunk or taken this turn, and with it that ship's orders for the
// rest of the turn (4.2: her captor's orders pass to her only when he has
// any), and the number of a ship lost earlier, with that ship's commander or
// deputy wherever her captor had none.
inline constexpr uint32_t kPrizeNumberVersion = 8;

// Rules version 9: PATE 2.5 with 2.3, 4.2: the GA's new number for a part of a
// divided transport group must be available as a prize's is (version 8):
// not a land unit's id, named by no order standing this turn and no
// person's post (SpokenForNumbers) - the new group takes the old one's
// posts, and a lost group's posts or its standing orders would pass to it.
// Version 8 refused only a number a ship or a build holds.
inline constexpr uint32_t kDivideNumberVersion = 9;
// Rules version 9: PATE 5.3 with 9: a ship at a port sees land units near
// it among those aboard a transport only while the transport lies, active,
// in a port on the land map on that port's square (harbour or coastal
// waters; SOW's LandSquare reading since sow=7); version 8 counted a unit
// aboard on the square it boarded from, so a ship off a port saw troops
// long since sailed.
inline constexpr uint32_t kAboardNearVersion = 9;

// Rules version 10: PATE 7.8 with 2.1: 7.8's "unsunk ships on the losing
// side" are its warships; 2.1 says "ships" never means the transport groups
// anywhere in the rules. A losing side's transport groups make no escape
// roll and are neither taken nor moved: they stay where the battle was
// (sunk if their damage sinks them), one ordered into the harbour (6.4's
// inbound move) not going in past the winner; a landing begun there is
// finished in 3.9, as she is still in the port. Version 9 read 7.8 as every vessel of
// the loser, so a transport group rolled to escape and, failing, was taken.
inline constexpr uint32_t kTransportsNotPrizesVersion = 10;

// Rules version 11: PATE 7.7 with 6.9: "ships to windward gain +10%" is
// each ship's, as 6.9 placed her group on meeting the enemy at sea: a side
// whose groups lie either side of the enemy has +10% on those to windward
// only, and equal counts to windward no longer cost both sides their +10%.
// The side's weather gauge (more of its ships to windward) still sets 7.4's
// escape and 7.5's closing chances; in coastal waters the gauge read from
// the port's wind (version 3) is every ship's of that side, as before.
// Version 10 gave the +10% to every ship of the side with the gauge at sea.
inline constexpr uint32_t kWindwardEachVersion = 11;
// Rules version 11: PATE 7.7: a point of strength at close quarters for
// each whole 20 Marines aboard (150 Marines, 7 points); version 10 counted
// the fraction (7.5).
inline constexpr uint32_t kWholeMarinesVersion = 11;

// Rules version 12: PATE 6.11 with 6.7: groups that enter the Atlantic
// together stay together, and a group sails with friends of other states
// (movement.cc Step: friends with the same orders, one roll): the ships
// arriving in one sea area on one turn arrive together with those of allied
// states, in one tactical area (one d4, 6.8), and meet what is there as one
// group, the first ship's state deciding who is an enemy, as for a group
// moving in. Versions 6-11 grouped them by state, so a Franco-Spanish group
// that crossed together arrived as two, each rolling its own tactical area.
inline constexpr uint32_t kArrivalAlliesTogetherVersion = 12;
// Rules version 12: PATE 3.5's land route (a reading of GITM 10.2, RULES.md)
// is closed by a unit at war with the sender in either port's strategic
// square, and troops aboard a transport lying in a port on the land map
// stand on that city's square (PATE 9 as SOW reads it since sow=7, and
// 5.3's land units near a port since pate=9). Version 11 counted no unit
// aboard, so an enemy landing force in a harbour beside the port let the
// stores pass.
inline constexpr uint32_t kLandRouteAboardVersion = 12;

}  // namespace adjutant::rules::pate
