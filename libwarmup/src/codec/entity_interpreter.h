// The server's interpreter of an entity upsert: applies the local mutations
// of a GrpcEntityUpsertMutation to a new entity, as evitaDB's session does
// for an entity that does not exist yet. Internal to libwarmup.
#ifndef WARMUP_SRC_CODEC_ENTITY_INTERPRETER_H_
#define WARMUP_SRC_CODEC_ENTITY_INTERPRETER_H_

#include "GrpcEntityMutation.pb.h"
#include "codec/pb.h"
#include "warmup/entity.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::codec {

// Applies an upsert mutation to an empty entity of `schema`'s type and returns
// the result, resolving referenced and group entity types from `schema` when
// the mutation leaves them out. Locales are derived from the data.
// Errors: kInvalidArgument naming entity, reference or attribute when the
// mutation names an unknown reference, lacks a required field, or addresses a
// reference it did not insert; kUnimplemented for removals and deltas, which
// have no meaning on a new entity.
StatusOr<Entity> EntityFromUpsertMutation(const pb::GrpcEntityUpsertMutation& mutation,
                                          const EntitySchema& schema);

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_ENTITY_INTERPRETER_H_
