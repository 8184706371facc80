#include "support/rules_md.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace adjutant::testing {
namespace fs = std::filesystem;

namespace {

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A C++ string literal's text from just after its opening quote; POS is left
// after the closing quote.
std::string Literal(const std::string& t, size_t& pos) {
  std::string out;
  while (pos < t.size() && t[pos] != '"') {
    if (t[pos] == '\\' && pos + 1 < t.size()) {
      out += t[pos + 1];
      pos += 2;
    } else {
      out += t[pos++];
    }
  }
  if (pos < t.size()) ++pos;
  return out;
}

// The cells of a table row ("| a | b |"), splitting at | but not at \|.
std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cur;
  std::string s = Trim(line);
  if (!s.empty() && s.front() == '|') s.erase(0, 1);
  if (!s.empty() && s.back() == '|' && !(s.size() > 1 && s[s.size() - 2] == '\\')) s.pop_back();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '|') {
      cur += '|';
      ++i;
    } else if (s[i] == '|') {
      cells.push_back(Trim(cur));
      cur.clear();
    } else {
      cur += s[i];
    }
  }
  cells.push_back(Trim(cur));
  return cells;
}

bool IsSeparator(const std::vector<std::string>& cells) {
  for (const auto& c : cells)
    if (c.find_first_not_of("-: ") != std::string::npos || c.empty()) return false;
  return true;
}

// A rule as a row names it: a prefix ("PATE ", "SOW ", "Y", "D", "RACE ")
// and its number ("7.4", "10").
struct RuleId {
  std::string prefix;
  std::string number;
};

std::string DefaultPrefix(const std::string& ruleset) {
  if (ruleset == "sow") return "SOW ";
  if (ruleset == "pate") return "PATE ";
  if (ruleset == "y1820") return "Y";
  if (ruleset == "dog") return "D";
  if (ruleset == "race") return "RACE ";
  return "";
}

// The rules a row's rule cell names: "7.1–7.8" and "D5.1-D5.7" are ranges,
// "SOW 2.1, 4.1, 6.1" a list; words and parentheses are skipped.
std::vector<RuleId> RuleIdsOf(const std::string& cell, const std::string& ruleset) {
  std::vector<RuleId> ids;
  static const std::regex tok(R"((SOW |PATE |RACE |DESIGN inv\. |\bY|\bD)?(\d+(?:\.\d+)*)(?:\s*(?:–|-)\s*(?:SOW |PATE |Y|D)?(\d+(?:\.\d+)*))?)");
  std::string prefix_seen;
  for (auto it = std::sregex_iterator(cell.begin(), cell.end(), tok); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    std::string prefix = m[1].matched ? m[1].str() : "";
    if (!prefix.empty()) prefix_seen = prefix;
    if (prefix.empty()) prefix = prefix_seen.empty() ? DefaultPrefix(ruleset) : prefix_seen;
    std::string a = m[2].str();
    ids.push_back({prefix, a});
    if (m[3].matched) {
      std::string b = m[3].str();
      auto da = a.rfind('.'), db = b.rfind('.');
      if (da != std::string::npos && db != std::string::npos && a.substr(0, da) == b.substr(0, db)) {
        int from = std::stoi(a.substr(da + 1)), to = std::stoi(b.substr(db + 1));
        for (int k = from + 1; k <= to && k - from < 100; ++k)
          ids.push_back({prefix, a.substr(0, da + 1) + std::to_string(k)});
      } else {
        ids.push_back({prefix, b});
      }
    }
  }
  return ids;
}

bool NumberEndsAt(const std::string& t, size_t end) {
  if (end >= t.size()) return true;
  if (std::isdigit(static_cast<unsigned char>(t[end]))) return false;
  if (t[end] == '.' && end + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[end + 1]))) return false;
  return true;
}

// Whether TEXT names the rule: "PATE 9", "D13", "Y0" for a number without a
// dot; a dotted number ("7.4", "12.4") on its own, with or without a prefix.
bool Mentions(const std::string& text, const RuleId& id) {
  const bool dotted = id.number.find('.') != std::string::npos;
  std::vector<std::string> forms{id.prefix + id.number};
  if (dotted) forms.push_back(id.number);
  for (const auto& f : forms) {
    for (size_t p = text.find(f); p != std::string::npos; p = text.find(f, p + 1)) {
      char before = p == 0 ? ' ' : text[p - 1];
      bool bare = f == id.number;
      if (std::isdigit(static_cast<unsigned char>(before)) || before == '.') continue;
      if (!bare && std::isalnum(static_cast<unsigned char>(before))) continue;
      // A chapter ("PATE 9", "D1") is also named by its rules ("D1.4").
      size_t end = p + f.size();
      if (NumberEndsAt(text, end) || (!dotted && text[end] == '.')) return true;
    }
  }
  return false;
}

// A range in the text ("D5.1-D5.7", "Y6.1-Y6.3", "5.4-5.6") names every rule in it.
bool InRange(const std::string& text, const RuleId& id) {
  auto dot = id.number.rfind('.');
  if (dot == std::string::npos) return false;
  static const std::regex range(R"((\d+)\.(\d+)\s*(?:-|–)\s*[A-Z]*\s*(\d+)\.(\d+))");
  const std::string chapter = id.number.substr(0, dot);
  const int k = std::stoi(id.number.substr(dot + 1));
  for (auto it = std::sregex_iterator(text.begin(), text.end(), range); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    size_t at = static_cast<size_t>(m.position(0));
    if (at > 0 && (std::isdigit(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '.')) continue;
    if (m[1].str() != chapter || m[3].str() != chapter) continue;
    if (std::stoi(m[2].str()) <= k && k <= std::stoi(m[4].str())) return true;
  }
  return false;
}

// A test named for a chapter with its prefix ("Y13", "PATE 9") covers its rules.
bool ChapterNamed(const std::string& text, const RuleId& id) {
  auto dot = id.number.find('.');
  if (dot == std::string::npos || id.prefix.empty()) return false;
  return Mentions(text, {id.prefix, id.number.substr(0, dot)}) &&
         [&] {
           const std::string f = id.prefix + id.number.substr(0, dot);
           for (size_t p = text.find(f); p != std::string::npos; p = text.find(f, p + 1)) {
             size_t end = p + f.size();
             bool sub = end < text.size() && text[end] == '.' && end + 1 < text.size() &&
                        std::isdigit(static_cast<unsigned char>(text[end + 1]));
             if (!sub && NumberEndsAt(text, end) && (p == 0 || !std::isalnum(static_cast<unsigned char>(text[p - 1]))))
               return true;
           }
           return false;
         }();
}

bool MentionsAny(const std::string& text, const std::vector<RuleId>& ids) {
  return std::any_of(ids.begin(), ids.end(),
                     [&](const RuleId& id) { return Mentions(text, id) || InRange(text, id) || ChapterNamed(text, id); });
}

std::string IdsText(const std::vector<RuleId>& ids) {
  std::string s;
  for (const auto& id : ids) s += (s.empty() ? "" : ", ") + id.prefix + id.number;
  return s;
}

// The fragments a quoted name is made of: "… frigates sense more" leaves the
// start out; every fragment must be in the test's name, in order.
std::vector<std::string> Fragments(const std::string& quoted) {
  std::vector<std::string> out;
  std::string s = quoted;
  for (const std::string ell : {"…", "..."}) {
    for (size_t p = s.find(ell); p != std::string::npos; p = s.find(ell)) s.replace(p, ell.size(), "\x01");
  }
  std::string cur;
  for (char c : s) {
    if (c == '\x01') {
      if (!Trim(cur).empty()) out.push_back(Trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!Trim(cur).empty()) out.push_back(Trim(cur));
  return out;
}

bool NameHas(const std::string& name, const std::vector<std::string>& fragments) {
  size_t at = 0;
  for (const auto& f : fragments) {
    size_t p = name.find(f, at);
    if (p == std::string::npos) return false;
    at = p + f.size();
  }
  return !fragments.empty();
}

// A cited test file ("formulas_test", "cli/report_dog_test",
// "tests/rules/dog/battle_test.cc") as a path relative to tests/; "" when
// there is none. A bare stem prefers tests/rules/RULESET/.
std::string ResolveTestFile(const TestIndex& idx, std::string cited, const std::string& ruleset) {
  if (cited.rfind("tests/", 0) == 0) cited.erase(0, 6);
  if (cited.size() < 3 || cited.substr(cited.size() - 3) != ".cc") cited += ".cc";
  if (cited.find('/') != std::string::npos) return idx.files.count(cited) ? cited : "";
  std::string found;
  for (const auto& [path, text] : idx.files) {
    if (path == cited || (path.size() > cited.size() && path.substr(path.size() - cited.size() - 1) == "/" + cited)) {
      if (path == "rules/" + ruleset + "/" + cited) return path;
      if (found.empty()) found = path;
    }
  }
  return found;
}

struct Table {
  std::vector<std::string> header;
  struct Row {
    int line;
    std::vector<std::string> cells;
  };
  std::vector<Row> rows;
};

std::vector<Table> Tables(std::string_view text) {
  std::vector<Table> tables;
  std::istringstream in{std::string(text)};
  std::string line;
  int n = 0;
  bool in_table = false;
  std::string prev;
  int prev_n = 0;
  while (std::getline(in, line)) {
    ++n;
    std::string t = Trim(line);
    bool row = !t.empty() && t.front() == '|';
    if (!row) {
      in_table = false;
      prev = t;
      continue;
    }
    auto cells = Cells(t);
    if (!in_table) {
      if (IsSeparator(cells) && !prev.empty() && prev.front() == '|') {
        tables.push_back({});
        tables.back().header = Cells(prev);
        for (auto& h : tables.back().header) h = Lower(h);
        in_table = true;
      }
      prev = t;
      prev_n = n;
      continue;
    }
    tables.back().rows.push_back({n, cells});
  }
  (void)prev_n;
  return tables;
}

int Column(const Table& t, std::initializer_list<const char*> names) {
  for (size_t i = 0; i < t.header.size(); ++i)
    for (const char* name : names)
      if (t.header[i] == name) return static_cast<int>(i);
  return -1;
}

bool IsDecisionsTable(const Table& t) {
  return t.header.size() == 3 && t.header[0] == "rule" && t.header[1] == "what the engine decided" &&
         t.header[2] == "where";
}

// The text of a cell with its quoted parts taken out.
std::string Unquoted(const std::string& s) {
  std::string out;
  bool q = false;
  for (char c : s) {
    if (c == '"') {
      q = !q;
      continue;
    }
    if (!q) out += c;
  }
  return out;
}

}  // namespace

// The words that mark a decision of the engine's: where the book is silent
// (ASSUMED), unclear (a reading) or not adjudicated (not yet, not modelled,
// not implemented, not offered, not made).
bool SaysDecision(const std::string& cell) {
  static const std::regex words(R"(\bASSUMED\b|\bassumed\b|\b[Rr]eading\b|\bnot yet\b(?! used)|\bnot modell?ed\b|\bnot implemented\b|\bnot offered\b|\bis not made\b)");
  return std::regex_search(Unquoted(cell), words);
}

TestIndex IndexTests(const fs::path& root) {
  TestIndex idx;
  const fs::path base = root / "tests";
  std::vector<fs::path> paths;
  for (const auto& e : fs::recursive_directory_iterator(base))
    if (e.is_regular_file() && e.path().extension() == ".cc") paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  static const std::regex start(R"((TEST_CASE|TEMPLATE_TEST_CASE|SECTION|rc::prop|prop)\s*\(\s*")");
  for (const auto& p : paths) {
    std::string rel = fs::relative(p, base).generic_string();
    std::string text = ReadAll(p);
    idx.files[rel] = text;
    std::vector<std::pair<size_t, std::string>> found;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), start); it != std::sregex_iterator(); ++it) {
      size_t pos = static_cast<size_t>(it->position(0) + it->length(0));
      std::string name = Literal(text, pos);
      // Adjacent literals ("a" "b") are one name.
      for (;;) {
        size_t q = pos;
        while (q < text.size() && std::isspace(static_cast<unsigned char>(text[q]))) ++q;
        if (q < text.size() && text[q] == '"') {
          pos = q + 1;
          name += Literal(text, pos);
        } else {
          break;
        }
      }
      found.emplace_back(static_cast<size_t>(it->position(0)), name);
    }
    for (size_t i = 0; i < found.size(); ++i) {
      size_t end = i + 1 < found.size() ? found[i + 1].first : text.size();
      // A section's body runs to the next test or section; a test case's to
      // the next test case (its sections included).
      if (text.compare(found[i].first, 9, "TEST_CASE") == 0) {
        end = text.size();
        for (size_t j = i + 1; j < found.size(); ++j) {
          if (text.compare(found[j].first, 9, "TEST_CASE") == 0) {
            end = found[j].first;
            break;
          }
        }
      }
      idx.tests.push_back({rel, found[i].second, text.substr(found[i].first, end - found[i].first)});
    }
  }
  return idx;
}

std::string Describe(const RulesMdProblem& p) {
  return p.file + ":" + std::to_string(p.line) + ": " + (p.citation.empty() ? "" : p.citation + ": ") + p.why;
}

std::vector<RulesMdProblem> CheckRulesMd(const fs::path& root, const TestIndex& idx, const std::string& md_file,
                                         const std::string& ruleset, std::string_view text) {
  std::vector<RulesMdProblem> problems;
  auto problem = [&](int line, std::string citation, std::string why) {
    problems.push_back({md_file, line, std::move(citation), std::move(why)});
  };
  if (text.find("\nCitations.") == std::string_view::npos && text.find("\n**Citations.**") == std::string_view::npos)
    problem(1, "", "no \"Citations.\" paragraph stating the citation grammar at the top");

  static const std::regex file_tok(R"((?:tests/)?(?:[A-Za-z0-9_]+/)*[A-Za-z0-9_]+_test(?:\.cc)?\b)");
  static const std::regex case_tok(
      R"((?:fixtures/conformance/([a-z0-9]+)/)?\b([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*-\d+(?:\.\d+)*(?:-v\d+)?)(?:\.json)?)");

  const auto tables = Tables(text);
  std::multiset<std::string> decided;        // rule keys listed in the decisions table
  std::map<std::string, int> decided_line;   // and where
  bool has_decisions = false;
  std::set<std::string> flagged_keys;
  std::vector<std::pair<std::string, int>> flagged;  // rows that say a decision word

  for (const auto& t : tables) {
    if (IsDecisionsTable(t)) {
      has_decisions = true;
      for (const auto& r : t.rows) {
        decided.insert(r.cells[0]);
        decided_line.emplace(r.cells[0], r.line);
      }
      continue;
    }
    int rule_col = Column(t, {"rule", "rules"});
    if (rule_col < 0) rule_col = 0;
    int cite_col = Column(t, {"tests", "cases", "tests / cases", "test", "case"});
    for (const auto& r : t.rows) {
      if (r.cells.size() <= static_cast<size_t>(rule_col)) continue;
      const std::string key = r.cells[rule_col];
      for (size_t c = 0; c < r.cells.size(); ++c)
        if (static_cast<int>(c) != rule_col && static_cast<int>(c) != cite_col && SaysDecision(r.cells[c])) {
          flagged.emplace_back(key, r.line);
          flagged_keys.insert(key);
          break;
        }
      if (cite_col < 0 || r.cells.size() <= static_cast<size_t>(cite_col)) continue;
      const auto ids = RuleIdsOf(key, ruleset);
      const std::string& cell = r.cells[cite_col];

      // Walk the cell: file names set the file the quoted names after them
      // are in; quoted names are tests; case names are conformance cases.
      std::string current_file;  // as cited
      bool file_had_name = true;
      std::string outside;       // the cell without its quoted parts
      auto close_file = [&]() {
        if (!current_file.empty() && !file_had_name) {
          std::string path = ResolveTestFile(idx, current_file, ruleset);
          if (path.empty())
            problem(r.line, current_file, "no such test file under tests/");
          else if (!ids.empty() && !MentionsAny(idx.files.at(path), ids))
            problem(r.line, current_file, "tests/" + path + " does not mention " + IdsText(ids));
        }
      };
      size_t i = 0;
      while (i < cell.size()) {
        if (cell[i] == '"') {
          size_t j = cell.find('"', i + 1);
          if (j == std::string::npos) {
            problem(r.line, cell.substr(i), "an unclosed quote");
            break;
          }
          std::string quoted = cell.substr(i + 1, j - i - 1);
          auto frags = Fragments(quoted);
          std::string path;
          if (!current_file.empty()) {
            path = ResolveTestFile(idx, current_file, ruleset);
            file_had_name = true;
          }
          std::string shown = (current_file.empty() ? "" : current_file + " ") + "\"" + quoted + "\"";
          if (!current_file.empty() && path.empty()) {
            problem(r.line, shown, "no such test file under tests/");
          } else {
            bool any = false, mentions = ids.empty();
            for (const auto& e : idx.tests) {
              if (!path.empty() && e.file != path) continue;
              if (!NameHas(e.name, frags)) continue;
              any = true;
              if (!mentions && (MentionsAny(e.name, ids) || MentionsAny(e.body, ids))) mentions = true;
            }
            if (!any)
              problem(r.line, shown,
                      "no TEST_CASE, SECTION or property whose name holds this" +
                          (path.empty() ? std::string(" under tests/") : " in tests/" + path));
            else if (!mentions)
              problem(r.line, shown, "the test does not mention " + IdsText(ids));
          }
          outside += ' ';
          i = j + 1;
          continue;
        }
        outside += cell[i];
        // A file name starting here?
        std::smatch m;
        std::string rest = cell.substr(i);
        bool at_word = i == 0 || !(std::isalnum(static_cast<unsigned char>(cell[i - 1])) || cell[i - 1] == '_' ||
                                   cell[i - 1] == '/' || cell[i - 1] == '-');
        if (at_word && std::regex_search(rest, m, file_tok, std::regex_constants::match_continuous)) {
          close_file();
          current_file = m.str(0);
          file_had_name = false;
          outside += rest.substr(1, m.length(0) - 1);
          i += m.length(0);
          continue;
        }
        if (at_word && std::regex_search(rest, m, case_tok, std::regex_constants::match_continuous)) {
          std::string dir = m[1].matched ? m[1].str() : ruleset;
          std::string name = m[2].str();
          fs::path p = root / "fixtures" / "conformance" / dir / (name + ".json");
          std::string shown = m.str(0);
          if (!fs::exists(p)) {
            problem(r.line, shown, "no conformance case fixtures/conformance/" + dir + "/" + name + ".json");
          } else if (!ids.empty() && !MentionsAny(ReadAll(p), ids)) {
            problem(r.line, shown, "fixtures/conformance/" + dir + "/" + name + ".json does not mention " + IdsText(ids));
          }
          outside += rest.substr(1, m.length(0) - 1);
          i += m.length(0);
          continue;
        }
        ++i;
      }
      close_file();
    }
  }

  if (!has_decisions) {
    problem(1, "", "no table \"| rule | what the engine decided | where |\" at the top");
  }
  for (const auto& [key, line] : flagged)
    if (!decided.count(key))
      problem(line, key, "the row says ASSUMED, a reading or not yet but is not in the table of decisions");
  for (const auto& [key, line] : decided_line)
    if (key != "—" && !flagged_keys.count(key))
      problem(line, key, "listed in the table of decisions but no row for it says ASSUMED, a reading or not yet");
  std::sort(problems.begin(), problems.end(),
            [](const RulesMdProblem& a, const RulesMdProblem& b) { return a.line < b.line; });
  return problems;
}

std::vector<std::pair<std::string, std::string>> RulesMdFiles() {
  return {{"rules/sow/RULES.md", "sow"},     {"rules/pate/RULES.md", "pate"}, {"rules/nwol/RULES.md", "nwol"},
          {"rules/y1820/RULES.md", "y1820"}, {"rules/dog/RULES.md", "dog"},   {"tests/support/race/RULES.md", "race"}};
}

}  // namespace adjutant::testing
