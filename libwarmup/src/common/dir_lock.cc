#include "common/dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace warmup {
namespace {

// This process's command line, arguments joined by spaces.
std::string CommandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  for (char& c : raw) {
    if (c == '\0') c = ' ';
  }
  return raw;
}

}  // namespace

StatusOr<std::unique_ptr<DirectoryLock>> DirectoryLock::Acquire(const std::string& dir) {
  const std::string path = dir + "/" + kLockFile;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return UnavailableError("cannot open the lock file " + path + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    std::string holder;
    char buffer[512];
    const ssize_t n = ::pread(fd, buffer, sizeof(buffer) - 1, 0);
    if (n > 0) holder.assign(buffer, static_cast<size_t>(n));
    while (!holder.empty() && holder.back() == '\n') holder.pop_back();
    ::close(fd);
    if (error != EWOULDBLOCK) return UnavailableError("cannot lock " + path + ": " + std::strerror(error));
    return FailedPreconditionError(dir + " is in use by " + (holder.empty() ? "another process" : holder) +
                                   "; wait for it to end, or choose another directory");
  }
  std::string holder = "pid " + std::to_string(::getpid()) + " (" + CommandLine() + ")\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, holder.data(), holder.size(), 0) < 0) {
    const int error = errno;
    ::close(fd);
    return UnavailableError("cannot write the lock file " + path + ": " + std::strerror(error));
  }
  return std::unique_ptr<DirectoryLock>(new DirectoryLock(fd));
}

std::unique_ptr<DirectoryLock> DirectoryLock::None() {
  return std::unique_ptr<DirectoryLock>(new DirectoryLock(-1));
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace warmup
