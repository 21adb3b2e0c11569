// A profiler window: the span of this process's run that a profiler
// records, opened and closed by the caller around the work of interest (the
// load, or goLive). For warmup-profile and warmup serve --profiler.
#ifndef WARMUP_APPS_COMMON_PROFILER_WINDOW_H_
#define WARMUP_APPS_COMMON_PROFILER_WINDOW_H_

#include <sys/types.h>

#include <memory>
#include <string>

#include "warmup/status.h"

namespace warmup::cli {

enum class ProfilerKind {
  kNone,  // no profiler: only the window's own figures
  kCpu,   // gperftools' CPU profiler (SIGPROF sampling) into a pprof file
  kHeap,  // gperftools' heap profiler (needs tcmalloc) into PREFIX.NNNN.heap dumps
  kPerf,  // `perf record -g` attached to this process for the window
};

// "none", "cpu", "heap", "perf".
const char* ProfilerKindName(ProfilerKind kind);
// Errors: kInvalidArgument naming the kinds.
StatusOr<ProfilerKind> ParseProfilerKind(const std::string& name);

// Thread-safety: one thread at a time; Open and Close alternate.
class ProfilerWindow {
 public:
  // A window of `kind` writing to `out` (for kHeap a prefix). Checks before
  // anything runs that the profiler is there: kFailedPrecondition naming
  // what to install or preload (perf from linux-perf; the heap profiler
  // needs tcmalloc in the process); kInvalidArgument for an empty `out`
  // with a profiler.
  static StatusOr<std::unique_ptr<ProfilerWindow>> Make(ProfilerKind kind, const std::string& out);
  ~ProfilerWindow();

  // Starts recording. Errors: the profiler's, naming the output.
  Status Open();
  // Stops recording and writes the output. Errors: the profiler's (for perf:
  // its exit status and the end of its log).
  Status Close();
  bool open() const { return open_; }
  ProfilerKind kind() const { return kind_; }
  // What was written and how to read it, e.g. "cpu profile P: google-pprof
  // --text BINARY P"; empty for kNone.
  std::string Describe() const;

 private:
  ProfilerWindow(ProfilerKind kind, std::string out) : kind_(kind), out_(std::move(out)) {}
  ProfilerKind kind_;
  std::string out_;
  bool open_ = false;
  pid_t perf_pid_ = -1;
  int heap_dumps_ = 0;
};

}  // namespace warmup::cli

#endif  // WARMUP_APPS_COMMON_PROFILER_WINDOW_H_
