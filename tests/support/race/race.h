// A fifth kind of game that exists only in the tests: a race of two
// runners (RULES.md beside this file). It plugs into the registry with
// RegisterKind (rules/kind.h) from its own folder and nothing else: the
// evidence that a GA's next book is added the same way.
#pragma once

#include <string>

namespace adjutant::testing {

// Registers the race kind (once; also done when the test binary starts).
void RegisterRace();

// The race's scenario and an order file, as a GA and a player write them.
std::string RaceScenarioJson();
std::string RaceOrderJson(const std::string& side, const std::string& text);

}  // namespace adjutant::testing
