#include "projections/battle.h"

#include <algorithm>

#include "projections/archive.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::projections {

template <class A> void Visit(A& a, DogXY& p) { a(p.x, p.y); }
template <class A> void Visit(A& a, DogTerrainState& t) { a(t.id, t.kind, t.points, t.uphill); }
template <class A> void Visit(A& a, DogUnitState& u) {
  a(u.side, u.name, u.commander, u.nation, u.arm, u.cls, u.formation, u.cohesion, u.fatigue, u.strength,
    u.start_strength, u.x, u.y, u.facing, u.frontage, u.morale, u.control, u.shaken, u.routing, u.gone, u.changing_to,
    u.change_done, u.change_time, u.bound, u.bound_moves, u.melee_wins, u.bound_set_in, u.reform_done, u.reform_time,
    u.ranks, u.melee_with, u.melee_move, u.melee_round);
}
template <class A> void Visit(A& a, DogCommanderState& c) { a(c.side, c.name, c.rating, c.control, c.x, c.y, c.lost, c.tests_due, c.with);
}
template <class A> void Visit(A& a, DogIntentState& i) {
  a(i.seq, i.side, i.change_formation, i.formation, i.face, i.path, i.charge, i.hold, i.reform);
}
template <class A> void Visit(A& a, DogDisplaced& d) { a(d.unit, d.intent); }
template <class A> void Visit(A& a, BattleState& s) {
  a(s.last_seq, s.active, s.width, s.height, s.max_moves, s.sides, s.terrain, s.commanders, s.units, s.moves_done,
    s.ended, s.end_reason, s.winner, s.intents, s.displaced);
}

const DogUnitState* BattleState::Unit(const std::string& id) const {
  auto it = units.find(id);
  return it == units.end() ? nullptr : &it->second;
}

Turn DogMove(int32_t m) { return Turn{1, m, 0}; }

namespace {

using schema::Str;

void Load(BattleState& s, const fb::DogBattle& b) {
  s.active = true;
  s.width = b.width();
  s.height = b.height();
  s.max_moves = b.moves();
  if (b.sides()) for (const auto* x : *b.sides()) s.sides.push_back(x->str());
  if (b.terrain()) {
    for (const auto* t : *b.terrain()) {
      DogTerrainState ts;
      ts.id = t->id()->str();
      ts.kind = t->kind();
      ts.uphill = t->uphill();
      if (t->points()) for (const auto* p : *t->points()) ts.points.push_back({p->x(), p->y()});
      s.terrain.push_back(std::move(ts));
    }
  }
  if (b.commanders()) {
    for (const auto* c : *b.commanders()) {
      DogCommanderState& cs = s.commanders[c->id()->str()];
      cs.side = c->side()->str();
      cs.name = Str(c->name());
      cs.rating = c->rating();
      cs.control = c->control();
      cs.x = c->x();
      cs.y = c->y();
    }
  }
  if (b.units()) {
    for (const auto* u : *b.units()) {
      DogUnitState& us = s.units[u->id()->str()];
      us.side = u->side()->str();
      us.name = Str(u->name());
      us.commander = Str(u->commander());
      us.nation = u->nation();
      us.arm = u->arm();
      us.cls = u->class_();
      us.formation = u->formation();
      us.cohesion = u->cohesion();
      us.fatigue = u->fatigue();
      us.strength = us.start_strength = u->strength();
      us.x = u->x();
      us.y = u->y();
      us.facing = u->facing();
      us.frontage = u->frontage();
      us.morale = u->morale();
      us.control = u->control();
      us.ranks = u->ranks();
    }
  }
  // D12.7: a commander rides with the nearest of his units (ties: the first
  // by id) and moves with it. A stored position may be anything a damaged or
  // hostile event holds: a difference of two int32 needs 33 bits and the sum
  // of its squares 65, so the squared distance is taken in 128 (found by the
  // events fuzz target; fixtures/fuzz/events/d12-7-*).
  for (auto& [cid, c] : s.commanders) {
    bool any = false;
    unsigned __int128 best = 0;
    for (const auto& [uid, u] : s.units) {
      if (u.commander != cid) continue;
      const __int128 dx = int64_t{u.x} - c.x, dy = int64_t{u.y} - c.y;
      const auto d = static_cast<unsigned __int128>(dx * dx + dy * dy);
      if (!any || d < best) {
        any = true;
        best = d;
        c.with = uid;
      }
    }
  }
}

// D12.7: a unit's commander moves with it (by the same displacement).
// Differences and sums in 64 bits: a stored position may be anything a
// damaged or hostile event holds (found by the events fuzz target).
void Carry(BattleState& s, const std::string& unit, int64_t dx, int64_t dy) {
  if (dx == 0 && dy == 0) return;
  for (auto& [cid, c] : s.commanders) {
    if (c.with != unit || c.lost) continue;
    c.x = static_cast<int32_t>(std::clamp<int64_t>(c.x + dx, 0, std::max<int64_t>(0, s.width)));
    c.y = static_cast<int32_t>(std::clamp<int64_t>(c.y + dy, 0, std::max<int64_t>(0, s.height)));
  }
}

void DropIntent(BattleState& s, uint64_t seq) {
  std::erase_if(s.intents, [&](const auto& kv) { return kv.second.seq == seq; });
}

// `version`: the dog rules version the event was made under (2 and later:
// control results bind from the next move; commanders ride with a unit).
void ApplyEvent(BattleState& s, const fb::DogEvent& ev, uint32_t version) {
  const bool v2 = version >= 2;
  auto unit = [&](const flatbuffers::String* id) -> DogUnitState* {
    auto it = s.units.find(Str(id));
    return it == s.units.end() ? nullptr : &it->second;
  };
  if (auto* x = ev.body_as_DogFormationChanged()) {
    if (DogUnitState* u = unit(x->unit())) {
      if (x->finished()) {
        u->formation = x->to();
        u->changing_to = -1;
        u->change_done = u->change_time = 0;
      } else {
        u->changing_to = x->to();
        u->change_done = x->done();
        u->change_time = x->time();
      }
    }
  } else if (auto* x = ev.body_as_DogMoved()) {
    if (DogUnitState* u = unit(x->unit()); u && x->to()) {
      if (v2) Carry(s, Str(x->unit()), int64_t{x->to()->x()} - u->x, int64_t{x->to()->y()} - u->y);
      u->x = x->to()->x();
      u->y = x->to()->y();
      u->facing = x->facing();
    }
  } else if (auto* x = ev.body_as_DogStateChanged()) {
    if (DogUnitState* u = unit(x->unit())) {
      // D1.8, D1.9: a re-forming unit thrown into worse order starts again.
      if (x->cohesion() > u->cohesion) u->reform_done = u->reform_time = 0;
      u->cohesion = x->cohesion();
      u->fatigue = x->fatigue();
    }
  } else if (auto* x = ev.body_as_DogCasualties()) {
    if (DogUnitState* u = unit(x->unit())) {
      u->strength = std::max(0, u->strength - x->men());
      if (u->strength == 0) u->gone = true;
    }
  } else if (auto* x = ev.body_as_DogMeleeRound()) {
    if (DogUnitState* u = unit(x->winner())) u->melee_wins.push_back(s.moves_done + 1);
    // D13: the melee each side is in, and its round (a melee goes on move after move).
    for (auto [me, them] : {std::pair{x->attacker(), x->defender()}, std::pair{x->defender(), x->attacker()}}) {
      if (DogUnitState* u = unit(me)) {
        u->melee_with = Str(them);
        u->melee_move = s.moves_done + 1;
        u->melee_round = x->round();
      }
    }
  } else if (auto* x = ev.body_as_DogMoraleTest()) {
    if (DogUnitState* u = unit(x->unit())) {
      if (Str(x->result()) == "shaken") u->shaken = true;
      if (Str(x->result()) == "break") u->routing = true;
    }
  } else if (auto* x = ev.body_as_DogControlTest()) {
    if (DogUnitState* u = unit(x->unit())) {
      std::string r = Str(x->result());
      u->bound = r.rfind("pursue", 0) == 0 ? "pursue" : r.rfind("stand", 0) == 0 ? "stand" : r == "retire" ? "retire" : "";
      u->bound_moves = x->moves();
      u->bound_set_in = v2 ? s.moves_done + 1 : 0;  // version 1 counted the move it was set in
      if (u->bound_moves == 0) u->bound.clear();
    }
  } else if (auto* x = ev.body_as_DogRouted()) {
    if (DogUnitState* u = unit(x->unit())) {
      u->routing = true;
      if (x->to()) {
        if (v2) Carry(s, Str(x->unit()), int64_t{x->to()->x()} - u->x, int64_t{x->to()->y()} - u->y);
        u->x = x->to()->x();
        u->y = x->to()->y();
      }
      if (u->x < 0 || u->y < 0 || u->x > s.width || u->y > s.height) u->gone = true;
    }
  } else if (auto* x = ev.body_as_DogCommanderLost()) {
    // The engine took the tests a commander's death brings (D5.6, D8.2).
    auto it = s.commanders.find(Str(x->commander()));
    if (it != s.commanders.end()) {
      it->second.lost = true;
      it->second.tests_due = false;
    }
  } else if (auto* x = ev.body_as_DogReformed()) {
    if (DogUnitState* u = unit(x->unit())) {
      if (x->finished()) {
        u->cohesion = fb::DogCohesion_Formed;
        u->reform_done = u->reform_time = 0;
      } else {
        u->reform_done = x->done();
        u->reform_time = x->time();
      }
    }
  } else if (auto* x = ev.body_as_DogIntentRefused()) {
    s.intents.erase(Str(x->unit()));
  } else if (auto* x = ev.body_as_DogBattleEnded()) {
    s.ended = true;
    s.end_reason = Str(x->reason());
    s.winner = Str(x->winner());
  }
}

}  // namespace

void Battle::Apply(const Input& in) {
  const fb::Event& e = *in.event;
  if (auto* g = e.payload_as_GameCreated()) {
    const fb::Scenario* sc = g->scenario();
    bool dog = false;
    if (sc && sc->rulesets()) for (const auto* r : *sc->rulesets()) dog |= r->str() == "dog";
    if (dog && sc->dog()) Load(s_, *sc->dog());
  }
  // Every event is folded, whatever the game: a snapshot of this view must
  // stand at its seq, or every fold of another game would start from event 1.
  s_.last_seq = in.seq;
  if (!s_.active) return;  // nothing else concerns a game without dog
  if (auto* de = e.payload_as_DogEvent()) {
    ApplyEvent(s_, *de, FoldVersionOf(in));
  } else if (auto* o = e.payload_as_OrderSubmitted()) {
    if (auto* d = o->body_as_DogOrder()) {
      if (auto* i = d->body_as_DogIntent()) {
        DogIntentState& st = s_.intents[i->unit()->str()];
        if (st.seq != 0 && FoldVersionOf(in) >= 2) s_.displaced[in.seq] = DogDisplaced{i->unit()->str(), st};
        st = {};
        st.seq = in.seq;
        st.side = Str(o->slot());
        st.change_formation = i->change_formation();
        st.formation = i->formation();
        st.face = i->face();
        if (i->path()) for (const auto* p : *i->path()) st.path.push_back({p->x(), p->y()});
        st.charge = Str(i->charge());
        st.hold = i->hold();
        st.reform = i->reform();
      }
    }
  } else if (auto* sp = e.payload_as_OrderSuperseded()) {
    DropIntent(s_, sp->order_seq());
    s_.displaced.erase(sp->by_seq());
  } else if (auto* rj = e.payload_as_OrderRejected()) {
    // A refused intention leaves the one it would have replaced standing
    // (version 1 lost both: another side's general could wipe an order).
    DropIntent(s_, rj->order_seq());
    if (auto it = s_.displaced.find(rj->order_seq()); it != s_.displaced.end()) {
      s_.intents[it->second.unit] = it->second.intent;
      s_.displaced.erase(it);
    }
  } else if (auto* d = e.payload_as_Directive()) {
    if (auto* dd = d->body_as_DogDirective()) {
      if (auto* p = dd->body_as_DogPlaceUnit()) {
        auto it = s_.units.find(p->unit()->str());
        if (it != s_.units.end()) {
          if (FoldVersionOf(in) >= 2) Carry(s_, it->first, int64_t{p->x()} - it->second.x, int64_t{p->y()} - it->second.y);
          it->second.x = p->x();
          it->second.y = p->y();
          it->second.facing = p->facing();
        }
      } else if (auto* k = dd->body_as_DogCommanderKilled()) {
        auto it = s_.commanders.find(k->commander()->str());
        if (it != s_.commanders.end()) {
          it->second.lost = true;
          it->second.tests_due = true;  // D5.6, D8.2: tested at the start of the next move
        }
      }
    }
  } else if (e.payload_type() == fb::Payload_PhaseCompleted) {
    // D12: a move is one phase; its intentions are spent, shaken units steady,
    // and control results bind one move fewer — counted from the move after
    // the one the test was taken in (D11: "for 1 move" is the next move).
    s_.moves_done++;
    s_.intents.clear();
    s_.displaced.clear();
    for (auto& [id, u] : s_.units) {
      u.shaken = false;
      if (u.bound_set_in >= s_.moves_done) continue;
      if (u.bound_moves > 0 && --u.bound_moves == 0) u.bound.clear();
    }
  }
}

std::string Battle::Encode() const { return EncodeState(s_); }

Status Battle::Decode(std::string_view bytes) { return DecodeState(bytes, &s_, name()); }

}  // namespace adjutant::projections
