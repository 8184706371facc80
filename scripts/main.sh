#!/usr/bin/env bash
# The main job: install, build, then play the bundled scenario on the
# embedded default database (./adjutant-data, or $ADJUTANT_DB): create the
# game, record a few GA rolls and a ruling, fork a what-if branch with
# fresh dice, print both logs and the branch tree, verify every branch.
# Rerunning it is safe: each step is skipped or answered from the log
# (idempotency keys) when it was already done.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

DB=${ADJUTANT_DB:-./adjutant-data}
adj() { ./build/adjutant --db "$DB" "$@"; }
GAME=trafalgar

if ! adj games --json | grep -q "\"name\": \"$GAME\""; then
  adj new "$GAME" --scenario fixtures/scenarios/trafalgar.json --seed 1805
fi
adj roll "$GAME" --purpose weather --rule "GA ruling" --count 2 --key demo-weather-1
adj ruling "$GAME" --reason "gale in the Gulf of Lion" --text "FR1FL cannot leave Toulon this turn" --key demo-ruling-1
if ! adj branches "$GAME" --json | grep -q '"name": "whatif"'; then
  adj fork "$GAME" --from main@2 --name whatif --reseed
fi
adj roll "$GAME" --branch whatif --purpose weather --rule "GA ruling" --count 2 --key demo-whatif-weather-1

echo; echo "== log of $GAME/main"; adj log "$GAME"
echo; echo "== log of $GAME/whatif"; adj log "$GAME" --branch whatif
echo; echo "== branches"; adj branches "$GAME"
echo; echo "== verify"; adj verify "$GAME" --all
