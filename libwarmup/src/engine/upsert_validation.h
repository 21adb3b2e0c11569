// Everything an upsert is checked against before it changes anything: the
// entity schema (attributes, associated data, references, prices, hierarchy)
// and the unique values already held. Internal.
#ifndef WARMUP_SRC_ENGINE_UPSERT_VALIDATION_H_
#define WARMUP_SRC_ENGINE_UPSERT_VALIDATION_H_

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/catalog_indexes.h"
#include "warmup/entity.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::engine {

// The entity of a collection holding a unique attribute's value: (attribute
// key, value key) -> its primary key, or nullopt when none does.
using UniqueOwnerLookup =
    std::function<std::optional<int32_t>(const std::string& attribute_key, const std::string& value_key)>;

// The (attribute key, value key) pairs of `entity`'s attributes that are
// unique in its scope: within its collection, or, with `global`, within the
// catalog. Keys are per locale where the schema says so.
std::vector<std::pair<std::string, std::string>> UniqueKeys(const Entity& entity, const EntitySchema& schema,
                                                            bool global);

// OK when `entity` may be stored in a collection of `schema` whose unique
// values `collection_owner` finds, in a catalog holding `global_unique`. Errors:
// kInvalidArgument naming the entity, the attribute, reference or price, and
// what is wrong with it (see Catalog::Upsert).
Status ValidateUpsert(const Entity& entity, const EntitySchema& schema,
                      const UniqueOwnerLookup& collection_owner, const GlobalUniqueIndex& global_unique);

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_UPSERT_VALIDATION_H_
