// The RULES.md checker (tests/rules/rules_md_test.cc): every test and
// conformance case a RULES.md table row cites exists and mentions the row's
// rule, and every row marked ASSUMED, a reading or "not yet" is listed in the
// file's table of decisions. The citation grammar it reads is written at the
// top of every RULES.md ("Citations"); /work/notes/rulestruth-readme.md.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace adjutant::testing {

// One test found in tests/: a TEST_CASE, SECTION or rapidcheck property, its
// file (relative to tests/, e.g. "rules/dog/battle_test.cc"), its name and the
// text from its name to the next test of the file (its body, roughly).
struct TestEntry {
  std::string file;
  std::string name;
  std::string body;
};

// Every test of every .cc file under ROOT/tests, and the files' whole texts.
struct TestIndex {
  std::vector<TestEntry> tests;
  std::map<std::string, std::string> files;  // path relative to tests/ -> text
};
TestIndex IndexTests(const std::filesystem::path& root);

struct RulesMdProblem {
  std::string file;      // the RULES.md, relative to the root
  int line = 0;          // 1-based
  std::string citation;  // what the row cites ("" for a decisions-table problem)
  std::string why;
};
std::string Describe(const RulesMdProblem& p);  // "FILE:LINE: CITATION: WHY"

// Checks one RULES.md (its text given, so a test may check a broken copy):
// RULESET is the conformance directory its bare case names are looked up in
// (fixtures/conformance/RULESET/) and the prefix of its bare rule numbers.
// Every problem is returned, none stops the check.
std::vector<RulesMdProblem> CheckRulesMd(const std::filesystem::path& root, const TestIndex& tests,
                                         const std::string& md_file, const std::string& ruleset,
                                         std::string_view text);

// The RULES.md files of the repository and their rulesets.
std::vector<std::pair<std::string, std::string>> RulesMdFiles();

}  // namespace adjutant::testing
