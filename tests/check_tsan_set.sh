#!/bin/sh
# The ThreadSanitizer pass builds adjutant_tests from the files tests/tsan.tests
# lists, and runs the tests its names select. Every test of the whole binary
# ($1, the normal build's) that those names select must live in a listed file,
# or the TSan pass would silently stop running it; every listed file must
# exist and hold at least one of them ($2: tests/tsan.tests).
set -eu
bin=$1
set_file=$2
dir=$(dirname "$set_file")
select=$(sed -n 's/^select //p' "$set_file")
except=$(sed -n 's/^except //p' "$set_file")
files=$(sed -n 's/^file //p' "$set_file")
[ -n "$select" ] && [ -n "$files" ] || { echo "$set_file: no select line or no file lines" >&2; exit 1; }
bad=0
for f in $files; do
  [ -f "$dir/$f" ] || { echo "$set_file: file $f: no such test file" >&2; bad=1; }
done
# Catch2 2.x's verbose listing: the name (wrapped at a space, the rest
# indented by four), then its source file and line, then its description and
# tags. Each test is printed here as "FILE<TAB>NAME".
listing=$("$bin" --list-tests --verbosity high || true)
tests=$(printf '%s\n' "$listing" | awk '
  /^  [^ ]/ { name = substr($0, 3); inname = 1; next }
  inname && /^    [^ ]/ && /:[0-9]+$/ { src = substr($0, 5); sub(/:[0-9]+$/, "", src); print src "\t" name; inname = 0; next }
  inname && /^    [^ ]/ { name = name " " substr($0, 5); next }')
n=$(printf '%s\n' "$tests" | grep -c . || true)
[ "$n" -gt 100 ] || { echo "only $n tests listed by $bin" >&2; exit 1; }
chosen=$(printf '%s\n' "$tests" | awk -F '\t' -v s="$select" -v e="$except" '$2 ~ s && !($2 ~ e)')
m=$(printf '%s\n' "$chosen" | grep -c . || true)
[ "$m" -gt 0 ] || { echo "the names select no test of $bin" >&2; exit 1; }
missing=$(printf '%s\n' "$chosen" | while IFS="$(printf '\t')" read -r src name; do
  found=0
  for f in $files; do case "$src" in */tests/"$f"|tests/"$f") found=1 ;; esac; done
  [ "$found" = 1 ] || printf '%s: "%s" is selected for ThreadSanitizer, but its file is not a "file" of %s\n' "$src" "$name" "$set_file"
done)
[ -z "$missing" ] || { printf '%s\n' "$missing" >&2; bad=1; }
# And no listed file without a selected test: the TSan tree would compile it for nothing.
for f in $files; do
  printf '%s\n' "$chosen" | cut -f1 | grep -qE "(^|/)tests/$f\$" ||
    { echo "$set_file: file $f holds no test the names select; the TSan tree would compile it for nothing" >&2; bad=1; }
done
[ "$bad" = 0 ] && echo "$m tests selected for ThreadSanitizer, every one in a listed file"
exit $bad
