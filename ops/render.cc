#include "projections/roles_due.h"
#include "ops/render.h"

#include "base/signing.h"
#include "base/text.h"

#include <cstdio>
#include <vector>

#include "base/turn.h"
#include "base/utc.h"
#include "projections/schedule.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::ops {
namespace {

using schema::Str;

std::string ActorText(const fb::Actor* a) {
  if (a == nullptr) return "adjudicator";
  std::string who;
  switch (a->kind()) {
    case fb::ActorKind_Adjudicator: who = "adjudicator"; break;
    case fb::ActorKind_GameAdministrator: who = "GA"; break;
    case fb::ActorKind_Player: who = "player"; break;
  }
  // The GA with a person: an order he entered on that person's behalf.
  if (a->person() && a->person()->size()) {
    who += (a->kind() == fb::ActorKind_GameAdministrator ? " for " : ":") + a->person()->str();
  }
  if (a->role() && a->role()->size()) who += "(" + a->role()->str() + ")";
  return who;
}

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

// The JSON value of the first key `key` in `json` (the text FlatBuffers'
// generator wrote: a key inside a string is escaped, so the first bare
// occurrence is a real key). Objects are cut at their matching brace.
std::string JsonValue(const std::string& json, std::string_view key) {
  std::string needle = "\"" + std::string(key) + "\": ";
  size_t at = json.find(needle);
  if (at == std::string::npos) return "";
  size_t start = at + needle.size();
  if (start >= json.size() || json[start] != '{') {
    size_t end = json.find_first_of(",}", start);
    return json.substr(start, end - start);
  }
  int depth = 0;
  bool in_string = false;
  for (size_t i = start; i < json.size(); ++i) {
    char c = json[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) return json.substr(start, i - start + 1);
    }
  }
  return "";
}

// A ruleset's nested table, shown as its kind and its JSON.
std::string NestedText(const ledger::EventView& e, std::string_view body_key) {
  auto j = schema::ToJson("Event", e.bytes.data());
  if (!j.ok()) return "";
  std::string payload = JsonValue(*j, "payload");
  std::string inner = JsonValue(payload, body_key);
  std::string kind = JsonValue(inner, "body_type");
  std::string body = JsonValue(inner, "body");
  if (kind.size() >= 2) kind = kind.substr(1, kind.size() - 2);
  return kind + " " + body;
}

std::string TurnText(const fb::Turn* t) {
  return t ? schema::TurnOf(t).ToString() : "-";
}

std::string ScheduleText(const fb::Schedule& s) {
  switch (s.action()) {
    case fb::ScheduleAction_Set: {
      const std::string then =
          s.repeat() == fb::ScheduleRepeat_Once
              ? "no more deadlines"
              : projections::RepeatText(static_cast<projections::Repeat>(s.repeat()), s.weekday(), s.minute_of_day(),
                                        s.interval());
      return "schedule set: turn " + TurnText(s.turn()) + " closes " + FormatUtc(s.deadline()) + "; then " + then;
    }
    case fb::ScheduleAction_Extend:
      return "deadline of turn " + TurnText(s.turn()) + " extended by " + FormatDuration(s.extend_by()) + " to " +
             FormatUtc(s.deadline());
    case fb::ScheduleAction_Pause:
      return "schedule paused";
    case fb::ScheduleAction_Resume:
      return s.deadline() ? "schedule resumed: turn " + TurnText(s.turn()) + " closes " + FormatUtc(s.deadline())
                          : std::string("schedule resumed");
    case fb::ScheduleAction_Clear:
      return "schedule cleared";
    default:
      return "schedule";
  }
}

std::string PayloadText(const ledger::EventView& view) {
  const fb::Event& e = *view.event();
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
      if (g->rules_versions() && g->rules_versions()->size()) {
        t += ", rules versions ";
        for (flatbuffers::uoffset_t i = 0; i < g->rules_versions()->size(); ++i) {
          const auto* pin = g->rules_versions()->Get(i);
          t += (i ? "," : "") + pin->ruleset()->str() + "=" + std::to_string(pin->version());
        }
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
    case fb::Payload_TreeHead: {
      auto* h = e.payload_as_TreeHead();
      auto hex = [](const flatbuffers::Vector<uint8_t>* v, size_t n) {
        return v ? signing::Hex({v->data(), std::min<size_t>(v->size(), n)}) : std::string();
      };
      return "size " + std::to_string(h->size()) + ", root " + hex(h->root(), 6) + ", signed by " +
             hex(h->public_key(), 6);
    }
    case fb::Payload_Directive: {
      auto* d = e.payload_as_Directive();
      std::string t;
      if (auto* r = d->body_as_Ruling()) t = Quote(Str(r->text()));
      else if (d->body_type() == fb::DirectiveBody_SowDirective || d->body_type() == fb::DirectiveBody_PateDirective ||
               d->body_type() == fb::DirectiveBody_Y1820Directive || d->body_type() == fb::DirectiveBody_DogDirective) {
        t = NestedText(view, "payload");
      }
      else if (auto* sc = d->body_as_Schedule()) t = ScheduleText(*sc);
      else if (auto* f = d->body_as_DeadlineFired()) {
        t = "deadline of turn " + TurnText(f->turn()) + " (" + FormatUtc(f->deadline()) + ") fired at " + FormatUtc(f->fired_at());
      }
      else if (auto* a = d->body_as_AssignRole()) {
        t = Str(a->role()) + (a->withdraw() ? " withdrawn from " : " given to ") + Str(a->person()) + " from turn " +
            TurnText(a->from_turn());
        if (!projections::TakesEffectNow(e, *a)) {
          t += " (it waits until that turn's orders open)";
        } else if (!a->withdraw()) {
          std::string before;
          if (a->taken_from()) for (const auto* n : *a->taken_from()) before += (before.empty() ? "" : ", ") + n->str();
          t += before.empty() ? " (it was vacant)" : " (taken from " + before + ")";
        }
      }
      else if (auto* k = d->body_as_SigningKey()) {
        t = "tree heads signed from now on by key " +
            signing::Hex({k->public_key()->data(), k->public_key()->size()});
      }
      else if (auto* a = d->body_as_SetMailAddress()) {
        t = "mail address of " + Str(a->person()) + ": " + (a->address() && a->address()->size() ? Str(a->address()) : "none");
      } else if (auto* m = d->body_as_MailSent()) {
        t = Str(m->purpose()) + " of turn " + TurnText(m->turn()) + " mailed to " + Str(m->person()) + " <" +
            Str(m->address()) + "> at " + FormatUtc(m->sent_at()) + ", attempt " + std::to_string(m->attempt()) +
            ", body " + Str(m->body_hash()) + ", message " + Str(m->message_id());
      } else if (auto* m = d->body_as_MailFailed()) {
        t = Str(m->purpose()) + " of turn " + TurnText(m->turn()) + " NOT mailed to " + Str(m->person()) + " <" +
            Str(m->address()) + "> at " + FormatUtc(m->failed_at()) + ", attempt " + std::to_string(m->attempt()) + ": " +
            Quote(Str(m->error())) + "; tried again from " + FormatUtc(m->retry_at());
      } else if (auto* m = d->body_as_MailReceived()) {
        t = "mail " + Str(m->message_id()) + " from " + Quote(Str(m->from())) + (m->accepted() ? " accepted" : " refused: " + Quote(Str(m->reason())));
      }
      else t = fb::EnumNameDirectiveBody(d->body_type());
      return t + " because " + Quote(Str(d->reason()));
    }
    case fb::Payload_OrderSubmitted: {
      auto* o = e.payload_as_OrderSubmitted();
      std::string t = "by " + Str(o->person());
      if (o->role() && o->role()->size()) t += " as " + o->role()->str();
      if (o->slot() && o->slot()->size()) t += " for " + o->slot()->str();
      if (auto* w = o->body_as_WrittenOrder()) t += ": " + Quote(Str(w->text()));
      if (o->body_type() == fb::OrderBody_Withdrawal) t += ": withdraws his order standing for it";
      if (o->body_type() == fb::OrderBody_SowOrder || o->body_type() == fb::OrderBody_PateOrder ||
          o->body_type() == fb::OrderBody_Y1820Order || o->body_type() == fb::OrderBody_DogOrder) {
        auto j = schema::ToJson("Event", view.bytes.data());
        if (j.ok()) {
          std::string order = JsonValue(JsonValue(*j, "payload"), "body");
          std::string kind = JsonValue(order, "body_type");
          if (kind.size() >= 2) kind = kind.substr(1, kind.size() - 2);
          t += ": " + kind + " " + JsonValue(order, "body");
        }
      }
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
    case fb::Payload_PateEvent: {
      const auto* pe = e.payload_as_PateEvent();
      if (const auto* md = pe->body_as_MapDefined()) {
        const auto* m = md->map();
        return "naval map \"" + Str(m->name()) + "\": " + std::to_string(m->sea_areas() ? m->sea_areas()->size() : 0) +
               " sea areas, " + std::to_string(m->ports() ? m->ports()->size() : 0) + " ports";
      }
      static const char* kParts[] = {"at sea", "coastal waters", "harbour"};
      if (const auto* x = pe->body_as_ShipMoved()) {
        std::string t = Str(x->ship()) + " -> " + Str(x->location()) + " (" + kParts[x->part() % 3];
        if (x->part() == fb::PortPart_Sea && x->tactical()) t += ", tactical area " + std::to_string(x->tactical());
        if (x->crossing_turns()) t += ", " + std::to_string(x->crossing_turns()) + " more turn(s) in the Atlantic";
        if (x->windward()) t += ", windward";
        return t + ") " + Str(x->rule()) + (x->detail() ? ": " + x->detail()->str() : "");
      }
      if (const auto* x = pe->body_as_ShipRated()) {
        return Str(x->ship()) + " (" + Str(x->rule()) + "): " + Str(x->detail()) + "; hull " + std::to_string(x->hull()) +
               ", rigging " + std::to_string(x->rigging()) + ", stores " + std::to_string(x->stores()) + ", crew " +
               std::to_string(x->crew()) + ", experience " + std::to_string(x->experience()) +
               (x->port_stores() ? ", " + std::to_string(x->port_stores()) + " stores of " + Str(x->port()) : "");
      }
      if (const auto* x = pe->body_as_WindSet()) {
        static const char* kFrom[] = {"north", "east", "south", "west"};
        static const char* kStrength[] = {"light", "moderate", "heavy"};
        return Str(x->area()) + ": " + kStrength[x->strength() % 3] + " wind from the " + kFrom[x->from() % 4] +
               (x->step() == 2 ? " (after the shift)" : "");
      }
      if (const auto* x = pe->body_as_MoveFailed()) return Str(x->ship()) + " stays (" + Str(x->rule()) + "): " + Str(x->reason());
      if (const auto* x = pe->body_as_Observed()) {
        std::string t = Str(x->observer()) + " saw (" + fb::EnumNameObservationKind(x->kind()) + ", " + Str(x->rule()) +
                        ") at " + Str(x->location()) + ": ";
        if (x->seen() && x->seen()->size()) {
          for (flatbuffers::uoffset_t i = 0; i < x->seen()->size(); ++i) t += (i ? ", " : "") + x->seen()->Get(i)->str();
        } else {
          t += "about " + std::to_string(x->count());
        }
        return t + (x->text() ? " — " + x->text()->str() : "");
      }
      if (const auto* x = pe->body_as_ShipSunk()) {
        return Str(x->ship()) + " sunk (" + Str(x->rule()) + "): " + Str(x->detail()) + ", " + std::to_string(x->men_lost()) +
               " men lost";
      }
      if (const auto* x = pe->body_as_ShipCaptured()) {
        return Str(x->ship()) + " taken by " + Str(x->captor()) + ", now " + Str(x->new_id()) + " of " + Str(x->state()) +
               " with a prize crew of " + std::to_string(x->prize_crew()) + " (PATE 7.8)";
      }
      if (const auto* x = pe->body_as_CommandAssigned()) {
        std::string t = Str(x->ship()) + ":";
        if (x->commander() && x->commander()->size()) t += " commander " + x->commander()->str();
        if (x->deputy() && x->deputy()->size()) t += " deputy " + x->deputy()->str();
        return t + " (PATE 2.3)";
      }
      if (const auto* x = pe->body_as_ShipAttached()) {
        return Str(x->ship()) + (x->to() && x->to()->size() ? " attached to " + x->to()->str() : " detached") + " (" +
               Str(x->rule()) + ")";
      }
      auto j = schema::ToJson("Event", view.bytes.data());
      return j.ok() ? JsonValue(JsonValue(*j, "payload"), "body") : "";
    }
    case fb::Payload_Y1820Event: {
      if (const auto* md = e.payload_as_Y1820Event()->body_as_Y1820MapDefined()) {
        const auto* m = md->map();
        return "province map \"" + Str(m->name()) + "\": " + std::to_string(m->provinces() ? m->provinces()->size() : 0) +
               " provinces, " + std::to_string(m->borders() ? m->borders()->size() : 0) + " borders, " +
               std::to_string(m->seas() ? m->seas()->size() : 0) + " sea zones";
      }
      auto j = schema::ToJson("Event", view.bytes.data());
      return j.ok() ? JsonValue(JsonValue(*j, "payload"), "body") : "";
    }
    case fb::Payload_DogEvent:
    case fb::Payload_SowEvent: {
      auto j = schema::ToJson("Event", view.bytes.data());
      return j.ok() ? JsonValue(JsonValue(*j, "payload"), "body") : "";
    }
    default:
      return "";
  }
}

}  // namespace

std::string KindName(const ledger::EventView& e) { return schema::PayloadKind(*e.event()); }

std::string DisplayKind(const ledger::EventView& e) { return schema::EventKind(*e.event()); }

std::string EventLine(const ledger::EventView& e) {
  const fb::Event& ev = *e.event();
  std::string turn = "0.0.0";
  if (auto* t = ev.turn()) turn = schema::TurnOf(t).ToString();
  char head[64];
  std::snprintf(head, sizeof head, "%7llu  ", static_cast<unsigned long long>(e.seq));
  std::string at = turn + "/" + std::to_string(ev.phase());
  if (at.size() < 12) at.resize(12, ' ');
  std::string actor = ActorText(ev.actor());
  if (actor.size() < 12) actor.resize(12, ' ');
  std::string kind = DisplayKind(e);
  if (kind.size() < 15) kind.resize(15, ' ');
  // Whatever an older version recorded, it is shown as text: the Printer
  // (ops/internal.h) that every line goes out through mends a stray byte, a
  // terminal's escape or a bidirectional control to U+FFFD.
  return head + at + "  " + actor + "  " + kind + "  " + PayloadText(e);
}

bool KnownKind(std::string_view name, std::string* canonical) {
  std::vector<std::string_view> kinds;
  for (int i = fb::Payload_MIN + 1; i <= fb::Payload_MAX; ++i) kinds.push_back(fb::EnumNamesPayload()[i]);
  for (int i = fb::SowEventBody_MIN + 1; i <= fb::SowEventBody_MAX; ++i) kinds.push_back(fb::EnumNamesSowEventBody()[i]);
  for (int i = fb::PateEventBody_MIN + 1; i <= fb::PateEventBody_MAX; ++i) kinds.push_back(fb::EnumNamesPateEventBody()[i]);
  for (int i = fb::Y1820EventBody_MIN + 1; i <= fb::Y1820EventBody_MAX; ++i) kinds.push_back(fb::EnumNamesY1820EventBody()[i]);
  for (int i = fb::DogEventBody_MIN + 1; i <= fb::DogEventBody_MAX; ++i) kinds.push_back(fb::EnumNamesDogEventBody()[i]);
  for (std::string_view k : kinds) {
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
  s += "; sow: ";
  for (int i = fb::SowEventBody_MIN + 1; i <= fb::SowEventBody_MAX; ++i) {
    if (i > fb::SowEventBody_MIN + 1) s += ", ";
    s += fb::EnumNamesSowEventBody()[i];
  }
  s += "; pate: ";
  for (int i = fb::PateEventBody_MIN + 1; i <= fb::PateEventBody_MAX; ++i) {
    if (i > fb::PateEventBody_MIN + 1) s += ", ";
    s += fb::EnumNamesPateEventBody()[i];
  }
  s += "; y1820: ";
  for (int i = fb::Y1820EventBody_MIN + 1; i <= fb::Y1820EventBody_MAX; ++i) {
    if (i > fb::Y1820EventBody_MIN + 1) s += ", ";
    s += fb::EnumNamesY1820EventBody()[i];
  }
  s += "; dog: ";
  for (int i = fb::DogEventBody_MIN + 1; i <= fb::DogEventBody_MAX; ++i) {
    if (i > fb::DogEventBody_MIN + 1) s += ", ";
    s += fb::EnumNamesDogEventBody()[i];
  }
  return s;
}

}  // namespace adjutant::ops
