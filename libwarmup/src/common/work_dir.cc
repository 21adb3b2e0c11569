#include "warmup/work_dir.h"

#include <filesystem>
#include <fstream>

#include "common/dir_lock.h"

namespace warmup {

namespace fs = std::filesystem;

Status PrepareWorkDir(const std::string& path) {
  std::error_code ec;
  const fs::path dir(path);
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    return FailedPreconditionError("work directory " + path + " is not a directory; refusing to use it");
  }
  const bool existed = fs::exists(dir, ec);
  if (!existed) {
    fs::create_directories(dir, ec);
    if (ec) {
      return Status(StatusCode::kUnavailable, "cannot create work directory " + path + ": " + ec.message());
    }
  }
  auto ours = [](const fs::path& entry) {
    return entry.filename() == kWorkDirMarker || entry.filename() == kLockFile;
  };
  const bool marked = fs::exists(dir / kWorkDirMarker, ec);
  if (existed && !marked) {  // checked before the lock, which would leave its file behind
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (ours(entry.path())) continue;
      return FailedPreconditionError("work directory " + path + " holds " + entry.path().filename().string() +
                                     " and no " + kWorkDirMarker +
                                     " marker: it is not warmup's to wipe; "
                                     "refusing to start (empty it, or choose another directory)");
    }
  }
  // Held while wiping: a warmup that has the directory open keeps it, and
  // this one stops with that one's pid (see DirectoryLock).
  auto lock = DirectoryLock::Acquire(path);
  if (!lock.ok()) return lock.status();
  if (marked) {
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (!ours(entry.path())) fs::remove_all(entry.path(), ec);
      if (ec) {
        return Status(StatusCode::kUnavailable,
                      "cannot clear " + entry.path().string() + ": " + ec.message());
      }
    }
  }
  std::ofstream marker(dir / kWorkDirMarker);
  marker << "This directory belongs to warmup, which may wipe it.\n";
  if (!marker) return Status(StatusCode::kUnavailable, "cannot write the marker in " + path);
  return OkStatus();
}

}  // namespace warmup
