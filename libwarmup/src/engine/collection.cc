#include "engine/collection.h"

#include <algorithm>

#include "codec/entity_convert.h"
#include "codec/serialize.h"

namespace warmup::engine {
namespace {

std::string ReducedKey(Scope scope, const std::string& reference, int32_t pk) {
  return std::to_string(static_cast<int>(scope)) + "|" + reference + "|" + std::to_string(pk);
}

std::string Quote(const Value& value) { return DebugString(value); }

// "a:name|cs" (a dictionary key) as users name it: "name (cs)".
std::string DisplayAttribute(const std::string& key) {
  std::string name = key.substr(2);
  const size_t bar = name.find('|');
  return bar == std::string::npos ? name : name.substr(0, bar) + " (" + name.substr(bar + 1) + ")";
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

Status Collection::Replay(uint64_t from, GlobalUniqueIndex* global_unique,
                          const std::function<Collection*(const std::string&)>& find) {
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
      if (!parsed.ok())
        return parsed.status().WithContext(records_path_ + ": offset " + std::to_string(offset));
      entity = std::move(parsed).value();
      auto existing = offsets_.find(entity.primary_key);
      if (existing != offsets_.end()) {
        if (Status s = ReadEntity(existing->second, &old); !s.ok()) return s;
        UpdateIndexes(old, false, global_unique, find);
      }
      offsets_[entity.primary_key] = offset;
      UpdateIndexes(entity, true, global_unique, find);
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
  out.U64(reflected_.size());
  for (const auto& [name, holders] : reflected_) {
    out.Str(name);
    out.U64(holders.size());
    for (const auto& [pk, bitmap] : holders) {
      out.I64(pk);
      out.Bitmap(bitmap);
    }
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
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k)
      children.insert(static_cast<int32_t>(in.I64()));
  }
  reflected_.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    auto& holders = reflected_[in.Str()];
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
      const auto pk = static_cast<int32_t>(in.I64());
      holders[pk] = in.Bitmap();
    }
  }
}

std::vector<std::pair<std::string, std::string>> Collection::UniqueKeys(const Entity& entity,
                                                                        bool global) const {
  std::vector<std::pair<std::string, std::string>> keys;
  auto add = [&](const std::string& name, const std::string& tag, const Value& value) {
    auto it = schema_->attributes.find(name);
    if (it == schema_->attributes.end()) return;
    const AttributeSchema& a = it->second;
    bool per_locale = false;
    bool unique = false;
    if (global) {
      for (const auto& s : a.globally_unique_in_scopes) {
        if (s.scope == entity.scope && s.value != GlobalAttributeUniqueness::kNotGloballyUnique) {
          unique = true;
          per_locale = s.value == GlobalAttributeUniqueness::kUniqueWithinCatalogLocale;
        }
      }
    } else {
      for (const auto& s : a.unique_in_scopes) {
        if (s.scope == entity.scope && s.value != AttributeUniqueness::kNotUnique) {
          unique = true;
          per_locale = s.value == AttributeUniqueness::kUniqueWithinCollectionLocale;
        }
      }
    }
    if (!unique) return;
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

Status Collection::Validate(const Entity& e, const GlobalUniqueIndex& global_unique) const {
  const std::string label = "entity " + EntityLabel(e);
  auto fail = [&](const std::string& what) { return InvalidArgumentError(label + ": " + what); };
  if (e.primary_key <= 0) return fail("primary key must be positive");
  auto check_attribute = [&](const std::string& name, const std::string& tag, const Value& value) -> Status {
    auto it = schema_->attributes.find(name);
    if (it == schema_->attributes.end()) {
      return fail("attribute '" + name + "' is not in the schema of " + schema_->name);
    }
    const AttributeSchema& a = it->second;
    if (a.type != value.type()) {
      return fail("attribute '" + name + "' is " + std::string(ValueTypeName(a.type)) + ", got " +
                  std::string(ValueTypeName(value.type())) + " " + Quote(value));
    }
    if (a.localized != !tag.empty()) {
      return fail("attribute '" + name + "' is " +
                  (a.localized ? "localized and needs a locale" : "not localized"));
    }
    if (!tag.empty() && !schema_->locales.empty() &&
        std::none_of(schema_->locales.begin(), schema_->locales.end(),
                     [&](const Locale& l) { return l.tag() == tag; })) {
      return fail("attribute '" + name + "': locale '" + tag + "' is not allowed in " + schema_->name);
    }
    return OkStatus();
  };
  for (const auto& [name, value] : e.attributes.global) {
    if (Status s = check_attribute(name, "", value); !s.ok()) return s;
  }
  for (const auto& [tag, values] : e.attributes.localized) {
    for (const auto& [name, value] : values) {
      if (Status s = check_attribute(name, tag, value); !s.ok()) return s;
    }
  }
  for (const auto& [name, a] : schema_->attributes) {
    if (a.nullable || a.default_value) continue;
    if (!a.localized && !e.attributes.global.contains(name)) {
      return fail("required attribute '" + name + "' is missing");
    }
    if (a.localized) {
      for (const auto& locale : e.locales) {
        auto values = e.attributes.localized.find(locale.tag());
        if (values == e.attributes.localized.end() || !values->second.contains(name)) {
          return fail("required attribute '" + name + "' is missing in locale " + locale.tag());
        }
      }
    }
  }
  for (const auto& [attribute, key] : UniqueKeys(e, false)) {
    auto index = unique_.find(attribute);
    if (index == unique_.end()) continue;
    auto owner = index->second.find(key);
    if (owner != index->second.end() && owner->second != e.primary_key) {
      return fail("attribute '" + DisplayAttribute(attribute) + "' must be unique, and entity " +
                  schema_->name + "/" + std::to_string(owner->second) + " already has that value");
    }
  }
  for (const auto& [attribute, key] : UniqueKeys(e, true)) {
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
    auto it = schema_->associated_data.find(name);
    if (it == schema_->associated_data.end())
      return fail("associated data '" + name + "' is not in the schema");
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
  for (const Reference& r : e.references) {
    const ReferenceSchema* rs = schema_->FindReference(r.name);
    if (rs == nullptr) {
      return fail("reference '" + r.name + "' -> " + std::to_string(r.referenced.primary_key) +
                  " is not in the schema of " + schema_->name);
    }
  }
  if (!e.prices.empty() && !schema_->with_price) return fail(schema_->name + " has no prices");
  for (const Price& p : e.prices) {
    if (!schema_->currencies.empty() && std::find(schema_->currencies.begin(), schema_->currencies.end(),
                                                  p.currency) == schema_->currencies.end()) {
      return fail("price " + std::to_string(p.price_id) + ": currency " + p.currency.code() +
                  " is not allowed");
    }
  }
  if (e.parent && !schema_->with_hierarchy) return fail(schema_->name + " has no hierarchy");
  return OkStatus();
}

void Collection::UpdateIndexes(const Entity& e, bool add, GlobalUniqueIndex* global_unique,
                               const std::function<Collection*(const std::string&)>& find) {
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
    if (rs == nullptr || rs->IndexTypeIn(e.scope) != ReferenceIndexType::kForFilteringAndPartitioning)
      continue;
    const std::string key = ReducedKey(e.scope, r.name, r.referenced.primary_key);
    if (!partitions.insert(key).second) continue;
    EntityIndex& reduced = reduced_[key];
    if (add) {
      reduced.Add(pk, entries);
    } else {
      reduced.Remove(pk, entries);
    }
  }
  for (const auto& [attribute, key] : UniqueKeys(e, false)) {
    if (add) {
      unique_[attribute][key] = pk;
    } else {
      unique_[attribute].erase(key);
    }
  }
  for (const auto& [attribute, key] : UniqueKeys(e, true)) {
    if (add) {
      (*global_unique)[attribute][key] = EntityRef{e.type, pk};
    } else {
      (*global_unique)[attribute].erase(key);
    }
  }
  if (schema_->with_hierarchy && e.parent) {
    if (add) {
      children_[*e.parent].insert(pk);
    } else {
      children_[*e.parent].erase(pk);
    }
  }
  // Reflected references live on the referenced entities' side.
  for (const Reference& r : e.references) {
    Collection* target = find(r.referenced.entity_type);
    if (target == nullptr) continue;
    for (const auto& [name, rs] : target->schema().references) {
      if (!rs.is_reflected() || *rs.reflected_reference_name != r.name || rs.referenced_entity_type != e.type)
        continue;
      Roaring& holders = target->reflected_[name][r.referenced.primary_key];
      if (add) {
        holders.add(static_cast<uint32_t>(pk));
      } else {
        holders.remove(static_cast<uint32_t>(pk));
      }
    }
  }
}

Status Collection::Apply(const Entity& e, bool durable, GlobalUniqueIndex* global_unique,
                         const std::function<Collection*(const std::string&)>& find) {
  auto existing = offsets_.find(e.primary_key);
  if (existing != offsets_.end()) {
    Entity old;
    if (Status s = ReadEntity(existing->second, &old); !s.ok()) return s;
    UpdateIndexes(old, false, global_unique, find);
  }
  codec::EntityToProto(e, message_.get());
  codec::SerializeDeterministic(*message_, &buffer_);
  auto offset = writer_->Append(buffer_);
  if (!offset.ok()) return offset.status();
  if (durable) {
    if (Status s = writer_->Sync(); !s.ok()) return s;
  }
  offsets_[e.primary_key] = *offset;
  UpdateIndexes(e, true, global_unique, find);
  return OkStatus();
}

StatusOr<std::optional<Entity>> Collection::Get(int32_t pk) const {
  auto it = offsets_.find(pk);
  if (it == offsets_.end()) return std::optional<Entity>();
  Entity entity;
  if (Status s = ReadEntity(it->second, &entity); !s.ok()) return s;
  for (const auto& [name, rs] : schema_->references) {
    if (!rs.is_reflected()) continue;
    std::erase_if(entity.references, [&](const Reference& r) { return r.name == name; });
    auto by_name = reflected_.find(name);
    if (by_name == reflected_.end()) continue;
    auto holders = by_name->second.find(pk);
    if (holders == by_name->second.end()) continue;
    for (uint32_t holder : holders->second) {
      entity.references.push_back(
          {name, {rs.referenced_entity_type, static_cast<int32_t>(holder)}, std::nullopt, {}});
    }
  }
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
