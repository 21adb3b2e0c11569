#!/usr/bin/env bash
# A new user's round trip, as one sitting: generate, load with reports in the
# work directory, load again beside their own files, reindex interrupted,
# compare with duplicates, mismatched configurations and too few runs, export
# of a warming-up catalog, a zip with bad entries. At the end every file the
# user owns is intact (same content), and every verdict printed says the exit
# status the command returned.
# usage: round_trip_test.sh WARMUP
set -euo pipefail
warmup=$1
dir=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2> /dev/null || true; wait "$server_pid" 2> /dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "round_trip_test: $*"; exit 1; }

# Runs warmup, keeping its output in $out and its exit status in $rc, and
# checks that a "(exit N)" it printed in a verdict is the status it returned.
run() {
  set +e
  out=$("$warmup" "$@" 2>&1)
  rc=$?
  set -e
  local said
  said=$(grep -o 'verdict: .*(exit [0-9]*)' <<< "$out" | tail -1 | grep -o '(exit [0-9]*)' | tr -dc '0-9' || true)
  if [ -n "$said" ] && [ "$said" != "$rc" ]; then
    fail "warmup $1 printed a verdict of exit $said and exited $rc: $out"
  fi
}
expect() {  # expect RC PATTERN WHAT
  [ "$rc" -eq "$1" ] || fail "$3: exit $rc, not $1: $out"
  grep -q -- "$2" <<< "$out" || fail "$3: no '$2' in: $out"
}

# What the user owns: a snapshot, notes in the work directory, earlier reports.
run generate --profile tiny --out "$dir/mine/pristine"
expect 0 "wrote" "generate"
mkdir -p "$dir/work"
run load --pristine-dir "$dir/mine/pristine" --work-dir "$dir/work" --run first --report-json "$dir/mine/first.json" \
  --html "$dir/mine/first.html" --quiet
expect 0 "verdict: OK" "a first load"
echo "my notes" > "$dir/work/notes.txt"
mkdir -p "$dir/work/keep" && echo "x" > "$dir/work/keep/file"
owned() { (cd "$dir" && find mine work/notes.txt work/keep -type f -print0 | sort -z | xargs -0 sha256sum); }
before=$(owned)

# Reports and a source inside the work directory: refused before anything runs.
run load --pristine-dir "$dir/mine/pristine" --work-dir "$dir/work" --report-json "$dir/work/r.json" --quiet
expect 1 "lies inside the work directory" "a report inside the work directory"
[ ! -e "$dir/work/r.json" ] || fail "a refused run wrote its report"
cp -r "$dir/mine/pristine" "$dir/work/copy"
run load --pristine-dir "$dir/work/copy" --work-dir "$dir/work" --quiet
expect 1 "--pristine-dir $dir/work/copy lies inside" "a snapshot inside the work directory"
[ -f "$dir/work/copy/tiny/manifest.json" ] || fail "the snapshot inside the work directory was touched"
rm -rf "$dir/work/copy"

# A second load clears the first's catalog and nothing else.
run load --pristine-dir "$dir/mine/pristine" --work-dir "$dir/work" --run second --report-json "$dir/second.json" --quiet
expect 0 "verdict: OK" "a second load"

# reindex, interrupted mid-load.
"$warmup" reindex --pristine-dir "$dir/mine/pristine" --work-dir "$dir/rwork" --server-args "--upsert-delay-ms 20" \
  --report-json "$dir/cut.json" --quiet > "$dir/cut.txt" 2>&1 &
pid=$!
for _ in $(seq 1 200); do [ -e "$dir/rwork/data/.warmup-workdir" ] && break; sleep 0.05; done
sleep 1
kill -INT $pid
set +e
wait $pid
rc=$?
set -e
out=$(cat "$dir/cut.txt")
expect 1 "verdict: INTERRUPTED: a partial run; do not quote these figures (exit 1)" "an interrupted reindex"
python3 - "$dir/cut.json" << 'PY' || fail "the interrupted run's report is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["abort_reason"] == "interrupted", r["abort_reason"]
assert r["exit_code"] == 1 and r["expected"] == 300, (r["exit_code"], r["expected"])
assert r["target_drop"]["outcome"] == "dropped", r["target_drop"]
PY

# compare: duplicates, other settings, too few runs.
for i in 1 2 3; do
  run load --pristine-dir "$dir/mine/pristine" --target null --run "n$i" --report-json "$dir/n$i.json" --quiet
  expect 0 "NOT APPLICABLE" "a null-target load"
  run load --pristine-dir "$dir/mine/pristine" --work-dir "$dir/w$i" --run "e$i" --report-json "$dir/e$i.json" --quiet
  run load --pristine-dir "$dir/mine/pristine" --work-dir "$dir/z$i" --compress zstd --run "z$i" \
    --report-json "$dir/z$i.json" --quiet
done
cp "$dir/e1.json" "$dir/copy-of-e1.json"
run compare "$dir/e1.json" "$dir/copy-of-e1.json" "$dir/e2.json" --vs "$dir/z1.json" "$dir/z2.json"
expect 1 "are the same run" "a report given twice"
run compare "$dir/e1.json" "$dir/e2.json" --vs "$dir/e2.json" "$dir/e3.json"
expect 1 "are the same file" "the same run in both arms"
run compare "$dir/e1.json" "$dir/e2.json" --vs "$dir/z1.json" "$dir/z2.json"
expect 1 "compression zstd vs none" "other storage settings"
run compare "$dir/e1.json" "$dir/e2.json" --vs "$dir/n1.json" "$dir/n2.json"
expect 1 "measured different things" "an embedded against a null run"
run compare "$dir/e1.json" "$dir/e2.json" --vs "$dir/e3.json" "$dir/second.json" --test rank
expect 4 "verdict: INCONCLUSIVE (exit 4)" "2 runs against 2 by the rank test"

# export of a catalog that is still warming up (a failed load, kept).
"$warmup" serve --data-dir "$dir/served" --listen 127.0.0.1:0 --inject-fault UpsertEntity@100 > "$dir/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 200); do grep -q "listening on port" "$dir/serve.log" && break; sleep 0.05; done
port=$(grep -o "listening on port [0-9]*" "$dir/serve.log" | grep -o "[0-9]*$")
run load --pristine-dir "$dir/mine/pristine" --target remote --address "127.0.0.1:$port" --target-catalog part \
  --keep-target --quiet
expect 1 "kept" "a failed load kept"
run export --address "127.0.0.1:$port" --catalog part --out "$dir/exported"
expect 1 "is WARMING_UP, not ALIVE" "an export of a warming-up catalog"
[ ! -e "$dir/exported/part" ] || fail "a refused export wrote a snapshot"
kill "$server_pid"
wait "$server_pid" 2> /dev/null || true
server_pid=

# A zip with an entry outside its catalog: refused by every command that opens it.
(cd "$dir/mine/pristine" && python3 - << 'PY'
import zipfile, os
with zipfile.ZipFile("../../bad.zip", "w") as z:
    for root, _, files in os.walk("tiny"):
        for f in files:
            z.write(os.path.join(root, f))
    z.writestr("../evil.txt", "outside")
PY
)
run inspect "$dir/bad.zip"
expect 1 "evil" "inspect of a bad zip"
run load --pristine-dir "$dir/bad.zip" --target null --quiet
expect 1 "evil" "load of a bad zip"
run unpack "$dir/bad.zip" "$dir/unpacked"
expect 1 "evil" "unpack of a bad zip"
[ ! -e "$dir/evil.txt" ] && [ ! -e "$dir/unpacked" ] || fail "a bad zip left files behind"

after=$(owned)
[ "$before" = "$after" ] || fail "the user's files changed:
before:
$before
after:
$after"
echo "round_trip_test: ok"
