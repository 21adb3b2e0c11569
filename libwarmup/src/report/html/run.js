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
  ['records compressed', cfg.compression ||
      (cfg.server_command ? 'unknown (the server command sets its own storage)'
       : cfg.target_kind === 'remote' ? 'unknown (a server warmup did not start)' : 'unknown (the target does not say)')],
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
