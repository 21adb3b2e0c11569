#include "warmup/page_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <vector>

namespace warmup {
namespace {

namespace fs = std::filesystem;

// Calls `visit(file, fd, size)` for `path` or every regular file under it.
Status ForEachFile(const std::string& path,
                   const std::function<Status(const std::string&, int, int64_t)>& visit) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return NotFoundError(path + ": not found");
  std::vector<std::string> files;
  if (fs::is_directory(path, ec)) {
    for (const auto& e : fs::recursive_directory_iterator(path, ec)) {
      if (e.is_regular_file(ec)) files.push_back(e.path().string());
    }
    if (ec) return InternalError(path + ": cannot be listed: " + ec.message());
  } else {
    files.push_back(path);
  }
  for (const std::string& file : files) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return InternalError(file + ": cannot be opened: " + std::strerror(errno));
    const off_t size = ::lseek(fd, 0, SEEK_END);
    Status s = size < 0 ? InternalError(file + ": cannot be sized: " + std::strerror(errno))
                        : visit(file, fd, static_cast<int64_t>(size));
    ::close(fd);
    if (!s.ok()) return s;
  }
  return OkStatus();
}

}  // namespace

StatusOr<SourceCache> MeasurePageCache(const std::string& path) {
  SourceCache cache;
  const int64_t page = ::sysconf(_SC_PAGESIZE);
  Status s = ForEachFile(path, [&](const std::string& file, int fd, int64_t size) -> Status {
    ++cache.files;
    cache.bytes += size;
    if (size == 0) return OkStatus();
    void* map = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) return InternalError(file + ": cannot be mapped: " + std::strerror(errno));
    std::vector<unsigned char> resident(static_cast<size_t>((size + page - 1) / page));
    const int rc = ::mincore(map, static_cast<size_t>(size), resident.data());
    const int error = errno;
    ::munmap(map, static_cast<size_t>(size));
    if (rc != 0) return InternalError(file + ": mincore failed: " + std::strerror(error));
    for (size_t i = 0; i < resident.size(); ++i) {
      if ((resident[i] & 1) == 0) continue;
      const int64_t start = static_cast<int64_t>(i) * page;
      cache.resident_bytes += std::min(page, size - start);
    }
    return OkStatus();
  });
  if (!s.ok()) return s;
  return cache;
}

Status PrewarmPageCache(const std::string& path) {
  std::vector<char> buffer(1 << 20);
  return ForEachFile(path, [&](const std::string& file, int fd, int64_t) -> Status {
    for (off_t offset = 0;;) {
      const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), offset);
      if (n < 0) return InternalError(file + ": cannot be read: " + std::strerror(errno));
      if (n == 0) return OkStatus();
      offset += n;
    }
  });
}

Status DropFromPageCache(const std::string& path) {
  return ForEachFile(path, [](const std::string& file, int fd, int64_t) -> Status {
    (void)::fdatasync(fd);  // dirty pages are not dropped; a read-only file has none, and this is best effort
    if (const int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); rc != 0) {
      return InternalError(file + ": posix_fadvise failed: " + std::strerror(rc));
    }
    return OkStatus();
  });
}

}  // namespace warmup
