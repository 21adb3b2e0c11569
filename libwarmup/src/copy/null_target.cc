#include <map>

#include "warmup/catalog_target.h"

namespace warmup {
namespace {

class NullTarget : public CatalogTarget {
 public:
  std::string Describe() const override { return "null (keeps nothing; measures the harness)"; }
  std::string Kind() const override { return "null"; }
  bool StoresEntities() const override { return false; }
  Status CreateCatalog(const CatalogSchema& schema) override {
    if (created_) return AlreadyExistsError("the null target holds one catalog at a time");
    created_ = true;
    name_ = schema.name;
    return OkStatus();
  }
  Status Upsert(const Entity& entity, UpsertReceipt* receipt) override {
    if (receipt != nullptr) *receipt = {};
    ++counts_[entity.type];
    return OkStatus();
  }
  Status GoLive() override { return OkStatus(); }
  StatusOr<int64_t> Count(const std::string& entity_type) override {
    auto it = counts_.find(entity_type);
    return it == counts_.end() ? 0 : it->second;
  }
  Status DropCatalog() override {
    counts_.clear();
    created_ = false;
    return OkStatus();
  }

 private:
  bool created_ = false;
  std::string name_;
  std::map<std::string, int64_t> counts_;
};

}  // namespace

std::vector<CollectionIndexStatistics> CatalogTarget::IndexStatistics() const { return {}; }

StatusOr<std::unique_ptr<CatalogSource>> CatalogTarget::ReadBack() {
  return UnimplementedError(Describe() + " keeps no content to read back");
}

std::unique_ptr<CatalogTarget> MakeNullTarget() { return std::make_unique<NullTarget>(); }

}  // namespace warmup
