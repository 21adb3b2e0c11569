#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors, and runs
# every test through ctest: once as built (build/), then once more built with
# AddressSanitizer and UBSan (build-asan/; any report fails the test that
# triggered it). Idempotent; what .ci/run calls.
#   --plain      the first suite only (the quick loop while developing)
#   --sanitize   the sanitized suite only
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
case "$mode" in
  all | --plain | --sanitize) ;;
  *) echo "usage: scripts/test.sh [--plain | --sanitize]" >&2; exit 64 ;;
esac
./scripts/install-deps.sh
jobs=$(nproc)
if [ "$mode" = all ] || [ "$mode" = --plain ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARMUP_WERROR=ON
  cmake --build build -j"$jobs"
  ctest --test-dir build --output-on-failure -j"$jobs"
fi
if [ "$mode" = all ] || [ "$mode" = --sanitize ]; then
  # GCC 12 reports false -Wmaybe-uninitialized in libstdc++'s <regex> under
  # -fsanitize; every other warning stays an error.
  flags="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DWARMUP_WERROR=ON \
    -DCMAKE_CXX_FLAGS="$flags -Wno-maybe-uninitialized" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
  cmake --build build-asan -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi
