// (1) Generates the small "tiny" catalog, loads it into an embedded engine
// entity by entity, takes it live, and asks the indexes a few questions.
// Usage: generate_and_query DATA_DIR
#include <cstdio>
#include <filesystem>

// The whole library in one include (warmup/engine.h and warmup/generator.h
// are what this example uses, and would do as well).
#include "warmup/warmup.h"

namespace {

int Fail(const warmup::Status& status) {
  std::fprintf(stderr, "generate_and_query: %s\n", status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: generate_and_query DATA_DIR\n");
    return 2;
  }
  warmup::GeneratorOptions tiny;
  tiny.profile = "tiny";
  tiny.seed = 7;
  auto source = warmup::OpenGeneratorSource(tiny);
  if (!source.ok()) return Fail(source.status());
  auto engine = warmup::Engine::Open(argv[1]);
  if (!engine.ok()) return Fail(engine.status());
  auto catalog = (*engine)->CreateCatalog((*source)->schema());
  if (!catalog.ok()) return Fail(catalog.status());

  for (const warmup::CollectionInfo& collection : (*source)->collections()) {
    auto stream = (*source)->OpenCollection(collection.entity_type);
    if (!stream.ok()) return Fail(stream.status());
    warmup::Entity entity;
    for (;;) {
      auto more = (*stream)->Next(&entity);
      if (!more.ok()) return Fail(more.status());
      if (!*more) break;
      if (auto s = (*catalog)->Upsert(entity); !s.ok()) return Fail(s);
    }
  }
  if (auto s = (*catalog)->GoLive(); !s.ok()) return Fail(s);

  // A live product, its code, and the products the unique index gives for it.
  auto live = (*catalog)->Members("Product");
  if (!live.ok()) return Fail(live.status());
  if (live->empty()) return Fail(warmup::NotFoundError("no live product"));
  auto product = (*catalog)->Get("Product", live->front());
  if (!product.ok()) return Fail(product.status());
  const warmup::Value& code = (*product)->attributes.global.at("code");
  auto by_code = (*catalog)->FilterEquals("Product", "code", "", code);
  auto sorted = (*catalog)->SortBy("Product", "code", "", warmup::OrderDirection::kDesc);
  auto roots = (*catalog)->HierarchyLevel("Category", 1);
  for (const warmup::Status& s : {by_code.status(), sorted.status(), roots.status()}) {
    if (!s.ok()) return Fail(s);
  }
  std::printf("catalog %s is live with %zu live products\n", (*catalog)->name().c_str(), live->size());
  std::printf("code %s: Product/%d\n", warmup::DebugString(code).c_str(),
              by_code->empty() ? 0 : by_code->front());
  std::printf("last by code: Product/%d\n", sorted->empty() ? 0 : sorted->front());
  std::printf("root categories: %zu\n", roots->size());
  for (const auto& stats : (*catalog)->index_statistics()) {
    if (stats.entity_type == "Product") {
      std::printf("Product indexes at goLive: %lld\n", static_cast<long long>(stats.total_indexes()));
    }
  }
  return *by_code == std::vector<int32_t>{live->front()} ? 0 : 1;
}
