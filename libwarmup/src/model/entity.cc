#include "warmup/entity.h"

#include <set>

namespace warmup {

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

void RemoveReflectedReferences(const EntitySchema& schema, Entity& entity) {
  std::erase_if(entity.references, [&](const Reference& r) {
    const ReferenceSchema* reference = schema.FindReference(r.name);
    return reference != nullptr && reference->is_reflected();
  });
}

std::string EntityLabel(const Entity& entity) {
  return entity.type + "/" + std::to_string(entity.primary_key);
}

}  // namespace warmup
