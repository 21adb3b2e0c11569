#!/usr/bin/env bash
# The profiler windows, as a user runs them: warmup-profile with each
# profiler on a small senesi load, then warmup serve --profiler heap (when
# the CLI has tcmalloc) and --profiler cpu under a remote load. Checks that each writes its output, that the CPU profile's
# heaviest frames are the engine's upsert path and not the source reader,
# that the serve window holds the upserts and not goLive (and the goLive
# window goLive), and the allocation figures in the report and the JSON.
# usage: profile_test.sh WARMUP WARMUP_PROFILE
set -euo pipefail
warmup=$1
profile=$2
dir=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "profile_test: $*"; exit 1; }

# Starts warmup serve on a free port with the arguments after LOG and LOAD_OUT (its output to LOG),
# publishes the snapshot into it with a remote load (output to LOAD_OUT), and stops it with SIGTERM.
serve_one_load() {
  local log=$1 load_out=$2 port=
  shift 2
  "$warmup" serve --listen 127.0.0.1:0 "$@" > "$log" 2>&1 &
  server_pid=$!
  for _ in $(seq 300); do
    port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$log")
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || fail "the server ($*) did not start: $(cat "$log")"
  "$warmup" load --pristine-dir "$dir/pristine" --target remote --address "127.0.0.1:$port" > "$load_out" ||
    fail "the remote load into the server ($*) failed: $(tail -n 5 "$load_out")"
  kill -TERM "$server_pid"
  wait "$server_pid" || true
  server_pid=
}

"$warmup" generate --profile senesi --scale 0.01 --out "$dir/pristine" > /dev/null

# CPU: the window holds the load; the write path dominates it.
out=$("$profile" --pristine-dir "$dir/pristine" --work-dir "$dir/w1" --profiler cpu --profile-out "$dir/cpu.prof" \
  --report-json "$dir/cpu.json" --run prof) || fail "warmup-profile --profiler cpu failed: $out"
[ -s "$dir/cpu.prof" ] || fail "no CPU profile written"
grep -qE "^  Product +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" <<< "$out" || fail "no Product allocation row in: $out"
grep -q "CPU inside upserts" <<< "$out" || fail "no write-path share in: $out"
[ "$(tail -n 1 <<< "$out")" = "RUN_STATUS=MEASUREMENT-DONE-prof" ] || fail "RUN_STATUS is not the last line"
python3 - "$dir/cpu.json" << 'PY' || fail "the JSON's profile section is wrong"
import json, sys
report = json.load(open(sys.argv[1]))
p = report["profile"]
rows = {c["entity_type"]: c for c in p["collections"]}
assert p["profiler"] == "cpu" and p["error"] is None, p
assert rows["Product"]["upserts"] == next(c["copied"] for c in report["collections"] if c["entity_type"] == "Product")
assert rows["Product"]["allocations_per_upsert"] > rows["Brand"]["allocations_per_upsert"] > 0, rows
assert 0.3 < p["write_path_cpu_share"] <= 1.0, p["write_path_cpu_share"]
PY
# The heaviest frames by cumulative time: the engine's upsert above anything of the source reader.
# (awk, not head: head closing the pipe early would fail it under pipefail)
top=$(google-pprof --text --cum "$profile" "$dir/cpu.prof" 2> /dev/null | awk '/^ +[0-9]/ && ++n <= 40')
upsert_rank=$(awk '/CatalogImpl::Upsert/ { print NR; exit }' <<< "$top")
[ -n "$upsert_rank" ] || fail "the engine's Upsert is not among the 40 heaviest frames:
$top"
reader_rank=$(awk '/SnapshotEntityStream|EntityFromProto|ReadRecord/ { print NR; exit }' <<< "$top")
if [ -n "$reader_rank" ] && [ "$reader_rank" -lt "$upsert_rank" ]; then
  fail "the source reader weighs more than the upserts:
$top"
fi

# Heap: a dump at the window's end.
"$profile" --pristine-dir "$dir/pristine" --work-dir "$dir/w2" --collections Brand,Product --profiler heap \
  --profile-out "$dir/heap" > "$dir/heap.out" || fail "warmup-profile --profiler heap failed: $(cat "$dir/heap.out")"
ls "$dir"/heap.*.heap > /dev/null 2>&1 || fail "no heap profile written"

# perf, where this machine lets perf record at all.
if perf record -q -e cpu-clock -o "$dir/probe.data" -- true > /dev/null 2>&1; then
  "$profile" --pristine-dir "$dir/pristine" --work-dir "$dir/w3" --collections Product --profiler perf \
    --profile-out "$dir/perf.data" > "$dir/perf.out" || fail "warmup-profile --profiler perf failed: $(cat "$dir/perf.out")"
  frames=$(perf report -i "$dir/perf.data" --stdio --no-children 2> /dev/null)
  grep -q "warmup::engine" <<< "$frames" || fail "perf data holds no engine frames"
else
  echo "profile_test: perf record cannot run here; --profiler perf left untested"
fi

# warmup serve --profiler heap: a CLI linked with tcmalloc (the default) profiles the heap of a
# remote load; one without it refuses before anything runs, naming what to do.
libraries=$(ldd "$warmup")
if grep -q "libtcmalloc" <<< "$libraries"; then
  serve_one_load "$dir/heap-server.log" "$dir/heap-load.out" --data-dir "$dir/s0" --profiler heap \
    --profile-out "$dir/serve-heap"
  ls "$dir"/serve-heap.*.heap > /dev/null 2>&1 || fail "serve --profiler heap wrote no heap profile: $(cat "$dir/heap-server.log")"
  # The report names the allocator the run had.
  "$warmup" load --pristine-dir "$dir/pristine" --target null --quiet --report-json "$dir/null.json" > /dev/null ||
    fail "the null load failed"
  grep -q '"build_details": "[^"]*, malloc: tcmalloc"' "$dir/null.json" ||
    fail "the report does not name tcmalloc: $(grep build_details "$dir/null.json")"
else
  set +e
  msg=$("$warmup" serve --data-dir "$dir/s0" --listen 127.0.0.1:0 --profiler heap --profile-out "$dir/x" 2>&1)
  status=$?
  set -e
  [ "$status" -eq 1 ] && grep -q "LD_PRELOAD=libtcmalloc" <<< "$msg" || fail "serve --profiler heap without tcmalloc: $msg"
  [ ! -e "$dir/s0" ] || fail "serve --profiler heap started anyway"
fi

# warmup serve --profiler cpu --profile-golive under a remote load.
serve_one_load "$dir/server.log" "$dir/load.out" --data-dir "$dir/server" --profiler cpu \
  --profile-out "$dir/serve.prof" --profile-golive
grep -q "cpu window opened at the first upsert of" "$dir/server.log" || fail "no window opened: $(cat "$dir/server.log")"
[ "$(grep -c "window closed; wrote" "$dir/server.log")" -eq 2 ] || fail "two windows must close: $(cat "$dir/server.log")"
load_frames=$(google-pprof --text "$warmup" "$dir/serve.prof" 2> /dev/null)
golive_frames=$(google-pprof --text "$warmup" "$dir/serve.prof.golive" 2> /dev/null)
grep -q "Upsert" <<< "$load_frames" || fail "the serve window holds no upsert frames"
if grep -q "WriteGoLiveFiles\|SaveSnapshot" <<< "$load_frames"; then fail "the load window holds goLive"; fi
grep -q "WriteGoLiveFiles\|SaveSnapshot" <<< "$golive_frames" || fail "the goLive window holds no goLive frames"
echo "profile_test: OK"
