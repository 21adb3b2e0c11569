#include "warmup/work_dir.h"

#include <filesystem>
#include <fstream>

namespace warmup {

namespace fs = std::filesystem;

Status PrepareWorkDir(const std::string& path) {
  std::error_code ec;
  const fs::path dir(path);
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) {
      return Status(StatusCode::kUnavailable, "cannot create work directory " + path + ": " + ec.message());
    }
  } else if (!fs::is_directory(dir, ec)) {
    return FailedPreconditionError("work directory " + path + " is not a directory; refusing to use it");
  } else if (!fs::exists(dir / kWorkDirMarker, ec)) {
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      return FailedPreconditionError("work directory " + path + " holds " + entry.path().filename().string() +
                                     " and no " + kWorkDirMarker +
                                     " marker: it is not warmup's to wipe; "
                                     "refusing to start (empty it, or choose another directory)");
    }
  } else {
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.path().filename() != kWorkDirMarker) fs::remove_all(entry.path(), ec);
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
