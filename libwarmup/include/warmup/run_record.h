// A run report (--report-json) read back: the metrics a comparison, a
// summary of repeated runs and a history are made of, what the run measured
// (its setup, which must match for two runs to be set side by side), and
// what made it (builds, servers, command line).
#ifndef WARMUP_RUN_RECORD_H_
#define WARMUP_RUN_RECORD_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "warmup/status.h"

namespace warmup {

struct RunMetric {
  double value = 0;
  std::string unit;  // "s", "us", "bytes", "us/entity"
  // For a mean over a run's entities (upsert_mean_us:Product), how precisely
  // the run itself fixed it: the variance of ln(value) its samples imply,
  // (standard deviation / mean)^2 / count; none for a single figure (TOTAL)
  // or a report that did not record the deviation (before stddev_us).
  std::optional<double> within_run_log_variance;
};

// The names of RunRecord::metrics, defined once: every reader of them (compare,
// summaries, the history) and every --metric flag uses these.
namespace run_metric {
inline constexpr const char* kTotalSeconds = "total_seconds";       // load + goLive (goLive completed)
inline constexpr const char* kNetLoadSeconds = "net_load_seconds";  // load wall minus source read
inline constexpr const char* kGoLiveSeconds = "golive_seconds";
inline constexpr const char* kProductMeanUpsert = "upsert_mean_us:Product";
inline constexpr const char* kCollectionMedianPrefix = "upsert_median_us:";  // + the entity type
inline constexpr const char* kServerCpuPerEntity = "server_cpu_us_per_entity";
inline constexpr const char* kServerPeakRss = "server_peak_rss_bytes";
// Whether a trend of `metric` over repeated runs means a warm-up still under
// way (the whole publish, and Product's mean upsert): what summaries and
// comparisons warn of.
inline bool ShowsWarmUp(const std::string& metric) {
  return metric == kTotalSeconds || metric == kProductMeanUpsert;
}
}  // namespace run_metric

struct RunRecord {
  std::string file;      // as given
  std::string path;      // canonical, to tell one file given twice
  std::string identity;  // run label, start, host, pid: the same run under two names
  std::string schema;    // "warmup-run/9" ...
  std::string run_label;
  std::string started_at;  // UTC, ISO 8601
  int exit_code = 0;       // the run's own (RunResult::ExitCode)
  // For a failed run (exit 1): the verification outcome and, when the load
  // aborted, why, e.g. "NOT_REACHED, interrupted".
  std::string failure;
  // What must be equal for two runs to be set side by side: field -> value
  // (dataset, dataset scale, host, target kind, compression, max per
  // collection, collections). Reports before warmup-run/7 recorded no
  // configuration: their fields read "not recorded", which equals no
  // recorded value.
  std::map<std::string, std::string> setup;
  // What varies between runs of one setup: the loader's build
  // (environment.build_details), the server (binary or command, its serve
  // flags and heap; "at ADDRESS (not started by warmup)" for one reached by
  // --address), what a started warmup serve said of its build (else what
  // the server said of its version in ServerStatus, e.g. "evitaDB
  // 2026.2.0-SNAPSHOT"), and the command line.
  std::string loader_build, server, server_build, command_line;
  // The build whose figures these are, short: a started server's when it
  // said its build (what `warmup ab` and a history across server builds set
  // apart), else the loader's; "VERSION (COMMIT)", "+" after the commit when
  // the tree had uncommitted changes, e.g. "0.1.0 (1d8870bdffb8+)".
  std::string build;
  // The host while the run ran (environment): the 1-min load average at its
  // start, and the share of CPU time the hypervisor stole between its start
  // and end; none when the report did not say.
  std::optional<double> load_average_at_start, steal_share;
  int host_cores = 0;  // the cores the run saw
  // Every metric the report holds: "total_seconds" (only when goLive
  // completed), "net_load_seconds" (load wall minus source read),
  // "golive_seconds", "upsert_median_us:TYPE" per collection that copied an
  // entity, "upsert_mean_us:Product", and, when a server was measured,
  // "server_cpu_us_per_entity" and "server_peak_rss_bytes". Lower is better
  // for all of them.
  std::map<std::string, RunMetric> metrics;
  std::map<std::string, int64_t> collection_counts;  // entities copied, per collection
};

// Reads the run report `file` (JSON, schema warmup-run/9, 8, 7, 6 or 5; the
// later ones only add fields). A failed run is read too: its exit_code says
// so, and its figures do not stand.
// Errors: kNotFound "FILE: cannot be read"; kInvalidArgument naming the file
// for one that is not JSON, not a run report, or lacks a field.
StatusOr<RunRecord> ReadRunRecord(const std::string& file);

// Whether `metric` is a name RunRecord::metrics can hold (a name of
// run_metric, or kCollectionMedianPrefix and an entity type): what a
// --metric flag is checked against before any run is made.
bool IsRunMetricName(const std::string& metric);
// Every name IsRunMetricName takes, for a reader: "total_seconds,
// net_load_seconds, ..., upsert_median_us:TYPE, ...".
std::string RunMetricNames();
// ReadRunRecord, refusing a failed run. Errors: ReadRunRecord's;
// kInvalidArgument "FILE: the run failed (exit 1: ...); its figures do not
// stand".
StatusOr<RunRecord> ReadStandingRunRecord(const std::string& file);

// kInvalidArgument when two of `runs` are one file (by path) or one run under
// two names (by identity), naming both and ending with `context` after "a run
// counts once": a run counted twice would be a second observation of itself.
Status RefuseDuplicateRuns(const std::vector<const RunRecord*>& runs, const std::string& context = "");

// The collections that copied fewer than `min_count` entities in some of
// `runs`: their median upsert is a handful of samples, one possibly the
// run's cold first upsert.
std::set<std::string> SmallCollections(const std::vector<const RunRecord*>& runs, int64_t min_count);

// The values of `metric` over `runs`, in their order; empty unless every run
// has it.
std::vector<double> MetricValues(const std::vector<RunRecord>& runs, const std::string& metric);
// Their RunMetric::within_run_log_variance, in the same order; empty unless
// every run has one.
std::vector<double> WithinRunLogVariances(const std::vector<RunRecord>& runs, const std::string& metric);

// ReadRunRecord on the text of a report; `name` stands for its file (in
// errors and as RunRecord::file; no path is resolved).
StatusOr<RunRecord> ParseRunRecord(const std::string& report_json, const std::string& name);

}  // namespace warmup

#endif  // WARMUP_RUN_RECORD_H_
