// Read access to the files of one snapshot, in a directory or inside an export
// zip, the one validator every export zip passes before it is read, and the
// entry checks every zip warmup reads passes (an evitaDB backup's too).
// Internal.
#ifndef WARMUP_SRC_SNAPSHOT_SNAPSHOT_FILES_H_
#define WARMUP_SRC_SNAPSHOT_SNAPSHOT_FILES_H_

#include <zip.h>

#include <filesystem>
#include <functional>
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

// A zip opened read-only; discarded (never written) when it goes.
using ZipArchive = std::unique_ptr<zip_t, void (*)(zip_t*)>;

// Opens the zip at `path` read-only. `what` names what it should be in the
// refusal of a directory ("an export zip").
// Errors: kNotFound "<path>: no such file"; kInvalidArgument for a directory
// or a file that is not a readable zip.
StatusOr<ZipArchive> OpenZipArchive(const std::string& path, const std::string& what);

// One entry of a zip that CheckZipEntries accepted.
struct ZipEntryName {
  std::string raw;   // as in the zip
  std::string name;  // without a directory's trailing '/'
  bool directory;
  zip_uint64_t index;
};

// Every entry of `archive`, in the zip's order, once each is known to be a
// regular file or a directory (a name ending in '/') with a plain relative
// name (IsSafeRelativePath) and no name repeats (a directory's without its
// '/'): what makes unpacking it safe. `what` names the zip's kind in
// refusals ("an export").
// Errors: kInvalidArgument naming `path` and the offending entry.
StatusOr<std::vector<ZipEntryName>> CheckZipEntries(zip_t* archive, const std::string& path,
                                                    const std::string& what);

// The entry at `index` for reading; `name` is how its errors name it.
// Errors: kDataLoss when libzip cannot open it.
StatusOr<std::unique_ptr<ByteReader>> OpenZipEntry(zip_t* archive, zip_uint64_t index,
                                                   const std::string& name);

// Copies `in` to a new file `to` (refused when it exists), synced and closed:
// its size and checksum are the writer's.
// Errors: in's read errors; the writer's (kAlreadyExists, I/O naming `to`).
StatusOr<std::unique_ptr<FileWriter>> CopyZipEntry(ByteReader& in, const std::string& to);

// Makes `<parent_dir>/<catalog>/` all at once: `fill` writes the catalog's
// files into a fresh directory it is given (beside the final one, named
// after `catalog`), whose directories are then synced and which is renamed
// into place. On any error, what this call made goes again (`parent_dir`
// too, and its parents, when it made them) and messages name where a file
// was going, never the temporary directory. Returns the catalog's path.
// Errors: kAlreadyExists when `<parent_dir>/<catalog>` exists; kUnavailable
// when a directory cannot be made, synced or renamed; fill's.
StatusOr<std::string> UnpackCatalogDirectory(const std::string& parent_dir, const std::string& catalog,
                                             const std::function<Status(const std::filesystem::path&)>& fill);

// An entry name as messages show it: quoted, any byte that is not printable
// ASCII as \xNN (a name comes from the zip, so it may hold anything).
std::string QuotedZipEntry(const std::string& name);

}  // namespace warmup::snapshot

#endif  // WARMUP_SRC_SNAPSHOT_SNAPSHOT_FILES_H_
