// An SVG drawing that keeps its promises: every element drawn says what kind
// of thing it is (data-kind) and the legend explains every kind drawn; text
// goes only where no other text or marker is (labels never overlap); and
// nothing is drawn outside the size the drawing declares. tests/reports/
// maps_test.cc holds every bundled map to these.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "maps/geo.h"

namespace adjutant::maps {

struct Box {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool Overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  Box Grown(double by) const { return {x0 - by, y0 - by, x1 + by, y1 + by}; }
};

// A generous estimate of a line of sans-serif text's width (the browser's is
// no wider): digits and capitals 0.72 em, narrow letters 0.34, others 0.6,
// anything beyond ASCII 1 em.
double TextWidth(std::string_view text, double size);
// The box a text drawn at (x, y) — y its baseline — takes; anchor "start",
// "middle" or "end".
Box TextBox(std::string_view text, double x, double y, double size, std::string_view anchor);

std::string Xml(std::string_view s);

class Drawing {
 public:
  // width: the drawing's width; the map is drawn in `frame`, the legend below it.
  Drawing(double width, Rect frame, std::string title);

  const Rect& frame() const { return frame_; }

  // Raw SVG (a shape, a group) of a kind of thing the legend explains.
  void Add(std::string_view kind, std::string svg);
  // Keeps other text off a box (a marker, a badge).
  void Block(Box b) { taken_.push_back(b); }
  bool Free(const Box& b) const;

  // Text beside `at`: centred on it, else at eight places round it at growing
  // distances up to `reach`; tried for each text in turn (a long name, then a
  // short one). Returns false (and draws nothing) where none fits.
  // With a leader colour, a text put well away from its point gets a thin
  // line back to it.
  bool Label(std::string_view kind, const std::vector<std::string>& texts, Point at, double size, double reach,
             std::string_view style, std::string_view leader = "");
  // Text exactly here, if it fits; else nothing.
  bool Text(std::string_view kind, std::string_view text, Point at, double size, std::string_view anchor,
            std::string_view style);

  // A small filled box with text in it (a count), as near `at` as it fits
  // clear of other text and badges: on it, else round it out to `reach`.
  // Returns where it went, or nothing where it fits nowhere.
  std::optional<Box> Badge(std::string_view kind, std::string_view text, Point at, double size, double reach,
                           std::string_view fill, std::string_view text_fill);

  // A scale bar `length` units long with its words ("200 km") after it, its
  // left end at `at` (its baseline), and the legend row for it; nothing where
  // it does not fit.
  bool ScaleBar(Point at, double length, const std::string& words, const std::string& legend);

  // A legend row: the swatch (SVG drawn in a 24 x 14 box at 0,0) and what it means.
  void Legend(std::string_view kind, std::string swatch, std::string words);

  // The whole drawing: the title over the frame, the legend under it.
  std::string Finish();

  // The kinds drawn but not in the legend (Finish refuses to leave any: it adds
  // nothing, so a map drawer must call Legend for each).
  std::set<std::string> Unexplained() const;

 private:
  double width_;
  Rect frame_;
  std::string title_;
  std::string body_;
  std::vector<Box> taken_;
  std::set<std::string> kinds_;
  std::vector<std::tuple<std::string, std::string, std::string>> legend_;
};

}  // namespace adjutant::maps
