#include "replay/conform.h"

#include "replay/create.h"

#include <flatbuffers/flatbuffers.h>

#include <set>

#include "ledger/ledger.h"
#include "replay/driver.h"
#include "replay/views.h"
#include "rules/dice.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"

namespace adjutant::replay {

namespace {

// A step's `times` at most: a y1820 game is 253 turns (turn 0 to 1840.12); a step
// need not be more, and a case stays quick to play (and to fuzz).
constexpr uint32_t kMaxAdjudicationsPerStep = 300;

// A nested table as a buffer of its own, with `type` at its root.
std::vector<uint8_t> AsRoot(const char* type, const void* table) {
  flatbuffers::FlatBufferBuilder f;
  f.Finish(flatbuffers::Offset<void>(schema::CopyTable(f, type, table)));
  return std::vector<uint8_t>(f.GetBufferPointer(), f.GetBufferPointer() + f.GetSize());
}

// Scripted dice from the case: each roll takes the next values, in order.
class CaseDice final : public rules::DiceSource {
 public:
  explicit CaseDice(std::vector<uint32_t> values) : values_(std::move(values)) {}
  Result<rules::Roll> Next(const rules::RollRequest& req) override {
    rules::Roll r;
    r.request = req;
    r.scripted = true;
    for (uint32_t i = 0; i < req.count; ++i) {
      if (pos_ >= values_.size()) {
        return Status::InvalidArgument("dice: the case's " + std::to_string(values_.size()) + " values are used up by the roll for " +
                                       req.purpose + " (" + req.rule + ")");
      }
      uint32_t v = values_[pos_++];
      if (v < 1 || v > req.sides) {
        return Status::InvalidArgument("dice[" + std::to_string(pos_ - 1) + "]: " + std::to_string(v) + " is not a d" +
                                       std::to_string(req.sides) + " for " + req.purpose + " (" + req.rule + ")");
      }
      r.results.push_back(v);
    }
    return r;
  }

 private:
  std::vector<uint32_t> values_;
  size_t pos_ = 0;
};

}  // namespace

Result<CaseResult> RunCase(const fb::ConformanceCase& c, const std::string& scratch_dir) {
  CaseResult res;
  res.name = c.name()->str();
  if (c.rules()) for (const auto* r : *c.rules()) res.rules.push_back(r->str());
  auto opened = ledger::Ledger::Open(scratch_dir);
  if (!opened.ok()) return opened.status();
  ledger::Ledger& db = **opened;
  const std::string game = "case";
  auto scenario = AsRoot("Scenario", c.scenario());
  const auto* sc = flatbuffers::GetRoot<fb::Scenario>(scenario.data());
  // The checks `adjutant new` applies.
  std::optional<std::vector<uint8_t>> map;
  // The case's map field of the table the game's kind takes.
  auto kind = KindOfScenario(*sc);
  if (!kind.ok()) return Status::InvalidArgument("scenario: " + kind.status().message());
  const std::string_view table = (*kind)->MapTable();
  if (table == "Y1820Map" && c.y1820_map()) map = AsRoot("Y1820Map", c.y1820_map());
  if (table == "NavalMap" && c.map()) map = AsRoot("NavalMap", c.map());
  bool map_error = false;
  auto start = PrepareGame(*sc, std::move(map), &map_error);
  if (!start.ok()) {
    return Status::InvalidArgument(std::string(map_error ? "map: " : "scenario: ") + start.status().message());
  }
  TurnPhase at = start->at;
  std::vector<Draft> more = std::move(start->more);
  // The rules versions the case is played under: the game is created under
  // them (`new --rules-version`), so every step is judged under them, the
  // orders and directives before its first phase too; the newest by default.
  VersionPins pins;
  if (c.rules_version()) {
    auto v = PinVersions(**kind, c.rules_version()->str());
    if (!v.ok()) return Status::InvalidArgument("rules_version: " + v.status().message());
    pins = std::move(v).value();
    StampPinned(more, pins);
  }
  auto created = db.CreateGame(game, c.seed(), scenario, at, Actor{ActorKind::kGameAdministrator, "", ""}, more, {},
                               pins);
  if (!created.ok()) return Status::InvalidArgument("scenario: " + created.status().message());
  std::optional<CaseDice> dice;
  if (c.dice()) dice.emplace(std::vector<uint32_t>(c.dice()->begin(), c.dice()->end()));
  for (flatbuffers::uoffset_t i = 0; c.steps() && i < c.steps()->size(); ++i) {
    const auto* step = c.steps()->Get(i);
    const std::string where = "steps[" + std::to_string(i) + "]";
    // A step the case says is refused must be refused naming its rule, and
    // append nothing.
    auto refused = [&](const Status& st, const std::string& what) -> Status {
      if (!step->refused()) {
        return st.ok() ? Status::Ok() : Status::InvalidArgument(where + "." + what + ": " + st.message());
      }
      if (st.ok()) {
        return Status::InvalidArgument(where + ".refused: the step was accepted; the case expects it refused under " +
                                       step->refused()->str());
      }
      if (st.message().find(step->refused()->str()) == std::string::npos) {
        return Status::InvalidArgument(where + ".refused: refused, but not under " + step->refused()->str() + ": " +
                                       st.message());
      }
      return Status::Ok();
    };
    if (step->orders()) {
      if (!step->person()) return Status::InvalidArgument(where + ".person: who sends the orders?");
      auto r = SubmitOrders(db, game, "main", step->person()->str(), AsRoot("OrderFile", step->orders()));
      ADJ_RETURN_IF_ERROR(refused(r.ok() ? Status::Ok() : r.status(), "orders"));
    } else if (step->directive()) {
      auto r = RecordDirective(db, game, "main", AsRoot("DirectiveFile", step->directive()));
      ADJ_RETURN_IF_ERROR(refused(r.ok() ? Status::Ok() : r.status(), "directive"));
    } else if (step->adjudicate()) {
      std::string what = step->adjudicate()->str();
      if (what != "phase" && what != "turn") return Status::InvalidArgument(where + ".adjudicate: \"phase\" or \"turn\"");
      const uint32_t times = step->times();
      if (times < 1 || times > kMaxAdjudicationsPerStep) {
        return Status::InvalidArgument(where + ".times: 1 to " + std::to_string(kMaxAdjudicationsPerStep));
      }
      for (uint32_t n = 1; n <= times; ++n) {
        auto r = Adjudicate(db, game, "main", what == "phase" ? AdjudicateMode::kPhase : AdjudicateMode::kTurn, 1,
                            std::nullopt, dice ? &*dice : nullptr);
        if (!r.ok()) {
          return Status::InvalidArgument(where + ".adjudicate" + (times > 1 ? " (" + std::to_string(n) + " of " +
                                                                              std::to_string(times) + ")" : "") +
                                         ": " + r.status().message());
        }
      }
    } else {
      return Status::InvalidArgument(where + ": orders, a directive or an adjudication");
    }
  }
  auto w = Fold(db, game, "main");
  if (!w.ok()) return w.status();
  auto views = Flatten(*w);
  for (flatbuffers::uoffset_t i = 0; c.expect() && i < c.expect()->size(); ++i) {
    const auto* e = c.expect()->Get(i);
    ViewKey key{e->view()->str(), e->entity()->str(), e->field()->str()};
    auto it = views.find(key);
    std::string got = it == views.end() ? "(absent)" : it->second;
    if (got != e->value()->str()) {
      res.differences.push_back(std::get<0>(key) + " " + std::get<1>(key) + " " + std::get<2>(key) + ": expected \"" +
                                e->value()->str() + "\", got \"" + got + "\"");
    }
  }
  // The events the case expects.
  if (c.expect_events() && c.expect_events()->size() > 0) {
    std::vector<std::pair<std::string, std::string>> events;  // kind(s), JSON
    ADJ_RETURN_IF_ERROR(db.Read(game, "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
      auto json = schema::ToJson("Event", e.bytes.data());
      if (!json.ok()) return json.status();
      events.emplace_back(" " + schema::PayloadKind(*e.event()) + " " + schema::EventKind(*e.event()) + " ", *json);
      return Status::Ok();
    }));
    for (flatbuffers::uoffset_t i = 0; i < c.expect_events()->size(); ++i) {
      const auto* x = c.expect_events()->Get(i);
      const std::string kind = x->kind()->str();
      int found = 0;
      for (const auto& [kinds, json] : events) {
        if (kinds.find(" " + kind + " ") == std::string::npos) continue;
        bool all = true;
        for (flatbuffers::uoffset_t k = 0; x->contains() && k < x->contains()->size() && all; ++k) {
          all = json.find(x->contains()->Get(k)->str()) != std::string::npos;
        }
        found += all;
      }
      std::string what = "expect_events[" + std::to_string(i) + "] " + kind;
      for (flatbuffers::uoffset_t k = 0; x->contains() && k < x->contains()->size(); ++k) {
        what += (k ? ", " : " containing ") + std::string("\"") + x->contains()->Get(k)->str() + "\"";
      }
      if (x->count() < 0 && found == 0) res.differences.push_back(what + ": expected at least one, got none");
      if (x->count() >= 0 && found != x->count()) {
        res.differences.push_back(what + ": expected " + std::to_string(x->count()) + ", got " + std::to_string(found));
      }
    }
  }
  return res;
}

}  // namespace adjutant::replay
