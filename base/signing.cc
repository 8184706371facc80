#include "base/signing.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace adjutant::signing {

namespace {

Status Init() {
  if (sodium_init() < 0) return Status::IOError("libsodium could not be initialised");
  return Status::Ok();
}

}  // namespace

std::string Hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

namespace {

int Nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes 2 * n hex digits into out[0..n); false on a digit that is not hex.
bool Decode(std::string_view hex, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const int hi = Nibble(hex[2 * i]), lo = Nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return true;
}

}  // namespace

template <size_t N>
std::optional<std::array<uint8_t, N>> FromHex(std::string_view hex) {
  std::array<uint8_t, N> out{};
  if (hex.size() != 2 * N || !Decode(hex, out.data(), N)) return std::nullopt;
  return out;
}
template std::optional<std::array<uint8_t, 32>> FromHex<32>(std::string_view);
template std::optional<std::array<uint8_t, 64>> FromHex<64>(std::string_view);

std::optional<std::vector<uint8_t>> BytesFromHex(std::string_view hex) {
  std::vector<uint8_t> out(hex.size() / 2);
  if (hex.size() % 2 != 0 || !Decode(hex, out.data(), out.size())) return std::nullopt;
  return out;
}

SigningKey SigningKey::FromSeed(std::span<const uint8_t, 32> seed) {
  (void)Init();
  SigningKey k;
  crypto_sign_seed_keypair(k.pk_.data(), k.sk_.data(), seed.data());
  return k;
}

Result<SigningKey> SigningKey::Generate() {
  ADJ_RETURN_IF_ERROR(Init());
  std::array<uint8_t, 32> seed;
  randombytes_buf(seed.data(), seed.size());
  SigningKey k = FromSeed(seed);
  sodium_memzero(seed.data(), seed.size());
  return k;
}

Status SigningKey::CheckFileMode(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return Status::InvalidArgument("signing key " + path + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) return Status::InvalidArgument("signing key " + path + ": not a regular file");
  if (st.st_mode & 077) {
    std::ostringstream mode;
    mode << std::oct << (st.st_mode & 0777);
    return Status::InvalidArgument("signing key " + path + ": others than its owner may read or write it (mode " + mode.str() +
                                   "); the secret must be its owner's alone: chmod 600 " + path);
  }
  return Status::Ok();
}

Result<SigningKey> SigningKey::FromText(std::string text, const std::string& name) {
  ADJ_RETURN_IF_ERROR(Init());
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  auto seed = FromHex<32>(text);
  sodium_memzero(text.data(), text.size());
  if (!seed) {
    return Status::InvalidArgument("signing key " + name + ": not a key file (one line of 64 hex digits, as "
                                   "`adjutant keygen` writes)");
  }
  SigningKey k = FromSeed(*seed);
  sodium_memzero(seed->data(), seed->size());
  return k;
}

Result<SigningKey> SigningKey::Load(const std::string& path) {
  ADJ_RETURN_IF_ERROR(CheckFileMode(path));
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::InvalidArgument("signing key " + path + ": cannot be read");
  std::string text;
  char buf[256];
  while (text.size() <= 1024 && (in.read(buf, sizeof buf) || in.gcount() > 0)) text.append(buf, static_cast<size_t>(in.gcount()));
  return FromText(std::move(text), path);
}

Status SigningKey::Save(const std::string& path) const {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return errno == EEXIST ? Status::InvalidArgument("signing key " + path + ": already exists (a key is never overwritten)")
                           : Status::IOError("signing key " + path + ": " + std::strerror(errno));
  }
  std::string line = Hex(std::span<const uint8_t>(sk_.data(), 32)) + "\n";
  const ssize_t n = ::write(fd, line.data(), line.size());
  sodium_memzero(line.data(), line.size());
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (n != static_cast<ssize_t>(64 + 1) || !synced) {
    ::unlink(path.c_str());
    return Status::IOError("signing key " + path + ": could not be written");
  }
  return Status::Ok();
}

SigningKey::SigningKey(const SigningKey& o) : sk_(o.sk_), pk_(o.pk_) {}
SigningKey& SigningKey::operator=(const SigningKey& o) {
  sk_ = o.sk_;
  pk_ = o.pk_;
  return *this;
}
SigningKey::~SigningKey() { sodium_memzero(sk_.data(), sk_.size()); }

Signature SigningKey::Sign(std::span<const uint8_t> message) const {
  Signature sig{};
  crypto_sign_detached(sig.data(), nullptr, message.data(), message.size(), sk_.data());
  return sig;
}

bool Verify(const PublicKey& pk, std::span<const uint8_t> message, const Signature& sig) {
  if (!Init().ok()) return false;
  return crypto_sign_verify_detached(sig.data(), message.data(), message.size(), pk.data()) == 0;
}

}  // namespace adjutant::signing
