// What machine and process a run happened on. Internal.
#ifndef WARMUP_SRC_REPORT_ENVIRONMENT_H_
#define WARMUP_SRC_REPORT_ENVIRONMENT_H_

#include <string>

#include "warmup/run_result.h"

namespace warmup::report {

// Host name, CPU model, online cores, memory limit (cgroup memory.max when it
// is a number, else physical memory), kernel release, warmup build.
Environment CollectEnvironment();
// This process's CPU times and peak resident set size so far.
ResourceUsage CollectResourceUsage();
// The current time in UTC as "2026-11-30T05:40:51Z".
std::string UtcNow();

}  // namespace warmup::report

#endif  // WARMUP_SRC_REPORT_ENVIRONMENT_H_
