# Sourced by the build scripts: compile through ccache (Debian's package,
# installed by setup.sh) so that a rebuild — the sanitizer builds, CI's run
# after a run of the same commit, another clone of the same tree — compiles
# only what changed. Paths are hashed relative to the checkout, so two clones
# share the cache. ADJUTANT_CCACHE=0 turns it off.
CCACHE_LAUNCHER=()
if [ "${ADJUTANT_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1 && [ -n "${HOME:-}${CCACHE_DIR:-}" ]; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
  export CCACHE_NOHASHDIR=1
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-12G}"
  CCACHE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
