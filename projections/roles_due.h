// Role changes the GA gave for a later turn (issue 20, players come and go):
// an AssignRole whose from_turn lies past the turn it was recorded at waits
// here until that turn's orders open, when Adjutant records it again at the
// turn (replay::RecordRolesDue) and the roster folds it. Applies (and so has
// a digest in PhaseCompleted) only in a game where such a change was ever
// given, so no earlier game changes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/turn.h"
#include "projections/projection.h"

namespace adjutant::fb { struct AssignRole; }

namespace adjutant::projections {

struct PendingRole {
  uint64_t seq = 0;  // the GA's AssignRole
  Turn from_turn;
  std::string person, role;
  bool withdraw = false;
  bool operator==(const PendingRole&) const = default;
};

struct RolesDueState {
  uint64_t last_seq = 0;
  bool active = false;
  std::vector<PendingRole> pending;  // in the order given
};

class RolesDue final : public Fold<RolesDueState> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<RolesDue>(*this); }
  std::string_view name() const override { return "roles_due"; }
  uint32_t version() const override { return 1; }
  bool applies() const override { return s_.active; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;
};

// Whether the roster folds this AssignRole now: it takes effect at the turn
// it was recorded at or earlier (else it waits in RolesDue).
bool TakesEffectNow(const fb::Event& e, const fb::AssignRole& a);

}  // namespace adjutant::projections
