#include "support/race/race.h"

#include <algorithm>
#include <array>
#include <set>
#include <map>
#include <optional>

#include "projections/archive.h"
#include "projections/roster.h"
#include "rules/events.h"
#include "rules/intake.h"
#include "rules/kind.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"

namespace adjutant::testing {

namespace {

namespace P = projections;
using rules::Get;
using rules::State;

constexpr std::string_view kRuleset = "race";
constexpr int32_t kTurns = 8;     // RACE 1
constexpr int32_t kFinish = 20;   // RACE 3
const char* const kSides[] = {"blue", "red"};

Turn RaceTurn(int32_t n) { return Turn{1, n, 0}; }

// ---- the race's own projection -------------------------------------------------

struct RaceOrder {
  uint64_t seq = 0;
  std::string text;
};

struct RaceState {
  uint64_t last_seq = 0;
  bool active = false;
  int32_t turns_done = 0;
  bool ended = false;
  std::string winner;
  std::map<std::string, int32_t> square;     // side → square reached
  std::map<std::string, RaceOrder> orders;   // side → the order standing for the coming turn
  friend bool operator==(const RaceState&, const RaceState&) = default;
};

template <class A> void Visit(A& a, RaceOrder& o) { a(o.seq, o.text); }
template <class A> void Visit(A& a, RaceState& s) {
  a(s.last_seq, s.active, s.turns_done, s.ended, s.winner, s.square, s.orders);
}

bool ValidOrder(const std::string& text) { return text == "advance" || text == "rest"; }  // RACE 2

class RaceView final : public P::Fold<RaceState> {
 public:
  std::unique_ptr<P::Projection> Clone() const override { return std::make_unique<RaceView>(*this); }
  std::string_view name() const override { return "race"; }
  uint32_t version() const override { return 1; }
  bool applies() const override { return s_.active; }
  void Apply(const P::Input& in) override {
    const fb::Event& e = *in.event;
    s_.last_seq = in.seq;
    if (const auto* g = e.payload_as_GameCreated()) {
      const fb::Scenario* sc = g->scenario();
      if (sc && sc->rulesets()) {
        for (const auto* r : *sc->rulesets()) s_.active |= r->string_view() == kRuleset;
      }
      if (s_.active) for (const char* side : kSides) s_.square[side] = 0;
      return;
    }
    if (!s_.active || !e.ruleset() || e.ruleset()->string_view() != kRuleset) return;
    if (const auto* o = e.payload_as_OrderSubmitted()) {
      const auto* w = o->body_as_WrittenOrder();
      if (w && o->slot() && ValidOrder(w->text()->str())) s_.orders[o->slot()->str()] = {in.seq, w->text()->str()};
    } else if (const auto* d = e.payload_as_DieRolled()) {
      int32_t moved = 0;
      if (d->results()) for (uint32_t r : *d->results()) moved += static_cast<int32_t>(r);
      if (d->subject()) s_.square[d->subject()->str()] += moved;
    } else if (e.payload_type() == fb::Payload_PhaseCompleted) {
      s_.turns_done++;
      s_.orders.clear();
      // RACE 3: at 20, or after the last turn, the one further on wins.
      const int32_t blue = s_.square["blue"], red = s_.square["red"];
      if (std::max(blue, red) >= kFinish || s_.turns_done >= kTurns) {
        s_.ended = true;
        s_.winner = blue == red ? "dead heat" : blue > red ? "blue" : "red";
      }
    }
  }
  std::string Encode() const override { return P::EncodeState(s_); }
  Status Decode(std::string_view bytes) override { return P::DecodeState(bytes, &s_, name()); }
};

const RaceState& RaceOf(const State& st) { return Get<RaceView>(st).state(); }

// The side whose runner `person` is (asking as `asked`, if given).
std::optional<std::string> SideOf(const State& st, const std::string& person, const std::string& asked) {
  const P::Person* p = Get<P::Roster>(st).Find(person);
  if (!p) return std::nullopt;
  return P::HolderOf(p->roles, "runner", asked, [](const std::string& side) {
    return std::find(std::begin(kSides), std::end(kSides), side) != std::end(kSides);
  });
}

std::string Asked(const fb::OrderItem& i) { return i.role() ? i.role()->str() : ""; }

constexpr std::array kVersions{
    rules::VersionNote{kRuleset, 1, "RACE 1-4", "the first version"},
    rules::VersionNote{kRuleset, 2, "RACE 2.1", "a resting runner walks 1d3 squares (version 1: he stands)"},
};

class RaceKind final : public rules::GameKind {
 public:
  std::string_view name() const override { return "race"; }
  bool Plays(std::span<const std::string> rulesets) const override {
    return rules::NamesRuleset(rulesets, kRuleset);
  }
  std::vector<std::string_view> Rulesets() const override { return {kRuleset}; }
  std::span<const rules::VersionNote> Versions() const override { return kVersions; }
  std::vector<std::unique_ptr<P::Projection>> ExtraProjections() const override {
    std::vector<std::unique_ptr<P::Projection>> out;
    out.push_back(std::make_unique<RaceView>());
    return out;
  }

  std::string_view MapTable() const override { return ""; }
  Status Prepare(const fb::Scenario& sc, std::optional<std::vector<uint8_t>> map, rules::GameStart* g,
                 bool* map_error) const override {
    if (map) {
      *map_error = true;
      return Status::InvalidArgument("a race takes no map (RACE 1)");
    }
    if (sc.rulesets()->size() != 1) return Status::InvalidArgument("rulesets: a race runs alone (RACE 1)");
    std::set<std::string> roles;
    if (sc.players()) {
      for (const auto* p : *sc.players()) if (p->roles()) for (const auto* r : *p->roles()) roles.insert(r->str());
    }
    if (roles != std::set<std::string>{"blue.runner", "red.runner"}) {
      return Status::InvalidArgument("players: a race has a red.runner and a blue.runner, and no other role (RACE 1)");
    }
    g->at = TurnPhase{RaceTurn(0), 0};
    return Status::Ok();
  }
  std::vector<rules::Office> Offices(const fb::Scenario&) const override {
    return {{"runner", "side", "RACE 1", std::set<std::string>{"blue", "red"}}};
  }

  Result<rules::KindPhase> Next(const State& st) const override {
    const auto& s = RaceOf(st);
    if (s.ended) return Status::InvalidArgument("the race is over (RACE 3: " + s.winner + "): there is nothing left to adjudicate");
    const int32_t n = s.turns_done + 1;
    return rules::KindPhase{TurnPhase{RaceTurn(n), 1}, "turn", "turn " + std::to_string(n) + " of " + std::to_string(kTurns), true};
  }
  bool Ended(const State& st) const override { return RaceOf(st).ended; }
  Result<TurnPhase> OrderPosition(const State& st) const override {
    if (RaceOf(st).ended) return Status::InvalidArgument("the race is over: it takes no more orders");
    return TurnPhase{RaceTurn(RaceOf(st).turns_done + 1), 0};
  }
  TurnPhase DirectivePosition(const State& st) const override { return TurnPhase{RaceTurn(RaceOf(st).turns_done + 1), 0}; }
  rules::Progress ProgressOf(const State& st) const override {
    const int32_t done = RaceOf(st).turns_done;
    return {RaceTurn(done), static_cast<uint16_t>(done > 0 ? 1 : 0)};
  }
  bool TurnOver(const State& st, const Turn& t) const override {
    const int32_t done = RaceOf(st).turns_done;
    return done > 0 && RaceTurn(done) == t;
  }
  Result<rules::DiceWindow> DiceWindowOf(const State& st) const override {
    const int32_t done = RaceOf(st).turns_done;
    return rules::DiceWindow{RaceTurn(done + 1), false, RaceTurn(done), done > 0};
  }

  Status RunPhase(rules::PhaseWriter& w, const rules::KindPhase& phase, rules::DiceSource& dice) const override {
    return rules::EmitPhase(w, phase, kRuleset, [&]() -> Status {
      const RaceState s = RaceOf(w.state());
      for (const char* side : kSides) {
        auto it = s.orders.find(side);
        const std::string order = it == s.orders.end() ? "rest" : it->second.text;  // RACE 2: no order, a rest
        rules::RollRequest req{phase.at, side, order == "advance" ? "advance" : "walk", "RACE 2", 6, 1};
        if (order == "rest") {
          if (w.rules_versions().Of(kRuleset) < 2) continue;  // RACE 2.1 (version 2)
          req.rule = "RACE 2.1";
          req.sides = 3;
        }
        auto roll = dice.Next(req);
        if (!roll.ok()) return roll.status();
        Draft d = rules::DieRolledDraft(*roll, Actor{ActorKind::kAdjudicator, "", ""});
        w.Emit(std::move(d));
      }
      return Status::Ok();
    });
  }

  std::optional<size_t> FirstNotHis(const State& st, const std::string& person,
                                    const std::vector<const fb::OrderItem*>& items) const override {
    for (size_t i = 0; i < items.size(); ++i) {
      if (!SideOf(st, person, Asked(*items[i]))) return i;
    }
    return std::nullopt;
  }
  Status CheckSender(const State& st, const std::string& game, const std::string& person,
                     const std::vector<const fb::OrderItem*>& items) const override {
    if (!SideOf(st, person, Asked(*items.front()))) {
      return Status::InvalidArgument(person + " runs in no lane of race '" + game + "' (RACE 1: role SIDE.runner)");
    }
    return Status::Ok();
  }
  Status Submit(rules::PhaseWriter& w, const TurnPhase& at, const std::string& person,
                const std::vector<const fb::OrderItem*>& items) const override {
    const std::string side = *SideOf(w.state(), person, Asked(*items.front()));
    rules::OrderJudge judge;
    judge.arrives = [&](const rules::PhaseWriter& now, const fb::OrderItem& item) {
      rules::OrderJudgement j;
      j.slot = side;
      const auto* text = item.body_as_WrittenOrder();
      if (!text || !ValidOrder(text->text()->str())) {
        j.rule = "RACE 2";
        j.reason = "a runner orders advance or rest";
        return j;
      }
      const auto& standing = RaceOf(now.state()).orders;
      if (auto it = standing.find(side); it != standing.end()) j.replaces = it->second.seq;
      return j;
    };
    rules::IntakeOrders(w, at, {person, side + ".runner", std::string(kRuleset)}, items, judge);
    return Status::Ok();
  }

  Status CheckDirective(const State&, const std::string& game, const fb::DirectiveFile& d,
                        const rules::RulesVersions&) const override {
    if (d.body_type() != fb::DirectiveBody_Ruling) {
      return Status::InvalidArgument(std::string(fb::EnumNameDirectiveBody(d.body_type())) + ": race '" + game +
                                     "' takes the GA's rulings only (RACE 4)");
    }
    return Status::Ok();
  }
  Status RecordDirective(rules::PhaseWriter& w, const TurnPhase&, Draft d, const fb::DirectiveFile&) const override {
    w.Emit(std::move(d));
    return Status::Ok();
  }

  void Flatten(const State& st, const rules::PutRow& put) const override {
    const auto& s = RaceOf(st);
    put("race", "race", "turns_done", std::to_string(s.turns_done));
    put("race", "race", "ended", s.ended ? s.winner : "no");
    for (const auto& [side, sq] : s.square) put("race", side, "square", std::to_string(sq));
  }
  std::vector<std::string_view> ViewNames() const override { return {"race"}; }
};

// The registry row.
[[maybe_unused]] const bool kRegistered = (RegisterRace(), true);

}  // namespace

void RegisterRace() {
  static const RaceKind kind;
  rules::RegisterKind(&kind);
}

std::string RaceScenarioJson() {
  return R"({
  "name": "A race of two runners",
  "rulesets": ["race"],
  "players": [
    { "person": "ann", "roles": ["red.runner"] },
    { "person": "bob", "roles": ["blue.runner"] }
  ]
})";
}

std::string RaceOrderJson(const std::string& side, const std::string& text) {
  return R"({"orders": [{"role": ")" + side + R"(.runner", "body_type": "WrittenOrder", "body": {"text": ")" + text +
         R"("}}]})";
}

}  // namespace adjutant::testing
