#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (ctest: Catch2 and
# rapidcheck tests, end-to-end CLI tests, schema conformance, a benchmark
# smoke run, the order desk's page in headless chromium).
#   bash scripts/test.sh              the suite on the normal build (./build)
#   bash scripts/test.sh --sanitize   the suite under AddressSanitizer and
#                                     UndefinedBehaviorSanitizer (./build-asan)
#   bash scripts/test.sh --tsan       the order desk's tests under ThreadSanitizer
#                                     (./build-tsan)
# Other arguments go to ctest (e.g. -R sow).
set -euo pipefail
cd "$(dirname "$0")/.."
# The order desk's page is tested in a real browser: Debian's chromium, headless.
if ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed"; then
  echo "test: installing chromium" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium >&2
fi
if [ "${1:-}" = "--tsan" ]; then
  # The order desk's concurrency under ThreadSanitizer (./build-tsan): the
  # tests tests/tsan.tests selects (the desk's loopback, authorization,
  # browser and SIGTERM tests, serve's scheduler, the ledger's readers against
  # a writer thread) and the load smoke run. adjutant_tests is built from that
  # file's test files only (ADJUTANT_TSAN_SET).
  shift
  bash scripts/setup.sh
  . scripts/ccache.sh
  if ! grep -qs '^ADJUTANT_TSAN_SET:BOOL=ON' build-tsan/CMakeCache.txt; then
    cmake -S . -B build-tsan -G Ninja "${CCACHE_LAUNCHER[@]}" -DCMAKE_BUILD_TYPE=None -DADJUTANT_TSAN_SET=ON \
      -DCMAKE_CXX_FLAGS="-fsanitize=thread -O1 -g1" >&2
  fi
  ninja -C build-tsan -j "${ADJUTANT_JOBS:-2}" adjutant adjutant_tests adjutant_bench_desk >&2
  select=$(sed -n 's/^select //p' tests/tsan.tests)
  except=$(sed -n 's/^except //p' tests/tsan.tests)
  cd build-tsan
  TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/../tests/tsan.supp ${TSAN_OPTIONS:-}" ctest --output-on-failure -j 1 -R "$select" -E "$except" "$@"
  exit 0
fi
if [ "${1:-}" = "--sanitize" ]; then
  shift
  # -O1 -g1 (line tables: stack traces keep file and line): ASan's own advice
  # for speed; at -O0 with full debug info this pass took half of CI's time.
  # -no-pie: the sanitizers' metadata gives a position-independent
  # adjutant_tests five million relocations, which the loader applied at the
  # start of every test process (0.8 s each, about 540 processes; 0.4 s
  # without them), and `adjutant` two million (0.4 s a command).
  ADJUTANT_BUILD_DIR=build-asan ADJUTANT_BUILD_TYPE=None \
    ADJUTANT_CXX_FLAGS="-O1 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
    ADJUTANT_LINK_FLAGS="-no-pie" bash scripts/setup.sh
  cd build-asan
  # The benchmarks' smoke runs are left to the normal build: they measure nothing here.
  # So are the kill -9 crash loops (durability, not memory: a killed process
  # reports nothing to a sanitizer), and the rapidcheck properties run 20
  # random cases each here, not 100 (the normal build runs them all): on two
  # cores this pass otherwise takes half of CI's time.
  # LeakSanitizer: a leak inside Debian's libvmime is the library's (tests/lsan.supp).
  RC_PARAMS="${RC_PARAMS:-max_success=20}" LSAN_OPTIONS="suppressions=$PWD/../tests/lsan.supp ${LSAN_OPTIONS:-}" \
    ctest --output-on-failure -j "${ADJUTANT_JOBS:-2}" -E 'bench_smoke|bench_game_smoke|crash_loop' "$@"
else
  bash scripts/setup.sh
  cd build
  ctest --output-on-failure -j "${ADJUTANT_JOBS:-2}" "$@"
fi
