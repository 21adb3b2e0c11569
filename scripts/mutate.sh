#!/usr/bin/env bash
# The mutation check: does the suite notice when the code is wrong?
#
# Flips one chosen condition at a time in the exit-code logic, the copy loop,
# the digest, the engine's index code, the comparison statistics, the work
# directory, TLS, the zip validator, progress and the time series; rebuilds
# everything the mutated file feeds (the whole build: the CLI, warmup-profile,
# the Python module); runs the unit cases (the test binary, stopping at the
# first failure), then, when they all pass, every other ctest entry; and
# reports whether some test failed ("killed") or none did ("SURVIVED").
# Every file is restored afterwards, also when the script is interrupted.
# It changes files of the checkout it runs in: run it in a worktree of its own
# while anyone else builds this one (git worktree add ../mut HEAD).
#
#   scripts/mutate.sh [BUILD_DIR [N ...]]   BUILD_DIR defaults to build (as scripts/test.sh
#                                           makes it); N ... runs only those mutations
#
# Exit status: 0 when every mutation was killed, 1 when one survived, 2 when a
# mutation no longer applies (its code moved: update the list below).
# Takes one to a few minutes per mutation on 2 cores; results go in docs/testing.md.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
only=" ${*:2} "
[ -d "$build" ] || { echo "mutate: no build directory $build (run scripts/test.sh first)"; exit 2; }

# file | code as it is | code as mutated | what the mutation breaks
mutations=(
  "libwarmup/src/result/run_result.cc|return 2;|return 0;|unknown counts pass as verified (exit 0 for exit 2)"
  "libwarmup/src/result/run_result.cc|if (c.failed > 0) return 1;|if (c.failed > 1) return 1;|one rejected upsert no longer fails the run"
  "libwarmup/src/result/latency_stats.cc|std::ceil(p * n)|std::floor(p * n)|percentiles one rank too low"
  "libwarmup/src/result/latency_stats.cc|if (s.count >= 1000)|if (s.count > 1000)|p99.9 withheld at exactly 1000 samples"
  "libwarmup/src/copy/copy_engine.cc|if (*count != c.expected_count) r.verification = Verification::kMismatch;|if (false) r.verification = Verification::kMismatch;|a short copy verifies"
  "libwarmup/src/copy/copy_engine.cc|    if (options.keep_target) {|    if (!options.keep_target) {|failed runs keep their catalog, --keep-target drops it"
  "libwarmup/src/copy/copy_engine.cc|const int64_t upsert_ns = Nanos(t - read_end);|const int64_t upsert_ns = Nanos(t - read_start);|upsert time includes the read"
  "libwarmup/src/copy/copy_engine.cc|c.copied < options_.max_per_collection|c.copied <= options_.max_per_collection|the cap copies one entity too many"
  "libwarmup/src/model/digest.cc|Write(p.indexed);|;|the digest ignores a price's indexed flag"
  "libwarmup/src/model/digest.cc|if (r.group) Write(*r.group);|;|the digest ignores a reference's group"
  "libwarmup/src/engine/index_entries.cc|if (!p.indexed) continue;|;|prices that are not indexed are indexed"
  "libwarmup/src/engine/price_for_sale.cc|if (in_range(sum)) selected[pk] = sum;|if (in_range(sum)) selected[pk] = chosen.begin()->second;|SUM handling takes one inner record"
  "libwarmup/src/engine/index_keys.cc|if (remainder * 2 >= divisor) ++n;|if (remainder * 2 > divisor) ++n;|decimals round half down"
  "libwarmup/src/engine/index_entries.cc|rs != nullptr && InScope(rs->faceted_in_scopes, scope)|rs != nullptr|references that are not faceted are indexed as facets"
  "libwarmup/src/engine/collection_indexes.cc|global.RemoveMember(pk);|;|a replaced entity stays in the index"
  "libwarmup/src/engine/collection_indexes.cc|if (stored == offsets_.end()) return OkStatus();|if (true) return OkStatus();|reflected references leave the referenced entity's indexes alone"
  "libwarmup/src/engine/collection_indexes.cc|type == ReferenceIndexType::kForFilteringAndPartitioning ? entries.full : entries.filtering;|entries.full;|filtering-only reduced indexes get the entity's whole data"
  "libwarmup/src/engine/price_for_sale.cc|if (!valid[i].contains(static_cast<uint32_t>(id))) continue;|;|price validity is ignored"
  "libwarmup/src/engine/collection_indexes.cc|if (member != d.members.end() && --member->second == 0) {|if (member != d.members.end()) {|an entity leaves a group index with its first reference out"
  "libwarmup/src/engine/catalog.cc|if (LacksDefaultValues(collection.schema(), entity)) {|if (false) {|an upsert's missing default values stay missing"
  "libwarmup/src/engine/upsert_validation.cc|if (count == 0 && IsMandatory(rs.cardinality)) {|if (count < 0 && IsMandatory(rs.cardinality)) {|a mandatory reference may be missing"
  # Capabilities of issues 15-17 and 25: comparisons, trust, TLS, progress, time series.
  "libwarmup/src/report/compare.cc|    if (m.p_adjusted < options.alpha) {|    if (m.test.p_value < options.alpha) {|verdicts on raw p, not Holm's"
  "libwarmup/src/report/compare.cc|running = std::max(running, std::min(|running = (std::min(|Holm's adjusted p may fall below an earlier one"
  "libwarmup/src/report/compare.cc|if (holm_factor * SmallestAttainableP(m.a.size(), m.b.size()) >= options.alpha) {|if (holm_factor * SmallestAttainableP(m.a.size(), m.b.size()) > 2.0) {|an undecidable comparison reads 'no change'"
  "libwarmup/src/report/compare.cc|      if (!same_file && runs[i]->identity != runs[j]->identity) continue;|      if (!same_file) continue;|a copy of a report counts as a second run"
  "libwarmup/src/report/compare.cc|      if (value == expected) continue;|      continue;|runs of other settings are compared silently"
  "libwarmup/src/report/compare.cc|      if (count < options.min_collection_count) small.insert(type);|      if (count < 0) small.insert(type);|medians of one entity are compared"
  "libwarmup/src/report/compare.cc|  const double sigma = 1.4826 * Median(deviations);|  const double sigma = Median(deviations);|the detectable change from the MAD unscaled"
  "libwarmup/src/report/compare.cc|  if (tie_term == 0 && m <= 20 && n <= 20) {|  if (tie_term == 0 && m < 20 && n < 20) {|the exact test stops one run early"
  "libwarmup/src/common/work_dir.cc|!LiesInside(used.path, path)) continue;|!LiesInside(used.path, path) != LiesInside(used.path, path)) continue;|a source or report inside the work directory is allowed"
  "libwarmup/src/common/work_dir.cc|    if (!IsSafeName(name) |    if (false |a marker line can name a path outside the directory"
  "libwarmup/src/engine/engine.cc|    if (Status s = RecordInMarker(schema.name); !s.ok()) return s;|    ;|the engine's catalogs are not recorded as warmup's"
  "libwarmup/src/result/run_result.cc|!output_error.empty()) return 1;|false) return 1;|an unwritten report still exits 0"
  "libwarmup/src/copy/copy_engine.cc|  if (!target.StoresEntities()) {|  if (false) {|the null target is verified"
  "libwarmup/src/copy/copy_engine.cc|        AddUnreached(*info);|        ;|an aborted run's expected counts only what it reached"
  "libwarmup/src/report/text_report.cc|return \"INTERRUPTED: a partial run; do not quote these figures\";|;|an interrupted run's verdict does not say so"
  "libwarmup/src/rpc/grpc_source.cc|    if (response.catalogstate() != pb::ALIVE && !options_.allow_not_alive) {|    if (false) {|a warming-up catalog is exported as a snapshot"
  "libwarmup/src/server/server.cc|: GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);|: GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_BUT_DONT_VERIFY);|mTLS accepts a client certificate of any CA"
  "libwarmup/src/model/digest.cc|  std::sort(locales.begin(), locales.end());|  ;|the digest depends on the order locales are listed in"
  "libwarmup/src/result/gc_log.cc|  if (tags != \"gc\") return;|  ;|GC lines of other tags are counted"
  "libwarmup/src/result/time_series.cc|  const int64_t end_ns = sample.start_offset_ns + sample.read_ns + sample.upsert_ns;|  const int64_t end_ns = sample.start_offset_ns + sample.upsert_ns;|an upsert's end leaves out its read"
  "libwarmup/src/result/time_series.cc|    interval.end_seconds = std::min(load_seconds, static_cast<double>(i + 1) * width);|    interval.end_seconds = static_cast<double>(i + 1) * width;|the last interval's rate over its nominal width"
  "libwarmup/src/run/run_load.cc|  result.abort_reason = AbortReason::kInterrupted;|  ;|an interrupt that stopped the server reads as a failed target"
  "apps/warmup/serve.cc|    if (makes_data_dir) std::filesystem::remove_all(cmd->data_dir, fs_ec);|    ;|a serve that cannot start leaves its new data directory"
  "libwarmup/src/rpc/client.cc|codec::IsSessionOrCatalogRefusal(domain)) {|false) {|a refused session or catalog passes for a rejected entity"
  "libwarmup/src/rpc/remote_target.cc|    StartKeeper();|    ;|the write session is never kept alive"
  "libwarmup/src/model/entity.cc|!declared->second.inherited|false|a dropped reflected attribute is never counted"
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

# The whole build: a mutation in the Python module or warmup-profile must not
# run a stale binary and "survive".
rebuild() { cmake --build "$build" -j"$(nproc)" > "$backup/build.log" 2>&1; }

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
    # The unit cases in one process first (quick), then the other entries;
    # not the formatter, the guard or the count.
    mkdir -p "$backup/tmp"
    if ! TMPDIR=$backup/tmp timeout 900 "$build/tests/warmup_tests" --abort-after=1 > "$backup/unit.log" 2>&1; then
      # The case whose block holds the first ERROR: doctest also prints a
      # TEST CASE header above a passing case's MESSAGE lines.
      killer=$(awk '/^TEST CASE:/ { sub(/^TEST CASE: */, ""); name = $0 }
                    /ERROR:/ && name != "" { print "unit:" name; exit }' "$backup/unit.log")
      result="killed by ${killer:-the unit cases}"
    elif ctest --test-dir "$build" -j"$(nproc)" --stop-on-failure \
        -E '^unit:|clang_format|all_test_cases|test_case_count' > "$backup/ctest.log" 2>&1; then
      result="**SURVIVED**"
      survived=1
    else
      killer=$(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) ([A-Za-z ]*)$/\1/p' "$backup/ctest.log" \
        | awk '!/^leftovers/ && !seen { print; seen = 1 }')
      result="killed by ${killer:-a test}"
    fi
    rm -rf "$backup/tmp"
  fi
  restore
  printf '| %d | %s | %s | %s |\n' "$n" "$file" "$what" "$result"
done
rebuild || { echo "mutate: the restored tree does not build: see $backup/build.log"; exit 1; }
[ "$stale" -eq 1 ] && exit 2
exit "$survived"
