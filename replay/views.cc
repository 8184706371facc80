#include "replay/views.h"

#include <algorithm>

#include "projections/roster.h"

namespace adjutant::replay {

std::map<ViewKey, std::string> Flatten(const World& w, std::string_view only) {
  std::map<ViewKey, std::string> out;
  auto put = [&](const char* view, const std::string& entity, const char* field, const std::string& value) {
    if (only.empty() || only == view) out[{view, entity, field}] = value;
  };
  for (const auto& [person, p] : w.roster().persons()) {
    put("roster", person, "roles", rules::JoinRow(std::vector<std::string>(p.roles.begin(), p.roles.end())));
  }
  if (const rules::GameKind* kind = w.kind()) kind->Flatten(w.projections, put);
  return out;
}

std::vector<std::string> ProjectionsOfView(std::string_view view) {
  std::vector<std::string> names = {"summary"};
  auto add = [&](std::string_view n) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.emplace_back(n);
  };
  if (view == "roster") {
    add("roster");
    return names;
  }
  for (const rules::GameKind* k : rules::AllKinds()) {
    const auto views = k->ViewNames();
    if (std::find(views.begin(), views.end(), view) == views.end()) continue;
    const auto from = k->ViewProjections(view);
    if (from.empty()) return {};  // the kind does not say: every projection
    for (std::string_view n : from) add(n);
  }
  return names;
}

Result<World> FoldView(ledger::Ledger& db, std::string_view game, std::string_view branch, std::string_view view,
                       uint64_t upto) {
  return Fold(db, game, branch, upto, ProjectionsOfView(view));
}

const std::vector<std::string>& ViewNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names = {"roster"};
    for (const rules::GameKind* k : rules::AllKinds()) {
      for (std::string_view v : k->ViewNames()) names.emplace_back(v);
    }
    return names;
  }();
  return kNames;
}

std::vector<ViewDifference> Compare(const std::map<ViewKey, std::string>& a, const std::map<ViewKey, std::string>& b) {
  std::vector<ViewDifference> out;
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() || j != b.end()) {
    if (j == b.end() || (i != a.end() && i->first < j->first)) {
      out.push_back({i->first, i->second, ""});
      ++i;
    } else if (i == a.end() || j->first < i->first) {
      out.push_back({j->first, "", j->second});
      ++j;
    } else {
      if (i->second != j->second) out.push_back({i->first, i->second, j->second});
      ++i;
      ++j;
    }
  }
  return out;
}

Result<uint64_t> FirstParting(ledger::Ledger& db, std::string_view game, std::string_view a, std::string_view b) {
  // The chain hash of event n covers every event up to n: equal hashes mean
  // equal prefixes, so the longest common prefix is found by bisection.
  auto ha = db.HeadOf(game, a);
  if (!ha.ok()) return ha.status();
  auto hb = db.HeadOf(game, b);
  if (!hb.ok()) return hb.status();
  auto hash_at = [&](std::string_view branch, uint64_t seq) -> Result<Hash128> {
    Hash128 h;
    ADJ_RETURN_IF_ERROR(db.Read(game, branch, seq, seq, [&](const ledger::EventView& e) {
      h = e.hash;
      return Status::Ok();
    }));
    return h;
  };
  uint64_t lo = 0, hi = std::min(ha->seq, hb->seq);  // the prefix of length lo is shared
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    auto x = hash_at(a, mid);
    if (!x.ok()) return x.status();
    auto y = hash_at(b, mid);
    if (!y.ok()) return y.status();
    if (*x == *y) lo = mid;
    else hi = mid - 1;
  }
  if (lo == ha->seq && lo == hb->seq) return uint64_t{0};
  return lo + 1;
}

}  // namespace adjutant::replay
