#!/usr/bin/env bash
# Part of the main job (scripts/main.sh), and a test of it (ctest
# main_scheduled): a battle that runs itself. The GA sets a weekly deadline;
# the generals send their orders for each move; the scheduler's step (what
# `adjutant serve` does at each tick) runs at a time given with --now, one
# minute after each deadline, fires it and adjudicates the move — once: a
# second step at the same time does nothing. Then every move is audited.
#   scripts/scheduled.sh ADJUTANT DB PASSWORD-DIR
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$1 DB=$2 PW=$3
adj() { "$BIN" --db "$DB" "$@"; }
B=talavera-by-deadline
ORD=fixtures/orders/dog-talavera
printf 'wellesley-1809\n' > "$PW/wellesley"
printf 'victor-1809\n' > "$PW/victor"
if ! adj games --json | grep -q "\"name\": \"$B\""; then
  adj new "$B" --scenario fixtures/dog/talavera-brigade.json --seed 1809
  for p in wellesley victor; do adj password "$B" --person "$p" --password-file "$PW/$p"; done
fi
if ! adj schedule "$B" --json | grep -q '"set": true'; then
  echo; echo "== $B: the GA sets a weekly deadline, Sundays 20:00 UTC from 2030-01-06"
  adj schedule "$B" set --deadline 2030-01-06T20:00Z --weekly --now 2030-01-01T00:00Z
fi
DAYS=(06 13 20)
for m in 1 2 3; do
  NOW="2030-01-${DAYS[$((m - 1))]}T20:01Z"
  if [ "$(adj log "$B" --kind PhaseCompleted --json | grep -c '"phase": 1,' || true)" -ge "$m" ]; then continue; fi
  echo; echo "== $B move $m: orders, then the deadline passes ($NOW)"
  adj order "$B" "$ORD/m$m-British.orders.json" --as wellesley --password-file "$PW/wellesley" --key "$B-m$m-British"
  adj order "$B" "$ORD/m$m-French.orders.json" --as victor --password-file "$PW/victor" --key "$B-m$m-French"
  adj status "$B" --now "$NOW"
  adj schedule "$B" run --now "$NOW"
  out=$(adj schedule "$B" run --now "$NOW")   # the same step again: nothing more
  case "$out" in "nothing due"*) ;; *) echo "scheduled.sh: a second step at $NOW did something: $out" >&2; exit 1 ;; esac
done
[ "$(adj log "$B" --kind Directive | grep -c 'fired at' || true)" -eq 3 ] || { echo "scheduled.sh: not 3 deadlines fired" >&2; exit 1; }
echo; echo "== $B: the schedule now, and an audit of every move"
adj schedule "$B" --now 2030-01-21T00:00Z
adj audit "$B" --all
