// Rules versions (issue 5). Each ruleset numbers its versions; every event
// an adjudication writes records the version it ran under. A game keeps the
// versions its last phase ran under (before its first, those it was created
// under: `adjutant new --rules-version`, else the newest) until the GA adopts
// others (`adjutant adjudicate --rules-version`), so a campaign never changes rules
// because the program was upgraded. Every version stays callable: an audit
// re-runs a past phase under the version it recorded, or under another to
// show the first event that version would adjudicate differently.
//
// Where a rule's code differs between versions it asks
// `versions.Of(kRuleset) >= N`; each such change is listed here and in the
// ruleset's RULES.md.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"

namespace adjutant::rules {

struct VersionNote {
  std::string_view ruleset;
  uint32_t version;
  std::string_view rules;   // the rule numbers the change touches
  std::string_view change;  // what this version does differently from the one before
};

// Every version of every ruleset, by ruleset and then oldest first: the
// books' table (rules/versions.cc), then those registered with their kinds.
std::span<const VersionNote> KnownVersions();
// Adds the versions of a ruleset defined outside rules/ (a kind registered
// with RegisterKind, rules/kind.h). Not thread-safe: before any game runs.
void RegisterVersions(std::span<const VersionNote> notes);

// The newest version of `ruleset` (0 for a ruleset with none).
uint32_t LatestVersion(std::string_view ruleset);
bool KnownVersion(std::string_view ruleset, uint32_t version);

// The rulesets that number their versions, in the order they are listed.
std::vector<std::string_view> VersionedRulesets();

// The versions a phase runs under: a small map from ruleset to version,
// 0 (absent) for a ruleset not set.
class RulesVersions {
 public:
  RulesVersions() = default;
  RulesVersions(std::initializer_list<std::pair<std::string_view, uint32_t>> versions);
  uint32_t Of(std::string_view ruleset) const;
  // Sets the ruleset's version (0 unsets it); false for a ruleset without versions.
  bool Set(std::string_view ruleset, uint32_t version);
  std::string ToString() const;  // "sow=2,pate=1", in VersionedRulesets() order
  const std::map<std::string, uint32_t, std::less<>>& all() const { return v_; }
  friend bool operator==(const RulesVersions&, const RulesVersions&) = default;

 private:
  std::map<std::string, uint32_t, std::less<>> v_;  // no zeros
};

// The newest version of every ruleset.
RulesVersions LatestVersions();

// "sow=2,pate=1" (each named ruleset set, the others as in `base`), or a
// bare "2" (every ruleset that has a version 2; an error when none has).
// Unknown rulesets and versions are errors naming the versions there are.
Result<RulesVersions> ParseRulesVersions(std::string_view text, RulesVersions base);

}  // namespace adjutant::rules
