#!/usr/bin/env bash
# Checks warmup's comparison itself, as a benchmark (never a timed test):
#  - A/A: PAIRS runs of `warmup ab` with the same build on both arms, RUNS runs
#    an arm, on warmup serve; how often the verdict says "regressed" (exit 3)
#    or "improved" when nothing changed, for TOTAL (the default primary
#    metric) and for Product's mean upsert (the same runs compared again with
#    --metric upsert_mean_us:Product). At alpha 0.05 a calibrated two-sided
#    test calls about 5 % of them either way, half of that "regressed".
#  - Injected slowdowns of a known size: arm B with
#    serve --inject-upsert-delay-us D, D set so that Product's mean upsert is
#    10 % and 100 % (2x) above arm A's median in the A/A runs; REPEATS ab runs
#    each, how often they exit 3 (the power), and the ratios found; with
#    --sequential N they run as `ab --sequential --runs N` (stopping once
#    decided), and the runs each took are recorded too.
# Every ab is bounded in time (timeout, SIGTERM, which ab handles). Writes
# OUT/comparison-check.json (schema warmup-comparison-check/1) and prints a
# summary. Nothing here gates anything: the figures go to docs/comparing.md.
# usage: scripts/comparison-check.sh WARMUP OUT [--pairs 50] [--runs 3] [--repeats 10] [--sequential N]
#        [--profile tiny]
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,/^# usage/p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }
warmup=$(realpath "$1")
out=$2
shift 2
pairs=50 runs=3 repeats=10 profile=tiny sequential=0
while [ $# -gt 0 ]; do
  case $1 in
    --pairs) pairs=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --sequential) sequential=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    *) echo "comparison-check: unknown flag $1" >&2; exit 64 ;;
  esac
done
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  echo "comparison-check: $out is not empty; give a new directory" >&2
  exit 64
fi
mkdir -p "$out"
"$warmup" generate --profile "$profile" --out "$out/pristine" > /dev/null

# ab OUT_SUBDIR [flags...]: one bounded ab; prints its exit status.
ab() {
  local dir=$1 n=$runs
  shift
  case " $* " in *" --sequential "*) n=$sequential ;; esac
  mkdir -p "$(dirname "$out/$dir")"
  set +e
  timeout 600 "$warmup" ab --a "$warmup" --b "$warmup" --runs "$n" --pristine-dir "$out/pristine" \
    --verify none --out "$out/$dir" "$@" > "$out/$dir.log" 2>&1
  local rc=$?
  set -e
  echo "$rc"
}

started=$(date +%s)
for i in $(seq 1 "$pairs"); do
  if [ "$sequential" -gt 0 ]; then
    # Sequential A/A, on the metric its stops watch (the runs' TOTAL, whose n was chosen by
    # watching Product's, is not tested again as if it were fixed).
    rc=$(ab "aa/$i" --seed "$i" --sequential --metric upsert_mean_us:Product)
    [ ! -e "$out/aa/$i/compare.json" ] || mv "$out/aa/$i/compare.json" "$out/aa/$i/compare-product.json"
  else
    rc=$(ab "aa/$i" --seed "$i")
    # The same runs, Product's mean declared primary: no further runs made.
    set +e
    "$warmup" compare "$out"/aa/"$i"/a[0-9]*.json --vs "$out"/aa/"$i"/b[0-9]*.json \
      --metric upsert_mean_us:Product --json "$out/aa/$i/compare-product.json" > /dev/null 2>&1
    set -e
  fi
  echo "comparison-check: A/A $i of $pairs: exit $rc ($(($(date +%s) - started)) s so far)" >&2
  case $rc in 0 | 3 | 4) ;; *) echo "comparison-check: ab failed, see $out/aa/$i.log" >&2; exit 1 ;; esac
done

delays=$(python3 - "$out" "$pairs" << 'PY'
import json, statistics, sys
out, pairs = sys.argv[1], int(sys.argv[2])
means = []
for i in range(1, pairs + 1):
    try:
        c = json.load(open(f"{out}/aa/{i}/compare-product.json"))
    except FileNotFoundError:
        continue
    m = next(m for m in c["metrics"] if m["metric"] == "upsert_mean_us:Product")
    means += m["a"]
base = statistics.median(means)
print(base, round(0.1 * base), round(1.0 * base))
PY
)
read -r base delay10 delay100 <<< "$delays"
for delay in "$delay10" "$delay100"; do
  for k in $(seq 1 "$repeats"); do
    if [ "$sequential" -gt 0 ]; then
      rc=$(ab "slow$delay/$k" --seed "$k" --metric upsert_mean_us:Product --sequential \
        --b-args "--inject-upsert-delay-us $delay")
    else
      rc=$(ab "slow$delay/$k" --seed "$k" --metric upsert_mean_us:Product --b-args "--inject-upsert-delay-us $delay")
    fi
    echo "comparison-check: +$delay us, $k of $repeats: exit $rc" >&2
    case $rc in 0 | 3 | 4) ;; *) echo "comparison-check: ab failed, see $out/slow$delay/$k.log" >&2; exit 1 ;; esac
  done
done

python3 - "$out" "$pairs" "$repeats" "$runs" "$base" "$delay10" "$delay100" "$warmup" "$sequential" << 'PY'
import json, math, os, platform, subprocess, sys
out, pairs, repeats, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
base, delays, warmup = float(sys.argv[5]), [int(sys.argv[6]), int(sys.argv[7])], sys.argv[8]
sequential = int(sys.argv[9])
alpha = 0.05

def binomial_tail(k, n, p):  # P(X >= k), X ~ Binomial(n, p)
    return sum(math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k, n + 1))

def upper_bound(k, n):  # Clopper-Pearson one-sided 95 % upper bound of a rate seen k times in n
    if k == n:
        return 1.0
    lo, hi = k / n, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        # P(X <= k | mid) = 0.05
        if 1 - binomial_tail(k + 1, n, mid) > 0.05:
            lo = mid
        else:
            hi = mid
    return hi

def outcome(path, metric):
    c = json.load(open(path))
    m = next(m for m in c["metrics"] if m["metric"] == metric)
    return {"verdict": m["verdict"], "test": m["test"], "ratio": m["ratio"], "ratio_ci": m["ratio_ci"],
            "detectable_change": m["detectable_change"], "exit_code": c["exit_code"], "runs": len(c["a"])}

aa = {}
for metric, name in (("total_seconds", "compare.json"), ("upsert_mean_us:Product", "compare-product.json")):
    seen = [outcome(f"{out}/aa/{i}/{name}", metric) for i in range(1, pairs + 1)
            if os.path.exists(f"{out}/aa/{i}/{name}")]
    n = len(seen)
    regressed = sum(o["verdict"] == "regressed" for o in seen)
    improved = sum(o["verdict"] == "improved" for o in seen)
    inconclusive = sum(o["verdict"] == "inconclusive" for o in seen)
    false_calls = regressed + improved
    if not n:
        aa[metric] = {"comparisons": 0}
        continue
    aa[metric] = {
        "comparisons": n, "regressed": regressed, "improved": improved, "inconclusive": inconclusive,
        "false_call_rate": false_calls / n if n else None,
        # How surprising that many false calls would be from a test whose true rate is alpha:
        # below 0.05, the test calls too often (miscalibrated); the upper bound is what the
        # comparisons rule out.
        "p_if_rate_were_alpha": binomial_tail(false_calls, n, alpha) if n else None,
        "false_call_rate_upper_95": upper_bound(false_calls, n) if n else None,
        "median_detectable_change": sorted(o["detectable_change"] for o in seen
                                           if o["detectable_change"] is not None)[n // 2] if n else None,
        "tests": sorted({o["test"] for o in seen}),
    }

injected = []
for delay in delays:
    seen = [outcome(f"{out}/slow{delay}/{k}/compare.json", "upsert_mean_us:Product") for k in range(1, repeats + 1)
            if os.path.exists(f"{out}/slow{delay}/{k}/compare.json")]
    injected.append({
        "delay_us": delay, "expected_ratio_at_least": (base + delay) / base, "comparisons": len(seen),
        "detected": sum(o["exit_code"] == 3 for o in seen),
        "verdicts": [o["verdict"] for o in seen], "ratios": [o["ratio"] for o in seen],
        "runs_per_arm": [o["runs"] for o in seen],
        "intervals": [o["ratio_ci"] for o in seen]})

cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
version = subprocess.run([warmup, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[0]
doc = {"schema": "warmup-comparison-check/1", "warmup": version, "cpu": cpu, "cores": os.cpu_count(),
       "runs_per_arm": runs, "sequential_max_runs": sequential or None, "alpha": alpha, "product_mean_us_a": base, "aa": aa, "injected": injected}
json.dump(doc, open(f"{out}/comparison-check.json", "w"), indent=2)
print(f"{version} on {cpu}, {os.cpu_count()} cores; {runs} runs an arm, alpha {alpha}")
for metric, r in aa.items():
    if not r["comparisons"]:
        continue
    print(f"A/A {metric}: {r['regressed']} regressed + {r['improved']} improved of {r['comparisons']} "
          f"(rate {r['false_call_rate']:.3f}, 95 % upper bound {r['false_call_rate_upper_95']:.3f}; "
          f"P(as many | rate alpha) {r['p_if_rate_were_alpha']:.3f}), {r['inconclusive']} inconclusive, "
          f"median detect {100 * r['median_detectable_change']:.1f} %")
for r in injected:
    print(f"+{r['delay_us']} us (Product mean x >= {r['expected_ratio_at_least']:.2f}): detected "
          f"{r['detected']} of {r['comparisons']}; ratios " + ", ".join(f"{x:.3f}" for x in r["ratios"]) +
          (f"; runs an arm {r['runs_per_arm']}" if sequential else ""))
PY
