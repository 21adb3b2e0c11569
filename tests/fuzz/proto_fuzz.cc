// Fuzz target: protobuf -> model conversion of what a client or server sends:
// the first byte picks the message (a sealed entity, an upsert mutation
// against the tiny profile's Product schema, a snapshot's schema.pb: the
// catalog schema and every entity schema), the rest is its wire form.
#include <cstdint>
#include <vector>

#include "GrpcEntityMutation.pb.h"
#include "codec/entity_convert.h"
#include "codec/entity_interpreter.h"
#include "codec/pb.h"
#include "codec/schema_convert.h"
#include "warmup/generator.h"
#include "warmup_snapshot.pb.h"

namespace {

const warmup::EntitySchema& ProductSchema() {
  static const warmup::CatalogSchema schema = [] {
    auto source = warmup::OpenGeneratorSource({"tiny", 1.0, 1, ""});
    return (*source)->schema();
  }();
  return schema.entities.at("Product");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t kind = data[0] % 3;
  const int length = static_cast<int>(size - 1);
  const uint8_t* wire = data + 1;
  if (kind == 0) {
    warmup::pb::GrpcSealedEntity entity;
    if (entity.ParseFromArray(wire, length)) (void)warmup::codec::EntityFromProto(entity);
  } else if (kind == 1) {
    warmup::pb::GrpcEntityUpsertMutation mutation;
    if (mutation.ParseFromArray(wire, length))
      (void)warmup::codec::EntityFromUpsertMutation(mutation, ProductSchema());
  } else {
    warmup::snapshot::v1::SnapshotSchema schema;
    if (schema.ParseFromArray(wire, length)) {
      std::vector<warmup::pb::GrpcEntitySchema> entities(schema.entities().begin(), schema.entities().end());
      (void)warmup::codec::CatalogSchemaFromProto(schema.catalog(), entities);
    }
  }
  return 0;
}
