// SqlConnection over a SQLite file (sql.h).
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "history/sql.h"

namespace warmup::history {
namespace {

class SqliteConnection : public SqlConnection {
 public:
  SqliteConnection(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteConnection() override { sqlite3_close(db_); }

  StatusOr<std::vector<SqlRow>> Query(const std::string& sql, const std::vector<SqlValue>& params) override {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &statement, nullptr) !=
        SQLITE_OK) {
      return Failed("prepare");
    }
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> owned(statement, sqlite3_finalize);
    for (size_t i = 0; i < params.size(); ++i) {
      const int rc = params[i] ? sqlite3_bind_text(statement, static_cast<int>(i + 1), params[i]->data(),
                                                   static_cast<int>(params[i]->size()), SQLITE_TRANSIENT)
                               : sqlite3_bind_null(statement, static_cast<int>(i + 1));
      if (rc != SQLITE_OK) return Failed("bind");
    }
    std::vector<SqlRow> rows;
    for (;;) {
      const int rc = sqlite3_step(statement);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) return Failed("step");
      SqlRow row;
      for (int c = 0; c < sqlite3_column_count(statement); ++c) {
        const auto* text = sqlite3_column_text(statement, c);
        if (text == nullptr) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(
              std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(statement, c)));
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  Status BeginWrite() override { return Query("BEGIN IMMEDIATE", {}).status(); }
  const char* IdColumn() const override { return "INTEGER PRIMARY KEY"; }
  std::string Describe() const override { return "sqlite " + path_; }

 private:
  Status Failed(const char* what) const {
    return UnavailableError(Describe() + ": " + what + ": " + sqlite3_errmsg(db_));
  }

  sqlite3* db_;
  std::string path_;
};

}  // namespace

StatusOr<std::unique_ptr<SqlConnection>> OpenSqlite(const std::string& path, int busy_timeout_ms) {
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string why = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return FailedPreconditionError("history " + path + ": cannot open it: " + why);
  }
  sqlite3_busy_timeout(db, busy_timeout_ms);
  // WAL: readers do not block the writer, and a writer that dies leaves the
  // file whole; FULL: a run said to be recorded survives a power cut.
  // Switching a new file to WAL takes an exclusive lock for which SQLite
  // does not wait (two processes creating one store at once): retried here
  // for as long as a busy writer would be waited for.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
  for (const char* pragma :
       {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON"}) {
    int rc = SQLITE_OK;
    while ((rc = sqlite3_exec(db, pragma, nullptr, nullptr, nullptr)) == SQLITE_BUSY &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (rc != SQLITE_OK) {
      const std::string why = sqlite3_errmsg(db);
      sqlite3_close(db);
      return FailedPreconditionError("history " + path + ": not a SQLite database, or unusable: " + why);
    }
  }
  auto connection = std::make_unique<SqliteConnection>(db, path);
  return std::unique_ptr<SqlConnection>(std::move(connection));
}

}  // namespace warmup::history
