#include "engine/collection.h"

#include <algorithm>

#include "codec/entity_convert.h"
#include "codec/serialize.h"

namespace warmup::engine {
namespace {

std::string ReducedKey(Scope scope, const std::string& reference, int32_t pk) {
  return std::to_string(static_cast<int>(scope)) + "|" + reference + "|" + std::to_string(pk);
}

}  // namespace

Collection::Collection(Env* env, std::string records_path, const EntitySchema* schema, bool compress)
    : env_(env),
      records_path_(std::move(records_path)),
      schema_(schema),
      compress_(compress),
      message_(std::make_unique<pb::GrpcSealedEntity>()) {}

Collection::~Collection() = default;

Status Collection::OpenForAppend() {
  auto writer = RecordWriter::Open(env_, records_path_, compress_);
  if (!writer.ok()) return writer.status();
  writer_ = std::move(writer).value();
  return OkStatus();
}

Status Collection::ReadEntity(uint64_t offset, Entity* entity) const {
  if (writer_) {
    if (Status s = writer_->Flush(); !s.ok()) return s;
  }
  if (!reader_ || offset >= reader_size_) {
    auto reader = env_->OpenRead(records_path_);
    if (!reader.ok()) return reader.status();
    reader_ = std::move(reader).value();
    reader_size_ = reader_->Size();
  }
  std::string payload;
  if (Status s = ReadRecord(*reader_, records_path_, offset, &payload); !s.ok()) return s;
  io::evitadb::externalApi::grpc::generated::GrpcSealedEntity message;
  if (!message.ParseFromString(payload)) {
    return DataLossError(records_path_ + ": offset " + std::to_string(offset) + ": record does not parse");
  }
  auto parsed = codec::EntityFromProto(message);
  if (!parsed.ok()) return parsed.status().WithContext(records_path_ + ": offset " + std::to_string(offset));
  *entity = std::move(parsed).value();
  return OkStatus();
}

Status Collection::Replay(uint64_t from, CatalogIndexes* catalog) {
  if (env_->Exists(records_path_)) {
    auto reader = env_->OpenRead(records_path_);
    if (!reader.ok()) return reader.status();
    Entity entity;
    Entity old;
    auto end = ScanRecords(**reader, from, [&](uint64_t offset, std::string_view payload) -> Status {
      if (!message_->ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
        return DataLossError(records_path_ + ": offset " + std::to_string(offset) +
                             ": record does not parse");
      }
      auto parsed = codec::EntityFromProto(*message_);
      if (!parsed.ok()) {
        return parsed.status().WithContext(records_path_ + ": offset " + std::to_string(offset));
      }
      entity = std::move(parsed).value();
      auto existing = offsets_.find(entity.primary_key);
      if (existing != offsets_.end()) {
        if (Status s = ReadEntity(existing->second, &old); !s.ok()) return s;
        UpdateIndexes(old, false, catalog);
      }
      offsets_[entity.primary_key] = offset;
      UpdateIndexes(entity, true, catalog);
      return OkStatus();
    });
    if (!end.ok()) return end.status();
  }
  return OpenForAppend();
}

void Collection::SaveSnapshot(IndexWriter& out) const {
  keys_.Save(out);
  for (const auto& index : global_) index.Save(out);
  out.U64(reduced_.size());
  for (const auto& [key, index] : reduced_) {
    out.Str(key);
    index.Save(out);
  }
  out.U64(unique_.size());
  for (const auto& [attribute, values] : unique_) {
    out.Str(attribute);
    out.U64(values.size());
    for (const auto& [value, pk] : values) {
      out.Str(value);
      out.I64(pk);
    }
  }
  out.U64(children_.size());
  for (const auto& [parent, children] : children_) {
    out.I64(parent);
    out.U64(children.size());
    for (int32_t child : children) out.I64(child);
  }
}

void Collection::LoadSnapshot(std::map<int32_t, uint64_t> offsets, IndexReader& in) {
  offsets_ = std::move(offsets);
  keys_.Load(in);
  for (auto& index : global_) index.Load(in);
  reduced_.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    std::string key = in.Str();
    reduced_[key].Load(in);
  }
  unique_.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    auto& values = unique_[in.Str()];
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
      std::string value = in.Str();
      values[value] = static_cast<int32_t>(in.I64());
    }
  }
  children_.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    auto& children = children_[static_cast<int32_t>(in.I64())];
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
      children.insert(static_cast<int32_t>(in.I64()));
    }
  }
}

void Collection::UpdateIndexes(const Entity& e, bool add, CatalogIndexes* catalog) {
  const IndexEntries entries = ComputeIndexEntries(e, *schema_, collation_, keys_);
  const int32_t pk = e.primary_key;
  EntityIndex& global = global_[static_cast<int>(e.scope)];
  if (add) {
    global.Add(pk, entries);
  } else {
    global.Remove(pk, entries);
  }
  // The fan-out: every entity referenced through a partitioning reference
  // gets the whole of this entity's indexed data in its reduced index.
  std::set<std::string> partitions;
  for (const Reference& r : e.references) {
    const ReferenceSchema* rs = schema_->FindReference(r.name);
    if (rs == nullptr || rs->IndexTypeIn(e.scope) != ReferenceIndexType::kForFilteringAndPartitioning) {
      continue;
    }
    const std::string key = ReducedKey(e.scope, r.name, r.referenced.primary_key);
    if (!partitions.insert(key).second) continue;
    EntityIndex& reduced = reduced_[key];
    if (add) {
      reduced.Add(pk, entries);
    } else {
      reduced.Remove(pk, entries);
    }
  }
  for (const auto& [attribute, key] : UniqueKeys(e, *schema_, false)) {
    if (add) {
      unique_[attribute][key] = pk;
    } else {
      unique_[attribute].erase(key);
    }
  }
  for (const auto& [attribute, key] : UniqueKeys(e, *schema_, true)) {
    if (add) {
      catalog->global_unique[attribute][key] = EntityRef{e.type, pk};
    } else {
      catalog->global_unique[attribute].erase(key);
    }
  }
  if (schema_->with_hierarchy && e.parent) {
    if (add) {
      children_[*e.parent].insert(pk);
    } else {
      children_[*e.parent].erase(pk);
    }
  }
  catalog->reflected.Update(e, add);
}

Status Collection::Apply(const Entity& e, bool durable, CatalogIndexes* catalog) {
  auto existing = offsets_.find(e.primary_key);
  if (existing != offsets_.end()) {
    Entity old;
    if (Status s = ReadEntity(existing->second, &old); !s.ok()) return s;
    UpdateIndexes(old, false, catalog);
  }
  codec::EntityToProto(e, message_.get());
  codec::SerializeDeterministic(*message_, &buffer_);
  auto offset = writer_->Append(buffer_);
  if (!offset.ok()) return offset.status();
  if (durable) {
    if (Status s = writer_->Sync(); !s.ok()) return s;
  }
  offsets_[e.primary_key] = *offset;
  UpdateIndexes(e, true, catalog);
  return OkStatus();
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
  auto it = reduced_.find(ReducedKey(scope.scope, scope.reference, scope.referenced_pk));
  return it == reduced_.end() ? nullptr : &it->second;
}

std::vector<int32_t> Collection::Children(int32_t parent) const {
  auto it = children_.find(parent);
  if (it == children_.end()) return {};
  return std::vector<int32_t>(it->second.begin(), it->second.end());
}

}  // namespace warmup::engine
