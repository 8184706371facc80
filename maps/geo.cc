#include "maps/geo.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <stdexcept>

#include <boost/geometry.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/polygon/voronoi.hpp>

#include "maps/land_data.h"
#include "schema/geography_generated.h"

namespace adjutant::maps {
namespace {

namespace bg = boost::geometry;
using BPoint = bg::model::d2::point_xy<double>;
using BPoly = bg::model::polygon<BPoint>;  // clockwise, closed
using BMulti = bg::model::multi_polygon<BPoly>;
using BRing = bg::model::ring<BPoint>;
using BLine = bg::model::linestring<BPoint>;

constexpr double kPi = 3.14159265358979323846;
constexpr double kEarthKm = 6371.0;
double Rad(double d) { return d * kPi / 180.0; }

BRing ToRing(const Ring& r) {
  BRing out;
  for (const Point& p : r) out.push_back(BPoint(p.x, p.y));
  if (!r.empty()) out.push_back(BPoint(r.front().x, r.front().y));
  return out;
}

Ring FromRing(const BRing& r) {
  Ring out;
  for (size_t i = 0; i + 1 < r.size(); ++i) out.push_back({r[i].x(), r[i].y()});
  return out;
}

BMulti ToMulti(const Shape& s) {
  BMulti m;
  for (const auto& piece : s.pieces) {
    BPoly p;
    p.outer() = ToRing(piece.outer);
    for (const Ring& h : piece.holes) p.inners().push_back(ToRing(h));
    bg::correct(p);
    m.push_back(std::move(p));
  }
  return m;
}

Shape FromMulti(const BMulti& m) {
  Shape s;
  for (const BPoly& p : m) {
    Shape::Piece piece;
    piece.outer = FromRing(p.outer());
    if (piece.outer.size() < 3) continue;
    for (const BRing& h : p.inners()) {
      Ring r = FromRing(h);
      if (r.size() >= 3) piece.holes.push_back(std::move(r));
    }
    s.pieces.push_back(std::move(piece));
  }
  return s;
}

BPoly Box(Rect f) {
  BPoly p;
  p.outer() = {BPoint(f.x, f.y), BPoint(f.right(), f.y), BPoint(f.right(), f.bottom()), BPoint(f.x, f.bottom()),
               BPoint(f.x, f.y)};
  bg::correct(p);
  return p;
}

BPoly Disc(Point c, double r) {
  BPoly p;
  constexpr int kSides = 48;
  for (int i = 0; i <= kSides; ++i) {
    double a = 2 * kPi * (i % kSides) / kSides;
    p.outer().push_back(BPoint(c.x + r * std::cos(a), c.y + r * std::sin(a)));
  }
  bg::correct(p);
  return p;
}

const fb::Geography* Outlines() {
  static const fb::Geography* g = [] {
    flatbuffers::Verifier v(kLandData, kLandDataSize);
    if (!fb::VerifyGeographyBuffer(v)) throw std::runtime_error("the compiled-in land outlines do not verify");
    return fb::GetGeography(kLandData);
  }();
  return g;
}

double RingArea(const Ring& r) {
  double a = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    const Point& p = r[i];
    const Point& q = r[(i + 1) % r.size()];
    a += p.x * q.y - q.x * p.y;
  }
  return std::abs(a) / 2;
}

}  // namespace

double Shape::Area() const {
  double a = 0;
  for (const auto& p : pieces) {
    a += RingArea(p.outer);
    for (const Ring& h : p.holes) a -= RingArea(h);
  }
  return a;
}

Point Projection::Raw(LonLat p) const {
  double lam = Rad(p.lon) - lon0_, phi = Rad(p.lat);
  double d = 1 + std::sin(lat0_) * std::sin(phi) + std::cos(lat0_) * std::cos(phi) * std::cos(lam);
  double k = d > 1e-9 ? std::sqrt(2 / d) : 0;
  return {k * std::cos(phi) * std::sin(lam),
          k * (std::cos(lat0_) * std::sin(phi) - std::sin(lat0_) * std::cos(phi) * std::cos(lam))};
}

Projection Projection::Fit(const std::vector<LonLat>& places, double margin_deg, Rect frame) {
  Projection pr;
  if (places.empty()) return pr;
  double w = places[0].lon, e = w, s = places[0].lat, n = s;
  for (const LonLat& p : places) {
    w = std::min(w, p.lon), e = std::max(e, p.lon), s = std::min(s, p.lat), n = std::max(n, p.lat);
  }
  w -= margin_deg, e += margin_deg, s = std::max(-89.0, s - margin_deg), n = std::min(89.0, n + margin_deg);
  pr.lon0_ = Rad((w + e) / 2), pr.lat0_ = Rad((s + n) / 2);
  // The box's edges, sampled: their projection bounds what must fit.
  double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
  auto take = [&](LonLat p) {
    Point r = pr.Raw(p);
    x0 = std::min(x0, r.x), x1 = std::max(x1, r.x), y0 = std::min(y0, r.y), y1 = std::max(y1, r.y);
  };
  for (int i = 0; i <= 16; ++i) {
    double lon = w + (e - w) * i / 16, lat = s + (n - s) * i / 16;
    take({lon, s}), take({lon, n}), take({w, lat}), take({e, lat});
  }
  double bw = std::max(x1 - x0, 1e-9), bh = std::max(y1 - y0, 1e-9);
  pr.scale_ = std::min(frame.w / bw, frame.h / bh);
  pr.dx_ = frame.x + (frame.w - bw * pr.scale_) / 2 - x0 * pr.scale_;
  pr.dy_ = frame.y + (frame.h - bh * pr.scale_) / 2 + y1 * pr.scale_;
  pr.km_per_unit_ = kEarthKm / pr.scale_;
  return pr;
}

Point Projection::operator()(LonLat p) const {
  Point r = Raw(p);
  return {dx_ + r.x * scale_, dy_ - r.y * scale_};
}

Shape Land(const Projection& proj, Rect frame) {
  const fb::Geography* g = Outlines();
  BPoly box = Box(frame);
  BMulti out;
  if (!g->polygons()) return {};
  for (const fb::GeoPolygon* poly : *g->polygons()) {
    if (!poly->rings() || poly->rings()->size() == 0) continue;
    BPoly p;
    bool first = true;
    double bx0 = 1e18, bx1 = -1e18, by0 = 1e18, by1 = -1e18;
    for (const fb::GeoRing* ring : *poly->rings()) {
      BRing r;
      const auto* pts = ring->points();
      if (!pts || pts->size() < 6) continue;
      for (size_t i = 0; i + 1 < pts->size(); i += 2) {
        Point q = proj({pts->Get(i) / 1e4, pts->Get(i + 1) / 1e4});
        r.push_back(BPoint(q.x, q.y));
        if (first) bx0 = std::min(bx0, q.x), bx1 = std::max(bx1, q.x), by0 = std::min(by0, q.y), by1 = std::max(by1, q.y);
      }
      r.push_back(r.front());
      if (first) {
        p.outer() = std::move(r);
      } else {
        p.inners().push_back(std::move(r));
      }
      first = false;
    }
    if (p.outer().empty() || bx1 < frame.x || bx0 > frame.right() || by1 < frame.y || by0 > frame.bottom()) continue;
    bg::correct(p);
    if (bx0 >= frame.x && bx1 <= frame.right() && by0 >= frame.y && by1 <= frame.bottom()) {
      out.push_back(std::move(p));
      continue;
    }
    BMulti cut;
    bg::intersection(box, p, cut);
    for (BPoly& c : cut) out.push_back(std::move(c));
  }
  return FromMulti(out);
}

Shape Water(const Shape& land, Rect frame) {
  BMulti outlines;
  for (const auto& piece : land.pieces) {
    BPoly p;
    p.outer() = ToRing(piece.outer);
    bg::correct(p);
    outlines.push_back(std::move(p));
  }
  BMulti water;
  bg::difference(Box(frame), outlines, water);
  return FromMulti(water);
}

std::vector<Shape> Regions(const std::vector<std::vector<Point>>& seeds, const Shape& within, Rect frame, double reach) {
  namespace bp = boost::polygon;
  constexpr double kGrid = 16;  // Boost.Polygon's Voronoi wants integers: a sixteenth of a unit
  std::vector<bp::point_data<int64_t>> pts;
  std::vector<size_t> owner;  // region of each input point
  std::vector<Point> where;
  std::map<std::pair<int64_t, int64_t>, size_t> seen;
  for (size_t r = 0; r < seeds.size(); ++r) {
    for (const Point& p : seeds[r]) {
      int64_t x = std::llround(p.x * kGrid), y = std::llround(p.y * kGrid);
      if (!seen.emplace(std::make_pair(x, y), pts.size()).second) continue;  // the first region to name a point keeps it
      pts.emplace_back(x, y);
      owner.push_back(r);
      where.push_back(p);
    }
  }
  const size_t real = pts.size();
  // Four far corners: every real point is then inside their hull, so its cell is finite.
  double far = 20 * std::max(frame.w, frame.h) * kGrid;
  int64_t cx = std::llround((frame.x + frame.w / 2) * kGrid), cy = std::llround((frame.y + frame.h / 2) * kGrid);
  for (auto [sx, sy] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
    pts.emplace_back(cx + int64_t(sx * far), cy + int64_t(sy * far));
  }
  bp::voronoi_diagram<double> vd;
  bp::construct_voronoi(pts.begin(), pts.end(), &vd);

  BPoly box = Box(frame);
  std::vector<BMulti> parts(seeds.size());
  for (const auto& cell : vd.cells()) {
    size_t i = cell.source_index();
    if (i >= real) continue;
    BPoly poly;
    const auto* e = cell.incident_edge();
    bool finite = true;
    do {
      if (!e->vertex0()) {
        finite = false;
        break;
      }
      poly.outer().push_back(BPoint(e->vertex0()->x() / kGrid, e->vertex0()->y() / kGrid));
      e = e->next();
    } while (e != cell.incident_edge());
    if (!finite || poly.outer().size() < 3) continue;
    poly.outer().push_back(poly.outer().front());
    bg::correct(poly);
    BMulti in_box, near;
    bg::intersection(poly, box, in_box);
    bg::intersection(in_box, Disc(where[i], reach), near);
    BMulti joined;
    bg::union_(parts[owner[i]], near, joined);
    parts[owner[i]] = std::move(joined);
  }
  BMulti area = ToMulti(within);
  std::vector<Shape> out;
  for (const BMulti& m : parts) {
    BMulti cut;
    if (!m.empty()) bg::intersection(m, area, cut);
    out.push_back(FromMulti(cut));
  }
  return out;
}

bool Meet(const Shape& a, const Shape& b, double gap) {
  if (a.empty() || b.empty()) return false;
  auto bounds = [](const Shape& s) {
    double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
    for (const auto& p : s.pieces) {
      for (const Point& q : p.outer) x0 = std::min(x0, q.x), y0 = std::min(y0, q.y), x1 = std::max(x1, q.x), y1 = std::max(y1, q.y);
    }
    return std::array<double, 4>{x0, y0, x1, y1};
  };
  auto ba = bounds(a), bb = bounds(b);
  if (ba[0] > bb[2] + gap || bb[0] > ba[2] + gap || ba[1] > bb[3] + gap || bb[1] > ba[3] + gap) return false;
  return bg::distance(ToMulti(a), ToMulti(b)) <= gap;
}

std::string Num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  std::string s = b;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  if (s == "-0") s = "0";
  return s;
}

std::string PathData(const Shape& s) {
  std::string d;
  auto ring = [&](const Ring& r) {
    for (size_t i = 0; i < r.size(); ++i) d += (i ? "L" : "M") + Num(r[i].x) + " " + Num(r[i].y);
    d += "Z";
  };
  for (const auto& p : s.pieces) {
    ring(p.outer);
    for (const Ring& h : p.holes) ring(h);
  }
  return d;
}

Point Inside(const Shape& s) {
  if (s.pieces.empty()) return {};
  const Shape::Piece* best = &s.pieces[0];
  double best_area = -1;
  for (const auto& p : s.pieces) {
    double a = RingArea(p.outer);
    if (a > best_area) best_area = a, best = &p;
  }
  BPoly poly;
  poly.outer() = ToRing(best->outer);
  for (const Ring& h : best->holes) poly.inners().push_back(ToRing(h));
  bg::correct(poly);
  BPoint c;
  bg::centroid(poly, c);
  // Prefer the point deepest inside among the centroid and a grid over the piece.
  bg::model::box<BPoint> env;
  bg::envelope(poly, env);
  std::vector<BLine> edges;  // the boundary: distance to it is a point's depth
  edges.emplace_back(poly.outer().begin(), poly.outer().end());
  for (const auto& h : poly.inners()) edges.emplace_back(h.begin(), h.end());
  auto deep = [&](const BPoint& q) {
    double d = 1e18;
    for (const BLine& l : edges) d = std::min(d, static_cast<double>(bg::distance(q, l)));
    return d;
  };
  Point pick{c.x(), c.y()};
  double depth = bg::within(c, poly) ? deep(c) : -1;
  constexpr int kSteps = 12;
  double x0 = env.min_corner().x(), y0 = env.min_corner().y();
  double dx = (env.max_corner().x() - x0) / kSteps, dy = (env.max_corner().y() - y0) / kSteps;
  for (int i = 1; i < kSteps; ++i) {
    for (int j = 1; j < kSteps; ++j) {
      BPoint q(x0 + i * dx, y0 + j * dy);
      if (!bg::within(q, poly)) continue;
      double d = deep(q);
      if (d > depth * 1.25) depth = d, pick = {q.x(), q.y()};  // the centroid wins near-ties
    }
  }
  return pick;
}

}  // namespace adjutant::maps
