#include "engine/catalog_indexes.h"

#include <algorithm>

#include "codec/entity_convert.h"
#include "codec/serialize.h"
#include "engine/index_entries.h"

namespace warmup::engine {

namespace {

bool Inherits(const ReferenceSchema& reflected, const std::string& attribute) {
  const auto& filter = reflected.attribute_inheritance_filter;
  const bool listed = std::find(filter.begin(), filter.end(), attribute) != filter.end();
  return reflected.attribute_inheritance_behavior == AttributeInheritanceBehavior::kInheritAllExcept ? !listed
                                                                                                     : listed;
}

// The attributes of `original` a reflected reference inherits.
Attributes Inherited(const ReferenceSchema& reflected, const Attributes& original) {
  Attributes out;
  for (const auto& [name, value] : original.global) {
    if (Inherits(reflected, name)) out.global.emplace(name, value);
  }
  for (const auto& [tag, values] : original.localized) {
    for (const auto& [name, value] : values) {
      if (Inherits(reflected, name)) out.localized[tag].emplace(name, value);
    }
  }
  return out;
}

}  // namespace

std::vector<ReflectedChange> ReflectedReferences::Reflections(const Entity& holder, bool added) const {
  std::vector<ReflectedChange> out;
  for (const Reference& r : holder.references) {
    auto target = schema_->entities.find(r.referenced.entity_type);
    if (target == schema_->entities.end()) continue;
    for (const auto& [name, rs] : target->second.references) {
      if (!rs.is_reflected() || *rs.reflected_reference_name != r.name ||
          rs.referenced_entity_type != holder.type) {
        continue;
      }
      out.push_back({target->first,
                     r.referenced.primary_key,
                     {name, {holder.type, holder.primary_key}, std::nullopt, Inherited(rs, r.attributes)},
                     added});
    }
  }
  return out;
}

std::vector<ReflectedChange> ReflectedReferences::Diff(const Entity* before, const Entity* after) const {
  std::vector<ReflectedChange> removed =
      before ? Reflections(*before, false) : std::vector<ReflectedChange>{};
  std::vector<ReflectedChange> added = after ? Reflections(*after, true) : std::vector<ReflectedChange>{};
  auto same = [](const ReflectedChange& a, const ReflectedChange& b) {
    return a.entity_type == b.entity_type && a.primary_key == b.primary_key && a.reference == b.reference;
  };
  std::vector<ReflectedChange> out;
  for (const auto& r : removed) {
    if (std::none_of(added.begin(), added.end(), [&](const ReflectedChange& a) { return same(a, r); })) {
      out.push_back(r);
    }
  }
  for (const auto& a : added) {
    if (std::none_of(removed.begin(), removed.end(), [&](const ReflectedChange& r) { return same(a, r); })) {
      out.push_back(a);
    }
  }
  return out;
}

void ReflectedReferences::Apply(const ReflectedChange& change) {
  auto& by_target = links_[{change.entity_type, change.reference.name}];
  if (change.added) {
    by_target[change.primary_key][change.reference.referenced.primary_key] = change.reference.attributes;
    return;
  }
  auto holders = by_target.find(change.primary_key);
  if (holders == by_target.end()) return;
  holders->second.erase(change.reference.referenced.primary_key);
  if (holders->second.empty()) by_target.erase(holders);
}

std::vector<Reference> ReflectedReferences::For(const std::string& type, int32_t pk,
                                                std::optional<Scope> faceted_in) const {
  std::vector<Reference> out;
  auto schema = schema_->entities.find(type);
  if (schema == schema_->entities.end()) return out;
  for (const auto& [reference_name, rs] : schema->second.references) {
    if (!rs.is_reflected()) continue;
    if (faceted_in && !InScope(rs.faceted_in_scopes, *faceted_in)) continue;
    auto by_name = links_.find({type, reference_name});
    if (by_name == links_.end()) continue;
    auto holders = by_name->second.find(pk);
    if (holders == by_name->second.end()) continue;
    for (const auto& [holder, attributes] : holders->second) {
      out.push_back({reference_name, {rs.referenced_entity_type, holder}, std::nullopt, attributes});
    }
  }
  return out;
}

void ReflectedReferences::Attach(Entity* entity) const {
  auto schema = schema_->entities.find(entity->type);
  if (schema == schema_->entities.end()) return;
  const EntitySchema& entity_schema = schema->second;
  std::erase_if(entity->references, [&](const Reference& r) {
    const ReferenceSchema* rs = entity_schema.FindReference(r.name);
    return rs != nullptr && rs->is_reflected();
  });
  for (Reference& r : For(entity->type, entity->primary_key)) entity->references.push_back(std::move(r));
}

namespace {

// Inherited attributes travel as the attributes of an otherwise empty sealed
// entity: the record encoding, so every value type round-trips.
void SaveAttributes(IndexWriter& out, const Attributes& attributes) {
  if (attributes.empty()) {
    out.Str("");
    return;
  }
  Entity carrier;
  carrier.attributes = attributes;
  pb::GrpcSealedEntity message;
  codec::EntityToProto(carrier, &message);
  std::string bytes;
  codec::SerializeDeterministic(message, &bytes);
  out.Str(bytes);
}

Attributes LoadAttributes(IndexReader& in) {
  const std::string bytes = in.Str();
  if (bytes.empty()) return {};
  pb::GrpcSealedEntity message;
  if (!message.ParseFromString(bytes)) return {};
  auto carrier = codec::EntityFromProto(message);
  return carrier.ok() ? carrier->attributes : Attributes{};
}

}  // namespace

void ReflectedReferences::Save(IndexWriter& out) const {
  out.U64(links_.size());
  for (const auto& [key, targets] : links_) {
    out.Str(key.first);
    out.Str(key.second);
    out.U64(targets.size());
    for (const auto& [pk, holders] : targets) {
      out.I64(pk);
      out.U64(holders.size());
      for (const auto& [holder, attributes] : holders) {
        out.I64(holder);
        SaveAttributes(out, attributes);
      }
    }
  }
}

void ReflectedReferences::Load(IndexReader& in) {
  links_.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    std::string type = in.Str();
    std::string name = in.Str();
    auto& targets = links_[{std::move(type), std::move(name)}];
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
      auto& holders = targets[static_cast<int32_t>(in.I64())];
      for (uint64_t h = in.U64(); h > 0 && in.status().ok(); --h) {
        const auto holder = static_cast<int32_t>(in.I64());
        holders[holder] = LoadAttributes(in);
      }
    }
  }
}

void CatalogIndexes::Save(IndexWriter& out) const {
  for (const auto& by_scope : global_unique) {
    out.U64(by_scope.size());
    for (const auto& [attribute, values] : by_scope) {
      out.Str(attribute);
      out.U64(values.size());
      for (const auto& [value, owner] : values) {
        out.Str(value);
        out.Str(owner.entity_type);
        out.I64(owner.primary_key);
      }
    }
  }
  reflected.Save(out);
}

void CatalogIndexes::Load(IndexReader& in) {
  for (auto& by_scope : global_unique) {
    by_scope.clear();
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      auto& values = by_scope[in.Str()];
      for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
        std::string value = in.Str();
        std::string type = in.Str();
        values[value] = EntityRef{std::move(type), static_cast<int32_t>(in.I64())};
      }
    }
  }
  reflected.Load(in);
}

}  // namespace warmup::engine
