// Repeated runs of one configuration (`warmup load --runs N` and `warmup
// reindex --runs N`): every metric their reports hold (run_record.h), as the
// median over the runs, their range and their spread. What one run cannot
// say (how far apart runs of the same thing land) is what this is for.
#ifndef WARMUP_RUN_SUMMARY_H_
#define WARMUP_RUN_SUMMARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "warmup/status.h"
#include "warmup/trend.h"

namespace warmup {

struct MetricSummary {
  std::string metric;          // as RunRecord::metrics names it, e.g. "total_seconds"
  std::string unit;            // "s", "us", "bytes", "us/entity"
  std::vector<double> values;  // one per run, in the order the runs were given
  double median = 0;           // the mean of the two middle values for an even count
  double min = 0;
  double max = 0;
  // (max - min) / median: how far apart the runs landed; 0 for one run.
  double range_relative = 0;
  // The median absolute deviation from the median, divided by the median: a
  // spread that one outlying run does not move; 0 for one run.
  double mad_relative = 0;
  // Whether the values still trend in the order the runs were taken (a
  // server's warm-up under way): Mann-Kendall at 5 %.
  TrendTest trend;
};

struct RunsSummary {
  std::vector<std::string> files;   // the reports summarized, in order
  std::vector<std::string> labels;  // their run labels, in the same order
  std::vector<std::string> setup;   // "field: value", what every run measured (RunRecord::setup)
  // Each metric every run has and whose median is not 0: TOTAL first, then
  // the net load, goLive, the Product mean, each collection's median, and
  // the server's figures.
  std::vector<MetricSummary> metrics;
  // Collections whose median upsert is not summarized: fewer than the
  // minimum entities in some run (as CompareOptions::min_collection_count).
  std::vector<std::string> small_collections;
  int64_t min_collection_count = 20;
  // Labels of the runs whose verification got no answer (exit 2): their
  // figures stand, their counts are unknown.
  std::vector<std::string> not_verified;

  // Filled in by the caller that made the runs:
  int warm_up_runs = 0;  // runs made before these and not summarized
  int planned_runs = 0;  // measured runs it set out to make; 0: as many as were summarized
  // Why fewer runs than planned were made, e.g. "interrupted during run03";
  // the renderings then call the summary partial and not to be quoted.
  std::string incomplete;
  // With a warm-up run until stable (--warmup-until-stable): how it ended,
  // e.g. "until total_seconds showed no trend over its last 5 runs
  // (Mann-Kendall p 0.46)"; empty for a fixed number of warm-up runs.
  std::string warm_up_rule;
  // False when that warm-up reached its most runs with its metric still
  // trending: the summarized runs may still measure the warm-up.
  bool warm_up_settled = true;

  // False when `incomplete` is set or fewer runs than planned were summarized.
  bool complete() const;
  // The exit status the summary stands for: 1 when not complete, 2 when a
  // run was not verified, else 0 (RunResult::ExitCode's meanings).
  int ExitCode() const;
};

// Reads the run reports `files` (run_record.h) and summarizes every metric,
// but the median upsert of a collection of fewer than `min_collection_count`
// entities in some run: a handful of samples, one of them possibly the run's
// cold first upsert (the rule `warmup compare` keeps).
// Errors: kInvalidArgument for no files, a failed run (exit 1: its figures do
// not stand), a report given twice (by path, or the same run under two
// names), or runs that measured different things (naming the field and both
// files); the errors of ReadRunRecord.
StatusOr<RunsSummary> SummarizeRuns(const std::vector<std::string>& files, int64_t min_collection_count = 20);

// One line per metric (median, min, max, range and MAD as % of the median,
// and its trend), after what the runs shared; a partial summary says so on
// its first line, and a TOTAL or Product mean that still trends in a
// WARNING line.
std::string RenderRunsSummaryText(const RunsSummary& summary);
// Every figure as JSON, schema "warmup-runs/1".
std::string RenderRunsSummaryJson(const RunsSummary& summary);

}  // namespace warmup

#endif  // WARMUP_RUN_SUMMARY_H_
