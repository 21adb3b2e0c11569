// Engine, Catalog and the embedded CatalogTarget.
#include "warmup/engine.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "codec/schema_convert.h"
#include "codec/serialize.h"
#include "common/crc32c.h"
#include "common/names.h"
#include "engine/collection.h"
#include "engine/env.h"
#include "engine/index_io.h"
#include "warmup_snapshot.pb.h"

namespace warmup {
namespace {

using engine::Collection;
using engine::Env;

constexpr const char* kHeaderFile = "catalog.header";
constexpr const char* kSchemaFile = "schema.pb";
constexpr const char* kUniqueFile = "catalog.unique";

std::string Hex32(uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof(buf), "%08x", v);
  return buf;
}

// catalog.header: three lines and a checksum line over them.
std::string HeaderText(const std::string& name, CatalogState state) {
  std::string body = "warmup-catalog 1\nname " + name + "\nstate " +
                     (state == CatalogState::kAlive ? "ALIVE" : "WARMING_UP") + "\n";
  return body + "crc32c " + Hex32(Crc32c(body.data(), body.size())) + "\n";
}

// Returns the state, or an error saying why the text is not a valid header.
StatusOr<CatalogState> ParseHeader(const std::string& text, const std::string& expected_name) {
  const size_t crc_at = text.rfind("crc32c ");
  if (crc_at == std::string::npos) return InvalidArgumentError("no checksum");
  const std::string body = text.substr(0, crc_at);
  if (text.substr(crc_at) != "crc32c " + Hex32(Crc32c(body.data(), body.size())) + "\n") {
    return InvalidArgumentError("checksum does not match");
  }
  if (body.rfind("warmup-catalog 1\n", 0) != 0) return InvalidArgumentError("not a version 1 catalog header");
  if (body.find("\nname " + expected_name + "\n") == std::string::npos) {
    return InvalidArgumentError("names another catalog");
  }
  if (body.find("\nstate ALIVE\n") != std::string::npos) return CatalogState::kAlive;
  if (body.find("\nstate WARMING_UP\n") != std::string::npos) return CatalogState::kWarmingUp;
  return InvalidArgumentError("unknown state");
}

// collections/<NNN>.offsets: valid_end, count, (pk, offset)*, crc32c; little-endian.
std::string EncodeOffsets(uint64_t valid_end, const std::map<int32_t, uint64_t>& offsets) {
  std::string out;
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
  };
  put(valid_end, 8);
  put(offsets.size(), 8);
  for (const auto& [pk, offset] : offsets) {
    put(static_cast<uint32_t>(pk), 4);
    put(offset, 8);
  }
  put(Crc32c(out.data(), out.size()), 4);
  return out;
}

Status DecodeOffsets(const std::string& data, const std::string& name, uint64_t* valid_end,
                     std::map<int32_t, uint64_t>* offsets) {
  auto get = [&](size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(data[at + i])) << (8 * i);
    return v;
  };
  if (data.size() < 20) return DataLossError(name + ": too short");
  const uint64_t count = get(8, 8);
  if (data.size() != 20 + count * 12) return DataLossError(name + ": size does not match its count");
  if (get(data.size() - 4, 4) != Crc32c(data.data(), data.size() - 4))
    return DataLossError(name + ": bad checksum");
  *valid_end = get(0, 8);
  for (uint64_t i = 0; i < count; ++i) {
    (*offsets)[static_cast<int32_t>(get(16 + i * 12, 4))] = get(20 + i * 12, 8);
  }
  return OkStatus();
}

class CatalogImpl : public Catalog {
 public:
  CatalogImpl(Env* env, std::string dir, CatalogSchema schema, CatalogState state, bool compress)
      : env_(env), dir_(std::move(dir)), schema_(std::move(schema)), state_(state), compress_(compress) {
    size_t index = 0;
    for (const auto& [type, entity_schema] : schema_.entities) {
      char prefix[8];
      std::snprintf(prefix, sizeof(prefix), "%03zu", index++);
      paths_[type] = dir_ + "/collections/" + prefix;
      collections_.emplace(
          type, std::make_unique<Collection>(env_, paths_[type] + ".records", &entity_schema, compress_));
    }
  }

  // Loads every collection from disk (a reopened catalog): for an ALIVE one
  // the offsets and index snapshots goLive wrote, then the records appended
  // after them; for a WARM_UP one (a load that never went live) every record.
  Status Load() {
    std::map<std::string, uint64_t> replay_from;
    if (state_ == CatalogState::kAlive) {
      for (auto& [type, collection] : collections_) {
        std::map<int32_t, uint64_t> offsets;
        uint64_t valid_end = 0;
        const std::string offsets_path = paths_[type] + ".offsets";
        auto data = env_->ReadWholeFile(offsets_path);
        if (!data.ok()) return data.status();
        if (Status s = DecodeOffsets(*data, offsets_path, &valid_end, &offsets); !s.ok()) return s;
        const std::string index_path = paths_[type] + ".index";
        auto index = env_->ReadWholeFile(index_path);
        if (!index.ok()) return index.status();
        engine::IndexReader in(std::move(index).value(), index_path);
        collection->LoadSnapshot(std::move(offsets), in);
        if (Status s = in.Done(); !s.ok()) return s;
        replay_from[type] = valid_end;
      }
      auto unique = env_->ReadWholeFile(dir_ + "/" + kUniqueFile);
      if (!unique.ok()) return unique.status();
      engine::IndexReader in(std::move(unique).value(), dir_ + "/" + kUniqueFile);
      LoadGlobalUnique(in);
      if (Status s = in.Done(); !s.ok()) return s;
    }
    for (auto& [type, collection] : collections_) {
      if (Status s = collection->Replay(replay_from[type], &global_unique_, Finder()); !s.ok()) return s;
    }
    return OkStatus();
  }

  Status OpenForAppend() {
    for (auto& [type, collection] : collections_) {
      if (Status s = collection->OpenForAppend(); !s.ok()) return s;
    }
    return OkStatus();
  }

  const std::string& name() const override { return schema_.name; }
  CatalogState state() const override { return state_; }
  const CatalogSchema& schema() const override { return schema_; }

  Status Upsert(const Entity& entity) override {
    Collection* collection = Find(entity.type);
    if (collection == nullptr) {
      return InvalidArgumentError("entity " + EntityLabel(entity) + ": catalog " + schema_.name +
                                  " has no entity type " + entity.type);
    }
    if (Status s = collection->Validate(entity, global_unique_); !s.ok()) return s;
    return collection->Apply(entity, state_ == CatalogState::kAlive, &global_unique_, Finder());
  }

  StatusOr<int64_t> Count(const std::string& entity_type) const override {
    const Collection* c = Find(entity_type);
    if (c == nullptr) return NotFoundError("catalog " + schema_.name + " has no entity type " + entity_type);
    return c->count();
  }

  StatusOr<std::vector<int32_t>> PrimaryKeys(const std::string& entity_type) const override {
    const Collection* c = Find(entity_type);
    if (c == nullptr) return NotFoundError("catalog " + schema_.name + " has no entity type " + entity_type);
    std::vector<int32_t> keys;
    keys.reserve(c->offsets().size());
    for (const auto& [pk, offset] : c->offsets()) keys.push_back(pk);
    return keys;
  }

  Status GoLive() override {
    if (state_ == CatalogState::kAlive)
      return FailedPreconditionError("catalog " + schema_.name + " is already ALIVE");
    // Everything durable first; the header switch comes last, so a failure or
    // a crash anywhere before it leaves a catalog that reopens as WARM_UP.
    for (auto& [type, collection] : collections_) {
      if (Status s = collection->writer()->Sync(); !s.ok()) return s.WithContext("goLive of " + schema_.name);
      const std::string offsets = EncodeOffsets(collection->writer()->size(), collection->offsets());
      if (Status s = env_->WriteFileAtomically(paths_[type] + ".offsets", offsets); !s.ok()) {
        return s.WithContext("goLive of " + schema_.name);
      }
      if (Status s = WriteSnapshot(paths_[type] + ".index",
                                   [&](engine::IndexWriter& out) { collection->SaveSnapshot(out); });
          !s.ok()) {
        return s.WithContext("goLive of " + schema_.name);
      }
    }
    if (Status s =
            WriteSnapshot(dir_ + "/" + kUniqueFile, [&](engine::IndexWriter& out) { SaveGlobalUnique(out); });
        !s.ok()) {
      return s.WithContext("goLive of " + schema_.name);
    }
    if (Status s = env_->SyncDirectory(dir_ + "/collections"); !s.ok()) return s;
    if (Status s = env_->WriteFileAtomically(dir_ + "/" + kHeaderFile,
                                             HeaderText(schema_.name, CatalogState::kAlive));
        !s.ok()) {
      return s.WithContext("goLive of " + schema_.name);
    }
    state_ = CatalogState::kAlive;
    return OkStatus();
  }

  StatusOr<std::optional<Entity>> Get(const std::string& entity_type, int32_t pk) const override {
    const Collection* c = Find(entity_type);
    if (c == nullptr) return NotFoundError("catalog " + schema_.name + " has no entity type " + entity_type);
    return c->Get(pk);
  }

  StatusOr<std::vector<int32_t>> FilterEquals(const std::string& entity_type, const std::string& attribute,
                                              const std::string& locale, const Value& value,
                                              const IndexScope& scope) const override {
    auto index = IndexFor(entity_type, scope);
    if (!index.ok()) return index.status();
    if (*index == nullptr) return std::vector<int32_t>{};
    const auto* a = AttributeOf(entity_type, attribute);
    const int places = a ? a->indexed_decimal_places : 0;
    if (value.is_array()) return InvalidArgumentError("filter by one value, not an array");
    const auto id = Find(entity_type)->KeyId(engine::AttributeKey(attribute, locale));
    if (!id) return std::vector<int32_t>{};
    return (*index)->FilterEquals(*id, engine::ScalarKey(value.scalar(), value.type(), places));
  }

  StatusOr<std::vector<int32_t>> SortBy(const std::string& entity_type, const std::string& attribute,
                                        const std::string& locale, OrderDirection direction,
                                        const IndexScope& scope) const override {
    auto index = IndexFor(entity_type, scope);
    if (!index.ok()) return index.status();
    if (*index == nullptr) return std::vector<int32_t>{};
    const auto id = Find(entity_type)->KeyId(engine::AttributeKey(attribute, locale));
    if (!id) return std::vector<int32_t>{};
    return (*index)->SortedBy(*id, direction == OrderDirection::kDesc);
  }

  StatusOr<std::vector<int32_t>> PriceBetween(const std::string& entity_type, const std::string& price_list,
                                              const Currency& currency, const BigDecimal& from,
                                              const BigDecimal& to, const IndexScope& scope) const override {
    auto index = IndexFor(entity_type, scope);
    if (!index.ok()) return index.status();
    if (*index == nullptr) return std::vector<int32_t>{};
    const int places = Find(entity_type)->schema().indexed_price_places;
    const auto id = Find(entity_type)->KeyId(engine::PriceKey(price_list, currency.code()));
    if (!id) return std::vector<int32_t>{};
    return (*index)->PriceBetween(*id, engine::ScaleDecimal(from, places), engine::ScaleDecimal(to, places));
  }

  StatusOr<std::vector<int32_t>> Members(const std::string& entity_type,
                                         const IndexScope& scope) const override {
    auto index = IndexFor(entity_type, scope);
    if (!index.ok()) return index.status();
    if (*index == nullptr) return std::vector<int32_t>{};
    return engine::ToVector((*index)->all());
  }

  StatusOr<std::vector<int32_t>> FacetMembers(const std::string& entity_type, const std::string& reference,
                                              int32_t referenced_pk, const IndexScope& scope) const override {
    auto index = IndexFor(entity_type, scope);
    if (!index.ok()) return index.status();
    if (*index == nullptr) return std::vector<int32_t>{};
    const auto id = Find(entity_type)->KeyId(engine::ReferenceKey(reference));
    if (!id) return std::vector<int32_t>{};
    return (*index)->FacetMembers(*id, referenced_pk);
  }

  StatusOr<std::vector<int32_t>> Children(const std::string& entity_type, int32_t parent_pk) const override {
    const Collection* c = Find(entity_type);
    if (c == nullptr) return NotFoundError("catalog " + schema_.name + " has no entity type " + entity_type);
    return c->Children(parent_pk);
  }

 private:
  // Streams an index snapshot to `path`: temporary file, fsync, rename.
  template <typename Fill>
  Status WriteSnapshot(const std::string& path, Fill fill) {
    const std::string temp = path + ".tmp";
    if (Status s = env_->RemoveAll(temp); !s.ok()) return s;
    auto file = env_->OpenAppend(temp);
    if (!file.ok()) return file.status();
    engine::IndexWriter out(file->get());
    fill(out);
    if (Status s = out.Finish(); !s.ok()) return s;
    if (Status s = (*file)->Sync(); !s.ok()) return s;
    if (Status s = (*file)->Close(); !s.ok()) return s;
    return env_->Rename(temp, path);
  }

  void SaveGlobalUnique(engine::IndexWriter& out) const {
    out.U64(global_unique_.size());
    for (const auto& [attribute, values] : global_unique_) {
      out.Str(attribute);
      out.U64(values.size());
      for (const auto& [value, owner] : values) {
        out.Str(value);
        out.Str(owner.entity_type);
        out.I64(owner.primary_key);
      }
    }
  }

  void LoadGlobalUnique(engine::IndexReader& in) {
    global_unique_.clear();
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      auto& values = global_unique_[in.Str()];
      for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
        std::string value = in.Str();
        std::string type = in.Str();
        values[value] = EntityRef{std::move(type), static_cast<int32_t>(in.I64())};
      }
    }
  }

  Collection* Find(const std::string& type) const {
    auto it = collections_.find(type);
    return it == collections_.end() ? nullptr : it->second.get();
  }
  std::function<Collection*(const std::string&)> Finder() {
    return [this](const std::string& type) { return Find(type); };
  }
  const AttributeSchema* AttributeOf(const std::string& type, const std::string& attribute) const {
    const Collection* c = Find(type);
    if (c == nullptr) return nullptr;
    auto it = c->schema().attributes.find(attribute);
    return it == c->schema().attributes.end() ? nullptr : &it->second;
  }
  StatusOr<const engine::EntityIndex*> IndexFor(const std::string& type, const IndexScope& scope) const {
    const Collection* c = Find(type);
    if (c == nullptr) return NotFoundError("catalog " + schema_.name + " has no entity type " + type);
    if (!scope.reference.empty()) {
      const ReferenceSchema* rs = c->schema().FindReference(scope.reference);
      if (rs == nullptr) return InvalidArgumentError(type + " has no reference '" + scope.reference + "'");
    }
    return c->Index(scope);
  }

  Env* env_;
  std::string dir_;
  CatalogSchema schema_;
  CatalogState state_;
  bool compress_;
  std::map<std::string, std::string> paths_;
  std::map<std::string, std::unique_ptr<Collection>> collections_;
  engine::GlobalUniqueIndex global_unique_;
};

std::string SerializeSchema(const CatalogSchema& schema) {
  snapshot::v1::SnapshotSchema message;
  codec::CatalogSchemaToProto(schema, message.mutable_catalog());
  for (const auto& [type, e] : schema.entities) codec::EntitySchemaToProto(e, message.add_entities());
  std::string out;
  codec::SerializeDeterministic(message, &out);
  return out;
}

StatusOr<CatalogSchema> ParseSchema(const std::string& data, const std::string& name) {
  snapshot::v1::SnapshotSchema message;
  if (!message.ParseFromString(data)) return DataLossError(name + ": does not parse");
  std::vector<pb::GrpcEntitySchema> entities(message.entities().begin(), message.entities().end());
  return codec::CatalogSchemaFromProto(message.catalog(), entities);
}

class EngineImpl : public Engine {
 public:
  EngineImpl(Env* env, std::string dir, EngineOptions options)
      : env_(env), dir_(std::move(dir)), options_(options) {}

  Status LoadAll() {
    auto names = env_->ListDirectory(dir_);
    if (!names.ok()) return names.status();
    for (const std::string& name : *names) {
      const std::string path = dir_ + "/" + name;
      auto leftover = [&](const std::string& why) { leftovers_.push_back(path + ": " + why); };
      if (!env_->IsDirectory(path)) {
        if (name != ".warmup-workdir") leftover("not a directory");
        continue;
      }
      auto header = env_->ReadWholeFile(path + "/" + kHeaderFile);
      if (!header.ok()) {
        leftover("no catalog header; not loaded");
        continue;
      }
      auto state = ParseHeader(*header, name);
      if (!state.ok()) {
        leftover("catalog header is not valid (" + state.status().message() + "); not loaded");
        continue;
      }
      auto schema_data = env_->ReadWholeFile(path + "/" + kSchemaFile);
      if (!schema_data.ok()) return schema_data.status();
      auto schema = ParseSchema(*schema_data, path + "/" + kSchemaFile);
      if (!schema.ok()) return schema.status();
      auto catalog =
          std::make_unique<CatalogImpl>(env_, path, std::move(schema).value(), *state, options_.compress);
      if (Status s = catalog->Load(); !s.ok()) return s.WithContext("loading catalog " + name);
      catalogs_.emplace(name, std::move(catalog));
    }
    return OkStatus();
  }

  std::vector<std::string> CatalogNames() const override {
    std::vector<std::string> names;
    for (const auto& [name, c] : catalogs_) names.push_back(name);
    return names;
  }
  const std::vector<std::string>& leftovers() const override { return leftovers_; }

  StatusOr<Catalog*> CreateCatalog(const CatalogSchema& schema) override {
    if (!IsSafeName(schema.name)) {
      return InvalidArgumentError("catalog name '" + schema.name +
                                  "' is not allowed (letters, digits, '.', '_', '-'; not '.' or '..')");
    }
    if (catalogs_.contains(schema.name))
      return AlreadyExistsError("catalog " + schema.name + " already exists");
    const std::string path = dir_ + "/" + schema.name;
    if (env_->Exists(path)) {
      return AlreadyExistsError(path + " exists and is not a catalog of this engine; refusing to touch it");
    }
    if (Status s = ValidateCatalogSchema(schema); !s.ok()) return s;
    if (Status s = env_->CreateDirectories(path + "/collections"); !s.ok()) return s;
    if (Status s = env_->WriteFileAtomically(path + "/" + kSchemaFile, SerializeSchema(schema)); !s.ok())
      return s;
    if (Status s = env_->WriteFileAtomically(path + "/" + kHeaderFile,
                                             HeaderText(schema.name, CatalogState::kWarmingUp));
        !s.ok()) {
      return s;
    }
    auto catalog =
        std::make_unique<CatalogImpl>(env_, path, schema, CatalogState::kWarmingUp, options_.compress);
    if (Status s = catalog->OpenForAppend(); !s.ok()) return s;
    Catalog* raw = catalog.get();
    catalogs_.emplace(schema.name, std::move(catalog));
    return raw;
  }

  StatusOr<Catalog*> GetCatalog(const std::string& name) const override {
    auto it = catalogs_.find(name);
    if (it == catalogs_.end()) return NotFoundError("no catalog " + name);
    return static_cast<Catalog*>(it->second.get());
  }

  Status DeleteCatalog(const std::string& name) override {
    auto it = catalogs_.find(name);
    if (it == catalogs_.end()) return NotFoundError("no catalog " + name);
    catalogs_.erase(it);
    return env_->RemoveAll(dir_ + "/" + name);
  }

 private:
  Env* env_;
  std::string dir_;
  EngineOptions options_;
  std::map<std::string, std::unique_ptr<CatalogImpl>> catalogs_;
  std::vector<std::string> leftovers_;
};

class EmbeddedTarget : public CatalogTarget {
 public:
  EmbeddedTarget(std::string dir, std::unique_ptr<Engine> engine)
      : dir_(std::move(dir)), engine_(std::move(engine)) {}
  std::string Describe() const override { return "embedded engine in " + dir_; }
  Status CreateCatalog(const CatalogSchema& schema) override {
    auto catalog = engine_->CreateCatalog(schema);
    if (!catalog.ok()) return catalog.status();
    catalog_ = *catalog;
    return OkStatus();
  }
  Status Upsert(const Entity& entity, UpsertReceipt* receipt) override {
    if (receipt != nullptr) *receipt = {};
    return catalog_->Upsert(entity);
  }
  Status GoLive() override { return catalog_->GoLive(); }
  StatusOr<int64_t> Count(const std::string& entity_type) override { return catalog_->Count(entity_type); }
  Status DropCatalog() override {
    if (catalog_ == nullptr) return OkStatus();
    const std::string name = catalog_->name();
    catalog_ = nullptr;
    return engine_->DeleteCatalog(name);
  }

 private:
  std::string dir_;
  std::unique_ptr<Engine> engine_;
  Catalog* catalog_ = nullptr;
};

}  // namespace

namespace engine {
// For tests: opens an engine over a given Env (see engine/env.h).
StatusOr<std::unique_ptr<Engine>> OpenEngineWithEnv(Env* env, const std::string& data_dir,
                                                    const EngineOptions& options) {
  if (Status s = env->CreateDirectories(data_dir); !s.ok()) return s;
  auto engine = std::make_unique<EngineImpl>(env, data_dir, options);
  if (Status s = engine->LoadAll(); !s.ok()) return s;
  return std::unique_ptr<Engine>(std::move(engine));
}
}  // namespace engine

StatusOr<std::unique_ptr<Engine>> Engine::Open(const std::string& data_dir, const EngineOptions& options) {
  return engine::OpenEngineWithEnv(engine::DefaultEnv(), data_dir, options);
}

StatusOr<std::unique_ptr<CatalogTarget>> MakeEmbeddedTarget(const std::string& data_dir,
                                                            const EngineOptions& options) {
  auto engine = Engine::Open(data_dir, options);
  if (!engine.ok()) return engine.status();
  return std::unique_ptr<CatalogTarget>(new EmbeddedTarget(data_dir, std::move(engine).value()));
}

}  // namespace warmup
