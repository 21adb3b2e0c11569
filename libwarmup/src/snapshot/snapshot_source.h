// The snapshot reader: a CatalogSource over a snapshot directory or export zip.
// Internal header shared by OpenSnapshotSource, InspectSnapshot and UnpackSnapshot.
#ifndef WARMUP_SRC_SNAPSHOT_SNAPSHOT_SOURCE_H_
#define WARMUP_SRC_SNAPSHOT_SNAPSHOT_SOURCE_H_

#include <memory>
#include <string>

#include "snapshot/manifest.h"
#include "warmup/catalog_source.h"

namespace warmup::snapshot {

class SnapshotSource : public CatalogSource {
 public:
  static StatusOr<std::unique_ptr<SnapshotSource>> Open(const std::string& path);
  virtual const Manifest& manifest() const = 0;
};

}  // namespace warmup::snapshot

#endif  // WARMUP_SRC_SNAPSHOT_SNAPSHOT_SOURCE_H_
