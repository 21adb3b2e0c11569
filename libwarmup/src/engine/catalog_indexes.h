// The indexes that span a catalog's collections: globally unique attribute
// values, and the reflected references one collection's entities hold through
// another's references. Owned by the catalog; collections update them through
// a pointer while they index an entity. Internal.
#ifndef WARMUP_SRC_ENGINE_CATALOG_INDEXES_H_
#define WARMUP_SRC_ENGINE_CATALOG_INDEXES_H_

#include <absl/container/flat_hash_map.h>
#include <roaring/roaring.hh>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "engine/index_io.h"
#include "warmup/entity.h"
#include "warmup/schema.h"

namespace warmup::engine {

// Attribute key (see AttributeKey) -> value key (see ScalarKey) -> owner.
using GlobalUniqueIndex = absl::flat_hash_map<std::string, absl::flat_hash_map<std::string, EntityRef>>;

// evitaDB keeps a reflected reference (say Category.products, reflecting
// Product.categories) on the referenced side: a product referencing category 7
// makes category 7 reference that product. These are those back links.
class ReflectedReferences {
 public:
  // `schema` must outlive this object.
  explicit ReflectedReferences(const CatalogSchema* schema) : schema_(schema) {}

  // Adds (or, with `add` false, removes) the back links `holder`'s references
  // create in the collections whose reflected references mirror them.
  void Update(const Entity& holder, bool add);
  // Replaces `entity`'s reflected references with the back links held for it
  // (a stored entity never carries them itself: they change with the holders).
  void Attach(Entity* entity) const;

  void Save(IndexWriter& out) const;
  void Load(IndexReader& in);

 private:
  const CatalogSchema* schema_;
  // (referenced entity type, reflected reference name) -> referenced pk -> holder pks.
  std::map<std::pair<std::string, std::string>, std::unordered_map<int32_t, Roaring>> links_;
};

// Everything goLive writes to catalog.index.
struct CatalogIndexes {
  explicit CatalogIndexes(const CatalogSchema* schema) : reflected(schema) {}
  void Save(IndexWriter& out) const;
  void Load(IndexReader& in);

  GlobalUniqueIndex global_unique;
  ReflectedReferences reflected;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_CATALOG_INDEXES_H_
