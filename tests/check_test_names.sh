#!/bin/sh
# Every test name of the Catch2 binary ($1) must be printable by Catch2's
# console reporter: it wraps a name after its first ": " and aborts (an
# assertion in its TextFlow) when that is past about the 76th column, so the
# failure of such a test would be a crash with its message lost.
set -eu
# Catch2 2.x exits with the number of tests listed: the count below checks
# that the listing worked.
names=$("$1" --list-test-names-only || true)
n=$(printf '%s\n' "$names" | grep -c . || true)
[ "$n" -gt 100 ] || { echo "only $n test names listed by $1" >&2; exit 1; }
# A ';' would split the name in two for CTest (catch_discover_tests makes a
# list of the names), each half a test that fails.
printf '%s\n' "$names" | awk '{ i = index($0, ": "); if (i > 72) { printf "first \": \" at column %d (at most 72): %s\n", i, $0; bad = 1 }
       if (index($0, ";") > 0) { printf "a \";\" in a test name splits it for CTest: %s\n", $0; bad = 1 } }
     END { exit bad }' >&2
