#!/usr/bin/env bash
# The library speaks in its own terms (issue 53): no string literal in
# libwarmup/src names a command-line flag ("--pristine-dir"). A message says
# what was wrong with which value in the library's words, or in the words a
# caller passed (SpecNames, ClientTlsNames, ...); each frontend adds its own
# vocabulary, so that a Python user never reads a flag that is not theirs.
# Only the literals below may hold one, each for the reason above it.
# usage: library_words.sh LIBWARMUP_DIR     lists every literal with a flag outside the allowlist
#        library_words.sh --self-test DIR   plants one in a copy, requires it to be found
set -uo pipefail

# FILE (under src/) and the literal, quotes included, as it stands in the code.
allowed() {
  cat <<'LIST'
# The argv of the `warmup serve` a ServerProcess starts: serve's own flags, not a message.
process/server_process.cc "--listen"
process/server_process.cc "--ready-fd"
run/run_load.cc "--data-dir"
run/run_load.cc "--compress"
run/run_load.cc "--records-inline"
# Advice inside reports that only the CLI's commands render (compare,
# summarize, history changes); Python renders none of them. (A run's own
# caveats are in its JSON report, which Python returns: they name no flag.)
# Not error strings: left for a step of their own.
history/change_points.cc ": take more runs, or give the --threshold that matters"
report/run_summary.cc "take more --warmup-runs, or summarize the runs after it stops\n"
report/compare.cc "); --force compares them anyway"
report/compare.cc "--force overrode: "
report/compare.cc "(--warmup-runs)"
report/compare.cc "\n  *: the primary metric (--metric), declared before the runs: its verdict is the comparison's,\n"
report/compare.cc " (to decide on it, declare it before the runs: --metric "
report/compare.cc "are recommended), or let Welch's t test of their logarithms decide (--test auto)"
LIST
}

# Every "FILE LITERAL" of src/ whose literal names a flag: full-line comments
# and character literals ('"') are left out first, so that only strings count.
found() {
  local src=$1/src
  (cd "$src" && find . -name '*.cc' -o -name '*.h' | sed 's|^\./||' | sort) | while IFS= read -r file; do
    sed -E -e 's|^[[:space:]]*//.*$||' -e "s/'(\\\\.|[^'\\\\])'//g" "$src/$file" |
      grep -oE '"([^"\\]|\\.)*"' | grep -E -- '--[a-z][a-z-]+' | sed "s|^|$file |" || true
  done
}

check() {
  local bad stale
  bad=$(comm -23 <(found "$1" | sort -u) <(allowed | grep -v '^#' | sort -u))
  # An entry whose literal is gone would let a new one of the same words in unseen.
  stale=$(comm -13 <(found "$1" | sort -u) <(allowed | grep -v '^#' | sort -u))
  if [ -n "$bad" ]; then
    echo "library_words: a flag in a string of libwarmup/src (say it in the library's words, or take the caller's):"
    echo "$bad"
  fi
  if [ -n "$stale" ]; then
    echo "library_words: allowlist entries no longer in the code (remove them):"
    echo "$stale"
  fi
  [ -z "$bad" ] && [ -z "$stale" ]
}

if [ "${1:-}" = --self-test ]; then
  lib=$2
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  check "$lib" > /dev/null || { echo "library_words self-test: the tree itself does not pass"; exit 1; }
  # A long flag and a short one (the guard once saw only flags of 4 letters or more).
  for planted in "give --pristine-dir" "add --tls"; do
    rm -rf "$scratch/src" && cp -r "$lib/src" "$scratch/"
    echo "const char* kPlanted = \"$planted\";" >> "$scratch/src/tls/tls_files.cc"
    if check "$scratch" > /dev/null; then
      echo "library_words self-test: a planted \"$planted\" in tls/tls_files.cc went unnoticed"
      exit 1
    fi
  done
  echo "library_words self-test: the planted flag was found"
  exit 0
fi
check "$1" && echo "library_words: no string of libwarmup/src names a flag outside the allowlist"
