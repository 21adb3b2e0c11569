// Everything an upsert is checked against before it changes anything: the
// entity schema (attributes, associated data, references, prices, hierarchy)
// and the unique values already held. Internal.
#ifndef WARMUP_SRC_ENGINE_UPSERT_VALIDATION_H_
#define WARMUP_SRC_ENGINE_UPSERT_VALIDATION_H_

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/catalog_indexes.h"
#include "warmup/entity.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::engine {

// A collection's unique attributes: attribute key -> value key -> primary key.
using UniqueValues = absl::flat_hash_map<std::string, absl::flat_hash_map<std::string, int32_t>>;

// The (attribute key, value key) pairs of `entity`'s attributes that are
// unique in its scope: within its collection, or, with `global`, within the
// catalog. Keys are per locale where the schema says so.
std::vector<std::pair<std::string, std::string>> UniqueKeys(const Entity& entity, const EntitySchema& schema,
                                                            bool global);

// OK when `entity` may be stored in a collection of `schema` holding
// `collection_unique`, in a catalog holding `global_unique`. Errors:
// kInvalidArgument naming the entity, the attribute, reference or price, and
// what is wrong with it (see Catalog::Upsert).
Status ValidateUpsert(const Entity& entity, const EntitySchema& schema, const UniqueValues& collection_unique,
                      const GlobalUniqueIndex& global_unique);

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_UPSERT_VALIDATION_H_
