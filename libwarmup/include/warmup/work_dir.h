// Work directories: places warmup may wipe, proven to be its own.
#ifndef WARMUP_WORK_DIR_H_
#define WARMUP_WORK_DIR_H_

#include <string>

#include "warmup/status.h"

namespace warmup {

// The marker file that makes a directory warmup's to wipe.
inline constexpr const char* kWorkDirMarker = ".warmup-workdir";

// Makes `path` an empty work directory carrying the marker. Allowed only when
// `path` is absent (created), empty, or already carries the marker (its other
// contents are removed). Anything else is refused before anything is touched.
// The directory is locked while it is wiped (a warmup process that has it
// open, e.g. an engine, holds that lock for as long as it uses it).
// Errors: kFailedPrecondition naming the path and the first foreign entry, or
// "PATH is in use by pid N (COMMAND)"; I/O errors naming the path.
Status PrepareWorkDir(const std::string& path);

}  // namespace warmup

#endif  // WARMUP_WORK_DIR_H_
