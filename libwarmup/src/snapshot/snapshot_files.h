// Read access to the files of one snapshot, in a directory or inside an export
// zip. Internal.
#ifndef WARMUP_SRC_SNAPSHOT_SNAPSHOT_FILES_H_
#define WARMUP_SRC_SNAPSHOT_SNAPSHOT_FILES_H_

#include <memory>
#include <string>

#include "snapshot/byte_io.h"
#include "warmup/status.h"

namespace warmup::snapshot {

class SnapshotFiles {
 public:
  virtual ~SnapshotFiles() = default;
  // Opens `relative` (a path relative to the snapshot directory) for reading.
  virtual StatusOr<std::unique_ptr<ByteReader>> Open(const std::string& relative) = 0;
  // How to name `relative` in messages: the full path, or "zip:entry".
  virtual std::string Name(const std::string& relative) const = 0;
  // The snapshot's location as given.
  virtual const std::string& root() const = 0;
};

// `path` is a snapshot directory or an export zip.
// Errors: kNotFound when `path` does not exist; kInvalidArgument naming the
// path when it is neither a directory nor a zip holding one snapshot.
StatusOr<std::unique_ptr<SnapshotFiles>> OpenSnapshotFiles(const std::string& path);

}  // namespace warmup::snapshot

#endif  // WARMUP_SRC_SNAPSHOT_SNAPSHOT_FILES_H_
