// The server's interpreter of schema mutations: applies a batch of catalog
// schema mutations to warmup's schema model, as evitaDB's catalog does when a
// session sends UpdateCatalogSchema. Internal to libwarmup.
#ifndef WARMUP_SRC_CODEC_SCHEMA_INTERPRETER_H_
#define WARMUP_SRC_CODEC_SCHEMA_INTERPRETER_H_

#include <vector>

#include "GrpcCatalogSchemaMutation.pb.h"
#include "codec/pb.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::codec {

// Applies `mutations` in order to `schema`, as a server would. Supports the
// mutation kinds CatalogSchemaToMutations (schema_mutations.h) emits.
// Errors: kInvalidArgument naming the mutation index and what is wrong (unknown
// entity type, duplicate name, unknown global attribute, reflected reference
// to a missing reference); kUnimplemented for other mutation kinds. On error
// `schema` holds the mutations before the failing one.
Status ApplyCatalogSchemaMutations(const std::vector<pb::GrpcLocalCatalogSchemaMutation>& mutations,
                                   CatalogSchema* schema);

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_SCHEMA_INTERPRETER_H_
