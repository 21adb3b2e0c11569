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
