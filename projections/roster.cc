#include "projections/roster.h"

#include "projections/archive.h"
#include "projections/roles_due.h"
#include "schema/event_generated.h"

namespace adjutant::projections {

template <class A> void Visit(A& a, Person& p) { a(p.roles, p.pwhash); }
template <class A> void Visit(A& a, RosterState& s) { a(s.last_seq, s.persons); }

void Roster::Apply(const Input& in) {
  const fb::Event& e = *in.event;
  s_.last_seq = in.seq;
  if (auto* g = e.payload_as_GameCreated()) {
    if (g->scenario() && g->scenario()->players()) {
      for (const auto* p : *g->scenario()->players()) {
        Person& person = s_.persons[p->person()->str()];
        if (p->roles()) for (const auto* r : *p->roles()) person.roles.insert(r->str());
      }
    }
  } else if (auto* d = e.payload_as_Directive()) {
    if (auto* pw = d->body_as_SetPassword()) s_.persons[pw->person()->str()].pwhash = pw->pwhash()->str();
    // Issue 20: the GA gives a role (its holder before gives it up) or takes
    // it back, leaving it vacant (replay/roles.h checks it first).
    // One given for a later turn waits (RolesDue) until recorded again there.
    if (auto* a = d->body_as_AssignRole(); a && TakesEffectNow(e, *a)) {
      const std::string role = a->role()->str();
      if (a->withdraw()) {
        if (auto it = s_.persons.find(a->person()->str()); it != s_.persons.end()) it->second.roles.erase(role);
      } else {
        for (auto& [name, p] : s_.persons) p.roles.erase(role);
        s_.persons[a->person()->str()].roles.insert(role);
      }
    }
  } else if (auto* pe = e.payload_as_PateEvent()) {
    // PATE 2.3: a ship's posts move to the persons now named.
    if (auto* c = pe->body_as_CommandAssigned()) {
      auto assign = [&](const flatbuffers::String* who, const std::string& role) {
        if (!who || who->size() == 0) return;
        for (auto& [name, p] : s_.persons) p.roles.erase(role);
        s_.persons[who->str()].roles.insert(role);
      };
      assign(c->commander(), c->ship()->str() + ".commander");
      assign(c->deputy(), c->ship()->str() + ".deputy");
    }
  }
}

std::optional<Role> Role::Parse(std::string_view role) {
  const size_t dot = role.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  return Role{std::string(role.substr(0, dot)), std::string(role.substr(dot + 1))};
}

std::map<std::string, std::vector<Post>> ShipPosts(const Roster& roster) {
  std::map<std::string, std::vector<Post>> out;
  for (const auto& [person, p] : roster.persons()) {
    for (const std::string& r : p.roles) {
      auto role = Role::Parse(r);
      if (role && (role->title == "commander" || role->title == "deputy")) out[role->holder].push_back(Post{person, r});
    }
  }
  return out;
}

std::string PostsHeld(const std::vector<Post>& posts) {
  std::string out;
  for (size_t i = 0; i < posts.size(); ++i) {
    if (i > 0) out += " and ";
    out += posts[i].person + " holds " + posts[i].role;
  }
  return out;
}

std::optional<std::string> HolderOf(const std::set<std::string>& roles, std::string_view title, std::string_view asked,
                                    const std::function<bool(const std::string&)>& accept) {
  for (const std::string& r : roles) {
    if (!asked.empty() && r != asked) continue;
    auto role = Role::Parse(r);
    if (!role || role->title != title) continue;
    if (!accept || accept(role->holder)) return role->holder;
  }
  return std::nullopt;
}

const Person* Roster::Find(const std::string& person) const {
  auto it = s_.persons.find(person);
  return it == s_.persons.end() ? nullptr : &it->second;
}

std::string Roster::Encode() const { return EncodeState(s_); }

Status Roster::Decode(std::string_view bytes) { return DecodeState(bytes, &s_, name()); }

}  // namespace adjutant::projections
