#!/usr/bin/env bash
# What a person sees while a load runs: under a pseudo-terminal (script(1))
# the progress line is redrawn during a collection with n / N, the share of
# the catalog's bytes (checked against the snapshot's manifest) and a rate, and
# the report that follows has no escape code in it; with stderr redirected,
# plain periodic lines and no escape code anywhere; with every upsert slower
# than the interval, lines still come and say what the load waits on, and the
# bytes are those of the part --max-per-collection lets through; --quiet, the
# report only. The server is slowed (serve --upsert-delay-ms) so that a
# collection lasts long enough for redraws; nothing here depends on how fast
# anything is.
# usage: progress_test.sh WARMUP
set -euo pipefail
warmup=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "progress_test: $*"; exit 1; }
command -v script > /dev/null || fail "script(1) is not installed (util-linux)"

"$warmup" generate --profile tiny --out "$dir/pristine" > /dev/null
manifest=$(echo "$dir"/pristine/*/manifest.json)
[ -f "$manifest" ] || fail "no manifest in $dir/pristine"
slow=(--server-args "--upsert-delay-ms 4")

# Under a terminal.
script -qec "$(printf '%q ' "$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w1" --run pty "${slow[@]}")" \
  /dev/null > "$dir/pty.out" || fail "reindex under a terminal failed: $(tail -5 "$dir/pty.out")"
python3 - "$dir/pty.out" "$manifest" << 'PY' || fail "the terminal's progress is wrong"
import json, re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace", newline="").read()  # keep the carriage returns
collections = json.load(open(sys.argv[2]))["collections"]  # in copy order; Product is the last
before = sum(c["stored_bytes"] for c in collections if c["entity_type"] < "Product")
product = next(c["stored_bytes"] for c in collections if c["entity_type"] == "Product")
total = sum(c["stored_bytes"] for c in collections)
redraws = re.findall(r"\rProduct ([0-9,]+) / 200 \([0-9.]+ %\)(?:,|, no upsert completed for [^;]+; waiting on [^;]+;)"
                     r" catalog [0-9,]+ / 300 entities, ([0-9.]+) % of the bytes", text)
assert len(redraws) >= 2, ("fewer than two redraws during Product", text[:2000])
counts = [int(n.replace(",", "")) for n, _ in redraws]
assert counts == sorted(counts) and counts[0] < counts[-1], counts
for n, shown in redraws:  # the catalog's percent is by the manifest's bytes, to the tenth shown
    expected = 100 * (before + product * int(n.replace(",", "")) / 200) / total
    assert abs(float(shown) - expected) <= 0.051, (n, shown, expected)
assert "\r  copied        200 Product" in text, "no line for the finished collection"
assert "goLive -> ALIVE in " in text
report = text[text.index("warmup run pty"):]
assert "\x1b" not in report, "an escape code in the report"
assert report.rstrip().endswith("RUN_STATUS=MEASUREMENT-DONE-pty"), report[-300:]
PY

# Not a terminal: plain lines.
"$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w2" --run plain --progress-interval 0.2 "${slow[@]}" \
  > "$dir/plain.out" 2> "$dir/plain.err" || fail "reindex with stderr redirected failed: $(cat "$dir/plain.err")"
grep -qE "^  progress: Product [0-9,]+ / 200 \([0-9.]+ %\), catalog [0-9,]+ / 300 entities, [0-9.]+ % of the bytes, [0-9.]+ entities/s, (upsert p50 [0-9.]+ [mu]?s p99 [0-9.]+ [mu]?s, )?[0-9]+ s elapsed, about [0-9]+ s left$" \
  "$dir/plain.err" || fail "no periodic progress line: $(cat "$dir/plain.err")"
grep -q "^  copied        200 Product" "$dir/plain.err" || fail "no line for the finished collection"
if grep -q $'\x1b' "$dir/plain.err" "$dir/plain.out"; then fail "an escape code where there is no terminal"; fi
if grep -q $'\r' "$dir/plain.err"; then fail "a carriage return where there is no terminal"; fi
[ "$(tail -n 1 "$dir/plain.out")" = "RUN_STATUS=MEASUREMENT-DONE-plain" ] || fail "the report's last line changed"

# Every upsert slower than the interval: lines all the same, naming what the load waits on; two
# entities each of Brand and Product, so the bytes are 2/20 of Brand's and 2/200 of Product's.
"$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w4" --run stall --progress-interval 0.4 \
  --collections Brand,Product --max-per-collection 2 --server-args "--upsert-delay-ms 1200" \
  > "$dir/stall.out" 2> "$dir/stall.err" || fail "reindex with slow upserts failed: $(cat "$dir/stall.err")"
python3 - "$dir/stall.err" "$manifest" << 'PY' || fail "the progress during slow upserts is wrong: $(cat "$dir/stall.err")"
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
bytes_of = {c["entity_type"]: c["stored_bytes"] * 2 / c["count"] for c in json.load(open(sys.argv[2]))["collections"]}
brand, product = bytes_of["Brand"], bytes_of["Product"]
stalls = re.findall(r"^  progress: (Brand|Product) ([0-2]) / 2 \([0-9.]+ %\), no upsert completed for [0-9.]+ s; "
                    r"waiting on \1(?: after pk [0-9]+ \(2 of 2\)|'s first entity \(1 of 2\)); "
                    r"catalog [0-4] / 4 entities, ([0-9.]+) % of the bytes, ", text, re.M)
assert stalls, "no line said that no upsert completed"
for collection, n, shown in stalls:
    done = brand * int(n) / 2 if collection == "Brand" else brand + product * int(n) / 2
    expected = 100 * done / (brand + product)
    assert abs(float(shown) - expected) <= 0.051, (collection, n, shown, expected)
PY

# --quiet: nothing but the report.
"$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w3" --run quiet --quiet \
  > "$dir/quiet.out" 2> "$dir/quiet.err" || fail "reindex --quiet failed"
[ ! -s "$dir/quiet.err" ] || fail "--quiet still wrote: $(cat "$dir/quiet.err")"
grep -q "RUN_STATUS=MEASUREMENT-DONE-quiet" "$dir/quiet.out" || fail "--quiet lost the report"
echo "progress_test: ok"
