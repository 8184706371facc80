#include "replay/views.h"

#include <algorithm>

#include "base/money.h"
#include "projections/roster.h"
#include "projections/treasury.h"
#include "projections/visibility.h"
#include "schema/sow_generated.h"

namespace adjutant::replay {

namespace P = projections;

namespace {

std::string Join(const std::vector<std::string>& xs) {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : ",") + x;
  return s;
}

}  // namespace

std::map<ViewKey, std::string> Flatten(const World& w) {
  std::map<ViewKey, std::string> out;
  auto put = [&](const char* view, const std::string& entity, const char* field, const std::string& value) {
    out[{view, entity, field}] = value;
  };
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
  for (const auto& [person, p] : w.roster().persons()) {
    put("roster", person, "roles", Join(std::vector<std::string>(p.roles.begin(), p.roles.end())));
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
