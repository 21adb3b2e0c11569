#!/usr/bin/env bash
# The mutation check: does the suite notice when the code is wrong?
#
# Flips one chosen condition at a time in the exit-code logic, the copy loop,
# the digest and the engine's index code; rebuilds; runs the test suite; and
# reports whether some test failed ("killed") or none did ("SURVIVED").
# Every file is restored afterwards, also when the script is interrupted.
#
#   scripts/mutate.sh [BUILD_DIR [N ...]]   BUILD_DIR defaults to build (as scripts/test.sh
#                                           makes it); N ... runs only those mutations
#
# Exit status: 0 when every mutation was killed, 1 when one survived, 2 when a
# mutation no longer applies (its code moved: update the list below).
# Takes about a minute per mutation on 2 cores; results go in docs/testing.md.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
only=" ${*:2} "
[ -d "$build" ] || { echo "mutate: no build directory $build (run scripts/test.sh first)"; exit 2; }

# file | code as it is | code as mutated | what the mutation breaks
mutations=(
  "libwarmup/src/report/run_result.cc|return 2;|return 0;|unknown counts pass as verified (exit 0 for exit 2)"
  "libwarmup/src/report/run_result.cc|if (c.failed > 0) return 1;|if (c.failed > 1) return 1;|one rejected upsert no longer fails the run"
  "libwarmup/src/report/run_result.cc|std::ceil(p * n)|std::floor(p * n)|percentiles one rank too low"
  "libwarmup/src/report/run_result.cc|if (s.count >= 1000)|if (s.count > 1000)|p99.9 withheld at exactly 1000 samples"
  "libwarmup/src/copy/copy_engine.cc|if (*count != c.expected_count) r.verification = Verification::kMismatch;|if (false) r.verification = Verification::kMismatch;|a short copy verifies"
  "libwarmup/src/copy/copy_engine.cc|if (r.ExitCode() == 1 && !options.keep_target)|if (r.ExitCode() == 1 && options.keep_target)|failed runs keep their catalog, --keep-target drops it"
  "libwarmup/src/copy/copy_engine.cc|const int64_t upsert_ns = Nanos(t - read_end);|const int64_t upsert_ns = Nanos(t - read_start);|upsert time includes the read"
  "libwarmup/src/copy/copy_engine.cc|c.copied < options_.max_per_collection|c.copied <= options_.max_per_collection|the cap copies one entity too many"
  "libwarmup/src/model/digest.cc|Write(p.indexed);|;|the digest ignores a price's indexed flag"
  "libwarmup/src/model/digest.cc|if (r.group) Write(*r.group);|;|the digest ignores a reference's group"
  "libwarmup/src/engine/entity_index.cc|if (!p.indexed) continue;|;|prices that are not indexed are indexed"
  "libwarmup/src/engine/price_for_sale.cc|if (in_range(sum)) selected[pk] = sum;|if (in_range(sum)) selected[pk] = chosen.begin()->second;|SUM handling takes one inner record"
  "libwarmup/src/engine/index_keys.cc|if (remainder * 2 >= divisor) ++n;|if (remainder * 2 > divisor) ++n;|decimals round half down"
  "libwarmup/src/engine/entity_index.cc|rs != nullptr && InScope(rs->faceted_in_scopes, scope)|rs != nullptr|references that are not faceted are indexed as facets"
  "libwarmup/src/engine/collection.cc|global.RemoveMember(pk);|;|a replaced entity stays in the index"
  "libwarmup/src/engine/collection.cc|if (stored == offsets_.end()) return OkStatus();|if (true) return OkStatus();|reflected references leave the referenced entity's indexes alone"
  "libwarmup/src/engine/collection.cc|type == ReferenceIndexType::kForFilteringAndPartitioning ? entries.full : entries.filtering;|entries.full;|filtering-only reduced indexes get the entity's whole data"
  "libwarmup/src/engine/price_for_sale.cc|if (!valid[i].contains(static_cast<uint32_t>(id))) continue;|;|price validity is ignored"
  "libwarmup/src/engine/collection.cc|if (member != d.members.end() && --member->second == 0) {|if (member != d.members.end()) {|an entity leaves a group index with its first reference out"
  "libwarmup/src/engine/catalog.cc|if (LacksDefaultValues(collection.schema(), entity)) {|if (false) {|an upsert's missing default values stay missing"
  "libwarmup/src/engine/upsert_validation.cc|if (count == 0 && IsMandatory(rs.cardinality)) {|if (count < 0 && IsMandatory(rs.cardinality)) {|a mandatory reference may be missing"
)

backup=$(mktemp -d)
current=
restore() {
  if [ -n "$current" ]; then
    cp "$backup/file" "$current"
    current=
  fi
}
trap 'restore; rm -rf "$backup"' EXIT
trap 'exit 130' INT TERM

rebuild() { cmake --build "$build" --target warmup_tests warmup_cli -j"$(nproc)" > "$backup/build.log" 2>&1; }

survived=0
stale=0
printf '| # | file | mutation | result |\n|---|---|---|---|\n'
n=0
for entry in "${mutations[@]}"; do
  n=$((n + 1))
  [ "$only" = "  " ] || [[ "$only" == *" $n "* ]] || continue
  IFS='|' read -r file from to what <<< "$entry"
  count=$(grep -cF -- "$from" "$file" || true)
  if [ "$count" != 1 ]; then
    printf '| %d | %s | %s | STALE: the code occurs %s times |\n' "$n" "$file" "$what" "$count"
    stale=1
    continue
  fi
  cp "$file" "$backup/file"
  current=$file
  FROM=$from TO=$to python3 -c '
import os, sys
p = sys.argv[1]
s = open(p).read()
open(p, "w").write(s.replace(os.environ["FROM"], os.environ["TO"], 1))' "$file"
  if ! rebuild; then
    result="killed by the compiler"
  else
    # The unit entries and the wrapper test; not the formatter, the guard or the count.
    if ctest --test-dir "$build" -j"$(nproc)" --stop-on-failure -E 'clang_format|all_test_cases|test_case_count' \
        > "$backup/ctest.log" 2>&1; then
      result="**SURVIVED**"
      survived=1
    else
      killer=$(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) ([A-Za-z ]*)$/\1/p' "$backup/ctest.log" \
        | grep -v '^leftovers' | head -n 1)
      result="killed by ${killer:-a test}"
    fi
  fi
  restore
  printf '| %d | %s | %s | %s |\n' "$n" "$file" "$what" "$result"
done
rebuild || { echo "mutate: the restored tree does not build: see $backup/build.log"; exit 1; }
[ "$stale" -eq 1 ] && exit 2
exit "$survived"
