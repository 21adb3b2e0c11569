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
