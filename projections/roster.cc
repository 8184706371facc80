#include "projections/roster.h"

#include "projections/archive.h"
#include "schema/event_generated.h"

namespace adjutant::projections {

template <class A> void Visit(A& a, Person& p) { a(p.roles, p.pwhash); }

void Roster::Apply(const Input& in) {
  const fb::Event& e = *in.event;
  last_seq_ = in.seq;
  if (auto* g = e.payload_as_GameCreated()) {
    if (g->scenario() && g->scenario()->players()) {
      for (const auto* p : *g->scenario()->players()) {
        Person& person = persons_[p->person()->str()];
        if (p->roles()) for (const auto* r : *p->roles()) person.roles.insert(r->str());
      }
    }
  } else if (auto* d = e.payload_as_Directive()) {
    if (auto* pw = d->body_as_SetPassword()) persons_[pw->person()->str()].pwhash = pw->pwhash()->str();
  }
}

const Person* Roster::Find(const std::string& person) const {
  auto it = persons_.find(person);
  return it == persons_.end() ? nullptr : &it->second;
}

std::string Roster::Encode() const {
  Enc e;
  e(last_seq_, persons_);
  return e.Take();
}

Status Roster::Decode(std::string_view bytes) {
  Dec d(bytes);
  uint64_t seq = 0;
  std::map<std::string, Person> persons;
  d(seq, persons);
  if (!d.ok()) return Status::Corruption("roster snapshot is damaged");
  last_seq_ = seq;
  persons_ = std::move(persons);
  return Status::Ok();
}

}  // namespace adjutant::projections
