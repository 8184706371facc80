// D12.4: one move of a battle. Units act in id order within each step; every
// roll is recorded with its purpose and chart; every outcome is an event the
// battle projection folds, and later steps read the state those events left
// (never a reference held across an Emit).
#include <algorithm>
#include <map>
#include <set>

#include "rules/dog/charts.h"
#include "rules/dog/dog.h"
#include "rules/dog/movement.h"
#include "rules/dog/tables.h"
#include "schema/event_generated.h"

namespace adjutant::rules::dog {

namespace P = projections;
using Fbb = flatbuffers::FlatBufferBuilder;

std::optional<NextMove> Next(const P::BattleState& s) {
  if (!s.active || s.ended || s.moves_done >= s.max_moves) return std::nullopt;
  NextMove n;
  n.move = s.moves_done + 1;
  n.at = TurnPhase{P::DogMove(n.move), kMovePhase};
  return n;
}

namespace {

template <class T>
std::pair<uint8_t, uint32_t> Body(flatbuffers::Offset<T> off) {
  return {static_cast<uint8_t>(fb::DogEventBodyTraits<T>::enum_value), off.o};
}

fb::DogPoint Pt(DogXY p) { return fb::DogPoint(p.x, p.y); }

// D12.8: where `p` lies from unit `u`'s front: ahead (within kFrontArcDegrees
// of its facing), behind (beyond kRearArcDegrees), else on its left or right.
enum class Where { Ahead, Left, Right, Rear, Here };
Where WhereIs(const P::DogUnitState& u, DogXY p) {
  const int64_t dx = p.x - u.x, dy = p.y - u.y;
  if (dx == 0 && dy == 0) return Where::Here;
  const int64_t d = ISqrt(dx * dx + dy * dy);
  const int64_t ahead = dx * Sin10k(u.facing) - dy * Cos10k(u.facing);  // x 10000
  const int64_t right = dx * Cos10k(u.facing) + dy * Sin10k(u.facing);
  if (ahead >= d * Cos10k(kFrontArcDegrees)) return Where::Ahead;
  if (ahead <= d * Cos10k(kRearArcDegrees)) return Where::Rear;
  return right > 0 ? Where::Right : Where::Left;
}

// D3.1, D3.2: whether a unit at `p` is seen from `d` mm away (woods hide it
// beyond their visibility).
bool Seen(const P::BattleState& s, DogXY p, int32_t d) {
  for (const auto& ter : s.terrain) {
    if (IsLinear(ter.kind)) continue;
    const int vis = Terrain(static_cast<fb::DogTerrainKind>(ter.kind)).visibility;
    if (vis > 0 && d > vis && PolygonContains(ter.points, p)) return false;
  }
  return true;
}

// D7.17, D14: in cover: inside woods or a building.
bool InCover(const P::BattleState& s, DogXY p) {
  for (const auto& ter : s.terrain) {
    if (!IsLinear(ter.kind) &&
        (ter.kind == fb::DogTerrainKind_OpenWoods || ter.kind == fb::DogTerrainKind_DenseWoods ||
         ter.kind == fb::DogTerrainKind_Building) &&
        PolygonContains(ter.points, p)) {
      return true;
    }
  }
  return false;
}

class Move {
 public:
  Move(PhaseWriter& w, const NextMove& n, DiceSource& dice)
      : w_(w),
        n_(n),
        dice_(dice),
        version_(w.rules_versions().Of(kRuleset)),  // the rules run under; the tags only stamp
        v2_(version_ >= kFlanksVersion),
        v3_(version_ >= kRetreatsVersion),
        v4_(version_ >= kChargedLoserVersion),
        v5_(version_ >= kShakenEffectsVersion) {}

  Status Run();

 private:
  const P::BattleState& s() const { return w_.battle(); }
  const P::DogUnitState& U(const std::string& id) const { return s().units.at(id); }

  template <class F>
  void Emit(F body) {
    Draft d;
    d.at = n_.at;
    d.payload = [body = std::move(body)](Fbb& f) {
      auto [type, off] = body(f);
      auto e = fb::CreateDogEvent(f, static_cast<fb::DogEventBody>(type), flatbuffers::Offset<void>(off));
      return PayloadRef{fb::Payload_DogEvent, e.o};
    };
    w_.Emit(std::move(d));
  }

  Result<int> Die(const std::string& subject, const std::string& purpose, const std::string& rule, uint32_t sides) {
    RollRequest req{n_.at, subject, purpose, rule, sides, 1};
    auto r = dice_.Next(req);
    if (!r.ok()) return r.status();
    w_.Emit(DieRolledDraft(*r, Actor{}));
    return static_cast<int>(r->results.at(0));
  }

  std::vector<std::string> Ids() const {
    std::vector<std::string> out;
    for (const auto& [id, u] : s().units) out.push_back(id);
    return out;
  }
  bool Active(const std::string& id) const { return !U(id).gone; }
  std::string Enemy(const std::string& side) const {
    for (const auto& x : s().sides) if (x != side) return x;
    return "";
  }
  // The nearest enemy on the table (not gone), or "".
  std::string NearestEnemy(const std::string& id) const {
    const auto& u = U(id);
    std::string best;
    int32_t d = INT32_MAX;
    for (const auto& [oid, o] : s().units) {
      if (o.gone || o.side == u.side) continue;
      int32_t dd = Distance({u.x, u.y}, {o.x, o.y});
      if (dd < d) { d = dd; best = oid; }
    }
    return best;
  }

  void Refuse(const std::string& unit, const std::string& rule, const std::string& reason) {
    Emit([=](Fbb& f) { return Body(fb::CreateDogIntentRefusedDirect(f, unit.c_str(), rule.c_str(), reason.c_str())); });
  }
  void State(const std::string& id, uint8_t cohesion, uint8_t fatigue, const std::string& cause, const std::string& rule) {
    const auto& u = U(id);
    if (u.cohesion == cohesion && u.fatigue == fatigue) return;
    Emit([=](Fbb& f) {
      return Body(fb::CreateDogStateChangedDirect(f, id.c_str(), static_cast<fb::DogCohesion>(cohesion),
                                                  static_cast<fb::DogFatigue>(fatigue), cause.c_str(), rule.c_str()));
    });
  }
  void Casualties(const std::string& id, int men, const std::string& cause, const std::string& rule) {
    men = std::min(men, U(id).strength);
    if (men <= 0) return;
    const int before = U(id).strength;
    Emit([=](Fbb& f) { return Body(fb::CreateDogCasualtiesDirect(f, id.c_str(), men, cause.c_str(), rule.c_str())); });
    lost_this_move_[id] += men;
    pending_casualty_tests_[id].push_back({before, U(id).strength});
  }
  // D2.10 (version 10, kTurnClearVersion): the facing `id` turns to where it
  // stands - `facing` if its new block overlaps no other unit, else the one it
  // has, `blocked` then saying so ("blocked by X", the unit in the way).
  int32_t TurnTo(const std::string& id, int32_t facing, std::string* blocked) const {
    const auto& u = U(id);
    if (facing == u.facing || version_ < kTurnClearVersion) return facing;
    const std::string blocker = BlockerAt(s(), id, {u.x, u.y}, facing);
    if (blocker.empty()) return facing;
    *blocked = "blocked by " + blocker;
    return u.facing;
  }
  // A turn where it stands (D1), or none when the unit in the way stops it (D2.10, version 10).
  void TurnInPlace(const std::string& id, int32_t facing, int32_t allowance) {
    std::string blocked;
    const int32_t to = TurnTo(id, facing, &blocked);
    MoveTo(id, {U(id).x, U(id).y}, to, 0, allowance, "", blocked, blocked.empty() ? "D1" : "D2.10");
  }
  void MoveTo(const std::string& id, DogXY to, int32_t facing, int32_t distance, int32_t allowance,
              const std::string& terrain, const std::string& stopped, const std::string& rule) {
    const auto& u = U(id);
    DogXY from{u.x, u.y};
    Emit([=](Fbb& f) {
      auto a = Pt(from), b = Pt(to);
      return Body(fb::CreateDogMovedDirect(f, id.c_str(), &a, &b, facing, distance, allowance, terrain.c_str(),
                                           stopped.c_str(), rule.c_str()));
    });
  }

  // D6: a morale test; returns the result.
  Result<std::string> Morale(const std::string& id, const std::string& occasion, const MoraleContext& extra);
  // D9: a control test.
  Status Control(const std::string& id, const std::string& occasion);
  // The context of a morale test from the table: casualties, routing friends near, its commander.
  MoraleContext ContextOf(const std::string& id) const;
  // D7.8, D7.9/D7.16, D7.15: `charger`'s charge on `target` adds being
  // charged to `c` - a charge received, by cavalry, from the rear when it set
  // out behind where the target stands now.
  void AddCharge(const std::string& charger, const std::string& target, MoraleContext& c) const;
  // D7.8, D7.9/D7.16, D7.15, D7.18 (version 9): a unit a charge reached this
  // move is being charged, a charger that reached its target charging, for
  // the rest of the move; none of it below version 9.
  MoraleContext ChargeContext(const std::string& id) const;

  // D10: how unit `o` moved this move, judged against `ref` (the tester for
  // an enemy; the friend's own nearest enemy for a friend).
  dog::Movement MovementOf(const std::string& o, DogXY ref) const;

  Status CommanderDeaths();
  Status Bindings();
  Status FormationChanges();
  void Reface(const std::string& id, int32_t face);
  // D1: a change of `time` quarters with `done` done goes on for what this
  // move allows (4 quarters); true when it is finished.
  bool Spend(const std::string& id, int32_t time, int32_t& done) {
    const int32_t spend = std::min(4, time - done);
    done += spend;
    quarters_used_[id] = spend;
    return done >= time;
  }
  Status Charges();
  // D6.5: a shaken defender not in square goes 50 mm straight back, once a
  // move; true when it moved.
  bool FallBack(const std::string& id);
  // D6.5 (version 5): the effect of a shaken result taken after movement: a
  // unit defending (charged this move) falls back; one that advanced or
  // charged has already moved (nothing is left to halt). True when it fell back.
  bool ShakenAfterMovement(const std::string& id, const std::string& result);
  // D6.5 (version 5): whether a path closes on the unit's nearest enemy (an
  // advance a shaken unit does not make).
  bool Advances(const std::string& id, const std::vector<DogXY>& path) const;
  Status MoveUnits();
  // D5: the target of a charge declared this move (its charger in contact or fallen short).
  bool ChargedThisMove(const std::string& id) const {
    return std::any_of(charging_.begin(), charging_.end(), [&](const auto& c) { return c.second == id; });
  }
  Status Fire();
  Status Melee();
  Status Casualties();
  Status Routs();
  Status Fatigue();
  void End();

  PhaseWriter& w_;
  NextMove n_;
  DiceSource& dice_;
  const uint32_t version_;  // the dog rules version run under
  const bool v2_;  // dog rules version 2 or later (dog.h kFlanksVersion); version 1 games audit as they were
  const bool v3_;  // dog rules version 3 or later (dog.h kRetreatsVersion)
  const bool v4_;  // dog rules version 4 or later (dog.h kChargedLoserVersion)
  const bool v5_;  // dog rules version 5 or later (dog.h kShakenEffectsVersion)
  std::map<std::string, int32_t> quarters_used_;          // D1: of the move's 4, by formation changes
  std::map<std::string, std::string> charging_;           // charger → target, declared this move
  std::set<std::string> halted_;                          // shaken chargers (D6.5) and bound units
  std::set<std::string> fought_;                          // charged or fought a round (D15)
  std::vector<std::pair<std::string, std::string>> contacts_;  // charger, target
  std::map<std::string, DogXY> charged_from_;                  // charger → where it set out (D4.25)
  std::map<std::string, int> lost_this_move_;
  std::map<std::string, std::vector<std::pair<int, int>>> pending_casualty_tests_;  // before, after
  std::set<std::string> newly_routing_;
  std::set<std::string> retiring_;                        // D11.6: bound to retire this move
  std::set<std::string> fell_back_;                       // D6.5, D11.6: went back this move (D5.4, version 3)
  std::map<std::string, DogXY> start_;                    // where each unit stood when the move began
  std::set<std::string> shaken_halt_;                     // D6.5 (version 5): shaken before movement
  std::set<std::string> shaken_back_;                     // D6.5: fell back 50 mm shaken this move
  std::set<std::string> standing_;                        // D11 (version 7): bound to stand, ordered to advance
  std::map<std::string, std::vector<DogXY>> fired_on_from_;  // target → where its firers stood (D10.13)
};

dog::Movement Move::MovementOf(const std::string& id, DogXY ref) const {
  const auto& o = U(id);
  if (o.routing) return Movement::Routing;
  auto it = start_.find(id);
  if (it == start_.end()) return Movement::Standing;
  const DogXY from = it->second, now{o.x, o.y};
  const int32_t d0 = Distance(from, ref), d1 = Distance(now, ref);
  if (d1 < d0) return Movement::Advancing;
  if (d1 == d0) return Movement::Standing;
  // Moving away: facing the way it goes (its back to `ref`) is retreating;
  // going back with its front still to `ref` is retiring.
  const int64_t away = int64_t(o.x - ref.x) * Sin10k(o.facing) - int64_t(o.y - ref.y) * Cos10k(o.facing);
  return away > 0 ? Movement::Retreating : Movement::Retiring;
}

MoraleContext Move::ContextOf(const std::string& id) const {
  const auto& u = U(id);
  MoraleContext c;
  c.casualties_pct = u.start_strength ? (u.start_strength - u.strength) * 100 / u.start_strength : 0;
  auto it = lost_this_move_.find(id);
  c.casualties_pct_this_move = it == lost_this_move_.end() || !u.start_strength ? 0 : it->second * 100 / u.start_strength;
  for (const auto& [oid, o] : s().units) {
    // D7.11: "each routing unit": of either side from version 3 (friends only before).
    if (oid == id || o.gone || (o.side != u.side && !v3_) || !o.routing) continue;
    if (Distance({u.x, u.y}, {o.x, o.y}) <= kRoutingRangeMm) c.routing_within_150++;
  }
  auto cmd = s().commanders.find(u.commander);
  if (cmd != s().commanders.end() && !cmd->second.lost) c.commander_rating = cmd->second.rating;
  // D7.14: supported: a friendly formed unit within 150 mm behind it (behind
  // its front, and no farther than 150 mm from it: a unit far off to a side
  // supports nothing).
  // Version 9: behind it is in its rear arc (D12.8); a friend on a flank,
  // however little behind its front, counts toward secure flanks (D7.13)
  // and does not support it (version 8 counted any friend behind its front
  // line). Judged from the units' centres.
  const bool rear_arc = version_ >= kSupportFromRearVersion;
  for (const auto& [oid, o] : s().units) {
    if (oid == id || o.gone || o.side != u.side || o.routing || o.cohesion != fb::DogCohesion_Formed) continue;
    const int64_t fx = Sin10k(u.facing), fy = -Cos10k(u.facing);
    const int64_t ahead = (int64_t(o.x - u.x) * fx + int64_t(o.y - u.y) * fy) / 10000;
    const bool behind = rear_arc ? WhereIs(u, {o.x, o.y}) == Where::Rear : ahead < 0;
    if (behind && Distance({u.x, u.y}, {o.x, o.y}) <= kRoutingRangeMm) c.supported = true;
  }
  // D7.7, D7.13 (D12.8): a flank is threatened by an enemy not routing within
  // kFlankThreatMm on that side; flanks are secure with a friend not routing
  // on each side within kSecureFlankMm and neither threatened. A square has
  // no flanks.
  if (!v2_) return c;
  if (u.formation != fb::DogFormation_Square) {
    bool threat_l = false, threat_r = false, friend_l = false, friend_r = false;
    for (const auto& [oid, o] : s().units) {
      if (oid == id || o.gone || o.routing) continue;
      const Where w = WhereIs(u, {o.x, o.y});
      if (w != Where::Left && w != Where::Right) continue;
      const int32_t d = Distance({u.x, u.y}, {o.x, o.y});
      if (o.side != u.side && d <= kFlankThreatMm) (w == Where::Left ? threat_l : threat_r) = true;
      if (o.side == u.side && d <= kSecureFlankMm) (w == Where::Left ? friend_l : friend_r) = true;
    }
    c.flanks_threatened = int(threat_l) + int(threat_r);
    c.secure_flanks = friend_l && friend_r && c.flanks_threatened == 0;
  }
  c.in_cover = InCover(s(), {u.x, u.y});  // D7.17
  return c;
}

void Move::AddCharge(const std::string& charger, const std::string& target, MoraleContext& c) const {
  // From where the charger set out (D4.25, D12.8; it has set out once it
  // reached), judged where the target stands as it tests.
  const auto from = charged_from_.find(charger);
  c.receiving_charge = true;
  c.charged_by_cavalry |= IsCavalry(static_cast<fb::DogArm>(U(charger).arm));
  c.attacked_from_rear |= from != charged_from_.end() && WhereIs(U(target), from->second) == Where::Rear;
}

MoraleContext Move::ChargeContext(const std::string& id) const {
  MoraleContext c;
  if (version_ < kChargeContextVersion) return c;
  // A charge made: the charger reached its target (D13 contact); one that fell
  // short, or never set out, is over.
  auto reached = [&](const std::string& charger, const std::string& target) {
    return std::find(contacts_.begin(), contacts_.end(), std::make_pair(charger, target)) != contacts_.end();
  };
  if (auto own = charging_.find(id); own != charging_.end()) c.charging = reached(id, own->second);
  for (const auto& [charger, target] : charging_) {
    if (target == id && reached(charger, id)) AddCharge(charger, id, c);
  }
  return c;
}

Result<std::string> Move::Morale(const std::string& id, const std::string& occasion, const MoraleContext& extra) {
  const auto& u = U(id);
  MoraleContext c = ContextOf(id);
  c.charged_by_cavalry = extra.charged_by_cavalry;
  c.receiving_charge = extra.receiving_charge;
  c.charging = extra.charging;
  c.attacked_from_rear = v2_ && extra.attacked_from_rear;
  auto roll = Die(id, "morale: " + occasion, "D6", kMoraleDie);
  if (!roll.ok()) return roll.status();
  MoraleResult r = MoraleTest(static_cast<fb::DogNation>(u.nation), static_cast<fb::DogArm>(u.arm),
                              static_cast<fb::DogClass>(u.cls), static_cast<fb::DogFormation>(u.formation),
                              static_cast<fb::DogCohesion>(u.cohesion), static_cast<fb::DogFatigue>(u.fatigue), u.morale,
                              c, *roll);
  const int rl = *roll, factor = u.morale * kMoraleFactorPct;
  const std::string mods = Describe(r.modifiers), result = r.result;
  const int total = r.factor_pct;
  Emit([=](Fbb& f) {
    return Body(fb::CreateDogMoraleTestDirect(f, id.c_str(), occasion.c_str(), factor, rl, mods.c_str(), total,
                                              result.c_str(), "D6"));
  });
  if (result == "break") newly_routing_.insert(id);
  return result;
}

Status Move::Control(const std::string& id, const std::string& occasion) {
  const auto& u = U(id);
  ControlContext c;
  std::string enemy = NearestEnemy(id);
  if (!enemy.empty()) {
    // D10.1-D10.6: the nearest enemy's movement this move, judged against
    // this unit; advancing from beyond its front is on a flank or the rear.
    const auto& e = U(enemy);
    c.enemy = !v2_ ? (e.routing ? Movement::Routing : Movement::Standing) : MovementOf(enemy, {u.x, u.y});
    if (c.enemy == Movement::Advancing) {
      // An enemy standing on the unit's very spot (a charger that reached the
      // centre of its front) has no bearing from it: it is judged from where it
      // set out this move (it closed in, so that is elsewhere).
      Where w = WhereIs(u, {e.x, e.y});
      if (auto st = start_.find(enemy); w == Where::Here && st != start_.end()) w = WhereIs(u, st->second);
      if (w != Where::Ahead) c.enemy = Movement::AdvancingOnFlank;
    }
    c.enemy_within_100 = Distance({u.x, u.y}, {e.x, e.y}) <= kControlRangeMm;
  }
  // D10.13: fired on this move from beyond its front.
  if (auto f = fired_on_from_.find(id); v2_ && f != fired_on_from_.end()) {
    for (const DogXY& from : f->second) c.under_fire_flank_or_rear |= WhereIs(u, from) != Where::Ahead;
  }
  // D10.7-D10.11: the nearest friend within 100 mm, judged against its own
  // nearest enemy (advancing: closing on it).
  std::string friend_id;
  int32_t nearest = INT32_MAX;
  for (const auto& [oid, o] : s().units) {
    if (oid == id || o.gone || o.side != u.side) continue;
    const int32_t dd = Distance({u.x, u.y}, {o.x, o.y});
    if (dd <= kControlRangeMm && dd < nearest) {
      nearest = dd;
      friend_id = oid;
    }
  }
  if (!friend_id.empty()) {
    const std::string fe = NearestEnemy(friend_id);
    c.friends = fe.empty() || !v2_ ? (U(friend_id).routing ? Movement::Routing : Movement::Standing)
                           : MovementOf(friend_id, {U(fe).x, U(fe).y});
  }
  for (int32_t m : u.melee_wins) c.melee_rounds_won_last_4 += m > n_.move - 4;
  auto cmd = s().commanders.find(u.commander);
  if (cmd != s().commanders.end() && !cmd->second.lost &&
      Distance({u.x, u.y}, {cmd->second.x, cmd->second.y}) <= kControlRangeMm) {
    c.senior_factor = cmd->second.control;
  }
  auto roll = Die(id, "control: " + occasion, "D9", kControlDie);
  if (!roll.ok()) return roll.status();
  ControlResult r = ControlTest(static_cast<fb::DogClass>(u.cls), u.control, c, *roll);
  if (!v2_ && r.result == "retire") r.moves = 0;  // version 1: retiring bound nothing
  const int rl = *roll, uf = u.control, sf = c.senior_factor, total = r.total, moves = r.moves;
  const std::string mods = Describe(r.modifiers), result = r.result;
  Emit([=](Fbb& f) {
    return Body(fb::CreateDogControlTestDirect(f, id.c_str(), occasion.c_str(), rl, uf, sf, mods.c_str(), total,
                                               result.c_str(), moves, "D11"));
  });
  return Status::Ok();
}

// D5.6, D8.2: a commander killed (the GA's directive, D12.6) is seen by his
// side's units within kCommanderSightMm that woods do not hide: they test
// morale; the units he commanded test control. Taken as the next move begins.
Status Move::CommanderDeaths() {
  if (!v2_) return Status::Ok();
  for (const auto& [cid, c] : s().commanders) {
    if (!c.tests_due) continue;
    const std::string side = c.side, commander = cid;
    const DogXY at{c.x, c.y};
    for (const std::string& id : Ids()) {
      const auto& u = U(id);
      if (u.gone || u.routing || u.side != side) continue;
      const int32_t d = Distance({u.x, u.y}, at);
      if (d > kCommanderSightMm || !Seen(s(), at, d)) continue;
      auto r = Morale(id, "commander killed within sight", MoraleContext{});
      if (!r.ok()) return r.status();
      if (v5_ && *r == "shaken") shaken_halt_.insert(id);  // D6.5 (version 5): it halts this move
    }
    for (const std::string& id : Ids()) {
      const auto& u = U(id);
      if (u.gone || u.routing || newly_routing_.count(id) || u.commander != commander) continue;
      ADJ_RETURN_IF_ERROR(Control(id, "unit commander killed"));
    }
    Emit([=](Fbb& f) {
      return Body(fb::CreateDogCommanderLostDirect(f, commander.c_str(), "killed (D12.6): his side tested (D5.6, D8.2)"));
    });
  }
  return Status::Ok();
}

// D11 and routs bind what a unit may do this move. A control result binds
// the moves after the one it was taken in.
Status Move::Bindings() {
  for (const std::string& id : Ids()) {
    const auto& u = U(id);
    if (u.gone) continue;
    auto it = s().intents.find(id);
    const bool advancing = it != s().intents.end() && (!it->second.path.empty() || !it->second.charge.empty());
    const bool bound = !u.bound.empty() && u.bound_set_in < n_.move;
    if (u.routing) {
      if (it != s().intents.end()) Refuse(id, "D6.6", id + " is routing: it obeys no orders");
      halted_.insert(id);
    } else if (!bound) {
      continue;
    } else if (u.bound == "retire") {
      // D11.6: it goes back a move, front to the enemy, whatever it was ordered.
      if (it != s().intents.end()) Refuse(id, "D11.6", id + " retires this move");
      retiring_.insert(id);
    } else if (u.bound == "stand" && advancing && version_ >= kStandKeepsFormationVersion) {
      // D11 (version 7): its formation change and refacing go on; its path
      // and its charge are refused where they would be made.
      standing_.insert(id);
    } else if (u.bound == "stand" && advancing) {
      Refuse(id, "D11", id + " must stand " + std::to_string(u.bound_moves) + " more move(s)");
      halted_.insert(id);
    } else if (u.bound == "pursue" && it != s().intents.end()) {
      // D11.1, D11.2: it pursues or charges the nearest enemy whatever it was
      // ordered (a formation change would otherwise take the move from it).
      Refuse(id, "D11", id + " pursues the nearest enemy " + std::to_string(u.bound_moves) + " more move(s)");
    }
  }
  return Status::Ok();
}

// D1: formation changes take their time of the move; a change longer than a
// move goes on the next (the unit does nothing else meanwhile).
Status Move::FormationChanges() {
  for (const std::string& id : Ids()) {
    const auto& u = U(id);
    if (u.gone || u.routing || retiring_.count(id)) continue;
    auto it = s().intents.find(id);
    const bool double_time = TakesDoubleTime(static_cast<fb::DogClass>(u.cls), static_cast<fb::DogFatigue>(u.fatigue));
    // D1.8, D1.9: re-forming, begun now or going on; the unit does nothing else.
    if (u.changing_to < 0 && (u.reform_time > 0 || (it != s().intents.end() && it->second.reform && !halted_.count(id)))) {
      if (u.cohesion == fb::DogCohesion_Formed) continue;
      const auto from = static_cast<fb::DogCohesion>(u.cohesion);
      int32_t time = u.reform_time, done = u.reform_done;
      if (time == 0) {
        auto q = ReformQuarters(static_cast<fb::DogNation>(u.nation), static_cast<fb::DogArm>(u.arm), from);
        if (!q || *q == 0) continue;
        time = *q * (double_time ? kDoubleTimeFactor : 1);
        done = 0;
      }
      const bool finished = Spend(id, time, done);
      const std::string rule = from == fb::DogCohesion_Unformed ? "D1.8" : "D1.9";
      Emit([=](Fbb& f) { return Body(fb::CreateDogReformedDirect(f, id.c_str(), from, time, done, finished, rule.c_str())); });
      continue;
    }
    int16_t to = u.changing_to;
    int32_t time = u.change_time, done = u.change_done;
    if (to < 0) {
      if (it == s().intents.end() || !it->second.change_formation || halted_.count(id)) continue;
      auto q = FormationChangeQuarters(static_cast<fb::DogNation>(u.nation), static_cast<fb::DogArm>(u.arm),
                                       static_cast<fb::DogFormation>(u.formation),
                                       static_cast<fb::DogFormation>(it->second.formation));
      if (!q) continue;  // refused on receipt
      to = it->second.formation;
      time = *q * (double_time ? kDoubleTimeFactor : 1);
      done = 0;
    }
    const bool finished = Spend(id, time, done);
    const auto from = static_cast<fb::DogFormation>(u.formation);
    Emit([=](Fbb& f) {
      return Body(fb::CreateDogFormationChangedDirect(f, id.c_str(), from, static_cast<fb::DogFormation>(to), time, done,
                                                      finished, "D1"));
    });
  }
  // D1.12: an unlimbered battery refaces in the quarters the move leaves it.
  for (const std::string& id : v2_ ? Ids() : std::vector<std::string>{}) {
    const auto& u = U(id);
    auto it = s().intents.find(id);
    if (u.gone || u.routing || retiring_.count(id) || halted_.count(id) || it == s().intents.end()) continue;
    if (!IsArtillery(static_cast<fb::DogArm>(u.arm)) || u.formation != fb::DogFormation_Unlimbered) continue;
    if (it->second.face >= 0 && it->second.face != u.facing) Reface(id, it->second.face);
  }
  return Status::Ok();
}

// D1.12: a battery turns the short way; a turn longer than the quarters left
// of the move turns as far as they allow (the rest, if ordered again, next
// move).
void Move::Reface(const std::string& id, int32_t face) {
  const auto& u = U(id);
  const int factor =
      TakesDoubleTime(static_cast<fb::DogClass>(u.cls), static_cast<fb::DogFatigue>(u.fatigue)) ? kDoubleTimeFactor : 1;
  const int32_t left = 4 - quarters_used_[id];
  int32_t cw = ((face - u.facing) % 360 + 360) % 360;  // clockwise degrees
  const int32_t sign = cw <= 180 ? 1 : -1;
  int32_t turn = cw <= 180 ? cw : 360 - cw;
  while (turn > 0 && RefaceQuarters(turn) * factor > left) --turn;
  if (turn == 0) return;
  const int32_t q = RefaceQuarters(turn) * factor;
  const int32_t to = ((u.facing + sign * turn) % 360 + 360) % 360;
  std::string blocked;
  if (TurnTo(id, to, &blocked) != to) {  // version 10: a unit in the way (D2.10); no quarters spent
    MoveTo(id, {u.x, u.y}, u.facing, 0, 0, "", blocked, "D2.10");
    return;
  }
  quarters_used_[id] += q;
  const std::string stopped =
      to == face ? "" : "turned " + std::to_string(turn) + " degrees in the " + std::to_string(left) + " quarters left";
  MoveTo(id, {u.x, u.y}, to, 0, 0, "refaced in " + std::to_string(q) + " quarter(s)", stopped, "D1.12");
}

// D5: charges are declared: the charger tests (D5.2), infantry charged tests
// (D5.1); a charger that breaks or is shaken does not go in; a charged unit
// that is shaken falls back 50 mm unless in square (D6.5).
Status Move::Charges() {
  for (const std::string& id : Ids()) {
    const auto& u = U(id);
    auto it = s().intents.find(id);
    std::string target;
    // D11: pursue or charge the nearest enemy; (version 2) a square or a
    // battery, which may not charge (D5), holds where it is instead.
    const bool may_charge = !v2_ || (!IsArtillery(static_cast<fb::DogArm>(u.arm)) && u.formation != fb::DogFormation_Square);
    if (u.bound == "pursue" && u.bound_set_in < n_.move && !u.routing && may_charge) target = NearestEnemy(id);
    else if (it != s().intents.end()) target = it->second.charge;
    if (target.empty() || u.gone || u.routing || halted_.count(id) || retiring_.count(id) || quarters_used_[id] >= 4) {
      continue;
    }
    if (U(target).gone) continue;
    if (standing_.count(id)) continue;  // D11 (version 7): refused with its path, in MoveUnits
    if (shaken_halt_.count(id)) {
      // D6.5 (version 5): shaken before movement, it does not charge.
      if (it != s().intents.end()) Refuse(id, "D6.5", id + " is shaken: it halts and makes no charge this move");
      continue;
    }
    if (v5_ && u.formation == fb::DogFormation_Square) {
      // D5, D6.5 (version 5): a square stands; it charges no more by order
      // than when bound to pursue (the formation as its changes this move left it).
      Refuse(id, "D5", id + " is in square: a square does not charge");
      continue;
    }
    MoraleContext me;
    me.charging = true;
    auto r = Morale(id, "charging", me);
    if (!r.ok()) return r.status();
    if (*r != "pass") {
      halted_.insert(id);  // D6.5: a shaken charger halts; D6.6: a broken one routs. Neither charges (D15).
      continue;
    }
    fought_.insert(id);  // D15: it charges
    charging_[id] = target;
    const auto& t = U(target);
    if (IsFoot(static_cast<fb::DogArm>(t.arm)) && !t.routing) {
      MoraleContext them;
      them.receiving_charge = true;
      them.charged_by_cavalry = IsCavalry(static_cast<fb::DogArm>(u.arm));
      them.attacked_from_rear = WhereIs(t, {u.x, u.y}) == Where::Rear;  // D7.8 (D12.8)
      auto tr = Morale(target, "infantry being charged", them);
      if (!tr.ok()) return tr.status();
      // D6.5, D6.6: a charged unit that is shaken halts (it makes no advance or
      // charge of its own this move); one that breaks obeys no orders.
      if (*tr != "pass") {
        halted_.insert(target);
        if (charging_.erase(target)) fought_.erase(target);  // its own charge is not made (D15)
      }
      if (*tr == "shaken" && U(target).formation != fb::DogFormation_Square) FallBack(target);
    }
  }
  return Status::Ok();
}

bool Move::FallBack(const std::string& id) {
  // Version 5: once a move, however often it is shaken (version 4: a charged
  // unit shaken by each of two charges went back twice).
  if (v5_ && !shaken_back_.insert(id).second) return false;
  // D6.5: a shaken defender retires 50 mm, straight back.
  const auto& tt = U(id);
  const int64_t fx = Sin10k(tt.facing), fy = -Cos10k(tt.facing);
  DogXY back{static_cast<int32_t>(tt.x - fx * kShakenRetireMm / 10000),
             static_cast<int32_t>(tt.y - fy * kShakenRetireMm / 10000)};
  Walk wk = WalkPath(s(), id, {back}, kShakenRetireMm, version_);
  MoveTo(id, wk.to, tt.facing, wk.distance, kShakenRetireMm, wk.terrain, wk.stopped, "D6.5");
  if (wk.distance > 0) fell_back_.insert(id);  // D5.4 (version 3)
  return wk.distance > 0;
}

bool Move::ShakenAfterMovement(const std::string& id, const std::string& result) {
  if (!v5_ || result != "shaken" || U(id).gone || U(id).routing || U(id).formation == fb::DogFormation_Square) {
    return false;
  }
  // Defending: charged this move.
  return ChargedThisMove(id) && FallBack(id);
}

bool Move::Advances(const std::string& id, const std::vector<DogXY>& path) const {
  const std::string enemy = NearestEnemy(id);
  if (path.empty() || enemy.empty()) return false;
  const DogXY e{U(enemy).x, U(enemy).y};
  return Distance(path.back(), e) < Distance({U(id).x, U(id).y}, e);
}

// D2, D3: movement: each unit walks its intended path (a charger straight at
// its target) with what the move leaves of its allowance after a formation
// change; contact with a charge's target is a melee (D13).
Status Move::MoveUnits() {
  std::vector<std::string> order = Ids();
  if (version_ >= kTargetsMoveFirstVersion) {
    // D5 (version 7): a unit charged this move that holds (and makes no
    // charge of its own) moves first, then the rest in id order: a charger
    // goes in at where its target then stands (version 6: all in id order,
    // so a target before its charger walked away and one after it was caught).
    std::stable_partition(order.begin(), order.end(),
                          [&](const std::string& id) { return !charging_.count(id) && ChargedThisMove(id); });
  }
  for (const std::string& id : order) {
    const auto& u = U(id);
    if (u.gone || u.routing) continue;
    const bool halted = halted_.count(id) > 0;
    if (halted && !standing_.count(id)) continue;
    auto it = s().intents.find(id);
    const int32_t quarters = 4 - quarters_used_[id];
    const auto formation = static_cast<fb::DogFormation>(u.formation);
    if (standing_.count(id) && it != s().intents.end()) {
      // D11 (version 7): bound to stand, it makes no charge and walks none of
      // its path (one refusal); it may still turn where it stands (an
      // unlimbered battery refaces, D1.12).
      const bool refacing = it->second.face >= 0 && it->second.face != u.facing &&
                            !(IsArtillery(static_cast<fb::DogArm>(u.arm)) && formation == fb::DogFormation_Unlimbered);
      const int32_t face = it->second.face;
      if (!it->second.charge.empty()) {
        Refuse(id, "D11", id + " must stand " + std::to_string(u.bound_moves) + " more move(s): it makes no charge");
      } else if (!it->second.path.empty()) {
        Refuse(id, "D11", id + " must stand " + std::to_string(u.bound_moves) + " more move(s): it walks none of its path");
      }
      if (refacing && quarters > 0 && !halted) {
        TurnInPlace(id, face, Allowance(static_cast<fb::DogArm>(u.arm), formation) * quarters / 4);
      }
      continue;
    }
    if (halted || quarters <= 0) continue;
    int32_t allowance = Allowance(static_cast<fb::DogArm>(u.arm), formation) * quarters / 4;
    if (retiring_.count(id)) {
      // D11.6: straight back, front kept to the enemy.
      const int32_t back = allowance * kRetirePercent / 100;
      if (back <= 0) continue;
      const int64_t fx = Sin10k(u.facing), fy = -Cos10k(u.facing);
      const DogXY to{static_cast<int32_t>(u.x - fx * back / 10000), static_cast<int32_t>(u.y - fy * back / 10000)};
      Walk wk = WalkPath(s(), id, {to}, allowance, version_);
      MoveTo(id, wk.to, u.facing, wk.distance, allowance, wk.terrain, wk.stopped,
             wk.stopped.empty() ? "D11.6" : wk.stopped_rule);
      if (wk.distance > 0) fell_back_.insert(id);  // D5.4 (version 3)
      if (wk.cohesion != U(id).cohesion) State(id, wk.cohesion, U(id).fatigue, "terrain: " + wk.terrain, "D3");
      continue;
    }
    if (shaken_halt_.count(id) && it != s().intents.end() && Advances(id, it->second.path)) {
      // D6.5 (version 5): shaken before movement, it does not advance.
      Refuse(id, "D6.5", id + " is shaken: it halts and makes no advance this move");
      continue;
    }
    // An unlimbered battery turns only by refacing (D1.12, above).
    const bool fixed_battery = v2_ && IsArtillery(static_cast<fb::DogArm>(u.arm)) && formation == fb::DogFormation_Unlimbered;
    int32_t facing = it != s().intents.end() && it->second.face >= 0 && !fixed_battery ? it->second.face : u.facing;
    std::vector<DogXY> path;
    std::string rule = "D2";
    auto ch = charging_.find(id);
    if (ch != charging_.end()) {
      const auto& t = U(ch->second);
      path = {{t.x, t.y}};
      rule = "D5.2";
      charged_from_[id] = {u.x, u.y};
    } else if (it != s().intents.end()) {
      path = it->second.path;
    }
    if (path.empty()) {
      if (facing != u.facing) TurnInPlace(id, facing, allowance);
      continue;
    }
    if (allowance <= 0) continue;
    Walk wk = WalkPath(s(), id, path, allowance, version_, version_ >= kWalkFacingVersion ? facing : -1);
    std::string stopped = wk.stopped;
    std::string turn_blocked;
    if (wk.distance == 0) {
      // Version 10: stopped at its first step, it turns where it stands only
      // into a clear block (and a charge's contact is judged as it stands).
      facing = TurnTo(id, facing, &turn_blocked);
      if (stopped.empty()) stopped = turn_blocked;
    }
    if (ch != charging_.end()) {
      // Contact: stopped by the target itself, or close enough to its block.
      const auto& t = U(ch->second);
      // Version 7: block to block; version 6: front centre to front centre, the target's depth allowed.
      const bool near = version_ >= kContactBlocksVersion
                            ? FootprintsWithin(Footprint(U(id), wk.to, facing), Footprint(t, {t.x, t.y}, t.facing), kContactMm)
                            : Distance(wk.to, {t.x, t.y}) <= kContactMm + Depth(t);
      const bool reached = stopped == "blocked by " + ch->second || near;
      if (reached) {
        contacts_.push_back({id, ch->second});
        // D13: the unit charged is held in contact: it walks no farther this
        // move (one later in id order would otherwise leave the melee behind).
        halted_.insert(ch->second);
      } else if (stopped.empty()) {
        stopped = "the charge fell short";
      }
    }
    // A move stopped short names the rule that stopped it (D2, D2.10, D3.n).
    if (v2_ && !wk.stopped.empty() && !wk.stopped_rule.empty() && rule == "D2") rule = wk.stopped_rule;
    if (wk.stopped.empty() && !turn_blocked.empty() && rule == "D2") rule = "D2.10";
    MoveTo(id, wk.to, facing, wk.distance, allowance, wk.terrain, stopped, rule);
    if (wk.cohesion != U(id).cohesion) State(id, wk.cohesion, U(id).fatigue, "terrain: " + wk.terrain, "D3");
  }
  // D8.3: a charge that failed to make contact tests control (a charger
  // met first by another's charge is in contact: it does not).
  for (const auto& [id, target] : charging_) {
    bool met = std::any_of(contacts_.begin(), contacts_.end(),
                           [&](const auto& c) { return c.first == id || c.second == id; });
    if (!met && !U(id).gone) ADJ_RETURN_IF_ERROR(Control(id, "charge failed to make contact"));
  }
  return Status::Ok();
}

// D14 (ASSUMED): fire, at what can be seen (D3.1, D3.2).
Status Move::Fire() {
  std::set<std::string> in_contact;
  for (const auto& [a, b] : contacts_) in_contact.insert(a), in_contact.insert(b);
  for (const std::string& id : Ids()) {
    const auto& u = U(id);
    if (u.gone || u.routing || in_contact.count(id) || u.cohesion == fb::DogCohesion_Disordered) continue;
    const auto arm = static_cast<fb::DogArm>(u.arm);
    const auto f = static_cast<fb::DogFormation>(u.formation);
    const FireRow* row = nullptr;
    for (const auto& r : kFire) {
      if (r.arm == arm || (IsFoot(arm) && f == fb::DogFormation_Skirmish && r.arm == fb::DogArm_Skirmishers)) row = &r;
    }
    if (!row) continue;
    const bool battery = IsArtillery(arm);
    if (battery ? f != fb::DogFormation_Unlimbered : (f != fb::DogFormation_Line && f != fb::DogFormation_Skirmish)) continue;
    // The nearest enemy ahead, in range, and in sight (D3.1, D3.2: a unit in
    // woods is seen only so far).
    std::string target;
    int32_t best = INT32_MAX;
    for (const auto& [oid, o] : s().units) {
      if (o.gone || o.side == u.side) continue;
      const int32_t d = Distance({u.x, u.y}, {o.x, o.y});
      if (d > row->range_mm || d >= best || d == 0 || !Seen(s(), {o.x, o.y}, d)) continue;
      const int64_t fx = Sin10k(u.facing), fy = -Cos10k(u.facing);
      const int64_t ahead = (int64_t(o.x - u.x) * fx + int64_t(o.y - u.y) * fy) / 10000;
      if (ahead * 10000 < int64_t(d) * Cos10k(kFireArcDegrees)) continue;  // outside the arc
      best = d;
      target = oid;
    }
    if (target.empty()) continue;
    auto roll = Die(id, "fire at " + target, "D14", kFireDie);
    if (!roll.ok()) return roll.status();
    int men = battery ? (u.strength / kMenPerGun) * row->men_per_gun_roll * *roll
                      : u.strength * row->pct_per_roll_tenths * *roll / 1000;
    if (best * 2 > row->range_mm) men /= 2;
    const auto& t = U(target);
    if (InCover(s(), {t.x, t.y}) || t.formation == fb::DogFormation_Skirmish) men /= 2;
    fired_on_from_[target].push_back({u.x, u.y});
    Casualties(target, men, "fire of " + id, "D14");
  }
  return Status::Ok();
}

// D13 (ASSUMED): a round of melee for each contact: d10 + D4 each side.
Status Move::Melee() {
  for (const auto& [a, d] : contacts_) {
    if (U(a).gone || U(d).gone || U(a).routing) continue;
    fought_.insert(a);
    if (v2_ && U(d).routing) {
      // A routing unit caught does not fight back: it is cut down as it runs.
      const int men = U(d).strength * kCaughtRoutingPct / 100;
      Casualties(d, std::max(1, men), "caught routing by " + a, "D13");
      continue;
    }
    fought_.insert(d);
    auto side_of = [&](const std::string& id, bool uphill) {
      const auto& u = U(id);
      MeleeSide m;
      m.arm = static_cast<fb::DogArm>(u.arm);
      m.cls = static_cast<fb::DogClass>(u.cls);
      m.formation = static_cast<fb::DogFormation>(u.formation);
      m.cohesion = static_cast<fb::DogCohesion>(u.cohesion);
      m.fatigue = static_cast<fb::DogFatigue>(u.fatigue);
      m.strength = u.strength;
      // D4.17, D4.19: a line of foot drawn up in one rank (the scenario's ranks).
      m.single_rank = v2_ && IsFoot(m.arm) && m.formation == fb::DogFormation_Line && u.ranks == 1;
      m.following_up = std::find(u.melee_wins.begin(), u.melee_wins.end(), n_.move - 1) != u.melee_wins.end();
      m.uphill = uphill;
      return m;
    };
    // D4.25: uphill is the side higher up a slope that either stands on (or
    // the charger set out from), measured along the line of the charge: from
    // where the charger set out to the defender (after a head-on charge the
    // charger's front stands on the defender's, so their positions alone give
    // no direction).
    auto from_it = charged_from_.find(a);
    const DogXY from = from_it != charged_from_.end() ? from_it->second : DogXY{U(a).x, U(a).y};
    bool defender_up = false, attacker_up = false;
    for (const auto& ter : s().terrain) {
      if (ter.kind < fb::DogTerrainKind_GentleSlope || IsLinear(ter.kind)) continue;
      if (!PolygonContains(ter.points, {U(d).x, U(d).y}) && !PolygonContains(ter.points, {U(a).x, U(a).y}) &&
          !PolygonContains(ter.points, from)) {
        continue;
      }
      const int64_t ux = Sin10k(ter.uphill), uy = -Cos10k(ter.uphill);
      const int64_t climb = int64_t(U(d).x - from.x) * ux + int64_t(U(d).y - from.y) * uy;
      defender_up |= climb > 0;
      attacker_up |= climb < 0;
    }
    // The round of this melee: version 2 counts the rounds the two have
    // fought move after move; version 1 counted the attacker's win last move.
    const int round = !v2_ ? 1 + static_cast<int>(std::count(U(a).melee_wins.begin(), U(a).melee_wins.end(), n_.move - 1))
                      : U(a).melee_with == d && U(a).melee_move == n_.move - 1 ? U(a).melee_round + 1
                                                                                : 1;
    MeleeSide as = side_of(a, attacker_up), ds = side_of(d, defender_up);
    auto am = MeleeModifiers(as, ds, round), dm = MeleeModifiers(ds, as, round);
    // D6.5: a shaken square stands but fights worse (kShakenSquareMelee, ASSUMED).
    for (auto [id, mods] : {std::pair{a, &am}, std::pair{d, &dm}}) {
      if (v2_ && U(id).shaken && U(id).formation == fb::DogFormation_Square) mods->push_back({kShakenSquareMelee, "shaken square (D6.5)"});
    }
    auto ar = Die(a + " v " + d, "melee: attacker", "D13", kMeleeDie);
    if (!ar.ok()) return ar.status();
    auto dr = Die(a + " v " + d, "melee: defender", "D13", kMeleeDie);
    if (!dr.ok()) return dr.status();
    const int at = *ar + Sum(am), dt = *dr + Sum(dm);
    const std::string winner = at > dt ? a : dt > at ? d : "";
    const std::string loser = at > dt ? d : dt > at ? a : "";
    const int diff = std::abs(at - dt);
    auto loss = [&](const std::string& id) {
      const int s = U(id).strength;
      if (winner.empty()) return s * kMeleeDrawPct / 100;
      if (id == winner) return s * kMeleeWinnerPct / 100;
      return s * std::min(kMeleeMaxPct, kMeleeLoserPct + kMeleePerPointPct * diff) / 100;
    };
    const int al = loss(a), dl = loss(d), arv = *ar, drv = *dr;
    const std::string amods = Describe(am), dmods = Describe(dm);
    Emit([=](Fbb& f) {
      return Body(fb::CreateDogMeleeRoundDirect(f, a.c_str(), d.c_str(), round, arv, amods.c_str(), at, drv,
                                                dmods.c_str(), dt, winner.c_str(), al, dl));
    });
    Casualties(a, al, "melee with " + d, "D13");
    Casualties(d, dl, "melee with " + a, "D13");
    if (!loser.empty() && !U(loser).gone) {
      // D5.3 (version 4): a unit the winner charged this move is still being
      // charged when it tests for the round it lost: from where the charger
      // set out (D7.8, D12.8), by cavalry (D7.9, D7.16), a charge received
      // (D7.15), as its D5.1 test judged it.
      // Version 9: as every test after the charges, its own being charged or charging (ChargeContext).
      MoraleContext charged;
      if (version_ >= kChargeContextVersion) {
        charged = ChargeContext(loser);
      } else if (auto ch = charging_.find(winner); v4_ && ch != charging_.end() && ch->second == loser) {
        AddCharge(winner, loser, charged);
      }
      auto r = Morale(loser, "lost a round of melee", charged);
      if (!r.ok()) return r.status();
      ShakenAfterMovement(loser, *r);  // D6.5 (version 5)
    }
    if (!winner.empty() && !U(winner).gone) ADJ_RETURN_IF_ERROR(Control(winner, "won a melee"));
  }
  return Status::Ok();
}

// D5.5, D5.7: casualties taken this move test morale.
Status Move::Casualties() {
  for (const auto& [id, steps] : pending_casualty_tests_) {
    if (U(id).gone || newly_routing_.count(id) || U(id).routing) continue;
    int tests = 0;
    bool below_half = false;
    const int start = U(id).start_strength;
    for (const auto& [before, after] : steps) {
      tests += CasualtyTests(start, before, after);
      below_half |= BelowHalfTest(start, before, after);
    }
    for (int i = 0; i < tests + (below_half ? 1 : 0); ++i) {
      if (newly_routing_.count(id)) break;
      // Version 9: a unit charged this move is still being charged, a charger charging (D7.8-D7.18).
      auto r = Morale(id, i < tests ? "10% casualties" : "below half strength and losing more", ChargeContext(id));
      if (!r.ok()) return r.status();
      ShakenAfterMovement(id, *r);  // D6.5 (version 5)
    }
  }
  return Status::Ok();
}

// D6.6: broken units rout; friends within 150 mm of a rout test (D5.4); a
// routing unit runs its full allowance straight away from the nearest enemy.
// Version 3: "friends retreating" are also those that went back this move,
// a shaken defender falling back (D6.5) or a unit retiring (D11.6): their
// friends within 150 mm test as a rout's do (versions 1 and 2: routs only).
// Version 8: the units of a wave that went back, not routing, test for the
// others of the wave too, and one that a test of the wave sends back (or
// breaks) starts the next wave from where it then stands (version 7 skipped
// the units of the wave as testers).
Status Move::Routs() {
  std::set<std::string> tested;
  if (v3_) {
    for (const std::string& id : fell_back_) {
      if (!U(id).gone) newly_routing_.insert(id);  // the first wave: new routs and retreats alike
    }
  }
  // Each unit tests at most once a move, so the cascade ends (version 1 cut
  // it after 4 waves).
  for (size_t pass = 0; !newly_routing_.empty() && (v2_ || pass < 4); ++pass) {
    std::set<std::string> now;
    now.swap(newly_routing_);
    for (const std::string& id : now) {
      for (const std::string& fid : Ids()) {
        const auto& f = U(fid);
        // Version 8: a unit of the wave that went back, not routing, tests too.
        const bool in_wave = now.count(fid) && version_ < kWaveTestsVersion;
        if (fid == id || f.gone || f.routing || f.side != U(id).side || tested.count(fid) || in_wave) continue;
        if (Distance({f.x, f.y}, {U(id).x, U(id).y}) > kFriendsRetreatingRangeMm) continue;
        tested.insert(fid);
        auto r = Morale(fid, "friends retreating within 150 mm", ChargeContext(fid));  // version 9: charged, charging
        if (!r.ok()) return r.status();
        // D6.5 (version 5): a defender it shakes falls back, and its friends
        // within 150 mm test in the next wave.
        if (ShakenAfterMovement(fid, *r)) newly_routing_.insert(fid);
      }
    }
    // Version 8: a unit of this wave that a test of it sent back or broke
    // stays for the next wave (only a unit of the wave can be re-added, and
    // only after its first D5.4 test, so the waves still end).
    if (version_ < kWaveTestsVersion) {
      for (const std::string& id : now) newly_routing_.erase(id);
    }
  }
  for (const std::string& id : Ids()) {
    const auto& u = U(id);
    if (u.gone || !u.routing) continue;
    std::string enemy = NearestEnemy(id);
    // Away from the enemy, or towards its own side's edge of the table; from
    // an enemy standing on its very spot (a charger that reached its front's
    // centre), straight back from its front.
    int64_t dx = 0, dy = u.facing >= 90 && u.facing < 270 ? -1 : 1;
    if (!enemy.empty()) {
      dx = u.x - U(enemy).x;
      dy = u.y - U(enemy).y;
      if (dx == 0 && dy == 0) {
        dx = -Sin10k(u.facing);
        dy = Cos10k(u.facing);
      }
    }
    const int64_t len = std::max<int64_t>(1, ISqrt(dx * dx + dy * dy));
    auto formation = static_cast<fb::DogFormation>(u.formation);
    if (formation == fb::DogFormation_Square || formation == fb::DogFormation_Line) formation = fb::DogFormation_ColumnOfMarch;
    const int32_t run = std::max(Allowance(static_cast<fb::DogArm>(u.arm), formation), 100);
    DogXY to{static_cast<int32_t>(u.x + dx * run / len), static_cast<int32_t>(u.y + dy * run / len)};
    Emit([=](Fbb& f) {
      auto p = Pt(to);
      return Body(fb::CreateDogRoutedDirect(f, id.c_str(), &p, "D6.6"));
    });
  }
  return Status::Ok();
}

// D15 (ASSUMED): charging or fighting tires.
Status Move::Fatigue() {
  for (const std::string& id : fought_) {
    const auto& u = U(id);
    if (u.gone || u.fatigue == fb::DogFatigue_Exhausted) continue;
    State(id, u.cohesion, static_cast<uint8_t>(u.fatigue + 1), "charged or fought", "D15");
  }
  return Status::Ok();
}

// D12.1: the battle ends after its last move, or when a side has nothing
// left on the table that is not routing.
void Move::End() {
  std::map<std::string, int> standing;
  for (const auto& side : s().sides) standing[side] = 0;
  for (const auto& [id, u] : s().units) {
    if (!u.gone && !u.routing) standing[u.side]++;
  }
  std::vector<std::string> broken;
  for (const auto& [side, n] : standing) if (n == 0) broken.push_back(side);
  std::string reason, winner;
  if (broken.size() == 2) {
    reason = "both sides broken";
  } else if (broken.size() == 1) {
    reason = "the " + broken[0] + " side has nothing left standing";
    winner = Enemy(broken[0]);
  } else if (n_.move >= s().max_moves) {
    reason = "the last move was fought";
  } else {
    return;
  }
  Emit([=](Fbb& f) { return Body(fb::CreateDogBattleEndedDirect(f, reason.c_str(), winner.c_str())); });
}

Status Move::Run() {
  for (const auto& [id, u] : s().units) start_[id] = {u.x, u.y};
  ADJ_RETURN_IF_ERROR(CommanderDeaths());
  ADJ_RETURN_IF_ERROR(Bindings());
  ADJ_RETURN_IF_ERROR(FormationChanges());
  ADJ_RETURN_IF_ERROR(Charges());
  ADJ_RETURN_IF_ERROR(MoveUnits());
  ADJ_RETURN_IF_ERROR(Fire());
  ADJ_RETURN_IF_ERROR(Melee());
  ADJ_RETURN_IF_ERROR(Casualties());
  ADJ_RETURN_IF_ERROR(Routs());
  ADJ_RETURN_IF_ERROR(Fatigue());
  End();
  return Status::Ok();
}

}  // namespace

Status RunMove(PhaseWriter& w, const NextMove& next, DiceSource& dice) {
  Move m(w, next, dice);
  return m.Run();
}

}  // namespace adjutant::rules::dog
