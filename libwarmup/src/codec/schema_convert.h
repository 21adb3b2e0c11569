// The read model of a schema: conversions between warmup's schema model and
// evitaDB's schema messages (GrpcCatalogSchema, GrpcEntitySchema). The write
// model is in schema_mutations.h, its interpreter in schema_interpreter.h.
// Internal to libwarmup.
#ifndef WARMUP_SRC_CODEC_SCHEMA_CONVERT_H_
#define WARMUP_SRC_CODEC_SCHEMA_CONVERT_H_

#include <vector>

#include "GrpcCatalogSchema.pb.h"
#include "GrpcEntitySchema.pb.h"
#include "codec/pb.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::codec {

// Builds a catalog schema from the catalog message (global attributes) and one
// message per entity type. Deprecated single-scope flags sent by older servers
// are read when the per-scope lists are empty.
// Errors: kInvalidArgument naming entity type, reference and attribute.
StatusOr<CatalogSchema> CatalogSchemaFromProto(const pb::GrpcCatalogSchema& catalog,
                                               const std::vector<pb::GrpcEntitySchema>& entities);
StatusOr<EntitySchema> EntitySchemaFromProto(const pb::GrpcEntitySchema& proto);

// The read model of `schema`, as an evitaDB server returns it.
void CatalogSchemaToProto(const CatalogSchema& schema, pb::GrpcCatalogSchema* out);
void EntitySchemaToProto(const EntitySchema& schema, pb::GrpcEntitySchema* out);

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_SCHEMA_CONVERT_H_
