// The HTML pages: one self-contained file each (Chart.js, Debian's
// libjs-chart.js, inlined at build time; no network, nothing else to copy).
// A page's figures are the JSON report it was made with, carried in
// <script id="warmup-data" type="application/json">, so what the page shows
// and what a script reads are the same numbers. When the page has drawn,
// <body data-rendered="ok" data-charts="N">; a script error makes it "error"
// and is shown at the top.
#ifndef WARMUP_HTML_REPORT_H_
#define WARMUP_HTML_REPORT_H_

#include <string>

#include "warmup/compare.h"
#include "warmup/run_result.h"

namespace warmup {

// A run: its fingerprint (builds, host, load, steal, page cache), per
// collection the time split into source read and upserts, the upsert latency
// CDF per collection, throughput and upsert p50/p99 over time, and the
// server's RSS and CPU over time, with collection starts and goLive marked.
std::string RenderRunHtml(const RunResult& result);

// A comparison: the verdicts and every metric's figures as a table, then per
// metric each run of A and B as a point with the medians, the ratio's
// interval and the verdict.
std::string RenderComparisonHtml(const Comparison& comparison);

}  // namespace warmup

#endif  // WARMUP_HTML_REPORT_H_
