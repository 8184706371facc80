// rules/spelling: the nearest spelling a player may have meant — the order
// text's words and, from pate=4, the naval map's ports and sea areas.
#include <catch2/catch.hpp>

#include "rules/spelling.h"

using adjutant::rules::EditDistance;
using adjutant::rules::NearestSpelling;

TEST_CASE("spelling: edit distance counts insertions, deletions, substitutions and swaps of neighbours", "[spelling]") {
  CHECK(EditDistance("", "") == 0);
  CHECK(EditDistance("Toulon", "Toulon") == 0);
  CHECK(EditDistance("Tulon", "Toulon") == 1);     // one left out
  CHECK(EditDistance("Touloon", "Toulon") == 1);   // one too many
  CHECK(EditDistance("Taulon", "Toulon") == 1);    // one wrong
  CHECK(EditDistance("Cadiz", "Cdaiz") == 1);      // two neighbours swapped
  CHECK(EditDistance("mvoe", "move") == 1);
  CHECK(EditDistance("ab", "ba") == 1);
  CHECK(EditDistance("abc", "ca") == 3);          // a swap is not edited again (optimal string alignment)
  CHECK(EditDistance("", "abc") == 3);
  CHECK(EditDistance("kitten", "sitting") == 3);
}

TEST_CASE("spelling: the nearest candidate, without regard to case, returned as given", "[spelling]") {
  const std::vector<std::string> ports{"Brest", "Cadiz", "Cartagena", "Ferrol", "Portsmouth", "Toulon"};
  CHECK(NearestSpelling("toulon", ports) == "Toulon");
  CHECK(NearestSpelling("Tulon", ports) == "Toulon");
  CHECK(NearestSpelling("PORTSMUOTH", ports) == "Portsmouth");
  CHECK(NearestSpelling("Cart", ports) == "Cartagena");  // an abbreviation of 3 letters or more
  CHECK_FALSE(NearestSpelling("Ca", ports).has_value()); // 2 letters abbreviate nothing, and are 3 edits from Cadiz
  // Within max(1, a third of the word): a 3-letter code one letter off, or
  // two swapped, not one sharing a letter.
  CHECK(NearestSpelling("BSI", {"BIS", "TYR"}) == "BIS");
  CHECK(NearestSpelling("BIX", {"BIS", "TYR"}) == "BIS");
  CHECK_FALSE(NearestSpelling("XYZ", {"BIS", "TYR"}).has_value());
  CHECK_FALSE(NearestSpelling("Atlantis", ports).has_value());
  CHECK_FALSE(NearestSpelling("Zzzzz", {}).has_value());
  // Within max(2, a third of the word): "Bay of Biscy" is 1 from its area's name.
  CHECK(NearestSpelling("Bay of Biscy", {"BIS", "Bay of Biscay", "ECH", "English Channel"}) == "Bay of Biscay");
  CHECK(NearestSpelling("BSI", {"BIS", "Bay of Biscay", "ECH", "English Channel"}) == "BIS");
  // Ties go to the first in lower-case byte order, whatever the candidates' order.
  CHECK(NearestSpelling("Brast", {"Brust", "Brest"}) == "Brest");
  CHECK(NearestSpelling("Brast", {"Brest", "Brust"}) == "Brest");
}
