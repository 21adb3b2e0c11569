// The engine behind CatalogTarget: what `warmup load --target embedded` copies into.
#include "warmup/engine.h"

namespace warmup {
namespace {

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

StatusOr<std::unique_ptr<CatalogTarget>> MakeEmbeddedTarget(const std::string& data_dir,
                                                            const EngineOptions& options) {
  auto engine = Engine::Open(data_dir, options);
  if (!engine.ok()) return engine.status();
  return std::unique_ptr<CatalogTarget>(new EmbeddedTarget(data_dir, std::move(engine).value()));
}

}  // namespace warmup
