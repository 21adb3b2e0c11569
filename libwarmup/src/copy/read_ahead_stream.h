// A source stream read ahead on a second thread: decoding an entity (a
// snapshot record's protobuf parse and conversion, 1.5x the null run's read
// when it shares the load's one core with the upserts) overlaps the upsert of
// the one before. The load then waits only when the reader falls behind, and
// its "source read" is that wait (docs/measurement.md). Internal to the copy
// engine.
#ifndef WARMUP_SRC_COPY_READ_AHEAD_STREAM_H_
#define WARMUP_SRC_COPY_READ_AHEAD_STREAM_H_

#include <cstddef>
#include <memory>

#include "warmup/catalog_source.h"

namespace warmup::copy {

// Entities a read-ahead stream holds decoded before the load takes them:
// enough to ride out a slow record or upsert, few enough that a collection's
// largest entities (a product of ~50 KB decoded) cost a few megabytes.
inline constexpr size_t kReadAheadDepth = 64;

// `inner`, read by a thread of its own up to `depth` (at least 1) entities
// ahead of Next. Next returns the entities, then the end or the error, in the
// order `inner` gave them (an exception `inner` throws as an internal
// error); after an end or an error the thread reads no more. Destroying the
// stream stops the thread (after the inner Next under way, if any, returns)
// and joins it.
std::unique_ptr<EntityStream> ReadAhead(std::unique_ptr<EntityStream> inner, size_t depth = kReadAheadDepth);

}  // namespace warmup::copy

#endif  // WARMUP_SRC_COPY_READ_AHEAD_STREAM_H_
