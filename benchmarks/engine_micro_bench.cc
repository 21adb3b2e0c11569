// Micro-benchmarks of the engine's hot structures (Google Benchmark): the
// posting set every index entry holds, and the record writer every storage
// part of every entity goes through. Run by hand; --benchmark_format=json
// writes JSON. Interleave a before/after pair with the same binary built at
// two revisions (docs/performance.md).
//
// usage: engine_micro_bench [--benchmark_filter=REGEX] [--benchmark_repetitions=N] ...
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/env.h"
#include "engine/pk_set.h"
#include "engine/record_file.h"
#include "engine/storage_parts.h"
#include "warmup/generator.h"

namespace {

using warmup::engine::PkSet;

// Keys 1..n in ascending order, as entities arrive in WARM_UP: most posting
// sets only ever append.
void BM_PkSetAddAscending(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  for (auto _ : state) {
    PkSet set;
    for (uint32_t pk = 1; pk <= n; ++pk) set.Add(pk);
    benchmark::DoNotOptimize(set.size());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_PkSetAddAscending)->Arg(2)->Arg(3)->Arg(64)->Arg(65)->Arg(4096);

// The same keys in a seeded shuffle: what an update out of order costs.
void BM_PkSetAddShuffled(benchmark::State& state) {
  std::vector<uint32_t> keys(static_cast<size_t>(state.range(0)));
  std::iota(keys.begin(), keys.end(), 1u);
  std::shuffle(keys.begin(), keys.end(), std::mt19937(7));
  for (auto _ : state) {
    PkSet set;
    for (uint32_t pk : keys) set.Add(pk);
    benchmark::DoNotOptimize(set.size());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_PkSetAddShuffled)->Arg(3)->Arg(64)->Arg(65)->Arg(4096);

// senesi's Products at scale 0.01 (1,188 entities), generated once.
const std::vector<warmup::Entity>& Products() {
  static const std::vector<warmup::Entity> products = [] {
    std::vector<warmup::Entity> out;
    warmup::GeneratorOptions options;
    options.scale = 0.01;
    auto source = warmup::OpenGeneratorSource(options);
    if (!source.ok()) {
      std::fprintf(stderr, "%s\n", source.status().ToString().c_str());
      std::exit(1);
    }
    auto stream = (*source)->OpenCollection("Product");
    if (!stream.ok()) {
      std::fprintf(stderr, "%s\n", stream.status().ToString().c_str());
      std::exit(1);
    }
    warmup::Entity entity;
    while (true) {
      auto more = (*stream)->Next(&entity);
      if (!more.ok() || !*more) break;
      out.push_back(entity);
    }
    return out;
  }();
  return products;
}

// Their storage parts, as the engine writes them.
const std::vector<std::string>& ProductParts() {
  static const std::vector<std::string> parts = [] {
    std::vector<std::string> out;
    for (const warmup::Entity& entity : Products()) {
      for (auto& part : warmup::engine::SplitIntoParts(entity)) out.push_back(std::move(part.record));
    }
    return out;
  }();
  return parts;
}

// Each Product split into its storage part records (the serialization every
// upsert pays before compression).
void BM_SplitIntoParts(benchmark::State& state) {
  const std::vector<warmup::Entity>& products = Products();
  for (auto _ : state) {
    for (const warmup::Entity& entity : products)
      benchmark::DoNotOptimize(warmup::engine::SplitIntoParts(entity));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(products.size()));
}
BENCHMARK(BM_SplitIntoParts)->Unit(benchmark::kMillisecond);

// Each Product copied whole: what handing an entity to another thread by
// value costs.
void BM_EntityCopy(benchmark::State& state) {
  const std::vector<warmup::Entity>& products = Products();
  for (auto _ : state) {
    for (const warmup::Entity& entity : products) {
      warmup::Entity copy = entity;
      benchmark::DoNotOptimize(copy.primary_key);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(products.size()));
}
BENCHMARK(BM_EntityCopy)->Unit(benchmark::kMillisecond);

// Every Product part appended to an in-memory file, compressed as asked:
// the encoder's and the compressor's cost without the disk's.
void BM_RecordAppend(benchmark::State& state) {
  const auto compression = static_cast<warmup::RecordCompression>(state.range(0));
  const std::vector<std::string>& parts = ProductParts();
  int64_t bytes = 0;
  for (const std::string& p : parts) bytes += static_cast<int64_t>(p.size());
  auto env = warmup::engine::NewMemEnv();
  if (warmup::Status s = env->CreateDirectories("/records"); !s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    return;
  }
  int round = 0;
  for (auto _ : state) {
    auto writer =
        warmup::engine::RecordWriter::Open(env.get(), "/records/" + std::to_string(round++), compression);
    if (!writer.ok()) {
      state.SkipWithError(writer.status().ToString().c_str());
      return;
    }
    for (const std::string& p : parts) benchmark::DoNotOptimize((*writer)->Append(p));
    state.counters["stored_per_input"] = static_cast<double>((*writer)->size()) / static_cast<double>(bytes);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(parts.size()));
}
BENCHMARK(BM_RecordAppend)
    ->ArgName("compression")
    ->Arg(static_cast<int>(warmup::RecordCompression::kNone))
    ->Arg(static_cast<int>(warmup::RecordCompression::kZstd))
    ->Arg(static_cast<int>(warmup::RecordCompression::kDeflate))
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
