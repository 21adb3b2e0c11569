// Renders a RunResult: the text report, JSON (schema "warmup-run/9",
// documented in docs/measurement.md) and the per-entity CSV's header.
#ifndef WARMUP_REPORT_H_
#define WARMUP_REPORT_H_

#include <string>
#include <vector>

#include "warmup/server_identity.h"

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
// What became of the target catalog of a failed run, as the verdict's tail:
// "; the partial target catalog was dropped", "...was kept (keep target)",
// "...could NOT be dropped (why)"; "the target catalog" when goLive had
// completed (every entity sent is there, verification found a difference);
// "" when the run did not fail.
std::string TargetDropNote(const RunResult& result);
// One line naming a server as it named itself: "evitaDB 2026.2.0-SNAPSHOT
// at 127.0.0.1:5555, instance 3f2a…, started 2026-12-07T02:15:00Z,
// readiness API_READY"; what it did not say is left out.
std::string DescribeServer(const ServerIdentity& server);

}  // namespace warmup

#endif  // WARMUP_REPORT_H_
