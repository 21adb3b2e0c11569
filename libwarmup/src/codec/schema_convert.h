// Conversions between warmup's schema model and evitaDB's schema messages:
// the read model (GrpcCatalogSchema, GrpcEntitySchema) and the ordered batch
// of schema mutations that recreates a catalog's schema in a fresh catalog.
// Internal to libwarmup.
#ifndef WARMUP_SRC_CODEC_SCHEMA_CONVERT_H_
#define WARMUP_SRC_CODEC_SCHEMA_CONVERT_H_

#include <vector>

#include "GrpcCatalogSchema.pb.h"
#include "GrpcCatalogSchemaMutation.pb.h"
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

// The mutations that recreate `schema` in an empty catalog, in the order
// evitaDB needs: description, global attributes, every entity type created,
// then per type its settings, attributes, associated data, plain references and
// compounds; then reflected references (their targets must exist); finally the
// evolution-mode restrictions.
std::vector<pb::GrpcLocalCatalogSchemaMutation> CatalogSchemaToMutations(const CatalogSchema& schema);

// Applies `mutations` in order to `schema`, as a server would. Supports the
// mutation kinds CatalogSchemaToMutations emits.
// Errors: kInvalidArgument naming the mutation index and what is wrong (unknown
// entity type, duplicate name, unknown global attribute, reflected reference
// to a missing reference); kUnimplemented for other mutation kinds. On error
// `schema` holds the mutations before the failing one.
Status ApplyCatalogSchemaMutations(const std::vector<pb::GrpcLocalCatalogSchemaMutation>& mutations,
                                   CatalogSchema* schema);

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_SCHEMA_CONVERT_H_
