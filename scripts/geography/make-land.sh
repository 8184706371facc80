#!/usr/bin/env bash
# Writes fixtures/geography/land.json: the land outlines the drawn maps use
# (schema/geography.fbs, root table Geography), cut from Natural Earth's
# 1:50m land (public domain) as the npm package world-atlas ships it.
#
#   bash scripts/geography/make-land.sh
#
# Needs node and npm, and the npm registry for the pinned packages below; they
# go into a temporary directory removed afterwards, never into the repository.
# What is cut and how is said in make-land.mjs beside this script and in
# fixtures/geography/README.md. The output depends only on the pinned
# packages, so a rerun writes the same bytes. The build compiles the committed
# file and needs neither this script nor the network.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/fixtures/geography/land.json"

# Exact versions: a different world-atlas is different data.
PACKAGES=(world-atlas@2.0.2 topojson-client@3.1.0 polygon-clipping@0.15.7)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "make-land: installing ${PACKAGES[*]}" >&2
npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$tmp" "${PACKAGES[@]}" >&2

# The script imports the packages by name, so it runs from inside $tmp.
cp "$here/make-land.mjs" "$tmp/make-land.mjs"
mkdir -p "$(dirname "$out")"
node "$tmp/make-land.mjs" "$tmp/node_modules/world-atlas/land-50m.json" "$tmp/land.json"
mv "$tmp/land.json" "$out"
echo "make-land: wrote ${out#"$root"/}" >&2
