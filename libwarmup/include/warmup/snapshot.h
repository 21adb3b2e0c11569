// Snapshots: a catalog's schema and entities on disk, in the format described
// in docs/snapshot-format.md; a zip of a snapshot directory is an export.
//
// A snapshot directory `<parent>/<catalog>/` holds manifest.json, schema.pb and
// one entity file per collection. Writers build it under a temporary name and
// rename it into place when complete, so a directory with the final name is
// always whole. Readers never write to a snapshot.
#ifndef WARMUP_SNAPSHOT_H_
#define WARMUP_SNAPSHOT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warmup/catalog_source.h"
#include "warmup/entity.h"
#include "warmup/schema.h"
#include "warmup/spec_names.h"
#include "warmup/status.h"

namespace warmup {

// The snapshot format version this build writes and reads.
inline constexpr int kSnapshotFormatVersion = 1;

enum class SnapshotCompression { kNone, kZstd };

// Options for writing a snapshot.
struct SnapshotWriteOptions {
  // How entity files are compressed. zstd roughly halves generated catalogs.
  SnapshotCompression compression = SnapshotCompression::kNone;
  // zstd level when compression is kZstd (1 = fastest, 19 = smallest).
  int zstd_level = 3;
  // Free-form provenance recorded in the manifest, e.g. the generator's
  // profile, scale and seed. Keys and values are strings.
  std::map<std::string, std::string> provenance;
  // Called by WriteSnapshot after each collection with its type, the entities
  // written and the seconds it took; for progress lines. May be empty.
  std::function<void(const std::string& entity_type, int64_t count, double seconds)> on_collection_written;
};

// Writes a snapshot collection by collection.
// Usage: Create, then for each entity type in any order Append its entities in
// ascending primary-key order (each collection once, contiguously), then Finish.
// Thread-safety: one thread.
class SnapshotWriter {
 public:
  // Starts a snapshot of `schema` at `<parent_dir>/<schema.name>/`.
  // Errors: kAlreadyExists when that directory exists (nothing is touched);
  // kInvalidArgument for a catalog name that is not a plain directory name;
  // I/O errors naming the path.
  static StatusOr<std::unique_ptr<SnapshotWriter>> Create(const std::string& parent_dir,
                                                          const CatalogSchema& schema,
                                                          const SnapshotWriteOptions& options);
  virtual ~SnapshotWriter() = default;

  // Appends `entity` to its collection's file.
  // Errors: kInvalidArgument when the type is not in the schema, the primary key
  // does not ascend, or a collection is resumed after another was started.
  virtual Status Append(const Entity& entity) = 0;
  // Sets provenance `key` to `value` in the manifest (over what the options
  // gave); takes effect at Finish.
  virtual void SetProvenance(const std::string& key, const std::string& value) = 0;
  // Completes the snapshot: closes files, writes the manifest, renames the
  // directory into place. Collections of the schema that received no entity
  // are written empty. On error the temporary directory is removed.
  virtual Status Finish() = 0;
};

// What a snapshot's manifest says about one collection, plus what inspection found.
struct SnapshotCollectionStats {
  std::string entity_type;
  int64_t count = 0;
  int64_t stored_bytes = 0;      // the entity file as stored (compressed or not)
  int64_t serialized_bytes = 0;  // the entities' protobuf bytes, uncompressed
  std::string file;              // relative to the snapshot directory
  // Averages per entity, filled by InspectSnapshot.
  double global_attributes = 0;
  double localized_attributes = 0;  // values, counting each locale
  double prices = 0;
  double associated_data_bytes = 0;
  std::map<std::string, double> references;  // per reference name
};

struct SnapshotInfo {
  std::string path;
  std::string catalog;
  int format_version = 0;
  std::string fingerprint;
  std::map<std::string, std::string> provenance;
  std::vector<SnapshotCollectionStats> collections;
  int64_t total_count() const;
  int64_t total_stored_bytes() const;
};

// Reads every entity of the snapshot at `path` (a snapshot directory or an
// export zip), verifying checksums and counts, and returns per-collection
// counts, sizes and per-entity averages.
// Errors: kDataLoss naming file and offset for damaged data; kNotFound or
// kInvalidArgument naming what is missing or malformed.
StatusOr<SnapshotInfo> InspectSnapshot(const std::string& path);

// Renders InspectSnapshot's result as an aligned text table, or as JSON
// (documented in docs/snapshot-format.md).
std::string SnapshotInfoToText(const SnapshotInfo& info);
std::string SnapshotInfoToJson(const SnapshotInfo& info);

// Opens the snapshot at `path` (a snapshot directory `<parent>/<catalog>/`, or
// an export zip) as a CatalogSource. Files are opened read-only; nothing in the
// snapshot is ever modified. The manifest and schema are read and checked here;
// entity files are read and verified as they are streamed.
StatusOr<std::unique_ptr<CatalogSource>> OpenSnapshotSource(const std::string& path);

// The snapshot a user means by a parent directory and a catalog name:
// `<parent>/<catalog>` when `catalog` is given; `parent` itself when it is a
// file (an export zip); otherwise the one snapshot directory (holding a
// manifest.json) in `parent`. Errors, each saying what to do: kNotFound when
// `parent` does not exist, or `catalog` is not in it (listing what is);
// kInvalidArgument when `parent` is a snapshot itself (naming its parent and
// catalog), holds none, or several ("DIR holds 2 snapshots (a, b): choose one
// with the catalog"); what to do is said in the words of `names`, the caller's.
StatusOr<std::string> FindSnapshot(const std::string& parent, const std::string& catalog,
                                   const SpecNames& names = {});

// Copies every collection of `source` into a new snapshot at
// `<parent_dir>/<catalog>/` (see SnapshotWriter::Create for the errors) and
// returns the snapshot's path. Errors from the source abort the copy and
// leave nothing behind.
StatusOr<std::string> WriteSnapshot(CatalogSource& source, const std::string& parent_dir,
                                    const SnapshotWriteOptions& options);

// Writes the snapshot directory `snapshot_dir` into a new zip at `zip_path`,
// entries under `<catalog>/`. Errors: kAlreadyExists if `zip_path` exists.
Status ZipSnapshot(const std::string& snapshot_dir, const std::string& zip_path);

// Unpacks the export `zip_path` into `<parent_dir>/<catalog>/`, refusing entries
// with absolute paths, `..` or anything outside `<catalog>/`, then verifies every
// checksum of the unpacked snapshot. Nothing is written outside `parent_dir`;
// on any error the partly unpacked directory is removed.
// Returns the path of the unpacked snapshot directory.
StatusOr<std::string> UnpackSnapshot(const std::string& zip_path, const std::string& parent_dir);

}  // namespace warmup

#endif  // WARMUP_SNAPSHOT_H_
