#include "engine/entity_index.h"

#include <algorithm>
#include <limits>

namespace warmup::engine {

// Removes `pk` from the set under `key` of `map`, dropping the set when empty.
template <typename Map, typename Key>
void RemoveFrom(Map& map, const Key& key, uint32_t pk) {
  auto it = map.find(key);
  if (it == map.end()) return;
  it->second.Remove(pk);
  if (it->second.empty()) map.erase(it);
}

// Adds `pk` under `key` of `map`, storing the key in `values` the first time
// the map sees it.
void AddTo(absl::btree_map<HeldKey, PkSet, HeldKey::Less>& map, ValueDictionary& values,
           const std::string& key, uint32_t pk) {
  if (key.size() <= HeldKey::kInline) {
    // Most keys: held inline, so the lookup compares them in place.
    map.try_emplace(HeldKey::Inline(key)).first->second.Add(pk);
    return;
  }
  auto it = map.find(key);
  if (it == map.end()) it = map.emplace(values.Intern(key), PkSet()).first;
  it->second.Add(pk);
}

void EntityIndex::Add(int32_t pk, const IndexEntries& e) {
  const auto id = static_cast<uint32_t>(pk);
  for (const auto& [attribute, key] : e.filter) AddTo(filter_[attribute], *values_, key, id);
  for (const auto& r : e.ranges) {
    RangeIndex& index = ranges_[r.attribute];
    index.by_start.emplace(r.from, r.to, id);
    index.by_end.emplace(r.to, r.from, id);
  }
  for (const auto& [attribute, key] : e.sort) AddTo(sort_[attribute], *values_, key, id);
  for (const auto& [attribute, predecessor] : e.chains) {
    ChainIndex& chain = chains_[attribute];
    chain.predecessor[pk] = predecessor;
    chain.successors[predecessor].Add(id);
  }
  for (const auto& [attribute, key] : e.unique) unique_[attribute][values_->Intern(key)] = pk;
  for (uint32_t locale : e.locales) locales_[locale].Add(id);
  for (const PriceEntry& p : e.prices) {
    PriceIndex& index = prices_[p.key];
    index.entities.Add(id);
    index.price_ids.Add(static_cast<uint32_t>(p.internal_id));
    if (price_records_ == PriceRecords::kOwn) {
      if (index.own == nullptr) index.own = std::make_unique<PriceIndex::OwnRecords>();
      index.own->AddPrice(pk, p.internal_id);
      index.own->records[p.internal_id] = PriceRecord{.pk = pk,
                                                      .price_id = p.price_id,
                                                      .inner_record_id = p.inner_record_id.value_or(0),
                                                      .has_inner_record = p.inner_record_id.has_value(),
                                                      .has_validity = p.has_validity,
                                                      .with_tax = p.with_tax,
                                                      .without_tax = p.without_tax};
    } else {
      index.referenced_records.insert(p.internal_id);
    }
    // Every price, one without validity as the whole timeline: evitaDB's
    // price indexes (AbstractPriceListAndCurrencyPriceIndex) insert each.
    index.validity.Add(p.valid_from, p.valid_to, static_cast<uint32_t>(p.internal_id));
  }
  for (const FacetEntry& f : e.facets) facets_[f.reference][{f.group, f.facet}].Add(id);
}

void EntityIndex::Remove(int32_t pk, const IndexEntries& e) {
  const auto id = static_cast<uint32_t>(pk);
  for (const auto& [attribute, key] : e.filter) RemoveFrom(filter_[attribute], key, id);
  for (const auto& r : e.ranges) {
    RangeIndex& index = ranges_[r.attribute];
    index.by_start.erase({r.from, r.to, id});
    index.by_end.erase({r.to, r.from, id});
  }
  for (const auto& [attribute, key] : e.sort) RemoveFrom(sort_[attribute], key, id);
  for (const auto& [attribute, predecessor] : e.chains) {
    ChainIndex& chain = chains_[attribute];
    chain.predecessor.erase(pk);
    RemoveFrom(chain.successors, predecessor, id);
  }
  for (const auto& [attribute, key] : e.unique) {
    auto& owners = unique_[attribute];
    HeldKey held;
    if (!values_->Find(key, &held)) continue;
    auto it = owners.find(held);
    if (it != owners.end() && it->second == pk) owners.erase(it);
  }
  for (uint32_t locale : e.locales) locales_[locale].Remove(id);
  for (const PriceEntry& p : e.prices) {
    PriceIndex& index = prices_[p.key];
    index.price_ids.Remove(static_cast<uint32_t>(p.internal_id));
    if (price_records_ == PriceRecords::kInGlobalIndex) {
      index.referenced_records.erase(p.internal_id);
      // An entity's prices leave a reduced index together, with its data.
      index.entities.Remove(id);
    } else if (index.own != nullptr) {
      auto& own = *index.own;
      own.records.erase(p.internal_id);
      if (own.RemovePrice(pk, p.internal_id)) index.entities.Remove(id);
    }
    index.validity.Remove(p.valid_from, p.valid_to, static_cast<uint32_t>(p.internal_id));
  }
  for (const FacetEntry& f : e.facets) RemoveFrom(facets_[f.reference], std::pair(f.group, f.facet), id);
}

void EntityIndex::PriceIndex::OwnRecords::AddPrice(int32_t pk, int32_t id) {
  auto [it, added] = entity_prices.try_emplace(pk, id);
  if (added || it->second == id) return;
  std::vector<int32_t>& ids = several[pk];
  if (it->second != kSeveral) {
    ids.push_back(it->second);
    it->second = kSeveral;
  }
  auto at = std::lower_bound(ids.begin(), ids.end(), id);
  if (at == ids.end() || *at != id) ids.insert(at, id);
}

bool EntityIndex::PriceIndex::OwnRecords::RemovePrice(int32_t pk, int32_t id) {
  auto it = entity_prices.find(pk);
  if (it == entity_prices.end()) return false;
  if (it->second != kSeveral) {
    if (it->second != id) return false;
    entity_prices.erase(it);
    return true;
  }
  auto more = several.find(pk);
  std::vector<int32_t>& ids = more->second;
  ids.erase(std::remove(ids.begin(), ids.end(), id), ids.end());
  if (ids.size() > 1) return false;
  // One left: held in the map again.
  it->second = ids.front();
  several.erase(more);
  return false;
}

absl::InlinedVector<int32_t, 2> EntityIndex::PriceIndex::OwnRecords::PricesOf(int32_t pk) const {
  auto it = entity_prices.find(pk);
  if (it == entity_prices.end()) return {};
  if (it->second != kSeveral) return {it->second};
  const std::vector<int32_t>& ids = several.at(pk);
  return {ids.begin(), ids.end()};
}

IndexCounts EntityIndex::Counts() const {
  IndexCounts c;
  c.entities = all_.cardinality();
  c.entries = c.entities;
  for (const auto& [id, m] : filter_) {
    for (const auto& [key, pks] : m) c.entries += pks.size();
  }
  for (const auto& [id, r] : ranges_) c.entries += r.by_start.size() + r.by_end.size();
  for (const auto& [id, m] : sort_) {
    for (const auto& [key, pks] : m) c.entries += pks.size();
  }
  for (const auto& [id, chain] : chains_) c.entries += chain.predecessor.size();
  for (const auto& [id, m] : unique_) c.entries += m.size();
  for (const auto& [id, l] : locales_) c.entries += l.size();
  for (const auto& [key, p] : prices_) {
    // What is stored: each entity and each price id; where the records are
    // (the global index), a record by its id and the id under its entity,
    // elsewhere a reference to the record; and a start and an end per price
    // in the validity index.
    c.entries += p.entities.size() + p.price_ids.size() + p.validity.entries() + p.referenced_records.size();
    if (p.own != nullptr) c.entries += 2 * p.own->records.size();
  }
  for (const auto& [id, facets] : facets_) {
    for (const auto& [facet, pks] : facets) c.entries += pks.size();
  }
  return c;
}

std::vector<int32_t> ToVector(const Roaring& bitmap) {
  std::vector<int32_t> out;
  out.reserve(bitmap.cardinality());
  for (uint32_t v : bitmap) out.push_back(static_cast<int32_t>(v));
  return out;
}

std::vector<int32_t> EntityIndex::FilterEquals(uint32_t attribute, const std::string& value_key) const {
  return FilterRange(attribute, value_key, true, value_key, true);
}

std::vector<int32_t> EntityIndex::FilterRange(uint32_t attribute, const std::optional<std::string>& from,
                                              bool from_inclusive, const std::optional<std::string>& to,
                                              bool to_inclusive) const {
  Roaring matches;
  if (const auto* found = filter_.Find(attribute)) {
    const auto& values = *found;
    auto it =
        from ? (from_inclusive ? values.lower_bound(*from) : values.upper_bound(*from)) : values.begin();
    for (; it != values.end(); ++it) {
      if (to) {
        const int order = Compare(it->first, *to);
        if (order > 0 || (!to_inclusive && order == 0)) break;
      }
      it->second.AddTo(&matches);
    }
  }
  return ToVector(matches);
}

std::vector<int32_t> EntityIndex::RangeContains(uint32_t attribute, const std::string& point) const {
  Roaring matches;
  if (const RangeIndex* index = ranges_.Find(attribute)) {
    // Every range starting at or before the point, kept when it ends at or after it.
    for (const auto& [from, to, pk] : index->by_start) {
      if (from > point) break;
      if (to >= point) matches.add(pk);
    }
  }
  return ToVector(matches);
}

std::vector<int32_t> EntityIndex::SortedBy(uint32_t attribute, bool descending) const {
  std::vector<int32_t> out;
  const auto* found = sort_.Find(attribute);
  if (found == nullptr) return out;
  auto append = [&](const PkSet& pks) {
    pks.ForEach([&](uint32_t v) { out.push_back(static_cast<int32_t>(v)); });
  };
  const auto& keys = *found;
  if (descending) {
    for (auto it = keys.rbegin(); it != keys.rend(); ++it) append(it->second);
  } else {
    for (const auto& [key, pks] : keys) append(pks);
  }
  return out;
}

std::vector<int32_t> EntityIndex::ChainOrder(uint32_t attribute) const {
  std::vector<int32_t> out;
  const ChainIndex* found = chains_.Find(attribute);
  if (found == nullptr) return out;
  const ChainIndex& chain = *found;
  absl::flat_hash_map<int32_t, bool> visited;
  // Depth first from `start`; successors of one element in ascending order.
  auto walk = [&](int32_t start) {
    std::vector<int32_t> stack = {start};
    while (!stack.empty()) {
      const int32_t pk = stack.back();
      stack.pop_back();
      if (!visited.try_emplace(pk, true).second) continue;
      out.push_back(pk);
      auto next = chain.successors.find(pk);
      if (next == chain.successors.end()) continue;
      std::vector<int32_t> successors = next->second.ToVector();
      for (auto it = successors.rbegin(); it != successors.rend(); ++it) stack.push_back(*it);
    }
  };
  std::vector<int32_t> elements;
  for (const auto& [pk, predecessor] : chain.predecessor) elements.push_back(pk);
  std::sort(elements.begin(), elements.end());
  for (int32_t pk : elements) {
    if (chain.predecessor.at(pk) == -1) walk(pk);
  }
  for (int32_t pk : elements) {
    if (!chain.predecessor.contains(chain.predecessor.at(pk))) walk(pk);
  }
  for (int32_t pk : elements) walk(pk);  // what is left is in cycles
  return out;
}

std::optional<int32_t> EntityIndex::UniqueOwner(uint32_t attribute, const std::string& value_key) const {
  if (const UniqueOwners* owners = unique_.Find(attribute)) {
    HeldKey key;
    if (!values_->Find(value_key, &key)) return std::nullopt;
    auto it = owners->find(key);
    return it == owners->end() ? std::nullopt : std::optional<int32_t>(it->second);
  }
  // A folded unique value (IndexEntries::unique): its filter posting's one
  // entity. Upserts are validated against the global index, so a unique
  // value's posting there holds one entity, and a reduced index a subset.
  const ValueSets* values = filter_.Find(attribute);
  if (values == nullptr) return std::nullopt;
  auto it = values->find(value_key);
  if (it == values->end() || it->second.size() != 1) return std::nullopt;
  std::optional<int32_t> owner;
  it->second.ForEach([&](uint32_t pk) { owner = static_cast<int32_t>(pk); });
  return owner;
}

uint64_t EntityIndex::FacetPostings(uint32_t reference) const {
  uint64_t n = 0;
  if (const FacetSets* facets = facets_.Find(reference)) {
    for (const auto& [facet, pks] : *facets) n += pks.size();
  }
  return n;
}

std::vector<int32_t> EntityIndex::FacetMembers(uint32_t reference, int32_t facet) const {
  Roaring matches;
  if (const FacetSets* facets = facets_.Find(reference)) {
    for (const auto& [key, pks] : *facets) {
      if (key.second == facet) pks.AddTo(&matches);
    }
  }
  return ToVector(matches);
}

std::vector<int32_t> EntityIndex::FacetGroupMembers(uint32_t reference, int32_t group) const {
  Roaring matches;
  if (const FacetSets* facets = facets_.Find(reference)) {
    for (auto it = facets->lower_bound({group, std::numeric_limits<int32_t>::min()});
         it != facets->end() && it->first.first == group; ++it) {
      it->second.AddTo(&matches);
    }
  }
  return ToVector(matches);
}

std::vector<int32_t> EntityIndex::WithLocale(uint32_t locale) const {
  const PkSet* entities = locales_.Find(locale);
  return entities != nullptr ? entities->ToVector() : std::vector<int32_t>{};
}

Roaring EntityIndex::ValidAt(const PriceIndex& index, int64_t moment) {
  return index.validity.ValidAt(moment);
}

}  // namespace warmup::engine
