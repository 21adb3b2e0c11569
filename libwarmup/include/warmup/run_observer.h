// RunObserver: what RunCopy reports while it runs, for whoever wants to watch
// (per-entity CSV, progress lines, samplers, profiler windows), in the spirit
// of google/benchmark's reporters. Observers are called on RunCopy's thread,
// between timed calls: their time is loop overhead, so keep OnUpsert cheap.
#ifndef WARMUP_RUN_OBSERVER_H_
#define WARMUP_RUN_OBSERVER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warmup/status.h"

namespace warmup {

struct CollectionResult;  // run_result.h
struct RunResult;         // run_result.h

// What goLive came to (RunResult::golive).
enum class GoLiveOutcome { kNotAttempted, kCompleted, kFailed };

// What a run is about to do.
struct RunStart {
  std::string source;  // CatalogSource::Describe()
  std::string target;  // CatalogTarget::Describe()
  std::string source_catalog;
  std::string target_catalog;
  std::vector<std::string> collections;  // the selected ones, in copy order
  std::vector<int64_t> expected_counts;  // per collection: the source's count, capped
  // Per collection, as stored in the source (CollectionInfo::stored_bytes),
  // scaled by expected / source count when the cap cuts the collection; 0 =
  // unknown. Lets observers weigh progress by work, as one collection's
  // entities can be many times another's. Last, with `= {}`, so that
  // initialisers that stop at expected_counts stay free of
  // -Wmissing-field-initializers.
  std::vector<int64_t> stored_bytes = {};
};

// One upsert as the loop measured it.
struct UpsertSample {
  int32_t collection = 0;  // index into RunStart::collections
  int32_t primary_key = 0;
  int64_t sequence = 0;         // 0, 1, 2, ... over the whole run
  int64_t start_offset_ns = 0;  // from the start of the load to the start of the entity's read
  int64_t read_ns = 0;
  int64_t upsert_ns = 0;
  std::optional<int64_t> server_ns;  // the target's own time, when it reported one
  int64_t request_bytes = 0;
  bool ok = true;  // false: the target rejected the entity
};

// Every method has an empty default; override what you need.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // The catalog exists in the target; the load starts next.
  virtual void OnRunStart(const RunStart& start) { (void)start; }
  virtual void OnCollectionStart(int32_t collection) { (void)collection; }
  virtual void OnUpsert(const UpsertSample& sample) { (void)sample; }
  // `result` has its counts and times; `load_seconds` and `load_copied` are
  // the run's so far.
  virtual void OnCollectionEnd(const CollectionResult& result, double load_seconds, int64_t load_copied) {
    (void)result, (void)load_seconds, (void)load_copied;
  }
  // After the last upsert, before goLive, with the load's figures. An error
  // aborts the run (RunResult::abort_error) and goLive is not attempted.
  virtual Status OnLoadEnd(const RunResult& result) {
    (void)result;
    return OkStatus();
  }
  virtual void OnGoLiveStart() {}
  // The server's goLive progress, when the target reports one (see
  // CatalogTarget::SetGoLiveProgress).
  virtual void OnGoLiveProgress(int percent) { (void)percent; }
  virtual void OnGoLiveEnd(GoLiveOutcome outcome, double seconds) { (void)outcome, (void)seconds; }
  // The run is over; `result` is what RunCopy returns.
  virtual void OnRunEnd(const RunResult& result) { (void)result; }
};

// An observer that writes one CSV row per upsert to `path`, with the columns
// of docs/measurement.md. Rows are kept in memory during the load and written
// when it ends, before goLive, so that a goLive that never returns still
// leaves them; a failed write aborts the run.
// Errors: kInvalidArgument when `path` cannot be written.
StatusOr<std::unique_ptr<RunObserver>> MakePerEntityCsvWriter(const std::string& path);

}  // namespace warmup

#endif  // WARMUP_RUN_OBSERVER_H_
