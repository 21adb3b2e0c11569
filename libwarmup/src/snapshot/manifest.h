// manifest.json of a snapshot: what it holds and how to verify it. Internal;
// the format is specified in docs/snapshot-format.md.
#ifndef WARMUP_SRC_SNAPSHOT_MANIFEST_H_
#define WARMUP_SRC_SNAPSHOT_MANIFEST_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/names.h"
#include "warmup/snapshot.h"
#include "warmup/status.h"

namespace warmup::snapshot {

inline constexpr const char* kManifestFile = "manifest.json";
inline constexpr const char* kSchemaFile = "schema.pb";

// Provenance keys "omitted.Type.reference.attribute" hold how many values
// the snapshot's source read and left out (CatalogSource::OmittedValues).
inline constexpr std::string_view kOmittedProvenancePrefix = "omitted.";

struct ManifestFile {
  std::string file;  // relative to the snapshot directory
  int64_t stored_bytes = 0;
  uint32_t crc32c = 0;  // of the stored bytes
};

struct ManifestCollection {
  std::string entity_type;
  ManifestFile data;
  SnapshotCompression compression = SnapshotCompression::kNone;
  int64_t count = 0;
  int64_t serialized_bytes = 0;    // the length-delimited entity stream, uncompressed
  uint32_t serialized_crc32c = 0;  // of that stream: equal for compressed and plain copies
};

struct Manifest {
  int format_version = kSnapshotFormatVersion;
  std::string catalog;
  std::string created_by;
  std::map<std::string, std::string> provenance;
  ManifestFile schema;
  std::vector<ManifestCollection> collections;  // sorted by entity type
};

std::string ManifestToJson(const Manifest& manifest);
// Errors: kInvalidArgument or kFailedPrecondition (unsupported version), each
// naming `name` and the offending key.
StatusOr<Manifest> ParseManifest(std::string_view json, const std::string& name);
// A hex digest of the content the manifest describes (schema checksum, and per
// collection the count and the checksum of the uncompressed entity stream),
// independent of who wrote it, when, and with which compression.
std::string ManifestFingerprint(const Manifest& manifest);
using ::warmup::IsSafeName;
using ::warmup::IsSafeRelativePath;

}  // namespace warmup::snapshot

#endif  // WARMUP_SRC_SNAPSHOT_MANIFEST_H_
