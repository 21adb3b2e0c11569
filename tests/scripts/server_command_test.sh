#!/usr/bin/env bash
# reindex --server-command and ab --a-command as a user runs them against a
# server warmup knows nothing of, played by warmup serve behind wrappers:
#  - a wrapper that takes its arguments in another order and sends all output
#    to /dev/null (no start-up line reaches warmup): ready over IsReady and
#    ServerStatus, loaded, verified, stopped, its usage sampled from /proc;
#  - a real JVM (Debian's openjdk-17) started by the wrapper with
#    -Xlog:gc:file={gclog}, making a known number of full collections: the
#    report's GC figures are that number, under -Xlog:gc and -Xlog:gc* alike;
#  - a command that never becomes ready: a clear error naming the command and
#    the deadline, and no process of it left behind; one that exits at once,
#    and an unknown placeholder, each refused with what was wrong;
#  - a command with {gclog} that never writes it: the run stands, and the
#    report says the log was not found, naming it;
#  - a command whose process group ignores SIGTERM: killed with SIGKILL after
#    --server-stop-grace, nothing of it left running;
#  - ab with both arms as commands.
# usage: server_command_test.sh WARMUP SOURCE_DIR
set -euo pipefail
warmup=$1
java_source=$2/tests/java/GcExercise.java
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "server_command_test: $*"; exit 1; }
command -v javac > /dev/null || fail "javac is not installed: run scripts/install-deps.sh (openjdk-17-jdk-headless)"

"$warmup" generate --profile tiny --out "$dir/pristine" > /dev/null
# usage: quiet-serve.sh DATA PORT: warmup serve with the arguments the other way round, saying nothing
printf '#!/bin/sh\nexec "%s" serve --data-dir "$1" --listen "127.0.0.1:$2" > /dev/null 2>&1\n' "$warmup" \
  > "$dir/quiet-serve.sh"
chmod +x "$dir/quiet-serve.sh"

# 1. Ready over the protocol alone.
out=$("$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w1" --run quiet \
  --server-command "$dir/quiet-serve.sh {data} {port}" --report-json "$dir/quiet.json") ||
  fail "reindex --server-command failed: $out"
grep -q "verification: VERIFIED" <<< "$out" || fail "not verified: $out"
[ -f "$dir/w1/server.log" ] && [ ! -s "$dir/w1/server.log" ] || fail "server.log missing or not empty"
python3 - "$dir/quiet.json" "$dir/w1/data" << 'PY' || fail "the command server's figures are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["server_process"]
assert s["header"].startswith("command: ") and sys.argv[2] in s["header"], s["header"]
assert s["usage_sampled"] and s["usage"]["user_seconds"] > 0 and s["usage"]["peak_rss_bytes"] > 1e6, s["usage"]
assert s["samples"], "no samples of the group"
assert s["gc"] is None and "{gclog}" in s["gc_unavailable"], s["gc_unavailable"]
assert r["server"] is not None  # warmup serve's trailers still carry its time
# What the server said of itself when its readiness was probed (ServerStatus), kept for the report.
i = r["server_identity"]
assert i["version"].startswith("warmup ") and i["readiness"] == "API_READY" and i["readiness_probed"], i
assert r["target"].startswith("remote " + i["address"]), (r["target"], i)
PY

# 2. A JVM's GC log: the collections it made, and none counted twice under -Xlog:gc*.
mkdir -p "$dir/classes"
javac -d "$dir/classes" "$java_source"
# usage: jvm-serve.sh PORT DATA GCLOG LOGSPEC: a JVM that collects, then warmup serve
printf '#!/bin/sh\njava -Xmx64m "-Xlog:$4:file=$3" -cp "%s" GcExercise 3 || exit 1\nexec "%s" serve --listen "127.0.0.1:$1" --data-dir "$2"\n' \
  "$dir/classes" "$warmup" > "$dir/jvm-serve.sh"
chmod +x "$dir/jvm-serve.sh"
for spec in gc 'gc*'; do
  out=$("$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w2" --run jvm --server-start-timeout 120 \
    --server-command "$dir/jvm-serve.sh {port} {data} {gclog} '$spec'" --report-json "$dir/jvm.json") ||
    fail "reindex with a JVM ($spec) failed: $out"
  grep -q "server GC .* 3 full" <<< "$out" || fail "no GC line with 3 full collections ($spec): $out"
  python3 - "$dir/jvm.json" "$dir/w2/gc.log" << 'PY' || fail "the GC figures ($spec) are wrong"
import json, re, sys
gc = json.load(open(sys.argv[1]))["server_process"]["gc"]
pause = re.compile(r"\[[^]]*\]\[info *\]\[gc *\] GC\(\d+\) Pause .* [0-9.]+ms$")
lines = [l for l in open(sys.argv[2]) if pause.match(l.strip())]
assert gc["full_collections"] == 3, gc
assert gc["young_collections"] >= 1, gc
assert gc["young_collections"] + gc["full_collections"] + gc["other_pauses"] == len(lines), (gc, len(lines))
assert 0 < gc["pause_seconds"] < 10, gc
PY
done

# 3. Never ready: the deadline, the command named, nothing left running.
set +e
out=$("$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w3" --server-start-timeout 2 \
  --server-command "sleep 31.75" 2>&1)
rc=$?
set -e
[ $rc -eq 1 ] || fail "a server that is never ready should exit 1, not $rc: $out"
grep -q 'the server command `sleep 31.75` was not ready on 127.0.0.1:[0-9]* within 2 s' <<< "$out" ||
  fail "the error does not name the command and the deadline: $out"
sleep 0.5
if pgrep -f "sleep 31.75" > /dev/null; then fail "the never-ready command was left running"; fi

set +e
out=$("$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w4" --server-command "echo bye; exit 3" 2>&1)
rc=$?
set -e
[ $rc -eq 1 ] && grep -q 'exited 3 before it was ready; the end of its log .*server.log:' <<< "$out" &&
  grep -q "bye" <<< "$out" || fail "a command that exits was not reported as such ($rc): $out"
set +e
out=$("$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w5" --server-command "x {prot}" 2>&1)
rc=$?
set -e
[ $rc -eq 64 ] && grep -q "unknown placeholder {prot}" <<< "$out" || fail "an unknown placeholder was not refused as a usage error (64): rc $rc: $out"

# 4. {gclog} in the command, but the server never writes it: no GC figures, and the report says why.
out=$("$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w6" --run nogc \
  --server-command "$dir/quiet-serve.sh {data} {port} {gclog}" --report-json "$dir/nogc.json") ||
  fail "reindex with a {gclog} never written failed: $out"
grep -q "verification: VERIFIED" <<< "$out" || fail "not verified with a {gclog} never written: $out"
[ ! -e "$dir/w6/gc.log" ] || fail "the GC log exists, but nothing was to write it"
grep -q "server GC .*unknown: .*$dir/w6/gc.log" <<< "$out" || fail "the text report does not say why no GC: $out"
python3 - "$dir/nogc.json" "$dir/w6/gc.log" << 'PY' || fail "the report of a {gclog} never written is wrong"
import json, sys
s = json.load(open(sys.argv[1]))["server_process"]
assert s["gc"] is None, s["gc"]
why = s["gc_unavailable"]
# The log the command was given, not found; not the "no {gclog} in the command" of section 1.
assert sys.argv[2] in why and "not found" in why, why
assert "has no {gclog}" not in why, why
PY

# 5. A command whose whole group ignores SIGTERM: SIGKILL after the grace, nothing left running.
# usage: stubborn-serve.sh DATA PORT: ignores SIGTERM (so does all it starts), serves, then keeps running
printf '#!/bin/sh\ntrap "" TERM\necho $$ > "%s"\n"%s" serve --data-dir "$1" --listen "127.0.0.1:$2" > /dev/null 2>&1\nwhile :; do sleep 0.2; done\n' \
  "$dir/stubborn.pid" "$warmup" > "$dir/stubborn-serve.sh"
chmod +x "$dir/stubborn-serve.sh"
set +e
out=$("$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/w7" --run stubborn --server-stop-grace 1 \
  --server-command "$dir/stubborn-serve.sh {data} {port}" --report-json "$dir/stubborn.json" 2>&1)
rc=$?
set -e
[ -s "$dir/stubborn.pid" ] || fail "the stubborn command never started ($rc): $out"
sleep 0.5
# (kill -0 would also find a zombie that nobody reaped yet: only a process that runs counts)
if pgrep -f "$dir/stubborn-serve.sh" > /dev/null; then
  group=$(ps -o pgid= -p "$(cat "$dir/stubborn.pid")" | tr -d ' ')
  # (its own group, as the command runs in one; never this script's)
  [ -z "$group" ] || [ "$group" = "$(ps -o pgid= -p $$ | tr -d ' ')" ] || kill -KILL -- "-$group" 2> /dev/null || true
  fail "the command that ignores SIGTERM was left running (exit $rc): $out"
fi
grep -q "verification: VERIFIED" <<< "$out" || fail "the load before the stubborn stop was not verified ($rc): $out"
grep -q "killed by SIGKILL after a grace period of 1 s" <<< "$out" ||
  fail "the text report does not say the command was killed after the grace ($rc): $out"
python3 - "$dir/stubborn.json" << 'PY' || fail "the report of the stubborn command is wrong"
import json, sys
s = json.load(open(sys.argv[1]))["server_process"]
assert s["ended"] == "killed by SIGKILL after a grace period of 1 s", s["ended"]
PY

# 6. ab, both arms as commands.
set +e
out=$("$warmup" ab --a-command "$dir/quiet-serve.sh {data} {port}" --b-command "$dir/quiet-serve.sh {data} {port}" \
  --runs 2 --out "$dir/ab" --pristine-dir "$dir/pristine" --verify none --test rank 2>&1)
rc=$?
set -e
# 2 runs per arm cannot reach a verdict by the rank test: inconclusive, exit 4, never "no regression".
[ $rc -eq 4 ] && grep -q "verdict: INCONCLUSIVE (exit 4)" <<< "$out" || fail "ab with commands exited $rc: $out"
grep -q "^A: command $dir/quiet-serve.sh" <<< "$out" || fail "ab does not say arm A's command: $out"
[ -f "$dir/ab/a02.json" ] && [ -f "$dir/ab/b02.json" ] || fail "ab kept no reports"
echo "server_command_test: ok"
