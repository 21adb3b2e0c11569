#!/usr/bin/env bash
# The HTML pages as a user opens them: reindex --html and compare --html on
# the tiny catalog, then each page loaded in headless Chromium (Debian's
# chromium), which must draw every chart with no console message or script
# error; and the data each page carries (its JSON) has every collection,
# every run and every metric.
# usage: html_test.sh WARMUP
set -euo pipefail
warmup=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "html_test: $*"; exit 1; }
command -v chromium > /dev/null || fail "chromium is not installed: run scripts/install-deps.sh"

"$warmup" generate --profile tiny --out "$dir/pristine" > /dev/null
for i in 1 2 3 4; do
  extra=()
  [ $i -eq 4 ] && extra=(--html "$dir/run.html")
  "$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/work" --run "r$i" --report-json "$dir/r$i.json" \
    "${extra[@]}" > /dev/null || fail "reindex r$i failed"
done
set +e
out=$("$warmup" compare "$dir/r1.json" "$dir/r2.json" --vs "$dir/r3.json" "$dir/r4.json" --html "$dir/compare.html" 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "compare --html exited $rc: $out"

# The data each page carries.
python3 - "$dir" << 'PY' || fail "a page's data is incomplete"
import html.parser, json, os, sys
d = sys.argv[1]
def page_data(path):
    class Finder(html.parser.HTMLParser):
        data, inside = None, False
        def handle_starttag(self, tag, attrs):
            self.inside = tag == "script" and ("id", "warmup-data") in attrs
        def handle_data(self, text):
            if self.inside: self.data = (self.data or "") + text
        def handle_endtag(self, tag): self.inside = False
    f = Finder()
    f.feed(open(path, encoding="utf-8").read())
    assert f.data, path + ": no warmup-data"
    return json.loads(f.data)
run = page_data(os.path.join(d, "run.html"))
assert run == json.load(open(os.path.join(d, "r4.json"))), "the run page's data is not the run's JSON report"
types = {c["entity_type"] for c in run["collections"]}
assert types == {"Brand", "Category", "Parameter", "ParameterValue", "Product"}, types
assert {c["entity_type"] for c in run["time_series"]["collections"]} == types
assert run["time_series"]["intervals"] and run["server_process"]["samples"]
cmp = page_data(os.path.join(d, "compare.html"))
assert [os.path.basename(f) for f in cmp["a"]] == ["r1.json", "r2.json"], cmp["a"]
assert [os.path.basename(f) for f in cmp["b"]] == ["r3.json", "r4.json"], cmp["b"]
metrics = {m["metric"] for m in cmp["metrics"]}
assert {"upsert_median_us:" + t for t in types} <= metrics, metrics
assert all(len(m["a"]) == 2 and len(m["b"]) == 2 for m in cmp["metrics"])
PY

# Each page in headless Chromium: drawn, every chart, not a console line.
render() {
  local page=$1 charts=$2
  local profile="$dir/chromium-profile"
  timeout 120 chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 --virtual-time-budget=10000 --dump-dom \
    "file://$page" > "$dir/dom.html" 2> "$dir/chromium.log" || fail "chromium failed on $page: $(tail -5 "$dir/chromium.log")"
  local body
  body=$(grep -o '<body[^>]*>' "$dir/dom.html" || true)
  [[ $body == *'data-rendered="ok"'* ]] || fail "$page did not render: $body; $(grep -o '<pre id="errors">[^<]*' "$dir/dom.html")"
  [[ $body == *"data-charts=\"$charts\""* ]] || fail "$page drew other than $charts charts: $body"
  if grep -q "CONSOLE" "$dir/chromium.log"; then fail "$page logged to the console: $(grep CONSOLE "$dir/chromium.log")"; fi
}
render "$dir/run.html" 5
render "$dir/compare.html" "$(python3 - "$dir/compare.html" << 'PY'
import re, sys, json
text = open(sys.argv[1], encoding="utf-8").read()
data = re.search(r'<script type="application/json" id="warmup-data">(.*?)</script>', text, re.S).group(1)
print(len(json.loads(data)["metrics"]))
PY
)"
echo "html_test: ok"
