#include "support/random_game.h"

#include <rapidcheck.h>

#include "rules/dice.h"
#include "rules/events.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::testing {

std::vector<uint8_t> MinimalScenario(const std::string& name) {
  flatbuffers::FlatBufferBuilder fbb;
  fb::Turn start(1, 1, 0);
  fbb.Finish(fb::CreateScenarioDirect(fbb, name.c_str(), nullptr, "a test scenario", &start));
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

Result<ledger::Head> CreateTestGame(ledger::Ledger& db, const std::string& game, uint64_t seed) {
  auto sc = MinimalScenario("test " + game);
  return db.CreateGame(game, seed, sc, TurnPhase{{1, 1, 0}, 0}, Actor{ActorKind::kGameAdministrator, "", ""});
}

namespace {

Actor GenActor() {
  int k = *rc::gen::inRange(0, 3);
  Actor a;
  a.kind = static_cast<ActorKind>(k);
  if (a.kind == ActorKind::kPlayer) {
    a.person = *rc::gen::element<std::string>("nelson", "villeneuve", "pitt", "decres");
    a.role = *rc::gen::element<std::string>("", "BR.naval", "BR1FL.commander");
  }
  return a;
}

std::string GenText() {
  // Printable text with the odd quote, backslash and non-ASCII letter.
  auto chars = rc::gen::element<char>('a', 'b', 'z', ' ', '"', '\\', '7', '\xc3', '\xa9');
  std::string s = *rc::gen::container<std::string>(chars);
  // Keep UTF-8 valid: a lone lead or continuation byte is dropped.
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\xc3' && i + 1 < s.size() && s[i + 1] == '\xa9') { out += "\xc3\xa9"; ++i; }
    else if (s[i] != '\xc3' && s[i] != '\xa9') out += s[i];
  }
  return out.empty() ? "x" : out;
}

void Advance(TurnPhase* c, int how) {
  switch (how) {
    case 0: break;
    case 1: c->phase++; break;
    case 2: c->turn.step++; c->phase = 0; break;
    default: c->turn.minor++; c->turn.step = 0; c->phase = 0; break;
  }
}

}  // namespace

std::vector<EventSpec> GenBatch(TurnPhase* cursor, int max_events) {
  int n = *rc::gen::inRange(1, max_events + 1);
  std::vector<EventSpec> out;
  for (int i = 0; i < n; ++i) {
    Advance(cursor, *rc::gen::weightedOneOf<int>({{6, rc::gen::just(0)}, {2, rc::gen::just(1)},
                                                  {1, rc::gen::just(2)}, {1, rc::gen::just(3)}}));
    EventSpec s;
    s.at = *cursor;
    s.kind = static_cast<EventSpec::Kind>(*rc::gen::inRange(0, 6));
    s.actor = GenActor();
    s.text = GenText();
    switch (s.kind) {
      case EventSpec::Kind::kRoll: {
        s.sides = *rc::gen::inRange<uint32_t>(2, 101);
        int count = *rc::gen::inRange(1, 5);
        for (int j = 0; j < count; ++j) s.values.push_back(*rc::gen::inRange<uint32_t>(1, s.sides + 1));
        break;
      }
      case EventSpec::Kind::kPhaseCompleted:
        s.values = {*rc::gen::arbitrary<uint32_t>(), *rc::gen::arbitrary<uint32_t>()};
        break;
      case EventSpec::Kind::kRejected:
        s.values = {*rc::gen::inRange<uint32_t>(1, 1000)};
        break;
      default:
        break;
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<EventSpec> FixedBatch(TurnPhase* cursor, int n, uint32_t salt) {
  std::vector<EventSpec> out;
  for (int i = 0; i < n; ++i) {
    if ((i + salt) % 5 == 4) Advance(cursor, 1 + static_cast<int>((i + salt) % 3));
    EventSpec s;
    s.at = *cursor;
    s.kind = static_cast<EventSpec::Kind>((i + salt) % 6);
    s.text = "event " + std::to_string(i) + " salt " + std::to_string(salt);
    s.sides = 6;
    s.values = {1 + (i + salt) % 6u, 1 + (i * 7 + salt) % 6u};
    out.push_back(std::move(s));
  }
  return out;
}

Draft ToDraft(const EventSpec& s) {
  switch (s.kind) {
    case EventSpec::Kind::kRoll: {
      rules::Roll r;
      r.request = {s.at, "", s.text, "TEST 1.1", s.sides, static_cast<uint32_t>(s.values.size())};
      r.results = s.values;
      r.scripted = true;
      return rules::DieRolledDraft(r, s.actor);
    }
    case EventSpec::Kind::kRuling:
      return rules::RulingDraft(s.at, s.actor, "because " + s.text, s.text);
    case EventSpec::Kind::kPhaseStarted: {
      Draft d = rules::PhaseStartedDraft(s.at, s.text);
      d.actor = s.actor;
      return d;
    }
    case EventSpec::Kind::kPhaseCompleted: {
      Draft d = rules::PhaseCompletedDraft(s.at, s.text, {{"summary", Hash128{s.values[0], s.values[1]}}});
      d.actor = s.actor;
      return d;
    }
    case EventSpec::Kind::kOrder:
    case EventSpec::Kind::kRejected:
      break;
  }
  Draft d;
  d.at = s.at;
  d.actor = s.actor;
  d.ruleset = "sow";
  d.rules_version = 1;
  d.payload = [s](flatbuffers::FlatBufferBuilder& fbb) {
    if (s.kind == EventSpec::Kind::kOrder) {
      auto body = fb::CreateWrittenOrderDirect(fbb, s.text.c_str());
      auto o = fb::CreateOrderSubmittedDirect(fbb, "nelson", "BR1FL.commander", "BR1FL", fb::OrderBody_WrittenOrder,
                                              body.Union());
      return PayloadRef{fb::Payload_OrderSubmitted, o.o};
    }
    auto o = fb::CreateOrderRejectedDirect(fbb, s.values[0], "TEST 2.2", s.text.c_str());
    return PayloadRef{fb::Payload_OrderRejected, o.o};
  };
  return d;
}

std::vector<Draft> ToDrafts(const std::vector<EventSpec>& specs) {
  std::vector<Draft> out;
  for (const auto& s : specs) out.push_back(ToDraft(s));
  return out;
}

std::string Mismatch(const EventSpec& s, const fb::Event& e) {
  auto str = [](const flatbuffers::String* x) { return x ? x->str() : std::string(); };
  TurnPhase at{schema::TurnOf(e.turn()), e.phase()};
  if (at != s.at) return "turn/phase differ";
  if (static_cast<ActorKind>(e.actor()->kind()) != s.actor.kind || str(e.actor()->person()) != s.actor.person ||
      str(e.actor()->role()) != s.actor.role) {
    return "actor differs";
  }
  if (e.schema_hash() != schema::SchemaHash()) return "schema hash differs";
  switch (s.kind) {
    case EventSpec::Kind::kRoll: {
      auto* d = e.payload_as_DieRolled();
      if (!d) return "not DieRolled";
      if (str(d->purpose()) != s.text || d->sides() != s.sides || d->count() != s.values.size()) return "roll differs";
      std::vector<uint32_t> r(d->results()->begin(), d->results()->end());
      return r == s.values ? "" : "results differ";
    }
    case EventSpec::Kind::kRuling: {
      auto* d = e.payload_as_Directive();
      if (!d || !d->body_as_Ruling()) return "not a Ruling";
      return str(d->body_as_Ruling()->text()) == s.text && str(d->reason()) == "because " + s.text ? "" : "ruling differs";
    }
    case EventSpec::Kind::kPhaseStarted: {
      auto* p = e.payload_as_PhaseStarted();
      return p && str(p->name()) == s.text ? "" : "phase start differs";
    }
    case EventSpec::Kind::kPhaseCompleted: {
      auto* p = e.payload_as_PhaseCompleted();
      if (!p || str(p->name()) != s.text || p->digests()->size() != 1) return "phase completion differs";
      auto* d = p->digests()->Get(0);
      return d->digest()->hi() == s.values[0] && d->digest()->lo() == s.values[1] ? "" : "digest differs";
    }
    case EventSpec::Kind::kOrder: {
      auto* o = e.payload_as_OrderSubmitted();
      if (!o || !o->body_as_WrittenOrder()) return "not an order";
      return str(o->body_as_WrittenOrder()->text()) == s.text && str(e.ruleset()) == "sow" && e.rules_version() == 1
                 ? ""
                 : "order differs";
    }
    case EventSpec::Kind::kRejected: {
      auto* o = e.payload_as_OrderRejected();
      return o && o->order_seq() == s.values[0] && str(o->reason()) == s.text ? "" : "rejection differs";
    }
  }
  return "unknown kind";
}

}  // namespace adjutant::testing
