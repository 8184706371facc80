#include "rules/sow/outcomes.h"

#include "schema/event_generated.h"

namespace adjutant::rules::sow {

static_assert(static_cast<int>(ManItem::Lost) == fb::ManpowerItem_Lost);

namespace {

using Fbb = flatbuffers::FlatBufferBuilder;
using Off = flatbuffers::Offset<flatbuffers::String>;

Off S(Fbb& f, const std::string& s) { return s.empty() ? Off() : f.CreateString(s); }

template <class Body>
Draft SowDraft(const TurnPhase& at, Body body) {
  Draft d;
  d.at = at;
  d.payload = [body = std::move(body)](Fbb& f) {
    auto [type, off] = body(f);
    auto e = fb::CreateSowEvent(f, type, off);
    return PayloadRef{fb::Payload_SowEvent, e.o};
  };
  return d;
}

flatbuffers::Offset<fb::SowUnitDef> UnitDef(Fbb& f, const projections::Unit& u) {
  fb::Square sq(u.square.x, u.square.y);
  return fb::CreateSowUnitDef(f, f.CreateString(u.id), f.CreateString(u.state), static_cast<fb::SowUnitType>(u.type),
                              u.men, u.batteries, u.active, &sq, S(f, u.city), S(f, u.raised_in));
}

flatbuffers::Offset<fb::SowShipDef> ShipDef(Fbb& f, const projections::Ship& s) {
  return fb::CreateSowShipDef(f, f.CreateString(s.id), f.CreateString(s.state), static_cast<fb::SowShipType>(s.type),
                              s.crew, s.frigates, s.capacity, S(f, s.base), S(f, s.location), s.in_port, s.coastal,
                              s.active, static_cast<fb::ShipMission>(s.mission), S(f, s.name), s.marines,
                              static_cast<fb::ShipQuality>(s.quality), s.morale, s.experience, s.stores, s.hull,
                              s.rigging);
}

using Body = std::pair<fb::SowEventBody, flatbuffers::Offset<void>>;

}  // namespace

void Outcomes::Money(const std::string& state, int64_t amount_cc, const std::string& rule, const std::string& item,
                     const std::string& subject, const std::string& detail, uint64_t order_seq) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateTreasuryLine(f, f.CreateString(state), amount_cc, f.CreateString(rule), f.CreateString(item),
                                    S(f, subject), S(f, detail), order_seq);
    return {fb::SowEventBody_TreasuryLine, x.Union()};
  }));
}

void Outcomes::Men(const std::string& state, const std::string& pool, const std::string& city, int64_t men,
                   const std::string& rule, ManItem item, const std::string& subject, uint64_t order_seq) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateManpowerLine(f, f.CreateString(state), f.CreateString(pool), S(f, city), men,
                                    f.CreateString(rule), static_cast<fb::ManpowerItem>(item), S(f, subject),
                                    order_seq);
    return {fb::SowEventBody_ManpowerLine, x.Union()};
  }));
}

void Outcomes::Lost(const std::string& state, int64_t men, const std::string& rule, const std::string& subject) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateMenLost(f, f.CreateString(state), men, f.CreateString(rule), S(f, subject));
    return {fb::SowEventBody_MenLost, x.Union()};
  }));
}

void Outcomes::ReturnLater(const std::string& state, const std::string& pool, const std::string& city, int64_t men,
                           int32_t due_year, int32_t due_season, const std::string& rule, const std::string& subject) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateReturnScheduled(f, f.CreateString(state), f.CreateString(pool), S(f, city), men, due_year,
                                       due_season, f.CreateString(rule), S(f, subject));
    return {fb::SowEventBody_ReturnScheduled, x.Union()};
  }));
}

void Outcomes::BuildStarted(const projections::Build& b) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto unit = b.is_ship ? flatbuffers::Offset<fb::SowUnitDef>() : UnitDef(f, b.unit);
    auto ship = b.is_ship ? ShipDef(f, b.ship) : flatbuffers::Offset<fb::SowShipDef>();
    auto x = fb::CreateBuildStarted(f, f.CreateString(b.id), f.CreateString(b.state), f.CreateString(b.city), unit,
                                    ship, b.war_turns, b.order_seq);
    return {fb::SowEventBody_BuildStarted, x.Union()};
  }));
}

void Outcomes::BuildProgressed(const std::string& id, uint8_t done) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    return {fb::SowEventBody_BuildProgressed, fb::CreateBuildProgressed(f, f.CreateString(id), done).Union()};
  }));
}

void Outcomes::BuildCompleted(const std::string& id) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    return {fb::SowEventBody_BuildCompleted, fb::CreateBuildCompleted(f, f.CreateString(id)).Union()};
  }));
}

void Outcomes::Reinforced(const std::string& unit, int32_t men, uint8_t batteries, uint64_t order_seq) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateUnitReinforced(f, f.CreateString(unit), men, batteries, order_seq);
    return {fb::SowEventBody_UnitReinforced, x.Union()};
  }));
}

void Outcomes::Crewed(const std::string& ship, int32_t crew, uint64_t order_seq) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    return {fb::SowEventBody_ShipCrewed, fb::CreateShipCrewed(f, f.CreateString(ship), crew, order_seq).Union()};
  }));
}

void Outcomes::Disbanded(const std::string& unit, int32_t returning, int32_t lost, int32_t vp, uint64_t order_seq) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateUnitDisbanded(f, f.CreateString(unit), returning, lost, vp, order_seq);
    return {fb::SowEventBody_UnitDisbanded, x.Union()};
  }));
}

void Outcomes::ShipRemoved(const std::string& ship, int32_t crew_returning, uint64_t order_seq) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateShipRemoved(f, f.CreateString(ship), crew_returning, order_seq);
    return {fb::SowEventBody_ShipRemoved, x.Union()};
  }));
}

void Outcomes::Supplies(const std::string& state, const std::string& city, int32_t supplies, int32_t stores,
                        uint64_t order_seq) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateSuppliesBought(f, f.CreateString(state), f.CreateString(city), supplies, stores, order_seq);
    return {fb::SowEventBody_SuppliesBought, x.Union()};
  }));
}

void Outcomes::StandingSet(const std::string& state, const std::string& city, const projections::StandingOrder& o) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateStandingOrderSet(f, f.CreateString(state), f.CreateString(city), o.supplies,
                                        S(f, o.forward_to), o.forward, o.order_seq);
    return {fb::SowEventBody_StandingOrderSet, x.Union()};
  }));
}

void Outcomes::StandingCancelled(const std::string& state, const std::string& city, const std::string& rule,
                                 const std::string& reason) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateStandingOrderCancelled(f, f.CreateString(state), f.CreateString(city), f.CreateString(rule),
                                              f.CreateString(reason));
    return {fb::SowEventBody_StandingOrderCancelled, x.Union()};
  }));
}

void Outcomes::RepairStarted(const std::string& city, projections::RepairKind what, const std::string& state,
                             uint64_t order_seq, int64_t paid_cc) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateRepairStarted(f, f.CreateString(city), static_cast<fb::RepairKind>(what),
                                     f.CreateString(state), order_seq, paid_cc);
    return {fb::SowEventBody_RepairStarted, x.Union()};
  }));
}

void Outcomes::RepairCompleted(const std::string& city, projections::RepairKind what) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateRepairCompleted(f, f.CreateString(city), static_cast<fb::RepairKind>(what));
    return {fb::SowEventBody_RepairCompleted, x.Union()};
  }));
}

void Outcomes::RepairCancelled(const std::string& city, projections::RepairKind what, const std::string& state,
                               const std::string& reason) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateRepairCancelled(f, f.CreateString(city), static_cast<fb::RepairKind>(what),
                                       f.CreateString(state), f.CreateString(reason));
    return {fb::SowEventBody_RepairCancelled, x.Union()};
  }));
}

void Outcomes::SeasonStarted(int32_t year, int32_t season, projections::SeasonKind kind) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateSeasonStarted(f, year, season, static_cast<fb::SeasonKind>(kind));
    return {fb::SowEventBody_SeasonStarted, x.Union()};
  }));
}

void Outcomes::SeasonEnded(int32_t year, int32_t season, projections::SeasonKind kind) {
  Emit(SowDraft(at_, [=](Fbb& f) -> Body {
    auto x = fb::CreateSeasonEnded(f, year, season, static_cast<fb::SeasonKind>(kind));
    return {fb::SowEventBody_SeasonEnded, x.Union()};
  }));
}

void Outcomes::Rejected(uint64_t order_seq, const std::string& rule, const std::string& reason) {
  Draft d;
  d.at = at_;
  d.payload = [=](Fbb& f) {
    auto x = fb::CreateOrderRejected(f, order_seq, f.CreateString(rule), f.CreateString(reason));
    return PayloadRef{fb::Payload_OrderRejected, x.o};
  };
  Emit(std::move(d));
}

// SOW's outcomes are SOW's wherever they are emitted (PATE's naval phases,
// its directives, the NWOL intake's refusals).
void Outcomes::Emit(Draft d) {
  const auto book = w_.Under(kRuleset);
  w_.Emit(std::move(d));
}

}  // namespace adjutant::rules::sow
