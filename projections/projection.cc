#include "projections/projection.h"

#include "projections/roster.h"
#include "projections/summary.h"
#include "projections/treasury.h"

namespace adjutant::projections {

std::string Projection::SnapshotName() const {
  return std::string(name()) + "@" + std::to_string(version());
}

std::vector<std::unique_ptr<Projection>> AllProjections() {
  std::vector<std::unique_ptr<Projection>> out;
  out.push_back(std::make_unique<Summary>());
  out.push_back(std::make_unique<Treasury>());
  out.push_back(std::make_unique<Roster>());
  return out;
}

void Writer::U32(uint32_t v) {
  for (int i = 0; i < 4; ++i) { out_.push_back(static_cast<char>(v & 0xff)); v >>= 8; }
}
void Writer::U64(uint64_t v) {
  for (int i = 0; i < 8; ++i) { out_.push_back(static_cast<char>(v & 0xff)); v >>= 8; }
}
void Writer::Str(std::string_view s) {
  U32(static_cast<uint32_t>(s.size()));
  out_.append(s);
}

bool Reader::U8(uint8_t* v) {
  if (in_.empty()) return false;
  *v = static_cast<uint8_t>(in_[0]);
  in_.remove_prefix(1);
  return true;
}
bool Reader::U32(uint32_t* v) {
  if (in_.size() < 4) return false;
  *v = 0;
  for (int i = 3; i >= 0; --i) *v = (*v << 8) | static_cast<uint8_t>(in_[i]);
  in_.remove_prefix(4);
  return true;
}
bool Reader::U64(uint64_t* v) {
  if (in_.size() < 8) return false;
  *v = 0;
  for (int i = 7; i >= 0; --i) *v = (*v << 8) | static_cast<uint8_t>(in_[i]);
  in_.remove_prefix(8);
  return true;
}
bool Reader::I32(int32_t* v) {
  uint32_t u;
  if (!U32(&u)) return false;
  *v = static_cast<int32_t>(u);
  return true;
}
bool Reader::Str(std::string* s) {
  uint32_t n;
  if (!U32(&n) || in_.size() < n) return false;
  s->assign(in_.data(), n);
  in_.remove_prefix(n);
  return true;
}

}  // namespace adjutant::projections
