#include "rules/dice.h"

#include <charconv>

#include "base/hash.h"
#include "base/limits.h"
#include "schema/event_generated.h"

namespace adjutant::rules {

uint32_t Roll::total() const {
  uint32_t t = 0;
  for (uint32_t r : results) t += r;
  return t;
}

Status CheckRollRequest(const RollRequest& req) {
  if (req.sides < 2 || req.sides > limits::kDiceSidesMax) {
    return Status::InvalidArgument("sides must be 2.." + std::to_string(limits::kDiceSidesMax) + ", not " +
                                   std::to_string(req.sides));
  }
  if (req.count < 1 || req.count > limits::kDicePerRollMax) {
    return Status::InvalidArgument("count must be 1.." + std::to_string(limits::kDicePerRollMax) + ", not " +
                                   std::to_string(req.count));
  }
  if (req.purpose.empty()) return Status::InvalidArgument("a roll needs a purpose");
  if (req.rule.empty()) return Status::InvalidArgument("a roll needs the rule it serves");
  return Status::Ok();
}

void CounterDice::Skip(const TurnPhase& at, std::string_view subject, std::string_view purpose, uint32_t dice) {
  next_[Stream{at, std::string(subject), std::string(purpose)}] += dice;
}

Result<Roll> CounterDice::Next(const RollRequest& req) {
  ADJ_RETURN_IF_ERROR(CheckRollRequest(req));
  uint32_t& next = next_[Stream{req.at, req.subject, req.purpose}];
  Roll r;
  r.request = req;
  r.index = next;
  for (uint32_t i = 0; i < req.count; ++i) {
    r.results.push_back(CounterDie(seed_, salt_, req.at, req.subject, req.purpose, next + i, req.sides));
  }
  next += req.count;
  return r;
}

Result<ScriptedDice> ScriptedDice::Parse(std::string_view text, std::string_view filename) {
  if (text.size() > limits::kScriptFileBytesMax) {
    return Status::InvalidArgument(std::string(filename) + ": over the limit of " +
                                   std::to_string(limits::kScriptFileBytesMax) + " bytes");
  }
  ScriptedDice d;
  d.filename_ = std::string(filename);
  uint32_t line = 1;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '\n') { ++line; ++i; continue; }
    if (c == ' ' || c == '\t' || c == '\r') { ++i; continue; }
    if (c == '#') { while (i < text.size() && text[i] != '\n') ++i; continue; }
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\r' && text[j] != '\n' &&
           text[j] != '#') {
      ++j;
    }
    std::string_view tok = text.substr(i, j - i);
    uint32_t v = 0;
    auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (ec != std::errc() || end != tok.data() + tok.size() || v == 0) {
      return Status::InvalidArgument(std::string(filename) + ":" + std::to_string(line) + ": '" +
                                     std::string(tok) + "' is not a die result (a whole number from 1)");
    }
    d.values_.push_back({v, line});
    i = j;
  }
  return d;
}

Result<Roll> ScriptedDice::Next(const RollRequest& req) {
  ADJ_RETURN_IF_ERROR(CheckRollRequest(req));
  if (remaining() < req.count) {
    return Status::InvalidArgument(filename_ + ": no scripted value left for the roll '" + req.purpose + "' (" +
                                   req.rule + "): it needs " + std::to_string(req.count) + ", " +
                                   std::to_string(remaining()) + " left");
  }
  Roll r;
  r.request = req;
  r.scripted = true;
  for (uint32_t i = 0; i < req.count; ++i) {
    const Value& v = values_[pos_ + i];
    if (v.v > req.sides) {
      return Status::InvalidArgument(filename_ + ":" + std::to_string(v.line) + ": " + std::to_string(v.v) +
                                     " is not a d" + std::to_string(req.sides) + " result (roll '" +
                                     req.purpose + "', " + req.rule + ")");
    }
    r.results.push_back(v.v);
  }
  r.index = static_cast<uint32_t>(pos_);
  pos_ += req.count;
  return r;
}

Draft DieRolledDraft(const Roll& roll, const Actor& actor) {
  Draft d;
  d.at = roll.request.at;
  d.actor = actor;
  d.payload = [roll](flatbuffers::FlatBufferBuilder& fbb) {
    auto purpose = fbb.CreateString(roll.request.purpose);
    auto rule = fbb.CreateString(roll.request.rule);
    auto subject = roll.request.subject.empty() ? 0 : fbb.CreateString(roll.request.subject);
    auto results = fbb.CreateVector(roll.results);
    auto p = fb::CreateDieRolled(fbb, purpose, rule, subject, roll.request.sides, roll.request.count, roll.index,
                                 results, roll.scripted);
    return PayloadRef{fb::Payload_DieRolled, p.o};
  };
  return d;
}

}  // namespace adjutant::rules
