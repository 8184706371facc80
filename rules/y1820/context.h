// What the y1820 rules share while they write a phase or a submission: the
// state as the events so far left it, the dice (every roll recorded with
// its purpose and section), and builders for the outcome events. Internal
// to rules/y1820.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "rules/dice.h"
#include "rules/phase_writer.h"
#include "rules/y1820/y1820.h"
#include "schema/event_generated.h"

namespace adjutant::rules::y1820 {

using Fbb = flatbuffers::FlatBufferBuilder;

class Ctx {
 public:
  Ctx(PhaseWriter& w, TurnPhase at, DiceSource* dice) : w_(w), at_(at), dice_(dice) {}

  // The state now (never hold a reference across an Emit).
  const projections::Y1820State& s() const { return w_.y1820(); }
  const TurnPhase& at() const { return at_; }
  PhaseWriter& writer() { return w_; }
  // The game's y1820 rules version (rules/versions.cc): every gate reads it here.
  uint32_t version() const { return w_.rules_versions().Of(kRuleset); }
  // Y8.3 (version 3): fleets that have escorted this turn, by (sea zone,
  // owner), across every nation's moves; never read beyond the fleets there.
  std::map<std::pair<std::string, std::string>, int32_t>& escorts_spent() { return escorts_spent_; }

  // At the context's turn and phase; the kind puts the writer under y1820.
  Draft Tagged(Draft d) const {
    d.at = at_;
    return d;
  }

  template <class F>
  void Emit(F body) {
    Draft d = Tagged(Draft{});
    d.payload = [body = std::move(body)](Fbb& f) {
      auto [type, off] = body(f);
      auto e = fb::CreateY1820Event(f, static_cast<fb::Y1820EventBody>(type), flatbuffers::Offset<void>(off));
      return PayloadRef{fb::Payload_Y1820Event, e.o};
    };
    w_.Emit(std::move(d));
  }

  void Reject(uint64_t order_seq, const std::string& rule, const std::string& reason) {
    Draft d = Tagged(Draft{});
    d.payload = [order_seq, rule, reason](Fbb& f) {
      auto r = fb::CreateOrderRejectedDirect(f, order_seq, rule.c_str(), reason.c_str());
      return PayloadRef{fb::Payload_OrderRejected, r.o};
    };
    w_.Emit(std::move(d));
  }

  // One die of `sides`, recorded.
  Result<int> Die(const std::string& subject, const std::string& purpose, const std::string& rule, uint32_t sides) {
    if (!dice_) return Status::InvalidArgument("a roll outside adjudication");
    RollRequest req{at_, subject, purpose, rule, sides, 1};
    auto r = dice_->Next(req);
    if (!r.ok()) return r.status();
    Draft d = Tagged(DieRolledDraft(*r, Actor{}));
    w_.Emit(std::move(d));
    return static_cast<int>(r->results.at(0));
  }

 private:
  PhaseWriter& w_;
  TurnPhase at_;
  DiceSource* dice_;
  std::map<std::pair<std::string, std::string>, int32_t> escorts_spent_;
};

// A union member's (type, offset) for Ctx::Emit.
template <class T>
std::pair<uint8_t, uint32_t> Body(flatbuffers::Offset<T> off) {
  return {static_cast<uint8_t>(fb::Y1820EventBodyTraits<T>::enum_value), off.o};
}

}  // namespace adjutant::rules::y1820
