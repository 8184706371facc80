#!/usr/bin/env bash
# Writes fixtures/released-db/: a small database written by a RELEASED
# `adjutant`, which every later build must still open, verify, audit identical
# and fold (tests/replay/released_db_test.cc, ctest "released database*").
#
#   bash scripts/make_release_fixture.sh ADJUTANT [OUT]
#
# ADJUTANT is the released binary, built from the release's own commit, never
# from the working tree (the point is that the database is the old code's):
#
#   R=$(git rev-parse HEAD)     # at the release
#   mkdir -p build-release/src && git archive "$R" | tar -x -C build-release/src
#   cmake -S build-release/src -B build-release/src/build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
#   ninja -C build-release/src/build adjutant
#   ADJUTANT_RELEASE=$R bash scripts/make_release_fixture.sh build-release/src/build/adjutant
#
# It needs RocksDB's `ldb` (Debian: apt-get install rocksdb-tools) to compact.
# OUT defaults to fixtures/released-db; it is written afresh (a scratch copy
# is built first and moved in only when everything succeeded). The inputs are
# the repository's own fixtures, the seeds and the dice salt are fixed, so a
# rerun with the same binary gives the same events but for the password
# hashes (libsodium salts each at random), and so other chain hashes and digests.
# Every person's password is "PERSON-password" (the test logs in with them).
# What it holds (and README.md there, rewritten from this run, lists it):
#   nwol     (sow + pate: fixtures/scenarios/nwol-1805.json on the naval map)
#            turn 1805.1.1 with the GA's blockade directive and every
#            person's orders, adjudicated as one turn with --key; turn 1805.1.2's
#            orders and directive, adjudicated two phases by phase (--phase);
#            branch `whatif` forked at 1805.1.2 with the orders (--with-orders).
#   europe   (y1820: fixtures/y1820/europe-1820.json) turn 0 adjudicated by
#            turn; turn 1 under a dice commitment (dice-commit, adjudicate
#            --dice-salt-file, dice-reveal); turn 2's orders, not adjudicated.
#   talavera (dog: fixtures/dog/talavera-brigade.json) moves 1 and 2 with both
#            generals' orders, each adjudicated by phase; a GA ruling; move 3's
#            orders, not adjudicated.
# Then every branch is verified and audited with the released binary, and the
# digest of every finished turn is written to digests.txt (the test requires
# the same digests from the current code). The database is compacted: the
# memtables flushed into table files by a backup and restored into OUT (so the
# write-ahead logs are empty), opened read-write once (writing adjutant-heads),
# and RocksDB's LOG files are dropped.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: bash scripts/make_release_fixture.sh ADJUTANT [OUT]   (ADJUTANT: the released binary)" >&2
  exit 2
fi
BIN=$(realpath "$1")
command -v ldb > /dev/null || { echo "make_release_fixture: needs ldb (apt-get install rocksdb-tools)" >&2; exit 2; }
OUT=${2:-fixtures/released-db}
# The release the binary was built from, as README.md there will name it.
RELEASE=${ADJUTANT_RELEASE:?set ADJUTANT_RELEASE to the commit (or tag) the binary was built from}

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/db
adj() { "$BIN" --db "$DB" "$@"; }
PW=$WORK/pw; mkdir -p "$PW"
pw() { printf '%s-password\n' "$1" > "$PW/$1"; }

# ---- nwol: sow + pate ------------------------------------------------------------
O=fixtures/orders/nwol-1805
adj new nwol --scenario fixtures/scenarios/nwol-1805.json --map fixtures/maps/nwol-waters.json --seed 1805
for p in pitt barham castlereagh gaudin berthier soler nelson; do pw $p; adj password nwol --person $p --password-file "$PW/$p"; done
person_for() {
  case "$1" in
    *-BR.orders.json) echo pitt ;;       *-BR-naval.orders.json) echo barham ;;
    *-BR-war.orders.json) echo castlereagh ;;
    *-FR.orders.json) echo gaudin ;;     *-FR-war.orders.json) echo berthier ;;
    *-SP.orders.json) echo soler ;;      *-BR1FL.orders.json) echo nelson ;;
  esac
}
nwol_inputs() {  # turn number: the GA's directives and every person's orders
  for f in "$O"/t$1-*.json; do
    case "$f" in
      *.directive.json) adj directive nwol "$f" --key "nwol-$(basename "$f" .json)" ;;
      *.orders.json) p=$(person_for "$f")
                     adj order nwol "$f" --as "$p" --password-file "$PW/$p" --key "nwol-$(basename "$f" .json)" ;;
    esac
  done
}
nwol_inputs 1
adj adjudicate nwol --key nwol-turn-1          # a whole turn, with an idempotency key
nwol_inputs 2
adj adjudicate nwol --phase                    # turn 2 by phase: two of its phases
adj adjudicate nwol --phase
adj fork nwol --at 1805.1.2 --with-orders --name whatif

# ---- europe: y1820 -----------------------------------------------------------------
YO=fixtures/orders/europe-1820
adj new europe --scenario fixtures/y1820/europe-1820.json --map fixtures/y1820/europe-1820.map.json --seed 1820
ruler_for() {
  case "$1" in
    GBR) echo castlereagh ;; FRA) echo richelieu ;; NED) echo schimmelpenninck ;; PRU) echo hardenberg ;;
    AUS) echo metternich ;; SPA) echo ferdinand ;; RUS) echo nesselrode ;; OTT) echo mahmud ;;
  esac
}
for p in castlereagh richelieu schimmelpenninck hardenberg metternich ferdinand nesselrode mahmud; do
  pw $p; adj password europe --person $p --password-file "$PW/$p"
done
europe_orders() {
  for f in "$YO"/t$1-*.orders.json; do
    n=$(basename "$f" .orders.json); n=${n#t$1-}; p=$(ruler_for "$n")
    adj order europe "$f" --as "$p" --password-file "$PW/$p" --key "europe-t$1-$n"
  done
}
europe_orders 0
adj adjudicate europe                          # turn 0 (Pre-1820), by turn
europe_orders 1
# The dice of 1820.1 under a commitment: a fixed salt, so a rerun gives the same rolls.
SALT=$WORK/salt; printf '5a17c0ffee0123456789abcdef0123456789abcdef0123456789abcdef012345\n' > "$SALT"
adj dice-commit europe --turn 1820.1 --salt-file "$SALT"
adj adjudicate europe --dice-salt-file "$SALT"
adj dice-reveal europe --turn 1820.1 --salt-file "$SALT"
adj verify europe --turn 1820.1 --dice
europe_orders 2                                # orders standing for a turn not yet adjudicated

# ---- talavera: Death or Glory ----------------------------------------------------
DO=fixtures/orders/dog-talavera
adj new talavera --scenario fixtures/dog/talavera-brigade.json --seed 1809
pw wellesley; pw victor
adj password talavera --person wellesley --password-file "$PW/wellesley"
adj password talavera --person victor --password-file "$PW/victor"
talavera_orders() {
  adj order talavera "$DO/m$1-British.orders.json" --as wellesley --password-file "$PW/wellesley" --key "talavera-m$1-British"
  adj order talavera "$DO/m$1-French.orders.json" --as victor --password-file "$PW/victor" --key "talavera-m$1-French"
}
talavera_orders 1
adj adjudicate talavera --phase                # a move is one phase
adj ruling talavera --reason "D9: umpire's call" --text "The hedge on the west counts as a linear obstacle." --key talavera-ruling-1
talavera_orders 2
adj adjudicate talavera --phase
talavera_orders 3

# ---- checked with the released binary itself -------------------------------------
# Verify must pass. The released binary's own audit is recorded, not required
# (the release of issue 18 reported a turn adjudicated with --key as differing:
# its PhaseStarted carries the key); the test requires the current code's
# audit to be identical everywhere.
AUDIT=$WORK/audit.txt; : > "$AUDIT"
for g in nwol europe talavera; do
  adj verify "$g" --all
  for b in $(adj branches "$g" --json | grep -o '"name": "[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/'); do
    echo "\$ adjutant audit $g --branch $b --all" >> "$AUDIT"
    adj audit "$g" --branch "$b" --all 2>&1 | cut -c1-160 >> "$AUDIT" || echo "(exit ${PIPESTATUS[0]})" >> "$AUDIT"
  done
done

# Every finished turn's digest, as the released binary gives it.
DIGESTS=$WORK/digests.txt
{
  echo "# GAME BRANCH TURN DIGEST: written by scripts/make_release_fixture.sh with adjutant $RELEASE"
  for gt in "nwol main 1805.1.1" "nwol whatif 1805.1.1" "europe main 1820.0" "europe main 1820.1" \
            "talavera main 1.1" "talavera main 1.2"; do
    set -- $gt
    if d=$(adj digest "$1" --branch "$2" --turn "$3" --json 2>"$WORK/err"); then
      echo "$1 $2 $3 $(printf '%s' "$d" | grep -o '"digest": "[0-9a-f]*"' | grep -o '[0-9a-f]\{64\}')"
    else
      echo "digest $gt: $(cat "$WORK/err")" >&2; exit 1
    fi
  done
} > "$DIGESTS"

# ---- compacted: every column family compacted into as few table files as it
# needs (RocksDB's own `ldb`, the Debian package rocksdb-tools, of the version
# the code links; it rewrites table files, never a key or a value), then one
# read-write open by the released binary (a backup into scratch) drops the
# empty logs and leaves its own OPTIONS; the database's own acknowledged heads
# (adjutant-heads) are kept as the run wrote them.
for cf in $(ldb --db="$DB" list_column_families | tr -d '{} ' | tr ',' ' ' | sed 's/.*://'); do
  ldb --db="$DB" --column_family="$cf" compact > /dev/null
done
adj backup --to "$WORK/backup" > /dev/null
for g in nwol europe talavera; do adj verify "$g" --all > /dev/null; done
rm -f "$DB"/LOG "$DB"/LOG.old.*
[ -f "$DB/adjutant-heads" ] || { echo "no adjutant-heads in the database" >&2; exit 1; }
[ ! -e "$DB/adjutant-damage" ] || { echo "the database has adjutant-damage/" >&2; exit 1; }

# ---- OUT: the database, digests.txt and README.md --------------------------------
rm -rf "$OUT.new"; mkdir -p "$OUT.new"
cp -a "$DB" "$OUT.new/db"; rm -f "$OUT.new/db"/LOG "$OUT.new/db"/LOG.old.*
cp "$DIGESTS" "$OUT.new/digests.txt"
cp "$AUDIT" "$OUT.new/audit-by-release.txt"
BYTES=$(du -sb "$OUT.new/db" | cut -f1)
cat > "$OUT.new/README.md" <<EOF
# A database written by a released adjutant

\`db/\` is a database written by \`adjutant\` built from commit $RELEASE (the
release), with \`scripts/make_release_fixture.sh\` (read its header for what
each game holds and how to rebuild it for the next release). Every later
build must open it, verify every branch, audit every turn identical, fold
every view and report and go on with the game: \`tests/replay/released_db_test.cc\`
(ctest \`released database*\`) does so on a copy, never on this directory.

| game | kind | what it holds |
| --- | --- | --- |
| \`nwol\` | sow + pate (\`fixtures/scenarios/nwol-1805.json\`, \`fixtures/maps/nwol-waters.json\`) | 1805.1.1 with a GA directive and every person's orders, adjudicated as a whole turn with \`--key\`; 1805.1.2's orders and directive and two of its phases adjudicated with \`--phase\`; branch \`whatif\` forked \`--at 1805.1.2 --with-orders\` |
| \`europe\` | y1820 (\`fixtures/y1820/europe-1820.json\`) | 1820.0 adjudicated by turn; 1820.1 under a dice commitment (committed, adjudicated with the salt, revealed); 1820.2's orders standing |
| \`talavera\` | dog (\`fixtures/dog/talavera-brigade.json\`) | moves 1.1 and 1.2 with both generals' orders, each adjudicated with \`--phase\`; a GA ruling; move 1.3's orders standing |

Every person's password is \`PERSON-password\` (e.g. \`nelson-password\`): the test
sends orders and asks for a report with them, so the release's password hashes are read.

\`digests.txt\`: the digest (\`adjutant digest GAME --branch B --turn T\`) of every
finished turn as the released binary gave it; the current code must give the same.
\`audit-by-release.txt\`: what the released binary's own \`audit --all\` said of every
branch (it reported the turn adjudicated with \`--key\` as differing, issue 18); the
current code's audit must be identical on every turn of every branch.

The database holds the acknowledged heads its writes left (\`adjutant-heads\`,
ledger/acked.h; needed: a database whose heads file is missing opens, but then
proves nothing about a short log); there is no \`adjutant-damage/\` (nothing in it
is damaged). It was compacted with RocksDB's \`ldb compact\` on every column
family (Debian's rocksdb-tools) and opened read-write once by the released
binary; RocksDB's \`LOG\` files are left out (RocksDB writes a new one). Size:
$BYTES bytes.

To regenerate it for a new release: build that release's \`adjutant\` from its
own commit (not the working tree) and run
\`ADJUTANT_RELEASE=COMMIT bash scripts/make_release_fixture.sh PATH/TO/adjutant\`; commit
\`fixtures/released-db/\` (\`git add -f\` is not needed: nothing there is ignored).
EOF
rm -rf "$OUT"; mv "$OUT.new" "$OUT"
echo "wrote $OUT (database: $BYTES bytes, written by adjutant $RELEASE)"
