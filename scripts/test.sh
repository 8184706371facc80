#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (ctest: Catch2 and
# rapidcheck tests, end-to-end CLI tests, schema conformance, a benchmark
# smoke run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd build
ctest --output-on-failure -j "${ADJUTANT_JOBS:-2}" "$@"
