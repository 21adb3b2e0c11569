#!/usr/bin/env bash
# warmup bench as a user runs it:
#  - two generated sittings of the tiny catalog: every run a report of its
#    own, the table's 17 rows in bench.txt and bench.json, the reports read by
#    warmup compare, and nothing left in OUT but reports and the table;
#  - a used --out refused with nothing touched, a bad --scales a usage error;
#  - a server command that never becomes ready: its rows not measured and
#    saying why, the other rows made, exit 1 and a line that says so;
#  - a snapshot of one's own (--pristine-dir), without remote run or disk probe;
#  - a server's backup zip, exported once through a source server;
#  - evitaDB's record mode by default, in each run's report and in the table,
#    and records written otherwise, its evitaDB row not held against the target;
#  - ^C during a run: that run stops, no table, exit 1, no work left behind.
# usage: bench_test.sh WARMUP
set -euo pipefail
warmup=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "bench_test: $*"; exit 1; }

set +e
out=$("$warmup" bench --profile tiny --scales 1,2 --out "$dir/b" --disk-mib 8 --rtt-calls 50 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || fail "a bench of tiny exited $rc: $out"
grep -q "^targets: [0-9]* met, [0-9]* not met, [0-9]* too close to call, [0-9]* not measured$" <<< "$out" ||
  fail "no count of the targets: $out"
python3 - "$dir/b" << 'PY' || fail "bench.json is wrong: $out"
import json, os, sys
out = sys.argv[1]
doc = json.load(open(os.path.join(out, "bench.json")))
assert doc["schema"] == "warmup-bench/1", doc["schema"]
# 8 rows per sitting and the Product row across them.
assert len(doc["rows"]) == 17, len(doc["rows"])
assert {r["outcome"] for r in doc["rows"]} <= {"met", "not met", "too close to call", "not measured"}
assert [s["label"] for s in doc["sittings"]] == ["1", "2"]
for s in doc["sittings"]:
    for kind in ("null", "embedded", "remote"):
        report = json.load(open(s["runs"][kind]))
        assert report["exit_code"] == 0, (kind, report["exit_code"])
        assert os.path.dirname(s["runs"][kind]) == os.path.join(out, "sitting-" + s["label"])
    assert s["runs"]["evitadb"] is None and s["evitadb_absent"] == "no --evitadb-command"
    assert s["rtt_p50_us"] > 0
# Without evitaDB its row alone is not measured, in each sitting.
unmeasured = [r["figure"] for r in doc["rows"] if r["outcome"] == "not measured"]
assert unmeasured == ["evitaDB TOTAL / embedded TOTAL"] * 2, unmeasured
assert doc["disk"]["bytes"] == 8 << 20
# Three probes by default, each named; the median is what the goLive row holds.
rates = sorted(p["bytes_per_second"] for p in doc["disk"]["probes"])
assert len(rates) == 3 and doc["disk"]["bytes_per_second"] == rates[1], doc["disk"]
assert sorted(os.listdir(out)) == ["bench.json", "bench.txt", "sitting-1", "sitting-2"], os.listdir(out)
PY
# The reports are run reports: compare reads those of two benches (scale 1 against scale 2, so
# --force; two runs a side decide nothing: exit 4).
"$warmup" bench --profile tiny --scales 1,2 --out "$dir/b2" --disk-mib 1 --rtt-calls 10 > /dev/null 2>&1 ||
  fail "a second bench failed"
set +e
compared=$("$warmup" compare "$dir/b/sitting-1/embedded.json" "$dir/b2/sitting-1/embedded.json" \
  --vs "$dir/b/sitting-2/embedded.json" "$dir/b2/sitting-2/embedded.json" --force --test rank 2>&1)
rc=$?
set -e
# By the rank test, asked for, 2 runs a side cannot decide whatever they hold.
[ $rc -eq 4 ] || fail "compare of two sittings' embedded runs exited $rc, not 4 (inconclusive): $compared"

# A used --out: refused, nothing in it touched.
before=$(cd "$dir/b" && find . -type f -exec sha256sum {} + | sort)
set +e
out=$("$warmup" bench --profile tiny --scales 1 --out "$dir/b" --disk-mib 1 2>&1)
rc=$?
set -e
[ $rc -eq 1 ] && grep -q "is not empty" <<< "$out" || fail "a used --out was not refused ($rc): $out"
[ "$before" = "$(cd "$dir/b" && find . -type f -exec sha256sum {} + | sort)" ] || fail "a refused bench touched --out"
set +e
out=$("$warmup" bench --scales 0.1,x --out "$dir/never" 2>&1)
rc=$?
set -e
[ $rc -eq 64 ] && [ ! -e "$dir/never" ] || fail "a bad --scales was not a usage error ($rc): $out"

# A server command that exits at once: its runs fail, their rows say so, the rest stand.
set +e
out=$("$warmup" bench --profile tiny --scales 1 --out "$dir/f" --disk-mib 1 --rtt-calls 10 --no-remote \
  --evitadb-command "exit 3" 2>&1)
rc=$?
set -e
[ $rc -eq 1 ] || fail "a failed evitaDB run did not fail the bench ($rc): $out"
grep -q "a run did not complete and verify (exit 1)" <<< "$out" || fail "no line says a run failed: $out"
python3 - "$dir/f" << 'PY' || fail "the failed run's rows are wrong: $out"
import json, os, sys
doc = json.load(open(os.path.join(sys.argv[1], "bench.json")))
rows = {r["figure"]: r for r in doc["rows"]}
evitadb = rows["evitaDB TOTAL / embedded TOTAL"]
assert evitadb["outcome"] == "not measured" and "exited 1 without a report" in evitadb["why"], evitadb
assert rows["warmup serve peak RSS"]["why"] == "no started warmup serve run (--no-remote)", rows["warmup serve peak RSS"]
assert rows["embedded peak RSS (the loading process)"]["outcome"] != "not measured"
assert not os.path.exists(os.path.join(sys.argv[1], "work"))
# Regression: bench said the failed run's output was in WORK/evitadb/server.log, then removed it.
assert os.path.isfile(os.path.join(sys.argv[1], "sitting-1", "evitadb-work", "server.log")), os.listdir(os.path.join(sys.argv[1], "sitting-1"))
PY
grep -q "run 1, evitadb failed; its work directory (its server's log and data) is kept in $dir/f/sitting-1/evitadb-work" <<< "$out" ||
  fail "bench did not say where the failed run's evidence is: $out"

# A snapshot of one's own (named as a directory with a trailing slash), no remote run, no disk probe.
"$warmup" generate --profile tiny --out "$dir/mine" > /dev/null
set +e
out=$("$warmup" bench --pristine-dir "$dir/mine/" --out "$dir/p" --no-remote --disk-mib 0 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || fail "a bench of --pristine-dir exited $rc: $out"
python3 - "$dir/p" << 'PY' || fail "the --pristine-dir sitting is wrong: $out"
import json, os, sys
doc = json.load(open(os.path.join(sys.argv[1], "bench.json")))
assert [s["label"] for s in doc["sittings"]] == ["mine"], doc["sittings"]
assert len(doc["rows"]) == 8, len(doc["rows"])  # one sitting: no row across sittings
assert doc["disk"] is None and doc["disk_absent"] == "--disk-mib 0"
rows = {r["figure"]: r for r in doc["rows"]}
assert rows["embedded goLive write rate / disk's sequential write"]["why"].startswith("the disk was not measured")
assert os.path.isdir(os.path.join(sys.argv[1], "sitting-mine"))
PY
[ -d "$dir/mine/tiny" ] || fail "bench touched the user's snapshot"

# A server's backup zip (issue 51), exported once through a source server (warmup serve standing in
# for evitaDB): every run of the sitting reads the export, the sitting names the zip and the server,
# the zip stays as it was, and the export goes with the work.
"$warmup" load --pristine-dir "$dir/mine" --target embedded --work-dir "$dir/store" --target-catalog tiny \
  --quiet > /dev/null
"$warmup" serve --data-dir "$dir/store" --listen 127.0.0.1:0 --ready-fd 3 3> "$dir/ready" > "$dir/serve.log" 2>&1 &
serve=$!
trap 'kill "$serve" 2> /dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 300); do grep -q port "$dir/ready" 2> /dev/null && break; sleep 0.1; done
port=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['port'])" "$dir/ready")
backup=$("$warmup" catalogs --address "127.0.0.1:$port" --backup tiny --out "$dir/tiny-backup.zip" 2>&1) ||
  fail "the backup of the store was not fetched: $backup"
kill "$serve"
wait "$serve" || true
trap 'rm -rf "$dir"' EXIT
sha=$(sha256sum "$dir/tiny-backup.zip")
set +e
out=$("$warmup" bench --pristine-dir "$dir/tiny-backup.zip" --source-server-command \
  "exec '$warmup' serve --data-dir {data} --listen 127.0.0.1:{port}" --out "$dir/z" --no-remote --disk-mib 0 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || fail "a bench of a backup zip exited $rc: $out"
grep -q "exporting $dir/tiny-backup.zip once through a source server into $dir/z/datasets/source" <<< "$out" ||
  fail "bench did not say it exports the zip once: $out"
grep -q "sitting tiny-backup.zip: $dir/tiny-backup.zip, exported once through a source server (exec " <<< "$out" ||
  fail "the sitting does not name the zip and its server: $out"
python3 - "$dir/z" << 'PY' || fail "the backup zip's sitting is wrong: $out"
import json, os, sys
out = sys.argv[1]
doc = json.load(open(os.path.join(out, "bench.json")))
sitting = doc["sittings"][0]
for kind in ("null", "embedded"):
    report = json.load(open(sitting["runs"][kind]))
    assert report["exit_code"] == 0 and report["copied"] == 300, (kind, report["exit_code"], report["copied"])
    assert report["source_server_process"] is None, kind  # the runs read the export, no reader JVM
assert sorted(os.listdir(out)) == ["bench.json", "bench.txt", "sitting-tiny-backup.zip"], os.listdir(out)
PY
[ "$sha" = "$(sha256sum "$dir/tiny-backup.zip")" ] || fail "bench changed the backup zip"

# evitaDB's mode by default (issue 52): records written inline with deflate, in each run's report
# and in the table, and every entity read back with --verify content.
set +e
out=$("$warmup" bench --pristine-dir "$dir/mine" --out "$dir/m" --disk-mib 0 --rtt-calls 10 --verify content 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || fail "a bench with --verify content exited $rc: $out"
[ "$(grep -c "records deflate, written inline (as evitaDB writes them); verify content: verified" <<< "$out")" -eq 2 ] ||
  fail "the embedded and remote runs do not say they wrote deflate records inline and verified content: $out"
python3 - "$dir/m/sitting-mine" << 'PY' || fail "a run of the default bench did not write records as evitaDB does"
import json, os, sys
for name in ("embedded", "remote"):
    doc = json.load(open(os.path.join(sys.argv[1], name + ".json")))
    assert doc["config"]["record_writes"] == "inline" and doc["config"]["compression"] == "deflate", (name, doc["config"])
    assert doc["verification"]["check"] == "content" and doc["verification"]["outcome"] == "verified", name
PY
# Records written otherwise: the runs say how, and the evitaDB row (warmup serve standing in for
# evitaDB) shows its ratio without holding it against the target.
set +e
out=$("$warmup" bench --pristine-dir "$dir/mine" --out "$dir/g" --disk-mib 0 --no-remote --records-background \
  --compress none --evitadb-command "exec '$warmup' serve --data-dir {data} --listen 127.0.0.1:{port}" 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || fail "a bench with --records-background exited $rc: $out"
grep -q "records none, written background; verify counts: verified" <<< "$out" ||
  fail "the embedded run does not say it wrote its records in the background: $out"
python3 - "$dir/g" << 'PY' || fail "the evitaDB row of a bench that wrote records otherwise is wrong: $out"
import json, os, sys
doc = json.load(open(os.path.join(sys.argv[1], "bench.json")))
row = {r["figure"]: r for r in doc["rows"]}["evitaDB TOTAL / embedded TOTAL"]
assert row["outcome"] == "not measured" and row["measured"] is None, row
assert row["why"].startswith("the embedded run's records were none, written background, where evitaDB's are deflate, written inline"), row
assert row["value"].endswith(" x, not quoted"), row
PY
out=$("$warmup" bench --profile tiny --scales 1 --verify all --out "$dir/never" 2>&1) &&
  fail "bench took --verify all"
grep -q "verify takes counts or content" <<< "$out" || fail "a wrong --verify was not named: $out"

# ^C while a run goes on: the run is told, no table is made, the work is gone.
"$warmup" bench --profile senesi --scales 0.02 --out "$dir/i" --disk-mib 1 --rtt-calls 10 > "$dir/i.out" 2> "$dir/i.err" &
bench=$!
for _ in $(seq 1 600); do
  grep -q "embedded: warmup load" "$dir/i.err" 2> /dev/null && break
  sleep 0.1
done
grep -q "embedded: warmup load" "$dir/i.err" || { kill -KILL $bench; fail "the embedded run never started: $(cat "$dir/i.err")"; }
kill -INT $bench
set +e
wait $bench
rc=$?
set -e
[ $rc -eq 1 ] || fail "an interrupted bench exited $rc: $(cat "$dir/i.err")"
grep -q "warmup bench: interrupted during sitting 0.02; no table was made" "$dir/i.err" ||
  fail "the interruption was not reported: $(cat "$dir/i.err")"
[ ! -e "$dir/i/bench.json" ] && [ ! -e "$dir/i/work" ] && [ ! -e "$dir/i/datasets" ] ||
  fail "an interrupted bench left a table or its work: $(ls -R "$dir/i")"
echo "bench_test: passed"
