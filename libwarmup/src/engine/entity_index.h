// One entity index: the global index of a collection (per scope) or one of
// the indexes evitaDB derives from references (a referenced entity's or
// group's reduced index, a reference type's index). Internal; the structures
// it holds and what evitaDB holds in their place are listed in docs/engine.md.
#ifndef WARMUP_SRC_ENGINE_ENTITY_INDEX_H_
#define WARMUP_SRC_ENGINE_ENTITY_INDEX_H_

#include <absl/container/btree_map.h>
#include <absl/container/btree_set.h>
#include <absl/container/flat_hash_map.h>
#include <absl/container/inlined_vector.h>
#include <roaring/roaring.hh>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "engine/index_entries.h"
#include "engine/index_keys.h"
#include "engine/pk_set.h"
#include "engine/validity_index.h"
#include "engine/value_dictionary.h"
#include "warmup/entity.h"
#include "warmup/schema.h"

namespace warmup::engine {

// An index's structures keyed by the collection's key ids (KeyDictionary):
// the ids present, in ascending order, each with its structure. A reduced
// index uses a handful of the hundreds of ids a collection has (a category's
// products: some attributes, some price lists), and a vector as long as the
// largest id held hundreds of empty structures per index: 13 % of the
// engine's heap at senesi 0.1 (docs/performance.md).
template <typename T>
class IdSlots {
 public:
  // The structure of `id`, made empty if absent.
  T& operator[](uint32_t id) {
    auto it = LowerBound(slots_, id);
    if (it != slots_.end() && it->first == id) return it->second;
    if (slots_.size() == slots_.capacity()) {
      // By a quarter, not the vector's doubling: tens of thousands of reduced
      // indexes each keep their slots (a product's tens of price lists) for
      // the whole load, and a doubled vector is a third empty on average.
      const auto at = it - slots_.begin();
      slots_.reserve(slots_.size() + slots_.size() / 4 + 1);
      it = slots_.begin() + at;
    }
    return slots_.emplace(it, id, T())->second;
  }
  const T* Find(uint32_t id) const {
    auto it = LowerBound(slots_, id);
    return it == slots_.end() || it->first != id ? nullptr : &it->second;
  }
  // One past the largest id present (0 when none): the snapshot's slot count.
  uint32_t Extent() const { return slots_.empty() ? 0 : slots_.back().first + 1; }
  auto begin() const { return slots_.begin(); }
  auto end() const { return slots_.end(); }

 private:
  // The first slot whose id is not below `id`, of `slots_` as const or not.
  template <typename Slots>
  static auto LowerBound(Slots& slots, uint32_t id) {
    return std::lower_bound(
        slots.begin(), slots.end(), id,
        [](const std::pair<uint32_t, T>& slot, uint32_t key) { return slot.first < key; });
  }

  std::vector<std::pair<uint32_t, T>> slots_;
};

// How much an index holds, for the statistics.
struct IndexCounts {
  uint64_t entities = 0;
  uint64_t entries = 0;  // postings: (key, primary key) pairs over every structure
};

class EntityIndex {
 public:
  // Where an index's price records live. A global index holds them (evitaDB's
  // PriceListAndCurrencyPriceSuperIndex: records and each entity's prices); a
  // reduced index holds price ids, entities, validity and a tree of
  // references to the global index's records of its scope (evitaDB's
  // PriceListAndCurrencyPriceRefIndex).
  enum class PriceRecords { kOwn, kInGlobalIndex };
  // `values` stores the filter and sort keys; it is the collection's and
  // outlives the index.
  explicit EntityIndex(ValueDictionary* values, PriceRecords price_records = PriceRecords::kOwn)
      : values_(values), price_records_(price_records) {}

  // Adds (removes) `entries` for `pk`; membership is separate (AddMember),
  // since several references may put entries for one entity into one index.
  void Add(int32_t pk, const IndexEntries& entries);
  void Remove(int32_t pk, const IndexEntries& entries);
  // The membership alone (the other structures untouched).
  void AddMember(int32_t pk) { all_.add(static_cast<uint32_t>(pk)); }
  void RemoveMember(int32_t pk) { all_.remove(static_cast<uint32_t>(pk)); }
  bool Contains(int32_t pk) const { return all_.contains(static_cast<uint32_t>(pk)); }
  IndexCounts Counts() const;
  // Writes the whole index / replaces it with what `in` holds.
  void Save(IndexWriter& out) const;
  void Load(IndexReader& in);

  const Roaring& all() const { return all_; }
  // The read calls take ids from the collection's KeyDictionary and order keys
  // from ScalarKey; bounds are inclusive unless said otherwise.
  std::vector<int32_t> FilterEquals(uint32_t attribute, const std::string& value_key) const;
  // Keys in [from, to]; an absent bound is open; `*_inclusive` false excludes it.
  std::vector<int32_t> FilterRange(uint32_t attribute, const std::optional<std::string>& from,
                                   bool from_inclusive, const std::optional<std::string>& to,
                                   bool to_inclusive) const;
  // Entities with a range value containing `point`.
  std::vector<int32_t> RangeContains(uint32_t attribute, const std::string& point) const;
  // Entities having the attribute (or compound), by ascending (or descending) key, then pk.
  std::vector<int32_t> SortedBy(uint32_t attribute, bool descending) const;
  // The entities of a predecessor attribute's chains: each head's chain in
  // ascending head order, then elements whose predecessor is missing.
  std::vector<int32_t> ChainOrder(uint32_t attribute) const;
  // The entity holding a unique value: from the unique map when the
  // attribute has one (a localized value unique across locales), else from
  // the value's filter posting when it holds one entity. The caller knows the
  // attribute is unique here.
  std::optional<int32_t> UniqueOwner(uint32_t attribute, const std::string& value_key) const;
  std::vector<int32_t> FacetMembers(uint32_t reference, int32_t facet) const;
  // (facet, primary key) pairs of one reference.
  uint64_t FacetPostings(uint32_t reference) const;
  std::vector<int32_t> FacetGroupMembers(uint32_t reference, int32_t group) const;
  std::vector<int32_t> WithLocale(uint32_t locale) const;
  // One price as a global index keeps it (evitaDB's PriceRecord and its
  // inner-record variant): the key is the index's, the validity in its
  // validity index.
  struct PriceRecord {
    int32_t pk = 0;
    int32_t price_id = 0;
    int32_t inner_record_id = 0;
    bool has_inner_record = false;
    bool has_validity = false;  // as upserted, for the snapshot
    int64_t with_tax = 0;
    int64_t without_tax = 0;
    std::optional<int32_t> inner_record() const {
      return has_inner_record ? std::optional<int32_t>(inner_record_id) : std::nullopt;
    }
  };
  // The price structures of one price list, currency and handling.
  struct PriceIndex {
    // What only a global index holds (a reduced index reads the global
    // index's, as evitaDB's PriceListAndCurrencyPriceRefIndex does): kept
    // apart, so each of the tens of price indexes of a reduced index is a
    // pointer smaller, not two empty maps larger.
    struct OwnRecords {
      // Adds `id` to `pk`'s prices here.
      void AddPrice(int32_t pk, int32_t id);
      // Removes `id` from `pk`'s prices; true when it was the last one here.
      bool RemovePrice(int32_t pk, int32_t id);
      // `pk`'s price ids here, ascending (none when it has no price here).
      absl::InlinedVector<int32_t, 2> PricesOf(int32_t pk) const;

      // pk -> its price's internal id, or kSeveral when it has more than one
      // here, and then pk -> its ids, ascending. An entity seldom has two
      // prices in one list, currency and handling, so a slot of the first
      // map is 8 bytes, not the 24 of a small vector per entity (7 % of the
      // engine's heap at senesi 0.1).
      static constexpr int32_t kSeveral = -1;  // internal ids are not negative
      absl::flat_hash_map<int32_t, int32_t> entity_prices;
      absl::flat_hash_map<int32_t, std::vector<int32_t>> several;
      absl::btree_map<int32_t, PriceRecord> records;  // by internal id
    };
    PkSet entities;
    PkSet price_ids;
    std::unique_ptr<OwnRecords> own;  // null in a reduced index
    // A reduced index's references to the global index's records, ordered
    // by internal id: evitaDB's ref index inserts the shared record into a
    // B+tree of its own beside the price-id bitmap
    // (PriceListAndCurrencyPriceRefIndex.addPrice) and rebuilds it from the
    // super index when read from disk (restorePriceRecordsFrom), so it is
    // not in the snapshot either. An id refers to the record as a
    // compressed reference does, in as many bytes. Empty in a global index.
    absl::btree_set<int32_t> referenced_records;
    ValidityIndex validity;
  };
  const PriceIndex* Prices(uint32_t price_key) const {
    const PriceIndex* index = prices_.Find(price_key);
    return index != nullptr && !index->price_ids.empty() ? index : nullptr;
  }
  // Internal ids of the prices in `index` valid at `moment` (with no validity, always).
  static Roaring ValidAt(const PriceIndex& index, int64_t moment);

 private:
  // (from key, to key, pk), and the same by the upper bound.
  using RangeSet = absl::btree_set<std::tuple<std::string, std::string, uint32_t>>;
  struct RangeIndex {
    RangeSet by_start;
    RangeSet by_end;
  };
  // Predecessor chains: element -> predecessor, and predecessor -> elements.
  struct ChainIndex {
    absl::flat_hash_map<int32_t, int32_t> predecessor;
    absl::flat_hash_map<int32_t, PkSet> successors;
  };
  // Flat hash maps and B-trees: no allocation per entry, unlike node-based maps.
  Roaring all_;
  // Value key -> entities, in the keys' order (equality, comparisons, between).
  using ValueSets = absl::btree_map<HeldKey, PkSet, HeldKey::Less>;
  IdSlots<ValueSets> filter_;
  IdSlots<RangeIndex> ranges_;
  IdSlots<ValueSets> sort_;
  IdSlots<ChainIndex> chains_;
  // Value key -> its owner, for localized values unique across locales
  // only; every other unique value is its filter posting.
  using UniqueOwners = absl::flat_hash_map<HeldKey, int32_t>;
  IdSlots<UniqueOwners> unique_;
  IdSlots<PkSet> locales_;  // locale -> entities
  IdSlots<PriceIndex> prices_;
  // reference -> (group (0 = none), facet) -> entities: one ordered map per
  // reference, since a reduced index holds few facets of each.
  using FacetSets = absl::btree_map<std::pair<int32_t, int32_t>, PkSet>;
  IdSlots<FacetSets> facets_;
  ValueDictionary* values_;
  PriceRecords price_records_;
};

// Bitmap contents as a sorted vector.
std::vector<int32_t> ToVector(const Roaring& bitmap);

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_ENTITY_INDEX_H_
