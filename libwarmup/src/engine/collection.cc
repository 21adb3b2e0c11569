#include "engine/collection.h"

#include <algorithm>

#include "engine/storage_parts.h"

namespace warmup::engine {

Collection::Collection(Env* env, std::string records_path, const EntitySchema* schema,
                       RecordCompression compression)
    : env_(env), records_path_(std::move(records_path)), schema_(schema), compression_(compression) {}

Collection::~Collection() = default;

StatusOr<std::optional<Entity>> Collection::Replace(const Entity& e, uint64_t offset,
                                                    CatalogIndexes* catalog) {
  std::optional<Entity> old;
  auto existing = offsets_.find(e.primary_key);
  if (existing != offsets_.end()) {
    old.emplace();
    if (Status s = ReadEntity(existing->second, &*old); !s.ok()) return s;
    UpdateIndexes(*old, false, catalog);
  }
  offsets_[e.primary_key] = offset;
  UpdateIndexes(e, true, catalog);
  return old;
}

StatusOr<std::optional<Entity>> Collection::Store(const Entity& e, bool durable, CatalogIndexes* catalog) {
  auto existing = offsets_.find(e.primary_key);
  if (existing == offsets_.end() && pipeline_ != nullptr && !durable) {
    if (Status s = pipeline_->Write(this, e); !s.ok()) return s;
    ++unsettled_;
    offsets_.emplace(e.primary_key, kPendingOffset);
    UpdateIndexes(e, true, catalog);
    return std::optional<Entity>();
  }
  // From here the record file is this thread's: the pipeline is done with it.
  if (Status s = Settle(); !s.ok()) return s;
  std::optional<Entity> old;
  std::vector<PartLocation> old_parts;
  std::vector<std::string> old_records;
  if (existing != offsets_.end()) {
    old.emplace();
    if (Status s = ReadEntity(existing->second, &*old, &old_parts, &old_records); !s.ok()) return s;
    if (*old == e) return old;  // nothing changed: nothing to write or index, as in evitaDB
  }
  auto offset = AppendEntity(e, old_parts, old_records);
  if (!offset.ok()) return offset.status();
  if (durable) {
    if (Status s = writer_->Sync(); !s.ok()) return s;
  }
  if (old) UpdateIndexes(*old, false, catalog);
  offsets_[e.primary_key] = *offset;
  UpdateIndexes(e, true, catalog);
  return old;
}

StatusOr<uint64_t> Collection::AppendEntity(const Entity& e, const std::vector<PartLocation>& old_parts,
                                            const std::vector<std::string>& old_records) {
  // Only the parts that changed are written again; the body, last, names them all.
  std::vector<PartLocation> locations;
  for (StoragePart& part : SplitIntoParts(e)) {
    PartLocation location{part.kind, part.key, 0};
    bool unchanged = false;
    for (size_t i = 0; i < old_parts.size() && !unchanged; ++i) {
      if (old_parts[i].kind == part.kind && old_parts[i].key == part.key && old_records[i] == part.record) {
        location.offset = old_parts[i].offset;
        unchanged = true;
      }
    }
    if (!unchanged) {
      if (Status s = AppendRecord(part.record, false, &location.offset); !s.ok()) return s;
    }
    locations.push_back(std::move(location));
  }
  uint64_t offset = 0;
  if (Status s = AppendRecord(EncodeBody(e, locations), false, &offset); !s.ok()) return s;
  return offset;
}

StatusOr<uint64_t> Collection::WriteRecords(const Entity& entity) {
  auto offset = AppendEntity(entity, {}, {});
  if (!offset.ok()) {
    return offset.status().WithContext("writing the records of " + EntityLabel(entity) +
                                       " (accepted earlier: WARM_UP writes records in the background)");
  }
  return offset;
}

Status Collection::Settle() const {
  if (unsettled_ == 0) return OkStatus();
  RecordPipeline::Written written;
  const Status status = pipeline_->Settle(const_cast<Collection*>(this), &written);
  for (const auto& [pk, offset] : written) offsets_[pk] = offset;
  unsettled_ = 0;
  return status;
}

StatusOr<std::optional<Entity>> Collection::Restore(const Entity& e, uint64_t offset,
                                                    CatalogIndexes* catalog) {
  return Replace(e, offset, catalog);
}

StatusOr<Entity> Collection::Erase(int32_t pk, bool durable, CatalogIndexes* catalog) {
  if (Status s = Settle(); !s.ok()) return s;
  if (!offsets_.contains(pk)) {
    return NotFoundError(schema_->name + "/" + std::to_string(pk) + " is not stored");
  }
  if (Status s = AppendRemoval(pk, durable); !s.ok()) return s;
  auto old = Unstore(pk, catalog);
  if (!old.ok()) return old.status();
  return std::move(**old);
}

StatusOr<std::optional<Entity>> Collection::Unstore(int32_t pk, CatalogIndexes* catalog) {
  if (Status s = Settle(); !s.ok()) return s;
  auto existing = offsets_.find(pk);
  if (existing == offsets_.end()) return std::optional<Entity>();
  Entity old;
  if (Status s = ReadEntity(existing->second, &old); !s.ok()) return s;
  UpdateIndexes(old, false, catalog);
  offsets_.erase(pk);
  return std::optional<Entity>(std::move(old));
}

StatusOr<std::optional<Entity>> Collection::Get(int32_t pk) const {
  if (Status s = Settle(); !s.ok()) return s;
  auto it = offsets_.find(pk);
  if (it == offsets_.end()) return std::optional<Entity>();
  Entity entity;
  if (Status s = ReadEntity(it->second, &entity); !s.ok()) return s;
  return std::optional<Entity>(std::move(entity));
}

const EntityIndex* Collection::Index(const IndexScope& scope) const {
  if (scope.reference.empty()) return &global_[static_cast<int>(scope.scope)];
  const auto reference = keys_.Find(ReferenceKey(scope.reference));
  if (!reference) return nullptr;
  const bool type_index =
      scope.kind == IndexKind::kReferencedEntityType || scope.kind == IndexKind::kReferencedGroupEntityType;
  auto it =
      derived_.find(DerivedKey{scope.kind, scope.scope, *reference, type_index ? 0 : scope.referenced_pk});
  return it == derived_.end() ? nullptr : &it->second.index;
}

std::vector<int32_t> Collection::Children(int32_t parent, Scope scope) const {
  const Hierarchy& h = hierarchy_[static_cast<int>(scope)];
  auto it = h.children.find(parent);
  if (it == h.children.end()) return {};
  return std::vector<int32_t>(it->second.begin(), it->second.end());
}

std::vector<int32_t> Collection::HierarchyLevel(int level, Scope scope) const {
  if (level < 1) return {};
  std::vector<int32_t> current;
  for (const auto& [pk, parent] : hierarchy_[static_cast<int>(scope)].parent_of) {
    if (parent == -1) current.push_back(pk);
  }
  std::sort(current.begin(), current.end());
  for (int depth = 1; depth < level && !current.empty(); ++depth) {
    std::vector<int32_t> next;
    for (int32_t pk : current) {
      auto children = Children(pk, scope);
      next.insert(next.end(), children.begin(), children.end());
    }
    std::sort(next.begin(), next.end());
    current = std::move(next);
  }
  return current;
}

std::vector<int32_t> Collection::Orphans(Scope scope) const {
  const Hierarchy& h = hierarchy_[static_cast<int>(scope)];
  std::vector<int32_t> out;
  for (const auto& [pk, parent] : h.parent_of) {
    if (parent != -1 && !h.parent_of.contains(parent)) out.push_back(pk);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace warmup::engine
