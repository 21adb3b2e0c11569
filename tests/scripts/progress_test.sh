#!/usr/bin/env bash
# What a person sees while a load runs: under a pseudo-terminal (script(1))
# the progress line is redrawn during a collection with n / N and a rate, and
# the report that follows has no escape code in it; with stderr redirected,
# plain periodic lines and no escape code anywhere; --quiet, the report only.
# The server is slowed (serve --upsert-delay-ms) so that a collection lasts
# long enough for redraws; nothing here depends on how fast anything is.
# usage: progress_test.sh WARMUP
set -euo pipefail
warmup=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "progress_test: $*"; exit 1; }
command -v script > /dev/null || fail "script(1) is not installed (util-linux)"

"$warmup" generate --profile tiny --out "$dir/pristine" > /dev/null
slow=(--server-args "--upsert-delay-ms 4")

# Under a terminal.
script -qec "$(printf '%q ' "$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w1" --run pty "${slow[@]}")" \
  /dev/null > "$dir/pty.out" || fail "reindex under a terminal failed: $(tail -5 "$dir/pty.out")"
python3 - "$dir/pty.out" << 'PY' || fail "the terminal's progress is wrong"
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace", newline="").read()  # keep the carriage returns
redraws = re.findall(r"\rProduct ([0-9,]+) / 200 \([0-9.]+ %\), catalog [0-9,]+ / 300 \([0-9.]+ %\), [0-9]+ entities/s", text)
assert len(redraws) >= 2, ("fewer than two redraws during Product", text[:2000])
counts = [int(n.replace(",", "")) for n in redraws]
assert counts == sorted(counts) and counts[0] < counts[-1], counts
assert "\r  copied        200 Product" in text, "no line for the finished collection"
assert "goLive -> ALIVE in " in text
report = text[text.index("warmup run pty"):]
assert "\x1b" not in report, "an escape code in the report"
assert report.rstrip().endswith("RUN_STATUS=MEASUREMENT-DONE-pty"), report[-300:]
PY

# Not a terminal: plain lines.
"$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w2" --run plain --progress-interval 0.2 "${slow[@]}" \
  > "$dir/plain.out" 2> "$dir/plain.err" || fail "reindex with stderr redirected failed: $(cat "$dir/plain.err")"
grep -qE "^  progress: Product [0-9,]+ / 200 \([0-9.]+ %\), catalog [0-9,]+ / 300 .* entities/s, .* elapsed, .* left$" \
  "$dir/plain.err" || fail "no periodic progress line: $(cat "$dir/plain.err")"
grep -q "^  copied        200 Product" "$dir/plain.err" || fail "no line for the finished collection"
if grep -q $'\x1b' "$dir/plain.err" "$dir/plain.out"; then fail "an escape code where there is no terminal"; fi
if grep -q $'\r' "$dir/plain.err"; then fail "a carriage return where there is no terminal"; fi
[ "$(tail -n 1 "$dir/plain.out")" = "RUN_STATUS=MEASUREMENT-DONE-plain" ] || fail "the report's last line changed"

# --quiet: nothing but the report.
"$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w3" --run quiet --quiet \
  > "$dir/quiet.out" 2> "$dir/quiet.err" || fail "reindex --quiet failed"
[ ! -s "$dir/quiet.err" ] || fail "--quiet still wrote: $(cat "$dir/quiet.err")"
grep -q "RUN_STATUS=MEASUREMENT-DONE-quiet" "$dir/quiet.out" || fail "--quiet lost the report"
echo "progress_test: ok"
