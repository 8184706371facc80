// y1820 games for tests: the toy map and two-nation scenario the unit tests
// and properties play on, the bundled Europe 1820 fixtures, and helpers to
// send a nation's orders, give directives, adjudicate and read the state.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ledger/ledger.h"
#include "projections/y1820.h"
#include "support/temp_dir.h"

namespace adjutant::testing {

// Six provinces: 1 Alpha (AAA's capital, coastal on S1), 2 Beta (AAA),
// 3 Gamma (BBB's capital), 4 Delta (BBB, coastal on S1 and S2), 5 Neutralia
// (neutral), 6 Mons (BBB); borders 1-2, 2-3, 3-4, 2-5, 4-6 land, 2-6
// mountain, 1-4 water; sea zones S1-S2.
std::string ToyMap();
// Two republics AAA (alice, 3 armies) and BBB (bob, 2 armies); no random
// events unless asked. `extra` is spliced into the y1820 section
// (e.g. "\"improvements\": [...]").
std::string ToyScenario(const std::string& gov_a = "republic", const std::string& gov_b = "republic",
                        bool random_events = false, const std::string& extra = "");

std::string EuropeMap();       // fixtures/y1820/europe-1820.map.json
std::string EuropeScenario();  // fixtures/y1820/europe-1820.json

// A scratch database holding y1820 game "g".
struct Y1820Db {
  Y1820Db(const std::string& scenario_json, const std::string& map_json, uint64_t seed = 1820);
  TempDir dir;
  std::unique_ptr<ledger::Ledger> db;

  // An order item: {"body_type":"Y1820Order","body":{"body_type":KIND,"body":BODY}}.
  static std::string Item(const std::string& kind, const std::string& body_json);
  // Sends items (JSON objects) as `person`'s order file; the refusals are
  // recorded, not errors.
  Status Orders(const std::string& person, const std::vector<std::string>& items);
  Status Directive(const std::string& kind, const std::string& body_json);
  // `dice`, when given, scripts every roll (whitespace-separated values).
  Status Adjudicate(int turns = 1, const std::string& dice = "");
  projections::Y1820State State() const;
  // The JSON of every event of `kind` (as `adjutant log --kind` names it).
  std::vector<std::string> Events(const std::string& kind) const;
};

}  // namespace adjutant::testing
