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
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/index_io.h"
#include "warmup/entity.h"
#include "warmup/schema.h"

namespace warmup::engine {

// Attribute key (see AttributeKey) -> value key (see ScalarKey) -> owner; one per scope.
using GlobalUniqueIndex = absl::flat_hash_map<std::string, absl::flat_hash_map<std::string, EntityRef>>;

// One reflected reference appearing on (or leaving) an entity because of a
// reference another entity holds: evitaDB's implicit mutation.
struct ReflectedChange {
  std::string entity_type;  // where the reflected reference lives
  int32_t primary_key = 0;
  Reference reference;  // the reflected reference, with the inherited attributes
  bool added = true;
};

// evitaDB keeps a reflected reference (say Category.products, reflecting
// Product.categories) on the referenced side: a product referencing category 7
// makes category 7 reference that product. These are those back links.
class ReflectedReferences {
 public:
  // `schema` must outlive this object.
  explicit ReflectedReferences(const CatalogSchema* schema) : schema_(schema) {}

  // The reflected references that change when a holder goes from `before`
  // to `after` (either may be absent: an insert, a removal); unchanged ones
  // are not listed. Removals first.
  std::vector<ReflectedChange> Diff(const Entity* before, const Entity* after) const;
  // Records one change.
  void Apply(const ReflectedChange& change);
  // The reflected references held for `type`/`pk`, by reference name, then
  // holder; with `faceted_in`, only those of references faceted in that scope.
  std::vector<Reference> For(const std::string& type, int32_t pk,
                             std::optional<Scope> faceted_in = std::nullopt) const;
  // Replaces `entity`'s reflected references with the back links held for it
  // (a stored entity never carries them itself: they change with the holders).
  void Attach(Entity* entity) const;

  void Save(IndexWriter& out) const;
  void Load(IndexReader& in);

 private:
  // The reflected references `holder` creates.
  std::vector<ReflectedChange> Reflections(const Entity& holder, bool added) const;
  const CatalogSchema* schema_;
  // (referenced entity type, reflected reference name) -> referenced pk ->
  // holder pk -> the inherited attributes.
  std::map<std::pair<std::string, std::string>, std::unordered_map<int32_t, std::map<int32_t, Attributes>>>
      links_;
};

// Everything goLive writes to catalog.index.
struct CatalogIndexes {
  explicit CatalogIndexes(const CatalogSchema* schema) : reflected(schema) {}
  void Save(IndexWriter& out) const;
  void Load(IndexReader& in);

  GlobalUniqueIndex global_unique[2];  // by Scope
  ReflectedReferences reflected;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_CATALOG_INDEXES_H_
