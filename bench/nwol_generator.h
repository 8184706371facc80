// A full-size NWOL game (sow + pate in one game) for adjutant_bench_game:
// an opening position on the bundled naval map (fixtures/maps/nwol-waters.json)
// — 13 states, 300+ ships, 1,500+ land units, 130 cities and ports — and,
// for every turn, the orders of every player: each state's ministers'
// SowOrders (builds, purchases, transfers, reinforcements, repairs) and
// PateOrders (appointments, (in)activations, stores moved), and a ship order
// form for every ship from her commander (moves between adjacent sea
// areas, into and out of ports, across the Atlantic; contact, combat and
// commerce settings; stores; amphibious loading). Most orders are valid; a
// few are wrong on purpose, so that refusals are part of the work.
//
// Everything is a pure function of the seed and, for orders, of the state
// at the turn's orders window: the same seed plays the same game. The
// geography (which city lies where, and whose it is) is a fixed table; the
// seed draws levels, forts, stores, the armies and fleets and every order.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "ledger/ledger.h"

namespace adjutant::projections { struct TreasuryState; struct FleetState; class Roster; }
namespace adjutant::rules::pate { class NavalMap; }

namespace adjutant::bench {

struct NwolOptions {
  uint64_t seed = 1805;
  // 1: the full game (~308 ships, ~1,530 land units). Smaller scales keep
  // every state, city and port and scale the armies and fleets (at least
  // one ship for a state that has any).
  double scale = 1.0;
  // A steady game (the long campaign of adjutant_bench_game --years): a
  // state builds land units only while it has fewer than unit_cap[state],
  // ships only while fewer than ship_cap[state] (its opening numbers), so
  // the game's size holds and only its age grows. Empty: no caps.
  std::map<std::string, int> unit_cap, ship_cap;
};

// The generated opening position.
struct NwolScenario {
  std::string json;              // the Scenario in the schema's JSON form: what `adjutant new` reads
  std::vector<uint8_t> scenario; // `json` parsed (a verified Scenario buffer)
  std::vector<uint8_t> map;      // the NavalMap the game plays on (parsed)
  size_t states = 0, cities = 0, ports = 0, units = 0, ships = 0, persons = 0;
};

// Builds the scenario on the naval map given as JSON (the bundled map's text).
Result<NwolScenario> GenerateScenario(const NwolOptions& options, std::string_view map_json);

// The checks `adjutant new GAME --scenario F --map M` makes before it
// creates anything (cli/commands.cc, CmdNew): a name, known rulesets, valid
// person ids, the map's own checks, rules::pate::CheckScenarioAgainstMap and
// rules::sow::CheckScenario with the map's sea areas.
Status CheckAsNew(const NwolScenario& scenario);

// Creates `game` from the scenario with its naval map, as `adjutant new
// --map --seed` does.
Result<ledger::Head> CreateGame(ledger::Ledger& db, std::string_view game, const NwolScenario& scenario,
                                uint64_t seed);

// A GA directive (a parsed DirectiveFile) and what it is, in words.
struct Directive {
  std::string what;
  std::vector<uint8_t> file;
};

// The GA's directives before the first turn: the coming summer is a peace
// season (so that a peace turn, PATE 6.12, follows the campaign) and
// Britain's blockades of France, Spain and Holland (SOW 2.5).
Result<std::vector<Directive>> OpeningDirectives();

// The GA ends the campaign early (SOW 4.2), for games of fewer than 15 turns.
Result<Directive> EndCampaignDirective();

// The GA sets the kind of a coming season (SOW 4.2): "War", "Peace" or
// "Truce".
Result<Directive> SeasonKindDirective(int32_t year, int32_t season, const std::string& kind);

// One player's order file for a turn.
struct Submission {
  std::string person;
  std::string json;           // the OrderFile as the player would write it
  std::vector<uint8_t> file;  // `json` parsed (a verified OrderFile buffer)
  size_t orders = 0;
};

struct TurnOrders {
  std::vector<Submission> submissions;  // in the order they are to be sent
  size_t orders = 0;
  size_t ship_orders = 0;     // PATE ship order forms
  size_t meant_invalid = 0;   // orders made wrong on purpose (they should be refused)
};

// The orders of every player for the turn whose orders window the state is
// at: ministers first (the Naval Minister's appointments take effect when
// received, PATE 2.3, so new ships' commanders can order them this turn),
// then every commander's order forms.
Result<TurnOrders> GenerateOrders(const NwolOptions& options, const projections::TreasuryState& state,
                                  const projections::FleetState& fleet, const projections::Roster& roster, const rules::pate::NavalMap& map);

}  // namespace adjutant::bench
