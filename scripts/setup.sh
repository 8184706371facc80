#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages) and builds Adjutant into
# ./build. Sourced by scripts/main.sh and scripts/test.sh; safe to rerun.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(g++ cmake ninja-build pkg-config
          librocksdb-dev libflatbuffers-dev flatbuffers-compiler
          libxxhash-dev libsodium-dev catch2 librapidcheck-dev libboost-dev
          libssl-dev openssl curl ccache
          postfix dovecot-imapd dovecot-lmtpd libvmime-dev python3)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # Postfix installs without questions and without a system configuration;
  # the mail tests run their own instances (tests/mail/servers.sh).
  echo "postfix postfix/main_mailer_type select No configuration" | $SUDO debconf-set-selections
  echo "postfix postfix/mailname string localhost" | $SUDO debconf-set-selections
  $SUDO apt-get update -qq
  # Nor are the packages' system services started (policy-rc.d: 101 = denied);
  # a policy-rc.d already there (as in Docker images) is left as it is.
  policy_rc_d=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod 0755 /usr/sbin/policy-rc.d
    policy_rc_d=/usr/sbin/policy-rc.d
  fi
  install_rc=0
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || install_rc=$?
  [ -z "$policy_rc_d" ] || $SUDO rm -f "$policy_rc_d"
  [ "$install_rc" -eq 0 ] || exit "$install_rc"
  # Should a service just installed have started all the same, stop it (it
  # would hold ports 25, 143, ...); one installed before is not ours to stop.
  for p in "${missing[@]}"; do
    case "$p" in
      postfix) $SUDO service postfix stop >/dev/null 2>&1 || true ;;
      dovecot-imapd) $SUDO service dovecot stop >/dev/null 2>&1 || true ;;
    esac
  done
fi

BUILD_DIR=${ADJUTANT_BUILD_DIR:-build}
BUILD_TYPE=${ADJUTANT_BUILD_TYPE:-RelWithDebInfo}
. scripts/ccache.sh
LINK_FLAGS=${ADJUTANT_LINK_FLAGS:-}
# A tree configured before with other link flags is configured again with
# these (scripts/test.sh --sanitize links without PIE: see there).
if [ ! -f "$BUILD_DIR/build.ninja" ] ||
   ! grep -qsxF "CMAKE_EXE_LINKER_FLAGS:STRING=$LINK_FLAGS" "$BUILD_DIR/CMakeCache.txt"; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" "${CCACHE_LAUNCHER[@]}" \
        -DCMAKE_CXX_FLAGS="${ADJUTANT_CXX_FLAGS:-}" -DCMAKE_EXE_LINKER_FLAGS="$LINK_FLAGS" >&2
fi
# Two cores: two jobs (RocksDB and Catch2 headers are heavy on memory, not CPU).
ninja -C "$BUILD_DIR" -j "${ADJUTANT_JOBS:-2}" >&2
