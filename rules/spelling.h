// Near spellings: what a player most likely meant by a word the game does
// not know — an order word of the text form (rules/order_text), a port or a
// sea area of the naval map (PATE 1.4, rules/pate/orders). Pure functions of
// their arguments. Since rules version pate=4 the refusals recorded for a
// misspelt place name what NearestSpelling finds: a change to it is a new
// rules version.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace adjutant::rules {

// The optimal string alignment distance between two byte strings: the
// fewest insertions, deletions and substitutions of one byte, and swaps of
// two neighbouring bytes ("mvoe" for "move"), each counting 1.
size_t EditDistance(std::string_view a, std::string_view b);

// The candidate nearest `word`, compared without regard to case: one within
// max(1, a third of the word's length) edits, or one the word abbreviates
// (a prefix of at least 3 letters counts as 1 edit). Of equally near ones,
// the first in byte order of their lower-case forms. The candidate is
// returned as given; nullopt when none is near enough.
std::optional<std::string> NearestSpelling(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace adjutant::rules
