#include "engine/entity_index.h"

#include <algorithm>

namespace warmup::engine {
namespace {

bool InScope(const std::vector<Scope>& scopes, Scope scope) {
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

void AddAttributeEntries(const std::string& name, const std::string& tag, const Value& value,
                         const AttributeSchema& schema, Scope scope, CollationKeys& collation,
                         IndexEntries* out) {
  const std::string key = AttributeKey(name, tag);
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
  return tag.empty() ? name : name + "|" + tag;
}

std::string PriceKey(const std::string& price_list, const std::string& currency) {
  return price_list + "|" + currency;
}

IndexEntries ComputeIndexEntries(const Entity& entity, const EntitySchema& schema, CollationKeys& collation) {
  IndexEntries out;
  const Scope scope = entity.scope;
  for (const auto& [name, value] : entity.attributes.global) {
    auto it = schema.attributes.find(name);
    if (it != schema.attributes.end())
      AddAttributeEntries(name, "", value, it->second, scope, collation, &out);
  }
  for (const auto& [tag, values] : entity.attributes.localized) {
    for (const auto& [name, value] : values) {
      auto it = schema.attributes.find(name);
      if (it != schema.attributes.end())
        AddAttributeEntries(name, tag, value, it->second, scope, collation, &out);
    }
  }
  for (const auto& locale : entity.locales) out.locales.push_back(locale.tag());
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
      out.prices.emplace_back(key, for_sale);
    }
  }
  for (const Reference& r : entity.references) {
    const ReferenceSchema* rs = schema.FindReference(r.name);
    if (rs != nullptr && InScope(rs->faceted_in_scopes, scope))
      out.facets.emplace_back(r.name, r.referenced.primary_key);
  }
  return out;
}

void EntityIndex::Add(int32_t pk, const IndexEntries& e) {
  const auto id = static_cast<uint32_t>(pk);
  all_.add(id);
  for (const auto& [attribute, key] : e.filter) filter_[attribute][key].add(id);
  for (const auto& [attribute, key] : e.sort) sort_[attribute][key].add(id);
  for (const auto& tag : e.locales) locales_[tag].add(id);
  for (const auto& [key, amount] : e.prices) prices_[key][amount].add(id);
  for (const auto& [reference, target] : e.facets) facets_[reference][target].add(id);
}

void EntityIndex::Remove(int32_t pk, const IndexEntries& e) {
  const auto id = static_cast<uint32_t>(pk);
  all_.remove(id);
  for (const auto& [attribute, key] : e.filter) filter_[attribute][key].remove(id);
  for (const auto& [attribute, key] : e.sort) {
    auto& keys = sort_[attribute];
    auto it = keys.find(key);
    if (it == keys.end()) continue;
    it->second.remove(id);
    if (it->second.isEmpty()) keys.erase(it);
  }
  for (const auto& tag : e.locales) locales_[tag].remove(id);
  for (const auto& [key, amount] : e.prices) {
    auto& amounts = prices_[key];
    auto it = amounts.find(amount);
    if (it == amounts.end()) continue;
    it->second.remove(id);
    if (it->second.isEmpty()) amounts.erase(it);
  }
  for (const auto& [reference, target] : e.facets) facets_[reference][target].remove(id);
}

std::vector<int32_t> ToVector(const Roaring& bitmap) {
  std::vector<int32_t> out;
  out.reserve(bitmap.cardinality());
  for (uint32_t v : bitmap) out.push_back(static_cast<int32_t>(v));
  return out;
}

std::vector<int32_t> EntityIndex::FilterEquals(const std::string& attribute_key,
                                               const std::string& value_key) const {
  auto a = filter_.find(attribute_key);
  if (a == filter_.end()) return {};
  auto v = a->second.find(value_key);
  return v == a->second.end() ? std::vector<int32_t>{} : ToVector(v->second);
}

std::vector<int32_t> EntityIndex::SortedBy(const std::string& attribute_key, bool descending) const {
  std::vector<int32_t> out;
  auto a = sort_.find(attribute_key);
  if (a == sort_.end()) return out;
  auto append = [&](const Roaring& pks) {
    for (uint32_t v : pks) out.push_back(static_cast<int32_t>(v));
  };
  if (descending) {
    for (auto it = a->second.rbegin(); it != a->second.rend(); ++it) append(it->second);
  } else {
    for (const auto& [key, pks] : a->second) append(pks);
  }
  return out;
}

std::vector<int32_t> EntityIndex::PriceBetween(const std::string& price_key, int64_t from, int64_t to) const {
  Roaring matches;
  auto p = prices_.find(price_key);
  if (p != prices_.end()) {
    for (auto it = p->second.lower_bound(from); it != p->second.end() && it->first <= to; ++it)
      matches |= it->second;
  }
  return ToVector(matches);
}

std::vector<int32_t> EntityIndex::FacetMembers(const std::string& reference, int32_t referenced_pk) const {
  auto r = facets_.find(reference);
  if (r == facets_.end()) return {};
  auto t = r->second.find(referenced_pk);
  return t == r->second.end() ? std::vector<int32_t>{} : ToVector(t->second);
}

std::vector<int32_t> EntityIndex::WithLocale(const std::string& tag) const {
  auto it = locales_.find(tag);
  return it == locales_.end() ? std::vector<int32_t>{} : ToVector(it->second);
}

}  // namespace warmup::engine
