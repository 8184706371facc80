// D12: a side's orders for the coming move, and the checks of a battle.
#include <algorithm>
#include <map>

#include "rules/intake.h"
#include "rules/dog/charts.h"
#include "rules/dog/dog.h"

#include "projections/roster.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"

namespace adjutant::rules::dog {

namespace P = projections;

TurnPhase OrderPosition(const P::BattleState& s) { return TurnPhase{P::DogMove(s.moves_done + 1), 0}; }

std::optional<std::string> SideOf(const P::BattleState& s, const std::set<std::string>& roles,
                                  const std::string& asked_role) {
  return P::HolderOf(roles, "general", asked_role, [&](const std::string& side) {
    return std::find(s.sides.begin(), s.sides.end(), side) != s.sides.end();
  });
}

bool IsLinear(uint8_t k) {
  return k == fb::DogTerrainKind_Stream || k == fb::DogTerrainKind_FordableRiver || k == fb::DogTerrainKind_LowWall ||
         k == fb::DogTerrainKind_HighWall;
}

int Frontage(const P::DogUnitState& u) {
  if (u.frontage > 0) return u.frontage;
  const auto arm = static_cast<fb::DogArm>(u.arm);
  const auto f = static_cast<fb::DogFormation>(u.formation);
  const int men = std::max(u.strength, 1);
  if (IsArtillery(arm)) return std::max(20, 20 * (men / kMenPerGun));  // 20 mm a gun
  if (arm == fb::DogArm_Skirmishers || f == fb::DogFormation_Skirmish) return std::max(20, 2 * men);
  if (IsCavalry(arm)) return f == fb::DogFormation_Line ? std::max(20, men / 2) : 30;
  const int ranks = u.ranks > 0 ? u.ranks : u.nation == fb::DogNation_British ? 2 : 3;
  const int files = men / ranks;
  switch (f) {
    case fb::DogFormation_Line: return std::max(20, files * kMmPerFileTenths / 10);
    case fb::DogFormation_ColumnOfDivisions: return 60;
    case fb::DogFormation_Square: return std::max(20, files / 4 * kMmPerFileTenths / 10);
    default: return 20;
  }
}

std::optional<std::pair<std::string, std::string>> Refusal(const P::BattleState& s, const std::string& side,
                                                           const fb::DogIntent& i, uint32_t version) {
  using R = std::pair<std::string, std::string>;
  const std::string id = i.unit()->str();
  const P::DogUnitState* u = s.Unit(id);
  if (!u) return R{"D12.2", "there is no unit '" + id + "' in this battle"};
  if (u->side != side) return R{"D12.2", id + " is not a unit of the " + side + " side"};
  if (u->gone) return R{"D12.2", id + " is no longer on the table"};
  const auto arm = static_cast<fb::DogArm>(u->arm);
  if (i.reform() && version < kFlanksVersion) {
    return R{"D1.8", "re-forming by order comes with dog rules version 2; this battle runs version " +
                         std::to_string(version)};
  }
  if (version >= kFlanksVersion && u->changing_to >= 0 && (i.change_formation() || i.reform())) {
    return R{"D1", id + " is still changing to " +
                       fb::EnumNameDogFormation(static_cast<fb::DogFormation>(u->changing_to)) + " (" +
                       std::to_string(u->change_done) + " of " + std::to_string(u->change_time) + " quarters done)"};
  }
  if (u->reform_time > 0 && (i.change_formation() || i.reform())) {
    return R{u->cohesion == fb::DogCohesion_Disordered ? "D1.9" : "D1.8", id + " is still re-forming (" +
                 std::to_string(u->reform_done) + " of " +
                         std::to_string(u->reform_time) + " quarters done)"};
  }
  if (i.reform()) {
    if (u->cohesion == fb::DogCohesion_Formed) return R{"D1.8", id + " is formed: it has nothing to re-form"};
    if (i.change_formation()) return R{"D1.8", id + " cannot re-form and change formation in one move"};
  }
  if (i.change_formation()) {
    const auto to = i.formation();
    if (to == u->formation) return R{"D1", id + " is already in " + fb::EnumNameDogFormation(to)};
    if (!FormationChangeQuarters(static_cast<fb::DogNation>(u->nation), arm, static_cast<fb::DogFormation>(u->formation), to)) {
      return R{"D1", std::string("the charts give ") + fb::EnumNameDogArm(arm) + " no change from " +
                         fb::EnumNameDogFormation(static_cast<fb::DogFormation>(u->formation)) + " to " +
                         fb::EnumNameDogFormation(to)};
    }
  }
  if (i.path()) {
    for (const auto* p : *i.path()) {
      if (p->x() < 0 || p->y() < 0 || p->x() > s.width || p->y() > s.height) {
        return R{"D2", "the path leaves the table at (" + std::to_string(p->x()) + ", " + std::to_string(p->y()) + ")"};
      }
    }
  }
  if (i.charge() && i.charge()->size()) {
    const P::DogUnitState* t = s.Unit(i.charge()->str());
    if (!t || t->gone) return R{"D5", "there is no unit '" + i.charge()->str() + "' to charge"};
    if (t->side == side) return R{"D5", i.charge()->str() + " is a unit of its own side"};
    if (IsArtillery(arm)) return R{"D5", "a battery does not charge"};
  }
  if (i.face() >= 360 || i.face() < -1) return R{"D1", "facing " + std::to_string(i.face()) + " is not 0-359 degrees"};
  if (i.hold() && ((i.path() && i.path()->size()) || (i.charge() && i.charge()->size()))) {
    return R{"D12.2", id + " cannot both hold and move"};
  }
  return std::nullopt;
}

void Submit(PhaseWriter& w, const TurnPhase& at, const std::string& person, const std::string& role,
            const std::string& side, const std::vector<const fb::OrderItem*>& items) {
  const uint32_t rules = w.rules_versions().Of(kRuleset);  // decides what is refused
  OrderJudge judge;
  judge.arrives = [&](const PhaseWriter& now, const fb::OrderItem& item) {
    OrderJudgement j;
    j.slot = side;
    // The intention it replaces, if any (D12.2: the last for a unit stands).
    const fb::DogOrder* dord = item.body_as_DogOrder();
    if (const fb::DogIntent* intent = dord ? dord->body_as_DogIntent() : nullptr) {
      auto it = now.battle().intents.find(intent->unit()->str());
      if (it != now.battle().intents.end()) j.replaces = it->second.seq;
    }
    return j;
  };
  // Refused against the battle with the order in it.
  judge.recorded = [&](const PhaseWriter& now, const fb::OrderItem& item, uint64_t, OrderJudgement& j) {
    const fb::DogOrder* dord = item.body_as_DogOrder();
    const fb::DogIntent* intent = dord ? dord->body_as_DogIntent() : nullptr;
    std::optional<std::pair<std::string, std::string>> refusal;
    if (!intent) refusal = std::pair<std::string, std::string>{"D12.2", "a battle takes dog orders (DogOrder)"};
    if (!refusal) refusal = Refusal(now.battle(), side, *intent, rules);
    if (refusal) {
      j.rule = refusal->first;
      j.reason = refusal->second;
    }
  };
  // Issue 20: the general withdraws the intentions he gave for the coming
  // move: one unit's (the slot names it) or his side's all (the slot names
  // the side). The unit then does as one given none (D12.2).
  judge.withdraws = [&](const PhaseWriter& now, const std::string&, const std::string& slot,
                        std::vector<uint64_t>* orders) {
    OrderJudgement j;
    for (const auto& [unit, intent] : now.battle().intents) {
      if (intent.side == side && (slot == side || slot == unit)) orders->push_back(intent.seq);
    }
    if (orders->empty()) {
      j.rule = "D12.2";
      j.reason = slot == side ? side + " has no intention standing for this move"
                              : "no intention of " + side + " stands for '" + slot + "' this move";
    }
    return j;
  };
  IntakeOrders(w, at, OrderSender{person, role, std::string(kRuleset)}, items, judge);
}

Status CheckScenario(const fb::Scenario& sc) {
  const fb::DogBattle* b = sc.dog();
  if (!b) return Status::InvalidArgument("dog: the scenario has no battle (a DogBattle)");
  if (sc.rulesets()->size() != 1) return Status::InvalidArgument("rulesets: a dog battle runs alone");
  if (b->width() <= 0 || b->height() <= 0) return Status::InvalidArgument("dog.width, dog.height: the table has no size");
  if (b->moves() < 1) return Status::InvalidArgument("dog.moves: a battle lasts at least one move");
  std::set<std::string> sides;
  if (b->sides()) for (const auto* s : *b->sides()) sides.insert(s->str());
  if (sides.size() != 2) return Status::InvalidArgument("dog.sides: a battle has two sides");
  std::set<std::string> generals;
  if (sc.players()) {
    for (const auto* p : *sc.players()) {
      if (p->roles()) for (const auto* r : *p->roles()) generals.insert(r->str());
    }
  }
  for (const std::string& s : sides) {
    if (!generals.count(s + ".general")) return Status::InvalidArgument("players: no one holds the role " + s + ".general");
  }
  auto inside = [&](int x, int y) { return x >= 0 && y >= 0 && x <= b->width() && y <= b->height(); };
  std::map<std::string, std::string> commanders;
  if (b->commanders()) {
    for (flatbuffers::uoffset_t i = 0; i < b->commanders()->size(); ++i) {
      const auto* c = b->commanders()->Get(i);
      std::string at = "dog.commanders[" + std::to_string(i) + "]";
      if (!sides.count(c->side()->str())) return Status::InvalidArgument(at + ".side: no side '" + c->side()->str() + "'");
      if (!commanders.emplace(c->id()->str(), c->side()->str()).second) {
        return Status::InvalidArgument(at + ".id: '" + c->id()->str() + "' twice");
      }
      if (!inside(c->x(), c->y())) return Status::InvalidArgument(at + ": off the table");
    }
  }
  if (!b->units() || b->units()->size() == 0) return Status::InvalidArgument("dog.units: a battle needs units");
  std::set<std::string> ids;
  for (flatbuffers::uoffset_t i = 0; i < b->units()->size(); ++i) {
    const auto* u = b->units()->Get(i);
    std::string at = "dog.units[" + std::to_string(i) + "]";
    const std::string id = u->id()->str();
    if (id.empty() || !ids.insert(id).second) return Status::InvalidArgument(at + ".id: '" + id + "' is empty or twice");
    if (!sides.count(u->side()->str())) return Status::InvalidArgument(at + ".side: no side '" + u->side()->str() + "'");
    if (!inside(u->x(), u->y())) {
      return Status::InvalidArgument(at + ": (" + std::to_string(u->x()) + ", " + std::to_string(u->y()) + ") is off the table");
    }
    if (u->strength() <= 0) return Status::InvalidArgument(at + ".strength: a unit has men");
    if (u->morale() < 1 || u->morale() > 10) return Status::InvalidArgument(at + ".morale: a morale factor is 1-10 (D6)");
    if (u->facing() < 0 || u->facing() >= 360) return Status::InvalidArgument(at + ".facing: 0-359 degrees");
    if (u->ranks() < 0 || u->ranks() > 4) return Status::InvalidArgument(at + ".ranks: 0 (the nation's) or 1-4 ranks (D4.17)");
    const bool battery = IsArtillery(u->arm());
    const bool battery_formation = u->formation() == fb::DogFormation_Limbered || u->formation() == fb::DogFormation_Unlimbered;
    if (battery != battery_formation) {
      return Status::InvalidArgument(at + ".formation: batteries are Limbered or Unlimbered, other arms never (D1)");
    }
    if (IsCavalry(u->arm()) && u->formation() != fb::DogFormation_Line && u->formation() != fb::DogFormation_ColumnOfMarch &&
        u->formation() != fb::DogFormation_Skirmish) {
      return Status::InvalidArgument(at + ".formation: cavalry is in line, column of march or skirmish order (D1)");
    }
    std::string cmd = u->commander() ? u->commander()->str() : "";
    if (!cmd.empty() && commanders[cmd] != u->side()->str()) {
      return Status::InvalidArgument(at + ".commander: no commander '" + cmd + "' of the " + u->side()->str() + " side");
    }
  }
  if (b->terrain()) {
    for (flatbuffers::uoffset_t i = 0; i < b->terrain()->size(); ++i) {
      const auto* t = b->terrain()->Get(i);
      std::string at = "dog.terrain[" + std::to_string(i) + "]";
      const bool linear = IsLinear(t->kind());
      size_t n = t->points() ? t->points()->size() : 0;
      if (n < (linear ? 2u : 3u)) {
        return Status::InvalidArgument(at + ".points: a " + std::string(linear ? "line" : "area") + " needs at least " +
                                       (linear ? "2" : "3") + " points");
      }
    }
  }
  return Status::Ok();
}

}  // namespace adjutant::rules::dog
