// The little SQL a history needs, over SQLite or PostgreSQL: statements with
// $1, $2 ... parameters (both read them), every value as text or NULL, and
// transactions. Internal to src/history.
#ifndef WARMUP_SRC_HISTORY_SQL_H_
#define WARMUP_SRC_HISTORY_SQL_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warmup/status.h"

namespace warmup::history {

using SqlValue = std::optional<std::string>;  // nullopt: NULL
using SqlRow = std::vector<SqlValue>;

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;
  // Runs `sql` with `params` bound to $1, $2, ...; returns the rows it
  // yields (none for a statement that yields none).
  // Errors: kUnavailable with the database's message.
  virtual StatusOr<std::vector<SqlRow>> Query(const std::string& sql,
                                              const std::vector<SqlValue>& params) = 0;
  // Query with no parameters.
  StatusOr<std::vector<SqlRow>> Query(const std::string& sql) { return Query(sql, {}); }
  // A transaction that takes the write lock at once (SQLite's BEGIN
  // IMMEDIATE), so that two writers queue rather than deadlock.
  virtual Status BeginWrite() = 0;
  // The column type of a row id that the database assigns.
  virtual const char* IdColumn() const = 0;
  virtual std::string Describe() const = 0;
};

// A SQLite file, created with its directory when absent; WAL journal, a busy
// timeout of `busy_timeout_ms`. Errors: kFailedPrecondition naming the file.
StatusOr<std::unique_ptr<SqlConnection>> OpenSqlite(const std::string& path, int busy_timeout_ms);

// A PostgreSQL database named by a postgresql:// URL (libpq's syntax), given
// `connect_timeout_seconds` unless the URL sets connect_timeout. Every write
// transaction takes one advisory lock, so writers queue.
// Errors: kFailedPrecondition with libpq's reason (never the URL, which may
// hold a password).
StatusOr<std::unique_ptr<SqlConnection>> OpenPostgres(const std::string& url, int connect_timeout_seconds);

}  // namespace warmup::history

#endif  // WARMUP_SRC_HISTORY_SQL_H_
