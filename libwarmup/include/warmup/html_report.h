// The HTML pages: one self-contained file each (Chart.js, Debian's
// libjs-chart.js, inlined at build time; no network, nothing else to copy).
// A page's figures are the JSON report it was made with, carried in
// <script id="warmup-data" type="application/json">, so what the page shows
// and what a script reads are the same numbers. When the page has drawn,
// <body data-rendered="ok" data-charts="N">; a script error makes it "error"
// and is shown at the top. Each page opens with its verdict in a banner
// (<div id="verdict" data-exit-code="N">), written into the HTML itself so
// that it shows even when the script does not run. What a chart drew is on
// its canvas as data-* attributes (data-chart, data-axis-min/max,
// data-series, data-labels, data-markers, data-golive-end), and the tables
// carry data-table, so a script can check what the page shows.
#ifndef WARMUP_HTML_REPORT_H_
#define WARMUP_HTML_REPORT_H_

#include <string>

#include "warmup/compare.h"

namespace warmup {

struct RunResult;  // run_result.h

// A run: the verdict banner (the verdict sentence, the exit code, the abort
// and its reason, "do not quote these figures" unless exit 0, an output
// error, the notes); its fingerprint and configuration (the command line);
// the text report's tables (per collection, with partial and unreached
// collections marked; the totals; the verification; the caveats); per
// collection the time split into source read and upserts, with goLive; the
// upsert latency CDF of each collection of at least 20 upserts; throughput
// and upsert p50/p99 over time and the server's RSS and CPU over time, each
// time axis reaching past goLive's end, with collection starts (numbered,
// listed) and goLive marked.
std::string RenderRunHtml(const RunResult& result);

// A comparison: the verdict banner (exit code, warnings), what A and B were
// (per arm its servers, server and loader builds, command lines) and what
// every run shares (setup), every metric's figures as the text output's
// table (the verdict second, so that it shows on a narrow screen), the
// collections not compared, then per metric each run of A and B as a point
// with the medians, the ratio's interval and the verdict.
std::string RenderComparisonHtml(const Comparison& comparison);

}  // namespace warmup

#endif  // WARMUP_HTML_REPORT_H_
