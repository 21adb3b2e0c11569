// Comparing builds: the statistics against values worked out by hand, the
// bootstrap's coverage on data with a known ratio, and CompareRuns (and
// `warmup compare`) on run reports whose figures are set on purpose.
#include "warmup/compare.h"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "apps/cli.h"
#include "common/run_reports.h"
#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "warmup/report.h"
#include "warmup/run_result.h"

namespace warmup {
namespace {

TEST_CASE("Median and the Hodges-Lehmann shift, worked by hand") {
  CHECK(Median({3, 1, 2}) == 2);
  CHECK(Median({4, 1, 3, 2}) == 2.5);
  // b - a over all pairs: 3 5 7 2 4 6 1 3 5, sorted 1 2 3 3 4 5 5 6 7.
  CHECK(HodgesLehmannShift({1, 2, 3}, {4, 6, 8}) == 4);
}

TEST_CASE("Mann-Whitney U: the exact distribution for small samples without ties") {
  // Complete separation: U = 0; of the C(6,3) = 20 arrangements one is as extreme on each side.
  MannWhitneyResult separated = MannWhitneyU({1, 2, 3}, {4, 5, 6});
  CHECK(separated.exact);
  CHECK(separated.u == 0);
  CHECK(separated.p_value == doctest::Approx(2.0 / 20));
  CHECK(MannWhitneyU({1, 2, 3, 4}, {5, 6, 7, 8, 9}).p_value == doctest::Approx(2.0 / 126));
  // m = 3, n = 4: U's frequencies over u = 0..12 are 1 1 2 3 4 4 5 4 4 3 2 1 1 (35 in all).
  // a = {1, 4, 6} beats 0 + 2 + 3 of b = {2, 3, 5, 7}: U = 5, P(U <= 5) = 15/35, two-sided 30/35.
  MannWhitneyResult mixed = MannWhitneyU({1, 4, 6}, {2, 3, 5, 7});
  CHECK(mixed.u == 5);
  CHECK(mixed.p_value == doctest::Approx(30.0 / 35));
  CHECK(MannWhitneyU({2, 3, 5, 7}, {1, 4, 6}).p_value == doctest::Approx(30.0 / 35));  // symmetric
}

TEST_CASE("Mann-Whitney U: the normal approximation with tie and continuity correction") {
  // Pooled 1 2 2 2 3 4: the three 2s share rank 3; R(a) = 1 + 3 + 3 = 7, U = 7 - 6 = 1.
  // mu = 4.5; var = 9/12 * (7 - (27 - 3) / 30) = 4.65; z = (3.5 - 0.5) / sqrt(4.65) = 1.39122.
  MannWhitneyResult tied = MannWhitneyU({1, 2, 2}, {2, 3, 4});
  CHECK_FALSE(tied.exact);
  CHECK(tied.u == 1);
  CHECK(tied.p_value == doctest::Approx(0.164160).epsilon(1e-4));
  // Every value equal: nothing to tell apart.
  CHECK(MannWhitneyU({5, 5, 5}, {5, 5}).p_value == 1);
  // More than 20 a side goes to the normal approximation too, and finds a clear shift.
  std::vector<double> low, high;
  for (int i = 0; i < 25; ++i) {
    low.push_back(i);
    high.push_back(i + 100);
  }
  MannWhitneyResult large = MannWhitneyU(low, high);
  CHECK_FALSE(large.exact);
  CHECK(large.p_value < 1e-6);
}

TEST_CASE("the bootstrap interval of the ratio of medians covers a known ratio about 95 % of the time") {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> a_runs(100.0, 6.0);
  std::normal_distribution<double> b_runs(110.0, 6.6);  // true ratio of medians 1.1
  int covered = 0;
  constexpr int kTrials = 200;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<double> a, b;
    for (int i = 0; i < 15; ++i) {
      a.push_back(a_runs(rng));
      b.push_back(b_runs(rng));
    }
    const Interval ci = BootstrapRatioOfMedians(a, b, 2000, static_cast<uint64_t>(trial));
    CHECK(ci.low <= ci.high);
    covered += ci.low <= 1.1 && 1.1 <= ci.high;
  }
  // Percentile intervals of a median run a little narrow on small samples.
  CHECK(covered >= kTrials * 85 / 100);
  CHECK(covered <= kTrials * 995 / 1000);
  // Seeded: the same inputs give the same interval.
  const Interval first = BootstrapRatioOfMedians({1, 2, 3, 4}, {2, 3, 4, 5}, 5000, 7);
  const Interval again = BootstrapRatioOfMedians({1, 2, 3, 4}, {2, 3, 4, 5}, 5000, 7);
  CHECK(first.low == again.low);
  CHECK(first.high == again.high);
}

TEST_CASE("the detectable change grows with the spread and shrinks with the runs") {
  const std::vector<double> tight = {100, 101, 99, 100, 102, 98, 100, 101, 99};
  const std::vector<double> loose = {100, 110, 90, 100, 120, 80, 100, 110, 90};
  CHECK(DetectableChange(loose, 9) > DetectableChange(tight, 9));
  CHECK(DetectableChange(tight, 30) < DetectableChange(tight, 9));
}

TEST_CASE("HolmAdjusted: the step-down adjustment, by hand") {
  // Sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 -> 0.06 (never below the last).
  const std::vector<double> adjusted = HolmAdjusted({0.01, 0.04, 0.03, 0.005});
  REQUIRE(adjusted.size() == 4);
  CHECK(adjusted[0] == doctest::Approx(0.03));
  CHECK(adjusted[1] == doctest::Approx(0.06));
  CHECK(adjusted[2] == doctest::Approx(0.06));
  CHECK(adjusted[3] == doctest::Approx(0.02));
  CHECK(HolmAdjusted({0.5, 0.9})[1] == doctest::Approx(1.0));  // capped at 1
  CHECK(HolmAdjusted({}).empty());
}

// A run report with the figures a comparison reads (run_reports.h), of
// dataset `fingerprint`, its source read 0.5 s.
std::string WriteRun(const std::filesystem::path& dir, const std::string& name, double total,
                     double product_us, const std::string& fingerprint = "f1",
                     const std::function<void(RunResult&)>& adjust = {}) {
  return testing::WriteRunReport(dir, name, total, product_us, [&](RunResult& r) {
    r.dataset_fingerprint = fingerprint;
    r.source_read_seconds = 0.5;
    if (adjust) adjust(r);
  });
}

const MetricComparison& Metric(const Comparison& c, const std::string& name) {
  for (const MetricComparison& m : c.metrics) {
    if (m.metric == name) return m;
  }
  FAIL("no metric " << name);
  return c.metrics.front();
}

TEST_CASE("CompareRuns: a slower B regresses, a faster B improves, the same runs do not change") {
  testing::TempDir dir;
  std::mt19937_64 rng(3);
  std::normal_distribution<double> jitter(0, 0.01);
  std::vector<std::string> a, slower, faster, same;
  for (int i = 0; i < 10; ++i) {
    const double j = 1 + jitter(rng);
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10 * j, 500 * j));
    slower.push_back(WriteRun(dir.path(), "s" + std::to_string(i), 10 * j, 600 * (1 + jitter(rng))));
    faster.push_back(WriteRun(dir.path(), "f" + std::to_string(i), 8 * (1 + jitter(rng)), 500 * j));
    same.push_back(
        WriteRun(dir.path(), "x" + std::to_string(i), 10 * (1 + jitter(rng)), 500 * (1 + jitter(rng))));
  }
  CompareOptions by_product;
  by_product.primary_metric = "upsert_mean_us:Product";
  auto regressed = CompareRuns(a, slower, {}, by_product);
  REQUIRE_OK(regressed);
  const MetricComparison& product = Metric(*regressed, "upsert_mean_us:Product");
  CHECK(product.primary);
  CHECK(product.verdict == Verdict::kRegressed);
  CHECK(product.ratio == doctest::Approx(1.2).epsilon(0.03));
  CHECK(product.ratio_ci.low < 1.2);
  CHECK(product.ratio_ci.high > 1.2);
  CHECK(product.p_value < 0.001);
  CHECK(product.p_adjusted == product.p_value);  // the primary metric is tested alone
  for (const MetricComparison& m : regressed->metrics) CHECK(m.p_adjusted >= m.p_value);
  CHECK(product.hodges_lehmann == doctest::Approx(100).epsilon(0.1));
  CHECK(Metric(*regressed, "upsert_median_us:Brand").verdict == Verdict::kNoChange);
  CHECK(regressed->ExitCode() == 3);
  CHECK(regressed->warnings.empty());
  const std::string text = RenderComparisonText(*regressed);
  CHECK(text.find("verdict: REGRESSED (exit 3): upsert_mean_us:Product, the primary metric") !=
        std::string::npos);
  CHECK(RenderComparisonJson(*regressed).find("\"schema\": \"warmup-compare/4\"") != std::string::npos);

  // Issue 50: the same runs with TOTAL as the primary metric (the default). Product's regression is
  // a secondary metric's: shown, Holm-adjusted over the secondaries, and it does not decide.
  auto by_total = CompareRuns(a, slower, {}, {});
  REQUIRE_OK(by_total);
  CHECK(Metric(*by_total, "total_seconds").primary);
  const MetricComparison& secondary = Metric(*by_total, "upsert_mean_us:Product");
  CHECK_FALSE(secondary.primary);
  CHECK(secondary.verdict == Verdict::kRegressed);
  // The secondary with the smallest p: Holm multiplies it by the number of secondaries.
  CHECK(secondary.p_adjusted == doctest::Approx(secondary.p_value * (by_total->metrics.size() - 1)));
  CHECK(by_total->ExitCode() == 0);
  const std::string total_text = RenderComparisonText(*by_total);
  CHECK(total_text.find(
            "secondary, not deciding: upsert_mean_us:Product regressed (to decide on it, declare it "
            "before the runs: --metric upsert_mean_us:Product)") != std::string::npos);
  CHECK(total_text.find("verdict: no regression (exit 0): total_seconds, the primary metric") !=
        std::string::npos);

  // A primary metric the runs do not have is refused, naming those they have.
  CompareOptions absent;
  absent.primary_metric = "server_peak_rss_bytes";
  const Status refused = CompareRuns(a, slower, {}, absent).status();
  CHECK(refused.code() == StatusCode::kInvalidArgument);
  CHECK(refused.message().starts_with(
      "the primary metric server_peak_rss_bytes is not among the metrics every run has: "));
  CHECK(refused.message().find("total_seconds") != std::string::npos);

  auto improved = CompareRuns(a, faster, {}, {});
  REQUIRE_OK(improved);
  CHECK(Metric(*improved, "total_seconds").verdict == Verdict::kImproved);
  CHECK(Metric(*improved, "net_load_seconds").verdict == Verdict::kImproved);
  CHECK(improved->ExitCode() == 0);

  auto unchanged = CompareRuns(a, same, {}, {});
  REQUIRE_OK(unchanged);
  for (const MetricComparison& m : unchanged->metrics)
    CHECK_MESSAGE(m.verdict == Verdict::kNoChange, m.metric);
  CHECK(unchanged->ExitCode() == 0);

  // A/A runs set the threshold: wide noise keeps a 20 % change from a verdict.
  std::vector<std::string> noisy;
  for (int i = 0; i < 8; ++i) {
    noisy.push_back(WriteRun(dir.path(), "n" + std::to_string(i), 10, i % 2 == 0 ? 400 : 650));
  }
  auto with_noise = CompareRuns(a, slower, noisy, {});
  REQUIRE_OK(with_noise);
  const MetricComparison& noisy_product = Metric(*with_noise, "upsert_mean_us:Product");
  CHECK(noisy_product.noise_source == "A/A runs (8)");
  CHECK(noisy_product.noise_threshold > 0.3);
  CHECK(noisy_product.verdict == Verdict::kNoChange);
}

TEST_CASE("CompareRuns refuses what cannot be compared, naming the file, and warns below 9 runs") {
  testing::TempDir dir;
  std::vector<std::string> a = {WriteRun(dir.path(), "a1", 10, 500), WriteRun(dir.path(), "a2", 10, 510)};
  std::vector<std::string> b = {WriteRun(dir.path(), "b1", 10, 500), WriteRun(dir.path(), "b2", 10, 505)};
  auto few = CompareRuns(a, b, {}, {});
  REQUIRE_OK(few);
  REQUIRE(few->warnings.size() == 1);
  CHECK(few->warnings[0].find("fewer than 9 runs per arm") == 0);

  CHECK(CompareRuns({a[0]}, b, {}, {}).status().message().find("each arm needs at least 2 runs") == 0);
  const std::string other = WriteRun(dir.path(), "other", 10, 500, "f2");
  auto different = CompareRuns(a, {b[0], other}, {}, {});
  CHECK(different.status().code() == StatusCode::kInvalidArgument);
  CHECK(different.status().message().find("other.json and ") != std::string::npos);
  CHECK(different.status().message().find("dataset f2 vs f1") != std::string::npos);
  CompareOptions force;
  force.force = true;
  auto forced = CompareRuns(a, {b[0], other}, {}, force);
  REQUIRE_OK(forced);
  CHECK(forced->warnings[0].find("--force") != std::string::npos);

  const std::string not_json = dir / "junk.json";
  std::ofstream(not_json) << "{ nope";
  CHECK(CompareRuns(a, {b[0], not_json}, {}, {}).status().message() == not_json + ": not JSON");
  CHECK(CompareRuns(a, {b[0], dir / "missing.json"}, {}, {}).status().code() == StatusCode::kNotFound);
}

TEST_CASE("warmup compare: exit 3 on a regression, 0 without, 1 on an error, and --json") {
  testing::TempDir dir;
  // 6 runs per arm, only Product's upserts differing: the primary metric is declared as Product's mean.
  std::vector<std::string> args = {"compare", "--metric", "upsert_mean_us:Product"};
  for (int i = 0; i < 6; ++i) {
    args.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10 + 0.01 * i, 500 + i));
  }
  args.push_back("--vs");
  std::vector<std::string> same = args;
  for (int i = 0; i < 6; ++i) {
    args.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10 + 0.01 * i, 700 + i));
    same.push_back(WriteRun(dir.path(), "c" + std::to_string(i), 10 + 0.01 * i, 501 + i));
  }
  const std::string json = dir / "cmp.json";
  args.insert(args.end(), {"--json", json});
  const testing::CliResult regressed = testing::RunCli(args);
  CHECK(regressed.exit_code == 3);
  CHECK(regressed.output.find("upsert_mean_us:Product") != std::string::npos);
  CHECK(regressed.output.find("regressed") != std::string::npos);
  CHECK(std::filesystem::file_size(json) > 0);
  CHECK(testing::RunCli(same).exit_code == 0);
  const testing::CliResult broken =
      testing::RunCli({"compare", "x.json", "y.json", "--vs", "z.json", "w.json"});
  CHECK(broken.exit_code == 1);
  CHECK(broken.output.find("x.json: cannot be read") != std::string::npos);
  CHECK(testing::RunCli({"compare", "--vs", "a.json"}).exit_code == 64);
  // Without --metric the primary is TOTAL, the same in both arms: Product's regression does not decide.
  std::vector<std::string> by_total = args;
  by_total.erase(by_total.begin() + 1, by_total.begin() + 3);
  const testing::CliResult secondary = testing::RunCli(by_total);
  CHECK_MESSAGE(secondary.exit_code == 0, secondary.output);
  CHECK(secondary.output.find("secondary, not deciding: upsert_mean_us:Product regressed") !=
        std::string::npos);
  const testing::CliResult unknown =
      testing::RunCli({"compare", "a.json", "--vs", "b.json", "--metric", "speed"});
  CHECK(unknown.exit_code == 64);
  CHECK(unknown.output.find("--metric speed is not a metric of a run report") != std::string::npos);
}

TEST_CASE("SmallestAttainableP: complete separation, by hand") {
  CHECK(SmallestAttainableP(2, 2) == doctest::Approx(2.0 / 6));               // C(4, 2) = 6 arrangements
  CHECK(SmallestAttainableP(4, 4) == doctest::Approx(2.0 / 70));              // C(8, 4) = 70
  CHECK(SmallestAttainableP(5, 5) == doctest::Approx(2.0 / 252));             // C(10, 5) = 252
  CHECK(SmallestAttainableP(9, 9) == doctest::Approx(2.0 / 48620).scale(0));  // C(18, 9) = 48,620
  CHECK(SmallestAttainableP(1, 1) == 1);                                      // 2 / C(2, 1) = 1
  // Beyond 20 a side, the normal approximation at U = 0: z = (312.5 - 0.5) / sqrt(625 * 51 / 12) = 6.05369.
  CHECK(SmallestAttainableP(25, 25) == doctest::Approx(1.41566e-9).epsilon(1e-4).scale(0));
  // It is what the test itself gives for separated samples.
  CHECK(SmallestAttainableP(4, 4) == doctest::Approx(MannWhitneyU({1, 2, 3, 4}, {5, 6, 7, 8}).p_value));
}

TEST_CASE("Student's t: tails and quantiles against closed forms and tables") {
  CHECK(StudentTTail(1, 1) == doctest::Approx(0.25));  // Cauchy: 1/2 - atan(1)/pi
  CHECK(StudentTTail(2, 2) ==
        doctest::Approx(0.5 - 2 / (2 * std::sqrt(6.0))));  // 1/2 - t / (2 sqrt(t^2 + 2))
  CHECK(StudentTTail(-2, 2) == doctest::Approx(0.5 + 2 / (2 * std::sqrt(6.0))));
  CHECK(StudentTTail(0, 5) == doctest::Approx(0.5));
  // Non-integer degrees of freedom (Welch's) lie between their neighbours.
  CHECK(StudentTTail(2, 1.5) < StudentTTail(2, 1));
  CHECK(StudentTTail(2, 1.5) > StudentTTail(2, 2));
  // df 2 in closed form: (2q - 1) sqrt(2 / (4 q (1 - q))); the others from the printed tables.
  CHECK(StudentTQuantile(0.975, 2) == doctest::Approx(4.302653));
  CHECK(StudentTQuantile(0.8, 2) == doctest::Approx(1.060660));
  CHECK(StudentTQuantile(0.975, 4) == doctest::Approx(2.776445));
  CHECK(StudentTQuantile(0.025, 4) == doctest::Approx(-2.776445));
  CHECK(StudentTQuantile(0.975, 10) == doctest::Approx(2.228139));
  CHECK(StudentTQuantile(0.95, 1) == doctest::Approx(6.313752));
  CHECK(StudentTQuantile(0.975, 1e7) == doctest::Approx(1.959964));
}

TEST_CASE("LogWelch, worked by hand: two runs a side whose logarithms differ by 1") {
  // ln a = {0, 0.2}, ln b = {1, 1.2}: means 0.1 and 1.1, variances 0.02 each, so the variance of
  // each mean is 0.01, SE = sqrt(0.02), df = 0.02^2 / (0.01^2 + 0.01^2) = 2, t = 1 / sqrt(0.02).
  const std::vector<double> a = {1, std::exp(0.2)}, b = {std::exp(1.0), std::exp(1.2)};
  const LogWelchResult r = LogWelch(a, b, {}, {}, 0.05);
  CHECK(r.spread_measured);
  CHECK(r.ratio == doctest::Approx(std::exp(1.0)));
  CHECK(r.standard_error == doctest::Approx(std::sqrt(0.02)));
  CHECK(r.df == doctest::Approx(2));
  CHECK(r.p_value == doctest::Approx(0.0194193));      // 2 (1/2 - t / (2 sqrt(t^2 + 2)))
  CHECK(r.ratio_ci.low == doctest::Approx(1.479217));  // exp(1 -+ 4.302653 SE)
  CHECK(r.ratio_ci.high == doctest::Approx(4.995248));
  CHECK(r.detectable_change == doctest::Approx(1.135043));  // exp((4.302653 + 1.060660) SE) - 1
  CHECK_FALSE(r.sampling_share_a.has_value());

  // Arm A's runs say their entities alone vary their means by 0.05 (in ln): more than the 0.02
  // between them, so 0.05 stands for A's spread: SE = sqrt(0.05 / 2 + 0.01), df = 0.035^2 /
  // (0.025^2 + 0.01^2).
  const LogWelchResult floored = LogWelch(a, b, {0.05, 0.05}, {}, 0.05);
  CHECK(floored.standard_error == doctest::Approx(std::sqrt(0.035)));
  CHECK(floored.df == doctest::Approx(0.035 * 0.035 / (0.025 * 0.025 + 0.01 * 0.01)));
  REQUIRE(floored.sampling_share_a.has_value());
  CHECK(*floored.sampling_share_a == 1);
  CHECK(floored.p_value > r.p_value);
  CHECK_FALSE(floored.sampling_share_b.has_value());

  // Every run of each arm the same and nothing said within them: no spread to test with.
  const LogWelchResult flat = LogWelch({2, 2}, {3, 3}, {}, {}, 0.05);
  CHECK_FALSE(flat.spread_measured);
  CHECK(flat.ratio == doctest::Approx(1.5));
}

TEST_CASE(
    "issue 50: 3 runs a side decide a 2x slowdown (exit 3) and an A/A pair (exit 0), by Welch's t on "
    "their logarithms") {
  testing::TempDir dir;
  const std::vector<double> jitter = {1.00, 1.03, 0.98};
  const std::vector<double> other_jitter = {1.01, 0.99, 1.02};
  std::vector<std::string> a, slower, same;
  for (size_t i = 0; i < jitter.size(); ++i) {
    const std::string n = std::to_string(i);
    a.push_back(WriteRun(dir.path(), "a" + n, 10 * jitter[i], 500 * jitter[i]));
    slower.push_back(WriteRun(dir.path(), "s" + n, 20 * other_jitter[i], 1000 * other_jitter[i]));
    same.push_back(WriteRun(dir.path(), "x" + n, 10 * other_jitter[i], 500 * other_jitter[i]));
  }
  auto regressed = CompareRuns(a, slower, {}, {});
  REQUIRE_OK(regressed);
  const MetricComparison& total = regressed->primary();
  CHECK(total.metric == "total_seconds");
  CHECK(total.test == RunsTest::kLogWelch);
  CHECK(total.decidable);
  CHECK(total.verdict == Verdict::kRegressed);
  CHECK(total.ratio_ci.low > 1.8);
  CHECK(total.ratio_ci.high < 2.2);
  CHECK(regressed->ExitCode() == kCompareRegression);
  const std::string text = RenderComparisonText(*regressed);
  CHECK(text.find(" log-t ") != std::string::npos);
  CHECK(text.find("fewer than 9 runs per arm (3 and 3): the verdicts rest on Welch's t test") !=
        std::string::npos);
  const auto doc = nlohmann::json::parse(RenderComparisonJson(*regressed));
  CHECK(doc["schema"] == "warmup-compare/4");
  CHECK(doc["test"] == "auto");
  for (const auto& metric : doc["metrics"]) {
    if (metric["metric"] != "total_seconds") continue;
    CHECK(metric["test"] == "log-welch");
    CHECK(metric["log_welch"]["df"].get<double>() > 1);
  }

  auto unchanged = CompareRuns(a, same, {}, {});
  REQUIRE_OK(unchanged);
  CHECK(unchanged->primary().verdict == Verdict::kNoChange);
  CHECK(unchanged->ExitCode() == kCompareNoRegression);
  // Not "no change shown absent": the sentence says how large a change the runs could have missed.
  const std::string sentence = VerdictSentence(*unchanged);
  CHECK(
      sentence.starts_with("no regression (exit 0): total_seconds, the primary metric; these runs find a "
                           "change of "));
  CHECK(sentence.ends_with(" % or more 4 times in 5, a smaller one may be there"));

  // The same 3 against 3 by the rank test, asked for: it cannot reach alpha (2/20 = 0.1).
  CompareOptions rank;
  rank.test = RunsTest::kRank;
  auto ranked = CompareRuns(a, slower, {}, rank);
  REQUIRE_OK(ranked);
  CHECK(ranked->primary().test == RunsTest::kRank);
  CHECK(ranked->ExitCode() == kCompareInconclusive);
}

TEST_CASE("within-run evidence: each run's entities floor its spread, read from the report's stddev_us") {
  testing::TempDir dir;
  // Every run of A has Product's mean at 500 us, every run of B at 505 us: between the runs, no
  // spread at all. Their 100 Products at a standard deviation of 250 us fix each mean only to
  // (250 / 500)^2 / 100 = 0.0025 in ln, and that is the spread the test must use.
  auto arm = [&](const std::string& prefix, double product_us, double stddev_us) {
    std::vector<std::string> files;
    files.reserve(3);
    for (int i = 0; i < 3; ++i) {
      files.push_back(WriteRun(dir.path(), prefix + std::to_string(i), 10 + 0.1 * i, product_us, "f1",
                               [&](RunResult& r) { r.collections[1].upsert.stddev_us = stddev_us; }));
    }
    return files;
  };
  auto record = ReadRunRecord(arm("one", 500, 250)[0]);
  REQUIRE_OK(record);
  const RunMetric& product = record->metrics.at("upsert_mean_us:Product");
  REQUIRE(product.within_run_log_variance.has_value());
  CHECK(*product.within_run_log_variance == doctest::Approx(0.0025));
  CHECK_FALSE(record->metrics.at("total_seconds").within_run_log_variance.has_value());

  CompareOptions by_product;
  by_product.primary_metric = "upsert_mean_us:Product";
  auto floored = CompareRuns(arm("a", 500, 250), arm("b", 505, 250), {}, by_product);
  REQUIRE_OK(floored);
  const MetricComparison& m = floored->primary();
  CHECK(m.decidable);
  CHECK(m.verdict == Verdict::kNoChange);  // 1 % against an SE of about sqrt(2 x 0.0025 / 3) = 4 %
  const double b_within = (250.0 / 505) * (250.0 / 505) / 100;
  CHECK(m.log_welch->standard_error == doctest::Approx(std::sqrt((0.0025 + b_within) / 3)));
  CHECK(*m.log_welch->sampling_share_a == 1);
  CHECK(RenderComparisonText(*floored).find("the runs' own entities account for 100 % in A 100 % in B: more "
                                            "entities per run") != std::string::npos);

  // Without the deviation (a report that said none, or entities all alike): no spread was
  // measured, and the comparison says so instead of deciding on a zero standard error.
  auto flat = CompareRuns(arm("c", 500, 0), arm("d", 505, 0), {}, by_product);
  REQUIRE_OK(flat);
  CHECK(flat->primary().verdict == Verdict::kInconclusive);
  CHECK(VerdictSentence(*flat).find("no spread was measured") != std::string::npos);
}

TEST_CASE(
    "regression: 2 runs against 2 read 'no change' on every metric and 'no regression (exit 0)', now "
    "inconclusive, exit 4, detect n/a") {
  testing::TempDir dir;
  // B is five times slower on every run: data can show nothing more clearly, and 2 against 2 still
  // cannot reach alpha (smallest p 1/3, before Holm).
  std::vector<std::string> a = {WriteRun(dir.path(), "a1", 10, 500), WriteRun(dir.path(), "a2", 10.1, 505)};
  std::vector<std::string> b = {WriteRun(dir.path(), "b1", 50, 2500), WriteRun(dir.path(), "b2", 51, 2520)};
  CompareOptions rank;  // the rank test, asked for: Welch's t on the logarithms decides these (below)
  rank.test = RunsTest::kRank;
  auto comparison = CompareRuns(a, b, {}, rank);
  REQUIRE_OK(comparison);
  for (const MetricComparison& m : comparison->metrics) {
    CAPTURE(m.metric);
    CHECK(m.verdict == Verdict::kInconclusive);
    CHECK_FALSE(m.decidable);
  }
  CHECK(comparison->ExitCode() == kCompareInconclusive);
  CHECK(kCompareInconclusive == 4);
  const std::string text = RenderComparisonText(*comparison);
  CHECK(text.find("verdict: INCONCLUSIVE (exit 4)") != std::string::npos);
  CHECK(text.find("no regression") == std::string::npos);
  CHECK(text.find("     n/a ") != std::string::npos);
  CHECK(text.find("n/a%") == std::string::npos);
  const std::string json = RenderComparisonJson(*comparison);
  CHECK(json.find("\"detectable_change\": null") != std::string::npos);
  CHECK(json.find("\"verdict\": \"inconclusive\"") != std::string::npos);
}

TEST_CASE(
    "inconclusive: the primary metric alone reaches alpha from 4 runs a side, a secondary by Holm's factor "
    "from 5") {
  // Six metrics (TOTAL, net load, goLive, Product's mean, the medians of Brand and Product), the
  // primary Product's mean: tested alone, 2/70 = 0.029 < 0.05 with 4 a side, but 2/20 = 0.1 with 3.
  // The five secondaries: 5 x 2/252 = 0.040 < 0.05 with 5 a side, but 5 x 2/70 = 0.14 with 4.
  testing::TempDir dir;
  CompareOptions by_product;
  by_product.primary_metric = "upsert_mean_us:Product";
  by_product.test = RunsTest::kRank;
  auto arms = [&](int n, const std::string& prefix) {
    std::vector<std::string> a, b;
    for (int i = 0; i < n; ++i) {
      a.push_back(WriteRun(dir.path(), prefix + "a" + std::to_string(i), 10 + 0.01 * i, 500 + i));
      b.push_back(WriteRun(dir.path(), prefix + "b" + std::to_string(i), 10 + 0.01 * i, 800 + i));
    }
    return CompareRuns(a, b, {}, by_product);
  };
  auto five = arms(5, "five");
  REQUIRE_OK(five);
  REQUIRE(five->metrics.size() == 6);
  CHECK(Metric(*five, "upsert_mean_us:Product").verdict == Verdict::kRegressed);
  CHECK(Metric(*five, "upsert_median_us:Product").verdict == Verdict::kRegressed);
  CHECK(Metric(*five, "upsert_median_us:Brand").verdict == Verdict::kNoChange);
  CHECK(five->ExitCode() == kCompareRegression);
  auto four = arms(4, "four");
  REQUIRE_OK(four);
  CHECK(Metric(*four, "upsert_mean_us:Product").verdict == Verdict::kRegressed);
  CHECK(Metric(*four, "upsert_median_us:Product").verdict == Verdict::kInconclusive);
  CHECK(four->ExitCode() == kCompareRegression);  // the secondary's inconclusive does not decide
  auto three = arms(3, "three");
  REQUIRE_OK(three);
  CHECK(Metric(*three, "upsert_mean_us:Product").verdict == Verdict::kInconclusive);
  CHECK(three->ExitCode() == kCompareInconclusive);
  CHECK(RenderComparisonText(*three).find("verdict: INCONCLUSIVE (exit 4): with 3 and 3 runs no p value of "
                                          "the rank test of upsert_mean_us:Product, the primary metric, can "
                                          "reach alpha") != std::string::npos);
}

TEST_CASE("regression: compare counted one report given twice, or copied, as independent runs") {
  testing::TempDir dir;
  std::vector<std::string> a, b;
  for (int i = 0; i < 3; ++i) {
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10, 500 + i));
    b.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10, 700 + i));
  }
  // The same path twice.
  auto twice = CompareRuns({a[0], a[0], a[1]}, b, {}, {});
  CHECK(twice.status().code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(
      twice.status().message() == a[0] + " and " + a[0] + " are the same file: a run counts once, in one arm",
      twice.status().message());
  // A copy under another name: the same run (label, start, host, pid).
  const std::string copy = dir / "copy-of-a1.json";
  std::filesystem::copy_file(a[1], copy);
  auto copied = CompareRuns({a[0], a[1], copy}, b, {}, {});
  CHECK(copied.status().code() == StatusCode::kInvalidArgument);
  CHECK(copied.status().message().find(a[1] + " and " + copy + " are the same run (a1, ") == 0);
  // The same runs in both arms.
  auto both = CompareRuns(a, {b[0], a[2]}, {}, {});
  CHECK(both.status().message().find(" are the same file") != std::string::npos);
  // And a path that names the same file another way.
  auto spelled = CompareRuns({a[0], dir / "./a0.json"}, b, {}, {});
  CHECK(spelled.status().message().find(" are the same file") != std::string::npos);
}

TEST_CASE(
    "regression: compare set runs of other storage settings or target kinds against each other without a "
    "word, and --force says what it overrode") {
  testing::TempDir dir;
  std::vector<std::string> a, b, zstd, remote;
  for (int i = 0; i < 3; ++i) {
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10, 500 + i));
    b.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10, 500 + i));
    zstd.push_back(WriteRun(dir.path(), "z" + std::to_string(i), 10, 500 + i, "f1", [](RunResult& r) {
      r.config.records = RecordStorage{RecordCompression::kZstd, RecordWrites::kInline};
    }));
    remote.push_back(WriteRun(dir.path(), "r" + std::to_string(i), 10, 500 + i, "f1",
                              [](RunResult& r) { r.config.target_kind = "remote"; }));
  }
  auto compression = CompareRuns(a, zstd, {}, {});
  CHECK(compression.status().code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(compression.status().message().find("measured different things (compression zstd vs none)") !=
                    std::string::npos,
                compression.status().message());
  auto kind = CompareRuns(a, remote, {}, {});
  CHECK(kind.status().message().find("(target kind remote vs embedded)") != std::string::npos);
  auto capped = CompareRuns(a,
                            {b[0], WriteRun(dir.path(), "capped", 10, 500, "f1",
                                            [](RunResult& r) { r.config.max_per_collection = 10; })},
                            {}, {});
  CHECK(capped.status().message().find("(max per collection 10 vs 0)") != std::string::npos);
  // A run whose source was read ahead on a second thread overlapped its
  // decoding with the upserts: its wall-clock is not the inline runs'.
  auto read_ahead = CompareRuns(a,
                                {b[0], WriteRun(dir.path(), "ahead", 10, 500, "f1",
                                                [](RunResult& r) { r.config.source_read_ahead = true; })},
                                {}, {});
  CHECK(read_ahead.status().message().find("(source read ahead, on a second thread vs inline)") !=
        std::string::npos);
  // A run whose records were written on a second thread left that work out
  // of its upserts: not the inline runs' upsert times.
  auto background = CompareRuns(
      a,
      {b[0], WriteRun(dir.path(), "background", 10, 500, "f1",
                      [](RunResult& r) {
                        r.config.records = RecordStorage{RecordCompression::kNone, RecordWrites::kBackground};
                      })},
      {}, {});
  CHECK(background.status().message().find("(record writes background vs inline)") != std::string::npos);
  // A report written before the field existed read its source inline, and
  // compares with an inline run as it did.
  const std::string older = WriteRun(dir.path(), "older", 10, 500);
  {
    nlohmann::json doc = nlohmann::json::parse(std::ifstream(older));
    REQUIRE(doc["config"].erase("source_read_ahead") == 1);
    REQUIRE(doc["config"].erase("record_writes") == 1);  // it wrote its records inline too
    std::ofstream(older) << doc.dump();
  }
  REQUIRE_OK(CompareRuns(a, {b[0], older}, {}, {}));
  CompareOptions force;
  force.force = true;
  auto forced = CompareRuns(a, zstd, {}, force);
  REQUIRE_OK(forced);
  const std::string text = RenderComparisonText(*forced);
  CHECK(text.find("WARNING: --force overrode: " + zstd[0] + " differs from " + a[0] +
                  ": compression zstd vs none") != std::string::npos);
  CHECK(text.find("compression: none (in " + a[0] + "; runs differ)") != std::string::npos);
  // What may differ, and is what a comparison is for, is shown per arm.
  auto servers = CompareRuns(a,
                             {WriteRun(dir.path(), "s1", 10, 500, "f1",
                                       [](RunResult& r) {
                                         r.config.server_binary = "/builds/b/warmup";
                                         r.config.server_xmx = "8g";
                                       }),
                              WriteRun(dir.path(), "s2", 10, 500, "f1",
                                       [](RunResult& r) {
                                         r.config.server_binary = "/builds/b/warmup";
                                         r.config.server_xmx = "8g";
                                       })},
                             {}, {});
  REQUIRE_OK(servers);
  CHECK(servers->arm_b.servers == std::vector<std::string>{"/builds/b/warmup, heap 8g"});
  CHECK(RenderComparisonText(*servers).find("  B:\n    server: /builds/b/warmup, heap 8g\n") !=
        std::string::npos);
}

TEST_CASE("regression: a collection of one entity was a compare metric, its median the cold first upsert") {
  testing::TempDir dir;
  auto with_single = [](RunResult& r) {
    CollectionResult one;
    one.entity_type = "AdjustedPricePolicy";
    one.source_count = one.expected_count = one.copied = one.target_count.emplace(1);
    one.upsert.count = 1;
    one.upsert.median_us = one.upsert.mean_us = 737;
    r.collections.insert(r.collections.begin(), one);
  };
  std::vector<std::string> a, b;
  for (int i = 0; i < 3; ++i) {
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10, 500, "f1", with_single));
    b.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10, 500, "f1", with_single));
  }
  auto comparison = CompareRuns(a, b, {}, {});
  REQUIRE_OK(comparison);
  for (const MetricComparison& m : comparison->metrics)
    CHECK(m.metric != "upsert_median_us:AdjustedPricePolicy");
  CHECK(comparison->small_collections == std::vector<std::string>{"AdjustedPricePolicy"});
  CHECK(RenderComparisonText(*comparison).find("not compared: the medians of AdjustedPricePolicy") !=
        std::string::npos);
  // The threshold is an option; Brand and Product (100 entities) stay compared below it.
  CompareOptions lower;
  lower.min_collection_count = 1;
  auto all = CompareRuns(a, b, {}, lower);
  REQUIRE_OK(all);
  CHECK(Metric(*all, "upsert_median_us:AdjustedPricePolicy").a.size() == 3);
}

// |x / expected - 1|: doctest::Approx adds a scale of 1 to its tolerance, so
// that it cannot tell p values of 1e-5 and below apart.
double RelativeError(double x, double expected) { return std::abs(x / expected - 1); }

TEST_CASE("Mann-Whitney U: exact up to 20 runs a side, the normal approximation from 21") {
  std::vector<double> low, high;
  for (int i = 1; i <= 20; ++i) {
    low.push_back(i);
    high.push_back(100 + i);
  }
  // 20 against 20, completely apart: U = 0, and of the C(40, 20) = 137,846,528,820 arrangements one
  // is as extreme on each side: p = 2 / 137,846,528,820 = 1.45088891e-11.
  const MannWhitneyResult exact = MannWhitneyU(low, high);
  CHECK(exact.exact);
  CHECK(exact.u == 0);
  CHECK(RelativeError(exact.p_value, 2.0 / 137'846'528'820.0) < 1e-6);
  CHECK(RelativeError(SmallestAttainableP(20, 20), 2.0 / 137'846'528'820.0) < 1e-6);
  // 21 against 20: U = 0, mn = 420, mu = 210, var = 420 x 42 / 12 = 1470 (no ties);
  // z = (210 - 0.5) / sqrt(1470) = 209.5 / 38.3405790 = 5.46418456, p = erfc(z / sqrt 2) = 4.65039509e-8.
  low.push_back(21);
  const MannWhitneyResult normal = MannWhitneyU(low, high);
  CHECK_FALSE(normal.exact);
  CHECK(normal.u == 0);
  CHECK(RelativeError(normal.p_value, 4.65039509e-8) < 1e-6);
  CHECK_FALSE(MannWhitneyU(high, low).exact);  // 20 against 21 too
  CHECK(RelativeError(SmallestAttainableP(21, 20), 4.65039509e-8) < 1e-6);
}

TEST_CASE(
    "the detectable change, worked by hand: z values, the MAD as a deviation, the rank test's efficiency") {
  // a = 96 98 100 103 110: median 100; |x - 100| = 4 2 0 3 10, sorted 0 2 3 4 10: MAD 3.
  // (1.959964 + 0.841621) x 1.4826 x 3 = 12.4608898; x sqrt(1/5 + 1/7) = x 0.58554004 = 7.29634994;
  // / sqrt(3 / pi) = / 0.97720502 = 7.46654976; / |100| = 0.0746654976.
  const std::vector<double> a = {110, 96, 103, 100, 98};
  CHECK(RelativeError(DetectableChange(a, 7), 0.0746654976) < 1e-6);
  // The median's sign does not matter (|median|): the same spread around -100.
  CHECK(RelativeError(DetectableChange({-110, -96, -103, -100, -98}, 7), 0.0746654976) < 1e-6);
  // Another n: sqrt(1/5 + 1/5) = 0.63245553 instead of 0.58554004.
  CHECK(RelativeError(DetectableChange(a, 5), 0.0746654976 * 0.63245553 / 0.58554004) < 1e-6);
}

TEST_CASE(
    "Holm's adjustment decides the verdict: a raw p below alpha whose adjusted p is not gives no change, "
    "and a looser alpha gives the verdict") {
  testing::TempDir dir;
  // Five runs a side; only Product's upserts differ (its mean and its median, both the values
  // below); TOTAL, net load, goLive and Brand's median are equal in every run (p = 1).
  // A 100 101 102 103 151 against B 150 200 201 202 203: one pair out of order (151 > 150), U = 1.
  // m = n = 5: U = 0 and U = 1 each occur once in C(10, 5) = 252 arrangements, so
  // p = 2 x (1 + 1) / 252 = 4/252 = 0.0159 for both Product metrics: below 5 %.
  // TOTAL is the primary metric (the default), equal everywhere; the five others are secondary.
  // Holm over 5 secondaries: 5 x 4/252 = 20/252 = 0.0794 for the smaller (and, never below it, the tie).
  const std::vector<double> a_us = {100, 101, 102, 103, 151};
  const std::vector<double> b_us = {150, 200, 201, 202, 203};
  std::vector<std::string> a, b;
  for (size_t i = 0; i < 5; ++i) {
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10, a_us[i]));
    b.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10, b_us[i]));
  }
  // The interval: a resampled median of 5 is the top (bottom) value only when 3 of the 5 draws are
  // it, P = 0.0579; the ratio is below 200/151 = 1.3245 only when A's is 151 and B's 150 at once,
  // P = 0.0579^2 = 0.0034 < 0.025 (< 0.05 for alpha 0.1's 90 %). So the interval lies above 1.3245, beyond 1
  // + the 2 % noise: the interval alone would make a verdict.
  for (double alpha : {0.05, 0.1}) {
    CAPTURE(alpha);
    CompareOptions options;
    options.alpha = alpha;
    options.test = RunsTest::kRank;  // the rank test's arithmetic, asked for below 9 runs
    auto c = CompareRuns(a, b, {}, options);
    REQUIRE_OK(c);
    REQUIRE(c->metrics.size() == 6);
    for (const char* name : {"upsert_mean_us:Product", "upsert_median_us:Product"}) {
      CAPTURE(name);
      const MetricComparison& m = Metric(*c, name);
      CHECK(m.rank_test.exact);
      CHECK(m.rank_test.u == 1);
      CHECK(m.rank_test.p_value == doctest::Approx(4.0 / 252).epsilon(1e-9));
      CHECK(m.p_adjusted == doctest::Approx(20.0 / 252).epsilon(1e-9));
      CHECK(m.decidable);  // 5 x 2/252 = 0.040 < 0.05: 5 runs a side can decide
      CHECK(m.ratio_ci.low >= 200.0 / 151);
      // 0.0794 >= 0.05: no change, though the raw p and the interval both say otherwise; 0.0794 < 0.1.
      CHECK(m.verdict == (alpha == 0.05 ? Verdict::kNoChange : Verdict::kRegressed));
    }
    CHECK(c->ExitCode() == kCompareNoRegression);  // secondaries never decide
    // Declared primary, Product's mean is tested alone: 4/252 = 0.0159 < 0.05 at either alpha.
    options.primary_metric = "upsert_mean_us:Product";
    auto declared = CompareRuns(a, b, {}, options);
    REQUIRE_OK(declared);
    CHECK(Metric(*declared, "upsert_mean_us:Product").p_adjusted == doctest::Approx(4.0 / 252).epsilon(1e-9));
    CHECK(declared->ExitCode() == kCompareRegression);
  }
}

TEST_CASE(
    "A/A noise: the threshold is how far the A/A halves' bootstrap interval reaches from 1, worked by hand") {
  testing::TempDir dir;
  // Eight A/A runs, interleaved into halves x (runs 0 2 4 6) and y (runs 1 3 5 7), by Product's
  // upsert: x = 490 510 490 510, y = 600 660 600 660.
  // A resampled median of 4 (the mean of the middle two) of x is 490 when 3 or 4 draws are 490
  // (P = 5/16), 500 when 2 are (6/16), 510 otherwise (5/16); y's is 600, 630 or 660 likewise.
  // The lowest ratio, 600/510 (A's half at its highest, the other at its lowest), has
  // P = (5/16)^2 = 0.098 > 0.025, and so does the highest, 660/490: the 95 % interval is exactly
  // [600/510, 660/490] = [1.1765, 1.3469], and the threshold max(|low - 1|, |high - 1|) = 660/490 - 1
  // = 17/49 = 0.346939 (|low - 1| alone would be 3/17 = 0.1765; the halves' ratio taken the
  // other way round, max(1 - 490/660, 1 - 510/600) = 0.2576).
  const std::vector<double> aa_us = {490, 600, 510, 660, 490, 600, 510, 660};
  std::vector<std::string> noise;
  for (size_t i = 0; i < aa_us.size(); ++i) {
    noise.push_back(WriteRun(dir.path(), "n" + std::to_string(i), 10, aa_us[i]));
  }
  // A at 500..508; B 1.28 to 1.32 times slower (within the noise), C 1.48 to 1.52 (beyond it).
  std::vector<std::string> a, within, beyond;
  for (int i = 0; i < 9; ++i) {
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10, 500 + i));
    within.push_back(WriteRun(dir.path(), "w" + std::to_string(i), 10, 650 + i));
    beyond.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10, 750 + i));
  }
  auto noisy = CompareRuns(a, within, noise, {});
  REQUIRE_OK(noisy);
  for (const char* name : {"upsert_mean_us:Product", "upsert_median_us:Product"}) {
    CAPTURE(name);
    const MetricComparison& m = Metric(*noisy, name);
    CHECK(m.noise_source == "A/A runs (8)");
    CHECK(m.noise_threshold == doctest::Approx(17.0 / 49).epsilon(1e-12));
    // 9 against 9 apart: p 2/48620, x 6 after Holm = 2.5e-4; the interval lies within
    // [650/508, 658/500] = [1.280, 1.316], inside 1 + 0.347: no change.
    CHECK(m.p_adjusted < 0.001);
    CHECK(m.ratio_ci.high <= 658.0 / 500);
    CHECK(m.verdict == Verdict::kNoChange);
  }
  // The A/A runs are equal in TOTAL: an interval [1, 1], no noise at all.
  CHECK(Metric(*noisy, "total_seconds").noise_threshold == 0);
  // Without the A/A runs the 2 % default lets the same change through.
  auto plain = CompareRuns(a, within, {}, {});
  REQUIRE_OK(plain);
  CHECK(Metric(*plain, "upsert_mean_us:Product").noise_source == "default");
  CHECK(Metric(*plain, "upsert_mean_us:Product").verdict == Verdict::kRegressed);
  // Beyond the noise: the interval within [750/508, 758/500] = [1.476, 1.516] clears 1.347.
  auto clear = CompareRuns(a, beyond, noise, {});
  REQUIRE_OK(clear);
  CHECK(Metric(*clear, "upsert_mean_us:Product").verdict == Verdict::kRegressed);
}

// Rewrites the JSON report at `path` through `edit`.
void EditRun(const std::string& path, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(path));
  edit(doc);
  std::ofstream(path, std::ios::trunc) << doc.dump(2);
}

// A report as warmup-run/5 or /6 wrote it: without what version 7 added.
void MakeOlderSchema(const std::string& path, const std::string& schema) {
  EditRun(path, [&](nlohmann::json& doc) {
    doc["schema"] = schema;
    for (const char* field :
         {"config", "loader_pid", "first_upsert", "notes", "output_error", "verdict", "caveats"}) {
      REQUIRE(doc.contains(field));
      doc.erase(field);
    }
    for (nlohmann::json& c : doc["collections"]) c.erase("reached");
  });
}

TEST_CASE("CompareRuns refuses failed runs and runs of other hosts, naming the files") {
  testing::TempDir dir;
  std::vector<std::string> a, b;
  for (int i = 0; i < 3; ++i) {
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10, 500 + i));
    b.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10, 500 + i));
  }
  // Counts that differ fail a run (exit 1): its figures are of a short copy.
  const std::string failed = WriteRun(dir.path(), "failed", 10, 500, "f1",
                                      [](RunResult& r) { r.verification = Verification::kMismatch; });
  // In either arm, and among the A/A runs.
  const std::vector<std::string> noise = {WriteRun(dir.path(), "n0", 10, 500),
                                          WriteRun(dir.path(), "n1", 10, 500),
                                          WriteRun(dir.path(), "n2", 10, 500), failed};
  for (const auto& c : {CompareRuns({a[0], failed}, b, {}, {}), CompareRuns(a, {b[0], failed}, {}, {}),
                        CompareRuns(a, b, noise, {})}) {
    CHECK(c.status().code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(c.status().message().find(failed + ": the run failed (exit 1: mismatch)") == 0,
                  c.status().message());
  }
  REQUIRE_OK(CompareRuns(a, b, {}, {}));
  // Hostname, CPU model and cores each make another host.
  const std::vector<std::pair<std::function<void(RunResult&)>, std::string>> hosts = {
      {[](RunResult& r) { r.environment.hostname = "elsewhere"; }, "host elsewhere, cpu, 2 cores"},
      {[](RunResult& r) { r.environment.cpu_model = "other cpu"; }, "host host, other cpu, 2 cores"},
      {[](RunResult& r) { r.environment.cores = 4; }, "host host, cpu, 4 cores"}};
  int refused = 0;
  for (size_t i = 0; i < hosts.size(); ++i) {
    const std::string other = WriteRun(dir.path(), "h" + std::to_string(i), 10, 500, "f1", hosts[i].first);
    auto c = CompareRuns(a, {b[0], other}, {}, {});
    CAPTURE(c.status().message());
    CHECK(c.status().code() == StatusCode::kInvalidArgument);
    CHECK(c.status().message() == other + " and " + a[0] + " measured different things (" + hosts[i].second +
                                      " vs host, cpu, 2 cores); --force compares them anyway");
    CompareOptions force;
    force.force = true;
    CHECK(CompareRuns(a, {b[0], other}, {}, force).ok());
    ++refused;
  }
  CHECK(refused == 3);
}

TEST_CASE(
    "CompareRuns reads warmup-run/5 and /6 reports (with a warning), never against /7, and refuses other "
    "schemas") {
  testing::TempDir dir;
  std::vector<std::string> v5, v6, v7;
  for (int i = 0; i < 3; ++i) {
    v5.push_back(WriteRun(dir.path(), "five" + std::to_string(i), 10, 500 + i));
    MakeOlderSchema(v5.back(), "warmup-run/5");
    v6.push_back(WriteRun(dir.path(), "six" + std::to_string(i), 10, 600 + 2 * i));
    MakeOlderSchema(v6.back(), "warmup-run/6");
    v7.push_back(WriteRun(dir.path(), "seven" + std::to_string(i), 10, 500 + i));
  }
  auto older = CompareRuns(v5, v6, {}, {});
  REQUIRE_OK(older);
  CHECK(Metric(*older, "upsert_mean_us:Product").median_a == 501);
  CHECK(Metric(*older, "upsert_mean_us:Product").median_b == 602);
  CHECK(older->warnings.front().find(v5[0] + " is warmup-run/5, which recorded no configuration") == 0);
  REQUIRE_OK(CompareRuns(v6, v5, {}, {}));
  // A report that records its configuration is not compared with one that did not.
  auto mixed = CompareRuns(v7, v5, {}, {});
  CHECK(mixed.status().code() == StatusCode::kInvalidArgument);
  CHECK(mixed.status().message().find("measured different things") != std::string::npos);
  int refused = 0;
  for (const std::string schema : {"warmup-run/4", "warmup-run/10", "warmup-compare/2", ""}) {
    CAPTURE(schema);
    const std::string other = WriteRun(dir.path(), "schema" + std::to_string(refused), 10, 500);
    EditRun(other, [&](nlohmann::json& doc) {
      if (schema.empty()) {
        doc.erase("schema");
      } else {
        doc["schema"] = schema;
      }
    });
    auto c = CompareRuns({v7[0], v7[1]}, {v7[2], other}, {}, {});
    CHECK(c.status().code() == StatusCode::kInvalidArgument);
    CHECK(c.status().message() == other + ": not a run report (schema warmup-run/9, 8, 7, 6 or 5), but " +
                                      (schema.empty() ? "no schema" : schema));
    ++refused;
  }
  CHECK(refused == 4);
}

TEST_CASE(
    "CompareRuns: A/A noise needs 4 runs, a metric some run lacks is not compared, nor one whose median "
    "in A is 0") {
  testing::TempDir dir;
  std::vector<std::string> a, b, noise;
  const std::vector<double> a_golive = {0, 0.2, 0};  // median 0
  for (int i = 0; i < 3; ++i) {
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10, 500 + i, "f1",
                         [&](RunResult& r) { r.golive_seconds = a_golive[static_cast<size_t>(i)]; }));
    b.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10, 500 + i));
  }
  for (int i = 0; i < 4; ++i) noise.push_back(WriteRun(dir.path(), "n" + std::to_string(i), 10, 500 + i));
  auto three = CompareRuns(a, b, {noise[0], noise[1], noise[2]}, {});
  CHECK(three.status().code() == StatusCode::kInvalidArgument);
  CHECK(three.status().message() == "A/A noise needs at least 4 runs (split into two halves), not 3");
  auto four = CompareRuns(a, b, noise, {});
  REQUIRE_OK(four);
  CHECK(Metric(*four, "upsert_mean_us:Product").noise_source == "A/A runs (4)");
  // goLive's median in A is 0: no ratio to take; the other five are compared.
  std::set<std::string> names;
  for (const MetricComparison& m : four->metrics) names.insert(m.metric);
  CHECK(names == std::set<std::string>{"net_load_seconds", "total_seconds", "upsert_mean_us:Product",
                                       "upsert_median_us:Brand", "upsert_median_us:Product"});
  // One run of B without a TOTAL (null in its report): TOTAL is left out, the rest compared; with
  // TOTAL the primary metric (the default), there is nothing to decide on, and that is refused.
  EditRun(b[1], [](nlohmann::json& doc) { doc["total_seconds"] = nullptr; });
  CHECK(CompareRuns(a, b, {}, {})
            .status()
            .message()
            .starts_with("the primary metric total_seconds is not among"));
  CompareOptions by_product;
  by_product.primary_metric = "upsert_mean_us:Product";
  auto lacking = CompareRuns(a, b, {}, by_product);
  REQUIRE_OK(lacking);
  names.clear();
  for (const MetricComparison& m : lacking->metrics) names.insert(m.metric);
  CHECK(names == std::set<std::string>{"net_load_seconds", "upsert_mean_us:Product", "upsert_median_us:Brand",
                                       "upsert_median_us:Product"});
}

TEST_CASE("CompareRuns: the server's CPU per entity and peak RSS, from runs that measured a server") {
  testing::TempDir dir;
  // Each run copies 100 Brand + 100 Product = 200 entities.
  // A: (user + system) = 0.10 + 0.02, 0.11 + 0.02, 0.12 + 0.02 s -> x 1e6 / 200 = 600, 650, 700 us/entity;
  // B: 0.20 + 0.04, 0.21 + 0.04, 0.22 + 0.04 s -> 1200, 1250, 1300. Peak RSS A 100, 120, 110 MB; B 200,
  // 190, 210 MB.
  auto server = [](double user, double system, int64_t rss) {
    return [=](RunResult& r) {
      ServerFigures& s = r.server_process.emplace();
      s.binary = "/builds/warmup";
      s.usage.user_seconds = user;
      s.usage.system_seconds = system;
      s.usage.peak_rss_bytes = rss;
    };
  };
  constexpr int64_t kMB = 1'000'000;
  std::vector<std::string> a, b;
  for (int i = 0; i < 3; ++i) {
    const int64_t a_rss[] = {100 * kMB, 120 * kMB, 110 * kMB};
    const int64_t b_rss[] = {200 * kMB, 190 * kMB, 210 * kMB};
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10, 500, "f1",
                         server(0.10 + 0.01 * i, 0.02, a_rss[i])));
    b.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10, 500, "f1",
                         server(0.20 + 0.01 * i, 0.04, b_rss[i])));
  }
  auto c = CompareRuns(a, b, {}, {});
  REQUIRE_OK(c);
  const MetricComparison& cpu = Metric(*c, "server_cpu_us_per_entity");
  CHECK(cpu.unit == "us/entity");
  REQUIRE(cpu.a.size() == 3);
  CHECK(cpu.a[0] == doctest::Approx(600).epsilon(1e-9));
  CHECK(cpu.a[2] == doctest::Approx(700).epsilon(1e-9));
  CHECK(cpu.median_a == doctest::Approx(650).epsilon(1e-9));
  CHECK(cpu.median_b == doctest::Approx(1250).epsilon(1e-9));
  const MetricComparison& rss = Metric(*c, "server_peak_rss_bytes");
  CHECK(rss.unit == "bytes");
  CHECK(rss.median_a == 110 * kMB);
  CHECK(rss.median_b == 200 * kMB);
  // Runs without a server have neither.
  auto none = CompareRuns({WriteRun(dir.path(), "x1", 10, 500), WriteRun(dir.path(), "x2", 10, 500)},
                          {WriteRun(dir.path(), "y1", 10, 500), WriteRun(dir.path(), "y2", 10, 500)}, {}, {});
  REQUIRE_OK(none);
  for (const MetricComparison& m : none->metrics) CHECK(m.metric.rfind("server_", 0) != 0);
}

// Issue 50: arms run at host load averages of ~5 and ~3, every report
// recording it and the comparison never showing it.
TEST_CASE("CompareRuns shows the host load under each arm, and warns when the arms ran on a busier machine") {
  testing::TempDir dir;
  auto arm = [&](const std::string& prefix, std::vector<double> loads, double steal) {
    std::vector<std::string> files;
    for (size_t i = 0; i < loads.size(); ++i) {
      files.push_back(WriteRun(dir.path(), prefix + std::to_string(i), 10, 500, "f1", [&](RunResult& r) {
        r.environment.at_start.load_average_1m = loads[i];
        r.environment.at_start.cpu_ticks = 1000;
        r.environment.at_end.cpu_ticks = 2000;
        r.environment.at_end.steal_ticks = static_cast<int64_t>(steal * 1000);
      }));
    }
    return files;
  };
  const auto quiet = arm("q", {3.1, 2.9, 3.0}, 0);
  auto busy = CompareRuns(quiet, arm("b", {5.2, 4.8, 5.0}, 0), {}, {});
  REQUIRE_OK(busy);
  CHECK(busy->arm_a.load_averages == std::vector<double>{3.1, 2.9, 3.0});
  CHECK(busy->arm_b.load_averages == std::vector<double>{5.2, 4.8, 5.0});
  // Medians 3.0 and 5.0 differ by 2.0, more than half of the 2 cores.
  bool warned = false;
  for (const std::string& w : busy->warnings) {
    warned = warned || (w.find("different host load") != std::string::npos &&
                        w.find("median A 3.00, B 5.00, on 2 cores") != std::string::npos);
  }
  CHECK_MESSAGE(warned, RenderComparisonText(*busy));
  const std::string text = RenderComparisonText(*busy);
  CHECK(text.find("host load: 1-min load average at the runs' starts 3.00 (2.90 to 3.10); CPU steal 0.0 (0.0 "
                  "to 0.0) %") != std::string::npos);
  CHECK(RenderComparisonJson(*busy).find("\"load_averages\"") != std::string::npos);

  // Within half the cores, and no steal: nothing to warn of. 12 % stolen in B: said.
  auto near = CompareRuns(quiet, arm("n", {3.5, 3.4, 3.6}, 0.12), {}, {});
  REQUIRE_OK(near);
  bool load_warned = false, steal_warned = false;
  for (const std::string& w : near->warnings) {
    load_warned = load_warned || w.find("different host load") != std::string::npos;
    steal_warned =
        steal_warned || w.find("stole up to 12.0 % of the CPU during a run of arm B") != std::string::npos;
  }
  CHECK_FALSE(load_warned);
  CHECK(steal_warned);
}

// Issue 50: a run on a freshly started evitaDB mostly measures JIT warm-up,
// and a comparison of such runs never said its arms were still trending.
TEST_CASE("CompareRuns warns of an arm whose runs still fall run over run") {
  testing::TempDir dir;
  std::vector<std::string> a, b;
  const std::vector<double> warming = {48.4, 16.1, 12.5, 10.5, 10.2};
  const std::vector<double> steady = {10.1, 10.3, 10.0, 10.2, 10.1};
  for (size_t i = 0; i < warming.size(); ++i) {
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), steady[i], 500));
    b.push_back(WriteRun(dir.path(), "b" + std::to_string(i), warming[i], 500));
  }
  auto comparison = CompareRuns(a, b, {}, {});
  REQUIRE_OK(comparison);
  std::vector<std::string> trend_warnings;
  for (const std::string& w : comparison->warnings) {
    if (w.find("still measure a warm-up") != std::string::npos) trend_warnings.push_back(w);
  }
  REQUIRE(trend_warnings.size() == 1);  // B's TOTAL; A's does not trend, the Product means are flat
  CHECK(
      trend_warnings[0].starts_with("arm B's total_seconds is falling run over run (Mann-Kendall p 0.017)"));
}

}  // namespace
}  // namespace warmup
