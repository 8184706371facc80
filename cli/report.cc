// Reports: what a minister, a player or the GA reads, rendered from the
// projections as they stood at any turn of any branch.
#include <algorithm>
#include <cassert>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "base/money.h"
#include "cli/common.h"
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

namespace adjutant::cli {
namespace {

namespace P = projections;
namespace pate = rules::pate;
namespace sow = rules::sow;

// A column of width n; a longer value keeps one space before the next.
std::string Pad(std::string s, size_t n) {
  if (s.size() < n) s.resize(n, ' ');
  else s += ' ';
  return s;
}
std::string PadLeft(std::string s, size_t n) { return s.size() < n ? std::string(n - s.size(), ' ') + s : s; }

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
    in_turn = et && Turn{et->major(), et->minor(), et->step()} == t;
    return Status::Ok();
  }));
  if (!in_turn) return Status::NotFound("game " + game + "/" + branch + " has no turn " + t.ToString());
  auto next = db.SeekTurn(game, branch, TurnPhase{Turn{t.major, t.minor, t.step + 1}, 0});
  if (!next.ok()) return next.status();
  if (!next->has_value()) return UINT64_MAX;
  return **next - 1;
}

// The world folded to the end of --turn T (or the head).
Result<replay::World> WorldAt(Context& c, ledger::Ledger& db, const std::string& game, const std::string& branch,
                              uint64_t* upto) {
  *upto = UINT64_MAX;
  if (auto t = c.args.Value("turn")) {
    auto turn = Turn::Parse(*t);
    if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
    auto end = EndOfTurn(db, game, branch, *turn);
    if (!end.ok()) return end.status();
    *upto = *end;
  }
  return replay::Fold(db, game, branch, *upto);
}

// What both reports start from: the game folded to the end of --turn T (or
// the head), refused for a game without the economy's state.
struct Folded {
  replay::World world;
  uint64_t upto = 0;
};

Result<Folded> FoldForReport(Context& c, const std::string& game, const std::string& branch, const char* what) {
  auto db = OpenDb(c, false);
  if (!db.ok()) return db.status();
  Folded f;
  auto world = WorldAt(c, **db, game, branch, &f.upto);
  if (!world.ok()) return world.status();
  if (!world->treasury().state().active) {
    return Status::InvalidArgument("game '" + game + "' has no " + what + " (its scenario has no sow section)");
  }
  f.world = std::move(world).value();
  return f;
}

// PATE 2.2–2.4: every ship, for the GA.
Status FleetReport(Context& c, const std::string& game) {
  std::string branch = c.args.ValueOr("branch", "main");
  auto folded = FoldForReport(c, game, branch, "ships");
  if (!folded.ok()) return folded.status();
  const replay::World* world = &folded->world;
  const uint64_t upto = folded->upto;
  const P::TreasuryState& s = world->treasury().state();
  auto only = c.args.Value("state");
  // Commanders and deputies are the persons holding SHIP.commander / SHIP.deputy.
  std::map<std::string, std::pair<std::string, std::string>> command;
  for (const auto& [person, p] : world->roster().persons()) {
    for (const auto& role : p.roles) {
      size_t dot = role.find('.');
      if (dot == std::string::npos) continue;
      if (role.substr(dot + 1) == "commander") command[role.substr(0, dot)].first = person;
      if (role.substr(dot + 1) == "deputy") command[role.substr(0, dot)].second = person;
    }
  }
  struct Row {
    const P::Ship* ship;
    std::string position, commander, deputy;
  };
  std::vector<Row> rows;
  for (const auto& [id, sh] : s.ships) {
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
  if (c.args.Flag("json")) {
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
    return PrintJson("FleetReport", f);
  }
  Line("Fleet report: " + game + "/" + branch + ", " + sow::TurnName(s.turn, s.season_kind) + " (" +
       std::to_string(rows.size()) + (rows.size() == 1 ? " ship" : " ships") + ")");
  Line(Pad("id", 9) + Pad("name", 22) + Pad("location", 16) + Pad("where", 20) + Pad("base", 14) +
       Pad("commander", 14) + Pad("quality", 9) + "exp stores crew  mar  hull rig  " + Pad("mission", 16) + "attached to");
  for (const auto& r : rows) {
    const P::Ship& sh = *r.ship;
    Line(Pad(sh.id, 9) + Pad(sh.name.empty() ? "-" : sh.name, 22) + Pad(sh.location, 16) + Pad(r.position, 20) +
         Pad(sh.base, 14) + Pad(r.commander.empty() ? "-" : r.commander, 14) + Pad(quality(sh.quality), 9) +
         PadLeft(std::to_string(sh.experience), 3) + PadLeft(std::to_string(sh.stores), 7) +
         PadLeft(std::to_string(sh.crew), 5) + PadLeft(std::to_string(sh.marines), 5) +
         PadLeft(std::to_string(sh.hull), 6) + PadLeft(std::to_string(sh.rigging), 4) + "  " + Pad(mission(sh.mission), 16) +
         (sh.attached_to.empty() ? "-" : sh.attached_to));
  }
  return Status::Ok();
}

// ---- a player's two reports (PATE 3.11) ----------------------------------------
// Rendered only from the visibility view and the player's own ships (DESIGN
// inv. 8): other ships are named only as his ships' observations name them,
// and the naval map (public) gives the geography.

const P::Visibility& VisibilityOf(const replay::World& w) {
  for (const auto& p : w.projections) {
    if (auto* v = dynamic_cast<const P::Visibility*>(p.get())) return *v;
  }
  assert(false && "visibility missing from AllProjections()");
  static const P::Visibility kNone;
  return kNone;
}

// What both player's reports start from: the folded game, the person (his
// password checked for --as), the turn, his view of it and the map.
struct ForPlayer {
  Folded folded;
  P::PlayerView view;
  std::optional<pate::NavalMap> map;
  std::string turn_name;

  const P::TreasuryState& s() const { return folded.world.treasury().state(); }
  uint64_t as_of() const { return std::min(folded.upto, folded.world.head.seq); }
  // The sea area a place (a port or an area) lies on; "" if unknown.
  std::string AreaOf(const std::string& place) const {
    if (map) {
      if (map->Area(place)) return place;
      if (const pate::Port* p = map->PortNamed(place)) return p->sea_area;
      return "";
    }
    auto c = s().cities.find(place);
    return c != s().cities.end() ? c->second.sea_area : place;
  }
  bool IsPort(const std::string& place) const {
    return map ? map->PortNamed(place) != nullptr : s().cities.count(place) != 0;
  }
  // One of his ships, afloat: the only ships the treasury is asked about.
  const P::Ship* Own(const std::string& id) const {
    if (!std::binary_search(view.ships.begin(), view.ships.end(), id)) return nullptr;
    auto it = s().ships.find(id);
    return it == s().ships.end() ? nullptr : &it->second;
  }
  // "BR1FL (Victory)", or the id of a ship no longer afloat.
  std::string Called(const std::string& id) const {
    const P::Ship* sh = Own(id);
    return sh && !sh->name.empty() ? id + " (" + sh->name + ")" : id;
  }
};

Result<ForPlayer> PrepareForPlayer(Context& c, const std::string& game, const std::string& branch, const char* what) {
  auto player = c.args.Value("player"), as = c.args.Value("as");
  if (player.has_value() == as.has_value()) {
    return Status::InvalidArgument(std::string("report ") + what + ": give --player P (the GA) or --as P (the player)");
  }
  const std::string person = player ? *player : *as;
  std::optional<Turn> asked;
  if (auto t = c.args.Value("turn")) asked = Turn::Parse(*t);  // WorldAt refuses a bad one
  if (as) {
    // As `adjutant order --as` does, against the password as it is now,
    // before anything of the game is looked at.
    auto pw = ReadPassword(c.args, "password for " + person + ": ");
    if (!pw.ok()) return pw.status();
    auto db = OpenDb(c, false);
    if (!db.ok()) return db.status();
    auto now = replay::Fold(**db, game, branch);
    if (!now.ok()) return now.status();
    ADJ_RETURN_IF_ERROR(CheckPassword(now->roster(), game, person, *pw));
  }
  auto folded = FoldForReport(c, game, branch, "ships");
  if (!folded.ok()) return folded.status();
  ForPlayer r;
  r.folded = std::move(folded).value();
  const replay::World& w = r.folded.world;
  if (!as && !w.roster().Find(person)) {
    std::string known;
    for (const auto& [name, p] : w.roster().persons()) known += (known.empty() ? "" : ", ") + name;
    return Status::InvalidArgument("--player: no person '" + person + "' in game '" + game + "' (persons: " + known + ")");
  }
  // The turn: as asked, else the last one any ship observed something in
  // (the game as it stood at its end: the next turn may have begun), else
  // the current one.
  Turn turn = asked ? *asked : r.s().turn;
  if (const P::VisibilityState& vis = VisibilityOf(w).state(); !asked && vis.any && vis.last_turn < r.s().turn) {
    turn = vis.last_turn;
    auto db = OpenDb(c, false);
    if (!db.ok()) return db.status();
    auto end = EndOfTurn(**db, game, branch, turn);
    if (!end.ok()) return end.status();
    auto then = replay::Fold(**db, game, branch, *end);
    if (!then.ok()) return then.status();
    r.folded.world = std::move(then).value();
    r.folded.upto = *end;
  }
  const P::TreasuryState& s = w.treasury().state();
  r.view = P::ViewOf(w.roster().state(), s.ships, VisibilityOf(w).state(), person, turn);
  r.turn_name = "turn " + turn.ToString();
  if (turn == s.turn) r.turn_name += " (" + sow::TurnName(turn, s.season_kind) + ")";
  for (const auto& p : w.projections) {
    if (auto* m = dynamic_cast<const P::NavalMapView*>(p.get()); m && m->map()) {
      auto loaded = pate::NavalMap::Load(*m->map());
      if (!loaded.ok()) return Status::Corruption("game '" + game + "': its recorded map: " + loaded.status().message());
      r.map = std::move(loaded).value();
    }
  }
  return r;
}

std::string Join(const std::vector<std::string>& xs, const std::string& sep = ", ") {
  std::string out;
  for (const auto& x : xs) out += (out.empty() ? "" : sep) + x;
  return out;
}

std::string Ships(int32_t n) { return std::to_string(n) + (n == 1 ? " ship" : " ships"); }

// The ships `ship` saw, as enemies (at war with her state) and others. A
// ship's state is in its id (PATE 2.2).
std::pair<std::vector<std::string>, std::vector<std::string>> Sides(const ForPlayer& r, const std::string& ship,
                                                                     const std::vector<std::string>& seen) {
  const P::Ship* own = r.Own(ship);
  std::string side = own ? own->state : P::StateOfShipId(ship);
  std::pair<std::vector<std::string>, std::vector<std::string>> out;
  for (const auto& id : seen) {
    (r.s().RelationOf(side, P::StateOfShipId(id)) == P::Relation::War ? out.first : out.second).push_back(id);
  }
  return out;
}

// PATE 5: one observation of `ship`'s in words, after "at PLACE: ".
std::string What(const ForPlayer& r, const std::string& ship, const P::Observation& o) {
  std::string ids = Join(o.seen);
  switch (o.kind) {
    case P::ObservationKind::Contact: {
      // 5.1: the enemy's identities, to windward or leeward, and in port in
      // the harbour or the coastal waters; ships not at war with hers are
      // named apart.
      auto [enemies, others] = Sides(r, ship, o.seen);
      std::string w;
      if (!enemies.empty() || others.empty()) {
        w = "in contact with " + (o.seen.empty() ? Ships(o.count) : Join(enemies));
        if (o.harbour) w += " in the harbour";
        else if (r.IsPort(o.location)) w += " in the coastal waters";
        if (!r.IsPort(o.location)) w += o.windward ? " (to windward)" : " (to leeward)";  // 6.9: at sea only
      } else {
        w = "no enemy in contact";
      }
      return others.empty() ? w : w + "; also there: " + Join(others);
    }
    case P::ObservationKind::FrigateSighting:  // 5.2: numbers only, approximate
      return "sighted about " + Ships(o.count) + (ids.empty() ? "" : " (" + ids + ")");
    case P::ObservationKind::LandUnits:  // 5.3
      return "land units seen: " + (ids.empty() ? "about " + std::to_string(o.count) : ids);
    case P::ObservationKind::Intelligence:  // 5.4: may be wrong, in number too
      return "intelligence reports about " + Ships(o.count) + (ids.empty() ? "" : " (" + ids + ")") +
             " here at the start of the turn (reports may be inaccurate)";
    case P::ObservationKind::Battle:
      return "battle: " + (o.text.empty() ? ids : o.text);
    case P::ObservationKind::Event:
      return o.text.empty() ? ids : o.text;
    case P::ObservationKind::Garrison:  // 5.3: a turn late
      return "the garrison reports " + (ids.empty() ? Ships(o.count) : ids) + " in port at the start of the turn";
  }
  return o.text;
}

// What(), and the rules' own words where they add to it.
std::string WhatAll(const ForPlayer& r, const std::string& ship, const P::Observation& o) {
  std::string w = What(r, ship, o);
  bool told = o.kind == P::ObservationKind::Battle || o.kind == P::ObservationKind::Event;
  return !told && !o.text.empty() ? w + " \u2014 " + o.text : w;
}

// "BR1FL (Victory) at ECH: in contact with FR1SL, FR2SL (to windward)".
std::string Sentence(const ForPlayer& r, const std::string& ship, const P::Observation& o) {
  return r.Called(ship) + " at " + o.location + ": " + WhatAll(r, ship, o);
}

flatbuffers::Offset<fb::ObservationRow> ObservationJson(flatbuffers::FlatBufferBuilder& f, const ForPlayer& r,
                                                        const std::string& ship, const P::Observation& o) {
  fb::Turn t(o.turn.major, o.turn.minor, o.turn.step);
  auto seen = f.CreateVectorOfStrings(o.seen);
  return fb::CreateObservationRow(
      f, f.CreateString(ship), &t, o.phase, o.seq,
      f.CreateString(fb::EnumNameObservationKind(static_cast<fb::ObservationKind>(o.kind))),
      f.CreateString(o.location), seen, o.count, o.windward, o.harbour, f.CreateString(Sentence(r, ship, o)),
      f.CreateString(o.rule));
}

std::string Header(const ForPlayer& r, const std::string& title, const std::string& game, const std::string& branch) {
  return title + " for " + r.view.person + ": " + r.turn_name + "   [" + game + "/" + branch + ", as of seq " +
         std::to_string(r.as_of()) + "]";
}

// Report 1 of PATE 3.11: every event the player's ships observed in the turn.
Status EventsReport(Context& c, const std::string& game) {
  std::string branch = c.args.ValueOr("branch", "main");
  auto r = PrepareForPlayer(c, game, branch, "events");
  if (!r.ok()) return r.status();
  const P::PlayerView& v = r->view;
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::ShipObservations>> groups;
    for (const auto& [ship, obs] : v.observations) {
      std::vector<flatbuffers::Offset<fb::ObservationRow>> rows;
      for (const auto& o : obs) rows.push_back(ObservationJson(f, *r, ship, o));
      const P::Ship* sh = r->Own(ship);
      groups.push_back(fb::CreateShipObservationsDirect(f, ship.c_str(), sh ? sh->name.c_str() : "", &rows));
    }
    auto ships = f.CreateVectorOfStrings(v.ships);
    fb::Turn t(v.turn.major, v.turn.minor, v.turn.step);
    f.Finish(fb::CreateEventsReport(f, f.CreateString(game), f.CreateString(branch), f.CreateString(v.person), &t,
                                    r->as_of(), ships, f.CreateVector(groups)));
    return PrintJson("EventsReport", f);
  }
  Line(Header(*r, "Events report", game, branch));
  Line("Ships reporting: " + (v.ships.empty() ? std::string("none") : Join(v.ships)));
  if (v.observations.empty()) Line("Nothing was observed.");
  for (const auto& [ship, obs] : v.observations) {
    Line("");
    for (const auto& o : obs) Line("  " + Sentence(*r, ship, o) + "  [" + o.rule + "]");
  }
  return Status::Ok();
}

// Where a ship of the player's is (PATE 1.2, 6.11, 2.6).
std::string PositionOf(const ForPlayer& r, const P::Ship& sh) {
  if (!sh.active) return "inactive";
  if (sh.crossing_turns > 0) return "crossing the Atlantic";
  if (sh.in_port) return "harbour";
  if (sh.coastal || r.IsPort(sh.location)) return "coastal waters";
  return "at sea";
}

std::string WhereInWords(const ForPlayer& r, const P::Ship& sh) {
  std::string pos = PositionOf(r, sh), area = r.AreaOf(sh.location);
  if (pos == "crossing the Atlantic") {
    return "crossing the Atlantic to " + sh.location + ", " + std::to_string(sh.crossing_turns) + " turn" +
           (sh.crossing_turns == 1 ? "" : "s") + " to go";
  }
  if (pos == "at sea") return "at sea in " + sh.location + ", tactical area " + std::to_string(sh.tactical);
  std::string where = sh.location + ", " + (pos == "harbour" ? "in the harbour" : pos == "inactive" ? "inactive" : "in the coastal waters");
  return area.empty() || area == sh.location ? where : where + " (" + area + ")";
}

// The persons holding a ship's posts (PATE 2.3).
std::pair<std::string, std::string> PostsOf(const replay::World& w, const std::string& ship) {
  std::pair<std::string, std::string> out;
  for (const auto& [person, p] : w.roster().persons()) {
    if (p.roles.count(ship + ".commander")) out.first = person;
    if (p.roles.count(ship + ".deputy")) out.second = person;
  }
  return out;
}

bool InPositionReport(const P::Observation& o) {
  return o.kind != P::ObservationKind::Battle && o.kind != P::ObservationKind::Event;
}

std::string Xml(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

// The map has no coordinates: each side (Europe, America) is laid out on a
// grid from its N/E/S/W neighbour lists, breadth first from its busiest
// area; a taken cell yields the nearest free one, across the direction
// first. Deterministic: the same map, the same grid.
std::map<std::string, std::pair<int, int>> GridOf(const pate::NavalMap& m, pate::MapSide side) {
  static constexpr int kDx[4] = {0, 1, 0, -1}, kDy[4] = {-1, 0, 1, 0};  // N, E, S, W
  std::map<std::string, std::pair<int, int>> at;
  std::set<std::pair<int, int>> used;
  auto place = [&](const std::string& code, int x, int y, int dir) {
    for (int d = 0;; ++d) {
      for (int along = 0; along <= d; along = along > 0 ? -along : -along + 1) {
        int perp = d - (along < 0 ? -along : along);
        for (int sign : {1, -1}) {
          if (sign < 0 && perp == 0) continue;
          // Across a N/S move is east-west, across an E/W move north-south.
          int cx = x + along * kDx[dir] + sign * perp * (kDx[dir] == 0 ? 1 : 0);
          int cy = y + along * kDy[dir] + sign * perp * (kDy[dir] == 0 ? 1 : 0);
          if (used.insert({cx, cy}).second) { at[code] = {cx, cy}; return; }
        }
      }
    }
  };
  std::vector<std::string> codes;
  for (const auto& [code, a] : m.areas()) if (a.map == side) codes.push_back(code);
  auto degree = [&](const std::string& code) {
    size_t n = 0;
    for (const auto& l : m.Area(code)->neighbours) n += l.size();
    return n;
  };
  int next_x = 0;
  while (at.size() < codes.size()) {
    std::string root;
    for (const auto& code : codes) {
      if (!at.count(code) && (root.empty() || degree(code) > degree(root))) root = code;
    }
    place(root, next_x, 0, 1);
    std::vector<std::string> queue{root};
    for (size_t i = 0; i < queue.size(); ++i) {
      const pate::SeaArea* a = m.Area(queue[i]);
      auto [x, y] = at[queue[i]];
      for (int dir = 0; dir < 4; ++dir) {
        for (const auto& nb : a->neighbours[dir]) {
          const pate::SeaArea* b = m.Area(nb);
          if (!b || b->map != side || at.count(nb)) continue;
          place(nb, x + kDx[dir], y + kDy[dir], dir);
          queue.push_back(nb);
        }
      }
    }
    for (const auto& [code, xy] : at) next_x = std::max(next_x, xy.first + 2);
  }
  int min_x = 0, min_y = 0;
  for (const auto& [code, xy] : at) { min_x = std::min(min_x, xy.first); min_y = std::min(min_y, xy.second); }
  for (auto& [code, xy] : at) xy = {xy.first - min_x, xy.second - min_y};
  return at;
}

// Cuts a list of ids into lines of at most `width` characters.
std::vector<std::string> Wrap(const std::vector<std::string>& ids, size_t width) {
  std::vector<std::string> lines;
  for (const auto& id : ids) {
    if (!lines.empty() && lines.back().size() + 2 + id.size() <= width) lines.back() += ", " + id;
    else lines.push_back(id);
  }
  return lines;
}

// The position report's map (PATE 3.11, 5.1, 5.2): the sea areas of both
// sides with their ports, the player's ships in blue, and the enemy ships
// his ships saw that turn in red (ids where known, else about how many).
std::string PositionSvg(const ForPlayer& r, const std::vector<const P::Ship*>& own, const std::string& title) {
  constexpr int kCellW = 240, kGap = 28, kLine = 12, kPad = 6, kMargin = 20, kTop = 44;
  const pate::NavalMap& m = *r.map;
  struct Text {
    std::string cls, s;
  };
  std::map<std::string, std::vector<Text>> lines;  // area → its lines after the name
  for (const auto& [name, p] : m.ports()) lines[p.sea_area].push_back({"port", name});
  std::vector<std::string> crossing, elsewhere;
  for (const P::Ship* sh : own) {
    std::string label = sh->id + (sh->name.empty() ? "" : " " + sh->name);
    std::string area = r.AreaOf(sh->location);
    if (sh->crossing_turns > 0 || area.empty()) {
      (sh->crossing_turns > 0 ? crossing : elsewhere).push_back(label + " (" + WhereInWords(r, *sh) + ")");
      continue;
    }
    if (area != sh->location) label += " @ " + sh->location;
    if (!sh->active) label += " (inactive)";
    lines[area].push_back({"own", "\u25A0 " + label});
  }
  std::set<std::string> mine(r.view.ships.begin(), r.view.ships.end());
  std::map<std::string, std::set<std::string>> enemies, others;  // area → ids seen there
  std::map<std::string, std::set<std::string>> counts;            // area → "about N" sightings
  for (const auto& [ship, obs] : r.view.observations) {
    for (const auto& o : obs) {
      if (o.kind == P::ObservationKind::LandUnits || !InPositionReport(o)) continue;
      std::string area = r.AreaOf(o.location);
      if (area.empty()) continue;
      auto [e, f] = Sides(r, ship, o.seen);
      enemies[area].insert(e.begin(), e.end());
      for (const auto& id : f) if (!mine.count(id)) others[area].insert(id);
      if (o.seen.empty() && o.count > 0) {
        counts[area].insert("about " + Ships(o.count) + (area == o.location ? "" : " @ " + o.location));
      }
    }
  }
  for (const auto& [area, set] : enemies) {
    for (const auto& l : Wrap(std::vector<std::string>(set.begin(), set.end()), 34)) lines[area].push_back({"enemy", "\u25CF " + l});
  }
  for (const auto& [area, set] : counts) {
    for (const auto& l : set) lines[area].push_back({"enemy", "\u25CF " + l});
  }
  for (const auto& [area, set] : others) {
    for (const auto& l : Wrap(std::vector<std::string>(set.begin(), set.end()), 34)) lines[area].push_back({"other", "\u25CB " + l});
  }
  // Both sides' grids, America to the west of Europe.
  std::map<std::string, std::pair<int, int>> px;  // area → top-left corner
  std::map<std::string, int> height;
  std::string out_areas, out_links, out_titles;
  int x0 = kMargin, bottom = kTop;
  for (pate::MapSide side : {pate::MapSide::America, pate::MapSide::Europe}) {
    auto grid = GridOf(m, side);
    if (grid.empty()) continue;
    int cols = 0, rows = 0;
    for (const auto& [code, xy] : grid) { cols = std::max(cols, xy.first + 1); rows = std::max(rows, xy.second + 1); }
    std::vector<int> row_h(rows, 2 * kLine + 2 * kPad);
    for (const auto& [code, xy] : grid) {
      row_h[xy.second] = std::max(row_h[xy.second], static_cast<int>(2 + lines[code].size()) * kLine + 2 * kPad);
    }
    std::vector<int> row_y(rows, kTop + 22);
    for (int i = 1; i < rows; ++i) row_y[i] = row_y[i - 1] + row_h[i - 1] + kGap;
    out_titles += "<text class=\"side\" x=\"" + std::to_string(x0) + "\" y=\"" + std::to_string(kTop + 12) + "\">" +
                  (side == pate::MapSide::Europe ? "Europe" : "America") + "</text>\n";
    for (const auto& [code, xy] : grid) {
      px[code] = {x0 + xy.first * (kCellW + kGap), row_y[xy.second]};
      height[code] = row_h[xy.second];
    }
    x0 += cols * (kCellW + kGap) + kGap;
    bottom = std::max(bottom, row_y[rows - 1] + row_h[rows - 1]);
  }
  auto center = [&](const std::string& code) {
    return std::pair<int, int>{px[code].first + kCellW / 2, px[code].second + height[code] / 2};
  };
  for (const auto& [code, a] : m.areas()) {
    for (const auto& list : a.neighbours) {
      for (const auto& nb : list) {
        if (nb <= code || !px.count(nb)) continue;  // each link once
        auto [ax, ay] = center(code);
        auto [bx, by] = center(nb);
        out_links += "<line x1=\"" + std::to_string(ax) + "\" y1=\"" + std::to_string(ay) + "\" x2=\"" +
                     std::to_string(bx) + "\" y2=\"" + std::to_string(by) + "\"/>\n";
      }
    }
  }
  for (const auto& [code, xy] : px) {
    const pate::SeaArea* a = m.Area(code);
    auto [x, y] = xy;
    bool mine = false, enemy = false;
    for (const auto& l : lines[code]) { mine |= l.cls == "own"; enemy |= l.cls == "enemy"; }
    out_areas += "<g id=\"area-" + Xml(code) + "\">\n<rect class=\"area" + std::string(mine ? " mine" : "") +
                 (enemy ? " seen" : "") + (a->atlantic ? " edge" : "") + "\" x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) +
                 "\" width=\"" + std::to_string(kCellW) + "\" height=\"" + std::to_string(height[code]) + "\"/>\n";
    int ty = y + kPad + kLine;
    out_areas += "<text class=\"code\" x=\"" + std::to_string(x + kPad) + "\" y=\"" + std::to_string(ty) + "\">" +
                 Xml(code) + " " + Xml(a->name) + "</text>\n";
    ty += kLine + 2;
    for (const auto& l : lines[code]) {
      out_areas += "<text class=\"" + l.cls + "\" x=\"" + std::to_string(x + kPad) + "\" y=\"" + std::to_string(ty) +
                   "\">" + Xml(l.s) + "</text>\n";
      ty += kLine;
    }
    out_areas += "</g>\n";
  }
  std::vector<std::string> notes;
  for (const auto& l : crossing) notes.push_back("\u25A0 " + l);
  for (const auto& l : elsewhere) notes.push_back("\u25A0 " + l);
  notes.push_back("\u25A0 " + r.view.person + "'s ships (blue) \u00B7 \u25CF enemy ships his ships saw in " + r.turn_name +
                  " (red; 'about N' where only frigates' or intelligence numbers are known) \u00B7 \u25CB other ships they"
                  " saw (green) \u00B7 dashed: on the Atlantic edge");
  int width = std::max(x0 - kGap + kMargin, 600);
  int height_total = bottom + kGap + static_cast<int>(notes.size()) * (kLine + 4) + kMargin;
  std::string svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(width) + "\" height=\"" + std::to_string(height_total) + "\" viewBox=\"0 0 " +
                    std::to_string(width) + " " + std::to_string(height_total) + "\">\n";
  svg += "<title>" + Xml(title) + "</title>\n";
  svg += "<style>rect.area{fill:#eef4fa;stroke:#6b8fb3} rect.mine{fill:#dde8ff} rect.seen{stroke:#c0392b;stroke-width:2} rect.edge{stroke-dasharray:6 3}"
         " line{stroke:#9db4cc;stroke-width:2} text{font-family:sans-serif;font-size:10px}"
         " .code{font-weight:bold;font-size:11px} .port{fill:#555} .own{fill:#1f4fbf} .enemy{fill:#c0392b} .other{fill:#2e7d32}"
         " .title{font-size:14px;font-weight:bold} .side{font-size:12px;font-weight:bold}</style>\n";
  svg += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(height_total) +
         "\" fill=\"white\"/>\n";
  svg += "<text class=\"title\" x=\"" + std::to_string(kMargin) + "\" y=\"" + std::to_string(kMargin + 4) + "\">" +
         Xml(title) + "</text>\n";
  svg += out_titles + out_links + out_areas;
  int ny = bottom + kGap;
  for (const auto& n : notes) {
    std::string cls = &n == &notes.back() ? "port" : "own";
    svg += "<text class=\"" + cls + "\" x=\"" + std::to_string(kMargin) + "\" y=\"" + std::to_string(ny) + "\">" + Xml(n) +
           "</text>\n";
    ny += kLine + 4;
  }
  svg += "</svg>\n";
  return svg;
}

// Report 2 of PATE 3.11: the player's ships at the end of the turn (the
// start of the next), each with what it saw that turn; --svg draws the map.
Status PositionsReport(Context& c, const std::string& game) {
  std::string branch = c.args.ValueOr("branch", "main");
  auto r = PrepareForPlayer(c, game, branch, "positions");
  if (!r.ok()) return r.status();
  const P::PlayerView& v = r->view;
  const replay::World& w = r->folded.world;
  std::vector<const P::Ship*> own;  // his ships afloat, by id
  for (const auto& id : v.ships) if (const P::Ship* sh = r->Own(id)) own.push_back(sh);
  auto seen = [&](const std::string& id) {
    std::vector<const P::Observation*> out;
    auto it = v.observations.find(id);
    if (it != v.observations.end()) {
      for (const auto& o : it->second) if (InPositionReport(o)) out.push_back(&o);
    }
    return out;
  };
  std::string title = "Position report for " + v.person + ": end of " + r->turn_name + "   [" + game + "/" + branch +
                      ", as of seq " + std::to_string(r->as_of()) + "]";
  if (auto svg_path = c.args.Value("svg")) {
    if (!r->map) return Status::InvalidArgument("--svg: game '" + game + "' has no naval map (create it with --map)");
    std::ofstream out(*svg_path, std::ios::binary | std::ios::trunc);
    out << PositionSvg(*r, own, title);
    out.close();
    if (!out) return Status::IOError(*svg_path + ": cannot write the map");
  }
  auto type = [](P::ShipType t) { return std::string(fb::EnumNameSowShipType(static_cast<fb::SowShipType>(t))); };
  if (c.args.Flag("json")) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::PositionRow>> rows;
    for (const P::Ship* sh : own) {
      std::vector<flatbuffers::Offset<fb::ObservationRow>> contacts;
      for (const auto* o : seen(sh->id)) contacts.push_back(ObservationJson(f, *r, sh->id, *o));
      auto [commander, deputy] = PostsOf(w, sh->id);
      rows.push_back(fb::CreatePositionRowDirect(
          f, sh->id.c_str(), sh->name.c_str(), sh->state.c_str(), type(sh->type).c_str(), sh->location.c_str(),
          r->AreaOf(sh->location).c_str(), PositionOf(*r, *sh).c_str(), sh->at_sea() ? sh->tactical : 0,
          sh->crossing_turns, sh->stores, sh->crew, sh->marines, sh->hull, sh->rigging, sh->attached_to.c_str(),
          commander.c_str(), deputy.c_str(), &contacts));
    }
    fb::Turn t(v.turn.major, v.turn.minor, v.turn.step);
    f.Finish(fb::CreatePositionReportDirect(f, game.c_str(), branch.c_str(), v.person.c_str(), &t, r->as_of(), &rows));
    return PrintJson("PositionReport", f);
  }
  Line(title);
  if (own.empty()) Line("No ships report to " + v.person + ".");
  for (const P::Ship* sh : own) {
    auto [commander, deputy] = PostsOf(w, sh->id);
    Line("");
    Line(r->Called(sh->id) + ", " + type(sh->type) + " of " + sh->state);
    Line("  Commander: " + (commander.empty() ? "-" : commander) + "   Deputy: " + (deputy.empty() ? "-" : deputy));
    Line("  Location: " + WhereInWords(*r, *sh));
    Line("  Stores: " + std::to_string(sh->stores) + "   Crew: " + std::to_string(sh->crew) + "   Marines: " +
         std::to_string(sh->marines) + "   Hull damage: " + std::to_string(sh->hull) + "   Rigging damage: " +
         std::to_string(sh->rigging));
    if (!sh->attached_to.empty()) Line("  Attached to: " + sh->attached_to);
    std::vector<std::string> followers;  // only his own ships: others' attachments are not his to see
    for (const P::Ship* o : own) if (o->attached_to == sh->id) followers.push_back(o->id);
    if (!followers.empty()) Line("  Attached ships: " + Join(followers));
    auto obs = seen(sh->id);
    if (obs.empty()) Line("  Seen: nothing");
    for (const auto* o : obs) Line("  Seen: at " + o->location + ": " + WhatAll(*r, sh->id, *o) + "  [" + o->rule + "]");
  }
  return Status::Ok();
}

Status CmdReport(Context& c) {
  const std::string& kind = c.args.positional[0];
  const std::string& game = c.args.positional[1];
  bool player = kind == "events" || kind == "positions";
  if (!player && kind != "treasury" && kind != "fleet") {
    return Status::InvalidArgument("adjutant report: no report '" + kind + "' (reports: treasury, fleet, events, positions)");
  }
  // Each report's own options; another's is refused rather than ignored.
  std::vector<std::string> foreign = {"state"};
  if (!player) foreign = {"player", "as", "password-file", "svg"};
  if (kind == "events") foreign.push_back("svg");
  for (const auto& o : foreign) {
    if (c.args.Value(o)) return Status::InvalidArgument("report " + kind + ": --" + o + " does not apply to it");
  }
  if (kind == "events") return EventsReport(c, game);
  if (kind == "positions") return PositionsReport(c, game);
  if (kind == "fleet") return FleetReport(c, game);
  std::string branch = c.args.ValueOr("branch", "main");
  auto state_id = c.args.Value("state");
  if (!state_id) return Status::InvalidArgument("adjutant report treasury: --state S is required");
  auto folded = FoldForReport(c, game, branch, "treasury");
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
  for (const auto& [id, sh] : s.ships) if (sh.state == a->id) in_ships += sh.men();
  std::string turn_name = sow::TurnName(s.turn, s.season_kind);
  uint64_t as_of = std::min(upto, world->head.seq);

  if (c.args.Flag("json")) {
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
                                            in_ships, &mp, &pools, &builds, &rets, &so, &refused));
    return PrintJson("TreasuryReport", f);
  }

  Line("Treasury Ministry report: " + a->name + " (" + a->id + "), " + turn_name + "   [" + game + "/" + branch +
       ", as of seq " + std::to_string(as_of) + "]");
  Line("");
  Line("Balance " + FormatCc(a->treasury_cc) + "   (opening " + FormatCc(a->opening_cc) + ", credits " +
       FormatCc(a->credits_cc) + ", charges " + FormatCc(a->debits_cc) + " since)");
  Line("");
  Line("Statement for " + turn_name + ":");
  if (a->statement.empty()) Line("  (no lines yet)");
  for (const auto& l : a->statement) {
    Line("  " + PadLeft(Signed(l.amount_cc), 14) + "  " + Pad(l.item, 16) + Pad(l.subject, 16) + Pad(l.rule, 9) +
         l.detail + (l.order_seq ? "  [order " + std::to_string(l.order_seq) + "]" : ""));
  }
  Line("  " + PadLeft(Signed(net), 14) + "  net for the turn");
  if (!a->refused.empty()) {
    Line("");
    Line("Orders refused this turn:");
    for (const auto& r : a->refused) {
      Line("  [order " + std::to_string(r.order_seq) + "] " + r.slot + ": " + r.rule + ": " + r.reason);
    }
  }
  if (!a->notes.empty()) {
    Line("");
    Line("Also this turn:");
    for (const auto& n : a->notes) Line("  " + n);
  }
  Line("");
  Line("Manpower: national pool " + std::to_string(a->manpower) + " men; in units " + std::to_string(in_units) +
       ", in ships " + std::to_string(in_ships));
  for (const auto& m : a->manpower_lines) {
    Line("  " + PadLeft((m.men > 0 ? "+" : "") + std::to_string(m.men), 8) + "  " + Pad(m.pool + (m.city.empty() ? "" : " " + m.city), 20) +
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
    Line("Cities held (militia and transport pools):");
    for (const auto& l : pool_lines) Line(l);
  }
  bool any = false;
  for (const auto& r : s.returns) {
    if (r.state != a->id) continue;
    if (!any) Line("Men returning:");
    any = true;
    Line("  " + PadLeft(std::to_string(r.men), 8) + " to the " + r.pool + " pool" + (r.city.empty() ? "" : " of " + r.city) +
         " at the end of " + sow::SeasonName(r.due_season) + " " + std::to_string(r.due_year) + "  (" + r.rule + ", " +
         r.subject + ")");
  }
  any = false;
  for (const auto& [id, b] : s.builds) {
    if (b.state != a->id) continue;
    if (!any) Line("Builds in progress:");
    any = true;
    std::string k = b.is_ship ? fb::EnumNameSowShipType(static_cast<fb::SowShipType>(b.ship.type))
                              : fb::EnumNameSowUnitType(static_cast<fb::SowUnitType>(b.unit.type));
    Line("  " + Pad(id, 14) + Pad(k, 4) + Pad(b.city, 14) + std::to_string(b.done) + " of " +
         std::to_string(b.war_turns) + " war turns; ready " + Completes(s, b));
  }
  any = false;
  for (const auto& r : s.repairs) {
    if (r.state != a->id) continue;
    if (!any) Line("Repairs under way (done at the end of the season):");
    any = true;
    Line("  " + Pad(r.city, 16) + (r.what == P::RepairKind::Fort ? "fort" : "coastal battery"));
  }
  any = false;
  for (const auto& [key, o] : s.standing) {
    if (key.first != a->id) continue;
    if (!any) Line("Standing orders:");
    any = true;
    Line("  " + Pad(key.second, 16) + "buy " + std::to_string(o.supplies) + " supplies a turn" +
         (o.forward_to.empty() ? "" : ", forward " + std::to_string(o.forward) + " to " + o.forward_to));
  }
  return Status::Ok();
}

}  // namespace

std::vector<Command> ReportCommands() {
  return {
      {{"report", "treasury|fleet|events|positions GAME [--state S | --player P | --as P] [--turn T] [--branch B] [--json] [--svg FILE]",
        "Print a report, now or as it stood at the end of a turn.\n"
        "treasury: a state's Treasury Ministry report (--state required): balance, the turn's statement\n"
        "line by line, manpower, militia and transport pools, men returning, builds in progress, standing\n"
        "orders and refused orders. fleet: the GA's view of every ship (or of --state's) with its\n"
        "location, base, commander, ratings and damage (PATE 2.2-2.4).\n"
        "events and positions: a player's two reports (PATE 3.11), from what his ships observed (PATE 5)\n"
        "and his own ships only: the ships he commands or is deputy of, and all his state's if he is its\n"
        "Naval Minister. events: everything his ships observed in turn T (default: the last turn anything\n"
        "was observed in). positions: his ships at the end of the turn with what each saw; --svg FILE\n"
        "also draws them on the naval map. --player P is the GA's view of P's reports; --as P is P\n"
        "himself, with his password (--password-file, $ADJUTANT_PASSWORD or a prompt, as for orders).",
        {{"state", "S", "the state (e.g. BR)"}, {"player", "P", "events, positions: the GA reads P's reports"},
         {"as", "P", "events, positions: P reads his own reports (password needed)"}, kPasswordFile,
         {"turn", "T", "as it stood at the end of this turn (YEAR.SEASON.TURN)"},
         {"svg", "FILE", "positions: also write the map of the positions to FILE (SVG)"}, kBranch, kJson},
        2, 2},
       CmdReport},
  };
}

}  // namespace adjutant::cli
