// The client's write model of a schema: the ordered batch of schema mutations
// that recreates a catalog's schema in a fresh catalog (what `RemoteTarget`
// sends in its first UpdateCatalogSchema). Internal to libwarmup.
#ifndef WARMUP_SRC_CODEC_SCHEMA_MUTATIONS_H_
#define WARMUP_SRC_CODEC_SCHEMA_MUTATIONS_H_

#include <vector>

#include "GrpcCatalogSchemaMutation.pb.h"
#include "codec/pb.h"
#include "warmup/schema.h"

namespace warmup::codec {

// The mutations that recreate `schema` in an empty catalog, in the order
// evitaDB needs: description, global attributes, every entity type created,
// then per type its settings, attributes, associated data, plain references and
// compounds; then reflected references (their targets must exist); finally the
// evolution-mode restrictions.
std::vector<pb::GrpcLocalCatalogSchemaMutation> CatalogSchemaToMutations(const CatalogSchema& schema);

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_SCHEMA_MUTATIONS_H_
