// The sow ruleset's outcome events, emitted through a PhaseWriter: each
// call builds one event (naming its rule) and folds it into the working
// state at once.
#pragma once

#include <string>

#include "projections/treasury.h"
#include "rules/phase_writer.h"

namespace adjutant::rules::sow {

inline constexpr const char* kRuleset = "sow";

enum class ManItem : uint8_t { Growth, Attrition, Build, Reinforce, Return, Correction, Lost };

class Outcomes {
 public:
  Outcomes(PhaseWriter& w, const TurnPhase& at) : w_(w), at_(at) {}
  const projections::TreasuryState& state() const { return w_.treasury(); }
  const projections::FleetState& fleet() const { return w_.fleet(); }  // the ships
  const TurnPhase& at() const { return at_; }
  PhaseWriter& writer() { return w_; }
  // The game's sow rules version (rules/versions.cc): every gate reads it here.
  uint32_t version() const { return w_.rules_versions().Of(kRuleset); }

  void Money(const std::string& state, int64_t amount_cc, const std::string& rule, const std::string& item,
             const std::string& subject, const std::string& detail, uint64_t order_seq = 0);
  void Men(const std::string& state, const std::string& pool, const std::string& city, int64_t men, const std::string& rule,
           ManItem item, const std::string& subject, uint64_t order_seq = 0);
  void Lost(const std::string& state, int64_t men, const std::string& rule, const std::string& subject);
  void ReturnLater(const std::string& state, const std::string& pool, const std::string& city, int64_t men,
                   int32_t due_year, int32_t due_season, const std::string& rule, const std::string& subject);
  void BuildStarted(const projections::Build& b);
  void BuildProgressed(const std::string& id, uint8_t done);
  void BuildCompleted(const std::string& id);
  void Reinforced(const std::string& unit, int32_t men, uint8_t batteries, uint64_t order_seq);
  void Crewed(const std::string& ship, int32_t crew, uint64_t order_seq);
  void Disbanded(const std::string& unit, int32_t returning, int32_t lost, int32_t vp, uint64_t order_seq);
  void ShipRemoved(const std::string& ship, int32_t crew_returning, uint64_t order_seq);
  void Supplies(const std::string& state, const std::string& city, int32_t supplies, int32_t stores,
                uint64_t order_seq);
  void StandingSet(const std::string& state, const std::string& city, const projections::StandingOrder& o);
  void StandingCancelled(const std::string& state, const std::string& city, const std::string& rule,
                         const std::string& reason);
  void RepairStarted(const std::string& city, projections::RepairKind what, const std::string& state,
                     uint64_t order_seq, int64_t paid_cc);
  void RepairCompleted(const std::string& city, projections::RepairKind what);
  void RepairCancelled(const std::string& city, projections::RepairKind what, const std::string& state,
                       const std::string& reason);
  void SeasonStarted(int32_t year, int32_t season, projections::SeasonKind kind);
  void SeasonEnded(int32_t year, int32_t season, projections::SeasonKind kind);
  // OrderRejected: the order stays in the log; nothing else changes.
  void Rejected(uint64_t order_seq, const std::string& rule, const std::string& reason);

 private:
  void Emit(Draft d);
  PhaseWriter& w_;
  TurnPhase at_;
};

}  // namespace adjutant::rules::sow
