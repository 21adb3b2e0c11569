#include "result/environment.h"

#include <dlfcn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "warmup/environment.h"
#include "warmup/storage_info.h"
#include "warmup/version.h"

namespace warmup {
namespace {

// The allocator this process runs on: tcmalloc when linked or preloaded
// (its entry points are then visible), else the C library's or a
// sanitizer's. Loads allocate much of their time, so it is part of what a
// build is.
std::string AllocatorName() {
  return ::dlsym(RTLD_DEFAULT, "tc_malloc") != nullptr ? "tcmalloc" : "the C library's (or a sanitizer's)";
}

std::string FirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

Environment DescribeEnvironment() {
  Environment env;
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) == 0) env.hostname = host;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      env.cpu_model = line.substr(line.find(':') + 2);
      break;
    }
  }
  env.cores = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  const std::string cgroup_limit = FirstLine("/sys/fs/cgroup/memory.max");
  if (!cgroup_limit.empty() && cgroup_limit != "max") {
    env.memory_limit_bytes = std::stoll(cgroup_limit);
  } else {
    env.memory_limit_bytes = static_cast<int64_t>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGE_SIZE);
  }
  env.cpu_limit = FirstLine("/sys/fs/cgroup/cpu.max");
  struct utsname uts {};
  if (::uname(&uts) == 0) env.kernel = uts.release;
  env.build = Version();
  env.build_details = DescribeBuild().Summary() + ", malloc: " + AllocatorName();
  env.at_start = SampleHostLoad();
  return env;
}

ProcessUsage UsageFromRusage(const struct rusage& usage) {
  ProcessUsage r;
  r.user_seconds =
      static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) / 1e6;
  r.system_seconds =
      static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) / 1e6;
  r.peak_rss_bytes = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  r.minor_faults = usage.ru_minflt;
  r.major_faults = usage.ru_majflt;
  r.voluntary_context_switches = usage.ru_nvcsw;
  r.involuntary_context_switches = usage.ru_nivcsw;
  return r;
}

ProcessUsage UsageOfThisProcess() {
  struct rusage usage {};
  ::getrusage(RUSAGE_SELF, &usage);
  return UsageFromRusage(usage);
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

HostLoad SampleHostLoad() {
  HostLoad load;
  std::ifstream loadavg("/proc/loadavg");
  if (!(loadavg >> load.load_average_1m)) load.load_average_1m = -1;
  // "cpu  user nice system idle iowait irq softirq steal guest guest_nice";
  // guest time is counted in user already.
  std::ifstream stat("/proc/stat");
  std::string cpu;
  int64_t fields[8] = {};
  if (stat >> cpu && cpu == "cpu") {
    for (int64_t& f : fields) {
      if (!(stat >> f)) return load;
    }
    for (const int64_t f : fields) load.cpu_ticks += f;
    load.steal_ticks = fields[7];
  }
  return load;
}

std::optional<double> Environment::steal_share() const {
  const int64_t ticks = at_end.cpu_ticks - at_start.cpu_ticks;
  if (ticks <= 0) return std::nullopt;
  return static_cast<double>(at_end.steal_ticks - at_start.steal_ticks) / static_cast<double>(ticks);
}

int ThreadsOfThisProcess() {
  std::error_code ec;
  int threads = 0;
  for (std::filesystem::directory_iterator it("/proc/self/task", ec), end; !ec && it != end;
       it.increment(ec)) {
    ++threads;
  }
  return ec ? 0 : threads;
}

StorageInfo DescribeStorage(const std::string& path) {
  namespace fs = std::filesystem;
  StorageInfo info;
  std::error_code ec;
  fs::path existing = fs::absolute(path, ec);
  while (!existing.empty() && !fs::exists(existing, ec) && existing != existing.parent_path()) {
    existing = existing.parent_path();
  }
  existing = fs::weakly_canonical(existing, ec);
  info.path = existing.string();
  struct stat st {};
  if (::stat(info.path.c_str(), &st) != 0) return info;
  struct statvfs vfs {};
  if (::statvfs(info.path.c_str(), &vfs) == 0) {
    info.free_bytes = static_cast<int64_t>(vfs.f_bavail) * static_cast<int64_t>(vfs.f_frsize);
  }
  const std::string device_number = std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  // /proc/self/mountinfo: ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS
  // [OPTIONAL...] - FSTYPE SOURCE SUPER-OPTIONS. Of the mounts of this
  // device, the one whose mount point is the longest prefix of the path.
  std::ifstream mounts("/proc/self/mountinfo");
  size_t best = 0;
  for (std::string line; std::getline(mounts, line);) {
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string word; fields >> word;) f.push_back(word);
    if (f.size() < 10 || f[2] != device_number) continue;
    const std::string& mount_point = f[4];
    const bool covers =
        info.path == mount_point || mount_point == "/" || info.path.rfind(mount_point + "/", 0) == 0;
    if (!covers || mount_point.size() < best) continue;
    size_t dash = 6;
    while (dash < f.size() && f[dash] != "-") ++dash;
    if (dash + 2 >= f.size()) continue;
    best = mount_point.size();
    info.mount_options = f[5];
    info.filesystem = f[dash + 1];
    info.device = f[dash + 2] + " (" + device_number + ")";
  }
  if (info.device.empty()) info.device = device_number;
  return info;
}

}  // namespace warmup
