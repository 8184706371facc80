#include "ledger/format.h"
#include <algorithm>

namespace adjutant::ledger::format {

void PutU64(std::string* out, uint64_t v) {
  char b[8];
  for (int i = 7; i >= 0; --i) { b[i] = static_cast<char>(v & 0xff); v >>= 8; }
  out->append(b, 8);
}

void PutU32(std::string* out, uint32_t v) {
  char b[4];
  for (int i = 3; i >= 0; --i) { b[i] = static_cast<char>(v & 0xff); v >>= 8; }
  out->append(b, 4);
}

uint64_t GetU64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

uint32_t GetU32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

std::string CurrentKey(std::string_view game) { return "current/" + std::string(game); }

std::string HeadKey(uint64_t branch_id) {
  std::string k = "head/";
  PutU64(&k, branch_id);
  return k;
}

void EncodeEventKey(char* out, uint64_t branch_id, uint64_t seq) {
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<char>(branch_id & 0xff);
    out[8 + i] = static_cast<char>(seq & 0xff);
    branch_id >>= 8;
    seq >>= 8;
  }
}

std::string EventKey(uint64_t branch_id, uint64_t seq) {
  std::string k(kEventKeyBytes, '\0');
  EncodeEventKey(k.data(), branch_id, seq);
  return k;
}

std::string BranchPrefix(std::string_view game) {
  std::string k(game);
  k.push_back('\0');
  return k;
}

std::string BranchKey(std::string_view game, std::string_view branch) {
  return BranchPrefix(game) + std::string(branch);
}

static uint32_t FlipSign(int32_t v) { return static_cast<uint32_t>(v) ^ 0x80000000u; }

std::string TurnKey(uint64_t branch_id, const TurnPhase& at) {
  std::string k;
  PutU64(&k, branch_id);
  PutU32(&k, FlipSign(at.turn.major));
  PutU32(&k, FlipSign(at.turn.minor));
  PutU32(&k, FlipSign(at.turn.step));
  k.push_back(static_cast<char>(at.phase >> 8));
  k.push_back(static_cast<char>(at.phase & 0xff));
  return k;
}

TurnPhase DecodeTurnKey(std::string_view key) {
  const char* p = key.data() + 8;
  auto get = [](const char* q) { return static_cast<int32_t>(GetU32(q) ^ 0x80000000u); };
  TurnPhase tp;
  tp.turn = {get(p), get(p + 4), get(p + 8)};
  tp.phase = static_cast<uint16_t>((static_cast<uint8_t>(p[12]) << 8) | static_cast<uint8_t>(p[13]));
  return tp;
}

std::string IdempotencyKey(std::string_view game, std::string_view owner, std::string_view key) {
  std::string k = BranchPrefix(game);
  k.push_back('\x01');
  const size_t n = std::min<size_t>(owner.size(), 0xffff);
  k.push_back(static_cast<char>(n >> 8));
  k.push_back(static_cast<char>(n & 0xff));
  k.append(owner.substr(0, n));
  k.append(key);
  return k;
}

std::string LegacyIdempotencyKey(std::string_view game, std::string_view key) {
  return BranchPrefix(game) + std::string(key);
}

std::string SnapshotPrefix(uint64_t branch_id, std::string_view projection) {
  std::string k;
  PutU64(&k, branch_id);
  k.append(projection);
  k.push_back('\0');
  return k;
}

std::string SnapshotKey(uint64_t branch_id, std::string_view projection, uint64_t seq) {
  std::string k = SnapshotPrefix(branch_id, projection);
  PutU64(&k, seq);
  return k;
}

std::string SnapshotIndexPrefix(uint64_t branch_id, std::string_view projection) {
  return "\xff" + SnapshotPrefix(branch_id, projection);
}

std::string SnapshotIndexKey(uint64_t branch_id, std::string_view projection, uint64_t seq) {
  return "\xff" + SnapshotKey(branch_id, projection, seq);
}

std::string TreeNodePrefix(uint64_t branch_id) {
  std::string k("\xfe");
  PutU64(&k, branch_id);
  return k;
}

std::string TreeNodeKey(uint64_t branch_id, unsigned level, uint64_t index) {
  std::string k = TreeNodePrefix(branch_id);
  k.push_back(static_cast<char>(level));
  PutU64(&k, index);
  return k;
}

}  // namespace adjutant::ledger::format
