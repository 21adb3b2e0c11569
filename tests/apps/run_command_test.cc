// load and reindex --runs as a user runs them: every run's report kept, the
// summary's figures checked against the reports themselves (the median of
// three values is the middle one), and a series that a failure or an
// interrupt cut short called partial, with exit 1.
#include <signal.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "apps/cli.h"
#include "common/temp_dir.h"
#include "warmup/trend.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::CliResult;
using testing::Contains;
using testing::GenerateTiny;
using testing::ReadText;
using testing::RunCli;
using testing::TempDir;
using testing::TinyAndServer;

json ReadJson(const std::string& path) { return json::parse(ReadText(path)); }

// The summary's entry for `metric`.
json MetricOf(const json& summary, const std::string& metric) {
  for (const json& m : summary["metrics"]) {
    if (m["metric"] == metric) return m;
  }
  FAIL("no metric " << metric << " in the summary");
  return {};
}

TEST_CASE("warmup load --runs 3 --warmup-runs 1: four fresh runs, every report kept, three summarized") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  const std::string out = dir / "runs";
  const CliResult run =
      RunCli({"load", "--pristine-dir", pristine, "--target", "embedded", "--work-dir", dir / "work",
              "--runs", "3", "--warmup-runs", "1", "--out", out, "--run", "s", "--quiet"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(Contains(run.output,
                 "3 runs of one configuration after 1 run of warm-up, not counted: every one verified"));
  for (const char* label : {"s-warmup1", "s01", "s02", "s03"}) {
    const json report = ReadJson(out + "/" + label + ".json");
    CHECK(report["run_label"] == label);
    CHECK(report["exit_code"] == 0);
    CHECK(report["copied"] == 300);  // each run copied the whole catalog into a fresh target
    CHECK(Contains(ReadText(out + "/" + label + ".txt"), "verification: VERIFIED"));
  }
  const json summary = ReadJson(out + "/summary.json");
  CHECK(summary["schema"] == "warmup-runs/1");
  CHECK(summary["complete"] == true);
  CHECK(summary["exit_code"] == 0);
  CHECK(summary["runs"] == json({"s01", "s02", "s03"}));  // the warm-up is not among them
  CHECK(summary["warm_up_runs"] == 1);
  CHECK(ReadText(out + "/summary.txt") == run.output.substr(0, ReadText(out + "/summary.txt").size()));
  for (const char* metric : {"total_seconds", "golive_seconds"}) {
    std::vector<double> values;
    for (const char* label : {"s01", "s02", "s03"}) {
      const json report = ReadJson(out + "/" + label + ".json");
      values.push_back(std::string(metric) == "total_seconds" ? report["total_seconds"].get<double>()
                                                              : report["golive"]["seconds"].get<double>());
    }
    const json m = MetricOf(summary, metric);
    CHECK(m["values"].get<std::vector<double>>() == values);  // in run order
    std::sort(values.begin(), values.end());
    CHECK(m["median"].get<double>() == doctest::Approx(values[1]));
    CHECK(m["min"].get<double>() == doctest::Approx(values[0]));
    CHECK(m["max"].get<double>() == doctest::Approx(values[2]));
    CHECK(m["range_relative"].get<double>() == doctest::Approx((values[2] - values[0]) / values[1]));
  }
  // The work directory holds only the last run's catalog: each run cleared what the one before made.
  CHECK(fs::exists(dir / "work/.warmup-workdir"));

  // OUT is used only when absent or empty: a second series does not mix with the first.
  const CliResult again =
      RunCli({"load", "--pristine-dir", pristine, "--target", "null", "--runs", "2", "--out", out});
  CHECK(again.exit_code == 1);
  CHECK(Contains(again.output, "--out " + out + " is not empty"));
}

TEST_CASE(
    "issue 50: --warmup-until-stable makes warm-up runs until the watched metric shows no trend over the "
    "last K, then the measured runs") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  const std::string out = dir / "stable";
  const CliResult run = RunCli({"load",
                                "--pristine-dir",
                                pristine,
                                "--target",
                                "embedded",
                                "--work-dir",
                                dir / "work",
                                "--runs",
                                "2",
                                "--warmup-until-stable",
                                "5",
                                "--warmup-runs",
                                "8",
                                "--warmup-metric",
                                "upsert_mean_us:Product",
                                "--out",
                                out,
                                "--run",
                                "s",
                                "--quiet"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  // The warm-up runs made, in order, and the metric each showed.
  std::vector<double> watched;
  for (int k = 1; fs::exists(out + "/s-warmup" + std::to_string(k) + ".json"); ++k) {
    const json report = ReadJson(out + "/s-warmup" + std::to_string(k) + ".json");
    for (const json& c : report["collections"]) {
      if (c["entity_type"] == "Product") watched.push_back(c["upsert"]["mean_us"].get<double>());
    }
  }
  REQUIRE_MESSAGE(watched.size() >= 5, run.output);  // the first look needs K runs
  REQUIRE(watched.size() <= 8);                      // --warmup-runs is the most
  // It stopped at the first window of 5 without a trend, or at the most runs still trending.
  auto trending = [&](size_t end) {
    return MannKendall(std::vector<double>(watched.begin() + static_cast<std::ptrdiff_t>(end - 5),
                                           watched.begin() + static_cast<std::ptrdiff_t>(end)))
        .trending;
  };
  for (size_t end = 5; end < watched.size(); ++end) {
    CHECK_MESSAGE(trending(end), "went on after a stable window");
  }
  const bool settled = !trending(watched.size());
  CHECK((settled || watched.size() == 8));
  const json summary = ReadJson(out + "/summary.json");
  CHECK(summary["warm_up_runs"] == watched.size());
  CHECK(summary["warm_up_settled"] == settled);
  CHECK(summary["runs"] == json({"s01", "s02"}));
  const std::string rule = summary["warm_up_rule"].get<std::string>();
  CHECK(rule.starts_with("until upsert_mean_us:Product showed no trend over its last 5 runs, at most 8: " +
                         std::to_string(watched.size()) + " runs, the last 5 "));
  CHECK(Contains(run.output, (settled ? "warm-up: " : "WARNING: the warm-up did not settle: ") + rule));
}

TEST_CASE("--runs refuses what a series cannot honour, naming the flag, exit 64") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"load", "--pristine-dir", pristine, "--runs", "0"}, "--runs must be"},
      {{"load", "--pristine-dir", pristine, "--warmup-runs", "-1"}, "--warmup-runs must be"},
      {{"load", "--pristine-dir", pristine, "--runs", "2", "--report-json", dir / "r.json"},
       "--report-json has no effect with --runs"},
      {{"reindex", "--pristine-dir", pristine, "--runs", "2", "--html", dir / "r.html"},
       "--html has no effect"},
      {{"load", "--pristine-dir", pristine, "--out", dir / "o"}, "--out has no effect without --runs"},
      {{"load", "--pristine-dir", pristine, "--target", "remote", "--runs", "2", "--target-catalog", "c"},
       "--target-catalog with --runs against a running server"},
      {{"ab", "--a", WARMUP_CLI_PATH, "--b", WARMUP_CLI_PATH, "--pristine-dir", pristine, "--warmup-runs",
        "2"},
       "warmup ab makes one warm-up run per arm"},
      {{"load", "--pristine-dir", pristine, "--work-dir", dir / "w", "--runs", "2", "--out", dir / "w/runs"},
       "--out"},
      // A started server is a fresh process every run: nothing to warm up over runs.
      {{"reindex", "--pristine-dir", pristine, "--warmup-until-stable", "5"},
       "--warmup-until-stable warms up one server over runs, but each run of a started server starts a fresh "
       "one"},
      {{"load", "--pristine-dir", pristine, "--target", "embedded", "--warmup-until-stable", "4"},
       "--warmup-until-stable must be from 5 to 20, not 4"},
      {{"load", "--pristine-dir", pristine, "--target", "embedded", "--warmup-until-stable", "5",
        "--warmup-runs", "4"},
       "--warmup-runs 4 is the most warm-up runs; --warmup-until-stable 5 needs at least that many"},
      {{"load", "--pristine-dir", pristine, "--target", "embedded", "--runs", "2", "--warmup-metric",
        "total_seconds"},
       "--warmup-metric is what --warmup-until-stable watches"},
      {{"load", "--pristine-dir", pristine, "--target", "embedded", "--warmup-until-stable", "5",
        "--warmup-metric", "speed"},
       "--warmup-metric speed is not a metric of a run report"},
  };
  for (const auto& [args, message] : cases) {
    const CliResult run = RunCli(args);
    CHECK_MESSAGE(run.exit_code == 64, run.output);
    CHECK_MESSAGE(Contains(run.output, message), run.output);
  }
  CHECK_FALSE(fs::exists(dir / "o"));
  CHECK_FALSE(fs::exists(dir / "w"));  // refused before the out directory (or the work directory) was made
}

TEST_CASE_FIXTURE(TinyAndServer,
                  "--runs: a run that fails ends the series, whose summary is partial, exit 1") {
  // The 400th upsert the server takes is refused: the second run's 100th (tiny holds 300 entities).
  server.Start(dir / "data", {"--inject-fault", "UpsertEntity@400"});
  const std::string out = dir / "runs";
  const CliResult run = RunCli(RemoteLoad({"--runs", "3", "--out", out, "--quiet"}));
  CHECK_MESSAGE(run.exit_code == 1, run.output);
  CHECK(
      Contains(run.output, "PARTIAL: 1 run of 3 planned (run02 failed (exit 1), see " + out + "/run02.txt)"));
  CHECK(Contains(run.output, "do not quote"));
  CHECK(ReadJson(out + "/run01.json")["exit_code"] == 0);
  CHECK(ReadJson(out + "/run02.json")["exit_code"] == 1);
  CHECK_FALSE(fs::exists(out + "/run03.json"));  // the series stopped at the failure
  const json summary = ReadJson(out + "/summary.json");
  CHECK(summary["complete"] == false);
  CHECK(summary["exit_code"] == 1);
  CHECK(summary["runs"] == json({"run01"}));
  CHECK(server.Stop().exit_code == 0);
}

TEST_CASE_FIXTURE(TinyAndServer,
                  "--runs: SIGTERM during the second run ends the series with a partial summary, exit 1") {
  server.Start(dir / "data", {"--upsert-delay-ms", "5"});  // about 1.5 s a run
  const std::string out = dir / "runs";
  int pipe = -1;
  const pid_t load = testing::SpawnCli(RemoteLoad({"--runs", "4", "--out", out, "--quiet"}), &pipe);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(out + "/run01.txt") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(fs::exists(out + "/run01.txt"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // into the second run
  REQUIRE(::kill(load, SIGTERM) == 0);
  const CliResult run = testing::AwaitCli(load, pipe);
  REQUIRE(run.exited);
  CHECK_MESSAGE(run.exit_code == 1, run.output);
  CHECK(Contains(run.output, "PARTIAL: 1 run of 4 planned (run02 was interrupted): do not quote"));
  CHECK(ReadJson(out + "/run02.json")["abort_reason"] == "interrupted");
  CHECK_FALSE(fs::exists(out + "/run03.json"));
  CHECK(ReadJson(out + "/summary.json")["complete"] == false);
  CHECK(server.Stop().exit_code == 0);
}

}  // namespace
}  // namespace warmup
