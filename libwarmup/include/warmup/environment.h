// Where a run happened: the host, its limits, the warmup build, and how busy
// the host was. Each probe reads /proc and the cgroup files now; none fails
// (what it cannot find is left empty or -1).
#ifndef WARMUP_ENVIRONMENT_H_
#define WARMUP_ENVIRONMENT_H_

#include <cstdint>
#include <optional>
#include <string>

namespace warmup {

// How busy the host was at one moment: what makes two runs of one build
// disagree is often here.
struct HostLoad {
  double load_average_1m = -1;  // /proc/loadavg; -1 unknown
  // Cumulative CPU time of all CPUs in clock ticks (/proc/stat): all of it,
  // and the part a hypervisor gave to other guests (steal).
  int64_t cpu_ticks = 0;
  int64_t steal_ticks = 0;
};

// The host's load now.
HostLoad SampleHostLoad();

// Where the run happened.
struct Environment {
  std::string hostname;
  std::string cpu_model;
  int cores = 0;
  int64_t memory_limit_bytes = 0;  // cgroup memory.max, else physical memory
  std::string cpu_limit;           // cgroup cpu.max ("max 100000" = none; "200000 100000" = 2 CPUs)
  std::string kernel;
  std::string build;          // warmup version and commit (Version())
  std::string build_details;  // BuildInfo::Summary() (commit, compiler, build type, flags), then ", malloc: "
                              // and the allocator
  HostLoad at_start, at_end;  // around the run (load, goLive and the check)
  // The share of CPU time stolen by the hypervisor between start and end;
  // nullopt when unknown.
  std::optional<double> steal_share() const;
};

// The environment of this process: host, CPU, cores, memory limit (cgroup
// memory.max, else physical memory), cgroup cpu.max, kernel, warmup build,
// and the host's load now (at_start; at_end is left for the run to fill).
Environment DescribeEnvironment();

}  // namespace warmup

#endif  // WARMUP_ENVIRONMENT_H_
