// The engine behind CatalogTarget: what `warmup load --target embedded` copies into.
#include "warmup/embedded_target.h"

namespace warmup {
namespace {

// One collection of an engine catalog, in primary-key order.
class CatalogStream : public EntityStream {
 public:
  CatalogStream(const Catalog& catalog, std::string type, std::vector<int32_t> keys)
      : catalog_(catalog), type_(std::move(type)), keys_(std::move(keys)) {}
  StatusOr<bool> Next(Entity* entity) override {
    if (next_ == keys_.size()) return false;
    const int32_t pk = keys_[next_++];
    auto got = catalog_.Get(type_, pk);
    if (!got.ok()) return got.status();
    if (!got->has_value()) {
      return DataLossError(type_ + "/" + std::to_string(pk) +
                           " is listed among the primary keys but cannot be read");
    }
    *entity = std::move(**got);
    return true;
  }

 private:
  const Catalog& catalog_;
  std::string type_;
  std::vector<int32_t> keys_;
  size_t next_ = 0;
};

// An engine catalog read back as a source, for content verification.
class CatalogReadBack : public CatalogSource {
 public:
  CatalogReadBack(const Catalog& catalog, std::string where) : catalog_(catalog), where_(std::move(where)) {}
  Status Open() {
    for (const auto& [type, schema] : catalog_.schema().entities) {
      auto count = catalog_.Count(type);
      if (!count.ok()) return count.status();
      collections_.push_back({type, *count, 0});
    }
    return OkStatus();
  }
  const CatalogSchema& schema() const override { return catalog_.schema(); }
  const std::vector<CollectionInfo>& collections() const override { return collections_; }
  StatusOr<std::unique_ptr<EntityStream>> OpenCollection(const std::string& entity_type) override {
    auto keys = catalog_.PrimaryKeys(entity_type);
    if (!keys.ok()) return keys.status();
    return std::unique_ptr<EntityStream>(new CatalogStream(catalog_, entity_type, *std::move(keys)));
  }
  std::string Describe() const override { return "catalog " + catalog_.name() + " of the " + where_; }
  std::string Fingerprint() const override { return ""; }  // never compared: content is, entity by entity

 private:
  const Catalog& catalog_;
  std::string where_;
  std::vector<CollectionInfo> collections_;
};

class EmbeddedTarget : public CatalogTarget {
 public:
  EmbeddedTarget(std::string dir, std::unique_ptr<Engine> engine)
      : dir_(std::move(dir)), engine_(std::move(engine)) {}
  std::string Describe() const override { return "embedded engine in " + dir_; }
  std::string Kind() const override { return "embedded"; }
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
  std::vector<CollectionIndexStatistics> IndexStatistics() const override {
    return catalog_ == nullptr ? std::vector<CollectionIndexStatistics>{} : catalog_->index_statistics();
  }
  StatusOr<int64_t> Count(const std::string& entity_type) override { return catalog_->Count(entity_type); }
  StatusOr<std::unique_ptr<CatalogSource>> ReadBack() override {
    auto source = std::make_unique<CatalogReadBack>(*catalog_, Describe());
    if (Status s = source->Open(); !s.ok()) return s;
    return std::unique_ptr<CatalogSource>(std::move(source));
  }
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

StatusOr<std::unique_ptr<CatalogTarget>> MakeEmbeddedTarget(const std::string& data_dir,
                                                            const EngineOptions& options) {
  auto engine = Engine::Open(data_dir, options);
  if (!engine.ok()) return engine.status();
  return std::unique_ptr<CatalogTarget>(new EmbeddedTarget(data_dir, std::move(engine).value()));
}

}  // namespace warmup
