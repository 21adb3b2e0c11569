// The indexes of one entity collection, or of one reduced index (the
// entities referencing one entity through a reference indexed for
// partitioning). Internal.
#ifndef WARMUP_SRC_ENGINE_ENTITY_INDEX_H_
#define WARMUP_SRC_ENGINE_ENTITY_INDEX_H_

#include <roaring/roaring.hh>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/index_keys.h"
#include "warmup/entity.h"
#include "warmup/schema.h"

namespace warmup::engine {

// What an entity contributes to an index: computed once per upsert and
// applied to the global index and to every reduced index it belongs to.
struct IndexEntries {
  std::vector<std::pair<std::string, std::string>> filter;  // (attribute key, value key)
  std::vector<std::pair<std::string, std::string>> sort;    // (attribute key, sort key)
  std::vector<std::string> locales;
  std::vector<std::pair<std::string, int64_t>> prices;  // (price list|currency, scaled price for sale)
  std::vector<std::pair<std::string, int32_t>> facets;  // (reference name, referenced pk)
};

// "name" for a global attribute, "name|tag" for a localized one.
std::string AttributeKey(const std::string& name, const std::string& tag);
std::string PriceKey(const std::string& price_list, const std::string& currency);

// Computes what `entity` puts into its indexes, following `schema`: filterable
// and sortable attributes in the entity's scope (localized strings sorted by
// collation keys), locales, the price for sale per indexed price list and
// currency (min for NONE and LOWEST_PRICE handling, sum of inner records for
// SUM), and faceted references.
IndexEntries ComputeIndexEntries(const Entity& entity, const EntitySchema& schema, CollationKeys& collation);

class EntityIndex {
 public:
  void Add(int32_t pk, const IndexEntries& entries);
  void Remove(int32_t pk, const IndexEntries& entries);

  const Roaring& all() const { return all_; }
  std::vector<int32_t> FilterEquals(const std::string& attribute_key, const std::string& value_key) const;
  // Entities having the attribute, by ascending (or descending) key, then pk.
  std::vector<int32_t> SortedBy(const std::string& attribute_key, bool descending) const;
  std::vector<int32_t> PriceBetween(const std::string& price_key, int64_t from, int64_t to) const;
  std::vector<int32_t> FacetMembers(const std::string& reference, int32_t referenced_pk) const;
  std::vector<int32_t> WithLocale(const std::string& tag) const;

 private:
  Roaring all_;
  std::unordered_map<std::string, std::unordered_map<std::string, Roaring>> filter_;
  std::unordered_map<std::string, std::map<std::string, Roaring>> sort_;
  std::unordered_map<std::string, Roaring> locales_;
  std::unordered_map<std::string, std::map<int64_t, Roaring>> prices_;
  std::unordered_map<std::string, std::unordered_map<int32_t, Roaring>> facets_;
};

// Bitmap contents as a sorted vector.
std::vector<int32_t> ToVector(const Roaring& bitmap);

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_ENTITY_INDEX_H_
