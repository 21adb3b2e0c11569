// What a run's record needs of the process beyond the public probes
// (DescribeEnvironment in warmup/environment.h, UsageOfThisProcess in
// warmup/process_usage.h): a child's usage and the time. Internal.
#ifndef WARMUP_SRC_RESULT_ENVIRONMENT_H_
#define WARMUP_SRC_RESULT_ENVIRONMENT_H_

#include <sys/resource.h>

#include <string>

#include "warmup/process_usage.h"

namespace warmup {

// A ProcessUsage from getrusage's or wait4's figures.
ProcessUsage UsageFromRusage(const struct rusage& usage);
// The current time in UTC as "2026-11-30T05:40:51Z".
std::string UtcNow();

}  // namespace warmup

#endif  // WARMUP_SRC_RESULT_ENVIRONMENT_H_
