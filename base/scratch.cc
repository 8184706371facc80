#include "base/scratch.h"

#include <sodium.h>

#include <filesystem>

namespace adjutant {

Result<std::string> ScratchDir(const std::string& prefix) {
  if (sodium_init() < 0) return Status::IOError("libsodium could not be initialised");
  for (int attempt = 0; attempt < 8; ++attempt) {
    unsigned char r[8];
    randombytes_buf(r, sizeof r);
    char hex[17];
    sodium_bin2hex(hex, sizeof hex, r, sizeof r);
    auto path = std::filesystem::temp_directory_path() / (prefix + hex);
    std::error_code ec;
    if (std::filesystem::create_directory(path, ec)) return path.string();
    if (ec) return Status::IOError("cannot make a scratch directory " + path.string() + ": " + ec.message());
  }
  return Status::IOError("cannot make a scratch directory under " + std::filesystem::temp_directory_path().string());
}

}  // namespace adjutant
