// What one copy is asked to do: which collections, how far, what to verify,
// who watches, and when to stop. Describing a copy needs only this header;
// running one needs warmup/copy_engine.h.
#ifndef WARMUP_COPY_OPTIONS_H_
#define WARMUP_COPY_OPTIONS_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "warmup/catalog_source.h"
#include "warmup/run_config.h"
#include "warmup/run_observer.h"
#include "warmup/status.h"

namespace warmup {

// How RunCopy (warmup/copy_engine.h) copies.
struct CopyOptions {
  // The catalog to create in the target; empty = "<source catalog>_<4 random hex>".
  std::string target_catalog;
  // Copy at most this many entities of each collection (the first by primary
  // key); 0 = all. For smoke tests.
  int64_t max_per_collection = 0;
  // Read and decode each collection's entities on a second thread, up to 64
  // ahead of the upserts, so that decoding overlaps the target's work; the
  // source read figure is then the time the load waited for an entity. False
  // reads each entity just before its upsert, on the load's thread, and the
  // load's wall-clock includes every decode (as every run did before the
  // option existed).
  bool read_ahead = true;
  // Copy only these collections; empty = all.
  std::vector<std::string> collections;
  // What to check after goLive: counts (the default), counts then content
  // (every entity read back from the target, CatalogTarget::ReadBack, and
  // its digest compared with the source's; untimed, after the measurement),
  // or nothing (exit 0, the report says it was declined).
  VerifyMode verify = VerifyMode::kCounts;
  // A name for the run, printed in the report and the final RUN_STATUS line.
  std::string run_label = "run";
  // Leave the target catalog in place when the run fails (default: drop it, so
  // failed runs do not litter the target's data).
  bool keep_target = false;
  // Told about the run as it goes (see run_observer.h), in this order; not
  // owned, and must outlive the call.
  std::vector<RunObserver*> observers;
  // When set, read before each entity: once true, the load stops there as an
  // aborted run (AbortReason::kInterrupted; the partial target is dropped
  // unless kept), so that an interrupted load leaves nothing behind. A goLive
  // already under way is let finish. Not owned; set it from any thread.
  const std::atomic<bool>* stop = nullptr;
  // What the caller knows of the run's configuration (its command line, the
  // target's kind and storage, a server it started), recorded in the result
  // as RunResult::config; RunCopy adds the copy's own settings and the
  // source's provenance.
  RunConfig config;
};

// RunCopy's checks of `options` against `source`, for a caller that wants
// them before it prepares anything else (RunLoad does). Errors: as RunCopy's
// kInvalidArgument.
Status CheckCopyOptions(const CatalogSource& source, const CopyOptions& options);

}  // namespace warmup

#endif  // WARMUP_COPY_OPTIONS_H_
