// Issue 20, players come and go: the GA gives a role to a person (a
// replacement takes a ministry, a nation, a ship's command or a side from
// whoever held it) or takes it back, as an AssignRole directive
// (schema/ledger_events.fbs) folded by the roster. The change governs the
// coming turn's orders — the turn the GA names must be that one; orders the
// old holder gave before it stand as they were judged (an order is judged
// when it arrives), and from then on only the new holder may order under the
// role, read its reports and get its mail. The desk ends a session whose
// person holds no role any more.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/turn.h"
#include "ledger/ledger.h"
#include "replay/driver.h"

namespace adjutant::fb {
struct AssignRole;
struct DirectiveFile;
}  // namespace adjutant::fb

namespace adjutant::replay {

// Checks an AssignRole against the branch as it stands (`w`, folded at its
// head): the role is HOLDER.TITLE and of this game (one of the scenario's
// players' roles, or held now); the person is a name; the game takes orders
// and `from_turn` is the coming turn — a withdrawn role is the person's, a
// given one not his already — or a later one (it waits: RecordRolesDue; the
// same change given twice for it is refused).
Status CheckAssignRole(const ledger::Ledger& db, std::string_view game, std::string_view branch, const World& w,
                       const fb::AssignRole& a);

// Each role of the game (as CheckAssignRole knows them), in order, with
// its holders as the roster stands (none: vacant).
struct RoleHolding {
  std::string role;
  std::vector<std::string> holders;
};
Result<std::vector<RoleHolding>> RolesAsTheyStand(ledger::Ledger& db, std::string_view game,
                                                  std::string_view branch);

// The AssignRole as recorded, at `at`: the file's person, role, withdraw,
// from_turn and reason, and `taken_from` as the roster of `w` has it (the
// role's holders; the person himself for a withdrawal).
Draft AssignRoleDraft(const World& w, const fb::DirectiveFile& file, const TurnPhase& at);

struct RoleChange {
  std::string person, role;
  bool withdraw = false;
  std::optional<Turn> from_turn;  // none: the coming turn
  std::string reason;             // none: words of its own
  std::string pwhash;             // the new holder's password (crypto_pwhash_str), recorded with it; "": none
};

struct RoleChanged {
  ledger::AppendResult append;
  Turn from_turn;
  std::vector<std::string> before;  // who held the role before (one, or none when vacant)
  bool password = false;            // the person has a password now
  bool pending = false;             // for a later turn: it waits until that turn's orders open
};

// Issue 20: the changes the GA gave for a later turn (an AssignRole whose
// from_turn is past the coming turn when given: projections/roles_due.h)
// whose turn's orders are now open, recorded again there — the Adjudicator's
// AssignRole, with who held the role then in taken_from — in one batch, so
// the roster folds them before anyone orders for that turn. Called after
// every adjudication (replay::Adjudicate) and before every submission; how
// many were recorded (0: none due, or orders are not open).
Result<size_t> RecordRolesDue(ledger::Ledger& db, std::string_view game, std::string_view branch, const World& w);
Result<size_t> RecordRolesDue(ledger::Ledger& db, std::string_view game, std::string_view branch);

// The changes given for a later turn, not yet in effect, in the order given.
struct PendingChange {
  uint64_t seq = 0;
  Turn from_turn;
  std::string person, role;
  bool withdraw = false;
};
Result<std::vector<PendingChange>> RoleChangesPending(ledger::Ledger& db, std::string_view game,
                                                      std::string_view branch);

// Records the change (and the new holder's password, when given) in one
// batch, after CheckAssignRole.
Result<RoleChanged> ChangeRole(ledger::Ledger& db, std::string_view game, std::string_view branch,
                               const RoleChange& c);

}  // namespace adjutant::replay
