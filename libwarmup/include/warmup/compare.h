// Comparing builds: is build B faster than build A? The unit is one whole
// run (its JSON report); per metric, the runs of each arm are compared by one
// of two tests, chosen by the number of runs before any is seen: with fewer
// than 9 runs in an arm, Welch's t test on the logarithms of the runs'
// values (a model of the run-to-run spread, measured from the runs and
// floored by what each run's own entities imply), which can decide from 2 or
// 3 runs an arm; from 9, the two-sided Mann-Whitney U test with a bootstrap
// interval of the ratio of medians, which assumes no distribution. A verdict
// is given only when the test and the interval agree (docs/comparing.md).
#ifndef WARMUP_COMPARE_H_
#define WARMUP_COMPARE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
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

// Student's t distribution with `df` degrees of freedom (> 0, not
// necessarily whole): P(T > t), and its q quantile (0 < q < 1).
double StudentTTail(double t, double df);
double StudentTQuantile(double q, double df);

// Welch's t test on the logarithms of two samples of runs: the ratio of
// their geometric means (B / A), its interval, and the change these runs
// could resolve. Each arm's variance of its mean log is the runs' own spread
// (n - 1 in the denominator), but never below the mean of `within` (each
// run's RunMetric::within_run_log_variance, when every run gave one): a run
// cannot vary less than its own entities' sampling lets it.
struct LogWelchResult {
  double ratio = 1;           // exp(mean ln b - mean ln a)
  Interval ratio_ci;          // at 1 - alpha, from Student's t with `df`
  double p_value = 1;         // two-sided
  double df = 0;              // Welch-Satterthwaite degrees of freedom
  double standard_error = 0;  // of mean ln b - mean ln a
  // False when both arms' values are each all equal and no run said how
  // precisely it fixed its value: no spread measured, nothing to test with.
  bool spread_measured = true;
  // The relative change a test at alpha finds with 80 % power at this
  // standard error: exp((t(1 - alpha/2) + t(0.8)) x SE) - 1.
  double detectable_change = 0;
  // Per arm: the share of its runs' spread (variance of ln value) that its
  // runs' entity sampling accounts for, at most 1; none without `within`.
  // Near 1: more entities per run would narrow the interval; near 0: only
  // more runs will.
  std::optional<double> sampling_share_a, sampling_share_b;
};
// REQUIRES: each sample at least 2 values, all > 0; `within_a` and
// `within_b` empty or one entry per run of their arm; 0 < alpha < 1.
LogWelchResult LogWelch(const std::vector<double>& a, const std::vector<double>& b,
                        const std::vector<double>& within_a, const std::vector<double>& within_b,
                        double alpha);

// Holm's step-down adjustment of p values tested together: the i-th smallest
// of m becomes max over j <= i of min(1, (m - j + 1) p_(j)) (j from 1), so
// that "some metric changed" is wrong with probability at most alpha for the
// whole family. Returned in the order of `p`.
std::vector<double> HolmAdjusted(const std::vector<double>& p);

// Which test decides a metric. kAuto, the default: kLogWelch while either
// arm has fewer than kRankTestMinRuns runs (the rank test could not reach
// alpha, or only with all runs of one arm beyond the other's), kRank from
// there, where it needs no model of the spread. A metric with a value of 0
// or below has no logarithm and is always ranked.
enum class RunsTest { kAuto, kRank, kLogWelch };
inline constexpr size_t kRankTestMinRuns = 9;
// "auto", "rank", "log-welch".
const char* RunsTestName(RunsTest test);
// The test named so. Errors: kInvalidArgument naming the choices.
StatusOr<RunsTest> RunsTestNamed(const std::string& name);

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
  RunsTest test = RunsTest::kAuto;
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
  // The test that decided this metric: kRank or kLogWelch, never kAuto.
  RunsTest test = RunsTest::kRank;
  // B / A by that test: the ratio of medians with its bootstrap interval
  // (rank), or of geometric means with its t interval (log-welch), both at
  // 1 - alpha (95 % at the default alpha).
  double ratio = 0;
  Interval ratio_ci;
  MannWhitneyResult rank_test;              // always made
  std::optional<LogWelchResult> log_welch;  // made when every value is > 0
  double p_value = 1;                       // the deciding test's, two-sided
  // The primary metric's p_value as it is; a secondary's after Holm's
  // adjustment over the secondary metrics: a table of many metrics at 5 %
  // each would otherwise find a "regression" in most comparisons of a build
  // with itself.
  double p_adjusted = 1;
  double hodges_lehmann = 0;  // b - a, in the metric's unit
  // False when no verdict is possible for this metric with these n (see
  // Verdict::kInconclusive); detectable_change is then meaningless (n/a).
  bool decidable = true;
  double detectable_change = 0;  // relative: the deciding test's (DetectableChange, LogWelch)
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

// A comparison made by looking at the runs as they came (warmup ab
// --sequential): after each pair from the third, stopping once decided.
struct SequentialLooks {
  size_t look = 0;      // which look this comparison is, from 1
  size_t looks = 0;     // the most there could have been
  size_t max_runs = 0;  // runs an arm at most
  // The whole sequence's alpha; each look is tested at overall_alpha / looks
  // (Comparison::alpha), so that any look calling a change that is not there
  // stays at most overall_alpha (Bonferroni over the looks).
  double overall_alpha = 0.05;
  bool stopped_early = false;  // decided before max_runs
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
  std::vector<std::string> warnings;          // e.g. fewer than 9 runs per arm, what --force overrode
  std::string primary_metric;                 // CompareOptions::primary_metric
  RunsTest test = RunsTest::kAuto;            // CompareOptions::test
  std::optional<SequentialLooks> sequential;  // set by warmup ab --sequential
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

// For a sequential comparison, how it looked: "sequential: look 1 of at most
// 7 (after 3 runs an arm, of at most 9), stopped once decided; each look
// tested at alpha 0.05 / 7 = 0.0071, ..."; empty for any other.
std::string SequentialSentence(const Comparison& comparison);

// An aligned table, one metric a line, with the verdicts; and every figure as
// JSON (schema "warmup-compare/4": adds the test asked for and, per metric,
// the test that decided, its p_value and p_holm, and the log_welch figures).
std::string RenderComparisonText(const Comparison& comparison);
std::string RenderComparisonJson(const Comparison& comparison);

}  // namespace warmup

#endif  // WARMUP_COMPARE_H_
