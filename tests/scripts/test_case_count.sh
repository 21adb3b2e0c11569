#!/usr/bin/env bash
# Fails unless every doctest case has its own ctest entry: the number of
# "unit:" entries ctest knows must equal the test binary's own count.
# (Each entry is itself required to run exactly one case; see CMakeLists.txt.)
# usage: test_case_count.sh CTEST BUILD_DIR WARMUP_TESTS
set -euo pipefail
ctest=$1 build=$2 binary=$3
# (-N lists the fixtures' setup and cleanup too: count the entries by name.)
entries=$("$ctest" --test-dir "$build" -N -R '^unit:' | grep -c '^ *Test *#[0-9]*: unit:' || true)
cases=$("$binary" --count | sed -n 's/.*passing the current filters: \([0-9]*\).*/\1/p')
if [ -z "$entries" ] || [ -z "$cases" ]; then
  echo "test_case_count: could not read the counts (ctest: '$entries', binary: '$cases')"
  exit 1
fi
# ctest splits a name at ';' into entries that match no case: say which.
split=$("$binary" --list-test-cases | grep ';' || true)
if [ -n "$split" ]; then
  echo "test_case_count: test case names must not contain ';' (ctest splits them there):"
  echo "$split"
  exit 1
fi
if [ "$entries" -ne "$cases" ]; then
  echo "test_case_count: ctest has $entries unit entries, $binary has $cases test cases"
  exit 1
fi
echo "test_case_count: $cases test cases, one ctest entry each"
