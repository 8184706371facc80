#include "ledger/acked.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "ledger/format.h"

namespace adjutant::ledger {

namespace {

constexpr size_t kSlotBytes = 64;
constexpr size_t kSignedBytes = 40;
constexpr char kMagic[4] = {'A', 'D', 'J', 'H'};
constexpr uint64_t kGrowIds = 256;  // the file grows by this many branch ids at a time

std::string Errno(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

void Encode(uint64_t id, uint64_t seq, const Hash128& hash, char out[kSlotBytes]) {
  std::string s(kMagic, 4);
  format::PutU32(&s, 1);
  format::PutU64(&s, id);
  format::PutU64(&s, seq);
  s.resize(s.size() + Hash128::kBytes);
  hash.ToBytes(reinterpret_cast<uint8_t*>(s.data() + 24));
  format::PutU64(&s, Hash64(std::string_view(s.data(), kSignedBytes)));
  s.resize(kSlotBytes, '\0');
  std::memcpy(out, s.data(), kSlotBytes);
}

// A slot's record, when it is whole and is the one for `id`.
bool Decode(const char* p, uint64_t id, Acked* out) {
  if (std::memcmp(p, kMagic, 4) != 0 || format::GetU32(p + 4) != 1) return false;
  if (format::GetU64(p + 8) != id) return false;
  if (format::GetU64(p + kSignedBytes) != Hash64(std::string_view(p, kSignedBytes))) return false;
  out->seq = format::GetU64(p + 16);
  out->hash = Hash128::FromBytes(reinterpret_cast<const uint8_t*>(p + 24));
  return true;
}

bool WriteAll(int fd, const char* p, size_t n, off_t at) {
  while (n > 0) {
    ssize_t w = ::pwrite(fd, p, n, at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
    at += w;
  }
  return true;
}

}  // namespace

AckedHeads::~AckedHeads() {
  if (fd_ >= 0) ::close(fd_);
}

Result<std::map<uint64_t, Acked>> AckedHeads::Load(const std::string& dir, bool* exists) {
  const std::string path = dir + "/" + kAckedHeadsFile;
  std::map<uint64_t, Acked> out;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      if (exists) *exists = false;
      return out;
    }
    return Status::IOError(Errno("cannot read", path));
  }
  if (exists) *exists = true;
  std::vector<char> data;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Status s = Status::IOError(Errno("cannot read", path));
      ::close(fd);
      return s;
    }
    if (n == 0) break;
    data.insert(data.end(), buf, buf + n);
  }
  ::close(fd);
  for (size_t off = 0; off + 2 * kSlotBytes <= data.size(); off += 2 * kSlotBytes) {
    const uint64_t id = off / (2 * kSlotBytes);
    Acked a, b;
    const bool va = Decode(data.data() + off, id, &a);
    const bool vb = Decode(data.data() + off + kSlotBytes, id, &b);
    if (va && (!vb || a.seq >= b.seq)) out[id] = a;
    else if (vb) out[id] = b;
  }
  return out;
}

Status AckedHeads::OpenForWrite(const std::string& dir, const std::map<uint64_t, Acked>& known) {
  path_ = dir + "/" + kAckedHeadsFile;
  fd_ = ::open(path_.c_str(), O_RDWR | O_CLOEXEC);
  if (fd_ < 0 && errno == ENOENT) {
    // A new file: its directory entry is synced too, or a power loss could
    // take the file (and every acknowledgement in it) away.
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return Status::IOError(Errno("cannot create", path_));
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const bool synced = dfd >= 0 && ::fsync(dfd) == 0;
    if (dfd >= 0) ::close(dfd);
    if (!synced) return Status::IOError(Errno("cannot sync the directory of", path_));
  }
  if (fd_ < 0) return Status::IOError(Errno("cannot open", path_));
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return Status::IOError(Errno("cannot stat", path_));
  capacity_ids_ = static_cast<uint64_t>(st.st_size) / (2 * kSlotBytes);
  // The next write to a branch goes to the slot that does not hold its
  // newest record: re-read both to know which.
  std::vector<char> pair(2 * kSlotBytes);
  for (const auto& [id, acked] : known) {
    if (id >= capacity_ids_) continue;
    if (::pread(fd_, pair.data(), pair.size(), static_cast<off_t>(id * 2 * kSlotBytes)) !=
        static_cast<ssize_t>(pair.size())) {
      continue;
    }
    Acked a;
    const bool va = Decode(pair.data(), id, &a);
    next_slot_[id] = va && a.seq == acked.seq && a.hash == acked.hash ? 1 : 0;
  }
  return Status::Ok();
}

Status AckedHeads::Reserve(uint64_t id) {
  if (fd_ < 0) return Status::IOError("the acknowledged heads file is not open");
  if (id < capacity_ids_) return Status::Ok();
  const uint64_t want = (id / kGrowIds + 1) * kGrowIds;
  const off_t from = static_cast<off_t>(capacity_ids_ * 2 * kSlotBytes);
  const std::vector<char> zeros(static_cast<size_t>(want - capacity_ids_) * 2 * kSlotBytes, '\0');
  // Written, not just sized: the blocks exist before any batch needs them.
  if (!WriteAll(fd_, zeros.data(), zeros.size(), from)) return Status::IOError(Errno("cannot grow", path_));
  if (::fsync(fd_) != 0) return Status::IOError(Errno("cannot sync", path_));
  capacity_ids_ = want;
  return Status::Ok();
}

Status AckedHeads::Record(uint64_t id, uint64_t seq, const Hash128& hash) {
  ADJ_RETURN_IF_ERROR(Reserve(id));
  char slot[kSlotBytes];
  Encode(id, seq, hash, slot);
  int& next = next_slot_[id];
  const off_t at = static_cast<off_t>((id * 2 + static_cast<uint64_t>(next)) * kSlotBytes);
  if (!WriteAll(fd_, slot, kSlotBytes, at)) return Status::IOError(Errno("cannot write", path_));
  if (::fdatasync(fd_) != 0) return Status::IOError(Errno("cannot sync", path_));
  next = 1 - next;
  return Status::Ok();
}

}  // namespace adjutant::ledger
