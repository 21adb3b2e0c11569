const h = data;
const pct = (v) => (v >= 0 ? '+' : '') + fixed(100 * v, 1) + ' %';
const scaleOf = (unit) => unit === 'bytes' ? 1 / 1048576 : 1;
const unitOf = (unit) => unit === 'bytes' ? 'MiB' : unit;
const places = (unit) => unit === 's' ? 3 : 1;
note('Change points by E-divisive means at alpha ' + h.alpha + ' per series (Bonferroni over its metrics), ' +
     'segments of at least ' + h.min_segment + ' runs; lower is better for every metric (docs/history.md)');
h.series.forEach((series, s) => {
  section('Series ' + (s + 1), series.series);
  note(series.runs + ' runs' + (series.not_counted_runs ?
       ' (' + series.not_counted_runs + ' more failed or not verified, not counted)' : ''),
       {'data-series': String(s + 1)});
  if (!series.metrics.length) {
    note('not searched: fewer than ' + 2 * h.min_segment + ' runs', {'data-not-searched': String(s + 1)});
    return;
  }
  for (const m of series.metrics) {
    if (!m.points.length) continue;
    const k = scaleOf(m.unit), unit = unitOf(m.unit);
    section(m.metric + ' (' + unit + '): ' + (m.changes.length ? m.changes.length + ' change point' +
            (m.changes.length === 1 ? '' : 's') : 'no change point') + ' in ' + m.runs + ' runs', null, 'h3');
    if (m.changes.length) {
      table(['at run', 'build', 'started', 'mean before → after', 'change', 'ratio of medians [95 %]', 'p', ''],
            m.changes.map((c) => ({cells: [
              c.run_label,
              c.build + (c.build_before !== c.build ? ' (before: ' + c.build_before + ')' : '') +
                  (c.server_before !== c.server ? '; server ' + c.server + ' (before: ' + c.server_before + ')' : ''),
              c.started_at,
              {text: fixed(k * c.mean_before, places(m.unit)) + ' → ' + fixed(k * c.mean_after, places(m.unit)), cls: 'num'},
              {text: pct(c.relative_change), cls: 'num'},
              {text: fixed(c.median_after / c.median_before, 3) + ' [' + fixed(c.ratio_ci[0], 3) + ', ' +
                     fixed(c.ratio_ci[1], 3) + ']', cls: 'num'},
              {text: fixed(c.p_value, 4), cls: 'num'},
              {text: c.regression ? 'REGRESSION' : '', cls: c.regression ? 'regressed' : ''}],
              attrs: {'data-run': c.run_label}})),
            {'data-table': 'changes', 'data-metric': m.metric});
    }
    const labels = m.points.map((p) => p.run_label);
    const bounds = [0, ...m.changes.map((c) => c.index), m.points.length];
    const datasets = [{label: 'runs', data: m.points.map((p) => k * p.value), showLine: false, pointRadius: 3,
                       borderColor: palette[0], backgroundColor: palette[0]}];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const part = m.points.slice(bounds[i], bounds[i + 1]);
      const mean = part.reduce((sum, p) => sum + p.value, 0) / part.length;
      datasets.push({label: 'mean of runs ' + (bounds[i] + 1) + '–' + bounds[i + 1],
                     data: labels.map((_, j) => j >= bounds[i] && j < bounds[i + 1] ? k * mean : null),
                     pointRadius: 0, borderColor: palette[1], borderDash: [6, 3]});
    }
    const lines = m.changes.map((c) => ({
      x: c.index - 0.5, color: c.regression ? '#b00' : '#555',
      label: (c.regression ? 'REGRESSION ' : 'change ') + pct(c.relative_change) + ' at ' + c.run_label +
             ', p ' + fixed(c.p_value, 4),
      short: c.run_label}));
    const point = (i) => m.points[i];
    chart('trend:' + (s + 1) + ':' + m.metric, {type: 'line', data: {labels, datasets},
      options: {plugins: {markers: {lines},
                          tooltip: {callbacks: {
                            title: (items) => point(items[0].dataIndex).run_label,
                            afterBody: (items) => ['build ' + point(items[0].dataIndex).build,
                                                   'server ' + (point(items[0].dataIndex).server || 'none'),
                                                   'started ' + point(items[0].dataIndex).started_at]}}},
                scales: {x: axis('runs, in the order taken'), y: axis(m.metric + ' (' + unit + ')')}}});
  }
});
