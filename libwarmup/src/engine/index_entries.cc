#include "engine/index_entries.h"

#include <algorithm>
#include <limits>

namespace warmup::engine {
namespace {

constexpr int64_t kMinMicros = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxMicros = std::numeric_limits<int64_t>::max();

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
  const AttributeUniqueness uniqueness = schema.UniquenessIn(scope);
  const bool unique = uniqueness != AttributeUniqueness::kNotUnique;
  const bool per_locale = uniqueness == AttributeUniqueness::kUniqueWithinCollectionLocale;
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
  // A value unique per locale, or of an attribute that is not localized, is
  // held by its filter posting alone: the posting's key is the unique key,
  // and the posting's one entity its owner, as evitaDB folds such values into
  // its filter index (AttributeIndex.isUniqueFoldable). Only a localized
  // value unique across locales needs a map of its own.
  if (unique && !tag.empty() && !per_locale) {
    const uint32_t key = keys.Id(key_of(""));
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

bool InScope(const std::vector<Scope>& scopes, Scope scope) {
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

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

size_t IndexEntries::HeapBytes() const {
  // A string's characters are on the heap only past the small-string buffer
  // it carries inline (its capacity then is that buffer's).
  static const size_t kInline = std::string().capacity();
  auto text = [](const std::string& s) { return s.capacity() > kInline ? s.capacity() + 1 : 0; };
  auto vector = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  size_t bytes = vector(filter) + vector(ranges) + vector(sort) + vector(chains) + vector(unique) +
                 vector(locales) + vector(prices) + vector(facets);
  for (const auto* keyed : {&filter, &sort, &unique}) {
    for (const auto& [id, key] : *keyed) bytes += text(key);
  }
  for (const RangeEntry& r : ranges) bytes += text(r.from) + text(r.to);
  return bytes;
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

}  // namespace warmup::engine
