#include "replay/views.h"

#include <algorithm>

#include "base/money.h"
#include "projections/roster.h"
#include "projections/treasury.h"
#include "projections/battle.h"
#include "projections/visibility.h"
#include "projections/y1820.h"
#include "rules/y1820/formulas.h"
#include "schema/dog_generated.h"
#include "schema/sow_generated.h"

namespace adjutant::replay {

namespace P = projections;

namespace {

std::string Join(const std::vector<std::string>& xs) {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::string Counts(const std::map<std::string, int32_t>& m) {
  std::string out;
  for (const auto& [n, k] : m) out += (out.empty() ? "" : ",") + n + ":" + std::to_string(k);
  return out;
}

std::string Ints(const std::vector<int32_t>& v) {
  std::string out;
  for (int32_t x : v) out += (out.empty() ? "" : ",") + std::to_string(x);
  return out;
}

// The y1820 views: game (calendar, end), provinces, seas, nations.
template <class Put>
void FlattenY1820(const P::Y1820State& s, Put put) {
  put("game", "y1820", "turns_done", std::to_string(s.turns_done));
  put("game", "y1820", "ended", s.ended ? s.end_reason + (s.winner.empty() ? "" : " " + s.winner) : "no");
  for (const auto& [id, d] : s.defs) {
    const P::Y1820Province* p = s.Province(id);
    const std::string e = std::to_string(id);
    put("provinces", e, "owner", p->owner.empty() ? (p->npc.empty() ? "-" : "npc " + p->npc) : p->owner);
    std::string armies = Counts(p->armies);
    if (p->garrison) armies += (armies.empty() ? "" : ",") + std::string("neutral:") + std::to_string(p->garrison);
    put("provinces", e, "armies", armies);
    put("provinces", e, "fleets", Counts(p->fleets));
    put("provinces", e, "improvements", Join(std::vector<std::string>(p->improvements.begin(), p->improvements.end())));
    put("provinces", e, "epidemic", p->epidemic ? "yes" : "no");
  }
  for (const auto& [id, by] : s.sea_fleets) put("seas", id, "fleets", Counts(by));
  for (const auto& [id, n] : s.nations) {
    put("nations", id, "government", n.government);
    put("nations", id, "capital", std::to_string(n.capital) + (n.original_capital ? " (for " + std::to_string(n.original_capital) + ")" : ""));
    put("nations", id, "eliminated", n.eliminated ? "yes" : "no");
    put("nations", id, "provinces", std::to_string(rules::y1820::ProvincesOf(s, id)));
    put("nations", id, "armies", std::to_string(s.ArmiesOf(id)));
    put("nations", id, "fleets", std::to_string(s.FleetsOf(id)));
    put("nations", id, "army_limit", std::to_string(rules::y1820::ArmyLimitOf(s, id).total));
    put("nations", id, "research", n.research.empty() ? "-" : n.research + " " + std::to_string(n.progress));
    put("nations", id, "techs", Join(std::vector<std::string>(n.techs.begin(), n.techs.end())));
    put("nations", id, "reforms", Join(std::vector<std::string>(n.reforms.begin(), n.reforms.end())));
    put("nations", id, "reform", n.reform.empty() ? "-" : n.reform);
    put("nations", id, "rally_points", Ints(n.rally_points));
    put("nations", id, "domination_turns", std::to_string(n.domination_turns));
    std::vector<std::string> wars, treaties;
    for (const auto& [a, b] : s.wars) {
      if (a == id) wars.push_back(b);
      if (b == id) wars.push_back(a);
    }
    for (const auto& [a, b, k] : s.treaties) {
      if (a == id) treaties.push_back(k + " " + b);
      if (b == id) treaties.push_back(k + " " + a);
    }
    put("nations", id, "wars", Join(wars));
    put("nations", id, "treaties", Join(treaties));
  }
}

// The dog views: battle (the move reached, the end) and troops (every unit).
template <class Put>
void FlattenBattle(const P::BattleState& s, Put put) {
  put("battle", "battle", "moves_done", std::to_string(s.moves_done));
  put("battle", "battle", "ended", s.ended ? s.end_reason + (s.winner.empty() ? "" : ", " + s.winner + " wins") : "no");
  for (const auto& [id, u] : s.units) {
    put("troops", id, "where", std::to_string(u.x) + "," + std::to_string(u.y) + " facing " + std::to_string(u.facing));
    put("troops", id, "formation",
        std::string(fb::EnumNameDogFormation(static_cast<fb::DogFormation>(u.formation))) +
            (u.changing_to >= 0 ? std::string(" forming ") +
                                      fb::EnumNameDogFormation(static_cast<fb::DogFormation>(u.changing_to)) + " " +
                                      std::to_string(u.change_done) + "/" + std::to_string(u.change_time)
                                : ""));
    put("troops", id, "state",
        std::string(fb::EnumNameDogCohesion(static_cast<fb::DogCohesion>(u.cohesion))) + ", " +
            fb::EnumNameDogFatigue(static_cast<fb::DogFatigue>(u.fatigue)) + (u.shaken ? ", shaken" : "") +
            (u.routing ? ", routing" : "") + (u.gone ? ", gone" : ""));
    put("troops", id, "strength", std::to_string(u.strength) + " of " + std::to_string(u.start_strength));
    put("troops", id, "bound", u.bound.empty() ? "-" : u.bound + " " + std::to_string(u.bound_moves));
  }
}

}  // namespace

std::map<ViewKey, std::string> Flatten(const World& w) {
  std::map<ViewKey, std::string> out;
  auto put = [&](const char* view, const std::string& entity, const char* field, const std::string& value) {
    out[{view, entity, field}] = value;
  };
  for (const auto& [person, p] : w.roster().persons()) {
    put("roster", person, "roles", Join(std::vector<std::string>(p.roles.begin(), p.roles.end())));
  }
  if (w.is_y1820()) {
    FlattenY1820(w.y1820(), put);
    return out;
  }
  if (w.is_dog()) {
    FlattenBattle(w.battle(), put);
    return out;
  }
  const P::TreasuryState& s = w.treasury().state();
  put("treasury", "game", "turn", s.turn.ToString());
  put("treasury", "game", "phase_done", std::to_string(s.phase_done));
  for (const auto& [id, a] : s.states) {
    put("treasury", id, "balance", FormatCc(a.treasury_cc));
    put("treasury", id, "manpower", std::to_string(a.manpower));
    put("treasury", id, "men_lost", std::to_string(a.men_lost));
  }
  for (const auto& [name, c] : s.cities) {
    put("cities", name, "controller", c.controller);
    put("cities", name, "supplies", std::to_string(c.supplies));
    put("cities", name, "stores", std::to_string(c.stores));
    put("cities", name, "batteries", std::to_string(c.batteries) + "/" + std::to_string(c.batteries_damaged) + " damaged");
  }
  for (const auto& [id, u] : s.units) {
    put("units", id, "state", u.state);
    put("units", id, "men", std::to_string(u.men));
    put("units", id, "where", u.aboard.empty() ? u.city : "aboard " + u.aboard);
  }
  for (const auto& [id, sh] : s.ships) {
    std::string where = sh.location + (sh.in_port ? " harbour" : sh.coastal ? " coastal" : " area " + std::to_string(sh.tactical));
    if (sh.crossing_turns) where = "Atlantic to " + sh.location;
    if (!sh.active) where += " (inactive)";
    put("fleet", id, "state", sh.state);
    put("fleet", id, "where", where);
    put("fleet", id, "damage", "hull " + std::to_string(sh.hull) + ", rigging " + std::to_string(sh.rigging));
    put("fleet", id, "men", std::to_string(sh.crew) + " crew, " + std::to_string(sh.marines) + " marines");
    put("fleet", id, "stores", std::to_string(sh.stores));
    put("fleet", id, "experience", std::to_string(sh.experience));
    put("fleet", id, "mission", fb::EnumNameShipMission(static_cast<fb::ShipMission>(sh.mission)));
    put("fleet", id, "attached_to", sh.attached_to);
    if (!sh.cargo_units.empty() || sh.cargo_supplies) {
      put("fleet", id, "cargo", Join(sh.cargo_units) + " + " + std::to_string(sh.cargo_supplies) + " supplies");
    }
  }
  for (const auto& proj : w.projections) {
    if (auto* v = dynamic_cast<const P::Visibility*>(proj.get())) {
      for (const auto& [observer, obs] : v->state().by_ship) {
        put("visibility", observer, "observations", std::to_string(obs.size()) +
                                                       (obs.empty() ? "" : ", last in " + obs.back().turn.ToString()));
      }
    }
  }
  return out;
}

std::vector<ViewDifference> Compare(const std::map<ViewKey, std::string>& a, const std::map<ViewKey, std::string>& b) {
  std::vector<ViewDifference> out;
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() || j != b.end()) {
    if (j == b.end() || (i != a.end() && i->first < j->first)) {
      out.push_back({i->first, i->second, ""});
      ++i;
    } else if (i == a.end() || j->first < i->first) {
      out.push_back({j->first, "", j->second});
      ++j;
    } else {
      if (i->second != j->second) out.push_back({i->first, i->second, j->second});
      ++i;
      ++j;
    }
  }
  return out;
}

Result<uint64_t> FirstParting(ledger::Ledger& db, std::string_view game, std::string_view a, std::string_view b) {
  // The chain hash of event n covers every event up to n: equal hashes mean
  // equal prefixes, so the longest common prefix is found by bisection.
  auto ha = db.HeadOf(game, a);
  if (!ha.ok()) return ha.status();
  auto hb = db.HeadOf(game, b);
  if (!hb.ok()) return hb.status();
  auto hash_at = [&](std::string_view branch, uint64_t seq) -> Result<Hash128> {
    Hash128 h;
    ADJ_RETURN_IF_ERROR(db.Read(game, branch, seq, seq, [&](const ledger::EventView& e) {
      h = e.hash;
      return Status::Ok();
    }));
    return h;
  };
  uint64_t lo = 0, hi = std::min(ha->seq, hb->seq);  // the prefix of length lo is shared
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    auto x = hash_at(a, mid);
    if (!x.ok()) return x.status();
    auto y = hash_at(b, mid);
    if (!y.ok()) return y.status();
    if (*x == *y) lo = mid;
    else hi = mid - 1;
  }
  if (lo == ha->seq && lo == hb->seq) return uint64_t{0};
  return lo + 1;
}

}  // namespace adjutant::replay
