// (2) A custom CatalogTarget: wraps the embedded engine and keeps, per
// collection, a histogram of its upsert times in power-of-two microsecond
// buckets; RunCopy drives it like any target.
// Usage: latency_histogram_target DATA_DIR
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "warmup/copy_engine.h"
#include "warmup/embedded_target.h"
#include "warmup/generator.h"
#include "warmup/run_result.h"

namespace {

class LatencyHistogramTarget : public warmup::CatalogTarget {
 public:
  static constexpr int kBuckets = 24;  // [0,1) µs, [1,2), [2,4), ... [2^22, ∞)
  using Histogram = std::array<int64_t, kBuckets>;

  explicit LatencyHistogramTarget(std::unique_ptr<warmup::CatalogTarget> inner) : inner_(std::move(inner)) {}

  std::string Describe() const override { return "histograms over " + inner_->Describe(); }
  warmup::Status CreateCatalog(const warmup::CatalogSchema& schema) override {
    return inner_->CreateCatalog(schema);
  }
  warmup::Status Upsert(const warmup::Entity& entity, warmup::UpsertReceipt* receipt) override {
    const auto start = std::chrono::steady_clock::now();
    warmup::Status status = inner_->Upsert(entity, receipt);
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start)
            .count();
    int bucket = 0;
    while (bucket + 1 < kBuckets && (int64_t{1} << bucket) <= micros) ++bucket;
    ++histograms_[entity.type][static_cast<size_t>(bucket)];
    return status;
  }
  warmup::Status GoLive() override { return inner_->GoLive(); }
  warmup::StatusOr<int64_t> Count(const std::string& entity_type) override {
    return inner_->Count(entity_type);
  }
  warmup::Status DropCatalog() override { return inner_->DropCatalog(); }
  std::string Kind() const override { return inner_->Kind(); }
  bool StoresEntities() const override { return inner_->StoresEntities(); }

  const std::map<std::string, Histogram>& histograms() const { return histograms_; }

 private:
  std::unique_ptr<warmup::CatalogTarget> inner_;
  std::map<std::string, Histogram> histograms_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: latency_histogram_target DATA_DIR\n");
    return 2;
  }
  warmup::GeneratorOptions senesi;
  senesi.scale = 0.002;
  auto source = warmup::OpenGeneratorSource(senesi);
  auto embedded = warmup::MakeEmbeddedTarget(argv[1]);
  if (!source.ok() || !embedded.ok()) {
    std::fprintf(stderr, "%s\n", (!source.ok() ? source.status() : embedded.status()).ToString().c_str());
    return 1;
  }
  LatencyHistogramTarget target(std::move(embedded).value());
  auto result = warmup::RunCopy(**source, target, {});
  if (!result.ok()) {
    std::fprintf(stderr, "%s\n", result.status().ToString().c_str());
    return 1;
  }
  for (const auto& [type, histogram] : target.histograms()) {
    std::printf("%-20s", type.c_str());
    for (int b = 0; b < LatencyHistogramTarget::kBuckets; ++b) {
      if (histogram[static_cast<size_t>(b)] > 0) {
        std::printf("  <%lldus:%lld", static_cast<long long>(int64_t{1} << b),
                    static_cast<long long>(histogram[static_cast<size_t>(b)]));
      }
    }
    std::printf("\n");
  }
  return result->ExitCode();
}
