#include "support/temp_dir.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "base/scratch.h"

namespace adjutant::testing {

TempDir::TempDir() {
  auto dir = ScratchDir("adjutant-test-");
  if (!dir.ok()) throw std::runtime_error(dir.status().message());
  path_ = *dir;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace adjutant::testing
