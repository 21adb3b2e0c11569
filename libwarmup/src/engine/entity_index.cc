#include "engine/entity_index.h"

#include <algorithm>

#include "engine/index_io.h"

namespace warmup::engine {
namespace {

bool InScope(const std::vector<Scope>& scopes, Scope scope) {
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

void AddAttributeEntries(const std::string& name, const std::string& tag, const Value& value,
                         const AttributeSchema& schema, Scope scope, CollationKeys& collation,
                         KeyDictionary& keys, IndexEntries* out) {
  const uint32_t key = keys.Id(AttributeKey(name, tag));
  const ValueType element = ElementType(value.type());
  if (InScope(schema.filterable_in_scopes, scope) || !schema.unique_in_scopes.empty()) {
    for (const Scalar& item : value.items()) {
      out->filter.emplace_back(key, ScalarKey(item, element, schema.indexed_decimal_places));
    }
  }
  if (InScope(schema.sortable_in_scopes, scope) && !value.is_array()) {
    if (!tag.empty() && element == ValueType::kString) {
      out->sort.emplace_back(key, collation.Key(tag, std::get<std::string>(value.scalar())));
    } else {
      out->sort.emplace_back(key, ScalarKey(value.scalar(), element, schema.indexed_decimal_places));
    }
  }
}

}  // namespace

std::string AttributeKey(const std::string& name, const std::string& tag) {
  return tag.empty() ? "a:" + name : "a:" + name + "|" + tag;
}
std::string PriceKey(const std::string& price_list, const std::string& currency) {
  return "p:" + price_list + "|" + currency;
}
std::string LocaleKey(const std::string& tag) { return "l:" + tag; }
std::string ReferenceKey(const std::string& name) { return "r:" + name; }

IndexEntries ComputeIndexEntries(const Entity& entity, const EntitySchema& schema, CollationKeys& collation,
                                 KeyDictionary& keys) {
  IndexEntries out;
  const Scope scope = entity.scope;
  for (const auto& [name, value] : entity.attributes.global) {
    auto it = schema.attributes.find(name);
    if (it != schema.attributes.end()) {
      AddAttributeEntries(name, "", value, it->second, scope, collation, keys, &out);
    }
  }
  for (const auto& [tag, values] : entity.attributes.localized) {
    for (const auto& [name, value] : values) {
      auto it = schema.attributes.find(name);
      if (it != schema.attributes.end()) {
        AddAttributeEntries(name, tag, value, it->second, scope, collation, keys, &out);
      }
    }
  }
  for (const auto& locale : entity.locales) out.locales.push_back(keys.Id(LocaleKey(locale.tag())));
  if (schema.with_price && InScope(schema.price_indexed_in_scopes, scope)) {
    std::map<std::string, std::vector<int64_t>> by_key;
    for (const Price& p : entity.prices) {
      if (!p.indexed) continue;
      by_key[PriceKey(p.price_list, p.currency.code())].push_back(
          ScaleDecimal(p.price_with_tax, schema.indexed_price_places));
    }
    for (auto& [key, amounts] : by_key) {
      int64_t for_sale = *std::min_element(amounts.begin(), amounts.end());
      if (entity.price_inner_record_handling == PriceInnerRecordHandling::kSum) {
        for_sale = 0;
        for (int64_t a : amounts) for_sale += a;
      }
      out.prices.emplace_back(keys.Id(key), for_sale);
    }
  }
  for (const Reference& r : entity.references) {
    const ReferenceSchema* rs = schema.FindReference(r.name);
    if (rs != nullptr && InScope(rs->faceted_in_scopes, scope)) {
      out.facets.emplace_back(keys.Id(ReferenceKey(r.name)), r.referenced.primary_key);
    }
  }
  return out;
}

void EntityIndex::Add(int32_t pk, const IndexEntries& e) {
  const auto id = static_cast<uint32_t>(pk);
  all_.add(id);
  for (const auto& [attribute, key] : e.filter) Slot(filter_, attribute)[key].Add(id);
  for (const auto& [attribute, key] : e.sort) Slot(sort_, attribute)[key].Add(id);
  for (uint32_t locale : e.locales) Slot(locales_, locale).add(id);
  for (const auto& [key, amount] : e.prices) Slot(prices_, key)[amount].Add(id);
  for (const auto& [reference, target] : e.facets) Slot(facets_, reference)[target].Add(id);
}

// Removes `pk` from the set under `key` of `map`, dropping the set when empty.
template <typename Map, typename Key>
void RemoveFrom(Map& map, const Key& key, uint32_t pk) {
  auto it = map.find(key);
  if (it == map.end()) return;
  it->second.Remove(pk);
  if (it->second.empty()) map.erase(it);
}

void EntityIndex::Remove(int32_t pk, const IndexEntries& e) {
  const auto id = static_cast<uint32_t>(pk);
  all_.remove(id);
  for (const auto& [attribute, key] : e.filter) RemoveFrom(Slot(filter_, attribute), key, id);
  for (const auto& [attribute, key] : e.sort) RemoveFrom(Slot(sort_, attribute), key, id);
  for (uint32_t locale : e.locales) Slot(locales_, locale).remove(id);
  for (const auto& [key, amount] : e.prices) RemoveFrom(Slot(prices_, key), amount, id);
  for (const auto& [reference, target] : e.facets) RemoveFrom(Slot(facets_, reference), target, id);
}

std::vector<int32_t> ToVector(const Roaring& bitmap) {
  std::vector<int32_t> out;
  out.reserve(bitmap.cardinality());
  for (uint32_t v : bitmap) out.push_back(static_cast<int32_t>(v));
  return out;
}

std::vector<int32_t> EntityIndex::FilterEquals(uint32_t attribute, const std::string& value_key) const {
  if (attribute >= filter_.size()) return {};
  auto v = filter_[attribute].find(value_key);
  return v == filter_[attribute].end() ? std::vector<int32_t>{} : v->second.ToVector();
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

std::vector<int32_t> EntityIndex::PriceBetween(uint32_t price_key, int64_t from, int64_t to) const {
  Roaring matches;
  if (price_key < prices_.size()) {
    const auto& amounts = prices_[price_key];
    for (auto it = amounts.lower_bound(from); it != amounts.end() && it->first <= to; ++it) {
      it->second.AddTo(&matches);
    }
  }
  return ToVector(matches);
}

std::vector<int32_t> EntityIndex::FacetMembers(uint32_t reference, int32_t referenced_pk) const {
  if (reference >= facets_.size()) return {};
  auto t = facets_[reference].find(referenced_pk);
  return t == facets_[reference].end() ? std::vector<int32_t>{} : t->second.ToVector();
}

std::vector<int32_t> EntityIndex::WithLocale(uint32_t locale) const {
  return locale < locales_.size() ? ToVector(locales_[locale]) : std::vector<int32_t>{};
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
void SaveSlots(IndexWriter& out, const std::vector<Map>& slots) {
  out.U64(slots.size());
  for (const auto& map : slots) {
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
}

template <typename Map>
void LoadSlots(IndexReader& in, std::vector<Map>* slots) {
  slots->clear();
  slots->resize(in.U64());
  for (auto& map : *slots) {
    const uint64_t n = in.U64();
    for (uint64_t i = 0; i < n && in.status().ok(); ++i) {
      using Key = typename Map::key_type;
      Key key;
      if constexpr (std::is_same_v<Key, std::string>) {
        key = in.Str();
      } else {
        key = static_cast<Key>(in.I64());
      }
      map.emplace(std::move(key), in.Pks());
    }
  }
}

}  // namespace

void EntityIndex::Save(IndexWriter& out) const {
  out.Bitmap(all_);
  SaveSlots(out, filter_);
  SaveSlots(out, sort_);
  out.U64(locales_.size());
  for (const auto& bitmap : locales_) out.Bitmap(bitmap);
  SaveSlots(out, prices_);
  SaveSlots(out, facets_);
}

void EntityIndex::Load(IndexReader& in) {
  all_ = in.Bitmap();
  LoadSlots(in, &filter_);
  LoadSlots(in, &sort_);
  locales_.clear();
  locales_.resize(in.U64());
  for (auto& bitmap : locales_) bitmap = in.Bitmap();
  LoadSlots(in, &prices_);
  LoadSlots(in, &facets_);
}

}  // namespace warmup::engine
