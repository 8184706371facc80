#include "cli/render.h"

#include <cstdio>

#include "schema/event_generated.h"

namespace adjutant::cli {
namespace {

std::string Str(const flatbuffers::String* s) { return s ? s->str() : ""; }

std::string ActorText(const fb::Actor* a) {
  if (a == nullptr) return "adjudicator";
  std::string who;
  switch (a->kind()) {
    case fb::ActorKind_Adjudicator: who = "adjudicator"; break;
    case fb::ActorKind_GameAdministrator: who = "GA"; break;
    case fb::ActorKind_Player: who = "player"; break;
  }
  if (a->person() && a->person()->size()) who += ":" + a->person()->str();
  if (a->role() && a->role()->size()) who += "(" + a->role()->str() + ")";
  return who;
}

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

std::string PayloadText(const fb::Event& e) {
  switch (e.payload_type()) {
    case fb::Payload_GameCreated: {
      auto* g = e.payload_as_GameCreated();
      std::string t = "seed " + std::to_string(g->seed());
      if (auto* sc = g->scenario()) {
        t = "scenario " + Quote(Str(sc->name())) + ", " + t;
        if (sc->rulesets() && sc->rulesets()->size()) {
          t += ", rulesets";
          for (auto* r : *sc->rulesets()) t += " " + r->str();
        }
        if (sc->players()) t += ", " + std::to_string(sc->players()->size()) + " persons";
      }
      return t;
    }
    case fb::Payload_BranchForked: {
      auto* f = e.payload_as_BranchForked();
      Hash128 h{f->fork_hash() ? f->fork_hash()->hi() : 0, f->fork_hash() ? f->fork_hash()->lo() : 0};
      return "from " + Str(f->parent()) + "@" + std::to_string(f->fork_seq()) + " (chain " + h.Short() + ")" +
             (f->reseeded() ? ", dice reseeded" : ", same dice");
    }
    case fb::Payload_PhaseStarted:
      return Str(e.payload_as_PhaseStarted()->name());
    case fb::Payload_PhaseCompleted: {
      auto* p = e.payload_as_PhaseCompleted();
      std::string t = Str(p->name());
      if (p->digests()) {
        for (auto* d : *p->digests()) {
          Hash128 h{d->digest() ? d->digest()->hi() : 0, d->digest() ? d->digest()->lo() : 0};
          t += ", " + Str(d->projection()) + " " + h.Short();
        }
      }
      return t;
    }
    case fb::Payload_Directive: {
      auto* d = e.payload_as_Directive();
      std::string t;
      if (auto* r = d->body_as_Ruling()) t = Quote(Str(r->text()));
      else t = fb::EnumNameDirectiveBody(d->body_type());
      return t + " because " + Quote(Str(d->reason()));
    }
    case fb::Payload_OrderSubmitted: {
      auto* o = e.payload_as_OrderSubmitted();
      std::string t = "by " + Str(o->person());
      if (o->role() && o->role()->size()) t += " as " + o->role()->str();
      if (o->slot() && o->slot()->size()) t += " for " + o->slot()->str();
      if (auto* w = o->body_as_WrittenOrder()) t += ": " + Quote(Str(w->text()));
      return t;
    }
    case fb::Payload_OrderSuperseded: {
      auto* o = e.payload_as_OrderSuperseded();
      return "order " + std::to_string(o->order_seq()) + " replaced by " + std::to_string(o->by_seq());
    }
    case fb::Payload_OrderRejected: {
      auto* o = e.payload_as_OrderRejected();
      return "order " + std::to_string(o->order_seq()) + " (" + Str(o->rule()) + "): " + Str(o->reason());
    }
    case fb::Payload_DieRolled: {
      auto* d = e.payload_as_DieRolled();
      std::string t = std::to_string(d->count()) + "d" + std::to_string(d->sides()) + " =";
      uint64_t total = 0;
      bool first = true;
      if (d->results()) {
        for (uint32_t r : *d->results()) {
          t += (first ? " " : "+") + std::to_string(r);
          total += r;
          first = false;
        }
        if (d->results()->size() > 1) t += " = " + std::to_string(total);
      }
      t += "  for " + Str(d->purpose());
      if (d->subject() && d->subject()->size()) t += " of " + d->subject()->str();
      t += " (" + Str(d->rule()) + ")";
      if (d->scripted()) t += " [scripted]";
      return t;
    }
    default:
      return "";
  }
}

}  // namespace

std::string KindName(const ledger::EventView& e) { return fb::EnumNamePayload(e.event()->payload_type()); }

std::string EventLine(const ledger::EventView& e) {
  const fb::Event& ev = *e.event();
  std::string turn = "0.0.0";
  if (auto* t = ev.turn()) turn = Turn{t->major(), t->minor(), t->step()}.ToString();
  char head[64];
  std::snprintf(head, sizeof head, "%7llu  ", static_cast<unsigned long long>(e.seq));
  std::string at = turn + "/" + std::to_string(ev.phase());
  if (at.size() < 12) at.resize(12, ' ');
  std::string actor = ActorText(ev.actor());
  if (actor.size() < 12) actor.resize(12, ' ');
  std::string kind = KindName(e);
  if (kind.size() < 15) kind.resize(15, ' ');
  return head + at + "  " + actor + "  " + kind + "  " + PayloadText(ev);
}

bool KnownKind(std::string_view name, std::string* canonical) {
  for (int i = fb::Payload_MIN + 1; i <= fb::Payload_MAX; ++i) {
    std::string_view k = fb::EnumNamesPayload()[i];
    if (k.size() != name.size()) continue;
    bool eq = true;
    for (size_t j = 0; j < k.size() && eq; ++j) eq = std::tolower(k[j]) == std::tolower(name[j]);
    if (eq) { *canonical = std::string(k); return true; }
  }
  return false;
}

std::string KnownKinds() {
  std::string s;
  for (int i = fb::Payload_MIN + 1; i <= fb::Payload_MAX; ++i) {
    if (!s.empty()) s += ", ";
    s += fb::EnumNamesPayload()[i];
  }
  return s;
}

}  // namespace adjutant::cli
