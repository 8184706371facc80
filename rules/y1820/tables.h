// The y1820 ruleset's numbers, in one place (rules are data). Section
// numbers Y1…Y15 are rules/y1820/RULES.md's: the book has none. Rows marked
// ASSUMED are not in the book (it names technologies without listing them
// and leaves random events open); RULES.md says so for each.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace adjutant::rules::y1820 {

// ---- Y1: the calendar -------------------------------------------------------
inline constexpr int kFirstYear = 1820;
inline constexpr int kTurnsPerYear = 12;
// Y1.4 stagnation: the book names the last turn twice, as "turn 240" and as
// "1840.12", which Y1.3's calendar (turn 1 is 1820.1, twelve a year) cannot
// both be. Version 1 ended after turn 240 (1839.12); version 2 after 1840.12,
// the date the game is named for: turn 252.
inline constexpr int kLastTurnV1 = 240;          // 1839.12
inline constexpr int kLastTurn = 252;            // 1840.12
inline constexpr uint32_t kCalendarVersion = 2;  // from this version on, kLastTurn
inline constexpr int kDominationTurns = 6;      // Y1.4: 50% + 1 for this many turns

// ---- Y6: governments --------------------------------------------------------
struct Government {
  std::string_view id;            // as scenarios and events spell it
  std::string_view name;
  int populous_armies;            // Y4.4: a populous province adds this to the army limit
  int capital_armies;             // Y4.4: the capital adds this
  int extra_armies;               // Y6.1 Levies: a flat addition
  int extra_spawn_points;         // Y6.1: selectable spawn points beyond the two rally points
  int academy_rp_capital;         // Y10.1: an academy in the capital
  int academy_rp_elsewhere;       // Y10.1: an academy elsewhere
  int flat_rp;                    // Y6.2: Skeletons in the Closet
  int revolt_bonus_pct;           // Y6.1 Traditionalism: added to a reform's revolt chance
};
inline constexpr Government kGovernments[] = {
    {"feudal", "Feudal Monarchy", 3, 3, 3, 1, 2, 1, 0, 10},
    {"constitutional", "Constitutional Monarchy", 3, 3, 0, 0, 2, 2, -3, 0},
    {"republic", "Republic", 2, 3, 0, 0, 3, 2, 0, 0},
};
const Government* FindGovernment(std::string_view id);

// ---- Y4: armies ----------------------------------------------------------------
inline constexpr int kArmiesPerProvince = 1;     // Y4.4 ASSUMED: an ordinary province adds 1
inline constexpr int kArmiesPerExchangeTreaty = 1;  // Y12.3
inline constexpr int kRallyPoints = 2;           // Y4.2
inline constexpr int kRallyPointDefence = 1;     // Y4.2
inline constexpr uint32_t kRallyDefenceVersion = 2;  // Y4.2, Y6.1: the capital and a third point defend no better
inline constexpr int kSpawnPerPointPerTurn = 1;  // Y4.1
inline constexpr int kLostOverLimitPerTurn = 1;  // Y4.5
inline constexpr int kHqDisbandedArmies = 2;     // Y11.6

// ---- Y7: neutrals ------------------------------------------------------------------
// The ten neutrals the book names, with its province numbers. A scenario may
// list more (land no nation holds); the bundled Europe 1820 keeps these ten
// and marks its additions (fixtures/y1820/README.md; phase_test "Y7.1").
struct BookNeutral {
  int32_t province;
  std::string_view name;
};
inline constexpr BookNeutral kBookNeutrals[] = {
    {49, "Bavaria"}, {60, "Swiss Confederacy"}, {63, "Florence"}, {65, "Papal States"}, {75, "Portugal"},
    {77, "Morocco"}, {78, "Algiers"},         {79, "Tunis"},    {81, "Libya"},        {82, "Cyrenaica"},
};

// ---- Y9: combat ------------------------------------------------------------------
inline constexpr int kCombatDie = 8;
inline constexpr int kNeutralDefence = 2;        // Y7.1
inline constexpr int kFortificationDefence = 1;  // Y11.3
inline constexpr int kNationalismCapitalDefence = 1;  // Y2.1 / Y14.4
inline constexpr int kCrossingPenalty = 1;       // Y9.2: mountain pass, water crossing, by fleet
inline constexpr int kOutnumberStep = 3;         // Y9.3: +1 per 3 armies more

// ---- Y3: loyalists -----------------------------------------------------------------
inline constexpr int kLoyalPct = 25;
inline constexpr int kLoyalPctNationalism = 50;

// ---- Y10: research ------------------------------------------------------------------
inline constexpr int kAtomicTheoryPerAcademy = 1;
inline constexpr int kElectrochemistryRp = 7;
inline constexpr int kNewPhilosophiesRp = 7;
inline constexpr int kExchangeRp = 2;
inline constexpr int kExchangeRpTelegraphs = 6;

// ---- Y11: provincial improvements -----------------------------------------------------
inline constexpr int kImprovementsPerTurn = 2;
inline constexpr int kFactoriesPerExtraImprovement = 4;
struct Improvement {
  std::string_view id;
  std::string_view needs_tech;    // "" for none
  std::string_view needs_reform;  // "" for none
  std::string_view rule;
};
inline constexpr Improvement kImprovements[] = {
    {"Academy", "", "", "Y11.2"},        {"Fortifications", "", "", "Y11.3"},
    {"Port", "", "", "Y11.4"},           {"Railroad", "Railroads", "", "Y11.5"},
    {"Military HQ", "", "Army Modernization", "Y11.6"}, {"Factory", "Industrialization", "", "Y11.7"},
};
const Improvement* FindImprovement(std::string_view id);

// ---- Y12: diplomacy -----------------------------------------------------------------
inline constexpr int kMaxExchangeTreaties = 2;
inline constexpr uint32_t kExchangeLimitVersion = 2;  // Y12.3: a third refused when sent (version 1: kept waiting)
inline constexpr std::string_view kTreatyKinds[] = {"non-aggression", "exchange", "pact"};
// Y12.1, Y12.2 (version 4): two nations at war treat for peace only: an
// exchange or a pact announced between them is refused (version 3 took it,
// and a pact in force between enemies could never be broken, war being
// declared already). Y12.5 (version 4): a province whose giver is at war with
// its receiver is not handed over while the war lasts (version 3 handed it
// over to the enemy). Y2 (version 4): a nation
// eliminated ends every treaty and announcement naming it
// (projections::kEliminationEndsTreatiesVersion, where the view folds it).
inline constexpr uint32_t kTreatiesAtWarVersion = 4;
// Y11.6 (version 4): a Military HQ is not built in the capital, which spawns
// armies already (formulas.cc SpawnPoints gives it no spawn point): version 3
// built it and disbanded two armies for nothing.
inline constexpr uint32_t kNoHqInCapitalVersion = 4;
// Y3.1, Y12.5 (version 5): a province given by trade that has become its
// giver's capital since (its old capital fell and the new one was drawn)
// is not handed over while it is the capital: the trade waits (version 4
// handed it over, leaving a nation with a capital it did not hold, which
// no capture could then eliminate).
inline constexpr uint32_t kCapitalNotTradedVersion = 5;
// Y9.1 (version 6): the armies in a province attacked that belong to a
// nation at war with the attacker are enemy armies stationed there and
// fight: the owner's first, then each other nation's in name order, each
// with its own bonuses; the province is taken when none is left (version 5:
// the owner's armies alone fought, and a third nation's at war with the
// attacker stood by and stayed in the province taken).
inline constexpr uint32_t kThirdArmiesDefendVersion = 6;

// ---- Y8: fleets --------------------------------------------------------------------
// Y8.5 (version 2): a taken port's docked fleets of every nation it is no
// longer friendly to flee, not only the former owner's (version 1).
inline constexpr uint32_t kFriendlyFleetsFleeVersion = 2;
// Y8.3 (version 3): a fleet escorts once a turn, in one sea zone, counted
// across every nation's moves (version 2: zone by zone in each nation's own
// count, so a fleet that escorted and sailed on escorted again, and a pact
// partner's fleets served each partner).
inline constexpr uint32_t kEscortOnceVersion = 3;
// Y3.1, Y8.5 (version 3): a surrendering province's docked fleets flee as a
// taken port's do, every nation's to which the port is no longer friendly
// (version 2: the loser's were lost and its partners' stayed docked).
inline constexpr uint32_t kSurrenderFleeVersion = 3;
// Y8.6 (version 6): a fleet is dismantled only where it is docked in a Port
// of a province its nation holds (version 5 dismantled one docked where the
// Port had been dismantled or razed).
inline constexpr uint32_t kDismantleInPortVersion = 6;
// Y8.2 (version 7, a reading of "fleets of nations not at war may share a sea
// zone"): fleets of nations at war do not share one. At the start of its
// moves a nation's fleets in each sea zone that also holds fleets of a nation
// at war with it attack them there (Y9); after a draw they stay, having no
// port to fall back to, free to move on its orders. A fleet battle's draw
// records no fleet lost (version 6 recorded one fewer attacker left, though
// none was lost). Version 6 fought only when a fleet entered a zone, so
// a war declared while two nations' fleets lay in one zone (or deployed there
// at turn 0) left them sharing it for the rest of the game.
inline constexpr uint32_t kAtWarFleetsFightVersion = 7;
// Y9.1 with Y12.2, Y9.5 (version 8, a reading): armies do not stand on the
// ground of a nation at war with theirs. At the end of its moves (its ruler
// may first order them out) a nation's armies still standing in a province
// whose owner is at war with it (a pact partner's when war was declared
// between them) attack it there, as armies moving in would (Y9.1, Y9.4): the
// owner's armies defend, then those of every other nation at war with it; a
// draw stops the army that drew where it stands (Y9.5's falling back read as
// staying where it attacked from), an army that attacked elsewhere from there
// this turn and drew has stopped and takes no part, and if they win they take
// the province (Y9.6, Y9.7). Version 7 never fought them: the owner moving in
// made a plain move, they could not attack where they stood, and the owner's
// armies could not spawn there while they stayed.
inline constexpr uint32_t kStandingArmiesAttackVersion = 8;
// Y9.1 with Y9.3, Y9.5 (version 9, a reading): the armies a nation moves
// into one hostile province in its turn, from wherever they come, are one
// attacking side: the battle is fought when the last of its orders naming
// that province is reached (so an order after it sees the province taken),
// Y9.3's outnumbering counts them all, and army meets army in the order the
// moves were written, each carrying its own crossing penalty (Y9.2) and, on
// a draw, falling back to the last own province it passed (Y9.5: where
// its move began, or the province passed by railroad). Version 8 fought each
// order's armies as a battle of their own, so two columns of two never
// outnumbered one defender, and the second often walked into a province the
// first had already taken.
inline constexpr uint32_t kPooledAttackVersion = 9;
// Y9.1 with Y9.3 (version 10, a reading): the nation's armies already
// standing in a hostile province it moves into this turn (left on a pact
// partner's ground when war came, version 8) join the armies moving in as
// one attacking side, at its head: they are in contact already, so they meet
// the defenders first (no crossing penalty; a draw stops the army where it
// stands) and Y9.3 counts them with the rest. Not the armies that attacked
// elsewhere from there this turn and drew, nor those waiting there to attack
// another province. Version 9 left them out of the battle: they attacked
// alone at the end of the nation's moves, if the province was still the enemy's.
inline constexpr uint32_t kStandingJoinAttackVersion = 10;

// ---- Y13: epidemics (percent) -----------------------------------------------------------
inline constexpr int kEpidemicKillPct = 40;
inline constexpr int kEpidemicEndPct = 20;
inline constexpr std::string_view kEpidemicTechs[] = {"Epidemiology", "Sanitation"};  // each halves kill, doubles end

// ---- Y14: social reforms ------------------------------------------------------------------
struct Reform {
  std::string_view id;
  int chance_pct;                  // success chance = revolt chance (before modifiers)
  std::string_view government;     // the government it installs ("" for none)
  std::string_view from[2];        // governments it may be pursued from ("" : any)
};
inline constexpr Reform kReforms[] = {
    {"Absolutism", 25, "feudal", {"constitutional", ""}},
    {"Enlightened Monarchy", 25, "constitutional", {"feudal", "republic"}},
    {"Liberalism", 15, "republic", {"constitutional", ""}},
    {"Nationalism", 25, "", {"", ""}},
    {"Army Modernization", 15, "", {"", ""}},
    {"New Philosophies", 15, "", {"", ""}},
};
inline constexpr int kNewPhilosophiesSuccessPct = 10;
const Reform* FindReform(std::string_view id);

// ---- Y15.1: technologies (ASSUMED: the book names some, lists none) ----------------------
struct Tech {
  std::string_view id;
  int cost;                        // research points
  std::string_view needs;          // a prerequisite technology, "" for none
  int army_attack = 0;             // Y9.1 bonuses it gives
  int army_defence = 0;
  int fleet_attack = 0;
  int fleet_defence = 0;
  std::string_view effect;         // what it does, for reports and RULES.md
  int improvements = 0;            // Y11.1: added to the improvements a turn
  uint32_t since = 1;              // the rules version that first offers it
};
inline constexpr Tech kTechs[] = {
    {"Railroads", 40, "", 0, 0, 0, 0, "Railroad improvements (Y5.2, Y11.5)"},
    {"Industrialization", 50, "", 0, 0, 0, 0, "Factory improvements (Y11.7)"},
    {"Atomic Theory", 60, "Electrochemistry", 0, 0, 0, 0, "+1 RP per academy (Y10.1)"},
    {"Electrochemistry", 45, "", 0, 0, 0, 0, "+7 RP a turn (Y10.2)"},
    {"Epidemiology", 30, "", 0, 0, 0, 0, "epidemics: kill chance halved, end chance doubled (Y13)"},
    {"Sanitation", 40, "Epidemiology", 0, 0, 0, 0, "epidemics: kill chance halved, end chance doubled (Y13)"},
    {"Electrical Telegraphs", 50, "Electrochemistry", 0, 0, 0, 0, "exchange treaties give +6 RP instead of +2 (Y12.3)"},
    {"Rifled Muskets", 35, "", 0, 1, 0, 0, "+1 to armies' defence rolls"},
    {"Breech-Loading Rifles", 55, "Rifled Muskets", 1, 0, 0, 0, "+1 to armies' attack rolls"},
    {"Rocketry", 45, "", 1, 0, 1, 0, "Aeronautics: +1 to armies' and fleets' attack rolls (Y8.4)"},
    {"Steam Navigation", 35, "", 0, 0, 1, 0, "Nautical: +1 to fleets' attack rolls"},
    {"Naval Gunnery", 40, "", 0, 0, 1, 1, "Nautical: +1 to fleets' attack and defence rolls"},
    {"Ironclads", 60, "Steam Navigation", 0, 0, 0, 1, "Nautical: +1 to fleets' defence rolls"},
    // Y11.1: "certain research" raises the improvements a turn; the book names none (version 2).
    {"Civil Engineering", 40, "", 0, 0, 0, 0, "+1 improvement a turn (Y11.1)", 1, 2},
};
// Any row of the table (a scenario's, a projection's, a report's look-up).
const Tech* FindTech(std::string_view id);
// A technology the rules `version` offers (research and trades): nullptr for
// one that version does not know.
const Tech* FindTech(std::string_view id, uint32_t version);

// ---- Y15.2: random events (ASSUMED) ---------------------------------------------------------
// One d100 a turn when the scenario has random events: the first row whose
// `upto` is at least the roll happens.
struct RandomEventRow {
  int upto;
  std::string_view kind;   // "epidemic", "fire", "none"
  std::string_view effect;
};
inline constexpr RandomEventRow kRandomEvents[] = {
    {6, "epidemic", "an epidemic breaks out in a random province held by a nation (Y13)"},
    {9, "fire", "a random academy burns down"},
    {100, "none", "nothing happens"},
};

}  // namespace adjutant::rules::y1820
