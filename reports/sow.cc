// The economy's reports: a state's treasury (SOW) and the GA's fleet (PATE
// 2.2-2.4), and what every report starts from (the world at a turn's end).
#include <algorithm>
#include <cassert>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "base/money.h"
#include "reports/common.h"
#include "projections/fleet.h"
#include "projections/navalmap.h"
#include "projections/roster.h"
#include "projections/treasury.h"
#include "projections/visibility.h"
#include "replay/driver.h"
#include "rules/pate/map.h"
#include "rules/sow/calendar.h"
#include "rules/sow/economy.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "schema/values.h"

namespace adjutant::reports {
namespace {

namespace P = projections;
namespace pate = rules::pate;
namespace sow = rules::sow;

// How many characters wide UTF-8 text is on a terminal (one column a code
// point: names like "Bucentaure" or "Redoutable" with their accents line
// up with the rest).
size_t Width(const std::string& s) {
  size_t w = 0;
  for (unsigned char c : s) w += (c & 0xC0) != 0x80;  // continuation bytes take no column
  return w;
}

// A column of width n; a longer value keeps one space before the next.
std::string Pad(std::string s, size_t n) {
  const size_t w = Width(s);
  if (w < n) s.append(n - w, ' ');
  else s += ' ';
  return s;
}
std::string PadLeft(std::string s, size_t n) {
  const size_t w = Width(s);
  return w < n ? std::string(n - w, ' ') + s : s;
}

std::string Signed(int64_t cc) { return (cc > 0 ? "+" : "") + FormatCc(cc); }

// When a build will be ready (SOW 4.1, 4.2), in words: the campaign turn
// if this campaign lasts long enough, else how many war turns remain.
std::string Completes(const P::TreasuryState& s, const P::Build& b) {
  int left = b.war_turns > b.done ? b.war_turns - b.done : 0;
  if (left == 0) return "at the end of this turn";
  if (s.season_kind != P::SeasonKind::War) return "at the end of the next turn";
  std::string rest = std::to_string(left) + " more war turn" + (left == 1 ? "" : "s");
  int32_t step = s.turn.step == sow::kSeasonEndStep ? 0 : s.turn.step;
  if (step + left <= sow::kCampaignTurnsMax && !s.campaign_ended) {
    return "at the end of turn " + std::to_string(step + left) + " of this campaign (" + rest +
           "), or of a peace or truce turn before";
  }
  return "after " + rest + ", or at the end of a peace or truce turn";
}

}  // namespace

// The sequence number after which turn `t` was complete (the last event
// before the next turn), or the head.
Result<uint64_t> EndOfTurn(ledger::Ledger& db, const std::string& game, const std::string& branch, const Turn& t) {
  auto first = db.SeekTurn(game, branch, TurnPhase{t, 0});
  if (!first.ok()) return first.status();
  if (!first->has_value()) return Status::NotFound("turn " + t.ToString() + " of " + game + "/" + branch + " has not begun");
  // The index finds the first event at or after the turn: it must be in it.
  bool in_turn = false;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, **first, **first, [&](const ledger::EventView& e) {
    const fb::Turn* et = e.event()->turn();
    in_turn = et && schema::TurnOf(et) == t;
    return Status::Ok();
  }));
  if (!in_turn) return Status::NotFound("game " + game + "/" + branch + " has no turn " + t.ToString());
  auto next = db.SeekTurn(game, branch, TurnPhase{Turn{t.major, t.minor, t.step + 1}, 0});
  if (!next.ok()) return next.status();
  if (!next->has_value()) return UINT64_MAX;
  return **next - 1;
}

// The world folded to the end of --turn T (or the head): the projections
// named in `only` (by name; empty: every one).
Result<replay::World> WorldAt(Ctx& c, const std::string& game, uint64_t* upto, const std::vector<std::string>& only) {
  ledger::Ledger& db = c.db;
  const std::string& branch = c.branch;
  *upto = UINT64_MAX;
  if (const auto& t = c.rq.turn) {
    auto turn = Turn::Parse(*t);
    if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
    auto end = EndOfTurn(db, game, branch, *turn);
    if (!end.ok()) return end.status();
    *upto = *end;
  }
  return replay::Fold(db, game, branch, *upto, only);
}


Result<Folded> FoldForReport(Ctx& c, const std::string& game, const char* what, const std::vector<std::string>& only) {
  Folded f;
  auto world = WorldAt(c, game, &f.upto, only);
  if (!world.ok()) return world.status();
  if (!world->treasury().state().active) {
    return Status::InvalidArgument("game '" + game + "' has no " + what + " (its scenario has no sow section)");
  }
  f.world = std::move(world).value();
  return f;
}

// PATE 2.2–2.4: every ship, for the GA.
Status FleetReport(Ctx& c, const std::string& game) {
  const std::string& branch = c.branch;
  // What the report reads, and nothing else: not the visibility view, the
  // largest of an NWOL game (issue 22).
  auto folded = FoldForReport(c, game, "ships", {"summary", "treasury", "fleet", "roster"});
  if (!folded.ok()) return folded.status();
  const replay::World* world = &folded->world;
  const uint64_t upto = folded->upto;
  const P::TreasuryState& s = world->treasury().state();
  std::optional<std::string> only;
  if (!c.rq.state.empty()) only = c.rq.state;
  // Commanders and deputies are the persons holding SHIP.commander / SHIP.deputy.
  std::map<std::string, std::pair<std::string, std::string>> command;
  for (const auto& [person, p] : world->roster().persons()) {
    for (const auto& role : p.roles) {
      auto r = P::Role::Parse(role);
      if (!r) continue;
      if (r->title == "commander") command[r->holder].first = person;
      if (r->title == "deputy") command[r->holder].second = person;
    }
  }
  struct Row {
    const P::Ship* ship;
    std::string position, commander, deputy;
  };
  std::vector<Row> rows;
  for (const auto& [id, sh] : world->fleet().state().ships) {
    if (only && sh.state != *only) continue;
    std::string position = !sh.active ? (sh.reactivating ? "reactivating " + std::to_string(sh.reactivating) : "inactive")
                           : sh.crossing_turns ? "Atlantic, " + std::to_string(sh.crossing_turns) + " more"
                           : s.cities.count(sh.location) ? (sh.in_port ? "harbour" : "coastal waters")
                                                         : "at sea, area " + std::to_string(sh.tactical);
    rows.push_back({&sh, position, command[id].first, command[id].second});
  }
  auto quality = [](uint8_t q) { return std::string(fb::EnumNameShipQuality(static_cast<fb::ShipQuality>(q))); };
  auto type = [](P::ShipType t) { return std::string(fb::EnumNameSowShipType(static_cast<fb::SowShipType>(t))); };
  auto mission = [](P::Mission m) { return std::string(fb::EnumNameShipMission(static_cast<fb::ShipMission>(m))); };
  if (c.json()) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::ShipRow>> out;
    std::vector<flatbuffers::Offset<flatbuffers::String>> ids;
    auto cargo_ids = [&](const P::Ship& sh) -> const std::vector<flatbuffers::Offset<flatbuffers::String>>& {
      ids.clear();
      for (const auto& u : sh.cargo_units) ids.push_back(f.CreateString(u));
      return ids;
    };
    for (const auto& r : rows) {
      const P::Ship& sh = *r.ship;
      out.push_back(fb::CreateShipRowDirect(f, sh.id.c_str(), sh.name.c_str(), sh.state.c_str(), type(sh.type).c_str(),
                                            sh.location.c_str(), r.position.c_str(), sh.base.c_str(),
                                            r.commander.c_str(), r.deputy.c_str(), quality(sh.quality).c_str(),
                                            sh.experience, sh.morale, sh.stores, sh.crew, sh.marines, sh.frigates,
                                            sh.capacity, sh.hull, sh.rigging, mission(sh.mission).c_str(), sh.tactical,
                                            sh.attached_to.c_str(), sh.crossing_turns, sh.reactivating,
                                            sh.cargo_units.empty() ? nullptr : &cargo_ids(sh), sh.cargo_supplies));
    }
    fb::Turn t(s.turn.major, s.turn.minor, s.turn.step);
    f.Finish(fb::CreateFleetReportDirect(f, game.c_str(), branch.c_str(), &t, std::min(upto, world->head.seq), &out));
    return c.PrintJson("FleetReport", f);
  }
  c.Line("Fleet report: " + game + "/" + branch + ", " + sow::TurnName(s.turn, s.season_kind) + " (" +
       std::to_string(rows.size()) + (rows.size() == 1 ? " ship" : " ships") + ")");
  c.Line(Pad("id", 9) + Pad("name", 22) + Pad("location", 16) + Pad("where", 20) + Pad("base", 14) +
       Pad("commander", 14) + Pad("quality", 9) + "exp stores crew  mar  hull rig  " + Pad("mission", 16) + "attached to");
  for (const auto& r : rows) {
    const P::Ship& sh = *r.ship;
    c.Line(Pad(sh.id, 9) + Pad(sh.name.empty() ? "-" : sh.name, 22) + Pad(sh.location, 16) + Pad(r.position, 20) +
         Pad(sh.base, 14) + Pad(r.commander.empty() ? "-" : r.commander, 14) + Pad(quality(sh.quality), 9) +
         PadLeft(std::to_string(sh.experience), 3) + PadLeft(std::to_string(sh.stores), 7) +
         PadLeft(std::to_string(sh.crew), 5) + PadLeft(std::to_string(sh.marines), 5) +
         PadLeft(std::to_string(sh.hull), 6) + PadLeft(std::to_string(sh.rigging), 4) + "  " + Pad(mission(sh.mission), 16) +
         (sh.attached_to.empty() ? "-" : sh.attached_to));
  }
  return Status::Ok();
}


// A state's Treasury Ministry report (SOW).
Status TreasuryReport(Ctx& c, const std::string& game) {
  const std::string& branch = c.branch;
  if (c.rq.state.empty()) return Status::InvalidArgument("adjutant report treasury: --state S is required");
  const std::string* state_id = &c.rq.state;
  auto folded = FoldForReport(c, game, "treasury");
  if (!folded.ok()) return folded.status();
  const replay::World* world = &folded->world;
  const uint64_t upto = folded->upto;
  const P::TreasuryState& s = world->treasury().state();
  const P::StateAcct* a = s.State(*state_id);
  if (!a) {
    std::string known;
    for (const auto& [id, acct] : s.states) known += (known.empty() ? "" : ", ") + id;
    return Status::InvalidArgument("--state: no state '" + *state_id + "' (states: " + known + ")");
  }
  int64_t net = 0;
  for (const auto& l : a->statement) net += l.amount_cc;
  int64_t in_units = 0, in_ships = 0;
  for (const auto& [id, u] : s.units) if (u.state == a->id) in_units += u.men;
  for (const auto& [id, sh] : world->fleet().state().ships) if (sh.state == a->id) in_ships += sh.men();
  std::string turn_name = sow::TurnName(s.turn, s.season_kind);
  uint64_t as_of = std::min(upto, world->head.seq);

  if (c.json()) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::StatementRow>> st;
    for (const auto& l : a->statement) {
      st.push_back(fb::CreateStatementRowDirect(f, l.phase, l.amount_cc, l.item.c_str(), l.subject.c_str(),
                                                l.rule.c_str(), l.detail.c_str(), l.order_seq));
    }
    std::vector<flatbuffers::Offset<fb::ManpowerRow>> mp;
    for (const auto& m : a->manpower_lines) {
      mp.push_back(fb::CreateManpowerRowDirect(f, m.pool.c_str(), m.city.c_str(), m.men, m.item.c_str(),
                                               m.subject.c_str(), m.rule.c_str()));
    }
    std::vector<flatbuffers::Offset<fb::PoolRow>> pools;
    for (const auto& [n, city] : s.cities) {
      if (city.controller == a->id) pools.push_back(fb::CreatePoolRowDirect(f, n.c_str(), city.militia_pool, city.transport_pool));
    }
    std::vector<flatbuffers::Offset<fb::BuildRow>> builds;
    for (const auto& [id, b] : s.builds) {
      if (b.state != a->id) continue;
      std::string k = b.is_ship ? fb::EnumNameSowShipType(static_cast<fb::SowShipType>(b.ship.type))
                                : fb::EnumNameSowUnitType(static_cast<fb::SowUnitType>(b.unit.type));
      builds.push_back(fb::CreateBuildRowDirect(f, id.c_str(), k.c_str(), b.city.c_str(), b.done, b.war_turns,
                                                Completes(s, b).c_str()));
    }
    std::vector<flatbuffers::Offset<fb::ReturnRow>> rets;
    for (const auto& r : s.returns) {
      if (r.state != a->id) continue;
      std::string due = "end of " + sow::SeasonName(r.due_season) + " " + std::to_string(r.due_year);
      rets.push_back(fb::CreateReturnRowDirect(f, r.pool.c_str(), r.city.c_str(), r.men, due.c_str(), r.subject.c_str(),
                                               r.rule.c_str()));
    }
    std::vector<flatbuffers::Offset<fb::StandingRow>> so;
    for (const auto& [key, o] : s.standing) {
      if (key.first == a->id) so.push_back(fb::CreateStandingRowDirect(f, key.second.c_str(), o.supplies, o.forward_to.c_str(), o.forward));
    }
    std::vector<flatbuffers::Offset<fb::RefusedRow>> refused;
    for (const auto& r : a->refused) {
      refused.push_back(fb::CreateRefusedRowDirect(f, r.order_seq, r.slot.c_str(), r.rule.c_str(), r.reason.c_str()));
    }
    fb::Turn t(s.turn.major, s.turn.minor, s.turn.step);
    f.Finish(fb::CreateTreasuryReportDirect(f, game.c_str(), branch.c_str(), a->id.c_str(), a->name.c_str(),
                                            a->nation.c_str(), &t, turn_name.c_str(), as_of, a->treasury_cc,
                                            a->opening_cc, a->credits_cc, a->debits_cc, net, &st, a->manpower, in_units,
                                            in_ships, &mp, &pools, &builds, &rets, &so, &refused,
                                            flatbuffers::Offset<fb::ReportHead>(c.HeadJson(f))));
    return c.PrintJson("TreasuryReport", f);
  }

  c.Line("Treasury Ministry report: " + a->name + " (" + a->id + "), " + turn_name + "   [" + game + "/" + branch +
       ", as of seq " + std::to_string(as_of) + "]");
  c.Line("");
  c.Line("Balance " + FormatCc(a->treasury_cc) + "   (opening " + FormatCc(a->opening_cc) + ", credits " +
       FormatCc(a->credits_cc) + ", charges " + FormatCc(a->debits_cc) + " since)");
  c.Line("");
  c.Line("Statement for " + turn_name + ":");
  if (a->statement.empty()) c.Line("  (no lines yet)");
  for (const auto& l : a->statement) {
    c.Line("  " + PadLeft(Signed(l.amount_cc), 14) + "  " + Pad(l.item, 16) + Pad(l.subject, 16) + Pad(l.rule, 9) +
         l.detail + (l.order_seq ? "  [order " + std::to_string(l.order_seq) + "]" : ""));
  }
  c.Line("  " + PadLeft(Signed(net), 14) + "  net for the turn");
  if (!a->refused.empty()) {
    c.Line("");
    c.Line("Orders refused this turn:");
    for (const auto& r : a->refused) {
      c.Line("  [order " + std::to_string(r.order_seq) + "] " + r.slot + ": " + r.rule + ": " + r.reason);
    }
  }
  if (!a->notes.empty()) {
    c.Line("");
    c.Line("Also this turn:");
    for (const auto& n : a->notes) c.Line("  " + n);
  }
  c.Line("");
  c.Line("Manpower: national pool " + std::to_string(a->manpower) + " men; in units " + std::to_string(in_units) +
       ", in ships " + std::to_string(in_ships));
  for (const auto& m : a->manpower_lines) {
    c.Line("  " + PadLeft((m.men > 0 ? "+" : "") + std::to_string(m.men), 8) + "  " + Pad(m.pool + (m.city.empty() ? "" : " " + m.city), 20) +
         Pad(m.item, 12) + Pad(m.rule, 9) + m.subject);
  }
  std::vector<std::string> pool_lines;
  for (const auto& [n, city] : s.cities) {
    if (city.controller != a->id) continue;
    // Militia are raised only in the state's own nation (SOW 3.2, 4.3).
    std::string l = "  " + Pad(n, 18) + "militia " +
                    (city.nation == a->nation ? std::to_string(city.militia_pool) : std::string("- (occupied)"));
    if (city.kind == P::CityKind::Port) l += ", transport " + std::to_string(city.transport_pool);
    if (city.supplies || city.stores) l += "; supplies " + std::to_string(city.supplies) + ", stores " + std::to_string(city.stores);
    pool_lines.push_back(l);
  }
  if (!pool_lines.empty()) {
    c.Line("Cities held (militia and transport pools):");
    for (const auto& l : pool_lines) c.Line(l);
  }
  bool any = false;
  for (const auto& r : s.returns) {
    if (r.state != a->id) continue;
    if (!any) c.Line("Men returning:");
    any = true;
    c.Line("  " + PadLeft(std::to_string(r.men), 8) + " to the " + r.pool + " pool" + (r.city.empty() ? "" : " of " + r.city) +
         " at the end of " + sow::SeasonName(r.due_season) + " " + std::to_string(r.due_year) + "  (" + r.rule + ", " +
         r.subject + ")");
  }
  any = false;
  for (const auto& [id, b] : s.builds) {
    if (b.state != a->id) continue;
    if (!any) c.Line("Builds in progress:");
    any = true;
    std::string k = b.is_ship ? fb::EnumNameSowShipType(static_cast<fb::SowShipType>(b.ship.type))
                              : fb::EnumNameSowUnitType(static_cast<fb::SowUnitType>(b.unit.type));
    c.Line("  " + Pad(id, 14) + Pad(k, 4) + Pad(b.city, 14) + std::to_string(b.done) + " of " +
         std::to_string(b.war_turns) + " war turns; ready " + Completes(s, b));
  }
  any = false;
  for (const auto& r : s.repairs) {
    if (r.state != a->id) continue;
    if (!any) c.Line("Repairs under way (done at the end of the season):");
    any = true;
    c.Line("  " + Pad(r.city, 16) + (r.what == P::RepairKind::Fort ? "fort" : "coastal battery"));
  }
  any = false;
  for (const auto& [key, o] : s.standing) {
    if (key.first != a->id) continue;
    if (!any) c.Line("Standing orders:");
    any = true;
    c.Line("  " + Pad(key.second, 16) + "buy " + std::to_string(o.supplies) + " supplies a turn" +
         (o.forward_to.empty() ? "" : ", forward " + std::to_string(o.forward) + " to " + o.forward_to));
  }
  return Status::Ok();
}

}  // namespace adjutant::reports
