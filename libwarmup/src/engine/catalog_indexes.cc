#include "engine/catalog_indexes.h"

#include <algorithm>

namespace warmup::engine {

void ReflectedReferences::Update(const Entity& holder, bool add) {
  for (const Reference& r : holder.references) {
    auto target = schema_->entities.find(r.referenced.entity_type);
    if (target == schema_->entities.end()) continue;
    for (const auto& [name, rs] : target->second.references) {
      if (!rs.is_reflected() || *rs.reflected_reference_name != r.name ||
          rs.referenced_entity_type != holder.type) {
        continue;
      }
      Roaring& holders = links_[{target->first, name}][r.referenced.primary_key];
      if (add) {
        holders.add(static_cast<uint32_t>(holder.primary_key));
      } else {
        holders.remove(static_cast<uint32_t>(holder.primary_key));
      }
    }
  }
}

void ReflectedReferences::Attach(Entity* entity) const {
  auto schema = schema_->entities.find(entity->type);
  if (schema == schema_->entities.end()) return;
  for (const auto& [reference_name, rs] : schema->second.references) {
    if (!rs.is_reflected()) continue;
    const std::string& name = reference_name;  // (clang before 16 cannot capture a structured binding)
    std::erase_if(entity->references, [&](const Reference& r) { return r.name == name; });
    auto by_name = links_.find({entity->type, name});
    if (by_name == links_.end()) continue;
    auto holders = by_name->second.find(entity->primary_key);
    if (holders == by_name->second.end()) continue;
    for (uint32_t holder : holders->second) {
      entity->references.push_back(
          {name, {rs.referenced_entity_type, static_cast<int32_t>(holder)}, std::nullopt, {}});
    }
  }
}

void ReflectedReferences::Save(IndexWriter& out) const {
  out.U64(links_.size());
  for (const auto& [key, holders] : links_) {
    out.Str(key.first);
    out.Str(key.second);
    out.U64(holders.size());
    for (const auto& [pk, bitmap] : holders) {
      out.I64(pk);
      out.Bitmap(bitmap);
    }
  }
}

void ReflectedReferences::Load(IndexReader& in) {
  links_.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    std::string type = in.Str();
    std::string name = in.Str();
    auto& holders = links_[{std::move(type), std::move(name)}];
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
      const auto pk = static_cast<int32_t>(in.I64());
      holders[pk] = in.Bitmap();
    }
  }
}

void CatalogIndexes::Save(IndexWriter& out) const {
  out.U64(global_unique.size());
  for (const auto& [attribute, values] : global_unique) {
    out.Str(attribute);
    out.U64(values.size());
    for (const auto& [value, owner] : values) {
      out.Str(value);
      out.Str(owner.entity_type);
      out.I64(owner.primary_key);
    }
  }
  reflected.Save(out);
}

void CatalogIndexes::Load(IndexReader& in) {
  global_unique.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    auto& values = global_unique[in.Str()];
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
      std::string value = in.Str();
      std::string type = in.Str();
      values[value] = EntityRef{std::move(type), static_cast<int32_t>(in.I64())};
    }
  }
  reflected.Load(in);
}

}  // namespace warmup::engine
