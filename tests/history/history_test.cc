// The history store on SQLite: runs recorded once and read back as their
// reports say, failed runs kept and marked, a database that is not a
// warmup history left alone, and two processes recording at once losing
// nothing; then warmup history and --history as a user runs them, with a
// real slower server found as a change point.
#include "warmup/history.h"

#include <sqlite3.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "apps/cli.h"
#include "common/postgres_server.h"
#include "common/run_reports.h"
#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "warmup/run_record.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;
using testing::CliResult;
using testing::Contains;
using testing::ReadText;
using testing::RunCli;
using testing::TempDir;
using testing::WriteRunReport;

// Runs `sql` on the SQLite file `path` outside warmup; returns the first
// column of the first row ("" without one).
std::string Sqlite(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  std::string first;
  auto keep = [](void* out, int columns, char** values, char**) {
    if (columns > 0 && values[0] != nullptr && static_cast<std::string*>(out)->empty()) {
      *static_cast<std::string*>(out) = values[0];
    }
    return 0;
  };
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), keep, &first, &error);
  const std::string why = error != nullptr ? error : "";
  sqlite3_free(error);
  sqlite3_close(db);
  REQUIRE_MESSAGE(rc == SQLITE_OK, why);
  return first;
}

// Records a run into `store` (a fresh one) as these tests do on either
// database: once, read back metric for metric, never replaced.
void CheckRecordsOnce(const std::string& store, const TempDir& dir) {
  auto history = History::Open(store);
  REQUIRE_OK(history);
  const std::string report = WriteRunReport(dir.path(), "r1", 10, 500);
  auto recorded = RecordReportFile(**history, report);
  REQUIRE_OK(recorded);
  CHECK(*recorded);
  auto again = RecordReportFile(**history, report);
  REQUIRE_OK(again);
  CHECK_FALSE(*again);  // the same run: a no-op, not a duplicate
  // Another report of the same run (label, start, host, pid) is refused.
  fs::create_directories(dir / "edited");
  const std::string edited = WriteRunReport(dir / "edited", "r1", 11, 500);
  auto conflict = RecordReportFile(**history, edited);
  CHECK(conflict.status().code() == StatusCode::kAlreadyExists);

  auto runs = (*history)->Runs({});
  REQUIRE_OK(runs);
  REQUIRE(runs->size() == 1);
  auto expected = ReadRunRecord(report);
  REQUIRE_OK(expected);
  const HistoryRun& run = runs->front();
  CHECK(run.record.identity == expected->identity);
  CHECK(run.record.run_label == "r1");
  CHECK(run.record.build == "0.1.0 (aaaaaaaaaaaa)");
  CHECK(run.record.setup == expected->setup);
  CHECK(run.record.collection_counts == expected->collection_counts);
  REQUIRE(run.record.metrics.size() == expected->metrics.size());
  for (const auto& entry : expected->metrics) {  // not a structured binding: clang 14 cannot CAPTURE one
    const std::string& name = entry.first;
    CAPTURE(name);
    CHECK(run.record.metrics.at(name).value == entry.second.value);  // exact: stored with 17 digits
    CHECK(run.record.metrics.at(name).unit == entry.second.unit);
  }
  CHECK(run.series.find("dataset: f1") != std::string::npos);
  // Opened again, the store is as it was left.
  auto reopened = History::Open(store);
  REQUIRE_OK(reopened);
  auto same = (*reopened)->Runs({});
  REQUIRE_OK(same);
  CHECK(same->size() == 1);
}

// Runs recorded before reports said how the source was read have series
// without the field, and all of them read inline: an inline run must go on in
// their series, and a run read ahead (its wall-clock overlaps decoding) start
// its own.
TEST_CASE(
    "History: an inline run keeps the series of runs recorded before read ahead, a run read ahead starts "
    "one") {
  TempDir dir;
  auto history = History::Open(dir / "h.sqlite");
  REQUIRE_OK(history);
  REQUIRE_OK(RecordReportFile(**history, WriteRunReport(dir.path(), "inline", 10, 500)));
  REQUIRE_OK(RecordReportFile(**history, WriteRunReport(dir.path(), "ahead", 10, 500, [](RunResult& r) {
    r.config.source_read_ahead = true;
  })));
  auto runs = (*history)->Runs({});
  REQUIRE_OK(runs);
  REQUIRE(runs->size() == 2);
  std::map<std::string, std::string> series;
  for (const HistoryRun& run : *runs) series[run.record.run_label] = run.series;
  CHECK(series["inline"].find("source read") == std::string::npos);
  CHECK(series["ahead"].find("source read: ahead, on a second thread") != std::string::npos);
  CHECK(series["inline"] != series["ahead"]);
}

// Likewise every run recorded before reports said who wrote the records wrote
// them on the upserting thread.
TEST_CASE(
    "History: a run writing records inline keeps the series of the runs before the field, a run writing "
    "them in the background starts one") {
  TempDir dir;
  auto history = History::Open(dir / "h.sqlite");
  REQUIRE_OK(history);
  const std::string older = WriteRunReport(dir.path(), "older", 10, 500);
  {
    nlohmann::json doc = nlohmann::json::parse(std::ifstream(older));
    REQUIRE(doc["config"].erase("record_writes") == 1);
    std::ofstream(older) << doc.dump();
  }
  REQUIRE_OK(RecordReportFile(**history, older));
  REQUIRE_OK(RecordReportFile(**history, WriteRunReport(dir.path(), "inline", 10, 500)));
  REQUIRE_OK(RecordReportFile(**history, WriteRunReport(dir.path(), "background", 10, 500, [](RunResult& r) {
    r.config.records = RecordStorage{RecordCompression::kNone, RecordWrites::kBackground};
  })));
  auto runs = (*history)->Runs({});
  REQUIRE_OK(runs);
  REQUIRE(runs->size() == 3);
  std::map<std::string, std::string> series;
  for (const HistoryRun& run : *runs) series[run.record.run_label] = run.series;
  CHECK(series["older"] == series["inline"]);
  CHECK(series["background"].find("record writes: background") != std::string::npos);
  CHECK(series["background"] != series["inline"]);
}

TEST_CASE("History records a run once, reads it back as its report says, and never replaces it") {
  TempDir dir;
  const std::string store = dir / "deep/er/history.sqlite";  // its directory is made
  CheckRecordsOnce(store, dir);
  CHECK((*History::Open(store))->Describe() == "sqlite " + store);
  auto expected = ReadRunRecord(dir / "r1.json");
  REQUIRE_OK(expected);
  CHECK(Sqlite(store, "SELECT count(*) FROM warmup_metrics") == std::to_string(expected->metrics.size()));
  CHECK(Sqlite(store, "SELECT version FROM warmup_history_schema") == std::to_string(kHistorySchemaVersion));
  CHECK(Sqlite(store, "PRAGMA journal_mode") == "wal");
}

// Failed runs kept, marked and filtered, and the host and dataset filters,
// in the fresh store `store`.
void CheckFailedAndFilters(const std::string& store, const TempDir& dir) {
  auto history = History::Open(store);
  REQUIRE_OK(history);
  REQUIRE_OK(RecordReportFile(**history, WriteRunReport(dir.path(), "ok", 10, 500)));
  REQUIRE_OK(RecordReportFile(**history, WriteRunReport(dir.path(), "bad", 10, 500, [](RunResult& r) {
    r.verification = Verification::kMismatch;
  })));
  REQUIRE_OK(RecordReportFile(**history, WriteRunReport(dir.path(), "unverified", 10, 500, [](RunResult& r) {
    r.verification = Verification::kUnknown;  // exit 2: its figures stand, its counts are unknown
  })));
  REQUIRE_OK(RecordReportFile(**history, WriteRunReport(dir.path(), "other", 10, 500, [](RunResult& r) {
    r.dataset_fingerprint = "e9";
    r.environment.hostname = "box";
  })));
  auto standing = (*history)->Runs({});
  REQUIRE_OK(standing);
  CHECK(standing->size() == 2);
  HistoryQuery failed_too;
  failed_too.all_runs = true;
  auto all = (*history)->Runs(failed_too);
  REQUIRE_OK(all);
  REQUIRE(all->size() == 4);
  for (const HistoryRun& r : *all) {
    if (r.record.run_label == "bad") CHECK(r.record.exit_code == 1);
    if (r.record.run_label == "unverified") CHECK(r.record.exit_code == 2);
  }
  HistoryQuery box;
  box.host = "box";
  auto on_box = (*history)->Runs(box);
  REQUIRE_OK(on_box);
  REQUIRE(on_box->size() == 1);
  CHECK(on_box->front().record.run_label == "other");
  HistoryQuery f;
  f.dataset = "f";
  auto f1 = (*history)->Runs(f);
  REQUIRE_OK(f1);
  CHECK(f1->size() == 1);
}

TEST_CASE(
    "History keeps failed runs, marked, out of a series unless asked, and filters by host and dataset") {
  TempDir dir;
  CheckFailedAndFilters(dir / "h.sqlite", dir);
}

TEST_CASE("History leaves a database that is not its own alone, and refuses a newer schema") {
  TempDir dir;
  const std::string foreign = dir / "app.sqlite";
  Sqlite(foreign, "CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ada')");
  auto refused = History::Open(foreign);
  CHECK(refused.status().code() == StatusCode::kFailedPrecondition);
  CHECK(Contains(refused.status().message(), "holds other tables and no warmup history"));
  CHECK(Sqlite(foreign, "SELECT name FROM users") == "ada");
  CHECK(Sqlite(foreign, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'warmup%'") == "0");

  const std::string newer = dir / "newer.sqlite";
  REQUIRE_OK(History::Open(newer));
  Sqlite(newer, "UPDATE warmup_history_schema SET version = 99");
  auto too_new = History::Open(newer);
  CHECK(Contains(too_new.status().message(), "its schema is version 99, newer than this build's"));

  const std::string text = dir / "notes.txt";
  std::ofstream(text) << "not a database at all, but a page of text that is long enough to be read\n";
  CHECK(History::Open(text).status().code() == StatusCode::kFailedPrecondition);
}

TEST_CASE("DefaultHistoryLocation: $WARMUP_HISTORY, else the user's data directory") {
  const char* saved = std::getenv("WARMUP_HISTORY");
  const std::string keep = saved != nullptr ? saved : "";
  ::setenv("WARMUP_HISTORY", "/x/h.sqlite", 1);
  CHECK(DefaultHistoryLocation() == "/x/h.sqlite");
  ::unsetenv("WARMUP_HISTORY");
  ::setenv("XDG_DATA_HOME", "/d", 1);
  CHECK(DefaultHistoryLocation() == "/d/warmup/history.sqlite");
  ::unsetenv("XDG_DATA_HOME");
  CHECK(DefaultHistoryLocation().ends_with("/.local/share/warmup/history.sqlite"));
  if (saved != nullptr) ::setenv("WARMUP_HISTORY", keep.c_str(), 1);
}

TEST_CASE("warmup history record from two processes at once: no run lost, the file whole") {
  TempDir dir;
  for (const char* side : {"a", "b"}) {
    fs::create_directories(dir / side);
    for (int i = 0; i < 25; ++i)
      WriteRunReport(dir / side, std::string(side) + std::to_string(i), 10 + i, 500);
  }
  const std::string store = dir / "shared.sqlite";
  int out_a = -1, out_b = -1;
  const pid_t a = testing::SpawnCli({"history", "record", dir / "a", "--history", store}, &out_a);
  const pid_t b = testing::SpawnCli({"history", "record", dir / "b", "--history", store}, &out_b);
  const CliResult ra = testing::AwaitCli(a, out_a), rb = testing::AwaitCli(b, out_b);
  CHECK_MESSAGE(ra.exit_code == 0, ra.output);
  CHECK_MESSAGE(rb.exit_code == 0, rb.output);
  CHECK(Contains(ra.output, "recorded 25, already there 0"));
  CHECK(Contains(rb.output, "recorded 25, already there 0"));
  CHECK(Sqlite(store, "SELECT count(*) FROM warmup_runs") == "50");
  CHECK(Sqlite(store, "PRAGMA integrity_check") == "ok");
  // Recording the same directory again changes nothing.
  const CliResult again = RunCli({"history", "record", dir / "a", "--history", store});
  CHECK(Contains(again.output, "recorded 0, already there 25"));
  CHECK(Sqlite(store, "SELECT count(*) FROM warmup_runs") == "50");
}

TEST_CASE("warmup history: show lists a series, changes exits 3 on a step, 0 on A/A runs, 4 on too few") {
  TempDir dir;
  const std::string steps = dir / "steps.sqlite", same = dir / "same.sqlite", few = dir / "few.sqlite";
  std::vector<std::string> step_reports, same_reports;
  // 12 runs, 6 on each side of the step: of the 924 ways to split them, only
  // the true one scores as high, so p is about 0.002, below 0.05 / 4 metrics
  // (5 and 5 could not be told apart at that level: 2 / 252 is about 0.008).
  for (int i = 0; i < 12; ++i) {
    auto at = [i](RunResult& r) { r.started_at = "2026-12-04T10:" + std::to_string(10 + i) + ":00Z"; };
    const double jitter = (i % 3) * 0.05;  // 0, 0.05, 0.1: the same three values around 10 s
    step_reports.push_back(
        WriteRunReport(dir.path(), "s" + std::to_string(i), (i < 6 ? 10 : 12) + jitter, 500, at));
    same_reports.push_back(WriteRunReport(dir.path(), "e" + std::to_string(i), 10 + jitter, 500, at));  // A/A
  }
  std::vector<std::string> record = {"history", "record", "--history", steps};
  record.insert(record.end(), step_reports.begin(), step_reports.end());
  REQUIRE(RunCli(record).exit_code == 0);
  record = {"history", "record", "--history", same};
  record.insert(record.end(), same_reports.begin(), same_reports.end());
  REQUIRE(RunCli(record).exit_code == 0);
  REQUIRE(RunCli({"history", "record", "--history", few, step_reports[0], step_reports[1]}).exit_code == 0);

  const CliResult show = RunCli({"history", "show", "--history", steps});
  CHECK(show.exit_code == 0);
  CHECK(Contains(show.output, "s11"));
  CHECK(show.output.find("s0 ") < show.output.find("s11 "));  // in the order the runs were taken

  const std::string json = dir / "changes.json";
  const CliResult changed = RunCli({"history", "changes", "--history", steps, "--json", json});
  CHECK_MESSAGE(changed.exit_code == 3, changed.output);
  CHECK(Contains(changed.output, "at s6 (started 2026-12-04T10:16:00Z"));
  CHECK(Contains(changed.output, "verdict: REGRESSION: total_seconds of series 1 at s6"));
  CHECK(nlohmann::json::parse(ReadText(json))["exit_code"] == 3);

  const CliResult unchanged = RunCli({"history", "changes", "--history", same});
  CHECK_MESSAGE(unchanged.exit_code == 0, unchanged.output);
  CHECK(Contains(unchanged.output, "total_seconds: no change point in 12 runs"));
  CHECK(RunCli({"history", "changes", "--history", few}).exit_code == 4);
  CHECK(RunCli({"history", "frobnicate"}).exit_code == 64);
  CHECK(RunCli({"history", "record", "--history", few}).exit_code == 64);
  const CliResult missing = RunCli({"history", "record", "--history", few, dir / "nothing.json"});
  CHECK(missing.exit_code == 1);
  CHECK(Contains(missing.output, "nothing.json: cannot be read"));
}

TEST_CASE(
    "regression: history trend read only the runs that stood, so its page never said how many runs it left "
    "out") {
  TempDir dir;
  const std::string store = dir / "h.sqlite";
  std::vector<std::string> record = {"history", "record", "--history", store};
  // Nine runs: enough to resolve a change of twice their noise (six could not, and would be inconclusive).
  for (int i = 0; i < 9; ++i) {
    record.push_back(WriteRunReport(dir.path(), "ok" + std::to_string(i), 10 + (i % 3) * 0.05, 500));
  }
  record.push_back(WriteRunReport(dir.path(), "failed", 10, 500,
                                  [](RunResult& r) { r.verification = Verification::kMismatch; }));
  REQUIRE(RunCli(record).exit_code == 0);
  for (const char* action : {"changes", "trend"}) {
    CAPTURE(action);
    const std::string json = dir / (std::string(action) + ".json");
    std::vector<std::string> args = {"history", action, "--history", store, "--json", json};
    if (std::string(action) == "trend") args.insert(args.end(), {"--html", dir / "trend.html"});
    const CliResult run = RunCli(args);
    CHECK_MESSAGE(run.exit_code == 0, run.output);
    CHECK(Contains(run.output, "9 runs (1 more failed or not verified, not counted)"));
    CHECK(nlohmann::json::parse(ReadText(json))["series"][0]["not_counted_runs"] == 1);
  }
}

TEST_CASE("reindex --runs --history, then a slower server: history changes names its first run, exit 3") {
  TempDir dir;
  const std::string pristine = testing::GenerateTiny(dir);
  const std::string store = dir / "h.sqlite";
  const CliResult base =
      RunCli({"reindex", "--pristine-dir", pristine, "--work-dir", dir / "work", "--runs", "6", "--out",
              dir / "base", "--run", "base", "--history=" + store, "--quiet"});
  REQUIRE_MESSAGE(base.exit_code == 0, base.output);
  // 3 ms more per upsert inside the server: 300 upserts, about 0.9 s a run,
  // far beyond what a busy machine adds to a run of the tiny catalog.
  const CliResult slow = RunCli({"reindex", "--pristine-dir", pristine, "--work-dir", dir / "work", "--runs",
                                 "6", "--out", dir / "slow", "--run", "slow", "--history=" + store, "--quiet",
                                 "--server-args", "--inject-upsert-delay-us 3000"});
  REQUIRE_MESSAGE(slow.exit_code == 0, slow.output);
  const CliResult changes = RunCli({"history", "changes", "--history", store, "--metric", "total_seconds",
                                    "--metric", "server_cpu_us_per_entity"});
  CHECK_MESSAGE(changes.exit_code == 3, changes.output);
  CHECK(Contains(changes.output, "total_seconds: 1 change point in 12 runs"));
  CHECK(Contains(changes.output, "at slow01 (started "));
  CHECK(Contains(changes.output, "(serve --inject-upsert-delay-us 3000)"));
  CHECK(Contains(changes.output, "verdict: REGRESSION: total_seconds of series 1 at slow01"));
  // show lists the server beside each run when it varies along the series.
  const CliResult show = RunCli({"history", "show", "--history", store});
  const size_t slow01 = show.output.find("slow01");
  REQUIRE(slow01 != std::string::npos);
  CHECK(show.output.find("(serve --inject-upsert-delay-us 3000)", slow01) < show.output.find('\n', slow01));
  CHECK(show.output.find("--inject-upsert-delay-us") > show.output.find("base06"));  // not before the change
  // Recording the series' reports again is a no-op: --history had them all.
  const CliResult again = RunCli({"history", "record", dir / "base", dir / "slow", "--history", store});
  CHECK(Contains(again.output, "recorded 0, already there 12"));
}

// The same store, on a real PostgreSQL server the test starts (and stops).

TEST_CASE(
    "History on PostgreSQL: a run recorded once, failed runs kept, another's database and a newer schema "
    "left alone") {
  if (!testing::PostgresServer::Available()) return;
  TempDir dir;
  testing::PostgresServer pg(dir.path());
  CheckRecordsOnce(pg.url(), dir);
  auto described = History::Open(pg.url());
  REQUIRE_OK(described);
  CHECK((*described)->Describe().rfind("postgresql 127.0.0.1:", 0) == 0);
  CHECK(pg.Sql("SELECT version FROM warmup_history_schema") == std::to_string(kHistorySchemaVersion));
  fs::create_directories(dir / "second");
  CheckFailedAndFilters(pg.CreateDatabase("second"), dir);

  const std::string foreign = pg.CreateDatabase("app");
  pg.Sql("CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ada')", "app");
  auto refused = History::Open(foreign);
  CHECK(Contains(refused.status().message(), "holds other tables and no warmup history"));
  CHECK(pg.Sql("SELECT name FROM users", "app") == "ada");
  CHECK(pg.Sql("SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'warmup%'", "app") ==
        "0");

  pg.Sql("UPDATE warmup_history_schema SET version = 99");
  CHECK(Contains(History::Open(pg.url()).status().message(), "its schema is version 99"));
  // A server that is not there: the reason, and never the URL (it may hold a password).
  auto absent = History::Open("postgresql://warmup:secret@127.0.0.1:1/x");
  CHECK(absent.status().code() == StatusCode::kFailedPrecondition);
  CHECK_FALSE(Contains(absent.status().message(), "secret"));
}

TEST_CASE("History on PostgreSQL: a connection lost mid-record is reported, and no earlier run is lost") {
  if (!testing::PostgresServer::Available()) return;
  TempDir dir;
  testing::PostgresServer pg(dir.path());
  auto history = History::Open(pg.url());
  REQUIRE_OK(history);
  for (int i = 0; i < 3; ++i)
    REQUIRE_OK(RecordReportFile(**history, WriteRunReport(dir.path(), "r" + std::to_string(i), 10, 500)));
  // The server ends the store's session, as a restart or a network cut would.
  pg.Sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'warmup' AND pid <> "
      "pg_backend_pid() AND backend_type = 'client backend'");
  auto lost = RecordReportFile(**history, WriteRunReport(dir.path(), "r3", 10, 500));
  CHECK(lost.status().code() == StatusCode::kUnavailable);
  CHECK_MESSAGE(Contains(lost.status().message(), "postgresql 127.0.0.1:"), lost.status().ToString());
  auto reopened = History::Open(pg.url());
  REQUIRE_OK(reopened);
  auto runs = (*reopened)->Runs({});
  REQUIRE_OK(runs);
  CHECK(runs->size() == 3);  // r0..r2, each whole; r3 not half there
  CHECK(pg.Sql("SELECT count(*) FROM warmup_metrics WHERE run_id NOT IN (SELECT id FROM warmup_runs)") ==
        "0");
  REQUIRE_OK(RecordReportFile(**reopened, dir / "r3.json"));  // recorded once the store is back
}

TEST_CASE("warmup history on PostgreSQL: two processes record at once, and changes finds the step, exit 3") {
  if (!testing::PostgresServer::Available()) return;
  TempDir dir;
  testing::PostgresServer pg(dir.path());
  for (const char* side : {"a", "b"}) {
    fs::create_directories(dir / side);
    for (int i = 0; i < 10; ++i) {
      const bool slow = std::string(side) == "b";
      WriteRunReport(dir / side, std::string(side) + std::to_string(i), (slow ? 12 : 10) + (i % 3) * 0.05,
                     500, [&](RunResult& r) {
                       r.started_at = std::string("2026-12-04T1") + (slow ? "1" : "0") + ":" +
                                      std::to_string(10 + i) + ":00Z";
                     });
    }
  }
  int out_a = -1, out_b = -1;
  const pid_t a = testing::SpawnCli({"history", "record", dir / "a", "--history", pg.url()}, &out_a);
  const pid_t b = testing::SpawnCli({"history", "record", dir / "b", "--history", pg.url()}, &out_b);
  const CliResult ra = testing::AwaitCli(a, out_a), rb = testing::AwaitCli(b, out_b);
  CHECK_MESSAGE(ra.exit_code == 0, ra.output);
  CHECK_MESSAGE(rb.exit_code == 0, rb.output);
  CHECK(pg.Sql("SELECT count(*) FROM warmup_runs") == "20");
  const CliResult changes = RunCli({"history", "changes", "--history", pg.url()});
  CHECK_MESSAGE(changes.exit_code == 3, changes.output);
  CHECK(Contains(changes.output, "at b0 (started 2026-12-04T11:10:00Z"));
  const CliResult show = RunCli({"history", "show", "--history", pg.url()});
  CHECK(show.output.find("a9 ") < show.output.find("b0 "));  // in the order the runs were taken
}

}  // namespace
}  // namespace warmup
