#include "rules/versions.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace adjutant::rules {

namespace {

// The table of versions: data, in one place.
constexpr std::array kVersions{
    VersionNote{"dog", 1, "D1-D15", "the first version"},
    VersionNote{"dog", 2, "D1.8, D1.9, D1.12, D4.17, D4.19, D5.6, D6.5, D7.7, D7.8, D7.13, D7.17, D8.2, D10, D11, D12.7",
                "morale tests count flanks threatened, an attack from the rear, secure flanks and cover; control "
                "tests judge the nearest enemy's and friend's movement this move and fire from a flank or the rear; "
                "a control result binds the moves after the one it was taken in (version 1 counted that move), and "
                "retire moves the unit back a move; unlimbered batteries reface in quarters of a move; units "
                "re-form by order; a line of one rank is single-rank; a shaken square fights at -1; a commander "
                "rides with a unit and his death is tested at the next move; routs spread without limit"},
    VersionNote{"dog", 3, "D3, D5.4, D7.11",
                "friends within 150 mm that fall back shaken (D6.5) or retire by a control result (D11.6) bring a "
                "D5.4 morale test as a new rout does (version 2: routs only); D7.11's -10% counts every routing "
                "unit within 150 mm, of either side (version 2: friends only); a wood on a slope keeps the wood's "
                "share of the slope's rate (open woods on a gentle slope: 1/2 x 3/4; version 2 took the slower of "
                "the two)"},
    VersionNote{"dog", 4, "D5.3, D7.8, D7.9, D7.15, D7.16",
                "a unit charged this move that loses the round of melee to its charger tests morale as a unit being "
                "charged: attacked from the rear, charged by cavalry (in square or not), a British unit receiving "
                "a charge (version 3 counted none of them after its charged-infantry test)"},
    VersionNote{"dog", 5, "D5, D6.5",
                "a shaken result has its effect whatever the test: a unit shaken before movement (a commander's "
                "death) makes no charge and no advance that move; a unit charged that move and shaken after "
                "movement (the round of melee it lost, casualties, friends retreating) falls back 50 mm unless in "
                "square, once a move (version 4: only a charged unit shaken by its charged-infantry test fell back, "
                "once for each charge); a square does not charge by order, as it does not when bound to pursue "
                "(version 4: it charged)"},
    VersionNote{"dog", 6, "D3",
                "a unit that starts its move inside a wood, a building or a slope has not entered it: no building "
                "deduction and no cohesion penalty for it again (version 5 charged both on every move that began "
                "inside, as if the unit had just come in)"},
    VersionNote{"dog", 7, "D2, D2.10, D5, D11, D13",
                "a unit walks its path in 5 mm steps rounded to the nearest mm and pays each step's exact length "
                "(version 6 cut each step toward zero and paid it cut to whole mm: a move at an angle went up to "
                "12% past its allowance); a charge reaches when the charger's block ends within 15 mm of its "
                "target's block (version 6 allowed the target's depth from its front centre: a deep column or a "
                "square was reached from 100 mm short); a unit charged that holds moves before the others, so its "
                "charger goes in at where it then stands (version 6: all in id order: a target before its charger "
                "walked away, one after it was caught); a unit bound to stand keeps a formation change or a refacing and is refused "
                "only its path and charge (version 6 refused the whole intention); a unit ordered to a new facing walks "
                "its path as the block it ends as, the units in its way judged by it (version 6 judged them by the "
                "block it began as)"},
    VersionNote{"dog", 8, "D5.4",
                "a unit that went back this move (a shaken defender falling back, D6.5; a unit retiring, D11.6) "
                "tests for the friends retreating within 150 mm in the same wave as its own going back - the others "
                "that went back and the units that broke earlier in the move: two shaken defenders side by side "
                "test for each other (version 7 skipped every unit of the wave)"},
    VersionNote{"dog", 9, "D5.3, D5.4, D5.5, D5.7, D7.8, D7.9, D7.14, D7.15, D7.16, D7.18",
                "a unit a charge reached this move is still being charged, and a charger that reached its target "
                "still charging, for every morale test it takes after the charges - a round of melee lost, its "
                "casualties, friends retreating - with the modifiers of a charge: attacked from the rear, charged by "
                "cavalry, British receiving a charge, charging cavalry (version 8: only a loser's test against the "
                "unit that charged it); a unit is supported by a formed friend in its rear arc, not by one on a flank "
                "a little behind it, which counts toward secure flanks (version 8 counted any friend behind its "
                "front line)"},
    VersionNote{"dog", 10, "D2.10",
                "a unit turns where it stands (a new facing with no path, or a path whose first step is barred, a "
                "battery refacing, a unit bound to stand) only if the block it turns into overlaps no other unit; "
                "else it keeps its facing, stopped by the unit in the way (version 9 turned it into the other's "
                "block)"},
    VersionNote{"pate", 1, "PATE 1-10", "the first version"},
    VersionNote{"pate", 2, "PATE 2.3, 2.8, 3.5, 3.7, 7.1, 7.4",
                "a ship placed on station as a campaign opens is loaded with 24 - 4 stores a move from her base, "
                "even when she had fewer (2.8); stores moved into a port cannot be moved on the same turn (3.5); "
                "ships in a port that go into the harbour or come out to the coastal waters to fight are moved there "
                "(3.7, 7.1); a side that wholly evades a battle and gets away moves to another tactical area, or out "
                "to sea from a port, though no battle is fought (7.4); each order of a file is checked against the "
                "roster as the orders before it left it: an appointment takes effect when received (2.3)"},
    VersionNote{"pate", 3, "PATE 2.6, 2.7, 3.4, 3.5, 3.7, 4.5, 4.6, 5.3, 6.2, 6.3, 6.6, 6.9, 6.10, 7.1, 7.4, 7.7",
                "a ship moving between the harbour and the coastal waters of her port is moving into or out of it "
                "(6.6, as 7.1 reads it): never upwind into heavy winds (version 2 read no wind); a ship in an enemy's harbour uses her own stores, not the port "
                "city's (3.4; version 2 fed her from the port); a ship's order form is checked whole when received: its route from "
                "where she is (6.2-6.5, 6.11) and Evade with Join Allies (4.6) too; every fault told in one "
                "refusal, so the standing order stays (version 2 told the first fault and took the route, which "
                "failed when sailing); ships passing a strait go through the port's coastal waters, seen "
                "there by the enemies in the port and followed by those ordered to pursue (6.3, 6.10; version 2 "
                "only named the port); sending a ship's whole crew scuttles her at once (2.7; version 2 "
                "refused any transfer leaving fewer than 70); the GA's seizure of inactive ships in a harbour "
                "counts the harbour defended while any battery there can fire, intact or damaged (2.6; version 2 "
                "compared the intact with the destroyed); the batteries damaged in a harbour battle stay damaged in "
                "their city, for SOW 7.1 to repair (7.7; version 2 forgot them); the land units in an on-map "
                "port's square report the other states' ships in the port to their Naval Minister (5.3; "
                "version 2 made no such report); a group reaching allied ships at sea joins them when its Join "
                "Allies box is ticked and keeps apart when it is not, and a third group joins its allies only when "
                "they lie on the side it comes from (6.9; version 2 took no notice of allies); stores also go by "
                "land between ports on the land map within 10 squares, unless an enemy unit stands in either port's "
                "square (3.5; version 2: by sea only). A "
                "battle in a port's coastal waters has a weather gauge, read from the wind recorded for the port: "
                "with the wind onshore the ships off the coast hold it, offshore the port's side, across the wind "
                "the sides' requests or a d2 (6.9); so the port's side, to leeward with the wind onshore, evades at "
                "25% (7.4) and the side to windward fights at +10% (7.7); version 2 gave it none (50%, no +10%). A "
                "harbour's intact shore batteries fight at 100 x defence and its damaged ones at 50 x, each counted "
                "once (7.7); version 2 took the damaged ones as part of the intact ones. In a port, a ship moves into or "
                "out of the harbour to fight only on her own choice and when the wind permits (6.6), before the "
                "battles, each part fighting its own; a fleet seeking battle comes out past a lone frigate though no "
                "battle follows; outside a harbour frigates fight the enemy's frigates in a battle of their own beside "
                "the line ships' (3.7, 7.1); version 2 took the whole port into the harbour battle, checked no wind, "
                "moved nobody unless a battle began, and let frigates stand aside"},
    VersionNote{"pate", 4, "PATE 1.4, 6.2",
                "a ship's order naming a port or a sea area the map does not hold is refused, as before, and the "
                "refusal names the nearest the player may have meant (a misspelt port, an area's name or a code "
                "one letter off); a leg to a sea area not next to the ship's, or into a port not on the last sea "
                "area, is refused naming the areas next to hers or the ports entered from there (version 3 named "
                "neither)"},
    VersionNote{"pate", 5, "PATE 7.1, 6.4, 2.1, 7.8, 6.9, 6.10, 6.3, 5.2, 7.2",
                "the sides of a battle are drawn around the first ship (by id) with an enemy in the place, so two "
                "states at war fight though a ship neutral to both comes first (version 4 drew them around the first "
                "ship there, and no battle was fought) (7.1); a ship in the harbour ordered out to sea while hostile "
                "ships are off the coast comes out to the coastal waters at the start of the combat phase, the wind "
                "permitting, fights if they give battle, and then sails (version 4 held her in the harbour unless "
                "ordered to Close or Pursue) (6.4); hostile transport groups are not ships: they neither bar leaving "
                "the harbour (6.4), shifting within a port or moving upwind in it (6.6), nor entering the harbour "
                "(6.8), nor count as ships in a battle: a side whose warships all evade evades whole, a side of shore "
                "batteries and transports is one of only shore batteries, and a ranged Evade counts the enemy's "
                "warships (7.4, 7.5, 4.6) (version 4 counted them as ships) (2.1); a ship already in her first sea area as the movement "
                "begins, fled there from a port battle or there from the start, has carried out her first move and "
                "makes her second (version 4 made neither) (7.8, 4.5); pursuers reaching at sea the ships they "
                "followed take a side of the wind as an arriving group does: windward sailing downwind, leeward "
                "upwind, across the wind by the requests or a d2 (version 4 gave neither side the gauge) (6.9, 6.10); "
                "a ship escaping or evading a battle at sea goes to one of the other tactical areas, each as likely, "
                "on a d3 (version 4 rolled a d4 and took the next area for her own, so that area came up half the "
                "time) (7.8, 7.4); a frigate sights a strait port's ships only from the sea area the port is "
                "connected to, not from the strait's other side (version 4: from both) (6.3, 5.2); a broken line, one "
                "side through or both breaking, makes a battle more decisive whoever wins: the loser's ships escape "
                "20% less often (version 4: only when the winner broke through) (7.2, 7.6)"},
    VersionNote{"pate", 6, "PATE 6.11, 6.8, 6.9",
                "ships of one state arriving from the Atlantic in one sea area on one turn arrive together in one "
                "tactical area (version 5 drew an area for each ship, parting groups that crossed together), and "
                "meet the enemies there as a group moving in does: windward sailing downwind, leeward upwind, across "
                "the wind by the enemy's request or a d2, sailing west onto the American map and east onto the "
                "European; both sides are told whom they met; allied ships in the tactical area drawn are joined, as "
                "a group under the default orders joins them (version 5 gave the arrivals the leeward side whatever "
                "the wind and told neither side)"},
    VersionNote{"pate", 7, "PATE 6.4, 7.1, 6.6, SOW 4.8",
                "a ship in a port's coastal waters ordered into its harbour while hostile ships are off the coast "
                "goes in during the combat phase, after the battles there, if she is still in the coastal waters, "
                "did not evade a battle left unfought, no hostile ship is in the harbour and the wind lets her in "
                "with enemies present "
                "(version 6 moved her in only to fight a ship in the harbour, and the movement phase refused the "
                "shift while hostile ships stayed off the coast, so she never got in); a ship that added crew this "
                "turn makes no shift between harbour and coastal waters in the combat phase (version 6 moved her)"},
    VersionNote{"pate", 8, "PATE 7.8, 2.6, 4.1, 4.2, 2.3",
                "a prize (taken in battle or seized in port) is given the lowest number of her type that no ship, "
                "build or land unit holds, no order standing this turn names and no person holds a post on "
                "(version 7 could give her the number of a ship sunk or taken that turn, and with it that ship's "
                "orders for the rest of the turn, or of a ship lost earlier, with its commander or deputy where "
                "her captor had none)"},
    VersionNote{"pate", 9, "PATE 2.5, 2.3, 5.3, 9",
                "the GA's new number for a part of a divided transport group must be available as a prize's is: "
                "no land unit's id, no number an order standing this turn names or a person holds a post on (the "
                "new group takes the old one's posts; version 8 refused only a number a ship or a build held, so "
                "the part could take the number of a group lost earlier, and the posts still held on it); a ship at "
                "a port sees land units near it among those aboard a transport only while the transport lies in a "
                "port on that port's square (version 8 counted a unit aboard on the square it boarded from, "
                "wherever she sailed)"},
    VersionNote{"pate", 10, "PATE 7.8, 2.1",
                "a battle's losing transport groups make no escape roll and are neither taken nor moved: 7.8's "
                "escape and prizes are for the loser's ships, and 2.1 says ships are never transports; they stay "
                "where the battle was, one ordered into the harbour not going in past the winner (version 9 had "
                "each roll to escape and, failing, be taken as a prize)"},
    VersionNote{"pate", 11, "PATE 7.7, 6.9",
                "at sea the +10% to windward is each ship's whose group lies to windward of the enemy (version 10 "
                "gave it to every ship of the side with more ships to windward, and to nobody when the counts were "
                "equal); Marines at close quarters add a point for each whole 20 (version 10 counted the fraction: "
                "150 Marines, 7.5 points; now 7)"},
    VersionNote{"pate", 12, "PATE 6.11, 6.7, 6.8, 3.5, 9",
                "ships of allied states arriving from the Atlantic in one sea area on one turn (a group that "
                "crossed together) arrive together, in one tactical area, and meet what is there as one group "
                "(version 11 grouped the arrivals by state: each state's ships rolled a tactical area of their "
                "own); enemy troops aboard a transport lying in a port on either port's square close 3.5's land "
                "route, as SOW counts troops aboard where their transport lies (version 11 counted none aboard)"},
    VersionNote{"sow", 1, "SOW 1-6", "the first version: the reductions of SOW 2.4-2.7 apply one after another, each to "
                                     "what the ones before left"},
    VersionNote{"sow", 2, "SOW 2.4, 2.5, 2.6, 2.7",
                "the reductions of a city's income (contact and embargoed neighbours, blockade, each embargo, raiding) "
                "are each a share of its income after occupation (2.3) and add up, as 2.4's own two reductions do; "
                "together they take at most the whole income"},
    VersionNote{"sow", 3, "SOW 4.10",
                "a ship at sea may be removed when enemy ships share her sea area but not her tactical area "
                "(PATE 1.2): only enemies in the same tactical location stop a removal"},
    VersionNote{"sow", 4, "SOW 3.5 (GA LoseShip, MoveShip); PATE 9, 4.4",
                "a ship the GA strikes off takes the troops aboard with her (their men lost) and those that "
                "followed her follow none, as when she sinks; a ship the GA moves has ended any Atlantic crossing, and "
                "is in tactical area 1 when put at sea (0 in a port) "
                "(versions 1-3 left followers and troops naming a ship no longer there, and a moved crosser "
                "still crossing)"},
    VersionNote{"sow", 5, "SOW 4.8, SOW 4.10, SOW 3.5, SOW 4.6, SOW 2.5, SOW 2.6, SOW 4.9, SOW 4.3",
                "4.8: a ship that adds crew may not move on that turn: her movement (and pursuit) is refused, "
                "naming SOW 4.8 (version 4 let her sail); "
                "4.10: the units and supplies aboard a ship removed from the game are lost with her, their men recorded lost (version 4 left them aboard a ship no longer there); "
                "3.5: a ship sunk in a PATE battle returns a quarter of her men at the end of the season, as a ship destroyed in battle does; only a storm loses all (version 4 lost all); "
                "4.6: the dockyard limit counts the ships being repaired in the port as well as those being built (version 4: the builds alone); "
                "2.5: only the ships of a power that declared the blockade blockade (version 4 also counted its allies'), and a ship with no commerce order ignores commerce (version 4: she never blockaded); "
                "2.6: the embargoing state's own ports lose by its own share of its nation's ports (version 4: by the embargoed state's share of its nation's); "
                "4.9: a unit disbanding on a square strictly nearer to a city its state holds than to any other city disbands in its own territory (version 4: only on a city's square); "
                "4.3: militia are raised in a home city another state holds only when that state is at war with theirs (version 4: any holder); 4.9: militia may disband among enemies anywhere in the strategic square of the city they were raised in (version 4: inside it only)"},
    VersionNote{"sow", 6, "SOW 2.5, SOW 2.6, SOW 2.4, SOW 2.8",
                "a declared blockade holds only while its declarer is at war with the state blockaded, and an "
                "embargo only while the two are not allied: peace lifts a blockade and an alliance an embargo, for "
                "2.5 and 2.6's losses, 2.4's embargoed neighbours and 2.8's receivers (version 5 kept both until "
                "the GA lifted them)"},
    VersionNote{"sow", 7, "PATE 9, SOW 2.4, SOW 6.1, SOW 4.9",
                "a unit aboard a transport is where the transport is: in a port on the land map, that city's "
                "square; at sea, nowhere on land: it counts as a hostile brigade near a city (2.4), bars purchases "
                "next to it (6.1) and stops a unit disbanding beside it (4.9) only there (version 6 counted it on "
                "the square it boarded from, wherever the transport sailed)"},
    VersionNote{"sow", 8, "SOW 7.1, PATE 10",
                "an enemy has been in a city once the log shows it - the city changed hands (PATE 10's PortTaken, "
                "the GA's SetCityControl) or a unit at war with its controller was placed, moved or landed there, "
                "or stands there as a campaign begins or a war is declared - as well as on the GA's EnemyInCity "
                "(version 7 read only that); a repair cancelled refunds what its order paid (version 7 priced it "
                "again at the season's end); a city repairs as many coastal batteries in a season as it has "
                "damaged or destroyed, one order a turn, each its own repair (version 7: one at a time)"},
    VersionNote{"sow", 9, "SOW 4.9, SOW 4.10",
                "4.9: a unit aboard a transport disbands where she is - in a port, in that city and on its square; "
                "at sea, on no strategic square, so it may not disband until landed or in port - and an off-map "
                "port's square is not home to a unit on it (version 8 disbanded a unit aboard as if it stood where "
                "it boarded); 4.10: the friendly ship that lets a ship leave the game from a sea area must stay - "
                "not crossing the Atlantic, and not itself ordered removed in the same phase - and a ship crossing "
                "is in no sea area: she stops no removal and her own is not stopped (version 8 counted every ship "
                "bound for the area, hers too)"},
    VersionNote{"sow", 10, "SOW 6.1, 6.3, 2.2, 2.4, 4.9",
                "the War Minister's supplies and the Naval Minister's stores are both bought in one city on one "
                "turn, within 6.3's limit for the city: a purchase's order slot is its buyer's ministry "
                "(STATE/buy/CITY/war, /naval, /treasury for the Treasury Minister or the PM or monarch on his "
                "behalf), so an order replaces only its own ministry's (version 9 held them in one slot: the "
                "later minister's order superseded the other's); "
                "a unit garrisoning an off-map port stands on no square of the land map, so it cuts no city's "
                "income (2.4), bars no purchase (6.1) and shares no square with a unit disbanding (4.9) "
                "(version 9 counted it on the square the scenario gave it)"},
    VersionNote{"sow", 11, "SOW 7.1",
                "a unit that names its city (a garrison, a landing) has been in that city alone, not in another "
                "city on the same square, when 7.1 asks whether an enemy has been in a city this campaign (version "
                "10 counted every city on the unit's square: in the 1805 scenario Spain's garrison of Algeciras "
                "barred Gibraltar's repairs in every campaign of a war, and the reverse)"},
    VersionNote{"sow", 12, "SOW 4.1, PATE 2.3",
                "a ship's build may not name a number someone holds a post on (a lost ship's commander or deputy "
                "keeps the post until the GA withdraws it, and the new ship would take it); the refusal names the "
                "holders (version 11 let the new ship take the lost ship's number and her commander with it)"},
    VersionNote{"sow", 13, "SOW 3.5 (GA MoveUnit, DestroyUnit), SOW 4.9, PATE 9",
                "a unit the GA moves is landed where he puts it: one aboard a transport is no longer aboard, so it "
                "is not lost with her, takes no room in her hold and has been in the city it is put in (7.1); a "
                "unit the GA destroys, or one disbanded aboard in port, leaves the hold too (version 12 moved the "
                "unit's square and left it aboard: she carried it on, and it was lost if she was; and a hold kept "
                "listing units no longer in the game)"},
    VersionNote{"y1820", 1, "Y1-Y15", "the first version"},
    VersionNote{"y1820", 2, "Y1.3, Y1.4, Y4.2, Y6.1, Y8.5, Y11.1, Y12.3, Y15.1",
                "stagnation ends the game after 1840.12 (turn 252), the date the book names; version 1 ended it "
                "after turn 240, the number the book names, which its calendar calls 1839.12. Y12.3: an exchange "
                "treaty sent to or by a nation that already has two (in force or announced) is refused when sent; "
                "version 1 kept it waiting until one of the two ended. Y4.2, Y6.1: a rally point's +1 defence is "
                "given only in the first two provinces named and never in the capital; a Feudal Monarchy's third is "
                "a spawn point only (version 1: every province named defended +1). Y8.5: a taken port's docked fleets "
                "of every nation the port is no longer friendly to flee, the former owner's treaty partners' too; "
                "version 1 made only the former owner's flee. Y11.1, Y15.1: the technology Civil Engineering (40 RP, "
                "ASSUMED) adds one improvement a turn, the book's research that raises the limit; version 1 knew no "
                "such technology"},
    VersionNote{"y1820", 3, "Y3.1, Y8.3, Y8.5",
                "Y8.3: a fleet escorts one army across one sea zone a turn, counted across every nation's moves: a "
                "fleet that escorted and sailed on does not escort again, and a pact partner's fleet serves one "
                "partner (version 2 counted escorts zone by zone in each nation's own tally). Y3.1, Y8.5: a province "
                "surrendering after its capital fell is taken like a captured port: the fleets docked there to which "
                "it is no longer friendly flee, the loser's and its partners' (version 2: the loser's were lost and "
                "its partners' stayed docked)"},
    VersionNote{"y1820", 4, "Y3.2, Y12.2, Y12.5, Y11.6",
                "a nation eliminated ends every treaty and announcement naming it (version 3 kept them: an exchange "
                "with a nation gone gave research points and an army for ever); nations at war may announce only "
                "non-aggression (version 3 put a pact in force between enemies); a province given away is not "
                "handed over while giver and receiver are at war (version 3 handed it to the enemy); a Military HQ "
                "is not built in the capital (version 3 disbanded two armies for a spawn point the capital has)"},
    VersionNote{"y1820", 5, "Y3.1, Y12.5",
                "a province given by trade that has become its giver's capital since (its old capital fell) is not "
                "handed over while it is the capital: the trade waits (version 4 handed it over, leaving a nation "
                "whose capital another held and which no capture could eliminate)"},
    VersionNote{"y1820", 6, "Y9.1, Y8.6",
                "the armies in a province attacked of every nation at war with the attacker fight it, the owner's "
                "first, then each other nation's in name order, and the province is taken only when none is left "
                "(version 5: only the owner's fought; a third nation's at war with the attacker stood by and stayed "
                "in the province taken); a fleet is dismantled only where it is docked in a Port (version 5: also "
                "where the Port had been dismantled or razed)"},
    VersionNote{"y1820", 7, "Y8.2",
                "fleets of nations at war do not share a sea zone: at the start of its moves a nation's fleets in a "
                "zone that holds enemy fleets attack them there, and after a draw stay, free to move (version 6 "
                "fought only when a fleet sailed into a zone, so a war declared while two nations' fleets lay in one "
                "zone left them sharing it for the rest of the game); a draw of fleets records no fleet lost"},
    VersionNote{"y1820", 8, "Y9.1, Y12.2, Y9.5",
                "armies do not stand on the ground of a nation at war with theirs: at the end of its moves (its "
                "ruler may first order them out) a nation's armies still standing in a province whose owner is at "
                "war with it (a pact partner's when war was declared between them) attack it there, as armies "
                "moving in would; a draw stops the army that drew where it stands and a win takes the province "
                "(version 7 never fought them: they stayed, and the owner's armies could not spawn there)"},
    VersionNote{"y1820", 9, "Y9.1, Y9.3, Y9.5",
                "the armies a nation moves into one hostile province in its turn, from wherever they come, attack "
                "as one side when the last of its orders naming that province is reached: outnumbering counts them "
                "all, army meets army in the order the moves were written, each with its own crossing penalty and "
                "falling back on a draw to the last own province it passed, the armies waiting not free for another "
                "move (version 8 fought each order's armies alone, so two "
                "columns never outnumbered together and the second often marched into a province the first had "
                "taken)"},
    VersionNote{"y1820", 10, "Y9.1, Y9.3",
                "the nation's armies already standing in a hostile province it moves into (left on a pact "
                "partner's ground when war came) join the armies moving in as one attacking side, at its head: "
                "they meet the defenders first and outnumbering counts them too, and having fought they are not "
                "free to move later in the turn (version 9 left them out of that battle: they attacked alone at "
                "the end of the nation's moves, if the province was still the enemy's)"},
};

std::vector<VersionNote>& AllNotes() {
  static std::vector<VersionNote> notes(kVersions.begin(), kVersions.end());
  return notes;
}

std::string Known(std::string_view ruleset) {
  std::string out;
  for (const auto& v : AllNotes()) {
    if (!ruleset.empty() && v.ruleset != ruleset) continue;
    out += (out.empty() ? "" : ", ") + std::string(v.ruleset) + "=" + std::to_string(v.version);
  }
  return out;
}

Result<uint32_t> Number(std::string_view s, std::string_view whole) {
  uint32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) {
    return Status::InvalidArgument("rules version '" + std::string(whole) + "': '" + std::string(s) +
                                   "' is not a version number");
  }
  return v;
}

}  // namespace

std::span<const VersionNote> KnownVersions() { return AllNotes(); }

void RegisterVersions(std::span<const VersionNote> notes) {
  for (const auto& n : notes) {
    if (!KnownVersion(n.ruleset, n.version)) AllNotes().push_back(n);
  }
}

uint32_t LatestVersion(std::string_view ruleset) {
  uint32_t latest = 0;
  for (const auto& v : AllNotes()) {
    if (v.ruleset == ruleset) latest = std::max(latest, v.version);
  }
  return latest;
}

bool KnownVersion(std::string_view ruleset, uint32_t version) {
  return std::any_of(AllNotes().begin(), AllNotes().end(),
                     [&](const VersionNote& v) { return v.ruleset == ruleset && v.version == version; });
}

std::vector<std::string_view> VersionedRulesets() {
  // The books in the order the project has always printed them, then the rest.
  std::vector<std::string_view> out = {"sow", "pate", "y1820", "dog"};
  for (const auto& v : AllNotes()) {
    if (std::find(out.begin(), out.end(), v.ruleset) == out.end()) out.push_back(v.ruleset);
  }
  return out;
}

RulesVersions::RulesVersions(std::initializer_list<std::pair<std::string_view, uint32_t>> versions) {
  for (const auto& [r, v] : versions) {
    if (v) v_[std::string(r)] = v;
  }
}

uint32_t RulesVersions::Of(std::string_view ruleset) const {
  auto it = v_.find(ruleset);
  return it == v_.end() ? 0 : it->second;
}

bool RulesVersions::Set(std::string_view ruleset, uint32_t version) {
  if (LatestVersion(ruleset) == 0) return false;
  if (version == 0) {
    if (auto it = v_.find(ruleset); it != v_.end()) v_.erase(it);
  } else {
    v_[std::string(ruleset)] = version;
  }
  return true;
}

std::string RulesVersions::ToString() const {
  std::string out;
  for (std::string_view r : VersionedRulesets()) {
    out += (out.empty() ? "" : ",") + std::string(r) + "=" + std::to_string(Of(r));
  }
  return out;
}

RulesVersions LatestVersions() {
  RulesVersions v;
  for (std::string_view r : VersionedRulesets()) v.Set(r, LatestVersion(r));
  return v;
}

Result<RulesVersions> ParseRulesVersions(std::string_view text, RulesVersions base) {
  if (text.find('=') == std::string_view::npos) {
    auto v = Number(text, text);
    if (!v.ok()) return v.status();
    bool any = false;
    for (std::string_view r : VersionedRulesets()) {
      if (KnownVersion(r, *v)) any = base.Set(r, *v);
    }
    if (!any) {
      return Status::InvalidArgument("rules version " + std::string(text) + ": no ruleset has it (there are " +
                                     Known("") + ")");
    }
    return base;
  }
  size_t at = 0;
  while (at <= text.size()) {
    size_t comma = text.find(',', at);
    std::string_view item = text.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      return Status::InvalidArgument("rules version '" + std::string(text) + "': '" + std::string(item) +
                                     "' is not RULESET=VERSION");
    }
    std::string_view ruleset = item.substr(0, eq);
    auto v = Number(item.substr(eq + 1), text);
    if (!v.ok()) return v.status();
    if (!KnownVersion(ruleset, *v)) {
      return Status::InvalidArgument("rules version '" + std::string(item) + "' is not known (there are " + Known("") +
                                     ")");
    }
    base.Set(ruleset, *v);
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
  return base;
}

}  // namespace adjutant::rules
