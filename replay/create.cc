#include "replay/create.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "projections/roster.h"
#include "rules/versions.h"

#include "schema/scenario_generated.h"
#include "schema/values.h"

namespace adjutant::replay {

Result<const rules::GameKind*> KindOfScenario(const fb::Scenario& sc) {
  std::vector<std::string> rulesets;
  if (sc.rulesets()) for (const auto* r : *sc.rulesets()) rulesets.push_back(r->str());
  if (const rules::GameKind* k = rules::KindFor(rulesets)) return k;
  std::string known;
  for (std::string_view r : rules::KnownRulesets()) known += (known.empty() ? "" : ", ") + std::string(r);
  std::string named;
  for (const auto& r : rulesets) named += (named.empty() ? "" : ", ") + r;
  return Status::InvalidArgument("rulesets: no kind of game plays " + named + " together (known rulesets: " + known + ")");
}

namespace {

// Every player once, and each of his roles an office of the game held by one
// of the scenario's holders of it (GameKind::Offices).
Status CheckPlayers(const fb::Scenario& sc, const rules::GameKind& kind) {
  if (!sc.players()) return Status::Ok();
  const std::vector<rules::Office> offices = kind.Offices(sc);
  std::string names;
  for (const auto& o : offices) names += (names.empty() ? "" : ", ") + o.name;
  std::set<std::string> persons;
  // A role is one person's (the roster and `role --give` hold it so): each
  // role, the player who has it ("players[i] ('person')").
  std::map<std::string, std::string> held;
  for (flatbuffers::uoffset_t i = 0; i < sc.players()->size(); ++i) {
    const auto* p = sc.players()->Get(i);
    const std::string at = "players[" + std::to_string(i) + "]";
    const std::string who = schema::Str(p->person());
    if (!persons.insert(who).second) return Status::InvalidArgument(at + ".person: '" + who + "' appears twice");
    if (!p->roles()) continue;
    for (flatbuffers::uoffset_t r = 0; r < p->roles()->size(); ++r) {
      const std::string role = p->roles()->Get(r)->str();
      const std::string here = at + ".roles[" + std::to_string(r) + "]: '" + role + "'";
      const auto parsed = projections::Role::Parse(role);
      const auto office = !parsed ? offices.end() : std::find_if(offices.begin(), offices.end(), [&](const rules::Office& o) {
        return o.name == parsed->title;
      });
      if (office == offices.end()) {
        return Status::InvalidArgument(here + " is no role of this game (kind " + std::string(kind.name()) +
                                       "): a role is HOLDER.office, the office one of " + names);
      }
      if (office->holders && !office->holders->count(parsed->holder)) {
        std::string some;
        size_t n = 0;
        for (const std::string& h : *office->holders) {
          if (n++ == 8) {
            some += ", ...";
            break;
          }
          some += (some.empty() ? "" : ", ") + h;
        }
        return Status::InvalidArgument(here + ": the office " + office->name + " (" + office->rule + ") is held by a " +
                                       office->holder_noun + ", and the scenario has no " + office->holder_noun + " '" +
                                       parsed->holder + "'" + (some.empty() ? "" : " (its " + office->holder_noun + "s: " + some + ")"));
      }
      const std::string player = at + " ('" + who + "')";
      if (auto [it, fresh] = held.emplace(role, player); !fresh) {
        if (it->second == player) return Status::InvalidArgument(here + " appears twice in " + at + ".roles");
        return Status::InvalidArgument(here + " is " + it->second + "'s too: a role is one person's (`adjutant role` "
                                       "moves it once the game has begun)");
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Result<GameStart> PrepareGame(const fb::Scenario& sc, std::optional<std::vector<uint8_t>> map, bool* map_error) {
  GameStart g;
  *map_error = false;
  if (auto* st = sc.start()) g.at.turn = schema::TurnOf(st);
  auto kind = KindOfScenario(sc);
  if (!kind.ok()) return kind.status();
  // The players first: a role the kind does not know is told as such in
  // every kind, not as whatever the kind's own checks make of it.
  ADJ_RETURN_IF_ERROR(CheckPlayers(sc, **kind));
  ADJ_RETURN_IF_ERROR((*kind)->Prepare(sc, std::move(map), &g, map_error));
  return g;
}

Result<VersionPins> PinVersions(const rules::GameKind& kind, std::string_view spec) {
  std::vector<std::string_view> mine;
  for (std::string_view r : kind.Rulesets()) {
    if (rules::LatestVersion(r) > 0) mine.push_back(r);
  }
  std::string names;
  for (std::string_view r : mine) names += (names.empty() ? "" : ", ") + std::string(r);
  if (mine.empty()) return Status::InvalidArgument("a game of kind " + std::string(kind.name()) + " has no versioned rules");
  // Parsed over no versions at all, the spec holds exactly the rulesets it
  // names (a bare number: every ruleset that has that version).
  auto named = rules::ParseRulesVersions(spec, rules::RulesVersions{});
  if (!named.ok()) return named.status();
  const bool bare = spec.find('=') == std::string_view::npos;
  for (const auto& [ruleset, version] : named->all()) {
    if (!bare && std::find(mine.begin(), mine.end(), ruleset) == mine.end()) {
      return Status::InvalidArgument("'" + ruleset + "' is not a ruleset of this game (kind " +
                                     std::string(kind.name()) + ": " + names + ")");
    }
  }
  VersionPins out;
  for (std::string_view r : mine) {
    if (bare && named->Of(r) == 0) {
      return Status::InvalidArgument(std::string(r) + " has no version " + std::string(spec) + " (its newest is " +
                                     std::to_string(rules::LatestVersion(r)) + ")");
    }
    out.emplace_back(std::string(r), named->Of(r) ? named->Of(r) : rules::LatestVersion(r));
  }
  return out;
}

void StampPinned(std::span<Draft> more, const VersionPins& pins) {
  for (Draft& d : more) {
    for (const auto& [ruleset, version] : pins) {
      if (d.ruleset == ruleset) d.rules_version = version;
    }
  }
}

}  // namespace adjutant::replay
