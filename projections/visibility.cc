#include "projections/visibility.h"

#include <algorithm>

#include <cctype>

#include "projections/archive.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::projections {

static_assert(static_cast<int>(ObservationKind::Event) == fb::ObservationKind_Event &&
              static_cast<int>(ObservationKind::Garrison) == fb::ObservationKind_Garrison &&
              static_cast<int>(ObservationKind::Contact) == fb::ObservationKind_Contact &&
              static_cast<int>(ObservationKind::Intelligence) == fb::ObservationKind_Intelligence &&
              fb::ObservationKind_MAX == fb::ObservationKind_Garrison);

template <class A> void Visit(A& a, Observation& o) {
  a(o.turn, o.phase, o.seq, o.kind, o.location, o.seen, o.count, o.windward, o.harbour, o.text, o.rule);
}
template <class A> void Visit(A& a, VisibilityState& s) { a(s.last_seq, s.by_ship, s.observer_state, s.last_turn, s.any); }

namespace {

using schema::Str;

}  // namespace

void Visibility::Apply(const Input& in) {
  const fb::Event& e = *in.event;
  s_.last_seq = in.seq;
  const auto* pe = e.payload_as_PateEvent();
  const fb::Observed* x = pe ? pe->body_as_Observed() : nullptr;
  if (x == nullptr) return;
  Observation o;
  if (e.turn()) o.turn = schema::TurnOf(e.turn());
  o.phase = e.phase();
  o.seq = in.seq;
  o.kind = static_cast<ObservationKind>(x->kind());
  o.location = Str(x->location());
  if (x->seen()) for (const auto* id : *x->seen()) o.seen.push_back(id->str());
  o.count = x->count();
  o.windward = x->windward();
  o.harbour = x->harbour();
  o.text = Str(x->text());
  o.rule = Str(x->rule());
  // The ledger refuses turns that go backwards, so the last is the latest;
  // the first observation of a later turn retires the earlier turn's.
  if (s_.any && s_.last_turn != o.turn) s_.by_ship.clear();
  s_.last_turn = o.turn;
  s_.any = true;
  if (x->state() && x->state()->size()) s_.observer_state[x->observer()->str()] = x->state()->str();
  s_.by_ship[x->observer()->str()].push_back(std::move(o));
}

std::string Visibility::Encode() const { return EncodeState(s_); }

Status Visibility::Decode(std::string_view bytes) { return DecodeState(bytes, &s_, name()); }

std::string StateOfShipId(const std::string& id) {
  // PATE 2.2: letters, a number without leading zero, then FL, SL, FR or TR.
  size_t i = 0;
  while (i < id.size() && std::isupper(static_cast<unsigned char>(id[i]))) ++i;
  size_t digits = i;
  while (digits < id.size() && std::isdigit(static_cast<unsigned char>(id[digits]))) ++digits;
  if (i == 0 || digits == i || id.size() != digits + 2) return "";
  return id.substr(0, i);
}

std::vector<std::string> ShipsSeenThrough(const RosterState& roster, const std::map<std::string, Ship>& ships,
                                          const VisibilityState& visibility, const std::string& person) {
  std::set<std::string> out;
  auto p = roster.persons.find(person);
  if (p == roster.persons.end()) return {};
  std::set<std::string> naval;  // the states whose Naval Minister he is
  for (const auto& role : p->second.roles) {
    const auto parsed = Role::Parse(role);
    if (!parsed) continue;
    const std::string &who = parsed->holder, &post = parsed->title;
    if (post == "commander" || post == "deputy") out.insert(who);  // PATE 2.3
    if (post == "naval") naval.insert(who);                         // PATE 2.3: he assigns them all
  }
  if (!naval.empty()) {
    for (const auto& [id, sh] : ships) {
      if (naval.count(sh.state)) out.insert(id);
    }
    for (const auto& [id, obs] : visibility.by_ship) {
      if (!ships.count(id) && naval.count(StateOfShipId(id))) out.insert(id);
    }
    // PATE 5.3: the garrisons of off-map ports report to the Naval Minister.
    for (const auto& [observer, state] : visibility.observer_state) {
      if (naval.count(state)) out.insert(observer);
    }
  }
  return {out.begin(), out.end()};
}

PlayerView ViewOf(const RosterState& roster, const std::map<std::string, Ship>& ships,
                  const VisibilityState& visibility, const std::string& person, const Turn& turn) {
  PlayerView v;
  v.person = person;
  v.turn = turn;
  // Ships no longer afloat (and garrisons) report only in turns they saw something.
  for (const auto& id : ShipsSeenThrough(roster, ships, visibility, person)) {
    bool afloat = ships.count(id) > 0;
    auto it = visibility.by_ship.find(id);
    bool saw = it != visibility.by_ship.end() &&
               std::any_of(it->second.begin(), it->second.end(), [&](const Observation& o) { return o.turn == turn; });
    if (afloat || saw) v.ships.push_back(id);
  }
  for (const auto& id : v.ships) {
    v.known_ids.insert(id);
    if (auto sh = ships.find(id); sh != ships.end() && !sh->second.attached_to.empty()) {
      v.known_ids.insert(sh->second.attached_to);
    }
    auto it = visibility.by_ship.find(id);
    if (it == visibility.by_ship.end()) continue;
    for (const auto& o : it->second) {
      if (o.turn != turn) continue;
      v.observations[id].push_back(o);
      v.known_ids.insert(o.seen.begin(), o.seen.end());
    }
  }
  return v;
}

}  // namespace adjutant::projections
