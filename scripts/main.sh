#!/usr/bin/env bash
# The main job: install, build, then play the first three turns of the
# bundled 1805 scenario (fixtures/scenarios/nwol-1805.json, with the naval
# map fixtures/maps/nwol-waters.json) on the embedded
# default database (./adjutant-data, or $ADJUTANT_DB) with the orders and GA
# directives in fixtures/orders/nwol-1805 (see PLAY.md there), fork a
# what-if branch, verify every branch, and print Britain's Treasury
# Ministry report. Rerunning it is safe: turns already played are skipped,
# and every submission carries an idempotency key.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

DB=${ADJUTANT_DB:-./adjutant-data}
adj() { ./build/adjutant --db "$DB" "$@"; }
GAME=nwol
O=fixtures/orders/nwol-1805

# Demo passwords, one per person who sends orders (the GA sets them).
PW=$(mktemp -d)
trap 'rm -rf "$PW"' EXIT
PERSONS="pitt barham castlereagh gaudin berthier soler nelson"
for p in $PERSONS; do printf '%s-1805\n' "$p" > "$PW/$p"; done

# The GA's signing key (issue 23): every phase's end records a tree head
# signed with it. Its secret stays in this file, beside the checkout, never
# in the database.
KEY=./nwol-ga.key
[ -f "$KEY" ] || adj keygen "$KEY"

if ! adj games --json | grep -q "\"name\": \"$GAME\""; then
  adj new "$GAME" --scenario fixtures/scenarios/nwol-1805.json --map fixtures/maps/nwol-waters.json --seed 1805 \
    --signing-key "$KEY"
  for p in $PERSONS; do adj password "$GAME" --person "$p" --password-file "$PW/$p"; done
fi

# Who sends each order file (PLAY.md).
person_for() {
  case "$1" in
    *-BR.orders.json) echo pitt ;;       *-BR-naval.orders.json) echo barham ;;
    *-BR-war.orders.json) echo castlereagh ;;
    *-FR.orders.json) echo gaudin ;;     *-FR-war.orders.json) echo berthier ;;
    *-SP.orders.json) echo soler ;;      *-BR1FL.orders.json) echo nelson ;;
    *) echo "no sender for $1" >&2; return 1 ;;
  esac
}

turns_done() { adj log "$GAME" --kind PhaseCompleted --json | grep -c '"phase": 4,' || true; }

for t in 1 2 3; do
  if [ "$(turns_done)" -ge "$t" ]; then continue; fi
  echo "== turn $t: orders and directives"
  for f in "$O"/t$t-*.json; do
    key="$GAME-$(basename "$f" .json)"
    case "$f" in
      *.directive.json) adj directive "$GAME" "$f" --key "$key" ;;
      *.orders.json) p=$(person_for "$f"); adj order "$GAME" "$f" --as "$p" --password-file "$PW/$p" --key "$key" ;;
    esac
  done
  echo "== turn $t: adjudication"
  adj adjudicate "$GAME" --signing-key "$KEY"
done

# A what-if: the game as it stood after turn 1, on a branch of its own.
if ! adj branches "$GAME" --json | grep -q '"name": "whatif"'; then
  turn2=$(adj log "$GAME" --turn 1805.1.2 --json)
  first_t2=$(printf '%s\n' "$turn2" | sed -n '1s/.*"seq": \([0-9]*\).*/\1/p')
  adj fork "$GAME" --from "main@$((first_t2 - 1))" --name whatif
fi

echo; echo "== branches"; adj branches "$GAME"
echo; echo "== verify"; adj verify "$GAME" --all
echo; echo "== audit: every turn adjudicated again from its orders and dice"; adj audit "$GAME" --all
echo; echo "== the signed tree heads of turn 3 (adjutant heads: each checked from the events)"
adj heads "$GAME" | sed -n '1p;/turn 1805.1.3/p'
echo; echo "== Pitt's proof of turn 3, checked offline against his proof of turn 2 (adjutant proof, verify-report)"
adj proof "$GAME" --player pitt --turn 1805.1.2 > ./pitt-1805.1.2.proof.json
adj proof "$GAME" --player pitt --turn 1805.1.3 > ./pitt-1805.1.3.proof.json
adj verify-report ./pitt-1805.1.3.proof.json --previous ./pitt-1805.1.2.proof.json
echo; echo "== Britain's Treasury Ministry report"; adj report treasury "$GAME" --state BR
echo; echo "== Nelson's position report (PATE 3.11), with its own proof at its foot, checked offline"
adj report positions "$GAME" --player nelson | tee ./nelson-positions.txt
adj verify-report ./nelson-positions.txt

# ---- The 1820-1840 grand-strategy game (y1820): Europe 1820 ------------------
# fixtures/y1820/europe-1820.json on the province map europe-1820.map.json,
# turn 0 (Pre-1820) and three turns with the rulers' orders in
# fixtures/orders/europe-1820 (see PLAY.md there).
Y=europe
YO=fixtures/orders/europe-1820
ruler_for() {
  case "$1" in
    GBR) echo castlereagh ;; FRA) echo richelieu ;; NED) echo schimmelpenninck ;; PRU) echo hardenberg ;;
    AUS) echo metternich ;; SPA) echo ferdinand ;; RUS) echo nesselrode ;; OTT) echo mahmud ;;
    *) echo "no ruler for $1" >&2; return 1 ;;
  esac
}
RULERS="castlereagh richelieu schimmelpenninck hardenberg metternich ferdinand nesselrode mahmud"
for p in $RULERS; do printf '%s-1820\n' "$p" > "$PW/$p"; done
if ! adj games --json | grep -q "\"name\": \"$Y\""; then
  adj new "$Y" --scenario fixtures/y1820/europe-1820.json --map fixtures/y1820/europe-1820.map.json --seed 1820
  for p in $RULERS; do adj password "$Y" --person "$p" --password-file "$PW/$p"; done
fi
y_turns_done() { adj log "$Y" --kind PhaseCompleted --json | grep -c '"phase": 1,' || true; }
for t in 0 1 2 3; do
  if [ "$(y_turns_done)" -gt "$t" ]; then continue; fi
  echo; echo "== $Y turn $t: the rulers' orders"
  for f in "$YO"/t$t-*.orders.json; do
    n=$(basename "$f" .orders.json); n=${n#t$t-}; p=$(ruler_for "$n")
    adj order "$Y" "$f" --as "$p" --password-file "$PW/$p" --key "$Y-t$t-$n"
  done
  echo "== $Y turn $t: adjudication"
  adj adjudicate "$Y"
done
echo; echo "== $Y: verify and audit every turn"; adj verify "$Y"; adj audit "$Y" --all
echo; echo "== $Y: the map after 1820.3 (also drawn in ./europe-1820.svg)"; adj report map "$Y" --svg europe-1820.svg
echo; echo "== $Y: France as its ruler sees it"; adj report nation "$Y" --nation FRA
echo; echo "== $Y: Austria as the other rulers see it"; adj report nation "$Y" --nation AUS --public

# ---- Death or Glory (dog): two battles -------------------------------------------
# Each: the scenario in fixtures/dog/, the generals' orders for moves 1-3 from
# fixtures/orders/dog-*/ (README there), each move adjudicated, every move
# audited, and the battle as one general sees it (also drawn as SVG).
# play_battle GAME SCENARIO SEED ORDERS "PERSON:SIDE ..." SIDE-TO-SHOW
play_battle() {
  local B=$1 SCEN=$2 SEED=$3 ORD=$4 GENERALS=$5 SHOW=$6 g p side
  for g in $GENERALS; do p=${g%%:*}; printf '%s-%s\n' "$p" "$SEED" > "$PW/$p"; done
  if ! adj games --json | grep -q "\"name\": \"$B\""; then
    adj new "$B" --scenario "$SCEN" --seed "$SEED"
    for g in $GENERALS; do p=${g%%:*}; adj password "$B" --person "$p" --password-file "$PW/$p"; done
  fi
  for m in 1 2 3; do
    if [ "$(adj log "$B" --kind PhaseCompleted --json | grep -c '"phase": 1,' || true)" -ge "$m" ]; then continue; fi
    echo; echo "== $B move $m: the generals' orders and the move"
    for g in $GENERALS; do
      p=${g%%:*}; side=${g##*:}
      adj order "$B" "$ORD/m$m-$side.orders.json" --as "$p" --password-file "$PW/$p" --key "$B-m$m-$side"
    done
    adj adjudicate "$B"
  done
  echo; echo "== $B: audit every move"; adj audit "$B" --all
  echo; echo "== $B: after move 3, the $SHOW general's report (drawn in ./$B.svg)"
  adj report battle "$B" --side "$SHOW" --svg "$B.svg"
}
play_battle talavera fixtures/dog/talavera-brigade.json 1809 fixtures/orders/dog-talavera \
  "wellesley:British victor:French" British
play_battle quatre-bras fixtures/dog/squares.json 1815 fixtures/orders/dog-quatre-bras \
  "wellington:British ney:French" French

# ---- A battle that runs itself: deadlines fired on a clock given ---------------
bash scripts/scheduled.sh ./build/adjutant "$DB" "$PW"
