#include <algorithm>

#include <flatbuffers/flatbuffers.h>

#include "ops/internal.h"
#include "replay/dice_commit.h"
#include "schema/codec.h"

namespace adjutant::ops {

Env On(ledger::Ledger& db) {
  Env env;
  env.open = [&db](bool) -> Result<std::shared_ptr<ledger::Ledger>> {
    return std::shared_ptr<ledger::Ledger>(&db, [](ledger::Ledger*) {});
  };
  env.dir = db.dir();
  return env;
}

Status Printer::Json(std::string_view table, flatbuffers::FlatBufferBuilder& fbb) {
  auto j = schema::ToJson(table, fbb.GetBufferPointer());
  if (!j.ok()) return j.status();
  Line(*j);
  return Status::Ok();
}

std::string BranchOf(const Env& env, const Opt& branch, const std::string& game) {
  if (branch) return *branch;
  auto db = env.open(false);
  if (db.ok()) {
    auto current = (*db)->Current(game);
    if (current.ok()) return *current;
  }
  return "main";
}

Result<uint64_t> Count(const std::string& name, const Opt& value, uint64_t fallback) {
  if (!value) return fallback;
  auto n = ParseU64(*value);
  if (!n) return Status::InvalidArgument("--" + name + ": '" + *value + "' is not a whole number");
  return *n;
}

Result<std::vector<uint64_t>> ParseSeqList(const std::string& field, const std::string& text) {
  std::vector<uint64_t> seqs;
  size_t at = 0;
  while (at <= text.size()) {
    size_t comma = text.find(',', at);
    std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    auto q = ParseU64(item);
    if (!q || *q == 0) {
      return Status::InvalidArgument(field + ": '" + item + "' is not a sequence number (SEQ[,SEQ...])");
    }
    seqs.push_back(*q);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return seqs;
}

std::optional<TurnPhase> ParseTurnPhase(const std::string& s) {
  size_t dots = std::count(s.begin(), s.end(), '.');
  if (dots == 1 || dots == 2) {
    auto t = Turn::Parse(s);
    if (t) return TurnPhase{*t, 0};
    return std::nullopt;
  }
  if (dots != 3) return std::nullopt;
  size_t last = s.rfind('.');
  auto t = Turn::Parse(s.substr(0, last));
  auto p = ParseU64(s.substr(last + 1));
  if (!t || !p || *p > 0xffff) return std::nullopt;
  return TurnPhase{*t, static_cast<uint16_t>(*p)};
}

std::string TurnPhaseText(const TurnPhase& at) {
  return std::to_string(at.turn.major) + "." + std::to_string(at.turn.minor) + "." + std::to_string(at.turn.step) + "." +
         std::to_string(at.phase);
}

Result<Turn> TurnOption(const std::string& field, const std::string& text) {
  auto turn = Turn::Parse(text);
  if (!turn) return Status::InvalidArgument(field + ": '" + text + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
  return *turn;
}

Result<std::string> SaltOf(const std::string& text, const std::string& from) {
  const std::string name = from == "-" ? "standard input" : from;
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (!replay::CommitmentOf(line).ok()) return Status::InvalidArgument(name + ": line 1: a salt is 32 to 128 hex digits");
  return line;
}

}  // namespace adjutant::ops
