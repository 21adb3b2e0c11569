#include "engine/catalog.h"

#include <cstdio>

#include "engine/catalog_files.h"
#include "engine/index_keys.h"

namespace warmup::engine {

CatalogImpl::CatalogImpl(Env* env, std::string dir, CatalogSchema schema, CatalogState state, bool compress)
    : env_(env), dir_(std::move(dir)), schema_(std::move(schema)), state_(state), indexes_(&schema_) {
  size_t index = 0;
  for (const auto& [type, entity_schema] : schema_.entities) {
    char prefix[8];
    std::snprintf(prefix, sizeof(prefix), "%03zu", index++);
    paths_[type] = dir_ + "/collections/" + prefix;
    collections_.emplace(
        type, std::make_unique<Collection>(env_, paths_[type] + ".records", &entity_schema, compress));
  }
}

Status CatalogImpl::Load() {
  std::map<std::string, uint64_t> replay_from;
  if (state_ == CatalogState::kAlive) {
    for (auto& [type, collection] : collections_) {
      std::map<int32_t, uint64_t> offsets;
      uint64_t valid_end = 0;
      const std::string offsets_path = paths_[type] + ".offsets";
      auto data = env_->ReadWholeFile(offsets_path);
      if (!data.ok()) return data.status();
      if (Status s = DecodeOffsets(*data, offsets_path, &valid_end, &offsets); !s.ok()) return s;
      auto* loaded = collection.get();  // a structured binding cannot be captured (C++20)
      if (Status s = ReadIndexFile(env_, paths_[type] + ".index",
                                   [&](IndexReader& in) { loaded->LoadSnapshot(std::move(offsets), in); });
          !s.ok()) {
        return s;
      }
      replay_from[type] = valid_end;
    }
    if (Status s =
            ReadIndexFile(env_, dir_ + "/" + kCatalogIndexFile, [&](IndexReader& in) { indexes_.Load(in); });
        !s.ok()) {
      return s;
    }
  }
  for (auto& [type, collection] : collections_) {
    if (Status s = collection->Replay(replay_from[type], &indexes_); !s.ok()) return s;
  }
  return OkStatus();
}

Status CatalogImpl::OpenForAppend() {
  for (auto& [type, collection] : collections_) {
    if (Status s = collection->OpenForAppend(); !s.ok()) return s;
  }
  return OkStatus();
}

Status CatalogImpl::Upsert(const Entity& entity) {
  auto it = collections_.find(entity.type);
  if (it == collections_.end()) {
    return InvalidArgumentError("entity " + EntityLabel(entity) + ": catalog " + schema_.name +
                                " has no entity type " + entity.type);
  }
  Collection& collection = *it->second;
  if (Status s = collection.Validate(entity, indexes_); !s.ok()) return s;
  return collection.Apply(entity, state_ == CatalogState::kAlive, &indexes_);
}

StatusOr<int64_t> CatalogImpl::Count(const std::string& entity_type) const {
  auto c = Find(entity_type);
  if (!c.ok()) return c.status();
  return (*c)->count();
}

StatusOr<std::vector<int32_t>> CatalogImpl::PrimaryKeys(const std::string& entity_type) const {
  auto c = Find(entity_type);
  if (!c.ok()) return c.status();
  std::vector<int32_t> keys;
  keys.reserve((*c)->offsets().size());
  for (const auto& [pk, offset] : (*c)->offsets()) keys.push_back(pk);
  return keys;
}

Status CatalogImpl::GoLive() {
  if (state_ == CatalogState::kAlive) {
    return FailedPreconditionError("catalog " + schema_.name + " is already ALIVE");
  }
  // Everything durable first; the header switch comes last, so a failure or a
  // crash anywhere before it leaves a catalog that reopens as WARM_UP.
  if (Status s = WriteGoLiveFiles(); !s.ok()) return s.WithContext("goLive of " + schema_.name);
  state_ = CatalogState::kAlive;
  return OkStatus();
}

Status CatalogImpl::WriteGoLiveFiles() {
  for (auto& [type, collection] : collections_) {
    if (Status s = collection->writer()->Sync(); !s.ok()) return s;
    const std::string offsets = EncodeOffsets(collection->writer()->size(), collection->offsets());
    if (Status s = env_->WriteFileAtomically(paths_[type] + ".offsets", offsets); !s.ok()) return s;
    const Collection* c = collection.get();  // (clang before 16 cannot capture a structured binding)
    if (Status s =
            WriteIndexFile(env_, paths_[type] + ".index", [&](IndexWriter& out) { c->SaveSnapshot(out); });
        !s.ok()) {
      return s;
    }
  }
  if (Status s =
          WriteIndexFile(env_, dir_ + "/" + kCatalogIndexFile, [&](IndexWriter& out) { indexes_.Save(out); });
      !s.ok()) {
    return s;
  }
  if (Status s = env_->SyncDirectory(dir_ + "/collections"); !s.ok()) return s;
  return env_->WriteFileAtomically(dir_ + "/" + kHeaderFile, HeaderText(schema_.name, CatalogState::kAlive));
}

StatusOr<std::optional<Entity>> CatalogImpl::Get(const std::string& entity_type, int32_t pk) const {
  auto c = Find(entity_type);
  if (!c.ok()) return c.status();
  auto entity = (*c)->Get(pk);
  if (entity.ok() && entity->has_value()) indexes_.reflected.Attach(&**entity);
  return entity;
}

StatusOr<std::vector<int32_t>> CatalogImpl::FilterEquals(const std::string& entity_type,
                                                         const std::string& attribute,
                                                         const std::string& locale, const Value& value,
                                                         const IndexScope& scope) const {
  auto index = IndexFor(entity_type, scope);
  if (!index.ok()) return index.status();
  if (*index == nullptr) return std::vector<int32_t>{};
  if (value.is_array()) return InvalidArgumentError("filter by one value, not an array");
  const Collection& c = **Find(entity_type);
  auto a = c.schema().attributes.find(attribute);
  const int places = a == c.schema().attributes.end() ? 0 : a->second.indexed_decimal_places;
  const auto id = c.KeyId(AttributeKey(attribute, locale));
  if (!id) return std::vector<int32_t>{};
  return (*index)->FilterEquals(*id, ScalarKey(value.scalar(), value.type(), places));
}

StatusOr<std::vector<int32_t>> CatalogImpl::SortBy(const std::string& entity_type,
                                                   const std::string& attribute, const std::string& locale,
                                                   OrderDirection direction, const IndexScope& scope) const {
  auto index = IndexFor(entity_type, scope);
  if (!index.ok()) return index.status();
  if (*index == nullptr) return std::vector<int32_t>{};
  const auto id = (*Find(entity_type))->KeyId(AttributeKey(attribute, locale));
  if (!id) return std::vector<int32_t>{};
  return (*index)->SortedBy(*id, direction == OrderDirection::kDesc);
}

StatusOr<std::vector<int32_t>> CatalogImpl::PriceBetween(const std::string& entity_type,
                                                         const std::string& price_list,
                                                         const Currency& currency, const BigDecimal& from,
                                                         const BigDecimal& to,
                                                         const IndexScope& scope) const {
  auto index = IndexFor(entity_type, scope);
  if (!index.ok()) return index.status();
  if (*index == nullptr) return std::vector<int32_t>{};
  const Collection& c = **Find(entity_type);
  const int places = c.schema().indexed_price_places;
  const auto id = c.KeyId(PriceKey(price_list, currency.code()));
  if (!id) return std::vector<int32_t>{};
  return (*index)->PriceBetween(*id, ScaleDecimal(from, places), ScaleDecimal(to, places));
}

StatusOr<std::vector<int32_t>> CatalogImpl::Members(const std::string& entity_type,
                                                    const IndexScope& scope) const {
  auto index = IndexFor(entity_type, scope);
  if (!index.ok()) return index.status();
  if (*index == nullptr) return std::vector<int32_t>{};
  return ToVector((*index)->all());
}

StatusOr<std::vector<int32_t>> CatalogImpl::FacetMembers(const std::string& entity_type,
                                                         const std::string& reference, int32_t referenced_pk,
                                                         const IndexScope& scope) const {
  auto index = IndexFor(entity_type, scope);
  if (!index.ok()) return index.status();
  if (*index == nullptr) return std::vector<int32_t>{};
  const auto id = (*Find(entity_type))->KeyId(ReferenceKey(reference));
  if (!id) return std::vector<int32_t>{};
  return (*index)->FacetMembers(*id, referenced_pk);
}

StatusOr<std::vector<int32_t>> CatalogImpl::Children(const std::string& entity_type,
                                                     int32_t parent_pk) const {
  auto c = Find(entity_type);
  if (!c.ok()) return c.status();
  return (*c)->Children(parent_pk);
}

StatusOr<Collection*> CatalogImpl::Find(const std::string& type) const {
  auto it = collections_.find(type);
  if (it == collections_.end()) {
    return NotFoundError("catalog " + schema_.name + " has no entity type " + type);
  }
  return it->second.get();
}

StatusOr<const EntityIndex*> CatalogImpl::IndexFor(const std::string& type, const IndexScope& scope) const {
  auto c = Find(type);
  if (!c.ok()) return c.status();
  if (!scope.reference.empty() && (*c)->schema().FindReference(scope.reference) == nullptr) {
    return InvalidArgumentError(type + " has no reference '" + scope.reference + "'");
  }
  return (*c)->Index(scope);
}

}  // namespace warmup::engine
