#include "warmup/html_report.h"

#include <cstddef>

#include "warmup/report.h"

namespace warmup {
namespace report {
extern const char kChartJs[];  // generated from Debian's chart.min.js (cmake/embed_file.cmake)
}  // namespace report
namespace {

// Everything before the data: style, Chart.js, the error trap.
constexpr const char* kHead = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1em; margin-bottom: 0; }
p.note { color: #555; margin: 0.2em 0; font-size: 0.9em; }
table { border-collapse: collapse; font-size: 0.9em; }
td, th { padding: 2px 10px 2px 0; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.chart { position: relative; height: 340px; margin: 0.5em 0 1.5em; }
.regressed { color: #b00; font-weight: bold; } .improved { color: #070; font-weight: bold; }
#errors { color: #b00; white-space: pre-wrap; }
</style>
<script>
)html";

constexpr const char* kAfterChartJs = R"html(
</script>
</head>
<body>
<h1>@TITLE@</h1>
<pre id="errors"></pre>
<div id="content"></div>
<script>
window.addEventListener('error', (e) => {
  document.getElementById('errors').textContent += 'script error: ' + e.message + '\n';
  document.body.dataset.rendered = 'error';
});
</script>
<script type="application/json" id="warmup-data">)html";

// Helpers shared by both pages: sections, tables, charts, and a plugin that
// draws dashed vertical lines (collection starts, goLive) on a time axis.
constexpr const char* kCommonJs = R"js(</script>
<script>
const data = JSON.parse(document.getElementById('warmup-data').textContent);
const content = document.getElementById('content');
const palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7',
                 '#9c755f', '#bab0ac', '#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b',
                 '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
let charts = 0;
Chart.defaults.animation = false;
Chart.defaults.maintainAspectRatio = false;
Chart.register({
  id: 'markers',
  afterDatasetsDraw(chart, args, options) {
    const x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
    for (const line of (options.lines || [])) {
      const px = x.getPixelForValue(line.x);
      if (!(px >= area.left && px <= area.right)) continue;
      ctx.save();
      ctx.strokeStyle = line.color || '#888';
      ctx.fillStyle = line.color || '#555';
      ctx.setLineDash([4, 3]);
      ctx.beginPath(); ctx.moveTo(px, area.top); ctx.lineTo(px, area.bottom); ctx.stroke();
      ctx.font = '10px sans-serif';
      ctx.translate(px + 3, area.top + 4); ctx.rotate(Math.PI / 2); ctx.fillText(line.label, 0, 0);
      ctx.restore();
    }
  },
});
function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function section(title, note, level) {
  content.append(el(level || 'h2', {}, title));
  if (note) content.append(el('p', {class: 'note'}, note));
}
function table(head, rows) {
  const t = el('table');
  if (head) { const tr = el('tr'); for (const h of head) tr.append(el('th', {}, h)); t.append(tr); }
  for (const row of rows) {
    const tr = el('tr');
    for (const cell of row) {
      const c = (cell !== null && typeof cell === 'object') ? cell : {text: cell};
      tr.append(el('td', c.cls ? {class: c.cls} : {}, c.text === null || c.text === undefined ? '' : String(c.text)));
    }
    t.append(tr);
  }
  content.append(t);
}
function chart(config, height) {
  const box = el('div', {class: 'chart'});
  if (height) box.style.height = height + 'px';
  const canvas = el('canvas');
  box.append(canvas);
  content.append(box);
  new Chart(canvas, config);
  charts++;
}
function fixed(v, places) { return v === null || v === undefined ? '' : Number(v).toFixed(places); }
function axis(text, extra) { return Object.assign({title: {display: true, text: text}}, extra || {}); }
)js";

constexpr const char* kRunJs = R"js(
const r = data;
const env = r.environment;
const steal = env.steal_share === null ? 'unknown' : fixed(100 * env.steal_share, 1) + ' %';
const load = (l) => l.load_average_1m === null ? '?' : fixed(l.load_average_1m, 2);
const rows = [
  ['run', r.run_label + ' (started ' + r.started_at + ')'],
  ['outcome', 'exit ' + r.exit_code + '; verification ' + r.verification.outcome + '; goLive ' + r.golive.outcome],
  ['TOTAL', r.total_seconds === null ? 'none (goLive did not complete)' : fixed(r.total_seconds, 3) + ' s (load ' +
      fixed(r.load_wall_seconds, 3) + ' s + goLive ' + fixed(r.golive.seconds, 3) + ' s)'],
  ['source', r.source + ', fingerprint ' + r.dataset_fingerprint],
  ['target', r.target + ', catalog ' + r.target_catalog],
  ['loader build', env.build_details || env.build],
  ['host', env.hostname + ': ' + env.cpu_model + ', ' + env.cores + ' cores, memory limit ' +
      fixed(env.memory_limit_bytes / 2 ** 30, 1) + ' GiB, cgroup cpu.max ' + (env.cpu_limit || 'none') +
      ', kernel ' + env.kernel],
  ['host load', '1-min load average ' + load(env.at_start) + ' at the start, ' + load(env.at_end) +
      ' at the end; CPU steal ' + steal],
];
if (r.source_cache) {
  const c = r.source_cache;
  rows.push(['source page cache', fixed(c.resident_bytes / 1e6, 1) + ' of ' + fixed(c.bytes / 1e6, 1) + ' MB resident before the run (' +
      c.files + ' files' + (c.action === 'none' ? '' : ', ' + c.action + ' on purpose') + ')']);
}
const sp = r.server_process;
if (sp) {
  rows.push(['server', sp.header + (sp.build ? '; build ' + sp.build : '')]);
  rows.push(['server usage', 'user ' + fixed(sp.usage.user_seconds, 2) + ' s, sys ' + fixed(sp.usage.system_seconds, 2) +
      ' s, peak RSS ' + fixed(sp.usage.peak_rss_bytes / 1e6, 1) + ' MB; ' + sp.ended]);
}
section('Fingerprint', 'what this run was, and what could make another run of the same build disagree with it');
table(null, rows);

const cols = r.collections.filter((c) => c.copied > 0).sort((a, b) => b.wall_seconds - a.wall_seconds);
section('Where the load\'s time went', 'per collection, slowest first: upserts (and the loop around them) and source reads');
chart({type: 'bar',
       data: {labels: cols.map((c) => c.entity_type),
              datasets: [{label: 'upserts (s)', data: cols.map((c) => Math.max(0, c.wall_seconds - c.read_seconds)),
                          backgroundColor: palette[0]},
                         {label: 'source read (s)', data: cols.map((c) => c.read_seconds), backgroundColor: palette[1]}]},
       options: {indexAxis: 'y', scales: {x: axis('seconds', {stacked: true}), y: {stacked: true}}}},
      Math.max(200, 26 * cols.length + 90));

section('Upsert latency per collection', 'cumulative distribution from the recorded quantiles (minimum, every 5 %, 99 %, ' +
        '99.9 % from 1000 upserts, maximum); log scale');
chart({type: 'scatter',
       data: {datasets: cols.map((c, i) => ({label: c.entity_type, showLine: true, pointRadius: 1.5,
                                             borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length],
                                             data: c.upsert.cdf.map(([q, us]) => ({x: Math.max(us, 0.1), y: q}))}))},
       options: {scales: {x: axis('upsert (µs)', {type: 'logarithmic'}), y: axis('share of upserts at or below', {min: 0, max: 1})}}},
      420);

const ts = r.time_series;
const lines = [];
if (ts) {
  // Every collection start is drawn; only those of a collection long enough to be seen are named.
  const span = ts.collections.length ? ts.collections[ts.collections.length - 1].end_seconds : 0;
  for (const c of ts.collections) {
    lines.push({x: c.start_seconds, label: c.end_seconds - c.start_seconds >= 0.03 * span ? c.entity_type : ''});
  }
  if (ts.golive_start_seconds !== null) lines.push({x: ts.golive_start_seconds, label: 'goLive', color: '#c00'});
  if (ts.golive_end_seconds !== null) lines.push({x: ts.golive_end_seconds, label: 'ALIVE', color: '#c00'});
}
if (ts && ts.intervals.length > 0) {
  const mid = (i) => (i.start_seconds + i.end_seconds) / 2;
  section('Throughput over time', 'upserts per second in intervals of ' + ts.interval_seconds + ' s; dashed: collection starts and goLive');
  chart({type: 'line',
         data: {datasets: [{label: 'upserts/s', borderColor: palette[0], pointRadius: 0,
                            data: ts.intervals.map((i) => ({x: mid(i), y: i.upserts_per_second}))}]},
         options: {scales: {x: axis('seconds since the load started', {type: 'linear'}), y: axis('upserts/s', {min: 0})},
                   plugins: {markers: {lines: lines}}}});
  section('Upsert latency over time', 'p50 and p99 of the upserts that ended in each interval; log scale');
  const busy = ts.intervals.filter((i) => i.upserts > 0);
  chart({type: 'line',
         data: {datasets: [{label: 'p50 (µs)', borderColor: palette[0], pointRadius: 0,
                            data: busy.map((i) => ({x: mid(i), y: Math.max(i.p50_us, 1)}))},
                           {label: 'p99 (µs)', borderColor: palette[2], pointRadius: 0,
                            data: busy.map((i) => ({x: mid(i), y: Math.max(i.p99_us, 1)}))}]},
         options: {scales: {x: axis('seconds since the load started', {type: 'linear'}), y: axis('µs', {type: 'logarithmic'})},
                   plugins: {markers: {lines: lines}}}});
}
if (sp && sp.samples.length > 0) {
  const cpu = sp.samples.slice(1).map((s, i) => ({x: s.seconds,
      y: (s.cpu_seconds - sp.samples[i].cpu_seconds) / Math.max(1e-9, s.seconds - sp.samples[i].seconds)}));
  section('Server memory and CPU over time', 'sampled from /proc; CPU in cores busy between samples');
  chart({type: 'line',
         data: {datasets: [{label: 'RSS (MB)', yAxisID: 'y', borderColor: palette[4], pointRadius: 0,
                            data: sp.samples.map((s) => ({x: s.seconds, y: s.rss_bytes / 1e6}))},
                           {label: 'CPU (cores)', yAxisID: 'y1', borderColor: palette[1], pointRadius: 0, data: cpu}]},
         options: {scales: {x: axis('seconds since the load started', {type: 'linear'}), y: axis('MB', {min: 0}),
                            y1: axis('cores', {min: 0, position: 'right', grid: {drawOnChartArea: false}})},
                   plugins: {markers: {lines: lines}}}});
}
)js";

constexpr const char* kComparisonJs = R"js(
const c = data;
const base = (f) => f.split('/').pop();
const places = (unit) => unit === 'bytes' ? 0 : unit === 's' ? 3 : 1;
section('Verdict', c.exit_code === 3 ? 'REGRESSED (exit 3)' : 'no regression (exit 0)');
for (const w of c.warnings) content.append(el('p', {class: 'note'}, 'warning: ' + w));
table(['metric', 'n A', 'n B', 'median A', 'median B', 'ratio B/A', '95 % interval', 'p', 'p Holm', 'noise', 'verdict'],
      c.metrics.map((m) => [m.metric + ' (' + m.unit + ')', {text: m.a.length, cls: 'num'}, {text: m.b.length, cls: 'num'},
                            {text: fixed(m.median_a, places(m.unit)), cls: 'num'},
                            {text: fixed(m.median_b, places(m.unit)), cls: 'num'},
                            {text: fixed(m.ratio, 3), cls: 'num'},
                            '[' + fixed(m.ratio_ci[0], 3) + ', ' + fixed(m.ratio_ci[1], 3) + ']',
                            {text: m.mann_whitney.p_value.toPrecision(3), cls: 'num'},
                            {text: m.mann_whitney.p_holm.toPrecision(3), cls: 'num'},
                            {text: fixed(100 * m.noise_threshold, 1) + ' %', cls: 'num'},
                            {text: m.verdict, cls: m.verdict === 'no change' ? '' : m.verdict}]));
section('Runs', 'A: ' + c.a.map(base).join(', ') + ' | B: ' + c.b.map(base).join(', '));
section('Each metric, each run', 'a point per run (spread sideways to be seen), the lines the medians');
for (const m of c.metrics) {
  section(m.metric + ': ratio ' + fixed(m.ratio, 3) + ' [' + fixed(m.ratio_ci[0], 3) + ', ' + fixed(m.ratio_ci[1], 3) +
          '], ' + m.verdict, null, 'h3');
  const spread = (x, i, n) => x + (n > 1 ? (i / (n - 1) - 0.5) * 0.4 : 0);
  chart({type: 'scatter',
         data: {datasets: [
           {label: 'A', backgroundColor: palette[0], data: m.a.map((v, i) => ({x: spread(0, i, m.a.length), y: v}))},
           {label: 'B', backgroundColor: palette[1], data: m.b.map((v, i) => ({x: spread(1, i, m.b.length), y: v}))},
           {label: 'median A', showLine: true, pointRadius: 0, borderColor: palette[0], data: [{x: -0.3, y: m.median_a}, {x: 0.3, y: m.median_a}]},
           {label: 'median B', showLine: true, pointRadius: 0, borderColor: palette[1], data: [{x: 0.7, y: m.median_b}, {x: 1.3, y: m.median_b}]}]},
         options: {scales: {x: {min: -0.6, max: 1.6, ticks: {stepSize: 1, callback: (v) => v === 0 ? 'A' : v === 1 ? 'B' : ''}},
                            y: axis(m.unit)}}},
        260);
}
)js";

constexpr const char* kTail = R"html(
document.body.dataset.charts = String(charts);
if (document.body.dataset.rendered !== 'error') document.body.dataset.rendered = 'ok';
</script>
</body>
</html>
)html";

std::string Escaped(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string WithTitle(std::string text, const std::string& title) {
  const std::string marker = "@TITLE@";
  for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + title.size())) {
    text.replace(at, marker.size(), title);
  }
  return text;
}

// The page around `json` (inside a script element, where "</" or "<!--"
// could end or confuse it: every "<" is written as \u003c, the same string to
// a JSON parser, and outside strings JSON has none) and `page_js`.
std::string Page(const std::string& title, const std::string& json, const char* page_js) {
  const std::string escaped_title = Escaped(title);
  std::string out = WithTitle(kHead, escaped_title);
  out += report::kChartJs;
  out += WithTitle(kAfterChartJs, escaped_title);
  for (const char ch : json) {
    if (ch == '<') {
      out += "\\u003c";
    } else {
      out += ch;
    }
  }
  out += kCommonJs;
  out += page_js;
  out += kTail;
  return out;
}

}  // namespace

std::string RenderRunHtml(const RunResult& result) {
  return Page(
      "warmup run " + result.run_label + ": " + result.source_catalog + " (" + result.started_at + ")",
      RenderJsonReport(result), kRunJs);
}

std::string RenderComparisonHtml(const Comparison& comparison) {
  return Page("warmup compare: B against A, " + std::to_string(comparison.a_files.size()) + " and " +
                  std::to_string(comparison.b_files.size()) + " runs",
              RenderComparisonJson(comparison), kComparisonJs);
}

}  // namespace warmup
