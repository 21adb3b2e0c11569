// What machine and process a run happened on. Internal.
#ifndef WARMUP_SRC_REPORT_ENVIRONMENT_H_
#define WARMUP_SRC_REPORT_ENVIRONMENT_H_

#include <sys/resource.h>

#include <string>

#include "warmup/environment.h"
#include "warmup/process_usage.h"
#include "warmup/storage_info.h"

namespace warmup::report {

// Host name, CPU model, online cores, memory limit (cgroup memory.max when it
// is a number, else physical memory), kernel release, warmup build.
Environment CollectEnvironment();
// This process's CPU times, peak resident set size, faults and context switches so far.
ProcessUsage CollectResourceUsage();
// A ProcessUsage from getrusage's or wait4's figures.
ProcessUsage UsageFromRusage(const struct rusage& usage);
// The current time in UTC as "2026-11-30T05:40:51Z".
std::string UtcNow();

}  // namespace warmup::report

#endif  // WARMUP_SRC_REPORT_ENVIRONMENT_H_
