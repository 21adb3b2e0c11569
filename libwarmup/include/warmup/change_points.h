// When did publishing get slower? Change points in a history's series
// (history.h), found by E-divisive means (Matteson and James, 2014), the
// method Apache Otava and MongoDB's performance CI use: the energy statistic
// of every split, the best split tested against permutations of its
// segment, and the segments on either side of a significant one searched
// again (hierarchical bisection) until no split is significant.
// docs/history.md says how to read it and where it fails.
#ifndef WARMUP_CHANGE_POINTS_H_
#define WARMUP_CHANGE_POINTS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "warmup/compare.h"
#include "warmup/history.h"

namespace warmup {

struct ChangePointOptions {
  // Significance of each change point, for a series' whole family of
  // metrics: each metric is tested at alpha / (metrics tested) (Bonferroni).
  double alpha = 0.05;
  int permutations = 1999;  // the smallest p they can give is 1 / (permutations + 1)
  int min_segment = 3;      // runs on each side of a change point, at least
  uint64_t seed = 1;        // the permutations' generator: the same series gives the same answer
};

struct ChangePoint {
  size_t index = 0;      // the first value after the change
  double statistic = 0;  // the energy statistic of the split (Q-hat of Matteson and James)
  // (1 + permutations whose best split scored at least this one's) /
  // (1 + permutations), in the segment the split was found in.
  double p_value = 1;
};

// The change points of `values` in ascending order of index, each
// significant at `alpha` (not divided here; the caller decides the family).
// REQUIRES: options.min_segment >= 2, options.permutations >= 1.
std::vector<ChangePoint> EDivisive(const std::vector<double>& values, const ChangePointOptions& options,
                                   double alpha);

// The options of `warmup history changes`.
struct HistoryChangesOptions {
  ChangePointOptions detection;
  // The metrics searched, by RunRecord::metrics name; empty = the headline
  // ones a series has: total_seconds, net_load_seconds, golive_seconds,
  // upsert_mean_us:Product, server_cpu_us_per_entity, server_peak_rss_bytes.
  std::vector<std::string> metrics;
  // The relative change beyond which a change for the worse is a
  // regression; 0 = from each series' own noise: twice the median absolute
  // deviation of its runs from their segment's median, scaled to a standard
  // deviation (x 1.4826) and taken relative to that median, and at least 1 %.
  double threshold = 0;
  int resamples = 10'000;  // the bootstrap interval of each change's ratio
  // Count unverified runs (exit 2: their figures stand, their completeness is
  // unproven) as points of their series; failed runs never count.
  bool count_unverified = false;
};

// One change point of one metric of one series, with what it splits.
struct MetricChange {
  size_t index = 0;                          // into the series' runs that have the metric
  std::string run_label, started_at, build;  // the first run after the change
  std::string build_before;                  // the last run's before it
  std::string server, server_before;         // the same of the server (binary or command, flags)
  double mean_before = 0, mean_after = 0;    // of the segments either side
  double median_before = 0, median_after = 0;
  double relative_change = 0;  // mean_after / mean_before - 1; lower is better for every metric
  Interval ratio_ci;           // bootstrap, 95 %, of median_after / median_before
  double p_value = 1;
  double threshold = 0;     // the regression threshold of this series and metric
  bool regression = false;  // worse by more than the threshold
};

// One run of a series, as a trend draws it.
struct SeriesPoint {
  std::string run_label, started_at, build, server;
  double value = 0;
};

struct MetricChanges {
  std::string metric, unit;
  size_t runs = 0;                  // runs of the series that have the metric
  std::vector<SeriesPoint> points;  // those runs, oldest first
  double noise = 0;                 // the relative spread the default threshold comes from
  double threshold = 0;             // the regression threshold (MetricChange::threshold)
  // The smallest relative change a change point after the newest segment
  // (the runs since the last change point, or all of them) could show,
  // min_segment runs after it, at this noise (DetectableRelativeChange: a
  // planning figure at 5 % and 80 % power). Above the threshold, the series
  // could not have shown the change that matters: "no regression" would be
  // a silent pass, and the verdict is inconclusive instead.
  double detectable_change = 0;
  std::vector<MetricChange> changes;  // oldest first
  // Searched (runs enough to split), and able to show a change of its threshold.
  bool searched(int min_segment) const { return runs >= 2 * static_cast<size_t>(min_segment); }
  bool resolves_threshold() const { return detectable_change <= threshold; }
};

struct SeriesChanges {
  std::string series;  // HistoryRun::series
  size_t runs = 0;
  // In the store and not counted: failed (exit 1), and unverified (exit 2)
  // unless HistoryChangesOptions::count_unverified.
  size_t not_counted_runs = 0;
  // Empty when too few runs to split (fewer than 2 x min_segment).
  std::vector<MetricChanges> metrics;
};

struct HistoryChanges {
  std::vector<SeriesChanges> series;
  double alpha = 0.05;
  int min_segment = 3;
  // kCompareRegression when the newest change point of some metric of some
  // series is a regression; else kCompareInconclusive when no series had
  // enough runs to look for a change, or a searched metric could not have
  // shown a change of its threshold (MetricChanges::resolves_threshold: the
  // runs since its last change point are too few for its noise); else
  // kCompareNoRegression.
  int ExitCode() const;
  // The verdict as one sentence ending with its exit status, e.g.
  // "REGRESSION: total_seconds of series 1 at run09 (+20.3 %) (exit 3)".
  std::string Verdict() const;
};

// Groups `runs` (History::Runs, oldest first) into series and searches
// each chosen metric of each series; runs that do not count (see
// SeriesChanges::not_counted_runs) are counted and left out.
HistoryChanges FindHistoryChanges(const std::vector<HistoryRun>& runs, const HistoryChangesOptions& options);

// Each series, each metric's change points (run, build, time, mean before
// and after, change, interval, p), and the verdict with its exit status.
std::string RenderHistoryChangesText(const HistoryChanges& changes);
// Every figure as JSON, schema "warmup-changes/1" (each metric's points too).
std::string RenderHistoryChangesJson(const HistoryChanges& changes);
// `warmup history trend --html`: one self-contained page (html_report.h's
// promises: Chart.js inlined, the JSON above as its data, the verdict in a
// banner of the HTML itself), a section per series and a chart per metric:
// each run a point in the order taken (hover: run, build, start, value),
// the segments' means as lines, each change point a marked line with its
// change and p.
std::string RenderHistoryChangesHtml(const HistoryChanges& changes);

}  // namespace warmup

#endif  // WARMUP_CHANGE_POINTS_H_
