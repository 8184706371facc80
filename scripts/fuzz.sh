#!/usr/bin/env bash
# Fuzzing with libFuzzer (clang 16 from Debian 12): builds the targets of
# tests/fuzz/ in ./build-fuzz (the tree with AddressSanitizer and
# UndefinedBehaviorSanitizer) and fuzzes each for SECONDS (default 30),
# starting from its corpus in fixtures/fuzz/ (copied: the fixtures are not
# changed). Prints one JSON line per target: executions, and whether it
# found anything. Exits 1 if any target crashed, hung or failed a check.
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
# With FUZZ_RUNS=N set, each target instead makes N runs from a fixed seed
# (the bounded, repeatable run CI makes: .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-30}
shift || true
TARGETS=${*:-order_json order_text scenario events conformance http}
missing=()
for p in clang-16 libclang-rt-16-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
bash scripts/setup.sh >/dev/null  # the other packages (and the normal build)
. scripts/ccache.sh
if [ ! -f build-fuzz/build.ninja ]; then
  # -O1 -g1 as in the sanitizer passes (scripts/test.sh): this tree is the
  # whole library compiled again, and full debug information at -O2 took a
  # third more time to compile for no finding a line table would not show.
  CC=clang-16 CXX=clang++-16 cmake -S . -B build-fuzz -G Ninja "${CCACHE_LAUNCHER[@]}" -DCMAKE_BUILD_TYPE=None -DADJUTANT_FUZZ=ON \
    -DCMAKE_CXX_FLAGS="-O1 -g1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" >&2
fi
for t in $TARGETS; do ninja -C build-fuzz -j "${ADJUTANT_JOBS:-2}" "fuzz_$t" >&2; done
status=0
for t in $TARGETS; do
  work=$(mktemp -d)
  cp -r "fixtures/fuzz/$t/." "$work/"
  log="$work.log"
  if [ -n "${FUZZ_RUNS:-}" ]; then
    # The http target talks to a server on threads: fewer runs, it is slower.
    runs=$FUZZ_RUNS; [ "$t" = http ] && runs=$(( FUZZ_RUNS / 10 + 1 ))
    [ "$t" = conformance ] && runs=$(( FUZZ_RUNS / 5 + 1 ))
    limit="-runs=$runs -seed=1"
  else
    limit="-max_total_time=$SECONDS_EACH"
  fi
  if build-fuzz/tests/fuzz_$t $limit -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
       -artifact_prefix="$work/crash-" "$work" > "$log" 2>&1; then found=false; else found=true; status=1; fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  echo "{\"fuzz\": \"$t\", \"limit\": \"$limit\", \"executions\": ${execs:-0}, \"found\": $found}"
  if [ "$found" = true ]; then
    echo "fuzz: $t found something; its log is $log, the input in $work/crash-*" >&2
    tail -30 "$log" >&2
  else
    rm -rf "$work" "$log"
  fi
done
exit $status
