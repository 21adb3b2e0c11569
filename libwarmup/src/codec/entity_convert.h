// The read model of an entity: conversions between warmup's Entity and
// evitaDB's GrpcSealedEntity. The write model (the upsert mutation that
// recreates an entity in a fresh catalog) is in entity_mutations.h, its
// interpreter in entity_interpreter.h. Internal to libwarmup.
#ifndef WARMUP_SRC_CODEC_ENTITY_CONVERT_H_
#define WARMUP_SRC_CODEC_ENTITY_CONVERT_H_

#include "GrpcEntity.pb.h"
#include "codec/pb.h"
#include "warmup/entity.h"
#include "warmup/status.h"

namespace warmup::codec {

// Errors: kInvalidArgument naming the entity and the field that is wrong.
StatusOr<Entity> EntityFromProto(const pb::GrpcSealedEntity& proto);
// Writes `entity` as evitaDB would return it fully fetched. `out` is cleared.
void EntityToProto(const Entity& entity, pb::GrpcSealedEntity* out);

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_ENTITY_CONVERT_H_
