#include "rules/y1820/war.h"

#include <algorithm>
#include <vector>

#include "rules/y1820/formulas.h"
#include "rules/y1820/tables.h"

namespace adjutant::rules::y1820 {

using projections::Y1820StandingOrder;

namespace {

std::string P(int32_t id) { return "province " + std::to_string(id); }

bool Touches(const projections::Y1820State& s, int32_t province, const std::string& sea) {
  auto it = s.defs.find(province);
  return it != s.defs.end() && std::find(it->second.seas.begin(), it->second.seas.end(), sea) != it->second.seas.end();
}

bool SeasAdjacent(const projections::Y1820State& s, const std::string& a, const std::string& b) {
  auto it = s.seas.find(a);
  return it != s.seas.end() &&
         std::find(it->second.neighbours.begin(), it->second.neighbours.end(), b) != it->second.neighbours.end();
}

int TechBonus(const projections::Y1820State& s, const std::string& nation, int Tech::*field) {
  const auto* n = s.Nation(nation);
  if (!n) return 0;
  int b = 0;
  for (const auto& t : kTechs) {
    if (n->techs.count(std::string(t.id))) b += t.*field;
  }
  return b;
}

void Mod(std::string& out, int n, const std::string& what) {
  if (n == 0) return;
  if (!out.empty()) out += ", ";
  out += (n > 0 ? "+" : "") + std::to_string(n) + " " + what;
}

int Get(const std::map<std::string, int32_t>& m, const std::string& k) {
  auto it = m.find(k);
  return it == m.end() ? 0 : it->second;
}

// The fleets at sea in `sea`, by nation (none: empty).
const std::map<std::string, int32_t>& FleetsIn(const projections::Y1820State& s, const std::string& sea) {
  static const std::map<std::string, int32_t> kNone;
  auto sf = s.sea_fleets.find(sea);
  return sf == s.sea_fleets.end() ? kNone : sf->second;
}

// Y8.3, Y12.2: the nations whose fleets in `sea` may escort `nation`'s
// armies: its own first, then its pact partners' in name order.
std::vector<std::string> EscortOwners(const projections::Y1820State& s, const std::string& sea, const std::string& nation) {
  std::vector<std::string> owners{nation};
  for (const auto& [owner, k] : FleetsIn(s, sea)) {
    if (owner != nation && s.HasTreaty(nation, owner, "pact")) owners.push_back(owner);
  }
  return owners;
}

// Y8.3 (version 3): `owner`'s fleets in `sea` that have escorted this turn,
// never more than are there now (a battle's losses fall on the fleets that
// have not escorted first).
int32_t Spent(Ctx& c, const std::string& sea, const std::string& owner) {
  const int32_t there = Get(FleetsIn(c.s(), sea), owner);
  int32_t& spent = c.escorts_spent()[{sea, owner}];
  spent = std::min(spent, there);
  return spent;
}

// Y8.2: a port is friendly to a nation's fleets when it is the nation's own or
// that of a nation it has a treaty with (non-aggression, exchange or pact).
bool FriendlyPort(const projections::Y1820State& s, const std::string& fleets, const std::string& owner) {
  if (owner == fleets) return true;
  if (owner.empty()) return false;
  for (std::string_view kind : kTreatyKinds) {
    if (s.HasTreaty(fleets, owner, std::string(kind))) return true;
  }
  return false;
}

}  // namespace

// ---- armies (Y5, Y8.3) -----------------------------------------------------------

void Moves::Plan(const std::vector<Y1820StandingOrder>& orders) {
  if (c_.version() < kPooledAttackVersion) return;
  for (const auto& o : orders) {
    if (o.kind == "Y1820Move") last_move_to_[o.b] = o.seq;
  }
}

Status Moves::Army(const Y1820StandingOrder& o) {
  ADJ_RETURN_IF_ERROR(ArmyOrder(o));
  // Version 9: the last order naming a province the nation attacks brings on the battle, whatever became of it.
  auto last = last_move_to_.find(o.b);
  if (waiting_.count(o.b) && last != last_move_to_.end() && last->second == o.seq) return Fight(o.b);
  return Status::Ok();
}

// Version 9: the columns waiting to attack `to` fight as one side - or, if
// it is no longer hostile (taken from its owner another way this turn: a
// fallen capital's provinces surrender, Y3.1), move in. Version 10 (tables.h
// kStandingJoinAttackVersion): with the nation's armies standing there first.
Status Moves::Fight(int32_t to) {
  std::vector<Column> columns = std::move(waiting_[to]);
  waiting_.erase(to);
  const std::string owner = c_.s().Province(to)->owner;
  if (!owner.empty() && !c_.s().AtWar(nation_, owner)) {
    for (const Column& col : columns) MovedIn(col.from, to, col.armies, {}, col.seas, col.rule);
    return Status::Ok();
  }
  if (c_.version() >= kStandingJoinAttackVersion) {
    // Version 10: the nation's armies standing there, free to fight, head the attacking side.
    const int32_t standing = FreeIn(to);
    if (standing > 0) columns.insert(columns.begin(), Column{to, standing, 0, "", {}, ""});
  }
  return Attack(to, std::move(columns));
}

int32_t Moves::FreeIn(int32_t province, std::string* waiting) const {
  int32_t held = 0;
  for (const auto& [target, columns] : waiting_) {
    int32_t k = 0;
    for (const Column& col : columns) k += col.from == province ? col.armies : 0;
    if (k > 0 && waiting) *waiting += (waiting->empty() ? "" : ", ") + std::to_string(k) + " wait to attack " + P(target);
    held += k;
  }
  auto arrived = arrived_.find(province);
  return Get(c_.s().Province(province)->armies, nation_) - (arrived == arrived_.end() ? 0 : arrived->second) - held;
}

// A plain move (no battle): `k` armies from `from` into `to`, where they
// stop for the turn.
void Moves::MovedIn(int32_t from, int32_t to, int32_t k, const std::vector<int32_t>& via,
                    const std::vector<std::string>& seas, const std::string& rule) {
  std::string nat = nation_;
  c_.Emit([=](Fbb& f) {
    return Body(fb::CreateY1820ArmiesMoved(f, f.CreateString(nat), from, to, k, f.CreateVector(via),
                                           f.CreateVectorOfStrings(seas), f.CreateString(rule)));
  });
  arrived_[to] += k;
}

Status Moves::ArmyOrder(const Y1820StandingOrder& o) {
  const auto& s = c_.s();
  auto reject = [&](const std::string& rule, const std::string& why) {
    c_.Reject(o.seq, rule, why);
    return Status::Ok();
  };
  const auto* from = s.Province(o.a);
  const auto* to = s.Province(o.b);
  if (!from || !s.defs.count(o.a)) return reject("Y5.1", "there is no " + P(o.a));
  if (!to || !s.defs.count(o.b)) return reject("Y5.1", "there is no " + P(o.b));
  if (o.a == o.b) return reject("Y5.1", "an army moves to another province");
  std::string waiting;
  const int32_t available = FreeIn(o.a, &waiting);
  if (o.n < 1) return reject("Y5.1", "move at least one army");
  if (o.n > available) {
    return reject("Y5.1", nation_ + " has " + std::to_string(available) + " armies in " + P(o.a) +
                              " free to move this turn, not " + std::to_string(o.n) +
                              (waiting.empty() ? "" : " (" + waiting + ")"));
  }
  int penalty = 0;
  std::string penalty_name;
  std::vector<int32_t> via = o.ints;
  std::vector<std::string> seas = o.strs;
  const bool once = c_.version() >= kEscortOnceVersion;
  std::map<std::string, int32_t> escorts;  // Y8.3 (version 3): fleets needed in each zone
  if (!seas.empty()) {
    // Y8.3: across sea zones, one fleet a zone for each army, own or a pact partner's.
    if (!via.empty()) return reject("Y8.3", "an army crosses the sea or goes by railroad in a turn, not both");
    if (!Touches(s, o.a, seas.front())) return reject("Y8.3", P(o.a) + " does not touch sea zone " + seas.front());
    if (!Touches(s, o.b, seas.back())) return reject("Y8.3", P(o.b) + " does not touch sea zone " + seas.back());
    for (size_t i = 0; i < seas.size(); ++i) {
      if (!s.seas.count(seas[i])) return reject("Y8.3", "there is no sea zone " + seas[i]);
      if (i > 0 && !SeasAdjacent(s, seas[i - 1], seas[i])) {
        return reject("Y8.3", "sea zones " + seas[i - 1] + " and " + seas[i] + " do not touch");
      }
      int fleets = 0;
      for (const std::string& owner : EscortOwners(s, seas[i], nation_)) fleets += Get(FleetsIn(s, seas[i]), owner);
      int free = fleets - escorts_used_[seas[i]];
      if (!once && free < o.n) {
        return reject("Y8.3", "escorting " + std::to_string(o.n) + " armies across " + seas[i] + " takes " +
                                  std::to_string(o.n) + " fleets there; " + std::to_string(free) + " are free");
      }
      if (once) escorts[seas[i]] += o.n;
    }
    // Version 3: a fleet escorts one army across one zone a turn, whoever it
    // serves; a zone crossed twice takes fleets for each crossing.
    for (const auto& [zone, need] : escorts) {
      int free = 0;
      for (const std::string& owner : EscortOwners(s, zone, nation_)) free += Get(FleetsIn(s, zone), owner) - Spent(c_, zone, owner);
      if (free < need) {
        return reject("Y8.3", "escorting " + std::to_string(o.n) + " armies across " + zone + " takes " +
                                  std::to_string(need) + " fleets there that have not escorted this turn, and there are " +
                                  std::to_string(free));
      }
    }
    penalty = kCrossingPenalty;
    penalty_name = "by fleet";
  } else if (!via.empty()) {
    // Y5.2: by railroad, up to three provinces, every one with a railroad.
    if (via.size() > 1) {
      return reject("Y5.2", "by railroad an army passes at most one province on its way (three provinces a turn: from, "
                            "the one passed, to)");
    }
    std::vector<int32_t> path{o.a};
    path.insert(path.end(), via.begin(), via.end());
    path.push_back(o.b);
    for (size_t i = 0; i < path.size(); ++i) {
      const auto* p = s.Province(path[i]);
      if (!p || !s.defs.count(path[i])) return reject("Y5.2", "there is no " + P(path[i]));
      if (!p->improvements.count("Railroad")) return reject("Y5.2", P(path[i]) + " has no railroad");
      if (i > 0) {
        std::string kind = s.Border(path[i - 1], path[i]);
        if (kind.empty()) return reject("Y5.2", P(path[i - 1]) + " and " + P(path[i]) + " do not border");
        if (kind != "land") {
          return reject("Y5.3", "a " + kind + " crossing takes a whole turn, railroads or not (" + P(path[i - 1]) +
                                    " to " + P(path[i]) + ")");
        }
      }
      if (i > 0 && i + 1 < path.size()) {
        bool ours = p->owner == nation_ || (!p->owner.empty() && s.HasTreaty(nation_, p->owner, "pact"));
        if (!ours) return reject("Y5.2", "railroads pass through own or pact partners' provinces; " + P(path[i]) + " is not");
        for (const auto& [other, k] : p->armies) {
          if (s.AtWar(nation_, other)) return reject("Y5.2", P(path[i]) + " holds enemy armies");
        }
      }
    }
  } else {
    std::string kind = s.Border(o.a, o.b);
    if (kind.empty()) return reject("Y5.1", P(o.a) + " and " + P(o.b) + " do not border (one province a turn)");
    if (kind != "land") {
      penalty = kCrossingPenalty;  // Y9.2
      penalty_name = kind + " crossing";
    }
  }
  // Where it goes (Y12.2): own or a pact partner's ground; an enemy's at
  // war; a neutral or NPC state's (Y7).
  const std::string owner = to->owner;
  if (owner != nation_ && !owner.empty()) {
    if (!s.AtWar(nation_, owner) && !s.HasTreaty(nation_, owner, "pact")) {
      return reject("Y12.2", nation_ + " is not at war with " + owner + ": its borders are closed");
    }
  }
  if (!once) {
    for (const auto& z : seas) escorts_used_[z] += o.n;  // Y8.3: each escorting fleet is spent for the turn
  }
  for (const auto& [zone, need] : escorts) {
    // Version 3: the nation's own fleets escort first, then its partners' in name order.
    int32_t left = need;
    for (const std::string& owner : EscortOwners(s, zone, nation_)) {
      const int32_t take = std::min(left, Get(FleetsIn(s, zone), owner) - Spent(c_, zone, owner));
      if (take > 0) c_.escorts_spent()[{zone, owner}] += take, left -= take;
    }
  }
  // A neutral's or NPC state's province (Y7) or an enemy's is fought for.
  bool hostile = owner.empty() || s.AtWar(nation_, owner);
  const std::string rule = !seas.empty() ? "Y8.3" : !via.empty() ? "Y5.2" : "Y5.1";
  std::string nat = nation_;
  if (!hostile) {
    MovedIn(o.a, o.b, o.n, via, seas, rule);
    return Status::Ok();
  }
  int32_t attack_from = o.a;
  if (!via.empty()) {
    // Y5.2, Y9.5: by railroad to the last province passed, and the attack from there (a draw falls back to it).
    attack_from = via.back();
    int32_t a = o.a, b = attack_from, k = o.n;
    std::vector<int32_t> passed(via.begin(), via.end() - 1);
    c_.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820ArmiesMovedDirect(f, nat.c_str(), a, b, k, &passed, nullptr, "Y5.2"));
    });
  }
  if (c_.version() < kPooledAttackVersion) return Battle(attack_from, o.b, o.n, penalty, penalty_name);
  // Version 9: the column waits for the nation's other moves into the province (Army fights them).
  waiting_[o.b].push_back(Column{attack_from, o.n, penalty, penalty_name, seas, rule});
  return Status::Ok();
}

Status Moves::Battle(int32_t from, int32_t to, int32_t armies, int penalty, const std::string& penalty_name) {
  return Attack(to, {Column{from, armies, penalty, penalty_name, {}, ""}});
}

// Y9: the attackers (each column counted where it attacks from until they
// win) against the province's defenders, a 1d8 each a round. An army of the
// first column with armies left fights each round, with its column's Y9.2
// penalty; Y9.3 counts every attacker left.
Status Moves::Attack(int32_t to, std::vector<Column> columns) {
  const std::string owner = c_.s().Province(to)->owner;
  // Who defends this round: the owner's armies (a neutral's garrison); since
  // version 6, once they are gone, the armies there of each other nation at
  // war with the attacker, in name order.
  auto defending = [&] {
    const auto* p = c_.s().Province(to);
    if (owner.empty() || Get(p->armies, owner) > 0 || c_.version() < kThirdArmiesDefendVersion) return owner;
    for (const auto& [other, k] : p->armies) {
      if (k > 0 && other != nation_ && c_.s().AtWar(nation_, other)) return other;
    }
    return owner;
  };
  auto defenders = [&](const std::string& defender) {
    const auto* p = c_.s().Province(to);
    return defender.empty() ? p->garrison : Get(p->armies, defender);
  };
  int32_t attackers = 0;
  for (const Column& col : columns) attackers += col.armies;
  size_t front = 0;
  bool fought = false;
  while (attackers > 0) {
    const std::string defender = defending();
    const int32_t d = defenders(defender);
    if (d == 0) break;
    fought = true;
    while (columns[front].armies == 0) ++front;
    Column& col = columns[front];
    const int32_t from = col.from;
    const int penalty = col.penalty;
    const std::string& penalty_name = col.penalty_name;
    const auto& s = c_.s();
    const auto* p = s.Province(to);
    std::string am, dm;
    int a_bonus = TechBonus(s, nation_, &Tech::army_attack);
    Mod(am, a_bonus, "technologies");
    int out_a = OutnumberBonus(attackers, d);
    Mod(am, out_a, "outnumbering");
    Mod(am, -penalty, penalty_name);
    int d_bonus = 0;
    if (defender.empty()) {
      d_bonus += kNeutralDefence;
      Mod(dm, kNeutralDefence, "neutral");
    } else {
      const auto* dn = s.Nation(defender);
      int tech = TechBonus(s, defender, &Tech::army_defence);
      Mod(dm, tech, "technologies");
      d_bonus += tech;
      if (RallyPointDefends(*dn, to, c_.version())) {
        d_bonus += kRallyPointDefence;
        Mod(dm, kRallyPointDefence, "rally point");
      }
      if (dn->reforms.count("Nationalism") && dn->capital == to) {
        d_bonus += kNationalismCapitalDefence;
        Mod(dm, kNationalismCapitalDefence, "Nationalism in the capital");
      }
    }
    if (p->improvements.count("Fortifications")) {
      d_bonus += kFortificationDefence;
      Mod(dm, kFortificationDefence, "fortifications");
    }
    int out_d = OutnumberBonus(d, attackers);
    Mod(dm, out_d, "outnumbering");
    d_bonus += out_d;
    auto ar = c_.Die(P(to), "attack", "Y9.4", kCombatDie);
    if (!ar.ok()) return ar.status();
    auto dr = c_.Die(P(to), "defence", "Y9.4", kCombatDie);
    if (!dr.ok()) return dr.status();
    int at = *ar + a_bonus + out_a - penalty, dt = *dr + d_bonus;
    std::string result = at > dt ? "defender lost" : at < dt ? "attacker lost" : "draw";
    int32_t a_left = attackers - (result == "defender lost" ? 0 : 1);
    int32_t d_left = d - (result == "defender lost" ? 1 : 0);
    std::string nat = nation_;
    int arv = *ar, drv = *dr;
    c_.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820CombatRoundDirect(f, to, "", from, nat.c_str(), defender.c_str(), arv, at, am.c_str(),
                                                   drv, dt, dm.c_str(), result.c_str(), a_left, d_left));
    });
    if (result == "draw") {
      // Y9.5: the attacking army falls back to where it came from, and stops
      // (attacking where it stands, Besiege: it stays there and stops).
      if (from != to) {
        c_.Emit([=](Fbb& f) { return Body(fb::CreateY1820ArmiesRetreatedDirect(f, nat.c_str(), to, from, 1)); });
      }
      arrived_[from] += 1;
    }
    if (result != "defender lost") col.armies -= 1;
    attackers = a_left;
  }
  if (attackers == 0) return Status::Ok();
  std::string nat = nation_;
  for (const Column& col : columns) {
    const int32_t k = col.armies, from = col.from;
    if (k == 0) continue;
    if (from != to) {  // (Besiege's armies are there already)
      c_.Emit([=](Fbb& f) { return Body(fb::CreateY1820ArmiesMovedDirect(f, nat.c_str(), from, to, k, nullptr, nullptr, "Y9.6")); });
    }
    arrived_[to] += k;
  }
  return Capture(to, fought);
}

// Y9.7, Y8.5, Y7.2, Y3: a province changes hands by conquest.
Status Moves::Capture(int32_t province, bool fought) {
  const std::string loser = c_.s().Province(province)->owner;
  std::string razed;
  if (fought) {
    std::vector<std::string> imps(c_.s().Province(province)->improvements.begin(),
                                  c_.s().Province(province)->improvements.end());
    if (imps.size() == 1) razed = imps[0];
    if (imps.size() > 1) {
      auto r = c_.Die(P(province), "improvement razed", "Y9.7", static_cast<uint32_t>(imps.size()));
      if (!r.ok()) return r.status();
      razed = imps[*r - 1];
    }
  }
  if (!loser.empty()) ADJ_RETURN_IF_ERROR(FleeFleets(province, loser));
  std::string nat = nation_;
  c_.Emit([=](Fbb& f) {
    return Body(fb::CreateY1820ProvinceCapturedDirect(f, province, loser.c_str(), nat.c_str(), fought, razed.c_str()));
  });
  if (!loser.empty()) {
    const auto* ln = c_.s().Nation(loser);
    if (ln && !ln->eliminated && ln->capital == province) ADJ_RETURN_IF_ERROR(FallOfCapital(loser, province));
  }
  // Y3.3: retaking the old capital restores it.
  const auto* me = c_.s().Nation(nation_);
  if (me->original_capital == province) {
    int32_t from = me->capital;
    c_.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820CapitalMovedDirect(f, nat.c_str(), from, province, "restored", "Y3.3"));
    });
  }
  return Status::Ok();
}

namespace {

// Y8, Y9: `*fleets` of `attacker`, which have sailed into `sea` (from
// from_port, or 0 from a sea zone), fight every enemy fleet there, enemy by
// enemy, until they or the enemy are gone or a round is drawn (`*draw`, when
// the caller asks: only a fleet that moved there falls back after one). Each
// round's loser loses one fleet in `sea` (the CombatRound says so; the y1820
// projection takes it off there). On return `*fleets` is what is left.
Status FleetBattle(Ctx& c, const std::string& sea, const std::string& attacker, int32_t from_port, int32_t* fleets,
                   bool* draw = nullptr) {
  if (draw) *draw = false;
  while (*fleets > 0) {
    std::string enemy;
    auto sf = c.s().sea_fleets.find(sea);
    if (sf != c.s().sea_fleets.end()) {
      for (const auto& [other, k] : sf->second) {
        if (other != attacker && c.s().AtWar(attacker, other) && k > 0) { enemy = other; break; }
      }
    }
    if (enemy.empty()) return Status::Ok();
    int32_t d = Get(c.s().sea_fleets.at(sea), enemy);
    std::string am, dm;
    int a_bonus = TechBonus(c.s(), attacker, &Tech::fleet_attack);
    Mod(am, a_bonus, "technologies");
    int out_a = OutnumberBonus(*fleets, d);
    Mod(am, out_a, "outnumbering");
    int d_bonus = TechBonus(c.s(), enemy, &Tech::fleet_defence);
    Mod(dm, d_bonus, "technologies");
    int out_d = OutnumberBonus(d, *fleets);
    Mod(dm, out_d, "outnumbering");
    auto ar = c.Die(sea, "fleet attack", "Y9.4", kCombatDie);
    if (!ar.ok()) return ar.status();
    auto dr = c.Die(sea, "fleet defence", "Y9.4", kCombatDie);
    if (!dr.ok()) return dr.status();
    int at = *ar + a_bonus + out_a, dt = *dr + d_bonus + out_d;
    std::string result = at > dt ? "defender lost" : at < dt ? "attacker lost" : "draw";
    // Version 7: a draw costs no fleet, and the round says so (version 6 recorded one fewer attacker left, as
    // an army's draw, where one army falls back, does).
    const bool draw_loses = c.version() < kAtWarFleetsFightVersion && result == "draw";
    int32_t a_left = *fleets - (result == "attacker lost" || draw_loses ? 1 : 0);
    int32_t d_left = d - (result == "defender lost" ? 1 : 0);
    int arv = *ar, drv = *dr;
    c.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820CombatRoundDirect(f, 0, sea.c_str(), from_port, attacker.c_str(), enemy.c_str(), arv,
                                                   at, am.c_str(), drv, dt, dm.c_str(), result.c_str(), a_left, d_left));
    });
    if (result == "attacker lost") {
      *fleets -= 1;
    } else if (result == "draw") {
      if (draw) *draw = true;  // Y8.2: a draw stops the mover
      return Status::Ok();
    }
  }
  return Status::Ok();
}

}  // namespace

// Y8.5: a taken port's fleets flee to a random neighbouring sea zone,
// fighting the enemy fleets there. Version 2: every fleet docked there to
// which the port, now the conqueror's, is no longer friendly (Y8.2) — the
// former owner's and its treaty partners' — in nation order; the conqueror's
// own and its treaty partners' stay. Version 1: the former owner's alone.
Status Moves::FleeFleets(int32_t port, const std::string& owner) {
  std::vector<std::string> fleeing{owner};
  if (c_.version() >= kFriendlyFleetsFleeVersion) {
    fleeing.clear();
    for (const auto& [other, k] : c_.s().Province(port)->fleets) {
      if (k > 0 && !FriendlyPort(c_.s(), other, nation_)) fleeing.push_back(other);
    }
  }
  for (const std::string& who : fleeing) ADJ_RETURN_IF_ERROR(Flee(port, who));
  return Status::Ok();
}

// Y8.5: `owner`'s fleets docked at `port` flee, one by one.
Status Moves::Flee(int32_t port, const std::string& owner) {
  int32_t k = Get(c_.s().Province(port)->fleets, owner);
  const std::vector<std::string> seas = c_.s().defs.at(port).seas;
  for (int32_t i = 0; i < k; ++i) {
    if (seas.empty()) break;
    std::string sea = seas.front();
    if (seas.size() > 1) {
      auto r = c_.Die(owner + "@" + P(port), "fleet flees", "Y8.5", static_cast<uint32_t>(seas.size()));
      if (!r.ok()) return r.status();
      sea = seas[*r - 1];
    }
    // It sails into the zone and fights the enemy fleets there; it has no port to fall back to, so after a
    // draw it stays in the zone. It has not escorted (Y8.3, version 3).
    if (c_.version() >= kEscortOnceVersion) Spent(c_, sea, owner);
    c_.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820FleetsMovedDirect(f, owner.c_str(), port, "", 0, sea.c_str(), 1, "fled"));
    });
    int32_t one = 1;
    ADJ_RETURN_IF_ERROR(FleetBattle(c_, sea, owner, port, &one));
  }
  return Status::Ok();
}

// Y8.2 (version 7): fleets of nations at war do not share a sea zone. In each
// zone, in the order of the zones' ids, where the nation's fleets lie with
// fleets of a nation at war with it (a war declared while they shared it, a
// draw that left them there), its fleets attack, enemy by enemy, as fleets
// sailing in would; a draw ends the battle and they stay (they came from
// nowhere). They have not moved: like a fleeing fleet (Y8.5) they are still
// free to move on the nation's orders this turn.
Status Moves::Engage() {
  // The zones as they stand before any battle (FleetBattle finds the enemy
  // in each, and fights none where there is none).
  std::vector<std::string> zones;
  for (const auto& [sea, by] : c_.s().sea_fleets) {
    if (Get(by, nation_) > 0) zones.push_back(sea);
  }
  for (const std::string& sea : zones) {
    int32_t k = Get(FleetsIn(c_.s(), sea), nation_);
    ADJ_RETURN_IF_ERROR(FleetBattle(c_, sea, nation_, 0, &k));
  }
  return Status::Ok();
}

// Y9.1 with Y12.2 (version 8, a reading; tables.h kStandingArmiesAttackVersion):
// after the nation's orders, in each province, in id order, whose owner is
// at war with it and where its armies still stand (a pact partner's ground
// when war was declared between them), its armies attack where they stand:
// Battle from the province into itself (a draw stops the army there, a win
// takes the province). Each is looked at again before it is fought: a battle
// before it may have changed its owner (a fallen capital) or its armies.
Status Moves::Besiege() {
  std::vector<int32_t> provinces;
  for (const auto& [id, p] : c_.s().provinces) {
    if (Get(p.armies, nation_) > 0 && !p.owner.empty() && c_.s().AtWar(nation_, p.owner)) provinces.push_back(id);
  }
  for (int32_t id : provinces) {
    const auto* p = c_.s().Province(id);
    // Not an army that fought from here this turn and drew (Y9.5: it stopped for the turn).
    const int32_t k = Get(p->armies, nation_) - (arrived_.count(id) ? arrived_[id] : 0);
    if (k <= 0 || p->owner.empty() || !c_.s().AtWar(nation_, p->owner)) continue;
    ADJ_RETURN_IF_ERROR(Battle(id, id, k, 0, ""));
  }
  return Status::Ok();
}

// Y3.1, Y3.2: a capital falls.
Status Moves::FallOfCapital(const std::string& loser, int32_t province) {
  const auto* ln = c_.s().Nation(loser);
  if (ln->original_capital != 0) return Eliminate(loser);  // the new capital fell (Y3.2)
  std::vector<int32_t> left;
  for (const auto& [id, p] : c_.s().provinces) if (p.owner == loser) left.push_back(id);
  if (left.empty()) return Eliminate(loser);
  int32_t cap = left.front();
  if (left.size() > 1) {
    auto r = c_.Die(loser, "new capital", "Y3.1", static_cast<uint32_t>(left.size()));
    if (!r.ok()) return r.status();
    cap = left[*r - 1];
  }
  c_.Emit([=](Fbb& f) { return Body(fb::CreateY1820CapitalMovedDirect(f, loser.c_str(), province, cap, "fell", "Y3.1")); });
  int loyal = c_.s().Nation(loser)->reforms.count("Nationalism") ? kLoyalPctNationalism : kLoyalPct;
  std::string nat = nation_;
  for (int32_t id : left) {
    if (id == cap) continue;
    auto r = c_.Die(P(id), "loyalists", "Y3.1", 100);
    if (!r.ok()) return r.status();
    if (*r <= loyal) continue;  // stays with the legitimate government
    const auto* p = c_.s().Province(id);
    if (int32_t k = Get(p->armies, loser); k > 0) {
      c_.Emit([=](Fbb& f) { return Body(fb::CreateY1820ArmiesLostDirect(f, loser.c_str(), id, k, "surrender", "Y3.1")); });
    }
    const bool flee = c_.version() >= kSurrenderFleeVersion;
    if (int32_t k = Get(p->fleets, loser); k > 0 && !flee) {
      c_.Emit([=](Fbb& f) {
        return Body(fb::CreateY1820FleetsLostDirect(f, loser.c_str(), id, "", k, "surrender", "Y3.1"));
      });
    }
    // Version 3 (Y8.5): the province is taken, as by a capture: the fleets
    // docked there to which it, now the conqueror's, is no longer friendly
    // flee, the loser's and its partners' alike.
    if (flee) ADJ_RETURN_IF_ERROR(FleeFleets(id, loser));
    int roll = *r;
    c_.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820ProvinceSurrenderedDirect(f, id, loser.c_str(), nat.c_str(), roll));
    });
  }
  return Status::Ok();
}

// Y3.2: a nation whose second capital falls is gone: what it still held
// surrenders to the conqueror; its armies and fleets are lost.
Status Moves::Eliminate(const std::string& loser) {
  std::string nat = nation_;
  std::vector<int32_t> ids;
  for (const auto& [id, p] : c_.s().provinces) ids.push_back(id);
  for (int32_t id : ids) {
    const auto* p = c_.s().Province(id);
    if (int32_t k = Get(p->armies, loser); k > 0) {
      c_.Emit([=](Fbb& f) { return Body(fb::CreateY1820ArmiesLostDirect(f, loser.c_str(), id, k, "eliminated", "Y3.2")); });
    }
    if (int32_t k = Get(c_.s().Province(id)->fleets, loser); k > 0) {
      c_.Emit([=](Fbb& f) {
        return Body(fb::CreateY1820FleetsLostDirect(f, loser.c_str(), id, "", k, "eliminated", "Y3.2"));
      });
    }
    if (c_.s().Province(id)->owner == loser) {
      // Version 3 (Y8.5): its partners' fleets docked there, the province
      // no longer friendly to them, flee (the loser's own are lost above).
      if (c_.version() >= kSurrenderFleeVersion) ADJ_RETURN_IF_ERROR(FleeFleets(id, loser));
      c_.Emit([=](Fbb& f) { return Body(fb::CreateY1820ProvinceSurrenderedDirect(f, id, loser.c_str(), nat.c_str(), 0)); });
    }
  }
  std::vector<std::pair<std::string, int32_t>> at_sea;
  for (const auto& [sea, by] : c_.s().sea_fleets) {
    if (int32_t k = Get(by, loser); k > 0) at_sea.emplace_back(sea, k);
  }
  for (const auto& [sea, k] : at_sea) {
    std::string z = sea;
    int32_t n = k;
    c_.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820FleetsLostDirect(f, loser.c_str(), 0, z.c_str(), n, "eliminated", "Y3.2"));
    });
  }
  c_.Emit([=](Fbb& f) { return Body(fb::CreateY1820NationEliminatedDirect(f, loser.c_str(), nat.c_str())); });
  return Status::Ok();
}

// ---- fleets (Y8.2) -----------------------------------------------------------------

Status Moves::Fleet(const Y1820StandingOrder& o) {
  const auto& s = c_.s();
  auto reject = [&](const std::string& rule, const std::string& why) {
    c_.Reject(o.seq, rule, why);
    return Status::Ok();
  };
  int32_t from_port = o.a, to_port = o.b;
  std::string from_sea = o.s1, to_sea = o.s2;
  if ((from_port != 0) == !from_sea.empty()) return reject("Y8.2", "a fleet moves from a port or from a sea zone");
  if ((to_port != 0) == !to_sea.empty()) return reject("Y8.2", "a fleet moves to a port or to a sea zone");
  if (from_port && to_port) return reject("Y8.2", "a fleet goes out to sea before it enters another port");
  std::string origin = from_port ? "port:" + std::to_string(from_port) : from_sea;
  int have = 0;
  if (from_port) {
    const auto* p = s.Province(from_port);
    if (!p) return reject("Y8.2", "there is no " + P(from_port));
    have = Get(p->fleets, nation_);
  } else {
    if (!s.seas.count(from_sea)) return reject("Y8.2", "there is no sea zone " + from_sea);
    auto sf = s.sea_fleets.find(from_sea);
    have = sf == s.sea_fleets.end() ? 0 : Get(sf->second, nation_);
  }
  have -= fleets_arrived_[origin];
  if (o.n < 1 || o.n > have) {
    return reject("Y8.2", nation_ + " has " + std::to_string(std::max(0, have)) + " fleets free to move at " +
                              (from_port ? P(from_port) : from_sea) + ", not " + std::to_string(o.n));
  }
  if (to_port) {
    const auto* p = s.Province(to_port);
    if (!p) return reject("Y8.2", "there is no " + P(to_port));
    if (!Touches(s, to_port, from_sea)) return reject("Y8.2", P(to_port) + " does not touch " + from_sea);
    if (!FriendlyPort(s, nation_, p->owner)) return reject("Y8.2", "fleets enter friendly ports only; " + P(to_port) + " is not");
    if (!p->improvements.count("Port")) return reject("Y8.2", P(to_port) + " has no Port");
  } else {
    if (!s.seas.count(to_sea)) return reject("Y8.2", "there is no sea zone " + to_sea);
    if (from_port && !Touches(s, from_port, to_sea)) return reject("Y8.2", P(from_port) + " does not touch " + to_sea);
    if (!from_port && !SeasAdjacent(s, from_sea, to_sea)) {
      return reject("Y8.2", "sea zones " + from_sea + " and " + to_sea + " do not touch");
    }
  }
  // Y8.3 (version 3): fleets that have not escorted sail first; those that
  // have carry it with them (they do not escort again this turn).
  const bool once = c_.version() >= kEscortOnceVersion;
  int32_t spent_moving = 0;
  if (once && !from_sea.empty()) {
    const int32_t spent = Spent(c_, from_sea, nation_);
    spent_moving = std::max(0, o.n - (Get(FleetsIn(s, from_sea), nation_) - spent));
    c_.escorts_spent()[{from_sea, nation_}] = spent - spent_moving;
  }
  if (once && !to_sea.empty()) Spent(c_, to_sea, nation_);  // as it stands before they come
  // The fleets sail; entering a zone that holds fleets of a nation at war with them, they fight there
  // (Y8.2, Y9), and after a draw the ones left sail back where they came from and stop for the turn.
  int32_t k = o.n;
  std::string nat = nation_;
  c_.Emit([=](Fbb& f) {
    return Body(fb::CreateY1820FleetsMovedDirect(f, nat.c_str(), from_port, from_sea.c_str(), to_port, to_sea.c_str(),
                                                 k, "ordered"));
  });
  bool draw = false;
  if (!to_sea.empty()) ADJ_RETURN_IF_ERROR(FleetBattle(c_, to_sea, nation_, from_port, &k, &draw));
  if (k <= 0) return Status::Ok();
  if (draw) {
    int32_t left = k;
    c_.Emit([=](Fbb& f) {
      return Body(fb::CreateY1820FleetsMovedDirect(f, nat.c_str(), 0, to_sea.c_str(), from_port, from_sea.c_str(), left,
                                                   "draw"));
    });
    fleets_arrived_[origin] += k;
    if (once && !from_sea.empty()) c_.escorts_spent()[{from_sea, nation_}] += std::min(spent_moving, k);
    return Status::Ok();
  }
  fleets_arrived_[to_port ? "port:" + std::to_string(to_port) : to_sea] += k;
  // Version 3: a battle's losses fall on the fleets that had not escorted first.
  if (once && !to_sea.empty()) c_.escorts_spent()[{to_sea, nation_}] += std::min(spent_moving, k);
  return Status::Ok();
}

}  // namespace adjutant::rules::y1820
