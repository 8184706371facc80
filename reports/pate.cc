// A player's two reports (PATE 3.11), rendered only from the visibility view
// and his own ships (DESIGN inv. 8).
#include <algorithm>
#include <cassert>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "reports/common.h"
#include "reports/drawn.h"
#include "projections/fleet.h"
#include "projections/navalmap.h"
#include "projections/roster.h"
#include "projections/treasury.h"
#include "projections/visibility.h"
#include "replay/driver.h"
#include "rules/pate/map.h"
#include "rules/sow/calendar.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::reports {
namespace {

namespace P = projections;
namespace pate = rules::pate;
namespace sow = rules::sow;

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
  const P::FleetState& fleet() const { return folded.world.fleet().state(); }
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
  // One of his ships, afloat: the only ships the fleet is asked about.
  const P::Ship* Own(const std::string& id) const {
    if (!std::binary_search(view.ships.begin(), view.ships.end(), id)) return nullptr;
    auto it = fleet().ships.find(id);
    return it == fleet().ships.end() ? nullptr : &it->second;
  }
  // "BR1FL (Victory)", or the id of a ship no longer afloat.
  std::string Called(const std::string& id) const {
    const P::Ship* sh = Own(id);
    return sh && !sh->name.empty() ? id + " (" + sh->name + ")" : id;
  }
};

// His view of `turn` and the map, in a ForPlayer whose world is folded.
Status Complete(ForPlayer& r, const std::string& game, const std::string& person, const Turn& turn) {
  const replay::World& w = r.folded.world;
  const P::TreasuryState& s = w.treasury().state();
  r.view = P::ViewOf(w.roster().state(), w.fleet().state().ships, VisibilityOf(w).state(), person, turn);
  r.turn_name = "turn " + turn.ToString();
  if (turn == s.turn) r.turn_name += " (" + sow::TurnName(turn, s.season_kind) + ")";
  for (const auto& p : w.projections) {
    if (auto* m = dynamic_cast<const P::NavalMapView*>(p.get()); m && m->map()) {
      auto loaded = pate::NavalMap::Load(*m->map());
      if (!loaded.ok()) return Status::Corruption("game '" + game + "': its recorded map: " + loaded.status().message());
      r.map = std::move(loaded).value();
    }
  }
  return Status::Ok();
}

// `own`: the reader is the player himself (his password was checked, or his
// session is his), not the GA reading his reports.
Result<ForPlayer> PrepareForPlayer(Ctx& c, const std::string& game, const std::string& branch, const char* what,
                                   bool own) {
  if (c.rq.player.empty()) {
    return Status::InvalidArgument(std::string("report ") + what + ": give --player P (the GA) or --as P (the player)");
  }
  const std::string person = c.rq.player;
  const bool as = own;
  std::optional<Turn> asked;
  if (const auto& t = c.rq.turn) asked = Turn::Parse(*t);  // WorldAt refuses a bad one
  auto folded = FoldForReport(c, game, "ships");
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
    auto end = EndOfTurn(c.db, game, branch, turn);
    if (!end.ok()) return end.status();
    auto then = replay::Fold(c.db, game, branch, *end);
    if (!then.ok()) return then.status();
    r.folded.world = std::move(then).value();
    r.folded.upto = *end;
  }
  ADJ_RETURN_IF_ERROR(Complete(r, game, person, turn));
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

// Report 1 of PATE 3.11 in words.
std::vector<std::string> EventsLines(const ForPlayer& r, const std::string& game, const std::string& branch) {
  const P::PlayerView& v = r.view;
  std::vector<std::string> out;
  out.push_back(Header(r, "Events report", game, branch));
  out.push_back("Ships reporting: " + (v.ships.empty() ? std::string("none") : Join(v.ships)));
  if (v.observations.empty()) out.push_back("Nothing was observed.");
  for (const auto& [ship, obs] : v.observations) {
    out.push_back("");
    for (const auto& o : obs) out.push_back("  " + Sentence(r, ship, o) + "  [" + o.rule + "]");
  }
  return out;
}

}  // namespace

// Report 1 of PATE 3.11: every event the player's ships observed in the turn.
Status EventsReport(Ctx& c, const std::string& game) {
  const std::string& branch = c.branch;
  auto r = PrepareForPlayer(c, game, branch, "events", !c.viewer_ga);
  if (!r.ok()) return r.status();
  const P::PlayerView& v = r->view;
  if (c.json()) {
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
                                    r->as_of(), ships, f.CreateVector(groups),
                                    flatbuffers::Offset<fb::ReportHead>(c.HeadJson(f))));
    return c.PrintJson("EventsReport", f);
  }
  for (const auto& l : EventsLines(*r, game, branch)) c.Line(l);
  return Status::Ok();
}

std::string PositionWords(const P::Ship& sh, bool at_port) {
  if (!sh.active) return "inactive";
  if (sh.crossing_turns > 0) return "crossing the Atlantic";
  if (sh.in_port) return "harbour";
  if (sh.coastal || at_port) return "coastal waters";
  return "at sea";
}

namespace {

// Where a ship of the player's is (PATE 1.2, 6.11, 2.6).
std::string PositionOf(const ForPlayer& r, const P::Ship& sh) { return PositionWords(sh, r.IsPort(sh.location)); }

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

// His ships afloat, by id, and what each saw that belongs in report 2.
std::vector<const P::Ship*> OwnShips(const ForPlayer& r) {
  std::vector<const P::Ship*> own;
  for (const auto& id : r.view.ships) if (const P::Ship* sh = r.Own(id)) own.push_back(sh);
  return own;
}

// The positions drawn on the earth where the map says where its areas and
// ports lie (reports/pate_map.cc), else the plot board above. Winds: where
// his ships are (his captains feel them); the GA's drawing has every area's.
std::string PositionDrawing(const ForPlayer& r, const std::vector<const P::Ship*>& own, const std::string& title,
                            bool every_wind) {
  if (!NavalHasGeography(*r.map)) return PositionSvg(r, own, title);
  NavalPicture pic;
  pic.map = &*r.map;
  static const char* kFrom[] = {"N", "E", "S", "W"};
  static const char* kStrength[] = {"light", "moderate", "heavy"};
  std::set<std::string> felt;
  for (const P::Ship* sh : own) {
    std::string label = sh->id + (sh->name.empty() ? "" : " " + sh->name);
    std::string area = r.AreaOf(sh->location);
    if (sh->crossing_turns > 0 || area.empty()) {
      pic.notes.push_back(label + ": " + WhereInWords(r, *sh));
      continue;
    }
    if (!sh->active) label += " (inactive)";
    pic.marks.push_back({"your ship", label, sh->location});
    pic.mine.insert(area);
    felt.insert(area);
  }
  std::set<std::string> mine_ids(r.view.ships.begin(), r.view.ships.end());
  std::map<std::string, std::set<std::string>> enemies, others, counts;  // place → what was seen there
  for (const auto& [ship, obs] : r.view.observations) {
    for (const auto& o : obs) {
      if (o.kind == P::ObservationKind::LandUnits || !InPositionReport(o)) continue;
      if (r.AreaOf(o.location).empty()) continue;
      auto [e, f] = Sides(r, ship, o.seen);
      enemies[o.location].insert(e.begin(), e.end());
      for (const auto& id : f) {
        if (!mine_ids.count(id)) others[o.location].insert(id);
      }
      if (o.seen.empty() && o.count > 0) counts[o.location].insert("about " + Ships(o.count));
    }
  }
  for (const auto& [place, set] : enemies) {
    if (set.empty()) continue;
    pic.marks.push_back({"enemy seen", Join(std::vector<std::string>(set.begin(), set.end())), place});
    pic.seen.insert(r.AreaOf(place));
  }
  for (const auto& [place, set] : counts) {
    for (const auto& l : set) pic.marks.push_back({"enemy seen", l, place});
    pic.seen.insert(r.AreaOf(place));
  }
  for (const auto& [place, set] : others) {
    if (!set.empty()) pic.marks.push_back({"other ship seen", Join(std::vector<std::string>(set.begin(), set.end())), place});
  }
  for (const auto& [area, wind] : r.s().winds) {
    if (!every_wind && !felt.count(area)) continue;
    pic.winds[area] = {wind.from % 4, std::string(kFrom[wind.from % 4]) + " " + kStrength[wind.strength % 3],
                       static_cast<int>(wind.strength % 3)};
  }
  pic.turn = r.turn_name;
  return NavalGeoSvg(pic, title);
}

std::vector<const P::Observation*> SeenFor(const ForPlayer& r, const std::string& id) {
  std::vector<const P::Observation*> out;
  auto it = r.view.observations.find(id);
  if (it != r.view.observations.end()) {
    for (const auto& o : it->second) if (InPositionReport(o)) out.push_back(&o);
  }
  return out;
}

std::string PositionsTitle(const ForPlayer& r, const std::string& game, const std::string& branch) {
  return "Position report for " + r.view.person + ": end of " + r.turn_name + "   [" + game + "/" + branch +
         ", as of seq " + std::to_string(r.as_of()) + "]";
}

std::string TypeName(P::ShipType t) { return fb::EnumNameSowShipType(static_cast<fb::SowShipType>(t)); }

// Report 2 of PATE 3.11 in words.
std::vector<std::string> PositionsLines(const ForPlayer& r, const std::string& game, const std::string& branch) {
  const P::PlayerView& v = r.view;
  const replay::World& w = r.folded.world;
  std::vector<const P::Ship*> own = OwnShips(r);
  std::vector<std::string> out;
  out.push_back(PositionsTitle(r, game, branch));
  if (own.empty()) out.push_back("No ships report to " + v.person + ".");
  for (const P::Ship* sh : own) {
    auto [commander, deputy] = PostsOf(w, sh->id);
    out.push_back("");
    out.push_back(r.Called(sh->id) + ", " + TypeName(sh->type) + " of " + sh->state);
    out.push_back("  Commander: " + (commander.empty() ? "-" : commander) + "   Deputy: " + (deputy.empty() ? "-" : deputy));
    out.push_back("  Location: " + WhereInWords(r, *sh));
    out.push_back("  Stores: " + std::to_string(sh->stores) + "   Crew: " + std::to_string(sh->crew) + "   Marines: " +
                  std::to_string(sh->marines) + "   Hull damage: " + std::to_string(sh->hull) + "   Rigging damage: " +
                  std::to_string(sh->rigging));
    if (!sh->attached_to.empty()) out.push_back("  Attached to: " + sh->attached_to);
    std::vector<std::string> followers;  // only his own ships: others' attachments are not his to see
    for (const P::Ship* o : own) if (o->attached_to == sh->id) followers.push_back(o->id);
    if (!followers.empty()) out.push_back("  Attached ships: " + Join(followers));
    auto obs = SeenFor(r, sh->id);
    if (obs.empty()) out.push_back("  Seen: nothing");
    for (const auto* o : obs) out.push_back("  Seen: at " + o->location + ": " + WhatAll(r, sh->id, *o) + "  [" + o->rule + "]");
  }
  return out;
}

}  // namespace

// Report 2 of PATE 3.11: the player's ships at the end of the turn (the
// start of the next), each with what it saw that turn; --svg draws the map.
Status PositionsReport(Ctx& c, const std::string& game) {
  const std::string& branch = c.branch;
  auto r = PrepareForPlayer(c, game, branch, "positions", !c.viewer_ga);
  if (!r.ok()) return r.status();
  const P::PlayerView& v = r->view;
  const replay::World& w = r->folded.world;
  std::vector<const P::Ship*> own = OwnShips(*r);
  auto seen = [&](const std::string& id) { return SeenFor(*r, id); };
  std::string title = PositionsTitle(*r, game, branch);
  if (c.wants_drawing()) {
    if (!r->map) return Status::InvalidArgument("--svg: game '" + game + "' has no naval map (create it with --map)");
    if (c.Draw(PositionDrawing(*r, own, title, c.viewer_ga))) return Status::Ok();
  }
  auto type = [](P::ShipType t) { return std::string(fb::EnumNameSowShipType(static_cast<fb::SowShipType>(t))); };
  if (c.json()) {
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
    f.Finish(fb::CreatePositionReportDirect(f, game.c_str(), branch.c_str(), v.person.c_str(), &t, r->as_of(), &rows,
                                            flatbuffers::Offset<fb::ReportHead>(c.HeadJson(f))));
    return c.PrintJson("PositionReport", f);
  }
  for (const auto& l : PositionsLines(*r, game, branch)) c.Line(l);
  return Status::Ok();
}

Result<PlayerReportText> RenderPlayerReports(replay::World world, uint64_t as_of, const std::string& game,
                                             const std::string& branch, const std::string& person, const Turn& turn) {
  ForPlayer r;
  r.folded.world = std::move(world);
  r.folded.upto = as_of;
  ADJ_RETURN_IF_ERROR(Complete(r, game, person, turn));
  PlayerReportText t;
  for (const auto& l : EventsLines(r, game, branch)) t.events += l + "\n";
  for (const auto& l : PositionsLines(r, game, branch)) t.positions += l + "\n";
  if (r.map) t.svg = PositionDrawing(r, OwnShips(r), PositionsTitle(r, game, branch), false);
  return t;
}

}  // namespace adjutant::reports
