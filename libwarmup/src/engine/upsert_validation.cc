#include "engine/upsert_validation.h"

#include <absl/strings/str_join.h>

#include <algorithm>
#include <map>
#include <set>

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

std::string CardinalityName(Cardinality c) {
  switch (c) {
    case Cardinality::kNotSpecified:
      return "NOT_SPECIFIED";
    case Cardinality::kZeroOrOne:
      return "ZERO_OR_ONE";
    case Cardinality::kExactlyOne:
      return "EXACTLY_ONE";
    case Cardinality::kZeroOrMore:
      return "ZERO_OR_MORE";
    case Cardinality::kOneOrMore:
      return "ONE_OR_MORE";
    case Cardinality::kZeroOrMoreWithDuplicates:
      return "ZERO_OR_MORE_WITH_DUPLICATES";
    case Cardinality::kOneOrMoreWithDuplicates:
      return "ONE_OR_MORE_WITH_DUPLICATES";
  }
  return "cardinality " + std::to_string(static_cast<int>(c));
}

// NOT_SPECIFIED is what evitaDB reads as ZERO_OR_MORE.
bool IsMandatory(Cardinality c) {
  return c == Cardinality::kExactlyOne || c == Cardinality::kOneOrMore ||
         c == Cardinality::kOneOrMoreWithDuplicates;
}
bool AtMostOne(Cardinality c) { return c == Cardinality::kZeroOrOne || c == Cardinality::kExactlyOne; }
bool AllowsDuplicates(Cardinality c) {
  return c == Cardinality::kZeroOrMoreWithDuplicates || c == Cardinality::kOneOrMoreWithDuplicates;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> UniqueKeys(const Entity& entity, const EntitySchema& schema,
                                                            bool global) {
  std::vector<std::pair<std::string, std::string>> keys;
  auto add = [&](const std::string& name, const std::string& tag, const Value& value) {
    auto it = schema.attributes.find(name);
    if (it == schema.attributes.end()) return;
    const AttributeSchema& a = it->second;
    const GlobalAttributeUniqueness in_catalog = a.GlobalUniquenessIn(entity.scope);
    const AttributeUniqueness in_collection = a.UniquenessIn(entity.scope);
    const bool unique = global ? in_catalog != GlobalAttributeUniqueness::kNotGloballyUnique
                               : in_collection != AttributeUniqueness::kNotUnique;
    if (!unique) return;
    const bool per_locale = global ? in_catalog == GlobalAttributeUniqueness::kUniqueWithinCatalogLocale
                                   : in_collection == AttributeUniqueness::kUniqueWithinCollectionLocale;
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

Status ValidateUpsert(const Entity& e, const EntitySchema& schema, const UniqueOwnerLookup& collection_owner,
                      const GlobalUniqueIndex& global_unique) {
  const std::string label = "entity " + EntityLabel(e);
  auto fail = [&](const std::string& what) { return InvalidArgumentError(label + ": " + what); };
  if (e.primary_key <= 0) return fail("primary key must be positive");
  // `prefix` names whose values these are: empty for the entity's own,
  // "reference 'brand' -> 3: " for a reference's.
  auto check_attributes = [&](const std::map<std::string, AttributeSchema>& schemas, const Attributes& values,
                              const std::string& prefix) -> Status {
    auto check = [&](const std::string& name, const std::string& tag, const Value& value) -> Status {
      const std::string what = prefix + "attribute '" + name + "'";
      auto it = schemas.find(name);
      if (it == schemas.end()) {
        return fail(what + " is not in the schema of " + (prefix.empty() ? schema.name : "the reference"));
      }
      const AttributeSchema& a = it->second;
      if (a.type != value.type()) {
        return fail(what + " is " + std::string(ValueTypeName(a.type)) + ", got " +
                    std::string(ValueTypeName(value.type())) + " " + DebugString(value));
      }
      if (a.localized != !tag.empty()) {
        return fail(what + " is " + (a.localized ? "localized and needs a locale" : "not localized"));
      }
      if (!tag.empty() && !schema.locales.empty() &&
          std::none_of(schema.locales.begin(), schema.locales.end(),
                       [&](const Locale& l) { return l.tag() == tag; })) {
        return fail(what + ": locale '" + tag + "' is not allowed in " + schema.name);
      }
      return OkStatus();
    };
    for (const auto& [name, value] : values.global) {
      if (Status s = check(name, "", value); !s.ok()) return s;
    }
    for (const auto& [tag, localized] : values.localized) {
      for (const auto& [name, value] : localized) {
        if (Status s = check(name, tag, value); !s.ok()) return s;
      }
    }
    // A default fills a missing value before validation (ApplyDefaultValues),
    // so only required values without one can be missing here.
    for (const auto& [name, a] : schemas) {
      if (a.nullable || a.default_value) continue;
      if (!a.localized) {
        if (!values.global.contains(name)) {
          return fail(prefix + "required attribute '" + name + "' is missing");
        }
        continue;
      }
      for (const auto& locale : e.locales) {
        auto held = values.localized.find(locale.tag());
        if (held == values.localized.end() || !held->second.contains(name)) {
          return fail(prefix + "required attribute '" + name + "' is missing in locale " + locale.tag());
        }
      }
    }
    return OkStatus();
  };
  if (Status s = check_attributes(schema.attributes, e.attributes, ""); !s.ok()) return s;
  if (e.locales.empty()) {
    std::vector<std::string> localized_required;
    for (const auto& [name, a] : schema.attributes) {
      if (a.localized && !a.nullable && !a.default_value) localized_required.push_back("'" + name + "'");
    }
    if (!localized_required.empty()) {
      return fail("has no locale, but its localized attribute" +
                  std::string(localized_required.size() > 1 ? "s " : " ") +
                  absl::StrJoin(localized_required, ", ") + " must have a value, so it needs at least one");
    }
  }
  for (const auto& [attribute, key] : UniqueKeys(e, schema, false)) {
    const std::optional<int32_t> owner = collection_owner(attribute, key);
    if (owner && *owner != e.primary_key) {
      return fail("attribute '" + DisplayAttribute(attribute) + "' must be unique, and entity " +
                  schema.name + "/" + std::to_string(*owner) + " already has that value");
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
  // Cardinality as evitaDB's verifyReferenceCardinalities checks it, and the
  // upper bound as its reference builders refuse a second reference. Only the
  // entity's own references count: reflected ones are the catalog's to keep
  // (an upsert's are ignored), so their cardinality is not checked.
  std::map<std::string, int64_t> counts;
  std::set<std::pair<std::string, int32_t>> targets;
  for (const Reference& r : e.references) {
    const std::string what = "reference '" + r.name + "' -> " + std::to_string(r.referenced.primary_key);
    const ReferenceSchema* rs = schema.FindReference(r.name);
    if (rs == nullptr) return fail(what + " is not in the schema of " + schema.name);
    if (rs->is_reflected()) continue;
    if (Status s = check_attributes(rs->attributes, r.attributes, what + ": "); !s.ok()) return s;
    ++counts[r.name];
    if (!AllowsDuplicates(rs->cardinality) && !targets.emplace(r.name, r.referenced.primary_key).second) {
      return fail(what + " is there twice, and its cardinality " + CardinalityName(rs->cardinality) +
                  " allows no duplicates");
    }
  }
  for (const auto& [name, rs] : schema.references) {
    if (rs.is_reflected()) continue;
    const int64_t count = counts[name];
    if (count == 0 && IsMandatory(rs.cardinality)) {
      return fail("reference '" + name + "' is " + CardinalityName(rs.cardinality) +
                  ", and the entity has none");
    }
    if (count > 1 && AtMostOne(rs.cardinality)) {
      return fail("reference '" + name + "' is " + CardinalityName(rs.cardinality) + ", and the entity has " +
                  std::to_string(count));
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
