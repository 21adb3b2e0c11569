// StorageInfo: the file system a run's target writes to, so that a run on
// tmpfs and one on a disk are never compared unawares.
#ifndef WARMUP_STORAGE_INFO_H_
#define WARMUP_STORAGE_INFO_H_

#include <cstdint>
#include <string>

namespace warmup {

// The file system a run's target writes to (its work or data directory).
struct StorageInfo {
  std::string path;
  std::string filesystem;     // e.g. "ext4", "tmpfs", "overlay" (/proc/self/mountinfo)
  std::string device;         // the mount source, e.g. "/dev/vda1", and its major:minor
  std::string mount_options;  // e.g. "rw,relatime"
  int64_t free_bytes = -1;    // available to this user; -1 unknown
};

// The file system holding `path` (or, when it does not exist yet, its
// nearest existing parent); fields it cannot find are left empty.
StorageInfo DescribeStorage(const std::string& path);

}  // namespace warmup

#endif  // WARMUP_STORAGE_INFO_H_
