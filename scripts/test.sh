#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors, and runs
# every test through ctest, three ways (what .ci/run calls):
#   1. as built (build/, GCC);
#   2. built with clang, AddressSanitizer and UBSan (build-asan/; any report
#      fails the test that triggered it), plus the libFuzzer targets, each
#      fuzzing for a bounded time from its seed corpus;
#   3. the server, source and target tests built with ThreadSanitizer
#      (build-tsan/, clang).
# Idempotent.
#   --plain      1 only (the quick loop while developing)
#   --sanitize   2 only
#   --tsan       3 only
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
case "$mode" in
  all | --plain | --sanitize | --tsan) ;;
  *) echo "usage: scripts/test.sh [--plain | --sanitize | --tsan]" >&2; exit 64 ;;
esac
./scripts/install-deps.sh
jobs=$(nproc)
clang=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DWARMUP_WERROR=ON)

if [ "$mode" = all ] || [ "$mode" = --plain ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARMUP_WERROR=ON
  cmake --build build -j"$jobs"
  ctest --test-dir build --output-on-failure -j"$jobs"
fi

if [ "$mode" = all ] || [ "$mode" = --sanitize ]; then
  # fuzzer-no-link: the library carries libFuzzer's coverage hooks, so that
  # the fuzz targets built here see into it; the tests do not mind them.
  flags="-O1 -g -fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  # The Python module is left to the plain suite: an ASan-instrumented module
  # cannot load into an uninstrumented interpreter.
  cmake -S . -B build-asan -G Ninja "${clang[@]}" -DWARMUP_FUZZ=ON -DWARMUP_BUILD_BENCHMARKS=OFF -DWARMUP_BUILD_PYTHON=OFF \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
  cmake --build build-asan -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi

if [ "$mode" = all ] || [ "$mode" = --tsan ]; then
  # The threads are in the server (gRPC's, the orphan reaper, the system
  # endpoint), the gRPC source (its prefetch) and the remote target: their
  # tests, under TSan, in process.
  cmake -S . -B build-tsan -G Ninja "${clang[@]}" -DWARMUP_BUILD_BENCHMARKS=OFF -DWARMUP_BUILD_EXAMPLES=OFF -DWARMUP_BUILD_PYTHON=OFF \
    -DCMAKE_CXX_FLAGS="-O1 -g -fsanitize=thread" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread"
  cmake --build build-tsan -j"$jobs" --target warmup_tests warmup_cli
  # Debian's gRPC and Abseil are not instrumented: their locks are invisible
  # to TSan, so hand-offs through them are suppressed (tests/tsan.supp says
  # which, and why); warmup's own code is never.
  mkdir -p build-tsan/test-tmp
  TMPDIR=$PWD/build-tsan/test-tmp \
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1 suppressions=$PWD/tests/tsan.supp" \
    build-tsan/tests/warmup_tests \
    --source-file='*tests/server/*,*tests/rpc/*,*tests/tls/*,*catalog_target_conformance_test.cc,*copy_faults_test.cc'
fi
