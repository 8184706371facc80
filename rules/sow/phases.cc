#include "rules/sow/phases.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "base/money.h"
#include "rules/sow/economy.h"
#include "rules/sow/orders.h"
#include "schema/event_generated.h"

namespace adjutant::rules::sow {

namespace P = projections;

namespace {

// Where a unit stands on the land map, if it does. PATE 9 (rules version 7,
// kAboardAtSeaVersion): a unit aboard a transport is where the transport is:
// in a port on the land map, that city's square; at sea, nowhere on land.
// Versions 1-6: the square it boarded from, wherever the transport sailed.
// SOW 2.2 (rules version 10, kOffMapGarrisonVersion): a unit in an off-map
// port (its city) is nowhere on the land map either, as the port has no
// square there; versions 1-9: on the square the scenario gave it.
std::optional<P::Square> LandSquare(const P::TreasuryState& s, const P::FleetState& fleet, const P::Unit& u,
                                    uint32_t version) {
  if (u.aboard.empty() && version >= kOffMapGarrisonVersion) {
    auto c = s.cities.find(u.city);
    if (c != s.cities.end() && c->second.kind == P::CityKind::OffMapPort) return std::nullopt;
  }
  if (u.aboard.empty() || version < kAboardAtSeaVersion) return u.square;
  return TransportLandSquare(s, fleet, u.aboard);
}

// ---- conversions between the projection's enums and the schema's ----------
fb::SeasonKind K(P::SeasonKind k) { return static_cast<fb::SeasonKind>(k); }
fb::SowUnitType K(P::UnitType t) { return static_cast<fb::SowUnitType>(t); }
fb::SowShipType K(P::ShipType t) { return static_cast<fb::SowShipType>(t); }
fb::SowCityKind K(P::CityKind k) { return static_cast<fb::SowCityKind>(k); }

bool IsPort(const P::City& c) { return c.kind != P::CityKind::Inland; }
bool IsSol(const P::Ship& s) { return s.type == P::ShipType::SL || s.type == P::ShipType::FL; }
bool IsHq(P::UnitType t) { return t == P::UnitType::AQ || t == P::UnitType::CQ; }

bool AtWar(const P::TreasuryState& s, const std::string& a, const std::string& b) {
  return a != b && s.RelationOf(a, b) == P::Relation::War;
}
bool Friendly(const P::TreasuryState& s, const std::string& a, const std::string& b) {
  return a == b || s.RelationOf(a, b) == P::Relation::Alliance;
}
// SOW 2.5, 2.6: whether a declaration still holds (version 6: a blockade
// while its declarer is at war with the state blockaded, an embargo while
// the two are not allied; before, until the GA lifted it).
bool BlockadeHolds(const P::TreasuryState& s, const std::string& by, const std::string& against, uint32_t version) {
  return version < kDeclarationsLapseVersion || AtWar(s, by, against);
}
bool EmbargoHolds(const P::TreasuryState& s, const std::string& by, const std::string& against, uint32_t version) {
  return version < kDeclarationsLapseVersion || s.RelationOf(by, against) != P::Relation::Alliance;
}
// SOW 7.1: an enemy unit has been in city `c` this campaign: the GA said so
// (EnemyInCity) or, since version 8, the log shows it (TreasuryState::
// enemy_entered: the city changed hands, or a unit at war with it entered;
// since version 11 enemy_entered_named: a unit naming its city entered that
// one alone).
bool EnemyThisCampaign(const P::TreasuryState& s, const P::City& c, uint32_t version) {
  if (c.enemy_this_campaign) return true;
  if (version >= kEnemyInNamedCityVersion) return s.enemy_entered_named.count(c.name) > 0;
  return version >= kRepairsFromLogVersion && s.enemy_entered.count(c.name) > 0;
}
bool Blockaded(const P::TreasuryState& s, const std::string& state, uint32_t version) {
  for (const auto& [by, against] : s.blockades) {
    if (against == state && BlockadeHolds(s, by, against, version)) return true;
  }
  return false;
}
bool Embargoed(const P::TreasuryState& s, const std::string& state, uint32_t version) {
  for (const auto& [by, against] : s.embargoes) {
    if ((by == state || against == state) && EmbargoHolds(s, by, against, version)) return true;
  }
  return false;
}
const std::string& NationOf(const P::TreasuryState& s, const std::string& state) {
  static const std::string kNone;
  const P::StateAcct* a = s.State(state);
  return a ? a->nation : kNone;
}

// The season after (year, season).
std::pair<int32_t, int32_t> NextSeason(int32_t year, int32_t season) {
  return season == 4 ? std::make_pair(year + 1, 1) : std::make_pair(year, season + 1);
}

// ---- SOW 2.5: is a port blockaded? ----------------------------------------
// `version`: the sow rules version. Since 5 only the ships of a power that
// declared the blockade blockade (4 also counted its allies), and a ship
// with no commerce order (a scenario's, a new build, a prize: mission None)
// ignores commerce, as one neither raiding nor convoying does (RULES.md).
bool PortBlockaded(const P::TreasuryState& s, const P::FleetState& fleet, const P::City& port, uint32_t version) {
  for (const auto& [by, against] : s.blockades) {
    if (against != port.controller || !BlockadeHolds(s, by, against, version)) continue;
    bool sol = false, frigate = false, hostile_sol = false;
    for (const auto& [id, ship] : fleet.ships) {
      if (!ship.on_map() || ship.location != port.name || !ship.coastal) continue;
      bool ignoring = ship.mission == P::Mission::IgnoreCommerce || (version >= 5 && ship.mission == P::Mission::None);
      if (ship.state == by || (version < 5 && Friendly(s, ship.state, by))) {
        if (IsSol(ship) && ignoring) sol = true;
        if (ship.type == P::ShipType::FR && ignoring) frigate = true;
      } else if (AtWar(s, ship.state, by) && IsSol(ship)) {
        hostile_sol = true;
      }
    }
    if (sol || (frigate && !hostile_sol)) return true;
  }
  return false;
}

// ---- SOW 2.7: raiding and convoy strength off a port ----------------------
std::pair<int64_t, int64_t> RaidAndConvoy(const P::TreasuryState& s, const P::FleetState& fleet, const P::City& port) {
  int64_t raid_coastal = 0, raid_area = 0, raid_port = 0, raid_area_weak = 0;
  int64_t conv_coastal = 0, conv_area = 0, conv_port = 0, conv_area_weak = 0;
  for (const auto& [id, ship] : fleet.ships) {
    if (!ship.on_map() || ship.type == P::ShipType::TR) continue;  // not while crossing the Atlantic (PATE 6.11)
    bool here = ship.location == port.name;
    bool in_area = !port.sea_area.empty() && ship.location == port.sea_area;
    if (!here && !in_area) continue;
    int64_t frigates = ship.type == P::ShipType::FR ? ship.frigates : 0;
    if (AtWar(s, ship.state, port.controller)) {
      if (ship.mission == P::Mission::Raid && frigates) {
        (here ? (ship.coastal ? raid_coastal : raid_port) : raid_area) += frigates;
      } else if ((ship.mission == P::Mission::Raid && IsSol(ship)) || (ship.mission == P::Mission::Patrol && frigates)) {
        (here ? raid_port : raid_area_weak) += frigates ? frigates : 1;
      }
    } else if (Friendly(s, ship.state, port.controller) && ship.mission == P::Mission::Convoy) {
      if (frigates) (here ? (ship.coastal ? conv_coastal : conv_port) : conv_area) += frigates;
      else (here ? conv_port : conv_area_weak) += 1;
    }
  }
  return {RaidingPoints(raid_coastal, raid_area, raid_port, raid_area_weak),
          ConvoyPoints(conv_coastal, conv_area, conv_port, conv_area_weak)};
}

}  // namespace

int SquareDistance(const P::Square& a, const P::Square& b) {
  return std::max(std::abs(a.x - b.x), std::abs(a.y - b.y));
}

std::optional<P::Square> TransportLandSquare(const P::TreasuryState& s, const P::FleetState& fleet,
                                             const std::string& ship) {
  auto sh = fleet.ships.find(ship);
  if (sh == fleet.ships.end() || !sh->second.on_map() || sh->second.at_sea()) return std::nullopt;
  auto c = s.cities.find(sh->second.location);
  if (c == s.cities.end() || c->second.kind == P::CityKind::OffMapPort) return std::nullopt;
  return c->second.square;
}

// ---- SOW 2: income ------------------------------------------------------------
void RunIncome(Outcomes& out) {
  const P::TreasuryState& s0 = out.state();
  const P::FleetState& f0 = out.fleet();
  const uint32_t version = out.version();
  // Decide every city's income from the state at the phase's start; credit
  // after. (Income lines change no input of another city's income.)
  struct Credit { std::string state, city, detail; int64_t cc; };
  std::vector<Credit> credits;
  std::map<std::string, int64_t> displaced_from;  // state → trade lost to 2.5/2.6
  // SOW 2.5: on-map ports per nation, and how many are blockaded.
  std::map<std::string, std::pair<int, int>> nation_ports;  // nation → (blockaded, total)
  for (const auto& [name, c] : s0.cities) {
    if (c.kind != P::CityKind::Port || !s0.State(c.controller)) continue;
    auto& np = nation_ports[NationOf(s0, c.controller)];
    np.second++;
    if (PortBlockaded(s0, f0, c, version)) np.first++;
  }
  for (const auto& [name, c] : s0.cities) {
    const P::StateAcct* owner = s0.State(c.controller);
    if (owner == nullptr) continue;  // held by a power outside the game
    int64_t cc = BaseIncomeCc(K(c.kind), c.level, K(s0.season_kind));
    std::string detail = "base " + FormatCc(cc);
    if (c.nation != owner->nation) {  // SOW 2.3
      cc = OccupiedIncomeCc(cc, K(c.kind));
      detail += "; occupied (2.3) " + FormatCc(cc);
    }
    // The reductions of 2.4-2.7. Rules version 1: each takes its share of
    // what the ones before left. Version 2: each takes its share of the
    // income after 2.3, and they add (rules/versions.cc).
    const int64_t after_occupation = cc;
    auto cut = [&, compound = out.version() < 2](int bp) {
      return std::min(cc, ApplyBp(compound ? cc : after_occupation, bp));
    };
    if (c.kind != P::CityKind::OffMapPort) {
      // SOW 2.4: hostile brigades within 4 squares (line of contact assumed,
      // see RULES.md) and cities of embargoed powers within 8.
      int brigades = 0, embargoed = 0;
      for (const auto& [id, u] : s0.units) {
        const auto at = LandSquare(s0, f0, u, version);
        if (at && !IsHq(u.type) && AtWar(s0, u.state, c.controller) && SquareDistance(*at, c.square) <= 4) brigades++;
      }
      for (const auto& [other_name, o] : s0.cities) {
        if (o.kind == P::CityKind::OffMapPort || o.controller == c.controller) continue;
        bool emb = (s0.embargoes.count({c.controller, o.controller}) && EmbargoHolds(s0, c.controller, o.controller, version)) ||
                   (s0.embargoes.count({o.controller, c.controller}) && EmbargoHolds(s0, o.controller, c.controller, version));
        if (emb && SquareDistance(o.square, c.square) <= 8) embargoed++;
      }
      int bp = ContactReductionBp(brigades, embargoed);
      if (bp > 0) {
        int64_t lost = cut(bp);
        cc -= lost;
        detail += "; hostile brigades near " + std::to_string(std::min(brigades, 4)) + ", embargoed cities near " +
                  std::to_string(std::min(embargoed, 4)) + " (2.4: at most four of each) -" + FormatCc(lost);
      }
    }
    if (IsPort(c)) {
      int64_t trade_lost = 0;
      if (PortBlockaded(s0, f0, c, version)) {  // SOW 2.5
        int bp;
        if (c.kind == P::CityKind::OffMapPort) {
          bp = ColonyBlockadeLossBp();
        } else {
          auto np = nation_ports[owner->nation];
          bp = BlockadeLossBp(np.first, np.second);
        }
        int64_t lost = cut(bp);
        cc -= lost;
        trade_lost += lost;
        detail += "; blockaded (2.5) -" + FormatCc(lost);
      }
      // SOW 2.6: every embargo between this port's state and another.
      for (const auto& [by, against] : s0.embargoes) {
        if ((by != c.controller && against != c.controller) || !EmbargoHolds(s0, by, against, version)) continue;
        const std::string& other = by == c.controller ? against : by;
        const std::string& other_nation = NationOf(s0, other);
        auto share = s0.trade_bp.find({owner->nation, other_nation});
        int trade = share == s0.trade_bp.end() ? 0 : share->second;
        // Germany and Italy: the embargoing state's share of its nation's
        // ports, for the ports of either side (rules version 5). Version 4
        // took the other state's share: for the embargoing state's own
        // ports, the embargoed state's.
        const std::string& sharer = version >= 5 ? by : other;
        const std::string& sharer_nation = NationOf(s0, sharer);
        int ports_all = 0, ports_other = 0;
        for (const auto& [n2, c2] : s0.cities) {
          if (!IsPort(c2) || NationOf(s0, c2.controller) != sharer_nation) continue;
          ports_all++;
          if (c2.controller == sharer) ports_other++;
        }
        int port_share = ports_all == 0 ? kBpWhole : static_cast<int>(int64_t{ports_other} * kBpWhole / ports_all);
        int64_t lost = cut(EmbargoLossBp(trade, port_share));
        if (lost > 0) {
          cc -= lost;
          trade_lost += lost;
          detail += "; embargo with " + other + " (2.6) -" + FormatCc(lost);
        }
      }
      auto [raid, convoy] = RaidAndConvoy(s0, f0, c);  // SOW 2.7
      if (raid > 0) {
        int64_t lost = cut(RaidingLossBp(raid, convoy));
        cc -= lost;
        detail += "; raiders " + std::to_string(raid) + " v convoy " + std::to_string(convoy) + " (2.7) -" + FormatCc(lost);
      }
      if (trade_lost > 0) displaced_from[c.controller] += trade_lost;
    }
    credits.push_back({c.controller, name, detail, cc});
  }
  for (const auto& cr : credits) {
    out.Money(cr.state, cr.cc, "SOW 2.2", "income", cr.city, cr.detail);
  }
  // SOW 2.8: part of the trade lost shifts to the states of other nations,
  // by the ports they hold, less for those themselves blockaded or embargoed.
  for (const auto& [loser, lost] : displaced_from) {
    int64_t displaced = DisplacedTradeCc(lost);
    if (displaced <= 0) continue;
    std::vector<TradeReceiver> receivers;
    for (const auto& [id, acct] : s0.states) {
      if (acct.nation == NationOf(s0, loser)) continue;
      int ports = 0;
      for (const auto& [n, c] : s0.cities) if (IsPort(c) && c.controller == id) ports++;
      if (ports > 0) receivers.push_back({id, ports, Blockaded(s0, id, version) || Embargoed(s0, id, version)});
    }
    DisplacedSplit split = SplitDisplacedTrade(displaced, receivers);
    for (const auto& share : split.shares) {
      if (share.cc > 0) {
        out.Money(share.state, share.cc, "SOW 2.8", "displaced trade", loser,
                  "share of " + FormatCc(displaced) + " displaced from " + loser);
      }
    }
  }
}

// ---- SOW 5: upkeep --------------------------------------------------------------
void RunUpkeep(Outcomes& out) {
  const P::TreasuryState& s0 = out.state();
  const P::FleetState& f0 = out.fleet();
  auto kind = K(s0.season_kind);
  struct Charge { std::string state, subject, detail; int64_t cc; const char* rule; };
  std::vector<Charge> charges;
  for (const auto& [id, u] : s0.units) {
    if (!s0.State(u.state)) continue;
    int64_t cc = UnitUpkeepCc(K(u.type), u.men, u.batteries, u.active, kind);
    charges.push_back({u.state, id,
                       std::string(fb::EnumNameSowUnitType(K(u.type))) + " " + std::to_string(u.men) + " men, " +
                           std::to_string(u.batteries) + (u.batteries == 1 ? " battery, " : " batteries, ") +
                           (u.active ? "active" : "inactive"),
                       cc, s0.season_kind == P::SeasonKind::War ? "SOW 5.1" : "SOW 5.3"});
  }
  for (const auto& [id, sh] : f0.ships) {
    if (!s0.State(sh.state)) continue;
    bool in_base = sh.location == sh.base && sh.in_port;
    int64_t cc = ShipUpkeepCc(K(sh.type), sh.frigates, sh.capacity, sh.active, in_base, kind);
    charges.push_back({sh.state, id,
                       std::string(fb::EnumNameSowShipType(K(sh.type))) +
                           (sh.active ? (in_base ? ", in base harbour" : ", sailing") : ", inactive"),
                       cc, !sh.active ? "SOW 5.6" : (s0.season_kind == P::SeasonKind::War ? "SOW 5.4" : "SOW 5.5")});
  }
  for (const auto& c : charges) {
    if (c.cc != 0) out.Money(c.state, -c.cc, c.rule, "upkeep", c.subject, c.detail);
  }
}

// ---- SOW 2.1, 4, 6, 7: orders -------------------------------------------------------
namespace {

struct TurnPurchases {
  std::map<std::pair<std::string, std::string>, int64_t> in_city;  // (state, city) → size bought
  std::map<std::string, int64_t> by_state;
  std::set<std::string> removing;  // SOW 4.10: the ships some order of this phase removes
};

int CitiesControlled(const P::TreasuryState& s, const std::string& state) {
  int n = 0;
  for (const auto& [name, c] : s.cities) if (c.controller == state) n++;
  return n;
}

bool HostileNear(const P::TreasuryState& s, const P::FleetState& fleet, const P::City& c, const std::string& state,
                 int squares, uint32_t version) {
  for (const auto& [id, u] : s.units) {
    const auto at = LandSquare(s, fleet, u, version);
    if (at && AtWar(s, u.state, state) && SquareDistance(*at, c.square) <= squares) return true;
  }
  return false;
}

// SOW 6.1–6.4: one purchase; refusal or nullopt.
std::optional<Refusal> CheckPurchase(const P::TreasuryState& s, const P::FleetState& fleet, const TurnPurchases& done,
                                     const std::string& state, const P::City& c, int64_t supplies, int64_t stores,
                                     uint32_t version) {
  if (c.kind != P::CityKind::OffMapPort && HostileNear(s, fleet, c, state, 1, version)) {
    return Refusal{"SOW 6.1", "hostile units are in or next to " + c.name + "'s strategic square"};
  }
  if (stores > 0 && !SellsStores(K(c.kind))) return Refusal{"SOW 6.6", "stores are sold only in on-map ports"};
  auto kind = K(s.season_kind);
  int64_t size = PurchaseSize(supplies, stores);
  auto key = std::make_pair(state, c.name);
  int64_t city_done = done.in_city.count(key) ? done.in_city.at(key) : 0;
  if (city_done + size > CityPurchaseCapacity(kind)) {
    return Refusal{"SOW 6.3", "over the limit of " + std::to_string(CityPurchaseCapacity(kind)) +
                                  " (stores + 4 × supplies) a turn in " + c.name};
  }
  int64_t state_done = done.by_state.count(state) ? done.by_state.at(state) : 0;
  int64_t cap = StatePurchaseCapacity(CitiesControlled(s, state), kind);
  if (state_done + size > cap) {
    return Refusal{"SOW 6.4", "over the state's limit of " + std::to_string(cap) + " (stores + 4 × supplies) this turn"};
  }
  int64_t cost = SupplyCostCc(supplies, stores);
  if (cost > s.State(state)->treasury_cc) {
    return Refusal{"SOW 6.2", "costs " + FormatCc(cost) + ", the treasury holds " + FormatCc(s.State(state)->treasury_cc)};
  }
  return std::nullopt;
}

int BuildsInCity(const P::TreasuryState& s, const std::string& city) {
  int n = 0;
  for (const auto& [id, b] : s.builds) if (b.city == city && !b.is_ship) n++;
  return n;
}

int ShipsBuildingIn(const P::TreasuryState& s, const std::string& port) {
  int n = 0;
  for (const auto& [id, b] : s.builds) if (b.city == port && b.is_ship && b.ship.type != P::ShipType::TR) n++;
  return n;
}

// SOW 4.6: ships (not transport groups) being repaired in the port's yards:
// damaged, in its harbour, of a state friendly to its holder — those PATE
// 3.3 repairs in the yards there this turn (RULES.md).
int ShipsRepairingIn(const P::TreasuryState& s, const P::FleetState& fleet, const P::City& port) {
  int n = 0;
  for (const auto& [id, sh] : fleet.ships) {
    if (!sh.on_map() || sh.location != port.name || !sh.in_port || sh.type == P::ShipType::TR) continue;
    if ((sh.hull > 0 || sh.rigging > 0) && Friendly(s, port.controller, sh.state)) n++;
  }
  return n;
}

// SOW 4.9 (fragmented states): is `sq` strictly nearer to a city `state`
// holds than to every other city? Off-map ports have no squares.
bool NearerOwnCity(const P::TreasuryState& s, const std::string& state, const P::Square& sq) {
  int own = -1, other = -1;
  for (const auto& [n, c] : s.cities) {
    if (c.kind == P::CityKind::OffMapPort) continue;
    int d = SquareDistance(c.square, sq);
    int& best = c.controller == state ? own : other;
    if (best < 0 || d < best) best = d;
  }
  return own >= 0 && (other < 0 || own < other);
}

std::optional<Refusal> Funds(const P::TreasuryState& s, const std::string& state, int64_t need_cc, const char* rule,
                             const std::string& what) {
  int64_t have = s.State(state)->treasury_cc;
  if (need_cc > have) return Refusal{rule, what + " needs " + FormatCc(need_cc) + "; the treasury holds " + FormatCc(have)};
  return std::nullopt;
}

// Executes one order; a refusal means nothing was changed.
std::optional<Refusal> Execute(Outcomes& out, TurnPurchases& bought, uint64_t seq, const fb::SowOrder& o) {
  const P::TreasuryState& s = out.state();
  const P::FleetState& fleet = out.fleet();
  const std::string st = o.state()->str();
  if (auto r = CheckAtSubmission(s, fleet, out.writer().roster(), o, out.at().turn, out.version())) {
    return r;  // the state may have changed since
  }
  const P::StateAcct& acct = *s.State(st);
  switch (o.body_type()) {
    case fb::SowOrderBody_TransferOrder: {  // SOW 2.1
      auto* t = o.body_as_TransferOrder();
      if (auto r = Funds(s, st, t->amount_cc(), "SOW 2.1", "the transfer")) return r;
      std::string to = t->to_state()->str();
      out.Money(st, -t->amount_cc(), "SOW 2.1", "transfer", to, "to " + to, seq);
      out.Money(to, t->amount_cc(), "SOW 2.1", "transfer", st, "from " + st, seq);
      return std::nullopt;
    }
    case fb::SowOrderBody_BuildUnitOrder: {  // SOW 4.1–4.7, 3.1, 3.2
      auto* b = o.body_as_BuildUnitOrder();
      const P::City& c = s.cities.at(b->city()->str());
      auto type = b->type();
      int64_t men = MenForUnit(type, b->men());
      if (!WithinSizeLimit(type, men, b->batteries())) {
        auto lim = UnitSizeLimit(type);
        return Refusal{"SOW 4.7", std::string(fb::EnumNameSowUnitType(type)) + " units hold at most " +
                                      std::to_string(lim.max_men) + " men and " + std::to_string(lim.max_batteries) +
                                      (lim.max_batteries == 1 ? " battery" : " batteries")};
      }
      if (c.besieged) return Refusal{"SOW 4.5", c.name + " is under siege: no new builds"};
      if (BuildsInCity(s, c.name) >= CityBuildLimit(c.level)) {
        return Refusal{"SOW 4.6", c.name + " (level " + std::to_string(c.level) + ") already has " +
                                      std::to_string(CityBuildLimit(c.level)) + " units building"};
      }
      bool militia = DrawsOnMilitiaPool(type);
      int64_t pool = militia ? c.militia_pool : acct.manpower;
      if (men > pool) {
        return Refusal{militia ? "SOW 3.2" : "SOW 3.1", "needs " + std::to_string(men) + " men; the " +
                                                            (militia ? c.name + " militia pool" : std::string("national pool")) +
                                                            " has " + std::to_string(pool)};
      }
      int64_t price = UnitPriceCc(type, men, b->batteries());
      int64_t upkeep = UnitUpkeepCc(type, men, b->batteries(), true, fb::SeasonKind_War);
      if (auto r = Funds(s, st, FundsRequiredCc(price, upkeep), "SOW 4.4", "the build with 15 turns of upkeep")) return r;
      P::Build build;
      build.id = b->id()->str();
      build.state = st;
      build.city = c.name;
      build.unit = P::Unit{build.id, st, static_cast<P::UnitType>(type), static_cast<int32_t>(men), b->batteries(), true,
                           c.square, c.name, c.name, ""};
      build.war_turns = static_cast<uint8_t>(BuildWarTurns(type));
      build.order_seq = seq;
      out.Money(st, -price, "SOW 4.1", "build", build.id,
                std::string(fb::EnumNameSowUnitType(type)) + " of " + std::to_string(men) + " men in " + c.name, seq);
      out.Men(st, militia ? "militia" : "national", militia ? c.name : "", -men, militia ? "SOW 3.2" : "SOW 3.1",
              ManItem::Build, build.id, seq);
      out.BuildStarted(build);
      return std::nullopt;
    }
    case fb::SowOrderBody_BuildShipOrder: {  // SOW 4.1, 4.3, 4.6, 3.1, 3.3
      auto* b = o.body_as_BuildShipOrder();
      const P::City& c = s.cities.at(b->port()->str());
      auto type = b->type();
      bool tr = type == fb::SowShipType_TR;
      if (c.besieged) return Refusal{"SOW 4.5", c.name + " is under siege: no new builds"};
      // Rules version 5: ships being repaired there count too (version 4
      // counted the builds alone).
      const int repairing = out.version() >= 5 ? ShipsRepairingIn(s, fleet, c) : 0;
      if (!DockyardAllows(ShipsBuildingIn(s, c.name), repairing, c.dockyards, tr)) {
        return Refusal{"SOW 4.6", c.name + " has " + std::to_string(c.dockyards) + " dockyards, all in use" +
                                      (repairing ? " (" + std::to_string(repairing) + " by ships being repaired)" : "")};
      }
      if (tr && b->capacity() > c.transport_pool) {
        return Refusal{"SOW 3.3", c.name + " has " + std::to_string(c.transport_pool) + " transport capacity left"};
      }
      int frigates = type == fb::SowShipType_FR ? b->frigates() : 1;
      int64_t crew = MenForShip(type, frigates, b->capacity());  // crew and Marines
      if (crew > acct.manpower) {
        return Refusal{"SOW 3.1", "needs " + std::to_string(crew) + " men; the national pool has " +
                                      std::to_string(acct.manpower)};
      }
      int64_t price = ShipPriceCc(type, frigates, b->capacity());
      int64_t upkeep = ShipUpkeepCc(type, frigates, b->capacity(), true, false, fb::SeasonKind_War);
      if (auto r = Funds(s, st, FundsRequiredCc(price, upkeep), "SOW 4.4", "the build with 15 turns of upkeep")) return r;
      P::Build build;
      build.id = b->id()->str();
      build.state = st;
      build.city = c.name;
      build.is_ship = true;
      build.ship.id = build.id;
      build.ship.state = st;
      build.ship.type = static_cast<P::ShipType>(type);
      ShipComplement full = FullComplement(type, frigates, b->capacity());  // PATE 2.7
      build.ship.crew = static_cast<int32_t>(full.crew);
      build.ship.marines = static_cast<int32_t>(full.marines);
      build.ship.frigates = static_cast<uint8_t>(frigates);
      build.ship.capacity = tr ? b->capacity() : 0;
      build.ship.base = build.ship.location = c.name;
      build.ship.in_port = true;
      build.war_turns = static_cast<uint8_t>(BuildWarTurns(type));
      build.order_seq = seq;
      out.Money(st, -price, "SOW 4.1", "build", build.id,
                std::string(fb::EnumNameSowShipType(type)) + " in " + c.name, seq);
      out.Men(st, "national", "", -crew, "SOW 3.1", ManItem::Build, build.id, seq);
      if (tr) out.Men(st, "transport", c.name, -b->capacity(), "SOW 3.3", ManItem::Build, build.id, seq);
      out.BuildStarted(build);
      return std::nullopt;
    }
    case fb::SowOrderBody_ReinforceOrder: {  // SOW 4.8
      auto* r = o.body_as_ReinforceOrder();
      std::string id = r->unit()->str();
      if (auto u = s.units.find(id); u != s.units.end()) {
        auto type = K(u->second.type);
        if (!SoldiersMayJoin(K(s.season_kind), out.at().turn.step)) {
          return Refusal{"SOW 4.8", "soldiers join units only on peace or truce turns and on turn 1 of a campaign"};
        }
        if (!ReinforcementAllowed(type, u->second.men, u->second.batteries, r->men(), r->batteries())) {
          return Refusal{"SOW 4.8", "the reinforcement would take " + id + " above its 4.7 size, or it takes none"};
        }
        bool militia = DrawsOnMilitiaPool(type);
        const P::City* home = militia && s.cities.count(u->second.raised_in) ? &s.cities.at(u->second.raised_in) : nullptr;
        if (militia && home == nullptr) return Refusal{"SOW 3.2", id + " has no city to draw militia from"};
        int64_t pool = militia ? home->militia_pool : acct.manpower;
        if (r->men() > pool) return Refusal{militia ? "SOW 3.2" : "SOW 3.1", "the pool has " + std::to_string(pool) + " men"};
        int64_t cost = ReinforcementCostCc(type, r->men(), r->batteries());
        if (auto ref = Funds(s, st, cost, "SOW 4.8", "the reinforcement")) return ref;
        out.Money(st, -cost, "SOW 4.8", "reinforcement", id,
                  std::to_string(r->men()) + " men, " + std::to_string(r->batteries()) + " batteries", seq);
        if (r->men() > 0) {
          out.Men(st, militia ? "militia" : "national", militia ? home->name : "", -r->men(),
                  militia ? "SOW 3.2" : "SOW 3.1", ManItem::Reinforce, id, seq);
        }
        out.Reinforced(id, r->men(), r->batteries(), seq);
        return std::nullopt;
      }
      const P::Ship& sh = fleet.ships.at(id);
      auto port = s.cities.find(sh.location);
      if (port == s.cities.end() || !Friendly(s, port->second.controller, st) || !(sh.in_port || sh.coastal)) {
        return Refusal{"SOW 4.8", id + " is not in a friendly port (harbour or coastal waters)"};
      }
      // PATE 2.7: crew up to the ship's full complement (a TR's capacity / 10).
      int64_t full = FullComplement(K(sh.type), sh.frigates, sh.capacity).crew;
      if (r->batteries() > 0 || r->men() <= 0 || sh.crew + r->men() > full) {
        return Refusal{"SOW 4.8", id + " takes at most " + std::to_string(std::max<int64_t>(full - sh.crew, 0)) +
                                      " more crew (PATE 2.7), and no batteries"};
      }
      if (r->men() > acct.manpower) return Refusal{"SOW 3.1", "the national pool has " + std::to_string(acct.manpower) + " men"};
      int64_t cost = CrewCostCc(r->men());
      if (auto ref = Funds(s, st, cost, "SOW 4.8", "the crew")) return ref;
      out.Money(st, -cost, "SOW 4.8", "crew", id, std::to_string(r->men()) + " crew", seq);
      out.Men(st, "national", "", -r->men(), "SOW 3.1", ManItem::Reinforce, id, seq);
      out.Crewed(id, r->men(), seq);
      return std::nullopt;
    }
    case fb::SowOrderBody_DisbandOrder: {  // SOW 4.9
      // A copy: the UnitDisbanded event below erases the unit from the state.
      const P::Unit u = s.units.at(o.body_as_DisbandOrder()->unit()->str());
      // Rules version 9: where the unit is - aboard a transport, the square
      // of the port she lies in, and at sea none (versions 1-8: the square it
      // boarded from).
      const bool on_land = out.version() >= kDisbandOnLandVersion;
      std::string city = u.city;
      std::optional<P::Square> square = u.square;
      if (on_land && !u.aboard.empty()) {
        auto sh = fleet.ships.find(u.aboard);
        if (sh == fleet.ships.end() || !sh->second.on_map() || sh->second.at_sea() ||
            !s.cities.count(sh->second.location)) {
          return Refusal{"SOW 4.9", u.id + " is aboard " + u.aboard +
                                        " at sea, on no strategic square: it may disband once landed or in port"};
        }
        city = sh->second.location;  // in her port: in that city
        square = LandSquare(s, fleet, u, out.version());  // none in an off-map port
      } else if (on_land) {
        square = LandSquare(s, fleet, u, out.version());  // since version 10 none in an off-map port
      }
      bool militia_at_home = u.type == P::UnitType::MI && city == u.raised_in && !city.empty();
      // Rules version 5: militia anywhere in the strategic square of the
      // city they were raised in (version 4: in the city itself).
      if (u.type == P::UnitType::MI && out.version() >= 5) {
        auto raised = s.cities.find(u.raised_in);
        if (raised != s.cities.end() && raised->second.kind != P::CityKind::OffMapPort &&
            square && raised->second.square == *square) {
          militia_at_home = true;
        }
      }
      if (!militia_at_home) {
        for (const auto& [id, other] : s.units) {
          const auto at = LandSquare(s, fleet, other, out.version());
          if (at && square && AtWar(s, other.state, st) && *at == *square) {
            return Refusal{"SOW 4.9", u.id + " shares its strategic square with enemy units"};
          }
        }
      }
      // Inside the state's territory (see RULES.md): standing in, or on the
      // square of, a city it holds; since rules version 5 also on a square
      // strictly nearer to a city it holds than to any other city (the
      // book's test for fragmented states); since version 9 an off-map
      // port's square is no one's territory on the land map.
      bool home = false;
      for (const auto& [n, c] : s.cities) {
        if (c.controller != st) continue;
        const bool square_counts = !on_land || c.kind != P::CityKind::OffMapPort;
        if (city == n || (square_counts && square && c.square == *square)) home = true;
      }
      if (!home && square && out.version() >= 5) home = NearerOwnCity(s, st, *square);
      DisbandResult r = DisbandOutcome(u.men, !home);
      auto due = NextSeason(out.at().turn.major, out.at().turn.minor);
      bool militia = u.type == P::UnitType::MI && s.cities.count(u.raised_in);
      out.Disbanded(u.id, static_cast<int32_t>(r.returning), static_cast<int32_t>(r.lost),
                    static_cast<int32_t>(r.vp_penalty), seq);
      if (r.returning > 0) {
        out.ReturnLater(st, militia ? "militia" : "national", militia ? u.raised_in : "", r.returning, due.first,
                        due.second, "SOW 4.9", u.id);
      }
      if (r.lost > 0) out.Lost(st, r.lost, "SOW 4.9", u.id);
      return std::nullopt;
    }
    case fb::SowOrderBody_RemoveShipOrder: {  // SOW 4.10
      // A copy: the ShipRemoved event below erases the ship from the state.
      const P::Ship sh = fleet.ships.at(o.body_as_RemoveShipOrder()->ship()->str());
      bool with_enemy = false, friend_at_sea = false;
      // Rules version 3: at sea, only enemies in the ship's own tactical area
      // (PATE 1.2) stop it; version 1-2 counted the whole sea area.
      const bool by_tactical_area = out.version() >= 3;
      // Rules version 9: a ship crossing the Atlantic (PATE 6.11) is in no
      // sea area's tactical location - neither she nor the ships she is
      // bound to meet stop one another's removal - and the friend must stay:
      // not itself ordered removed this phase.
      const bool staying = out.version() >= kRemovalFriendStaysVersion;
      const bool crossing = staying && sh.crossing_turns > 0;
      for (const auto& [id, other] : fleet.ships) {
        if (crossing) break;
        if (id == sh.id || other.location != sh.location) continue;
        if (staying && other.crossing_turns > 0) continue;
        const bool same_area = !by_tactical_area || sh.tactical == 0 || other.tactical == 0 || other.tactical == sh.tactical;
        if (AtWar(s, other.state, st) && other.in_port == sh.in_port && other.coastal == sh.coastal && same_area) {
          with_enemy = true;
        }
        if (Friendly(s, other.state, st) && !(staying && bought.removing.count(id))) friend_at_sea = true;
      }
      if (with_enemy) return Refusal{"SOW 4.10", sh.id + " is in the same place as enemy ships"};
      bool at_sea = !s.cities.count(sh.location) && !crossing;
      if (at_sea && sh.type != P::ShipType::TR && !friend_at_sea) {
        return Refusal{"SOW 4.10", sh.id + " is in a sea area with no other friendly ship"};
      }
      auto due = NextSeason(out.at().turn.major, out.at().turn.minor);
      // Rules version 5: the units aboard are lost with her, as with a ship
      // the GA strikes off (directives.cc, LoseShip); the fold drops them
      // with the ShipRemoved below, and her supplies go with her hold.
      if (out.version() >= 5) {
        for (const auto& [uid, u] : s.units) {
          if (u.aboard == sh.id && u.men > 0) out.Lost(u.state, u.men, "SOW 4.10", uid);
        }
      }
      out.ShipRemoved(sh.id, static_cast<int32_t>(sh.men()), seq);
      if (sh.men() > 0) out.ReturnLater(st, "national", "", sh.men(), due.first, due.second, "SOW 4.10", sh.id);
      return std::nullopt;
    }
    case fb::SowOrderBody_BuySuppliesOrder: {  // SOW 6
      auto* b = o.body_as_BuySuppliesOrder();
      const P::City& c = s.cities.at(b->city()->str());
      if (auto r = CheckPurchase(s, out.fleet(), bought, st, c, b->supplies(), b->stores(),
                                   out.version())) {
        return r;
      }
      int64_t cost = SupplyCostCc(b->supplies(), b->stores());
      out.Money(st, -cost, "SOW 6.2", "supplies", c.name,
                std::to_string(b->supplies()) + " supplies, " + std::to_string(b->stores()) + " stores", seq);
      out.Supplies(st, c.name, b->supplies(), b->stores(), seq);
      bought.in_city[{st, c.name}] += PurchaseSize(b->supplies(), b->stores());
      bought.by_state[st] += PurchaseSize(b->supplies(), b->stores());
      return std::nullopt;
    }
    case fb::SowOrderBody_StandingSupplyOrder: {  // SOW 6.5
      auto* b = o.body_as_StandingSupplyOrder();
      std::string city = b->city()->str();
      bool has_forward = b->forward_to() && b->forward_to()->size();
      if (b->supplies() == 0 && !has_forward) {
        if (!s.standing.count({st, city})) return Refusal{"SOW 6.5", "there is no standing order in " + city + " to cancel"};
        out.StandingCancelled(st, city, "SOW 6.5", "cancelled by a standing order of 0 supplies");
        return std::nullopt;
      }
      if (s.season_kind != P::SeasonKind::War) return Refusal{"SOW 6.5", "standing orders are set in wartime"};
      out.StandingSet(st, city, P::StandingOrder{b->supplies(), has_forward ? b->forward_to()->str() : "", b->forward(), seq});
      return std::nullopt;
    }
    case fb::SowOrderBody_RepairOrder: {  // SOW 7.1
      auto* r = o.body_as_RepairOrder();
      const P::City& c = s.cities.at(r->city()->str());
      auto what = static_cast<P::RepairKind>(r->what());
      const uint32_t version = out.version();
      const bool from_log = version >= kRepairsFromLogVersion;
      int under_way = 0;
      for (const auto& rep : s.repairs) under_way += rep.city == c.name && rep.what == what ? 1 : 0;
      // A fort rises one level a season; since version 8 each damaged or
      // destroyed battery is a repair of its own, the damaged ones first.
      const int room = what == P::RepairKind::Battery && from_log ? c.batteries_damaged + c.batteries_destroyed : 1;
      if (under_way >= room) {
        return Refusal{"SOW 7.1", from_log && what == P::RepairKind::Battery
                                      ? "every damaged or destroyed coastal battery of " + c.name + " is already being repaired"
                                      : "that repair is already under way"};
      }
      if (s.season_kind == P::SeasonKind::War && EnemyThisCampaign(s, c, version)) {
        return Refusal{"SOW 7.1", "an enemy unit has been in " + c.name + " during this campaign"};
      }
      const bool destroyed = from_log ? under_way >= c.batteries_damaged : c.batteries_damaged == 0;
      int64_t cost = what == P::RepairKind::Fort ? FortRepairCc(c.fort_level) : BatteryRepairCc(destroyed);
      if (auto ref = Funds(s, st, cost, "SOW 7.1", "the repair")) return ref;
      out.Money(st, -cost, "SOW 7.1", "repair", c.name,
                what == P::RepairKind::Fort ? "fort level " + std::to_string(c.fort_level) + " to " +
                                                  std::to_string(c.fort_level + 1)
                                            : (destroyed ? "destroyed coastal battery" : "damaged coastal battery"),
                seq);
      out.RepairStarted(c.name, what, st, seq, from_log ? cost : 0);
      return std::nullopt;
    }
    case fb::SowOrderBody_NONE:
      break;
  }
  return Refusal{"SOW 2.1", "the order has no body"};
}

}  // namespace

void RunOrders(Outcomes& out) {
  // Copy the orders first: executing them changes the state they live in.
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> orders;
  for (const auto& [seq, o] : out.state().orders) orders.emplace_back(seq, o.event);
  TurnPurchases bought;
  for (const auto& [seq, bytes] : orders) {
    const auto* o = flatbuffers::GetRoot<fb::Event>(bytes.data())->payload_as_OrderSubmitted()->body_as_SowOrder();
    if (o != nullptr && o->body_type() == fb::SowOrderBody_RemoveShipOrder) {
      bought.removing.insert(o->body_as_RemoveShipOrder()->ship()->str());
    }
  }
  for (const auto& [seq, bytes] : orders) {
    const auto* e = flatbuffers::GetRoot<fb::Event>(bytes.data());
    const fb::SowOrder* o = e->payload_as_OrderSubmitted()->body_as_SowOrder();
    if (o == nullptr) continue;
    if (auto r = Execute(out, bought, seq, *o)) out.Rejected(seq, r->rule, r->reason);
  }
  // SOW 6.5: wartime standing orders buy their supplies each turn.
  if (out.state().season_kind != P::SeasonKind::War) return;
  auto standing = out.state().standing;
  for (const auto& [key, so] : standing) {
    const auto& [st, city] = key;
    auto c = out.state().cities.find(city);
    if (so.supplies <= 0 || c == out.state().cities.end()) continue;
    if (auto r = CheckPurchase(out.state(), out.fleet(), bought, st, c->second, so.supplies, 0,
                               out.version())) {
      out.Rejected(so.order_seq, r->rule, "standing order this turn: " + r->reason);
      continue;
    }
    int64_t cost = SupplyCostCc(so.supplies, 0);
    out.Money(st, -cost, "SOW 6.5", "supplies", city, std::to_string(so.supplies) + " supplies (standing order)",
              so.order_seq);
    out.Supplies(st, city, so.supplies, 0, so.order_seq);
    bought.in_city[{st, city}] += PurchaseSize(so.supplies, 0);
    bought.by_state[st] += PurchaseSize(so.supplies, 0);
  }
}

// ---- SOW 4.1, 4.2: construction --------------------------------------------------
void RunConstruction(Outcomes& out) {
  auto builds = out.state().builds;
  for (const auto& [id, b] : builds) {
    BuildClock clock = AfterTurn(BuildClock{b.war_turns, b.done}, K(out.state().season_kind));
    if (clock.complete()) out.BuildCompleted(id);
    else out.BuildProgressed(id, static_cast<uint8_t>(clock.done));
  }
}

// ---- the end of a season ----------------------------------------------------------
void RunSeasonEnd(Outcomes& out, P::SeasonKind kind) {
  const int32_t year = out.at().turn.major, season = out.at().turn.minor;
  std::vector<std::string> states;
  for (const auto& [id, a] : out.state().states) states.push_back(id);
  for (const std::string& st : states) {
    const P::TreasuryState& s = out.state();
    const P::StateAcct& acct = *s.State(st);
    // SOW 3.4: growth by own cities held; attrition of pool and of men in service.
    int own = 0;
    for (const auto& [n, c] : s.cities) if (c.controller == st && c.nation == acct.nation) own++;
    int64_t in_units = 0, in_ships = 0;
    for (const auto& [id, u] : s.units) if (u.state == st) in_units += u.men;
    for (const auto& [id, sh] : out.fleet().ships) if (sh.state == st) in_ships += sh.men();
    Attrition att = SeasonalAttrition(acct.manpower, in_units, in_ships);
    int64_t growth = SeasonalGrowth(own);
    if (growth) out.Men(st, "national", "", growth, "SOW 3.4", ManItem::Growth, std::to_string(own) + " own cities");
    // The pool never goes below zero (RULES.md).
    int64_t leaving = std::min(att.total(), out.state().State(st)->manpower);
    if (leaving) {
      out.Men(st, "national", "", -leaving, "SOW 3.4", ManItem::Attrition,
              "4% of pool " + std::to_string(att.from_pool) + ", of army " + std::to_string(att.from_units) +
                  ", of navy " + std::to_string(att.from_ships));
    }
  }
  // SOW 3.5, 4.9, 4.10: men due back by the end of this season.
  auto returns = out.state().returns;
  for (const auto& r : returns) {
    if (std::make_pair(r.due_year, r.due_season) > std::make_pair(year, season)) continue;
    out.Men(r.state, r.pool, r.city, r.men, r.rule.c_str(), ManItem::Return, r.subject);
  }
  // SOW 7.1: repairs take the season; in war, only if no enemy entered the city.
  const uint32_t version = out.version();
  auto repairs = out.state().repairs;
  for (const auto& rep : repairs) {
    auto c = out.state().cities.find(rep.city);
    if (kind == P::SeasonKind::War && c != out.state().cities.end() && EnemyThisCampaign(out.state(), c->second, version)) {
      // Refund what the order paid: the statement shows both lines. Before
      // version 8 the price was worked out again from the city as it is now.
      int64_t cost = version >= kRepairsFromLogVersion ? rep.paid_cc
                     : rep.what == P::RepairKind::Fort ? FortRepairCc(c->second.fort_level)
                                                        : BatteryRepairCc(c->second.batteries_damaged == 0);
      out.Money(rep.state, cost, "SOW 7.1", "repair refunded", rep.city, "an enemy unit entered the city");
      out.RepairCancelled(rep.city, rep.what, rep.state, "an enemy unit entered the city during the campaign");
      continue;
    }
    out.RepairCompleted(rep.city, rep.what);
  }
  out.SeasonEnded(year, season, kind);
}

void RunPhase(Outcomes& out, const NextPhase& next) {
  if (next.opens_season) out.SeasonStarted(next.at.turn.major, next.at.turn.minor, next.season_kind);
  if (IsSeasonEnd(next.at.turn)) {
    RunSeasonEnd(out, next.season_kind);
    return;
  }
  switch (next.at.phase) {
    case kIncome: RunIncome(out); break;
    case kUpkeep: RunUpkeep(out); break;
    case kOrders: RunOrders(out); break;
    case kConstruction: RunConstruction(out); break;
    default: break;
  }
}

}  // namespace adjutant::rules::sow
