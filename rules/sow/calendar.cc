#include "rules/sow/calendar.h"

namespace adjutant::rules::sow {

using projections::SeasonKind;

std::string SeasonName(int32_t season) {
  static const char* kNames[] = {"Spring", "Summer", "Autumn", "Winter"};
  return season >= 1 && season <= 4 ? kNames[season - 1] : "season " + std::to_string(season);
}

std::string TurnName(const Turn& t, SeasonKind kind) {
  std::string season = SeasonName(t.minor) + " " + std::to_string(t.major);
  if (t.step == kSeasonEndStep) return "end of " + season;
  if (kind != SeasonKind::War || t.step == 0) return season + (kind == SeasonKind::Truce ? ", truce turn" : ", peace turn");
  return season + ", turn " + std::to_string(t.step);
}

bool IsSeasonEnd(const Turn& t) { return t.step == kSeasonEndStep; }

uint16_t LastPhaseOf(const Turn& t, bool naval) {
  if (IsSeasonEnd(t)) return kSeasonEnd;
  return naval ? kIntelligence : kConstruction;
}

uint16_t LastPhaseOf(const projections::TreasuryState& s, const Turn& t) { return LastPhaseOf(t, s.naval); }

std::string PhaseName(const TurnPhase& at) {
  if (at.phase == kOrdersWindow) return "orders";
  if (IsSeasonEnd(at.turn)) return "season-end";
  switch (at.phase) {
    case kIncome: return "income";
    case kUpkeep: return "upkeep";
    case kOrders: return "orders-executed";
    case kConstruction: return "construction";
    case kRepair: return "repair";
    case kSupply: return "supply";
    case kLanding: return "amphibious-initial";
    case kCombat: return "combat";
    case kMovement: return "movement";
    case kLanded: return "amphibious-final";
    case kIntelligence: return "intelligence";
    default: return "phase " + std::to_string(at.phase);
  }
}

// The kind of the season turn `t` is in: known once the season started,
// else the GA's plan for it, else the kind of the season before carries on.
SeasonKind KindOf(const projections::TreasuryState& s, const Turn& t) {
  if (std::make_pair(t.major, t.minor) == s.season_of_kind) return s.season_kind;
  auto plan = s.season_plan.find({t.major, t.minor});
  return plan != s.season_plan.end() ? plan->second : s.season_kind;
}

NextPhase Next(const projections::TreasuryState& s) {
  const Turn& t = s.turn;
  SeasonKind kind = KindOf(s, t);
  NextPhase n;
  n.season_kind = kind;
  // A campaign the GA ended before this turn began goes to the season's end.
  bool ended = s.phase_done == 0 && !IsSeasonEnd(t) && kind == SeasonKind::War && s.campaign_ended;
  if (ended) {
    n.at = {Turn{t.major, t.minor, kSeasonEndStep}, 1};
  } else if (s.phase_done < LastPhaseOf(s, t)) {
    n.at = {t, static_cast<uint16_t>(s.phase_done + 1)};
    n.opens_season = n.at.phase == 1 && !IsSeasonEnd(t) && std::make_pair(t.major, t.minor) != s.season_of_kind;
  } else if (IsSeasonEnd(t)) {
    Turn next{t.minor == 4 ? t.major + 1 : t.major, t.minor == 4 ? 1 : t.minor + 1, 0};
    n.season_kind = KindOf(s, next);
    next.step = n.season_kind == SeasonKind::War ? 1 : 0;
    n.at = {next, 1};
    n.opens_season = true;
  } else {
    bool last = kind != SeasonKind::War || t.step == 0 || t.step >= kCampaignTurnsMax || s.campaign_ended;
    n.at = {last ? Turn{t.major, t.minor, kSeasonEndStep} : Turn{t.major, t.minor, t.step + 1}, 1};
  }
  n.name = PhaseName(n.at);
  n.last_of_turn = n.at.phase == LastPhaseOf(s, n.at.turn);
  return n;
}

Result<TurnPhase> OrderPosition(const projections::TreasuryState& s) {
  if (s.phase_done == 0 && !IsSeasonEnd(s.turn)) return TurnPhase{s.turn, kOrdersWindow};
  if (s.phase_done >= LastPhaseOf(s, s.turn)) {
    NextPhase n = Next(s);
    if (!IsSeasonEnd(n.at.turn)) return TurnPhase{n.at.turn, kOrdersWindow};
    return Status::Conflict("the end of " + SeasonName(s.turn.minor) + " " + std::to_string(s.turn.major) +
                            " comes next and takes no orders: run `adjutant adjudicate` first");
  }
  return Status::Conflict(TurnName(s.turn, s.season_kind) + " is being adjudicated (phase " +
                          std::to_string(s.phase_done) + " of " + std::to_string(LastPhaseOf(s, s.turn)) +
                          " done): orders open when it is complete");
}

TurnPhase DirectivePosition(const projections::TreasuryState& s) {
  auto o = OrderPosition(s);
  if (o.ok()) return *o;
  return TurnPhase{s.turn, s.phase_done};
}

}  // namespace adjutant::rules::sow
