// Change points: the energy statistic worked by hand, E-divisive on seeded
// series with a known answer (one step, none, two steps, one outlier), and a
// history's series searched for regressions with the exit status a nightly
// job gates on.
#include "warmup/change_points.h"

#include <doctest/doctest.h>

#include <random>

#include "warmup/history.h"

namespace warmup {
namespace {

// `n` draws of a normal distribution around `mean` with relative spread `noise`.
std::vector<double> Noisy(std::mt19937_64& rng, size_t n, double mean, double noise) {
  std::normal_distribution<double> draw(mean, mean * noise);
  std::vector<double> out;
  for (size_t i = 0; i < n; ++i) out.push_back(draw(rng));
  return out;
}

std::vector<double> Join(std::vector<double> a, const std::vector<double>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST_CASE("EDivisive: the statistic of the only split of {0,0,0,1,1,1}, and its permutation p, by hand") {
  // X = {0,0,0}, Y = {1,1,1}: the nine pairs across are 1 apart, none within:
  // E = 2 * 9 / (3 * 3) - 0 - 0 = 2, Q = 3 * 3 / 6 * E = 3. Of the 20 ways to
  // place the three 1s among six values, 2 reach Q = 3 (all 1s on one side):
  // p is about (1 + 0.1 R) / (1 + R) = 0.1.
  ChangePointOptions options;
  options.min_segment = 3;
  options.permutations = 4999;
  const auto points = EDivisive({0, 0, 0, 1, 1, 1}, options, /*alpha=*/0.2);
  REQUIRE(points.size() == 1);
  CHECK(points[0].index == 3);
  CHECK(points[0].statistic == doctest::Approx(3));
  CHECK(points[0].p_value == doctest::Approx(0.1).epsilon(0.2));
  CHECK(EDivisive({0, 0, 0, 1, 1, 1}, options, 0.05).empty());  // 6 runs cannot reach 5 %
  // Too short for two segments of three: nothing is searched.
  CHECK(EDivisive({0, 0, 1, 1, 1}, options, 0.5).empty());
}

TEST_CASE("EDivisive finds a 5 % step in 2 % noise where it is, in nearly every series of 20 and 20") {
  int found = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    std::mt19937_64 rng(seed);
    const auto points = EDivisive(Join(Noisy(rng, 20, 100, 0.02), Noisy(rng, 20, 105, 0.02)), {}, 0.05);
    for (const ChangePoint& p : points) {
      if (p.index >= 18 && p.index <= 22 && p.p_value < 0.05) {
        ++found;
        break;
      }
    }
  }
  CHECK(found >= 95);  // 2.5 standard deviations apart, 20 runs a side: rarely missed
}

TEST_CASE("EDivisive on series without a change finds one in about alpha of them, no more") {
  // The permutation test is exact for the first split: under exchangeable
  // runs, P(p < alpha) <= alpha. 400 series at alpha 0.05: 20 expected;
  // above 34 has a probability under 0.1 % if the test holds its level.
  int false_changes = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    std::mt19937_64 rng(1000 + seed);
    ChangePointOptions options;
    options.seed = seed;
    options.permutations = 499;
    if (!EDivisive(Noisy(rng, 20, 100, 0.02), options, 0.05).empty()) ++false_changes;
  }
  CHECK(false_changes <= 34);
}

TEST_CASE("EDivisive: two steps are two change points, and one outlier is none") {
  std::mt19937_64 rng(7);
  const auto two =
      Join(Join(Noisy(rng, 15, 100, 0.02), Noisy(rng, 15, 110, 0.02)), Noisy(rng, 15, 100, 0.02));
  const auto points = EDivisive(two, {}, 0.05);
  REQUIRE(points.size() == 2);
  CHECK(points[0].index >= 14);
  CHECK(points[0].index <= 16);
  CHECK(points[1].index >= 29);
  CHECK(points[1].index <= 31);
  auto outlier = Noisy(rng, 30, 100, 0.02);
  outlier[15] = 200;
  CHECK(EDivisive(outlier, {}, 0.05).empty());
  outlier[15] = 100;
  outlier.back() = 200;  // the newest run alone: not a change point either
  CHECK(EDivisive(outlier, {}, 0.05).empty());
}

TEST_CASE("EDivisive is deterministic for a seed") {
  std::mt19937_64 rng(11);
  const auto series = Join(Noisy(rng, 8, 100, 0.05), Noisy(rng, 8, 108, 0.05));
  const auto a = EDivisive(series, {}, 0.05), b = EDivisive(series, {}, 0.05);
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) CHECK(a[i].p_value == b[i].p_value);
}

// A series of runs in one setup whose TOTAL and Product mean are `values`.
std::vector<HistoryRun> Runs(const std::vector<double>& values, const std::string& series = "s1",
                             const std::string& build_from = "") {
  std::vector<HistoryRun> runs;
  for (size_t i = 0; i < values.size(); ++i) {
    HistoryRun r;
    r.id = static_cast<int64_t>(i + 1);
    r.series = series;
    r.record.run_label = "run" + std::to_string(i + 1);
    r.record.started_at = "2026-12-04T10:" + std::to_string(10 + i) + ":00Z";
    r.record.build = build_from.empty() || i < values.size() / 2 ? "0.1.0 (aaaa)" : build_from;
    r.record.metrics["total_seconds"] = {values[i], "s", std::nullopt};
    r.record.metrics["upsert_mean_us:Product"] = {values[i] * 50, "us", std::nullopt};
    runs.push_back(r);
  }
  return runs;
}

TEST_CASE("FindHistoryChanges: a slower build is a regression at its first run, exit 3, with its interval") {
  std::mt19937_64 rng(5);
  const auto values = Join(Noisy(rng, 8, 10, 0.02), Noisy(rng, 8, 12, 0.02));  // 20 % slower from the 9th run
  const HistoryChanges changes = FindHistoryChanges(Runs(values, "s1", "0.1.0 (bbbb)"), {});
  REQUIRE(changes.series.size() == 1);
  REQUIRE(changes.series[0].metrics.size() == 2);  // the headline metrics this series has
  const MetricChanges& total = changes.series[0].metrics[0];
  CHECK(total.metric == "total_seconds");
  REQUIRE(total.changes.size() == 1);
  const MetricChange& c = total.changes[0];
  CHECK(c.run_label == "run9");
  CHECK(c.build == "0.1.0 (bbbb)");
  CHECK(c.build_before == "0.1.0 (aaaa)");
  CHECK(c.relative_change == doctest::Approx(0.2).epsilon(0.1));
  CHECK(c.ratio_ci.low < 1.2);
  CHECK(c.ratio_ci.high > 1.2);
  CHECK(c.regression);
  CHECK(changes.ExitCode() == kCompareRegression);
  const std::string text = RenderHistoryChangesText(changes);
  CHECK(text.find("at run9 (started 2026-12-04T10:18:00Z, build 0.1.0 (bbbb); before it 0.1.0 (aaaa))") !=
        std::string::npos);
  CHECK(text.find("verdict: REGRESSION: total_seconds of series 1 at run9") != std::string::npos);
  CHECK(changes.Verdict().rfind("REGRESSION: total_seconds of series 1 at run9 (+", 0) == 0);
  CHECK(changes.Verdict().ends_with(" %) (exit 3)"));
  CHECK(RenderHistoryChangesJson(changes).find("\"schema\": \"warmup-changes/1\"") != std::string::npos);

  // The same step the other way is an improvement: found, and no regression.
  std::vector<double> faster(values.rbegin(), values.rend());
  const HistoryChanges improved = FindHistoryChanges(Runs(faster), {});
  REQUIRE(improved.series[0].metrics[0].changes.size() == 1);
  CHECK_FALSE(improved.series[0].metrics[0].changes[0].regression);
  CHECK(improved.ExitCode() == kCompareNoRegression);
}

TEST_CASE(
    "FindHistoryChanges: an A/A series exits 0, too few runs exit 4, failed and unverified runs are not "
    "counted") {
  // Ten runs of one build, their spread the same in every stretch: no split
  // stands out from the permutations.
  const HistoryChanges same =
      FindHistoryChanges(Runs({10.0, 10.2, 9.9, 10.1, 10.0, 9.8, 10.2, 10.0, 9.9, 10.1}), {});
  for (const MetricChanges& m : same.series[0].metrics) CHECK(m.changes.empty());
  CHECK(same.ExitCode() == kCompareNoRegression);
  CHECK(RenderHistoryChangesText(same).find("verdict: no regression") != std::string::npos);

  const HistoryChanges few = FindHistoryChanges(Runs({10, 10, 11, 12, 12}), {});
  CHECK(few.series[0].metrics.empty());
  CHECK(few.ExitCode() == kCompareInconclusive);
  CHECK(RenderHistoryChangesText(few).find("not searched: fewer than 6 runs") != std::string::npos);

  auto runs = Runs({10.0, 10.2, 9.9, 10.1, 10.0, 9.8, 10.2, 10.0, 9.9, 10.1});
  runs[4].record.exit_code = 1;  // failed: kept, marked, never a point of the series
  runs[4].record.metrics["total_seconds"].value = 1000;
  runs[6].record.exit_code = 2;  // not verified: its figures stand, and still it is no point unless asked
  runs[6].record.metrics["total_seconds"].value = 1000;
  const HistoryChanges with_failed = FindHistoryChanges(runs, {});
  CHECK(with_failed.series[0].runs == 8);
  CHECK(with_failed.series[0].not_counted_runs == 2);
  CHECK(with_failed.ExitCode() == kCompareNoRegression);
  HistoryChangesOptions unverified_too;
  unverified_too.count_unverified = true;
  CHECK(FindHistoryChanges(runs, unverified_too).series[0].runs == 9);  // the failed run never counts
}

// Regression (issue 50): three runs of each of two builds, the second twice
// as slow, gave "no change point in 6 runs (noise 37.2 %)", verdict no
// regression, exit 0: six runs cannot show a change at all (the permutation
// test's smallest p is 1 / C(6, 3)), and that silence was read as a pass.
TEST_CASE(
    "regression: history changes never passes a series that could not have shown its threshold's change") {
  const HistoryChanges twice = FindHistoryChanges(Runs({10, 10.5, 9.6, 19, 21, 20}), {});
  const MetricChanges& total = twice.series[0].metrics[0];
  CHECK(total.changes.empty());  // too few runs for a significant split
  CHECK_FALSE(total.resolves_threshold());
  CHECK(total.detectable_change > total.threshold);
  CHECK(twice.ExitCode() == kCompareInconclusive);
  CHECK(twice.Verdict().rfind("inconclusive: total_seconds of series 1 could not have shown a change of +",
                              0) == 0);
  CHECK(twice.Verdict().ends_with("(exit 4)"));
  CHECK(RenderHistoryChangesText(twice).find("NOT RESOLVED") != std::string::npos);

  // By hand: ten runs with a spread of 1 % of their median (MAD 0.1 of 10, x 1.4826) could show
  // (1.96 + 0.84) x 1.48 % x sqrt(1/10 + 1/3) / sqrt(3 / pi) = 2.8 %: a --threshold of 1 % is out of
  // reach, one of 5 % is not.
  const auto steady = Runs({10.0, 10.1, 9.9, 10.1, 9.9, 10.0, 10.2, 9.8, 10.0, 10.1});
  HistoryChangesOptions fine;
  fine.metrics = {"total_seconds"};
  fine.threshold = 0.01;
  const HistoryChanges tight = FindHistoryChanges(steady, fine);
  REQUIRE(tight.series[0].metrics.size() == 1);
  CHECK(tight.series[0].metrics[0].noise == doctest::Approx(0.014826).epsilon(0.01));
  CHECK(tight.series[0].metrics[0].detectable_change == doctest::Approx(0.0279).epsilon(0.02));
  CHECK(tight.ExitCode() == kCompareInconclusive);
  fine.threshold = 0.05;
  CHECK(FindHistoryChanges(steady, fine).ExitCode() == kCompareNoRegression);
}

TEST_CASE("FindHistoryChanges searches each setup apart, and the threshold keeps a small real change back") {
  std::mt19937_64 rng(13);
  auto runs =
      Runs(Join(Noisy(rng, 10, 10, 0.005), Noisy(rng, 10, 10.3, 0.005)), "s1");  // +3 % in 0.5 % noise
  for (HistoryRun& r : Runs(Noisy(rng, 10, 20, 0.02), "s2")) runs.push_back(r);
  const HistoryChanges found = FindHistoryChanges(runs, {});
  REQUIRE(found.series.size() == 2);
  CHECK(found.series[0].metrics[0].changes.size() == 1);
  CHECK(found.series[0].metrics[0].changes[0].regression);  // beyond twice its 0.5 % noise
  CHECK(found.series[1].metrics[0].changes.empty());
  HistoryChangesOptions strict;
  strict.threshold = 0.05;  // only 5 % or worse is a regression
  strict.metrics = {"total_seconds"};
  const HistoryChanges held = FindHistoryChanges(runs, strict);
  REQUIRE(held.series[0].metrics.size() == 1);
  CHECK(held.series[0].metrics[0].changes.size() == 1);
  CHECK_FALSE(held.series[0].metrics[0].changes[0].regression);
  CHECK(held.ExitCode() == kCompareNoRegression);
}

}  // namespace
}  // namespace warmup
