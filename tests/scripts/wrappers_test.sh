#!/usr/bin/env bash
# The run-warmup-*.sh wrappers, as a user runs them: reindex with a cap,
# then a server and a load against it, then SIGTERM to the server.
# usage: wrappers_test.sh WARMUP_BINARY
set -euo pipefail
export WARMUP=$1
scripts=$(cd "$(dirname "$0")/../../scripts" && pwd)
dir=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

"$WARMUP" generate --profile tiny --out "$dir/pristine" > /dev/null
# Regression: a wrapper without its source exited 1, now 64 as every usage error.
rc=0
PRISTINE_DIR= SOURCE= "$scripts/run-warmup-reindex.sh" > /dev/null 2> "$dir/usage.err" || rc=$?
[ $rc -eq 64 ] || { echo "a wrapper without PRISTINE_DIR or SOURCE exited $rc, not 64"; exit 1; }
grep -q "PRISTINE_DIR (the parent of <catalog>/) or SOURCE" "$dir/usage.err" || { cat "$dir/usage.err"; exit 1; }

export PRISTINE_DIR=$dir/pristine CATALOG=tiny MAX_PER_COLL=20

out=$(RUN=wrapped WORK_DIR=$dir/work "$scripts/run-warmup-reindex.sh")
grep -q "verification: VERIFIED" <<< "$out" || { echo "reindex did not verify:"; echo "$out"; exit 1; }
[ "$(tail -n 1 <<< "$out")" = "RUN_STATUS=MEASUREMENT-DONE-wrapped" ] || { echo "bad last line"; exit 1; }

# SERVER_CMD and SERVER_XMX: any server by command, the heap in {xmx} (here it only reaches the command line).
out=$(RUN=bycommand WORK_DIR=$dir/work-cmd SERVER_XMX=3g \
  SERVER_CMD="$WARMUP serve --listen 127.0.0.1:{port} --data-dir {data} --session-idle-seconds 0 # xmx {xmx}" \
  "$scripts/run-warmup-reindex.sh")
grep -q "verification: VERIFIED" <<< "$out" || { echo "SERVER_CMD reindex did not verify:"; echo "$out"; exit 1; }
grep -q "server process       command: .* # xmx 3g" <<< "$out" || { echo "no {xmx} in the command:"; echo "$out"; exit 1; }

# Port 0: the server binds a free port and says which in its header.
# PROFILE=cpu: the server profiles its first catalog's upserts (docs/profiling.md).
DATA_DIR=$dir/server LISTEN=127.0.0.1:0 RESET_DATA=true PROFILE=cpu \
  "$scripts/run-warmup-target-server.sh" > "$dir/server.log" 2>&1 &
server_pid=$!
port=
for _ in $(seq 300); do
  port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$dir/server.log" 2> /dev/null)
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2> /dev/null || break
  sleep 0.1
done
[ -n "$port" ] || { echo "the target server did not come up within 30 s:"; cat "$dir/server.log"; exit 1; }
out=$(RUN=loaded ADDRESS=127.0.0.1:$port VERIFY=content "$scripts/run-warmup-load.sh")
grep -q "verification: VERIFIED (content" <<< "$out" || { echo "load did not verify its content:"; echo "$out"; exit 1; }
# The catalog just published, read back live into the null target.
published=$(sed -n 's/^Catalog \(.*\) is now alive!$/\1/p' "$dir/server.log" | tail -n 1)
out=$(RUN=live SOURCE=grpc://127.0.0.1:$port/$published TARGET_MODE=null PRISTINE_DIR= CATALOG= \
  "$scripts/run-warmup-load.sh")
grep -q "source   evitaDB gRPC 127.0.0.1:$port catalog $published" <<< "$out" || { echo "SOURCE not read:"; echo "$out"; exit 1; }
# The null target stores nothing: its run is not verified, and says so (exit 0).
grep -q "verification: NOT APPLICABLE" <<< "$out" || { echo "live load not marked unverifiable:"; echo "$out"; exit 1; }
kill -TERM "$server_pid"
# Waited for by polling, not `wait`: bash once answered "No record of
# process" for this background job, failing the test with the server fine.
for _ in $(seq 300); do
  kill -0 "$server_pid" 2> /dev/null || break
  sleep 0.1
done
kill -0 "$server_pid" 2> /dev/null && { echo "the target server did not stop within 30 s of SIGTERM"; exit 1; }
server_pid=
grep -q "warmup serve stopped" "$dir/server.log" || { echo "server did not stop cleanly:"; cat "$dir/server.log"; exit 1; }
grep -q "window closed; wrote cpu profile $dir/profile-run.prof" "$dir/server.log" && [ -s "$dir/profile-run.prof" ] ||
  { echo "PROFILE=cpu wrote no profile:"; cat "$dir/server.log"; exit 1; }
echo "wrappers: reindex (warmup serve and SERVER_CMD), target server (profiled), load and a live SOURCE passed"
