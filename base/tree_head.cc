#include "base/tree_head.h"

#include <string_view>

namespace adjutant {

namespace {

void PutBig(std::vector<uint8_t>* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void PutName(std::vector<uint8_t>* out, const std::string& s) {
  out->push_back(static_cast<uint8_t>(s.size() > 255 ? 255 : s.size()));
  out->insert(out->end(), s.begin(), s.begin() + (s.size() > 255 ? 255 : s.size()));
}

}  // namespace

std::vector<uint8_t> TreeHeadMessage(const TreeHeadFields& h) {
  static constexpr std::string_view kDomain = "adjutant-tree-head-v1";
  std::vector<uint8_t> m(kDomain.begin(), kDomain.end());
  m.push_back(0);
  PutName(&m, h.game);
  PutName(&m, h.branch);
  PutBig(&m, static_cast<uint32_t>(h.at.turn.major), 4);
  PutBig(&m, static_cast<uint32_t>(h.at.turn.minor), 4);
  PutBig(&m, static_cast<uint32_t>(h.at.turn.step), 4);
  PutBig(&m, h.at.phase, 2);
  PutBig(&m, h.size, 8);
  m.insert(m.end(), h.root.begin(), h.root.end());
  return m;
}

bool VerifyTreeHead(const TreeHeadFields& h, const signing::PublicKey& pk, const signing::Signature& sig) {
  return signing::Verify(pk, TreeHeadMessage(h), sig);
}

}  // namespace adjutant
