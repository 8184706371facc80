#include <cstdio>
#include <cstdlib>

#include "fuzz.h"

[[noreturn]] void FuzzFail(const char* what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what);
  std::abort();
}
