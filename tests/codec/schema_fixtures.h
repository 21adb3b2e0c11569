// Helpers shared by the schema codec's tests.
#ifndef WARMUP_TESTS_CODEC_SCHEMA_FIXTURES_H_
#define WARMUP_TESTS_CODEC_SCHEMA_FIXTURES_H_

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "GrpcCatalogSchemaMutation.pb.h"
#include "codec/pb.h"
#include "warmup/schema.h"

namespace warmup::codec {

// A catalog as evitaDB defines it: empty, allowing new entity types.
inline CatalogSchema FreshCatalog(const std::string& name) {
  CatalogSchema fresh;
  fresh.name = name;
  fresh.evolution_modes = {CatalogEvolutionMode::kAddingEntityTypes};
  return fresh;
}

// Schema versions are the server's counters, not content.
inline void NormalizeVersions(CatalogSchema* schema) {
  schema->version = 1;
  for (auto& [type, entity] : schema->entities) entity.version = 1;
}

// `mutations` as a server receives them: through their wire bytes.
inline std::vector<pb::GrpcLocalCatalogSchemaMutation> ThroughWire(
    const std::vector<pb::GrpcLocalCatalogSchemaMutation>& mutations) {
  std::vector<pb::GrpcLocalCatalogSchemaMutation> parsed(mutations.size());
  for (size_t i = 0; i < mutations.size(); ++i) {
    REQUIRE(parsed[i].ParseFromString(mutations[i].SerializeAsString()));
  }
  return parsed;
}

}  // namespace warmup::codec

#endif  // WARMUP_TESTS_CODEC_SCHEMA_FIXTURES_H_
