// The client's write model of an entity: the upsert mutation that recreates
// it in a fresh catalog (what `RemoteTarget` sends per entity). Internal to
// libwarmup.
#ifndef WARMUP_SRC_CODEC_ENTITY_MUTATIONS_H_
#define WARMUP_SRC_CODEC_ENTITY_MUTATIONS_H_

#include "GrpcEntityMutation.pb.h"
#include "codec/pb.h"
#include "warmup/entity.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::codec {

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

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_ENTITY_MUTATIONS_H_
