#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors, and runs
# every test through ctest, three ways (what .ci/run calls):
#   1. as built (build/, GCC): every entry, the whole-binary guard too;
#   2. built with clang, AddressSanitizer and UBSan (build-asan/; any report
#      fails the test that triggered it): the library, the tests and the CLI
#      only, every entry but the guard (each case already runs in a process of
#      its own), plus the libFuzzer targets, each fuzzing for a bounded time
#      from its seed corpus (--fuzz-seconds, 10 by default);
#   3. the test cases whose code runs on several threads (server, sources,
#      targets, progress, read ahead, goLive's snapshots: warmup_threaded_tests)
#      built with ThreadSanitizer (build-tsan/, clang), the library with
#      clang's thread-safety analysis as errors (WARMUP_THREAD_SAFETY_ANALYSIS).
# In the TSan leg the generated protobuf/gRPC sources build at -O0 without
# debug information (WARMUP_GENERATED_CXX_FLAGS): still instrumented, at a
# third of the compile time. Not in the ASan leg, nor test sources at -O0 in
# any leg: tried, the ASan leg's tests took twice as long (1226 s against
# 618 s) and an oracle test ran out of its time, more than the build saved.
# Idempotent. Ends with one timing line per leg, and every ctest entry has a
# timeout, so a run that goes past CI's budget says which leg and which test
# took the time.
#   --plain      1 only (the quick loop while developing)
#   --sanitize   2 only
#   --tsan       3 only
#   --fuzz-seconds N   how long each fuzz target runs in 2 (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=all
fuzz_seconds=10
while [ $# -gt 0 ]; do
  case "$1" in
    --plain | --sanitize | --tsan) mode=$1 ;;
    --fuzz-seconds)
      [ $# -ge 2 ] && [[ "$2" =~ ^[0-9]+$ ]] || { echo "usage: --fuzz-seconds N (whole seconds)" >&2; exit 64; }
      fuzz_seconds=$2
      shift
      ;;
    *) echo "usage: scripts/test.sh [--plain | --sanitize | --tsan] [--fuzz-seconds N]" >&2; exit 64 ;;
  esac
  shift
done
./scripts/install-deps.sh
jobs=$(nproc)
clang=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DWARMUP_WERROR=ON)
# ccache entries that do not depend on where the checkout is: CI builds a
# fresh clone in a folder of its own, which would otherwise miss every one.
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
# Per entry; the slowest entries set their own, longer limits in CMake.
ctest_limits=(--timeout 900 --output-on-failure -j"$jobs")

timings=()
leg_started=0
start_leg() { leg_started=$SECONDS; }
end_leg() {  # end_leg NAME BUILD_SECONDS
  timings+=("$(printf '%-28s build %4d s, tests %4d s' "$1" "$2" $((SECONDS - leg_started - $2)))")
}
# The five slowest entries of a leg, from ctest's console log of it (-O).
slowest() { scripts/ctest-slowest.sh "$1/ctest-output.log" 5; }
report() {
  echo
  echo "scripts/test.sh timings (ccache: $(ccache -s 2> /dev/null | awk '/^ *Hits:/ && !seen { print $2 " hits"; seen = 1 }')):"
  for t in "${timings[@]}"; do echo "  $t"; done
}
trap report EXIT

if [ "$mode" = all ] || [ "$mode" = --plain ]; then
  start_leg
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARMUP_WERROR=ON
  cmake --build build -j"$jobs"
  built=$((SECONDS - leg_started))
  ctest --test-dir build "${ctest_limits[@]}" -O build/ctest-output.log || { end_leg "1 plain (GCC)" $built; slowest build; exit 1; }
  end_leg "1 plain (GCC)" $built
  slowest build
fi

if [ "$mode" = all ] || [ "$mode" = --sanitize ]; then
  start_leg
  # fuzzer-no-link: the library carries libFuzzer's coverage hooks, so that
  # the fuzz targets built here see into it. The test sources stay
  # instrumented: Abseil lays out its B-trees differently under ASan, so a test
  # built without it that instantiates them breaks the one-definition rule
  # (a goLive looped for ever in SaveSets).
  flags="-O1 -g -fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  # The library, the tests, the CLI and the fuzzers: the examples, the
  # benchmarks and the Python module are the plain leg's (an ASan-instrumented
  # module cannot load into an uninstrumented interpreter anyway).
  cmake -S . -B build-asan -G Ninja "${clang[@]}" -DWARMUP_FUZZ=ON -DWARMUP_FUZZ_SECONDS="$fuzz_seconds" \
    -DWARMUP_BUILD_BENCHMARKS=OFF -DWARMUP_BUILD_PYTHON=OFF -DWARMUP_BUILD_EXAMPLES=OFF \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
  cmake --build build-asan -j"$jobs"
  built=$((SECONDS - leg_started))
  # The guard (the whole binary in one process) is the plain leg's: here every
  # case already runs under the sanitizers in a process of its own. So is
  # ab_builds: about a hundred server starts and loads of the tiny catalog,
  # 440 s under the sanitizers, through the serve, load and ab code that
  # server_command (an ab of its own) and the CLI tests run here.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan "${ctest_limits[@]}" -E '^(all_test_cases|ab_builds)$' -O build-asan/ctest-output.log ||
    { end_leg "2 ASan+UBSan (clang)" $built; slowest build-asan; exit 1; }
  end_leg "2 ASan+UBSan (clang)" $built
  slowest build-asan
fi

if [ "$mode" = all ] || [ "$mode" = --tsan ]; then
  start_leg
  # The threads are in the server (gRPC's, the orphan reaper, the system
  # endpoint), the gRPC source (its prefetch), the remote target, the
  # progress reporter, the source read ahead and goLive's snapshot writer:
  # their tests (tests/CMakeLists.txt names them), under TSan, in process.
  # The build also runs clang's thread-safety analysis: a GUARDED_BY member
  # touched without its lock does not compile (src/base/mutex.h).
  cmake -S . -B build-tsan -G Ninja "${clang[@]}" "-DWARMUP_GENERATED_CXX_FLAGS=-O0 -g0" -DWARMUP_BUILD_BENCHMARKS=OFF -DWARMUP_BUILD_EXAMPLES=OFF -DWARMUP_BUILD_PYTHON=OFF \
    -DWARMUP_THREAD_SAFETY_ANALYSIS=ON \
    -DCMAKE_CXX_FLAGS="-O1 -g -fsanitize=thread" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread"
  cmake --build build-tsan -j"$jobs" --target warmup_threaded_tests warmup_cli
  built=$((SECONDS - leg_started))
  # Debian's gRPC and Abseil are not instrumented: their locks are invisible
  # to TSan, so hand-offs through them are suppressed (tests/tsan.supp says
  # which, and why); warmup's own code is never.
  mkdir -p build-tsan/test-tmp
  TMPDIR=$PWD/build-tsan/test-tmp \
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1 suppressions=$PWD/tests/tsan.supp" \
    timeout 1200 build-tsan/tests/warmup_threaded_tests ||
    { end_leg "3 TSan (clang)" $built; exit 1; }
  end_leg "3 TSan (clang)" $built
fi
