// warmup bench's table: rows worked out by hand from the figures below, and
// the run reports read back.
#include "warmup/bench.h"

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "common/temp_dir.h"
#include "warmup/report.h"
#include "warmup/run_result.h"

namespace warmup {
namespace {

using testing::TempDir;

constexpr int64_t kGiB = int64_t{1} << 30;

BenchRun Run(const std::string& report, double total, double read) {
  BenchRun r;
  r.report = report;
  r.exit_code = 0;
  r.total_seconds = total;
  r.load_wall_seconds = total;
  r.source_read_seconds = read;
  r.copied = 1000;
  r.compression = "deflate";  // as evitaDB writes records, bench's default
  r.record_writes = "inline";
  return r;
}

// Sitting "0.1": every run, every figure. Sitting "1.0": the null run not
// verified, no remote, no evitaDB, an embedded report without data sizes.
BenchFigures Figures() {
  BenchSitting first;
  first.label = "0.1";
  first.null_run = Run("n.json", 8, 8);
  first.embedded = Run("e.json", 40, 9.6);
  first.embedded->golive_seconds = 2;
  first.embedded->loader_peak_rss_bytes = kGiB;
  first.embedded->data_bytes_at_golive_start = 100'000'000;
  first.embedded->data_bytes_at_golive_end = 300'000'000;
  first.embedded->product_mean_us = 200;
  first.remote = Run("r.json", 50, 9);
  first.remote->server_peak_rss_bytes = 2 * kGiB;
  first.remote->server_stop_seconds = 0.5;
  first.remote->server_ended = "exited 0";
  first.evitadb = Run("v.json", 1000, 9);
  first.rtt_p50_us = 100;
  BenchSitting second;
  second.label = "1.0";
  second.null_run = Run("n2.json", 10, 8);
  second.null_run->exit_code = 2;
  second.embedded = Run("e2.json", 40, 9);
  second.embedded->product_mean_us = 180;
  second.remote_absent = "--no-remote";
  second.evitadb_absent = "no --evitadb-command";
  BenchFigures figures;
  figures.sittings = {first, second};
  figures.disk = {DiskWrite{"/out/.probe", 320'000'000, 2.0}};  // 160 MB/s
  return figures;
}

// The rows of `sitting`, by figure.
std::map<std::string, BenchRow> RowsOf(const std::vector<BenchRow>& rows, const std::string& sitting) {
  std::map<std::string, BenchRow> out;
  for (const BenchRow& r : rows) {
    if (r.sitting == sitting) out[r.figure] = r;
  }
  return out;
}

TEST_CASE("bench table: every target held against figures worked out by hand") {
  const std::vector<BenchRow> rows = BenchTable(Figures());
  CHECK(rows.size() == 8 + 8 + 1);
  auto first = RowsOf(rows, "0.1");
  REQUIRE(first.size() == 8);
  auto check = [&](const std::string& figure, double measured, TargetOutcome outcome) {
    CAPTURE(figure);
    REQUIRE(first.count(figure) == 1);
    REQUIRE(first[figure].measured.has_value());
    CHECK(*first[figure].measured == doctest::Approx(measured));
    CHECK(TargetOutcomeName(first[figure].outcome) == std::string(TargetOutcomeName(outcome)));
  };
  check("embedded TOTAL / null-target TOTAL", 40.0 / 8, TargetOutcome::kNotMet);    // 5 > 4
  check("embedded peak RSS (the loading process)", 1.0, TargetOutcome::kMet);       // 1 GiB <= 2
  check("warmup serve peak RSS", 2.0, TargetOutcome::kNotMet);                      // 2 GiB > 1.5
  check("warmup serve stop after SIGTERM", 0.5, TargetOutcome::kMet);               // 0.5 s <= 2
  check("source read, embedded / null-target", 9.6 / 8, TargetOutcome::kTooClose);  // 1.2, within 0.11 of 1.1
  check("embedded goLive write rate / disk's sequential write", (200e6 / 2) / 160e6,  // 0.625 >= 0.5
        TargetOutcome::kMet);
  check("remote TOTAL / (embedded TOTAL + n x RTT p50 x 1.2)", 50 / (40 + 1000 * 100e-6 * 1.2),  // 1.246 > 1
        TargetOutcome::kNotMet);
  check("evitaDB TOTAL / embedded TOTAL", 1000.0 / 40, TargetOutcome::kNotMet);  // 25 < 30
  CHECK(first["embedded goLive write rate / disk's sequential write"].value ==
        "200.0 MB in 2.00 s = 100.0 MB/s, disk 160.0 MB/s");

  const BenchRow& across = rows.back();
  CHECK(across.sitting == "1.0 vs 0.1");
  REQUIRE(across.measured.has_value());
  CHECK(*across.measured == doctest::Approx(180.0 / 200));  // 0.9 <= 1.2
  CHECK(across.outcome == TargetOutcome::kMet);
}

TEST_CASE("bench table: a run that is absent or did not exit 0 leaves its rows not measured, saying why") {
  auto second = RowsOf(BenchTable(Figures()), "1.0");
  for (const auto& entry : second) {
    // (clang before 16 cannot capture a structured binding)
    const std::string& figure = entry.first;
    const BenchRow& row = entry.second;
    CAPTURE(figure);
    if (figure == "embedded peak RSS (the loading process)") {
      CHECK(row.outcome != TargetOutcome::kNotMeasured);  // the embedded run stood
      continue;
    }
    CHECK(row.outcome == TargetOutcome::kNotMeasured);
    CHECK_FALSE(row.measured.has_value());
    CHECK_FALSE(row.why.empty());
  }
  CHECK(second["embedded TOTAL / null-target TOTAL"].why ==
        "the null-target run exited 2 (not verified): n2.json");
  CHECK(second["warmup serve peak RSS"].why == "no started warmup serve run (--no-remote)");
  CHECK(second["evitaDB TOTAL / embedded TOTAL"].why == "no evitaDB run (no --evitadb-command)");
  CHECK(second["embedded goLive write rate / disk's sequential write"].why ==
        "its report has no data sizes (a report older than warmup-run/8)");
}

// evitaDB's WARM_UP upsert writes its records itself, deflated, and the time
// targets are set for that mode: an embedded run that wrote them otherwise
// did less, and its time ratios are shown but held against nothing.
TEST_CASE("issue 52: the time rows are not quoted when the embedded run did not write records as evitaDB") {
  for (const auto& mode :
       {std::pair<std::string, std::string>{"none", "inline"}, {"deflate", "background"}, {"", ""}}) {
    // (clang before 16 cannot capture a structured binding)
    const std::string& compression = mode.first;
    const std::string& writes = mode.second;
    CAPTURE(compression);
    CAPTURE(writes);
    BenchFigures figures = Figures();
    figures.sittings[0].embedded->compression = compression;
    figures.sittings[0].embedded->record_writes = writes;
    const BenchRow row = RowsOf(BenchTable(figures), "0.1")["evitaDB TOTAL / embedded TOTAL"];
    CHECK(row.outcome == TargetOutcome::kNotMeasured);
    CHECK_FALSE(row.measured.has_value());
    CHECK(row.value == "1000.00 s / 40.00 s = 25 x, not quoted");
    CHECK(row.why.find("where evitaDB's are deflate, written inline (bench's defaults are evitaDB's)") !=
          std::string::npos);
  }
  BenchFigures figures = Figures();
  figures.sittings[0].embedded->record_writes = "background";
  figures.sittings[1].embedded->record_writes = "background";
  const std::vector<BenchRow> rows = BenchTable(figures);
  auto first = RowsOf(rows, "0.1");
  const std::string why =
      "the embedded run's records were deflate, written background, where evitaDB's are deflate, written "
      "inline (bench's defaults are evitaDB's)";
  CHECK(first["evitaDB TOTAL / embedded TOTAL"].why == why);
  CHECK(first["embedded TOTAL / null-target TOTAL"].why == why);
  CHECK(first["embedded TOTAL / null-target TOTAL"].value == "40.00 s / 8.00 s = 5 x, not quoted");
  CHECK(rows.back().figure == "Product mean upsert, embedded, last / first sitting");
  CHECK(rows.back().outcome == TargetOutcome::kNotMeasured);
  CHECK(rows.back().value == "180.0 us / 200.0 us = 0.9 x, not quoted");
  // Memory is held against its target whatever the records' mode.
  CHECK(first["embedded peak RSS (the loading process)"].outcome == TargetOutcome::kMet);
}

TEST_CASE("bench table: a server that had to be killed misses the stop target however quick") {
  BenchFigures figures = Figures();
  figures.sittings.resize(1);
  figures.sittings[0].remote->server_ended = "killed by SIGKILL after a grace period of 1 s";
  figures.sittings[0].remote->server_stop_seconds = 1.0;
  auto rows = RowsOf(BenchTable(figures), "0.1");
  const BenchRow& stop = rows["warmup serve stop after SIGTERM"];
  CHECK(stop.outcome == TargetOutcome::kNotMet);
  CHECK(stop.why == "it did not exit 0 (killed by SIGKILL after a grace period of 1 s)");
}

TEST_CASE("bench table: source read compares only runs that read the source the same way") {
  BenchFigures figures = Figures();
  figures.sittings.resize(1);
  figures.sittings[0].embedded->source_read_ahead = true;  // its 9.6 s would be a wait, the null's 8 s a read
  auto mixed = RowsOf(BenchTable(figures), "0.1")["source read, embedded / null-target"];
  CHECK(mixed.outcome == TargetOutcome::kNotMeasured);
  CHECK(mixed.why == "the embedded run read the source ahead, the null-target run inline");
  figures.sittings[0].null_run->source_read_ahead = true;
  auto both = RowsOf(BenchTable(figures), "0.1")["source read, embedded / null-target"];
  REQUIRE(both.measured.has_value());
  CHECK(*both.measured == doctest::Approx(9.6 / 8));
}

// goLive in Figures() writes 200 MB in 2 s: 100 MB/s.
TEST_CASE("bench table: goLive against the disk probes' median, too close to call when the probes disagree") {
  BenchFigures figures = Figures();
  auto golive = [&] {
    return RowsOf(BenchTable(figures), "0.1")["embedded goLive write rate / disk's sequential write"];
  };
  // 100, 400 and 160 MB/s: the median 160 gives 0.625, met alone; the
  // slowest (1.0) and the fastest (0.25) disagree about >= 0.5.
  figures.disk = {DiskWrite{"/out/.p", 100'000'000, 1.0}, DiskWrite{"/out/.p", 100'000'000, 0.25},
                  DiskWrite{"/out/.p", 160'000'000, 1.0}};
  BenchRow r = golive();
  CHECK(r.measured.value() == doctest::Approx(0.625));
  CHECK(r.outcome == TargetOutcome::kTooClose);
  CHECK(r.why == "the disk probes disagree: 1.000 x against the slowest, 0.250 x against the fastest");
  CHECK(r.value == "200.0 MB in 2.00 s = 100.0 MB/s, disk 160.0 MB/s (median of 3 probes, 100.0 to 400.0)");
  // 150, 160 and 180 MB/s: every probe says met (0.667, 0.625, 0.556).
  figures.disk = {DiskWrite{"/out/.p", 150'000'000, 1.0}, DiskWrite{"/out/.p", 160'000'000, 1.0},
                  DiskWrite{"/out/.p", 180'000'000, 1.0}};
  CHECK(golive().outcome == TargetOutcome::kMet);
  // 300 and 500 MB/s: the median of two is their mean, 400 (0.25); both say not met.
  figures.disk = {DiskWrite{"/out/.p", 300'000'000, 1.0}, DiskWrite{"/out/.p", 500'000'000, 1.0}};
  r = golive();
  CHECK(r.measured.value() == doctest::Approx(0.25));
  CHECK(r.outcome == TargetOutcome::kNotMet);
  // The text and JSON name every probe, in order, and the median.
  figures.disk = {DiskWrite{"/out/.p", 100'000'000, 1.0}, DiskWrite{"/out/.p", 100'000'000, 0.25},
                  DiskWrite{"/out/.p", 160'000'000, 1.0}};
  const std::vector<BenchRow> rows = BenchTable(figures);
  CHECK(
      RenderBenchText(figures, rows)
          .find("disk: 160.0 MB/s sequential write, the median of 3 probes of 95 MiB with fdatasync (100.0, "
                "400.0, 160.0 MB/s, in order; /out/.p)\n") != std::string::npos);
  const auto json = nlohmann::json::parse(RenderBenchJson(figures, rows));
  CHECK(json["disk"]["bytes_per_second"] == doctest::Approx(160e6));
  REQUIRE(json["disk"]["probes"].size() == 3);
  CHECK(json["disk"]["probes"][1]["bytes_per_second"] == doctest::Approx(400e6));
  CHECK(json["disk"]["probes"][1]["seconds"] == doctest::Approx(0.25));
}

TEST_CASE("bench exit status: 1 unless every run stood, then 3 for a missed target, 4 for one too close") {
  BenchRow met, missed, close, unmeasured;
  met.outcome = TargetOutcome::kMet;
  missed.outcome = TargetOutcome::kNotMet;
  close.outcome = TargetOutcome::kTooClose;
  unmeasured.outcome = TargetOutcome::kNotMeasured;
  CHECK(BenchExitCode({met}, false, false) == 1);
  CHECK(BenchExitCode({met}, false, true) == 1);
  CHECK(BenchExitCode({met, missed, close}, true, false) == 0);
  CHECK(BenchExitCode({met, close, missed}, true, true) == 3);
  CHECK(BenchExitCode({met, close, unmeasured}, true, true) == 4);
  CHECK(BenchExitCode({met, unmeasured}, true, true) == 0);
}

TEST_CASE("bench text and JSON: every row, its outcome and the count of each") {
  const BenchFigures figures = Figures();
  const std::vector<BenchRow> rows = BenchTable(figures);
  const std::string text = RenderBenchText(figures, rows);
  // 0.1: 3 met + the across row; 4 not met; 1 too close; 1.0: the RSS row met, 7 not measured.
  CHECK(text.find("targets: 5 met, 4 not met, 1 too close to call, 7 not measured\n") != std::string::npos);
  CHECK(text.find("disk: 160.0 MB/s sequential write") != std::string::npos);
  const auto json = nlohmann::json::parse(RenderBenchJson(figures, rows));
  CHECK(json["schema"] == "warmup-bench/1");
  CHECK(json["rows"].size() == rows.size());
  CHECK(json["rows"][0]["outcome"] == "not met");
  CHECK(json["rows"][0]["measured"] == doctest::Approx(5.0));
  CHECK(json["sittings"][1]["runs"]["remote"].is_null());
  CHECK(json["sittings"][0]["runs"]["evitadb"] == "v.json");
  CHECK(json["disk"]["bytes_per_second"] == doctest::Approx(160e6));
}

TEST_CASE("ReadBenchRun reads what a run report says, and names the file when it is not one") {
  TempDir dir;
  RunResult r;
  r.load_wall_seconds = 7.5;
  r.source_read_seconds = 1.25;
  r.config.source_read_ahead = true;
  r.golive = GoLiveOutcome::kCompleted;
  r.golive_seconds = 2.5;
  r.verify_mode = VerifyMode::kNone;
  r.verification = Verification::kSkipped;
  r.upsert.total_seconds = 6;
  CollectionResult product;
  product.entity_type = "Product";
  product.source_count = product.expected_count = product.copied = 4;
  product.upsert.mean_us = 321.5;
  r.collections = {product};
  r.loader.peak_rss_bytes = 123456789;
  ServerFigures server;
  server.usage.peak_rss_bytes = 555;
  server.ended = "exited 0";
  server.stop_seconds = 0.25;
  r.server_process = server;
  r.target_data = TargetData{"/w", 10, 30};
  const std::string file = dir / "run.json";
  std::ofstream(file) << RenderJsonReport(r);
  auto run = ReadBenchRun(file);
  REQUIRE_MESSAGE(run.ok(), run.status().ToString());
  CHECK(run->exit_code == 0);
  CHECK(run->total_seconds == 10.0);
  CHECK(run->load_wall_seconds == 7.5);
  CHECK(run->source_read_seconds == 1.25);
  CHECK(run->source_read_ahead);
  CHECK(run->upsert_seconds == 6);
  CHECK(run->golive_seconds == 2.5);
  CHECK(run->copied == 4);
  CHECK(run->product_mean_us == 321.5);
  CHECK(run->loader_peak_rss_bytes == 123456789);
  CHECK(run->verify_check == "none");
  CHECK(run->compression.empty());  // the report said nothing of records
  CHECK(run->server_peak_rss_bytes == 555);
  CHECK(run->server_stop_seconds == 0.25);
  CHECK(run->server_ended == "exited 0");
  CHECK(run->data_bytes_at_golive_start == 10);
  CHECK(run->data_bytes_at_golive_end == 30);

  std::ofstream(dir / "other.json") << R"({"schema": "warmup-bench/1"})";
  CHECK(ReadBenchRun(dir / "other.json").status().message() ==
        dir / "other.json: not a run report, but warmup-bench/1");
  std::ofstream(dir / "short.json") << R"({"schema": "warmup-run/8", "exit_code": 0})";
  CHECK(ReadBenchRun(dir / "short.json").status().code() == StatusCode::kInvalidArgument);
  CHECK(ReadBenchRun(dir / "absent.json").status().code() == StatusCode::kNotFound);
}

TEST_CASE("bench text: each run's records and verification, as its report says them") {
  TempDir dir;
  RunResult r;
  r.golive = GoLiveOutcome::kCompleted;
  r.config.records = RecordStorage{RecordCompression::kDeflate, RecordWrites::kInline};
  r.verify_mode = VerifyMode::kContent;
  r.verification = Verification::kVerified;
  const std::string file = dir / "embedded.json";
  std::ofstream(file) << RenderJsonReport(r);
  auto run = ReadBenchRun(file);
  REQUIRE_MESSAGE(run.ok(), run.status().ToString());
  CHECK(run->compression == "deflate");
  CHECK(run->record_writes == "inline");
  CHECK(run->verify_check == "content");
  CHECK(run->verification == "verified");
  BenchFigures figures;
  BenchSitting sitting;
  sitting.label = "0.05";
  sitting.embedded = *run;
  figures.sittings = {sitting};
  const std::string text = RenderBenchText(figures, BenchTable(figures));
  CHECK_MESSAGE(
      text.find("records deflate, written inline (as evitaDB writes them); verify content: verified\n") !=
          std::string::npos,
      text);
}

}  // namespace
}  // namespace warmup
