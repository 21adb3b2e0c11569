// What a process cost: its CPU, memory, faults and context switches at the
// end (ProcessUsage), and readings taken while a run went on (ProcessSample).
#ifndef WARMUP_PROCESS_USAGE_H_
#define WARMUP_PROCESS_USAGE_H_

#include <cstdint>

namespace warmup {

// How a process fared (getrusage, or wait4 for a child).
struct ProcessUsage {
  double user_seconds = 0;
  double system_seconds = 0;
  int64_t peak_rss_bytes = 0;
  int64_t minor_faults = 0;
  int64_t major_faults = 0;
  int64_t voluntary_context_switches = 0;
  int64_t involuntary_context_switches = 0;
};

// The usage of this process so far.
ProcessUsage UsageOfThisProcess();

// How many threads this process runs now (/proc/self/task), this one
// included; 0 when that cannot be read.
int ThreadsOfThisProcess();

// One reading of a process taken while the run went on.
struct ProcessSample {
  double seconds = 0;  // since the run started
  int64_t rss_bytes = 0;
  double cpu_seconds = 0;  // user + system so far
  bool golive = false;     // taken while goLive ran
};

}  // namespace warmup

#endif  // WARMUP_PROCESS_USAGE_H_
