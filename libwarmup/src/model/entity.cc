#include "warmup/entity.h"

#include <set>

namespace warmup {

std::string_view PriceInnerRecordHandlingName(PriceInnerRecordHandling handling) {
  switch (handling) {
    case PriceInnerRecordHandling::kNone:
      return "NONE";
    case PriceInnerRecordHandling::kLowestPrice:
      return "LOWEST_PRICE";
    case PriceInnerRecordHandling::kSum:
      return "SUM";
    case PriceInnerRecordHandling::kUnknown:
      return "UNKNOWN";
  }
  return "UNKNOWN";
}

PriceInnerRecordHandling StoredPriceInnerRecordHandling(const Entity& entity) {
  const PriceInnerRecordHandling handling = entity.price_inner_record_handling;
  if (entity.prices.empty() &&
      (handling == PriceInnerRecordHandling::kNone || handling == PriceInnerRecordHandling::kUnknown)) {
    return PriceInnerRecordHandling::kUnknown;
  }
  return handling;
}

std::vector<Locale> DeriveLocales(const Entity& entity) {
  std::set<std::string> tags;
  for (const auto& [tag, values] : entity.attributes.localized) {
    if (!values.empty()) tags.insert(tag);
  }
  for (const auto& [tag, values] : entity.associated_data.localized) {
    if (!values.empty()) tags.insert(tag);
  }
  std::vector<Locale> locales;
  for (const std::string& tag : tags) {
    auto locale = Locale::Parse(tag);
    if (locale.ok()) locales.push_back(*locale);
  }
  return locales;
}

void RemoveReflectedReferences(const EntitySchema& schema, Entity& entity,
                               std::map<std::string, int64_t>* dropped_own_attributes) {
  std::erase_if(entity.references, [&](const Reference& r) {
    const ReferenceSchema* reference = schema.FindReference(r.name);
    if (reference == nullptr || !reference->is_reflected()) return false;
    if (dropped_own_attributes != nullptr) {
      auto count = [&](const std::string& name) {
        const auto declared = reference->attributes.find(name);
        // An attribute the schema does not list is not inherited either.
        if (declared == reference->attributes.end() || !declared->second.inherited) {
          ++(*dropped_own_attributes)[entity.type + "." + r.name + "." + name];
        }
      };
      for (const auto& [name, value] : r.attributes.global) count(name);
      for (const auto& [tag, values] : r.attributes.localized) {
        for (const auto& [name, value] : values) count(name);
      }
    }
    return true;
  });
}

namespace {

// Calls visit(values, tag, name, default) for each value `entity` lacks that
// `schema` gives a default for; `values` is the entity's or a reference's
// attributes, `tag` empty for a global attribute. Templated on constness so
// the check and the fill walk the same way.
template <typename EntityT, typename Visit>
void ForEachMissingDefault(const EntitySchema& schema, EntityT& entity, Visit visit) {
  auto scan = [&](const std::map<std::string, AttributeSchema>& attributes, auto& values) {
    for (const auto& [name, a] : attributes) {
      if (!a.default_value) continue;
      if (!a.localized) {
        if (!values.global.contains(name)) visit(values, std::string(), name, *a.default_value);
        continue;
      }
      for (const Locale& locale : entity.locales) {
        auto held = values.localized.find(locale.tag());
        if (held == values.localized.end() || !held->second.contains(name)) {
          visit(values, locale.tag(), name, *a.default_value);
        }
      }
    }
  };
  scan(schema.attributes, entity.attributes);
  for (auto& reference : entity.references) {
    const ReferenceSchema* rs = schema.FindReference(reference.name);
    if (rs != nullptr && !rs->is_reflected()) scan(rs->attributes, reference.attributes);
  }
}

}  // namespace

bool LacksDefaultValues(const EntitySchema& schema, const Entity& entity) {
  bool lacks = false;
  ForEachMissingDefault(
      schema, entity,
      [&](const Attributes&, const std::string&, const std::string&, const Value&) { lacks = true; });
  return lacks;
}

int ApplyDefaultValues(const EntitySchema& schema, Entity& entity) {
  int added = 0;
  ForEachMissingDefault(
      schema, entity,
      [&](Attributes& values, const std::string& tag, const std::string& name, const Value& value) {
        (tag.empty() ? values.global : values.localized[tag]).emplace(name, value);
        ++added;
      });
  return added;
}

std::string EntityLabel(const Entity& entity) {
  return entity.type + "/" + std::to_string(entity.primary_key);
}

}  // namespace warmup
