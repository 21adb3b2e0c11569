// Repeated runs summarized: run reports written by the real JSON writer with
// figures set on purpose, and each summary figure worked out by hand.
#include "warmup/run_summary.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "common/run_reports.h"
#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "warmup/report.h"
#include "warmup/run_record.h"
#include "warmup/run_result.h"
#include "warmup/server_identity.h"

namespace warmup {
namespace {

using testing::WriteRunReport;

const MetricSummary& Metric(const RunsSummary& s, const std::string& name) {
  for (const MetricSummary& m : s.metrics) {
    if (m.metric == name) return m;
  }
  FAIL("no metric " << name);
  return s.metrics.front();
}

TEST_CASE("ReadRunRecord: the metrics of a report, worked from its fields") {
  testing::TempDir dir;
  auto run = ReadRunRecord(WriteRunReport(dir.path(), "r1", 10, 500));
  REQUIRE_OK(run);
  CHECK(run->run_label == "r1");
  CHECK(run->exit_code == 0);
  CHECK(run->metrics.at("total_seconds").value == doctest::Approx(10));       // load 9 + goLive 1
  CHECK(run->metrics.at("net_load_seconds").value == doctest::Approx(8.75));  // 9 - 0.25
  CHECK(run->metrics.at("net_load_seconds").unit == "s");
  CHECK(run->metrics.at("golive_seconds").value == doctest::Approx(1));
  CHECK(run->metrics.at("upsert_mean_us:Product").value == doctest::Approx(500));
  CHECK(run->metrics.at("upsert_median_us:Brand").value == doctest::Approx(20));
  CHECK_FALSE(run->metrics.contains("server_peak_rss_bytes"));  // no server measured
  CHECK(run->setup.at("target kind") == "embedded");
  CHECK(run->collection_counts.at("Product") == 100);

  auto failed = ReadRunRecord(WriteRunReport(dir.path(), "f1", 10, 500, [](RunResult& r) {
    r.abort_reason = AbortReason::kInterrupted;
    r.abort_error = "stopped";
    r.golive = GoLiveOutcome::kNotAttempted;
    r.verification = Verification::kNotReached;
  }));
  REQUIRE_OK(failed);
  CHECK(failed->exit_code == 1);
  CHECK(failed->failure.find("interrupted") != std::string::npos);
  CHECK_FALSE(failed->metrics.contains("total_seconds"));  // no goLive, no TOTAL
}

// Regression (issue 49): a run against an evitaDB reached by --address read
// back with no server and its loader's build, so compare pages said "server:
// not recorded" for both arms and the history named only warmup's build.
TEST_CASE("ReadRunRecord: a server reached by --address is named by its address and the version it said") {
  testing::TempDir dir;
  auto run = ReadRunRecord(WriteRunReport(dir.path(), "e1", 10, 500, [](RunResult& r) {
    r.config.target_kind = "remote";
    r.server_identity = ServerIdentity{"127.0.0.1:5555",       "2026.2.0-SNAPSHOT", "evitaDB-a7c2",
                                       "2026-12-07T02:15:00Z", "API_READY",         true};
  }));
  REQUIRE_OK(run);
  CHECK(run->server == "at 127.0.0.1:5555 (not started by warmup)");
  CHECK(run->server_build == "evitaDB 2026.2.0-SNAPSHOT");
  CHECK(run->build == "evitaDB 2026.2.0-SNAPSHOT");  // the server's figures, not the loader's

  // warmup serve names itself; a started one's own build stays what it said of it.
  auto serve = ReadRunRecord(WriteRunReport(dir.path(), "s1", 10, 500, [](RunResult& r) {
    r.server_identity = ServerIdentity{"127.0.0.1:7000", "warmup 0.1.0 (abc)", "", "", "API_READY", true};
  }));
  REQUIRE_OK(serve);
  CHECK(serve->server_build == "warmup 0.1.0 (abc)");
}

// Issue 50: in one JVM the same load took 48.4, 16.1, 12.5 and 10.5 s, and no
// summary said the series was still falling.
TEST_CASE("regression: a summary of runs that still fall says so, and four runs cannot tell") {
  testing::TempDir dir;
  std::vector<std::string> files;
  const std::vector<double> totals = {48.4, 16.1, 12.5, 10.5, 10.2};
  for (size_t i = 0; i < totals.size(); ++i) {
    files.push_back(WriteRunReport(dir.path(), "run0" + std::to_string(i + 1), totals[i], 500));
  }
  auto five = SummarizeRuns(files);
  REQUIRE_OK(five);
  const MetricSummary& total = Metric(*five, "total_seconds");
  CHECK(total.trend.trending);  // S = -10: p = 2/120
  CHECK(total.trend.s < 0);
  CHECK_FALSE(Metric(*five, "upsert_mean_us:Product").trend.trending);  // 500 us in every run
  const std::string text = RenderRunsSummaryText(*five);
  CHECK_MESSAGE(text.find("WARNING: total_seconds is falling run over run (Mann-Kendall p 0.017): these runs "
                          "still measure a warm-up") != std::string::npos,
                text);
  CHECK(text.find("FALLING") != std::string::npos);
  CHECK(nlohmann::json::parse(RenderRunsSummaryJson(*five))["metrics"][0]["trend"]["trending"] == true);

  files.pop_back();
  auto four = SummarizeRuns(files);
  REQUIRE_OK(four);
  CHECK_FALSE(Metric(*four, "total_seconds").trend.decidable);
  const std::string four_text = RenderRunsSummaryText(*four);
  CHECK(four_text.find("WARNING") == std::string::npos);
  CHECK(four_text.find("?: cannot tell from fewer than 5 runs") != std::string::npos);
}

TEST_CASE("SummarizeRuns: median, min, max, range and MAD of each metric, by hand") {
  testing::TempDir dir;
  // TOTAL 10, 12, 11, 30: median (11 + 12) / 2 = 11.5, range (30 - 10) / 11.5;
  // deviations from 11.5: 1.5, 0.5, 0.5, 18.5, their median (0.5 + 1.5) / 2 = 1.
  const std::vector<std::string> files = {
      WriteRunReport(dir.path(), "run01", 10, 500), WriteRunReport(dir.path(), "run02", 12, 520),
      WriteRunReport(dir.path(), "run03", 11, 480), WriteRunReport(dir.path(), "run04", 30, 900)};
  auto summary = SummarizeRuns(files);
  REQUIRE_OK(summary);
  CHECK(summary->labels == std::vector<std::string>{"run01", "run02", "run03", "run04"});
  const MetricSummary& total = Metric(*summary, "total_seconds");
  CHECK(total.values == std::vector<double>{10, 12, 11, 30});
  CHECK(total.median == doctest::Approx(11.5));
  CHECK(total.min == doctest::Approx(10));
  CHECK(total.max == doctest::Approx(30));
  CHECK(total.range_relative == doctest::Approx(20 / 11.5));
  CHECK(total.mad_relative == doctest::Approx(1 / 11.5));
  // Product mean 500, 520, 480, 900: median 510; deviations 10, 10, 30, 390: MAD 20.
  const MetricSummary& product = Metric(*summary, "upsert_mean_us:Product");
  CHECK(product.median == doctest::Approx(510));
  CHECK(product.mad_relative == doctest::Approx(20.0 / 510));
  CHECK(Metric(*summary, "upsert_median_us:Brand").range_relative == doctest::Approx(0));
  CHECK(summary->metrics.front().metric == "total_seconds");  // the whole first
  CHECK(summary->complete());
  CHECK(summary->ExitCode() == 0);

  const std::string text = RenderRunsSummaryText(*summary);
  CHECK(text.find("4 runs of one configuration: every one verified") != std::string::npos);
  CHECK(text.find("11.500") != std::string::npos);
  CHECK(text.find("173.9 %") != std::string::npos);  // TOTAL's range, 20 / 11.5
  auto json = nlohmann::json::parse(RenderRunsSummaryJson(*summary));
  CHECK(json["schema"] == "warmup-runs/1");
  CHECK(json["complete"] == true);
  CHECK(json["exit_code"] == 0);
  CHECK(json["metrics"][0]["median"].get<double>() == doctest::Approx(11.5));
}

TEST_CASE("RunsSummary: a partial series says so and exits 1, and an unverified run makes it exit 2") {
  testing::TempDir dir;
  auto two = SummarizeRuns(
      {WriteRunReport(dir.path(), "run01", 10, 500), WriteRunReport(dir.path(), "run02", 12, 520)});
  REQUIRE_OK(two);
  two->planned_runs = 5;
  two->warm_up_runs = 1;
  CHECK_FALSE(two->complete());  // 2 of 5, with no reason given
  CHECK(two->ExitCode() == 1);
  two->incomplete = "run03 was interrupted";
  const std::string text = RenderRunsSummaryText(*two);
  CHECK(
      text.rfind("PARTIAL: 2 runs of 5 planned after 1 run of warm-up, not counted (run03 was interrupted): "
                 "do not quote",
                 0) == 0);
  CHECK(nlohmann::json::parse(RenderRunsSummaryJson(*two))["complete"] == false);

  auto unverified = SummarizeRuns(
      {WriteRunReport(dir.path(), "u1", 10, 500), WriteRunReport(dir.path(), "u2", 10, 500, [](RunResult& r) {
         r.verification = Verification::kUnknown;
         r.verification_error = "counts could not be read";
       })});
  REQUIRE_OK(unverified);
  CHECK(unverified->not_verified == std::vector<std::string>{"u2"});
  CHECK(unverified->ExitCode() == 2);
  CHECK(RenderRunsSummaryText(*unverified).find("NOT all verified") != std::string::npos);
}

TEST_CASE("SummarizeRuns refuses a failed run, a run given twice and runs of different setups, naming them") {
  testing::TempDir dir;
  const std::string a = WriteRunReport(dir.path(), "a", 10, 500);
  CHECK(SummarizeRuns({}).status().code() == StatusCode::kInvalidArgument);
  const std::string failed = WriteRunReport(dir.path(), "failed", 10, 500, [](RunResult& r) {
    r.golive = GoLiveOutcome::kFailed;
    r.golive_error = "refused";
    r.verification = Verification::kNotReached;
  });
  auto with_failed = SummarizeRuns({a, failed});
  CHECK(with_failed.status().code() == StatusCode::kInvalidArgument);
  CHECK(with_failed.status().message().find(failed + ": the run failed") != std::string::npos);
  CHECK(SummarizeRuns({a, a}).status().message().find("are the same file") != std::string::npos);
  const std::string other =
      WriteRunReport(dir.path(), "other", 10, 500, [](RunResult& r) { r.dataset_fingerprint = "f2"; });
  auto mixed = SummarizeRuns({a, other});
  CHECK(mixed.status().message().find("measured different things (dataset f2 vs f1)") != std::string::npos);
}

TEST_CASE("SummarizeRuns leaves out the median upsert of a collection too small in some run, and says so") {
  testing::TempDir dir;
  auto few_brands = [](RunResult& r) {
    r.collections[0].copied = 19;  // Brand
    r.collections[0].source_count = r.collections[0].expected_count = 19;
    r.collections[0].target_count = 19;
  };
  auto summary = SummarizeRuns(
      {WriteRunReport(dir.path(), "r1", 10, 500), WriteRunReport(dir.path(), "r2", 10, 500, few_brands)});
  REQUIRE_OK(summary);
  CHECK(summary->small_collections == std::vector<std::string>{"Brand"});
  for (const MetricSummary& m : summary->metrics) CHECK(m.metric != "upsert_median_us:Brand");
  CHECK(Metric(*summary, "upsert_median_us:Product").median == doctest::Approx(500));
  CHECK(RenderRunsSummaryText(*summary).find(
            "median upsert not summarized, fewer than 20 entities in a run: Brand") != std::string::npos);
  auto all = SummarizeRuns(
      {WriteRunReport(dir.path(), "r3", 10, 500), WriteRunReport(dir.path(), "r4", 10, 500, few_brands)}, 19);
  REQUIRE_OK(all);
  CHECK(all->small_collections.empty());
}

}  // namespace
}  // namespace warmup
