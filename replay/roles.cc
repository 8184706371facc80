#include "replay/roles.h"

#include <algorithm>
#include <map>
#include <set>

#include <flatbuffers/flatbuffers.h>

#include "projections/roles_due.h"
#include "projections/roster.h"
#include "rules/kind.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/text.h"
#include "schema/values.h"

namespace adjutant::replay {
namespace {

namespace P = projections;

const Actor kGaActor{ActorKind::kGameAdministrator, "", ""};

// The roles of the game: its scenario's players' (GameCreated, read below a
// fork from the parent) and every role held now (a ship's posts given under
// PATE 2.3, roles given before).
Result<std::set<std::string>> RolesOfGame(const ledger::Ledger& db, std::string_view game, std::string_view branch,
                                          const World& w) {
  std::set<std::string> roles;
  for (const auto& [name, p] : w.roster().persons()) roles.insert(p.roles.begin(), p.roles.end());
  Status st = db.Read(game, branch, 1, 1, [&](const ledger::EventView& v) {
    const auto* g = v.event()->payload_as_GameCreated();
    if (g && g->scenario() && g->scenario()->players()) {
      for (const auto* p : *g->scenario()->players()) {
        if (p->roles()) for (const auto* r : *p->roles()) roles.insert(r->str());
      }
    }
    return Status::Ok();
  });
  if (!st.ok()) return st;
  return roles;
}

std::vector<std::string> HoldersOf(const World& w, const std::string& role) {
  std::vector<std::string> out;
  for (const auto& [name, p] : w.roster().persons()) {
    if (p.roles.count(role)) out.push_back(name);
  }
  return out;
}

// The roles of the same holder, else every role (at most 12), for a refusal.
std::string RoleList(const std::set<std::string>& known, const std::string& role) {
  auto parsed = P::Role::Parse(role);
  std::vector<std::string> same;
  for (const auto& r : known) {
    auto k = P::Role::Parse(r);
    if (parsed && k && k->holder == parsed->holder) same.push_back(r);
  }
  const std::vector<std::string> shown = same.empty() ? std::vector<std::string>(known.begin(), known.end()) : same;
  std::string list;
  for (size_t i = 0; i < shown.size() && i < 12; ++i) list += (i ? ", " : "") + shown[i];
  return shown.size() > 12 ? list + ", …" : list;
}

// An AssignRole directive as recorded, by `actor` at `at`.
Draft AssignRoleRecord(const Actor& actor, const TurnPhase& at, const std::string& person, const std::string& role,
                       bool withdraw, const Turn& from, const std::vector<std::string>& taken, const std::string& reason) {
  Draft d;
  d.at = at;
  d.actor = actor;
  d.payload = [person, role, reason, withdraw, from, taken](flatbuffers::FlatBufferBuilder& b) {
    const fb::Turn t(from.major, from.minor, from.step);
    std::vector<flatbuffers::Offset<flatbuffers::String>> names;
    for (const auto& n : taken) names.push_back(b.CreateString(n));
    auto x = fb::CreateAssignRoleDirect(b, person.c_str(), role.c_str(), withdraw, &t, &names);
    auto dir = fb::CreateDirective(b, b.CreateString(reason), fb::DirectiveBody_AssignRole, x.Union());
    return PayloadRef{fb::Payload_Directive, dir.o};
  };
  return d;
}

}  // namespace

Status CheckAssignRole(const ledger::Ledger& db, std::string_view game, std::string_view branch, const World& w,
                       const fb::AssignRole& a) {
  const std::string person = a.person()->str();
  const std::string role = a.role()->str();
  if (person.empty()) return Status::InvalidArgument("person: whom the role goes to (or is taken from)");
  ADJ_RETURN_IF_ERROR(schema::CheckText("person", person, schema::TextRule::kName));
  ADJ_RETURN_IF_ERROR(schema::CheckText("role", role, schema::TextRule::kName));
  auto parsed = P::Role::Parse(role);
  if (!parsed || parsed->holder.empty() || parsed->title.empty()) {
    return Status::InvalidArgument("role '" + role + "': HOLDER.TITLE, e.g. BR.naval, AAA.ruler, British.general");
  }
  auto known = RolesOfGame(db, game, branch, w);
  if (!known.ok()) return known.status();
  if (!known->count(role)) {
    return Status::InvalidArgument("role '" + role + "': no such role in game '" + std::string(game) + "' (" +
                                   RoleList(*known, role) + ")");
  }
  auto at = OrderPositionOf(w);
  if (!at.ok()) {
    return Status::InvalidArgument("the game takes no orders now (" + at.status().message() +
                                   "): a role changes hands from the coming turn");
  }
  if (!a.from_turn()) return Status::InvalidArgument("from_turn: the coming turn, " + at->turn.ToString() + ", or a later one");
  const Turn from = schema::TurnOf(a.from_turn());
  if (from < at->turn) {
    return Status::InvalidArgument("from_turn " + from.ToString() + ": a role changes hands from the coming turn, " +
                                   at->turn.ToString() + ", or a later one (what is past stands; a correction changes it)");
  }
  if (from > at->turn) {
    // A later turn's change waits (projections/roles_due.h): who holds the
    // role then is for that turn to say; the same change twice is refused.
    for (const P::PendingRole& q : rules::Get<P::RolesDue>(w.projections).state().pending) {
      if (q.from_turn == from && q.person == person && q.role == role && q.withdraw == a.withdraw()) {
        return Status::InvalidArgument("the same change is given for turn " + from.ToString() + " already (seq " +
                                       std::to_string(q.seq) + ")");
      }
    }
    return Status::Ok();
  }
  const P::Person* p = w.roster().Find(person);
  const bool holds = p && p->roles.count(role);
  if (a.withdraw() && !holds) {
    const auto holders = HoldersOf(w, role);
    return Status::InvalidArgument(person + " does not hold " + role + " (" +
                                   (holders.empty() ? std::string("it is vacant") : "held by " + holders.front()) + ")");
  }
  if (!a.withdraw() && holds) return Status::InvalidArgument(person + " holds " + role + " already");
  return Status::Ok();
}

Draft AssignRoleDraft(const World& w, const fb::DirectiveFile& file, const TurnPhase& at) {
  const fb::AssignRole& a = *file.body_as_AssignRole();
  const std::string person = a.person()->str(), role = a.role()->str(), reason = file.reason()->str();
  const bool withdraw = a.withdraw();
  const Turn from = schema::TurnOf(a.from_turn());
  // A change for a later turn takes the role from whoever holds it then: said when it takes effect.
  const bool later = a.from_turn() && from > at.turn;
  const std::vector<std::string> taken =
      later ? std::vector<std::string>{} : withdraw ? std::vector<std::string>{person} : HoldersOf(w, role);
  return AssignRoleRecord(kGaActor, at, person, role, withdraw, from, taken, reason);
}

Result<std::vector<RoleHolding>> RolesAsTheyStand(ledger::Ledger& db, std::string_view game,
                                                  std::string_view branch) {
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  if (!world->kind()) return Status::NotFound("no game '" + std::string(game) + "' (branch " + std::string(branch) + ")");
  auto known = RolesOfGame(db, game, branch, *world);
  if (!known.ok()) return known.status();
  std::vector<RoleHolding> out;
  for (const auto& r : *known) out.push_back({r, HoldersOf(*world, r)});
  return out;
}

Result<size_t> RecordRolesDue(ledger::Ledger& db, std::string_view game, std::string_view branch, const World& w) {
  const P::RolesDueState& due = rules::Get<P::RolesDue>(w.projections).state();
  if (due.pending.empty()) return size_t{0};
  const rules::GameKind* kind = w.kind();
  auto at = OrderPositionOf(w);
  if (!kind || !at.ok()) return size_t{0};  // orders are not open: not yet
  const TurnPhase pos = kind->DirectivePosition(w.projections);
  // Who holds each role as the changes are made, one after another.
  std::map<std::string, std::vector<std::string>> holders;
  for (const auto& [name, p] : w.roster().persons()) {
    for (const auto& r : p.roles) holders[r].push_back(name);
  }
  std::vector<Draft> drafts;
  for (const P::PendingRole& q : due.pending) {
    if (q.from_turn > at->turn) continue;
    std::vector<std::string>& now = holders[q.role];
    std::vector<std::string> taken;
    if (q.withdraw) {
      if (std::find(now.begin(), now.end(), q.person) != now.end()) taken = {q.person};
      now.erase(std::remove(now.begin(), now.end(), q.person), now.end());
    } else {
      for (const auto& h : now) {
        if (h != q.person) taken.push_back(h);
      }
      now = {q.person};
    }
    const std::string reason = q.role + (q.withdraw ? " withdrawn from " : " given to ") + q.person +
                               " as turn " + q.from_turn.ToString() + "'s orders open (the GA's change of seq " +
                               std::to_string(q.seq) + ")";
    drafts.push_back(AssignRoleRecord(Actor{ActorKind::kAdjudicator, "", ""}, pos, q.person, q.role, q.withdraw,
                                      q.from_turn, taken, reason));
  }
  if (drafts.empty()) return size_t{0};
  auto r = db.Append(game, branch, w.head.seq, drafts);
  if (!r.ok()) return r.status();
  return drafts.size();
}

Result<size_t> RecordRolesDue(ledger::Ledger& db, std::string_view game, std::string_view branch) {
  // Asked after every adjudication and before every submission, and almost
  // always with nothing waiting: the small roles_due view alone says so,
  // without folding the whole game (issue 22).
  auto due = Fold(db, game, branch, UINT64_MAX, {std::string(P::RolesDue().name())});
  if (!due.ok()) return due.status();
  if (rules::Get<P::RolesDue>(due->projections).state().pending.empty()) return size_t{0};
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  return RecordRolesDue(db, game, branch, *world);
}

Result<std::vector<PendingChange>> RoleChangesPending(ledger::Ledger& db, std::string_view game,
                                                      std::string_view branch) {
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  std::vector<PendingChange> out;
  for (const P::PendingRole& q : rules::Get<P::RolesDue>(world->projections).state().pending) {
    out.push_back({q.seq, q.from_turn, q.person, q.role, q.withdraw});
  }
  return out;
}

Result<RoleChanged> ChangeRole(ledger::Ledger& db, std::string_view game, std::string_view branch,
                               const RoleChange& c) {
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  const rules::GameKind* kind = world->kind();
  if (!kind) return Status::NotFound("no game '" + std::string(game) + "' (branch " + std::string(branch) + ")");
  Turn from;
  if (c.from_turn) {
    from = *c.from_turn;
  } else if (auto at = OrderPositionOf(*world); at.ok()) {
    from = at->turn;
  }
  const std::string reason =
      !c.reason.empty() ? c.reason
                        : (c.withdraw ? c.role + " withdrawn from " + c.person : c.role + " given to " + c.person) +
                              " from turn " + from.ToString();
  ADJ_RETURN_IF_ERROR(schema::CheckText("reason", reason, schema::TextRule::kFreeText));
  flatbuffers::FlatBufferBuilder f;
  const fb::Turn ft(from.major, from.minor, from.step);
  auto body = fb::CreateAssignRoleDirect(f, c.person.c_str(), c.role.c_str(), c.withdraw, &ft);
  f.Finish(fb::CreateDirectiveFile(f, f.CreateString(reason), fb::DirectiveBody_AssignRole, body.Union()));
  const auto* file = flatbuffers::GetRoot<fb::DirectiveFile>(f.GetBufferPointer());
  ADJ_RETURN_IF_ERROR(CheckAssignRole(db, game, branch, *world, *file->body_as_AssignRole()));
  if (!c.pwhash.empty() && c.withdraw) {
    return Status::InvalidArgument("a password goes with a role given, not one withdrawn");
  }
  RoleChanged out;
  out.from_turn = from;
  if (auto now = OrderPositionOf(*world); now.ok()) out.pending = from > now->turn;
  out.before = HoldersOf(*world, c.role);
  const P::Person* p = world->roster().Find(c.person);
  out.password = !c.pwhash.empty() || (p && !p->pwhash.empty());
  const TurnPhase at = kind->DirectivePosition(world->projections);
  std::vector<Draft> drafts;
  drafts.push_back(AssignRoleDraft(*world, *file, at));
  if (!c.pwhash.empty()) {
    Draft pw;
    pw.at = at;
    pw.actor = kGaActor;
    pw.payload = [person = c.person, hash = c.pwhash](flatbuffers::FlatBufferBuilder& b) {
      auto x = fb::CreateSetPasswordDirect(b, person.c_str(), hash.c_str());
      auto dir = fb::CreateDirective(b, b.CreateString("password set by the GA"), fb::DirectiveBody_SetPassword, x.Union());
      return PayloadRef{fb::Payload_Directive, dir.o};
    };
    drafts.push_back(std::move(pw));
  }
  auto r = db.Append(game, branch, world->head.seq, drafts);
  if (!r.ok()) return r.status();
  out.append = *r;
  return out;
}

}  // namespace adjutant::replay
