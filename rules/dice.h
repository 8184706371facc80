// Dice (ARCHITECTURE I5). A counter-based roll derives from XXH3-64 of
// (game seed, branch dice salt, turn, phase, subject, purpose, index), so
// the same coordinates always give the same result and nothing depends on
// call order across streams. A scripted source reads values from a file
// for tests, conformance cases and rolls made by hand. Either way every
// roll becomes a DieRolled event naming its purpose and rule.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "base/counter_dice.h"
#include "base/status.h"
#include "base/turn.h"
#include "schema/draft.h"

namespace adjutant::rules {

struct RollRequest {
  TurnPhase at;
  std::string subject;  // what the roll is about: a ship, a battle, "" for none
  std::string purpose;  // e.g. "detection", "storm"
  std::string rule;     // e.g. "PATE 5.2"
  uint32_t sides = 6;
  uint32_t count = 1;
};

struct Roll {
  RollRequest request;
  uint32_t index = 0;  // index of the first die in its stream
  std::vector<uint32_t> results;
  bool scripted = false;
  uint32_t total() const;
};

class DiceSource {
 public:
  virtual ~DiceSource() = default;
  virtual Result<Roll> Next(const RollRequest& req) = 0;
};

// The value of die `index` of a stream (base/counter_dice.h).
using adjutant::CounterDie;

class CounterDice final : public DiceSource {
 public:
  CounterDice(uint64_t seed, uint64_t salt) : seed_(seed), salt_(salt) {}
  // Tells the source that `dice` dice of this stream are already recorded
  // (a process that resumes a phase continues the stream, not restarts it).
  void Skip(const TurnPhase& at, std::string_view subject, std::string_view purpose, uint32_t dice);
  Result<Roll> Next(const RollRequest& req) override;

 private:
  using Stream = std::tuple<TurnPhase, std::string, std::string>;
  uint64_t seed_;
  uint64_t salt_;
  std::map<Stream, uint32_t> next_;  // ordered: no hash-order dependence
};

class ScriptedDice final : public DiceSource {
 public:
  // Values are whitespace-separated decimal integers; '#' starts a comment.
  static Result<ScriptedDice> Parse(std::string_view text, std::string_view filename);
  Result<Roll> Next(const RollRequest& req) override;
  size_t remaining() const { return values_.size() - pos_; }

 private:
  struct Value { uint32_t v; uint32_t line; };
  std::string filename_;
  std::vector<Value> values_;
  size_t pos_ = 0;
};

// The DieRolled event for a roll.
Draft DieRolledDraft(const Roll& roll, const Actor& actor);

// Validates a request at the edge: sides and count within limits, purpose
// and rule named.
Status CheckRollRequest(const RollRequest& req);

}  // namespace adjutant::rules
