// The indexes of one entity collection, or of one reduced index (the
// entities referencing one entity through a reference indexed for
// partitioning). Internal.
#ifndef WARMUP_SRC_ENGINE_ENTITY_INDEX_H_
#define WARMUP_SRC_ENGINE_ENTITY_INDEX_H_

#include <absl/container/btree_map.h>
#include <absl/container/flat_hash_map.h>
#include <roaring/roaring.hh>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/index_keys.h"
#include "engine/pk_set.h"
#include "warmup/entity.h"
#include "warmup/schema.h"

namespace warmup::engine {

class IndexWriter;  // engine/index_io.h
class IndexReader;

// Small integer ids for the names an index is keyed by (attribute and locale,
// price list and currency, locale, reference), one dictionary per collection:
// an upsert hashes each name once, and every index it lands in addresses
// plain vectors by id.
class KeyDictionary {
 public:
  uint32_t Id(const std::string& key) {
    auto [it, inserted] = ids_.try_emplace(key, static_cast<uint32_t>(ids_.size()));
    return it->second;
  }
  std::optional<uint32_t> Find(const std::string& key) const {
    auto it = ids_.find(key);
    return it == ids_.end() ? std::nullopt : std::optional<uint32_t>(it->second);
  }
  void Save(IndexWriter& out) const;
  void Load(IndexReader& in);

 private:
  absl::flat_hash_map<std::string, uint32_t> ids_;
};

// What an entity contributes to an index: computed once per upsert and
// applied to the global index and to every reduced index it belongs to.
struct IndexEntries {
  std::vector<std::pair<uint32_t, std::string>> filter;  // (attribute id, value key)
  std::vector<std::pair<uint32_t, std::string>> sort;    // (attribute id, sort key)
  std::vector<uint32_t> locales;                         // locale ids
  std::vector<std::pair<uint32_t, int64_t>> prices;      // (price key id, scaled price for sale)
  std::vector<std::pair<uint32_t, int32_t>> facets;      // (reference id, referenced pk)
};

// Dictionary keys: "a:name" or "a:name|tag" for attributes, "p:list|currency"
// for prices, "l:tag" for locales, "r:name" for references.
std::string AttributeKey(const std::string& name, const std::string& tag);
std::string PriceKey(const std::string& price_list, const std::string& currency);
std::string LocaleKey(const std::string& tag);
std::string ReferenceKey(const std::string& name);

// Computes what `entity` puts into its indexes, following `schema`: filterable
// and sortable attributes in the entity's scope (localized strings sorted by
// collation keys), locales, the price for sale per indexed price list and
// currency (min for NONE and LOWEST_PRICE handling, sum of inner records for
// SUM), and faceted references.
IndexEntries ComputeIndexEntries(const Entity& entity, const EntitySchema& schema, CollationKeys& collation,
                                 KeyDictionary& keys);

class EntityIndex {
 public:
  void Add(int32_t pk, const IndexEntries& entries);
  void Remove(int32_t pk, const IndexEntries& entries);
  // Writes the whole index / replaces it with what `in` holds.
  void Save(IndexWriter& out) const;
  void Load(IndexReader& in);

  const Roaring& all() const { return all_; }
  // The read calls take ids from the collection's KeyDictionary.
  std::vector<int32_t> FilterEquals(uint32_t attribute, const std::string& value_key) const;
  // Entities having the attribute, by ascending (or descending) key, then pk.
  std::vector<int32_t> SortedBy(uint32_t attribute, bool descending) const;
  std::vector<int32_t> PriceBetween(uint32_t price_key, int64_t from, int64_t to) const;
  std::vector<int32_t> FacetMembers(uint32_t reference, int32_t referenced_pk) const;
  std::vector<int32_t> WithLocale(uint32_t locale) const;

 private:
  template <typename T>
  static T& Slot(std::vector<T>& slots, uint32_t id) {
    if (slots.size() <= id) slots.resize(id + 1);
    return slots[id];
  }
  // Flat hash maps and B-trees: no allocation per entry, unlike node-based maps.
  Roaring all_;
  std::vector<absl::flat_hash_map<std::string, PkSet>> filter_;
  std::vector<absl::btree_map<std::string, PkSet>> sort_;
  std::vector<Roaring> locales_;
  std::vector<absl::btree_map<int64_t, PkSet>> prices_;
  std::vector<absl::flat_hash_map<int32_t, PkSet>> facets_;
};

// Bitmap contents as a sorted vector.
std::vector<int32_t> ToVector(const Roaring& bitmap);

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_ENTITY_INDEX_H_
