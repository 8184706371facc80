// The roster: the persons of a game, the roles each holds, and the hash of
// the password the GA set for each (libsodium crypto_pwhash_str; the
// password itself is never stored). Folds GameCreated and SetPassword.
#pragma once

#include <map>
#include <set>
#include <string>

#include "projections/projection.h"

namespace adjutant::projections {

struct Person {
  std::set<std::string> roles;  // "BR.treasury", "BR1FL.commander"
  std::string pwhash;           // empty: no password set yet
};

struct RosterState {
  uint64_t last_seq = 0;
  std::map<std::string, Person> persons;
};

class Roster final : public Fold<RosterState> {
 public:
  std::string_view name() const override { return "roster"; }
  uint32_t version() const override { return 2; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;

  const std::map<std::string, Person>& persons() const { return s_.persons; }
  const Person* Find(const std::string& person) const;
};

}  // namespace adjutant::projections
