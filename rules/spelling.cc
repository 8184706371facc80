#include "rules/spelling.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace adjutant::rules {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

size_t EditDistance(std::string_view a, std::string_view b) {
  // d[i][j]: the distance between a's first i bytes and b's first j.
  const size_t w = b.size() + 1;
  std::vector<size_t> d((a.size() + 1) * w);
  for (size_t i = 0; i <= a.size(); ++i) d[i * w] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t best = std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1,
                              d[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) best = std::min(best, d[(i - 2) * w + j - 2] + 1);
      d[i * w + j] = best;
    }
  }
  return d[a.size() * w + b.size()];
}

std::optional<std::string> NearestSpelling(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string w = Lower(word);
  const std::string* best = nullptr;
  std::string best_lower;
  size_t best_d = std::numeric_limits<size_t>::max();
  for (const std::string& candidate : candidates) {
    const std::string c = Lower(candidate);
    size_t d = EditDistance(w, c);
    // A prefix: the player abbreviated further than the book does.
    if (c.size() > w.size() && w.size() >= 3 && c.compare(0, w.size(), w) == 0) d = std::min<size_t>(d, 1);
    if (d < best_d || (d == best_d && c < best_lower)) {
      best_d = d;
      best = &candidate;
      best_lower = c;
    }
  }
  const size_t limit = std::max<size_t>(1, w.size() / 3);
  if (best == nullptr || best_d > limit) return std::nullopt;
  return *best;
}

}  // namespace adjutant::rules
