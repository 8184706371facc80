#include "rules/pate/combat.h"

#include <algorithm>
#include <cassert>
#include <set>

#include "rules/pate/tables.h"

namespace adjutant::rules::pate {
namespace {

const KindRow& RowOf(Kind k) {
  assert(static_cast<size_t>(k) < kKinds.size());
  return kKinds[static_cast<size_t>(k)];
}
bool Warship(const Combatant& c) { return RowOf(c.kind).warship; }
bool LineShip(const Combatant& c) { return c.kind == Kind::FL || c.kind == Kind::SL; }
int Enemy(int side) { return 1 - side; }
int32_t ClampBp(int64_t bp) { return static_cast<int32_t>(std::clamp<int64_t>(bp, 0, kBpWhole)); }

// "12.5%", "30%": a chance for the log.
std::string Pct(int64_t bp) {
  std::string s = std::to_string(bp / 100);
  if (int64_t frac = bp % 100; frac != 0) s += (frac % 10 == 0 ? "." + std::to_string(frac / 10)
                                                                 : (frac < 10 ? ".0" : ".") + std::to_string(frac));
  return s + "%";
}
std::string Points(int64_t tenths) { return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10); }
std::string Side(int side) { return "side " + std::to_string(side); }

Status Check(const Battle& b) {
  auto bad = [&](const std::string& what) { return Status::InvalidArgument("battle " + b.id + ": " + what); };
  if (b.ships.size() > kShipsPerBattleMax) {
    return bad(std::to_string(b.ships.size()) + " ships, over the limit of " + std::to_string(kShipsPerBattleMax));
  }
  if (b.windward_side < -1 || b.windward_side > 1) return bad("windward_side must be -1, 0 or 1 (PATE 6.9)");
  if (b.battery_side < -1 || b.battery_side > 1) return bad("battery_side must be -1, 0 or 1 (PATE 7.1)");
  if (b.battery_side >= 0 && b.where != Where::Harbour) return bad("shore batteries fight only in harbour (PATE 7.1)");
  if (b.batteries_damaged > b.batteries) return bad("more damaged batteries than batteries (PATE 7.7)");
  std::set<std::string> ids;
  for (const Combatant& c : b.ships) {
    auto ship = [&](const std::string& what) { return bad("ship '" + c.id + "': " + what); };
    if (c.id.empty() || !ids.insert(c.id).second) return ship("ids must be present and distinct");
    if (c.side != 0 && c.side != 1) return ship("side must be 0 or 1");
    if (static_cast<size_t>(c.kind) >= kKinds.size()) return ship("unknown kind (PATE 2.1)");
    if (c.quality > kQualityMax) return ship("quality must be 0..4 (PATE 2.2)");
    if (c.hull >= kDamageMax) return ship("hull damage 5 is sunk: a sunk ship cannot fight (PATE 2.2)");
    if (c.rigging > kDamageMax) return ship("rigging damage must be 0..5 (PATE 2.2)");
    if (c.crew < 0 || c.marines < 0) return ship("crew and Marines cannot be negative");
    if (Warship(c) && c.full_crew <= 0) return ship("a warship needs its full crew (PATE 2.7)");
    if (c.kind == Kind::FR && c.frigates < 1) return ship("a frigate group needs frigates");
  }
  return Status::Ok();
}

int32_t QualityBp(uint8_t quality) { return (static_cast<int32_t>(quality) - kQualityAverage) * kQualityPointBp; }
int32_t ExperienceBp(uint16_t experience) { return std::min<int32_t>(experience * kExperiencePointBp, kExperienceMaxBp); }

// One battle being resolved. Steps run in the book's order (7.1, 7.4-7.8)
// and iterate the ships in the battle's order only, so the same battle and
// dice give the same result.
class Resolver {
 public:
  Resolver(const Battle& b, DiceSource& dice) : b_(b), dice_(dice), in_(b.ships.size()), sit_(b.ships.size()) {
    for (const Combatant& c : b.ships) {
      ShipResult& r = out_.ships.emplace_back();
      r.id = c.id;
      r.hull = c.hull;
      r.rigging = c.rigging;
    }
    out_.batteries_damaged_after = b.batteries_damaged;
  }

  Result<BattleResult> Run() {
    WhoFights();
    if (!CanFight()) return Finish("PATE 7.1: no battle: both sides need ships, and one side fire");
    ADJ_RETURN_IF_ERROR(Evade());
    if (!CanFight()) return Finish("PATE 7.4: no battle after evasion");
    out_.fought = true;
    for (size_t i = 0; i < in_.size(); ++i) out_.ships[i].fought = in_[i];
    CoverTransports();
    ADJ_RETURN_IF_ERROR(Close());
    ADJ_RETURN_IF_ERROR(BreakLine());
    Strengths();
    ADJ_RETURN_IF_ERROR(Damage());
    Winner();
    Experience();
    ADJ_RETURN_IF_ERROR(Prizes());
    return std::move(out_);
  }

 private:
  BattleResult Finish(std::string why) {
    out_.log.push_back(std::move(why));
    return std::move(out_);
  }

  // Rolls a d`sides` and keeps the roll for the caller's record.
  Status Roll(const std::string& subject, const char* purpose, const char* rule, uint32_t sides, uint32_t* value) {
    auto r = dice_.Next(RollRequest{b_.at, subject, purpose, rule, sides, 1});
    if (!r.ok()) return r.status();
    *value = r->results.at(0);
    out_.rolls.push_back(std::move(r).value());
    return Status::Ok();
  }

  // A chance in basis points on a d10000. A certain outcome (0% or 100%)
  // is not rolled.
  Status Chance(const std::string& subject, const char* purpose, const char* rule, int32_t chance_bp, bool* success) {
    std::string line = std::string(rule) + ": " + purpose + " (" + subject + "), chance " + Pct(chance_bp);
    if (chance_bp <= 0 || chance_bp >= kBpWhole) {
      *success = chance_bp >= kBpWhole;
      out_.log.push_back(line + " (certain, not rolled): " + (*success ? "yes" : "no"));
      return Status::Ok();
    }
    uint32_t die = 0;
    ADJ_RETURN_IF_ERROR(Roll(subject, purpose, rule, kChanceDieSides, &die));
    *success = static_cast<int32_t>(die) <= chance_bp;
    out_.log.push_back(line + ", rolled " + std::to_string(die) + ": " + (*success ? "yes" : "no"));
    return Status::Ok();
  }

  bool BatteriesIn() const { return b_.battery_side >= 0 && b_.batteries > 0; }
  template <typename Pred>
  int Count(int side, Pred pred) const {
    int n = 0;
    for (size_t i = 0; i < in_.size(); ++i) n += in_[i] && b_.ships[i].side == side && pred(i);
    return n;
  }
  // The qualities of the side's warships in the battle that `pred` picks.
  template <typename Pred>
  std::vector<uint8_t> Qualities(int side, Pred pred) const {
    std::vector<uint8_t> q;
    for (size_t i = 0; i < in_.size(); ++i) {
      const Combatant& c = b_.ships[i];
      if (in_[i] && c.side == side && Warship(c) && pred(i)) q.push_back(c.quality);
    }
    return q;
  }

  // PATE 7.1: in harbour everyone fights. Elsewhere frigates never fight
  // flagships or ships of the line, nor beside them: if a line ship is in
  // contact the frigates stand aside, otherwise the frigates fight.
  // Transports are in every battle, as targets.
  void WhoFights() {
    bool line = std::any_of(b_.ships.begin(), b_.ships.end(), LineShip);
    for (size_t i = 0; i < b_.ships.size(); ++i) {
      const Combatant& c = b_.ships[i];
      in_[i] = b_.where == Where::Harbour || c.kind == Kind::TR || LineShip(c) == line;
      if (!in_[i]) out_.log.push_back("PATE 7.1: " + c.id + " stands aside: " +
                                      (line ? "frigates fight line ships only in harbour" : "no line ship to fight"));
    }
    if (BatteriesIn()) {
      out_.log.push_back("PATE 7.1: " + std::to_string(b_.batteries) + " shore batteries fight for " +
                         Side(b_.battery_side));
    }
  }

  // Both sides present, and someone able to fire.
  bool CanFight() const {
    auto any = [](size_t) { return true; };
    auto present = [&](int side) { return Count(side, any) > 0 || (BatteriesIn() && b_.battery_side == side); };
    auto armed = [&](size_t i) { return Warship(b_.ships[i]); };
    return present(0) && present(1) && (Count(0, armed) + Count(1, armed) > 0 || BatteriesIn());
  }

  void Evaded(size_t i) {
    in_[i] = false;
    out_.ships[i].evaded = true;
    out_.log.push_back("PATE 7.4: " + b_.ships[i].id + " evades");
  }

  // PATE 7.4: evasion, never in harbour.
  Status Evade() {
    const auto& ships = b_.ships;
    auto evader = [&](size_t i) { return ships[i].evade; };
    auto any = [](size_t) { return true; };
    auto staying_warship = [&](size_t i) { return !ships[i].evade && Warship(ships[i]); };
    std::array<int, 2> evaders = {Count(0, evader), Count(1, evader)};
    if (evaders[0] + evaders[1] == 0) return Status::Ok();
    if (b_.where == Where::Harbour) {
      out_.log.push_back("PATE 7.4: no evasion from a battle in harbour");
      return Status::Ok();
    }
    // A side evades whole when all its ships do (2.1, version 5: all its
    // warships, when it has any; its transports that accept stay and fight).
    auto warship = [&](size_t i) { return Warship(ships[i]); };
    auto evading_warship = [&](size_t i) { return ships[i].evade && Warship(ships[i]); };
    auto wholly = [&](int side) {
      if (b_.version >= kTransportsNotShipsVersion && Count(side, warship) > 0) return Count(side, evading_warship) == Count(side, warship);
      return evaders[side] == Count(side, any);
    };
    std::array<bool, 2> whole = {wholly(0), wholly(1)};
    if (whole[0] && whole[1]) {
      for (size_t i = 0; i < in_.size(); ++i) in_[i] = false;
      out_.log.push_back("PATE 7.4: both sides evade: no ship moves and there is no battle");
      return Status::Ok();
    }
    for (int side : {0, 1}) {
      if (!whole[side]) continue;
      // One roll for the whole side; the other side's evaders always succeed.
      bool away = false;
      ADJ_RETURN_IF_ERROR(Chance(b_.id, "evasion", "PATE 7.4", EvadeChanceBp(b_, side), &away));
      for (size_t i = 0; i < in_.size(); ++i) {
        if (in_[i] && ships[i].evade && (ships[i].side != side || away)) Evaded(i);
      }
      return Status::Ok();
    }
    // Some evade on a side that also stays: covered by the warships that stay.
    std::array<bool, 2> covered;
    for (int side : {0, 1}) {
      covered[side] = Count(side, staying_warship) * kCoverDenominator >=
                      Count(Enemy(side), staying_warship) * kCoverNumerator;
    }
    for (size_t i = 0; i < in_.size(); ++i) {
      if (!in_[i] || !ships[i].evade) continue;
      bool away = covered[ships[i].side];
      if (!away) ADJ_RETURN_IF_ERROR(Chance(ships[i].id, "evasion", "PATE 7.4", EvadeChanceBp(b_, ships[i].side), &away));
      if (away) Evaded(i);
    }
    return Status::Ok();
  }

  // PATE 7.4: transports take no damage while their side has at least
  // twice the enemy's warships (and some warships at all).
  void CoverTransports() {
    auto warship = [&](size_t i) { return Warship(b_.ships[i]); };
    for (int side : {0, 1}) {
      int ours = Count(side, warship), theirs = Count(Enemy(side), warship);
      covered_[side] = ours > 0 && ours >= kTransportCoverRatio * theirs;
      if (covered_[side] && Count(side, [&](size_t i) { return b_.ships[i].kind == Kind::TR; }) > 0) {
        out_.log.push_back("PATE 7.4: " + Side(side) + "'s transports are covered: " + std::to_string(ours) +
                           " warships to " + std::to_string(theirs));
      }
    }
  }

  // PATE 7.5: closing. Transports never choose to close.
  Status Close() {
    auto any = [](size_t) { return true; };
    auto warship = [&](size_t i) { return Warship(b_.ships[i]); };
    auto closer = [&](size_t i) { return Warship(b_.ships[i]) && b_.ships[i].close; };
    // One side of only shore batteries (2.1, version 5: with or without
    // transports, which are not ships).
    auto only_batteries = [&](int side) {
      return b_.version >= kTransportsNotShipsVersion ? Count(side, warship) == 0 && b_.battery_side == side : Count(side, any) == 0;
    };
    if (only_batteries(0) || only_batteries(1)) {
      out_.log.push_back("PATE 7.5: one side has only shore batteries: the other fights at range");
      return Status::Ok();
    }
    std::array<int, 2> closers = {Count(0, closer), Count(1, closer)};
    std::array<int, 2> warships = {Count(0, warship), Count(1, warship)};
    auto engage = [&](size_t i) {
      sit_[i].close_quarters = true;
      sit_[i].closed = closer(i);
    };
    if (closers[0] + closers[1] == 0) {
      out_.log.push_back("PATE 7.5: no ship closes: all fight at range");
      return Status::Ok();
    }
    int lo = std::min(closers[0], closers[1]), hi = std::max(closers[0], closers[1]);
    bool all = warships[0] > 0 && warships[1] > 0 && closers == warships;
    if (all || (lo > 0 && lo * kLikeNumbersDenominator >= hi * kLikeNumbersNumerator)) {
      for (size_t i = 0; i < in_.size(); ++i) if (in_[i] && closer(i)) engage(i);
      out_.log.push_back("PATE 7.5: the ships choosing to close do so; the others fight at range");
      return Status::Ok();
    }
    // One side closes on an enemy that will not close in like numbers.
    int side = closers[0] > closers[1] ? 0 : 1;
    const int points = QualityAdvantagePoints(Qualities(side, closer), Qualities(Enemy(side), any));
    int32_t chance = kCloseBaseBp + kClosePerQualityPointBp * points;
    if (b_.windward_side >= 0) chance += b_.windward_side == side ? kCloseWindwardBp : kCloseLeewardBp;
    bool closed = false;
    ADJ_RETURN_IF_ERROR(Chance(b_.id, "closing", "PATE 7.5", ClampBp(chance), &closed));
    if (!closed) {
      out_.log.push_back("PATE 7.5: " + Side(side) + " fails to close: all fight at range");
      return Status::Ok();
    }
    for (size_t i = 0; i < in_.size(); ++i) {
      if (in_[i] && (b_.ships[i].side != side || closer(i))) engage(i);
    }
    out_.log.push_back("PATE 7.5: " + Side(side) + " closes on the whole enemy fleet");
    return Status::Ok();
  }

  // PATE 7.6: a side breaks the line when most of its warships at close
  // quarters are ordered to.
  Status BreakLine() {
    auto cq = [&](size_t i) { return Warship(b_.ships[i]) && sit_[i].close_quarters; };
    auto breaker = [&](size_t i) { return cq(i) && b_.ships[i].break_line; };
    if (Count(0, cq) == 0 || Count(1, cq) == 0) return Status::Ok();
    std::array<bool, 2> breaks = {2 * Count(0, breaker) > Count(0, cq), 2 * Count(1, breaker) > Count(1, cq)};
    if (breaks[0] == breaks[1]) {
      both_broke_ = breaks[0];
      out_.log.push_back(breaks[0] ? "PATE 7.6: both sides break the line" : "PATE 7.6: both sides keep line ahead");
      return Status::Ok();
    }
    int side = breaks[0] ? 0 : 1;
    int points = QualityAdvantagePoints(Qualities(side, cq), Qualities(Enemy(side), cq));
    out_.breaking_side = side;
    out_.log.push_back("PATE 7.6: " + Side(side) + " tries to break the line, quality advantage " +
                       std::to_string(points));
    bool lost = false, through = false;
    ADJ_RETURN_IF_ERROR(Chance(b_.id, "line: coordination", "PATE 7.6", LoseCoordinationChanceBp(points), &lost));
    if (!lost) ADJ_RETURN_IF_ERROR(Chance(b_.id, "line: break through", "PATE 7.6", BreakThroughChanceBp(points), &through));
    out_.line = lost ? LineOutcome::Divided : through ? LineOutcome::BrokeThrough : LineOutcome::Held;
    int32_t bp = lost ? kDividedBp : through ? kBrokeThroughBp : 0;
    for (size_t i = 0; i < in_.size(); ++i) if (in_[i] && b_.ships[i].side == side && cq(i)) sit_[i].line_bp = bp;
    return Status::Ok();
  }

  // PATE 7.7
  void Strengths() {
    for (size_t i = 0; i < in_.size(); ++i) {
      if (!in_[i]) continue;
      const Combatant& c = b_.ships[i];
      // 7.7 with 6.9: at sea, each ship to windward (version 11); else the
      // side with the gauge (coastal waters: read from the port's wind).
      sit_[i].windward = b_.version >= kWindwardEachVersion && b_.where == Where::Sea ? c.windward
                                                                                     : c.side == b_.windward_side;
      int32_t s = ShipStrengthTenths(c, sit_[i], b_.version);
      out_.ships[i].strength_tenths = s;
      out_.ships[i].at_close_quarters = sit_[i].close_quarters;
      out_.strength_tenths[c.side] += s;
    }
    if (BatteriesIn()) {
      out_.strength_tenths[b_.battery_side] += BatteryStrengthTenths(b_.defence, b_.batteries, b_.batteries_damaged);
    }
    out_.log.push_back("PATE 7.7: strength " + Points(out_.strength_tenths[0]) + " to " +
                       Points(out_.strength_tenths[1]));
  }

  // PATE 7.3, 7.7: every ship under fire rolls for the damage it takes
  // (the ASSUMED model of combat_tables.h).
  Status Damage() {
    std::array<int64_t, 2> hull_fire{}, rigging_fire{};
    for (size_t i = 0; i < in_.size(); ++i) {
      if (!in_[i]) continue;
      const Combatant& c = b_.ships[i];
      (c.aim_rigging ? rigging_fire : hull_fire)[c.side] += out_.ships[i].strength_tenths;
    }
    if (BatteriesIn()) {
      hull_fire[b_.battery_side] += BatteryStrengthTenths(b_.defence, b_.batteries, b_.batteries_damaged);
    }
    std::array<int64_t, 2> fire;
    for (int side : {0, 1}) fire[side] = hull_fire[side] + rigging_fire[side] * kRiggingFireBp / kBpWhole;
    // The enemy's share of the fire, in basis points, against `side`.
    auto share = [&](int side) -> int64_t {
      int64_t e = fire[Enemy(side)];
      return e == 0 ? 0 : e * kBpWhole / (e + out_.strength_tenths[side]);
    };
    for (size_t i = 0; i < in_.size(); ++i) {
      const Combatant& c = b_.ships[i];
      if (!in_[i] || share(c.side) == 0) continue;
      if (c.kind == Kind::TR && covered_[c.side]) continue;
      uint32_t die = 0;
      ADJ_RETURN_IF_ERROR(Roll(c.id, "damage", "PATE 7.7", kDamageDieSides, &die));
      int64_t bonus = sit_[i].close_quarters ? kCloseQuartersDamageBonus : 0;
      int64_t points = (die + bonus) * share(c.side) / kBpWhole;
      int64_t aimed = (points * kAimedShareNumerator + kAimedShareDenominator - 1) / kAimedShareDenominator;
      bool at_rigging = rigging_fire[Enemy(c.side)] >= hull_fire[Enemy(c.side)];
      int64_t hull_points = at_rigging ? points - aimed : aimed, rigging_points = points - hull_points;
      ShipResult& r = out_.ships[i];
      r.hull = static_cast<uint8_t>(std::min<int64_t>(kDamageMax, c.hull + hull_points));
      r.rigging = static_cast<uint8_t>(std::min<int64_t>(kDamageMax, c.rigging + rigging_points));
      r.sunk = r.hull == kDamageMax;
      int32_t taken = (r.hull - c.hull) + (r.rigging - c.rigging);
      inflicted_[Enemy(c.side)] += taken;
      int64_t loss_bp = std::min<int64_t>(
          kBpWhole, (r.hull - c.hull) * kCrewLossPerHullPointBp + (r.rigging - c.rigging) * kCrewLossPerRiggingPointBp);
      r.crew_lost = r.sunk ? c.crew : static_cast<int32_t>(c.crew * loss_bp / kBpWhole);
      r.marines_lost = r.sunk ? c.marines : static_cast<int32_t>(c.marines * loss_bp / kBpWhole);
      out_.log.push_back("PATE 7.7: " + c.id + " rolled " + std::to_string(die) + " under " + Pct(share(c.side)) +
                         " of the fire: hull " + std::to_string(r.hull) + ", rigging " + std::to_string(r.rigging) +
                         (r.sunk ? ": sunk" : ""));
    }
    if (BatteriesIn()) {
      int side = b_.battery_side;
      int32_t chance = static_cast<int32_t>(share(side) / kBatteryHitShareDivisor);
      for (int n = b_.batteries - b_.batteries_damaged; n > 0 && chance > 0; --n) {
        bool hit = false;
        ADJ_RETURN_IF_ERROR(Chance(b_.id, "battery damage", "PATE 7.7", chance, &hit));
        out_.batteries_damaged_after += hit;
        inflicted_[Enemy(side)] += hit;
      }
    }
    return Status::Ok();
  }

  // ASSUMED (7.8 needs a loser): the side that inflicted more damage
  // points wins; on equal damage the stronger side; else a draw.
  void Winner() {
    const auto& s = out_.strength_tenths;
    if (inflicted_[0] != inflicted_[1]) out_.winner = inflicted_[0] > inflicted_[1] ? 0 : 1;
    else if (s[0] != s[1]) out_.winner = s[0] > s[1] ? 0 : 1;
    out_.log.push_back("PATE 7.7: damage inflicted " + std::to_string(inflicted_[0]) + " to " +
                       std::to_string(inflicted_[1]) + ": " +
                       (out_.winner < 0 ? std::string("a draw") : Side(out_.winner) + " wins"));
  }

  // PATE 7.7: the warships that fought gain experience by the odds.
  void Experience() {
    uint16_t gain = ExperienceGain(out_.strength_tenths[0], out_.strength_tenths[1]);
    for (size_t i = 0; i < in_.size(); ++i) {
      if (in_[i] && Warship(b_.ships[i])) out_.ships[i].experience_gained = gain;
    }
    out_.log.push_back("PATE 7.7: the warships that fought gain " + std::to_string(gain) + " experience");
  }

  // PATE 7.8: the loser's unsunk ships try to escape; those that fail are
  // taken by one captor drawn from the winner's unsunk warships. Since rules
  // version 10 (2.1) "ships" are the warships: the loser's transport groups
  // stay, neither escaping nor taken.
  Status Prizes() {
    if (out_.winner < 0) return Status::Ok();
    int loser = Enemy(out_.winner);
    // 7.2: a broken line makes the battle more decisive (see Battle).
    const bool broke_through = out_.line == LineOutcome::BrokeThrough;
    const bool decisive = b_.version >= kDecisiveLineVersion ? broke_through || both_broke_
                                                 : broke_through && out_.breaking_side == out_.winner;
    std::vector<std::string> captors;
    for (size_t i = 0; i < in_.size(); ++i) {
      if (in_[i] && b_.ships[i].side == out_.winner && Warship(b_.ships[i]) && !out_.ships[i].sunk) {
        captors.push_back(b_.ships[i].id);
      }
    }
    std::vector<size_t> prizes;
    for (size_t i = 0; i < in_.size(); ++i) {
      ShipResult& r = out_.ships[i];
      if (!in_[i] || b_.ships[i].side != loser || r.sunk) continue;
      if (b_.version >= kTransportsNotPrizesVersion && !Warship(b_.ships[i])) {
        r.stayed = true;
        out_.log.push_back("PATE 7.8, 2.1: " + r.id + " is a transport group, not a ship: she neither escapes nor is taken");
        continue;
      }
      if (captors.empty()) {
        r.escaped = true;
        out_.log.push_back("PATE 7.8: " + r.id + " withdraws: the winner has no ship to take prizes");
        continue;
      }
      int64_t chance = kEscapeBaseBp + int64_t{kEscapePerRiggingPointBp} * r.rigging;
      if (sit_[i].close_quarters) chance += kEscapeCloseQuartersBp;
      if (decisive) chance += kEscapeLineBrokenBp;
      ADJ_RETURN_IF_ERROR(Chance(r.id, "escape", "PATE 7.8", ClampBp(chance), &r.escaped));
      if (!r.escaped) prizes.push_back(i);
    }
    if (prizes.empty()) return Status::Ok();
    uint32_t pick = 1;
    if (captors.size() > 1) {
      ADJ_RETURN_IF_ERROR(Roll(b_.id, "captor", "PATE 7.8", static_cast<uint32_t>(captors.size()), &pick));
    }
    const std::string& captor = captors.at(pick - 1);
    for (size_t i : prizes) {
      out_.ships[i].captured = true;
      out_.ships[i].captor = captor;
      out_.log.push_back("PATE 7.8: " + out_.ships[i].id + " is taken by " + captor);
    }
    return Status::Ok();
  }

  const Battle& b_;
  DiceSource& dice_;
  BattleResult out_;
  std::vector<bool> in_;          // in the battle, after 7.1 and 7.4
  std::vector<Situation> sit_;
  std::array<bool, 2> covered_{};     // 7.4: a side's transports take no damage
  std::array<int32_t, 2> inflicted_{};  // damage points each side inflicted
  bool both_broke_ = false;             // 7.6: both sides broke the line
};

}  // namespace

int QualityAdvantagePoints(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& theirs) {
  if (ours.empty() || theirs.empty()) return 0;
  int64_t sum_ours = 0, sum_theirs = 0;
  for (uint8_t q : ours) sum_ours += q;
  for (uint8_t q : theirs) sum_theirs += q;
  const int64_t n_ours = static_cast<int64_t>(ours.size()), n_theirs = static_cast<int64_t>(theirs.size());
  // The difference of the averages is num / den exactly; round it.
  const int64_t num = sum_ours * n_theirs - sum_theirs * n_ours, den = n_ours * n_theirs;
  const int64_t magnitude = (2 * (num < 0 ? -num : num) + den) / (2 * den);
  return static_cast<int>(num < 0 ? -magnitude : magnitude);
}

int32_t LoseCoordinationChanceBp(int quality_points) {
  return ClampBp(kLoseCoordinationBaseBp + int64_t{kLoseCoordinationPerPointBp} * quality_points);
}

int32_t BreakThroughChanceBp(int quality_points) {
  return ClampBp(kBreakThroughBaseBp + int64_t{kBreakThroughPerPointBp} * quality_points);
}

int32_t EvadeChanceBp(const Battle& b, int side) {
  if (b.windward_side < 0) return kEvadeNoGaugeBp;
  if (b.windward_side == side) return kEvadeWindwardBp;
  return b.where == Where::Coastal && b.onshore_wind ? kEvadeLeewardOnshoreBp : kEvadeLeewardBp;
}

int32_t CrewFactorBp(int32_t crew, int32_t full_crew) {
  assert(full_crew > 0);
  const int64_t crew_bp = int64_t{crew} * kBpWhole / full_crew;
  if (crew_bp >= kCrewFullStrengthBp) return kBpWhole;
  return ClampBp(kBpWhole - (kCrewFullStrengthBp - crew_bp) * kCrewPenaltyNumerator / kCrewPenaltyDenominator);
}

int32_t ShipStrengthTenths(const Combatant& c, const Situation& s, uint32_t version) {
  const KindRow& row = RowOf(c.kind);
  int64_t tenths = int64_t{row.strength_tenths} * (c.kind == Kind::FR ? c.frigates : 1);
  if (tenths == 0) return 0;
  tenths = tenths * CrewFactorBp(c.crew, c.full_crew) / kBpWhole;
  if (s.close_quarters) {
    // A point for each 20 Marines: whole twenties since version 11.
    tenths += version >= kWholeMarinesVersion ? int64_t{c.marines} / kMarinesPerPoint * kTenthsPerPoint
                                              : int64_t{c.marines} * kTenthsPerPoint / kMarinesPerPoint;
  }
  const int32_t doubled = s.close_quarters ? kCloseQuartersModifierFactor : 1;
  // The percentage modifiers add up, and apply once.
  int64_t bp = kBpWhole + doubled * (QualityBp(c.quality) + ExperienceBp(c.experience)) +
               c.hull * kHullDamagePointBp + c.rigging * kRiggingDamagePointBp + s.line_bp;
  if (s.windward) bp += kWindwardBp;
  if (s.closed) bp += kClosingBp;
  return static_cast<int32_t>(std::max<int64_t>(0, tenths * bp / kBpWhole));
}

int32_t BatteryStrengthTenths(uint8_t defence, uint8_t batteries, uint8_t damaged) {
  assert(damaged <= batteries);
  return defence * ((batteries - damaged) * kBatteryTenthsPerDefence + damaged * kDamagedBatteryTenthsPerDefence);
}

uint16_t ExperienceGain(int64_t a_tenths, int64_t b_tenths) {
  const int64_t hi = std::max(a_tenths, b_tenths), lo = std::min(a_tenths, b_tenths);
  if (hi == lo) return kExperienceByOdds.front().experience;
  for (const OddsRow& row : kExperienceByOdds) {
    if (hi * row.below_denominator < lo * row.below_numerator) return row.experience;
  }
  return kExperienceLongOdds;
}

Result<BattleResult> ResolveBattle(const Battle& b, DiceSource& dice) {
  ADJ_RETURN_IF_ERROR(Check(b));
  return Resolver(b, dice).Run();
}

}  // namespace adjutant::rules::pate
