// The page cache's hold on a source's files: how much of a snapshot is
// resident before a run (mincore), and setting that state on purpose, so that
// a cold read and a warm read are never compared unawares.
#ifndef WARMUP_PAGE_CACHE_H_
#define WARMUP_PAGE_CACHE_H_

#include <cstdint>
#include <string>

#include "warmup/status.h"

namespace warmup {

// How much of a snapshot the page cache held before the run: a cold and a
// warm source read are different runs.
struct SourceCache {
  std::string action = "none";  // none | prewarmed (--prewarm-source) | dropped (--drop-source-cache)
  int64_t files = 0;
  int64_t bytes = 0;
  int64_t resident_bytes = 0;  // in the page cache (mincore), after the action
};

// Files, bytes and resident bytes of `path`: a file, or every regular file
// under a directory. `action` is "none".
// Errors: kNotFound when `path` is not there; kInternal naming a file that
// cannot be opened or mapped.
StatusOr<SourceCache> MeasurePageCache(const std::string& path);

// Reads every byte of `path`'s files, so that the run's source reads come
// from memory. Errors: as MeasurePageCache.
Status PrewarmPageCache(const std::string& path);

// Asks the kernel to drop `path`'s files from the page cache
// (posix_fadvise DONTNEED after fdatasync), so that the run reads from the
// disk. Pages another process holds mapped or dirty may stay; the
// measurement after it says what did. Errors: as MeasurePageCache.
Status DropFromPageCache(const std::string& path);

}  // namespace warmup

#endif  // WARMUP_PAGE_CACHE_H_
