// Every view of a game flattened to (view, entity, field) → value, as text:
// what `adjutant replay` prints and what `adjutant diff` compares between
// two branches (issue 5). Ordered: the same world gives the same lines.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "ledger/ledger.h"
#include "replay/driver.h"

namespace adjutant::replay {

using ViewKey = std::tuple<std::string, std::string, std::string>;  // view, entity, field

// Views: "roster", and each kind's (rules/kind.h ViewNames: for NWOL
// "treasury" (states), "cities", "units", "fleet" (ships), "visibility"
// (observations per observer)). With `only`, the rows of that view alone.
std::map<ViewKey, std::string> Flatten(const World& w, std::string_view only = {});

// The projections (by name) view `view`'s rows come from, the summary first
// (it names the game's kind): what `replay`/`diff --view V` fold. Empty:
// every projection (a kind that does not say).
std::vector<std::string> ProjectionsOfView(std::string_view view);

// Folds what view `view` needs (ProjectionsOfView) up to `upto`.
Result<World> FoldView(ledger::Ledger& db, std::string_view game, std::string_view branch, std::string_view view,
                       uint64_t upto = UINT64_MAX);

// The names of the views: the roster's and every kind's (rules/kind.h).
const std::vector<std::string>& ViewNames();

struct ViewDifference {
  ViewKey key;
  std::string a, b;  // "" where the entity is absent
};

std::vector<ViewDifference> Compare(const std::map<ViewKey, std::string>& a, const std::map<ViewKey, std::string>& b);

// The first sequence number at which two branches' logs part (their events'
// bytes differ, or one ends), or 0 when they hold the same events.
Result<uint64_t> FirstParting(ledger::Ledger& db, std::string_view game, std::string_view a, std::string_view b);

}  // namespace adjutant::replay
