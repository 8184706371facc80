// The roster: the persons of a game, the roles each holds, and the hash of
// the password the GA set for each (libsodium crypto_pwhash_str; the
// password itself is never stored). Folds GameCreated, SetPassword, the
// GA's AssignRole (issue 20) and PATE 2.3's CommandAssigned.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "projections/projection.h"

namespace adjutant::projections {

// A role is HOLDER.TITLE — "BR.naval", "FR1FL.commander", "AAA.ruler",
// "British.general": who holds the office (a state, a ship, a nation, a
// side) and which office it is. Role strings are read here, once.
struct Role {
  std::string holder, title;
  // "HOLDER.office", split at the last '.' (an office is one word: a
  // holder's id may hold a '.', an office never does); nullopt for a string
  // without one. Every reader of a role splits it here.
  static std::optional<Role> Parse(std::string_view role);
  std::string Name() const { return holder + "." + title; }
};

// The holder of the first of `roles` titled `title` — only the role `asked`
// when one is asked for — that `accept` takes (any, without it).
std::optional<std::string> HolderOf(const std::set<std::string>& roles, std::string_view title,
                                    std::string_view asked = {},
                                    const std::function<bool(const std::string&)>& accept = nullptr);

struct Person {
  std::set<std::string> roles;  // "BR.treasury", "BR1FL.commander"
  std::string pwhash;           // empty: no password set yet
};

struct RosterState {
  uint64_t last_seq = 0;
  std::map<std::string, Person> persons;
};

class Roster;

// PATE 2.3: the posts held on each ship number — its commander and deputy,
// whether or not a ship has that number now (a lost ship's posts stay with
// their holders until the GA withdraws them) — by number, each number's in
// the roster's order; and those posts in words ("rudolf holds XX1SL.commander
// and otto holds XX1SL.deputy").
struct Post {
  std::string person, role;
};
std::map<std::string, std::vector<Post>> ShipPosts(const Roster& roster);
std::string PostsHeld(const std::vector<Post>& posts);

class Roster final : public Fold<RosterState> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<Roster>(*this); }
  std::string_view name() const override { return "roster"; }
  uint32_t version() const override { return 2; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;

  const std::map<std::string, Person>& persons() const { return s_.persons; }
  const Person* Find(const std::string& person) const;
};

}  // namespace adjutant::projections
