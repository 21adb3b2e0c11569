// Renders a RunResult: the text report, JSON (schema "warmup-run/8",
// documented in docs/measurement.md) and the per-entity CSV's header.
#ifndef WARMUP_REPORT_H_
#define WARMUP_REPORT_H_

#include <string>
#include <vector>

namespace warmup {

struct RunResult;  // run_result.h

// The human report: header, per-collection table, totals, goLive, caveats,
// verification, verdict, and as its last line RUN_STATUS=MEASUREMENT-DONE-<run>.
std::string RenderTextReport(const RunResult& result);
// Every figure of the run as JSON, with its verdict and caveats.
std::string RenderJsonReport(const RunResult& result);

// What the run's exit status means, saying exactly what was checked and, for
// every status but 0 and 2, not to quote the figures ("OK: the figures
// stand; every collection's count matches the source", "INTERRUPTED: a
// partial run; do not quote these figures", ...): the text report's verdict
// line, the JSON's "verdict", the page's banner.
std::string RunVerdict(const RunResult& result);
// What a reader of the run's figures must know (closed-loop service times,
// what the target does and does not do, a cold first upsert, a source that
// was not ALIVE, an interrupt): one sentence each.
std::vector<std::string> RunCaveats(const RunResult& result);

}  // namespace warmup

#endif  // WARMUP_REPORT_H_
