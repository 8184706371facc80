// PATE section 7 (combat): the book's numbers as exact assertions, each
// case of evasion, closing and breaking the line with scripted dice whose
// outcomes are worked by hand in the comments, and the invariants of any
// battle as rapidcheck properties over random battles and counter dice.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <algorithm>

#include "rules/dice.h"
#include "rules/pate/combat.h"
#include "rules/pate/tables.h"
#include "rules/versions.h"

using namespace adjutant;
using namespace adjutant::rules::pate;

namespace {

Combatant Ship(const std::string& id, int side, Kind kind = Kind::SL) {
  Combatant c;
  c.id = id;
  c.side = side;
  c.kind = kind;
  c.full_crew = kind == Kind::FL ? 800 : kind == Kind::SL ? 600 : kind == Kind::FR ? 225 : 100;
  c.crew = c.full_crew;
  return c;
}

Battle At(Where where, std::vector<Combatant> ships, int windward_side = -1) {
  Battle b;
  b.id = "BATTLE1";
  b.at = TurnPhase{{1805, 3, 0}, 4};
  b.where = where;
  b.windward_side = windward_side;
  b.ships = std::move(ships);
  return b;
}

// Resolves with scripted dice, every one of which must be used.
BattleResult Scripted(const Battle& b, const std::string& script) {
  auto dice = rules::ScriptedDice::Parse(script, "test");
  REQUIRE(dice.ok());
  auto r = ResolveBattle(b, *dice);
  INFO(r.status().message());
  REQUIRE(r.ok());
  CHECK(dice->remaining() == 0);
  return std::move(r).value();
}

// Scripted values for the first rolls, counter dice after them.
class PrefixDice final : public rules::DiceSource {
 public:
  explicit PrefixDice(const std::string& script) : script_(*rules::ScriptedDice::Parse(script, "test")) {}
  Result<rules::Roll> Next(const rules::RollRequest& req) override {
    return script_.remaining() > 0 ? script_.Next(req) : counter_.Next(req);
  }

 private:
  rules::ScriptedDice script_;
  rules::CounterDice counter_{1805, 0};
};

BattleResult Prefixed(const Battle& b, const std::string& script) {
  PrefixDice dice(script);
  auto r = ResolveBattle(b, dice);
  INFO(r.status().message());
  REQUIRE(r.ok());
  return std::move(r).value();
}

const ShipResult& Of(const BattleResult& r, const std::string& id) {
  auto it = std::find_if(r.ships.begin(), r.ships.end(), [&](const ShipResult& s) { return s.id == id; });
  REQUIRE(it != r.ships.end());
  return *it;
}

int RollsFor(const BattleResult& r, const std::string& purpose) {
  return static_cast<int>(std::count_if(r.rolls.begin(), r.rolls.end(),
                                        [&](const rules::Roll& x) { return x.request.purpose == purpose; }));
}

Combatant With(Combatant c, void (*f)(Combatant&)) {
  f(c);
  return c;
}
void Evades(Combatant& c) { c.evade = true; }
void Closes(Combatant& c) { c.close = true; }
void ClosesAndBreaks(Combatant& c) { c.close = c.break_line = true; }

}  // namespace

// ---- 7.1 ---------------------------------------------------------------------

TEST_CASE("PATE 7.1: frigates stand aside from line ships at sea and in coastal waters", "[pate][pate-combat]") {
  for (Where where : {Where::Sea, Where::Coastal}) {
    Battle b = At(where, {Ship("A1", 0), Ship("AF", 0, Kind::FR), Ship("B1", 1), Ship("BF", 1, Kind::FR)});
    rules::CounterDice dice(7, 0);
    auto r = ResolveBattle(b, dice);
    REQUIRE(r.ok());
    CHECK(r->fought);
    CHECK(Of(*r, "A1").fought);
    CHECK_FALSE(Of(*r, "AF").fought);
    CHECK_FALSE(Of(*r, "BF").fought);
    for (const auto& roll : r->rolls) CHECK(roll.request.subject != "AF");
  }
  // A ship of the line and a frigate alone: nobody fights.
  BattleResult none = Scripted(At(Where::Sea, {Ship("A1", 0), Ship("BF", 1, Kind::FR)}), "");
  CHECK_FALSE(none.fought);
  CHECK(none.rolls.empty());
}

TEST_CASE("PATE 7.1: frigates fight frigates at sea, and beside line ships in harbour", "[pate][pate-combat]") {
  rules::CounterDice dice(7, 0);
  auto sea = ResolveBattle(At(Where::Sea, {Ship("AF", 0, Kind::FR), Ship("BF", 1, Kind::FR)}), dice);
  REQUIRE(sea.ok());
  CHECK(sea->fought);
  CHECK(Of(*sea, "AF").strength_tenths == 400);  // 40 a frigate (ASSUMED)

  Battle b = At(Where::Harbour, {Ship("A1", 0), Ship("AF", 0, Kind::FR), Ship("B1", 1)});
  b.ships[1].frigates = 3;
  b.ships[1].full_crew = b.ships[1].crew = 675;
  auto harbour = ResolveBattle(b, dice);
  REQUIRE(harbour.ok());
  CHECK(Of(*harbour, "AF").fought);
  CHECK(harbour->strength_tenths[0] == 1000 + 1200);
}

TEST_CASE("PATE 7.1: transports are targets — transports alone make no battle", "[pate][pate-combat]") {
  // PATE 7.3: the damage is split between hull and rigging by the enemy's aim.
  CHECK_FALSE(Scripted(At(Where::Sea, {Ship("AT", 0, Kind::TR), Ship("BT", 1, Kind::TR)}), "").fought);
  // One SL against a transport: the transport takes the whole fire (share
  // 100%): d6 4 -> 4 points at rigging (the default aim), 3 rigging 1 hull.
  // It inflicted nothing: side 0 wins; the transport's escape chance is
  // 50% - 3 x 5% = 35%: 3501 fails, and A1, the only captor, takes it
  // (version 9's reading: Battle::version below 10; version 10's
  // in the next test).
  BattleResult r = Scripted(At(Where::Sea, {Ship("A1", 0), Ship("BT", 1, Kind::TR)}), "4 3501");
  CHECK(r.fought);
  CHECK(Of(r, "BT").strength_tenths == 0);
  CHECK(Of(r, "BT").rigging == 3);
  CHECK(Of(r, "BT").hull == 1);
  CHECK(r.winner == 0);
  CHECK(Of(r, "BT").captured);
  CHECK(Of(r, "BT").captor == "A1");
  CHECK(Of(r, "BT").experience_gained == 0);  // "ships" are warships (2.1)
  CHECK(Of(r, "A1").experience_gained == 1);  // 1000 to 0: the longest odds
}

TEST_CASE("PATE 7.8, 2.1: a losing transport group neither escapes nor is taken (version 10)", "[pate][pate-combat]") {
  // Version 10's reading: BT is not one of 7.8's ships. Beside her B1, an
  // SL that fights, loses and rolls to escape (d6 for A1's damage, d6 for
  // B1's, d6 for BT's; 7.8: B1 escapes on 0001 of 10000): one escape roll,
  // B1's; BT neither escapes nor is taken.
  Battle b = At(Where::Sea, {Ship("A1", 0), Ship("BT", 1, Kind::TR), Ship("B1", 1)});
  b.version = kTransportsNotPrizesVersion;
  BattleResult r = Scripted(b, "1 6 6 0001");
  CHECK(r.winner == 0);
  CHECK(Of(r, "BT").fought);
  CHECK_FALSE(Of(r, "BT").captured);
  CHECK_FALSE(Of(r, "BT").escaped);
  CHECK(Of(r, "BT").stayed);
  CHECK_FALSE(Of(r, "B1").stayed);
  CHECK(Of(r, "BT").captor.empty());
  CHECK(Of(r, "B1").escaped);
  CHECK(std::count(r.log.begin(), r.log.end(),
                   "PATE 7.8, 2.1: BT is a transport group, not a ship: she neither escapes nor is taken") == 1);
  // The battle above (one SL against BT) under version 10: the same d6 4
  // damages BT (3 rigging, 1 hull) and side 0 wins, but the script holds
  // only the damage die: no escape roll, no captor.
  Battle alone = At(Where::Sea, {Ship("A1", 0), Ship("BT", 1, Kind::TR)});
  alone.version = kTransportsNotPrizesVersion;
  BattleResult s = Scripted(alone, "4");
  CHECK(s.winner == 0);
  CHECK_FALSE(Of(s, "BT").captured);
  CHECK_FALSE(Of(s, "BT").escaped);
  CHECK(Of(s, "BT").rigging == 3);
}

// ---- 7.4 ---------------------------------------------------------------------

TEST_CASE("PATE 7.4: evasion chances by the weather gauge and an onshore wind", "[pate][pate-combat]") {
  Battle b = At(Where::Sea, {}, 1);
  CHECK(EvadeChanceBp(b, 1) == 1000);  // to windward: very unlikely
  CHECK(EvadeChanceBp(b, 0) == 9000);  // to leeward: very likely
  b.where = Where::Coastal;
  CHECK(EvadeChanceBp(b, 0) == 9000);
  b.onshore_wind = true;
  CHECK(EvadeChanceBp(b, 0) == 2500);  // coastal, onshore: unlikely
  CHECK(EvadeChanceBp(b, 1) == 1000);
  b.windward_side = -1;
  CHECK(EvadeChanceBp(b, 0) == 5000);
}

TEST_CASE("PATE 7.4: when every ship of both sides evades nothing happens", "[pate][pate-combat]") {
  BattleResult r = Scripted(At(Where::Sea, {With(Ship("A1", 0), Evades), With(Ship("B1", 1), Evades)}), "");
  CHECK_FALSE(r.fought);
  CHECK(r.rolls.empty());
  for (const auto& s : r.ships) CHECK_FALSE((s.evaded || s.fought));
}

TEST_CASE("PATE 7.4: a wholly evading side makes one roll, all or none", "[pate][pate-combat]") {
  // Side 0 (two SLs) is to leeward at sea: 90%. The evader of side 1 always gets away.
  Battle b = At(Where::Sea, {With(Ship("A1", 0), Evades), With(Ship("A2", 0), Evades), Ship("B1", 1),
                             With(Ship("B2", 1), Evades)}, 1);
  BattleResult away = Scripted(b, "9000");
  CHECK_FALSE(away.fought);
  REQUIRE(away.rolls.size() == 1);
  CHECK(away.rolls[0].request.rule == "PATE 7.4");
  CHECK(away.rolls[0].request.subject == "BATTLE1");
  CHECK(away.rolls[0].request.sides == 10000);
  CHECK((Of(away, "A1").evaded && Of(away, "A2").evaded && Of(away, "B2").evaded));
  CHECK_FALSE((Of(away, "B1").evaded || Of(away, "B1").fought));

  // 9001 fails: both of side 0 fight B1 (B2 still gets away). At range, B1
  // to windward: 1100 to 2000. Fire at rigging counts 80%: 880 and 1600.
  // A1, A2 under 880/2880 = 30.55%: d6 1 and 1 -> 0 points. B1 under
  // 1600/2700 = 59.25%: d6 2 -> 1 point, at rigging. Side 0 inflicted 1:
  // it wins; B1 escapes at 50% - 5% = 45%: 4500 succeeds.
  BattleResult fought = Scripted(b, "9001 1 1 2 4500");
  CHECK(fought.fought);
  CHECK((Of(fought, "A1").fought && Of(fought, "A2").fought && Of(fought, "B1").fought));
  CHECK(Of(fought, "B2").evaded);
  CHECK(fought.strength_tenths == std::array<int64_t, 2>{2000, 1100});
  CHECK(Of(fought, "B1").rigging == 1);
  CHECK(fought.winner == 0);
  CHECK(Of(fought, "B1").escaped);
  CHECK(Of(fought, "A1").experience_gained == 4);  // 2000 / 1100: under 2 to 1
}

TEST_CASE("PATE 7.4: coastal waters with an onshore wind make a leeward escape unlikely", "[pate][pate-combat]") {
  Battle b = At(Where::Coastal, {With(Ship("A1", 0), Evades), Ship("B1", 1)}, 1);
  b.onshore_wind = true;
  BattleResult r = Prefixed(b, "2501");
  CHECK(r.fought);
  CHECK_FALSE(Of(r, "A1").evaded);
  r = Scripted(b, "2500");
  CHECK(Of(r, "A1").evaded);
  CHECK_FALSE(r.fought);
}

TEST_CASE("PATE 7.4: evaders covered by half the enemy's staying warships get away unrolled", "[pate][pate-combat]") {
  // Side 0 keeps 1 warship against 2: covered (1 >= 2/2). Its evading
  // transport and SL leave without a roll.
  Battle b = At(Where::Sea, {With(Ship("A1", 0), Evades), With(Ship("AT", 0, Kind::TR), Evades), Ship("A2", 0),
                             Ship("B1", 1), Ship("B2", 1)}, 0);
  rules::CounterDice dice(11, 0);
  auto r = ResolveBattle(b, dice);
  REQUIRE(r.ok());
  CHECK(RollsFor(*r, "evasion") == 0);
  CHECK((Of(*r, "A1").evaded && Of(*r, "AT").evaded));
  CHECK_FALSE(Of(*r, "A2").evaded);
  CHECK(r->fought);
}

TEST_CASE("PATE 7.4: uncovered evaders roll one by one at their side's chance", "[pate][pate-combat]") {
  // 1 staying warship against 3: each evader of side 0 (to windward: 10%) rolls alone.
  Battle b = At(Where::Sea, {With(Ship("A1", 0), Evades), Ship("A2", 0), With(Ship("A3", 0), Evades), Ship("B1", 1),
                             Ship("B2", 1), Ship("B3", 1)}, 0);
  BattleResult r = Prefixed(b, "1000 1001");
  REQUIRE(r.rolls.size() >= 2);
  CHECK(r.rolls[0].request.subject == "A1");
  CHECK(r.rolls[1].request.subject == "A3");
  CHECK(r.rolls[0].request.purpose == "evasion");
  CHECK(Of(r, "A1").evaded);
  CHECK_FALSE(Of(r, "A3").evaded);
  CHECK(Of(r, "A3").fought);
}

TEST_CASE("PATE 7.4: no evasion from a battle in harbour", "[pate][pate-combat]") {
  Battle b = At(Where::Harbour, {With(Ship("A1", 0), Evades), With(Ship("B1", 1), Evades)});
  rules::CounterDice dice(3, 0);
  auto r = ResolveBattle(b, dice);
  REQUIRE(r.ok());
  CHECK(r->fought);
  CHECK(RollsFor(*r, "evasion") == 0);
  CHECK((Of(*r, "A1").fought && Of(*r, "B1").fought));
}

TEST_CASE("PATE 7.4: transports are not damaged while their side has twice the warships", "[pate][pate-combat]") {
  rules::CounterDice dice(5, 0);
  auto covered = ResolveBattle(At(Where::Sea, {Ship("A1", 0), Ship("A2", 0), Ship("AT", 0, Kind::TR), Ship("B1", 1)}),
                               dice);
  REQUIRE(covered.ok());
  CHECK(Of(*covered, "AT").fought);
  for (const auto& roll : covered->rolls) CHECK_FALSE((roll.request.subject == "AT" && roll.request.purpose == "damage"));
  // One to one: the transport is under fire. Strength 1000 to 1000, fire
  // 800 each: everyone is under 800/1800 = 44.44%. A1 rolls 1 -> 0; AT 6 ->
  // 2 points, both rigging; B1 1 -> 0. Side 1 inflicted 2 and wins. A1
  // escapes at 50%: 5000 does; AT at 50% - 2 x 5% = 40%: 4001 fails.
  BattleResult open = Scripted(At(Where::Sea, {Ship("A1", 0), Ship("AT", 0, Kind::TR), Ship("B1", 1)}),
                               "1 6 1 5000 4001");
  CHECK(Of(open, "AT").rigging == 2);
  CHECK(open.winner == 1);
  CHECK(Of(open, "A1").escaped);
  CHECK(Of(open, "AT").captured);
  CHECK(Of(open, "AT").captor == "B1");
}

// ---- 7.5 ---------------------------------------------------------------------

TEST_CASE("PATE 7.5: all ships of both sides closing fight at close quarters, losing 10%", "[pate][pate-combat]") {
  // Three against one, all closing: close quarters without a roll.
  Battle b = At(Where::Sea, {With(Ship("A1", 0), Closes), With(Ship("A2", 0), Closes), With(Ship("A3", 0), Closes),
                             With(Ship("B1", 1), Closes)});
  rules::CounterDice dice(9, 0);
  auto r = ResolveBattle(b, dice);
  REQUIRE(r.ok());
  CHECK(RollsFor(*r, "closing") == 0);
  for (const auto& s : r->ships) {
    CHECK(s.at_close_quarters);
    CHECK(s.strength_tenths == 900);
  }
}

TEST_CASE("PATE 7.5: closers in like numbers close — the rest fight at range", "[pate][pate-combat]") {
  // 2 closing against 1: 1 >= 2/2.
  Battle b = At(Where::Sea, {With(Ship("A1", 0), Closes), With(Ship("A2", 0), Closes), Ship("A3", 0),
                             With(Ship("B1", 1), Closes), Ship("B2", 1)});
  rules::CounterDice dice(9, 0);
  auto r = ResolveBattle(b, dice);
  REQUIRE(r.ok());
  CHECK(RollsFor(*r, "closing") == 0);
  CHECK((Of(*r, "A1").at_close_quarters && Of(*r, "A2").at_close_quarters && Of(*r, "B1").at_close_quarters));
  CHECK_FALSE((Of(*r, "A3").at_close_quarters || Of(*r, "B2").at_close_quarters));
  CHECK(Of(*r, "A3").strength_tenths == 1000);
}

TEST_CASE("PATE 7.5: closing on a fleet that will not close is a roll", "[pate][pate-combat]") {
  // 3 closing against 1 of 3: 1 < 3/2. Side 0 has the gauge: 50% + 25%.
  Battle b = At(Where::Sea, {With(Ship("A1", 0), Closes), With(Ship("A2", 0), Closes), With(Ship("A3", 0), Closes),
                             Ship("A4", 0), With(Ship("B1", 1), Closes), Ship("B2", 1), Ship("B3", 1)}, 0);
  BattleResult closed = Prefixed(b, "7500");
  REQUIRE_FALSE(closed.rolls.empty());
  CHECK(closed.rolls[0].request.purpose == "closing");
  CHECK(closed.rolls[0].request.rule == "PATE 7.5");
  for (const char* id : {"A1", "A2", "A3", "B1", "B2", "B3"}) CHECK(Of(closed, id).at_close_quarters);
  CHECK_FALSE(Of(closed, "A4").at_close_quarters);
  CHECK(Of(closed, "A1").strength_tenths == 1000);  // 1000 + 10% gauge - 10% closing
  CHECK(Of(closed, "B1").strength_tenths == 900);   // chose to close: -10%
  CHECK(Of(closed, "B2").strength_tenths == 1000);  // brought to close quarters: no loss

  BattleResult failed = Prefixed(b, "7501");
  for (const auto& s : failed.ships) CHECK_FALSE(s.at_close_quarters);
}

TEST_CASE("PATE 7.5: against shore batteries alone the ships fight at range", "[pate][pate-combat]") {
  Battle b = At(Where::Harbour, {With(Ship("A1", 0), Closes)});
  b.battery_side = 1;
  b.defence = 2;
  b.batteries = 2;
  rules::CounterDice dice(9, 0);
  auto r = ResolveBattle(b, dice);
  REQUIRE(r.ok());
  CHECK(r->fought);
  CHECK_FALSE(Of(*r, "A1").at_close_quarters);
  CHECK(RollsFor(*r, "closing") == 0);
  CHECK(r->strength_tenths == std::array<int64_t, 2>{1000, 4000});
}

// ---- 7.6 ---------------------------------------------------------------------

TEST_CASE("PATE 7.6: breaking the line: the chances by quality points, clamped", "[pate][pate-combat]") {
  CHECK(LoseCoordinationChanceBp(0) == 3000);
  CHECK(LoseCoordinationChanceBp(1) == 2000);
  CHECK(LoseCoordinationChanceBp(2) == 1000);
  CHECK(LoseCoordinationChanceBp(3) == 0);
  CHECK(LoseCoordinationChanceBp(4) == 0);
  CHECK(LoseCoordinationChanceBp(-1) == 4000);
  CHECK(LoseCoordinationChanceBp(-4) == 7000);
  CHECK(LoseCoordinationChanceBp(-8) == 10000);
  CHECK(BreakThroughChanceBp(0) == 6000);
  CHECK(BreakThroughChanceBp(1) == 7250);
  CHECK(BreakThroughChanceBp(2) == 8500);
  CHECK(BreakThroughChanceBp(3) == 9750);
  CHECK(BreakThroughChanceBp(4) == 10000);  // 11000, clamped
  CHECK(BreakThroughChanceBp(-1) == 4750);
  CHECK(BreakThroughChanceBp(-4) == 1000);
  CHECK(BreakThroughChanceBp(-5) == 0);     // -250, clamped
}

TEST_CASE("PATE 7.6: breaking the line: quality points are the averages' difference, rounded", "[pate][pate-combat]") {
  CHECK(QualityAdvantagePoints({4, 4}, {2}) == 2);
  CHECK(QualityAdvantagePoints({3, 2}, {2}) == 1);   // 0.5: halves away from zero
  CHECK(QualityAdvantagePoints({2}, {3, 2}) == -1);
  CHECK(QualityAdvantagePoints({2, 2, 3}, {2}) == 0);  // 0.33
  CHECK(QualityAdvantagePoints({3, 3, 2}, {2}) == 1);  // 0.67
  CHECK(QualityAdvantagePoints({4}, {0, 0, 1}) == 4);  // 3.67
  CHECK(QualityAdvantagePoints({}, {2}) == 0);
}

namespace {
// One SL a side, both closing (-10%), A1 breaking the line, no gauge.
Battle LineBattle() {
  return At(Where::Sea, {With(Ship("A1", 0), ClosesAndBreaks), With(Ship("B1", 1), Closes)});
}
}  // namespace

TEST_CASE("PATE 7.6: breaking the line: losing coordination costs 25%", "[pate][pate-combat]") {
  // Equal quality: 30% to lose coordination; 3000 loses it. A1: 1000 x
  // (100% - 10% - 25%) = 650; B1: 900. Fire at rigging (80%): 520, 720.
  // A1 under 720/1370 = 52.55%: d6 4 + 2 at close quarters = 6 -> 3
  // points, 2 rigging and 1 hull. B1 under 520/1420 = 36.61%: 6 -> 2
  // points, both rigging. Side 1 inflicted more and wins. A1 escapes at
  // 50% - 2 x 5% - 10% (close quarters) = 30%: 3001 fails; B1 takes her.
  BattleResult r = Scripted(LineBattle(), "3000 4 4 3001");
  CHECK(r.breaking_side == 0);
  CHECK(r.line == LineOutcome::Divided);
  CHECK(r.strength_tenths == std::array<int64_t, 2>{650, 900});
  CHECK(r.rolls[0].request.purpose == "line: coordination");
  CHECK(r.rolls[0].request.rule == "PATE 7.6");
  CHECK((Of(r, "A1").hull == 1 && Of(r, "A1").rigging == 2));
  CHECK((Of(r, "B1").hull == 0 && Of(r, "B1").rigging == 2));
  CHECK(r.winner == 1);
  CHECK(Of(r, "A1").captured);
  CHECK(Of(r, "A1").captor == "B1");
  CHECK(Of(r, "A1").crew_lost == 600 * 900 / 10000);  // 5% a hull point, 2% a rigging point
}

TEST_CASE("PATE 7.6: breaking the line: breaking through gains 33%", "[pate][pate-combat]") {
  // 3001 keeps coordination, 6000 breaks through: A1 1000 x 123% = 1230.
  // Fire 984 and 720. A1 under 720/1950 = 36.92%: 1 + 2 -> 1 point. B1
  // under 984/1884 = 52.22%: 1 + 2 -> 1 point. Equal damage: the stronger
  // side 0 wins. B1 escapes at 50% - 5% - 10% - 20% (7.2: the line
  // broken) = 15%: 1501 fails, 1500 succeeds.
  BattleResult r = Scripted(LineBattle(), "3001 6000 1 1 1501");
  CHECK(r.line == LineOutcome::BrokeThrough);
  CHECK(r.rolls[1].request.purpose == "line: break through");
  CHECK(r.strength_tenths == std::array<int64_t, 2>{1230, 900});
  CHECK(r.winner == 0);
  CHECK(Of(r, "B1").captured);
  CHECK(Of(Scripted(LineBattle(), "3001 6000 1 1 1500"), "B1").escaped);
}

TEST_CASE("PATE 7.6: breaking the line: neither divided nor through, both fight at close range", "[pate][pate-combat]") {
  // 900 to 900, fire 720 each, shares 44.44%: 2 + 2 -> 1 point each. A draw: no prizes.
  BattleResult r = Scripted(LineBattle(), "3001 6001 2 2");
  CHECK(r.line == LineOutcome::Held);
  CHECK(r.strength_tenths == std::array<int64_t, 2>{900, 900});
  CHECK(r.winner == -1);
  CHECK(RollsFor(r, "escape") == 0);
}

TEST_CASE("PATE 7.6: breaking the line: four points of quality make it certain", "[pate][pate-combat]") {
  // Very Good against Poor: losing coordination 0%, breaking through 100%:
  // neither rolled. A1: 1000 x (100% + 2 x 20% - 10% + 33%) = 1630; B1:
  // 1000 x (100% - 2 x 20% - 10%) = 500. Fire 1304 and 400. A1 under
  // 19.7%: 6 + 2 -> 1 point. B1 under 72.28%: 6 + 2 -> 5 points, 4 rigging
  // 1 hull. Side 0 wins; B1's escape, 50% - 20% - 10% - 20% = 0%, is not rolled.
  Battle b = LineBattle();
  b.ships[0].quality = 4;
  b.ships[1].quality = 0;
  BattleResult r = Scripted(b, "6 6");
  CHECK(r.line == LineOutcome::BrokeThrough);
  CHECK(r.rolls.size() == 2);
  CHECK(r.strength_tenths == std::array<int64_t, 2>{1630, 500});
  CHECK((Of(r, "B1").rigging == 4 && Of(r, "B1").hull == 1));
  CHECK(Of(r, "B1").captured);
}

TEST_CASE("PATE 7.6: both sides keeping line ahead, or both breaking, roll nothing", "[pate][pate-combat]") {
  Battle both = LineBattle();
  both.ships[1].break_line = true;
  rules::CounterDice dice(2, 0);
  for (const Battle& b : {both, At(Where::Sea, {With(Ship("A1", 0), Closes), With(Ship("B1", 1), Closes)})}) {
    auto r = ResolveBattle(b, dice);
    REQUIRE(r.ok());
    CHECK(r->line == LineOutcome::None);
    CHECK(r->strength_tenths == std::array<int64_t, 2>{900, 900});
  }
}

// ---- 7.7 ---------------------------------------------------------------------

TEST_CASE("PATE 7.7: strength: SL 100, FL 135, frigates 40 each, transports nothing", "[pate][pate-combat]") {
  CHECK(ShipStrengthTenths(Ship("A", 0, Kind::SL), {}) == 1000);
  CHECK(ShipStrengthTenths(Ship("A", 0, Kind::FL), {}) == 1350);
  CHECK(ShipStrengthTenths(Ship("A", 0, Kind::FR), {}) == 400);
  CHECK(ShipStrengthTenths(Ship("A", 0, Kind::TR), {}) == 0);
}

TEST_CASE("PATE 7.7: strength: crews under 70% lose 2.5% per 1%, none at 30%", "[pate][pate-combat]") {
  CHECK(CrewFactorBp(600, 600) == 10000);
  CHECK(CrewFactorBp(420, 600) == 10000);  // 70%
  CHECK(CrewFactorBp(360, 600) == 7500);   // 60%
  CHECK(CrewFactorBp(300, 600) == 5000);   // 50%
  CHECK(CrewFactorBp(180, 600) == 0);      // 30%
  CHECK(CrewFactorBp(60, 600) == 0);
  Combatant half = Ship("A", 0, Kind::SL);
  half.crew = 300;
  CHECK(ShipStrengthTenths(half, {}) == 500);
  Combatant fl = Ship("A", 0, Kind::FL);
  fl.crew = 400;
  CHECK(ShipStrengthTenths(fl, {}) == 675);
  fl.crew = 240;
  CHECK(ShipStrengthTenths(fl, {}) == 0);
}

TEST_CASE("PATE 7.7: strength: Marines at close quarters, the weather gauge, closing", "[pate][pate-combat]") {
  Combatant sl = Ship("A", 0);
  sl.marines = 150;
  CHECK(ShipStrengthTenths(sl, {}) == 1000);                                 // at range Marines do nothing
  CHECK(ShipStrengthTenths(sl, {.close_quarters = true}) == 1075);           // 150 / 20 = 7.5 points
  CHECK(ShipStrengthTenths(sl, {.close_quarters = true, .closed = true}) == 967);  // 107.5 x 90%
  CHECK(ShipStrengthTenths(Ship("A", 0), {.windward = true}) == 1100);
  CHECK(ShipStrengthTenths(Ship("A", 0), {.windward = true, .line_bp = 3300}) == 1430);
  // Version 11: a point for each whole 20 Marines (150: 7 points).
  CHECK(ShipStrengthTenths(sl, {.close_quarters = true}, kWholeMarinesVersion - 1) == 1075);
  CHECK(ShipStrengthTenths(sl, {.close_quarters = true}, kWholeMarinesVersion) == 1070);
  sl.marines = 160;
  CHECK(ShipStrengthTenths(sl, {.close_quarters = true}, kWholeMarinesVersion) == 1080);
  sl.marines = 19;
  CHECK(ShipStrengthTenths(sl, {.close_quarters = true}, kWholeMarinesVersion) == 1000);
  CHECK(ShipStrengthTenths(sl, {.close_quarters = true}, kWholeMarinesVersion - 1) == 1009);
}

TEST_CASE("PATE 7.7 with 6.9: at sea the +10% is each ship's to windward (version 11)", "[pate][pate-combat]") {
  // Side 0's A1 lies to windward of the enemy and its A2 to leeward; side
  // 1's B1 to windward and B2 to leeward: two each, so neither side has the
  // gauge (-1). Version 10: nobody gains 10%; version 11: A1 and B1 do.
  auto windward = [](Combatant c) {
    c.windward = true;
    return c;
  };
  Battle b = At(Where::Sea, {windward(Ship("A1", 0)), Ship("A2", 0), windward(Ship("B1", 1)), Ship("B2", 1)});
  b.version = kWindwardEachVersion - 1;
  BattleResult v10 = Prefixed(b, "");
  CHECK(v10.strength_tenths == std::array<int64_t, 2>{2000, 2000});
  b.version = kWindwardEachVersion;
  BattleResult v11 = Prefixed(b, "");
  CHECK(Of(v11, "A1").strength_tenths == 1100);
  CHECK(Of(v11, "A2").strength_tenths == 1000);
  CHECK(Of(v11, "B1").strength_tenths == 1100);
  CHECK(Of(v11, "B2").strength_tenths == 1000);
  // With the gauge side 0's (more of its ships to windward, say): version
  // 10 gives A2 the +10% too and B1 none; version 11 as above.
  b.windward_side = 0;
  b.version = kWindwardEachVersion - 1;
  BattleResult gauge10 = Prefixed(b, "");
  CHECK(Of(gauge10, "A2").strength_tenths == 1100);
  CHECK(Of(gauge10, "B1").strength_tenths == 1000);
  b.version = kWindwardEachVersion;
  BattleResult gauge11 = Prefixed(b, "");
  CHECK(gauge11.strength_tenths == std::array<int64_t, 2>{2100, 2100});
  // In coastal waters the gauge (from the port's wind, version 3) is every
  // ship's of that side, whatever her own flag.
  b.where = Where::Coastal;
  BattleResult coastal = Prefixed(b, "");
  CHECK(coastal.strength_tenths == std::array<int64_t, 2>{2200, 2000});
}

TEST_CASE("PATE 7.7: strength: quality and experience, doubled at close quarters (7.5)", "[pate][pate-combat]") {
  Combatant c = Ship("A", 0);
  c.quality = 4;
  CHECK(ShipStrengthTenths(c, {}) == 1200);
  CHECK(ShipStrengthTenths(c, {.close_quarters = true}) == 1400);
  c.quality = 0;
  CHECK(ShipStrengthTenths(c, {}) == 800);
  CHECK(ShipStrengthTenths(c, {.close_quarters = true}) == 600);
  c.quality = 2;
  c.experience = 25;
  CHECK(ShipStrengthTenths(c, {}) == 1050);
  c.experience = 300;
  CHECK(ShipStrengthTenths(c, {}) == 1100);  // at most +10%
  CHECK(ShipStrengthTenths(c, {.close_quarters = true}) == 1200);
}

TEST_CASE("PATE 7.7: strength: pre-existing damage", "[pate][pate-combat]") {
  Combatant c = Ship("A", 0);
  c.hull = 2;
  CHECK(ShipStrengthTenths(c, {}) == 800);
  c.hull = 0;
  c.rigging = 5;
  CHECK(ShipStrengthTenths(c, {}) == 750);
}

TEST_CASE("PATE 7.7: shore batteries: 100 x defence each, 50 x when damaged", "[pate][pate-combat]") {
  CHECK(BatteryStrengthTenths(3, 2, 0) == 6000);
  CHECK(BatteryStrengthTenths(3, 2, 1) == 4500);
  CHECK(BatteryStrengthTenths(1, 1, 1) == 500);
  Battle b = At(Where::Harbour, {Ship("A1", 0), Ship("B1", 1)});
  b.battery_side = 1;
  b.defence = 2;
  b.batteries = 3;
  b.batteries_damaged = 1;
  rules::CounterDice dice(4, 0);
  auto r = ResolveBattle(b, dice);
  REQUIRE(r.ok());
  CHECK(r->strength_tenths == std::array<int64_t, 2>{1000, 1000 + 2 * (2 * 1000 + 500)});
  CHECK(r->batteries_damaged_after >= 1);
  CHECK(r->batteries_damaged_after <= 3);
}

TEST_CASE("PATE 7.7: experience gained by the odds, 5 for even", "[pate][pate-combat]") {
  CHECK(ExperienceGain(1000, 1000) == 5);
  CHECK(ExperienceGain(1000, 1499) == 5);
  CHECK(ExperienceGain(1500, 1000) == 4);
  CHECK(ExperienceGain(1000, 1999) == 4);
  CHECK(ExperienceGain(1000, 2000) == 3);
  CHECK(ExperienceGain(1000, 4999) == 2);
  CHECK(ExperienceGain(1000, 5000) == 1);
  CHECK(ExperienceGain(0, 1000) == 1);
  CHECK(ExperienceGain(0, 0) == 5);
}

TEST_CASE("PATE 7.3, 7.7: fire at hulls sinks — a sunk ship neither escapes nor is taken", "[pate][pate-combat]") {
  // Side 0 fires at hulls with 2000; B1 (hull 3: 700) fires at rigging, 560.
  // A1, A2 under 560/2560 = 21.87%: 1 -> 0. B1 under 2000/2700 = 74.07%:
  // 6 -> 4 points, 3 at the hull: hull 5, sunk, all hands lost.
  Battle b = At(Where::Sea, {Ship("A1", 0), Ship("A2", 0), Ship("B1", 1)});
  b.ships[0].aim_rigging = b.ships[1].aim_rigging = false;
  b.ships[2].hull = 3;
  b.ships[2].marines = 40;
  BattleResult r = Scripted(b, "1 1 6");
  CHECK(r.strength_tenths == std::array<int64_t, 2>{2000, 700});
  CHECK(Of(r, "B1").hull == 5);
  CHECK(Of(r, "B1").rigging == 1);
  CHECK(Of(r, "B1").sunk);
  CHECK_FALSE((Of(r, "B1").escaped || Of(r, "B1").captured));
  CHECK(Of(r, "B1").crew_lost == 600);
  CHECK(Of(r, "B1").marines_lost == 40);
  CHECK(r.winner == 0);
}

// ---- 7.8 ---------------------------------------------------------------------

TEST_CASE("PATE 7.8: the loser's ships that fail to escape go to one captor drawn by lot", "[pate][pate-combat]") {
  // 2000 to 1000 at range; fire 1600 and 800. A1, A2 under 800/2800: 1 ->
  // 0. B1 under 1600/2600 = 61.53%: 6 -> 3 points, 2 rigging 1 hull. B1
  // escapes at 50% - 10% = 40%: 4001 fails. The captor is drawn on a d2: A2.
  Battle b = At(Where::Sea, {Ship("A1", 0), Ship("A2", 0), Ship("B1", 1)});
  BattleResult r = Scripted(b, "1 1 6 4001 2");
  CHECK(r.winner == 0);
  CHECK(Of(r, "B1").captured);
  CHECK(Of(r, "B1").captor == "A2");
  const rules::Roll& lot = r.rolls.back();
  CHECK(lot.request.purpose == "captor");
  CHECK(lot.request.rule == "PATE 7.8");
  CHECK(lot.request.subject == "BATTLE1");
  CHECK(lot.request.sides == 2);
  CHECK(Of(r, "B1").crew_lost == 54);  // 9% of 600
  for (const auto& s : r.ships) CHECK(s.experience_gained == 3);  // 2 to 1
}

TEST_CASE("PATE 7.8: a winner with no ship to take prizes lets the loser go", "[pate][pate-combat]") {
  // Batteries (defence 5: 500) against a badly crewed SL (crew 30%: 0).
  Battle b = At(Where::Harbour, {Ship("A1", 0)});
  b.ships[0].crew = 180;
  b.battery_side = 1;
  b.defence = 5;
  b.batteries = 1;
  // A1 under the whole fire: 3 -> 3 points at the hull (batteries aim at
  // hulls): hull 2, rigging 1. The battery is not hit (A1 fires nothing).
  BattleResult r = Scripted(b, "3");
  CHECK(r.winner == 1);
  CHECK((Of(r, "A1").hull == 2 && Of(r, "A1").rigging == 1));
  CHECK(Of(r, "A1").escaped);
  CHECK(r.batteries_damaged_after == 0);
}

// ---- the edges ---------------------------------------------------------------

TEST_CASE("PATE 7: a battle the rules cannot hold is refused — a failed roll is returned", "[pate][pate-combat]") {
  rules::CounterDice dice(1, 0);
  Battle sunk = At(Where::Sea, {Ship("A1", 0), Ship("B1", 1)});
  sunk.ships[1].hull = 5;
  CHECK(ResolveBattle(sunk, dice).status().code() == Status::Code::kInvalidArgument);
  Battle batteries_at_sea = At(Where::Sea, {Ship("A1", 0), Ship("B1", 1)});
  batteries_at_sea.battery_side = 1;
  batteries_at_sea.batteries = 1;
  CHECK(ResolveBattle(batteries_at_sea, dice).status().code() == Status::Code::kInvalidArgument);
  Battle twice = At(Where::Sea, {Ship("A1", 0), Ship("A1", 1)});
  CHECK(ResolveBattle(twice, dice).status().code() == Status::Code::kInvalidArgument);

  auto empty = rules::ScriptedDice::Parse("", "empty.dice");
  REQUIRE(empty.ok());
  auto r = ResolveBattle(At(Where::Sea, {Ship("A1", 0), Ship("B1", 1)}), *empty);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().find("no scripted value left") != std::string::npos);
}

// ---- properties ----------------------------------------------------------------

namespace {

Battle RandomBattle() {
  Battle b;
  b.id = "BATTLE" + std::to_string(*rc::gen::inRange(1, 100));
  b.at = TurnPhase{{1805, *rc::gen::inRange(1, 16), 0}, 4};
  b.where = *rc::gen::element(Where::Harbour, Where::Coastal, Where::Sea);
  b.onshore_wind = *rc::gen::arbitrary<bool>();
  b.windward_side = *rc::gen::inRange(-1, 2);
  // The first two ships take one side each, so that most battles are fought.
  const int n = *rc::gen::inRange(2, 12);
  for (int i = 0; i < n; ++i) {
    Combatant c = Ship("S" + std::to_string(i), i < 2 ? i : *rc::gen::inRange(0, 2),
                       *rc::gen::element(Kind::FL, Kind::SL, Kind::FR, Kind::TR));
    if (c.kind == Kind::FR) c.frigates = *rc::gen::inRange(1, 6);
    c.full_crew = c.kind == Kind::FR ? 225 * c.frigates : c.kind == Kind::TR ? *rc::gen::inRange(200, 2001) : c.full_crew;
    c.crew = *rc::gen::inRange(0, c.full_crew + 1);
    c.marines = c.kind == Kind::TR ? 0 : *rc::gen::inRange(0, 201);
    c.quality = static_cast<uint8_t>(*rc::gen::inRange(0, 5));
    c.experience = static_cast<uint16_t>(*rc::gen::inRange(0, 200));
    c.hull = static_cast<uint8_t>(*rc::gen::inRange(0, 5));
    c.rigging = static_cast<uint8_t>(*rc::gen::inRange(0, 6));
    c.evade = *rc::gen::inRange(0, 4) == 0;
    c.close = *rc::gen::arbitrary<bool>();
    c.break_line = *rc::gen::arbitrary<bool>();
    c.aim_rigging = *rc::gen::arbitrary<bool>();
    c.windward = b.where == Where::Sea && *rc::gen::arbitrary<bool>();
    b.ships.push_back(c);
  }
  b.version = *rc::gen::inRange<uint32_t>(0, rules::LatestVersion("pate") + 1);
  if (b.where == Where::Harbour && *rc::gen::arbitrary<bool>()) {
    b.battery_side = *rc::gen::inRange(0, 2);
    b.defence = static_cast<uint8_t>(*rc::gen::inRange(0, 6));
    b.batteries = static_cast<uint8_t>(*rc::gen::inRange(0, 5));
    b.batteries_damaged = static_cast<uint8_t>(*rc::gen::inRange(0, b.batteries + 1));
  }
  return b;
}

BattleResult Resolve(const Battle& b, uint64_t seed) {
  rules::CounterDice dice(seed, 0);
  auto r = ResolveBattle(b, dice);
  RC_ASSERT(r.ok());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("PATE 7: any battle keeps damage, fates, prizes and rolls within the rules", "[pate][pate-combat][property]") {
  rc::prop("invariants of a resolved battle", [] {
    const Battle b = RandomBattle();
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    const BattleResult r = Resolve(b, seed);
    RC_ASSERT(r.ships.size() == b.ships.size());
    const bool line_ships = std::any_of(b.ships.begin(), b.ships.end(),
                                        [](const Combatant& c) { return c.kind == Kind::FL || c.kind == Kind::SL; });
    for (size_t i = 0; i < b.ships.size(); ++i) {
      const Combatant& c = b.ships[i];
      const ShipResult& s = r.ships[i];
      RC_ASSERT(s.id == c.id);
      RC_ASSERT(s.hull <= 5);
      RC_ASSERT(s.rigging <= 5);
      RC_ASSERT(s.hull >= c.hull);
      RC_ASSERT(s.rigging >= c.rigging);
      RC_ASSERT((s.hull == 5) == s.sunk);
      RC_ASSERT(int{s.evaded} + s.escaped + s.captured + s.sunk + s.stayed <= 1);
      RC_ASSERT(s.crew_lost >= 0);
      RC_ASSERT(s.crew_lost <= c.crew);
      RC_ASSERT(s.marines_lost <= c.marines);
      if (!s.fought) RC_ASSERT(s.hull == c.hull && s.rigging == c.rigging && !s.escaped && !s.captured);
      const bool warship = c.kind != Kind::TR;
      RC_ASSERT(s.experience_gained == 0 || (s.fought && warship));
      if (s.fought && warship) RC_ASSERT(s.experience_gained >= 1 && s.experience_gained <= 5);
      if (c.kind == Kind::FR && b.where != Where::Harbour && line_ships) RC_ASSERT(!s.fought);  // 7.1
      // 7.8 with 2.1 (version 10): a transport group neither escapes nor is
      // taken (she may still evade, 7.4, and sink).
      const bool not_prizes = b.version >= kTransportsNotPrizesVersion;
      if (not_prizes && !warship) RC_ASSERT(!s.escaped && !s.captured);
      // ... and stays exactly when she fought on the beaten side and was not sunk.
      RC_ASSERT(s.stayed == (not_prizes && !warship && s.fought && r.winner >= 0 &&
                             c.side != r.winner && !s.sunk));
      if (s.captured) {
        RC_ASSERT(r.winner == 1 - c.side);
        auto it = std::find_if(r.ships.begin(), r.ships.end(), [&](const ShipResult& x) { return x.id == s.captor; });
        RC_ASSERT(it != r.ships.end());
        const Combatant& captor = b.ships[it - r.ships.begin()];
        RC_ASSERT(captor.side == r.winner);
        RC_ASSERT(it->fought);
        RC_ASSERT(!it->sunk);
      } else {
        RC_ASSERT(s.captor.empty());
      }
    }
    if (!r.fought) RC_ASSERT(r.winner == -1);
    RC_ASSERT(r.batteries_damaged_after >= b.batteries_damaged);
    RC_ASSERT(r.batteries_damaged_after <= b.batteries);
    for (const auto& roll : r.rolls) {
      RC_ASSERT(roll.request.rule.rfind("PATE 7", 0) == 0);
      RC_ASSERT(!roll.request.purpose.empty());
      RC_ASSERT(roll.request.at == b.at);
      const bool names_a_ship = std::any_of(b.ships.begin(), b.ships.end(),
                                            [&](const Combatant& c) { return c.id == roll.request.subject; });
      RC_ASSERT(roll.request.subject == b.id || names_a_ship);
    }
  });
}

TEST_CASE("PATE 7: the same battle and dice give the same result", "[pate][pate-combat][property]") {
  rc::prop("resolving twice is identical", [] {
    const Battle b = RandomBattle();
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    const BattleResult one = Resolve(b, seed), two = Resolve(b, seed);
    RC_ASSERT(one.fought == two.fought);
    RC_ASSERT(one.winner == two.winner);
    RC_ASSERT(one.strength_tenths == two.strength_tenths);
    RC_ASSERT(one.line == two.line);
    RC_ASSERT(one.batteries_damaged_after == two.batteries_damaged_after);
    RC_ASSERT(one.ships == two.ships);
    RC_ASSERT(one.log == two.log);
    RC_ASSERT(one.rolls.size() == two.rolls.size());
    for (size_t i = 0; i < one.rolls.size(); ++i) {
      RC_ASSERT(one.rolls[i].request.subject == two.rolls[i].request.subject);
      RC_ASSERT(one.rolls[i].request.purpose == two.rolls[i].request.purpose);
      RC_ASSERT(one.rolls[i].results == two.rolls[i].results);
    }
  });
}
