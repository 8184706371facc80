// Every bundled map, drawn as a player gets it (issue 21), held to what a
// map promises: every kind of thing drawn is in the legend, no two pieces of
// text overlap, and nothing lies outside the size the drawing declares. The
// text boxes are checked twice: from the drawing's own estimate of text
// widths, and as headless chromium lays the text out with a real font. Each
// drawing is saved, with a PNG, under build/tests/output/maps/ to be looked at.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <cctype>
#include <cstdio>
#include <set>

#include "support/build_paths.h"
#include "cli/commands.h"
#include "ledger/ledger.h"
#include "maps/draw.h"
#include "maps/geo.h"
#include "support/browser.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Adjutant;
using adjutant::testing::Run;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;

struct Drawn {
  std::string name, svg;
};

// A game made from the bundled fixtures, played a turn, and each of its drawings.
std::vector<Drawn> BundledDrawings(TempDir& dir) {
  std::vector<Drawn> out;
  const std::string db = dir.Sub("db");
  auto adj = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    Run r = Adjutant(args);
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    return r;
  };
  auto draw = [&](const std::string& name, std::vector<std::string> args) {
    args.push_back("--svg");
    args.push_back(dir.Sub(name + ".svg"));
    adj(args);
    out.push_back({name, Slurp(dir.Sub(name + ".svg"))});
  };
  // y1820: Europe in 1820, before turn 0 and after it (armies deployed).
  adj({"new", "europe", "--scenario", F + "/y1820/europe-1820.json", "--map", F + "/y1820/europe-1820.map.json",
       "--seed", "1820"});
  draw("y1820-europe-start", {"report", "map", "europe"});
  std::ofstream(dir.Sub("pw")) << "richelieu-1820\n";
  adj({"password", "europe", "--person", "richelieu", "--password-file", dir.Sub("pw")});
  adj({"order", "europe", F + "/orders/europe-1820/t0-FRA.orders.json", "--as", "richelieu", "--password-file",
       dir.Sub("pw")});
  adj({"adjudicate", "europe"});
  draw("y1820-europe-turn0", {"report", "map", "europe"});
  // NWOL: the 1805 scenario on the NWOL waters, after its first turn (the
  // winds set, ships sighted): the British naval minister's positions (every
  // British ship) and a French admiral's (one flagship), as the GA reads them.
  adj({"new", "nwol", "--scenario", F + "/scenarios/nwol-1805.json", "--map", F + "/maps/nwol-waters.json", "--seed",
       "1805"});
  adj({"adjudicate", "nwol"});
  draw("nwol-positions-barham", {"report", "positions", "nwol", "--player", "barham"});
  draw("nwol-positions-villeneuve", {"report", "positions", "nwol", "--player", "villeneuve"});
  // Death or Glory: every bundled battle, before the first move and after it.
  for (const auto& e : std::filesystem::directory_iterator(F + "/dog")) {
    if (e.path().extension() != ".json") continue;
    const std::string game = e.path().stem().string();
    adj({"new", game, "--scenario", e.path().string()});
    draw("dog-" + game + "-start", {"report", "battle", game});
    adj({"adjudicate", game});
    draw("dog-" + game + "-move1", {"report", "battle", game});
  }
  return out;
}

// An attribute's value ("" if none). By hand: std::regex recurses per
// character and overflows the stack on a region's long path data.
std::string AttrS(const std::string& tag, const std::string& name) {
  for (const char* sep : {" ", "\n"}) {
    const std::string key = sep + name + "=\"";
    size_t at = tag.find(key);
    if (at == std::string::npos) continue;
    at += key.size();
    return tag.substr(at, tag.find('"', at) - at);
  }
  return "";
}

double Attr(const std::string& tag, const std::string& name, double fallback = 0) {
  std::string v = AttrS(tag, name);
  return v.empty() ? fallback : std::stod(v);
}

struct Parsed {
  double width = 0, height = 0;
  std::set<std::string> kinds, legend;
  std::vector<std::pair<std::string, maps::Box>> texts;  // as the drawing's estimate has them
  std::vector<std::string> outside;                      // coordinates beyond the declared size
};

std::string Unescape(std::string s) {
  for (auto [from, to] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at)) s.replace(at, strlen(from), to);
  }
  return s;
}

Parsed Parse(const std::string& svg) {
  Parsed p;
  std::vector<std::pair<double, double>> shift{{0, 0}};  // the open <g>s' translations
  std::vector<bool> g_shifts;
  size_t at = 0;
  bool root = true;
  while ((at = svg.find('<', at)) != std::string::npos) {
    size_t end = svg.find('>', at);
    REQUIRE(end != std::string::npos);
    const std::string tag = svg.substr(at, end - at + 1);
    at = end + 1;
    if (tag.rfind("<svg", 0) == 0 && root) {
      root = false;
      p.width = Attr(tag, "width"), p.height = Attr(tag, "height");
      CHECK(AttrS(tag, "viewBox") == "0 0 " + AttrS(tag, "width") + " " + AttrS(tag, "height"));
      continue;
    }
    if (tag.rfind("</g", 0) == 0) {
      if (!g_shifts.empty() && g_shifts.back()) shift.pop_back();
      if (!g_shifts.empty()) g_shifts.pop_back();
      continue;
    }
    std::string kind = AttrS(tag, "data-kind");
    if (!kind.empty()) p.kinds.insert(Unescape(kind));
    std::string legend = AttrS(tag, "data-legend");
    if (!legend.empty()) p.legend.insert(Unescape(legend));
    auto [dx, dy] = shift.back();
    if (tag.rfind("<g", 0) == 0) {
      std::string tr = AttrS(tag, "transform");
      double tx = 0, ty = 0;
      bool shifts = std::sscanf(tr.c_str(), "translate(%lf %lf)", &tx, &ty) == 2;
      if (shifts) shift.push_back({dx + tx, dy + ty});
      if (tag[tag.size() - 2] != '/') g_shifts.push_back(shifts);
      continue;
    }
    auto inside = [&](const std::string& what, double x, double y) {
      if (x < -0.01 || y < -0.01 || x > p.width + 0.01 || y > p.height + 0.01) {
        p.outside.push_back(what + " at " + std::to_string(x) + "," + std::to_string(y));
      }
    };
    if (tag.rfind("<text", 0) == 0) {
      size_t close = svg.find("</text>", at);
      std::string words = Unescape(svg.substr(at, close - at));
      std::string anchor = AttrS(tag, "text-anchor");
      maps::Box b = maps::TextBox(words, Attr(tag, "x") + dx, Attr(tag, "y") + dy, Attr(tag, "font-size", 16),
                                  anchor.empty() ? "start" : anchor);
      p.texts.push_back({words, b});
      inside("text '" + words + "'", b.x0, b.y0);
      inside("text '" + words + "'", b.x1, b.y1);
      continue;
    }
    for (const char* a : {"x", "cx", "x1", "x2"}) {
      if (tag.find(std::string(" ") + a + "=\"") != std::string::npos) inside(tag.substr(0, 40), Attr(tag, a) + dx, dy);
    }
    for (const char* a : {"y", "cy", "y1", "y2"}) {
      if (tag.find(std::string(" ") + a + "=\"") != std::string::npos) inside(tag.substr(0, 40), dx, Attr(tag, a) + dy);
    }
    if (!AttrS(tag, "width").empty() && !AttrS(tag, "x").empty()) {
      inside(tag.substr(0, 40), Attr(tag, "x") + Attr(tag, "width") + dx, Attr(tag, "y") + Attr(tag, "height") + dy);
    }
    std::string d = AttrS(tag, "d");
    if (!d.empty()) {
      // Absolute M/L/H/V paths only (what maps/ writes): every coordinate.
      char cmd = 'M';
      std::vector<double> nums;
      auto flush = [&] {
        if (cmd == 'H') {
          for (double x : nums) inside("path", x + dx, dy);
        } else if (cmd == 'V') {
          for (double y : nums) inside("path", dx, y + dy);
        } else {
          for (size_t k = 0; k + 1 < nums.size(); k += 2) inside("path", nums[k] + dx, nums[k + 1] + dy);
        }
        nums.clear();
      };
      for (size_t k = 0; k < d.size();) {
        char ch = d[k];
        if (std::isalpha(static_cast<unsigned char>(ch))) {
          flush();
          CHECK(std::string("MLHVZ").find(ch) != std::string::npos);
          cmd = ch;
          ++k;
        } else if (ch == ' ' || ch == ',') {
          ++k;
        } else {
          size_t used = 0;
          nums.push_back(std::stod(d.substr(k, 24), &used));
          k += used;
        }
      }
      flush();
    }
  }
  return p;
}

std::vector<std::string> Overlaps(const std::vector<std::pair<std::string, maps::Box>>& texts, double slack) {
  std::vector<std::string> out;
  for (size_t i = 0; i < texts.size(); ++i) {
    for (size_t j = i + 1; j < texts.size(); ++j) {
      if (texts[i].second.Grown(-slack).Overlaps(texts[j].second.Grown(-slack))) {
        out.push_back("'" + texts[i].first + "' and '" + texts[j].first + "'");
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("every bundled map: every kind drawn is in the legend, no two texts overlap, all within its size",
          "[maps]") {
  TempDir dir;
  const std::vector<Drawn> drawn = BundledDrawings(dir);
  const std::string saved = testing::TestOutputDir("maps");
  // Every drawing checked in the one run (not a section each: Catch2 runs
  // the test case again for each section, and every run drew every map).
  REQUIRE(drawn.size() >= 8);
  for (const Drawn& d : drawn) {
    INFO("map " << d.name);
    std::ofstream(saved + "/" + d.name + ".svg") << d.svg;
    Parsed p = Parse(d.svg);
    CHECK(p.width > 0);
    CHECK(p.height > 0);
    CHECK_FALSE(p.legend.empty());
    for (const std::string& k : p.kinds) {
      INFO("drawn but not in the legend: " << k);
      CHECK(p.legend.count(k) == 1);
    }
    CHECK(p.texts.size() > 20);
    auto over = Overlaps(p.texts, 0);
    for (const auto& o : over) UNSCOPED_INFO(o);
    CHECK(over.empty());
    for (const auto& o : p.outside) UNSCOPED_INFO(o);
    CHECK(p.outside.empty());
  }
}

// The map drawings keep each map's geography after drawing it once (the
// naval map's sea areas, coast and ports: reports/pate_map.cc; the y1820 map's
// provinces, sea zones, borders amiss and crossings: reports/y1820_map.cc): a
// process that draws for two games on different maps (the order desk) must
// draw each as a fresh process would. For each kind of game with a map drawn
// on the earth, the bundled map and a copy with one point moved.
TEST_CASE("a map's geography is kept per map: one process drawing two games on different maps draws each as a "
          "fresh process does",
          "[maps]") {
  struct Drawn {
    std::string kind, map, point, moved_to;
    std::vector<std::string> create, play, draw;
  };
  const std::vector<Drawn> kinds = {
      {"nwol", F + "/maps/nwol-waters.json", "\"lon\": 0.0, \"lat\": 64.0, \"seeds\"",  // the Norwegian Sea
       "\"lon\": 2.0, \"lat\": 65.0, \"seeds\"",
       {"new", "g", "--scenario", F + "/scenarios/nwol-1805.json", "--seed", "1805", "--map"},
       {"adjudicate", "g"},
       {"report", "positions", "g", "--player", "barham", "--svg", "-"}},
      {"y1820", F + "/y1820/europe-1820.map.json", "\"lon\": -4.6, \"lat\": 57.3}",  // the Highlands
       "\"lon\": -3.9, \"lat\": 57.0}",
       {"new", "g", "--scenario", F + "/y1820/europe-1820.json", "--seed", "1820", "--map"},
       {"stats", "g"},
       {"report", "map", "g", "--svg", "-"}},
  };
  for (const Drawn& k : kinds) {
    INFO("kind " << k.kind);
    TempDir dir;
    std::string moved = Slurp(k.map);
    const size_t at = moved.find(k.point);
    REQUIRE(at != std::string::npos);
    REQUIRE(moved.find(k.point, at + 1) == std::string::npos);
    moved.replace(at, k.point.size(), k.moved_to);
    std::ofstream(dir.Sub("moved.json")) << moved;
    const std::string maps[] = {k.map, dir.Sub("moved.json")};
    std::string fresh[2];
    for (int i = 0; i < 2; ++i) {
      const std::string db = dir.Sub("db" + std::to_string(i));
      std::vector<std::string> create = k.create;
      create.push_back(maps[i]);
      for (const std::vector<std::string>& args : {create, k.play, k.draw}) {
        std::vector<std::string> a{"--db", db};
        a.insert(a.end(), args.begin(), args.end());
        Run r = Adjutant(a);
        INFO(r.out << r.err);
        REQUIRE(r.code == 0);
        fresh[i] = r.out;
      }
    }
    REQUIRE(fresh[0].find("<svg") != std::string::npos);
    REQUIRE(fresh[0] != fresh[1]);  // the point moved moves the regions
    // In this one process: the first map, the second, the first again, the second again.
    for (int i : {0, 1, 0, 1}) {
      INFO("map " << maps[i]);
      auto l = ledger::Ledger::Open(dir.Sub("db" + std::to_string(i)));
      REQUIRE(l.ok());
      std::string out, err;
      REQUIRE(cli::RunShared(**l, k.draw, &out, &err) == 0);
      CHECK(out == fresh[i]);
    }
  }
}

TEST_CASE("every bundled map in a real browser: no two texts overlap as chromium lays them out", "[maps][browser]") {
  if (testing::Chromium().empty()) FAIL("chromium is not installed (scripts/test.sh installs it)");
  TempDir dir;
  const std::vector<Drawn> drawn = BundledDrawings(dir);
  const std::string saved = testing::TestOutputDir("maps");
  // Chromium's singleton socket and shared memory go to $TMPDIR, which the
  // Browser points into its profile: nothing of it may be left in /tmp.
  const auto chromium_in_tmp = [] {
    std::set<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
      if (e.path().filename().string().starts_with("org.chromium.")) names.insert(e.path().filename().string());
    return names;
  };
  const std::set<std::string> before = chromium_in_tmp();
  {
    testing::Browser b(dir.Sub("profile"));
    for (const Drawn& d : drawn) {
      const std::string file = dir.Sub(d.name + ".svg");
      std::ofstream(file) << d.svg;
      b.Viewport(1300, 1100, false);
      b.Open("file://" + file);
      b.Screenshot(saved + "/" + d.name + ".png");
      // Every text's box as laid out, then every pair that meets (0.5 px of
      // antialiasing allowed).
      std::string found = b.Eval(R"(
        (() => {
          const t = [...document.querySelectorAll('text')].map(e => [e.textContent, e.getBoundingClientRect()]);
          const out = [];
          for (let i = 0; i < t.length; ++i) for (let j = i + 1; j < t.length; ++j) {
            const a = t[i][1], b = t[j][1];
            if (a.width === 0 || b.width === 0) continue;
            if (a.left + 0.5 < b.right && b.left + 0.5 < a.right && a.top + 0.5 < b.bottom && b.top + 0.5 < a.bottom)
              out.push(t[i][0] + ' / ' + t[j][0]);
          }
          return t.length + ':' + out.join('; ');
        })())");
      INFO(d.name << ": " << found);
      REQUIRE(found.find(':') != std::string::npos);
      CHECK(std::stoi(found.substr(1)) > 20);             // the texts were there to measure
      CHECK(found.substr(found.find(':') + 1) == "\"");  // and no pair met
    }
  }
  std::vector<std::string> left;
  for (const std::string& n : chromium_in_tmp())
    if (!before.contains(n)) left.push_back(n);
  INFO("left in " << std::filesystem::temp_directory_path().string() << ": " << (left.empty() ? "" : left.front()));
  CHECK(left.empty());
}
