#include "engine/catalog.h"

#include <algorithm>
#include <cstdio>

#include "engine/catalog_files.h"
#include "engine/index_keys.h"
#include "engine/price_for_sale.h"

namespace warmup::engine {

CatalogImpl::CatalogImpl(Env* env, std::string dir, CatalogSchema schema, CatalogState state,
                         const EngineOptions& options)
    : env_(env),
      dir_(std::move(dir)),
      schema_(std::move(schema)),
      state_(state),
      background_records_(options.background_records),
      indexes_(&schema_) {
  size_t index = 0;
  for (const auto& [type, entity_schema] : schema_.entities) {
    char prefix[8];
    std::snprintf(prefix, sizeof(prefix), "%03zu", index++);
    paths_[type] = dir_ + "/collections/" + prefix;
    collections_.emplace(type, std::make_unique<Collection>(env_, paths_[type] + ".records", &entity_schema,
                                                            options.compression));
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
    Collection* c = collection.get();
    auto restore = [&](Entity&& entity, uint64_t offset) -> Status {
      auto before = c->Restore(entity, offset, &indexes_);
      if (!before.ok()) return before.status();
      return ApplyReflections(*before, &entity);
    };
    auto removed = [&](int32_t pk) -> Status {
      auto before = c->Unstore(pk, &indexes_);
      if (!before.ok()) return before.status();
      return ApplyReflections(*before, nullptr);
    };
    if (Status s = c->Replay(replay_from[type], restore, removed); !s.ok()) return s;
  }
  return OkStatus();
}

Status CatalogImpl::ApplyReflections(const std::optional<Entity>& before, const Entity* after) {
  // Removals run while the link is still held (the target's indexes are
  // computed with it), additions after it is recorded.
  for (const ReflectedChange& change : indexes_.reflected.Diff(before ? &*before : nullptr, after)) {
    auto target = collections_.find(change.entity_type);
    if (!change.added) {
      if (target != collections_.end()) {
        if (Status s = target->second->ApplyReflected(change.primary_key, change.reference, false, &indexes_);
            !s.ok()) {
          return s;
        }
      }
      indexes_.reflected.Apply(change);
      continue;
    }
    indexes_.reflected.Apply(change);
    if (target != collections_.end()) {
      if (Status s = target->second->ApplyReflected(change.primary_key, change.reference, true, &indexes_);
          !s.ok()) {
        return s;
      }
    }
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
  // evitaDB's implicit attribute mutations; the copy only when one is due.
  std::optional<Entity> with_defaults;
  if (LacksDefaultValues(collection.schema(), entity)) {
    with_defaults = entity;
    ApplyDefaultValues(collection.schema(), *with_defaults);
  }
  const Entity& stored = with_defaults ? *with_defaults : entity;
  if (Status s = collection.Validate(stored, indexes_); !s.ok()) return s;
  if (pipeline_ == nullptr && background_records_ && state_ == CatalogState::kWarmingUp) {
    pipeline_ = std::make_unique<RecordPipeline>();
    for (auto& [type, c] : collections_) c->WriteInBackground(pipeline_.get());
  }
  auto before = collection.Store(stored, state_ == CatalogState::kAlive, &indexes_);
  if (!before.ok()) return before.status();
  return ApplyReflections(*before, &stored);
}

Status CatalogImpl::Remove(const std::string& entity_type, int32_t pk) {
  auto c = Find(entity_type);
  if (!c.ok()) return c.status();
  auto removed = (*c)->Erase(pk, state_ == CatalogState::kAlive, &indexes_);
  if (!removed.ok()) return removed.status();
  return ApplyReflections(std::optional<Entity>(std::move(removed).value()), nullptr);
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

Status CatalogImpl::SettleRecords(bool stop) {
  if (pipeline_ == nullptr) return OkStatus();
  for (auto& [type, collection] : collections_) {
    if (Status s = collection->Settle(); !s.ok())
      return s.WithContext("writing " + paths_[type] + ".records");
  }
  if (stop) {
    for (auto& [type, collection] : collections_) collection->WriteInBackground(nullptr);
    pipeline_.reset();
  }
  return OkStatus();
}

Status CatalogImpl::Flush() {
  if (Status s = SettleRecords(/*stop=*/false); !s.ok()) return s;
  for (auto& [type, collection] : collections_) {
    if (collection->writer() == nullptr) continue;
    if (Status s = collection->writer()->Flush(); !s.ok()) return s.WithContext("flushing " + paths_[type]);
  }
  return OkStatus();
}

Status CatalogImpl::GoLive() {
  if (state_ == CatalogState::kAlive) {
    return FailedPreconditionError("catalog " + schema_.name + " is already ALIVE");
  }
  // Everything durable first; the header switch comes last, so a failure or a
  // crash anywhere before it leaves a catalog that reopens as WARM_UP.
  if (Status s = SettleRecords(/*stop=*/true); !s.ok()) return s.WithContext("goLive of " + schema_.name);
  for (auto& [type, collection] : collections_) collection->DropReflectionTargets();
  if (Status s = WriteGoLiveFiles(); !s.ok()) return s.WithContext("goLive of " + schema_.name);
  state_ = CatalogState::kAlive;
  return OkStatus();
}

Status CatalogImpl::WriteGoLiveFiles() {
  std::vector<CollectionIndexStatistics> statistics;
  for (auto& [type, collection] : collections_) {
    if (Status s = collection->writer()->Sync(); !s.ok()) return s;
    const std::string offsets = EncodeOffsets(collection->writer()->size(), collection->offsets());
    if (Status s = env_->WriteFileAtomically(paths_[type] + ".offsets", offsets); !s.ok()) return s;
    const Collection* c = collection.get();  // (clang before 16 cannot capture a structured binding)
    CollectionIndexStatistics* stats = &statistics.emplace_back();
    if (Status s = WriteIndexFile(env_, paths_[type] + ".index",
                                  [&](IndexWriter& out) { c->SaveSnapshot(out, stats); });
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
  if (Status s =
          env_->WriteFileAtomically(dir_ + "/" + kHeaderFile, HeaderText(schema_.name, CatalogState::kAlive));
      !s.ok()) {
    return s;
  }
  statistics_ = std::move(statistics);
  return OkStatus();
}

StatusOr<std::optional<Entity>> CatalogImpl::Get(const std::string& entity_type, int32_t pk) const {
  auto c = Find(entity_type);
  if (!c.ok()) return c.status();
  auto entity = (*c)->Get(pk);
  if (entity.ok() && entity->has_value()) indexes_.reflected.Attach(&**entity);
  return entity;
}

namespace {

const AttributeSchema* FindAttribute(const std::map<std::string, AttributeSchema>& attributes,
                                     const std::string& name) {
  auto it = attributes.find(name);
  return it == attributes.end() ? nullptr : &it->second;
}

// The order key of a read's value, as the index keyed it.
std::string ValueKey(const Scalar& item, ValueType type, const AttributeSchema* schema) {
  return ScalarKey(item, ElementType(type), schema == nullptr ? 0 : schema->indexed_decimal_places);
}

}  // namespace

StatusOr<CatalogImpl::AttributeTarget> CatalogImpl::ResolveAttribute(const Collection& c,
                                                                     const std::string& attribute,
                                                                     const std::string& locale,
                                                                     const IndexScope& scope) const {
  const EntitySchema& schema = c.schema();
  const bool of_reference = scope.reference_attributes || scope.kind == IndexKind::kReferencedEntityType ||
                            scope.kind == IndexKind::kReferencedGroupEntityType;
  AttributeTarget target;
  if (of_reference && !scope.reference.empty()) {
    const ReferenceSchema* rs = schema.FindReference(scope.reference);
    if (rs->sortable_attribute_compounds.contains(attribute)) {
      target.id = c.KeyId(CompoundKey(scope.reference + "." + attribute, locale));
      return target;
    }
    target.schema = FindAttribute(rs->attributes, attribute);
    if (target.schema == nullptr) {
      return InvalidArgumentError(schema.name + "." + scope.reference + " has no attribute '" + attribute +
                                  "'");
    }
    target.id = c.KeyId(ReferenceAttributeKey(scope.reference, attribute, locale));
    return target;
  }
  if (schema.sortable_attribute_compounds.contains(attribute)) {
    target.id = c.KeyId(CompoundKey(attribute, locale));
    return target;
  }
  target.schema = FindAttribute(schema.attributes, attribute);
  if (target.schema == nullptr) {
    return InvalidArgumentError(schema.name + " has no attribute '" + attribute + "'");
  }
  target.id = c.KeyId(AttributeKey(attribute, locale));
  return target;
}

StatusOr<std::vector<int32_t>> CatalogImpl::FilterEquals(const std::string& entity_type,
                                                         const std::string& attribute,
                                                         const std::string& locale, const Value& value,
                                                         const IndexScope& scope) const {
  if (value.is_array()) return InvalidArgumentError("filter by one value, not an array");
  return FilterRange(entity_type, attribute, locale, Bound{value, true}, Bound{value, true}, scope);
}

StatusOr<std::vector<int32_t>> CatalogImpl::FilterRange(
    const std::string& entity_type, const std::string& attribute, const std::string& locale,
    const std::optional<Bound>& from, const std::optional<Bound>& to, const IndexScope& scope) const {
  auto index = IndexFor(entity_type, scope);
  if (!index.ok()) return index.status();
  auto target = ResolveAttribute(**Find(entity_type), attribute, locale, scope);
  if (!target.ok()) return target.status();
  if ((from && from->value.is_array()) || (to && to->value.is_array())) {
    return InvalidArgumentError("compare with one value, not an array");
  }
  if (*index == nullptr || !target->id) return std::vector<int32_t>{};
  auto key = [&](const std::optional<Bound>& b) -> std::optional<std::string> {
    if (!b) return std::nullopt;
    return ValueKey(b->value.scalar(), b->value.type(), target->schema);
  };
  return (*index)->FilterRange(*target->id, key(from), !from || from->inclusive, key(to),
                               !to || to->inclusive);
}

StatusOr<std::vector<int32_t>> CatalogImpl::FilterInRange(const std::string& entity_type,
                                                          const std::string& attribute, const Value& point,
                                                          const IndexScope& scope) const {
  auto index = IndexFor(entity_type, scope);
  if (!index.ok()) return index.status();
  auto target = ResolveAttribute(**Find(entity_type), attribute, "", scope);
  if (!target.ok()) return target.status();
  if (target->schema == nullptr || !IsRangeType(ElementType(target->schema->type))) {
    return InvalidArgumentError("attribute '" + attribute + "' is not of a range type");
  }
  if (*index == nullptr || !target->id) return std::vector<int32_t>{};
  return (*index)->RangeContains(*target->id, ValueKey(point.scalar(), point.type(), target->schema));
}

StatusOr<std::optional<int32_t>> CatalogImpl::UniqueOwner(const std::string& entity_type,
                                                          const std::string& attribute,
                                                          const std::string& locale, const Value& value,
                                                          const IndexScope& scope) const {
  auto c = Find(entity_type);
  if (!c.ok()) return c.status();
  auto target = ResolveAttribute(**c, attribute, locale, scope);
  if (!target.ok()) return target.status();
  if (target->schema == nullptr) return InvalidArgumentError("'" + attribute + "' is a compound");
  // A folded unique value is its filter posting (IndexEntries::unique): the
  // index answers for any filterable attribute, so the schema decides here.
  if (target->schema->UniquenessIn(scope.scope) == AttributeUniqueness::kNotUnique) {
    return InvalidArgumentError("attribute '" + attribute + "' is not unique in scope " +
                                (scope.scope == Scope::kLive ? "LIVE" : "ARCHIVED"));
  }
  const std::string key = ValueKey(value.scalar(), value.type(), target->schema);
  if (scope.reference.empty()) {
    // The collection's unique index of the scope (per locale where the schema says so).
    return (*c)->UniqueOwner(scope.scope, AttributeKey(attribute, locale), key);
  }
  auto index = IndexFor(entity_type, scope);
  if (!index.ok()) return index.status();
  if (*index == nullptr || !target->id) return std::optional<int32_t>();
  return (*index)->UniqueOwner(*target->id, key);
}

StatusOr<std::vector<int32_t>> CatalogImpl::SortBy(const std::string& entity_type,
                                                   const std::string& attribute, const std::string& locale,
                                                   OrderDirection direction, const IndexScope& scope) const {
  auto index = IndexFor(entity_type, scope);
  if (!index.ok()) return index.status();
  auto target = ResolveAttribute(**Find(entity_type), attribute, locale, scope);
  if (!target.ok()) return target.status();
  if (*index == nullptr || !target->id) return std::vector<int32_t>{};
  const bool descending = direction == OrderDirection::kDesc;
  if (target->schema != nullptr && (target->schema->type == ValueType::kPredecessor ||
                                    target->schema->type == ValueType::kReferencedEntityPredecessor)) {
    std::vector<int32_t> order = (*index)->ChainOrder(*target->id);
    if (descending) std::reverse(order.begin(), order.end());
    return order;
  }
  return (*index)->SortedBy(*target->id, descending);
}

StatusOr<std::vector<PriceForSale>> CatalogImpl::PricesForSale(const std::string& entity_type,
                                                               const PriceQuery& query,
                                                               const IndexScope& scope) const {
  auto index = IndexFor(entity_type, scope);
  if (!index.ok()) return index.status();
  if (*index == nullptr) return std::vector<PriceForSale>{};
  const Collection& c = **Find(entity_type);
  const int places = c.schema().indexed_price_places;
  IndexScope global_scope;
  global_scope.scope = scope.scope;
  const EntityIndex* global = c.Index(global_scope);
  std::vector<PriceListIndexes> lists;
  for (auto handling : {PriceInnerRecordHandling::kNone, PriceInnerRecordHandling::kLowestPrice,
                        PriceInnerRecordHandling::kSum}) {
    PriceListIndexes& by_handling = lists.emplace_back();
    by_handling.handling = handling;
    for (const std::string& list : query.price_lists) {
      const auto id = c.KeyId(PriceKey(list, query.currency.code(), handling));
      by_handling.by_priority.push_back(id ? (*index)->Prices(*id) : nullptr);
      by_handling.records.push_back(id ? global->Prices(*id) : nullptr);
    }
  }
  auto scaled = [&](const std::optional<BigDecimal>& d) {
    return d ? std::optional<int64_t>(ScaleDecimal(*d, places)) : std::nullopt;
  };
  return SelectPricesForSale(lists, query, scaled(query.from), scaled(query.to), places);
}

StatusOr<std::vector<int32_t>> CatalogImpl::PriceBetween(const std::string& entity_type,
                                                         const std::string& price_list,
                                                         const Currency& currency, const BigDecimal& from,
                                                         const BigDecimal& to,
                                                         const IndexScope& scope) const {
  PriceQuery query;
  query.price_lists = {price_list};
  query.currency = currency;
  query.from = from;
  query.to = to;
  auto prices = PricesForSale(entity_type, query, scope);
  if (!prices.ok()) return prices.status();
  std::vector<int32_t> out;
  out.reserve(prices->size());
  for (const PriceForSale& p : *prices) out.push_back(p.primary_key);
  return out;
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
  auto keyed = KeyedIndex(entity_type, scope, ReferenceKey(reference));
  if (!keyed.ok()) return keyed.status();
  const auto [index, id] = *keyed;
  if (index == nullptr || !id) return std::vector<int32_t>{};
  return index->FacetMembers(*id, referenced_pk);
}

StatusOr<std::vector<int32_t>> CatalogImpl::WithLocale(const std::string& entity_type,
                                                       const std::string& locale,
                                                       const IndexScope& scope) const {
  auto keyed = KeyedIndex(entity_type, scope, LocaleKey(locale));
  if (!keyed.ok()) return keyed.status();
  const auto [index, id] = *keyed;
  if (index == nullptr || !id) return std::vector<int32_t>{};
  return index->WithLocale(*id);
}

StatusOr<std::vector<int32_t>> CatalogImpl::FacetGroupMembers(const std::string& entity_type,
                                                              const std::string& reference, int32_t group_pk,
                                                              const IndexScope& scope) const {
  auto keyed = KeyedIndex(entity_type, scope, ReferenceKey(reference));
  if (!keyed.ok()) return keyed.status();
  const auto [index, id] = *keyed;
  if (index == nullptr || !id) return std::vector<int32_t>{};
  return index->FacetGroupMembers(*id, group_pk);
}

StatusOr<std::vector<int32_t>> CatalogImpl::HierarchyLevel(const std::string& entity_type, int level,
                                                           Scope scope) const {
  auto c = Find(entity_type);
  if (!c.ok()) return c.status();
  return (*c)->HierarchyLevel(level, scope);
}

StatusOr<std::vector<int32_t>> CatalogImpl::Orphans(const std::string& entity_type, Scope scope) const {
  auto c = Find(entity_type);
  if (!c.ok()) return c.status();
  return (*c)->Orphans(scope);
}

StatusOr<std::vector<int32_t>> CatalogImpl::Children(const std::string& entity_type, int32_t parent_pk,
                                                     Scope scope) const {
  auto c = Find(entity_type);
  if (!c.ok()) return c.status();
  return (*c)->Children(parent_pk, scope);
}

StatusOr<Collection*> CatalogImpl::Find(const std::string& type) const {
  auto it = collections_.find(type);
  if (it == collections_.end()) {
    return NotFoundError("catalog " + schema_.name + " has no entity type " + type);
  }
  return it->second.get();
}

StatusOr<std::pair<const EntityIndex*, std::optional<uint32_t>>> CatalogImpl::KeyedIndex(
    const std::string& type, const IndexScope& scope, const std::string& key) const {
  auto index = IndexFor(type, scope);
  if (!index.ok()) return index.status();
  return std::pair(*index, (*Find(type))->KeyId(key));
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
