#!/usr/bin/env bash
# The HTML pages as a user opens them, in headless Chromium (Debian's
# chromium): each must draw every chart with no console message or script
# error, carry its JSON as its data, and SHOW what that JSON says. The
# oracles are the JSON reports, the text reports and docs/measurement.md and
# docs/comparing.md, never the page's own code:
#   - a verified reindex (tiny, remote): a green banner with the verdict and
#     exit 0; the per-collection table's counts, the TOTAL, the verification
#     counts, the caveats and the command line equal the JSON's and the text
#     report's; goLive is a bar of the time split; every time axis reaches
#     past goLive's end;
#   - a reindex interrupted by SIGINT mid-load: a red banner with INTERRUPTED,
#     "do not quote these figures", exit 1 and the abort; the partial
#     collection shown as "N of M", the unreached ones as "not reached", in
#     the table and the charts; TOTAL not stated;
#   - an embedded load of senesi (18 collections): the ALIVE marker within
#     every time axis, every collection marker labelled with no two labels
#     overlapping, collections of fewer than 20 upserts left out of the CDF
#     and named; and pages drawn from its data changed: with 20 collections no
#     two CDF series alike, with goLive ending long after the load the axes
#     still reaching its end; and from the reindex's data with a count that
#     differs, the verification table showing it;
#   - a comparison of 2 against 2 runs (inconclusive, exit 4): the banner, each
#     arm's servers, builds and command lines, the setup, the table with the
#     verdict second and "n/a" detect, the verdicts visible without scrolling
#     the page in an 800 px wide window; and "12.3 %" detect where decidable;
#   - a history of twelve runs with a 30 % step at the seventh (warmup history
#     trend): the red banner of exit 3, the change point marked between the
#     sixth and seventh run, every run a point, the segments' means.
# usage: html_test.sh WARMUP
set -euo pipefail
warmup=$1
dir=$(mktemp -d)
cut_pid=
cleanup() {
  [ -n "$cut_pid" ] && kill -9 "$cut_pid" 2> /dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "html_test: $*"; exit 1; }
command -v chromium > /dev/null || fail "chromium is not installed: run scripts/install-deps.sh"

"$warmup" generate --profile tiny --out "$dir/pristine" > /dev/null
# (A work directory with a space in its name, for a command line that must be quoted.)
for i in 1 2 3 4; do
  extra=()
  [ $i -eq 4 ] && extra=(--html "$dir/run.html")
  "$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/work $i" --run "r$i" --report-json "$dir/r$i.json" \
    "${extra[@]}" > "$dir/r$i.txt" 2> "$dir/r$i.err" || fail "reindex r$i failed: $(tail -5 "$dir/r$i.err")"
done
set +e
out=$("$warmup" compare "$dir/r1.json" "$dir/r2.json" --vs "$dir/r3.json" "$dir/r4.json" --html "$dir/compare.html" \
  --json "$dir/compare.json" --test rank 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || [ $rc -eq 3 ] || [ $rc -eq 4 ] || fail "compare --html exited $rc: $out"

# A reindex interrupted mid-load: each upsert slowed to 20 ms (300 of them),
# SIGINT once the progress shows a collection under way.
: > "$dir/cut.err"
"$warmup" reindex --pristine-dir "$dir/pristine" --work-dir "$dir/work-cut" --run cut --report-json "$dir/cut.json" \
  --html "$dir/cut.html" --server-args "--upsert-delay-ms 20" --progress-interval 0.1 \
  > "$dir/cut.txt" 2> "$dir/cut.err" &
cut_pid=$!
for _ in $(seq 600); do
  grep -q "progress: " "$dir/cut.err" && break
  sleep 0.1
done
grep -q "progress: " "$dir/cut.err" || fail "the slowed reindex showed no progress: $(tail -5 "$dir/cut.err")"
kill -INT "$cut_pid"
set +e
wait "$cut_pid"
rc=$?
set -e
cut_pid=
[ $rc -eq 1 ] || fail "the interrupted reindex exited $rc, not 1: $(tail -5 "$dir/cut.err")"

# An embedded load of senesi's 18 collections (3,869 entities).
"$warmup" generate --profile senesi --scale 0.01 --out "$dir/senesi" > /dev/null
"$warmup" load --pristine-dir "$dir/senesi" --target embedded --work-dir "$dir/work-embedded" --run embedded \
  --report-json "$dir/embedded.json" --html "$dir/embedded.html" > "$dir/embedded.txt" 2> /dev/null ||
  fail "the embedded load failed: $(tail -5 "$dir/embedded.txt")"

# A load read through a source server (issue 51): warmup serve started on a
# copy of a catalog folder; the reader's own figures in rows and a chart of
# their own.
"$warmup" load --pristine-dir "$dir/senesi" --target embedded --work-dir "$dir/store" --target-catalog senesi \
  --quiet > /dev/null 2>&1 || fail "the store for the source server could not be made"
"$warmup" load --pristine-dir "$dir/store" --source-server-command \
  "exec '$warmup' serve --data-dir {data} --listen 127.0.0.1:{port}" --target embedded \
  --work-dir "$dir/work-sourced" --run sourced --report-json "$dir/sourced.json" --html "$dir/sourced.html" \
  > "$dir/sourced.txt" 2> /dev/null || fail "the load through a source server failed: $(tail -5 "$dir/sourced.txt")"

# The data each page carries, and pages made from it with other data (the
# page draws whatever its data block holds): 20 collections for the CDF's
# styles; a late goLive; a count that differs; a comparison with one metric
# decidable; and the comparison page
# with a script of this test's that measures, after the page has drawn,
# where the verdict cells are in an 800 px wide window.
python3 - "$dir" << 'PY' || fail "a page's data is incomplete"
import copy, html.parser, json, os, re, sys
d = sys.argv[1]
OPEN = '<script type="application/json" id="warmup-data">'
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
def with_data(path, doc, out, script=""):
    text = open(path, encoding="utf-8").read()
    start = text.index(OPEN) + len(OPEN)
    end = text.index("</script>", start)
    text = text[:start] + json.dumps(doc).replace("<", "\\u003c") + text[end:]
    if script:
        text = text.replace("</body>", "<script>" + script + "</script></body>")
    open(out, "w", encoding="utf-8").write(text)
run = page_data(os.path.join(d, "run.html"))
assert run == json.load(open(os.path.join(d, "r4.json"))), "the run page's data is not the run's JSON report"
types = {c["entity_type"] for c in run["collections"]}
assert types == {"Brand", "Category", "Parameter", "ParameterValue", "Product"}, types
assert {c["entity_type"] for c in run["time_series"]["collections"]} == types
assert run["time_series"]["intervals"] and run["server_process"]["samples"]
assert page_data(os.path.join(d, "cut.html")) == json.load(open(os.path.join(d, "cut.json")))
assert page_data(os.path.join(d, "embedded.html")) == json.load(open(os.path.join(d, "embedded.json")))
cmp = page_data(os.path.join(d, "compare.html"))
assert cmp == json.load(open(os.path.join(d, "compare.json"))), "the comparison page's data is not its JSON"
assert [os.path.basename(f) for f in cmp["a"]] == ["r1.json", "r2.json"], cmp["a"]
assert [os.path.basename(f) for f in cmp["b"]] == ["r3.json", "r4.json"], cmp["b"]
metrics = {m["metric"] for m in cmp["metrics"]}
# (a collection of fewer than 20 entities is not compared: docs/comparing.md)
assert {"upsert_median_us:" + c["entity_type"] for c in run["collections"] if c["copied"] >= 20} <= metrics, metrics
assert all(len(m["a"]) == 2 and len(m["b"]) == 2 for m in cmp["metrics"])

embedded = page_data(os.path.join(d, "embedded.html"))
many = copy.deepcopy(embedded)
product = next(c for c in many["collections"] if c["entity_type"] == "Product")
many["collections"] = [dict(copy.deepcopy(product), entity_type="C%02d" % i) for i in range(1, 21)]
with_data(os.path.join(d, "embedded.html"), many, os.path.join(d, "many.html"))

# goLive ending long after the last upsert (a slow goLive: 4.27 s against a
# load that ended at 3.98 s once drew an axis ending at 4.0 s): the end far
# enough past the load that no rounding of the load's axis reaches it.
late = copy.deepcopy(embedded)
ts = late["time_series"]
ts["golive_end_seconds"] = 1.6 * ts["golive_start_seconds"] + 0.01
late["golive"]["seconds"] = ts["golive_end_seconds"] - ts["golive_start_seconds"]
late["total_seconds"] = late["load_wall_seconds"] + late["golive"]["seconds"]
# ... whose records were written as evitaDB writes them (issue 52: the page says so at its top).
late["config"]["compression"], late["config"]["record_writes"] = "deflate", "inline"
with_data(os.path.join(d, "embedded.html"), late, os.path.join(d, "late.html"))

# A count that differs: the verification table shows the target's count.
mismatch = copy.deepcopy(run)
mismatch["collections"][0]["target_count"] -= 1
mismatch["verification"]["outcome"] = "mismatch"
with_data(os.path.join(d, "run.html"), mismatch, os.path.join(d, "mismatch.html"))

decidable = copy.deepcopy(cmp)
decidable["metrics"][0].update(decidable=True, detectable_change=0.1234)
with_data(os.path.join(d, "compare.html"), decidable, os.path.join(d, "decidable.html"))

measure = """
const cells = [...document.querySelectorAll('td[data-col="verdict"]')];
let visible = 0;
for (const td of cells) {
  const r = td.getBoundingClientRect();
  let shown = r.width > 0 && r.left >= 0 && r.right <= window.innerWidth;
  for (let e = td.parentElement; e && e !== document.body; e = e.parentElement) {
    if (getComputedStyle(e).overflowX === 'visible') continue;
    const box = e.getBoundingClientRect();
    shown = shown && r.left >= box.left && r.right <= box.right;
  }
  if (shown) visible++;
}
document.body.dataset.testVerdictCells = cells.length;
document.body.dataset.testVerdictVisible = visible;
document.body.dataset.testWindowWidth = window.innerWidth;
document.body.dataset.testPageWidth = document.documentElement.scrollWidth;
"""
with_data(os.path.join(d, "compare.html"), cmp, os.path.join(d, "compare800.html"), measure)
PY

# Each page in headless Chromium: drawn, every chart, not a console line;
# its DOM afterwards in NAME.dom.
render() {
  local name=$1 charts=$2 width=${3:-1200}
  local page="$dir/$name.html" profile="$dir/chromium-profile"
  timeout 120 chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 --virtual-time-budget=10000 \
    --window-size="$width,1000" --dump-dom \
    "file://$page" > "$dir/$name.dom" 2> "$dir/chromium.log" || fail "chromium failed on $page: $(tail -5 "$dir/chromium.log")"
  local body
  body=$(grep -o '<body[^>]*>' "$dir/$name.dom" || true)
  [[ $body == *'data-rendered="ok"'* ]] || fail "$page did not render: $body; $(grep -o '<pre id="errors">[^<]*' "$dir/$name.dom")"
  [[ $body == *"data-charts=\"$charts\""* ]] || fail "$page drew other than $charts charts: $body"
  if grep -q "CONSOLE" "$dir/chromium.log"; then fail "$page logged to the console: $(grep CONSOLE "$dir/chromium.log")"; fi
}
metrics=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["metrics"]))' "$dir/compare.json")
render run 5
render cut "$(python3 -c 'import json, sys; print(5 if json.load(open(sys.argv[1]))["time_series"]["intervals"] else 3)' "$dir/cut.json")"
render embedded 4
render sourced 5
render many 4
render late 4
render mismatch 5
render compare "$metrics"
render decidable "$metrics"
render compare800 "$metrics" 800

# A history of twelve runs (the reindex's report, relabelled and restarted)
# whose TOTAL, load and upserts are 30 % slower from the seventh on,
# recorded, found and drawn by warmup history trend.
python3 - "$dir" << 'PY' || fail "the history's reports could not be written"
import copy, json, os, sys
d = sys.argv[1]
base = json.load(open(os.path.join(d, "r4.json")))
os.makedirs(os.path.join(d, "series"))
for i in range(12):
    r = copy.deepcopy(base)
    r["run_label"] = "t%02d" % i
    r["started_at"] = "2026-12-04T10:%02d:00Z" % (10 + i)
    k = (1.0 if i < 6 else 1.3) * (1 + 0.01 * (i % 3))
    r["total_seconds"] *= k
    r["load_wall_seconds"] *= k
    for c in r["collections"]:
        c["upsert"]["median_us"] *= k
        c["upsert"]["mean_us"] *= k
    json.dump(r, open(os.path.join(d, "series", r["run_label"] + ".json"), "w"))
PY
"$warmup" history record "$dir/series" --history "$dir/history.sqlite" > "$dir/record.txt" ||
  fail "history record failed: $(cat "$dir/record.txt")"
set +e
"$warmup" history trend --history "$dir/history.sqlite" --html "$dir/trend.html" --json "$dir/trend.json" \
  > "$dir/trend.txt" 2>&1
rc=$?
set -e
[ $rc -eq 3 ] || fail "history trend over a 30 % step exited $rc, not 3: $(cat "$dir/trend.txt")"
render trend "$(python3 -c 'import json, sys
h = json.load(open(sys.argv[1]))
print(sum(1 for s in h["series"] for m in s["metrics"] if m["points"]))' "$dir/trend.json")"

# What each page shows.
python3 - "$dir" << 'PY' || fail "a page does not show what its data says"
import html.parser, json, math, os, re, shlex, sys
d = sys.argv[1]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

class Node:
    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.children = tag, dict(attrs), []
    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)
    def all(self, tag=None, **attrs):
        for c in self.children:
            if isinstance(c, str):
                continue
            if (tag is None or c.tag == tag) and all(c.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                yield c
            yield from c.all(tag, **attrs)
    def one(self, tag=None, **attrs):
        found = list(self.all(tag, **attrs))
        assert len(found) == 1, (tag, attrs, len(found))
        return found[0]

def dom(name):
    class Builder(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.root = Node("#document", {})
            self.stack = [self.root]
        def handle_starttag(self, tag, attrs):
            node = Node(tag, attrs)
            self.stack[-1].children.append(node)
            if tag not in VOID:
                self.stack.append(node)
        def handle_endtag(self, tag):
            for i in range(len(self.stack) - 1, 0, -1):
                if self.stack[i].tag == tag:
                    del self.stack[i:]
                    break
        def handle_data(self, text):
            self.stack[-1].children.append(text)
    b = Builder()
    b.feed(open(os.path.join(d, name + ".dom"), encoding="utf-8").read())
    return b.root

def report(name):
    return json.load(open(os.path.join(d, name + ".json")))

def rows(page, table):
    """The rows of <table data-table=...>: (the row's attributes, its cells' texts)."""
    t = page.one("table", data_table=table)
    return [(tr.attrs, [td.text() for td in tr.all("td")]) for tr in t.all("tr") if list(tr.all("td"))]

def canvas(page, name):
    return page.one("canvas", data_chart=name).attrs

def grouped(n):
    return "{:,}".format(n)

def banner(page):
    b = page.one("div", id="verdict")
    return b, " ".join(b.text().split())

def check_run_banner(page, r, colour):
    b, text = banner(page)
    assert b.attrs["data-exit-code"] == str(r["exit_code"]), (b.attrs, r["exit_code"])
    assert colour in b.attrs["class"].split(), (b.attrs["class"], colour)
    assert r["verdict"] + " (exit %d)" % r["exit_code"] in text, (r["verdict"], text)
    assert ("do not quote these figures" in text.lower()) == (r["exit_code"] != 0), text
    return text

def text_report_counts(name):
    """The text report's per-collection table: entity type -> its count column."""
    counts = {}
    lines = open(os.path.join(d, name + ".txt"), encoding="utf-8").read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("collection (slowest first)"))
    for line in lines[start + 1:]:
        if not line.strip():
            break
        counts[line.split()[0]] = line.split()[1]
    return counts

def text_report_line(name, pattern):
    text = open(os.path.join(d, name + ".txt"), encoding="utf-8").read()
    m = re.search(pattern, text, re.M)
    assert m, (name, pattern)
    return m.group(1)

def check_time_axes(page, r):
    """Every time axis covers everything drawn on it, goLive's end included."""
    ts, sp = r["time_series"], r["server_process"]
    golive_end = ts["golive_end_seconds"]
    assert golive_end is not None, "the run has no goLive end to check"
    names = ["throughput", "latency"] + (["server"] if sp else [])
    for name in names:
        c = canvas(page, name)
        lo, hi = float(c["data-axis-min"]), float(c["data-axis-max"])
        last = max([i["end_seconds"] for i in ts["intervals"]] + [s["seconds"] for s in (sp["samples"] if sp else [])])
        assert lo <= 0 and hi >= golive_end and hi >= last, (name, lo, hi, golive_end, last)
        assert float(c["data-golive-end"]) == golive_end, (name, c["data-golive-end"], golive_end)
        markers = json.loads(c["data-markers"])
        alive = [m for m in markers if m["kind"] == "golive-end"]
        assert len(alive) == 1 and alive[0]["x"] == golive_end and alive[0]["box"], (name, alive)
        area = json.loads(c["data-plot-area"])
        assert area[0] - 0.5 <= alive[0]["box"][0] and alive[0]["box"][2] <= area[2] + 0.5, (name, alive, area)

def check_markers(page, r):
    """Every collection start on a time axis is labelled, in load order, and no two labels overlap."""
    ts = r["time_series"]
    timeline = rows(page, "timeline")
    assert [(a["data-marker"], a["data-entity-type"]) for a, _ in timeline] == \
        [(str(i + 1), c["entity_type"]) for i, c in enumerate(ts["collections"])], timeline
    for name in ["throughput", "latency"]:
        c = canvas(page, name)
        markers = json.loads(c["data-markers"])
        area = json.loads(c["data-plot-area"])
        starts = [m for m in markers if m["kind"] == "collection"]
        assert len(starts) == len(ts["collections"]), (name, len(starts), len(ts["collections"]))
        for i, (m, col) in enumerate(zip(starts, ts["collections"])):
            assert m["x"] == col["start_seconds"], (name, m, col)
            assert m["text"] and m["text"].split()[0] == str(i + 1), (name, i, m)
            if len(m["text"].split()) > 1:
                assert m["text"] == "%d %s" % (i + 1, col["entity_type"]), (name, m)
        for m in markers:
            box = m["box"]
            assert box and area[0] - 0.5 <= box[0] and box[2] <= area[2] + 0.5, (name, m, area)
            assert area[1] - 0.5 <= box[1] and box[3] <= area[3] + 0.5, (name, m, area)
        for i, a in enumerate(markers):
            for b in markers[i + 1:]:
                x, y = a["box"], b["box"]
                apart = x[2] <= y[0] or y[2] <= x[0] or x[3] <= y[1] or y[3] <= x[1]
                assert apart, (name, "labels overlap", a, b)

def lab(colour):
    """CIE L*a*b* of a #rrggbb colour (D65)."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [((c + 0.055) / 1.055) ** 2.4 if c > 0.04045 else c / 12.92 for c in rgb]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))

def check_cdf(page, r):
    """Collections of 20 upserts or more are drawn, each in a style of its own; the others are named."""
    series = json.loads(canvas(page, "cdf")["data-series"])
    reached = [c for c in r["collections"] if c["reached"]]
    drawn = [c["entity_type"] for c in reached if c["upsert"]["count"] >= 20]
    assert sorted(s["label"].split(" (")[0] for s in series) == sorted(drawn), (series, drawn)
    left_out = [c for c in reached if c["upsert"]["count"] < 20]
    if left_out:
        note = page.one("p", data_note="cdf-left-out").text()
        for c in left_out:
            assert c["entity_type"] + " (" in note, (c["entity_type"], note)
    for i, a in enumerate(series):
        for b in series[i + 1:]:
            if a["dash"] != b["dash"]:
                continue
            de = math.dist(lab(a["color"]), lab(b["color"]))
            assert de >= 20, ("two CDF series look alike", a, b, round(de, 1))
    return series

def check_verification(page, r):
    """Per collection the source's, the expected and the target's counts, and whether they match."""
    shown = rows(page, "verification")
    assert [a["data-entity-type"] for a, _ in shown] == [c["entity_type"] for c in r["collections"]], shown
    for (a, cells), c in zip(shown, r["collections"]):
        outcome = "matches" if c["target_count"] == c["expected_count"] else "DIFFERS"
        assert cells[1:] == [grouped(c["source_count"]), grouped(c["expected_count"]), grouped(c["target_count"]),
                             outcome], (cells, c)

# A verified reindex.
page, r = dom("run"), report("r4")
assert r["exit_code"] == 0, r["verdict"]
check_run_banner(page, r, "green")
table = rows(page, "collections")
by_type = {a["data-entity-type"]: cells for a, cells in table}
assert set(by_type) == {c["entity_type"] for c in r["collections"]}, by_type
text_counts = text_report_counts("r4")
for c in r["collections"]:
    count = by_type[c["entity_type"]][1]
    assert count == grouped(c["copied"]) == text_counts[c["entity_type"]], (c["entity_type"], count, c["copied"])
totals = {a["data-row"]: cells for a, cells in rows(page, "totals")}
assert totals["total"][1] == "%.3f s" % r["total_seconds"], (totals["total"], r["total_seconds"])
assert totals["total"][1] == text_report_line("r4", r"^  TOTAL +([0-9.]+ s)"), totals["total"]
assert totals["load"][1] == "%.3f s" % r["load_wall_seconds"], totals["load"]
assert totals["golive"][1] == "%.3f s" % r["golive"]["seconds"], totals["golive"]
check_verification(page, r)
mismatch = dom("mismatch")
check_verification(mismatch, json.loads(mismatch.one("script", id="warmup-data").text()))
assert "DIFFERS" in [cells[-1] for _, cells in rows(mismatch, "verification")]
assert [li.text() for li in page.one("ul", data_list="caveats").all("li")] == r["caveats"]
command = {a.get("data-row"): cells for a, cells in rows(page, "config")}["command"][1]
assert command == shlex.join(r["config"]["command_line"]) == text_report_line("r4", r"^  command  (.*)$"), command
# What the server said of itself (ServerStatus), as the text report's server line says it.
said = {a.get("data-row"): cells for a, cells in rows(page, "fingerprint")}["server-identity"][1]
assert said == r["server_identity"]["description"] == text_report_line("r4", r"^  server   (.*)$"), said
assert said.startswith("warmup "), said  # serve names itself, never "evitaDB"
split = canvas(page, "time-split")
labels = json.loads(split["data-labels"])
row = labels.index("goLive → ALIVE")
bars = [s["values"][row] if row < len(s["values"]) else None for s in json.loads(split["data-series"])]
assert [b for b in bars if b is not None] == [r["golive"]["seconds"]], (labels, bars)
assert float(split["data-axis-min"]) <= 0 and float(split["data-axis-max"]) >= r["golive"]["seconds"], split
check_time_axes(page, r)
check_markers(page, r)
check_cdf(page, r)

# An interrupted reindex.
page, r = dom("cut"), report("cut")
assert r["abort_reason"] == "interrupted" and r["exit_code"] == 1, (r["abort_reason"], r["exit_code"])
text = check_run_banner(page, r, "red")
assert "INTERRUPTED" in text and "(exit 1)" in text and "abort reason interrupted" in text, text
assert r["abort_error"] and r["abort_error"] in text, (r["abort_error"], text)
incomplete = [c for c in r["collections"] if not c["reached"] or c["copied"] < c["expected_count"]]
assert incomplete, "the interrupt left every collection complete"
by_type = {a["data-entity-type"]: (a, cells) for a, cells in rows(page, "collections")}
labels = json.loads(canvas(page, "time-split")["data-labels"])
cdf = [s["label"] for s in json.loads(canvas(page, "cdf")["data-series"])]
for c in r["collections"]:
    attrs, cells = by_type[c["entity_type"]]
    if not c["reached"]:
        assert attrs["data-state"] == "not-reached" and cells[1] == "not reached", (c["entity_type"], cells)
        assert c["entity_type"] + " (not reached)" in labels, (c["entity_type"], labels)
        assert not [s for s in cdf if s.startswith(c["entity_type"] + " ")] and c["entity_type"] not in cdf
    elif c["copied"] < c["expected_count"]:
        shown = "%s of %s" % (grouped(c["copied"]), grouped(c["expected_count"]))
        assert attrs["data-state"] == "partial" and cells[1] == shown, (c["entity_type"], cells, shown)
        assert "%s (%s)" % (c["entity_type"], shown) in labels, (c["entity_type"], labels)
        if c["upsert"]["count"] >= 20:
            assert "%s (%s)" % (c["entity_type"], shown) in cdf, (c["entity_type"], cdf)
    else:
        assert attrs["data-state"] == "complete" and cells[1] == grouped(c["copied"]), (c["entity_type"], cells)
totals = {a["data-row"]: cells for a, cells in rows(page, "totals")}
assert r["total_seconds"] is None and totals["total"][1] == "not stated: goLive did not complete", totals["total"]

# A load through a source server: the reader's figures under its own name,
# as the text report's "source server" line says them, and its chart.
page, r = dom("sourced"), report("sourced")
assert r["exit_code"] == 0 and r["server_process"] is None and r["source_server_process"], r["verdict"]
totals = {a["data-row"]: cells for a, cells in rows(page, "totals")}
reader = totals["source-server-process"]
assert reader[0] == "source server (the reader, not the target)", reader
assert reader[1] == text_report_line("sourced", r"^  source server +(user [0-9.]+ s, sys [0-9.]+ s),"), reader
ssp = r["source_server_process"]
assert reader[2] == "peak RSS %.1f MB; from /proc samples of the command's process group; %s" % (
    ssp["usage"]["peak_rss_bytes"] / 1e6, ssp["ended"]), reader
assert "server-process" not in totals, totals
header = {a.get("data-row"): cells for a, cells in rows(page, "fingerprint")}["source-server"][1]
assert header == r["source_server_process"]["header"] and header.startswith("command: exec "), header
series = json.loads(canvas(page, "source-server")["data-series"])
assert series[0]["points"] == len(r["source_server_process"]["samples"]), series

# An embedded load of 18 collections.
page, r = dom("embedded"), report("embedded")
assert r["exit_code"] == 0 and len(r["collections"]) == 18 and r["server_process"] is None
check_run_banner(page, r, "green")
check_time_axes(page, r)
check_markers(page, r)
check_cdf(page, r)
assert any(c["upsert"]["count"] < 20 for c in r["collections"]), "no collection small enough to leave out"
late = dom("late")
check_time_axes(late, json.loads(late.one("script", id="warmup-data").text()))
# issue 52: how the records were written, at the page's top and in the text report's header.
records = lambda page: {a.get("data-row"): cells for a, cells in rows(page, "fingerprint")}["records"][1]
assert records(page) == "none, written on a second thread: not as evitaDB writes them (deflate, by each upsert)", records(page)
assert "records compressed: none, record writes background, verify" in text_report_line("embedded", r"^  config   (.*)$")
assert records(late) == "deflate, written by each upsert: as evitaDB writes them", records(late)
many = dom("many")
assert len(check_cdf(many, json.loads(many.one("script", id="warmup-data").text()))) == 20

# The comparison.
for name in ["compare", "compare800"]:
    page, c = dom(name), report("compare")
    b, text = banner(page)
    colour = {"regressed": "red", "inconclusive": "amber", "no regression": "green"}[c["verdict"]]
    assert b.attrs["data-exit-code"] == str(c["exit_code"]) and b.attrs["data-verdict"] == c["verdict"], b.attrs
    assert colour in b.attrs["class"].split() and "(exit %d)" % c["exit_code"] in text, (b.attrs, text)
    for w in c["warnings"]:
        assert "WARNING: " + w in text, (w, text)
    for arm, files, key in [("A", c["a"], "arm_a"), ("B", c["b"], "arm_b")]:
        shown = {tr.attrs["data-field"]: [td.text() for td in tr.all("td")][1]
                 for tr in page.one("table", data_arm=arm).all("tr")}
        assert shown["runs"] == ", ".join(os.path.basename(f) for f in files), (arm, shown["runs"])
        for field, values in [("server", c[key]["servers"]), ("server build", c[key]["server_builds"]),
                              ("loader build", c[key]["loader_builds"]), ("command line", c[key]["command_lines"])]:
            assert shown.get(field, shown.get(field + " (the runs differ)")) == "\n".join(values), (arm, field, shown)
        assert c[key]["servers"] and c[key]["loader_builds"] and c[key]["command_lines"], (arm, c[key])
        # The host under each run, as its report says it (environment.at_start.load_average_1m).
        loads = c[key]["load_averages"]
        assert len(loads) == len(files), (arm, loads)
        assert shown["host load"].startswith("1-min load average at each run's start: " +
                                             ", ".join("%.2f" % v for v in loads)), (arm, shown["host load"])
    assert [li.text() for li in page.one("ul", data_list="setup").all("li")] == c["setup"]
    head = [th.text() for th in page.one("table", data_table="metrics").all("th")]
    assert head[:2] == ["metric", "verdict"], head
    for column in ["median A", "median B", "ratio", "interval", "test", "p", "p Holm", "shift", "detect", "noise"]:
        assert column in head, (column, head)
    table = rows(page, "metrics")
    assert [a["data-metric"] for a, _ in table] == [m["metric"] for m in c["metrics"]]
    for (a, cells), m in zip(table, c["metrics"]):
        assert cells[1] == m["verdict"], (m["metric"], cells, m["verdict"])
        test = "log-t" if m["test"] == "log-welch" else "rank" if m["mann_whitney"]["exact"] else "rank~"
        assert cells[head.index("test")] == test, (m["metric"], cells, test)
        detect = cells[head.index("detect")]
        assert detect == ("%.1f %%" % (100 * m["detectable_change"]) if m["decidable"] else "n/a"), (m["metric"], detect)
    assert c["verdict"] == "inconclusive" and not any(m["decidable"] for m in c["metrics"]), "2 against 2 ranked runs decide nothing"
    if c["small_collections"]:
        shown = page.one("p", data_note="small-collections").text()
        assert all(t in shown for t in c["small_collections"]), (shown, c["small_collections"])
body = dom("compare800").one("body").attrs
assert body["data-test-window-width"] == "800", body
cells = int(body["data-test-verdict-cells"])
assert cells == len(report("compare")["metrics"]) and body["data-test-verdict-visible"] == str(cells), body
assert int(body["data-test-page-width"]) <= 800, ("the page scrolls sideways", body)
page = dom("decidable")
first = rows(page, "metrics")[0][1]
head = [th.text() for th in page.one("table", data_table="metrics").all("th")]
assert first[head.index("detect")] == "12.3 %", first

# The trend: the verdict of history changes, the step where the reports put
# it (between the sixth run and the seventh), each run a point.
trend = json.load(open(os.path.join(d, "trend.json")))
page = dom("trend")
banner = page.one("div", id="verdict")
assert banner.attrs["data-exit-code"] == "3", banner.attrs
assert "REGRESSION: total_seconds of series 1 at t06" in banner.text(), banner.text()
canvas = page.one("canvas", data_chart="trend:1:total_seconds")
assert json.loads(canvas.attrs["data-labels"]) == ["t%02d" % i for i in range(12)], canvas.attrs["data-labels"]
series = json.loads(canvas.attrs["data-series"])
assert [(s["label"], s["points"]) for s in series] == [("runs", 12), ("mean of runs 1–6", 12),
                                                       ("mean of runs 7–12", 12)], series
markers = json.loads(canvas.attrs["data-markers"])
assert len(markers) == 1 and markers[0]["x"] == 5.5, markers
assert markers[0]["text"].startswith("REGRESSION +") and "at t06" in markers[0]["text"], markers
changes = page.one("table", data_table="changes", data_metric="total_seconds")
assert [tr.attrs.get("data-run") for tr in changes.all("tr") if "data-run" in tr.attrs] == ["t06"]
total = next(m for m in trend["series"][0]["metrics"] if m["metric"] == "total_seconds")
assert [p["run_label"] for p in total["points"]] == ["t%02d" % i for i in range(12)], total["points"]
PY
echo "html_test: ok"
