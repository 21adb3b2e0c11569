// Renders a RunResult: the text report, JSON (schema "warmup-run/6",
// documented in docs/measurement.md) and the per-entity CSV's header.
#ifndef WARMUP_REPORT_H_
#define WARMUP_REPORT_H_

#include <string>

#include "warmup/run_result.h"

namespace warmup {

// The human report: header, per-collection table, totals, goLive, caveats,
// verification, verdict, and as its last line RUN_STATUS=MEASUREMENT-DONE-<run>.
std::string RenderTextReport(const RunResult& result);
// Every figure of the run as JSON.
std::string RenderJsonReport(const RunResult& result);

}  // namespace warmup

#endif  // WARMUP_REPORT_H_
