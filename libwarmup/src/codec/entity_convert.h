// Conversions between warmup's Entity and evitaDB's entity messages: the read
// model (GrpcSealedEntity) and the write model (the upsert mutation that
// recreates an entity in a fresh catalog). Internal to libwarmup.
#ifndef WARMUP_SRC_CODEC_ENTITY_CONVERT_H_
#define WARMUP_SRC_CODEC_ENTITY_CONVERT_H_

#include "GrpcEntity.pb.h"
#include "GrpcEntityMutation.pb.h"
#include "codec/pb.h"
#include "warmup/entity.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::codec {

// Errors: kInvalidArgument naming the entity and the field that is wrong.
StatusOr<Entity> EntityFromProto(const pb::GrpcSealedEntity& proto);
// Writes `entity` as evitaDB would return it fully fetched. `out` is cleared.
void EntityToProto(const Entity& entity, pb::GrpcSealedEntity* out);

// Whether an upsert may replace an existing entity.
enum class Existence { kMayExist, kMustNotExist };

// Builds the mutation that recreates `entity` in a catalog whose schema for its
// type is `schema`, in the order evitaDB's own entity builder emits: scope,
// parent, references (insert, group, attributes), attributes, associated data,
// price inner-record handling, prices. References whose schema is reflected are
// skipped (the engine maintains them); each reference gets a fresh negative
// internal id. The price inner-record handling is sent only when the schema has
// prices and the value is known.
// Errors: kInvalidArgument when a reference names no reference of `schema`.
StatusOr<pb::GrpcEntityMutation> EntityToUpsertMutation(const Entity& entity, const EntitySchema& schema,
                                                        Existence existence);

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

#endif  // WARMUP_SRC_CODEC_ENTITY_CONVERT_H_
