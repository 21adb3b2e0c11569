// Work directories: places warmup writes to and clears, proven to be its own,
// from which it removes only what it created itself.
#ifndef WARMUP_WORK_DIR_H_
#define WARMUP_WORK_DIR_H_

#include <string>
#include <vector>

#include "warmup/status.h"

namespace warmup {

// The marker file that makes a directory warmup's. It also lists, one
// "created: NAME" line each, the entries warmup made in the directory: the
// only ones it ever removes.
inline constexpr const char* kWorkDirMarker = ".warmup-workdir";

// A path a command reads or writes besides its work directory (a source
// snapshot, a report, a profile), named by the flag that gave it.
struct PathInUse {
  std::string flag;  // e.g. "--pristine-dir", "--report-json"
  std::string path;
};

// Makes `path` a work directory carrying the marker, cleared of what earlier
// runs created there. Allowed only when `path` is absent (created), empty, or
// already carries the marker; anything else is refused before anything is
// touched. In a marked directory only the entries the marker lists are
// removed (see RecordInWorkDir); whatever else is there (a user's file, an
// earlier run's report) is left as it is.
// Every path of `in_use` that lies inside `path` (or is `path`) is refused
// before anything is touched: a source or an output does not belong in a
// directory warmup clears.
// The directory is locked while it is cleared (a warmup process that has it
// open, e.g. an engine, holds that lock for as long as it uses it).
// Errors: kFailedPrecondition naming the path and the first foreign entry, a
// path of `in_use` with its flag, or "PATH is in use by pid N (COMMAND)"; I/O
// errors naming the path.
Status PrepareWorkDir(const std::string& path, const std::vector<PathInUse>& in_use = {});

// OK when no path of `in_use` lies inside the work directory `path` (or is
// it), symlinks resolved; touches nothing. PrepareWorkDir checks this first.
// Errors: kFailedPrecondition naming the flag, its path and `path`.
Status CheckOutsideWorkDir(const std::string& path, const std::vector<PathInUse>& in_use);

// Records in the marker of the work directory `dir` that warmup created its
// entry `name` (a plain name, no '/'), so that the next PrepareWorkDir of
// `dir` removes it. Does nothing when `dir` carries no marker (a directory
// that is not a work directory is never cleared).
// Errors: kInvalidArgument for a name that is not plain; I/O errors naming
// the marker.
Status RecordInWorkDir(const std::string& dir, const std::string& name);

// The marker's line recording `name`, for writers that append to the marker
// through a file layer of their own (the engine's Env).
std::string WorkDirEntryLine(const std::string& name);

// The entries the marker of `dir` lists as warmup's, in the order they were
// recorded, each once; empty without a marker. Lines that do not name a plain
// entry are ignored: a damaged or edited marker never makes warmup remove
// anything outside `dir`.
std::vector<std::string> WorkDirEntries(const std::string& dir);

}  // namespace warmup

#endif  // WARMUP_WORK_DIR_H_
