#include "engine/collection.h"

#include <algorithm>
#include <deque>

#include "engine/storage_parts.h"

namespace warmup::engine {
namespace {

// A removal record: its kind byte and the primary key.
constexpr char kRemovalMark = static_cast<char>(PartKind::kRemoval);

std::string RemovalRecord(int32_t pk) {
  std::string out(1, kRemovalMark);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(static_cast<uint32_t>(pk) >> (8 * i)));
  return out;
}

bool InScope(const std::vector<Scope>& scopes, Scope scope) {
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

// The components a reference indexes in `scope`: the referenced entity unless
// the schema says otherwise.
std::vector<ReferenceIndexedComponent> Components(const ReferenceSchema& rs, Scope scope) {
  for (const auto& c : rs.indexed_components) {
    if (c.scope == scope && !c.value.empty()) return c.value;
  }
  return {ReferenceIndexedComponent::kReferencedEntity};
}

bool Has(const std::vector<ReferenceIndexedComponent>& components, ReferenceIndexedComponent c) {
  return std::find(components.begin(), components.end(), c) != components.end();
}

void AppendU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

}  // namespace

Collection::Collection(Env* env, std::string records_path, const EntitySchema* schema,
                       RecordCompression compression)
    : env_(env), records_path_(std::move(records_path)), schema_(schema), compression_(compression) {}

Collection::~Collection() = default;

Status Collection::OpenForAppend() {
  auto writer = RecordWriter::Open(env_, records_path_, compression_);
  if (!writer.ok()) return writer.status();
  writer_ = std::move(writer).value();
  return OkStatus();
}

Status Collection::ReadEntity(uint64_t offset, Entity* entity, std::vector<PartLocation>* parts,
                              std::vector<std::string>* records) const {
  if (writer_) {
    if (Status s = writer_->Flush(); !s.ok()) return s;
  }
  if (!reader_ || offset >= reader_size_) {
    auto reader = env_->OpenRead(records_path_);
    if (!reader.ok()) return reader.status();
    reader_ = std::move(reader).value();
    reader_size_ = reader_->Size();
  }
  return ReadStored(*reader_, offset, entity, parts, records);
}

Status Collection::ReadStored(const ReadFile& file, uint64_t offset, Entity* entity,
                              std::vector<PartLocation>* parts, std::vector<std::string>* records) const {
  const std::string where = records_path_ + ": offset " + std::to_string(offset);
  std::string payload;
  if (Status s = ReadRecord(file, records_path_, offset, &payload); !s.ok()) return s;
  std::vector<PartLocation> locations;
  if (Status s = DecodeBody(payload, where, entity, &locations); !s.ok()) return s;
  if (records != nullptr) records->clear();
  for (const PartLocation& part : locations) {
    if (Status s = ReadRecord(file, records_path_, part.offset, &payload); !s.ok()) return s;
    if (Status s = MergePart(payload, records_path_ + ": offset " + std::to_string(part.offset), entity);
        !s.ok()) {
      return s;
    }
    if (records != nullptr) records->push_back(payload);
  }
  if (parts != nullptr) *parts = std::move(locations);
  return OkStatus();
}

Status Collection::Replay(uint64_t from, const std::function<Status(Entity&&, uint64_t)>& visit,
                          const std::function<Status(int32_t)>& removed) {
  if (env_->Exists(records_path_)) {
    auto reader = env_->OpenRead(records_path_);
    if (!reader.ok()) return reader.status();
    auto end = ScanRecords(**reader, from, [&](uint64_t offset, std::string_view payload) -> Status {
      const std::string where = records_path_ + ": offset " + std::to_string(offset);
      if (!payload.empty() && payload[0] == kRemovalMark) {
        if (payload.size() != 5) return DataLossError(where + ": removal record of the wrong size");
        uint32_t pk = 0;
        for (int i = 0; i < 4; ++i) {
          pk |= static_cast<uint32_t>(static_cast<uint8_t>(payload[1 + i])) << (8 * i);
        }
        return removed(static_cast<int32_t>(pk));
      }
      // Parts are read through the body that names them; a part whose body
      // never made it (a torn tail) belongs to no entity.
      if (payload.empty() || static_cast<PartKind>(payload[0]) != PartKind::kBody) return OkStatus();
      Entity entity;
      if (Status s = ReadStored(**reader, offset, &entity, nullptr, nullptr); !s.ok()) return s;
      return visit(std::move(entity), offset);
    });
    if (!end.ok()) return end.status();
  }
  return OpenForAppend();
}

void Collection::SaveSnapshot(IndexWriter& out, CollectionIndexStatistics* statistics) const {
  IndexKindStatistics kinds[kIndexKinds];
  for (int k = 0; k < kIndexKinds; ++k) kinds[k].kind = static_cast<IndexKind>(k);
  auto count = [&](IndexKind kind, const EntityIndex& index, uint64_t bytes) {
    IndexKindStatistics& s = kinds[static_cast<int>(kind)];
    const IndexCounts c = index.Counts();
    ++s.indexes;
    s.entities += static_cast<int64_t>(c.entities);
    s.entries += static_cast<int64_t>(c.entries);
    s.bytes += static_cast<int64_t>(bytes);
  };
  keys_.Save(out);
  for (const auto& index : global_) {
    const uint64_t start = out.written();
    index.Save(out);
    if (!index.all().isEmpty()) count(IndexKind::kGlobal, index, out.written() - start);
  }
  out.U64(derived_.size());
  for (const auto& [key, derived] : derived_) {
    const uint64_t start = out.written();
    out.U64(static_cast<uint64_t>(key.kind));
    out.U64(static_cast<uint64_t>(key.scope));
    out.U64(key.reference);
    out.I64(key.pk);
    out.U64(derived.members.size());
    for (const auto& [pk, n] : derived.members) {
      out.I64(pk);
      out.I64(n);
    }
    out.U64(derived.postings.size());
    for (const auto& [posting, n] : derived.postings) {
      out.Str(posting);
      out.I64(n);
    }
    derived.index.Save(out);
    count(key.kind, derived.index, out.written() - start);
  }
  for (const auto& by_scope : unique_) {
    out.U64(by_scope.size());
    for (const auto& [attribute, values] : by_scope) {
      out.Str(attribute);
      out.U64(values.size());
      for (const auto& [value, pk] : values) {
        out.Str(value);
        out.I64(pk);
      }
    }
  }
  for (const Hierarchy& h : hierarchy_) {
    out.U64(h.parent_of.size());
    for (const auto& [pk, parent] : h.parent_of) {
      out.I64(pk);
      out.I64(parent);
    }
  }
  out.U64(first_price_id_.size());
  for (const auto& [pk, first] : first_price_id_) {
    out.I64(pk);
    out.I64(first);
  }
  out.I64(next_price_id_);
  if (statistics != nullptr) {
    statistics->entity_type = schema_->name;
    statistics->kinds.clear();
    for (const auto& k : kinds) {
      if (k.indexes > 0) statistics->kinds.push_back(k);
    }
  }
}

void Collection::LoadSnapshot(std::map<int32_t, uint64_t> offsets, IndexReader& in) {
  offsets_ = std::move(offsets);
  keys_.Load(in);
  for (auto& index : global_) index.Load(in);
  derived_.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    DerivedKey key{};
    key.kind = static_cast<IndexKind>(in.U64());
    key.scope = static_cast<Scope>(in.U64());
    key.reference = static_cast<uint32_t>(in.U64());
    key.pk = static_cast<int32_t>(in.I64());
    DerivedIndex& derived = derived_[key];
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
      const auto pk = static_cast<int32_t>(in.I64());
      derived.members[pk] = static_cast<int32_t>(in.I64());
    }
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
      std::string posting = in.Str();
      derived.postings[std::move(posting)] = static_cast<int32_t>(in.I64());
    }
    derived.index.Load(in);
  }
  for (auto& by_scope : unique_) {
    by_scope.clear();
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      auto& values = by_scope[in.Str()];
      for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
        std::string value = in.Str();
        values[value] = static_cast<int32_t>(in.I64());
      }
    }
  }
  for (Hierarchy& h : hierarchy_) {
    h = Hierarchy();
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      const auto pk = static_cast<int32_t>(in.I64());
      const auto parent = static_cast<int32_t>(in.I64());
      h.parent_of[pk] = parent;
      if (parent != -1) h.children[parent].insert(pk);
    }
  }
  first_price_id_.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    const auto pk = static_cast<int32_t>(in.I64());
    first_price_id_[pk] = static_cast<int32_t>(in.I64());
  }
  next_price_id_ = static_cast<int32_t>(in.I64());
}

std::vector<Reference> Collection::EffectiveReferences(const Entity& e, const CatalogIndexes& catalog) const {
  std::vector<Reference> out;
  out.reserve(e.references.size());
  for (const Reference& r : e.references) {
    const ReferenceSchema* rs = schema_->FindReference(r.name);
    if (rs == nullptr || !rs->is_reflected()) out.push_back(r);
  }
  for (Reference& r : catalog.reflected.For(e.type, e.primary_key)) out.push_back(std::move(r));
  return out;
}

Collection::EntityEntries Collection::ComputeEntries(const Entity& e,
                                                     const std::vector<Reference>& references,
                                                     int32_t first_price) {
  EntityEntries out;
  out.full = ComputeEntityEntries(e, references, *schema_, first_price, collation_, keys_);
  out.filtering.locales = out.full.locales;
  out.filtering.facets = out.full.facets;
  return out;
}

void Collection::UpdateCounted(DerivedIndex& index, int32_t record, const IndexEntries& entries, bool add) {
  IndexEntries delta;
  // True when this reference is the first to bring the posting (or the last to take it away).
  auto crosses = [&](char type, uint32_t attribute, std::string_view key) {
    std::string posting(1, type);
    AppendU32(&posting, attribute);
    AppendU32(&posting, static_cast<uint32_t>(record));
    posting.append(key);
    if (add) return ++index.postings[posting] == 1;
    auto it = index.postings.find(posting);
    if (it == index.postings.end()) return false;
    if (--it->second > 0) return false;
    index.postings.erase(it);
    return true;
  };
  for (const auto& f : entries.filter) {
    if (crosses('f', f.first, f.second)) delta.filter.push_back(f);
  }
  for (const auto& r : entries.ranges) {
    if (crosses('r', r.attribute, r.from + '\0' + r.to)) delta.ranges.push_back(r);
  }
  for (const auto& s : entries.sort) {
    if (crosses('s', s.first, s.second)) delta.sort.push_back(s);
  }
  for (const auto& c : entries.chains) {
    if (crosses('c', c.first, std::to_string(c.second))) delta.chains.push_back(c);
  }
  for (const auto& u : entries.unique) {
    if (crosses('u', u.first, u.second)) delta.unique.push_back(u);
  }
  if (delta.empty()) return;
  if (add) {
    index.index.Add(record, delta);
  } else {
    index.index.Remove(record, delta);
  }
}

void Collection::UpdateMember(const DerivedKey& key, int32_t pk, const IndexEntries& data,
                              const IndexEntries& per_reference, bool add) {
  if (add) {
    DerivedIndex& d = derived_[key];
    if (++d.members[pk] == 1) {
      d.index.AddMember(pk);
      d.index.Add(pk, data);
    }
    UpdateCounted(d, pk, per_reference, true);
    return;
  }
  auto it = derived_.find(key);
  if (it == derived_.end()) return;
  DerivedIndex& d = it->second;
  UpdateCounted(d, pk, per_reference, false);
  auto member = d.members.find(pk);
  if (member != d.members.end() && --member->second == 0) {
    d.members.erase(member);
    d.index.Remove(pk, data);
    d.index.RemoveMember(pk);
  }
  if (d.members.empty()) derived_.erase(it);  // evitaDB sweeps empty indexes too
}

void Collection::IndexReference(int32_t pk, Scope scope, const Reference& r, const EntityEntries& entries,
                                bool add) {
  const ReferenceSchema* rs = schema_->FindReference(r.name);
  if (rs == nullptr) return;
  const ReferenceIndexType type = rs->IndexTypeIn(scope);
  if (type == ReferenceIndexType::kNone) return;
  const uint32_t reference = keys_.Id(ReferenceKey(r.name));
  const IndexEntries per_reference = ComputeReferenceEntries(r, *rs, scope, collation_, keys_);
  // Partitioning references get a full copy of the entity's indexed data;
  // filtering ones its locales and facets (evitaDB's indexAllExistingData).
  const IndexEntries& data =
      type == ReferenceIndexType::kForFilteringAndPartitioning ? entries.full : entries.filtering;
  const IndexEntries none;
  const auto components = Components(*rs, scope);
  if (Has(components, ReferenceIndexedComponent::kReferencedEntity)) {
    UpdateMember({IndexKind::kReferencedEntityType, scope, reference, 0}, r.referenced.primary_key, none,
                 per_reference, add);
    UpdateMember({IndexKind::kReferencedEntity, scope, reference, r.referenced.primary_key}, pk, data,
                 per_reference, add);
  }
  if (Has(components, ReferenceIndexedComponent::kReferencedGroupEntity) && r.group) {
    UpdateMember({IndexKind::kReferencedGroupEntityType, scope, reference, 0}, r.group->primary_key, none,
                 per_reference, add);
    UpdateMember({IndexKind::kReferencedGroupEntity, scope, reference, r.group->primary_key}, pk, data,
                 per_reference, add);
  }
}

void Collection::UpdateIndexes(const Entity& e, bool add, CatalogIndexes* catalog) {
  const int32_t pk = e.primary_key;
  const Scope scope = e.scope;
  const std::vector<Reference> references = EffectiveReferences(e, *catalog);
  int32_t first_price = 0;
  if (add) {
    first_price = next_price_id_;
    next_price_id_ += static_cast<int32_t>(e.prices.size());
    first_price_id_[pk] = first_price;
  } else if (auto it = first_price_id_.find(pk); it != first_price_id_.end()) {
    first_price = it->second;
  }
  const EntityEntries entries = ComputeEntries(e, references, first_price);
  EntityIndex& global = global_[static_cast<int>(scope)];
  if (add) {
    global.AddMember(pk);
    global.Add(pk, entries.full);
  } else {
    global.Remove(pk, entries.full);
    global.RemoveMember(pk);
  }
  auto& unique = unique_[static_cast<int>(scope)];
  for (const auto& [attribute, key] : UniqueKeys(e, *schema_, false)) {
    if (add) {
      unique[attribute][key] = pk;
    } else {
      unique[attribute].erase(key);
    }
  }
  auto& global_unique = catalog->global_unique[static_cast<int>(scope)];
  for (const auto& [attribute, key] : UniqueKeys(e, *schema_, true)) {
    if (add) {
      global_unique[attribute][key] = EntityRef{e.type, pk};
    } else {
      global_unique[attribute].erase(key);
    }
  }
  if (schema_->with_hierarchy && (schema_->hierarchy_indexed_in_scopes.empty() ||
                                  InScope(schema_->hierarchy_indexed_in_scopes, scope))) {
    const int32_t parent = e.parent.value_or(-1);
    Hierarchy& h = hierarchy_[static_cast<int>(scope)];
    if (add) {
      h.parent_of[pk] = parent;
      if (parent != -1) h.children[parent].insert(pk);
    } else {
      h.parent_of.erase(pk);
      if (auto it = h.children.find(parent); it != h.children.end()) {
        it->second.erase(pk);
        if (it->second.empty()) h.children.erase(it);
      }
    }
  }
  for (const Reference& r : references) IndexReference(pk, scope, r, entries, add);
  if (!add) first_price_id_.erase(pk);
}

Status Collection::ApplyReflected(int32_t pk, const Reference& r, bool add, CatalogIndexes* catalog) {
  auto stored = offsets_.find(pk);
  if (stored == offsets_.end()) return OkStatus();
  // evitaDB reads the entity's storage parts to fill the new reduced index.
  Entity e;
  if (Status s = ReadEntity(stored->second, &e); !s.ok()) return s;
  const std::vector<Reference> references = EffectiveReferences(e, *catalog);
  auto first = first_price_id_.find(pk);
  const EntityEntries entries =
      ComputeEntries(e, references, first == first_price_id_.end() ? 0 : first->second);
  IndexReference(pk, e.scope, r, entries, add);
  const ReferenceSchema* rs = schema_->FindReference(r.name);
  if (rs == nullptr || !InScope(rs->faceted_in_scopes, e.scope)) return OkStatus();
  // A faceted reference's facet is in every index holding the entity.
  IndexEntries facet;
  facet.facets.push_back(
      {keys_.Id(ReferenceKey(r.name)), r.group ? r.group->primary_key : 0, r.referenced.primary_key});
  auto update = [&](EntityIndex& index) {
    if (add) {
      index.Add(pk, facet);
    } else {
      index.Remove(pk, facet);
    }
  };
  update(global_[static_cast<int>(e.scope)]);
  for (const Reference& other : references) {
    const ReferenceSchema* os = schema_->FindReference(other.name);
    if (os == nullptr || os->IndexTypeIn(e.scope) == ReferenceIndexType::kNone) continue;
    const uint32_t id = keys_.Id(ReferenceKey(other.name));
    for (const DerivedKey& key :
         {DerivedKey{IndexKind::kReferencedEntity, e.scope, id, other.referenced.primary_key},
          DerivedKey{IndexKind::kReferencedGroupEntity, e.scope, id,
                     other.group ? other.group->primary_key : 0}}) {
      auto it = derived_.find(key);
      if (it != derived_.end() && it->second.index.Contains(pk)) update(it->second.index);
    }
  }
  return OkStatus();
}

Status Collection::AppendRecord(std::string_view payload, bool durable, uint64_t* offset) {
  auto appended = writer_->Append(payload);
  if (!appended.ok()) return appended.status();
  if (durable) {
    if (Status s = writer_->Sync(); !s.ok()) return s;
  }
  *offset = *appended;
  return OkStatus();
}

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
  std::optional<Entity> old;
  std::vector<PartLocation> old_parts;
  std::vector<std::string> old_records;
  if (auto existing = offsets_.find(e.primary_key); existing != offsets_.end()) {
    old.emplace();
    if (Status s = ReadEntity(existing->second, &*old, &old_parts, &old_records); !s.ok()) return s;
    if (*old == e) return old;  // nothing changed: nothing to write or index, as in evitaDB
  }
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
  if (Status s = AppendRecord(EncodeBody(e, locations), durable, &offset); !s.ok()) return s;
  if (old) UpdateIndexes(*old, false, catalog);
  offsets_[e.primary_key] = offset;
  UpdateIndexes(e, true, catalog);
  return old;
}

StatusOr<std::optional<Entity>> Collection::Restore(const Entity& e, uint64_t offset,
                                                    CatalogIndexes* catalog) {
  return Replace(e, offset, catalog);
}

StatusOr<Entity> Collection::Erase(int32_t pk, bool durable, CatalogIndexes* catalog) {
  if (!offsets_.contains(pk)) {
    return NotFoundError(schema_->name + "/" + std::to_string(pk) + " is not stored");
  }
  uint64_t offset = 0;
  if (Status s = AppendRecord(RemovalRecord(pk), durable, &offset); !s.ok()) return s;
  (void)offset;
  auto old = Unstore(pk, catalog);
  if (!old.ok()) return old.status();
  return std::move(**old);
}

StatusOr<std::optional<Entity>> Collection::Unstore(int32_t pk, CatalogIndexes* catalog) {
  auto existing = offsets_.find(pk);
  if (existing == offsets_.end()) return std::optional<Entity>();
  Entity old;
  if (Status s = ReadEntity(existing->second, &old); !s.ok()) return s;
  UpdateIndexes(old, false, catalog);
  offsets_.erase(pk);
  return std::optional<Entity>(std::move(old));
}

StatusOr<std::optional<Entity>> Collection::Get(int32_t pk) const {
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
