#include "maps/draw.h"

#include <algorithm>
#include <cmath>

namespace adjutant::maps {

double TextWidth(std::string_view text, double size) {
  double em = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte: counted with its lead
    if (c >= 0x80) {
      em += 1.0;  // a letter or sign beyond ASCII (è, ■): counted wide
    } else if (c >= '0' && c <= '9') {
      em += 0.72;
    } else if (c >= 'A' && c <= 'Z') {
      em += (c == 'M' || c == 'W') ? 0.95 : (c == 'I' ? 0.34 : 0.74);
    } else if (std::string_view("ijlft.,:;'!|() ").find(static_cast<char>(c)) != std::string_view::npos) {
      em += 0.34;
    } else if (c == 'm' || c == 'w') {
      em += 0.9;
    } else {
      em += 0.6;
    }
  }
  return em * size;
}

Box TextBox(std::string_view text, double x, double y, double size, std::string_view anchor) {
  double w = TextWidth(text, size);
  double x0 = anchor == "middle" ? x - w / 2 : anchor == "end" ? x - w : x;
  return {x0, y - 0.95 * size, x0 + w, y + 0.3 * size};
}

std::string Xml(std::string_view s) {
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

Drawing::Drawing(double width, Rect frame, std::string title) : width_(width), frame_(frame), title_(std::move(title)) {
  taken_.push_back(TextBox(title_, 8, 20, 15, "start"));
}

void Drawing::Add(std::string_view kind, std::string svg) {
  kinds_.insert(std::string(kind));
  body_ += std::move(svg);
  body_ += '\n';
}

bool Drawing::Free(const Box& b) const {
  if (b.x0 < frame_.x || b.y0 < frame_.y || b.x1 > frame_.right() || b.y1 > frame_.bottom()) return false;
  for (const Box& t : taken_) {
    if (t.Overlaps(b)) return false;
  }
  return true;
}

bool Drawing::Text(std::string_view kind, std::string_view text, Point at, double size, std::string_view anchor,
                   std::string_view style) {
  Box b = TextBox(text, at.x, at.y, size, anchor);
  if (!Free(b)) return false;
  taken_.push_back(b);
  Add(kind, "<text x=\"" + Num(at.x) + "\" y=\"" + Num(at.y) + "\" font-size=\"" + Num(size) + "\" text-anchor=\"" +
                std::string(anchor) + "\" data-kind=\"" + Xml(kind) + "\" " + std::string(style) + ">" + Xml(text) +
                "</text>");
  return true;
}

bool Drawing::Label(std::string_view kind, const std::vector<std::string>& texts, Point at, double size, double reach,
                    std::string_view style, std::string_view leader) {
  for (const std::string& t : texts) {
    if (Text(kind, t, {at.x, at.y + 0.35 * size}, size, "middle", style)) return true;
    for (double r = 0.8 * size; r <= reach; r += 0.7 * size) {
      const double d = r * 0.7071;
      struct Try {
        double x, y;
        const char* anchor;
      };
      const Try tries[] = {
          {at.x + r, at.y + 0.35 * size, "start"},  {at.x - r, at.y + 0.35 * size, "end"},
          {at.x, at.y - r, "middle"},               {at.x, at.y + r + 0.7 * size, "middle"},
          {at.x + d, at.y - d, "start"},            {at.x - d, at.y - d, "end"},
          {at.x + d, at.y + d + 0.7 * size, "start"}, {at.x - d, at.y + d + 0.7 * size, "end"},
      };
      for (const Try& y : tries) {
        if (!Text(kind, t, {y.x, y.y}, size, y.anchor, style)) continue;
        if (!leader.empty() && r >= 1.5 * size) {
          const Box& b = taken_.back();
          Point to{std::clamp(at.x, b.x0, b.x1), std::clamp(at.y, b.y0 + 0.2 * size, b.y1 - 0.2 * size)};
          Add(kind, "<line x1=\"" + Num(at.x) + "\" y1=\"" + Num(at.y) + "\" x2=\"" + Num(to.x) + "\" y2=\"" + Num(to.y) +
                        "\" stroke=\"" + std::string(leader) + "\" stroke-width=\"0.7\" stroke-opacity=\"0.7\" data-kind=\"" +
                        Xml(kind) + "\"/>");
        }
        return true;
      }
    }
  }
  return false;
}

std::optional<Box> Drawing::Badge(std::string_view kind, std::string_view text, Point at, double size, double reach,
                                  std::string_view fill, std::string_view text_fill) {
  const double w = TextWidth(text, size) + 4, h = 1.35 * size;
  auto at_box = [&](double cx, double cy) { return Box{cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2}; };
  std::vector<Point> tries{at};
  for (double r = h; r <= reach; r += h * 0.75) {
    for (int k = 0; k < 8; ++k) {
      double a = k * 3.14159265358979 / 4;
      tries.push_back({at.x + r * std::cos(a), at.y - r * std::sin(a)});
    }
  }
  for (const Point& c : tries) {
    Box b = at_box(c.x, c.y);
    if (!Free(b.Grown(1))) continue;
    taken_.push_back(b.Grown(1));
    Add(kind, "<g data-kind=\"" + Xml(kind) + "\"><rect x=\"" + Num(b.x0) + "\" y=\"" + Num(b.y0) + "\" width=\"" + Num(w) +
                  "\" height=\"" + Num(h) + "\" rx=\"2\" fill=\"" + std::string(fill) + "\"/><text x=\"" + Num(c.x) +
                  "\" y=\"" + Num(c.y + 0.36 * size) + "\" font-size=\"" + Num(size) + "\" text-anchor=\"middle\" fill=\"" +
                  std::string(text_fill) + "\">" + Xml(text) + "</text></g>");
    return b;
  }
  return std::nullopt;
}

bool Drawing::ScaleBar(Point at, double length, const std::string& words, const std::string& legend) {
  Box box{at.x - 2, at.y - 14, at.x + length + 4 + TextWidth(words, 10), at.y + 4};
  if (!Free(box)) return false;
  taken_.push_back(box);
  Add("scale", "<g data-kind=\"scale\"><path d=\"M" + Num(at.x) + " " + Num(at.y - 4) + "V" + Num(at.y) + "H" +
                   Num(at.x + length) + "V" + Num(at.y - 4) +
                   "\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/><text x=\"" + Num(at.x + length + 4) +
                   "\" y=\"" + Num(at.y) + "\" font-size=\"10\">" + Xml(words) + "</text></g>");
  Legend("scale", "<path d=\"M2 3V8H22V3\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>", legend);
  return true;
}

void Drawing::Legend(std::string_view kind, std::string swatch, std::string words) {
  for (const auto& [k, s, w] : legend_) {
    if (k == kind) return;
  }
  legend_.emplace_back(std::string(kind), std::move(swatch), std::move(words));
}

std::set<std::string> Drawing::Unexplained() const {
  std::set<std::string> out = kinds_;
  for (const auto& [k, s, w] : legend_) out.erase(k);
  return out;
}

std::string Drawing::Finish() {
  // The legend: rows of swatch and words under the frame.
  std::string legend;
  constexpr double kSize = 11, kRow = 20, kSwatch = 24;
  double x = 8, y = frame_.bottom() + 10;
  for (const auto& [kind, swatch, words] : legend_) {
    double w = kSwatch + 6 + TextWidth(words, kSize) + 16;
    if (x > 8 && x + w > width_ - 8) x = 8, y += kRow;
    legend += "<g data-legend=\"" + Xml(kind) + "\" transform=\"translate(" + Num(x) + " " + Num(y) + ")\">" + swatch +
              "<text x=\"" + Num(kSwatch + 6) + "\" y=\"11\" font-size=\"" + Num(kSize) + "\">" + Xml(words) +
              "</text></g>\n";
    x += w;
  }
  double height = y + kRow + 6;
  std::string o = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(width_) + "\" height=\"" + Num(height) +
                  "\" viewBox=\"0 0 " + Num(width_) + " " + Num(height) +
                  "\" font-family=\"sans-serif\" role=\"img\" aria-label=\"" + Xml(title_) + "\">\n";
  o += "<title>" + Xml(title_) + "</title>\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  o += "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">" + Xml(title_) + "</text>\n";
  o += "<svg x=\"" + Num(frame_.x) + "\" y=\"" + Num(frame_.y) + "\" width=\"" + Num(frame_.w) + "\" height=\"" +
       Num(frame_.h) + "\" viewBox=\"" + Num(frame_.x) + " " + Num(frame_.y) + " " + Num(frame_.w) + " " + Num(frame_.h) +
       "\" overflow=\"hidden\">\n";
  o += body_;
  o += "</svg>\n";
  o += "<rect x=\"" + Num(frame_.x) + "\" y=\"" + Num(frame_.y) + "\" width=\"" + Num(frame_.w) + "\" height=\"" +
       Num(frame_.h) + "\" fill=\"none\" stroke=\"#555\"/>\n";
  o += legend;
  o += "</svg>\n";
  return o;
}

}  // namespace adjutant::maps
