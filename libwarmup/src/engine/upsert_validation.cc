#include "engine/upsert_validation.h"

#include <algorithm>

#include "engine/entity_index.h"
#include "engine/index_keys.h"

namespace warmup::engine {
namespace {

// "a:name|cs" (a dictionary key) as users name it: "name (cs)".
std::string DisplayAttribute(const std::string& key) {
  std::string name = key.substr(2);
  const size_t bar = name.find('|');
  return bar == std::string::npos ? name : name.substr(0, bar) + " (" + name.substr(bar + 1) + ")";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> UniqueKeys(const Entity& entity, const EntitySchema& schema,
                                                            bool global) {
  std::vector<std::pair<std::string, std::string>> keys;
  auto add = [&](const std::string& name, const std::string& tag, const Value& value) {
    auto it = schema.attributes.find(name);
    if (it == schema.attributes.end()) return;
    const AttributeSchema& a = it->second;
    bool per_locale = false;
    bool unique = false;
    if (global) {
      for (const auto& s : a.globally_unique_in_scopes) {
        if (s.scope == entity.scope && s.value != GlobalAttributeUniqueness::kNotGloballyUnique) {
          unique = true;
          per_locale = s.value == GlobalAttributeUniqueness::kUniqueWithinCatalogLocale;
        }
      }
    } else {
      for (const auto& s : a.unique_in_scopes) {
        if (s.scope == entity.scope && s.value != AttributeUniqueness::kNotUnique) {
          unique = true;
          per_locale = s.value == AttributeUniqueness::kUniqueWithinCollectionLocale;
        }
      }
    }
    if (!unique) return;
    for (const Scalar& item : value.items()) {
      keys.emplace_back(AttributeKey(name, per_locale ? tag : ""),
                        ScalarKey(item, ElementType(value.type()), a.indexed_decimal_places));
    }
  };
  for (const auto& [name, value] : entity.attributes.global) add(name, "", value);
  for (const auto& [tag, values] : entity.attributes.localized) {
    for (const auto& [name, value] : values) add(name, tag, value);
  }
  return keys;
}

Status ValidateUpsert(const Entity& e, const EntitySchema& schema, const UniqueValues& collection_unique,
                      const GlobalUniqueIndex& global_unique) {
  const std::string label = "entity " + EntityLabel(e);
  auto fail = [&](const std::string& what) { return InvalidArgumentError(label + ": " + what); };
  if (e.primary_key <= 0) return fail("primary key must be positive");
  auto check_attribute = [&](const std::string& name, const std::string& tag, const Value& value) -> Status {
    auto it = schema.attributes.find(name);
    if (it == schema.attributes.end()) {
      return fail("attribute '" + name + "' is not in the schema of " + schema.name);
    }
    const AttributeSchema& a = it->second;
    if (a.type != value.type()) {
      return fail("attribute '" + name + "' is " + std::string(ValueTypeName(a.type)) + ", got " +
                  std::string(ValueTypeName(value.type())) + " " + DebugString(value));
    }
    if (a.localized != !tag.empty()) {
      return fail("attribute '" + name + "' is " +
                  (a.localized ? "localized and needs a locale" : "not localized"));
    }
    if (!tag.empty() && !schema.locales.empty() &&
        std::none_of(schema.locales.begin(), schema.locales.end(),
                     [&](const Locale& l) { return l.tag() == tag; })) {
      return fail("attribute '" + name + "': locale '" + tag + "' is not allowed in " + schema.name);
    }
    return OkStatus();
  };
  for (const auto& [name, value] : e.attributes.global) {
    if (Status s = check_attribute(name, "", value); !s.ok()) return s;
  }
  for (const auto& [tag, values] : e.attributes.localized) {
    for (const auto& [name, value] : values) {
      if (Status s = check_attribute(name, tag, value); !s.ok()) return s;
    }
  }
  for (const auto& [name, a] : schema.attributes) {
    if (a.nullable || a.default_value) continue;
    if (!a.localized && !e.attributes.global.contains(name)) {
      return fail("required attribute '" + name + "' is missing");
    }
    if (a.localized) {
      for (const auto& locale : e.locales) {
        auto values = e.attributes.localized.find(locale.tag());
        if (values == e.attributes.localized.end() || !values->second.contains(name)) {
          return fail("required attribute '" + name + "' is missing in locale " + locale.tag());
        }
      }
    }
  }
  for (const auto& [attribute, key] : UniqueKeys(e, schema, false)) {
    auto index = collection_unique.find(attribute);
    if (index == collection_unique.end()) continue;
    auto owner = index->second.find(key);
    if (owner != index->second.end() && owner->second != e.primary_key) {
      return fail("attribute '" + DisplayAttribute(attribute) + "' must be unique, and entity " +
                  schema.name + "/" + std::to_string(owner->second) + " already has that value");
    }
  }
  for (const auto& [attribute, key] : UniqueKeys(e, schema, true)) {
    auto index = global_unique.find(attribute);
    if (index == global_unique.end()) continue;
    auto owner = index->second.find(key);
    if (owner != index->second.end() && !(owner->second == EntityRef{e.type, e.primary_key})) {
      return fail("attribute '" + DisplayAttribute(attribute) +
                  "' must be unique in the catalog, and entity " + owner->second.entity_type + "/" +
                  std::to_string(owner->second.primary_key) + " already has that value");
    }
  }
  auto check_associated_data = [&](const std::string& name, const AssociatedDataValue& value) -> Status {
    auto it = schema.associated_data.find(name);
    if (it == schema.associated_data.end()) {
      return fail("associated data '" + name + "' is not in the schema");
    }
    if (it->second.type != value.type()) return fail("associated data '" + name + "' has the wrong type");
    return OkStatus();
  };
  for (const auto& [name, value] : e.associated_data.global) {
    if (Status s = check_associated_data(name, value); !s.ok()) return s;
  }
  for (const auto& [tag, values] : e.associated_data.localized) {
    for (const auto& [name, value] : values) {
      if (Status s = check_associated_data(name, value); !s.ok()) return s;
    }
  }
  for (const Reference& r : e.references) {
    const ReferenceSchema* rs = schema.FindReference(r.name);
    if (rs == nullptr) {
      return fail("reference '" + r.name + "' -> " + std::to_string(r.referenced.primary_key) +
                  " is not in the schema of " + schema.name);
    }
  }
  if (!e.prices.empty() && !schema.with_price) return fail(schema.name + " has no prices");
  for (const Price& p : e.prices) {
    if (!schema.currencies.empty() && std::find(schema.currencies.begin(), schema.currencies.end(),
                                                p.currency) == schema.currencies.end()) {
      return fail("price " + std::to_string(p.price_id) + ": currency " + p.currency.code() +
                  " is not allowed");
    }
  }
  if (e.parent && !schema.with_hierarchy) return fail(schema.name + " has no hierarchy");
  return OkStatus();
}

}  // namespace warmup::engine
