// Canonical encodings for projection states, written once per struct: a
// `Visit(archive, value)` function lists the fields, and the same list
// serves encoding (Enc) and decoding (Dec). Integers are fixed-width
// little-endian, strings and containers length-prefixed, maps in key order,
// so equal states always give equal bytes (and equal digests).
#pragma once

#include <cstdint>
#include <bit>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/status.h"
#include "base/turn.h"

namespace adjutant::projections {

// Turn coordinates, in every projection that keeps them.
template <class A> void Visit(A& a, Turn& t) { a(t.major, t.minor, t.step); }
template <class A> void Visit(A& a, TurnPhase& t) { a(t.turn, t.phase); }

class Enc {
 public:
  template <class... T>
  void operator()(const T&... xs) { (Put(xs), ...); }
  std::string Take() { return std::move(out_); }

 private:
  void Raw(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) { out_.push_back(static_cast<char>(v & 0xff)); v >>= 8; }
  }
  template <class T>
  void Put(const T& v) {
    if constexpr (std::is_same_v<T, bool>) Raw(v ? 1 : 0, 1);
    else if constexpr (std::is_enum_v<T>) Raw(static_cast<uint64_t>(v), sizeof(T));
    else if constexpr (std::is_integral_v<T>) Raw(static_cast<uint64_t>(v), sizeof(T));
    else if constexpr (std::is_same_v<T, float>) Raw(std::bit_cast<uint32_t>(v), 4);  // its bits, exactly
    else Visit(*this, const_cast<T&>(v));  // structs list their fields
  }
  void Put(const std::string& s) { Raw(s.size(), 4); out_.append(s); }
  template <class A, class B>
  void Put(const std::pair<A, B>& p) { Put(p.first); Put(p.second); }
  template <class T>
  void Put(const std::vector<T>& v) { Raw(v.size(), 4); for (const auto& x : v) Put(x); }
  template <class T>
  void Put(const std::set<T>& v) { Raw(v.size(), 4); for (const auto& x : v) Put(x); }
  template <class K, class V>
  void Put(const std::map<K, V>& m) { Raw(m.size(), 4); for (const auto& [k, v] : m) { Put(k); Put(v); } }

  std::string out_;
};

class Dec {
 public:
  explicit Dec(std::string_view in) : in_(in) {}
  template <class... T>
  void operator()(T&... xs) { (Get(xs), ...); }
  bool ok() const { return ok_ && in_.empty(); }
  // Whether what was read so far was whole, and whether bytes remain after
  // it (an encoding extended at its end: projections/summary.cc).
  bool read_ok() const { return ok_; }
  bool more() const { return !in_.empty(); }

 private:
  uint64_t Raw(int bytes) {
    if (in_.size() < static_cast<size_t>(bytes)) { ok_ = false; in_ = {}; return 0; }
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(in_[i]);
    in_.remove_prefix(bytes);
    return v;
  }
  // A count that cannot be larger than the bytes left (each item takes one).
  size_t Count() {
    size_t n = Raw(4);
    if (n > in_.size()) { ok_ = false; in_ = {}; return 0; }
    return n;
  }
  template <class T>
  void Get(T& v) {
    if constexpr (std::is_same_v<T, bool>) v = Raw(1) != 0;
    else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) v = static_cast<T>(Raw(sizeof(T)));
    else if constexpr (std::is_same_v<T, float>) v = std::bit_cast<float>(static_cast<uint32_t>(Raw(4)));
    else Visit(*this, v);
  }
  void Get(std::string& s) {
    size_t n = Count();
    s.assign(in_.data(), n);
    in_.remove_prefix(n);
  }
  template <class A, class B>
  void Get(std::pair<A, B>& p) { Get(p.first); Get(p.second); }
  template <class T>
  void Get(std::vector<T>& v) {
    size_t n = Count();
    v.clear();
    for (size_t i = 0; i < n && ok_; ++i) { v.emplace_back(); Get(v.back()); }
  }
  template <class T>
  void Get(std::set<T>& v) {
    size_t n = Count();
    v.clear();
    for (size_t i = 0; i < n && ok_; ++i) { T x{}; Get(x); v.insert(std::move(x)); }
  }
  template <class K, class V>
  void Get(std::map<K, V>& m) {
    size_t n = Count();
    m.clear();
    for (size_t i = 0; i < n && ok_; ++i) { K k{}; V v{}; Get(k); Get(v); m.emplace(std::move(k), std::move(v)); }
  }

  std::string_view in_;
  bool ok_ = true;
};

// A projection state's encoding and decoding, for the Encode/Decode of the
// projection next to whose Visit() functions they are instantiated.
template <class State>
std::string EncodeState(const State& s) {
  Enc e;
  e(s);
  return e.Take();
}

template <class State>
Status DecodeState(std::string_view bytes, State* out, std::string_view projection) {
  State s;
  Dec d(bytes);
  d(s);
  if (!d.ok()) return Status::Corruption(std::string(projection) + " snapshot is damaged");
  *out = std::move(s);
  return Status::Ok();
}

}  // namespace adjutant::projections
