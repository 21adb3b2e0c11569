// An exclusive lock on a directory warmup writes, held for as long as it is
// used, so that a second warmup on the same directory stops with the first
// one's pid instead of wiping its files. Internal.
#ifndef WARMUP_SRC_COMMON_DIR_LOCK_H_
#define WARMUP_SRC_COMMON_DIR_LOCK_H_

#include <memory>
#include <string>

#include "warmup/status.h"

namespace warmup {

// The lock file in a locked directory; never a leftover, never wiped.
inline constexpr const char* kLockFile = ".warmup-lock";

// flock(2) on <dir>/.warmup-lock: released when the object is destroyed or
// the process ends in any way (SIGKILL too), so a lock is never stale. The
// file holds the holder's pid and command line, for the next one's error.
class DirectoryLock {
 public:
  // Takes the lock on `dir`, which must exist.
  // Errors: kFailedPrecondition "DIR is in use by pid N (COMMAND)" when
  // another holds it; kUnavailable naming the file when it cannot be made.
  static StatusOr<std::unique_ptr<DirectoryLock>> Acquire(const std::string& dir);
  // A lock that locks nothing, for directories that are not on disk (the
  // engine's in-memory Env).
  static std::unique_ptr<DirectoryLock> None();

  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  explicit DirectoryLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace warmup

#endif  // WARMUP_SRC_COMMON_DIR_LOCK_H_
