#include "replay/warm.h"

#include <optional>

#include <vector>

#include "replay/rebuild.h"

namespace adjutant::replay {

World Copy(const World& w) {
  World out;
  out.head = w.head;
  out.projections.reserve(w.projections.size());
  for (const auto& p : w.projections) out.projections.push_back(p->Clone());
  return out;
}

namespace {

// Folds events after the world's head up to `head` into it, after checking
// that the world's own last event is still there with the same hash. false:
// the world is stale (or the log could not be read): it must be dropped.
bool BringForward(ledger::Ledger& db, std::string_view game, std::string_view branch, const ledger::Head& head,
                  World* w, uint64_t* applied) {
  const uint64_t at = w->head.seq;
  if (at == 0 || at > head.seq) return false;
  if (at == head.seq) return w->head.hash == head.hash;
  std::vector<projections::Projection*> ps;
  for (auto& p : w->projections) ps.push_back(p.get());
  bool same = false;
  Status st = db.Read(game, branch, at, head.seq, [&](const ledger::EventView& e) {
    if (e.seq == at) {
      same = e.hash == w->head.hash;
      return same ? Status::Ok() : Status::Conflict("the kept world's last event changed");
    }
    FoldEvent(ps, e);
    ++*applied;
    return Status::Ok();
  });
  if (!st.ok() || !same) return false;
  w->head = head;
  return true;
}

}  // namespace

Result<World> WarmWorlds::Fold(ledger::Ledger& db, std::string_view game, std::string_view branch) {
  std::optional<World> out;
  ADJ_RETURN_IF_ERROR(Read(db, game, branch, [&](const World& w) {
    out = Copy(w);
    return Status::Ok();
  }));
  return std::move(*out);
}

Status WarmWorlds::Read(ledger::Ledger& db, std::string_view game, std::string_view branch,
                        const std::function<Status(const World&)>& read) {
  auto head = db.HeadOf(game, branch);
  if (!head.ok()) return head.status();
  const auto key = std::make_pair(std::string(game), std::string(branch));
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = kept_.find(key);
    if (it != kept_.end()) {
      uint64_t applied = 0;
      if (BringForward(db, game, branch, *head, &it->second.world, &applied)) {
        stats_.warm++;
        stats_.events_applied += applied;
        it->second.used = ++clock_;
        return read(it->second.world);
      }
      stats_.dropped++;
      kept_.erase(it);
    }
  }
  // Cold, outside the lock: a fold of a large game does not hold up the
  // other games' requests.
  auto w = replay::Fold(db, game, branch);
  if (!w.ok()) return w.status();
  std::lock_guard<std::mutex> lock(mu_);
  stats_.cold++;
  auto it = kept_.find(key);
  // Another request may have kept a world of the branch meanwhile: keep the
  // later of the two.
  if (it == kept_.end() || it->second.world.head.seq < w->head.seq) {
    if (it == kept_.end() && kept_.size() >= keep_) {
      auto oldest = kept_.begin();
      for (auto j = kept_.begin(); j != kept_.end(); ++j) {
        if (j->second.used < oldest->second.used) oldest = j;
      }
      kept_.erase(oldest);
    }
    Entry& e = kept_[key];
    e = Entry{std::move(*w), ++clock_};
    return read(e.world);
  }
  return read(*w);
}

WarmWorlds::Stats WarmWorlds::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

}  // namespace adjutant::replay
