// The measurement itself: copy every entity of a source into a fresh catalog
// of a target, timing each read and each upsert, then goLive, then verify.
#ifndef WARMUP_COPY_ENGINE_H_
#define WARMUP_COPY_ENGINE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "warmup/catalog_source.h"
#include "warmup/catalog_target.h"
#include "warmup/run_result.h"
#include "warmup/status.h"

namespace warmup {

// One line of progress: sent after each collection.
struct CopyProgress {
  std::string entity_type;
  int64_t copied = 0;
  double seconds = 0;
  int64_t cumulative_copied = 0;
  double cumulative_seconds = 0;
};

struct CopyOptions {
  // The catalog to create in the target; empty = "<source catalog>_<4 random hex>".
  std::string target_catalog;
  // Copy at most this many entities of each collection (the first by primary
  // key); 0 = all. For smoke tests.
  int64_t max_per_collection = 0;
  // Copy only these collections; empty = all.
  std::vector<std::string> collections;
  // Write one CSV row per upsert here (before goLive); empty = none.
  std::string per_entity_csv;
  // Seconds the front end keeps the process alive after the report, so that a
  // profiler can take its dump; RunCopy itself ignores it.
  int hold_open_seconds = 0;
  // Do not compare counts after goLive (exit 0, the report says it was declined).
  bool skip_verify = false;
  // A name for the run, printed in the report and the final RUN_STATUS line.
  std::string run_label = "run";
  // Leave the target catalog in place when the run fails (default: drop it, so
  // failed runs do not litter the target's data).
  bool keep_target = false;
  // Called after each collection; may be empty.
  std::function<void(const CopyProgress&)> on_progress;
};

// Runs one copy: reconstructs the schema in the target (untimed), copies each
// collection in entity-type order with every read and upsert timed on the
// monotonic clock, calls GoLive (timed separately), then verifies counts.
// The returned RunResult holds the figures of whatever happened, including an
// aborted load (see RunResult::abort_error) and a failed goLive.
// Errors (before anything is written): kInvalidArgument for an unknown
// collection in `options.collections` (listing the known ones), a negative
// cap, or a bad CSV path; CreateCatalog's errors.
StatusOr<RunResult> RunCopy(CatalogSource& source, CatalogTarget& target, const CopyOptions& options);

}  // namespace warmup

#endif  // WARMUP_COPY_ENGINE_H_
