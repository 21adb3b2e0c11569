#!/usr/bin/env bash
# scripts/ctest-slowest.sh LOG [N]: the N (default 5) slowest entries of a
# ctest console log (ctest -O LOG), slowest first, as "  <seconds> s  <name>".
#
# Every stage reads its input to the end: under pipefail a reader that stops
# early (head, grep -q) kills the writer with SIGPIPE and fails the caller with
# exit 141 as soon as the writer's output outgrows a pipe's buffer.
set -euo pipefail
log=$1 count=${2:-5}
[ -f "$log" ] || exit 0
sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \(.*[^ .]\) \.*[ *]*[A-Za-z][A-Za-z ]* *\([0-9.]*\) sec$/\2\t\1/p' "$log" |
  sort -t$'\t' -k1 -rn |
  awk -F'\t' -v count="$count" 'NR <= count { printf "    %6.1f s  %s\n", $1, $2 }'
