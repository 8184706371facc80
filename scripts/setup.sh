#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages) and builds Adjutant into
# ./build. Sourced by scripts/main.sh and scripts/test.sh; safe to rerun.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(g++ cmake ninja-build pkg-config
          librocksdb-dev libflatbuffers-dev flatbuffers-compiler
          libxxhash-dev libsodium-dev catch2 librapidcheck-dev libboost-dev
          libssl-dev openssl curl ccache)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

BUILD_DIR=${ADJUTANT_BUILD_DIR:-build}
BUILD_TYPE=${ADJUTANT_BUILD_TYPE:-RelWithDebInfo}
. scripts/ccache.sh
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" "${CCACHE_LAUNCHER[@]}" \
        -DCMAKE_CXX_FLAGS="${ADJUTANT_CXX_FLAGS:-}" >&2
fi
# Two cores: two jobs (RocksDB and Catch2 headers are heavy on memory, not CPU).
ninja -C "$BUILD_DIR" -j "${ADJUTANT_JOBS:-2}" >&2
