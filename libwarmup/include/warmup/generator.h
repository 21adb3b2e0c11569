// Deterministic synthetic catalogs: the shape of a production e-commerce
// catalog ("senesi", and "senesi-production" with its recorded reduced
// indexes) and a small catalog that uses every feature ("tiny").
#ifndef WARMUP_GENERATOR_H_
#define WARMUP_GENERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "warmup/catalog_source.h"
#include "warmup/snapshot.h"
#include "warmup/status.h"

namespace warmup {

struct GeneratorOptions {
  // "senesi": 386,369 entities in 18 collections at scale 1 (see
  // docs/datasets.md); "senesi-production": the same entities, but Product's
  // references give production's recorded reduced indexes; "tiny": a few
  // hundred entities using every value type and schema feature.
  std::string profile = "senesi";
  // Multiplies every collection's count (rounded, at least 1 entity each).
  double scale = 1.0;
  // The same profile, scale and seed produce the same catalog, byte for byte.
  uint64_t seed = 1;
  // The catalog's name; empty = the profile's name.
  std::string catalog_name;
};

// The profile names GeneratorOptions::profile accepts.
std::vector<std::string> GeneratorProfiles();

// A CatalogSource that generates the catalog on the fly, entity by entity.
// Errors: kInvalidArgument for an unknown profile (listing the known ones) or a
// scale that is not positive and finite.
StatusOr<std::unique_ptr<CatalogSource>> OpenGeneratorSource(const GeneratorOptions& options);

// Generates the catalog into a snapshot at `<parent_dir>/<catalog>/`, recording
// profile, scale and seed in the manifest. Returns the snapshot's path.
StatusOr<std::string> GenerateSnapshot(const GeneratorOptions& options, const std::string& parent_dir,
                                       SnapshotWriteOptions write_options);

}  // namespace warmup

#endif  // WARMUP_GENERATOR_H_
