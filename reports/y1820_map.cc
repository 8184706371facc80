// The y1820 map drawn on the earth (a map whose provinces and sea zones say
// where they lie): provinces as regions — the Voronoi cells of their points,
// cut to the land — coloured by owner; sea zones as regions of water with
// their names; mountain and water crossings; capitals, epidemics, armies and
// fleets as markers; labels that never overlap; a legend for every kind drawn.
#include <algorithm>
#include <cmath>
#include <memory>

#include "maps/draw.h"
#include "maps/geo.h"
#include "maps/kept.h"
#include "projections/y1820.h"
#include "reports/drawn.h"

namespace adjutant::reports {
namespace {

namespace P = projections;
using maps::Point;

std::string Capital(const P::Y1820State& s, int32_t id) {
  for (const auto& [n, nat] : s.nations) {
    if (!nat.eliminated && nat.capital == id) return n;
  }
  return "";
}

std::string Swatch(const std::string& fill, const std::string& stroke = "#777") {
  return "<rect x=\"2\" y=\"1\" width=\"20\" height=\"12\" fill=\"" + maps::Xml(fill) + "\" stroke=\"" + stroke + "\"/>";
}

// What the drawing takes from the map alone - the projection, the land, each
// province's and sea zone's region, the borders its shapes get wrong, the
// crossings: the same for every turn, and most of the drawing's cost (the
// regions, and whether each two provinces' shapes meet), so kept per map
// (GeographyOf).
struct Geography {
  double km_per_unit = 1;
  std::string land;                        // the land's outline, as SVG path data
  std::vector<int32_t> ids;                // the provinces, in id order
  std::vector<Point> where;                // each one's point
  std::vector<std::string> provinces;      // each one's region, as SVG path data
  std::vector<std::string> sea_ids;        // the sea zones placed on the earth
  std::vector<Point> sea_points;           // each one's own point
  std::vector<std::string> seas;           // each one's region ("": none)
  struct Amiss {
    bool border;  // bordering provinces whose shapes do not meet; else shapes that meet without a border
    size_t i, j;
  };
  std::vector<Amiss> amiss;                // in (i, j) order
  struct Crossing {
    bool mountain;
    Point a, b;
  };
  std::vector<Crossing> crossings;         // in the map's border order
};

std::shared_ptr<const Geography> Compute(const P::Y1820State& s, maps::Rect frame) {
  auto g = std::make_shared<Geography>();
  std::vector<maps::LonLat> places;
  for (const auto& [id, d] : s.defs) places.push_back({d.lon, d.lat});
  for (const auto& [id, z] : s.seas) {
    if (z.lon != 0 || z.lat != 0) places.push_back({z.lon, z.lat});
  }
  auto proj = maps::Projection::Fit(places, 1.0, frame);
  g->km_per_unit = proj.km_per_unit();
  maps::Shape land = maps::Land(proj, frame);
  maps::Shape water = maps::Water(land, frame);
  g->land = maps::PathData(land);

  // Provinces: one point each; a cell reaches no further than a little over
  // twice the usual distance between neighbouring provinces.
  std::vector<std::vector<Point>> seeds;
  for (const auto& [id, d] : s.defs) {
    g->ids.push_back(id);
    g->where.push_back(proj({d.lon, d.lat}));
    seeds.push_back({g->where.back()});
  }
  std::vector<double> nearest;
  for (size_t i = 0; i < seeds.size(); ++i) {
    double best = 1e18;
    for (size_t j = 0; j < seeds.size(); ++j) {
      if (i != j) best = std::min(best, std::hypot(seeds[i][0].x - seeds[j][0].x, seeds[i][0].y - seeds[j][0].y));
    }
    nearest.push_back(best);
  }
  std::sort(nearest.begin(), nearest.end());
  const double reach = nearest.empty() ? 60 : 2.6 * nearest[nearest.size() / 2];
  std::vector<maps::Shape> provinces = maps::Regions(seeds, land, frame, reach);
  for (const maps::Shape& p : provinces) g->provinces.push_back(maps::PathData(p));

  std::vector<std::vector<Point>> sea_seeds;
  for (const auto& [id, z] : s.seas) {
    if (z.lon == 0 && z.lat == 0) continue;
    g->sea_ids.push_back(id);
    std::vector<Point> pts{proj({z.lon, z.lat})};
    for (size_t i = 0; i + 1 < z.seeds.size(); i += 2) pts.push_back(proj({z.seeds[i], z.seeds[i + 1]}));
    g->sea_points.push_back(pts[0]);
    sea_seeds.push_back(std::move(pts));
  }
  for (const maps::Shape& z : maps::Regions(sea_seeds, water, frame, std::max(frame.w, frame.h))) {
    g->seas.push_back(z.empty() ? "" : maps::PathData(z));
  }

  // Borders as the book's map has them (Y5), where the shapes would say
  // otherwise (drawn as a line across the gap, or a bar where they meet).
  const auto& ids = g->ids;
  for (size_t i = 0; i < ids.size(); ++i) {
    for (size_t j = i + 1; j < ids.size(); ++j) {
      auto it = s.borders.find({std::min(ids[i], ids[j]), std::max(ids[i], ids[j])});
      const bool border = it != s.borders.end();
      if (border && it->second != "land") continue;  // a crossing: drawn below
      const bool meet = maps::Meet(provinces[i], provinces[j], 0.5);
      if (border != meet) g->amiss.push_back({border, i, j});
    }
  }
  // Crossings the map marks (Y5): over mountains, over water.
  for (const auto& [ab, kind] : s.borders) {
    if (kind == "land") continue;
    auto a = s.defs.find(std::get<0>(ab)), b = s.defs.find(std::get<1>(ab));
    if (a == s.defs.end() || b == s.defs.end()) continue;
    g->crossings.push_back({kind == "mountain", proj({a->second.lon, a->second.lat}), proj({b->second.lon, b->second.lat})});
  }
  return g;
}

// The map's geography, computed once per map and kept (maps/kept.h), keyed by
// everything Compute reads from the state and the frame.
std::shared_ptr<const Geography> GeographyOf(const P::Y1820State& s, maps::Rect frame) {
  maps::Key key;
  for (double v : {frame.x, frame.y, frame.w, frame.h}) key.Num(v);
  key.Num(static_cast<double>(s.defs.size()));
  for (const auto& [id, d] : s.defs) key.Num(id).Num(d.lon).Num(d.lat);
  key.Num(static_cast<double>(s.seas.size()));
  for (const auto& [id, z] : s.seas) {
    key.Text(id).Num(z.lon).Num(z.lat).Num(static_cast<double>(z.seeds.size()));
    for (float v : z.seeds) key.Num(v);
  }
  for (const auto& [ab, kind] : s.borders) key.Num(std::get<0>(ab)).Num(std::get<1>(ab)).Text(kind);
  return maps::Kept<Geography>(key, [&] { return Compute(s, frame); });
}

}  // namespace

bool Y1820HasGeography(const P::Y1820State& s) {
  if (s.defs.empty()) return false;
  for (const auto& [id, d] : s.defs) {
    if (d.lon == 0 && d.lat == 0) return false;
  }
  return true;
}

std::string Y1820GeoSvg(const P::Y1820State& s, const std::string& title) {
  const double width = s.width > 0 ? s.width : 1200, height = s.height > 0 ? s.height : 900;
  maps::Rect frame{0, 28, width, height};
  const std::shared_ptr<const Geography> geo = GeographyOf(s, frame);
  const std::vector<int32_t>& ids = geo->ids;

  maps::Drawing d(width, frame, title);
  d.Add("sea", "<rect x=\"" + maps::Num(frame.x) + "\" y=\"" + maps::Num(frame.y) + "\" width=\"" + maps::Num(frame.w) +
                   "\" height=\"" + maps::Num(frame.h) + "\" fill=\"#d4e6f4\"/>");
  d.Legend("sea", Swatch("#d4e6f4"), "sea");
  for (size_t i = 0; i < geo->seas.size(); ++i) {
    if (geo->seas[i].empty()) continue;
    d.Add("sea zone", "<path d=\"" + geo->seas[i] +
                          "\" fill=\"none\" stroke=\"#7fa7c9\" stroke-width=\"1\" stroke-dasharray=\"5 3\" data-kind=\"sea zone\"><title>" +
                          maps::Xml(geo->sea_ids[i] + " " + s.seas.at(geo->sea_ids[i]).name) + "</title></path>");
  }
  d.Legend("sea zone", "<path d=\"M2 7H22\" stroke=\"#7fa7c9\" stroke-dasharray=\"5 3\"/>", "sea zone's edge");
  d.Add("land", "<path d=\"" + geo->land +
                    "\" fill=\"#eee8d8\" fill-rule=\"evenodd\" stroke=\"#a89f88\" stroke-width=\"0.6\" data-kind=\"land\"/>");
  d.Legend("land", Swatch("#eee8d8", "#a89f88"), "land no province covers");

  // The provinces, by owner.
  std::set<std::string> owners_drawn;
  for (size_t i = 0; i < ids.size(); ++i) {
    const int32_t id = ids[i];
    const auto& def = s.defs.at(id);
    const auto* p = s.Province(id);
    std::string kind = "neutral", fill = "#cbc3ad";
    if (p && !p->owner.empty()) {
      const auto* n = s.Nation(p->owner);
      kind = "nation " + p->owner;
      fill = n && !n->color.empty() ? n->color : "#888888";
    } else if (p && !p->npc.empty() && p->npc.rfind("Free ", 0) == 0) {
      kind = "free state", fill = "#6fbf6f";  // Y14.3: a revolted state is green
    }
    owners_drawn.insert(kind);
    std::string cap = Capital(s, id);
    std::string tip = std::to_string(id) + " " + def.name + (p && !p->owner.empty() ? " (" + p->owner + ")" : "") +
                      (cap.empty() ? "" : ", capital of " + cap) + (p && p->epidemic ? ", epidemic" : "");
    d.Add(kind, "<path d=\"" + geo->provinces[i] + "\" fill=\"" + maps::Xml(fill) +
                    "\" fill-opacity=\"0.85\" fill-rule=\"evenodd\" stroke=\"#ffffff\" stroke-width=\"1\" data-kind=\"" +
                    maps::Xml(kind) + "\" data-province=\"" + std::to_string(id) + "\"><title>" + maps::Xml(tip) +
                    "</title></path>");
  }
  for (const std::string& n : s.order) {
    const auto* nat = s.Nation(n);
    d.Legend("nation " + n, Swatch(nat && !nat->color.empty() ? nat->color : "#888888"),
             (nat && !nat->name.empty() ? nat->name : n) + " (" + n + ")" + (nat && nat->eliminated ? ", gone" : ""));
  }
  d.Legend("neutral", Swatch("#cbc3ad"), "neutral or minor state");
  if (owners_drawn.count("free state")) d.Legend("free state", Swatch("#6fbf6f"), "state freed by revolt");

  // Borders as the book's map has them (Y5), where the shapes would say
  // otherwise: a land border between shapes that do not meet is drawn as a
  // line; shapes that meet where the provinces do not border get a bar.
  bool gaps = false, walls = false;
  for (const Geography::Amiss& a : geo->amiss) {
    Point pa = geo->where[a.i], pb = geo->where[a.j];
    if (a.border) {
      gaps = true;
      d.Add("border across a gap", "<line x1=\"" + maps::Num(pa.x) + "\" y1=\"" + maps::Num(pa.y) + "\" x2=\"" +
                                       maps::Num(pb.x) + "\" y2=\"" + maps::Num(pb.y) +
                                       "\" stroke=\"#555555\" stroke-width=\"1.2\" data-kind=\"border across a gap\"/>");
      continue;
    }
    const double len = std::hypot(pb.x - pa.x, pb.y - pa.y);
    if (len < 1e-6) continue;
    const Point m{(pa.x + pb.x) / 2, (pa.y + pb.y) / 2}, n{-(pb.y - pa.y) / len * 6, (pb.x - pa.x) / len * 6};
    walls = true;
    d.Add("no border", "<line x1=\"" + maps::Num(m.x - n.x) + "\" y1=\"" + maps::Num(m.y - n.y) + "\" x2=\"" +
                           maps::Num(m.x + n.x) + "\" y2=\"" + maps::Num(m.y + n.y) +
                           "\" stroke=\"#7a0000\" stroke-width=\"3\" data-kind=\"no border\"><title>" +
                           maps::Xml(std::to_string(ids[a.i]) + " and " + std::to_string(ids[a.j]) + " do not border") +
                           "</title></line>");
  }
  if (gaps) {
    d.Legend("border across a gap", "<path d=\"M2 7H22\" stroke=\"#555\" stroke-width=\"1.2\"/>",
             "provinces that border, though their shapes do not meet");
  }
  if (walls) {
    d.Legend("no border", "<path d=\"M12 1V13\" stroke=\"#7a0000\" stroke-width=\"3\"/>",
             "no border here, though the shapes meet");
  }

  // Crossings the map marks (Y5): over mountains, over water.
  for (const Geography::Crossing& c : geo->crossings) {
    const Point pa = c.a, pb = c.b;
    const bool mountain = c.mountain;
    std::string k = mountain ? "mountain crossing" : "water crossing";
    d.Add(k, "<line x1=\"" + maps::Num(pa.x) + "\" y1=\"" + maps::Num(pa.y) + "\" x2=\"" + maps::Num(pb.x) + "\" y2=\"" +
                 maps::Num(pb.y) + "\" stroke=\"" + (mountain ? "#7a4a1b" : "#c02828") +
                 "\" stroke-width=\"2\" stroke-dasharray=\"" + (mountain ? "6 3" : "2 3") + "\" data-kind=\"" + k + "\"/>");
  }
  d.Legend("mountain crossing", "<path d=\"M2 7H22\" stroke=\"#7a4a1b\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>",
           "crossing over mountains");
  d.Legend("water crossing", "<path d=\"M2 7H22\" stroke=\"#c02828\" stroke-width=\"2\" stroke-dasharray=\"2 3\"/>",
           "crossing over water");

  // Markers: capitals and epidemics at the province's point, then armies and
  // fleets as badges beside it; text after, where it still fits.
  const std::vector<Point>& where = geo->where;
  for (size_t i = 0; i < ids.size(); ++i) {
    const auto* p = s.Province(ids[i]);
    Point c = where[i];
    if (p && p->epidemic) {
      d.Add("epidemic", "<circle cx=\"" + maps::Num(c.x) + "\" cy=\"" + maps::Num(c.y) +
                            "\" r=\"8\" fill=\"none\" stroke=\"#8000a0\" stroke-width=\"2.5\" data-kind=\"epidemic\"/>");
      d.Block({c.x - 9, c.y - 9, c.x + 9, c.y + 9});
    }
    if (!Capital(s, ids[i]).empty()) {
      d.Add("capital", "<circle cx=\"" + maps::Num(c.x) + "\" cy=\"" + maps::Num(c.y) +
                           "\" r=\"4.5\" fill=\"#ffffff\" stroke=\"#000000\" stroke-width=\"2\" data-kind=\"capital\"/>");
      d.Block({c.x - 5.5, c.y - 5.5, c.x + 5.5, c.y + 5.5});
    } else {
      d.Add("province centre", "<circle cx=\"" + maps::Num(c.x) + "\" cy=\"" + maps::Num(c.y) +
                                   "\" r=\"1.8\" fill=\"#333333\" data-kind=\"province centre\"/>");
      d.Block({c.x - 2, c.y - 2, c.x + 2, c.y + 2});
    }
  }
  d.Legend("capital", "<circle cx=\"12\" cy=\"7\" r=\"4.5\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"2\"/>", "capital");
  d.Legend("province centre", "<circle cx=\"12\" cy=\"7\" r=\"1.8\" fill=\"#333\"/>", "province");
  d.Legend("epidemic", "<circle cx=\"12\" cy=\"7\" r=\"6\" fill=\"none\" stroke=\"#8000a0\" stroke-width=\"2.5\"/>",
           "epidemic");
  bool any_armies = false, any_fleets = false;
  for (size_t i = 0; i < ids.size(); ++i) {
    const auto* p = s.Province(ids[i]);
    if (!p) continue;
    int armies = p->garrison, fleets = 0;
    for (const auto& [n, k] : p->armies) armies += k;
    for (const auto& [n, k] : p->fleets) fleets += k;
    Point c = where[i];
    if (armies) {
      any_armies = true;
      d.Badge("armies", std::to_string(armies), {c.x + 9, c.y - 9}, 9, 40, "#3a1f0f", "#ffffff");
    }
    if (fleets) {
      any_fleets = true;
      d.Badge("fleets", std::to_string(fleets), {c.x - 9, c.y - 9}, 9, 40, "#123e6b", "#ffffff");
    }
  }
  for (size_t i = 0; i < geo->sea_ids.size(); ++i) {
    auto sf = s.sea_fleets.find(geo->sea_ids[i]);
    if (sf == s.sea_fleets.end()) continue;
    int fleets = 0;
    for (const auto& [n, k] : sf->second) fleets += k;
    if (!fleets) continue;
    any_fleets = true;
    d.Badge("fleets", std::to_string(fleets), geo->sea_points[i], 9, 60, "#123e6b", "#ffffff");
  }
  if (any_armies) {
    d.Legend("armies", "<rect x=\"4\" y=\"0\" width=\"16\" height=\"13\" rx=\"2\" fill=\"#3a1f0f\"/>",
             "armies in the province (every nation's and the neutral garrison)");
  }
  if (any_fleets) {
    d.Legend("fleets", "<rect x=\"4\" y=\"0\" width=\"16\" height=\"13\" rx=\"2\" fill=\"#123e6b\"/>", "fleets");
  }

  d.ScaleBar({frame.x + 14, frame.bottom() - 14}, 200 / geo->km_per_unit, "200 km", "scale (equal-area projection)");

  // Names: sea zones, then provinces (number and name, or the number alone).
  for (size_t i = 0; i < geo->sea_ids.size(); ++i) {
    const std::string& zid = geo->sea_ids[i];
    const auto& z = s.seas.at(zid);
    d.Label("sea zone name", {z.name.empty() ? zid : z.name, zid}, geo->sea_points[i], 10, 50,
            "font-style=\"italic\" fill=\"#2b5d8a\"");
  }
  d.Legend("sea zone name", "<text x=\"2\" y=\"11\" font-size=\"10\" font-style=\"italic\" fill=\"#2b5d8a\">Sea</text>",
           "sea zone");
  for (size_t i = 0; i < ids.size(); ++i) {
    const auto& def = s.defs.at(ids[i]);
    d.Label("province name", {std::to_string(ids[i]) + " " + def.name, std::to_string(ids[i])}, where[i], 9, 30,
            "fill=\"#1e1e1e\"", "#555555");
  }
  d.Legend("province name", "<text x=\"2\" y=\"11\" font-size=\"9\">12</text>", "province number and name");
  return d.Finish();
}

}  // namespace adjutant::reports
