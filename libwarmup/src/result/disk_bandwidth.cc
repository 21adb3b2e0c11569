#include "warmup/disk_bandwidth.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

namespace warmup {

StatusOr<DiskWrite> MeasureSequentialWrite(const std::string& dir, int64_t bytes) {
  if (bytes < 1)
    return InvalidArgumentError("disk probe: bytes must be 1 or more, not " + std::to_string(bytes));
  constexpr int64_t kChunk = 1 << 20;
  DiskWrite out;
  out.file = (std::filesystem::path(dir) / (".warmup-disk-probe-" + std::to_string(::getpid()))).string();
  out.bytes = (bytes + kChunk - 1) / kChunk * kChunk;
  // Random bytes, so that no layer below (a compressing file system, a
  // deduplicating device) writes less than asked.
  std::vector<uint64_t> chunk(kChunk / sizeof(uint64_t));
  std::mt19937_64 random(20261204);
  for (uint64_t& word : chunk) word = random();
  const int fd = ::open(out.file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return FailedPreconditionError("disk probe: cannot create " + out.file + ": " + std::strerror(errno));
  }
  auto fail = [&](const std::string& what) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    ::unlink(out.file.c_str());
    return FailedPreconditionError("disk probe: " + what + " " + out.file + ": " + why);
  };
  const auto start = std::chrono::steady_clock::now();
  for (int64_t written = 0; written < out.bytes;) {
    const ssize_t n = ::write(fd, reinterpret_cast<const char*>(chunk.data()) + (written % kChunk),
                              static_cast<size_t>(kChunk - written % kChunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return fail("after " + std::to_string(written) + " of " + std::to_string(out.bytes) +
                  " bytes, cannot write");
    }
    written += n;
  }
  if (::fdatasync(fd) != 0) return fail("cannot fdatasync");
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::close(fd);
  ::unlink(out.file.c_str());
  return out;
}

}  // namespace warmup
