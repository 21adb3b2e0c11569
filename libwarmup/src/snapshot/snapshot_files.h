// Read access to the files of one snapshot, in a directory or inside an export
// zip, and the one validator every export zip passes before it is read.
// Internal.
#ifndef WARMUP_SRC_SNAPSHOT_SNAPSHOT_FILES_H_
#define WARMUP_SRC_SNAPSHOT_SNAPSHOT_FILES_H_

#include <memory>
#include <string>
#include <vector>

#include "snapshot/byte_io.h"
#include "snapshot/manifest.h"
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

// `path` is a snapshot directory or an export zip (opened with OpenExportZip).
// Errors: kNotFound when `path` does not exist; kInvalidArgument naming the
// path when it is neither a directory nor a valid export.
StatusOr<std::unique_ptr<SnapshotFiles>> OpenSnapshotFiles(const std::string& path);

// An export zip whose entries passed the rule of docs/snapshot-format.md
// ("Exports"), and its parsed manifest.
struct ExportZip {
  std::unique_ptr<SnapshotFiles> files;
  Manifest manifest;
  // Its file entries, relative to `<catalog>/`: the manifest, the schema and
  // each collection's data file, nothing else.
  std::vector<std::string> listed;
};

// Opens the export zip at `path`. The one way an export is opened, so that
// inspect, load and unpack accept and refuse the same zips. Before anything
// but the manifest is read it checks that every entry is a regular file or a
// directory with a plain relative name under the single `<catalog>/`
// directory, that no name repeats, and, once the manifest is parsed, that
// the files are exactly those the manifest lists.
// Errors: kNotFound "<path>: no such file"; kInvalidArgument naming the path
// and the offending entry; the manifest's parse errors.
StatusOr<ExportZip> OpenExportZip(const std::string& path);

}  // namespace warmup::snapshot

#endif  // WARMUP_SRC_SNAPSHOT_SNAPSHOT_FILES_H_
