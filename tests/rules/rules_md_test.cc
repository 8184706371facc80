// Truth in RULES.md (issue 19): every test and conformance case a RULES.md row
// cites exists and mentions the row's rule, and every row marked ASSUMED, a
// reading or "not yet" is in the file's table of decisions. The grammar is the
// "Citations." paragraph at the top of each RULES.md (tests/support/rules_md.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "support/build_paths.h"
#include "support/rules_md.h"

using namespace adjutant::testing;
namespace fs = std::filesystem;

namespace {

fs::path Root() { return fs::path(ADJUTANT_FIXTURES).parent_path(); }

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const TestIndex& Index() {
  static const TestIndex idx = IndexTests(Root());
  return idx;
}

}  // namespace

TEST_CASE("RULES.md: every cited test and conformance case exists and mentions its rule — every decision is listed",
          "[rules-md]") {
  // Every RULES.md of the tree is one of the files checked (a new one must be added here).
  std::set<std::string> known;
  for (const auto& [file, ruleset] : RulesMdFiles()) known.insert(file);
  for (const char* dir : {"rules", "tests"})
    for (const auto& e : fs::recursive_directory_iterator(Root() / dir))
      if (e.path().filename() == "RULES.md") {
        INFO(fs::relative(e.path(), Root()).generic_string());
        CHECK(known.count(fs::relative(e.path(), Root()).generic_string()) == 1);
      }

  std::string report;
  int count = 0;
  for (const auto& [file, ruleset] : RulesMdFiles()) {
    REQUIRE(fs::exists(Root() / file));
    for (const auto& p : CheckRulesMd(Root(), Index(), file, ruleset, Slurp(Root() / file))) {
      report += Describe(p) + "\n";
      ++count;
    }
  }
  INFO(count << " bad citations or unlisted decisions:\n" << report);
  CHECK(count == 0);
}

TEST_CASE("RULES.md checker: names the file, the line and the citation of every bad one, all at once", "[rules-md]") {
  // A small RULES.md of the y1820 ruleset with one good citation of each kind and
  // one bad of each kind.
  const std::string md =
      "# y1820\n"
      "\n"
      "Citations. (the grammar)\n"
      "\n"
      "| rule | what the engine decided | where |\n"
      "| --- | --- | --- |\n"
      "| Y4.4 | every province adds 1 | `formulas.cc` |\n"
      "| Y9.9 | stale | nowhere |\n"
      "\n"
      "| rule | what | code | tests | reading |\n"
      "| --- | --- | --- | --- | --- |\n"
      "| Y4.4 | limit | x | formulas_test \"Y4.4\"; spawn-4.1 | ASSUMED: one |\n"                  // 12: good
      "| Y12.4 | treaty | x | formulas_test \"Y12.4\" | |\n"                                   // 13: no such test
      "| Y9.3 | outnumber | x | outnumber-9.3; nosuch-9.3 | |\n"                               // 14: no such case
      "| Y2.1 | capital | x | fleet-8.2 | |\n"                                               // 15: case not mentioning
      "| Y2.1 | capital | x | formulas_test \"Y9.3\" | |\n"                                    // 16: test not mentioning
      "| Y5.1 | move | x | nosuch_test \"Y5.1\" | not yet |\n"                                // 17: no file; unlisted
      "| Y12.4 | treaties | x | phase_test \"Y12.4: X and Y … from turn 9\" | |\n";            // 18: good (fragments)
  auto problems = CheckRulesMd(Root(), Index(), "rules/y1820/RULES.md", "y1820", md);
  std::vector<std::string> got;
  for (const auto& p : problems) got.push_back(Describe(p));
  INFO([&] {
    std::string s;
    for (const auto& g : got) s += g + "\n";
    return s;
  }());
  auto has = [&](const std::string& needle) {
    return std::any_of(got.begin(), got.end(), [&](const std::string& g) { return g.find(needle) != std::string::npos; });
  };
  CHECK(has("rules/y1820/RULES.md:13: formulas_test \"Y12.4\": no TEST_CASE"));
  CHECK(has("rules/y1820/RULES.md:14: nosuch-9.3: no conformance case fixtures/conformance/y1820/nosuch-9.3.json"));
  CHECK(has("rules/y1820/RULES.md:15: fleet-8.2: fixtures/conformance/y1820/fleet-8.2.json does not mention Y2.1"));
  CHECK(has("rules/y1820/RULES.md:16: formulas_test \"Y9.3\": the test does not mention Y2.1"));
  CHECK(has("rules/y1820/RULES.md:17: nosuch_test \"Y5.1\": no such test file"));
  CHECK(has("rules/y1820/RULES.md:17: Y5.1: the row says ASSUMED, a reading or not yet but is not in the table"));
  CHECK(has("rules/y1820/RULES.md:8: Y9.9: listed in the table of decisions but no row"));
  CHECK_FALSE(has(":12:"));
  CHECK_FALSE(has(":18:"));
  CHECK(problems.size() == 7);

  // Without the grammar paragraph and the table of decisions, both are named.
  auto bare = CheckRulesMd(Root(), Index(), "x/RULES.md", "y1820", "# x\n\nno tables\n");
  REQUIRE(bare.size() == 2);
  CHECK(Describe(bare[0]).find("x/RULES.md:1:") == 0);
}
