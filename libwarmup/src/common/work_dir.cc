#include "warmup/work_dir.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/dir_lock.h"
#include "common/names.h"

namespace warmup {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarkerHeading =
    "This directory belongs to warmup. It removes from here only the entries listed below, which it "
    "created; anything else is left as it is.\n";
constexpr std::string_view kEntryPrefix = "created: ";

// True when `inner` is `outer` or lies below it, symlinks resolved where the
// paths exist (a path that does not exist yet is compared as written).
bool LiesInside(const fs::path& inner, const fs::path& outer) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(inner, ec), ec);
  const fs::path b = fs::weakly_canonical(fs::absolute(outer, ec), ec);
  auto ai = a.begin();
  for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai) {
    if (bi->empty()) continue;  // a trailing separator
    if (ai == a.end() || *ai != *bi) return false;
  }
  return true;
}

}  // namespace

std::string WorkDirEntryLine(const std::string& name) { return std::string(kEntryPrefix) + name + "\n"; }

std::vector<std::string> WorkDirEntries(const std::string& dir) {
  std::vector<std::string> entries;
  std::ifstream marker(fs::path(dir) / kWorkDirMarker);
  std::string line;
  while (std::getline(marker, line)) {
    if (line.rfind(kEntryPrefix, 0) != 0) continue;
    std::string name = line.substr(kEntryPrefix.size());
    // Only a direct child with a plain name: never "..", never a path.
    if (!IsSafeName(name) || name == kWorkDirMarker || name == kLockFile) continue;
    if (std::find(entries.begin(), entries.end(), name) == entries.end()) entries.push_back(std::move(name));
  }
  return entries;
}

Status RecordInWorkDir(const std::string& dir, const std::string& name) {
  if (!IsSafeName(name)) return InvalidArgumentError("'" + name + "' is not a plain entry name");
  std::error_code ec;
  const fs::path marker = fs::path(dir) / kWorkDirMarker;
  if (!fs::exists(marker, ec)) return OkStatus();
  std::ofstream out(marker, std::ios::app);
  out << WorkDirEntryLine(name);
  out.close();
  if (!out) return Status(StatusCode::kUnavailable, "cannot record " + name + " in " + marker.string());
  return OkStatus();
}

Status CheckOutsideWorkDir(const std::string& path, const std::vector<PathInUse>& in_use) {
  for (const PathInUse& used : in_use) {
    if (used.path.empty() || !LiesInside(used.path, path)) continue;
    return FailedPreconditionError(used.flag + " " + used.path + " lies inside the work directory " + path +
                                   ", which warmup clears before a run; choose a path outside it "
                                   "(nothing was run)");
  }
  return OkStatus();
}

Status PrepareWorkDir(const std::string& path, const std::vector<PathInUse>& in_use) {
  std::error_code ec;
  const fs::path dir(path);
  if (Status s = CheckOutsideWorkDir(path, in_use); !s.ok()) return s;
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
  const bool marked = fs::exists(dir / kWorkDirMarker, ec);
  if (existed && !marked) {  // checked before the lock, which would leave its file behind
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.path().filename() == kLockFile) continue;
      return FailedPreconditionError("work directory " + path + " holds " + entry.path().filename().string() +
                                     " and no " + kWorkDirMarker +
                                     " marker: it is not warmup's to use; "
                                     "refusing to start (empty it, or choose another directory)");
    }
  }
  // Held while clearing: a warmup that has the directory open keeps it, and
  // this one stops with that one's pid (see DirectoryLock).
  auto lock = DirectoryLock::Acquire(path);
  if (!lock.ok()) return lock.status();
  if (marked) {
    for (const std::string& name : WorkDirEntries(path)) {
      fs::remove_all(dir / name, ec);
      if (ec) {
        return Status(StatusCode::kUnavailable,
                      "cannot clear " + (dir / name).string() + ": " + ec.message());
      }
    }
  }
  // A fresh marker: what it listed is gone.
  std::ofstream marker(dir / kWorkDirMarker, std::ios::trunc);
  marker << kMarkerHeading;
  marker.close();
  if (!marker) return Status(StatusCode::kUnavailable, "cannot write the marker in " + path);
  return OkStatus();
}

}  // namespace warmup
