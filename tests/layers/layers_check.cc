// The include graph against the layers docs/ARCHITECTURE.md names (ctest
// include_layers). The table is the ```layers block of that document, the one
// place it is written:
//
//   LEVEL  PATH  [!PATH ...]   PATH: a folder ("rules/pate/") or one file ("rules/kinds.cc")
//
// A source file belongs to the row whose PATH matches it longest. Each of its
// #include "..." must resolve to a file of the same row or of a lower level;
// anything else (an include up or sideways) is reported as file:line. A
// "!PATH" after a row's path forbids that target to the row and to every row
// under its folder, whatever the levels ("rules/ !ledger/": no rule reads the
// store). A
// folder of the repository with C++ sources in no row, or an include that
// resolves to no row, fails too, so nothing escapes the table by being new.
//
//   layers_check REPO_ROOT ARCHITECTURE.md
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Row {
  int level = 0;
  std::string path;  // "rules/pate/" (a folder) or "rules/kinds.cc" (a file)
  std::vector<std::string> forbid;  // "!ledger/": never included from here or below
  int line = 0;      // in ARCHITECTURE.md
};

bool IsSource(const fs::path& p) {
  const auto e = p.extension().string();
  return e == ".h" || e == ".hh" || e == ".hpp" || e == ".cc" || e == ".cpp" || e == ".inc";
}

// The row a repository-relative path belongs to: the longest PATH that is
// the file itself or a folder holding it.
const Row* RowOf(const std::vector<Row>& rows, const std::string& rel) {
  const Row* best = nullptr;
  for (const auto& r : rows) {
    const bool folder = !r.path.empty() && r.path.back() == '/';
    const bool match = folder ? rel.rfind(r.path, 0) == 0 : rel == r.path;
    if (match && (!best || r.path.size() > best->path.size())) best = &r;
  }
  return best;
}

std::string Rel(const fs::path& root, const fs::path& p) {
  return fs::relative(fs::weakly_canonical(p), root).generic_string();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: layers_check REPO_ROOT docs/ARCHITECTURE.md\n";
    return 2;
  }
  const fs::path root = fs::weakly_canonical(argv[1]);
  const std::string doc = argv[2];
  std::ifstream in(doc);
  if (!in) {
    std::cerr << doc << ": cannot read\n";
    return 2;
  }

  // ---- the table --------------------------------------------------------------
  std::vector<Row> rows;
  std::string line;
  int n = 0;
  bool inside = false, seen = false;
  while (std::getline(in, line)) {
    ++n;
    if (!inside) {
      if (line.rfind("```layers", 0) == 0) inside = seen = true;
      continue;
    }
    if (line.rfind("```", 0) == 0) {
      inside = false;
      continue;
    }
    const auto hash = line.find('#');
    std::istringstream l(line.substr(0, hash));
    Row r;
    r.line = n;
    if (!(l >> r.level)) {
      std::string rest;
      std::istringstream t(line.substr(0, hash));
      if (t >> rest) {
        std::cerr << doc << ":" << n << ": a layers row is LEVEL PATH, not '" << line << "'\n";
        return 2;
      }
      continue;  // blank or comment
    }
    if (!(l >> r.path) || r.path[0] == '!') {
      std::cerr << doc << ":" << n << ": a layers row needs a PATH after its level\n";
      return 2;
    }
    for (std::string f; l >> f;) {
      if (f.size() < 2 || f[0] != '!') {
        std::cerr << doc << ":" << n << ": after a row's path only !PATH (a forbidden target), not '" << f << "'\n";
        return 2;
      }
      r.forbid.push_back(f.substr(1));
    }
    for (const auto& o : rows) {
      if (o.path == r.path) {
        std::cerr << doc << ":" << n << ": " << r.path << " is listed twice (also line " << o.line << ")\n";
        return 2;
      }
    }
    rows.push_back(r);
  }
  if (!seen || rows.empty()) {
    std::cerr << doc << ": no ```layers block (LEVEL PATH rows) found\n";
    return 2;
  }

  // ---- every source file of the repository's own folders -----------------------
  std::vector<std::string> problems;
  std::vector<fs::path> files;
  for (const auto& top : fs::directory_iterator(root)) {
    if (!top.is_directory()) continue;
    const std::string name = top.path().filename().string();
    if (name.empty() || name[0] == '.' || name.rfind("build", 0) == 0 || name == "fixtures" || name == "docs" ||
        name == "adjutant-data") {
      continue;
    }
    for (auto it = fs::recursive_directory_iterator(top.path()); it != fs::recursive_directory_iterator(); ++it) {
      if (it->is_directory() && it->path().filename().string().rfind("build", 0) == 0) {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file() && IsSource(it->path())) files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());

  static const std::regex include(R"(^\s*#\s*include\s*"([^"]+)\")");
  size_t checked = 0;
  std::set<std::string> unplaced_folders;
  for (const auto& f : files) {
    const std::string rel = Rel(root, f);
    const Row* from = RowOf(rows, rel);
    if (!from) {
      unplaced_folders.insert(fs::path(rel).parent_path().generic_string() + "/");
      continue;
    }
    std::ifstream src(f);
    int ln = 0;
    bool in_block_comment = false;
    while (std::getline(src, line)) {
      ++ln;
      // Lines inside /* ... */ are not includes (a comment may show one).
      if (in_block_comment) {
        if (line.find("*/") != std::string::npos) in_block_comment = false;
        continue;
      }
      if (line.find("/*") != std::string::npos && line.find("*/") == std::string::npos &&
          line.find("#include") == std::string::npos) {
        in_block_comment = true;
        continue;
      }
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      const std::string inc = m[1];
      // Resolved as the build does: the repository's root, the including
      // file's folder, tests/ (the tests' include folder); a header that is
      // not in the tree (flatc's *_generated.h) by its path as written.
      std::optional<std::string> target;
      for (const fs::path& base : {root, f.parent_path(), root / "tests"}) {
        if (fs::exists(base / inc)) {
          target = Rel(root, base / inc);
          break;
        }
      }
      if (!target) target = fs::path(inc).lexically_normal().generic_string();
      const Row* to = RowOf(rows, *target);
      ++checked;
      if (!to) {
        problems.push_back(rel + ":" + std::to_string(ln) + ": includes \"" + inc + "\" (" + *target +
                           "), which is in no layer of docs/ARCHITECTURE.md");
        continue;
      }
      // A target forbidden to this row or to a folder above it.
      std::string forbidden_by;
      for (const auto& r : rows) {
        const bool above = r.path.back() == '/' ? from->path.rfind(r.path, 0) == 0 : from->path == r.path;
        if (!above) continue;
        for (const auto& f : r.forbid) {
          if (to->path.rfind(f, 0) == 0) forbidden_by = r.path + " !" + f;
        }
      }
      if (!forbidden_by.empty()) {
        problems.push_back(rel + ":" + std::to_string(ln) + ": includes \"" + inc + "\": " + to->path +
                           " is forbidden to " + from->path + " (docs/ARCHITECTURE.md, \"Layers\": " + forbidden_by +
                           ")");
        continue;
      }
      if (to == from || to->level < from->level) continue;
      problems.push_back(rel + ":" + std::to_string(ln) + ": includes \"" + inc + "\": " + to->path + " (layer " +
                         std::to_string(to->level) + ") is " + (to->level == from->level ? "beside" : "above") +
                         " " + from->path + " (layer " + std::to_string(from->level) +
                         "); includes go down the layers only (docs/ARCHITECTURE.md, \"Layers\")");
    }
  }
  for (const auto& d : unplaced_folders) {
    problems.push_back(d + ": C++ sources in no layer of docs/ARCHITECTURE.md (add a row for the folder)");
  }
  for (const auto& p : problems) std::cout << p << "\n";
  if (!problems.empty()) {
    std::cout << problems.size() << " include(s) against the layers\n";
    return 1;
  }
  std::cout << checked << " includes in " << files.size() << " files, all down the layers of " << rows.size()
            << " rows\n";
  return 0;
}
