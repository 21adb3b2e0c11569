#!/usr/bin/env bash
# warmup against evitaDB's own server, fetched from Maven Central by
# scripts/fetch-evitadb.sh: a remote load of the tiny catalog into a started
# evitaDB (plaintext, as the upstream harness runs it) with goLive and content
# verification, then `warmup catalogs` listing and deleting what a kept load
# left. Where the server cannot be had, the entry is skipped (exit 77, which
# ctest reports as "Skipped") and says why: never silently.
# usage: evitadb_test.sh WARMUP FETCH_SCRIPT VERSION CACHE_DIR
set -uo pipefail
warmup=$1 fetch=$2 version=$3 cache=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "evitadb_test: $*"; exit 1; }

if ! lib=$("$fetch" "$version" "$cache" 2> "$dir/why"); then
  echo "skipped: no evitaDB server ($(tr '\n' ' ' < "$dir/why"))"
  exit 77
fi
set -e
"$warmup" generate --profile tiny --out "$dir/pristine" > /dev/null
# evitaDB's options are -Dkey=value pairs over its evita-configuration.yaml;
# `exec` so that the server's pid is the one warmup stops.
server="exec java -Xms512m -Xmx512m -Xlog:gc:file={gclog} -cp '$lib/*' io.evitadb.server.EvitaServer \
-Dstorage.storageDirectory={data} -Dapi.endpointDefaults.host=127.0.0.1:{port} \
-Dapi.endpointDefaults.tlsMode=FORCE_NO_TLS"
set +e
out=$("$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/work" --server-command "$server" \
  --server-start-timeout 180 --verify content --report-json "$dir/run.json" --quiet 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || fail "a load into evitaDB $version exited $rc: $out"
python3 - "$dir/run.json" << 'PY' || fail "the run's report is wrong: $out"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["exit_code"] == 0 and r["verification"]["outcome"] == "verified", (r["exit_code"], r["verification"])
assert r["verification"]["content_compared"] > 0, r["verification"]
assert all(c["copied"] == c["target_count"] == c["source_count"] for c in r["collections"]), r["collections"]
PY
echo "evitadb_test: evitaDB $version took the tiny catalog, went live and verified"
