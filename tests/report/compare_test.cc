// Comparing builds: the statistics against values worked out by hand, the
// bootstrap's coverage on data with a known ratio, and CompareRuns (and
// `warmup compare`) on run reports whose figures are set on purpose.
#include "warmup/compare.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

#include "apps/cli.h"
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

// A run report with the figures a comparison reads, rendered by the real
// JSON writer.
std::string WriteRun(const std::filesystem::path& dir, const std::string& name, double total,
                     double product_us, const std::string& fingerprint = "f1",
                     const std::function<void(RunResult&)>& adjust = {}) {
  RunResult r;
  r.config.target_kind = "embedded";
  r.config.compression = "none";
  r.run_label = name;
  r.dataset_fingerprint = fingerprint;
  r.environment.hostname = "host";
  r.environment.cpu_model = "cpu";
  r.environment.cores = 2;
  for (const char* type : {"Brand", "Product"}) {
    CollectionResult c;
    c.entity_type = type;
    c.source_count = c.expected_count = c.copied = c.target_count.emplace(100);
    c.upsert.count = 100;
    c.upsert.median_us = c.upsert.mean_us = std::string(type) == "Product" ? product_us : 20;
    r.collections.push_back(c);
  }
  r.load_wall_seconds = total - 1;
  r.source_read_seconds = 0.5;
  r.golive = GoLiveOutcome::kCompleted;
  r.golive_seconds = 1;
  r.verify_mode = VerifyMode::kCounts;
  r.verification = Verification::kVerified;
  if (adjust) adjust(r);
  const std::string path = (dir / (name + ".json")).string();
  std::ofstream(path) << RenderJsonReport(r);
  return path;
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
  auto regressed = CompareRuns(a, slower, {}, {});
  REQUIRE_OK(regressed);
  const MetricComparison& product = Metric(*regressed, "upsert_mean_us:Product");
  CHECK(product.verdict == Verdict::kRegressed);
  CHECK(product.ratio == doctest::Approx(1.2).epsilon(0.03));
  CHECK(product.ratio_ci.low < 1.2);
  CHECK(product.ratio_ci.high > 1.2);
  CHECK(product.test.p_value < 0.001);
  // The only metric that changed has the smallest p: Holm multiplies it by the number of metrics.
  CHECK(product.p_adjusted == doctest::Approx(product.test.p_value * regressed->metrics.size()));
  for (const MetricComparison& m : regressed->metrics) CHECK(m.p_adjusted >= m.test.p_value);
  CHECK(product.hodges_lehmann == doctest::Approx(100).epsilon(0.1));
  CHECK(Metric(*regressed, "upsert_median_us:Brand").verdict == Verdict::kNoChange);
  CHECK(regressed->ExitCode() == 3);
  CHECK(regressed->warnings.empty());
  const std::string text = RenderComparisonText(*regressed);
  CHECK(text.find("verdict: REGRESSED (exit 3)") != std::string::npos);
  CHECK(RenderComparisonJson(*regressed).find("\"schema\": \"warmup-compare/2\"") != std::string::npos);

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
  // 6 runs per arm: with 4 the smallest exact p (2/70) times Holm's factor would stay above 5 %.
  std::vector<std::string> args = {"compare"};
  for (int i = 0; i < 6; ++i) args.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10, 500 + i));
  args.push_back("--vs");
  std::vector<std::string> same = args;
  for (int i = 0; i < 6; ++i) {
    args.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10, 700 + i));
    same.push_back(WriteRun(dir.path(), "c" + std::to_string(i), 10, 501 + i));
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
}

TEST_CASE("SmallestAttainableP: complete separation, by hand") {
  CHECK(SmallestAttainableP(2, 2) == doctest::Approx(2.0 / 6));      // C(4, 2) = 6 arrangements
  CHECK(SmallestAttainableP(4, 4) == doctest::Approx(2.0 / 70));     // C(8, 4) = 70
  CHECK(SmallestAttainableP(5, 5) == doctest::Approx(2.0 / 252));    // C(10, 5) = 252
  CHECK(SmallestAttainableP(9, 9) == doctest::Approx(2.0 / 48620));  // C(18, 9) = 48,620
  CHECK(SmallestAttainableP(1, 1) == 1);                             // 2 / C(2, 1) = 1
  // Beyond 20 a side, the normal approximation at U = 0: z = (312.5 - 0.5) / sqrt(625 * 51 / 12) = 6.05369.
  CHECK(SmallestAttainableP(25, 25) == doctest::Approx(1.41566e-9).epsilon(1e-4));
  // It is what the test itself gives for separated samples.
  CHECK(SmallestAttainableP(4, 4) == doctest::Approx(MannWhitneyU({1, 2, 3, 4}, {5, 6, 7, 8}).p_value));
}

TEST_CASE(
    "regression: 2 runs against 2 read 'no change' on every metric and 'no regression (exit 0)'; now "
    "inconclusive, exit 4, detect n/a") {
  testing::TempDir dir;
  // B is five times slower on every run: data can show nothing more clearly, and 2 against 2 still
  // cannot reach alpha (smallest p 1/3, before Holm).
  std::vector<std::string> a = {WriteRun(dir.path(), "a1", 10, 500), WriteRun(dir.path(), "a2", 10.1, 505)};
  std::vector<std::string> b = {WriteRun(dir.path(), "b1", 50, 2500), WriteRun(dir.path(), "b2", 51, 2520)};
  auto comparison = CompareRuns(a, b, {}, {});
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
  CHECK(text.find(" n/a% ") != std::string::npos);
  const std::string json = RenderComparisonJson(*comparison);
  CHECK(json.find("\"detectable_change\": null") != std::string::npos);
  CHECK(json.find("\"verdict\": \"inconclusive\"") != std::string::npos);
}

TEST_CASE(
    "inconclusive is decided by Holm's factor: 5 runs a side can reach alpha over 6 metrics, 4 cannot") {
  // Six metrics (TOTAL, net load, goLive, Product's mean, the medians of Brand and Product):
  // 6 x 2/252 = 0.048 < 0.05, but 6 x 2/70 = 0.17.
  testing::TempDir dir;
  auto arms = [&](int n, const std::string& prefix) {
    std::vector<std::string> a, b;
    for (int i = 0; i < n; ++i) {
      a.push_back(WriteRun(dir.path(), prefix + "a" + std::to_string(i), 10 + 0.01 * i, 500 + i));
      b.push_back(WriteRun(dir.path(), prefix + "b" + std::to_string(i), 10 + 0.01 * i, 800 + i));
    }
    return CompareRuns(a, b, {}, {});
  };
  auto five = arms(5, "five");
  REQUIRE_OK(five);
  REQUIRE(five->metrics.size() == 6);
  CHECK(Metric(*five, "upsert_mean_us:Product").verdict == Verdict::kRegressed);
  CHECK(Metric(*five, "upsert_median_us:Brand").verdict == Verdict::kNoChange);
  CHECK(five->ExitCode() == kCompareRegression);
  auto four = arms(4, "four");
  REQUIRE_OK(four);
  REQUIRE(four->metrics.size() == 6);
  CHECK(Metric(*four, "upsert_mean_us:Product").verdict == Verdict::kInconclusive);
  CHECK(four->ExitCode() == kCompareInconclusive);
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
    "word; --force says what it overrode") {
  testing::TempDir dir;
  std::vector<std::string> a, b, zstd, remote;
  for (int i = 0; i < 3; ++i) {
    a.push_back(WriteRun(dir.path(), "a" + std::to_string(i), 10, 500 + i));
    b.push_back(WriteRun(dir.path(), "b" + std::to_string(i), 10, 500 + i));
    zstd.push_back(WriteRun(dir.path(), "z" + std::to_string(i), 10, 500 + i, "f1",
                            [](RunResult& r) { r.config.compression = "zstd"; }));
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

}  // namespace
}  // namespace warmup
