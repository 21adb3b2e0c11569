// Comparing builds: is build B faster than build A? The unit is one whole
// run (its JSON report); per metric, the runs of each arm are compared with
// the two-sided Mann-Whitney U test, a bootstrap confidence interval of the
// ratio of medians (B/A), and the Hodges-Lehmann shift, and a verdict is
// given only when both the test and the interval agree (docs/comparing.md).
#ifndef WARMUP_COMPARE_H_
#define WARMUP_COMPARE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "warmup/run_record.h"
#include "warmup/status.h"

namespace warmup {

// The median of `values` (the mean of the two middle ones for an even count).
// REQUIRES: !values.empty().
double Median(std::vector<double> values);

struct MannWhitneyResult {
  double u = 0;        // U of `a`: pairs (a_i, b_j) with a_i > b_j, ties counting one half
  double p_value = 1;  // two-sided
  // true: from the exact distribution of U (no ties, both samples of at most
  // 20); false: the normal approximation with tie and continuity correction.
  bool exact = false;
};
// REQUIRES: both samples non-empty.
MannWhitneyResult MannWhitneyU(const std::vector<double>& a, const std::vector<double>& b);

struct Interval {
  double low = 0;
  double high = 0;
};
// The percentile bootstrap interval of median(b) / median(a) at `confidence`,
// resampling each sample independently `resamples` times from a generator
// seeded with `seed` (the same inputs give the same interval).
// REQUIRES: both samples non-empty, median(a) != 0, resamples >= 1.
Interval BootstrapRatioOfMedians(const std::vector<double>& a, const std::vector<double>& b, int resamples,
                                 uint64_t seed, double confidence = 0.95);

// The Hodges-Lehmann estimate of the shift from `a` to `b`: the median of
// every difference b_j - a_i. REQUIRES: both samples non-empty.
double HodgesLehmannShift(const std::vector<double>& a, const std::vector<double>& b);

// The smallest relative change of the median that a two-sided test at 5 %
// would find with 80 % power, given these sample sizes and the spread of `a`
// (its MAD scaled to a standard deviation), for the rank test's efficiency
// (3/pi of the t test's on normal data). A planning figure, not a test.
double DetectableChange(const std::vector<double>& a, size_t b_size);
// The same figure from a relative spread: samples of `n_a` and `n_b` runs
// whose standard deviation is `relative_sigma` of their median.
double DetectableRelativeChange(double relative_sigma, size_t n_a, size_t n_b);

// The smallest two-sided p the Mann-Whitney U test can give for samples of
// `m` and `n` (all of one arm below all of the other, no ties): exactly
// 2 / C(m + n, m) where the exact distribution is used (both at most 20),
// else the normal approximation's at the extreme U. No data can do better:
// where this, times the number of metrics Holm adjusts for, is above alpha,
// no verdict is possible.
double SmallestAttainableP(size_t m, size_t n);

// Holm's step-down adjustment of p values tested together: the i-th smallest
// of m becomes max over j <= i of min(1, (m - j + 1) p_(j)) (j from 1), so
// that "some metric changed" is wrong with probability at most alpha for the
// whole family. Returned in the order of `p`.
std::vector<double> HolmAdjusted(const std::vector<double>& p);

struct CompareOptions {
  int resamples = 10'000;
  uint64_t seed = 1;
  double alpha = 0.05;
  // The relative change a confidence interval must lie beyond for a verdict
  // when no A/A runs give one (--noise-from).
  double default_noise = 0.02;
  // Compare runs that measured different things (dataset, host, target
  // kind, storage, the copy's settings) anyway; the output says what was
  // overridden.
  bool force = false;
  // A collection's median upsert is compared only when every run copied at
  // least this many of its entities: below, the median is a handful of
  // samples, one of them possibly the run's cold first upsert.
  int64_t min_collection_count = 20;
  // The one metric, declared before the runs are seen, whose verdict is the
  // comparison's and decides its exit status: tested alone at alpha. Every
  // other metric is secondary: Holm-adjusted among themselves, shown with
  // its verdict, never deciding (docs/comparing.md).
  std::string primary_metric = run_metric::kTotalSeconds;
};

// kInconclusive: the data cannot decide, whatever it holds: too few runs for
// any p to reach alpha after Holm's adjustment (SmallestAttainableP).
enum class Verdict { kNoChange, kImproved, kRegressed, kInconclusive };
const char* VerdictName(Verdict verdict);

// The exit statuses of a comparison (and of `warmup compare` and `ab`).
inline constexpr int kCompareNoRegression = 0;
inline constexpr int kCompareRegression = 3;
inline constexpr int kCompareInconclusive = 4;

struct MetricComparison {
  std::string metric;        // e.g. "total_seconds", "upsert_median_us:Product"
  bool primary = false;      // CompareOptions::primary_metric: its verdict is the comparison's
  std::string unit;          // "s", "us", "bytes", "us/entity"
  std::vector<double> a, b;  // one value per run
  double median_a = 0, median_b = 0;
  double ratio = 0;   // median_b / median_a
  Interval ratio_ci;  // bootstrap, 95 %
  MannWhitneyResult test;
  // The primary metric's test.p_value as it is; a secondary's after Holm's
  // adjustment over the secondary metrics: a table of many metrics at 5 %
  // each would otherwise find a "regression" in most comparisons of a build
  // with itself.
  double p_adjusted = 1;
  double hodges_lehmann = 0;  // b - a, in the metric's unit
  // False when no verdict is possible for this metric with these n (see
  // Verdict::kInconclusive); detectable_change is then meaningless (n/a).
  bool decidable = true;
  double detectable_change = 0;  // relative, see DetectableChange
  double noise_threshold = 0;    // relative
  std::string noise_source;      // "default" or "A/A runs (n)"
  Verdict verdict = Verdict::kNoChange;
};

// What one arm's runs were: each distinct value over its runs, so that a
// comparison says what it compared (and shows when an arm was not one thing).
struct ArmDescription {
  std::vector<std::string> loader_builds;  // environment.build_details
  std::vector<std::string> servers;        // the server binary or command, its serve flags and heap
  std::vector<std::string> server_builds;  // what a started warmup serve said of its build
  std::vector<std::string> command_lines;  // how the runs were made
  // The host under each run that said (RunRecord): the 1-min load average at
  // its start and the CPU share stolen during it, in the arm's order.
  std::vector<double> load_averages, steal_shares;
};

struct Comparison {
  std::vector<std::string> a_files, b_files, noise_files;
  std::string dataset_fingerprint;
  // What every run shares (dataset, scale, host, target kind, compression,
  // the copy's settings), as "field: value".
  std::vector<std::string> setup;
  ArmDescription arm_a, arm_b;
  std::vector<MetricComparison> metrics;
  // Collections whose medians were not compared: fewer entities than
  // CompareOptions::min_collection_count in some run.
  std::vector<std::string> small_collections;
  double alpha = 0.05;
  std::vector<std::string> warnings;  // e.g. fewer than 9 runs per arm, what --force overrode
  std::string primary_metric;         // CompareOptions::primary_metric
  // The primary metric's comparison (one of `metrics`; CompareRuns marks
  // it, and a Comparison made by hand without one decides on its first).
  // REQUIRES: metrics is not empty.
  const MetricComparison& primary() const;
  // From the primary metric alone: kCompareRegression when it regressed;
  // kCompareInconclusive when these n cannot decide it; else
  // kCompareNoRegression (a secondary metric's verdict never changes it).
  int ExitCode() const;
};

// Reads the run reports (JSON, schema warmup-run/9, 8, 7, 6 or 5) of arm A, arm B
// and, optionally, A/A runs that set each metric's noise threshold, and
// compares every metric all runs have: TOTAL, net load (load minus source
// read), goLive, the Product mean upsert, each collection's median upsert
// (collections of at least min_collection_count entities), the server's CPU
// per entity and peak RSS (when a server was measured). Lower is better for
// all of them; a verdict needs p below alpha (the primary metric's as it is,
// a secondary's Holm-adjusted) and the interval of the ratio entirely beyond
// 1 +- the noise threshold; a metric that no data of these n could decide is
// kInconclusive.
// Errors: kInvalidArgument for fewer than 2 runs in an arm, a file that is
// not a run report (naming it), runs that failed (exit code 1), a report
// given twice (by path, or the same run by its label, start, host and pid:
// naming both), or runs that measured different things (dataset
// fingerprint or scale, host, target kind, compression, the per-collection
// cap or collection subset: naming the field and both files) unless
// `force`, or a primary metric that is not among the metrics compared
// (naming those that are); kNotFound for a file that is not there.
StatusOr<Comparison> CompareRuns(const std::vector<std::string>& a_files,
                                 const std::vector<std::string>& b_files,
                                 const std::vector<std::string>& noise_files, const CompareOptions& options);

// The comparison's verdict in one sentence that begins with its word and exit
// status: "REGRESSED (exit 3): total_seconds, the primary metric",
// "INCONCLUSIVE (exit 4): with 3 and 3 runs no p value of ...", "no
// regression (exit 0): total_seconds, the primary metric".
std::string VerdictSentence(const Comparison& comparison);

// An aligned table, one metric a line, with the verdicts; and every figure as
// JSON (schema "warmup-compare/3": adds primary_metric, and primary per metric).
std::string RenderComparisonText(const Comparison& comparison);
std::string RenderComparisonJson(const Comparison& comparison);

}  // namespace warmup

#endif  // WARMUP_COMPARE_H_
