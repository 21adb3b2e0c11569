// Run comparison: the statistics (docs/comparing.md says why these) and the
// metrics read from run reports.
#include "warmup/compare.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numbers>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include "warmup/run_record.h"
#include "warmup/trend.h"

namespace warmup {
namespace {

using json = nlohmann::json;

double NormalTail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }  // P(Z > z)

// The number of arrangements of m a's and n b's giving each U (of `a`), by
// the recurrence f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u).
std::vector<double> ExactUCounts(size_t m, size_t n) {
  // counts[i][j] = distribution for i a's and j b's, as a vector over u.
  std::vector<std::vector<std::vector<double>>> counts(m + 1, std::vector<std::vector<double>>(n + 1));
  for (size_t i = 0; i <= m; ++i) {
    for (size_t j = 0; j <= n; ++j) {
      std::vector<double>& f = counts[i][j];
      f.assign(i * j + 1, 0.0);
      if (i == 0 || j == 0) {
        f[0] = 1;
        continue;
      }
      // The largest value is an a (it beats all j b's) or a b.
      for (size_t u = 0; u <= (i - 1) * j; ++u) f[u + j] += counts[i - 1][j][u];
      for (size_t u = 0; u <= i * (j - 1); ++u) f[u] += counts[i][j - 1][u];
    }
  }
  return counts[m][n];
}

// The regularized incomplete beta function I_x(a, b), by its continued
// fraction (modified Lentz), through the symmetry I_x(a, b) = 1 - I_{1-x}(b,
// a) where the fraction converges slowly.
double IncompleteBeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - IncompleteBeta(b, a, 1 - x);
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x)) /
      a;
  constexpr double kTiny = 1e-300;
  double f = 1, c = 1, d = 0;
  for (int i = 0; i <= 400; ++i) {
    const double m = std::floor(i / 2.0);
    double numerator = 1;  // the first term
    if (i > 0 && i % 2 == 0) numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
    if (i % 2 == 1) numerator = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + numerator * d;
    d = 1 / (std::abs(d) < kTiny ? kTiny : d);
    c = 1 + numerator / c;
    if (std::abs(c) < kTiny) c = kTiny;
    f *= c * d;
    if (std::abs(1 - c * d) < 1e-15) break;
  }
  return front * (f - 1);
}

// Mean and variance (n - 1 in the denominator) of ln of each value.
std::pair<double, double> LogMeanAndVariance(const std::vector<double>& values) {
  double mean = 0;
  for (double v : values) mean += std::log(v);
  mean /= static_cast<double>(values.size());
  double squares = 0;
  for (double v : values) squares += (std::log(v) - mean) * (std::log(v) - mean);
  return {mean, squares / static_cast<double>(values.size() - 1)};
}

}  // namespace

double StudentTTail(double t, double df) {
  const double upper = 0.5 * IncompleteBeta(df / 2, 0.5, df / (df + t * t));
  return t >= 0 ? upper : 1 - upper;
}

double StudentTQuantile(double q, double df) {
  if (q < 0.5) return -StudentTQuantile(1 - q, df);
  double low = 0, high = 1;
  while (StudentTTail(high, df) > 1 - q && high < 1e12) high *= 2;
  for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
    const double mid = (low + high) / 2;
    (StudentTTail(mid, df) > 1 - q ? low : high) = mid;
  }
  return (low + high) / 2;
}

LogWelchResult LogWelch(const std::vector<double>& a, const std::vector<double>& b,
                        const std::vector<double>& within_a, const std::vector<double>& within_b,
                        double alpha) {
  LogWelchResult r;
  struct Arm {
    double mean, variance_of_mean, runs;
    std::optional<double> sampling_share;
  };
  auto arm = [](const std::vector<double>& values, const std::vector<double>& within) {
    const auto [mean, spread] = LogMeanAndVariance(values);
    Arm out{mean, spread, static_cast<double>(values.size()), std::nullopt};
    if (!within.empty()) {
      const double sampling =
          std::accumulate(within.begin(), within.end(), 0.0) / static_cast<double>(within.size());
      if (spread > 0 || sampling > 0) {
        out.sampling_share = spread > 0 ? std::min(1.0, sampling / spread) : 1.0;
      }
      out.variance_of_mean = std::max(spread, sampling);
    }
    out.variance_of_mean /= out.runs;
    return out;
  };
  const Arm x = arm(a, within_a), y = arm(b, within_b);
  r.sampling_share_a = x.sampling_share;
  r.sampling_share_b = y.sampling_share;
  const double difference = y.mean - x.mean;
  r.ratio = std::exp(difference);
  r.ratio_ci = {r.ratio, r.ratio};
  const double variance = x.variance_of_mean + y.variance_of_mean;
  // Below a relative 1e-10 a "spread" is the rounding of equal values' logarithms.
  if (variance <= 1e-20) {
    r.spread_measured = false;
    return r;
  }
  r.standard_error = std::sqrt(variance);
  r.df = variance * variance /
         (x.variance_of_mean * x.variance_of_mean / (x.runs - 1) +
          y.variance_of_mean * y.variance_of_mean / (y.runs - 1));
  r.p_value = std::min(1.0, 2 * StudentTTail(std::abs(difference) / r.standard_error, r.df));
  const double critical = StudentTQuantile(1 - alpha / 2, r.df);
  r.ratio_ci = {std::exp(difference - critical * r.standard_error),
                std::exp(difference + critical * r.standard_error)};
  r.detectable_change = std::exp((critical + StudentTQuantile(0.8, r.df)) * r.standard_error) - 1;
  return r;
}

const char* RunsTestName(RunsTest test) {
  switch (test) {
    case RunsTest::kAuto:
      return "auto";
    case RunsTest::kRank:
      return "rank";
    case RunsTest::kLogWelch:
      return "log-welch";
  }
  return "auto";
}

StatusOr<RunsTest> RunsTestNamed(const std::string& name) {
  for (RunsTest test : {RunsTest::kAuto, RunsTest::kRank, RunsTest::kLogWelch}) {
    if (name == RunsTestName(test)) return test;
  }
  return InvalidArgumentError("no test is named " + name + ": auto, rank or log-welch");
}

double Median(std::vector<double> values) {
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

MannWhitneyResult MannWhitneyU(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t m = a.size();
  const size_t n = b.size();
  // Ranks of the pooled sample, ties sharing their mean rank.
  std::vector<std::pair<double, int>> pooled;
  for (double x : a) pooled.emplace_back(x, 0);
  for (double x : b) pooled.emplace_back(x, 1);
  std::sort(pooled.begin(), pooled.end());
  const size_t total = m + n;
  double rank_sum_a = 0;
  double tie_term = 0;  // sum of t^3 - t over groups of ties
  for (size_t i = 0; i < total;) {
    size_t j = i;
    while (j < total && pooled[j].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double mean_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (size_t k = i; k < j; ++k) {
      if (pooled[k].second == 0) rank_sum_a += mean_rank;
    }
    tie_term += t * t * t - t;
    i = j;
  }
  MannWhitneyResult r;
  const double md = static_cast<double>(m);
  const double nd = static_cast<double>(n);
  r.u = rank_sum_a - md * (md + 1) / 2;
  if (tie_term == 0 && m <= 20 && n <= 20) {
    const std::vector<double> counts = ExactUCounts(m, n);
    const double all = std::accumulate(counts.begin(), counts.end(), 0.0);
    const auto u = static_cast<size_t>(std::llround(r.u));
    double below = 0;  // P(U <= u)
    for (size_t k = 0; k <= u; ++k) below += counts[k];
    double above = 0;  // P(U >= u)
    for (size_t k = u; k < counts.size(); ++k) above += counts[k];
    r.p_value = std::min(1.0, 2 * std::min(below, above) / all);
    r.exact = true;
    return r;
  }
  const double mu = md * nd / 2;
  const double nt = md + nd;
  const double variance = md * nd / 12 * ((nt + 1) - tie_term / (nt * (nt - 1)));
  if (variance <= 0) return r;  // every value equal: no evidence of a difference
  const double z = std::max(0.0, std::abs(r.u - mu) - 0.5) / std::sqrt(variance);
  r.p_value = std::min(1.0, 2 * NormalTail(z));
  return r;
}

Interval BootstrapRatioOfMedians(const std::vector<double>& a, const std::vector<double>& b, int resamples,
                                 uint64_t seed, double confidence) {
  std::mt19937_64 rng(seed);
  auto resample_median = [&](const std::vector<double>& x, std::vector<double>& scratch) {
    for (double& v : scratch) v = x[rng() % x.size()];
    return Median(scratch);
  };
  std::vector<double> ratios;
  ratios.reserve(static_cast<size_t>(resamples));
  std::vector<double> sa(a.size());
  std::vector<double> sb(b.size());
  for (int i = 0; i < resamples; ++i) {
    const double ma = resample_median(a, sa);
    const double mb = resample_median(b, sb);
    if (ma != 0) ratios.push_back(mb / ma);
  }
  std::sort(ratios.begin(), ratios.end());
  auto at = [&](double q) {
    const double index = q * static_cast<double>(ratios.size() - 1);
    return ratios[static_cast<size_t>(std::llround(index))];
  };
  const double tail = (1 - confidence) / 2;
  return {at(tail), at(1 - tail)};
}

double HodgesLehmannShift(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> differences;
  differences.reserve(a.size() * b.size());
  for (double x : a) {
    for (double y : b) differences.push_back(y - x);
  }
  return Median(differences);
}

double DetectableChange(const std::vector<double>& a, size_t b_size) {
  const double median = Median(a);
  std::vector<double> deviations;
  for (double x : a) deviations.push_back(std::abs(x - median));
  const double sigma = 1.4826 * Median(deviations);
  if (median == 0) return 0;
  return DetectableRelativeChange(sigma / std::abs(median), a.size(), b_size);
}

double DetectableRelativeChange(double relative_sigma, size_t n_a, size_t n_b) {
  constexpr double kZAlpha = 1.959964;  // two-sided 5 %
  constexpr double kZPower = 0.841621;  // 80 % power
  constexpr double kRankEfficiency = 3 / std::numbers::pi;
  return (kZAlpha + kZPower) * relative_sigma *
         std::sqrt(1 / static_cast<double>(n_a) + 1 / static_cast<double>(n_b)) / std::sqrt(kRankEfficiency);
}

double SmallestAttainableP(size_t m, size_t n) {
  if (m == 0 || n == 0) return 1;
  if (m <= 20 && n <= 20) {
    double ways = 1;  // C(m + n, m), exactly enough in a double for these sizes
    for (size_t i = 1; i <= m; ++i) ways = ways * static_cast<double>(n + i) / static_cast<double>(i);
    return std::min(1.0, 2 / ways);
  }
  const double md = static_cast<double>(m);
  const double nd = static_cast<double>(n);
  const double z = (md * nd / 2 - 0.5) / std::sqrt(md * nd * (md + nd + 1) / 12);
  return std::min(1.0, 2 * NormalTail(z));
}

std::vector<double> HolmAdjusted(const std::vector<double>& p) {
  std::vector<size_t> order(p.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return p[x] < p[y]; });
  std::vector<double> adjusted(p.size());
  double running = 0;
  for (size_t j = 0; j < order.size(); ++j) {
    running = std::max(running, std::min(1.0, static_cast<double>(order.size() - j) * p[order[j]]));
    adjusted[order[j]] = running;
  }
  return adjusted;
}

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kImproved:
      return "improved";
    case Verdict::kRegressed:
      return "regressed";
    case Verdict::kNoChange:
      return "no change";
    case Verdict::kInconclusive:
      return "inconclusive";
  }
  return "no change";
}

const MetricComparison& Comparison::primary() const {
  for (const MetricComparison& m : metrics) {
    if (m.primary) return m;
  }
  return metrics.front();  // CompareRuns marks one; a hand-made Comparison without one decides on its first
}

int Comparison::ExitCode() const {
  if (metrics.empty()) return kCompareInconclusive;
  switch (primary().verdict) {
    case Verdict::kRegressed:
      return kCompareRegression;
    case Verdict::kInconclusive:
      return kCompareInconclusive;
    default:
      return kCompareNoRegression;
  }
}

namespace {

StatusOr<std::vector<RunRecord>> ReadRuns(const std::vector<std::string>& files) {
  std::vector<RunRecord> runs;
  for (const std::string& f : files) {
    auto run = ReadStandingRunRecord(f);
    if (!run.ok()) return run.status();
    runs.push_back(std::move(run).value());
  }
  return runs;
}

// The primary metric's p stays as it is; the secondaries' are adjusted among themselves.
void HolmAdjust(std::vector<MetricComparison>& metrics) {
  std::vector<double> p;
  for (const MetricComparison& m : metrics) {
    if (!m.primary) p.push_back(m.p_value);
  }
  p = HolmAdjusted(p);
  size_t next = 0;
  for (MetricComparison& m : metrics) m.p_adjusted = m.primary ? m.p_value : p[next++];
}

std::string Fixed(double v, int places) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", places, v);
  return buf;
}

void AddDistinct(std::vector<std::string>& values, const std::string& value) {
  if (!value.empty() && std::find(values.begin(), values.end(), value) == values.end())
    values.push_back(value);
}

ArmDescription Describe(const std::vector<RunRecord>& runs) {
  ArmDescription arm;
  for (const RunRecord& r : runs) {
    AddDistinct(arm.loader_builds, r.loader_build);
    AddDistinct(arm.servers, r.server);
    AddDistinct(arm.server_builds, r.server_build);
    AddDistinct(arm.command_lines, r.command_line);
    if (r.load_average_at_start) arm.load_averages.push_back(*r.load_average_at_start);
    if (r.steal_share) arm.steal_shares.push_back(*r.steal_share);
  }
  return arm;
}

// "1.59 (1.20 to 2.50)": the median of the values and their range.
std::string MedianAndRange(std::vector<double> values, double scale, int places) {
  const double median = Median(values);
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  return Fixed(median * scale, places) + " (" + Fixed(*low * scale, places) + " to " +
         Fixed(*high * scale, places) + ")";
}

// The arms ran on a machine busy by different amounts: the medians of their
// load averages differ by more than half the cores (another tenant, a build
// running beside one arm), or one arm had the hypervisor steal more than 5 %
// of the CPU. Either can make a difference that is the machine's, not the
// builds'.
void WarnOfConditions(Comparison& c, int cores) {
  const ArmDescription &a = c.arm_a, &b = c.arm_b;
  if (!a.load_averages.empty() && !b.load_averages.empty()) {
    const double ma = Median(a.load_averages), mb = Median(b.load_averages);
    if (std::abs(ma - mb) > 0.5 * std::max(1, cores)) {
      c.warnings.push_back(
          "the arms ran at different host load: the 1-min load average at the runs' starts, "
          "median A " +
          Fixed(ma, 2) + ", B " + Fixed(mb, 2) + ", on " + std::to_string(cores) +
          " cores; a difference may be the machine's, not the builds'");
    }
  }
  for (const auto& [name, arm] : {std::pair{"A", &a}, std::pair{"B", &b}}) {
    if (arm->steal_shares.empty()) continue;
    const double most = *std::max_element(arm->steal_shares.begin(), arm->steal_shares.end());
    if (most > 0.05) {
      c.warnings.push_back(std::string("the hypervisor stole up to ") + Fixed(most * 100, 1) +
                           " % of the CPU during a run of arm " + name +
                           ": its figures include another tenant's");
    }
  }
}

}  // namespace

StatusOr<Comparison> CompareRuns(const std::vector<std::string>& a_files,
                                 const std::vector<std::string>& b_files,
                                 const std::vector<std::string>& noise_files, const CompareOptions& options) {
  if (a_files.size() < 2 || b_files.size() < 2) {
    return InvalidArgumentError("each arm needs at least 2 runs (A has " + std::to_string(a_files.size()) +
                                ", B has " + std::to_string(b_files.size()) + "); 9 or more are recommended");
  }
  if (!noise_files.empty() && noise_files.size() < 4) {
    return InvalidArgumentError("A/A noise needs at least 4 runs (split into two halves), not " +
                                std::to_string(noise_files.size()));
  }
  auto a = ReadRuns(a_files);
  if (!a.ok()) return a.status();
  auto b = ReadRuns(b_files);
  if (!b.ok()) return b.status();
  auto noise = ReadRuns(noise_files);
  if (!noise.ok()) return noise.status();
  std::vector<const RunRecord*> all;
  for (const auto* arm : {&*a, &*b, &*noise}) {
    for (const RunRecord& r : *arm) all.push_back(&r);
  }
  if (Status s = RefuseDuplicateRuns(all, ", in one arm"); !s.ok()) return s;
  Comparison out;
  out.a_files = a_files;
  out.b_files = b_files;
  out.noise_files = noise_files;
  out.alpha = options.alpha;
  const RunRecord& first = a->front();
  out.dataset_fingerprint = first.setup.at("dataset");
  // Every run must have measured the same thing as the first; what a
  // comparison is for (the builds, the servers, their flags and heap) may differ.
  for (const RunRecord* r : all) {
    for (const auto& [field, value] : r->setup) {
      const std::string& expected = first.setup.at(field);
      if (value == expected) continue;
      const std::string what = field + " " + value + " vs " + expected;
      if (!options.force) {
        return InvalidArgumentError(r->file + " and " + first.file + " measured different things (" + what +
                                    "); --force compares them anyway");
      }
      out.warnings.push_back("--force overrode: " + r->file + " differs from " + first.file + ": " + what);
    }
  }
  for (const auto& [field, value] : first.setup) {
    bool everywhere = true;
    for (const RunRecord* r : all) everywhere = everywhere && r->setup.at(field) == value;
    out.setup.push_back(field + ": " + value + (everywhere ? "" : " (in " + first.file + "; runs differ)"));
  }
  if (first.schema == "warmup-run/6" || first.schema == "warmup-run/5") {
    out.warnings.push_back(first.file + " is " + first.schema +
                           ", which recorded no configuration: compression and the copy's settings were not "
                           "checked");
  }
  out.arm_a = Describe(*a);
  out.arm_b = Describe(*b);
  WarnOfConditions(out, first.host_cores);
  if (std::min(a->size(), b->size()) < kRankTestMinRuns) {
    const std::string runs =
        "fewer than 9 runs per arm (" + std::to_string(a->size()) + " and " + std::to_string(b->size()) + ")";
    out.warnings.push_back(
        options.test == RunsTest::kRank
            ? runs + ": the rank test's verdicts are unreliable"
            : runs +
                  ": the verdicts rest on Welch's t test of the runs' logarithms, a model of their spread "
                  "that so few runs cannot check (one wild run widens its interval); from 9 per arm they are "
                  "ranked, without a model");
  }
  // A collection's median is a figure only with enough entities in every run.
  const std::set<std::string> small = SmallCollections(all, options.min_collection_count);
  out.small_collections.assign(small.begin(), small.end());
  // Noise from A/A runs: the two interleaved halves, whose ratio should be 1.
  std::vector<RunRecord> noise_x, noise_y;
  for (size_t i = 0; i < noise->size(); ++i) (i % 2 == 0 ? noise_x : noise_y).push_back((*noise)[i]);
  for (const auto& [metric, value_unit] : first.metrics) {
    const size_t colon = metric.find(':');
    if (colon != std::string::npos && metric.starts_with(run_metric::kCollectionMedianPrefix) &&
        small.contains(metric.substr(colon + 1))) {
      continue;
    }
    MetricComparison m;
    m.metric = metric;
    m.unit = value_unit.unit;
    m.a = MetricValues(*a, metric);
    m.b = MetricValues(*b, metric);
    if (m.a.empty() || m.b.empty()) continue;
    m.median_a = Median(m.a);
    m.median_b = Median(m.b);
    if (m.median_a == 0) continue;
    m.rank_test = MannWhitneyU(m.a, m.b);
    m.hodges_lehmann = HodgesLehmannShift(m.a, m.b);
    const auto positive = [](const std::vector<double>& v) {
      return std::all_of(v.begin(), v.end(), [](double x) { return x > 0; });
    };
    if (positive(m.a) && positive(m.b)) {
      m.log_welch = LogWelch(m.a, m.b, WithinRunLogVariances(*a, metric), WithinRunLogVariances(*b, metric),
                             options.alpha);
    }
    const bool few_runs = std::min(m.a.size(), m.b.size()) < kRankTestMinRuns;
    m.test =
        m.log_welch && (options.test == RunsTest::kLogWelch || (options.test == RunsTest::kAuto && few_runs))
            ? RunsTest::kLogWelch
            : RunsTest::kRank;
    if (m.test == RunsTest::kLogWelch) {
      m.ratio = m.log_welch->ratio;
      m.ratio_ci = m.log_welch->ratio_ci;
      m.p_value = m.log_welch->p_value;
      m.detectable_change = m.log_welch->detectable_change;
    } else {
      m.ratio = m.median_b / m.median_a;
      m.ratio_ci = BootstrapRatioOfMedians(m.a, m.b, options.resamples, options.seed, 1 - options.alpha);
      m.p_value = m.rank_test.p_value;
      m.detectable_change = DetectableChange(m.a, m.b.size());
    }
    m.noise_threshold = options.default_noise;
    m.noise_source = "default";
    const std::vector<double> x = MetricValues(noise_x, metric);
    const std::vector<double> y = MetricValues(noise_y, metric);
    if (!x.empty() && !y.empty() && Median(x) != 0) {
      const Interval aa = BootstrapRatioOfMedians(x, y, options.resamples, options.seed + 1);
      m.noise_threshold = std::max(std::abs(aa.low - 1), std::abs(aa.high - 1));
      m.noise_source = "A/A runs (" + std::to_string(noise->size()) + ")";
    }
    out.metrics.push_back(std::move(m));
  }
  out.primary_metric = options.primary_metric;
  out.test = options.test;
  bool found = false;
  std::string compared;
  for (MetricComparison& m : out.metrics) {
    m.primary = m.metric == options.primary_metric;
    found = found || m.primary;
    compared += (compared.empty() ? "" : ", ") + m.metric;
  }
  if (!found) {
    return InvalidArgumentError("the primary metric " + options.primary_metric +
                                " is not among the metrics every run has: " + compared);
  }
  HolmAdjust(out.metrics);
  // Holm multiplies a secondary's smallest p by the number of secondaries:
  // when even the smallest p these n can give does not survive that (for the
  // primary: does not reach alpha), no data could decide.
  const double holm_factor = static_cast<double>(std::max<size_t>(1, out.metrics.size() - 1));
  for (MetricComparison& m : out.metrics) {
    const bool undecidable =
        m.test == RunsTest::kLogWelch
            ? !m.log_welch->spread_measured
            : (m.primary ? 1.0 : holm_factor) * SmallestAttainableP(m.a.size(), m.b.size()) >= options.alpha;
    if (undecidable) {
      m.decidable = false;
      m.verdict = Verdict::kInconclusive;
      continue;
    }
    if (m.p_adjusted < options.alpha) {
      if (m.ratio_ci.low > 1 + m.noise_threshold) m.verdict = Verdict::kRegressed;
      if (m.ratio_ci.high < 1 - m.noise_threshold) m.verdict = Verdict::kImproved;
    }
  }
  // An arm whose runs still trend measured a warm-up, not its build's steady state.
  for (const MetricComparison& m : out.metrics) {
    if (!run_metric::ShowsWarmUp(m.metric)) continue;
    for (const auto& [name, values] : {std::pair{"A", &m.a}, std::pair{"B", &m.b}}) {
      const TrendTest trend = MannKendall(*values);
      if (trend.trending) {
        out.warnings.push_back(std::string("arm ") + name + "'s " + m.metric + " is " + DescribeTrend(trend) +
                               ": its runs still measure a warm-up; compare runs taken after it stops "
                               "(--warmup-runs)");
      }
    }
  }
  return out;
}

namespace {

void PrintArm(std::ostringstream& out, const char* name, const ArmDescription& arm) {
  auto list = [&](const char* what, const std::vector<std::string>& values) {
    if (values.empty()) return;
    out << "    " << what << (values.size() > 1 ? " (the runs differ)" : "") << ":";
    for (const std::string& v : values) out << (values.size() > 1 ? "\n      " : " ") << v;
    out << "\n";
  };
  out << "  " << name << ":\n";
  list("server", arm.servers);
  list("server build", arm.server_builds);
  list("loader build", arm.loader_builds);
  list("command", arm.command_lines);
  if (!arm.load_averages.empty()) {
    out << "    host load: 1-min load average at the runs' starts "
        << MedianAndRange(arm.load_averages, 1, 2);
    if (!arm.steal_shares.empty()) out << "; CPU steal " << MedianAndRange(arm.steal_shares, 100, 1) << " %";
    out << " (median, range)\n";
  }
}

}  // namespace

std::string RenderComparisonText(const Comparison& c) {
  std::ostringstream out;
  out << "comparison: A = " << c.a_files.size() << " runs, B = " << c.b_files.size() << " runs, dataset "
      << c.dataset_fingerprint << "\n";
  out << "  every run:";
  for (const std::string& field : c.setup) out << "\n    " << field;
  out << "\n";
  PrintArm(out, "A", c.arm_a);
  PrintArm(out, "B", c.arm_b);
  out << "\n";
  const std::string confidence = Fixed(100 * (1 - c.alpha), 0) + " %";
  out << "  lower is better everywhere; ratio B / A by the metric's test, with its " << confidence
      << " interval: log-t, Welch's t\n"
         "  on the runs' logarithms (ratio of geometric means), or rank, the Mann-Whitney U test (ratio of\n"
         "  medians, bootstrap interval); shift: Hodges-Lehmann (B - A); detect: the change these runs "
         "could\n"
         "  detect\n\n";
  char line[512];
  std::snprintf(line, sizeof(line), "%-44s %12s %12s %7s %17s %6s %8s %8s %12s %7s %7s  %s\n", "metric",
                "median A", "median B", "ratio", "interval", "test", "p", "p Holm", "shift", "detect",
                "noise", "verdict");
  out << line;
  for (const MetricComparison& m : c.metrics) {
    const int places = m.unit == "s" ? 3 : m.unit == "bytes" ? 0 : 1;
    const std::string ci = "[" + Fixed(m.ratio_ci.low, 3) + ", " + Fixed(m.ratio_ci.high, 3) + "]";
    const bool approximate = m.test == RunsTest::kRank && !m.rank_test.exact;
    const char* test = m.test == RunsTest::kLogWelch ? "log-t" : approximate ? "rank~" : "rank";
    char p[32];
    std::snprintf(p, sizeof(p), m.p_value < 1e-4 ? "%.0e" : "%.4f", m.p_value);
    char holm[32];
    std::snprintf(holm, sizeof(holm), m.p_adjusted < 1e-4 ? "%.0e" : "%.4f", m.p_adjusted);
    const std::string detect = m.decidable ? Fixed(100 * m.detectable_change, 1) + "%" : "n/a";
    std::snprintf(line, sizeof(line), "%-44s %12s %12s %7s %17s %6s %8s %8s %12s %7s %6s%%  %s\n",
                  (m.metric + " (" + m.unit + ")" + (m.primary ? " *" : "")).c_str(),
                  Fixed(m.median_a, places).c_str(), Fixed(m.median_b, places).c_str(),
                  Fixed(m.ratio, 3).c_str(), ci.c_str(), test, p, holm,
                  Fixed(m.hodges_lehmann, places).c_str(), detect.c_str(),
                  Fixed(100 * m.noise_threshold, 1).c_str(), VerdictName(m.verdict));
    out << line;
  }
  out << "\n  *: the primary metric (--metric), declared before the runs: its verdict is the comparison's,\n"
         "  its p tested alone at alpha; the others are secondary, shown, never deciding\n"
         "  rank~: the normal approximation (ties, or more than 20 runs in an arm); p Holm: a secondary's\n"
         "  p adjusted for the number of secondary metrics, what its verdict needs below alpha; noise: the\n"
         "  change a verdict must exceed ("
      << (c.noise_files.empty() ? "the default" : "from the A/A runs") << ")\n";
  const MetricComparison* primary_metric = c.metrics.empty() ? nullptr : &c.primary();
  if (primary_metric != nullptr && primary_metric->log_welch &&
      (primary_metric->log_welch->sampling_share_a || primary_metric->log_welch->sampling_share_b)) {
    const MetricComparison& primary = *primary_metric;
    out << "  within the runs: of the spread between runs of " << primary.metric
        << ", the runs' own entities account for";
    for (const auto& [name, share] : {std::pair{"A", primary.log_welch->sampling_share_a},
                                      std::pair{"B", primary.log_welch->sampling_share_b}}) {
      if (share) out << " " << Fixed(100 * *share, 0) << " % in " << name;
    }
    const double most = std::max(primary.log_welch->sampling_share_a.value_or(0),
                                 primary.log_welch->sampling_share_b.value_or(0));
    out << (most > 0.5 ? ": more entities per run (a larger scale) would narrow the interval\n"
                       : ": the rest is between runs, which only more runs narrow\n");
  }
  if (!c.small_collections.empty()) {
    out << "  not compared: the medians of";
    for (const std::string& type : c.small_collections) out << " " << type;
    out << " (fewer than 20 entities in some run: a median of a few samples, one possibly the cold first "
           "upsert)\n";
  }
  for (const std::string& w : c.warnings) out << "WARNING: " << w << "\n";
  for (const MetricComparison& m : c.metrics) {
    if (!m.primary && (m.verdict == Verdict::kRegressed || m.verdict == Verdict::kImproved)) {
      out << "secondary, not deciding: " << m.metric << " " << VerdictName(m.verdict)
          << " (to decide on it, declare it before the runs: --metric " << m.metric << ")\n";
    }
  }
  if (c.sequential) out << SequentialSentence(c) << "\n";
  out << "verdict: " << VerdictSentence(c) << "\n";
  return out.str();
}

std::string SequentialSentence(const Comparison& c) {
  if (!c.sequential) return "";
  const SequentialLooks& q = *c.sequential;
  std::ostringstream out;
  out << "sequential: look " << q.look << " of at most " << q.looks << " (after " << c.a_files.size()
      << " runs an arm, of at most " << q.max_runs << "), "
      << (q.stopped_early ? "stopped once decided" : "every run made") << "; each look tested at alpha "
      << q.overall_alpha << " / " << q.looks << " = " << Fixed(c.alpha, 4)
      << ", so that looking as the runs came keeps a false verdict at " << q.overall_alpha;
  return out.str();
}

std::string VerdictSentence(const Comparison& c) {
  const std::string primary = c.metrics.empty() ? "no metric" : c.primary().metric + ", the primary metric";
  switch (c.ExitCode()) {
    case kCompareRegression:
      return "REGRESSED (exit 3): " + primary;
    case kCompareInconclusive: {
      std::ostringstream out;
      if (c.primary().test == RunsTest::kLogWelch) {
        out << "INCONCLUSIVE (exit 4): every run of each arm gave the same " << primary
            << ", so no spread was measured to test a difference with; take runs that measure it";
        return out.str();
      }
      out << "INCONCLUSIVE (exit 4): with " << c.a_files.size() << " and " << c.b_files.size()
          << " runs no p value of the rank test of " << primary << ", can reach alpha " << c.alpha
          << ", whatever the runs hold; take more runs (4 or more per arm can decide it at 5 %, 9 or more "
             "are recommended), or let Welch's t test of their logarithms decide (--test auto)";
      return out.str();
    }
    default: {
      if (c.metrics.empty()) return "no regression (exit 0): " + primary;
      const MetricComparison& m = c.primary();
      std::string sentence = "no regression (exit 0): " + primary;
      if (m.verdict == Verdict::kImproved) return sentence + " improved";
      // "No regression" is "not shown", never "shown absent": say how large a
      // change these runs could have missed.
      return sentence + "; these runs find a change of " + Fixed(100 * m.detectable_change, 1) +
             " % or more 4 times in 5, a smaller one may be there";
    }
  }
}

namespace {

json LogWelchJson(const LogWelchResult& r) {
  auto share = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  return {{"ratio", r.ratio},
          {"ratio_ci", {r.ratio_ci.low, r.ratio_ci.high}},
          {"p_value", r.p_value},
          {"df", r.df},
          {"standard_error", r.standard_error},
          {"spread_measured", r.spread_measured},
          {"detectable_change", r.detectable_change},
          {"sampling_share_a", share(r.sampling_share_a)},
          {"sampling_share_b", share(r.sampling_share_b)}};
}

}  // namespace

std::string RenderComparisonJson(const Comparison& c) {
  json metrics = json::array();
  for (const MetricComparison& m : c.metrics) {
    metrics.push_back(
        {{"metric", m.metric},
         {"unit", m.unit},
         {"a", m.a},
         {"b", m.b},
         {"median_a", m.median_a},
         {"median_b", m.median_b},
         {"test", RunsTestName(m.test)},
         {"ratio", m.ratio},
         {"ratio_ci", {m.ratio_ci.low, m.ratio_ci.high}},
         {"p_value", m.p_value},
         {"p_holm", m.p_adjusted},
         {"mann_whitney",
          {{"u", m.rank_test.u}, {"p_value", m.rank_test.p_value}, {"exact", m.rank_test.exact}}},
         {"log_welch", m.log_welch ? LogWelchJson(*m.log_welch) : json(nullptr)},
         {"hodges_lehmann_shift", m.hodges_lehmann},
         {"decidable", m.decidable},
         {"detectable_change", m.decidable ? json(m.detectable_change) : json(nullptr)},
         {"noise_threshold", m.noise_threshold},
         {"noise_source", m.noise_source},
         {"verdict", VerdictName(m.verdict)},
         {"primary", m.primary}});
  }
  auto arm = [](const ArmDescription& d) {
    return json{{"servers", d.servers},
                {"server_builds", d.server_builds},
                {"loader_builds", d.loader_builds},
                {"command_lines", d.command_lines},
                {"load_averages", d.load_averages},
                {"steal_shares", d.steal_shares}};
  };
  const int exit_code = c.ExitCode();
  json doc = {{"schema", "warmup-compare/4"},
              {"test", RunsTestName(c.test)},
              {"primary_metric", c.primary_metric},
              {"a", c.a_files},
              {"b", c.b_files},
              {"noise", c.noise_files},
              {"dataset_fingerprint", c.dataset_fingerprint},
              {"setup", c.setup},
              {"arm_a", arm(c.arm_a)},
              {"arm_b", arm(c.arm_b)},
              {"alpha", c.alpha},
              {"metrics", std::move(metrics)},
              {"small_collections", c.small_collections},
              {"warnings", c.warnings},
              {"sequential", c.sequential ? json{{"look", c.sequential->look},
                                                 {"looks", c.sequential->looks},
                                                 {"max_runs", c.sequential->max_runs},
                                                 {"overall_alpha", c.sequential->overall_alpha},
                                                 {"stopped_early", c.sequential->stopped_early}}
                                          : json(nullptr)},
              {"verdict", exit_code == kCompareRegression     ? "regressed"
                          : exit_code == kCompareInconclusive ? "inconclusive"
                                                              : "no regression"},
              {"exit_code", exit_code}};
  return doc.dump(2) + "\n";
}

}  // namespace warmup
