// The measurement itself: copy every entity of a source into a fresh catalog
// of a target, timing each read and each upsert, then goLive, then verify.
#ifndef WARMUP_COPY_ENGINE_H_
#define WARMUP_COPY_ENGINE_H_

#include "warmup/catalog_source.h"
#include "warmup/catalog_target.h"
#include "warmup/copy_options.h"
#include "warmup/run_result.h"
#include "warmup/status.h"

namespace warmup {

// Runs one copy: reconstructs the schema in the target (untimed; every target
// loads with generated primary keys off, since the source's keys are kept and
// references point at them, as evitaDB's copy tool does), copies each
// collection in entity-type order with every read and upsert timed on the
// monotonic clock, calls GoLive (timed separately), then verifies counts
// (and content, when asked).
// The returned RunResult holds the figures of whatever happened, including an
// aborted load (see RunResult::abort_error) and a failed goLive.
// Errors (before anything is written): kInvalidArgument for an unknown
// collection in `options.collections` (listing the known ones) or a negative
// cap; CreateCatalog's errors. A target that stores nothing (the null
// target) is not verified: Verification::kNotApplicable. When the load
// aborts, the collections it never reached are in the result too
// (CollectionResult::reached false), with what was expected of them.
StatusOr<RunResult> RunCopy(CatalogSource& source, CatalogTarget& target, const CopyOptions& options);

}  // namespace warmup

#endif  // WARMUP_COPY_ENGINE_H_
