// The history store (warmup/history.h): one schema and one set of statements
// over either database (sql.h).
#include "warmup/history.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>

#include "history/sql.h"
#include "report/setup_fields.h"

namespace warmup {
namespace {

using history::SqlConnection;
using history::SqlRow;
using history::SqlValue;
using json = nlohmann::json;

// How long a writer waits for another to finish before it gives up.
constexpr int kBusyTimeoutMs = 30'000;
// How long a PostgreSQL store may take to answer a connection.
constexpr int kConnectTimeoutSeconds = 10;

std::string NowUtc() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// The runs of one setup, in its words. A field's value that runs recorded
// before the field also had goes on in their series (setup_fields.h).
std::string SeriesOf(const RunRecord& run) {
  std::string series;
  for (const auto& [label, value] : run.setup) {
    const report::SetupField* field = report::FindSetupField(label);
    if (field != nullptr && field->own_series_value != nullptr && value != field->own_series_value) continue;
    series += (series.empty() ? "" : "; ") + label + ": " + value;
  }
  return series;
}

class SqlHistory : public History {
 public:
  explicit SqlHistory(std::unique_ptr<SqlConnection> db) : db_(std::move(db)) {}

  // Creates the schema in an empty store, migrates an older one, refuses a
  // newer one and a database that is not a warmup history.
  Status Prepare() {
    auto version = Version();
    if (!version.ok()) return Refuse("its schema version cannot be read: " + version.status().message());
    return *version == 0 ? Create() : CheckVersion(*version);
  }

  StatusOr<bool> Record(const std::string& report_json, const std::string& name) override {
    auto run = ParseRunRecord(report_json, name);
    if (!run.ok()) return run.status();
    if (auto s = db_->BeginWrite(); !s.ok()) return s;
    auto recorded = Insert(*run, report_json);
    if (!recorded.ok()) {
      (void)db_->Query("ROLLBACK");
      return recorded.status();
    }
    if (auto s = db_->Query("COMMIT").status(); !s.ok()) {
      (void)db_->Query("ROLLBACK");
      return s;
    }
    return *recorded;
  }

  StatusOr<std::vector<HistoryRun>> Runs(const HistoryQuery& query) override {
    // One filter for the runs and for their metrics: a query of one host
    // reads no other host's figures.
    std::string where = " WHERE 1 = 1";
    std::vector<SqlValue> params;
    if (!query.host.empty()) {
      params.push_back("%" + query.host + "%");
      where += " AND host LIKE $" + std::to_string(params.size());
    }
    if (!query.dataset.empty()) {
      params.push_back(query.dataset + "%");
      where += " AND dataset LIKE $" + std::to_string(params.size());
    }
    if (!query.all_runs) where += " AND exit_code = 0";
    auto rows = db_->Query(
        "SELECT id, recorded_at, started_at, run_label, exit_code, failure, series, build, loader_build, "
        "server, "
        "server_build, command_line, setup, collection_counts, schema_name, source_file, identity FROM "
        "warmup_runs" +
            where + " ORDER BY started_at, id",
        params);
    if (!rows.ok()) return rows.status();
    auto metric_rows = db_->Query(
        "SELECT run_id, metric, unit, value FROM warmup_metrics WHERE run_id IN (SELECT id FROM warmup_runs" +
            where + ")",
        params);
    if (!metric_rows.ok()) return metric_rows.status();
    std::map<int64_t, std::map<std::string, RunMetric>> metrics;
    for (const SqlRow& m : *metric_rows) {
      metrics[std::stoll(*m[0])][*m[1]] = {std::stod(*m[3]), *m[2], std::nullopt};
    }
    std::vector<HistoryRun> runs;
    try {
      for (const SqlRow& r : *rows) {
        HistoryRun h;
        h.id = std::stoll(*r[0]);
        h.recorded_at = *r[1];
        RunRecord& record = h.record;
        record.started_at = *r[2];
        record.run_label = *r[3];
        record.exit_code = std::stoi(*r[4]);
        record.failure = *r[5];
        h.series = *r[6];
        record.build = *r[7];
        record.loader_build = *r[8];
        record.server = *r[9];
        record.server_build = *r[10];
        record.command_line = *r[11];
        record.setup = json::parse(*r[12]).get<std::map<std::string, std::string>>();
        record.collection_counts = json::parse(*r[13]).get<std::map<std::string, int64_t>>();
        record.schema = *r[14];
        record.file = *r[15];
        record.identity = *r[16];
        record.metrics = std::move(metrics[h.id]);
        runs.push_back(std::move(h));
      }
    } catch (const std::exception& e) {
      return DataLossError(Describe() + ": a recorded run cannot be read back (" + e.what() + ")");
    }
    return runs;
  }

  std::string Describe() const override { return db_->Describe(); }

 private:
  Status Refuse(const std::string& why) const {
    return FailedPreconditionError("history " + Describe() + ": " + why);
  }

  // The stored schema version; 0 when the store has no version table.
  StatusOr<int> Version() {
    auto tables = Tables();
    if (!tables.ok()) return tables.status();
    if (std::find(tables->begin(), tables->end(), "warmup_history_schema") == tables->end()) return 0;
    auto version = db_->Query("SELECT version FROM warmup_history_schema");
    if (!version.ok()) return version.status();
    if (version->size() != 1 || !(*version)[0][0]) return DataLossError("damaged");
    return std::stoi(*(*version)[0][0]);
  }

  // The names of the store's tables (a query that cannot fail on a
  // database without them: a failed statement would end a PostgreSQL
  // transaction).
  StatusOr<std::vector<std::string>> Tables() {
    auto rows = db_->Query(db_->Describe().starts_with("sqlite")
                               ? "SELECT name FROM sqlite_master WHERE type = 'table'"
                               : "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                                 "current_schema()");
    if (!rows.ok()) return rows.status();
    std::vector<std::string> names;
    for (const SqlRow& row : *rows) names.push_back(row[0].value_or(""));
    return names;
  }

  Status CheckVersion(int found) const {
    if (found > kHistorySchemaVersion) {
      return Refuse("its schema is version " + std::to_string(found) + ", newer than this build's (" +
                    std::to_string(kHistorySchemaVersion) + "): use a newer warmup");
    }
    return OkStatus();  // version 1 is the first: nothing to migrate yet
  }

  // The schema, in one write transaction: a second process that created it
  // meanwhile is found inside the lock, and the database's other tables, if
  // it has any, are never touched.
  Status Create() {
    if (auto s = db_->BeginWrite(); !s.ok()) return Refuse(s.message());
    auto fail = [&](const std::string& why) {
      (void)db_->Query("ROLLBACK");
      return Refuse(why);
    };
    if (auto version = Version(); !version.ok() || *version != 0) {
      (void)db_->Query("ROLLBACK");
      return version.ok() ? CheckVersion(*version) : Refuse("its schema version cannot be read");
    }
    auto tables = Tables();
    if (!tables.ok()) return fail(tables.status().message());
    if (!tables->empty()) return fail("it holds other tables and no warmup history: it is left as it is");
    const std::string id = db_->IdColumn();
    for (const std::string& sql : {
             std::string("CREATE TABLE warmup_history_schema (version INTEGER NOT NULL)"),
             "CREATE TABLE warmup_runs (id " + id +
                 ", identity TEXT NOT NULL UNIQUE, recorded_at TEXT NOT NULL, started_at TEXT NOT NULL, "
                 "run_label TEXT NOT NULL, exit_code INTEGER NOT NULL, failure TEXT NOT NULL, series TEXT "
                 "NOT NULL, "
                 "host TEXT NOT NULL, dataset TEXT NOT NULL, build TEXT NOT NULL, loader_build TEXT NOT "
                 "NULL, "
                 "server TEXT NOT NULL, server_build TEXT NOT NULL, command_line TEXT NOT NULL, setup TEXT "
                 "NOT NULL, "
                 "collection_counts TEXT NOT NULL, schema_name TEXT NOT NULL, source_file TEXT NOT NULL, "
                 "report TEXT NOT NULL)",
             std::string("CREATE TABLE warmup_metrics (run_id BIGINT NOT NULL REFERENCES warmup_runs (id), "
                         "metric TEXT NOT NULL, unit TEXT NOT NULL, value DOUBLE PRECISION NOT NULL, "
                         "PRIMARY KEY (run_id, metric))"),
             std::string("CREATE INDEX warmup_runs_by_series ON warmup_runs (series, started_at)"),
             "INSERT INTO warmup_history_schema (version) VALUES (" + std::to_string(kHistorySchemaVersion) +
                 ")",
         }) {
      if (auto s = db_->Query(sql).status(); !s.ok()) return fail(s.message());
    }
    if (auto s = db_->Query("COMMIT").status(); !s.ok()) return fail(s.message());
    return OkStatus();
  }

  // Inside the write transaction: false when the run is there already.
  StatusOr<bool> Insert(const RunRecord& run, const std::string& report_json) {
    auto existing = db_->Query("SELECT report FROM warmup_runs WHERE identity = $1", {run.identity});
    if (!existing.ok()) return existing.status();
    if (!existing->empty()) {
      if ((*existing)[0][0] == report_json) return false;
      return AlreadyExistsError(run.file + ": the history holds another report of the same run (" +
                                run.identity + "); a recorded run is never replaced");
    }
    auto inserted = db_->Query(
        "INSERT INTO warmup_runs (identity, recorded_at, started_at, run_label, exit_code, failure, series, "
        "host, "
        "dataset, build, loader_build, server, server_build, command_line, setup, collection_counts, "
        "schema_name, "
        "source_file, report) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, "
        "$17, "
        "$18, $19) RETURNING id",
        {run.identity, NowUtc(), run.started_at, run.run_label, std::to_string(run.exit_code), run.failure,
         SeriesOf(run), run.setup.at("host"), run.setup.at("dataset"), run.build, run.loader_build,
         run.server, run.server_build, run.command_line, json(run.setup).dump(),
         json(run.collection_counts).dump(), run.schema, run.file, report_json});
    if (!inserted.ok()) return inserted.status();
    if (inserted->size() != 1 || !(*inserted)[0][0]) {
      return UnavailableError(Describe() + ": no id for the run");
    }
    const std::string id = *(*inserted)[0][0];
    for (const auto& [metric, value] : run.metrics) {
      std::ostringstream number;
      number.precision(17);
      number << value.value;
      if (auto s =
              db_->Query("INSERT INTO warmup_metrics (run_id, metric, unit, value) VALUES ($1, $2, $3, $4)",
                         {id, metric, value.unit, number.str()})
                  .status();
          !s.ok()) {
        return s;
      }
    }
    return true;
  }

  std::unique_ptr<SqlConnection> db_;
};

}  // namespace

StatusOr<std::unique_ptr<History>> History::Open(const std::string& location) {
  if (location.empty()) return InvalidArgumentError("a history location is empty");
  const bool postgres = location.starts_with("postgresql://") || location.starts_with("postgres://");
  auto db = postgres ? history::OpenPostgres(location, kConnectTimeoutSeconds)
                     : history::OpenSqlite(location, kBusyTimeoutMs);
  if (!db.ok()) return db.status();
  auto store = std::make_unique<SqlHistory>(std::move(db).value());
  if (auto s = store->Prepare(); !s.ok()) return s;
  return std::unique_ptr<History>(std::move(store));
}

std::string DefaultHistoryLocation() {
  if (const char* set = std::getenv("WARMUP_HISTORY"); set != nullptr && *set != '\0') return set;
  if (const char* data = std::getenv("XDG_DATA_HOME"); data != nullptr && *data != '\0') {
    return std::string(data) + "/warmup/history.sqlite";
  }
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : ".") + "/.local/share/warmup/history.sqlite";
}

StatusOr<bool> RecordReportFile(History& history, const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return NotFoundError(file + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  return history.Record(text.str(), file);
}

}  // namespace warmup
