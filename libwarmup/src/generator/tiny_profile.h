// The "tiny" profile: seeded random schemas, values and entities in which every
// value type of value.h and every schema feature of schema.h occurs. The
// generator's tiny catalog and the property tests both come from here, so a
// round trip that survives them survives the whole model.
#ifndef WARMUP_SRC_GENERATOR_TINY_PROFILE_H_
#define WARMUP_SRC_GENERATOR_TINY_PROFILE_H_

#include <cstdint>
#include <vector>

#include "generator/rng.h"
#include "warmup/entity.h"
#include "warmup/schema.h"
#include "warmup/value.h"

namespace warmup::generator {

// A random, valid value of `type` (arrays have 0 to 3 elements).
Value RandomValue(Rng& rng, ValueType type);
// A random node of a complex associated-data object, nested up to `depth`
// levels; never a null node (evitaDB's protocol has none).
DataItem RandomDataItem(Rng& rng, int depth);
// A random complex object's root: a map or an array, never a value (evitaDB's
// ComplexDataObject refuses one).
DataItem RandomDataRoot(Rng& rng, int depth);

// A catalog schema using every schema feature: global attributes of every
// uniqueness, an attribute of every value type, associated data of every
// type that evitaDB accepts plus complex objects, hierarchy, prices, plain
// and reflected references (partitioned, faceted, grouped, with attributes and
// compounds), entity compounds, descriptions, deprecations and restricted
// evolution modes.
CatalogSchema RandomCatalogSchema(uint64_t seed);

// A random entity of `type` in `schema` with primary key `pk`, its locales
// derived from its data. Includes reflected references where the type has them.
Entity RandomEntity(Rng& rng, const CatalogSchema& schema, const std::string& type, int32_t pk);

// The entity with its reflected references removed: what an upsert mutation
// can carry.
Entity WithoutReflectedReferences(Entity entity, const EntitySchema& schema);

}  // namespace warmup::generator

#endif  // WARMUP_SRC_GENERATOR_TINY_PROFILE_H_
