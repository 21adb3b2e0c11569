#include "warmup/html_report.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "report/html_page.h"
#include "warmup/report.h"
#include "warmup/run_result.h"

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
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1em; margin-bottom: 0.3em; }
p.note { color: #555; margin: 0.2em 0; font-size: 0.9em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.9em; margin: 0.3em 0; }
td, th { padding: 2px 10px 2px 0; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
th { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.code { font-family: ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
td.metric { overflow-wrap: break-word; }
td.verdict { white-space: nowrap; }
td.partial, td.missing, table[data-table="totals"] td:nth-child(-n+2) { white-space: nowrap; }
table[data-table="fingerprint"] td:first-child, table[data-table="config"] td:first-child,
table[data-table="collections"] td:first-child, table[data-table="verification"] td:first-child { white-space: nowrap; }
td.partial, td.missing { background: #fff3d6; font-weight: bold; }
td.bad { color: #b00; font-weight: bold; }
ul.list { margin: 0.3em 0; padding-left: 1.4em; font-size: 0.9em; }
.chart { position: relative; height: 340px; margin: 0.5em 0 1.5em; }
.regressed { color: #b00; font-weight: bold; } .improved { color: #070; font-weight: bold; }
.inconclusive { color: #a60; font-weight: bold; }
.banner { border: 3px solid; border-radius: 6px; padding: 0.5em 1em; margin: 1em 0; }
.banner p { margin: 0.3em 0; overflow-wrap: anywhere; }
.banner .verdict { font-size: 1.2em; font-weight: bold; }
.banner .quote { font-size: 1.1em; font-weight: bold; text-transform: uppercase; }
.banner.red { border-color: #b00; background: #fdeaea; } .banner.red .quote { color: #b00; }
.banner.amber { border-color: #d08c00; background: #fff4dc; } .banner.amber .quote { color: #8a5a00; }
.banner.green { border-color: #2a7d2a; background: #ebf7eb; }
#errors { color: #b00; white-space: pre-wrap; }
</style>
<script>
)html";

constexpr const char* kAfterChartJs = R"html(
</script>
</head>
<body>
<h1>@TITLE@</h1>
@BANNER@<pre id="errors"></pre>
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
// What a chart drew (its axis range, its series and markers) is written on
// its canvas as data-* attributes, so a script can check the page against
// its data.
constexpr const char* kCommonJs = R"js(</script>
<script>
const data = JSON.parse(document.getElementById('warmup-data').textContent);
const content = document.getElementById('content');
// Ten colours anyone can tell apart (Tableau 10); from the eleventh series on
// the colours come round again with another dash pattern, so that up to 30
// series never share a style.
const palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7',
                 '#9c755f', '#bab0ac'];
const dashes = [[], [8, 4], [2, 3]];
const seriesStyle = (i) => ({color: palette[i % palette.length],
                             dash: dashes[Math.floor(i / palette.length) % dashes.length]});
let charts = 0;
Chart.defaults.animation = false;
Chart.defaults.maintainAspectRatio = false;
// Vertical lines at options.lines [{x, label, short, color, bottom, kind}],
// and shaded spans at options.spans [{from, to, color}]. Every line is
// labelled: each label goes in the first row (from the top, or from the
// bottom for `bottom` ones) where it overlaps no other label; a line with a
// `short` label uses it when the long one does not fit in the first three
// rows. What was drawn goes to the canvas's data-markers (text, and the
// label's box in CSS pixels), with the plot area in data-plot-area.
Chart.register({
  id: 'markers',
  beforeDatasetsDraw(chart, args, options) {
    const x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
    for (const span of (options.spans || [])) {
      const from = Math.max(area.left, x.getPixelForValue(span.from));
      const to = Math.min(area.right, x.getPixelForValue(span.to));
      if (!(to >= from)) continue;
      ctx.save();
      ctx.fillStyle = span.color;
      ctx.fillRect(from, area.top, Math.max(1, to - from), area.bottom - area.top);
      ctx.restore();
    }
  },
  afterDatasetsDraw(chart, args, options) {
    const x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
    const lines = options.lines || [];
    const rowHeight = 12;
    const rows = Math.max(1, Math.floor((area.bottom - area.top - 8) / rowHeight));
    const placed = [];
    const free = (b) => b[0] >= area.left && b[2] <= area.right &&
        placed.every((p) => b[2] + 2 <= p[0] || b[0] >= p[2] + 2 || b[3] <= p[1] || b[1] >= p[3]);
    ctx.save();
    ctx.font = '10px sans-serif';
    ctx.textBaseline = 'top';
    const boxAt = (px, text, row, bottom) => {
      const w = ctx.measureText(text).width;
      const left = px + 3 + w <= area.right ? px + 3 : px - 3 - w;
      const top = bottom ? area.bottom - 4 - (row + 1) * rowHeight : area.top + 4 + row * rowHeight;
      return [left, top, left + w, top + rowHeight - 2];
    };
    // Placed in order of importance (options.lines' `rank`, lowest first),
    // so that the longest collections get their names before the short ones
    // crowd the rows; recorded in the order given.
    const order = lines.map((line, i) => i).sort((a, b) => (lines[a].rank || 0) - (lines[b].rank || 0));
    const drawn = new Array(lines.length);
    // The lines first, then the labels over them (on a white ground).
    const px = lines.map((line) => x.getPixelForValue(line.x));
    const inside = (i) => px[i] >= area.left - 0.5 && px[i] <= area.right + 0.5;
    for (const i of order) {
      if (!inside(i)) continue;
      ctx.strokeStyle = lines[i].color || '#888';
      ctx.setLineDash([4, 3]);
      ctx.beginPath(); ctx.moveTo(px[i], area.top); ctx.lineTo(px[i], area.bottom); ctx.stroke();
    }
    for (const i of order) {
      const line = lines[i];
      let text = null, box = null;
      if (inside(i)) {
        const tries = line.short ? [[line.label, Math.min(3, rows)], [line.short, rows]] : [[line.label, rows]];
        search: for (const [t, n] of tries) {
          for (let row = 0; row < n; row++) {
            const b = boxAt(px[i], t, row, line.bottom);
            if (free(b)) { text = t; box = b; break search; }
          }
        }
        if (box === null) {  // no free place left: overlapping beats unlabelled
          text = line.short || line.label;
          box = boxAt(px[i], text, 0, line.bottom);
        }
        placed.push(box);
        ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
        ctx.fillRect(box[0] - 1, box[1] - 1, box[2] - box[0] + 2, box[3] - box[1] + 2);
        ctx.fillStyle = line.color || '#333';
        ctx.fillText(text, box[0], box[1]);
      }
      drawn[i] = {kind: line.kind, x: line.x, text: text, box: box};
    }
    ctx.restore();
    chart.canvas.dataset.markers = JSON.stringify(drawn);
    chart.canvas.dataset.plotArea = JSON.stringify([area.left, area.top, area.right, area.bottom]);
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
function note(text, attrs) { content.append(el('p', Object.assign({class: 'note'}, attrs || {}), text)); }
function list(items, attrs) {
  const ul = el('ul', Object.assign({class: 'list'}, attrs || {}));
  for (const item of items) ul.append(el('li', {}, item));
  content.append(ul);
}
// rows: arrays of cells, or {cells, attrs}; a cell is a value or {text, cls,
// attrs, breakAfter: the characters after which the text may wrap}.
// The table scrolls sideways in its own box when it cannot fit the page.
function table(head, rows, attrs) {
  const t = el('table', attrs || {});
  if (head) { const tr = el('tr'); for (const h of head) tr.append(el('th', {}, h)); t.append(tr); }
  for (const row of rows) {
    const tr = el('tr', Array.isArray(row) ? {} : (row.attrs || {}));
    for (const cell of (Array.isArray(row) ? row : row.cells)) {
      const c = (cell !== null && typeof cell === 'object') ? cell : {text: cell};
      const a = Object.assign(c.cls ? {class: c.cls} : {}, c.attrs || {});
      const td = el('td', a, c.text === null || c.text === undefined ? '' : String(c.text));
      if (c.breakAfter) {  // a long name may wrap after these characters, and nowhere else
        td.textContent = '';
        for (const part of String(c.text).split(new RegExp('(?<=[' + c.breakAfter + '])'))) {
          if (td.childNodes.length) td.append(el('wbr'));
          td.append(document.createTextNode(part));
        }
      }
      tr.append(td);
    }
    t.append(tr);
  }
  const box = el('div', {class: 'scroll'});
  box.append(t);
  content.append(box);
  return t;
}
function chart(name, config, height) {
  const box = el('div', {class: 'chart'});
  if (height) box.style.height = height + 'px';
  const canvas = el('canvas', {'data-chart': name});
  box.append(canvas);
  content.append(box);
  const c = new Chart(canvas, config);
  const x = c.scales.x;
  if (x && typeof x.max === 'number') { canvas.dataset.axisMin = x.min; canvas.dataset.axisMax = x.max; }
  if (c.data.labels && c.data.labels.length) canvas.dataset.labels = JSON.stringify(c.data.labels);
  // A chart over categories (bars) records its values too, one per label.
  canvas.dataset.series = JSON.stringify(c.data.datasets.map((s) => Object.assign({
    label: s.label, color: s.borderColor || s.backgroundColor, dash: s.borderDash || [], points: s.data.length},
    c.data.labels && c.data.labels.length ? {values: s.data} : {})));
  charts++;
  return canvas;
}
function fixed(v, places) { return v === null || v === undefined ? '' : Number(v).toFixed(places); }
// 386369 -> "386,369", as the text report writes counts.
function grouped(n) { return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
function axis(text, extra) { return Object.assign({title: {display: true, text: text}}, extra || {}); }
// A round axis end at or above v: the next multiple of half its power of ten.
function niceCeil(v) {
  if (!(v > 0)) return 1;
  const step = 10 ** Math.floor(Math.log10(v)) / 2;
  return Number((Math.ceil(v / step - 1e-9) * step).toPrecision(12));
}
)js";

constexpr const char* kRunJs = R"js(
const r = data;
const env = r.environment;
const cfg = r.config || {};
const sp = r.server_process;
const ssp = r.source_server_process;
const ts = r.time_series;
const mb = (bytes) => fixed(bytes / 1e6, 1) + ' MB';
const seconds = (s) => fixed(s, 3) + ' s';
const partial = (c) => c.reached !== false && c.copied < c.expected_count;
const countText = (c) => c.reached === false ? 'not reached'
    : partial(c) ? grouped(c.copied) + ' of ' + grouped(c.expected_count) : grouped(c.copied);
const chartLabel = (c) => c.reached === false ? c.entity_type + ' (not reached)'
    : partial(c) ? c.entity_type + ' (' + grouped(c.copied) + ' of ' + grouped(c.expected_count) + ')' : c.entity_type;
// Words as a shell would take them back (the text report's command line).
const shellWord = (w) => /^[A-Za-z0-9_\-./=:,+@%]+$/.test(w) ? w : "'" + w.replace(/'/g, "'\\''") + "'";
const words = (ws) => ws.map(shellWord).join(' ');
const pct = (s) => r.load_wall_seconds > 0 ? fixed(100 * s / r.load_wall_seconds, 1) + ' % of wall' : '';
const distribution = (s) => 'mean ' + fixed(s.mean_us, 1) + '  median ' + fixed(s.median_us, 1) + '  p90 ' +
    fixed(s.p90_us, 1) + '  p95 ' + fixed(s.p95_us, 1) + '  p99 ' + fixed(s.p99_us, 1) +
    (s.p999_us === null ? '' : '  p99.9 ' + fixed(s.p999_us, 1)) + '  max ' + fixed(s.max_us, 1) + ' µs';

// What the run was.
const steal = env.steal_share === null ? 'unknown' : fixed(100 * env.steal_share, 1) + ' %';
const load = (l) => l.load_average_1m === null ? '?' : fixed(l.load_average_1m, 2);
const rows = [
  ['run', r.run_label + ' (started ' + r.started_at + ')'],
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
// How the target wrote its records, up here since a figure set against
// evitaDB's holds only when it wrote them as evitaDB does.
if (cfg.record_writes === 'inline' || cfg.record_writes === 'background') {
  const asEvitaDb = cfg.record_writes === 'inline' && cfg.compression === 'deflate';
  rows.push({cells: ['records', (cfg.compression || 'unknown') + ', written ' +
      (cfg.record_writes === 'inline' ? 'by each upsert' : 'on a second thread') +
      (asEvitaDb ? ': as evitaDB writes them' : ': not as evitaDB writes them (deflate, by each upsert)')],
      attrs: {'data-row': 'records'}});
}
if (sp) rows.push(['server', sp.header + (sp.build ? '; build ' + sp.build : '')]);
if (ssp) rows.push({cells: ['source server', ssp.header], attrs: {'data-row': 'source-server'}});
if (r.server_identity) rows.push({cells: ['server said', r.server_identity.description], attrs: {'data-row': 'server-identity'}});
section('Fingerprint', 'what this run was, and what could make another run of the same build disagree with it');
table(null, rows, {'data-table': 'fingerprint'});

section('Configuration', 'what the run was asked to do');
const configRows = [
  {cells: ['command', {text: cfg.command_line && cfg.command_line.length ? words(cfg.command_line)
                                                                         : 'not recorded (a run made through the library)',
                       cls: 'code'}], attrs: {'data-row': 'command'}},
  ['target kind', cfg.target_kind || 'not recorded'],
  ['records compressed', cfg.compression || 'unknown (a server warmup did not start)'],
  ['records written', cfg.record_writes === 'background' ? 'on a second thread (upserts leave that work out; goLive waits for it)' : cfg.record_writes === 'inline' ? 'by each upsert' : (cfg.record_writes || 'unknown')],
  ['verify', r.verification.check],
  ['max per collection', cfg.max_per_collection > 0 ? grouped(cfg.max_per_collection) : 'all'],
  ['source read', cfg.source_read_ahead ? 'ahead, on a second thread (the figure is the load\'s wait)' : 'inline, before each upsert'],
  ['collections', cfg.collections && cfg.collections.length ? cfg.collections.join(', ') : 'all'],
  ['dataset', Object.entries(cfg.dataset_provenance || {}).map(([k, v]) => k + ' ' + v).join(', ') || 'nothing said by the source'],
];
if (cfg.server_binary) configRows.push(['server binary', {text: cfg.server_binary, cls: 'code'}]);
if (cfg.server_command) configRows.push(['server command', {text: cfg.server_command, cls: 'code'}]);
if (cfg.server_args && cfg.server_args.length) configRows.push(['serve flags', {text: words(cfg.server_args), cls: 'code'}]);
if (cfg.server_xmx) configRows.push(['server heap', cfg.server_xmx]);
if (cfg.storage) {
  const s = cfg.storage;
  configRows.push(['storage', s.path + ': ' + (s.filesystem || '?') + ' on ' + s.device +
      (s.mount_options ? ', ' + s.mount_options : '') + (s.free_bytes === null ? '' : ', ' + fixed(s.free_bytes / 1e9, 1) + ' GB free')]);
}
table(null, configRows, {'data-table': 'config'});

// The text report's tables.
const byWall = r.collections.slice().sort((a, b) => b.wall_seconds - a.wall_seconds);
section('Collections', 'slowest first; µs per entity is wall over count; a partial or unreached collection is marked');
table(['collection', 'count', 'wall s', 'µs/entity', 'read s', 'mean µs', 'median µs', 'p95 µs', 'p99 µs', 'max µs', '% wall'],
      byWall.map((c) => {
        const state = c.reached === false ? 'not-reached' : partial(c) ? 'partial' : 'complete';
        const attrs = {'data-entity-type': c.entity_type, 'data-state': state};
        const count = {text: countText(c) + (c.failed > 0 ? ', ' + grouped(c.failed) + ' rejected' : ''),
                       cls: state === 'complete' ? 'num' : state === 'partial' ? 'num partial' : 'missing',
                       attrs: {'data-col': 'count'}};
        if (c.reached === false) {
          return {cells: [c.entity_type, count, {text: 'the load stopped before it (' + grouped(c.expected_count) + ' expected)',
                                                 attrs: {colspan: 9}}], attrs: attrs};
        }
        const u = c.upsert;
        const num = (v) => ({text: v, cls: 'num'});
        return {cells: [c.entity_type, count, num(fixed(c.wall_seconds, 3)),
                        num(c.copied > 0 ? fixed(c.wall_seconds * 1e6 / c.copied, 2) : ''), num(fixed(c.read_seconds, 3)),
                        num(fixed(u.mean_us, 1)), num(fixed(u.median_us, 1)), num(fixed(u.p95_us, 1)), num(fixed(u.p99_us, 1)),
                        num(fixed(u.max_us, 1)),
                        num(r.load_wall_seconds > 0 ? fixed(100 * c.wall_seconds / r.load_wall_seconds, 1) + ' %' : '')],
                attrs: attrs};
      }), {'data-table': 'collections'});

section('Totals', 'docs/measurement.md says what each figure means');
const totals = [];
const total = (key, name, value, what, cls) => totals.push({cells: [name, {text: value, cls: cls || 'num'}, what],
                                                            attrs: {'data-row': key}});
total('load', 'load wall-clock', seconds(r.load_wall_seconds), grouped(r.copied) + ' entities, ' +
      fixed(r.load_wall_seconds > 0 ? r.copied / r.load_wall_seconds : 0, 0) + ' entities/s');
total('read', 'source read', seconds(r.source_read_seconds), pct(r.source_read_seconds) + ' (reported so it can be subtracted)');
total('upsert', 'upsert (pure)', seconds(r.upsert.total_seconds), pct(r.upsert.total_seconds) + ', ' +
      grouped(r.upsert.count) + ' upserts; ' + distribution(r.upsert));
if (r.first_upsert) {
  total('first', 'first upsert', fixed(r.first_upsert.us, 1) + ' µs', r.first_upsert.entity_type + '/' +
        r.first_upsert.primary_key + ', the run\'s first (cold; in the figures above)');
}
if (r.server) {
  total('server', 'of which server', seconds(r.server.total_seconds), distribution(r.server));
  total('wire', 'of which wire', seconds(r.upsert.total_seconds - r.server.total_seconds), 'upsert minus server time');
}
total('overhead', 'loop overhead', seconds(r.loop_overhead_seconds), pct(r.loop_overhead_seconds));
const g = r.golive;
if (g.outcome === 'completed') {
  total('golive', 'goLive → ALIVE', seconds(g.seconds), '');
} else if (g.outcome === 'failed') {
  total('golive', 'goLive → ALIVE', 'FAILED after ' + seconds(g.seconds),
        '*** CLIENT-SIDE FAILURE *** (time to failure, not a transition time): ' + g.error, 'num bad');
} else {
  total('golive', 'goLive → ALIVE', 'not attempted', '', 'missing');
}
if (r.total_seconds === null) {
  total('total', 'TOTAL', 'not stated: goLive did not complete', '', 'missing');
} else {
  total('total', 'TOTAL', seconds(r.total_seconds), 'load + goLive');
}
total('loader', 'loader', 'user ' + fixed(r.loader.user_seconds, 2) + ' s, sys ' + fixed(r.loader.system_seconds, 2) +
      ' s', 'peak RSS ' + mb(r.loader.peak_rss_bytes), '');
// A started server's own figures: the target's (sp), and the source server's
// that read the catalog (ssp), each under its own rows. The reader has no
// goLive and writes no data of its own.
const processTotals = (p, key, name, reader) => {
  const peak = 'peak RSS ' + mb(p.usage.peak_rss_bytes) + (reader ? '' : ' (sampled: load ' +
        mb(p.peak_rss_load_bytes) + ', goLive ' + (p.peak_rss_golive_bytes === null ? 'n/a, no goLive' : mb(p.peak_rss_golive_bytes)) +
        ')');
  total(key, name, 'user ' + fixed(p.usage.user_seconds, 2) + ' s, sys ' + fixed(p.usage.system_seconds, 2) + ' s',
        peak + '; ' + (p.usage_sampled ? 'from /proc samples of the command\'s process group'
                                 : 'page faults ' + grouped(p.usage.minor_faults) + ' minor / ' + grouped(p.usage.major_faults) +
                                   ' major, context switches ' + grouped(p.usage.voluntary_context_switches) + ' / ' +
                                   grouped(p.usage.involuntary_context_switches)) +
        (reader ? '' : '; data ' + mb(p.data_bytes) + ' in ' + p.data_dir) + '; ' + p.ended, '');
  if (p.gc) {
    total(key + '-gc', name + ' GC', fixed(p.gc.pause_seconds, 3) + ' s paused', p.gc.young_collections + ' young, ' +
          p.gc.full_collections + ' full, ' + p.gc.other_pauses + ' other pauses (' + p.gc.log + ')');
  } else if (p.gc_unavailable) {
    total(key + '-gc', name + ' GC', 'unknown', p.gc_unavailable, '');
  }
};
if (sp) processTotals(sp, 'server-process', 'server');
if (ssp) processTotals(ssp, 'source-server-process', 'source server (the reader, not the target)', true);
table(['figure', 'value', ''], totals, {'data-table': 'totals'});

if (r.index_statistics.length > 0) {
  // evitaDB's index kinds, so the counts can be set beside its memory-footprint figures.
  const kinds = ['GLOBAL', 'REFERENCED_ENTITY', 'REFERENCED_GROUP_ENTITY', 'REFERENCED_ENTITY_TYPE', 'REFERENCED_GROUP_ENTITY_TYPE'];
  section('Indexes at goLive', 'what the target\'s indexes held (docs/engine.md)');
  table(['collection', 'total', 'GLOBAL', 'REF_ENT', 'REF_GRP', 'REF_TYPE', 'GRP_TYPE', 'entries', 'MB'],
        r.index_statistics.map((s) => {
          const of = (kind) => s.kinds.filter((k) => k.kind === kind).reduce((sum, k) => sum + k.indexes, 0);
          const entries = s.kinds.reduce((sum, k) => sum + k.entries, 0);
          const bytes = s.kinds.reduce((sum, k) => sum + k.bytes, 0);
          return [s.entity_type, {text: grouped(s.indexes), cls: 'num'}, ...kinds.map((k) => ({text: grouped(of(k)), cls: 'num'})),
                  {text: grouped(entries), cls: 'num'}, {text: fixed(bytes / 1e6, 1), cls: 'num'}];
        }), {'data-table': 'indexes'});
}

const v = r.verification;
const verificationNames = {verified: 'VERIFIED', skipped: 'DECLINED (skip verify)', unknown: 'UNKNOWN', mismatch: 'MISMATCH',
                           content_differs: 'CONTENT DIFFERS', not_reached: 'NOT REACHED',
                           not_applicable: 'NOT APPLICABLE (the target stores nothing; there is nothing to verify)'};
const checked = !['skipped', 'not_reached', 'not_applicable'].includes(v.outcome);
section('Verification', (verificationNames[v.outcome] || v.outcome) +
        (checked ? ' (' + v.check + ', ' + seconds(v.seconds) + ', untimed: after the measurement)' : ''));
table(['collection', 'source', 'expected', 'target', 'outcome'],
      r.collections.map((c) => {
        const differs = c.target_count !== null && c.target_count !== c.expected_count;
        const outcome = c.target_count === null ? (checked ? 'unknown' : 'not checked') : differs ? 'DIFFERS' : 'matches';
        return {cells: [c.entity_type, {text: grouped(c.source_count), cls: 'num'}, {text: grouped(c.expected_count), cls: 'num'},
                        {text: c.target_count === null ? (checked ? 'unknown' : '—') : grouped(c.target_count), cls: 'num'},
                        {text: outcome, cls: differs ? 'bad' : ''}],
                attrs: {'data-entity-type': c.entity_type}};
      }), {'data-table': 'verification'});
if (v.check === 'content' && v.outcome !== 'mismatch' && checked) {
  note('content: ' + grouped(v.content_compared) + ' entities compared by digest, ' + grouped(v.content_differences) + ' differences');
  if (v.first_differences.length) list(v.first_differences.concat(v.content_differences > v.first_differences.length
      ? ['... and ' + grouped(v.content_differences - v.first_differences.length) + ' more'] : []));
}
if (v.error) note(v.error);

section('Caveats', 'what a reader of these figures must know');
list(r.caveats || [], {'data-list': 'caveats'});

// The charts.
const reached = byWall.filter((c) => c.reached !== false);
const unreached = byWall.filter((c) => c.reached === false);
const barRows = reached.concat(unreached);
const goliveLabel = g.outcome === 'completed' ? 'goLive → ALIVE' : g.outcome === 'failed' ? 'goLive (FAILED: time to failure)' : null;
const barLabels = barRows.map(chartLabel).concat(goliveLabel ? [goliveLabel] : []);
section('Where the load\'s time went', 'per collection, slowest first: upserts (and the loop around them) and source reads; ' +
        'then goLive' + (g.outcome === 'not_attempted' ? ' (not attempted)' : '') +
        (unreached.length || reached.some(partial) ? '; a partial collection says how much of it was loaded' : ''));
chart('time-split', {type: 'bar',
       data: {labels: barLabels,
              datasets: [{label: 'upserts (s)', backgroundColor: palette[0],
                          data: barRows.map((c) => c.reached === false ? null : Math.max(0, c.wall_seconds - c.read_seconds))
                                       .concat(goliveLabel ? [null] : [])},
                         {label: 'source read (s)', backgroundColor: palette[1],
                          data: barRows.map((c) => c.reached === false ? null : c.read_seconds).concat(goliveLabel ? [null] : [])},
                         ...(goliveLabel ? [{label: 'goLive (s)', backgroundColor: '#c00',
                                             data: barRows.map(() => null).concat([g.seconds])}] : [])]},
       options: {indexAxis: 'y', scales: {x: axis('seconds', {stacked: true, min: 0}), y: {stacked: true}}}},
      Math.max(200, 26 * barLabels.length + 90));

// A CDF of a handful of upserts is a few steps, of one a vertical line: such
// collections are named, not drawn (the limit a comparison uses too).
const cdfMin = 20;
const cdfCols = reached.filter((c) => c.upsert.count >= cdfMin);
const cdfLeftOut = reached.filter((c) => c.upsert.count < cdfMin);
section('Upsert latency per collection', 'cumulative distribution from the recorded quantiles (minimum, every 5 %, 99 %, ' +
        '99.9 % from 1000 upserts, maximum); log scale');
if (cdfLeftOut.length) {
  note('not drawn, fewer than ' + cdfMin + ' upserts each: ' +
       cdfLeftOut.map((c) => c.entity_type + ' (' + c.upsert.count + ')').join(', '), {'data-note': 'cdf-left-out'});
}
chart('cdf', {type: 'scatter',
       data: {datasets: cdfCols.map((c, i) => {
         const style = seriesStyle(i);
         return {label: chartLabel(c), showLine: true, pointRadius: 1.5, borderColor: style.color,
                 backgroundColor: style.color, borderDash: style.dash,
                 data: c.upsert.cdf.map(([q, us]) => ({x: Math.max(us, 0.1), y: q}))};
       })},
       options: {scales: {x: axis('upsert (µs)', {type: 'logarithmic'}), y: axis('share of upserts at or below', {min: 0, max: 1})}}},
      420);

// Every time axis runs from 0 to past the last thing on it: the last
// interval, sample, collection end, and the end of goLive.
const ends = [];
const lines = [];
const spans = [];
if (ts) {
  for (const i of ts.intervals) ends.push(i.end_seconds);
  // Numbered in load order (the table below says which is which); the
  // longest are named first where there is room.
  const longest = ts.collections.map((c) => c.end_seconds - c.start_seconds).sort((a, b) => b - a);
  ts.collections.forEach((c, i) => {
    ends.push(c.end_seconds);
    lines.push({kind: 'collection', x: c.start_seconds, label: (i + 1) + ' ' + c.entity_type, short: String(i + 1),
                rank: 1 + longest.indexOf(c.end_seconds - c.start_seconds)});
  });
  const start = ts.golive_start_seconds;
  const end = ts.golive_end_seconds !== null ? ts.golive_end_seconds
      : start !== null && g.outcome !== 'not_attempted' ? start + g.seconds : null;
  if (start !== null) {
    ends.push(start);
    lines.push({kind: 'golive-start', x: start, label: 'goLive', color: '#c00', bottom: true});
  }
  if (end !== null) {
    ends.push(end);
    lines.push({kind: 'golive-end', x: end, label: g.outcome === 'failed' ? 'goLive failed' : 'ALIVE', color: '#c00', bottom: true});
  }
  if (start !== null && end !== null) spans.push({from: start, to: end, color: 'rgba(204, 0, 0, 0.08)'});
}
for (const p of [sp, ssp]) if (p) for (const s of p.samples) ends.push(s.seconds);
const timeMax = niceCeil(1.02 * Math.max(0, ...ends));
const timeAxis = () => axis('seconds since the load started', {type: 'linear', min: 0, max: timeMax});
const markers = {lines: lines, spans: spans};
const goliveEnd = lines.find((l) => l.kind === 'golive-end');
const timeChart = (name, config) => {
  const canvas = chart(name, config);
  if (goliveEnd) canvas.dataset.goliveEnd = goliveEnd.x;
};

if (ts && ts.collections.length > 0) {
  section('Collections over time', 'the numbers on the time axes below: where each collection\'s upserts began and ended' +
          (ts.golive_start_seconds === null ? '' : '; goLive and its end are marked in red'));
  const byType = Object.fromEntries(r.collections.map((c) => [c.entity_type, c]));
  table(['#', 'collection', 'start s', 'end s', 'count'],
        ts.collections.map((c, i) => ({cells: [{text: i + 1, cls: 'num'}, c.entity_type, {text: fixed(c.start_seconds, 3), cls: 'num'},
                                              {text: fixed(c.end_seconds, 3), cls: 'num'},
                                              byType[c.entity_type] ? countText(byType[c.entity_type]) : ''],
                                      attrs: {'data-marker': i + 1, 'data-entity-type': c.entity_type}})),
        {'data-table': 'timeline'});
}
if (ts && ts.intervals.length > 0) {
  const mid = (i) => (i.start_seconds + i.end_seconds) / 2;
  section('Throughput over time', 'upserts per second in intervals of ' + ts.interval_seconds + ' s; dashed: collection starts (numbered) and goLive');
  timeChart('throughput', {type: 'line',
         data: {datasets: [{label: 'upserts/s', borderColor: palette[0], pointRadius: 0,
                            data: ts.intervals.map((i) => ({x: mid(i), y: i.upserts_per_second}))}]},
         options: {scales: {x: timeAxis(), y: axis('upserts/s', {min: 0})}, plugins: {markers: markers}}});
  section('Upsert latency over time', 'p50 and p99 of the upserts that ended in each interval; log scale');
  const busy = ts.intervals.filter((i) => i.upserts > 0);
  timeChart('latency', {type: 'line',
         data: {datasets: [{label: 'p50 (µs)', borderColor: palette[0], pointRadius: 0,
                            data: busy.map((i) => ({x: mid(i), y: Math.max(i.p50_us, 1)}))},
                           {label: 'p99 (µs)', borderColor: palette[2], pointRadius: 0,
                            data: busy.map((i) => ({x: mid(i), y: Math.max(i.p99_us, 1)}))}]},
         options: {scales: {x: timeAxis(), y: axis('µs', {type: 'logarithmic'})}, plugins: {markers: markers}}});
}
const processChart = (p, name, title) => {
  if (!p || p.samples.length === 0) return;
  const cpu = p.samples.slice(1).map((s, i) => ({x: s.seconds,
      y: (s.cpu_seconds - p.samples[i].cpu_seconds) / Math.max(1e-9, s.seconds - p.samples[i].seconds)}));
  section(title, 'sampled from /proc; CPU in cores busy between samples');
  timeChart(name, {type: 'line',
         data: {datasets: [{label: 'RSS (MB)', yAxisID: 'y', borderColor: palette[4], pointRadius: 0,
                            data: p.samples.map((s) => ({x: s.seconds, y: s.rss_bytes / 1e6}))},
                           {label: 'CPU (cores)', yAxisID: 'y1', borderColor: palette[1], pointRadius: 0, data: cpu}]},
         options: {scales: {x: timeAxis(), y: axis('MB', {min: 0}),
                            y1: axis('cores', {min: 0, position: 'right', grid: {drawOnChartArea: false}})},
                   plugins: {markers: markers}}});
};
processChart(sp, 'server', 'Server memory and CPU over time');
processChart(ssp, 'source-server', 'Source server memory and CPU over time (the reader, not the target)');
)js";

constexpr const char* kComparisonJs = R"js(
const c = data;
const base = (f) => f.split('/').pop();
const places = (unit) => unit === 'bytes' ? 0 : unit === 's' ? 3 : 1;
// As the text output writes p: "4e-05" below 1e-4, else four places.
const pText = (p) => p < 1e-4 ? p.toExponential(0).replace(/e([+-])(\d)$/, 'e$10$2') : p.toFixed(4);

section('What was compared', 'A and B: the runs of each arm and what they ran; B is set against A');
for (const [name, arm, files] of [['A', c.arm_a, c.a], ['B', c.arm_b, c.b]]) {
  content.append(el('h3', {}, name + ': ' + files.length + ' runs'));
  const values = (what, vs) => ({cells: [what + (vs.length > 1 ? ' (the runs differ)' : ''),
                                         {text: vs.length ? vs.join('\n') : 'not recorded', cls: 'code'}],
                                 attrs: {'data-field': what}});
  table(null, [values('runs', [files.map(base).join(', ')]), values('server', arm.servers),
               values('server build', arm.server_builds), values('loader build', arm.loader_builds),
               values('host load', arm.load_averages.length ? ['1-min load average at each run\'s start: ' +
                   arm.load_averages.map((v) => v.toFixed(2)).join(', ') + (arm.steal_shares.length ?
                   '; CPU steal ' + arm.steal_shares.map((v) => (100 * v).toFixed(1)).join(', ') + ' %' : '')] : []),
               values('command line', arm.command_lines)],
        {'data-arm': name});
}
if (c.noise.length) note('noise thresholds from the A/A runs ' + c.noise.map(base).join(', '));
content.append(el('h3', {}, 'Every run'));
list(c.setup, {'data-list': 'setup'});

section('Metrics', 'lower is better everywhere; *: the primary metric (' + c.primary_metric + '), declared before the ' +
        'runs: its verdict alone is the comparison\'s, its p tested alone; the others are secondary, shown, never ' +
        'deciding; ratio B / A by the metric\'s test with its ' + Math.round(100 * (1 - c.alpha)) + ' % interval: ' +
        'log-t, Welch\'s t test on the runs\' logarithms (ratio of geometric means), or rank, the two-sided ' +
        'Mann–Whitney U test (ratio of medians, bootstrap interval; rank~: normal approximation); ' +
        'p: the test\'s, two-sided; p Holm: a secondary\'s p adjusted for the number of secondary ' +
        'metrics, what a verdict needs below alpha ' + c.alpha + '; shift: Hodges–Lehmann, B − A; detect: the change ' +
        'these runs could detect ' +
        '(n/a: no verdict is possible with these n); noise: the change a verdict must exceed');
table(['metric', 'verdict', 'median A', 'median B', 'ratio', 'interval', 'test', 'p', 'p Holm', 'shift', 'detect', 'noise', 'n A/B'],
      c.metrics.map((m) => ({cells: [
        {text: m.metric + ' (' + m.unit + ')' + (m.primary ? ' *' : ''), cls: 'metric', breakAfter: ':'},
        {text: m.verdict, cls: 'verdict' + (m.verdict === 'no change' ? '' : ' ' + m.verdict), attrs: {'data-col': 'verdict'}},
        {text: fixed(m.median_a, places(m.unit)), cls: 'num'},
        {text: fixed(m.median_b, places(m.unit)), cls: 'num'},
        {text: fixed(m.ratio, 3), cls: 'num'},
        {text: '[' + fixed(m.ratio_ci[0], 3) + ', ' + fixed(m.ratio_ci[1], 3) + ']', cls: 'num'},
        {text: m.test === 'log-welch' ? 'log-t' : m.mann_whitney.exact ? 'rank' : 'rank~', attrs: {'data-col': 'test'}},
        {text: pText(m.p_value), cls: 'num'},
        {text: pText(m.p_holm), cls: 'num'},
        {text: fixed(m.hodges_lehmann_shift, places(m.unit)), cls: 'num'},
        {text: m.decidable ? fixed(100 * m.detectable_change, 1) + ' %' : 'n/a', cls: 'num', attrs: {'data-col': 'detect'}},
        {text: fixed(100 * m.noise_threshold, 1) + ' %', cls: 'num'},
        {text: m.a.length + '/' + m.b.length, cls: 'num'}],
        attrs: {'data-metric': m.metric}})),
      {'data-table': 'metrics'});
if (c.small_collections.length) {
  note('not compared: the medians of ' + c.small_collections.join(', ') + ' (fewer than 20 entities in some run: a ' +
       'median of a few samples, one possibly the cold first upsert)', {'data-note': 'small-collections'});
}

section('Runs', 'A: ' + c.a.map(base).join(', ') + ' | B: ' + c.b.map(base).join(', '));
section('Each metric, each run', 'a point per run (spread sideways to be seen), the lines the medians');
for (const m of c.metrics) {
  section(m.metric + ': ratio ' + fixed(m.ratio, 3) + ' [' + fixed(m.ratio_ci[0], 3) + ', ' + fixed(m.ratio_ci[1], 3) +
          '], ' + m.verdict, null, 'h3');
  const spread = (x, i, n) => x + (n > 1 ? (i / (n - 1) - 0.5) * 0.4 : 0);
  chart('metric', {type: 'scatter',
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

// `text` with each "@NAME@" marker of `values` replaced, in one pass over
// `text`: what is put in is never searched again (a name or an error message
// may hold "@TITLE@").
std::string Filled(const std::string& text, const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    size_t next = std::string::npos;
    const std::pair<std::string, std::string>* found = nullptr;
    for (const auto& value : values) {
      const size_t pos = text.find(value.first, at);
      if (pos < next) {
        next = pos;
        found = &value;
      }
    }
    if (found == nullptr) break;
    out.append(text, at, next - at);
    out += found->second;
    at = next + found->first.size();
  }
  if (at < text.size()) out.append(text, at, std::string::npos);
  return out;
}

std::string Seconds(double s) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3f s", s);
  return buf;
}

// 386369 -> "386,369", as the text report writes counts.
std::string Grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return (n < 0 ? "-" : "") + digits;
}

std::string Paragraph(const std::string& cls, const std::string& text) {
  return "<p class=\"" + cls + "\">" + Escaped(text) + "</p>\n";
}

const char* VerificationWords(Verification v) {
  switch (v) {
    case Verification::kVerified:
      return "verified";
    case Verification::kSkipped:
      return "declined (skip verify)";
    case Verification::kUnknown:
      return "UNKNOWN";
    case Verification::kMismatch:
      return "MISMATCH";
    case Verification::kContentDiffers:
      return "CONTENT DIFFERS";
    case Verification::kNotReached:
      return "not reached";
    case Verification::kNotApplicable:
      return "not applicable (the target stores nothing)";
  }
  return "?";
}

// The run's verdict, first on the page and in its HTML rather than drawn by
// the script, so that even a page whose script fails says whether its
// figures may be quoted: red for a failed run (exit 1), amber for figures
// whose completeness is unproven (exit 2), green for a run that stands.
std::string RunBanner(const RunResult& r) {
  const int exit_code = r.ExitCode();
  const std::string colour = exit_code == 0 ? "green" : exit_code == 2 ? "amber" : "red";
  std::string out = "<div id=\"verdict\" class=\"banner " + colour + "\" data-exit-code=\"" +
                    std::to_string(exit_code) + "\" data-abort-reason=\"" + AbortReasonName(r.abort_reason) +
                    "\">\n";
  out += Paragraph("verdict", RunVerdict(r) + " (exit " + std::to_string(exit_code) + ")");
  if (exit_code == 2) {
    out += Paragraph(
        "quote",
        "Do not quote these figures as a complete run: they stand, but whether every entity arrived is "
        "unknown (exit 2)");
  } else if (exit_code != 0) {
    out += Paragraph("quote",
                     "Do not quote these figures: the run failed (exit " + std::to_string(exit_code) + ")");
  }
  if (r.abort_reason != AbortReason::kNone || !r.abort_error.empty()) {
    const char* why = r.abort_reason == AbortReason::kEntityRejected ? "an entity was rejected"
                      : r.abort_reason == AbortReason::kTargetFailed ? "the target failed, not the entity"
                      : r.abort_reason == AbortReason::kSourceFailed ? "the source failed"
                      : r.abort_reason == AbortReason::kInterrupted  ? "interrupted"
                      : r.abort_reason == AbortReason::kOutputFailed ? "an output could not be written"
                                                                     : "no reason recorded";
    out += Paragraph("abort",
                     "ABORTED (" + std::string(why) + "; abort reason " + AbortReasonName(r.abort_reason) +
                         "): " + (r.abort_error.empty() ? std::string("no error recorded") : r.abort_error));
  }
  std::string golive;
  switch (r.golive) {
    case GoLiveOutcome::kCompleted:
      golive = "goLive completed in " + Seconds(r.golive_seconds);
      break;
    case GoLiveOutcome::kFailed:
      golive = "goLive FAILED after " + Seconds(r.golive_seconds) + " (time to failure): " + r.golive_error;
      break;
    case GoLiveOutcome::kNotAttempted:
      golive = "goLive not attempted";
      break;
  }
  const std::string drop = TargetDropNote(r);
  out += Paragraph("outcome", Grouped(r.copied()) + " of " + Grouped(r.expected()) + " entities copied; " +
                                  golive + "; verification " + VerificationWords(r.verification) + drop);
  if (!r.output_error.empty()) out += Paragraph("output-error", "OUTPUT FAILED: " + r.output_error);
  for (const std::string& note : r.notes) out += Paragraph("run-note", "note: " + note);
  return out + "</div>\n";
}

// The comparison's verdict, in the page's HTML like the run's: red for a
// regression (exit 3), amber when the runs cannot decide (exit 4), green for
// no regression (exit 0); then the warnings.
std::string ComparisonBanner(const Comparison& c) {
  const int exit_code = c.ExitCode();
  std::string colour = "green";
  std::string verdict = "no regression";
  std::string text = VerdictSentence(c);
  std::string regressed, improved;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == Verdict::kRegressed && !m.primary) {
      regressed += (regressed.empty() ? "" : ", ") + m.metric;
    }
    if (m.verdict == Verdict::kImproved) improved += (improved.empty() ? "" : ", ") + m.metric;
  }
  if (exit_code == kCompareRegression) {
    colour = "red";
    verdict = "regressed";
  } else if (exit_code == kCompareInconclusive) {
    colour = "amber";
    verdict = "inconclusive";
  }
  if (!regressed.empty()) text += "; secondary, not deciding: " + regressed + " regressed";
  if (!improved.empty()) text += "; improved: " + improved;
  std::string out = "<div id=\"verdict\" class=\"banner " + colour + "\" data-exit-code=\"" +
                    std::to_string(exit_code) + "\" data-verdict=\"" + verdict + "\">\n";
  out += Paragraph("verdict", text);
  if (c.sequential) out += Paragraph("sequential", SequentialSentence(c));
  for (const std::string& w : c.warnings) out += Paragraph("warning", "WARNING: " + w);
  return out + "</div>\n";
}

// The page around `json` (inside a script element, where "</" or "<!--"
// could end or confuse it: every "<" is written as \u003c, the same string to
// a JSON parser, and outside strings JSON has none) and `page_js`; `banner`
// is HTML, escaped by its maker.
std::string Page(const std::string& title, const std::string& banner, const std::string& json,
                 const char* page_js) {
  const std::string escaped_title = Escaped(title);
  std::string out = Filled(kHead, {{"@TITLE@", escaped_title}});
  out += report::kChartJs;
  out += Filled(kAfterChartJs, {{"@TITLE@", escaped_title}, {"@BANNER@", banner}});
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
      RunBanner(result), RenderJsonReport(result), kRunJs);
}

namespace report {

std::string HtmlPage(const std::string& title, const std::string& banner_html, const std::string& json,
                     const char* page_js) {
  return Page(title, banner_html, json, page_js);
}

std::string HtmlEscaped(const std::string& text) { return Escaped(text); }

}  // namespace report

std::string RenderComparisonHtml(const Comparison& comparison) {
  return Page("warmup compare: B against A, " + std::to_string(comparison.a_files.size()) + " and " +
                  std::to_string(comparison.b_files.size()) + " runs",
              ComparisonBanner(comparison), RenderComparisonJson(comparison), kComparisonJs);
}

}  // namespace warmup
