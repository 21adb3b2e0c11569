// What an entity, or one of its references, contributes to the indexes it
// lands in, computed once per upsert (evitaDB's EntityIndexLocalMutationExecutor
// and ReferenceIndexMutator work it out per index; warmup computes it once
// and applies it to each), and the dictionary of the names it is keyed by.
// Internal to engine/.
#ifndef WARMUP_SRC_ENGINE_INDEX_ENTRIES_H_
#define WARMUP_SRC_ENGINE_INDEX_ENTRIES_H_

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/index_keys.h"
#include "warmup/entity.h"
#include "warmup/schema.h"

namespace warmup::engine {

class IndexWriter;  // engine/index_io.h
class IndexReader;

// Small integer ids for the names an index is keyed by (attribute and locale,
// compound, price list/currency/handling, locale, reference), one dictionary
// per collection: an upsert hashes each name once, and every index it lands
// in addresses plain vectors by id.
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

// One indexed price: what evitaDB's price record holds. Amounts are scaled
// to the schema's indexed price places; validity bounds are microseconds
// since the epoch (open ends, and a price without validity, the int64
// limits).
struct PriceEntry {
  uint32_t key = 0;  // "p:list|currency|handling"
  int32_t internal_id = 0;
  int32_t price_id = 0;
  std::optional<int32_t> inner_record_id;
  int64_t with_tax = 0;
  int64_t without_tax = 0;
  bool has_validity = false;
  int64_t valid_from = std::numeric_limits<int64_t>::min();
  int64_t valid_to = std::numeric_limits<int64_t>::max();
};

struct RangeEntry {
  uint32_t attribute = 0;
  std::string from;  // order keys of the bounds (open ends as the type's extremes)
  std::string to;
};

struct FacetEntry {
  uint32_t reference = 0;
  int32_t group = 0;  // 0: not in a group (primary keys are positive)
  int32_t facet = 0;
  friend bool operator==(const FacetEntry&, const FacetEntry&) = default;
};

// What an entity (or one of its references) contributes to an index:
// computed once per upsert and applied to every index it belongs to.
struct IndexEntries {
  std::vector<std::pair<uint32_t, std::string>> filter;  // (attribute id, value key)
  std::vector<RangeEntry> ranges;                        // range-typed filterable values
  std::vector<std::pair<uint32_t, std::string>> sort;    // (attribute or compound id, sort key)
  std::vector<std::pair<uint32_t, int32_t>> chains;      // (attribute id, predecessor pk; -1 = head)
  // (attribute id, value key) of localized values unique across locales;
  // every other unique value is held by its filter entry alone.
  std::vector<std::pair<uint32_t, std::string>> unique;
  std::vector<uint32_t> locales;  // locale ids
  std::vector<PriceEntry> prices;
  std::vector<FacetEntry> facets;
  bool empty() const;
  // The bytes its vectors and the strings in them hold on the heap, for a
  // cache bounded by what it holds (ReflectionCache).
  size_t HeapBytes() const;
};

// What an entity puts into the global index and into the reduced indexes of
// its partitioning references, and the part of it filtering-only reduced
// indexes get (locales).
struct EntityEntries {
  IndexEntries full;
  IndexEntries filtering;
};

// Dictionary keys: "a:name" or "a:name|tag" for entity attributes,
// "ra:reference|name[|tag]" for reference attributes, "c:name[|tag]" for
// sortable compounds, "p:list|currency|handling" for prices, "l:tag" for
// locales, "r:name" for references.
std::string AttributeKey(const std::string& name, const std::string& tag);
std::string ReferenceAttributeKey(const std::string& reference, const std::string& name,
                                  const std::string& tag);
std::string CompoundKey(const std::string& name, const std::string& tag);
std::string PriceKey(const std::string& price_list, const std::string& currency,
                     PriceInnerRecordHandling handling);
std::string LocaleKey(const std::string& tag);
std::string ReferenceKey(const std::string& name);

// Whether `scope` is among `scopes` (a schema's per-scope settings).
bool InScope(const std::vector<Scope>& scopes, Scope scope);

// Microseconds since the epoch, saturating.
int64_t EpochMicros(const DateTime& moment);

// Everything `entity` itself puts into an index, following `schema`, in the
// entity's scope: filterable, unique and sortable attributes (ranges in range
// indexes, predecessors in chains, localized strings by collation keys),
// sortable compounds, locales, indexed prices with their internal ids
// (`first_price_id`, `first_price_id` + 1, ... in the entity's price order),
// and facets of faceted references among `references` (the entity's own and
// its reflected ones).
IndexEntries ComputeEntityEntries(const Entity& entity, const std::vector<Reference>& references,
                                  const EntitySchema& schema, int32_t first_price_id,
                                  CollationKeys& collation, KeyDictionary& keys);
// What one reference contributes to the indexes derived from it: its
// filterable, unique and sortable attributes and the compounds over them.
IndexEntries ComputeReferenceEntries(const Reference& reference, const ReferenceSchema& schema, Scope scope,
                                     CollationKeys& collation, KeyDictionary& keys);

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_INDEX_ENTRIES_H_
