// Every run remembered: a store of run reports (run_record.h), each with its
// build, host, dataset fingerprint, configuration and every metric, in a
// SQLite file by default or a PostgreSQL database for a team (one schema,
// created and migrated by warmup through its version table). Records are
// immutable: recording the same run again is a no-op. A series is the runs
// of one setup (host, dataset, target kind, compression, the copy's cap and
// collections) in the order they were taken; builds and server flags are
// what varies along it.
#ifndef WARMUP_HISTORY_H_
#define WARMUP_HISTORY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "warmup/run_record.h"
#include "warmup/status.h"

namespace warmup {

// The store's schema version this build writes; Open migrates older stores
// to it and refuses newer ones.
inline constexpr int kHistorySchemaVersion = 1;

struct HistoryRun {
  int64_t id = 0;           // the store's, in the order runs were recorded
  std::string recorded_at;  // UTC, ISO 8601
  // The run as recorded; its `build` is what varies along a series and is
  // shown at each point, its `file` the name it was recorded under.
  RunRecord record;
  std::string series;  // the setup, "field: value; ..." (RunRecord::setup)
};

// Which runs History::Runs returns. Empty fields match everything.
struct HistoryQuery {
  std::string host;     // a part of the host field ("name, CPU, N cores")
  std::string dataset;  // a prefix of the dataset fingerprint
  // Runs whose verdict does not stand too: failed (exit 1) and unverified
  // (exit 2). They are kept and marked, and left out unless asked.
  bool all_runs = false;
};

// A store of runs. Not thread-safe: one History per thread; several
// processes may record into one store at once (SQLite: WAL and a busy
// timeout; PostgreSQL: transactions).
class History {
 public:
  // Opens the store at `location`: a postgresql:// (or postgres://) URL, or
  // else a SQLite file, created with its directory when absent. Creates the
  // schema in an empty store.
  // Errors: kFailedPrecondition naming the location (a PostgreSQL store by
  // its server's address: a URL may hold a password) when it cannot be
  // opened or created, or holds a schema newer than this build's (or no
  // warmup history at all: another program's database is not touched).
  static StatusOr<std::unique_ptr<History>> Open(const std::string& location);
  virtual ~History() = default;

  // Records the run report `report_json` (the text of a --report-json file;
  // `name` names it in errors and is kept as the record's file). Returns true
  // when recorded, false when the same run (RunRecord::identity) was already
  // there with the same report: a no-op.
  // Errors: those of ParseRunRecord; kAlreadyExists when the store holds
  // another report for the same run; kUnavailable naming the store when the
  // write failed (nothing recorded).
  virtual StatusOr<bool> Record(const std::string& report_json, const std::string& name) = 0;

  // The runs that match `query` (by default those that exited 0), oldest
  // first (by start, then by id).
  // Errors: kUnavailable naming the store.
  virtual StatusOr<std::vector<HistoryRun>> Runs(const HistoryQuery& query) = 0;

  // "sqlite FILE" or "postgresql HOST:PORT/DATABASE" (never a password).
  virtual std::string Describe() const = 0;
};

// Where a history lives when no --history names one: $WARMUP_HISTORY when
// set and not empty, else $XDG_DATA_HOME/warmup/history.sqlite, else
// $HOME/.local/share/warmup/history.sqlite.
std::string DefaultHistoryLocation();

// Records the report file `file` into `history` (History::Record with its text).
// Errors: kNotFound when it cannot be read; those of History::Record.
StatusOr<bool> RecordReportFile(History& history, const std::string& file);

}  // namespace warmup

#endif  // WARMUP_HISTORY_H_
