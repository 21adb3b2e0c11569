#!/usr/bin/env bash
# warmup ab as a user runs it, on the tiny catalog:
#  - the same build on both arms (random order) finds no change on any metric;
#  - arm B with a simulated slower build (serve --inject-upsert-delay-us D)
#    is found regressed on the Product mean upsert, with the right sign, and
#    an interval that does not lie below the injected slowdown (the delay
#    over arm A's measured mean; the round trip around a longer call can only
#    add to it) nor far beyond it;
#  - every run's reports are kept, the warm-up runs are not compared, and
#    what ab sets itself is refused on its command line;
#  - the runs' order: abab, or a seeded shuffle (--order random --seed S);
#    and --noise-from's A/A runs reach the comparison.
# usage: ab_test.sh WARMUP
set -euo pipefail
warmup=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "ab_test: $*"; exit 1; }

"$warmup" generate --profile tiny --out "$dir/pristine" > /dev/null

# A/A: no verdict anywhere (alpha 1 % for the whole table, after Holm).
set +e
out=$("$warmup" ab --a "$warmup" --b "$warmup" --runs 9 --order random --seed 7 --alpha 0.01 \
  --out "$dir/aa" --html "$dir/aa.html" --pristine-dir "$dir/pristine" --verify none 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || fail "A/A exited $rc: $out"
python3 - "$dir/aa" << 'PY' || fail "the A/A comparison is wrong: $out"
import json, os, sys
out = sys.argv[1]
c = json.load(open(os.path.join(out, "compare.json")))
assert c["schema"] == "warmup-compare/4" and c["exit_code"] == 0, c["exit_code"]
assert c["primary_metric"] == "total_seconds" and [m["metric"] for m in c["metrics"] if m["primary"]] == ["total_seconds"]
assert len(c["a"]) == 9 and len(c["b"]) == 9, (c["a"], c["b"])
assert not any("warmup" in f for f in c["a"] + c["b"]), "a warm-up run was compared"
names = {m["metric"] for m in c["metrics"]}
for needed in ("total_seconds", "net_load_seconds", "golive_seconds", "upsert_mean_us:Product",
               "server_cpu_us_per_entity", "server_peak_rss_bytes"):
    assert needed in names, (needed, sorted(names))
changed = [(m["metric"], m["verdict"]) for m in c["metrics"] if m["verdict"] != "no change"]
assert not changed, changed
files = set(os.listdir(out))
for label in ["a-warmup", "b-warmup"] + [f"{arm}{i:02d}" for arm in "ab" for i in range(1, 10)]:
    assert label + ".json" in files and label + ".txt" in files, label
    run = json.load(open(os.path.join(out, label + ".json")))
    assert run["run_label"] == label and run["server_process"] is not None, label
assert "work" not in files, "the work directory was left behind"
# The page carries every measured run of both arms and every metric.
import re
page = open(os.path.join(out, "..", "aa.html"), encoding="utf-8").read()
data = json.loads(re.search(r'<script type="application/json" id="warmup-data">(.*?)</script>', page, re.S).group(1))
assert data["a"] == c["a"] and data["b"] == c["b"], "the page's runs are not the comparison's"
assert {m["metric"] for m in data["metrics"]} == names
PY

# A slower B: twice arm A's Product mean upsert from the A/A runs injected per upsert (at least
# 1 ms), so that the slowdown stands well above the noise of a sanitizer build on a busy machine
# too (regression: a fixed 1 ms on a 9 ms ASan upsert went undetected, the test failed in CI).
delay=$(python3 - "$dir/aa" << 'PY'
import json, os, statistics, sys
out = sys.argv[1]
c = json.load(open(os.path.join(out, "compare.json")))
means = [next(x["upsert"]["mean_us"] for x in json.load(open(f))["collections"]
              if x["entity_type"] == "Product") for f in c["a"]]
print(max(1000, round(2 * statistics.median(means))))
PY
)
set +e
out=$("$warmup" ab --a "$warmup" --b "$warmup" --b-args "--inject-upsert-delay-us $delay" --runs 9 \
  --metric upsert_mean_us:Product --out "$dir/slow" --pristine-dir "$dir/pristine" --verify none 2>&1)
rc=$?
set -e
[ $rc -eq 3 ] || fail "a slower B should exit 3, not $rc: $out"
grep -q "verdict: REGRESSED (exit 3): upsert_mean_us:Product, the primary metric" <<< "$out" ||
  fail "no REGRESSED verdict in: $out"
python3 - "$dir/slow" "$delay" << 'PY' || fail "the slowdown is misjudged: $out"
import json, os, statistics, sys
out, delay = sys.argv[1], float(sys.argv[2])
c = json.load(open(os.path.join(out, "compare.json")))
m = next(m for m in c["metrics"] if m["metric"] == "upsert_mean_us:Product")
assert m["verdict"] == "regressed" and m["ratio"] > 1, m
assert m["hodges_lehmann_shift"] > 0, m
a_mean = statistics.median(
    next(x["upsert"]["mean_us"] for x in json.load(open(f))["collections"] if x["entity_type"] == "Product")
    for f in c["a"])
expected = (a_mean + delay) / a_mean
low, high = m["ratio_ci"]
assert high >= expected and low <= 1.25 * expected, (low, high, expected)
PY

# --sequential: the same slower B, pair by pair, stops as soon as the primary metric is decided
# (a look after each pair from the third, each at alpha / 7 for at most 9 pairs), not after 9.
set +e
out=$("$warmup" ab --a "$warmup" --b "$warmup" --b-args "--inject-upsert-delay-us $delay" --runs 9 --sequential \
  --metric upsert_mean_us:Product --out "$dir/seq" --pristine-dir "$dir/pristine" --verify none 2>&1)
rc=$?
set -e
[ $rc -eq 3 ] || fail "a sequential ab of a slower B should exit 3, not $rc: $out"
grep -q "^sequential: look [0-9] of at most 7 .*stopped once decided; each look tested at alpha 0.05 / 7 = 0.0071" \
  <<< "$out" || fail "no sequential line in: $out"
python3 - "$dir/seq" << 'PY' || fail "the sequential comparison is wrong: $out"
import json, os, sys
out = sys.argv[1]
c = json.load(open(os.path.join(out, "compare.json")))
q = c["sequential"]
assert q["stopped_early"] and q["looks"] == 7 and q["max_runs"] == 9, q
assert abs(c["alpha"] - 0.05 / 7) < 1e-12, c["alpha"]
pairs = len(c["a"])
assert len(c["b"]) == pairs and pairs == q["look"] + 2 and pairs < 9, (pairs, q)
# No run was made after the look that decided.
files = set(os.listdir(out))
assert f"a{pairs + 1:02d}.json" not in files and f"b{pairs + 1:02d}.json" not in files, sorted(files)
PY

# Refusals: a non-empty --out, and what ab sets per run.
set +e
out=$("$warmup" ab --a "$warmup" --b "$warmup" --out "$dir/slow" --pristine-dir "$dir/pristine" 2>&1)
rc=$?
set -e
[ $rc -eq 1 ] && grep -q "is not empty" <<< "$out" || fail "a used --out was not refused ($rc): $out"
for flag in "--work-dir=$dir/w" "--report-json=$dir/r.json" "--address=127.0.0.1:1"; do
  set +e
  out=$("$warmup" ab --a "$warmup" --b "$warmup" --out "$dir/x" --pristine-dir "$dir/pristine" "$flag" 2>&1)
  rc=$?
  set -e
  [ $rc -eq 64 ] && grep -q "is set by warmup ab for each run" <<< "$out" || fail "$flag was not refused ($rc): $out"
done
set +e
out=$("$warmup" ab --a "$dir/nothing" --b "$warmup" --out "$dir/y" --pristine-dir "$dir/pristine" 2>&1)
rc=$?
set -e
[ $rc -eq 1 ] && grep -q "is not an executable file" <<< "$out" || fail "a missing --a was not refused ($rc): $out"
[ ! -e "$dir/y" ] || fail "a refused ab still made its --out"
# Regression: an ab whose first run refused its flags (a snapshot given where its parent belongs)
# left the --out it had made behind, empty.
set +e
out=$("$warmup" ab --a "$warmup" --b "$warmup" --out "$dir/refused" --pristine-dir "$dir/pristine/tiny" 2>&1)
rc=$?
set -e
[ $rc -eq 64 ] && grep -q "is a snapshot itself" <<< "$out" || fail "a snapshot as --pristine-dir was not refused ($rc): $out"
[ ! -e "$dir/refused" ] || fail "a refused ab left its --out behind: $(ls -A "$dir/refused")"
# A run that fails stops ab with exit 1, naming it, and leaves no work directory behind.
set +e
out=$("$warmup" ab --a "$warmup" --b "$warmup" --b-args "--inject-fault UpsertEntity@5" --runs 2 \
  --out "$dir/failing" --pristine-dir "$dir/pristine" 2>&1)
rc=$?
set -e
[ $rc -eq 1 ] && grep -q "run b-warmup failed (exit 1)" <<< "$out" || fail "a failing run did not stop ab ($rc): $out"
[ -e "$dir/failing/b-warmup.txt" ] || fail "the failed run's report is not kept"
[ ! -e "$dir/failing/work" ] || fail "a failed ab left its work directory: $(ls -R "$dir/failing/work")"
# --keep-work keeps each run's work directory.
kept=$("$warmup" ab --a "$warmup" --b "$warmup" --runs 2 --keep-work --out "$dir/kept" --pristine-dir "$dir/pristine" \
  --verify none 2>&1) || true
for label in a-warmup b-warmup a01 b01 a02 b02; do
  [ -d "$dir/kept/work/$label/data" ] || fail "--keep-work did not keep $label's work directory"
done

# The order of the runs, from ab's line per run ("warmup ab: run  N of M  LABEL ...").
order() { sed -n 's/^warmup ab: run *[0-9]* of [0-9]*  \([^ ]*\) .*/\1/p' <<< "$1" | tr '\n' ' '; }
# --order abab (the default): the warm-up runs, then A B A B ... (docs/comparing.md).
[ "$(order "$kept")" = "a-warmup b-warmup a01 b01 a02 b02 " ] || fail "not abab: $(order "$kept"): $kept"
# --order random --seed S: a seeded shuffle of the measured runs after the warm-ups; the same seed
# gives the same order, another seed (here) another, and seed 7's is not abab. The second run of
# seed 7 also takes the four runs kept above, of one build, as A/A runs: --noise-from reaches the
# comparison.
shuffled() { # OUT SEED [ab flags...]: the run's order
  local out=$1 seed=$2
  shift 2
  "$warmup" ab --a "$warmup" --b "$warmup" --runs 2 --order random --seed "$seed" --out "$out" \
    --pristine-dir "$dir/pristine" --verify none "$@" 2>&1 > /dev/null || true
}
seven=$(order "$(shuffled "$dir/r7" 7)")
again=$(order "$(shuffled "$dir/r7b" 7 --noise-from "$dir/kept/a01.json" "$dir/kept/b01.json" \
  "$dir/kept/a02.json" "$dir/kept/b02.json")")
five=$(order "$(shuffled "$dir/r5" 5)")
for o in "$seven" "$five"; do
  [ "$(tr ' ' '\n' <<< "${o#a-warmup b-warmup }" | sort | tr '\n' ' ')" = " a01 a02 b01 b02 " ] ||
    fail "random order is not the warm-ups, then the four measured runs: $o"
done
[ "$seven" = "$again" ] || fail "seed 7 gave two orders: $seven / $again"
[ "$seven" != "$five" ] || fail "seeds 7 and 5 gave the same order: $seven"
[ "$seven" != "a-warmup b-warmup a01 b01 a02 b02 " ] || fail "--order random ran abab: $seven"
python3 - "$dir" << 'PY' || fail "--noise-from did not reach the comparison"
import json, os, sys
d = sys.argv[1]
noise = [os.path.join(d, "kept", f) for f in ("a01.json", "b01.json", "a02.json", "b02.json")]
c = json.load(open(os.path.join(d, "r7b", "compare.json")))
assert c["noise"] == noise, c["noise"]
assert c["metrics"], "no metric compared"
for m in c["metrics"]:
    assert m["noise_source"] == "A/A runs (4)", (m["metric"], m["noise_source"])
plain = json.load(open(os.path.join(d, "r7", "compare.json")))
assert all(m["noise_source"] == "default" for m in plain["metrics"])
PY
echo "ab_test: ok"
