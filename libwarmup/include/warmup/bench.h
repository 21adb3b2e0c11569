// warmup bench's table: on one snapshot, in one sitting, the null, embedded
// and started-server runs (and evitaDB's server when given), the bare unary
// round trip and the disk's write bandwidth, held against the write path's
// targets as ratios (docs/performance.md). The runs themselves are ordinary
// `warmup load` and `warmup reindex` runs; this header reads their reports
// and makes the table.
#ifndef WARMUP_BENCH_H_
#define WARMUP_BENCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warmup/disk_bandwidth.h"
#include "warmup/status.h"

namespace warmup {

// What the table needs of one run, read back from its JSON report.
struct BenchRun {
  std::string report;  // the file it was read from
  int exit_code = 1;
  std::optional<double> total_seconds;  // load + goLive; none when goLive did not complete
  double load_wall_seconds = 0;
  double source_read_seconds = 0;
  // Whether the source was read ahead on a second thread (RunConfig::
  // source_read_ahead): then source_read_seconds is the load's wait.
  bool source_read_ahead = false;
  // How its target kept records (the report's config.compression and
  // config.record_writes, e.g. "deflate", "inline"; empty when the report
  // does not say: a server started by a command keeps its own settings, in
  // the command) and what
  // it verified (VerifyModeName: "counts", "content", "none") and how that
  // came out (the report's verification.outcome: "verified",
  // "not_applicable" for the null target, ...).
  std::string compression, record_writes, verify_check, verification;
  double upsert_seconds = 0;
  double golive_seconds = 0;
  int64_t copied = 0;
  std::optional<double> product_mean_us;  // the Product collection's mean upsert
  int64_t loader_peak_rss_bytes = 0;
  std::optional<int64_t> server_peak_rss_bytes;  // a started server's
  std::optional<double> server_stop_seconds;     // its stop, SIGTERM to its end
  std::string server_ended;                      // how it ended, e.g. "exited 0"
  // The target's data directory around goLive (RunResult::target_data).
  std::optional<int64_t> data_bytes_at_golive_start, data_bytes_at_golive_end;
};

// Reads a run report (JSON, schema warmup-run/9 or 8; older ones lack the server's
// stop time and the data directory's sizes, and their rows say so).
// Errors: kNotFound when the file cannot be read; kInvalidArgument naming the
// file when it is not a run report or a field is missing or of the wrong type.
StatusOr<BenchRun> ReadBenchRun(const std::string& report_json);

// One snapshot's runs in one sitting. A run that was not made is absent.
struct BenchSitting {
  std::string label;  // the generator's scale ("0.1"), or the snapshot's name
  std::string snapshot;
  std::optional<BenchRun> null_run, embedded, remote, evitadb;
  // Why there is no such run (not asked for, or it left no report).
  std::string null_absent, embedded_absent, remote_absent, evitadb_absent;
  std::optional<double> rtt_p50_us;  // unary round trips to a warmup serve
};

// Everything one `warmup bench` measured.
struct BenchFigures {
  std::vector<BenchSitting> sittings;  // in the order they were run
  // Every probe of the disk, in the order made; empty when not measured. The
  // goLive row holds goLive's write rate against their median.
  std::vector<DiskWrite> disk;
  std::string disk_absent;  // why the disk was not measured
};

// A row's outcome. One run of each kind resolves a figure to about 10 %
// (docs/comparing.md): a figure within 10 % of its bound is kTooClose, not
// met or missed.
enum class TargetOutcome { kMet, kNotMet, kTooClose, kNotMeasured };
// "met", "not met", "too close to call", "not measured".
const char* TargetOutcomeName(TargetOutcome outcome);

// One row of the table: a figure held against its target.
struct BenchRow {
  std::string sitting;             // a sitting's label, or "LAST vs FIRST" for a row across sittings
  std::string figure;              // what is held against the target
  std::string value;               // how it was worked out, e.g. "187.1 s / 6.9 s"
  std::optional<double> measured;  // in `unit`; none when not measured
  double bound = 0;                // the target, in `unit`
  bool at_most = true;             // met when measured <= bound, else when measured >= bound
  std::string unit;                // "x", "GiB", "s"
  TargetOutcome outcome = TargetOutcome::kNotMeasured;
  std::string why;  // not measured: what was missing; otherwise anything besides the figure
};

// The table: per sitting, in this order,
//   embedded TOTAL / null TOTAL                               <= 4 x
//   embedded loader peak RSS                                   <= 2 GiB
//   started warmup serve peak RSS                              <= 1.5 GiB
//   started warmup serve stop after SIGTERM                    <= 2 s, and it exited 0
//   source read, embedded / null                               <= 1.1 x
//   goLive's write rate (data growth / goLive time) / disk     >= 0.5 x
//     (the disk: the probes' median; too close to call when the slowest
//     and the fastest probe would decide it differently)
//   remote TOTAL / (embedded TOTAL + n x RTT p50 x 1.2)        <= 1 x
//   evitaDB TOTAL / embedded TOTAL                             >= 30 x
// and, with two sittings or more, the Product mean upsert of the last over
// the first (<= 1.2 x). A run only counts when it exited 0: any other run's
// rows are not measured, and say why. The time targets (embedded / null,
// evitaDB / embedded, the Product growth) are set for records written as
// evitaDB writes them (WrittenAsEvitaDb): when the embedded run wrote
// them otherwise, those rows show their figure in `value` and are not
// measured, saying how it wrote them.
std::vector<BenchRow> BenchTable(const BenchFigures& figures);

// warmup bench's exit status: 1 unless every run exited 0; else, with
// `require_targets`, 3 when a row is not met and 4 when none is but one is
// too close to call; else 0. Rows not measured never fail a bench whose runs
// all stood: the table names them.
int BenchExitCode(const std::vector<BenchRow>& rows, bool every_run_stood, bool require_targets);

// The table as text, with each sitting's runs and reports, and a last line
// counting rows met, not met and not measured.
std::string RenderBenchText(const BenchFigures& figures, const std::vector<BenchRow>& rows);
// The figures and the table as JSON, schema "warmup-bench/1": {schema,
// sittings: [{label, snapshot, rtt_p50_us, runs: {null, embedded, remote,
// evitadb: report path or null}, remote_absent, evitadb_absent}], disk:
// {file, bytes, seconds, bytes_per_second (the probes' median; seconds is
// bytes over it), probes: [{seconds, bytes_per_second}] in order} or null,
// disk_absent, rows:
// [{sitting, figure, value, measured, bound, at_most, unit, outcome, why}]}.
std::string RenderBenchJson(const BenchFigures& figures, const std::vector<BenchRow>& rows);

}  // namespace warmup

#endif  // WARMUP_BENCH_H_
