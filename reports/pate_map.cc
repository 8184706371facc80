// The naval positions drawn on the earth (PATE 1, 3.11 report 2), where the
// map says where its sea areas and ports lie: America and Europe side by
// side, each sea area a region of water (the Voronoi cells of its points, cut
// to the sea), ports at their places, the winds the viewer knows, his ships,
// the enemies and others his ships saw; labels that never overlap and a
// legend for every kind drawn. What does not fit on the map is listed under it.
#include <algorithm>
#include <cmath>
#include <memory>

#include "maps/draw.h"
#include "maps/geo.h"
#include "maps/kept.h"
#include "reports/drawn.h"
#include "rules/pate/map.h"

namespace adjutant::reports {
namespace {

namespace pate = rules::pate;
using maps::Point;

std::string Swatch(const std::string& fill, const std::string& stroke, const std::string& more = "") {
  return "<rect x=\"2\" y=\"1\" width=\"20\" height=\"12\" fill=\"" + fill + "\" stroke=\"" + stroke + "\" " + more + "/>";
}

struct Panel {
  pate::MapSide side;
  maps::Rect rect;
};

// What a panel's drawing takes from the map alone - the projection, each sea
// area's region (its path and where its name goes), the coast, each port's
// point: the same for every viewer and every turn, and most of a report's
// cost (the Voronoi regions cut to the water), so kept per map (GeographyOf).
struct PanelGeography {
  bool drawn = false;                 // the map has sea areas on this side
  std::vector<std::string> codes;     // its sea areas, in the map's order
  std::vector<std::string> paths;     // each one's region, as SVG path data
  std::vector<Point> points;          // each one's own point (ships there are marked by it)
  std::vector<Point> labels;          // where each one's name goes
  std::string coast;                  // the land's outline, as SVG path data
  std::vector<std::pair<std::string, Point>> ports;  // this side's ports, in the map's order
  double km_per_unit = 1;
};

struct Geography {
  std::vector<PanelGeography> panels;  // one per Panel, in order
};

std::shared_ptr<const Geography> Compute(const pate::NavalMap& m, const std::vector<Panel>& panels) {
  auto geo = std::make_shared<Geography>();
  for (const Panel& panel : panels) {
    PanelGeography& g = geo->panels.emplace_back();
    std::vector<maps::LonLat> places;
    for (const auto& [code, a] : m.areas()) {
      if (a.map != panel.side) continue;
      g.codes.push_back(code);
      places.push_back({a.lon, a.lat});
      for (size_t i = 0; i + 1 < a.seeds.size(); i += 2) places.push_back({a.seeds[i], a.seeds[i + 1]});
    }
    if (g.codes.empty()) continue;
    g.drawn = true;
    for (const auto& [name, p] : m.ports()) {
      const pate::SeaArea* a = m.Area(p.sea_area);
      if (a && a->map == panel.side) places.push_back({p.lon, p.lat});
    }
    auto proj = maps::Projection::Fit(places, 1.0, panel.rect);
    g.km_per_unit = proj.km_per_unit();
    maps::Shape land = maps::Land(proj, panel.rect);
    maps::Shape water = maps::Water(land, panel.rect);
    std::vector<std::vector<Point>> seeds;
    for (const std::string& code : g.codes) {
      const pate::SeaArea& a = m.areas().at(code);
      std::vector<Point> pts{proj({a.lon, a.lat})};
      for (size_t i = 0; i + 1 < a.seeds.size(); i += 2) pts.push_back(proj({a.seeds[i], a.seeds[i + 1]}));
      g.points.push_back(pts[0]);
      seeds.push_back(std::move(pts));
    }
    std::vector<maps::Shape> areas = maps::Regions(seeds, water, panel.rect, std::max(panel.rect.w, panel.rect.h));
    for (size_t i = 0; i < g.codes.size(); ++i) {
      g.paths.push_back(maps::PathData(areas[i]));
      g.labels.push_back(areas[i].empty() ? g.points[i] : maps::Inside(areas[i]));
    }
    g.coast = maps::PathData(land);
    for (const auto& [name, p] : m.ports()) {
      const pate::SeaArea* a = m.Area(p.sea_area);
      if (a && a->map == panel.side) g.ports.emplace_back(name, proj({p.lon, p.lat}));
    }
  }
  return geo;
}

// The map's geography, computed once per map and kept (maps/kept.h), keyed by
// everything Compute reads from the map and the panels.
std::shared_ptr<const Geography> GeographyOf(const pate::NavalMap& m, const std::vector<Panel>& panels) {
  maps::Key key;
  for (const Panel& p : panels) {
    key.Num(static_cast<double>(p.side));
    for (double v : {p.rect.x, p.rect.y, p.rect.w, p.rect.h}) key.Num(v);
  }
  for (const auto& [code, a] : m.areas()) {
    key.Text(code).Num(static_cast<double>(a.map)).Num(a.lon).Num(a.lat).Num(static_cast<double>(a.seeds.size()));
    for (double v : a.seeds) key.Num(v);
  }
  for (const auto& [name, p] : m.ports()) key.Text(name).Text(p.sea_area).Num(p.lon).Num(p.lat);
  return maps::Kept<Geography>(key, [&] { return Compute(m, panels); });
}

}  // namespace

bool NavalHasGeography(const pate::NavalMap& m) {
  if (m.areas().empty()) return false;
  for (const auto& [code, a] : m.areas()) {
    if (a.lon == 0 && a.lat == 0) return false;
  }
  for (const auto& [name, p] : m.ports()) {
    if (p.lon == 0 && p.lat == 0) return false;
  }
  return true;
}

std::string NavalGeoSvg(const NavalPicture& pic, const std::string& title) {
  const pate::NavalMap& m = *pic.map;
  constexpr double kWidth = 1400, kTop = 28;
  const maps::Rect frame{0, kTop, kWidth, 760};
  const std::vector<Panel> panels{{pate::MapSide::America, {0, kTop, 520, 400}},
                                  {pate::MapSide::Europe, {530, kTop, kWidth - 530, 760}}};
  const maps::Rect notes_box{0, kTop + 410, 520, 760 - 410};
  maps::Drawing d(kWidth, frame, title);
  const std::shared_ptr<const Geography> geo = GeographyOf(m, panels);

  std::map<std::string, Point> at;     // every area's and port's point on the page
  std::map<std::string, Point> label;  // where an area's name goes
  std::vector<std::string> not_drawn;
  for (size_t k = 0; k < panels.size(); ++k) {
    const Panel& panel = panels[k];
    const PanelGeography& g = geo->panels[k];
    if (!g.drawn) continue;
    const auto& r = panel.rect;
    d.Add("land", "<rect x=\"" + maps::Num(r.x) + "\" y=\"" + maps::Num(r.y) + "\" width=\"" + maps::Num(r.w) +
                      "\" height=\"" + maps::Num(r.h) + "\" fill=\"#d9d2bf\" data-kind=\"land\"/>");
    for (size_t i = 0; i < g.codes.size(); ++i) {
      const std::string& code = g.codes[i];
      const pate::SeaArea& a = m.areas().at(code);
      at[code] = g.points[i];
      label[code] = g.labels[i];
      const bool mine = pic.mine.count(code) != 0;
      std::string kind = mine ? "sea area with your ships" : "sea area";
      d.Add(kind, "<path d=\"" + g.paths[i] + "\" fill=\"" + (mine ? "#a9cdf2" : "#d4e6f4") +
                      "\" fill-rule=\"evenodd\" stroke=\"#6f98c0\" stroke-width=\"1\" data-kind=\"" + kind +
                      "\" data-area=\"" + maps::Xml(code) + "\"><title>" + maps::Xml(code + " " + a.name) +
                      "</title></path>");
      if (a.atlantic) {
        d.Add("atlantic edge", "<path d=\"" + g.paths[i] +
                                   "\" fill=\"none\" stroke=\"#1d4f80\" stroke-width=\"2\" stroke-dasharray=\"7 4\" "
                                   "data-kind=\"atlantic edge\"/>");
      }
      if (pic.seen.count(code)) {
        d.Add("enemies seen here", "<path d=\"" + g.paths[i] +
                                       "\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2.5\" stroke-opacity=\"0.8\" "
                                       "data-kind=\"enemies seen here\"/>");
      }
    }
    d.Add("coast", "<path d=\"" + g.coast +
                       "\" fill=\"none\" stroke=\"#8c8068\" stroke-width=\"0.7\" data-kind=\"coast\"/>");
    for (const auto& [name, q] : g.ports) {
      const pate::Port& p = m.ports().at(name);
      at[name] = q;
      d.Add("port", "<circle cx=\"" + maps::Num(q.x) + "\" cy=\"" + maps::Num(q.y) +
                        "\" r=\"2.6\" fill=\"#222\" stroke=\"#fff\" stroke-width=\"0.8\" data-kind=\"port\"><title>" +
                        maps::Xml(name + " (" + p.nation + (p.controller.empty() ? "" : ", held by " + p.controller) +
                                  "), on " + p.sea_area + (p.strait_area.empty() ? "" : " and " + p.strait_area)) +
                        "</title></circle>");
      d.Block({q.x - 3, q.y - 3, q.x + 3, q.y + 3});
    }
    // A scale bar in the panel's lower left corner.
    const double km = panel.side == pate::MapSide::Europe ? 500 : 300;
    d.ScaleBar({r.x + 12, r.bottom() - 12}, km / g.km_per_unit, std::to_string(int(km)) + " km",
               "scale (equal-area projection)");
  }
  d.Legend("land", Swatch("#d9d2bf", "#8c8068"), "land");
  d.Legend("coast", "<path d=\"M2 7H22\" stroke=\"#8c8068\"/>", "coast (Natural Earth)");
  d.Legend("sea area", Swatch("#d4e6f4", "#6f98c0"), "sea area");
  d.Legend("sea area with your ships", Swatch("#a9cdf2", "#6f98c0"), "sea area where your ships are");
  d.Legend("atlantic edge", Swatch("none", "#1d4f80", "stroke-width=\"2\" stroke-dasharray=\"7 4\""),
           "on the Atlantic edge (crossings start here, PATE 6.11)");
  d.Legend("enemies seen here", Swatch("none", "#c0392b", "stroke-width=\"2.5\""), "enemies seen in the area");
  d.Legend("port", "<circle cx=\"12\" cy=\"7\" r=\"2.6\" fill=\"#222\"/>", "port");

  // The winds the viewer knows: an arrow flying with the wind by the area's name.
  for (const auto& [code, w] : pic.winds) {
    auto it = label.find(code);
    if (it == label.end()) continue;
    const double len = 18, width = w.strength == 0 ? 1.2 : w.strength == 1 ? 2.2 : 3.4;
    // Blowing from N goes south: (0, +1) on the page.
    static const double kDx[] = {0, -1, 0, 1}, kDy[] = {1, 0, -1, 0};
    const double dx = kDx[w.from % 4], dy = kDy[w.from % 4];
    bool drawn = false;
    for (Point c : {Point{it->second.x, it->second.y + 18}, Point{it->second.x + 26, it->second.y},
                    Point{it->second.x - 26, it->second.y}, Point{it->second.x, it->second.y - 18}}) {
      maps::Box b{c.x - len / 2 - 4, c.y - len / 2 - 4, c.x + len / 2 + 4, c.y + len / 2 + 4};
      if (!d.Free(b)) continue;
      d.Block(b);
      Point a{c.x - dx * len / 2, c.y - dy * len / 2}, z{c.x + dx * len / 2, c.y + dy * len / 2};
      // The head: two strokes back from the point.
      Point h1{z.x - dx * 6 + dy * 4, z.y - dy * 6 - dx * 4}, h2{z.x - dx * 6 - dy * 4, z.y - dy * 6 + dx * 4};
      d.Add("wind", "<path d=\"M" + maps::Num(a.x) + " " + maps::Num(a.y) + "L" + maps::Num(z.x) + " " + maps::Num(z.y) +
                        "M" + maps::Num(h1.x) + " " + maps::Num(h1.y) + "L" + maps::Num(z.x) + " " + maps::Num(z.y) + "L" +
                        maps::Num(h2.x) + " " + maps::Num(h2.y) + "\" fill=\"none\" stroke=\"#0b3d66\" stroke-width=\"" +
                        maps::Num(width) + "\" stroke-linecap=\"round\" data-kind=\"wind\"><title>" +
                        maps::Xml(code + ": wind from " + w.words) + "</title></path>");
      drawn = true;
      break;
    }
    if (!drawn) not_drawn.push_back("wind in " + code + ": from " + w.words);
  }
  if (!pic.winds.empty()) {
    d.Legend("wind", "<path d=\"M3 7H21M16 3L21 7L16 11\" fill=\"none\" stroke=\"#0b3d66\" stroke-width=\"2\"/>",
             "wind of " + pic.turn + ", flying with it (thicker: stronger)");
  }

  // His ships, then what they saw, then the areas' and ports' names.
  struct Style {
    const char* kind;
    const char* mark;
    const char* fill;
    const char* words;
  };
  const Style styles[] = {{"your ship", "\u25A0 ", "#1f4fbf", "your ship"},
                          {"enemy seen", "\u25CF ", "#c0392b", "enemy ships seen"},
                          {"other ship seen", "\u25CB ", "#2e7d32", "other ships seen"}};
  for (const Style& st : styles) {
    bool any = false;
    for (const NavalMark& mk : pic.marks) {
      if (mk.kind != st.kind) continue;
      auto it = at.find(mk.place);
      std::string text = st.mark + mk.text;
      std::string style = std::string("fill=\"") + st.fill + "\"";
      if (it == at.end() || !d.Label(st.kind, {text}, it->second, 9, 80, style, st.fill)) {
        not_drawn.push_back(text + " (" + mk.place + ")");
      }
      any = true;
    }
    if (any) {
      d.Legend(st.kind, std::string("<text x=\"2\" y=\"11\" font-size=\"11\" fill=\"") + st.fill + "\">" + st.mark + "</text>",
               st.words);
    }
  }
  for (const auto& [code, a] : m.areas()) {
    auto it = label.find(code);
    if (it == label.end()) continue;
    d.Label("sea area name", {code + " " + a.name, code}, it->second, 10, 40, "font-style=\"italic\" fill=\"#1d4f80\"");
  }
  d.Legend("sea area name", "<text x=\"2\" y=\"11\" font-size=\"10\" font-style=\"italic\" fill=\"#1d4f80\">ECH</text>",
           "sea area (code and name)");
  for (const auto& [name, p] : m.ports()) {
    auto it = at.find(name);
    if (it != at.end()) d.Label("port name", {name}, it->second, 8, 16, "fill=\"#333\"");
  }
  d.Legend("port name", "<text x=\"2\" y=\"11\" font-size=\"8\" fill=\"#333\">Brest</text>", "port name");

  // Under America: his ships off the map, and whatever found no room above.
  double y = notes_box.y + 16;
  auto note = [&](const std::string& kind, const std::string& text, const char* fill) {
    if (y > notes_box.bottom() - 4) return;
    if (d.Text(kind, text, {notes_box.x + 10, y}, 10, "start", std::string("fill=\"") + fill + "\"")) y += 15;
  };
  if (!pic.notes.empty() || !not_drawn.empty()) note("note", "Not on the map above:", "#000");
  for (const std::string& n : pic.notes) note("your ship", "\u25A0 " + n, "#1f4fbf");
  for (const std::string& n : not_drawn) note("note", n, "#333");
  if (!pic.notes.empty() || !not_drawn.empty()) d.Legend("note", Swatch("#fff", "#999"), "listed under the map");
  if (!pic.notes.empty()) {
    d.Legend("your ship", "<text x=\"2\" y=\"11\" font-size=\"11\" fill=\"#1f4fbf\">\u25A0 </text>", "your ship");
  }
  return d.Finish();
}

}  // namespace adjutant::reports
