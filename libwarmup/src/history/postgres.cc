// SqlConnection over a PostgreSQL database through libpq (sql.h).
#include <libpq-fe.h>

#include "history/sql.h"

namespace warmup::history {
namespace {

// Every writer of every warmup history in a database queues on this one
// transaction-scoped advisory lock: two processes creating the schema, or
// recording the same run, at once, are serialized.
constexpr const char* kWriteLock = "SELECT pg_advisory_xact_lock(7302012)";

class PostgresConnection : public SqlConnection {
 public:
  explicit PostgresConnection(PGconn* conn) : conn_(conn) {
    describe_ = std::string("postgresql ") + PQhost(conn_) + ":" + PQport(conn_) + "/" + PQdb(conn_);
  }
  ~PostgresConnection() override { PQfinish(conn_); }

  StatusOr<std::vector<SqlRow>> Query(const std::string& sql, const std::vector<SqlValue>& params) override {
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const SqlValue& p : params) values.push_back(p ? p->c_str() : nullptr);
    std::unique_ptr<PGresult, void (*)(PGresult*)> result(
        PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                     nullptr, /*resultFormat=*/0),
        PQclear);
    const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
      std::string why = PQerrorMessage(conn_);
      while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
      if (PQstatus(conn_) != CONNECTION_OK) why = "the connection was lost: " + why;
      return UnavailableError(describe_ + ": " + why);
    }
    std::vector<SqlRow> rows;
    for (int r = 0; r < PQntuples(result.get()); ++r) {
      SqlRow row;
      for (int c = 0; c < PQnfields(result.get()); ++c) {
        if (PQgetisnull(result.get(), r, c)) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(std::string(PQgetvalue(result.get(), r, c), PQgetlength(result.get(), r, c)));
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  Status BeginWrite() override {
    if (auto s = Query("BEGIN", {}).status(); !s.ok()) return s;
    return Query(kWriteLock, {}).status();
  }
  const char* IdColumn() const override { return "BIGSERIAL PRIMARY KEY"; }
  std::string Describe() const override { return describe_; }

 private:
  PGconn* conn_;
  std::string describe_;
};

}  // namespace

StatusOr<std::unique_ptr<SqlConnection>> OpenPostgres(const std::string& url, int connect_timeout_seconds) {
  // The URL's own connect_timeout, when it has one, wins: an expanded dbname
  // overrides the keywords before it.
  const std::string timeout = std::to_string(connect_timeout_seconds);
  const char* keys[] = {"connect_timeout", "dbname", nullptr};
  const char* values[] = {timeout.c_str(), url.c_str(), nullptr};
  PGconn* conn = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
  if (conn == nullptr) return FailedPreconditionError("history " + url + ": cannot connect: out of memory");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string why = PQerrorMessage(conn);
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    PQfinish(conn);
    // The URL may hold a password: the message names the server, never the URL.
    return FailedPreconditionError("history postgresql: cannot connect: " + why);
  }
  return std::unique_ptr<SqlConnection>(std::make_unique<PostgresConnection>(conn));
}

}  // namespace warmup::history
