#include "engine/entity_index.h"

#include <algorithm>
#include <limits>

#include "engine/index_io.h"

namespace warmup::engine {
namespace {

constexpr int64_t kMinMicros = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxMicros = std::numeric_limits<int64_t>::max();

bool InScope(const std::vector<Scope>& scopes, Scope scope) {
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

bool UniqueIn(const AttributeSchema& schema, Scope scope, bool* per_locale) {
  for (const auto& s : schema.unique_in_scopes) {
    if (s.scope == scope && s.value != AttributeUniqueness::kNotUnique) {
      *per_locale = s.value == AttributeUniqueness::kUniqueWithinCollectionLocale;
      return true;
    }
  }
  return false;
}

bool IsPredecessor(ValueType type) {
  return type == ValueType::kPredecessor || type == ValueType::kReferencedEntityPredecessor;
}

// The sort key of one value: collation keys for localized strings, order keys otherwise.
std::string SortKey(const Scalar& item, ValueType element, const std::string& tag, int places,
                    CollationKeys& collation) {
  if (!tag.empty() && element == ValueType::kString) return collation.Key(tag, std::get<std::string>(item));
  return ScalarKey(item, element, places);
}

// Puts one attribute value into `out` under the key made by `key_of(tag)`.
template <typename KeyOf>
void AddAttributeEntries(const KeyOf& key_of, const std::string& tag, const Value& value,
                         const AttributeSchema& schema, Scope scope, CollationKeys& collation,
                         KeyDictionary& keys, IndexEntries* out) {
  const ValueType element = ElementType(value.type());
  const int places = schema.indexed_decimal_places;
  bool per_locale = false;
  const bool unique = UniqueIn(schema, scope, &per_locale);
  const bool filterable = InScope(schema.filterable_in_scopes, scope);
  if (filterable || unique) {
    const uint32_t key = keys.Id(key_of(tag));
    for (const Scalar& item : value.items()) {
      out->filter.emplace_back(key, ScalarKey(item, element, places));
      if (filterable && IsRangeType(element)) {
        auto [from, to] = RangeBoundKeys(item, places);
        out->ranges.push_back({key, std::move(from), std::move(to)});
      }
    }
  }
  if (unique) {
    const uint32_t key = keys.Id(key_of(per_locale ? tag : ""));
    for (const Scalar& item : value.items()) out->unique.emplace_back(key, ScalarKey(item, element, places));
  }
  if (InScope(schema.sortable_in_scopes, scope) && !value.is_array()) {
    const uint32_t key = keys.Id(key_of(tag));
    if (IsPredecessor(element)) {
      out->chains.emplace_back(key, std::get<Predecessor>(value.scalar()).predecessor_pk.value_or(-1));
    } else {
      out->sort.emplace_back(key, SortKey(value.scalar(), element, tag, places, collation));
    }
  }
}

// Appends `key` so that the concatenation of several keys orders element by
// element, in `direction`: 0x00 bytes escaped, a terminator, bytes inverted for
// descending elements.
void AppendCompoundElement(const std::optional<std::string>& key, const AttributeElement& element,
                           std::string* out) {
  std::string part;
  const bool nulls_first = element.behaviour == OrderBehaviour::kNullsFirst;
  if (!key) {
    part.push_back(nulls_first ? '\x00' : '\x02');
  } else {
    part.push_back('\x01');
    for (char c : *key) {
      part.push_back(c);
      if (c == '\x00') part.push_back('\xff');
    }
    part.append("\x00\x00", 2);
  }
  if (element.direction == OrderDirection::kDesc && key) {
    for (size_t i = 1; i < part.size(); ++i) {
      part[i] = static_cast<char>(~static_cast<unsigned char>(part[i]));
    }
  }
  out->append(part);
}

// Sortable compounds over `attributes` (an entity's or a reference's), per
// locale where an element is localized; an entity lacking every element has
// no entry.
template <typename KeyOf>
void AddCompoundEntries(const std::map<std::string, SortableAttributeCompoundSchema>& compounds,
                        const std::map<std::string, AttributeSchema>& schemas, const Attributes& attributes,
                        const std::vector<Locale>& locales, Scope scope, const KeyOf& key_of,
                        CollationKeys& collation, KeyDictionary& keys, IndexEntries* out) {
  for (const auto& [name, compound] : compounds) {
    if (!InScope(compound.indexed_in_scopes, scope)) continue;
    bool localized = false;
    for (const auto& e : compound.elements) {
      auto s = schemas.find(e.attribute_name);
      localized |= s != schemas.end() && s->second.localized;
    }
    std::vector<std::string> tags;
    if (localized) {
      for (const Locale& l : locales) tags.push_back(l.tag());
    } else {
      tags.emplace_back();
    }
    for (const std::string& tag : tags) {
      std::string key;
      bool any = false;
      for (const auto& e : compound.elements) {
        auto s = schemas.find(e.attribute_name);
        std::optional<std::string> element_key;
        if (s != schemas.end()) {
          const Value* v = nullptr;
          if (s->second.localized) {
            auto by_tag = attributes.localized.find(tag);
            if (by_tag != attributes.localized.end()) {
              auto it = by_tag->second.find(e.attribute_name);
              if (it != by_tag->second.end()) v = &it->second;
            }
          } else {
            auto it = attributes.global.find(e.attribute_name);
            if (it != attributes.global.end()) v = &it->second;
          }
          if (v != nullptr && !v->is_array()) {
            element_key = SortKey(v->scalar(), ElementType(v->type()), s->second.localized ? tag : "",
                                  s->second.indexed_decimal_places, collation);
          }
        }
        any |= element_key.has_value();
        AppendCompoundElement(element_key, e, &key);
      }
      if (any) out->sort.emplace_back(keys.Id(key_of(name, tag)), std::move(key));
    }
  }
}

}  // namespace

std::string AttributeKey(const std::string& name, const std::string& tag) {
  return tag.empty() ? "a:" + name : "a:" + name + "|" + tag;
}
std::string ReferenceAttributeKey(const std::string& reference, const std::string& name,
                                  const std::string& tag) {
  return "ra:" + reference + "|" + name + (tag.empty() ? "" : "|" + tag);
}
std::string CompoundKey(const std::string& name, const std::string& tag) {
  return tag.empty() ? "c:" + name : "c:" + name + "|" + tag;
}
std::string PriceKey(const std::string& price_list, const std::string& currency,
                     PriceInnerRecordHandling handling) {
  return "p:" + price_list + "|" + currency + "|" + std::string(PriceInnerRecordHandlingName(handling));
}
std::string LocaleKey(const std::string& tag) { return "l:" + tag; }
std::string ReferenceKey(const std::string& name) { return "r:" + name; }

int64_t EpochMicros(const DateTime& moment) {
  constexpr int64_t kLimit = kMaxMicros / 1'000'000 - 1;
  if (moment.epoch_seconds > kLimit) return kMaxMicros;
  if (moment.epoch_seconds < -kLimit) return kMinMicros;
  return moment.epoch_seconds * 1'000'000 + moment.nanos / 1000;
}

bool IndexEntries::empty() const {
  return filter.empty() && ranges.empty() && sort.empty() && chains.empty() && unique.empty() &&
         locales.empty() && prices.empty() && facets.empty();
}

IndexEntries ComputeEntityEntries(const Entity& entity, const std::vector<Reference>& references,
                                  const EntitySchema& schema, int32_t first_price_id,
                                  CollationKeys& collation, KeyDictionary& keys) {
  IndexEntries out;
  const Scope scope = entity.scope;
  auto attribute_key = [](const std::string& name) {
    return [&name](const std::string& tag) { return AttributeKey(name, tag); };
  };
  for (const auto& [name, value] : entity.attributes.global) {
    auto it = schema.attributes.find(name);
    if (it != schema.attributes.end()) {
      AddAttributeEntries(attribute_key(name), "", value, it->second, scope, collation, keys, &out);
    }
  }
  for (const auto& [tag, values] : entity.attributes.localized) {
    for (const auto& [name, value] : values) {
      auto it = schema.attributes.find(name);
      if (it != schema.attributes.end()) {
        AddAttributeEntries(attribute_key(name), tag, value, it->second, scope, collation, keys, &out);
      }
    }
  }
  AddCompoundEntries(schema.sortable_attribute_compounds, schema.attributes, entity.attributes,
                     entity.locales, scope, CompoundKey, collation, keys, &out);
  for (const auto& locale : entity.locales) out.locales.push_back(keys.Id(LocaleKey(locale.tag())));
  if (schema.with_price && InScope(schema.price_indexed_in_scopes, scope)) {
    for (size_t i = 0; i < entity.prices.size(); ++i) {
      const Price& p = entity.prices[i];
      if (!p.indexed) continue;
      PriceEntry e;
      e.key = keys.Id(PriceKey(p.price_list, p.currency.code(), entity.price_inner_record_handling));
      e.internal_id = first_price_id + static_cast<int32_t>(i);
      e.price_id = p.price_id;
      e.inner_record_id = p.inner_record_id;
      e.with_tax = ScaleDecimal(p.price_with_tax, schema.indexed_price_places);
      e.without_tax = ScaleDecimal(p.price_without_tax, schema.indexed_price_places);
      if (p.validity) {
        e.has_validity = true;
        e.valid_from = p.validity->from ? EpochMicros(*p.validity->from) : kMinMicros;
        e.valid_to = p.validity->to ? EpochMicros(*p.validity->to) : kMaxMicros;
      }
      out.prices.push_back(e);
    }
  }
  for (const Reference& r : references) {
    const ReferenceSchema* rs = schema.FindReference(r.name);
    if (rs != nullptr && InScope(rs->faceted_in_scopes, scope)) {
      out.facets.push_back(
          {keys.Id(ReferenceKey(r.name)), r.group ? r.group->primary_key : 0, r.referenced.primary_key});
    }
  }
  return out;
}

IndexEntries ComputeReferenceEntries(const Reference& reference, const ReferenceSchema& schema, Scope scope,
                                     CollationKeys& collation, KeyDictionary& keys) {
  IndexEntries out;
  const std::string& ref = reference.name;
  auto attribute_key = [&ref](const std::string& name) {
    return [&ref, &name](const std::string& tag) { return ReferenceAttributeKey(ref, name, tag); };
  };
  for (const auto& [name, value] : reference.attributes.global) {
    auto it = schema.attributes.find(name);
    if (it != schema.attributes.end()) {
      AddAttributeEntries(attribute_key(name), "", value, it->second, scope, collation, keys, &out);
    }
  }
  std::vector<Locale> locales;
  for (const auto& [tag, values] : reference.attributes.localized) {
    if (auto l = Locale::Parse(tag); l.ok()) locales.push_back(*l);
    for (const auto& [name, value] : values) {
      auto it = schema.attributes.find(name);
      if (it != schema.attributes.end()) {
        AddAttributeEntries(attribute_key(name), tag, value, it->second, scope, collation, keys, &out);
      }
    }
  }
  auto compound_key = [&ref](const std::string& name, const std::string& tag) {
    return CompoundKey(ref + "." + name, tag);
  };
  AddCompoundEntries(schema.sortable_attribute_compounds, schema.attributes, reference.attributes, locales,
                     scope, compound_key, collation, keys, &out);
  return out;
}

// Removes `pk` from the set under `key` of `map`, dropping the set when empty.
template <typename Map, typename Key>
void RemoveFrom(Map& map, const Key& key, uint32_t pk) {
  auto it = map.find(key);
  if (it == map.end()) return;
  it->second.Remove(pk);
  if (it->second.empty()) map.erase(it);
}

void EntityIndex::Add(int32_t pk, const IndexEntries& e) {
  const auto id = static_cast<uint32_t>(pk);
  for (const auto& [attribute, key] : e.filter) Slot(filter_, attribute)[key].Add(id);
  for (const auto& r : e.ranges) {
    RangeIndex& index = Slot(ranges_, r.attribute);
    index.by_start.emplace(r.from, r.to, id);
    index.by_end.emplace(r.to, r.from, id);
  }
  for (const auto& [attribute, key] : e.sort) Slot(sort_, attribute)[key].Add(id);
  for (const auto& [attribute, predecessor] : e.chains) {
    ChainIndex& chain = Slot(chains_, attribute);
    chain.predecessor[pk] = predecessor;
    chain.successors[predecessor].Add(id);
  }
  for (const auto& [attribute, key] : e.unique) Slot(unique_, attribute)[key] = pk;
  for (uint32_t locale : e.locales) Slot(locales_, locale).add(id);
  for (const PriceEntry& p : e.prices) {
    PriceIndex& index = Slot(prices_, p.key);
    index.entities.add(id);
    index.price_ids.add(static_cast<uint32_t>(p.internal_id));
    index.entity_prices[pk].push_back(p.internal_id);
    index.records[p.internal_id] = {pk, p};
    if (p.has_validity) {
      index.validity_by_start.emplace(p.valid_from, p.valid_to, p.internal_id);
      index.validity_by_end.emplace(p.valid_to, p.valid_from, p.internal_id);
    }
  }
  for (const FacetEntry& f : e.facets) Slot(facets_, f.reference)[f.group][f.facet].Add(id);
}

void EntityIndex::Remove(int32_t pk, const IndexEntries& e) {
  const auto id = static_cast<uint32_t>(pk);
  for (const auto& [attribute, key] : e.filter) RemoveFrom(Slot(filter_, attribute), key, id);
  for (const auto& r : e.ranges) {
    RangeIndex& index = Slot(ranges_, r.attribute);
    index.by_start.erase({r.from, r.to, id});
    index.by_end.erase({r.to, r.from, id});
  }
  for (const auto& [attribute, key] : e.sort) RemoveFrom(Slot(sort_, attribute), key, id);
  for (const auto& [attribute, predecessor] : e.chains) {
    ChainIndex& chain = Slot(chains_, attribute);
    chain.predecessor.erase(pk);
    RemoveFrom(chain.successors, predecessor, id);
  }
  for (const auto& [attribute, key] : e.unique) {
    auto& values = Slot(unique_, attribute);
    auto it = values.find(key);
    if (it != values.end() && it->second == pk) values.erase(it);
  }
  for (uint32_t locale : e.locales) Slot(locales_, locale).remove(id);
  for (const PriceEntry& p : e.prices) {
    PriceIndex& index = Slot(prices_, p.key);
    index.price_ids.remove(static_cast<uint32_t>(p.internal_id));
    index.records.erase(p.internal_id);
    if (auto it = index.entity_prices.find(pk); it != index.entity_prices.end()) {
      std::erase(it->second, p.internal_id);
      if (it->second.empty()) {
        index.entity_prices.erase(it);
        index.entities.remove(id);
      }
    }
    if (p.has_validity) {
      index.validity_by_start.erase({p.valid_from, p.valid_to, p.internal_id});
      index.validity_by_end.erase({p.valid_to, p.valid_from, p.internal_id});
    }
  }
  for (const FacetEntry& f : e.facets) {
    auto& groups = Slot(facets_, f.reference);
    auto group = groups.find(f.group);
    if (group == groups.end()) continue;
    RemoveFrom(group->second, f.facet, id);
    if (group->second.empty()) groups.erase(group);
  }
}

IndexCounts EntityIndex::Counts() const {
  IndexCounts c;
  c.entities = all_.cardinality();
  c.entries = c.entities;
  for (const auto& m : filter_) {
    for (const auto& [key, pks] : m) c.entries += pks.size();
  }
  for (const auto& r : ranges_) c.entries += r.by_start.size() + r.by_end.size();
  for (const auto& m : sort_) {
    for (const auto& [key, pks] : m) c.entries += pks.size();
  }
  for (const auto& chain : chains_) c.entries += chain.predecessor.size();
  for (const auto& m : unique_) c.entries += m.size();
  for (const auto& l : locales_) c.entries += l.cardinality();
  for (const auto& p : prices_) {
    c.entries += p.records.size() * 3 + p.validity_by_start.size() * 2;  // records, two bitmaps; validity
  }
  for (const auto& groups : facets_) {
    for (const auto& [group, facets] : groups) {
      for (const auto& [facet, pks] : facets) c.entries += pks.size();
    }
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
  if (attribute < filter_.size()) {
    const auto& values = filter_[attribute];
    auto it =
        from ? (from_inclusive ? values.lower_bound(*from) : values.upper_bound(*from)) : values.begin();
    for (; it != values.end(); ++it) {
      if (to && (it->first > *to || (!to_inclusive && it->first == *to))) break;
      it->second.AddTo(&matches);
    }
  }
  return ToVector(matches);
}

std::vector<int32_t> EntityIndex::RangeContains(uint32_t attribute, const std::string& point) const {
  Roaring matches;
  if (attribute < ranges_.size()) {
    // Every range starting at or before the point, kept when it ends at or after it.
    for (const auto& [from, to, pk] : ranges_[attribute].by_start) {
      if (from > point) break;
      if (to >= point) matches.add(pk);
    }
  }
  return ToVector(matches);
}

std::vector<int32_t> EntityIndex::SortedBy(uint32_t attribute, bool descending) const {
  std::vector<int32_t> out;
  if (attribute >= sort_.size()) return out;
  auto append = [&](const PkSet& pks) {
    pks.ForEach([&](uint32_t v) { out.push_back(static_cast<int32_t>(v)); });
  };
  const auto& keys = sort_[attribute];
  if (descending) {
    for (auto it = keys.rbegin(); it != keys.rend(); ++it) append(it->second);
  } else {
    for (const auto& [key, pks] : keys) append(pks);
  }
  return out;
}

std::vector<int32_t> EntityIndex::ChainOrder(uint32_t attribute) const {
  std::vector<int32_t> out;
  if (attribute >= chains_.size()) return out;
  const ChainIndex& chain = chains_[attribute];
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
  if (attribute >= unique_.size()) return std::nullopt;
  auto it = unique_[attribute].find(value_key);
  return it == unique_[attribute].end() ? std::nullopt : std::optional<int32_t>(it->second);
}

std::vector<int32_t> EntityIndex::FacetMembers(uint32_t reference, int32_t facet) const {
  Roaring matches;
  if (reference < facets_.size()) {
    for (const auto& [group, facets] : facets_[reference]) {
      auto it = facets.find(facet);
      if (it != facets.end()) it->second.AddTo(&matches);
    }
  }
  return ToVector(matches);
}

std::vector<int32_t> EntityIndex::FacetGroupMembers(uint32_t reference, int32_t group) const {
  Roaring matches;
  if (reference < facets_.size()) {
    auto it = facets_[reference].find(group);
    if (it != facets_[reference].end()) {
      for (const auto& [facet, pks] : it->second) pks.AddTo(&matches);
    }
  }
  return ToVector(matches);
}

std::vector<int32_t> EntityIndex::WithLocale(uint32_t locale) const {
  return locale < locales_.size() ? ToVector(locales_[locale]) : std::vector<int32_t>{};
}

Roaring EntityIndex::ValidAt(const PriceIndex& index, int64_t moment) {
  Roaring valid = index.price_ids;
  Roaring limited;  // prices with a validity, and of those the ones valid at `moment`
  Roaring holds;
  for (const auto& [from, to, id] : index.validity_by_start) {
    limited.add(static_cast<uint32_t>(id));
    if (from <= moment && to >= moment) holds.add(static_cast<uint32_t>(id));
  }
  valid -= limited;
  valid |= holds;
  return valid;
}

void KeyDictionary::Save(IndexWriter& out) const {
  std::vector<const std::string*> by_id(ids_.size());
  for (const auto& [key, id] : ids_) by_id[id] = &key;
  out.U64(by_id.size());
  for (const std::string* key : by_id) out.Str(*key);
}

void KeyDictionary::Load(IndexReader& in) {
  ids_.clear();
  const uint64_t n = in.U64();
  for (uint64_t i = 0; i < n && in.status().ok(); ++i) ids_.emplace(in.Str(), static_cast<uint32_t>(i));
}

namespace {

// Maps of primary-key sets, keyed by strings or integers, in both directions.
template <typename Map>
void SaveSets(IndexWriter& out, const Map& map) {
  out.U64(map.size());
  for (const auto& [key, pks] : map) {
    if constexpr (std::is_same_v<std::decay_t<decltype(key)>, std::string>) {
      out.Str(key);
    } else {
      out.I64(key);
    }
    out.Pks(pks);
  }
}

template <typename Map>
void LoadSets(IndexReader& in, Map* map) {
  map->clear();
  const uint64_t n = in.U64();
  for (uint64_t i = 0; i < n && in.status().ok(); ++i) {
    using Key = typename Map::key_type;
    Key key;
    if constexpr (std::is_same_v<Key, std::string>) {
      key = in.Str();
    } else {
      key = static_cast<Key>(in.I64());
    }
    map->emplace(std::move(key), in.Pks());
  }
}

template <typename Map>
void SaveSlots(IndexWriter& out, const std::vector<Map>& slots) {
  out.U64(slots.size());
  for (const auto& map : slots) SaveSets(out, map);
}

template <typename Map>
void LoadSlots(IndexReader& in, std::vector<Map>* slots) {
  slots->clear();
  slots->resize(in.U64());
  for (auto& map : *slots) LoadSets(in, &map);
}

void SavePrice(IndexWriter& out, int32_t pk, const PriceEntry& p) {
  out.I64(pk);
  out.I64(p.internal_id);
  out.I64(p.price_id);
  out.I64(p.inner_record_id ? *p.inner_record_id : 0);
  out.U64(p.inner_record_id ? 1 : 0);
  out.I64(p.with_tax);
  out.I64(p.without_tax);
  out.U64(p.has_validity ? 1 : 0);
  if (p.has_validity) {
    out.I64(p.valid_from);
    out.I64(p.valid_to);
  }
}

PriceEntry LoadPrice(IndexReader& in, uint32_t key, int32_t* pk) {
  PriceEntry p;
  p.key = key;
  *pk = static_cast<int32_t>(in.I64());
  p.internal_id = static_cast<int32_t>(in.I64());
  p.price_id = static_cast<int32_t>(in.I64());
  const auto inner = static_cast<int32_t>(in.I64());
  if (in.U64() != 0) p.inner_record_id = inner;
  p.with_tax = in.I64();
  p.without_tax = in.I64();
  p.has_validity = in.U64() != 0;
  if (p.has_validity) {
    p.valid_from = in.I64();
    p.valid_to = in.I64();
  }
  return p;
}

}  // namespace

void EntityIndex::Save(IndexWriter& out) const {
  out.Bitmap(all_);
  SaveSlots(out, filter_);
  out.U64(ranges_.size());
  for (const auto& r : ranges_) {
    out.U64(r.by_start.size());
    for (const auto& [from, to, pk] : r.by_start) {
      out.Str(from);
      out.Str(to);
      out.U64(pk);
    }
  }
  SaveSlots(out, sort_);
  out.U64(chains_.size());
  for (const auto& chain : chains_) {
    out.U64(chain.predecessor.size());
    for (const auto& [pk, predecessor] : chain.predecessor) {
      out.I64(pk);
      out.I64(predecessor);
    }
  }
  out.U64(unique_.size());
  for (const auto& values : unique_) {
    out.U64(values.size());
    for (const auto& [key, pk] : values) {
      out.Str(key);
      out.I64(pk);
    }
  }
  out.U64(locales_.size());
  for (const auto& bitmap : locales_) out.Bitmap(bitmap);
  out.U64(prices_.size());
  for (const auto& index : prices_) {
    out.U64(index.records.size());
    for (const auto& [id, record] : index.records) SavePrice(out, record.first, record.second);
  }
  out.U64(facets_.size());
  for (const auto& groups : facets_) {
    out.U64(groups.size());
    for (const auto& [group, facets] : groups) {
      out.I64(group);
      SaveSets(out, facets);
    }
  }
}

void EntityIndex::Load(IndexReader& in) {
  *this = EntityIndex();
  all_ = in.Bitmap();
  LoadSlots(in, &filter_);
  ranges_.resize(in.U64());
  for (auto& r : ranges_) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      std::string from = in.Str();
      std::string to = in.Str();
      const auto pk = static_cast<uint32_t>(in.U64());
      r.by_end.emplace(to, from, pk);
      r.by_start.emplace(std::move(from), std::move(to), pk);
    }
  }
  LoadSlots(in, &sort_);
  chains_.resize(in.U64());
  for (auto& chain : chains_) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      const auto pk = static_cast<int32_t>(in.I64());
      const auto predecessor = static_cast<int32_t>(in.I64());
      chain.predecessor[pk] = predecessor;
      chain.successors[predecessor].Add(static_cast<uint32_t>(pk));
    }
  }
  unique_.resize(in.U64());
  for (auto& values : unique_) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      std::string key = in.Str();
      values[std::move(key)] = static_cast<int32_t>(in.I64());
    }
  }
  locales_.resize(in.U64());
  for (auto& bitmap : locales_) bitmap = in.Bitmap();
  const uint64_t price_keys = in.U64();
  for (uint64_t key = 0; key < price_keys && in.status().ok(); ++key) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      int32_t pk = 0;
      const PriceEntry p = LoadPrice(in, static_cast<uint32_t>(key), &pk);
      IndexEntries one;
      one.prices.push_back(p);
      Add(pk, one);
    }
  }
  prices_.resize(std::max<size_t>(prices_.size(), price_keys));
  facets_.resize(in.U64());
  for (auto& groups : facets_) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      const auto group = static_cast<int32_t>(in.I64());
      LoadSets(in, &groups[group]);
    }
  }
}

}  // namespace warmup::engine
