// The drawn maps' geometry: where a place on the earth lands on the page
// (an equal-area projection fitted to the places drawn), the land outlines
// compiled into the program (fixtures/geography/land.json: Natural Earth),
// and regions cut from them — the Voronoi cells of a map's seed points
// (Boost.Polygon), joined and clipped to land or water (Boost.Geometry).
// Presentation only: nothing here reaches an event. Boost stays in geo.cc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace adjutant::maps {

struct LonLat {
  double lon = 0, lat = 0;  // degrees, east and north positive
};

struct Point {
  double x = 0, y = 0;  // drawing units, y down
};

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
  double right() const { return x + w; }
  double bottom() const { return y + h; }
  bool Contains(Point p) const { return p.x >= x && p.x <= right() && p.y >= y && p.y <= bottom(); }
};

using Ring = std::vector<Point>;  // closed implicitly: the last point does not repeat the first

// One or more pieces, each an outline and the holes inside it.
struct Shape {
  struct Piece {
    Ring outer;
    std::vector<Ring> holes;
  };
  std::vector<Piece> pieces;
  bool empty() const { return pieces.empty(); }
  double Area() const;
};

// Lambert azimuthal equal-area, centred on the middle of the places given and
// scaled so that they, with a margin, fill the frame (north up).
class Projection {
 public:
  static Projection Fit(const std::vector<LonLat>& places, double margin_deg, Rect frame);
  Point operator()(LonLat p) const;
  // Kilometres on the ground for one drawing unit, at the centre.
  double km_per_unit() const { return km_per_unit_; }

 private:
  double lon0_ = 0, lat0_ = 0;  // radians
  double scale_ = 1, dx_ = 0, dy_ = 0;
  double km_per_unit_ = 1;
  Point Raw(LonLat p) const;  // on the unit sphere's plane
};

// The land outlines, projected and cut to the frame. Loaded once from the
// embedded file; a damaged build (outlines that do not verify) throws.
Shape Land(const Projection& proj, Rect frame);
// The frame less the land: the water. Lakes inside the land stay land.
Shape Water(const Shape& land, Rect frame);

// One region per entry of seeds: the union of the Voronoi cells of its points
// (among every region's points), cut to `within` and to discs of radius
// `reach` around its points (so that land far from every seed is nobody's).
// Regions are disjoint. A region whose points are all elsewhere comes back empty.
std::vector<Shape> Regions(const std::vector<std::vector<Point>>& seeds, const Shape& within, Rect frame, double reach);

// Whether two shapes meet: they touch or overlap, or come within `gap`.
bool Meet(const Shape& a, const Shape& b, double gap);

// The SVG path data of a shape (even-odd fill draws the holes).
std::string PathData(const Shape& s);
// A point well inside the shape's largest piece (its centroid if inside, else
// the piece's point farthest from its edge among a grid), for a label or badge.
Point Inside(const Shape& s);

// A number for SVG: at most one decimal, no trailing zeros.
std::string Num(double v);

}  // namespace adjutant::maps
