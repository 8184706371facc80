// What a drawing takes from a map alone (its geography), computed once and
// kept per map for the life of the process: the order desk and the mail run
// draw every player's report of a game from one map. Keyed by the exact
// bytes of every input the computation reads (Key), so two maps that differ
// in any coordinate never share an entry; a few maps at most are kept.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace adjutant::maps {

class Key {
 public:
  Key& Num(double v) {
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
    return *this;
  }
  Key& Text(const std::string& t) {
    Num(static_cast<double>(t.size()));
    bytes_ += t;
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

// The T kept under `key`, or compute() kept under it (from any thread).
template <class T, class Compute>
std::shared_ptr<const T> Kept(const Key& key, Compute compute) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const T>> kept;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = kept.find(key.bytes()); it != kept.end()) return it->second;
  }
  std::shared_ptr<const T> value = compute();
  std::lock_guard<std::mutex> lock(mu);
  if (kept.size() >= 8) kept.clear();
  kept.emplace(key.bytes(), value);
  return value;
}

}  // namespace adjutant::maps
