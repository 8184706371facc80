// Scratch directories: a new, empty directory under the system's temporary
// directory, named by a prefix and 16 random hex digits, created exclusively
// (never one that already exists, never a name another process can guess).
#pragma once

#include <string>

#include "base/status.h"

namespace adjutant {

Result<std::string> ScratchDir(const std::string& prefix);

}  // namespace adjutant
