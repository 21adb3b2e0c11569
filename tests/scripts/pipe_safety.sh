#!/usr/bin/env bash
# tests/scripts/pipe_safety.sh SOURCE_DIR: the project's shell scripts never
# end a pipe early under pipefail.
#
# A reader that stops before its input ends (head, grep -q, grep -m) leaves
# the writer to die of SIGPIPE once the writer's output outgrows the pipe's
# buffer; under pipefail the whole pipeline then fails with 141. CI failed that
# way: scripts/test.sh listed the slowest tests through `sort | head -n 5`.
set -euo pipefail
src=$1
fail() { echo "pipe_safety: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Lines of pipefail scripts that pipe into an early reader (comments skipped).
early_readers() {  # early_readers FILE...
  local f
  for f in "$@"; do
    grep -q 'pipefail' "$f" || continue
    grep -nE '(^|[^|])\|[[:space:]]*(head\b|grep[[:space:]]+(-[A-Za-z]*[qm]|--quiet|--max-count))' "$f" |
      grep -vE '^[0-9]+:[[:space:]]*#' | sed "s|^|$f:|" || true
  done
}

# The rule itself finds what it is meant to find, and leaves alone what it
# should: a here-string into grep -q, an "||" before grep -q, a comment.
cat > "$tmp/planted.sh" <<'PLANTED'
#!/usr/bin/env bash
set -euo pipefail
first=$(ls / | head -n 1)
if printf 'a\n' | grep -qx a; then :; fi
cut -f1 data | grep -m 1 x
grep -q x <<< "$first" || grep -q y <<< "$first"
# sort | head -n 5 in a comment
PLANTED
found=$(early_readers "$tmp/planted.sh" | wc -l)
[ "$found" -eq 3 ] || fail "the rule found $found of the 3 planted early readers: $(early_readers "$tmp/planted.sh")"

# Regression: CI exited 141 after the sanitizer leg, in the listing of the
# slowest tests. A log whose digest is several pipe buffers long, with five
# entries planted slowest; the listing must succeed and name them in order.
{
  for i in $(seq 1 3000); do
    printf '%d/3005 Test #%d: unit:case %d, whose name says at length what the case checks and why it matters ....   Passed    1.00 sec\n' "$i" "$i" "$i"
  done
  printf '3001/3005 Test #3001: unit:slow five ....   Passed    5.10 sec\n'
  printf '3002/3005 Test #3002: unit:slow one ....   Passed   99.50 sec\n'
  printf '3003/3005 Test #3003: unit:slow three ....***Failed   17.30 sec\n'
  printf '3004/3005 Test #3004: unit:slow two ....   Passed   28.40 sec\n'
  printf '3005/3005 Test #3005: unit:slow four ....   Passed    6.20 sec\n'
} > "$tmp/ctest-output.log"
out=$(bash "$src/scripts/ctest-slowest.sh" "$tmp/ctest-output.log" 5) ||
  fail "regression: ctest-slowest.sh failed with exit $? on a long log (SIGPIPE under pipefail is 141)"
expected=$(printf '      99.5 s  unit:slow one\n      28.4 s  unit:slow two\n      17.3 s  unit:slow three\n       6.2 s  unit:slow four\n       5.1 s  unit:slow five')
[ "$out" = "$expected" ] || fail "the slowest five are not listed as expected:"$'\n'"$out"

# And the project's own scripts.
# (this file is left out: its planted lines are meant to be found)
mapfile -t scripts < <(find "$src/scripts" "$src/tests/scripts" -name '*.sh' ! -name pipe_safety.sh; echo "$src/.ci/run")
bad=$(early_readers "${scripts[@]}")
[ -z "$bad" ] || fail "a pipe ends early under pipefail (read to the end: awk 'NR <= n', grep > /dev/null):"$'\n'"$bad"
echo "pipe_safety: ${#scripts[@]} scripts checked, the rule found the 3 planted early readers, the slowest-tests listing survives a long log"
