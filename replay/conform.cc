#include "replay/conform.h"

#include <flatbuffers/flatbuffers.h>

#include "ledger/ledger.h"
#include "replay/driver.h"
#include "replay/views.h"
#include "rules/dice.h"
#include "rules/pate/map.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"

namespace adjutant::replay {

namespace {

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
  TurnPhase at;
  if (sc->start()) at.turn = {sc->start()->major(), sc->start()->minor(), sc->start()->step()};
  std::vector<Draft> more;
  if (c.map()) {
    auto map = AsRoot("NavalMap", c.map());
    auto loaded = rules::pate::NavalMap::Load(*flatbuffers::GetRoot<fb::NavalMap>(map.data()));
    if (!loaded.ok()) return Status::InvalidArgument("map: " + loaded.status().message());
    ADJ_RETURN_IF_ERROR(rules::pate::CheckScenarioAgainstMap(*sc, *loaded));
    more.push_back(rules::pate::MapDefinedDraft(at, std::move(map)));
  }
  auto created = db.CreateGame(game, c.seed(), scenario, at, Actor{ActorKind::kGameAdministrator, "", ""}, more);
  if (!created.ok()) return Status::InvalidArgument("scenario: " + created.status().message());
  std::optional<CaseDice> dice;
  if (c.dice()) dice.emplace(std::vector<uint32_t>(c.dice()->begin(), c.dice()->end()));
  for (flatbuffers::uoffset_t i = 0; c.steps() && i < c.steps()->size(); ++i) {
    const auto* step = c.steps()->Get(i);
    const std::string where = "steps[" + std::to_string(i) + "]";
    if (step->orders()) {
      if (!step->person()) return Status::InvalidArgument(where + ".person: who sends the orders?");
      auto r = SubmitOrders(db, game, "main", step->person()->str(), AsRoot("OrderFile", step->orders()));
      if (!r.ok()) return Status::InvalidArgument(where + ".orders: " + r.status().message());
    } else if (step->directive()) {
      auto r = RecordDirective(db, game, "main", AsRoot("DirectiveFile", step->directive()));
      if (!r.ok()) return Status::InvalidArgument(where + ".directive: " + r.status().message());
    } else if (step->adjudicate()) {
      std::string what = step->adjudicate()->str();
      if (what != "phase" && what != "turn") return Status::InvalidArgument(where + ".adjudicate: \"phase\" or \"turn\"");
      auto r = Adjudicate(db, game, "main", what == "phase" ? AdjudicateMode::kPhase : AdjudicateMode::kTurn, 1,
                          std::nullopt, dice ? &*dice : nullptr);
      if (!r.ok()) return Status::InvalidArgument(where + ".adjudicate: " + r.status().message());
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
  return res;
}

}  // namespace adjutant::replay
